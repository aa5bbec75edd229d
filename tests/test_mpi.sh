#!/bin/sh
# A run shared by MPI ranks gives the bytes of one process: YODA, CSV, HepMC3 and the physics
# of the JSON file, for 1 to 4 ranks, with and without threads, with checkpoints, killed and
# resumed with another number of ranks, for LEP and for the hadron collisions pp-z and pp-ll, with
# --vary shower (the variations' sums in the ranks' states), and a --lhe file the ranks share; a rank that fails or bad input ends every rank with
# one message, a non-zero status and no output file.  Jobs are stopped at chosen checkpoints
# by the test hooks of src/program/testhook.h (GAPS_MPI_HOOKS_BINARY), never after a guessed
# time, so the test passes the same on a loaded machine; every job runs under a timeout (T
# seconds, 300 by default) and a failure says whether it timed out, was killed or exited.
# Usage: test_mpi.sh GAPS_MPI_BINARY GAPS_SINGLE_BINARY MPIEXEC WORKDIR GAPS_MPI_HOOKS_BINARY
#   GAPS_SINGLE_BINARY is the same program built without MPI (the reference);
#   GAPS_MPI_HOOKS_BINARY the MPI program with the test hooks (gaps-mpi-hooks).
gaps=$1
single=$2
mpiexec=$3
work=$4
hooks=$5
[ -n "$gaps" ] && [ -n "$single" ] && [ -n "$mpiexec" ] && [ -n "$work" ] && [ -n "$hooks" ] \
    || { echo "usage: test_mpi.sh GAPS_MPI_BINARY GAPS_SINGLE_BINARY MPIEXEC WORKDIR GAPS_MPI_HOOKS_BINARY"; exit 2; }
