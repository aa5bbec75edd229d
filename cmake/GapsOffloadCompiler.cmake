# The offload backend is built by clang-19 with LLVM's OpenMP offload runtime (libomp-19-dev):
# Debian's clang-14 stops at sm_86 and Debian's clang-22 ships no NVPTX device runtime.
# GCC with its nvptx offload compiler builds the same source when chosen explicitly
# (-DCMAKE_C_COMPILER=gcc-12, cmake/GapsOffloadGCC.cmake); it is not the default because its
# GPU code is much slower (doc/gpu-gcc.md).
# Included before project(), so that the compiler can still be chosen.
if(NOT CMAKE_C_COMPILER)
  find_program(GAPS_CLANG19 NAMES clang-19 PATHS /usr/lib/llvm-19/bin)
  if(NOT GAPS_CLANG19)
    message(FATAL_ERROR
      "GAPS_BACKEND=offload needs clang-19 with libomp-19-dev: install them with "
      "'bash tools/install-deps.sh --offload' (or pass -DCMAKE_C_COMPILER=<clang 19+>)")
  endif()
  set(CMAKE_C_COMPILER ${GAPS_CLANG19} CACHE FILEPATH "C compiler of the offload build" FORCE)
endif()
# The C++ programs of the tests (tests/CMakeLists.txt) are compiled and linked with the same
# clang: one of them links the physics library, whose offload flags (--offload-arch=...) and
# device code g++ does not know.  Chosen here, before the C++ language is first enabled; the
# clang++ of the C compiler's own LLVM (clang-19 -> clang++-19), unless CMAKE_CXX_COMPILER or
# CXX chooses another.
if(NOT DEFINED CMAKE_CXX_COMPILER AND NOT DEFINED ENV{CXX})
  get_filename_component(_gaps_cc_real "${CMAKE_C_COMPILER}" REALPATH)
  get_filename_component(_gaps_cc_dir "${_gaps_cc_real}" DIRECTORY)
  get_filename_component(_gaps_cc_name "${CMAKE_C_COMPILER}" NAME)
  if(_gaps_cc_name MATCHES "^clang(-[0-9]+)?$")
    string(REGEX REPLACE "^clang" "clang++" _gaps_cxx_name "${_gaps_cc_name}")
    get_filename_component(_gaps_cc_given_dir "${CMAKE_C_COMPILER}" DIRECTORY)
    find_program(GAPS_OFFLOAD_CXX NAMES ${_gaps_cxx_name} clang++
                 HINTS ${_gaps_cc_given_dir} ${_gaps_cc_dir})
    if(GAPS_OFFLOAD_CXX)
      set(CMAKE_CXX_COMPILER ${GAPS_OFFLOAD_CXX} CACHE FILEPATH "C++ compiler of the offload build")
    endif()
  endif()
endif()
