#!/bin/sh
# Install what building and testing gaps needs on Debian 12 (bookworm) or newer:
#   compilers and CMake, Random123 (counter-based RNG headers), Python 3 for the tests,
#   HepMC3 and FastJet for the cross-check test (tests/crosscheck.cc), GNU time (memory
#   measurements), pkg-config (the installed-package test).
#   --offload  also clang-19 and libomp-19-dev (the GPU build; the CUDA toolkit must be
#              installed separately, see doc/gpu.md)
#   --plots    also numpy, matplotlib, mplhep (tools/gaps-plot, tools/plot_benchmarks.py) and
#              parton (an independent LHAPDF6 reader for tests/test_pdf_parton.py),
#              from PyPI
#   --mpi      also OpenMPI (libopenmpi-dev, openmpi-bin) for -DGAPS_MPI=ON
set -e
pkgs="build-essential cmake librandom123-dev python3 libhepmc3-dev libfastjet-dev time pkg-config"
pip_pkgs=""
for arg in "$@"; do
    case $arg in
        --offload) pkgs="$pkgs clang-19 libomp-19-dev" ;;
        --plots) pkgs="$pkgs python3-pip"; pip_pkgs="numpy matplotlib mplhep parton" ;;
        --mpi) pkgs="$pkgs libopenmpi-dev openmpi-bin" ;;
        *) echo "install-deps.sh: unknown option $arg (use --offload, --plots, --mpi)" >&2; exit 2 ;;
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
if [ -n "$pip_pkgs" ] && ! python3 -c "import numpy, matplotlib, mplhep, parton" 2>/dev/null; then
    # Debian's own python3 is "externally managed" (PEP 668): pip refuses it without
    # --break-system-packages; a pyenv or venv python3 needs no flag.
    brk=""
    python3 -c 'import os, sys, sysconfig; sys.exit(not os.path.isfile(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")))' \
        && brk="--break-system-packages"
    python3 -m pip install -q $brk $pip_pkgs
fi
