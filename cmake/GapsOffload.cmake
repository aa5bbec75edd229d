# OpenMP target offload to an NVIDIA GPU with clang/LLVM 19 (see doc/gpu.md), or with GCC's
# nvptx offloading when the C compiler is GCC (cmake/GapsOffloadGCC.cmake, doc/gpu-gcc.md).
#
#   GAPS_GPU_ARCH   GPU architecture, default sm_90 (H100 and H200)
#   GAPS_CUDA_PATH  CUDA toolkit with ptxas and nvlink, default: the one of nvcc on PATH, or
#                   /usr/local/cuda
#   GAPS_LLVM_LIB   LLVM 19 library dir with libomptarget and the NVPTX device runtime
set(GAPS_GPU_ARCH "sm_90" CACHE STRING "GPU architecture of the offload build")

# The same source builds with either compiler; GCC's flags and checks are its own.
if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
  include(${CMAKE_CURRENT_LIST_DIR}/GapsOffloadGCC.cmake)
  return()
endif()
if(NOT CMAKE_C_COMPILER_ID STREQUAL "Clang" OR CMAKE_C_COMPILER_VERSION VERSION_LESS 19)
  message(FATAL_ERROR "GAPS_BACKEND=offload needs clang 19 or newer, or GCC 12 or newer with "
                      "its nvptx offload compiler, got ${CMAKE_C_COMPILER_ID} "
                      "${CMAKE_C_COMPILER_VERSION} (${CMAKE_C_COMPILER})")
endif()

if(NOT GAPS_CUDA_PATH)
  find_program(GAPS_NVCC nvcc PATHS /usr/local/cuda/bin)
  if(GAPS_NVCC)
    get_filename_component(GAPS_CUDA_PATH "${GAPS_NVCC}" DIRECTORY)
    get_filename_component(GAPS_CUDA_PATH "${GAPS_CUDA_PATH}" DIRECTORY)
  endif()
endif()
if(NOT GAPS_CUDA_PATH OR NOT EXISTS "${GAPS_CUDA_PATH}/bin/ptxas" OR NOT EXISTS "${GAPS_CUDA_PATH}/bin/nvlink")
  message(FATAL_ERROR "GAPS_BACKEND=offload needs a CUDA toolkit with ptxas and nvlink: "
                      "set -DGAPS_CUDA_PATH=<dir> (looked at '${GAPS_CUDA_PATH}')")
endif()
set(GAPS_CUDA_PATH "${GAPS_CUDA_PATH}" CACHE PATH "CUDA toolkit of the offload build")

get_filename_component(_gaps_clang_dir "${CMAKE_C_COMPILER}" REALPATH)
get_filename_component(_gaps_clang_dir "${_gaps_clang_dir}" DIRECTORY)
get_filename_component(_gaps_llvm_lib "${_gaps_clang_dir}/../lib" ABSOLUTE)
set(GAPS_LLVM_LIB "${_gaps_llvm_lib}" CACHE PATH "LLVM library dir with libomptarget")
string(REPLACE "sm_" "" _gaps_sm "${GAPS_GPU_ARCH}")
if(NOT EXISTS "${GAPS_LLVM_LIB}/libomptarget-nvptx-${GAPS_GPU_ARCH}.bc"
   AND NOT EXISTS "${GAPS_LLVM_LIB}/libomptarget.devicertl.a")
  message(FATAL_ERROR "no NVPTX OpenMP device runtime for ${GAPS_GPU_ARCH} in ${GAPS_LLVM_LIB}: "
                      "install libomp-19-dev ('bash tools/install-deps.sh --offload')")
endif()
if(NOT EXISTS "${GAPS_LLVM_LIB}/libomptarget.so")
  message(FATAL_ERROR "libomptarget not found in ${GAPS_LLVM_LIB}: install libomp-19-dev")
endif()
find_package(Python3 COMPONENTS Interpreter REQUIRED)

# Register caps of chosen kernels: "name=N;..." gives every kernel whose name contains `name`
# at most N registers (PTX .maxnreg).  OpenMP in clang 19 cannot ask for it (no blocks-per-SM
# in launch_bounds, ptxas ignores --maxrregcount next to .maxntid), so the build compiles
# through a CUDA directory of its own whose ptxas is backend/ptxas_register_caps.py; every
# other file is a link to the real toolkit.  The analysis kernel: 164 registers by default
# (one 256-thread block per SM), 96 without any spill (two blocks); 23 % faster on an H200.
# The fused shower kernel: 130-138 registers, too many for two blocks per SM; held at 128
# (a 16-byte spill) it is 16-18 % faster (doc/benchmarks.md).  Empty: the toolkit as it is.
set(GAPS_GPU_REGISTER_CAPS "gaps_analysis_launch=96;gaps_shower_launch_cycles=128;gaps_shower_launch_step=128;gaps_shower_launch_trial=128;gaps_shower_launch_splitting=128" CACHE STRING
    "Register caps of GPU kernels, NAME=N;... (empty: none)")
