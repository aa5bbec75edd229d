#!/bin/sh
# Runs of p p -> Z at NLO (--nlo 1 --process pp-z, doc/nlo.md section 11.8) through the whole
# program, shower included: the cross section of N events (default 3x10^5) against the
# quadrature's sigma_NLO = 47937.96 pb (tests/test_pp_nlo.c) within 4 standard errors (the
# error from the spread of the signed weights); the negative-weight fraction is reported and
# consistent; every event passes the checks; the same seed gives the same per-event CSV and
# HepMC3 for every pool size, loop structure, thread count (1 and 2) and every binary given;
# --compat gaps21 runs; leading-order pp-z and ee-qq NLO keep their bits.
# Usage: test_pp_nlo_runs.sh WORKDIR BINARY [BINARY...] (N=... in the environment: events)
work=$1; shift
bins=""
for b in "$@"; do   # absolute paths: the runs happen in WORKDIR
    case $b in /*) bins="$bins $b" ;; *) bins="$bins $(pwd)/$b" ;; esac
done
set -- $bins
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
export KMP_WARNINGS=0
N=${N:-300000}
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
gaps=$1
extra_of() { "$1" --version | grep -q "offload backend" && echo "--allow-host"; }
extra=$(extra_of "$gaps")

# ---- leading order and ee-qq NLO keep their bits (pp-z: the events since the finer lowest
# scale bins of the initial-state bounds, doc/physics.md 15.3) ----
"$gaps" $extra --process pp-z --events 20000 --seed 3 --output none --quiet \
    --observables-out lo.csv || bad "pp-z LO run"
h=$(sha256sum lo.csv | cut -c1-64)
[ "$h" = 178ab6709951d95642291923184c69bcb4c6a9c29f29f4db9b8800a57589b6c7 ] \
    && ok "pp-z LO CSV unchanged" || bad "pp-z LO CSV changed: $h"
"$gaps" $extra --nlo 1 --events 20000 --seed 3 --output none --quiet \
    --observables-out ee.csv || bad "ee-qq NLO run"
h=$(sha256sum ee.csv | cut -c1-16)
[ "$h" = 492691ede1e521d5 ] && ok "ee-qq NLO CSV unchanged" || bad "ee-qq NLO CSV changed: $h"

# ---- the cross section, the weight summary, the checks ----
t0=$(date +%s)
"$gaps" $extra --nlo 1 --process pp-z --seed 5 --events "$N" --output none --json big.json \
    >big.txt || bad "run of $N events"
echo "($N events: $(( $(date +%s) - t0 )) s)"
python3 - big.json big.txt "$N" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
n = int(sys.argv[3])
bad = 0
def check(cond, what):
    global bad
    print(("ok: " if cond else "FAIL: ") + what)
    bad |= not cond
exact = 47937.96   # tests/test_pp_nlo.c, quadrature (13 TeV, CT14lo, mu = M_Z, alpha_s 0.118)
pull = (d["sigma_pb"] - exact) / d["sigma_err_pb"]
check(abs(pull) < 4, f"sigma_NLO = {d['sigma_pb']:.2f} +- {d['sigma_err_pb']:.2f} pb against "
      f"{exact} pb (pull {pull:+.2f}); K = {d['sigma_pb'] / 43142.28:.4f}")
check(d["events"] == n and d["invalid_events"] == 0 and d["capacity_hits"] == 0
      and d["bad_weights"] == 0, "every event passes the checks, none hits the capacity")
neg, frac, neff = d["negative_weights"], d["negative_weight_fraction"], d["effective_events"]
check(0 < neg < n and abs(frac - neg / n) < 1e-15,
      f"{neg} negative weights, fraction {100 * frac:.3f} %")
check(0.3 * n < neff < n, f"effective events {neff:.6g} of {n}")
check(d["parameters"].get("nlo") == 1, "the JSON names nlo 1")
check("NLO 1" in text and f"{neg} negative" in text, "the summary names NLO and the negatives")
sys.exit(bad)
PY

# ---- the same events everywhere ----
ref=""
same() {   # same LABEL BINARY ARGS...
    label=$1; bin=$2; shift 2
    "$bin" $(extra_of "$bin") --nlo 1 --process pp-z --seed 9 --events 20000 --quiet \
        --observables-out "$label.csv" --output none --hepmc "$label.hepmc" \
        --json "$label.json" "$@" || { bad "$label did not run"; return; }
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["invalid_events"] != 0)' \
        "$label.json" || bad "$label: invalid events"
    if [ -z "$ref" ]; then ref=$label; return; fi
    for ext in csv hepmc; do
        cmp -s "$ref.$ext" "$label.$ext" || bad "$label.$ext differs from $ref.$ext"
    done
    ok "$label: the same events as $ref"
}
i=0
for bin in "$@"; do
    i=$((i + 1))
    backend=$("$bin" --version | sed -n '1s/.*(\([a-z]*\) backend.*/\1/p')
    same "b$i-$backend-1thread" "$bin" --threads 1
    same "b$i-$backend-2threads" "$bin" --threads 2 --pool 777
    same "b$i-$backend-steps" "$bin" --loops steps --pool 300
    same "b$i-$backend-c5s3" "$bin" --cycles-per-launch 5 --split-every 3 --no-refill
done
awk -F, '!/^#/ && $2 < 0 { n++ } END { exit !(n > 0) }' "$ref.csv" \
    && ok "the CSV holds negative weights" || bad "no negative weight in the CSV"

# ---- --compat gaps21: GAPS 2.1's Li2 and power-shower start ----
"$gaps" $extra --nlo 1 --process pp-z --compat gaps21 --seed 2 --events 20000 --quiet \
    --output none --json g21.json || bad "--compat gaps21 run"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("gaps21: sigma %.1f +- %.1f pb" % (d["sigma_pb"], d["sigma_err_pb"])); sys.exit(d["invalid_events"] != 0)' \
    g21.json && ok "--compat gaps21 runs, every event passes" || bad "--compat gaps21: invalid events"

[ $fail = 0 ] && echo "passed" || echo "FAILED"
exit $fail
