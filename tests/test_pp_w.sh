#!/bin/sh
# pp-w through the whole program against the independent quadrature of tests/test_pp_w.c:
# a run of N events (default 2x10^5, showered) must give the quadrature's LO cross section
# within 3 of its standard errors (the shower keeps the hard weights: sigma is the mean hard
# weight), with invalid_events 0 (every event passes the momentum, mass and colour checks),
# capacity_hits 0; at --nlo 1 the same checks, HepMC3's W signs at LO and NLO, and the same
# bytes from one run, a split run merged and two threads, at LO and NLO.  The process's own
# options: --w-charge plus and minus (N/8 events each) against the quadrature of that charge
# alone (pulls within 3) and their sum against the run of both; --leptons mu gives the e
# run's events with only the codes changed (CSV and YODA histograms the same bytes: the W
# analysis sees the muons; HepMC3 the same once 13, 14 read 11, 12), e,mu twice the cross
# section with half of the events in each flavour (binomial, within 4 sd); HepMC3 at LO and
# NLO with the options carries only the chosen W sign and lepton codes; states of different
# options are refused by a merge, which names the parameter.
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
phys() { grep -v -e '^Backend: ' -e '^GitRevision: ' "$1"; }   # the physics bytes
# the quadrature of W+ alone and of W- alone; sigma of both is their sum
quads=$("$tool" "$pdfs" --sigma charges) || { echo "FAIL: quadrature"; exit 1; }
set -- $quads
quad_plus=$1 quad_minus=$2
quad=$(python3 -c "import sys; print(repr(float(sys.argv[1]) + float(sys.argv[2])))" $quads)
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
# --w-charge plus and minus alone, each against its own quadrature; plus + minus = both
for c in plus minus; do
    "$gaps" --process pp-w --w-charge $c --events $((n / 8)) --output none --json w_$c.json \
        --quiet $extra || { echo "FAIL: the pp-w --w-charge $c run"; fail=1; }
done
python3 - w.json w_plus.json w_minus.json "$quad_plus" "$quad_minus" <<'PY' || fail=1
import json, math, sys
both, plus, minus = (json.load(open(f)) for f in sys.argv[1:4])
ok = True
for j, c, quad in ((plus, "plus", float(sys.argv[4])), (minus, "minus", float(sys.argv[5]))):
    s, e = j["sigma_pb"], j["sigma_err_pb"]
    pull = (s - quad) / e
    good = (abs(pull) < 3.0 and j["invalid_events"] == 0 and j["capacity_hits"] == 0
            and j["parameters"]["w_charge"] == c)
    print(f"pp-w --w-charge {c}: {j['events']} events, sigma {s:.3f} +- {e:.3f} pb, quadrature "
          f"{quad:.3f} pb, pull {pull:+.2f}, invalid_events {j['invalid_events']}: "
          + ("ok" if good else "FAIL"))
    ok = ok and good
d = plus["sigma_pb"] + minus["sigma_pb"] - both["sigma_pb"]
e = math.sqrt(plus["sigma_err_pb"] ** 2 + minus["sigma_err_pb"] ** 2 + both["sigma_err_pb"] ** 2)
good = abs(d / e) < 3.0 and both["parameters"]["w_charge"] == "both"
print(f"sigma(plus) + sigma(minus) - sigma(both) = {d:+.3f} +- {e:.3f} pb (pull {d / e:+.2f}): "
      + ("ok" if good else "FAIL"))
sys.exit(0 if ok and good else 1)
PY
# --leptons mu: the e events with the mu's codes.  The CSV holds no codes: the same bytes; the
# YODA histograms the same bytes (the W analysis takes the muons as it takes the electrons),
# its only other line Leptons: mu; the HepMC3 the same once 13 and 14 read 11 and 12 and the
# run attribute is left out
"$gaps" --process pp-w --events 2000 --observables-out e.csv --hepmc e.hepmc -o e.yoda --quiet \
    $extra || fail=1
"$gaps" --process pp-w --leptons mu --events 2000 --observables-out mu.csv --hepmc mu.hepmc \
    -o mu.yoda --quiet $extra || fail=1
cmp -s e.csv mu.csv && echo "ok: --leptons mu: the CSV of the e run, byte for byte" \
    || { echo "FAIL: --leptons mu: the CSV differs from the e run's"; fail=1; }
grep -v -e '^Backend: ' -e '^GitRevision: ' e.yoda >e.phys
grep -v -e '^Backend: ' -e '^GitRevision: ' -e '^Leptons: mu$' mu.yoda | cmp -s - e.phys \
    && grep -q '^Leptons: mu$' mu.yoda \
    && echo "ok: --leptons mu: the YODA file of the e run but for its Leptons: mu line" \
    || { echo "FAIL: --leptons mu: the YODA file differs from the e run's"; fail=1; }
