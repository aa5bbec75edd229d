#!/usr/bin/env python3
"""--vary shower against independent runs at the varied scale (doc/physics.md 17.5).

Usage: test_vary_bands.py GAPS WORKDIR [PDF_PATH]

For ee-qq and pp-z at LO, one run with --vary shower (seed 1) gives the nominal histograms and
those of each variation weight (/ANALYSIS/HIST[NAME]); two independent runs with
--shower-mur-factor 0.5 and 2 (seeds 2 and 3) shower with the coupling at the varied scale.
The reweighted histograms of MUR_PS=k (ee-qq: MUR_FSR=k, the whole shower there) must agree
with the independent run of factor k: per histogram, chi2 = sum (A - B)^2 / (sumw2_A +
sumw2_B) over the bins with entries, and the chi2 probability must exceed 1e-3 (each
histogram; the Wilson-Hilferty approximation of the chi2 distribution), and the cross sections
within 4 combined standard deviations.  Power: the nominal histograms of the --vary run
against the same independent runs must fail, summed over the histograms (probability below
1e-6), so that the agreement above is not for want of events.  Then bytes: --shower-mur-factor
1 writes the YODA, CSV and HepMC3 files of a run without it, and a --vary run the same files
with --loops steps, trials and fused (variation histograms and weights included).
Standard library only.
"""
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_yoda import parse_yoda  # noqa: E402

RUNS = {
    # process: (events, the weight names of factor 0.5 and 2)
    "ee-qq": (60000, "MUR_FSR=0.5", "MUR_FSR=2"),
    "pp-z": (30000, "MUR_PS=0.5", "MUR_PS=2"),
}
P_MIN = 1e-3      # per histogram
P_POWER = 1e-6    # the controls, all histograms together
XSEC_PULL = 4.0


def chi2_sf(x, k):
    """P(chi2_k > x), Wilson-Hilferty: (x/k)^(1/3) is nearly normal."""
    if k <= 0:
        return 1.0
    z = ((x / k) ** (1.0 / 3.0) - (1.0 - 2.0 / (9.0 * k))) / math.sqrt(2.0 / (9.0 * k))
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def chi2_of(a, b):
    chi2, ndf = 0.0, 0
    for p, q in zip(a, b):
        var = p[3] + q[3]
        if var > 0:
            chi2 += (p[2] - q[2]) ** 2 / var
            ndf += 1
    return chi2, ndf


def xsec_of(path, name):
    """/_XSEC[NAME] (or /_XSEC for name None) of a YODA file."""
    want = "/_XSEC" + ("[%s]" % name if name else "")
    with open(path) as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines):
        if line.startswith("BEGIN YODA_SCATTER1D") and line.split()[2] == want:
            j = lines.index("---", i)
            v, em, ep = (float(c) for c in lines[j + 2].split()[:3])
            return v, 0.5 * (em + ep)
    raise KeyError(want)


def gaps(binary, args, pdf):
    cmd = [binary] + args + ["--quiet"]
    if pdf and "pp-" in " ".join(args):
        cmd += ["--pdf-path", pdf]
    subprocess.run(cmd, check=True)


def main():
    binary, work = sys.argv[1], sys.argv[2]
    pdf = sys.argv[3] if len(sys.argv) > 3 else None
    os.makedirs(work, exist_ok=True)
    ok = True
    for proc, (n, name_lo, name_hi) in RUNS.items():
        base = ["--process", proc, "--events", str(n)]
        va = os.path.join(work, proc + "-vary.yoda")
        gaps(binary, base + ["--seed", "1", "--vary", "shower", "--output", va], pdf)
        ind = {}
        for k, seed in (("0.5", "2"), ("2", "3")):
            ind[k] = os.path.join(work, "%s-k%s.yoda" % (proc, k))
            gaps(binary, base + ["--seed", seed, "--shower-mur-factor", k, "--output", ind[k]],
                 pdf)
        hv, _ = parse_yoda(va)
        nominal = {p: h for p, h in hv.items() if "[" not in p}
        for k, name in (("0.5", name_lo), ("2", name_hi)):
            hk, _ = parse_yoda(ind[k])
            total_ctl, ndf_ctl = 0.0, 0
            print("%s, %s against --shower-mur-factor %s:" % (proc, name, k))
            for path in sorted(nominal):
                a = hv.get(path + "[%s]" % name)
                if a is None or path not in hk:
                    print("  %s: missing  FAIL" % path)
                    ok = False
                    continue
                chi2, ndf = chi2_of(a, hk[path])
                p = chi2_sf(chi2, ndf)
                good = p > P_MIN
                ok &= good
                c2, cn = chi2_of(nominal[path], hk[path])
                total_ctl += c2
                ndf_ctl += cn
                print("  %-26s chi2/ndf %8.1f/%-4d p %.3g  %s   (nominal: %.1f/%d)"
                      % (path, chi2, ndf, p, "ok" if good else "FAIL", c2, cn))
            xa, xb = xsec_of(va, name), xsec_of(ind[k], None)
            pull = (xa[0] - xb[0]) / math.hypot(xa[1], xb[1])
            good = abs(pull) < XSEC_PULL
            ok &= good
            print("  /_XSEC %.6g +- %.3g against %.6g +- %.3g pb, pull %.2f  %s"
                  % (xa[0], xa[1], xb[0], xb[1], pull, "ok" if good else "FAIL"))
            p_ctl = chi2_sf(total_ctl, ndf_ctl)
            good = p_ctl < P_POWER
            ok &= good
            print("  control, the nominal histograms against it: chi2/ndf %.1f/%d, p %.3g  %s"
                  % (total_ctl, ndf_ctl, p_ctl, "ok (fails)" if good else "FAIL (no power)"))

    # --vary not given, and --shower-mur-factor 1: the default run's bytes (no branch of
    # either is taken; tools/compare_builds.sh compares them with a build before --vary)
    def files(d):
        return [os.path.join(d, f) for f in ("x.yoda", "x.csv", "x.hepmc")]

    def same_files(a, b):
        for fa, fb in zip(files(a), files(b)):
            with open(fa, "rb") as x, open(fb, "rb") as y:
                if x.read() != y.read():
                    return False, os.path.basename(fa)
        return True, ""

    for proc in RUNS:
        dirs = {}
        for tag, extra in (("plain", []), ("factor1", ["--shower-mur-factor", "1"]),
                           ("steps", ["--vary", "shower", "--loops", "steps"]),
                           ("trials", ["--vary", "shower", "--loops", "trials"]),
                           ("fused", ["--vary", "shower", "--loops", "fused"])):
            d = dirs[tag] = os.path.join(work, "%s-%s" % (proc, tag))
            os.makedirs(d, exist_ok=True)
            y, c, h = files(d)
            gaps(binary, ["--process", proc, "--events", "2000", "--seed", "4", "--output", y,
                          "--observables-out", c, "--hepmc", h] + extra, pdf)
        for a, b, what in (("plain", "factor1", "--shower-mur-factor 1 = no option"),
                           ("steps", "fused", "--vary: --loops steps = fused"),
                           ("trials", "fused", "--vary: --loops trials = fused")):
            same, which = same_files(dirs[a], dirs[b])
            ok &= same
            print("%s: %s  %s" % (proc, what, "same bytes" if same else "DIFFERENT %s  FAIL" % which))
    print("overall: %s" % ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
