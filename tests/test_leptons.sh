#!/bin/sh
# --leptons e|mu|e,mu (include/gaps/parameters.h; src/process/leptons.c) of pp-ll and pp-w, at
# LO and NLO.  The leptons are massless, so the mu channel must be the e channel's events with
# only the codes changed: the CSV (which holds no codes) and the YODA histograms the same bytes
# (the analyses take muons as they take electrons), the YODA file's only other line
# "Leptons: mu", the HepMC3 file the same once 13 and 14 read 11 and 12 (and its "A leptons mu"
# attribute is left out), no electron left.  e,mu is the sum of the two channels: the same hard
# events at twice the weight, so sigma and its error are twice the e run's (to rounding:
# 1e-9), and each event's leptons are of one family, half of the events muons (binomial,
# within 4 standard deviations).  Every event passes the checks.  "--leptons e" and a run
# card's "leptons = mu" are the option's values; a bad value, or --leptons (or --w-charge)
# with a process that does not take it, is refused with one line and exit status 2; states of
# different lepton choices do not merge.  Nothing here depends on timing.
# Usage: test_leptons.sh GAPS_BINARY WORKDIR
gaps=$1
work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
export KMP_WARNINGS=0
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
extra=""
"$gaps" --version | grep -q "offload backend" && extra="--allow-host"
N=1500
run() { "$gaps" $extra --seed 5 --events $N --threads 1 --quiet "$@"; }
phys() { grep -v -e '^Backend: ' -e '^GitRevision: ' "$1"; }   # the physics bytes

# ---- refused: exit 2, one line on standard error, nothing written ----
refused() {   # refused WHAT WORDS ARGS...
    what=$1; words=$2; shift 2
    rm -f r.yoda
    "$gaps" $extra --events 10 --quiet --output r.yoda "$@" >out.txt 2>err.txt
    rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q -- "$words" err.txt \
            && [ ! -e r.yoda ]; then
        ok "refused: $what ($(cat err.txt))"
    else
        bad "$what: exit $rc, expected 2 with one line naming '$words':"; cat err.txt
    fi
}
refused "an unknown value" "invalid value 'tau' for --leptons" --process pp-ll --leptons tau
refused "the families in the other order" "invalid value 'mu,e' for --leptons" \
    --process pp-w --leptons mu,e
refused "a misspelt value, with the closest" "did you mean e,mu" --process pp-w --leptons e,nu
refused "an empty value" "invalid value '' for --leptons" --process pp-w --leptons ""
for p in ee-qq pp-z pp-h; do
    refused "--leptons mu with $p" "only for --process pp-ll, pp-w, not --process $p" \
        --process $p --leptons mu
done
refused "--w-charge with pp-ll" "only for --process pp-w, not --process pp-ll" --process pp-ll \
    --w-charge minus
printf 'process = pp-ll\nleptons = muon\n' >bad.card
refused "a bad value in a run card" "bad.card:2" --card bad.card

