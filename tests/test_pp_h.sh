#!/bin/sh
# pp-h through the whole program against the independent quadrature of tests/test_pp_h.c:
# a run of N events (default 2x10^5, showered) must give the quadrature's LO cross section
# within 3 of its standard errors (the shower keeps the hard weights: sigma is the mean hard
# weight), with invalid_events 0 (every event passes the momentum, mass and colour checks),
# capacity_hits 0; at --nlo 1 (N_NLO = $NLO_EVENTS, default 40000 showered events) the mean
# weight against the textbook NLO cross section of tests/test_pp_h_nlo.c --sigma within 4
# standard errors, with the same checks; HepMC3 events at both orders.
# Usage: test_pp_h.sh GAPS_BINARY TEST_PP_H_BINARY PDFSETS_DIR WORKDIR [N]
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
"$gaps" --process pp-h --events "$n" --output h.yoda --json h.json --quiet $extra \
    || { echo "FAIL: the pp-h run"; exit 1; }
python3 - h.json "$quad" <<'PY' || fail=1
import json, sys
j = json.load(open(sys.argv[1]))
quad = float(sys.argv[2])
s, e = j["sigma_pb"], j["sigma_err_pb"]
pull = (s - quad) / e
print(f"pp-h {j['events']} events: sigma {s:.3f} +- {e:.3f} pb, quadrature {quad:.3f} pb, "
      f"pull {pull:+.2f} ({(s / quad - 1) * 100:+.3f} %), invalid_events {j['invalid_events']}, "
      f"capacity_hits {j['capacity_hits']}")
ok = abs(pull) < 3.0 and j["invalid_events"] == 0 and j["capacity_hits"] == 0
print("ok" if ok else "FAIL")
sys.exit(0 if ok else 1)
PY
# the run's coupling reaches the process: --alphas-mz 0.130 --alphas-order 1
quad2=$("$tool" "$pdfs" --sigma 0.130 1) || { echo "FAIL: quadrature 2"; exit 1; }
"$gaps" --process pp-h --events 20000 --alphas-mz 0.130 --alphas-order 1 --output none \
    --json h2.json --quiet $extra || { echo "FAIL: the pp-h run at alpha_s 0.130"; exit 1; }
python3 - h2.json "$quad2" <<'PY' || fail=1
import json, sys
j = json.load(open(sys.argv[1]))
quad = float(sys.argv[2])
s, e = j["sigma_pb"], j["sigma_err_pb"]
pull = (s - quad) / e
print(f"pp-h alpha_s(M_Z) 0.130, 1 loop, {j['events']} events: sigma {s:.3f} +- {e:.3f} pb, "
      f"quadrature {quad:.3f} pb, pull {pull:+.2f}")
ok = abs(pull) < 3.0 and j["invalid_events"] == 0
print("ok" if ok else "FAIL")
sys.exit(0 if ok else 1)
PY
grep -q "/gaps_higgs/dphihj1" h.yoda || { echo "FAIL: the Higgs analysis's histograms are not in the YODA file"; fail=1; }
# --nlo 1 (the MC@NLO builder with g g -> H's pieces): the mean weight against the textbook
# NLO integration of tests/test_pp_h_nlo.c (--sigma; default coupling), every event valid
nlo_tool=$(dirname "$tool")/test_pp_h_nlo
quad_nlo=$("$nlo_tool" "$pdfs" --sigma) || { echo "FAIL: the NLO quadrature"; exit 1; }
"$gaps" --process pp-h --nlo 1 --events "${NLO_EVENTS:-40000}" --seed 3 --output none \
    --json nlo.json --quiet $extra || { echo "FAIL: the pp-h NLO run"; fail=1; }
python3 - nlo.json "$quad_nlo" <<'PY' || fail=1
import json, sys
j = json.load(open(sys.argv[1]))
quad = float(sys.argv[2])
s, e = j["sigma_pb"], j["sigma_err_pb"]
pull = (s - quad) / e
print(f"pp-h NLO {j['events']} events: sigma {s:.3f} +- {e:.3f} pb, textbook NLO {quad:.3f} pb, "
      f"pull {pull:+.2f}, negative weights {100 * j['negative_weight_fraction']:.2f} %, invalid "
      f"{j['invalid_events']}, capacity {j['capacity_hits']}")
# a g g -> H shower of the NLO H events (gluons radiate with C_A) fills the 64-row record
# in about one event of 4x10^4; such events end at the capacity, flagged and counted
ok = (abs(pull) < 4.0 and j["invalid_events"] == 0
      and j["capacity_hits"] <= 1e-4 * j["events"])
print("ok" if ok else "FAIL")
sys.exit(0 if ok else 1)
PY
# HepMC3: every event has one final-state Higgs (PDG 25, status 1) and no decayed boson
# (status 62); the final state balances the beams
for nlo in 0 1; do
"$gaps" --process pp-h --nlo $nlo --events 500 --output none --hepmc h.hepmc --quiet $extra \
    || { echo "FAIL: the pp-h HepMC3 run (--nlo $nlo)"; fail=1; }
awk '
function check() {
    if (!ev) return
    if (nh != 1 || nd != 0) { print "event " ev ": " nh " Higgs, " nd " decayed"; bad = 1 }
    for (m = 0; m < 4; ++m) { d = out[m] - beam[m]; if (d < 0) d = -d; if (d > 1e-6 * 13000) { print "event " ev ": unbalanced"; bad = 1 } }
    ++n_ev
}
$1 == "E" { check(); ev = $2 + 1; nh = 0; nd = 0; for (m = 0; m < 4; ++m) out[m] = beam[m] = 0; next }
$1 == "P" {
    if ($10 == 62) ++nd
    if ($10 == 1 && $4 == 25) ++nh
    if ($10 == 4) { beam[0] += $8; beam[1] += $5; beam[2] += $6; beam[3] += $7 }
    if ($10 == 1) { out[0] += $8; out[1] += $5; out[2] += $6; out[3] += $7 }
}
END { check(); if (n_ev != 500) { print n_ev " events"; bad = 1 } exit bad }' h.hepmc \
    && echo "ok: HepMC3 (--nlo $nlo): 500 events, each with one final-state Higgs, balanced" \
    || { echo "FAIL: HepMC3 Higgs or balance (--nlo $nlo)"; fail=1; }
done
# the same bytes: one run, a split run merged, and (openmp build) two threads
"$gaps" --process pp-h --events 3000 -o one.yoda --quiet $extra || fail=1
"$gaps" --process pp-h --events 1000 --state-out a.state --output none --quiet $extra || fail=1
"$gaps" --process pp-h --first-event 1000 --events 2000 --state-out b.state --output none \
    --quiet $extra || fail=1
"$gaps" merge -o merged.yoda a.state b.state >/dev/null || fail=1
phys() { grep -v -e '^Backend: ' -e '^GitRevision: ' "$1"; }   # the physics bytes
phys one.yoda >one.phys
phys merged.yoda | cmp -s - one.phys && echo "ok: split + merge gives the bytes of one run" \
    || { echo "FAIL: split + merge differs from one run"; fail=1; }
if "$gaps" --version | grep -q openmp; then
    "$gaps" --process pp-h --events 3000 -o two.yoda --threads 2 --quiet $extra || fail=1
    phys two.yoda | cmp -s - one.phys && echo "ok: 2 threads give the bytes of one" \
        || { echo "FAIL: 2 threads differ from 1"; fail=1; }
fi
exit $fail
