#!/bin/sh
# pp-w through the whole program against the independent quadrature of tests/test_pp_w.c:
# a run of N events (default 2x10^5, showered) must give the quadrature's LO cross section
# within 3 of its standard errors (the shower keeps the hard weights: sigma is the mean hard
# weight), with invalid_events 0 (every event passes the momentum, mass and colour checks),
# capacity_hits 0; at --nlo 1 the same checks, HepMC3's W signs at LO and NLO, and the same
# bytes from one run, a split run merged and two threads, at LO and NLO.
# Usage: test_pp_w.sh GAPS_BINARY TEST_PP_W_BINARY PDFSETS_DIR WORKDIR [N]
gaps=$1
tool=$2
pdfs=$3
work=$4
n=${5:-200000}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
export KMP_WARNINGS=0
extra=""
timeout 60 "$gaps" --version | grep -q "offload backend" && extra="--allow-host"
fail=0
quad=$("$tool" "$pdfs" --sigma) || { echo "FAIL: quadrature"; exit 1; }
"$gaps" --process pp-w --events "$n" --output w.yoda --json w.json --quiet $extra \
    || { echo "FAIL: the pp-w run"; exit 1; }
python3 - w.json "$quad" <<'PY' || fail=1
import json, sys
j = json.load(open(sys.argv[1]))
quad = float(sys.argv[2])
s, e = j["sigma_pb"], j["sigma_err_pb"]
pull = (s - quad) / e
print(f"pp-w {j['events']} events: sigma {s:.3f} +- {e:.3f} pb, quadrature {quad:.3f} pb, "
      f"pull {pull:+.2f} ({(s / quad - 1) * 100:+.3f} %), invalid_events {j['invalid_events']}, "
      f"capacity_hits {j['capacity_hits']}")
ok = abs(pull) < 3.0 and j["invalid_events"] == 0 and j["capacity_hits"] == 0
print("ok" if ok else "FAIL")
sys.exit(0 if ok else 1)
PY
grep -q "/gaps_w/mt" w.yoda || { echo "FAIL: the W analysis's histograms are not in the YODA file"; fail=1; }
# --nlo 1 (the MC@NLO builder): every event passes the checks, and the HepMC3 events below
# carry W+ and W- with their leptons at NLO too (its cross section against an independent
# fixed-order integration: tests/test_pp_w_nlo.c)
"$gaps" --process pp-w --nlo 1 --events 20000 --output none --json nlo.json --quiet $extra \
    || { echo "FAIL: the pp-w NLO run"; fail=1; }
python3 - nlo.json <<'PY' || fail=1
import json, sys
j = json.load(open(sys.argv[1]))
print(f"pp-w NLO {j['events']} events: sigma {j['sigma_pb']:.1f} +- {j['sigma_err_pb']:.1f} pb, "
      f"invalid_events {j['invalid_events']}, capacity_hits {j['capacity_hits']}")
sys.exit(0 if j["invalid_events"] == 0 and j["capacity_hits"] == 0 else 1)
PY
# HepMC3: every event has one decayed W (status 62) whose sign is its charged lepton's: W+
# (24) with an e+ (-11), W- (-24) with an e- (11); the final state balances the beams
for nlo in 0 1; do
"$gaps" --process pp-w --nlo $nlo --events 500 --output none --hepmc w.hepmc --quiet $extra \
    || { echo "FAIL: the pp-w HepMC3 run"; fail=1; }
awk '
function check() {
    if (!ev) return
    if (nw != 1 || !((w == 24 && l == -11) || (w == -24 && l == 11))) { print "event " ev ": W " w " (" nw "), lepton " l; bad = 1 }
    for (m = 0; m < 4; ++m) { d = out[m] - beam[m]; if (d < 0) d = -d; if (d > 1e-6 * 13000) { print "event " ev ": unbalanced"; bad = 1 } }
    ++n_ev
}
$1 == "E" { check(); ev = $2 + 1; nw = 0; w = 0; l = 0; for (m = 0; m < 4; ++m) out[m] = beam[m] = 0; next }
$1 == "P" {
    if ($10 == 62) { ++nw; w = $4 }
    if ($10 == 1 && ($4 == 11 || $4 == -11)) l = $4
    if ($10 == 4) { beam[0] += $8; beam[1] += $5; beam[2] += $6; beam[3] += $7 }
    if ($10 == 1) { out[0] += $8; out[1] += $5; out[2] += $6; out[3] += $7 }
}
END { check(); if (n_ev != 500) { print n_ev " events"; bad = 1 } exit bad }' w.hepmc \
    && echo "ok: HepMC3 (--nlo $nlo): 500 events, each one W+ with e+ or W- with e-, balanced" \
    || { echo "FAIL: HepMC3 W sign or balance (--nlo $nlo)"; fail=1; }
done
# the same bytes: one run, a split run merged, and (openmp build) two threads
phys() { grep -v -e '^Backend: ' -e '^GitRevision: ' "$1"; }   # the physics bytes
for nlo in 0 1; do
"$gaps" --process pp-w --nlo $nlo --events 3000 -o one.yoda --quiet $extra || fail=1
"$gaps" --process pp-w --nlo $nlo --events 1000 --state-out a.state --output none --quiet \
    $extra || fail=1
"$gaps" --process pp-w --nlo $nlo --first-event 1000 --events 2000 --state-out b.state \
    --output none --quiet $extra || fail=1
"$gaps" merge -o merged.yoda a.state b.state >/dev/null || fail=1
phys one.yoda >one.phys
phys merged.yoda | cmp -s - one.phys && echo "ok: --nlo $nlo split + merge gives the bytes of one run" \
    || { echo "FAIL: --nlo $nlo split + merge differs from one run"; fail=1; }
if "$gaps" --version | grep -q openmp; then
    "$gaps" --process pp-w --nlo $nlo --events 3000 -o two.yoda --threads 2 --quiet $extra \
        || fail=1
    phys two.yoda | cmp -s - one.phys && echo "ok: --nlo $nlo 2 threads give the bytes of one" \
        || { echo "FAIL: --nlo $nlo 2 threads differ from 1"; fail=1; }
fi
done
exit $fail
