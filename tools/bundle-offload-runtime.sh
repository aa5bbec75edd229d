#!/bin/sh
# Pack the LLVM 19 OpenMP offload runtime that an offload build of gaps needs, for a GPU node
# without LLVM: libomp.so.5, libomptarget.so.19.1 (CUDA plugin built in) and their dependency
# closure (libLLVM, libz3, libicu, libxml2, ...), minus the C library and the GCC runtime that
# every Linux node has.  libcuda.so comes from the node's driver.
#
# Usage: tools/bundle-offload-runtime.sh [OUT.tar.xz] [LLVM_LIB_DIR]
#   default OUT: gaps-offload-runtime.tar.xz; default LLVM_LIB_DIR: /usr/lib/llvm-19/lib
# On the GPU node: mkdir rt && tar -xJf gaps-offload-runtime.tar.xz -C rt
#                  LD_LIBRARY_PATH=$PWD/rt/lib ./gaps ...
# (an offload build also looks in $ORIGIN/lib, so unpacking next to the binary needs no
# LD_LIBRARY_PATH).
set -eu
out=${1:-gaps-offload-runtime.tar.xz}
llvm=${2:-/usr/lib/llvm-19/lib}
for f in libomp.so.5 libomptarget.so.19.1; do
    [ -e "$llvm/$f" ] || { echo "bundle: $llvm/$f not found (install libomp-19-dev)" >&2; exit 1; }
done
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/lib"
# libraries every glibc system provides, or that must match the node's own (GCC runtime)
skip='^(linux-vdso|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libgcc_s\.so|libstdc\+\+\.so|libcuda\.so)'
for f in "$llvm/libomp.so.5" "$llvm/libomptarget.so.19.1"; do
    cp -L "$f" "$stage/lib/"
    ldd "$f" | awk '/=>/ { print $1, $3 }' | while read -r name path; do
        echo "$name" | grep -Eq "$skip" && continue
        [ -e "$path" ] || { echo "bundle: $name not found" >&2; exit 1; }
        cp -L "$path" "$stage/lib/$name"
    done
done
tar -C "$stage" -cJf "$out" lib
echo "bundle: $(ls "$stage/lib" | wc -l) libraries, $(du -sh "$stage/lib" | cut -f1) -> $out ($(du -h "$out" | cut -f1))"
