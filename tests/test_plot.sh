#!/bin/sh
# tools/gaps-plot on two small runs: every histogram gives a valid PNG and PDF page, the
# index holds one page per histogram, and bad input gives one error line and exit status 2.
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
