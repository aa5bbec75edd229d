# OpenMP target offload to an NVIDIA GPU with GCC's own nvptx offloading (doc/gpu-gcc.md).
# Included by GapsOffload.cmake when the C compiler is GCC; defines the same two functions as
# the clang path there, gaps_enable_offload() and gaps_offload_executable().
#
#   GAPS_GPU_ARCH   GPU the program is for, default sm_90 (H100, H200).  GCC compiles for the
#                   newest PTX target it knows that the GPU can run (its -march-map table:
#                   GCC 12 maps sm_86..sm_90 to sm_80; a newer GPU gets the newest target);
#                   the driver compiles that PTX for the real GPU when the program starts.
#   GAPS_CUDA_PATH  optional: CUDA toolkit whose ptxas checks the device code at build time.
#   GAPS_GCC_SIMT_STACK  stack bytes per GPU lane in simd regions, default 16384 (see below).
#
# How GCC's offloading differs from clang's:
# - The executable embeds PTX text, not a CUDA ELF image.  libgomp's nvptx plugin hands that
#   PTX to the CUDA driver, which compiles it for the GPU at start-up (and caches the result),
#   so CUDA 13's image header (backend/fix_cuda_image.py, clang only) does not arise and no
#   CUDA toolkit is needed to build or to run.
# - Device code of all files is linked through GCC's LTO (mkoffload) into one PTX module set:
#   no separate device-LTO flag is needed.
# - The driver's PTX compiler fuses a multiply and an add into one fma unless the PTX asks for
#   round-to-nearest explicitly (mul.rn / add.rn), and GCC's nvptx back end writes plain
#   mul.f64 / add.f64 even under -ffp-contract=off.  Fused and unfused results differ in the
#   last bit, and the project promises the same bits on every backend, so the device link
#   step is wrapped (gaps-nvptx-tools/ld below) to add the explicit rounding mode.

if(CMAKE_C_COMPILER_VERSION VERSION_LESS 12)
  message(FATAL_ERROR "GAPS_BACKEND=offload with GCC needs GCC 12 or newer with the nvptx "
                      "offload compiler, got GCC ${CMAKE_C_COMPILER_VERSION}")
endif()

# The offload compiler of this GCC (Debian: gcc-N-offload-nvptx).  -print-file-name returns
# the bare name when the file is not installed.
execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=accel/nvptx-none/mkoffload
                OUTPUT_VARIABLE _gaps_mkoffload OUTPUT_STRIP_TRAILING_WHITESPACE)
string(REGEX MATCH "^[0-9]+" _gaps_gcc_major "${CMAKE_C_COMPILER_VERSION}")
if(NOT IS_ABSOLUTE "${_gaps_mkoffload}" OR NOT EXISTS "${_gaps_mkoffload}")
  message(FATAL_ERROR "GAPS_BACKEND=offload: ${CMAKE_C_COMPILER} has no nvptx offload compiler: "
                      "install gcc-${_gaps_gcc_major}-offload-nvptx")
endif()
get_filename_component(_gaps_accel_dir "${_gaps_mkoffload}" DIRECTORY)
set(_gaps_real_ld "${_gaps_accel_dir}/ld")
if(NOT EXISTS "${_gaps_real_ld}" OR NOT EXISTS "${_gaps_accel_dir}/lto1")
  message(FATAL_ERROR "GAPS_BACKEND=offload: incomplete nvptx offload compiler in "
                      "${_gaps_accel_dir} (no ld or lto1): reinstall gcc-${_gaps_gcc_major}-offload-nvptx")
endif()

# Which PTX target GCC picks for the GPU: the offload compiler lists its -march-map table
# (GPU -> newest PTX target it can run).  A GPU newer than every entry runs the newest one.
execute_process(COMMAND ${_gaps_accel_dir}/lto1 --help=target
                OUTPUT_VARIABLE _gaps_accel_help ERROR_QUIET)
string(REGEX MATCHALL "-march-map=sm_[0-9]+[ \t]+-m(isa|arch)=sm_[0-9]+" _gaps_pairs
       "${_gaps_accel_help}")
