#!/usr/bin/env python3
"""d sigma / dy of p p -> Z (tests/test_pp_processes.c's integrand) against the PyPI package
parton's CT14lo.

    test_pp_parton.py TEST_PP_PROCESSES PDFSETS_DIR

TEST_PP_PROCESSES --dsigma-dy prints d sigma / dy in pb at a few rapidities y, computed with
gaps's PDF interpolation (gaps_pdf_xfxq2).  Here the same quantity is computed from the
couplings written out once more and parton's x f(x, Q) (a bicubic spline of the same grid,
not LHAPDF's local cubics: the two agree to ~1e-5, see tests/test_pdf_parton.py):

    d sigma / dy = sum_f (pi / 3) sqrt(2) G_F (g_V^2 + g_A^2) / M_Z^0
                       [x_a q(x_a) x_b qbar(x_b) + x_a qbar(x_a) x_b q(x_b)]
                 with sqrt(2) G_F = pi alpha / (sin^2 cos^2 M_Z^2), in pb,
    x_a,b = (M_Z / sqrt s) e^(+-y), Q = M_Z, sqrt s = 13 TeV.

Required: relative difference below 2e-4 at every y.  Exit status: 0 pass, 1 fail, 77 skip
(parton or numpy not importable, unless GAPS_STRICT=1).
"""
import math
import os
import subprocess
import sys

YS = [-4.5, -3.0, -1.5, -0.5, 0.0, 0.7, 2.0, 3.5, 4.5]
MZ, SW2, ALPHA, ECM, GEV2PB = 91.1876, 0.22293, 1 / 128.802, 13000.0, 3.89379656e8
TOL = 2e-4


def xf(pdf, pid, x):
    """x f(x, M_Z) from parton at one point (scalars with grid=False: a 0-d result)."""
    return float(pdf.xfxQ(pid, x, MZ, grid=False))


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    helper, pdfsets = sys.argv[1], sys.argv[2]
    try:
        import numpy  # noqa: F401  (parton needs it)
        import parton
    except ImportError as e:
        strict = os.environ.get("GAPS_STRICT") == "1"
        print(f"pp_parton: {e}: 'python3 -m pip install parton'"
              + (" (GAPS_STRICT=1: a failure)" if strict else " (skipped)"))
        return 1 if strict else 77
    run = subprocess.run([helper, pdfsets, "--dsigma-dy"] + [repr(y) for y in YS],
                         capture_output=True, text=True)
    if run.returncode != 0:
        print(f"FAIL {helper} exited with {run.returncode}: {run.stderr.strip()}")
        return 1
    gaps = [float(line.split()[1]) for line in run.stdout.splitlines()]
    pdf = parton.mkPDF("CT14lo", 0, pdfdir=pdfsets)
    failed = False
    for y, g in zip(YS, gaps):
        xa, xb = MZ / ECM * math.exp(y), MZ / ECM * math.exp(-y)
        total = 0.0
        for f in range(1, 6):
            t3 = 0.5 if f % 2 == 0 else -0.5
            q = 2 / 3 if f % 2 == 0 else -1 / 3
            gv = t3 - 2 * q * SW2
            coef = math.pi ** 2 * ALPHA / (3 * SW2 * (1 - SW2) * MZ ** 2) * (gv * gv + t3 * t3)
            lum = (xf(pdf, f, xa) * xf(pdf, -f, xb) + xf(pdf, -f, xa) * xf(pdf, f, xb))
            total += coef * lum * GEV2PB
        rel = abs(g - total) / total
        print(f"  y = {y:+.2f}: gaps {g:.8g} pb, parton {total:.8g} pb, relative {rel:.2e}")
        if not rel < TOL:
            failed = True
    print("pp_parton: " + ("FAILED (limit %g)" % TOL if failed else "passed"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
