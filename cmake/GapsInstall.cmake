# Installation of gaps (included at the end of the top-level CMakeLists.txt):
#
#   bin/gaps, bin/gaps-plot                  the program and its plotting tool
#   lib/libgaps.a                            the library (static only)
#   include/gaps/*.h                         its public headers
#   lib/cmake/gaps/                          find_package(gaps CONFIG) -> imported target gaps::gaps
#   lib/pkgconfig/gaps.pc                    pkg-config --cflags --libs gaps
#   share/doc/gaps/                          README.md and doc/ (not doc/results/)
#   libexec/gaps/fix_cuda_image.py           offload backend only (see below)
#
# No installed file names the build or source directory (tests/install/test_install.sh checks
# this; one exception, the GPU bitcode module names in the offload backend's libgaps.a, is
# explained there), so the installed tree can be moved or packaged.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(GAPS_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/gaps" CACHE STRING
    "Where the CMake package files of gaps are installed (relative to the prefix)")
mark_as_advanced(GAPS_INSTALL_CMAKEDIR)

# --- What a program that links the installed library needs --------------------------------
# gaps_physics hands its PUBLIC requirements to the build's own programs (gaps, the tests).
# Part of them concern only how gaps itself is compiled and must not reach a user's code:
#   compile options   -Wall -Wextra -ffp-contract=off, -foffload=disable and the offload
#                     compile flags: a user's own sources need none of them (the offload flags
#                     would even make clang compile all of a user's code for the GPU);
#   GAPS_VERSION, GAPS_BACKEND_*   read only by src/ and backend/, never by include/gaps/;
#   -foffload=disable (link)       GCC-only, guards gaps' own target regions;
#   OpenMP::OpenMP_C               replaced by gapsConfig.cmake with the OpenMP runtime (link
#                                  only) of whichever language the user's project enabled (a
#                                  C++-only project has no OpenMP::OpenMP_C).
# They are wrapped in $<BUILD_INTERFACE:...>: the build sees exactly what it saw before, the
# exported target leaves them out.  Everything else (include directory, GAPS_USE_LIBM, the
# offload link flags, libm, libdl) is exported as it is.
function(_gaps_build_only target property)
  get_target_property(_items ${target} ${property})
  if(NOT _items)
    return()
  endif()
  set(_out "")
  foreach(_item IN LISTS _items)
    set(_build_only FALSE)
    foreach(_pattern IN LISTS ARGN)
      if(_item MATCHES "${_pattern}")
        set(_build_only TRUE)
      endif()
    endforeach()
    if(_build_only)
      list(APPEND _out "$<BUILD_INTERFACE:${_item}>")
    else()
      list(APPEND _out "${_item}")
    endif()
  endforeach()
  set_property(TARGET ${target} PROPERTY ${property} "${_out}")
endfunction()
_gaps_build_only(gaps_physics INTERFACE_COMPILE_OPTIONS ".")
_gaps_build_only(gaps_physics INTERFACE_COMPILE_DEFINITIONS "^GAPS_VERSION=" "^GAPS_BACKEND_")
_gaps_build_only(gaps_physics INTERFACE_LINK_OPTIONS "^-foffload=disable$")
_gaps_build_only(gaps_physics INTERFACE_LINK_LIBRARIES "^OpenMP::")

