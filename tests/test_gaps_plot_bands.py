#!/usr/bin/env python3
"""tools/gaps-plot's uncertainty bands: the envelope of weight variations /A/h[NAME].

A hand-made YODA file with known bin contents:
  /T/a    4 bins of widths 1, 1, 2 and 0.5 with three variations, A_UP=2, A_DN=0.5 and
          OTHER; in bin 1 the nominal lies above every variation, in bin 2 below every one,
          so the table shows that the envelope includes the nominal (tools/gaps-plot's
          choice, its docstring); in bin 3 OTHER alone gives both ends of the variations;
  /T/gap  2 bins with a gap between them ([0, 1) and [2, 3)) and one variation, A_UP=2;
  /T/none no variations: no band, no row in the table.
Checked:
  * --band-table equals the envelope computed here: per bin min and max of sum(w)/width over
    the nominal and the selected variations, the nominal, the edges, the number of
    variations and which histogram gives each end (relative 1e-9);
  * --band 'A_*' and --band OTHER select the variations (names and globs), other rows
    change accordingly; a pattern matching nothing -> one error line, exit 2; a variation
    whose bins differ from its nominal histogram -> one error line, exit 2;
  * the drawing: the envelope is a filled step patch with the table's values in the main
    panel and divided by the nominal in the ratio panel, the legend says 'envelope of 3
    variations'; --no-bands draws none (main() run in this process, its draw_page wrapped);
  * the PNG and PDF files of every histogram are written and are PNG and PDF files;
  * a real file: build/gaps ee-qq --vary shower (3000 events) written to standard output and
    piped into gaps-plot -: a band on the y23 page with 2 variations, low <= nominal <=
    high in every bin and a non-zero width somewhere; every histogram of that file and of a
    pp-z --vary shower run (1000 events) has the variations that doc/physics.md section 17
    names (MUR_FSR=0.5, 2 for e+ e-; MUR_FSR, MUR_ISR, MUR_PS = 0.5, 2 for p p).
  * --pdf-band: a hand-made /T/p with four PDF member weights (PDF=90001..90004, written out
    of order) and one other (MUR=2): the table's low and high per bin equal the Hessian
    pairs' sums computed here (members in number order, MUR=2 left out), the symmetric
    Hessian one at 90 % (divided by 1.6448536), the replicas' mean -+ standard deviation;
    the legend says 'PDF band (hessian, 4 members)'; three members for hessian, a bad type,
    a confidence level of 100 and a file without members -> one error line, exit 2.

Usage: test_gaps_plot_bands.py GAPS WORKDIR.  Exit 0 pass, 1 fail, 77 skipped (numpy,
matplotlib or mplhep missing; a failure under GAPS_STRICT=1).
"""
import csv
import importlib.machinery
import importlib.util
import io
import math
import os
import shutil
import subprocess
import sys

try:
    import numpy as np
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import mplhep  # noqa: F401  (gaps-plot needs it)
except ImportError as e:
    print("SKIP: numpy, matplotlib or mplhep missing (%s; tools/install-deps.sh --plots)" % e)
    sys.exit(1 if os.environ.get("GAPS_STRICT") == "1" else 77)

HERE = os.path.dirname(os.path.abspath(__file__))
PLOT = os.path.join(HERE, "..", "tools", "gaps-plot")
failures = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)
    return ok


# (xlow, xhigh, nominal sum(w), {variation: sum(w)}) per bin; sumw2 = sumw / 10 (any value)
A_BINS = [
    (0.0, 1.0, 10.0, {"A_UP=2": 12.0, "A_DN=0.5": 8.0, "OTHER": 11.0}),
    (1.0, 2.0, 20.0, {"A_UP=2": 18.0, "A_DN=0.5": 15.0, "OTHER": 19.0}),   # nominal above all
    (2.0, 4.0, 30.0, {"A_UP=2": 33.0, "A_DN=0.5": 31.0, "OTHER": 35.0}),   # nominal below all
    (4.0, 4.5, 5.0, {"A_UP=2": 5.0, "A_DN=0.5": 5.0, "OTHER": 4.0}),
]
GAP_BINS = [
    (0.0, 1.0, 4.0, {"A_UP=2": 6.0}),
    (2.0, 3.0, 2.0, {"A_UP=2": 1.0}),
]
NONE_BINS = [(0.0, 1.0, 3.0, {}), (1.0, 2.0, 1.0, {})]


