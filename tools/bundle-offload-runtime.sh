#!/bin/sh
# Pack the OpenMP offload runtime that an offload build of gaps needs, for a GPU node without
# the compiler's runtime.  libcuda.so comes from the node's driver.
#
# clang-19 build (default): libomp.so.5, libomptarget.so.19.1 (CUDA plugin built in) and their
# dependency closure (libLLVM, libz3, libicu, libxml2, ...), minus the C library and the GCC
# runtime that every Linux node has.
# GCC build (--gcc CC, doc/gpu-gcc.md): CC's libgomp.so.1 and its nvptx plugin
# libgomp-plugin-nvptx.so.1.  Both must be of one GCC release, and the node's own libgomp is
# another release and usually comes without the plugin, so both travel (~0.3 MB).
#
# MPI build (--mpi, doc/mpi.md): also this machine's libmpi.so.40 and its dependency
# closure, in mpi/lib/ of the archive, NOT in lib/.  A GPU node should use its own Open MPI
# 4.1 (libmpi.so.40 keeps its ABI across 4.x, and it must match the node's mpirun and
# network); the copy is for a node whose libmpi.so.40 is missing or broken: add rt/mpi/lib
# to LD_LIBRARY_PATH there.  It holds the library only: Open MPI's plugins, help files and
# launcher come from the node.
#
# Usage: tools/bundle-offload-runtime.sh [--gcc CC] [--mpi] [OUT.tar.xz] [LLVM_LIB_DIR]
#   default OUT: gaps-offload-runtime.tar.xz; default LLVM_LIB_DIR: /usr/lib/llvm-19/lib
# On the GPU node: mkdir rt && tar -xJf gaps-offload-runtime.tar.xz -C rt
#                  LD_LIBRARY_PATH=$PWD/rt/lib ./gaps ...
# (an offload build also looks in $ORIGIN/lib, so unpacking next to the binary needs no
# LD_LIBRARY_PATH).
set -eu
gcc_cc=""
mpi=0
while [ $# -gt 0 ]; do
    case $1 in
        --gcc)
            [ $# -ge 2 ] || { echo "bundle: --gcc needs the compiler, e.g. --gcc gcc-12" >&2; exit 2; }
            gcc_cc=$2
            shift 2 ;;
        --mpi) mpi=1; shift ;;
        *) break ;;
    esac
done
out=${1:-gaps-offload-runtime.tar.xz}
if [ -n "$gcc_cc" ]; then
    # -print-file-name prints the bare name when the library is not there
    gomp=$("$gcc_cc" -print-file-name=libgomp.so.1) \
        || { echo "bundle: cannot run $gcc_cc" >&2; exit 1; }
    case $gomp in
        /*) ;;
        *) echo "bundle: $gcc_cc has no libgomp.so.1 (install libgomp1)" >&2; exit 1 ;;
    esac
    plugin=$(dirname "$gomp")/libgomp-plugin-nvptx.so.1
    [ -e "$plugin" ] || { echo "bundle: $plugin not found (install libgomp-plugin-nvptx1)" >&2; exit 1; }
    libs="$gomp $plugin"
else
    llvm=${2:-/usr/lib/llvm-19/lib}
    for f in libomp.so.5 libomptarget.so.19.1; do
        [ -e "$llvm/$f" ] || { echo "bundle: $llvm/$f not found (install libomp-19-dev)" >&2; exit 1; }
    done
    libs="$llvm/libomp.so.5 $llvm/libomptarget.so.19.1"
fi
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/lib"
# libraries every glibc system provides, or that must match the node's own (GCC runtime)
skip='^(linux-vdso|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libgcc_s\.so|libstdc\+\+\.so|libcuda\.so)'
pack() {   # pack DIR LIBRARY...: the libraries and their closure into $stage/DIR
    dest=$stage/$1
    shift
    mkdir -p "$dest"
    for f in "$@"; do
        cp -L "$f" "$dest/"
        ldd "$f" | awk '/=>/ { print $1, $3 }' | while read -r name path; do
            echo "$name" | grep -Eq "$skip" && continue
            [ -e "$path" ] || { echo "bundle: $name not found" >&2; exit 1; }
            cp -L "$path" "$dest/$name"
        done
    done
}
# shellcheck disable=SC2086
pack lib $libs
parts=lib
if [ $mpi = 1 ]; then
    libmpi=$(ldconfig -p | awk '$1 == "libmpi.so.40" { print $NF; exit }')
    [ -n "$libmpi" ] && [ -e "$libmpi" ] \
        || { echo "bundle: libmpi.so.40 not found (install libopenmpi-dev: tools/install-deps.sh --mpi)" >&2; exit 1; }
    pack mpi/lib "$libmpi"
    parts="lib mpi"
    echo "bundle: mpi/lib: libmpi.so.40 of $(mpirun --version 2>/dev/null | head -n 1) and $(($(ls "$stage/mpi/lib" | wc -l) - 1)) libraries it needs; prefer the node's own Open MPI 4.1"
fi
# shellcheck disable=SC2086
tar -C "$stage" -cJf "$out" $parts
echo "bundle: $(ls "$stage/lib" | wc -l) libraries, $(du -sh "$stage/lib" | cut -f1) -> $out ($(du -h "$out" | cut -f1))"