# --- The library that is installed ----------------------------------------------------------
# serial, openmp: gaps_physics itself, a static library, named libgaps.a.
# offload: gaps_physics is an OBJECT library (CMakeLists.txt says why); the same objects are
# archived once more into libgaps.a.  A program links it with clang 19 and the offload link
# flags (exported with the target), and must take the WHOLE archive: clang's offload linker
# (clang-linker-wrapper, LLVM 19) treats archive members as lazy and takes their GPU code only
# when GPU code of the program asks for it.  A program whose own objects are compiled without
# the offload flags (as gaps::gaps leaves them: see above) then gets no GPU image at all from
# a plain -lgaps (measured: fix_cuda_image.py finds no CUDA image); linked with the whole
# archive, its image has the same 7 kernels as the gaps program's and it ran on an H200 with
# the CPU builds' cross section to the last digit.  gapsConfig.cmake links the whole archive,
# gaps.pc writes -Wl,--whole-archive -lgaps -Wl,--no-whole-archive.  The executable must then be
# post-processed as the build's own are: gaps_offload_executable() of gapsConfig.cmake runs
# fix_cuda_image.py and puts LLVM 19's libraries on the run path.
if(GAPS_BACKEND STREQUAL "offload")
  add_library(gaps_archive STATIC $<TARGET_OBJECTS:gaps_physics>)
  set_target_properties(gaps_archive PROPERTIES LINKER_LANGUAGE C EXPORT_NAME gaps_archive)
  foreach(_p INTERFACE_INCLUDE_DIRECTORIES INTERFACE_COMPILE_DEFINITIONS
             INTERFACE_COMPILE_OPTIONS INTERFACE_LINK_OPTIONS INTERFACE_LINK_LIBRARIES)
    get_target_property(_v gaps_physics ${_p})
    if(_v)
      set_property(TARGET gaps_archive PROPERTY ${_p} "${_v}")
    endif()
  endforeach()
  set(_gaps_library gaps_archive)
  # the installed program keeps the build's run path: LLVM 19's libomp and libomptarget, or
  # lib/ next to it (tools/bundle-offload-runtime.sh)
  get_target_property(_gaps_rpath gaps BUILD_RPATH)
  set_target_properties(gaps PROPERTIES INSTALL_RPATH "${_gaps_rpath}")
else()
  set_target_properties(gaps_physics PROPERTIES EXPORT_NAME gaps)
  set(_gaps_library gaps_physics)
endif()
set_target_properties(${_gaps_library} PROPERTIES OUTPUT_NAME gaps)