if(NOT GAPS_GPU_ARCH MATCHES "^sm_([0-9]+)$")
  message(FATAL_ERROR "GAPS_GPU_ARCH must look like sm_90, got '${GAPS_GPU_ARCH}'")
endif()
set(_gaps_want ${CMAKE_MATCH_1})
set(GAPS_GCC_PTX_ISA "")
set(_gaps_top 0)
foreach(_p IN LISTS _gaps_pairs)
  string(REGEX MATCH "-march-map=sm_([0-9]+)[ \t]+-m(isa|arch)=(sm_[0-9]+)" _m "${_p}")
  if(CMAKE_MATCH_1 EQUAL _gaps_want)
    set(GAPS_GCC_PTX_ISA ${CMAKE_MATCH_3})
  endif()
  if(CMAKE_MATCH_1 GREATER _gaps_top)
    set(_gaps_top ${CMAKE_MATCH_1})
    set(_gaps_top_isa ${CMAKE_MATCH_3})
  endif()
endforeach()
if(NOT GAPS_GCC_PTX_ISA AND _gaps_top GREATER 0 AND _gaps_want GREATER _gaps_top)
  set(GAPS_GCC_PTX_ISA ${_gaps_top_isa})
endif()
if(NOT GAPS_GCC_PTX_ISA)
  message(FATAL_ERROR "GAPS_BACKEND=offload: GCC ${CMAKE_C_COMPILER_VERSION}'s nvptx compiler "
                      "has no PTX target for GAPS_GPU_ARCH=${GAPS_GPU_ARCH} (see "
                      "'${_gaps_accel_dir}/lto1 --help=target', -march-map=)")
endif()

# ptxas, only to check the PTX at build time (the program needs none at run time).
if(NOT GAPS_CUDA_PATH)
  find_program(GAPS_PTXAS ptxas PATHS /usr/local/cuda/bin)
else()
  find_program(GAPS_PTXAS ptxas PATHS ${GAPS_CUDA_PATH}/bin NO_DEFAULT_PATH)
endif()
find_package(Python3 COMPONENTS Interpreter REQUIRED)
if(GAPS_PTXAS)
  set(_gaps_ptxas_note "PTX checked by ${GAPS_PTXAS}")
else()
  set(_gaps_ptxas_note "no ptxas found: PTX not checked at build time")
endif()
message(STATUS "gaps offload: GCC ${CMAKE_C_COMPILER_VERSION} nvptx, ${GAPS_GPU_ARCH} as PTX "
               "${GAPS_GCC_PTX_ISA}; ${_gaps_ptxas_note}")

