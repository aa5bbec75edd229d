#!/bin/sh
# tools/gaps-plot on two small runs: every histogram gives a valid PNG and PDF page, the
# index holds one page per histogram, and bad input gives one error line and exit status 2.
# Negative bins (a synthetic file): drawn on a symmetric-log axis, or named in a warning when
# --logy yes cannot draw them; the legend's cross section in the axis's unit.
# Usage: test_plot.sh GAPS_BINARY WORKDIR [PYTHON]
# Exits 77 (SKIPPED) when numpy, matplotlib or mplhep are missing, unless GAPS_STRICT=1:
# then their absence is a failure.
gaps=$1
work=$2
python=${3:-python3}
plot="$(cd "$(dirname "$0")/.." && pwd)/tools/gaps-plot"
[ -n "$gaps" ] && [ -n "$work" ] || { echo "usage: test_plot.sh GAPS_BINARY WORKDIR [PYTHON]"; exit 2; }

if ! missing=$("$python" -c "import numpy, matplotlib, mplhep" 2>&1); then
    why=$(printf '%s\n' "$missing" | tail -n 1)
    if [ "${GAPS_STRICT:-0}" = 1 ]; then
        echo "FAIL: GAPS_STRICT=1 but the plotting modules are missing ($why);" \
             "tools/install-deps.sh --plots installs them"
        exit 1
    fi
    echo "SKIPPED: numpy, matplotlib or mplhep missing ($why); tools/install-deps.sh --plots"
    exit 77
fi

rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail=0

"$gaps" --events 2000 --output a.yoda --quiet || { echo "FAIL: gaps run 1"; exit 1; }
"$gaps" --events 2000 --seed 2 --output b.yoda --quiet || { echo "FAIL: gaps run 2"; exit 1; }
nhist=$(grep -c '^BEGIN YODA_HISTO1D' a.yoda)
[ "$nhist" -gt 0 ] || { echo "FAIL: a.yoda holds no histograms"; exit 1; }

if "$python" "$plot" a.yoda:"seed 1" b.yoda -o plots >plot.log 2>&1; then
    echo "ok: gaps-plot a.yoda b.yoda -> $(tail -n 1 plot.log)"
else
    echo "FAIL: gaps-plot a.yoda b.yoda:"; cat plot.log; fail=1
fi

# Every output file a valid image: PNG signature, IHDR size and a full decode by Pillow
# (a matplotlib dependency); PDF header and trailer; one all.pdf page per histogram.
"$python" - "$nhist" plots <<'EOF' || fail=1
import glob, os, re, struct, sys
nhist, out = int(sys.argv[1]), sys.argv[2]
bad = []
pngs = sorted(glob.glob(os.path.join(out, "*.png")))
pdfs = sorted(p for p in glob.glob(os.path.join(out, "*.pdf")) if not p.endswith("all.pdf"))
if len(pngs) != nhist or len(pdfs) != nhist:
    bad.append("%d PNG and %d PDF files for %d histograms" % (len(pngs), len(pdfs), nhist))