install(TARGETS gaps RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS ${_gaps_library} EXPORT gapsTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# Only include/gaps/ is public: backend/ holds the backend's private headers.
install(DIRECTORY include/gaps DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")
# GCC writes the GPU code streams of an OpenMP file into the object even with
# -foffload=disable (the option acts only at the link): a GCC with an offload compiler
# installed (gcc-12-offload-nvptx) would then compile them for the GPU when a user links
# libgaps.a, and fail where the CUDA toolkit does not match it.  The openmp backend never
# offloads, so the installed library goes without them.
if(GAPS_BACKEND STREQUAL "openmp" AND CMAKE_C_COMPILER_ID STREQUAL "GNU")
  if(NOT CMAKE_OBJCOPY)
    message(FATAL_ERROR "objcopy (binutils) not found: needed to install libgaps.a")
  endif()
  install(CODE "
    set(_gaps_lib \"${CMAKE_INSTALL_LIBDIR}/$<TARGET_FILE_NAME:gaps_physics>\")
    if(NOT IS_ABSOLUTE \"\${_gaps_lib}\")
      set(_gaps_lib \"\${CMAKE_INSTALL_PREFIX}/\${_gaps_lib}\")
    endif()
    execute_process(COMMAND \"${CMAKE_OBJCOPY}\" \"--remove-section=.gnu.offload_lto_*\"
                            \"\$ENV{DESTDIR}\${_gaps_lib}\" RESULT_VARIABLE _gaps_rc)
    if(NOT _gaps_rc EQUAL 0)
      message(FATAL_ERROR \"objcopy failed on \$ENV{DESTDIR}\${_gaps_lib}\")
    endif()")
endif()
# OPTIONAL: tools/gaps-plot is not part of every checkout.
install(PROGRAMS tools/gaps-plot DESTINATION ${CMAKE_INSTALL_BINDIR} OPTIONAL)
# The README's links point into doc/, so doc/ keeps its place next to it.  Only the pages
# and their figures: doc/results/ holds raw benchmark output (logs, CSV tables) for whoever
# reproduces the measurements from a checkout, not documentation to install.
# the PDF sets the hadron processes use out of the box (CT14lo)
install(DIRECTORY share/pdfsets/ DESTINATION ${CMAKE_INSTALL_DATADIR}/gaps/pdfsets)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY doc/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/doc
        FILES_MATCHING PATTERN "*.md" PATTERN "*.png"
        PATTERN "results" EXCLUDE)
if(GAPS_BACKEND STREQUAL "offload")
  install(PROGRAMS backend/fix_cuda_image.py DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/gaps)
endif()

# --- CMake package --------------------------------------------------------------------------
install(EXPORT gapsTargets NAMESPACE gaps:: FILE gapsTargets.cmake
        DESTINATION ${GAPS_INSTALL_CMAKEDIR})
# Values for gapsConfig.cmake.in.  Random123's directory on the build machine serves only as a
# search hint; LLVM's and CUDA's (offload backend) are those the library was built against.
# fix_cuda_image.py, relative to the directory of gapsConfig.cmake:
file(RELATIVE_PATH GAPS_CONFIG_FIX_CUDA_IMAGE "/p/${GAPS_INSTALL_CMAKEDIR}"
     "/p/${CMAKE_INSTALL_LIBEXECDIR}/gaps/fix_cuda_image.py")
configure_package_config_file(cmake/gapsConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/gapsConfig.cmake
  INSTALL_DESTINATION ${GAPS_INSTALL_CMAKEDIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/gapsConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/gapsConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/gapsConfigVersion.cmake
        DESTINATION ${GAPS_INSTALL_CMAKEDIR})

# --- pkg-config -----------------------------------------------------------------------------
# prefix is found from where gaps.pc lies (${pcfiledir}), so the tree stays relocatable.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(GAPS_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH _gaps_up "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
  string(REGEX REPLACE "/$" "" _gaps_up "${_gaps_up}")
  set(GAPS_PC_PREFIX "\${pcfiledir}/${_gaps_up}")
endif()
# Random123 has no .pc file: its directory is named unless the compiler searches it anyway.
set(GAPS_PC_CFLAGS "")
if(NOT RANDOM123_INCLUDE_DIR IN_LIST CMAKE_C_IMPLICIT_INCLUDE_DIRECTORIES)
  set(GAPS_PC_CFLAGS " -I${RANDOM123_INCLUDE_DIR}")
endif()
# The library is static only, so `pkg-config --libs gaps` (without --static) must already
# give everything it needs: its dependencies are in Libs, not Libs.private.
set(GAPS_PC_OFFLOAD_VARIABLES "")
if(GAPS_BACKEND STREQUAL "openmp")
  # The OpenMP runtime that the library was compiled for (-lgomp for GCC), not -fopenmp: in a
  # one-line `cc prog.c $(pkg-config --cflags --libs gaps)` -fopenmp would also compile the
  # program with OpenMP, whose `declare target` marks in the gaps headers make a GCC with an
  # offload compiler installed (gcc-12-offload-nvptx) build GPU code at the link and fail
  # where the CUDA toolkit does not match it.
  set(GAPS_PC_LIBS "-lgaps")
  foreach(_gaps_name IN LISTS OpenMP_C_LIB_NAMES)
    get_filename_component(_gaps_dir "${OpenMP_${_gaps_name}_LIBRARY}" DIRECTORY)
    if(_gaps_dir AND NOT _gaps_dir IN_LIST CMAKE_C_IMPLICIT_LINK_DIRECTORIES)
      string(APPEND GAPS_PC_LIBS " -L${_gaps_dir}")
    endif()
    string(APPEND GAPS_PC_LIBS " -l${_gaps_name}")
  endforeach()
  string(APPEND GAPS_PC_LIBS " -lm")
elseif(GAPS_BACKEND STREQUAL "offload")
  get_target_property(_gaps_link_options gaps_physics INTERFACE_LINK_OPTIONS)
  # what an installed library's user links with: the build's own CUDA directory (register
  # caps, cmake/GapsOffload.cmake) is left out, the real toolkit kept
  string(REGEX REPLACE "\\$<BUILD_INTERFACE:[^>]*>" "" _gaps_link_options "${_gaps_link_options}")
  string(REGEX REPLACE "\\$<INSTALL_INTERFACE:([^>]*)>" "\\1" _gaps_link_options "${_gaps_link_options}")
  list(REMOVE_ITEM _gaps_link_options "")
  list(JOIN _gaps_link_options " " _gaps_link_options)
  string(CONCAT GAPS_PC_LIBS "-Wl,--whole-archive -lgaps -Wl,--no-whole-archive "
                "${_gaps_link_options} -Wl,-rpath,${GAPS_LLVM_LIB} -ldl -lm")
  # link with clang 19+; every executable must then be post-processed (doc/gpu.md)
  string(CONCAT GAPS_PC_OFFLOAD_VARIABLES "\n"
    "# Link with clang 19 or newer, then: python3 \"$(pkg-config --variable=fix_cuda_image gaps)\" a.out\n"
    "fix_cuda_image=\${libexecdir}/gaps/fix_cuda_image.py")
else()
  set(GAPS_PC_LIBS "-lgaps -lm")
endif()
configure_file(cmake/gaps.pc.in ${CMAKE_CURRENT_BINARY_DIR}/gaps.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/gaps.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