# The device linker wrapper.  The offload compiler looks for `ld` in a -B directory first; this
# one runs the real nvptx linker, then gives every floating-point add, sub and mul of the linked
# PTX (the program's code, libgomp's and newlib's) the explicit .rn rounding mode.  add.rn.f64
# rounds exactly like add.f64 but may not be fused with a multiply by the driver.  Identifiers
# in PTX contain no '.', so the pattern matches only instructions (a predicate guard such as
# '@%r5 add.f64' keeps its space before the opcode).
set(GAPS_GCC_TOOLS_DIR "${CMAKE_BINARY_DIR}/gaps-nvptx-tools")
file(MAKE_DIRECTORY "${GAPS_GCC_TOOLS_DIR}")
set(_gaps_ld_script [=[#!/bin/sh
# Written by cmake/GapsOffloadGCC.cmake: nvptx device link, then explicit rounding of
# floating-point add/sub/mul so that the CUDA driver does not fuse them into fma.
set -e
'@GAPS_REAL_LD@' "$@"
out=a.out
while [ $# -gt 0 ]; do
    case $1 in
        -o) out=$2; shift ;;
        -o*) out=${1#-o} ;;
    esac
    shift
done
sed -E -i 's/(^|[[:space:]])(add|sub|mul)\.(f32|f64)([[:space:]])/\1\2.rn.\3\4/g' "$out"
]=])
string(REPLACE "@GAPS_REAL_LD@" "${_gaps_real_ld}" _gaps_ld_script "${_gaps_ld_script}")
file(WRITE "${GAPS_GCC_TOOLS_DIR}/ld" "${_gaps_ld_script}")
file(CHMOD "${GAPS_GCC_TOOLS_DIR}/ld" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
           GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

# Stack per lane in simd regions.  Outside simd regions GCC runs each OpenMP thread on one
# warp, with a stack per warp in global memory (libgomp allocates it); inside a simd region
# each lane is a thread of its own and the functions it calls get a fixed per-lane stack in
# local memory, 128 bytes by default.  The analysis loop's calls (jet clustering, event
# shapes) need about 7 KB; the executable check below fails if the reserve is too small.
set(GAPS_GCC_SIMT_STACK 16384 CACHE STRING
    "GCC offload: stack bytes per GPU lane in simd regions (-msoft-stack-reserve-local)")

# -foffload=nvptx-none: only this target (Debian's GCC also knows amdgcn, and with an offload
# compiler installed GCC would otherwise offload to every installed one).  The offload
# compiler inherits -O3 and -ffp-contract=off from the compile step (GCC streams them with the
# device code; checked: no fma.rn in the PTX).  Device code is compiled when the executable
# is linked (mkoffload), hence the -foffload-options there only.  -lm: the device has its own
# math library (newlib's), without which the link stops at "unresolved symbol fmin"; the
# physics calls only exact functions there (fmin, fmax; sqrt is the sqrt.rn instruction, with
# newlib's sqrt only for negative arguments), and its exp/log/sin/cos are the project's own
# (include/gaps/fpmath.h).
function(gaps_enable_offload target)
  target_compile_definitions(${target} PUBLIC GAPS_BACKEND_OFFLOAD)
  target_compile_options(${target} PUBLIC -fopenmp -foffload=nvptx-none)
  target_link_options(${target} PUBLIC -fopenmp -foffload=nvptx-none
                      -foffload-options=-misa=${GAPS_GCC_PTX_ISA} -foffload-options=-lm
                      -foffload-options=-msoft-stack-reserve-local=${GAPS_GCC_SIMT_STACK}
                      -foffload-options=-B${GAPS_GCC_TOOLS_DIR}/)
  # -no-pie: GCC's crtoffloadtable.o keeps the offload table's four pointers in .rodata, so a
  # PIE would need text relocations (ld: "creating DT_TEXTREL in a PIE"); a fixed-address
  # executable resolves them when linked.
  target_link_options(${target} PUBLIC -no-pie)
  target_link_libraries(${target} PUBLIC dl)
endfunction()

# libgomp.so.1 and libgomp-plugin-nvptx.so.1 of this GCC are found in lib/ next to the
# executable first (tools/bundle-offload-runtime.sh's bundle, for GPU nodes whose system GCC
# has no nvptx plugin or another libgomp version: plugin and libgomp must be of one version).
# The run path is written as DT_RPATH (--disable-new-dtags), not DT_RUNPATH: libgomp dlopen()s
# its plugin, and only the executable's DT_RPATH also covers libraries that other libraries
# load.  After the link the executable is checked (cmake/check_gcc_offload_image.py): it must
# hold PTX with kernels, no fusable add/sub/mul may be left (ld wrapper above), every simd
# region must have the per-lane stack its calls need, and with ptxas the PTX must compile for
# GAPS_GPU_ARCH.
function(gaps_offload_executable target)
  # BUILD_WITH_INSTALL_RPATH: the build tree's executable is already the installed one; else
  # CMake pads the build run path with an empty entry (the current directory) for install.
  set_target_properties(${target} PROPERTIES BUILD_RPATH "\$ORIGIN/lib"
                        INSTALL_RPATH "\$ORIGIN/lib" BUILD_WITH_INSTALL_RPATH ON)
  target_link_options(${target} PRIVATE -Wl,--disable-new-dtags)
  set(_check ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/cmake/check_gcc_offload_image.py
             $<TARGET_FILE:${target}>)
  if(GAPS_PTXAS)
    list(APPEND _check --ptxas ${GAPS_PTXAS} --arch ${GAPS_GPU_ARCH})
  endif()
  add_custom_command(TARGET ${target} POST_BUILD COMMAND ${_check} VERBATIM)
endfunction()