foreach(_cap IN LISTS GAPS_GPU_REGISTER_CAPS)
  if(NOT _cap MATCHES "^[A-Za-z0-9_]+=([0-9]+)$" OR CMAKE_MATCH_1 LESS 16 OR CMAKE_MATCH_1 GREATER 255)
    message(FATAL_ERROR "GAPS_GPU_REGISTER_CAPS: '${_cap}' is not NAME=N with 16 <= N <= 255")
  endif()
endforeach()
set(_gaps_cuda_for_clang "${GAPS_CUDA_PATH}")
if(GAPS_GPU_REGISTER_CAPS)
  set(_gaps_shim "${CMAKE_BINARY_DIR}/gaps-cuda")
  file(REMOVE_RECURSE "${_gaps_shim}")
  file(MAKE_DIRECTORY "${_gaps_shim}/bin")
  # a link in DST to every entry of SRC but one
  function(_gaps_link_all_but src dst except)
    file(GLOB _entries RELATIVE "${src}" "${src}/*")
    foreach(_e IN LISTS _entries)
      if(NOT _e STREQUAL except)
        file(CREATE_LINK "${src}/${_e}" "${dst}/${_e}" SYMBOLIC)
      endif()
    endforeach()
  endfunction()
  _gaps_link_all_but("${GAPS_CUDA_PATH}" "${_gaps_shim}" bin)
  _gaps_link_all_but("${GAPS_CUDA_PATH}/bin" "${_gaps_shim}/bin" ptxas)
  set(GAPS_REAL_PTXAS "${GAPS_CUDA_PATH}/bin/ptxas")
  file(READ "${PROJECT_SOURCE_DIR}/backend/ptxas_register_caps.py" _gaps_front)
  string(REPLACE "#!/usr/bin/env python3" "#!${Python3_EXECUTABLE}" _gaps_front "${_gaps_front}")
  string(CONFIGURE "${_gaps_front}" _gaps_front @ONLY)
  file(WRITE "${_gaps_shim}/bin/ptxas" "${_gaps_front}")
  file(CHMOD "${_gaps_shim}/bin/ptxas" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
       GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
               "${PROJECT_SOURCE_DIR}/backend/ptxas_register_caps.py")
  set(_gaps_cuda_for_clang "${_gaps_shim}")
endif()
message(STATUS "gaps offload: ${CMAKE_C_COMPILER} -> ${GAPS_GPU_ARCH}, CUDA ${GAPS_CUDA_PATH}, "
               "LLVM runtime ${GAPS_LLVM_LIB}, register caps '${GAPS_GPU_REGISTER_CAPS}'")

# -foffload-lto: the device code of all source files is linked as LLVM bitcode into one module
# before ptxas.  Without it every file becomes its own relocatable cubin and CUDA 13's nvlink
# joins them; after the header rewrite below, a call from one file into another then silently
# ends the GPU thread (seen on an H200: the matrix element never ran).  One module also lets
# the compiler inline across files.
# The build links through the register-capping CUDA directory; an installed libgaps.a names
# the real toolkit (a user's link then applies no caps).
# -fopenmp-cuda-mode: a local variable of device code stays the thread's own (as in CUDA)
# instead of being "globalized" (moved to team-shared memory by __kmpc_alloc_shared whenever
# its address is passed on, then moved back by the OpenMP optimisation passes).  Every target
# region here is a combined `target teams distribute parallel for` whose iterations share no
# local variable, so the mode changes no semantics; it removes a miscompilation of clang 19:
# after the moves back, loads of a struct that a called function had filled were folded away
# (pp-ll's NLO events read m^2 = 0 and got infinite weights on the GPU; doc/gpu.md).
function(gaps_enable_offload target)
  set(_flags -fopenmp -fopenmp-cuda-mode --offload-arch=${GAPS_GPU_ARCH} -foffload-lto)
  target_compile_definitions(${target} PUBLIC GAPS_BACKEND_OFFLOAD)
  target_compile_options(${target} PUBLIC ${_flags} --cuda-path=${_gaps_cuda_for_clang})
  list(APPEND _flags "$<BUILD_INTERFACE:--cuda-path=${_gaps_cuda_for_clang}>"
                     "$<INSTALL_INTERFACE:--cuda-path=${GAPS_CUDA_PATH}>"
                     --libomptarget-nvptx-bc-path=${GAPS_LLVM_LIB})
  target_link_options(${target} PUBLIC ${_flags} -L${GAPS_LLVM_LIB})
  target_link_libraries(${target} PUBLIC dl)
endfunction()

# Every executable of the offload build finds libomp and libomptarget of LLVM 19 through its
# run path (not the system's older libomp.so.5), or in lib/ next to it (where
# tools/bundle-offload-runtime.sh's bundle is unpacked on GPU nodes without LLVM), and gets
# its device image checked and, for CUDA 13, its header rewritten (backend/fix_cuda_image.py);
# a build without a device image fails here.
function(gaps_offload_executable target)
  set_target_properties(${target} PROPERTIES BUILD_RPATH "${GAPS_LLVM_LIB};\$ORIGIN/lib")
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/backend/fix_cuda_image.py $<TARGET_FILE:${target}>
    VERBATIM)
endfunction()