def histo(path, rows, name=None, shift=0.0):
    out = ["BEGIN YODA_HISTO1D_V2 %s" % path, "Path: %s" % path,
           "Title: test %s" % path, "YLabel: $\\mathrm{d}\\sigma/\\mathrm{d}x$ [pb]", "---",
           "# xlow xhigh sumw sumw2 sumwx sumwx2 numEntries"]
    for lo, hi, nom, var in rows:
        w = nom if name is None else var[name]
        out.append("%g %g %.17g %.17g 0 0 10" % (lo + shift, hi + shift, w, abs(w) / 10))
    out.append("END YODA_HISTO1D_V2")
    return out


def write_yoda(filename, shift_variation=0.0):
    lines = []
    for path, rows in (("/T/a", A_BINS), ("/T/gap", GAP_BINS), ("/T/none", NONE_BINS)):
        lines += histo(path, rows)
    lines += ["BEGIN YODA_SCATTER1D_V2 /_XSEC", "Path: /_XSEC", "---", "100 1 1",
              "END YODA_SCATTER1D_V2"]
    for name in ("A_UP=2", "A_DN=0.5", "OTHER"):
        for path, rows in (("/T/a", A_BINS), ("/T/gap", GAP_BINS)):
            if name in rows[0][3]:
                lines += histo("%s[%s]" % (path, name), rows, name,
                               shift_variation if path == "/T/a" else 0.0)
        lines += ["BEGIN YODA_SCATTER1D_V2 /_XSEC[%s]" % name, "Path: /_XSEC[%s]" % name,
                  "---", "100 1 1", "END YODA_SCATTER1D_V2"]
    with open(filename, "w") as f:
        f.write("\n".join(lines) + "\n")


def expected(path, rows, names):
    """{(path, xlow): (xhigh, nominal, low, high, low_by, high_by, n)} computed here."""
    out = {}
    for lo, hi, nom, var in rows:
        width = hi - lo
        values = [("nominal", nom / width)] + [(n, var[n] / width) for n in names if n in var]
        low = min(values, key=lambda v: v[1])          # the first of equal values: nominal
        high = max(values, key=lambda v: v[1])
        out[(path, lo)] = (hi, nom / width, low[1], high[1], low[0], high[0], len(values) - 1)
    return out


def read_table(filename):
    with open(filename) as f:
        text = [line for line in f if not line.startswith("#")]
    return list(csv.DictReader(io.StringIO("".join(text))))


def close(a, b):
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-300)


def compare_table(table, want, what):
    got = {(r["path"], float(r["xlow"])): r for r in table}
    bad = []
    if set(got) != set(want):
        bad.append("rows %s, expected %s" % (sorted(got), sorted(want)))
    for key in sorted(set(got) & set(want)):
        r, (hi, nom, low, high, low_by, high_by, n) = got[key], want[key]
        if not (close(float(r["xhigh"]), hi) and close(float(r["nominal"]), nom)
                and close(float(r["low"]), low) and close(float(r["high"]), high)
                and r["low_by"] == low_by and r["high_by"] == high_by
                and int(r["n_variations"]) == n):
            bad.append("%s: %s, expected nominal %g low %g (%s) high %g (%s), %d variations"
                       % (key, dict(r), nom, low, low_by, high, high_by, n))
    return check(not bad, "%s: %d rows as computed here%s" % (what, len(got),
                                                             "; " + "; ".join(bad[:3])
                                                             if bad else ""))


def load_gaps_plot():
    loader = importlib.machinery.SourceFileLoader("gaps_plot", PLOT)
    spec = importlib.util.spec_from_loader("gaps_plot", loader)
    gp = importlib.util.module_from_spec(spec)
    loader.exec_module(gp)
    return gp


def run_plot(args, stdin=None):
    r = subprocess.run([sys.executable, PLOT] + args, input=stdin, capture_output=True)
    return r.returncode, r.stdout.decode(errors="replace"), r.stderr.decode(errors="replace")


# /T/p: (xlow, xhigh, nominal, {member weight: sum(w)}) per bin; the members' numbers give
# their order (PDF=90001, 90002 the first eigenvector's pair), not the file's order
P_BINS = [
    (0.0, 1.0, 10.0, {"PDF=90003": 12.0, "PDF=90001": 11.0, "PDF=90004": 9.0,
                      "PDF=90002": 10.5, "MUR=2": 30.0}),
    (1.0, 3.0, 20.0, {"PDF=90003": 19.0, "PDF=90001": 18.0, "PDF=90004": 19.5,
                      "PDF=90002": 17.0, "MUR=2": 2.0}),
]