awk '$1 == "A" && $2 == "leptons" { next }
$1 == "P" { f = $4 < 0 ? -$4 : $4; s = $4 < 0 ? "-" : ""
            if (f == 11 || f == 12) bad = 1
            if (f == 13 || f == 14) { $4 = s (f - 2); ++n } }
{ print } END { if (bad || n < 4000) exit 1 }' mu.hepmc >mu.as_e \
    && cmp -s mu.as_e e.hepmc \
    && echo "ok: --leptons mu: the HepMC3 events of the e run with 13, 14 for 11, 12 (no e left)" \
    || { echo "FAIL: --leptons mu: the HepMC3 events are not the e run's with the mu codes"; fail=1; }
# --leptons e,mu: the sum of the two channels, twice the cross section
"$gaps" --process pp-w --leptons e,mu --events $((n / 8)) --output none --json emu.json --quiet \
    $extra || fail=1
python3 - emu.json "$quad" <<'PY' || fail=1
import json, sys
j = json.load(open(sys.argv[1]))
quad = 2 * float(sys.argv[2])
s, e = j["sigma_pb"], j["sigma_err_pb"]
pull = (s - quad) / e
ok = abs(pull) < 3.0 and j["invalid_events"] == 0 and j["parameters"]["leptons"] == "e,mu"
print(f"pp-w --leptons e,mu: sigma {s:.3f} +- {e:.3f} pb, twice the quadrature {quad:.3f} pb, "
      f"pull {pull:+.2f}, invalid_events {j['invalid_events']}: " + ("ok" if ok else "FAIL"))
sys.exit(0 if ok else 1)
PY
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
# (24) with an e+ (-11) or mu+ (-13), W- (-24) with an e- (11) or mu- (13), and its neutrino
# of the same flavour; only the W signs and lepton flavours the options chose (e,mu: both
# flavours, each in at least a third of the events); the final state balances the beams
for nlo in 0 1; do
for opts in "both e" "minus mu" "plus e,mu"; do
set -- $opts
"$gaps" --process pp-w --nlo $nlo --w-charge $1 --leptons $2 --events 500 --output none \
    --hepmc w.hepmc --quiet $extra || { echo "FAIL: the pp-w HepMC3 run"; fail=1; }
awk -v charge=$1 -v leptons=$2 '
function check() {
    if (!ev) return
    al = l < 0 ? -l : l
    if (nw != 1 || !((w == 24 && l < 0) || (w == -24 && l > 0)) || nu != (l < 0 ? al + 1 : -(al + 1))) { print "event " ev ": W " w " (" nw "), leptons " l " " nu; bad = 1 }
    if ((charge == "plus" && w != 24) || (charge == "minus" && w != -24)) { print "event " ev ": W " w " with --w-charge " charge; bad = 1 }
    if ((leptons == "e" && al != 11) || (leptons == "mu" && al != 13)) { print "event " ev ": lepton " l " with --leptons " leptons; bad = 1 }
    n_fl[al]++
    for (m = 0; m < 4; ++m) { d = out[m] - beam[m]; if (d < 0) d = -d; if (d > 1e-6 * 13000) { print "event " ev ": unbalanced"; bad = 1 } }
    ++n_ev
}
$1 == "E" { check(); ev = $2 + 1; nw = 0; w = 0; l = 0; nu = 0; for (m = 0; m < 4; ++m) out[m] = beam[m] = 0; next }
$1 == "P" {
    a = $4 < 0 ? -$4 : $4
    if ($10 == 62) { ++nw; w = $4 }
    if ($10 == 1 && (a == 11 || a == 13)) l = $4
    if ($10 == 1 && (a == 12 || a == 14)) nu = $4
    if ($10 == 4) { beam[0] += $8; beam[1] += $5; beam[2] += $6; beam[3] += $7 }
    if ($10 == 1) { out[0] += $8; out[1] += $5; out[2] += $6; out[3] += $7 }
}
END {
    check(); if (n_ev != 500) { print n_ev " events"; bad = 1 }
    if (leptons == "e,mu" && (n_fl[11] < 500 / 3 || n_fl[13] < 500 / 3)) { print n_fl[11] " e and " n_fl[13] " mu events"; bad = 1 }
    exit bad }' w.hepmc \
    && echo "ok: HepMC3 (--nlo $nlo --w-charge $1 --leptons $2): 500 events, each one W with its sign's lepton, balanced" \
    || { echo "FAIL: HepMC3 W sign, leptons or balance (--nlo $nlo --w-charge $1 --leptons $2)"; fail=1; }
done
done
# the options given at their defaults are no option: the same bytes
"$gaps" --process pp-w --events 500 --output d.yoda --hepmc d.hepmc --quiet $extra || fail=1
"$gaps" --process pp-w --w-charge both --leptons e --events 500 --output o.yoda --hepmc o.hepmc \
    --quiet $extra || fail=1
