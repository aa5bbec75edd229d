#!/bin/sh
# Runs of e+ e- -> q qbar at NLO (--nlo 1, doc/nlo.md) through the whole program: the cross
# section of N events (default 10^6) against sigma_LO (1 + alpha_s(s)/pi) within 4 standard
# errors (the error from the spread of the signed weights); the JSON and the summary report
# the effective number of events and the negative weights, and they are consistent; every
# event passes the checks; the same seed gives the same per-event CSV and YODA physics for
# every pool size, loop structure, thread count (1 and 2) and for every binary given (serial,
# multicore); split and merge give the bytes of one run (negative weights included); LO and
# NLO states do not merge; --nlo 2 is refused; --compat gaps21 runs
# with GAPS 2.1's fraction of H events.
# Usage: test_nlo_runs.sh WORKDIR BINARY [BINARY...] (N=... in the environment: events)
work=$1; shift
bins=""
for b in "$@"; do   # absolute paths: the runs happen in WORKDIR
    case $b in /*) bins="$bins $b" ;; *) bins="$bins $(pwd)/$b" ;; esac
done
set -- $bins
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
export KMP_WARNINGS=0
N=${N:-1000000}
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
key() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }
gaps=$1
extra_of() { "$1" --version | grep -q "offload backend" && echo "--allow-host"; }
extra=$(extra_of "$gaps")

# ---- the cross section, the weight summary, the checks ----
"$gaps" $extra --nlo 1 --seed 5 --events "$N" --output big.yoda --json big.json >big.txt \
    || bad "run of $N events"
python3 - big.json big.txt big.yoda "$N" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
yoda = open(sys.argv[3]).read()
n = int(sys.argv[4])
bad = 0
def check(cond, what):
    global bad
    print(("ok: " if cond else "FAIL: ") + what)
    bad |= not cond
# sigma_LO (1 + alpha_s(s)/pi) at sqrt(s) = 91.2 GeV, alpha_s(s) = 0.117998 (two loops from
# alpha_s(M_Z^2) = 0.118): 42540.48 pb x 1.0375596 (tests/test_nlo.c computes it from the code)
exact = 44138.29
pull = (d["sigma_pb"] - exact) / d["sigma_err_pb"]
check(abs(pull) < 4, f"sigma_NLO = {d['sigma_pb']:.2f} +- {d['sigma_err_pb']:.2f} pb against "
      f"{exact} pb (pull {pull:+.2f}); sigma_NLO / sigma_LO = {d['sigma_pb'] / 42540.48:.5f} "
      f"+- {d['sigma_err_pb'] / 42540.48:.5f} (1 + alpha_s/pi = 1.03756)")
check(d["events"] == n and d["invalid_events"] == 0 and d["capacity_hits"] == 0
      and d["bad_weights"] == 0, "every event passes the checks, none hits the capacity")
neg, frac, neff = d["negative_weights"], d["negative_weight_fraction"], d["effective_events"]
check(0 < neg < n and abs(frac - neg / n) < 1e-15,
      f"{neg} negative weights, fraction {100 * frac:.3f} %")
check(0.5 * n < neff < n, f"effective events {neff:.6g} of {n}")
check(d["parameters"].get("nlo") == 1, "the JSON names nlo 1")
check("NLO: 1" in yoda, "the YODA annotations name NLO: 1")
check("NLO 1" in text and "effective events" in text and f"{neg} negative" in text,
      "the summary names NLO, the effective events and the negative weights")
sys.exit(bad)
PY

# ---- the same events everywhere ----
ref=""
same() {   # same LABEL BINARY ARGS...
    label=$1; bin=$2; shift 2
    "$bin" $(extra_of "$bin") --nlo 1 --seed 9 --events 20000 --quiet \
        --observables-out "$label.csv" --output "$label.yoda" --hepmc "$label.hepmc" "$@" \
        || { bad "$label did not run"; return; }
    grep -v -e '^Backend: ' -e '^GitRevision: ' "$label.yoda" >"$label.yoda-physics"
    if [ -z "$ref" ]; then ref=$label; return; fi
    for ext in csv yoda-physics hepmc; do
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

# ---- split and merge, and what does not merge ----
run() { "$gaps" $extra --nlo 1 --seed 4 --quiet --output none "$@"; }
run --events 20000 --state-out one.state || bad "one run"
run --events 7000 --state-out a.state || bad "part a"
run --events 13000 --first-event 7000 --state-out b.state || bad "part b"
"$gaps" merge --quiet --output none --json merged.json --state-out merged.state a.state b.state \
    || bad "merge"
cmp -s merged.state one.state && ok "merged state = one run" || bad "merged state differs"
[ "$(key merged.json negative_weights)" -gt 0 ] 2>/dev/null \
    && ok "merged: $(key merged.json negative_weights) negative weights" \
    || bad "merged: no negative weights"
"$gaps" $extra --seed 4 --quiet --output none --events 7000 --first-event 20000 \
    --state-out lo.state || bad "LO part"
if "$gaps" merge --quiet --output none --json lo-nlo.json one.state lo.state 2>merge.err; then
    bad "LO and NLO states merged"
else
    grep -q -e "--nlo" -e "nlo " merge.err && ok "LO and NLO refuse to merge: $(cat merge.err)" \
        || bad "LO/NLO refusal does not name nlo: $(cat merge.err)"
fi

# ---- refusals ----
"$gaps" $extra --nlo 2 --events 10 --output none 2>/dev/null && bad "--nlo 2 accepted"

# ---- --compat gaps21: GAPS 2.1's 25 % H events ----
"$gaps" $extra --nlo 1 --compat gaps21 --seed 6 --events 40000 --quiet --output none \
    --json c.json --observables-out c.csv || bad "compat run"
python3 - c.json c.csv <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
n = d["events"]
frac = d["negative_weight_fraction"]
csv_neg = sum(1 for line in open(sys.argv[2]) if not line.startswith("#")
              and float(line.split(",")[1]) < 0)
ok = d["invalid_events"] == 0 and 0.20 < frac < 0.26 and csv_neg == d["negative_weights"]
print(("ok" if ok else "FAIL") + f": --compat gaps21: {100 * frac:.2f} % negative weights "
      f"(GAPS 2.1: about 25 %), sigma {d['sigma_pb']:.0f} +- {d['sigma_err_pb']:.0f} pb")
sys.exit(0 if ok else 1)
PY
exit $fail
