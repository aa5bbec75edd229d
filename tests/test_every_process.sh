#!/bin/sh
# Every entry of the process list, at every order it has (issue "One process interface"):
# the processes and whether each has --nlo 1 come from the program itself (--help's list, and
# a refusal naming the process), so that a new process is tested without editing this file.
# For each (process, order), N showered events (default 3000):
#   1. the mean weight of the per-event CSV is the JSON's sigma (relative 1e-9: the exact
#      sums round at 2^-41 unit per event) and sigma is finite and > 0;
#   2. invalid_events 0 (every event passed the momentum, mass, colour and finiteness checks),
#      capacity_hits 0, bad_weights 0;
#   3. a split run merged (events [0, N/3) and [N/3, N)) gives the YODA bytes of one run, and
#      a run killed at its first checkpoint and resumed gives them too;
#   4. (multicore build) two threads give the bytes of one.
# Usage: test_every_process.sh GAPS_BINARY GAPS_HOOKS_BINARY WORKDIR [N]
gaps=$1
hooks=$2
work=$3
n=${4:-3000}
[ -n "$gaps" ] && [ -n "$hooks" ] && [ -n "$work" ] \
    || { echo "usage: test_every_process.sh GAPS_BINARY GAPS_HOOKS_BINARY WORKDIR [N]"; exit 2; }
case $gaps in /*) ;; *) gaps=$(pwd)/$gaps ;; esac
case $hooks in /*) ;; *) hooks=$(pwd)/$hooks ;; esac
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
export LC_ALL=C KMP_WARNINGS=0
extra=""
"$gaps" --version | grep -q "offload backend" && extra="--allow-host"
fail=0
"$gaps" --help >help.txt 2>&1 || { echo "FAIL: --help"; exit 1; }
processes=$(sed -n 's/^ *--process \([^ ]*\).*/\1/p' help.txt | head -n 1 | tr '|' ' ')
[ -n "$processes" ] || { echo "FAIL: no process list in --help"; exit 1; }
phys() { grep -v -e '^Backend: ' -e '^GitRevision: ' "$1"; }   # the physics bytes
third=$((n / 3))
for p in $processes; do
    for nlo in 0 1; do
        label="$p --nlo $nlo"
        if ! "$gaps" --process "$p" --nlo $nlo --events 1 --output none --quiet $extra \
                >/dev/null 2>err.txt; then
            if [ $nlo = 1 ] && grep -q -- "--nlo 1 is not implemented for --process $p" err.txt
            then
                echo "ok: $p has no NLO"
                continue
            fi
            echo "FAIL: $label: $(cat err.txt)"; fail=1; continue
        fi
        args="--process $p --nlo $nlo $extra --quiet"
        # shellcheck disable=SC2086
        "$gaps" $args --events "$n" -o one.yoda --json one.json --observables-out one.csv \
            || { echo "FAIL: $label: the run"; fail=1; continue; }
        python3 - one.json one.csv "$label" <<'PY' || fail=1
import csv, json, math, sys
j = json.load(open(sys.argv[1]))
with open(sys.argv[2]) as f:
    lines = f.read().splitlines()
head = next(csv.reader([lines[0].lstrip("# ")]))   # the header line: "# event,weight,..."
body = list(csv.reader(l for l in lines[1:] if l and not l.startswith("#")))
w = [float(r[head.index("weight")]) for r in body]
mean = sum(w) / len(w)
s = j["sigma_pb"]
ok = (len(w) == j["events"] and math.isfinite(s) and s > 0
      and abs(mean - s) <= 1e-9 * abs(s) and j["invalid_events"] == 0
      and j["capacity_hits"] == 0 and j["bad_weights"] == 0)
print(f"{'ok' if ok else 'FAIL'}: {sys.argv[3]}: {len(w)} events, sigma {s:.6g} pb, CSV mean "
      f"weight {mean:.6g} (rel. diff {abs(mean - s) / abs(s):.1e}), invalid "
      f"{j['invalid_events']}, capacity {j['capacity_hits']}, bad weights {j['bad_weights']}")
sys.exit(0 if ok else 1)
PY
        phys one.yoda >one.phys
        # shellcheck disable=SC2086
        "$gaps" $args --events $third --state-out a.state --output none || fail=1
        # shellcheck disable=SC2086
        "$gaps" $args --first-event $third --events $((n - third)) --state-out b.state \
            --output none || fail=1
        "$gaps" merge -o merged.yoda a.state b.state >/dev/null || fail=1
        phys merged.yoda | cmp -s - one.phys && echo "ok: $label: split + merge = one run" \
            || { echo "FAIL: $label: split + merge differs from one run"; fail=1; }
        # killed (by the test hook, deterministically) at its second checkpoint, the first
        # after events, then resumed
        rm -f ck.* hook.count
        ck="--events $n -o ck.yoda --checkpoint ck.ckpt --checkpoint-every $third"
        # shellcheck disable=SC2086
        GAPS_TEST_HOOK_CHECKPOINT='n=$(($(cat hook.count 2>/dev/null || echo 0) + 1)); echo $n >hook.count; [ $n -eq 2 ] && kill -KILL $PPID' \
            "$hooks" $args $ck >/dev/null 2>&1
        rc=$?
        [ $rc -eq 137 ] && [ -e ck.ckpt ] && [ ! -e ck.yoda ] \
            || { echo "FAIL: $label: not killed at its second checkpoint (exit $rc)"; fail=1; }
        # shellcheck disable=SC2086
        "$gaps" $args $ck --resume ck.ckpt >/dev/null 2>err.txt \
            || { echo "FAIL: $label: resume: $(cat err.txt)"; fail=1; }
        [ -f ck.yoda ] && phys ck.yoda | cmp -s - one.phys \
            && echo "ok: $label: killed at a checkpoint and resumed = one run" \
            || { echo "FAIL: $label: the resumed run differs from one run"; fail=1; }
        if "$gaps" --version | grep -q openmp; then
            # shellcheck disable=SC2086
            "$gaps" $args --events "$n" -o two.yoda --threads 2 || fail=1
            phys two.yoda | cmp -s - one.phys && echo "ok: $label: 2 threads = 1 thread" \
                || { echo "FAIL: $label: 2 threads differ from 1"; fail=1; }
        fi
    done
done
exit $fail