for v in gaps single hooks; do
    eval "p=\$$v"
    case $p in /*) ;; *) eval "$v=\$(pwd)/\$p" ;; esac
done
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
export KMP_WARNINGS=0
T=${T:-300}
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
why() {   # why STATUS: what the exit status of a command run under timeout means
    case $1 in
        124) echo "timed out after ${T}s" ;;
        137) echo "killed (SIGKILL; or timed out after ${T}s)" ;;
        *) if [ "$1" -gt 128 ]; then echo "killed by signal $(($1 - 128))"; else echo "exit $1"; fi ;;
    esac
}
extra=""
timeout 60 "$gaps" --version | grep -q "offload backend" && extra="--allow-host"
threads=1
timeout 60 "$gaps" --version | grep -q "openmp backend" && threads=2

# Launcher flags: Open MPI refuses root without --allow-run-as-root, and the CI machine has
# fewer cores than ranks (oversubscribe; no binding, or a rank's threads share one core).
flags=""
if "$mpiexec" --version 2>&1 | grep -Eq "Open MPI|OpenRTE"; then
    flags="--oversubscribe --bind-to none"
    [ "$(id -u)" -eq 0 ] && flags="$flags --allow-run-as-root"
    export OMPI_MCA_rmaps_base_oversubscribe=1
    # idle ranks yield the core instead of spinning (2 cores, up to 8 threads)
    export OMPI_MCA_mpi_yield_when_idle=1
fi
mpi() {   # mpi NRANKS ARGS...: sets rc, and says why on failure
    n=$1; shift
    # shellcheck disable=SC2086
    timeout $T "$mpiexec" $flags -np "$n" "$gaps" $extra --seed 5 --quiet "$@"
    rc=$?
    [ $rc -ne 0 ] && echo "   mpirun -np $n gaps $*: $(why $rc)" >&2
    return $rc
}
# hook_at K 'COMMAND': the hook command that runs COMMAND at rank 0's K-th checkpoint (1: the
# one written at the start), right after it is in place; $PPID there is rank 0
hook_at() {
    echo "n=\$((\$(cat hook.count 2>/dev/null || echo 0) + 1)); echo \$n >hook.count; [ \$n -eq $1 ] && { $2; }"
}
# the hook command that SIGKILLs the last rank of the job (as a node that dies): a sibling of
# rank 0 under the launcher, or rank 0 itself if it has none
kill_last_rank='v=$(pgrep -P $(ps -o ppid= -p $PPID) | tail -n 1); kill -KILL ${v:-$PPID}'
# mpi_at K 'COMMAND' NRANKS ARGS...: the job of mpi(), with the hooks, COMMAND at checkpoint K
mpi_at() {
    rm -f hook.count
    k=$1 cmd=$2 n=$3; shift 3
    # shellcheck disable=SC2086
    GAPS_TEST_HOOK_CHECKPOINT=$(hook_at $k "$cmd") \
        timeout $T "$mpiexec" $flags -np "$n" "$hooks" $extra --seed 5 --quiet "$@"
    rc=$?
}
N=24000
all="--output OUT.yoda --json OUT.json --observables-out OUT.csv --hepmc OUT.hepmc"
outs() { echo "$all" | sed "s/OUT/$1/g"; }

# JSON minus the keys that describe how (not what) a run computed
physics_json() {
    python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
for k in ("backend", "device", "threads", "slots", "loops", "cycles_per_launch", "refill",
          "launches", "veto_cycles", "time_s", "events_per_s", "mpi", "ranks",
          "threads_requested", "slots_requested", "notes", "overestimate_violations"):
    d.pop(k, None)
for k in ("reading_threads", "pieces", "read_serially_from"):   # how rank 0 read a --lhe file
    d.get("lhe", {}).pop(k, None)
print(json.dumps(d, sort_keys=True))' "$1"
}
same_as() {   # same_as REF NAME: every output of NAME equals REF's
    for ext in yoda csv hepmc; do
        cmp -s "$1.$ext" "$2.$ext" || { echo "  $2.$ext differs from $1.$ext"; return 1; }
    done
    [ "$(physics_json "$1.json")" = "$(physics_json "$2.json")" ] \
        || { echo "  $2.json physics differs"; return 1; }
}
gaps_lines() { grep -c '^gaps: ' "$1"; }

# ---- the reference: one process of the same build without MPI ----
"$single" $extra --seed 5 --quiet --events $N $(outs ref) || bad "reference run"

# ---- 1 to 4 ranks ----
# One rank with --threads; 2 to 4 ranks with their default threads: each its share of the
# CPUs it may use (here all of nproc's, --bind-to none), at least one; the JSON says so.
cpus=$(nproc)
for n in 1 2 3 4; do
    t="--threads $threads"; [ $n -gt 1 ] && t=""
    mpi $n --events $N $t $(outs np$n) 2>err.txt \
        && same_as ref np$n && [ ! -s err.txt ] \
        && ok "$n rank(s) ${t:-(default threads)} == one process (YODA, CSV, HepMC3, JSON physics)" \
        || bad "$n rank(s): $(cat err.txt)"
    [ $n -gt 1 ] && [ $threads -gt 1 ] && [ -e np$n.json ] && {
        python3 -c 'import json,sys
d = json.load(open(sys.argv[1])); n, cpus = int(sys.argv[2]), int(sys.argv[3])
want = max(1, cpus // n)
got = [(x["threads"], x["threads_reason"]) for x in d["ranks"]]
assert all(t == want and "share of the %d CPUs" % cpus in r for t, r in got), \
    "want %d threads each, the share of %d CPUs among %d ranks; got %s" % (want, cpus, n, got)
print("   %d ranks: %s" % (n, got[0]))' np$n.json $n $cpus \
        && ok "$n ranks: each took its share of the $cpus CPUs" || bad "$n ranks: threads per rank"; }
done
mpi 2 --events 1000 --threads 1 --json t1.json --output none && grep -q '"threads_reason": "--threads 1"' t1.json \
    && ok "--threads wins over the share" || bad "--threads under MPI: $(grep -o '"threads_reason": "[^"]*"' t1.json)"
python3 -c 'import json,sys
d = json.load(open("np3.json"))
r = d["ranks"]
assert d["mpi"]["ranks"] == 3 and len(r) == 3, "three ranks listed"
assert sum(x["events"] for x in r) == d["events"], "the ranks events add up"
assert all(x["host"] and x["device"] for x in r), "host and device of every rank"
print("   JSON ranks:", ", ".join("%d: %d events in %d pieces" % (i, x["events"], x["pieces"])
                                 for i, x in enumerate(r)))' && ok "the JSON lists every rank" \
    || bad "JSON rank list"
# fewer pieces than partitions: most get none and must do nothing
"$single" $extra --seed 5 --quiet --events 7 $(outs tiny-ref)
mpi 4 --events 7 --threads $threads $(outs tiny) && same_as tiny-ref tiny \
    && ok "7 events on 4 ranks (most partitions without a piece)" || bad "7 events on 4 ranks"
# a range of event numbers, and pieces cut at many checkpoints
"$single" $extra --seed 5 --quiet --events 5000 --first-event 123457 $(outs range-ref)
mpi 3 --events 5000 --first-event 123457 --checkpoint c.ckpt --checkpoint-every 700 \
    $(outs range) && same_as range-ref range && [ ! -e c.ckpt ] \
    && ok "--first-event and 8 checkpoints on 3 ranks; the checkpoint is removed at the end" \
    || bad "first-event/checkpoints on 3 ranks"

# ---- killed and resumed with another number of ranks ----
ck="--events $N --checkpoint r.ckpt --checkpoint-every 2000 $(outs r)"
# a rank SIGKILLed right after a random checkpoint K of the 12 (printed): rank 0, the writer,
# then the last rank, as a node that dies; the launcher then ends the others
ks=$(od -An -N4 -tu2 /dev/urandom | awk '{ for (i = 1; i <= NF; i++) printf "%d ", 1 + $i % 12 }')
victim="rank 0"
for k in $ks; do
    rm -f r.*
    if [ "$victim" = "rank 0" ]; then cmd='kill -KILL $PPID'; else cmd=$kill_last_rank; fi
    mpi_at $k "$cmd" 3 --threads 1 $ck 2>/dev/null
    left=$(ls r.* 2>/dev/null | tr '\n' ' ')
    if [ $rc -eq 0 ] || [ $rc -eq 124 ] || [ -e r.yoda ] || [ ! -e r.ckpt ]; then
        bad "3 ranks, $victim SIGKILLed at checkpoint K=$k: $(why $rc), left: $left"
    elif ! mpi 2 $ck --resume r.ckpt; then
        bad "3 ranks, $victim SIGKILLed at checkpoint K=$k: resume on 2 ranks: $(why $rc)"
    elif same_as ref r && [ ! -e r.ckpt ] && [ -z "$(ls r.*.part 2>/dev/null)" ]; then
        ok "3 ranks, $victim SIGKILLed at checkpoint K=$k (left: $left) + resumed on 2 == one process"
    else
        bad "3 ranks, $victim SIGKILLed at checkpoint K=$k + resumed on 2: the outputs differ (or r.ckpt/.part left)"
    fi
    victim="the last rank"
done
# SIGTERM to every rank of the job (what a batch system sends a job's processes at its time
# limit): every rank stops, rank 0 writes the checkpoint and says so once.  The signal is sent
# by rank 0's hook at its third checkpoint to rank 0 and its siblings (the children of the
# launcher or daemon that started them), so that it comes at the same point of the run on any
# machine.  (A SIGTERM to Open MPI's launcher is not used: whether and when the launcher passes
# it on is the launcher's affair, and it did not reach the ranks in time here.)
big="--events 400000 --output s.yoda --json s.json --checkpoint s.ckpt --checkpoint-every 20000"
"$single" $extra --seed 5 --quiet --events 400000 --output big-ref.yoda --json big-ref.json
rm -f s.* hook.count
# shellcheck disable=SC2086
GAPS_TEST_HOOK_CHECKPOINT="$(hook_at 3 'kill -TERM $(pgrep -P $(ps -o ppid= -p $PPID))')" \
    timeout $T "$mpiexec" $flags -np 3 "$hooks" $extra --seed 5 --quiet --threads 1 $big 2>err.txt
rc=$?
if [ $rc -eq 124 ] || [ -e s.yoda ] || [ ! -e s.ckpt ] || [ "$(grep -c 'stopped by SIGTERM' err.txt)" -ne 1 ]; then
    bad "SIGTERM to every rank at the third checkpoint: $(why $rc), $(ls s.* 2>/dev/null), $(head -c 600 err.txt)"
else
    ok "SIGTERM: $(why $rc), $(grep 'stopped by' err.txt)"
    if ! mpi 1 --threads $threads $big --resume s.ckpt; then
        bad "resume on 1 rank after SIGTERM: $(why $rc)"
    elif cmp -s big-ref.yoda s.yoda && [ "$(physics_json big-ref.json)" = "$(physics_json s.json)" ]; then
        ok "stopped on 3 ranks, resumed on 1 == one process"
    else
        bad "stopped on 3 ranks, resumed on 1: the outputs differ from one process's"
    fi
fi
# a checkpoint of one process continues on 4 ranks, and the other way round is the same file
# (one rank of the MPI program with the hooks, killed at its third checkpoint)
rm -f r.*
mpi_at 3 'kill -KILL $PPID' 1 $ck 2>/dev/null
if [ $rc -eq 124 ] || [ ! -e r.ckpt ]; then
    bad "one process killed at its third checkpoint: $(why $rc), $(ls r.* 2>/dev/null)"
elif ! mpi 4 --threads 1 $ck --resume r.ckpt; then
    bad "single -> 4 ranks: resume: $(why $rc)"
else
    same_as ref r && ok "a single process's checkpoint resumed on 4 ranks" \
        || bad "single -> 4 ranks: the outputs differ from one process's"
fi

# ---- hadron collisions (pp-z, pp-ll): 2 ranks == one process (and the state's bytes), a run
# card that names the process on 3 ranks with checkpoints, a job killed once its first
# checkpoint exists and resumed on 2 ranks ----
for proc in pp-z pp-ll; do
    p="--process $proc --events 2000"
    "$single" $extra --seed 5 --quiet $p $(outs $proc-ref) --state-out $proc-ref.state \
        || bad "$proc: reference run"
    mpi 2 $p $(outs $proc-np2) --state-out $proc-np2.state 2>err.txt \
        && same_as $proc-ref $proc-np2 && cmp -s $proc-ref.state $proc-np2.state && [ ! -s err.txt ] \
        && ok "$proc: 2 ranks == one process (YODA, CSV, HepMC3, JSON physics, state)" \
        || bad "$proc: 2 ranks: $(cat err.txt)"
    printf '# %s on MPI ranks\nprocess = %s\nevents = 2000\n' $proc $proc >$proc.card
    mpi 3 --card $proc.card --threads 1 --checkpoint c.ckpt --checkpoint-every 300 \
        $(outs $proc-card) && same_as $proc-ref $proc-card && [ ! -e c.ckpt ] \
        && ok "$proc: a run card with 'process = $proc' on 3 ranks with checkpoints == one process" \
        || bad "$proc: run card on 3 ranks"
    ck="$p --checkpoint r.ckpt --checkpoint-every 100 $(outs r)"
    rm -f r.*
    mpi_at 2 "$kill_last_rank" 3 --threads 1 $ck 2>/dev/null
    left=$(ls r.* 2>/dev/null | tr '\n' ' ')
    if [ $rc -eq 0 ] || [ $rc -eq 124 ] || [ -e r.yoda ] || [ ! -e r.ckpt ]; then
        bad "$proc: 3 ranks, the last SIGKILLed at the second checkpoint: $(why $rc), left: $left"
    elif ! mpi 2 $ck --resume r.ckpt; then
        bad "$proc: resume on 2 ranks: $(why $rc)"
    elif same_as $proc-ref r && [ ! -e r.ckpt ] && [ -z "$(ls r.*.part 2>/dev/null)" ]; then
        ok "$proc: 3 ranks, one SIGKILLed at the second checkpoint (left: $left) + resumed on 2 == one process"
    else
        bad "$proc: kill + resume on 2 ranks: the outputs differ (or r.ckpt/.part left; left before: $left)"
    fi
done

# ---- the NLO events of the MC@NLO builder (pp-w, pp-h): 2 ranks == one process ----
for spec in "pp-w --nlo 1" "pp-h --nlo 1"; do
    tag=$(echo "$spec" | tr -d ' -')
    p="--process $spec --events 1000"
    "$single" $extra --seed 5 --quiet $p $(outs $tag-ref) --state-out $tag-ref.state \
        || bad "$spec: reference run"
    mpi 2 $p $(outs $tag-np2) --state-out $tag-np2.state 2>err.txt \
        && same_as $tag-ref $tag-np2 && cmp -s $tag-ref.state $tag-np2.state && [ ! -s err.txt ] \
        && ok "$spec: 2 ranks == one process (YODA, CSV, HepMC3, JSON physics, state)" \
        || bad "$spec: 2 ranks: $(cat err.txt)"
done

refused() {   # refused WORD NRANKS ARGS...: exit 2 and one line that contains WORD
    word=$1; shift
    mpi "$@" >out.txt 2>err.txt
    rc=$?
    [ $rc -eq 2 ] && [ "$(gaps_lines err.txt)" -eq 1 ] && grep -q -- "$word" err.txt \
        && ok "refused on all ranks: $(grep '^gaps: ' err.txt)" \
        || bad "exit $rc, $(cat err.txt)"
}
# ---- hard events from a file (--lhe): each rank reads the whole file and showers its pieces
# (whole batches, --lhe-batch 500: 12 pieces); 1 and 3 ranks == one process (and the state),
# the file's length found at its end, a range of it with checkpoints, a job killed on 3 ranks
# and resumed on 2 or by one process (which reads the file to the checkpoint again and checks
# the digest that rank 0 made of every event below it, its own and the others'), a damaged
# event past the first pieces, a file shorter than --events, named weights ----
"$single" $extra --seed 3 --quiet --process pp-z --nlo 1 --events 6000 --output none \
    --lhe-out z.lhe || bad "--lhe: writing the file"
lhe="--lhe z.lhe --lhe-batch 500"
"$single" $extra --seed 5 --quiet $lhe $(outs lhe-ref) --state-out lhe-ref.state \
    || bad "--lhe: reference run"
for n in 1 3; do
    mpi $n $lhe $(outs lhe-np$n) --state-out lhe-np$n.state 2>err.txt \
        && same_as lhe-ref lhe-np$n && cmp -s lhe-ref.state lhe-np$n.state && [ ! -s err.txt ] \
        && ok "--lhe: $n rank(s) == one process (YODA, CSV, HepMC3, JSON physics, state; the file's end found by the ranks)" \
        || bad "--lhe: $n rank(s): $(cat err.txt)"
done
mpi 3 $lhe --lhe-threads 0 --threads 1 $(outs lhe-serial) 2>err.txt && same_as lhe-ref lhe-serial \
    && ok "--lhe: 3 ranks reading with the serial reader (--lhe-threads 0) == one process" \
    || bad "--lhe --lhe-threads 0 on 3 ranks: $(cat err.txt)"
r="--first-event 700 --events 4300"
"$single" $extra --seed 5 --quiet $lhe $r $(outs lhe-range-ref) || bad "--lhe: range reference"
mpi 3 $lhe $r --checkpoint c.ckpt --checkpoint-every 900 $(outs lhe-range) \
    && same_as lhe-range-ref lhe-range && [ ! -e c.ckpt ] \
    && ok "--lhe: --first-event, --events and 5 checkpoints on 3 ranks == one process" \
    || bad "--lhe: range with checkpoints on 3 ranks"
ck="$lhe --checkpoint r.ckpt --checkpoint-every 1100 $(outs lr)"
for resume in "2 ranks" "one process"; do
    rm -f r.* lr.*
    mpi_at 3 'kill -KILL $PPID' 3 --threads 1 $ck 2>/dev/null
    if [ $rc -eq 0 ] || [ $rc -eq 124 ] || [ -e lr.yoda ] || [ ! -e r.ckpt ]; then
        bad "--lhe: 3 ranks, rank 0 SIGKILLed at the third checkpoint: $(why $rc)"
        continue
    fi
    if [ "$resume" = "2 ranks" ]; then mpi 2 $ck --resume r.ckpt
    else "$single" $extra --seed 5 --quiet $ck --resume r.ckpt; rc=$?; fi
    [ $rc -eq 0 ] && same_as lhe-ref lr && [ ! -e r.ckpt ] \
        && ok "--lhe: 3 ranks SIGKILLed at the third checkpoint + resumed by $resume == one process" \
        || bad "--lhe: killed on 3 ranks + resumed by $resume: $(why $rc), or the outputs differ"
done
# SIGTERM to rank 0 alone at its second checkpoint: it takes no piece in the next segment and
# closes the counter, while the other ranks finish the pieces they were given (the one taken
# to read ahead too); rank 0 writes the checkpoint at their cut, and a resume on 2 ranks
# completes the run
rm -f r.* lr.* hook.count
# shellcheck disable=SC2086
GAPS_TEST_HOOK_CHECKPOINT="$(hook_at 2 'kill -TERM $PPID')" \
    timeout $T "$mpiexec" $flags -np 3 "$hooks" $extra --seed 5 --quiet --threads 1 $ck 2>err.txt
rc=$?
if [ $rc -eq 124 ] || [ -e lr.yoda ] || [ ! -e r.ckpt ] || [ "$(grep -c 'stopped by SIGTERM' err.txt)" -ne 1 ]; then
    bad "--lhe: SIGTERM to 3 ranks at the second checkpoint: $(why $rc), $(ls r.* lr.* 2>/dev/null), $(head -c 600 err.txt)"
elif mpi 2 $ck --resume r.ckpt && same_as lhe-ref lr && [ ! -e r.ckpt ]; then
    ok "--lhe: SIGTERM to rank 0 of 3 ($(grep -o 'after [0-9]* events' err.txt)) + resumed on 2 == one process"
else
    bad "--lhe: SIGTERM to rank 0 of 3 + resumed on 2: $(why $rc), or the outputs differ"
fi
# event 4500 (the tenth piece) damaged: PUP(1) of its second particle is no number
awk '/^<event/ { n++ } { if (n == 4501 && ++k == 3) { $7 = "1.2.3" } print }' z.lhe >bad.lhe
line=$(awk '/^<event/ { n++ } n == 4501 { print NR + 2; exit }' z.lhe)
rm -f lb.*
mpi 3 --lhe bad.lhe --lhe-batch 500 $(outs lb) >out.txt 2>err.txt
[ $rc -eq 2 ] && [ "$(gaps_lines err.txt)" -eq 1 ] && grep -q "bad.lhe:$line: .*is not a number" err.txt \
    && [ -z "$(ls lb.* 2>/dev/null)" ] \
    && ok "--lhe: a damaged event in the tenth piece on 3 ranks: exit 2, no output, $(grep '^gaps: ' err.txt)" \
    || bad "--lhe: damaged event on 3 ranks: $(why $rc), $(ls lb.* 2>/dev/null), $(cat err.txt)"
refused "fewer than --events 7000" 3 $lhe --events 7000 $(outs ls)
refused "regular file" 2 --lhe - --output none </dev/null
[ -z "$(ls ls.* 2>/dev/null)" ] || bad "--lhe: a file shorter than --events left $(ls ls.*)"
# named weights (LHEF 3.0 <rwgt>) travel only with a single process's events: refused
awk '/^<\/event>/ { print "<rwgt>"; print "<wgt id='"'"'muR=2'"'"'> 1.5 </wgt>"; print "</rwgt>" } { print }' \
    z.lhe >w.lhe
refused "named weights" 2 --lhe w.lhe --hepmc w.hepmc
mpi 2 --lhe w.lhe --lhe-batch 500 --output w2.yoda 2>err.txt \
    && "$single" $extra --seed 5 --quiet --lhe w.lhe --lhe-batch 500 --output w1.yoda \
    && cmp -s w1.yoda w2.yoda && ok "--lhe: a file with named weights on 2 ranks, YODA only == one process" \
    || bad "--lhe: named weights, YODA only, on 2 ranks: $(cat err.txt)"

# ---- failures: every rank stops, one message, non-zero status, no output ----
for victim in 1 0 2; do
    rm -f f.*
    start=$(date +%s)
    # 10^12 events: a job that ends at all (within the timeout) did not run them
    GAPS_MPI_FAIL_RANK=$victim mpi 3 --threads 1 --events 1e12 $(outs f) 2>err.txt
    took=$(( $(date +%s) - start ))
    if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ "$(gaps_lines err.txt)" -eq 1 ] \
        && grep -q "GAPS_MPI_FAIL_RANK=$victim" err.txt && [ -z "$(ls f.* 2>/dev/null)" ]; then
        ok "rank $victim fails: exit $rc after ${took}s, no output, '$(grep '^gaps: ' err.txt)'"
    else
        bad "rank $victim fails: $(why $rc) after ${took}s, outputs: $(ls f.* 2>/dev/null), $(cat err.txt)"
    fi
done
refused "--events" 3 --events 0
refused "No such file" 3 --events 100 --output nodir/x.yoda
refused "cycles-out" 2 --events 100 --cycles-out cyc.csv
rm -f x.ckpt
mpi_at 1 'kill -KILL $PPID' 1 --events 5000 --output none --checkpoint x.ckpt --checkpoint-every 1000
[ -e x.ckpt ] && refused "belongs to a run of 5000" 3 --events 6000 --output none --resume x.ckpt \
    || bad "a job killed at its first checkpoint left no x.ckpt: $(why $rc)"
mpi 2 --help >help.txt && [ "$(grep -c '^Usage: gaps' help.txt)" -eq 1 ] \
    && ok "--help printed once by 2 ranks" || bad "--help under MPI: $(head -3 help.txt)"

# ---- ranks given different options: one job or none, decided before any event ----
# mpmd NRANKS 'ARGS OF RANK 0' 'ARGS OF RANKS 1..': an MPMD launch (each rank its own
# arguments); 10^9 events would take far longer than the timeout.  (mpirun reads standard
# input for rank 0: not the list of this loop.)
mpmd() {
    n=$1 a=$2 b=$3
    # shellcheck disable=SC2086
    timeout $T "$mpiexec" $flags -np 1 "$gaps" $extra $a : -np $((n - 1)) "$gaps" $extra $b </dev/null
}
base="--seed 5 --events 1e9 --no-progress --output d.yoda"
while IFS='|' read -r variant word; do
    for where in last first; do
        rm -f d.* o.* c.ckpt
        if [ $where = last ]; then a="$base" b="$base $variant"; else a="$base $variant" b="$base"; fi
        start=$(date +%s)
        mpmd 3 "$a" "$b" >out.txt 2>err.txt
        rc=$?
        took=$(( $(date +%s) - start ))
        if [ $rc -eq 2 ] && [ "$(gaps_lines err.txt)" -eq 1 ] \
            && grep '^gaps: ' err.txt | grep -q -F -- "option $word differs" \
            && grep -q '^gaps: rank 1 on ' err.txt && [ -z "$(ls d.* o.* c.ckpt 2>/dev/null)" ]; then
            ok "'$variant' on the $where rank(s) of 3: exit 2 after ${took}s, $(grep '^gaps: ' err.txt | cut -c1-90)..."
        else
            bad "'$variant' on the $where rank(s): $(why $rc) after ${took}s, files $(ls d.* o.* 2>/dev/null), $(grep '^gaps: ' err.txt)"
        fi
    done
done <<'EOF'
--seed 8|--seed
--events 2e9|--events
--first-event 5|--first-event
--ecm 200|--ecm
--alphas-mz 0.12|--alphas-mz
--alphas-order 1|--alphas-order
--tcut 2|--tcut
--max-partons 40|--max-partons
--output o.yoda|--output
--json o.json|--json
--observables-out o.csv|--observables-out
--hepmc o.hepmc|--hepmc
--state-out o.state|--state-out
--checkpoint c.ckpt|--checkpoint
--loops steps|--loops
--cycles-per-launch 3|--cycles-per-launch
--split-every 2|--split-every
--no-refill|--no-refill
--quiet|--quiet
EOF
# --help or --version on some ranks only: exit 2 with one line, never a silent exit 0
for hv in --help --version; do
    for where in last first; do
        if [ $where = last ]; then a="$base" b="$base $hv"; else a="$base $hv" b="$base"; fi
        mpmd 2 "$a" "$b" >out.txt 2>err.txt
        rc=$?
        [ $rc -eq 2 ] && [ "$(gaps_lines err.txt)" -eq 1 ] && grep -q -- "--help or --version" err.txt \
            && [ -z "$(ls d.* 2>/dev/null)" ] && ok "$hv on the $where rank only: $(grep '^gaps: ' err.txt)" \
            || bad "$hv on the $where rank only: exit $rc, $(grep '^gaps: ' err.txt)"
    done
done
# what may differ: threads and pool, per rank
"$single" $extra --seed 5 --quiet --events 3000 --output tp-ref.yoda
mpmd 2 "--seed 5 --quiet --events 3000 --output tp.yoda --threads 1 --pool 64" \
    "--seed 5 --quiet --events 3000 --output tp.yoda --threads $threads --pool 200" 2>err.txt \
    && grep -v '^Backend: ' tp.yoda | cmp -s - "$(grep -v '^Backend: ' tp-ref.yoda >tp-ref.phys; echo tp-ref.phys)" \
    && ok "--threads and --pool may differ between ranks" \
    || bad "different --threads/--pool: $(grep '^gaps: ' err.txt)"

# ---- a file another run holds: refused on every rank, naming that run ----
# A single process holds x.csv.part from its start, then waits for a reader of its FIFO
# output: it is still going, deterministically, while the MPI job tries the same output.
rm -f x.* ev.fifo
mkfifo ev.fifo
"$single" $extra --seed 5 --quiet --events 2000 --output none --observables-out x.csv --hepmc ev.fifo \
    --checkpoint x.ckpt &
holder=$!
i=0
while [ ! -e x.csv.part ] && [ $i -lt $((T * 10)) ] && kill -0 $holder 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
[ -e x.csv.part ] || bad "the holder never created x.csv.part (it $(kill -0 $holder 2>/dev/null && echo "still runs" || echo "ended"))"
mpi 2 --events 2000 --output none --observables-out x.csv --checkpoint y.ckpt >out.txt 2>err.txt
rc=$?
[ $rc -eq 2 ] && [ "$(gaps_lines err.txt)" -eq 1 ] && grep -q "process $holder" err.txt && [ ! -e y.ckpt ] \
    && ok "an output another run writes: refused on all ranks, $(grep '^gaps: ' err.txt | cut -c1-100)..." \
    || bad "an output another run writes: exit $rc, $(cat err.txt)"
timeout 60 cat ev.fifo >/dev/null
wait $holder
[ $? -eq 0 ] && [ -e x.csv ] && ok "the run that held it ends as if alone" || bad "the holder failed"

# ---- --vary shower: the variations' sums travel with the ranks' states (format 9) ----
# ee-qq (2 weights) and pp-z (6): 3 ranks == one process (YODA with the variations' histograms,
# CSV, HepMC3, JSON physics with "variations", and the state's bytes); ee-qq killed on 3 ranks
# at its third checkpoint and resumed on 2 == one process
for proc in ee-qq pp-z; do
    p="--process $proc --vary shower --events 3000"
    "$single" $extra --seed 5 --quiet $p $(outs v$proc-ref) --state-out v$proc-ref.state \
        || bad "--vary $proc: reference run"
    mpi 3 --threads 1 $p $(outs v$proc-np3) --state-out v$proc-np3.state 2>err.txt \
        && same_as v$proc-ref v$proc-np3 && cmp -s v$proc-ref.state v$proc-np3.state \
        && grep -q 'Path: /_XSEC\[MUR_FSR=0.5\]' v$proc-np3.yoda && [ ! -s err.txt ] \
        && ok "--vary shower $proc: 3 ranks == one process (YODA with variations, CSV, HepMC3, JSON physics, state)" \
        || bad "--vary shower $proc: 3 ranks: $(cat err.txt)"
done
ck="--process ee-qq --vary shower --events 3000 --checkpoint r.ckpt --checkpoint-every 500 $(outs vr)"
rm -f r.* vr.*
mpi_at 3 'kill -KILL $PPID' 3 --threads 1 $ck 2>/dev/null
if [ $rc -eq 0 ] || [ $rc -eq 124 ] || [ -e vr.yoda ] || [ ! -e r.ckpt ]; then
    bad "--vary: 3 ranks, rank 0 SIGKILLed at the third checkpoint: $(why $rc)"
elif ! mpi 2 $ck --resume r.ckpt; then
    bad "--vary: resume on 2 ranks: $(why $rc)"
elif same_as vee-qq-ref vr && [ ! -e r.ckpt ]; then
    ok "--vary shower: 3 ranks SIGKILLed at the third checkpoint + resumed on 2 == one process"
else
    bad "--vary shower: killed on 3 ranks + resumed on 2: the outputs differ (or r.ckpt left)"
fi
exit $fail
