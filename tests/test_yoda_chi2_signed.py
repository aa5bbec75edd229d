#!/usr/bin/env python3
"""tools/yoda-chi2 with signed weights (doc/validation-lhc.md section 7.2).

Toy samples of one signed distribution, d sigma/dx = 1 - 1.5 x on [0, 1] (positive part 1,
negative part 1.5 x; the net density crosses zero at x = 2/3, so bins there hold many events
of both signs and cancel), drawn by two different samplers as NLO generators do:

  A: every event at a uniform x with weight +-(1 + 1.5 x), negative with probability
     1.5 x / (1 + 1.5 x)  (gaps's choice of S or H by |weight|);
  B: 25 % "H" events of weight -1.5 x / 0.25 and 75 % "S" events of weight 1 / 0.75
     (GAPS 2.1's fixed H fraction).

Each sample is histogrammed in 40 bins on [0.05, 1] (x < 0.05 goes to the underflow) and
written as a GAPS-2.1-style YODA file (its columns: sumw, sumw2, sumwx, and w^2 x where
"sumwx2" should be, spec 7.1), normalised to unit area.  Pairs of independent A and B
samples are compared by yoda-chi2's reader and statistic.  Pass: chi^2/ndf over all pairs
between 0.75 and 1.15 (its spread over 20 x 41 bins is 0.05; the pooled variance is somewhat
conservative where the bins cancel: 0.895, 0.932 and 0.857 measured for the seeds 1000+k,
2000+k, 3000+k).  Negative controls, each must
leave that range: the sumw2 column replaced by the file's w^2 x column; errors as if the
weights were all equal (sumw2 = sumw^2 / n, sign-blind); B's negative part 1.6 x instead of
1.5 x (a 10 % change of the negative events).

Usage: test_yoda_chi2_signed.py SOURCE_DIR WORKDIR   (exit 77 without numpy)
"""
import importlib.machinery
import importlib.util
import os
import sys
import types

try:
    import numpy as np
except ImportError:
    print("SKIPPED: numpy missing")
    sys.exit(77)

src, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
loader = importlib.machinery.SourceFileLoader("yoda_chi2", os.path.join(src, "tools", "yoda-chi2"))
spec = importlib.util.spec_from_loader("yoda_chi2", loader)
yc = importlib.util.module_from_spec(spec)
loader.exec_module(yc)
gp = yc.load_gaps_plot()

NB, LO, HI = 40, 0.05, 1.0
EDGES = np.linspace(LO, HI, NB + 1)


def sample(rng, n, scheme, neg=1.5):
    x = rng.random(n)
    if scheme == "A":
        m = 1.0 + neg * x
        w = np.where(rng.random(n) < neg * x / m, -m, m)
    else:
        w = np.where(rng.random(n) < 0.25, -neg * x / 0.25, 1.0 / 0.75)
    return x, w


def write_yoda(path, x, w, variant=""):
    """GAPS 2.1's layout (spec 7.1): Total, Underflow, Overflow and bin rows
    'xlow xhigh sumw sumw2 sumwx sumwx2 n', sumwx2 holding w^2 x, scaled to unit area."""
    idx = np.searchsorted(EDGES, x, side="right") - 1          # -1: underflow
    rows = []
    W = w.sum()
    def row(sel):
        ww, xx = w[sel], x[sel]
        s, s2 = ww.sum() / W, (ww * ww).sum() / W ** 2
        if variant == "w2x":
            s2 = (ww * ww * xx).sum() / W ** 2
        elif variant == "equal" and sel.sum():
            s2 = s * s / sel.sum()
        return [s, s2, (ww * xx).sum() / W, (ww * ww * xx).sum() / W ** 2, int(sel.sum())]
    under = row(idx < 0)
    over = row(idx >= NB)
    bins = [row(idx == b) for b in range(NB)]
    tot = [sum(r[k] for r in bins + [under, over]) for k in range(4)] + [len(x)]
    with open(path, "w") as f:
        f.write("BEGIN YODA_SCATTER1D /_XSEC\nPath: /_XSEC\nType: Scatter1D\n---\n"
                "# xval\t xerr-\t xerr+\t\n%.6e\t%.6e\t%.6e\nEND YODA_SCATTER1D_V2\n\n"
                % (W / len(x), 1.0, 1.0))
        f.write("BEGIN YODA_HISTO1D /toy/x\n\n\nPath=/toy/x\n\n\nScaledBy=%.6e\nTitle=\n"
                "Type=Histo1D\n# ID\tID\tsumw\tsumw2\tsumwx\tsumwx2\tnumEntries\n" % (1.0 / W))
        for name, r in (("Total", tot), ("Underflow", under), ("Overflow", over)):
            f.write("%s\t%s\t%.6e\t%.6e\t%.6e\t%.6e\t%d\n" % ((name, name) + tuple(r)))
        f.write("# xlow\txhigh\tsumw\tsumw2\tsumwx\tsumwx2\tnumEntries\n")
        for b, r in enumerate(bins):
            f.write("%.6e\t%.6e\t%.6e\t%.6e\t%.6e\t%.6e\t%d\n" % ((EDGES[b], EDGES[b + 1]) + tuple(r)))
        f.write("END YODA_HISTO1D\n\n")


def run(label, variant="", neg_b=1.5, pairs=20):
    args = types.SimpleNamespace(no_flows=False, no_norm=False, naive_errors=False,
                                 observed_errors=False)
    chi2 = ndf = 0
    for k in range(pairs):
        rng = np.random.default_rng(1000 + k)
        fa, fb = os.path.join(work, "a.yoda"), os.path.join(work, "b.yoda")
        write_yoda(fa, *sample(rng, 100000, "A"), variant)
        write_yoda(fb, *sample(rng, 100000, "B", neg_b), variant)
        ha = gp.read_yoda(fa, "A", False).histos["/toy/x"]
        hb = gp.read_yoda(fb, "B", False).histos["/toy/x"]
        r = yc.compare(ha, hb, args)
        chi2 += r["chi2"]
        ndf += r["ndf"]
    return chi2 / ndf, ndf


fail = 0
ratio, ndf = run("same distribution")
good = 0.75 < ratio < 1.15
print("%s: two samplers of one signed distribution: chi2/ndf = %.3f over %d bins (0.75 .. 1.15)"
      % ("ok" if good else "FAIL", ratio, ndf))
fail |= not good
for label, kw in (("sumw2 column replaced by w^2 x", dict(variant="w2x")),
                  ("sign-blind errors sumw^2/n", dict(variant="equal")),
                  ("B's negative part 1.6 x", dict(neg_b=1.6))):
    ratio, ndf = run(label, **kw)
    caught = not 0.75 < ratio < 1.15
    print("%s: negative control, %s: chi2/ndf = %.3f" % ("ok" if caught else "FAIL", label, ratio))
    fail |= not caught
sys.exit(1 if fail else 0)
