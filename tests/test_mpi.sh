#!/bin/sh
# A run shared by MPI ranks gives the bytes of one process: YODA, CSV, HepMC3 and the physics
# of the JSON file, for 1 to 4 ranks, with and without threads, with checkpoints, killed and
# resumed with another number of ranks, for LEP and for the hadron collisions pp-z and pp-ll; a rank that fails or bad input ends every rank with
# one message, a non-zero status and no output file.
# Usage: test_mpi.sh GAPS_MPI_BINARY GAPS_SINGLE_BINARY MPIEXEC WORKDIR
#   GAPS_SINGLE_BINARY is the same program built without MPI (the reference).
gaps=$1
single=$2
mpiexec=$3
work=$4
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
export KMP_WARNINGS=0
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
extra=""
"$gaps" --version | grep -q "offload backend" && extra="--allow-host"
threads=1
"$gaps" --version | grep -q "openmp backend" && threads=2

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
mpi() {   # mpi NRANKS ARGS...
    n=$1; shift
    # shellcheck disable=SC2086
    timeout 120 "$mpiexec" $flags -np "$n" "$gaps" $extra --seed 5 --quiet "$@"
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
for n in 1 2 3 4; do
    t=$threads; [ $n -gt 2 ] && t=1   # 2 cores: keep the threads of 3 and 4 ranks few
    mpi $n --events $N --threads $t $(outs np$n) 2>err.txt \
        && same_as ref np$n && [ ! -s err.txt ] \
        && ok "$n rank(s) x $t thread(s) == one process (YODA, CSV, HepMC3, JSON physics)" \
        || bad "$n rank(s): $(cat err.txt)"
done
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
delays=$(od -An -N4 -tu2 /dev/urandom | awk '{ for (i = 1; i <= NF; i++) printf "%.2f ", 0.5 + ($i % 1500) / 1000 }')
for delay in $delays; do
    rm -f r.*
    # shellcheck disable=SC2086
    "$mpiexec" $flags -np 3 "$gaps" $extra --seed 5 --quiet --threads 1 $ck 2>/dev/null &
    launcher=$!
    sleep $delay
    # SIGKILL one rank, as a node that dies: the launcher then ends the others
    victim=$(pgrep -P $launcher | tail -n 1)
    [ -n "$victim" ] && kill -KILL $victim 2>/dev/null
    wait $launcher 2>/dev/null
    left=$(ls r.* 2>/dev/null | tr '\n' ' ')
    tries=0
    while [ ! -e r.yoda ] && [ $tries -lt 10 ]; do
        if [ -e r.ckpt ]; then mpi 2 --threads $threads $ck --resume r.ckpt || { bad "resume"; break; }
        else mpi 2 --threads $threads $ck || { bad "restart"; break; }; fi
        tries=$((tries + 1))
    done
    same_as ref r && [ ! -e r.ckpt ] && [ -z "$(ls r.*.part 2>/dev/null)" ] \
        && ok "3 ranks, one SIGKILLed after ${delay}s (left: $left) + resumed on 2 == one process" \
        || bad "kill after ${delay}s + resume on 2 ranks differs"
done
# SIGTERM to the launcher: every rank stops, rank 0 writes the checkpoint and says so once.
# A longer run, so that the signal comes while it goes.
big="--events 400000 --output s.yoda --json s.json --checkpoint s.ckpt --checkpoint-every 20000"
"$single" $extra --seed 5 --quiet --events 400000 --output big-ref.yoda --json big-ref.json
rm -f s.*
# shellcheck disable=SC2086
"$mpiexec" $flags -np 3 "$gaps" $extra --seed 5 --quiet --threads 1 $big 2>err.txt &
launcher=$!
sleep 1.5
kill -TERM $launcher
wait $launcher
if [ -e s.yoda ]; then
    ok "SIGTERM came after the end"
else
    [ -e s.ckpt ] && [ "$(grep -c 'stopped by SIGTERM' err.txt)" -eq 1 ] \
        && ok "SIGTERM: $(grep 'stopped by' err.txt)" || bad "SIGTERM: $(cat err.txt)"
    mpi 1 --threads $threads $big --resume s.ckpt && cmp -s big-ref.yoda s.yoda \
        && [ "$(physics_json big-ref.json)" = "$(physics_json s.json)" ] \
        && ok "stopped on 3 ranks, resumed on 1 == one process" \
        || bad "resume on 1 rank after SIGTERM"
fi
# a checkpoint of one process continues on 4 ranks, and the other way round is the same file
rm -f r.*
"$single" $extra --seed 5 --quiet $ck &
pid=$!
sleep 0.4
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
if [ -e r.ckpt ]; then
    mpi 4 --threads 1 $ck --resume r.ckpt && same_as ref r \
        && ok "a single process's checkpoint resumed on 4 ranks" || bad "single -> 4 ranks"
fi

# ---- hadron collisions (pp-z, pp-ll): 2 ranks == one process (and the state's bytes), a run
# card that names the process on 3 ranks with checkpoints, a job killed once its first
# checkpoint exists and resumed on 2 ranks ----
for proc in pp-z pp-ll; do
    p="--process $proc --events 2000"
    "$single" $extra --seed 5 --quiet $p $(outs $proc-ref) --state-out $proc-ref.state \
        || bad "$proc: reference run"
    mpi 2 $p --threads $threads $(outs $proc-np2) --state-out $proc-np2.state 2>err.txt \
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
    # shellcheck disable=SC2086
    "$mpiexec" $flags -np 3 "$gaps" $extra --seed 5 --quiet --threads 1 $ck 2>/dev/null &
    launcher=$!
    i=0
    while [ ! -e r.ckpt ] && [ $i -lt 3000 ] && kill -0 $launcher 2>/dev/null; do
        sleep 0.01; i=$((i + 1))
    done
    victim=$(pgrep -P $launcher | tail -n 1)
    [ -n "$victim" ] && kill -KILL $victim 2>/dev/null
    wait $launcher 2>/dev/null
    if [ -e r.yoda ]; then
        ok "$proc: the job ended before its checkpoint was seen (nothing to resume)"
    else
        left=$(ls r.* 2>/dev/null | tr '\n' ' ')
        [ -e r.ckpt ] && mpi 2 --threads $threads $ck --resume r.ckpt && same_as $proc-ref r \
            && [ ! -e r.ckpt ] && [ -z "$(ls r.*.part 2>/dev/null)" ] \
            && ok "$proc: 3 ranks, one SIGKILLed at the first checkpoint (left: $left) + resumed on 2 == one process" \
            || bad "$proc: kill + resume on 2 ranks differs (left: $left)"
    fi
done

# ---- failures: every rank stops, one message, non-zero status, no output ----
for victim in 1 0 2; do
    rm -f f.*
    start=$(date +%s)
    GAPS_MPI_FAIL_RANK=$victim mpi 3 --threads 1 --events 2000000 $(outs f) 2>err.txt
    rc=$?
    took=$(( $(date +%s) - start ))
    if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ "$(gaps_lines err.txt)" -eq 1 ] \
        && grep -q "GAPS_MPI_FAIL_RANK=$victim" err.txt && [ -z "$(ls f.* 2>/dev/null)" ] \
        && [ $took -lt 30 ]; then
        ok "rank $victim fails: exit $rc after ${took}s, no output, '$(grep '^gaps: ' err.txt)'"
    else
        bad "rank $victim fails: exit $rc after ${took}s, outputs: $(ls f.* 2>/dev/null), $(cat err.txt)"
    fi