for p in pngs:
    with open(p, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        bad.append("%s: not a PNG" % p)
        continue
    w, h = struct.unpack(">II", head[16:24])
    if not (300 <= w <= 4000 and 300 <= h <= 4000):
        bad.append("%s: odd size %dx%d" % (p, w, h))
    try:
        from PIL import Image
        with Image.open(p) as im:
            im.load()                  # decodes every row: catches a truncated file
            if im.size != (w, h):
                bad.append("%s: Pillow reads %s, IHDR says %dx%d" % (p, im.size, w, h))
    except ImportError:
        pass
    except Exception as e:
        bad.append("%s: does not decode: %s" % (p, e))
def pdf_pages(p):
    with open(p, "rb") as f:
        data = f.read()
    if not data.startswith(b"%PDF-") or b"%%EOF" not in data[-64:]:
        bad.append("%s: not a complete PDF" % p)
        return 0
    return len(re.findall(rb"/Type\s*/Page\b", data))
for p in pdfs:
    if pdf_pages(p) != 1:
        bad.append("%s: not one page" % p)
allpdf = os.path.join(out, "all.pdf")
if not os.path.isfile(allpdf):
    bad.append("no all.pdf")
elif pdf_pages(allpdf) != nhist:
    bad.append("all.pdf: %d pages for %d histograms" % (pdf_pages(allpdf), nhist))
if not os.path.isfile(os.path.join(out, "index.html")):
    bad.append("no index.html")
for b in bad:
    print("FAIL: " + b)
if not bad:
    print("ok: %d PNG and %d PDF files valid, all.pdf has %d pages" % (len(pngs), len(pdfs),
                                                                      nhist))
sys.exit(1 if bad else 0)
EOF

# --match and --format select what is drawn
if "$python" "$plot" a.yoda --match 'y23$' --format png --no-index --quiet -o one \
        >one.log 2>&1 && [ "$(ls one)" = "LEP_log10_y23.png" ]; then
    echo "ok: --match 'y23\$' --format png -> $(ls one)"
else
    echo "FAIL: --match/--format: $(ls one 2>&1)"; cat one.log; fail=1
fi

# Negative bins (NLO runs have some): a synthetic file whose /TEST/zpt spans 4.6 decades with
# one negative bin, [4, 5) at -5 pb/GeV, and a /TEST/flat without any.  --logy yes cannot draw
# it: one warning line naming the histogram and the bin, exit 0; auto draws it on a
# symmetric-log axis (no warning); the legend's cross section is in the axis's unit (pb).
cat >neg.yoda <<'YODA'
BEGIN YODA_HISTO1D_V2 /TEST/zpt
Path: /TEST/zpt
YLabel: $\mathrm{d}\sigma/\mathrm{d}p_T$ [pb/GeV]
---
0 1 30000 100 0 0 500
1 2 8000 50 0 0 300
2 3 1000 10 0 0 100
3 4 100 2 0 0 50
4 5 -5 1 0 0 20
5 6 2 0.5 0 0 20
6 7 0.8 0.3 0 0 10
END YODA_HISTO1D_V2
BEGIN YODA_HISTO1D_V2 /TEST/flat
Path: /TEST/flat
YLabel: $\mathrm{d}\sigma/\mathrm{d}x$ [pb]
---
0 1 30000 100 0 0 500
1 2 8000 50 0 0 300
2 3 10 2 0 0 50
END YODA_HISTO1D_V2
BEGIN YODA_SCATTER1D_V2 /_XSEC
Path: /_XSEC
---
42480 290 290
END YODA_SCATTER1D_V2
YODA
"$python" "$plot" neg.yoda --logy yes --quiet -o neg-log >out.txt 2>err.txt
rc=$?
if [ $rc -eq 0 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q "warning: /TEST/zpt: neg.yoda: 1 negative bin .*\[4, 5) -5" err.txt; then
    echo "ok: --logy yes names the negative bin it cannot draw: $(cat err.txt)"
else
    echo "FAIL: --logy yes with a negative bin -> exit $rc, stderr:"; cat err.txt; fail=1
fi
"$python" "$plot" neg.yoda --quiet -o neg-auto >out.txt 2>err.txt
rc=$?
[ $rc -eq 0 ] && [ ! -s err.txt ] && [ -s neg-auto/TEST_zpt.png ] \
    && echo "ok: --logy auto draws the negative bin without a warning" \
    || { echo "FAIL: --logy auto with a negative bin -> exit $rc, stderr:"; cat err.txt; fail=1; }
MPLBACKEND=Agg "$python" - "$plot" neg.yoda <<'PY' || fail=1
import importlib.machinery, importlib.util, sys
import numpy as np
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import mplhep as hep
loader = importlib.machinery.SourceFileLoader("gaps_plot", sys.argv[1])
spec = importlib.util.spec_from_loader("gaps_plot", loader)
gp = importlib.util.module_from_spec(spec)
loader.exec_module(gp)
gp.np = np
f = gp.read_yoda(sys.argv[2], "neg", False)
bad = []
def page(path, logy):
    class Args:
        shape = False
    Args.logy = logy
    said = []
    fig = gp.draw_page(path, [f], Args(), plt, hep, lambda kind, line: said.append((kind, line)))
    ax = fig.axes[0]
    r = (ax.get_yscale(), ax.get_ylim(), [t.get_text() for t in ax.get_legend().get_texts()],
         said)
    plt.close(fig)
    return r
scale, (lo, hi), legend, said = page("/TEST/zpt", "auto")
# the bin [4, 5): -5 +- 1 pb/GeV, inside the axis; the tail above it still logarithmic
if scale != "symlog" or lo > -6 or hi < 3e4:
    bad.append("auto: %s axis %g..%g does not show the bin at -5 +- 1 and the peak" % (scale, lo, hi))
if any(k == "warning" for k, _ in said) or not any("[4, 5)" in l for _, l in said):
    bad.append("auto: %s" % said)
if not any(" pb)" in t and "42480" in t for t in legend):
    bad.append("legend %s: not in pb, the axis's unit" % legend)
scale, (lo, hi), legend, said = page("/TEST/zpt", "yes")
if scale != "log" or [k for k, _ in said] != ["warning"] or "/TEST/zpt" not in said[0][1]:
    bad.append("--logy yes: %s, %s" % (scale, said))
# negative control: no negative bin, nothing said, a plain log axis
scale, (lo, hi), legend, said = page("/TEST/flat", "auto")
if scale != "log" or said:
    bad.append("/TEST/flat: %s, %s" % (scale, said))
for b in bad:
    print("FAIL: gaps-plot negative bins: " + b)
if not bad:
    print("ok: negative bin drawn on a symmetric-log axis (auto), warned about under --logy "
          "yes; legend in pb as the axis; a histogram without one: log axis, nothing said")
sys.exit(1 if bad else 0)
PY

# Bad input: exit status 2 and one line on stderr naming the problem.
printf 'BEGIN YODA_COUNTER_V2 /_EVTCOUNT\n---\n1 1 1\nEND YODA_COUNTER_V2\n' >nohist.yoda
awk '/^# xlow/ && !done { print; getline; $NF = ""; done = 1 } { print }' a.yoda >badrow.yoda
head -n 20 a.yoda >noend.yoda
expect_error() {   # expect_error WORD ARGS...
    word=$1; shift
    "$python" "$plot" "$@" -o bad >out.txt 2>err.txt
    rc=$?
    lines=$(wc -l <err.txt)
    if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -q -- "$word" err.txt; then
        echo "FAIL: gaps-plot $* -> exit $rc, stderr:"; cat err.txt; fail=1
    else
        echo "ok: gaps-plot $* -> $(cat err.txt)"
    fi
}
expect_error "no such file" no-such-file.yoda
expect_error "no such file" a.yoda no-such-file.yoda
expect_error "no 1D histograms" nohist.yoda
expect_error "malformed bin row" badrow.yoda
expect_error "has no END" noend.yoda
expect_error "--match" a.yoda --match 'nothing-matches-this'
expect_error "--format" a.yoda --format gif

[ "$fail" -eq 0 ] && echo "PASS"
exit "$fail"
