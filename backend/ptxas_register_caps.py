#!/usr/bin/env python3
"""ptxas with a register cap on chosen kernels: the front that the offload build puts in place
of CUDA's ptxas (cmake/GapsOffload.cmake, option GAPS_GPU_REGISTER_CAPS).

Why: the number of registers a kernel uses decides how many of its threads fit on a
multiprocessor at once.  ptxas gives the analysis kernel 164 registers, so only one block of
256 threads fits (12.5 % occupancy); capped at 96 it needs no spill at all and two blocks
fit.  Measured on an H200 (doc/benchmarks.md): the analysis 23 % faster, the events
bit-identical.  The fused shower kernel needs 130-138 registers; at 128 two blocks fit again
(16-18 % faster).  CUDA C++ would write __launch_bounds__(256, 2); clang 19's OpenMP offload
has no way to say it: ompx_attribute(launch_bounds(256, 2)) loses its second argument, and
ptxas ignores --maxrregcount for kernels that carry a .maxntid directive, as every OpenMP
kernel does.  PTX's own per-kernel directive .maxnreg N works, so this front adds it.

Configured by the build (written into the shim directory next to this script's copy):
    GAPS_PTXAS       the real ptxas
    GAPS_CAPS        "name=N;name=N": every kernel (.entry) whose name contains `name` gets
                     .maxnreg N
Everything else is passed to the real ptxas unchanged; the PTX input is patched into a
temporary copy, never in place.  A cap that matches no kernel is skipped (a test program
may hold only some of the kernels); tests/test_kernel_resources.py checks that the program's
kernels got their caps.

Usage (as ptxas): ptxas_register_caps.py [ptxas arguments] input.s
"""
import os
import re
import subprocess
import sys
import tempfile

ENTRY = re.compile(r"^\.(?:visible|weak)?\s*\.entry\s+([A-Za-z0-9_$.]+)\s*\(", re.M)


def parse_caps(text):
    caps = []
    for item in filter(None, (s.strip() for s in text.split(";"))):
        name, _, n = item.partition("=")
        if not name or not n.isdigit() or not 16 <= int(n) <= 255:
            sys.exit("ptxas_register_caps: bad cap '%s' (want NAME=N, 16 <= N <= 255)" % item)
        caps.append((name, int(n)))
    return caps


def add_caps(ptx, caps):
    """PTX with `.maxnreg N` after the parameter list of every capped kernel."""
    out, at = [], 0
    for m in ENTRY.finditer(ptx):
        cap = [(name, n) for name, n in caps if name in m.group(1)]
        if not cap:
            continue
        close = ptx.find("\n)", m.end())   # the parameter list ends with ")" on its own line
        if close < 0:
            sys.exit("ptxas_register_caps: no end of the parameter list of %s" % m.group(1))
        close += 2
        out.append(ptx[at:close])
        out.append("\n.maxnreg %d" % min(n for _, n in cap))
        at = close
    out.append(ptx[at:])
    return "".join(out)


def main(argv):
    real = os.environ.get("GAPS_PTXAS") or CONFIG_PTXAS
    caps = parse_caps(os.environ.get("GAPS_CAPS", CONFIG_CAPS))
    args = list(argv)
    tmp = None
    for i, a in enumerate(args):
        if caps and (a.endswith(".s") or a.endswith(".ptx")) and os.path.isfile(a):
            with open(a) as f:
                ptx = add_caps(f.read(), caps)
            fd, tmp = tempfile.mkstemp(suffix=".s")
            with os.fdopen(fd, "w") as f:
                f.write(ptx)
            args[i] = tmp
    try:
        return subprocess.call([real] + args)
    finally:
        if tmp:
            os.unlink(tmp)


# Replaced when the build installs this front (cmake/GapsOffload.cmake).
CONFIG_PTXAS = "@GAPS_REAL_PTXAS@"
CONFIG_CAPS = "@GAPS_GPU_REGISTER_CAPS@"

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