done
refused() {   # refused WORD NRANKS ARGS...: exit 2 and one line that contains WORD
    word=$1; shift
    mpi "$@" >out.txt 2>err.txt
    rc=$?
    [ $rc -eq 2 ] && [ "$(gaps_lines err.txt)" -eq 1 ] && grep -q -- "$word" err.txt \
        && ok "refused on all ranks: $(grep '^gaps: ' err.txt)" \
        || bad "exit $rc, $(cat err.txt)"
}
refused "--events" 3 --events 0
refused "No such file" 3 --events 100 --output nodir/x.yoda
refused "cycles-out" 2 --events 100 --cycles-out cyc.csv
"$single" $extra --seed 5 --quiet --events 5000 --output none --checkpoint x.ckpt --checkpoint-every 1000 &
pid=$!; sleep 0.3; kill -KILL $pid 2>/dev/null; wait $pid 2>/dev/null
[ -e x.ckpt ] && refused "belongs to a run of 5000" 3 --events 6000 --output none --resume x.ckpt
mpi 2 --help >help.txt && [ "$(grep -c '^Usage: gaps' help.txt)" -eq 1 ] \
    && ok "--help printed once by 2 ranks" || bad "--help under MPI: $(head -3 help.txt)"

# ---- ranks given different options: one job or none, decided before any event ----
# mpmd NRANKS 'ARGS OF RANK 0' 'ARGS OF RANKS 1..': an MPMD launch (each rank its own
# arguments); 10^9 events would take far longer than the timeout.  (mpirun reads standard
# input for rank 0: not the list of this loop.)
mpmd() {
    n=$1 a=$2 b=$3
    # shellcheck disable=SC2086
    timeout 60 "$mpiexec" $flags -np 1 "$gaps" $extra $a : -np $((n - 1)) "$gaps" $extra $b </dev/null
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
            && grep -q '^gaps: rank 1 on ' err.txt && [ -z "$(ls d.* o.* c.ckpt 2>/dev/null)" ] \
            && [ $took -lt 30 ]; then
            ok "'$variant' on the $where rank(s) of 3: exit 2 after ${took}s, $(grep '^gaps: ' err.txt | cut -c1-90)..."
        else
            bad "'$variant' on the $where rank(s): exit $rc after ${took}s, files $(ls d.* o.* 2>/dev/null), $(grep '^gaps: ' err.txt)"
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
while [ ! -e x.csv.part ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
mpi 2 --events 2000 --output none --observables-out x.csv --checkpoint y.ckpt >out.txt 2>err.txt
rc=$?
[ $rc -eq 2 ] && [ "$(gaps_lines err.txt)" -eq 1 ] && grep -q "process $holder" err.txt && [ ! -e y.ckpt ] \
    && ok "an output another run writes: refused on all ranks, $(grep '^gaps: ' err.txt | cut -c1-100)..." \
    || bad "an output another run writes: exit $rc, $(cat err.txt)"
timeout 60 cat ev.fifo >/dev/null
wait $holder
[ $? -eq 0 ] && [ -e x.csv ] && ok "the run that held it ends as if alone" || bad "the holder failed"
exit $fail