phys d.yoda >d.phys
[ -s d.phys ] && phys o.yoda | cmp -s - d.phys && cmp -s d.hepmc o.hepmc \
    && echo "ok: --w-charge both --leptons e: the YODA and HepMC3 bytes of no option" \
    || { echo "FAIL: --w-charge both --leptons e differs from no option"; fail=1; }
# e,mu: half of the events in each flavour (binomial, within 4 standard deviations)
"$gaps" --process pp-w --leptons e,mu --events 4000 --output none --hepmc emu.hepmc --quiet \
    $extra || fail=1
awk '$1 == "P" && $10 == 1 && ($4 == 11 || $4 == -11) { ++e } $1 == "P" && $10 == 1 && ($4 == 13 || $4 == -13) { ++mu }
END { d = (mu - 2000) / sqrt(1000); print "--leptons e,mu: " e " e and " mu " mu events of 4000 (" d " sd from half)"
      exit (e + mu == 4000 && d < 4 && d > -4) ? 0 : 1 }' emu.hepmc \
    || { echo "FAIL: --leptons e,mu: not half of the events in each flavour"; fail=1; }
# a merge of states of different options is refused, naming the parameter
"$gaps" --process pp-w --w-charge plus --events 100 --state-out p.state --output none --quiet \
    $extra || fail=1
"$gaps" --process pp-w --w-charge minus --first-event 100 --events 100 --state-out m.state \
    --output none --quiet $extra || fail=1
"$gaps" --process pp-w --events 100 --state-out e.state --output none --quiet $extra || fail=1
"$gaps" --process pp-w --leptons mu --first-event 100 --events 100 --state-out l.state \
    --output none --quiet $extra || fail=1
for pair in "p m --w-charge plus and minus" "e l --leptons e and mu"; do
    set -- $pair
    a=$1 b=$2
    shift 2
    "$gaps" merge -o pm.yoda $a.state $b.state 2>merge.err
    rc=$?
    [ $rc = 2 ] && grep -q -e "$*" merge.err \
        && echo "ok: merge of different options refused (exit 2): $(cat merge.err)" \
        || { echo "FAIL: merge of $a.state and $b.state: exit $rc, $(cat merge.err)"; fail=1; }
done
# an option another process does not take: one line, exit status 2
for opt in "--w-charge plus" "--leptons mu"; do
    "$gaps" --process pp-z $opt --events 10 --output none 2>opt.err
    rc=$?
    [ $rc = 2 ] && [ $(wc -l <opt.err) = 1 ] && grep -q "only for --process .*pp-w, not" opt.err \
        && echo "ok: pp-z refuses $opt (exit 2): $(cat opt.err)" \
        || { echo "FAIL: pp-z $opt: exit $rc, $(cat opt.err)"; fail=1; }
done
"$gaps" --process pp-w --nlo 1 --w-charge minus --leptons e,mu --events 20000 --output none \
    --json nlo_opts.json --quiet $extra || { echo "FAIL: the pp-w NLO run with options"; fail=1; }
python3 - nlo_opts.json <<'PY' || fail=1
import json, sys
j = json.load(open(sys.argv[1]))
print(f"pp-w NLO --w-charge minus --leptons e,mu {j['events']} events: sigma {j['sigma_pb']:.1f} "
      f"+- {j['sigma_err_pb']:.1f} pb, invalid_events {j['invalid_events']}, capacity_hits "
      f"{j['capacity_hits']}")
sys.exit(0 if j["invalid_events"] == 0 and j["capacity_hits"] == 0 else 1)
PY
# the same bytes: one run, a split run merged, and (openmp build) two threads, at the
# defaults and with both options away from theirs (e,mu draws one more number per event)
for run in "0" "1" "0 --w-charge minus --leptons e,mu" "1 --w-charge plus --leptons e,mu"; do
set -- $run
nlo=$1
shift
opts="$*"
tag="--nlo $nlo${opts:+ $opts}"
"$gaps" --process pp-w --nlo $nlo $opts --events 3000 -o one.yoda --quiet $extra || fail=1
"$gaps" --process pp-w --nlo $nlo $opts --events 1000 --state-out a.state --output none \
    --quiet $extra || fail=1
"$gaps" --process pp-w --nlo $nlo $opts --first-event 1000 --events 2000 --state-out b.state \
    --output none --quiet $extra || fail=1
"$gaps" merge -o merged.yoda a.state b.state >/dev/null || fail=1
phys one.yoda >one.phys
[ -s one.phys ] && phys merged.yoda | cmp -s - one.phys \
    && echo "ok: $tag split + merge gives the bytes of one run" \
    || { echo "FAIL: $tag split + merge differs from one run"; fail=1; }
if "$gaps" --version | grep -q openmp; then
    "$gaps" --process pp-w --nlo $nlo $opts --events 3000 -o two.yoda --threads 2 --quiet \
        $extra || fail=1
    phys two.yoda | cmp -s - one.phys && echo "ok: $tag 2 threads give the bytes of one" \
        || { echo "FAIL: $tag 2 threads differ from 1"; fail=1; }
fi
done
exit $fail
