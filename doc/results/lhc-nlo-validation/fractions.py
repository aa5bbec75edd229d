#!/usr/bin/env python3
"""Fractions of unit-area LHC histograms (doc/validation-lhc.md section 7.3): with their
statistical errors (the var(p) of tools/yoda-chi2), as a Markdown table.

    fractions.py FILE.yoda[:LABEL] ...
"""
import sys, importlib.machinery, importlib.util, gzip, shutil, os
import numpy as np
loader = importlib.machinery.SourceFileLoader("yc", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools", "yoda-chi2"))
spec = importlib.util.spec_from_loader("yc", loader); yc = importlib.util.module_from_spec(spec); loader.exec_module(yc)
gp = yc.load_gaps_plot()
files = sys.argv[1:]
def frac(h, sel):
    tot, tot2 = h.flows["Total"]
    lo, hi = np.array(h.lo), np.array(h.hi)
    w = np.array(h.sumw); w2 = np.array(h.sumw2)
    s = 0.0; s2 = 0.0
    if sel[0] == "under": s, s2 = h.flows["Underflow"]
    elif sel[0] == "over": s, s2 = h.flows["Overflow"]
    elif sel[0] == "notunder": s, s2 = tot - h.flows["Underflow"][0], tot2 - h.flows["Underflow"][1]
    elif sel[0] == "range":
        m = (lo >= sel[1]) & (hi <= sel[2]); s, s2 = w[m].sum(), w2[m].sum()
        if len(sel) > 3 and sel[3]: s += h.flows["Overflow"][0]; s2 += h.flows["Overflow"][1]
    p = s / tot
    var = (s2 * (1 - 2 * p) + p * p * tot2) / tot ** 2
    return p, np.sqrt(max(var, 0))
rows = [("Z p_T < 0.5 GeV (zptfull underflow)", "/gaps_lhc/zptfull", ("under",)),
        ("Z p_T > 30 GeV", "/gaps_lhc/zpt", ("range", 30, 100, True)),
        ("Z p_T > 100 GeV (zpt overflow)", "/gaps_lhc/zpt", ("over",)),
        ("a 1st jet in \\|eta\\| < 5 with p_T > 30 GeV", "/gaps_lhc/j1pt", ("range", 30, 100, True)),
        ("a 2nd jet in \\|eta\\| < 5, any p_T", "/gaps_lhc/j2pt", ("notunder",)),
        ("a 3rd jet in \\|eta\\| < 5, any p_T", "/gaps_lhc/j3pt", ("notunder",)),
        ("njets >= 1", "/gaps_lhc/njets", ("range", 0.5, 9.5, True)),
        ("njets >= 3", "/gaps_lhc/njets", ("range", 2.5, 9.5, True)),
        ("Delta R(j1, j2) < 1", "/gaps_lhc/dRj1j2", ("range", 0, 1.0)),
        ]
data = []
for f in files:
    path, _, label = f.partition(":")
    label = label or path
    data.append((label, gp.read_yoda(path, label, False)))
print("| | " + " | ".join(l for l, _ in data) + " |")
print("| --- |" + " ---: |" * len(data))
for name, hp, sel in rows:
    cells = []
    for l, d in data:
        p, e = frac(d.histos[hp], sel)
        cells.append("%.4f (%d)" % (p, round(e * 1e4)) )
    print("| %s | %s |" % (name, " | ".join(cells)))
