#!/bin/sh
# The weight unit of the exact sums follows the run (issue 28, item 3; gaps/histogram.h,
# gaps_weight_unit_for in src/process/process.c).  With the unit fixed per process, pp-z at
# sqrt(s) = 95 GeV reported sigma 0 (mean weight 1e-13 pb), at 100 GeV 41 % off, at 92 GeV
# NLO 0 +- 0.  For a sweep of sqrt(s) from just above each threshold (pp-z: M_Z = 91.1876
# GeV; pp-ll: the window's upper edge 116 GeV) to 13 TeV, LO and NLO, every run must
#   - exit 0 with imprecise_weights 0 in its JSON,
#   - give the mean weight of its per-event CSV as sigma to relative 1e-9 (the rounding of
#     the sums is at most 2^-41 unit per event, the unit at most 16 times the mean weight:
#     1e-11; the CSV's 17 digits and Python's sum 1e-15),
# and at the low energies split + merge and a killed + resumed run give the bytes of one run
# (every part, rank and resume computes the same unit).
# Usage: test_weight_unit.sh GAPS_BINARY GAPS_HOOKS_BINARY WORKDIR
gaps=$1
hooks=$2
work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
export KMP_WARNINGS=0
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
extra=""
timeout 60 "$gaps" --version | grep -q "offload backend" && extra="--allow-host"
N=2000

# sigma (JSON) against the CSV's mean weight; imprecise_weights must be 0
compare() {
    python3 - "$1" "$2" <<'EOF'
import csv, json, sys
j = json.load(open(sys.argv[1]))
w = [float(r[1]) for r in csv.reader(open(sys.argv[2])) if r and not r[0].startswith("#")]
mean = sum(w) / len(w)
sigma = j["sigma_pb"]
rel = abs(sigma - mean) / abs(mean) if mean != 0 else float("inf")
msg = f"sigma {sigma:.12g} pb, CSV mean {mean:.12g} pb, relative {rel:.2g}, " \
      f"imprecise_weights {j.get('imprecise_weights')}"
ok = len(w) == j["events"] and rel <= 1e-9 and j.get("imprecise_weights") == 0
print(("ok " if ok else "BAD ") + msg)
sys.exit(0 if ok else 1)
EOF
}

for case in "pp-z 91.3" "pp-z 92" "pp-z 95" "pp-z 100" "pp-z 200" "pp-z 1000" "pp-z 13000" \
            "pp-ll 116.5" "pp-ll 120" "pp-ll 200" "pp-ll 1000" "pp-ll 13000"; do
    set -- $case
    for nlo in 0 1; do
        name="$1 --ecm $2 --nlo $nlo"
        timeout 120 "$gaps" $extra --quiet --process $1 --ecm $2 --nlo $nlo --events $N \
            --output none --json r.json --observables-out r.csv 2>err.txt
        rc=$?
        if [ $rc != 0 ]; then
            bad "$name: exit $rc: $(head -c 300 err.txt)"
            continue
        fi
        out=$(compare r.json r.csv) && ok "$name: $out" || bad "$name: $out"
    done
done

# the unit is the run's: split parts, merged, and a run killed after a checkpoint and
# resumed, give the bytes of one run (NLO: signed weights)
for case in "pp-z 95" "pp-ll 120"; do
    set -- $case
    run="--process $1 --ecm $2 --nlo 1 --seed 3"
    timeout 120 "$gaps" $extra --quiet $run --events $N --output one.yoda --json one.json \
        --state-out one.state --hepmc one.hepmc || bad "$1 $2: the whole run failed"
    timeout 120 "$gaps" $extra --quiet $run --events $((N / 2)) --output none \
        --state-out a.state || bad "$1 $2: part a failed"
    timeout 120 "$gaps" $extra --quiet $run --events $((N / 2)) --first-event $((N / 2)) \
        --output none --state-out b.state || bad "$1 $2: part b failed"
    timeout 120 "$gaps" merge --quiet --output merged.yoda --state-out merged.state \
        b.state a.state || bad "$1 $2: merge failed"
    # (the YODA files differ in their Backend line only: the states are compared)
    cmp -s merged.state one.state && ok "$1 $2 NLO: split and merged = one run" \
        || bad "$1 $2 NLO: the merged state differs"
    rm -f ck ck1 res.yoda res.hepmc
    GAPS_TEST_HOOK_CHECKPOINT='[ -f ck1 ] && kill -KILL $PPID; touch ck1' \
        timeout 120 "$hooks" $extra --quiet $run --events $N --output res.yoda \
        --hepmc res.hepmc --checkpoint ck --checkpoint-every 500 >/dev/null 2>&1
    rc=$?
    if [ $rc = 0 ] || [ ! -f ck ]; then
        bad "$1 $2: the run was not killed at its second checkpoint (exit $rc)"
    else
        timeout 120 "$gaps" $extra --quiet $run --events $N --output res.yoda \
            --hepmc res.hepmc --checkpoint ck --checkpoint-every 500 --resume ck \
            || bad "$1 $2: the resume failed"
        cmp -s res.yoda one.yoda && cmp -s res.hepmc one.hepmc \
            && ok "$1 $2 NLO: killed and resumed = one run (YODA, HepMC3)" \
            || bad "$1 $2 NLO: the resumed run differs"
    fi
done

[ $fail = 0 ] && echo "weight_unit: all passed"
exit $fail
