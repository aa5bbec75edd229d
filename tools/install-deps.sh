#!/bin/sh
# Install what building and testing gaps needs on Debian 12 (bookworm) or newer:
#   compilers and CMake, Random123 (counter-based RNG headers), zlib (gzip-compressed Les
#   Houches Event files), Python 3 for the tests,
#   HepMC3 and FastJet for the cross-check test (tests/crosscheck.cc), GNU time (memory
#   measurements), pkg-config (the installed-package test).
#   --offload  also clang-19 and libomp-19-dev (the GPU build; the CUDA toolkit must be
#              installed separately, see doc/gpu.md)
#   --plots    also numpy, matplotlib, mplhep (tools/gaps-plot, tools/plot_benchmarks.py),
#              parton (an independent LHAPDF6 reader for tests/test_pdf_parton.py) and
#              pyhepmc (HepMC3's reader in Python, for tests/test_hepmc_pp.py) and pylhe
#              (a Les Houches Event reader, for tests/test_lhe_out.py --pylhe), from PyPI
#   --mpi      also OpenMPI (libopenmpi-dev, openmpi-bin) for -DGAPS_MPI=ON
# Another package manager may hold the dpkg lock (unattended-upgrades on a fresh machine):
# then this script says so, waits for it up to 10 minutes, and apt-get itself waits as long
# (DPkg::Lock::Timeout) instead of failing at once.
#   GAPS_DPKG_LOCK_TIMEOUT  seconds to wait (600); GAPS_DPKG_LOCKS  the lock files (for tests)
set -e
pkgs="build-essential cmake librandom123-dev zlib1g-dev python3 libhepmc3-dev libfastjet-dev time pkg-config"
# the locale test (tests/test_locale.sh) makes de_DE.UTF-8 from the locales package's sources
pkgs="$pkgs locales"
pip_pkgs=""
for arg in "$@"; do
    case $arg in
        --offload) pkgs="$pkgs clang-19 libomp-19-dev" ;;
        --plots) pkgs="$pkgs python3-pip"; pip_pkgs="numpy matplotlib mplhep parton pyhepmc pylhe" ;;
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
timeout=${GAPS_DPKG_LOCK_TIMEOUT:-600}
locks=${GAPS_DPKG_LOCKS:-/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock}
# The process that holds a lock on one of the lock files (from /proc/locks: apt and dpkg
# lock them with fcntl), as "PID (NAME)"; nothing when they are free.
lock_holder() {
    for l in $locks; do
        ino=$(stat -c %i "$l" 2>/dev/null) || continue
        pid=$(awk -v ino="$ino" '$2 != "->" { n = split($6, d, ":"); if (d[n] == ino) { print $5; exit } }' \
              /proc/locks 2>/dev/null)
        if [ -n "$pid" ]; then
            echo "$pid ($(cat "/proc/$pid/comm" 2>/dev/null || echo '?'))"
            return
        fi
    done
}
wait_for_lock() {
    holder=$(lock_holder)
    [ -n "$holder" ] || return 0
    echo "install-deps.sh: another package manager holds the dpkg lock (process $holder);" \
         "waiting for it to finish, up to $timeout s..." >&2
    waited=0
    while [ -n "$(lock_holder)" ] && [ $waited -lt "$timeout" ]; do
        sleep 2
        waited=$((waited + 2))
    done
    [ -z "$(lock_holder)" ] && echo "install-deps.sh: the dpkg lock is free, going on" >&2
    return 0   # still held: apt-get below waits for it too, then says why it gives up
}
apt="apt-get -o DPkg::Lock::Timeout=$timeout"
if [ -n "$missing" ]; then
    echo "installing:$missing"
    wait_for_lock
    $sudo $apt update -qq
    wait_for_lock
    DEBIAN_FRONTEND=noninteractive $sudo $apt install -y -qq $missing >/dev/null
fi
if [ -n "$pip_pkgs" ] && ! python3 -c "import numpy, matplotlib, mplhep, parton, pyhepmc, pylhe" 2>/dev/null; then
    # Debian's own python3 is "externally managed" (PEP 668): pip refuses it without
    # --break-system-packages; a pyenv or venv python3 needs no flag.
    brk=""
    python3 -c 'import os, sys, sysconfig; sys.exit(not os.path.isfile(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")))' \
        && brk="--break-system-packages"
    python3 -m pip install -q $brk $pip_pkgs
fi
