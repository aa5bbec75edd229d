#!/usr/bin/env python3
"""The offload build's register caps reached its kernels (backend/ptxas_register_caps.py).

Usage: test_kernel_resources.py EXECUTABLE "NAME=N;..."
For every cap: at least one kernel of the program matches NAME, and each that does uses at
most N registers.  The fused veto-cycle kernel's registers and stack are listed too, for the
record.
"""
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
backend_dir = os.path.join(here, "..", "backend")
sys.path.insert(0, backend_dir)
from ptxas_register_caps import parse_caps  # noqa: E402  (the build's own reading of the caps)

exe, caps = sys.argv[1], parse_caps(sys.argv[2])
out = subprocess.run([sys.executable, os.path.join(backend_dir, "kernel_resources.py"), exe],
                     stdout=subprocess.PIPE, universal_newlines=True, check=True).stdout
kernels = [line.split() for line in out.splitlines()]
bad = 0
for name, n in caps:
    hit = [(k, int(r)) for k, r, _ in kernels if name in k]
    if not hit:
        print("FAIL: no kernel matches the cap %s=%d" % (name, n))
        bad += 1
    for k, r in hit:
        ok = r <= n
        bad += not ok
        print("%s: %s uses %d registers (cap %s)" % ("ok" if ok else "FAIL", k, r, n))
for k, r, s in kernels:
    if "launch_cycles" in k:
        print("info: %s uses %s registers, %s bytes of stack" % (k, r, s))
sys.exit(1 if bad else 0)
