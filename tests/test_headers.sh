#!/bin/sh
# The public headers (include/gaps/*.h) compile on their own as C11 and as C++11, C++14 and
# C++17 (the README says they are usable from C and C++), with every C and C++ compiler found
# here (gcc, clang, g++, clang++ and the versioned clang-19), without a warning under
# -Wall -Wextra -pedantic-errors.  The OpenMP pragmas of device code are not seen without
# -fopenmp; the offload build's own compilation checks those.
# Usage: test_headers.sh INCLUDE_DIR RANDOM123_INCLUDE_DIR WORKDIR
inc=$1
r123=$2
work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
fail=0
n=0
compilers=""
for c in gcc clang clang-19 g++ clang++ clang++-19; do
    command -v "$c" >/dev/null 2>&1 && compilers="$compilers $c"
done
echo "compilers:$compilers"
cxx_found=0
for c in $compilers; do
    case $c in
        *++*) cxx_found=1; lang=c++; stds="c++11 c++14 c++17" ;;
        *) lang=c; stds="c11" ;;
    esac
    for std in $stds; do
        for h in "$inc"/gaps/*.h; do
            name=$(basename "$h")
            # a declaration after the header: a header of macros alone is a valid file too
            printf '#include "gaps/%s"\nint gaps_header_test_%s;\n' "$name" "$(echo "$name" | tr -c 'a-z0-9\n' _)" \
                >"$work/t.$lang"
            if ! "$c" -std=$std -fsyntax-only -Wall -Wextra -pedantic-errors -Werror -I"$inc" \
                -I"$r123" "$work/t.$lang" >"$work/err" 2>&1; then
                echo "FAIL: $c -std=$std: gaps/$name: $(head -n 3 "$work/err" | tr '\n' ' ' | cut -c1-300)"
                fail=1
            fi
            n=$((n + 1))
        done
    done
done
[ $cxx_found = 1 ] || { echo "FAIL: no C++ compiler found (g++ or clang++)"; fail=1; }
[ $fail -eq 0 ] && echo "headers: $n compilations of $(ls "$inc"/gaps/*.h | wc -l) headers, all clean" \
    || echo "headers: SOME FAILED"
exit $fail
