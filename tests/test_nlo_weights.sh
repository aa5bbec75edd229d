#!/bin/sh
# Negative weights everywhere (doc/nlo.md, "Negative weights: where they are handled and
# tested"), for --nlo 1 with ee-qq and pp-z:
#  1. every output of one run against its own per-event CSV (tests/check_nlo_weights.py):
#     sigma = mean weight and its error = std(w)/sqrt(N) (not sigma/sqrt(N)); effective events
#     (sum w)^2 / sum w^2 and the negative count and fraction in the JSON and the summary;
#     HepMC3 W lines (the negative ones included) and GenCrossSection; /_XSEC, /_EVTCOUNT and
#     histogram bins (sum w, sum w^2, flows) recomputed from the CSV;
#  2. negative controls: copies of the outputs broken the way a sign or spread bug would
#     break them (error sigma/sqrt(N), |w| in the HepMC3 file, |sum w| in the YODA bins, |w|
#     in the CSV) must each FAIL that check;
#  3. pp-z NLO split in two ranges and merged in the other order: the state's bytes and the
#     YODA physics of one run (ee-qq NLO: tests/test_nlo_runs.sh);
#  4. ee-qq and pp-z NLO killed (SIGKILL) after a checkpoint that holds events, and resumed: CSV, HepMC3,
#     YODA and JSON physics of one run; a checkpoint of an NLO run refuses to resume as LO;
#  5. tools/gaps-plot draws negative bins: a linear or symmetric-log y axis whose range holds
#     the most negative bin (minus its error); negative control: forcing a log axis hides
#     them, and the check must see that (gaps-plot then warns, naming the histogram).
# Usage: test_nlo_weights.sh GAPS_BINARY WORKDIR [PYTHON [GAPS_HOOKS_BINARY]]
# Part 4 kills the run at its third checkpoint through the test hooks (gaps-hooks,
# src/program/testhook.h), so that where it stops does not depend on the machine's speed;
# without GAPS_HOOKS_BINARY part 4 is skipped.
# The plot part (5) is skipped without numpy, matplotlib and mplhep unless GAPS_STRICT=1.
gaps=$1
work=$2
python=${3:-python3}
hooks=${4:-}
src="$(cd "$(dirname "$0")/.." && pwd)"
checker="$src/tests/check_nlo_weights.py"
[ -n "$gaps" ] && [ -n "$work" ] || { echo "usage: test_nlo_weights.sh GAPS_BINARY WORKDIR [PYTHON]"; exit 2; }
case $gaps in /*) ;; *) gaps="$(pwd)/$gaps" ;; esac
case $hooks in /*|"") ;; *) hooks="$(pwd)/$hooks" ;; esac
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
export KMP_WARNINGS=0
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
extra=""
"$gaps" --version | grep -q "offload backend" && extra="--allow-host"

physics_json() {
    "$python" -c 'import json,sys
d = json.load(open(sys.argv[1]))
for k in ("backend", "device", "threads", "slots", "loops", "cycles_per_launch", "split_every",
          "refill", "launches", "veto_cycles", "time_s", "events_per_s", "merged_from", "mpi",
          "ranks", "threads_requested", "slots_requested", "notes", "overestimate_violations"):
    d.pop(k, None)
print(json.dumps(d, sort_keys=True))' "$1"
}
same_physics_json() { [ "$(physics_json "$1")" = "$(physics_json "$2")" ]; }

# ---- 1 and 2: one run of each process against its CSV, and broken copies ----
for proc in ee-qq pp-z; do
    case $proc in
        ee-qq) n=20000; pairs="/LEP/tau=tau /LEP/C=C /LEP/B_T=B_T" ;;
        pp-z) n=4000; pairs="/gaps_lhc/zpt=zpt /gaps_lhc/zrap=zrap /gaps_lhc/j1pt=j1_pt /gaps_lhc/njets=njets" ;;
    esac
    "$gaps" $extra --process $proc --nlo 1 --seed 3 --events $n --no-progress --output $proc.yoda \
        --json $proc.json --observables-out $proc.csv --hepmc $proc.hepmc >$proc.txt \
        || { bad "$proc: run"; continue; }
    if "$python" "$checker" $proc.csv $proc.json $proc.txt $proc.hepmc $proc.yoda $pairs \
            >$proc.check 2>&1; then
        ok "$proc NLO, $n events: every output agrees with the CSV's signed weights" \
           "($(grep -c '^ok' $proc.check) checks)"
    else
        cat $proc.check; bad "$proc NLO: outputs disagree with the CSV's weights"
    fi
    # broken copies: each must fail the check
    "$python" - $proc <<'PY' || fail=1
import json, math, re, sys
p = sys.argv[1]
d = json.load(open(p + ".json"))
d["sigma_err_pb"] = abs(d["sigma_pb"]) / math.sqrt(d["events"])   # sigma/sqrt(N)
json.dump(d, open(p + "-naive.json", "w"))
with open(p + ".hepmc") as f, open(p + "-abs.hepmc", "w") as g:
    for line in f:
        g.write("W " + line[3:] if line.startswith("W -") else line)
with open(p + ".yoda") as f, open(p + "-abs.yoda", "w") as g:
    for line in f:
        c = line.split("\t")
        if len(c) == 7 and not line.startswith("#") and c[2].startswith("-"):
            c[2] = c[2][1:]
        g.write("\t".join(c))
with open(p + ".csv") as f, open(p + "-abs.csv", "w") as g:
    for line in f:
        c = line.split(",")
        if not line.startswith("#") and c[1].startswith("-"):
            c[1] = c[1][1:]
        g.write(",".join(c))
PY
    for variant in "naive.json:JSON error sigma/sqrt(N)" "abs.hepmc:HepMC3 weights |w|" \
                   "abs.yoda:YODA bins |sum w|" "abs.csv:CSV weights |w|"; do
        file=${variant%%:*}; what=${variant#*:}
        set -- $proc.csv $proc.json $proc.txt $proc.hepmc $proc.yoda
        case $file in
            *.json) set -- $proc.csv $proc-$file $proc.txt $proc.hepmc $proc.yoda ;;
            *.hepmc) set -- $proc.csv $proc.json $proc.txt $proc-$file $proc.yoda ;;
            *.yoda) set -- $proc.csv $proc.json $proc.txt $proc.hepmc $proc-$file ;;
            *.csv) set -- $proc-$file $proc.json $proc.txt $proc.hepmc $proc.yoda ;;
        esac
        cmp -s "$proc.${file#*.}" "$proc-$file" && { bad "$proc: the broken copy ($what) is unchanged"; continue; }
        "$python" "$checker" "$@" $pairs >neg.check 2>&1
        rc=$?
        [ $rc = 1 ] && ok "$proc: negative control '$what' fails the check: $(grep -m1 '^FAIL' neg.check)" \
            || { cat neg.check; bad "$proc: negative control '$what' passed (exit $rc)"; }
    done
done

# ---- 3: pp-z NLO, two ranges merged in the other order == one run ----
run() { "$gaps" $extra --process pp-z --nlo 1 --seed 4 --quiet "$@"; }
run --events 3000 --output one.yoda --json one.json --state-out one.state || bad "pp-z one run"
run --events 1100 --output none --state-out a.state || bad "pp-z range a"
run --events 1900 --first-event 1100 --output none --state-out b.state || bad "pp-z range b"
"$gaps" merge --quiet -o m.yoda --json m.json --state-out m.state b.state a.state || bad "merge"
grep -v '^Backend: ' m.yoda >m.phys; grep -v '^Backend: ' one.yoda >one.phys
cmp -s m.state one.state && cmp -s m.phys one.phys && same_physics_json m.json one.json \
    && ok "pp-z NLO: merge b a == one run (state bytes, YODA, JSON: $(physics_json m.json | \
        "$python" -c 'import json,sys; d=json.load(sys.stdin); print(d["negative_weights"], "negative,", round(d["effective_events"]), "effective")'))" \
    || bad "pp-z NLO: merged ranges differ from one run"

# ---- 4: killed after a checkpoint with events and resumed == one run ----
for proc in ee-qq pp-z; do
    case $proc in ee-qq) n=40000; every=2000 ;; pp-z) n=10000; every=500 ;; esac
    base="--process $proc --nlo 1 --seed 6 --threads 1 --events $n --quiet"
    "$gaps" $extra $base --output full.yoda --json full.json --observables-out full.csv \
        --hepmc full.hepmc || bad "$proc: uninterrupted run"
    ck="--output r.yoda --json r.json --observables-out r.csv --hepmc r.hepmc --checkpoint r.ckpt \
        --checkpoint-every $every"
    rm -f r.*
    if [ -z "$hooks" ]; then
        echo "SKIPPED: $proc: killed and resumed (no gaps-hooks program given)"
        continue
    fi
    # the hook runs in a shell whose parent is the run: at the third checkpoint (the first is
    # taken at 0 events, the third holds 2 x every) it kills the run without a chance to clean up
    GAPS_TEST_HOOK_CHECKPOINT='n=$(cat hook.n 2>/dev/null || echo 0); n=$((n + 1)); echo $n >hook.n; [ $n -eq 3 ] && kill -KILL $PPID' \
        timeout -k 5 300 "$hooks" $extra $base $ck 2>kill.err
    rc=$?
    rm -f hook.n
    if [ $rc -ne 137 ]; then
        case $rc in
            124) bad "$proc: the run to be killed timed out after 300 s" ;;
            0) bad "$proc: the run ended before its third checkpoint (nothing resumed)" ;;
            *) bad "$proc: the run to be killed at its third checkpoint exited $rc: $(head -c 300 kill.err)" ;;
        esac
        continue
    fi
    [ -e r.ckpt ] || { bad "$proc: no checkpoint written"; continue; }
    done_ev=$(od -An -t u8 -j 304 -N 8 r.ckpt | tr -d ' ')   # events (doc/formats.md)
    # the checkpoint belongs to an NLO run: resuming it as leading order is refused
    "$gaps" $extra --process $proc --seed 6 --threads 1 --events $n --quiet $ck --resume r.ckpt \
        2>lo.err
    rc=$?
    [ $rc = 2 ] && ok "$proc: the NLO checkpoint refuses to resume without --nlo 1: $(cat lo.err)" \
        || bad "$proc: resume as LO: exit $rc, $(cat lo.err)"
    "$gaps" $extra $base $ck --resume r.ckpt || bad "$proc: resume"
    cmp -s r.csv full.csv && cmp -s r.hepmc full.hepmc && cmp -s r.yoda full.yoda \
        && same_physics_json r.json full.json && [ ! -e r.ckpt ] \
        && ok "$proc NLO: SIGKILL after a checkpoint of $done_ev of $n events + resume == one run (CSV, HepMC3, YODA, JSON; $(grep -c '^W -' full.hepmc) negative weights)" \
        || bad "$proc NLO: resumed run differs from one run"
done

# ---- 5: gaps-plot draws negative bins ----
if ! missing=$("$python" -c "import numpy, matplotlib, mplhep" 2>&1); then
    if [ "${GAPS_STRICT:-0}" = 1 ]; then
        bad "GAPS_STRICT=1 but the plotting modules are missing"
    else
        echo "SKIPPED (plots): numpy, matplotlib or mplhep missing"
    fi
else
    MPLBACKEND=Agg "$python" - "$src/tools/gaps-plot" pp-z.yoda <<'PY' || fail=1
import importlib.machinery, importlib.util, sys
import numpy as np
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import mplhep as hep
loader = importlib.machinery.SourceFileLoader("gaps_plot", sys.argv[1])
spec = importlib.util.spec_from_loader("gaps_plot", loader)
gp = importlib.util.module_from_spec(spec)
loader.exec_module(gp)
gp.np = np
f = gp.read_yoda(sys.argv[2], "NLO", False)
# the histogram with the most negative bin (d sigma/dx)
best = None
for path, h in f.histos.items():
    edges, y, err = gp.as_arrays(h)
    k = int(np.nanargmin(y))
    if y[k] < 0 and (best is None or y[k] < best[1]):
        best = (path, y[k], err[k])
if best is None:
    print("FAIL: the pp-z NLO file has no negative bin to draw")
    sys.exit(1)
path, ymin, emin = best
class Args:
    logy = "auto"
    shape = False
def drawn(args):
    fig = gp.draw_page(path, [f], args, plt, hep)
    ax = fig.axes[0]
    lo = ax.get_ylim()[0]
    shown = ax.get_yscale() in ("linear", "symlog") and lo <= ymin - emin
    plt.close(fig)
    return shown, lo, ax.get_yscale()
shown, lo, scale = drawn(Args())
bad = 0
if shown:
    print("ok: gaps-plot: %s, bin at %.4g (error %.2g) drawn: %s axis from %.4g" % (path, ymin, emin, scale, lo))
else:
    print("FAIL: gaps-plot: %s: negative bin %.4g not inside the axis (%s, from %.4g)" % (path, ymin, scale, lo))
    bad = 1
# negative control: a log axis (what --logy yes or a sign-blind choice would give) hides it
class Log(Args):
    logy = "yes"
shown, lo, scale = drawn(Log())
if shown:
    print("FAIL: negative control: a log axis was taken to show the negative bin")
    bad = 1
else:
    print("ok: negative control: with a log axis the check sees the negative bin hidden")
sys.exit(bad)
PY
fi

[ $fail = 0 ] && echo "passed" || echo "FAILED"
exit $fail