def write_pdf_yoda(filename, names):
    lines = histo("/T/p", P_BINS)
    for name in names:
        lines += histo("/T/p[%s]" % name, P_BINS, name)
    with open(filename, "w") as f:
        f.write("\n".join(lines) + "\n")


def pdf_expected(kind, cl):
    """{("/T/p", xlow): (xhigh, nominal, low, high, by, by, 4)}, LHAPDF's formulas."""
    z90 = 1.6448536269514722   # the two-sided 90 % normal quantile
    out = {}
    for lo, hi, nom, var in P_BINS:
        w = hi - lo
        x0 = nom / w
        x = [var["PDF=%d" % (90000 + m)] / w for m in range(1, 5)]
        if kind == "hessian":
            up = math.sqrt(sum(max(x[i] - x0, x[i + 1] - x0, 0) ** 2 for i in (0, 2)))
            dn = math.sqrt(sum(max(x0 - x[i], x0 - x[i + 1], 0) ** 2 for i in (0, 2)))
            low, high = x0 - dn, x0 + up
        elif kind == "symmhessian":
            d = math.sqrt(sum((v - x0) ** 2 for v in x)) / (z90 if cl == 90 else 1.0)
            low, high = x0 - d, x0 + d
        else:
            mean = sum(x) / 4
            sd = math.sqrt(sum((v - mean) ** 2 for v in x) / 3)
            low, high = mean - sd, mean + sd
        out[("/T/p", lo)] = (hi, x0, low, high, "pdf " + kind, "pdf " + kind, 4)
    return out


def pdf_checks(gp, pages):
    write_pdf_yoda("pdf.yoda", ["PDF=90003", "PDF=90001", "MUR=2", "PDF=90004", "PDF=90002"])
    for spec, kind, cl in (("hessian", "hessian", None), ("symmhessian:90", "symmhessian", 90),
                           ("replicas", "replicas", None)):
        pages.clear()
        rc = gp.main(["pdf.yoda", "-o", "pdfplots", "--pdf-band", spec, "--format", "png",
                      "--dpi", "30", "--no-index", "--quiet", "--band-table", "pdf.csv"])
        if check(rc == 0, "--pdf-band %s -> exit %d" % (spec, rc)):
            compare_table(read_table("pdf.csv"), pdf_expected(kind, cl), "--pdf-band " + spec)
    drawn = pages.get("/T/p")
    check(drawn is not None and any("PDF band (replicas, 4 members)" in t for t in drawn[1]),
          "--pdf-band replicas: legend %s" % (drawn[1] if drawn else None))
    write_pdf_yoda("pdf3.yoda", ["PDF=90001", "PDF=90002", "PDF=90003"])
    write_pdf_yoda("nopdf.yoda", ["MUR=2"])
    for args, word in ((["pdf3.yoda", "--pdf-band", "hessian"], "3 members"),
                       (["pdf.yoda", "--pdf-band", "hesian"], "hessian, symmhessian or"),
                       (["pdf.yoda", "--pdf-band", "hessian:100"], "percentage"),
                       (["nopdf.yoda", "--pdf-band", "hessian"], "no PDF member")):
        rc, out, err = run_plot(args + ["-o", "bad", "--quiet"])
        lines = err.strip().splitlines()
        check(rc == 2 and len(lines) == 1 and word in err,
              "gaps-plot %s -> exit %d, %s" % (" ".join(args), rc, err.strip()))


