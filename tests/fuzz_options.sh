#!/bin/sh
# shellcheck disable=SC2086  # $flags and $srcs are word lists, split on purpose
# Fuzz the command line and run card parsers (src/program/options.c, tests/fuzz_options.c) under
# AddressSanitizer and UndefinedBehaviorSanitizer.
#
#   sh tests/fuzz_options.sh [--libfuzzer] [--seconds S] [--seed X] [--build DIR] [--corpus DIR]
#
#   default      the standalone generator (any C compiler, no libFuzzer), S = 15 seconds
#   --libfuzzer  clang-19's libFuzzer (Debian: clang-19 and libclang-rt-19-dev), coverage
#                guided; the corpus directory (default DIR/corpus) is seeded with 2000 inputs
#                of the standalone generator and keeps what libFuzzer finds; crashes are
#                written to DIR as crash-*, and re-run with:  DIR/fuzz_options_libfuzzer FILE
#   --build DIR  where the serial library and the fuzzers are built (default build-fuzz)
# Exit status: 0 if no input failed, 1 on a failure, 2 on bad usage or a failed build.
set -e
cd "$(dirname "$0")/.."
mode=standalone
seconds=15
seed=1
build="build-fuzz"
corpus=""
while [ $# -gt 0 ]; do
    case $1 in
        --libfuzzer) mode=libfuzzer ;;
        --seconds) seconds=$2; shift ;;
        --seed) seed=$2; shift ;;
        --build) build=$2; shift ;;
        --corpus) corpus=$2; shift ;;
        *) echo "fuzz_options.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
    shift
done
case $seconds in
    ''|*[!0-9]*) echo "fuzz_options.sh: --seconds needs a whole number" >&2; exit 2 ;;
esac

# The parser needs gaps_config_defaults and gaps_runtime_backend_name: link the serial library
# (uninstrumented; only the parser and the fuzzer are compiled with the sanitizers).
cmake -S . -B "$build" -DGAPS_BACKEND=serial -DBUILD_TESTING=OFF >/dev/null || exit 2
cmake --build "$build" --target gaps_physics -j2 >/dev/null || exit 2
lib=$(find "$build" -maxdepth 1 -name 'libgaps*.a' | head -n 1)
[ -n "$lib" ] || { echo "fuzz_options.sh: no library in $build" >&2; exit 2; }
flags="-std=c11 -g -O1 -fno-omit-frame-pointer -fno-sanitize-recover=all -Iinclude -Ibackend -Isrc"
srcs="src/program/options.c tests/fuzz_options.c"

# card files of the fuzzer: memory rather than disk where possible
[ -z "$TMPDIR" ] && [ -w /dev/shm ] && export TMPDIR=/dev/shm

if [ "$mode" = standalone ]; then
    cc=${CC:-cc}
    $cc $flags -fsanitize=address,undefined -DGAPS_FUZZ_STANDALONE $srcs "$lib" -lm \
        -o "$build/fuzz_options_standalone" || exit 2
    "$build/fuzz_options_standalone" --seconds "$seconds" --seed "$seed" || exit 1
    exit 0
fi

if ! command -v clang-19 >/dev/null; then
    echo "fuzz_options.sh: clang-19 not found (apt-get install clang-19 libclang-rt-19-dev)" >&2
    exit 2
fi
clang-19 $flags -fsanitize=fuzzer,address,undefined $srcs "$lib" -lm \
    -o "$build/fuzz_options_libfuzzer" || exit 2
# the seed corpus comes from the standalone generator
cc=${CC:-cc}
$cc $flags -DGAPS_FUZZ_STANDALONE $srcs "$lib" -lm -o "$build/fuzz_options_generator" || exit 2
[ -n "$corpus" ] || corpus="$build/corpus"
if [ ! -d "$corpus" ] || [ -z "$(ls -A "$corpus")" ]; then
    "$build/fuzz_options_generator" --corpus "$corpus" --seed "$seed" || exit 2
fi
"$build/fuzz_options_libfuzzer" -max_total_time="$seconds" -max_len=8192 -seed="$seed" \
    -artifact_prefix="$build/" -print_final_stats=1 "$corpus" || exit 1
