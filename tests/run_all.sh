#!/bin/sh
# Build the serial and the multicore backend (and the offload backend with --offload), run
# every test of each build, then check that the builds give identical events and outputs.
# Usage: tests/run_all.sh [--offload] [--jobs N]
#   --offload  also build the GPU backend (needs clang-19, libomp-19-dev and a CUDA toolkit)
#              and check that its host run gives the serial build's events bit for bit.
#              Without a CUDA toolkit this part is skipped with a notice, unless
#              GAPS_STRICT=1 (CI) makes that a failure; GAPS_STRICT=1 also requires HepMC3
#              and FastJet for the cross-check test.
set -u
cd "$(dirname "$0")/.." || exit 1
backends="serial openmp"
jobs=$(nproc 2>/dev/null || echo 2)
while [ $# -gt 0 ]; do
    case $1 in
        --offload) backends="$backends offload" ;;
        --jobs) jobs=$2; shift ;;
        *) echo "run_all.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
status=0
bins=""
cuda_found() { command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/ptxas ]; }
for b in $backends; do
    echo "=== $b build"
    if [ "$b" = offload ] && ! cuda_found; then
        if [ "${GAPS_STRICT:-0}" = 1 ]; then
            echo "FAIL: offload build needs a CUDA toolkit (ptxas, nvlink), none found"; status=1
        else
            echo "SKIPPED: offload build (no CUDA toolkit found; see doc/gpu.md)"
        fi
        continue
    fi
    testing=ON
    [ "$b" = offload ] && testing=OFF   # its tests are the host run compared below
    cmake -S . -B "build-test-$b" -DGAPS_BACKEND="$b" -DCMAKE_BUILD_TYPE=Release \
        -DBUILD_TESTING=$testing >/dev/null \
        && cmake --build "build-test-$b" -j "$jobs" >/dev/null \
        || { echo "FAIL: $b build"; status=1; continue; }
    bins="$bins build-test-$b/gaps"
    if [ "$b" = offload ]; then
        # no GPU in CI: the offload build's host run must give the serial build's events
        continue
    fi
    (cd "build-test-$b" && ctest --output-on-failure -j "$jobs") || status=1
done
# A sanitized serial build: the tests that feed the program hostile input, under
# AddressSanitizer and UndefinedBehaviorSanitizer (any finding aborts the program).
echo "=== sanitized serial build (address, undefined)"
if cmake -S . -B build-test-sanitize -DGAPS_BACKEND=serial -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DGAPS_SANITIZE=address,undefined >/dev/null \
    && cmake --build build-test-sanitize -j "$jobs" >/dev/null; then
    (cd build-test-sanitize && ctest --output-on-failure -j "$jobs" -R 'robustness|cli|options') || status=1
else
    echo "FAIL: sanitized build"; status=1
fi
echo "=== the builds against each other"
# shellcheck disable=SC2086
sh tests/test_determinism.sh build-test-determinism $bins || status=1
[ $status -eq 0 ] && echo "ALL TESTS PASSED" || echo "SOME TESTS FAILED"
exit $status
