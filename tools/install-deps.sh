#!/bin/sh
# Install what building and testing gaps needs on Debian 12 (bookworm) or newer:
#   compilers and CMake, Random123 (counter-based RNG headers), Python 3 for the tests,
#   HepMC3 and FastJet for the cross-check test (tests/crosscheck.cc; skipped without them).
#   --offload  also clang-19 and libomp-19-dev (the GPU build; the CUDA toolkit must be
#              installed separately, see doc/gpu.md)
#   --plots    also numpy and matplotlib (tools/plot_benchmarks.py), from pip
set -e
pkgs="build-essential cmake librandom123-dev python3 libhepmc3-dev libfastjet-dev"
pip_pkgs=""
for arg in "$@"; do
    case $arg in
        --offload) pkgs="$pkgs clang-19 libomp-19-dev" ;;
        --plots) pip_pkgs="numpy matplotlib" ;;
        *) echo "install-deps.sh: unknown option $arg (use --offload, --plots)" >&2; exit 2 ;;
    esac
done
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
missing=""
for p in $pkgs; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "installing:$missing"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
fi
if [ -n "$pip_pkgs" ]; then
    python3 -c "import numpy, matplotlib" 2>/dev/null || python3 -m pip install -q $pip_pkgs
fi
