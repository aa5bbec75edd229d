#!/usr/bin/env python3
"""Statistical comparison of the Histo1D objects (and /_XSEC) of two YODA files.

Usage: compare_yoda.py A.yoda B.yoda [--max-chi2ndf 1.5] [--skip PATH ...]

For each histogram path in both files:
    chi2 = sum over bins with sumw2_A + sumw2_B > 0 of (sumw_A - sumw_B)^2 / (sumw2_A + sumw2_B)
    ndf  = number of such bins
The files must come from independent runs (different seeds): then sumw2 is the variance
estimate of sumw in each file and chi2/ndf ~ 1 when both describe the same distribution.
Exits 1 if any chi2/ndf exceeds the limit, if a histogram is missing or empty in one file, or
if the cross sections differ by more than 5 combined standard deviations; 0 otherwise.
Standard library only, so it runs wherever CTest does.
"""
import argparse
import math
import sys


def parse_yoda(path):
    """Return ({histo path: [(xlow, xhigh, sumw, sumw2), ...]}, xsec or None, xsec error)."""
    histos, xsec = {}, None
    kind = name = None
    in_data = False
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("BEGIN "):
                parts = line.split()
                kind, name = parts[1], parts[2] if len(parts) > 2 else ""
                in_data = False
                if kind.startswith("YODA_HISTO1D"):
                    histos[name] = []
                continue
            if line.startswith("END "):
                kind = name = None
                in_data = False
                continue
            if kind is None:
                continue
            if line == "---":
                in_data = True
                continue
            if not in_data or not line or line.startswith("#"):
                continue
            cols = line.split()
            if kind.startswith("YODA_HISTO1D"):
                if cols[0] in ("Total", "Underflow", "Overflow"):
                    continue
                histos[name].append(tuple(float(c) for c in cols[:4]))
            elif kind.startswith("YODA_SCATTER1D") and name == "/_XSEC":
                v, em, ep = (float(c) for c in cols[:3])
                xsec = (v, 0.5 * (em + ep))
    return histos, xsec


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--max-chi2ndf", type=float, default=1.5)
    ap.add_argument("--skip", nargs="*", default=[], metavar="PATH")
    args = ap.parse_args()

    ha, xa = parse_yoda(args.a)
    hb, xb = parse_yoda(args.b)
    ok = True
    print("%-22s %12s %5s %10s  %s" % ("path", "chi2", "ndf", "chi2/ndf", "result"))
    for path in sorted(set(ha) | set(hb)):
        if path in args.skip:
            print("%-22s %12s %5s %10s  SKIP" % (path, "", "", ""))
            continue
        if path not in ha or path not in hb:
            print("%-22s missing in %s  FAIL" % (path, args.b if path in ha else args.a))
            ok = False
            continue
        a, b = ha[path], hb[path]
        if len(a) != len(b) or any(abs(p[0] - q[0]) > 1e-9 * max(1.0, abs(p[0])) or
                                   abs(p[1] - q[1]) > 1e-9 * max(1.0, abs(p[1]))
                                   for p, q in zip(a, b)):
            print("%-22s binnings differ  FAIL" % path)
            ok = False
            continue
        if sum(p[2] for p in a) == 0 or sum(q[2] for q in b) == 0:
            print("%-22s empty in one file  FAIL" % path)
            ok = False
            continue
        chi2, ndf = 0.0, 0
        for p, q in zip(a, b):
            var = p[3] + q[3]
            if var > 0:
                chi2 += (p[2] - q[2]) ** 2 / var
                ndf += 1
        r = chi2 / ndf if ndf else float("inf")
        passed = r <= args.max_chi2ndf
        ok &= passed
        print("%-22s %12.2f %5d %10.3f  %s" % (path, chi2, ndf, r, "PASS" if passed else "FAIL"))

    if xa is None or xb is None:
        print("/_XSEC missing in one file  FAIL")
        ok = False
    else:
        err = math.hypot(xa[1], xb[1])
        pull = (xa[0] - xb[0]) / err if err > 0 else (0.0 if xa[0] == xb[0] else float("inf"))
        passed = abs(pull) <= 5.0
        ok &= passed
        print("/_XSEC: %.4f +- %.4f vs %.4f +- %.4f pb, pull %.2f  %s"
              % (xa[0], xa[1], xb[0], xb[1], pull, "PASS" if passed else "FAIL"))
    print("overall: %s" % ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
