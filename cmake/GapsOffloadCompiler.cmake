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
