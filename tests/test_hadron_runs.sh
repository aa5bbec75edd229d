#!/bin/sh
# Runs of the hadronic processes (pp-z, pp-ll) through the initial-state shower: every event
# passes the momentum, mass and colour checks with incoming partons and the II recoil, no
# trial ever finds its overestimate below the true density (the bounds of src/shower/isr.h),
# the cross section is the exactly integrated one (tests/test_pp_processes.c: 43142.28 pb for
# pp-z with CT14lo at 13 TeV) within 4 standard errors, split and merge give the bytes of one
# run, and two thread counts and the step loops give the same per-event CSV.
# Usage: test_hadron_runs.sh GAPS_BINARY WORKDIR
gaps=$1
work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
export KMP_WARNINGS=0
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
extra=""
"$gaps" --version | grep -q "offload backend" && extra="--allow-host"
run() { "$gaps" $extra --seed 11 --quiet "$@"; }
N=6000

key() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }

for proc in pp-z pp-ll; do
    run --process $proc --events $N --output $proc.yoda --json $proc.json \
        --observables-out $proc.csv --state-out $proc.state --threads 1 || bad "$proc run"
    [ "$(key $proc.json invalid_events)" = 0 ] && ok "$proc: every event passes the checks" \
        || bad "$proc: $(key $proc.json invalid_events) events fail the checks"
    [ "$(key $proc.json overestimate_violations)" = 0 ] && ok "$proc: no trial above its bound" \
        || bad "$proc: $(key $proc.json overestimate_violations) trials with f > g"
    [ "$(key $proc.json capacity_hits)" = 0 ] || bad "$proc: record capacity reached"
    grep -q '/gaps_lhc/zpt' $proc.yoda && ok "$proc: LHC histograms" || bad "$proc: no /gaps_lhc/zpt"
    # split and merge: the bytes of one run
    run --process $proc --events $((N / 2)) --output none --state-out a.state || bad "$proc a"
    run --process $proc --events $((N / 2)) --first-event $((N / 2)) --output none \
        --state-out b.state || bad "$proc b"
    "$gaps" merge --quiet --output merged.yoda --state-out merged.state a.state b.state \
        || bad "$proc merge"
    cmp -s merged.state $proc.state && ok "$proc: merged state = one run" \
        || bad "$proc: merged state differs"
    # the events do not depend on the number of threads (pool partitions)
    run --process $proc --events $N --output none --observables-out t2.csv --threads 2 \
        || bad "$proc threads 2"
    cmp -s t2.csv $proc.csv && ok "$proc: same CSV with 2 threads" || bad "$proc: CSV differs"
    # nor on the loops: one launch per step splits from the gathered list of slots
    # (gaps_shower_launch_step), a GPU's default for hadron collisions
    run --process $proc --events $N --output none --observables-out st.csv --loops steps \
        --pool 500 --cycles-per-launch 3 || bad "$proc steps"
    cmp -s st.csv $proc.csv && ok "$proc: same CSV with --loops steps" \
        || bad "$proc: CSV differs with --loops steps"
    # or two launches per cycle, the trial and the splitting, with the splitting list's
    # counters taking turns (gaps_shower_launch_trial)
    run --process $proc --events $N --output none --observables-out tr.csv --loops trials \
        --pool 500 --cycles-per-launch 3 || bad "$proc trials"
    cmp -s tr.csv $proc.csv && ok "$proc: same CSV with --loops trials" \
        || bad "$proc: CSV differs with --loops trials"
    # one pool generation: most of the run is its end, where a pass runs its cycles in one
    # launch over the showering slots (gaps_shower_launch_cycles_listed); and the cycle log
    run --process $proc --events $N --output none --observables-out one.csv --loops steps \
        --pool $N --cycles-per-launch 5 --cycles-out one.cycles --json one.json \
        || bad "$proc steps, one generation"
    cmp -s one.csv $proc.csv && ok "$proc: same CSV with one pool generation" \
        || bad "$proc: CSV differs with one pool generation"
    python3 - one.cycles one.json $N <<'PY' && ok "$proc: cycle log" || bad "$proc: cycle log"
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1])))
assert rows[0] == ["veto_cycle", "events_completed", "seconds"], rows[0]
c = [int(r[0]) for r in rows[1:]]; n = [int(r[1]) for r in rows[1:]]; t = [float(r[2]) for r in rows[1:]]
assert c == [5 * (i + 1) for i in range(len(c))], "cycles not in steps of 5"
assert all(a <= b for a, b in zip(n, n[1:])) and n[-1] == int(sys.argv[3]), "events"
assert t[0] >= 0 and all(a <= b for a, b in zip(t, t[1:])), "seconds not increasing"
total = json.load(open(sys.argv[2]))["time_s"]["total"]
assert t[-1] <= total + 1e-3, f"last pass at {t[-1]} s, after the run's {total} s"
PY
done

python3 - pp-z.json <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
exact = 43142.28   # 1-D integral with CT14lo (tests/test_pp_processes.c)
pull = (d["sigma_pb"] - exact) / d["sigma_err_pb"]
print(f"{'ok' if abs(pull) < 4 else 'FAIL'}: pp-z sigma {d['sigma_pb']:.1f} +- "
      f"{d['sigma_err_pb']:.1f} pb against {exact} pb (pull {pull:+.2f})")
sys.exit(0 if abs(pull) < 4 else 1)
PY

# --compat gaps21 runs, and refuses to merge with the default
run --process pp-z --compat gaps21 --events 2000 --output c.yoda --json c.json \
    --state-out c.state || bad "compat run"
[ "$(key c.json invalid_events)" = 0 ] || bad "compat: events fail the checks"
"$gaps" merge --quiet --output none c.state a.state 2>/dev/null && bad "compat merged with none" \
    || ok "compat and default states do not merge"
exit $fail