for proc in pp-ll pp-w; do
for nlo in 0 1; do
    tag="$proc --nlo $nlo"
    run --process $proc --nlo $nlo --observables-out e.csv --hepmc e.hepmc -o e.yoda \
        --json e.json || bad "$tag: the e run"
    run --process $proc --nlo $nlo --leptons e -o e2.yoda || bad "$tag: the --leptons e run"
    phys e.yoda >e.phys
    [ -s e.phys ] && phys e2.yoda | cmp -s - e.phys && ok "$tag: --leptons e is the default, byte for byte" \
        || bad "$tag: --leptons e differs from no option"
    printf 'process = %s\nnlo = %s\nleptons = mu\n' $proc $nlo >mu.card
    run --card mu.card --observables-out mu.csv --hepmc mu.hepmc -o mu.yoda --json mu.json \
        || bad "$tag: the mu run (run card)"
    [ -s e.csv ] && cmp -s e.csv mu.csv && ok "$tag: mu: the CSV of the e run" \
        || bad "$tag: mu: the CSV differs from the e run's"
    phys mu.yoda | grep -v '^Leptons: mu$' | cmp -s - e.phys && grep -q '^Leptons: mu$' mu.yoda \
        && ok "$tag: mu: the YODA file of the e run but for its Leptons: mu line" \
        || bad "$tag: mu: the YODA file differs from the e run's"
    awk '$1 == "A" && $2 == "leptons" { next }
    $1 == "P" { f = $4 < 0 ? -$4 : $4; s = $4 < 0 ? "-" : ""
                if (f == 11 || f == 12) bad = 1
                if (f == 13 || f == 14) { $4 = s (f - 2); ++n } }
    { print } END { if (bad || n < 2 * '$N') exit 1 }' mu.hepmc >mu.as_e \
        && cmp -s mu.as_e e.hepmc \
        && ok "$tag: mu: the HepMC3 events of the e run with 13, 14 for 11, 12, no e left" \
        || bad "$tag: mu: the HepMC3 events are not the e run's with the mu codes"
    run --process $proc --nlo $nlo --leptons e,mu --hepmc emu.hepmc -o emu.yoda --json emu.json \
        || bad "$tag: the e,mu run"
    python3 - e.json mu.json emu.json "$tag" <<'PY' || fail=1
import json, sys
e, mu, emu = (json.load(open(f)) for f in sys.argv[1:4])
tag = sys.argv[4]
r, re = emu["sigma_pb"] / (2 * e["sigma_pb"]), emu["sigma_err_pb"] / (2 * e["sigma_err_pb"])
ok = (abs(r - 1) < 1e-9 and abs(re - 1) < 1e-9 and mu["sigma_pb"] == e["sigma_pb"]
      and all(j["invalid_events"] == 0 and j["capacity_hits"] == 0 for j in (e, mu, emu))
      and emu["parameters"]["leptons"] == "e,mu" and mu["parameters"]["leptons"] == "mu")
print(f"{'ok' if ok else 'FAIL'}: {tag}: e,mu sigma {emu['sigma_pb']:.6f} pb = 2 x {e['sigma_pb']:.6f} "
      f"(ratio - 1 = {r - 1:.1e}, of the errors {re - 1:.1e}); mu {mu['sigma_pb']:.6f}; "
      f"invalid_events {e['invalid_events']} {mu['invalid_events']} {emu['invalid_events']}")
sys.exit(0 if ok else 1)
PY
    awk -v n=$N '
    function check() {
        if (!ev) return
        if (ne + nm != 2 || (ne && nm)) { print "event " ev ": " ne " e and " nm " mu leptons"; bad = 1 }
        if (nm) ++mu_events
        ++events
    }
    $1 == "E" { check(); ev = $2 + 1; ne = nm = 0; next }
    $1 == "P" && $10 == 1 { f = $4 < 0 ? -$4 : $4; if (f == 11 || f == 12) ++ne; if (f == 13 || f == 14) ++nm }
    END { check(); d = (mu_events - n / 2) / sqrt(n / 4)
          printf "%d mu events of %d (%+.2f sd from half)\n", mu_events, events, d
          exit (bad || events != n || d > 4 || d < -4) ? 1 : 0 }' emu.hepmc >emu.txt \
        && ok "$tag: e,mu: each event of one family, $(cat emu.txt)" \
        || { bad "$tag: e,mu: the families of the events:"; cat emu.txt; }
done
done

# states of different lepton choices do not merge, and the message names the parameter
"$gaps" $extra --process pp-ll --events 500 --state-out a.state --output none --quiet \
    || bad "the e state"
"$gaps" $extra --process pp-ll --leptons e,mu --first-event 500 --events 500 \
    --state-out b.state --output none --quiet || bad "the e,mu state"
"$gaps" merge -o ab.yoda a.state b.state 2>merge.err
rc=$?
[ $rc -eq 2 ] && grep -q -e "--leptons e and e,mu" merge.err \
    && ok "merge of e and e,mu states refused (exit 2): $(cat merge.err)" \
    || bad "merge of e and e,mu states: exit $rc, $(cat merge.err)"
exit $fail
