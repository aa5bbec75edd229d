#!/bin/sh
# Install gaps into a temporary prefix, move the prefix elsewhere (the installed tree must be
# relocatable), check that no installed file names the source or build directory, then build
# and run four programs against the moved installation: a C and a C++ program, each once with
# find_package(gaps) and once with a plain compiler command from `pkg-config --cflags --libs
# gaps`.  All four generate 2000 events and check them (c/consumer.c).
#
# Usage: test_install.sh [--work DIR] [--keep] BUILD_DIR
#            install an existing build of gaps as it is (nothing is rebuilt)
#        test_install.sh [--work DIR] [--keep] SOURCE_DIR [CMAKE_ARGS...]
#            configure and build gaps first, e.g. SOURCE_DIR -DGAPS_BACKEND=serial
#   --work DIR   scratch directory (emptied first; default: a new temporary directory)
#   --keep       keep the scratch directory (default: removed when all checks pass)
# Environment: CC, CXX pick the consumers' compilers (default: those of the gaps build for C;
# for C++ the matching clang++ in an offload build, else c++).
# Exit status: 0 all passed, 1 a check failed, 2 bad usage.
set -eu

usage() { echo "usage: test_install.sh [--work DIR] [--keep] BUILD_DIR | SOURCE_DIR [CMAKE_ARGS...]" >&2; exit 2; }
die() { echo "test_install: $*" >&2; exit 2; }

work=""
keep=0
while [ $# -gt 0 ]; do
    case $1 in
        --work) [ $# -ge 2 ] || usage; work=$2; shift 2 ;;
        --keep) keep=1; shift ;;
        -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
        -*) usage ;;
        *) break ;;
    esac
done
[ $# -ge 1 ] || usage
here=$(cd "$(dirname "$0")" && pwd)
given=$(cd "$1" 2>/dev/null && pwd) || die "$1: no such directory"
shift
for tool in cmake pkg-config; do
    command -v $tool >/dev/null 2>&1 || die "$tool not found (bash tools/install-deps.sh)"
done

if [ -n "$work" ]; then
    # emptied only if it is new, empty, or a scratch directory of an earlier run
    mkdir -p "$work"
    work=$(cd "$work" && pwd)
    case "$given/" in "$work/"*) die "--work $work would hold $given" ;; esac
    if [ -n "$(ls -A "$work")" ] && [ ! -e "$work/.gaps-install-test" ]; then
        die "--work $work is not empty and not from an earlier install test"
    fi
    find "$work" -mindepth 1 -maxdepth 1 -exec rm -rf {} +
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/gaps-install-test.XXXXXX")
fi
failed=0
finish() {
    if [ "$failed" = 0 ] && [ "$keep" = 0 ]; then rm -rf "$work"; else echo "scratch directory kept: $work"; fi
}
trap finish EXIT
touch "$work/.gaps-install-test"
log=$work/log.txt
: >"$log"

# run WHAT COMMAND...: run quietly into the log; on failure show its end and stop.
run() {
    what=$1
    shift
    echo "== $what: $*" >>"$log"
    if ! "$@" >>"$log" 2>&1; then
        tail -n 40 "$log" >&2
        echo "FAIL: $what" >&2
        failed=1
        exit 1
    fi
}
fail() { echo "FAIL: $*" >&2; failed=1; }

cache_value() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }

