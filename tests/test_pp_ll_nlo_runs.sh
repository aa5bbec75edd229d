#!/bin/sh
# Runs of p p -> Z/gamma* -> e- e+ at NLO (--nlo 1 --process pp-ll, doc/nlo.md section 12)
# through the whole program, shower included: the cross section of N events (default 1.5x10^5)
# against the quadrature's sigma_NLO = 1635.870 pb (tests/test_pp_ll_nlo.c) within 4 standard
# errors (the error from the spread of the signed weights); negative weights reported and
# consistent; every event passes the checks; the HepMC3 file has the Z/gamma* of every event
# (the sum of its leptons); the same seed gives the same per-event CSV and HepMC3 for every
# pool size, loop structure, thread count (1 and 2) and every binary given; --compat gaps21
# runs; leading-order pp-ll and pp-z NLO keep their bits.
# Usage: test_pp_ll_nlo_runs.sh WORKDIR BINARY [BINARY...] (N=... in the environment: events)
work=$1; shift
bins=""
for b in "$@"; do   # absolute paths: the runs happen in WORKDIR
    case $b in /*) bins="$bins $b" ;; *) bins="$bins $(pwd)/$b" ;; esac
done
set -- $bins
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
export KMP_WARNINGS=0
N=${N:-150000}
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
gaps=$1
extra_of() { "$1" --version | grep -q "offload backend" && echo "--allow-host"; }
extra=$(extra_of "$gaps")

# ---- leading-order pp-ll and pp-z NLO keep their bits (pp-z NLO: the events since its H
# weights subtract the dipoles only below the S start scale, doc/nlo.md 11.8) ----
"$gaps" $extra --process pp-ll --events 20000 --seed 3 --output none --quiet \
    --observables-out lo.csv || bad "pp-ll LO run"
h=$(sha256sum lo.csv | cut -c1-64)
[ "$h" = fdf6394a567c3d11be9bd5f329f77ab7f21214237c8a5ee5ac140d60be402120 ] \
    && ok "pp-ll LO CSV unchanged" || bad "pp-ll LO CSV changed: $h"
"$gaps" $extra --nlo 1 --process pp-z --events 20000 --seed 3 --output none --quiet \
    --observables-out z.csv || bad "pp-z NLO run"
h=$(sha256sum z.csv | cut -c1-64)
[ "$h" = 3e3df2352f409912c7d72e017d0e8ccc2d7721a4c63f7dcb2812ee835e9a010b ] \
    && ok "pp-z NLO CSV unchanged" || bad "pp-z NLO CSV changed: $h"

# ---- the cross section, the weight summary, the checks ----
t0=$(date +%s)
"$gaps" $extra --nlo 1 --process pp-ll --seed 5 --events "$N" --output none --json big.json \
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
exact = 1635.870   # tests/test_pp_ll_nlo.c, quadrature (13 TeV, CT14lo, mu_F = m_ll, mu_R = M_Z)
pull = (d["sigma_pb"] - exact) / d["sigma_err_pb"]
check(abs(pull) < 4, f"sigma_NLO = {d['sigma_pb']:.2f} +- {d['sigma_err_pb']:.2f} pb against "
      f"{exact} pb (pull {pull:+.2f}); K = {d['sigma_pb'] / 1472.241:.4f}")
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
    "$bin" $(extra_of "$bin") --nlo 1 --process pp-ll --seed 9 --events 20000 --quiet \
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
# the HepMC3 record: incoming partons, the Z/gamma* (= e- + e+), the leptons, the partons
python3 - "$ref.hepmc" <<'PY' || fail=1
import sys
events, bad = 0, 0
def close(parts):
    global bad
    z = [p for p in parts if p[0] == 23]
    lep = [p for p in parts if abs(p[0]) == 11]
    ok = len(z) == 1 and len(lep) == 2 and sorted(p[0] for p in lep) == [-11, 11] and all(
        abs(z[0][1][c] - lep[0][1][c] - lep[1][1][c]) < 1e-6 * max(1.0, abs(z[0][1][3]))
        for c in range(4))
    m = (z[0][1][3] ** 2 - sum(v * v for v in z[0][1][:3])) ** 0.5 if z else 0
    ok = ok and 66 - 1e-6 < m < 116 + 1e-6
    bad += not ok
parts = None
for line in open(sys.argv[1]):
    if line.startswith("E "):
        if parts is not None: close(parts)
        parts, events = [], events + 1
    elif line.startswith("P ") and parts is not None:
        w = line.split()
        parts.append((int(w[3]), [float(v) for v in w[4:8]]))
if parts is not None: close(parts)
print(("ok: " if bad == 0 and events > 0 else "FAIL: ") +
      f"HepMC3: {events} events, each with one Z/gamma* = e- + e+ in the window ({bad} bad)")
sys.exit(bad != 0 or events == 0)
PY

# ---- --compat gaps21: GAPS 2.1's Li2 and power-shower start (as for pp-z) ----
"$gaps" $extra --nlo 1 --process pp-ll --compat gaps21 --seed 2 --events 20000 --quiet \
    --output none --json g21.json || bad "--compat gaps21 run"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("gaps21: sigma %.1f +- %.1f pb" % (d["sigma_pb"], d["sigma_err_pb"])); sys.exit(d["invalid_events"] != 0)' \
    g21.json && ok "--compat gaps21 runs, every event passes" || bad "--compat gaps21: invalid events"

[ $fail = 0 ] && echo "passed" || echo "FAILED"
exit $fail
