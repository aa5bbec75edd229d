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
# Usage: tools/bundle-offload-runtime.sh [--gcc CC] [OUT.tar.xz] [LLVM_LIB_DIR]
#   default OUT: gaps-offload-runtime.tar.xz; default LLVM_LIB_DIR: /usr/lib/llvm-19/lib
# On the GPU node: mkdir rt && tar -xJf gaps-offload-runtime.tar.xz -C rt
#                  LD_LIBRARY_PATH=$PWD/rt/lib ./gaps ...
# (an offload build also looks in $ORIGIN/lib, so unpacking next to the binary needs no
# LD_LIBRARY_PATH).
set -eu
gcc_cc=""
if [ "${1:-}" = --gcc ]; then
    [ $# -ge 2 ] || { echo "bundle: --gcc needs the compiler, e.g. --gcc gcc-12" >&2; exit 2; }
    gcc_cc=$2
    shift 2
fi
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
for f in $libs; do
    cp -L "$f" "$stage/lib/"
    ldd "$f" | awk '/=>/ { print $1, $3 }' | while read -r name path; do
        echo "$name" | grep -Eq "$skip" && continue
        [ -e "$path" ] || { echo "bundle: $name not found" >&2; exit 1; }
        cp -L "$path" "$stage/lib/$name"
    done
done
tar -C "$stage" -cJf "$out" lib
echo "bundle: $(ls "$stage/lib" | wc -l) libraries, $(du -sh "$stage/lib" | cut -f1) -> $out ($(du -h "$out" | cut -f1))"