# --- the build to install ---------------------------------------------------------------------
if [ -f "$given/CMakeCache.txt" ]; then
    [ $# -eq 0 ] || die "CMake arguments are only for a source directory, $given is a build"
    build=$given
    source=$(cache_value CMAKE_HOME_DIRECTORY)
else
    if ! grep -q 'project(gaps' "$given/CMakeLists.txt" 2>/dev/null; then
        die "$given is neither a gaps build (CMakeCache.txt) nor the gaps source"
    fi
    source=$given
    build=$work/build
    run "configure gaps" cmake -S "$source" -B "$build" -DBUILD_TESTING=OFF "$@"
    run "build gaps" cmake --build "$build" -j2
fi
backend=$(cache_value GAPS_BACKEND)
cc=${CC:-$(cache_value CMAKE_C_COMPILER)}
if [ -n "${CXX:-}" ]; then
    cxx=$CXX
elif [ "$backend" = offload ]; then
    cxx=$(dirname "$cc")/$(basename "$cc" | sed 's/^clang/clang++/')   # clang-19 -> clang++-19
else
    cxx=c++
fi
echo "gaps $backend build $build (source $source), consumers: $cc, $cxx"

# --- install, then move the prefix ------------------------------------------------------------
run "install" cmake --install "$build" --prefix "$work/staged"
mv "$work/staged" "$work/prefix"
prefix=$work/prefix
for f in bin/gaps include/gaps/generator.h share/doc/gaps/README.md; do
    [ -e "$prefix/$f" ] || fail "$f not installed"
done
for f in libgaps.a cmake/gaps/gapsConfig.cmake cmake/gaps/gapsConfigVersion.cmake pkgconfig/gaps.pc; do
    [ -n "$(find "$prefix" -path "*/$f")" ] || fail "$f not installed"
done
[ -z "$(find "$prefix/include" -name 'gaps_parallel.h' -o -name 'gaps_runtime.h')" ] \
    || fail "private headers of backend/ installed"
# the documents users read, not the raw benchmark results of doc/results/
[ -e "$prefix/share/doc/gaps/doc/formats.md" ] || fail "doc/formats.md not installed"
[ -z "$(find "$prefix/share" -path '*/results*')" ] || fail "doc/results installed"
grep -q 'cxx_std_11' "$prefix"/lib*/cmake/gaps/gapsConfig.cmake \
    && grep -q 'c_std_11' "$prefix"/lib*/cmake/gaps/gapsTargets.cmake \
    || fail "gaps::gaps declares no language standard (c_std_11, cxx_std_11)"
run "installed gaps runs" "$prefix/bin/gaps" --version

# No installed file, text or binary, may name the source, build or staging directory.  One
# exception: clang keeps each source file's path as the module name of the GPU bitcode it
# embeds in the offload build's objects (-ffile-prefix-map does not change it); nothing
# reads it, so libgaps.a of the offload backend may name the source directory.
for dir in "$source" "$build" "$work/staged"; do
    hits=$(grep -r -l -a -F "$dir" "$prefix" || true)
    if [ "$backend" = offload ] && [ "$dir" = "$source" ]; then
        hits=$(echo "$hits" | grep -v '/libgaps\.a$' || true)
    fi
    [ -z "$hits" ] || fail "installed files name $dir: $(echo "$hits" | tr '\n' ' ')"
done

# --- the consumers ----------------------------------------------------------------------------
# run_consumer NAME EXE: run a consumer; its output goes to the log and, on failure, to stderr.
run_consumer() {
    echo "== run $1" >>"$log"
    if "$2" >"$work/$1.out" 2>&1; then
        cat "$work/$1.out" >>"$log"
        echo "ok  : $1 ($(grep -m 1 '^gaps ' "$work/$1.out"))"
    else
        cat "$work/$1.out" >&2
        fail "$1"
    fi
}

for lang in c cxx; do
    if [ $lang = c ]; then compiler=$cc; var=CMAKE_C_COMPILER; else compiler=$cxx; var=CMAKE_CXX_COMPILER; fi
    run "configure $lang consumer (find_package)" cmake -S "$here/$lang" -B "$work/$lang-cmake" \
        -DCMAKE_PREFIX_PATH="$prefix" -D$var="$compiler"
    run "build $lang consumer (find_package)" cmake --build "$work/$lang-cmake"
    run_consumer "${lang}-find_package" "$work/$lang-cmake/consumer_$lang"
done

pc_dir=$(dirname "$(find "$prefix" -path '*/pkgconfig/gaps.pc')")
export PKG_CONFIG_PATH="$pc_dir"
flags=$(pkg-config --cflags --libs gaps) || { fail "pkg-config --cflags --libs gaps"; exit 1; }
echo "pkg-config --cflags --libs gaps: $flags" >>"$log"
# shellcheck disable=SC2086  # the flags are a list of words
run "build c consumer (pkg-config)" $cc -std=c11 -O2 "$here/c/consumer.c" -o "$work/c-pkgconfig" $flags
# shellcheck disable=SC2086
run "build cxx consumer (pkg-config)" $cxx -std=c++17 -O2 "$here/cxx/consumer.cpp" -o "$work/cxx-pkgconfig" $flags
if [ "$backend" = offload ]; then
    fix=$(pkg-config --variable=fix_cuda_image gaps)
    run "fix GPU image (c)" python3 "$fix" "$work/c-pkgconfig"
    run "fix GPU image (cxx)" python3 "$fix" "$work/cxx-pkgconfig"
fi
run_consumer c-pkgconfig "$work/c-pkgconfig"
run_consumer cxx-pkgconfig "$work/cxx-pkgconfig"

if [ "$failed" = 0 ]; then
    echo "install test passed ($backend backend)"
else
    echo "install test FAILED ($backend backend); log: $log" >&2
    exit 1
fi
