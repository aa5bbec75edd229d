#!/bin/sh
# Build the serial and the multicore backend (and the offload backend with --offload), run
# every test of each build, then check that the builds give identical events and outputs.
# Where MPI is installed (mpicc), also build each of them with -DGAPS_MPI=ON and run its MPI
# test (tests/test_mpi.sh) and the tests of runs and options with the MPI program.
# Usage: tests/run_all.sh [--offload] [--jobs N]
#   --offload  also build the GPU backend (needs clang-19, libomp-19-dev and a CUDA toolkit)
#              and check that its host run gives the serial build's events bit for bit; with
#              MPI, also check that the GPU backend builds with -DGAPS_MPI=ON.
#              Without a CUDA toolkit this part is skipped with a notice, unless
#              GAPS_STRICT=1 (CI) makes that a failure; GAPS_STRICT=1 also requires HepMC3
#              and FastJet for the cross-check test, and MPI (tools/install-deps.sh --mpi).
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
# Tests run side by side (ctest -j) on few cores, each with OpenMP threads of its own: idle
# threads that spin (OpenMP's active wait) take the cores the others need, which made two
# 2-thread pp-z runs on 2 cores take 3.6-4.7 s instead of 1.1 s.  Passive waiting changes no
# result (events depend on their numbers alone), only the time the suite takes.
export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-passive}"
status=0
bins=""
cuda_found() { command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/ptxas ]; }
if command -v mpicc >/dev/null 2>&1; then
    for b in $backends; do backends="$backends $b-mpi"; done
elif [ "${GAPS_STRICT:-0}" = 1 ]; then
    echo "FAIL: the MPI builds need MPI (bash tools/install-deps.sh --mpi), mpicc not found"
    status=1
else
    echo "SKIPPED: MPI builds (no mpicc; bash tools/install-deps.sh --mpi)"
fi
for b in $backends; do
    echo "=== $b build"
    backend=${b%-mpi}
    mpi=OFF
    [ "$backend" != "$b" ] && mpi=ON
    if [ "$backend" = offload ] && ! cuda_found; then
        if [ "${GAPS_STRICT:-0}" = 1 ]; then
            echo "FAIL: $b build needs a CUDA toolkit (ptxas, nvlink), none found"; status=1
        else
            echo "SKIPPED: $b build (no CUDA toolkit found; see doc/gpu.md)"
        fi
        continue
    fi
    # The offload build is configured as the README's command does, tests on; its tests are
    # the host run compared below, so of the test programs only the C++ ones are built (they
    # need the offload build's clang++, g++ does not take its flags; building every test
    # program would add a device link each, many minutes)
    targets=""
    # shellcheck disable=SC2086
    cmake -S . -B "build-test-$b" -DGAPS_BACKEND="$backend" -DGAPS_MPI=$mpi \
        -DCMAKE_BUILD_TYPE=Release >/dev/null \
        && if [ "$backend" = offload ]; then
               targets="--target gaps bench_pdf lep_reanalyse"
               for t in antikt_crosscheck crosscheck hepmc_pp_read; do
                   grep -q "^$t:" "build-test-$b/Makefile" && targets="$targets $t"
               done
               true
           fi \
        && cmake --build "build-test-$b" -j "$jobs" $targets >/dev/null \
        || { echo "FAIL: $b build"; status=1; continue; }
    if [ "$backend" = offload ]; then
        # no GPU in CI: the offload build's host run must give the serial build's events (the
        # MPI one is only built); its kernels must carry the register caps it was built with
        [ $mpi = OFF ] && bins="$bins build-test-$b/gaps"
        caps=$(sed -n 's/^GAPS_GPU_REGISTER_CAPS:STRING=//p' "build-test-$b/CMakeCache.txt")
        if [ -n "$caps" ] && [ $mpi = OFF ]; then
            python3 tests/test_kernel_resources.py "build-test-$b/gaps" "$caps" || status=1
        fi
        continue
    fi
    if [ $mpi = ON ]; then
        # the library is the same: the MPI test, and runs, options and shared files through
        # the MPI program
        (cd "build-test-$b" && ctest --output-on-failure -j "$jobs" -R '^(mpi|runs|cli|ownership)$') \
            || status=1
        continue
    fi
    bins="$bins build-test-$b/gaps"
    (cd "build-test-$b" && ctest --output-on-failure -j "$jobs") || status=1
done
# A sanitized serial build: the tests that feed the program hostile input, under
# AddressSanitizer and UndefinedBehaviorSanitizer (any finding aborts the program).
echo "=== sanitized serial build (address, undefined)"
if cmake -S . -B build-test-sanitize -DGAPS_BACKEND=serial -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DGAPS_SANITIZE=address,undefined >/dev/null \
    && cmake --build build-test-sanitize -j "$jobs" >/dev/null; then
    (cd build-test-sanitize && ctest --output-on-failure -j "$jobs" -R 'robustness|cli|options|ownership|outfile') || status=1
else
    echo "FAIL: sanitized build"; status=1
fi
echo "=== the builds against each other"
# shellcheck disable=SC2086
sh tests/test_determinism.sh build-test-determinism $bins || status=1
# shellcheck disable=SC2086
python3 tests/test_lhe_shower.py --compare build-test-lhe $bins || status=1
# shellcheck disable=SC2086
python3 tests/test_lhe_out.py --compare build-test-lhe-out $bins || status=1
# shellcheck disable=SC2086
N=100000 sh tests/test_nlo_runs.sh build-test-nlo $bins || status=1
# shellcheck disable=SC2086
N=50000 sh tests/test_pp_ll_nlo_runs.sh build-test-pp-ll-nlo $bins || status=1
[ $status -eq 0 ] && echo "ALL TESTS PASSED" || echo "SOME TESTS FAILED"
exit $status