def main():
    if len(sys.argv) != 3:
        print("usage: test_gaps_plot_bands.py GAPS WORKDIR")
        return 2
    gaps, work = os.path.abspath(sys.argv[1]), sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    os.chdir(work)
    write_yoda("bands.yoda")
    write_yoda("badbins.yoda", shift_variation=0.25)
    gp = load_gaps_plot()

    # the drawing, through main() in this process: draw_page wrapped to see what it drew
    pages = {}
    draw_page = gp.draw_page

    def spy(path, files, args, plt_, hep, report=None, bands=None):
        fig = draw_page(path, files, args, plt_, hep, report, bands)
        patches = []
        for ax in fig.axes[:2]:
            patches.append([p.get_data() for p in ax.patches
                            if p.get_gid() == "envelope"])
        legend = fig.axes[0].get_legend()
        pages[path] = (patches, [t.get_text() for t in legend.get_texts()] if legend else [])
        return fig
    gp.draw_page = spy

    names = ["A_UP=2", "A_DN=0.5", "OTHER"]
    want = expected("/T/a", A_BINS, names)
    want.update(expected("/T/gap", GAP_BINS, names))
    rc = gp.main(["bands.yoda", "-o", "plots", "--band-table", "all.csv", "--dpi", "40",
                  "--quiet"])
    if check(rc == 0, "gaps-plot bands.yoda --band-table all.csv -> exit %d" % rc):
        compare_table(read_table("all.csv"), want, "all variations")
    # the files: one PNG and one PDF per histogram, all.pdf, index.html
    stems = ["T_a", "T_gap", "T_none"]
    bad = []
    for stem in stems:
        for ext, magic in (("png", b"\x89PNG\r\n\x1a\n"), ("pdf", b"%PDF-")):
            name = os.path.join("plots", "%s.%s" % (stem, ext))
            if not os.path.isfile(name) or os.path.getsize(name) < 1000:
                bad.append("%s missing or small" % name)
                continue
            with open(name, "rb") as f:
                if not f.read(8).startswith(magic):
                    bad.append("%s is not a %s file" % (name, ext.upper()))
    for name in ("all.pdf", "index.html"):
        if not os.path.isfile(os.path.join("plots", name)):
            bad.append("no " + name)
    check(not bad, "PNG and PDF of %s, all.pdf, index.html%s"
          % (", ".join(stems), ": " + "; ".join(bad) if bad else ""))

    # the band drawn: main panel low..high, ratio panel the same over the nominal
    drawn = pages.get("/T/a")
    if check(drawn is not None and len(drawn[0][0]) == 1 and len(drawn[0][1]) == 1,
             "/T/a: one envelope patch in the main and in the ratio panel"):
        (values, edges, baseline), = drawn[0][0]
        (rvalues, redges, rbaseline), = drawn[0][1]
        rows = [want[("/T/a", b[0])] for b in A_BINS]
        lo = np.array([r[2] for r in rows])
        hi = np.array([r[3] for r in rows])
        nom = np.array([r[1] for r in rows])
        check(np.allclose(edges, [0, 1, 2, 4, 4.5]) and np.allclose(values, hi, rtol=1e-12)
              and np.allclose(baseline, lo, rtol=1e-12),
              "/T/a: the main panel's band is the table's low..high %s..%s" % (lo, hi))
        check(np.allclose(rvalues, hi / nom, rtol=1e-12)
              and np.allclose(rbaseline, lo / nom, rtol=1e-12),
              "/T/a: the ratio panel's band is low/nominal..high/nominal")
        check(any("envelope of 3 variations" in t for t in drawn[1]),
              "/T/a: legend %s names the envelope of 3 variations" % drawn[1])
    drawn = pages.get("/T/gap")
    check(drawn is not None and len(drawn[0][0]) == 1
          and np.isnan(drawn[0][0][0][0][1]) and any("envelope of 1 variation" in t
                                                     for t in drawn[1]),
          "/T/gap: a band with a hole where the binning has a gap, 'envelope of 1 variation'")
    drawn = pages.get("/T/none")
    check(drawn is not None and drawn[0] == [[], []]
          and not any("envelope" in t for t in drawn[1]),
          "/T/none (no variations): no band")

    pages.clear()
    rc = gp.main(["bands.yoda", "-o", "nobands", "--no-bands", "--format", "png", "--dpi",
                  "30", "--no-index", "--quiet", "--match", "^/T/a$",
                  "--band-table", "nobands.csv"])
    drawn = pages.get("/T/a")
    check(rc == 0 and drawn is not None and drawn[0] == [[], []]
          and not any("envelope" in t for t in drawn[1]),
          "--no-bands: /T/a drawn without a band (exit %d)" % rc)
    if os.path.isfile("nobands.csv"):   # the numbers are still there
        compare_table(read_table("nobands.csv"), {k: v for k, v in want.items()
                                                  if k[0] == "/T/a"}, "--no-bands table")
    else:
        check(False, "--no-bands --band-table: no table")

    # --band: names and globs
    for band, chosen in (("A_*", ["A_UP=2", "A_DN=0.5"]), ("OTHER", ["OTHER"]),
                         ("A_DN=0.5,OTHER", ["A_DN=0.5", "OTHER"])):
        sel = {k: v for k, v in expected("/T/a", A_BINS, chosen).items()}
        sel.update({k: v for k, v in expected("/T/gap", GAP_BINS, chosen).items()
                    if v[6] > 0})
        rc = gp.main(["bands.yoda", "-o", "sel", "--band", band, "--format", "png", "--dpi",
                      "30", "--no-index", "--quiet", "--match", "^/T/a$",
                      "--band-table", "sel.csv"])
        if check(rc == 0, "--band %s -> exit %d" % (band, rc)):
            compare_table(read_table("sel.csv"), {k: v for k, v in sel.items()
                                                  if k[0] == "/T/a"}, "--band %s" % band)
    sel_rows = read_table("sel.csv") if os.path.isfile("sel.csv") else []
    check(len(sel_rows) == 4 and all(r["n_variations"] == "2" for r in sel_rows)
          and sel_rows[1]["high_by"] == "nominal" and sel_rows[2]["high_by"] == "OTHER",
          "--band A_DN=0.5,OTHER: 2 variations; bin 1 high is the nominal, bin 2 OTHER")

    # bad input: one line, exit 2 (the script's own process)
    for args, word in ((["bands.yoda", "--band", "NOPE*"], "--band NOPE*: matches no"),
                       (["bands.yoda", "--band", "A_UP=2,nope"], "--band nope: matches no"),
                       (["bands.yoda", "--band", ","], "--band: no variation"),
                       (["badbins.yoda"], "bins differ")):
        rc, out, err = run_plot(args + ["-o", "bad", "--quiet"])
        lines = err.strip().splitlines()
        check(rc == 2 and len(lines) == 1 and word in err,
              "gaps-plot %s -> exit %d, %s" % (" ".join(args), rc, err.strip()))

    # a real file: gaps --vary shower on standard output, piped into gaps-plot -
    run = subprocess.run([gaps, "--events", "3000", "--vary", "shower", "--output", "-",
                          "--quiet"], capture_output=True)
    if not check(run.returncode == 0 and run.stdout.startswith(b"BEGIN YODA"),
                 "gaps --events 3000 --vary shower --output - (exit %d)" % run.returncode):
        return 1
    with open("ee.yoda", "wb") as f:
        f.write(run.stdout)
    rc, out, err = run_plot(["-", "-o", "real", "--match", "log10_y23$", "--no-index",
                             "--dpi", "40", "--band-table", "real.csv"], stdin=run.stdout)
    rows = read_table("real.csv") if os.path.isfile("real.csv") else []
    ok = (rc == 0 and os.path.isfile("real/LEP_log10_y23.png")
          and os.path.isfile("real/LEP_log10_y23.pdf") and len(rows) > 10
          and all(r["path"] == "/LEP/log10_y23" and r["n_variations"] == "2" for r in rows)
          and all(float(r["low"]) <= float(r["nominal"]) <= float(r["high"]) for r in rows)
          and any(float(r["high"]) > float(r["low"]) for r in rows))
    check(ok, "gaps ... | gaps-plot - --match log10_y23$: exit %d, %d rows with 2 variations, "
          "low <= nominal <= high, PNG and PDF%s" % (rc, len(rows), "" if ok else ": " + err))
    pp = subprocess.run([gaps, "--process", "pp-z", "--events", "1000", "--vary", "shower",
                         "--output", "ppz.yoda", "--quiet"], capture_output=True)
    check(pp.returncode == 0, "gaps --process pp-z --events 1000 --vary shower (exit %d)"
          % pp.returncode)
    fsr = ["MUR_FSR=0.5", "MUR_FSR=2"]
    every = fsr + ["MUR_ISR=0.5", "MUR_ISR=2", "MUR_PS=0.5", "MUR_PS=2"]
    for name, names in (("ee.yoda", fsr), ("ppz.yoda", every)):
        if not os.path.isfile(name):
            continue
        f = gp.read_yoda(name, name, False)
        bands = gp.select_bands([f], list(f.histos), None).get(f, {})
        missing = [p for p in f.histos if sorted(bands.get(p, {})) != sorted(names)]
        check(len(f.histos) >= 12 and not missing,
              "%s: all %d histograms have the variations %s%s"
              % (name, len(f.histos), ", ".join(names),
                 "; not: " + ", ".join(missing) if missing else ""))

    pdf_checks(gp, pages)
    print("PASS" if not failures else "FAILED: %d check(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
