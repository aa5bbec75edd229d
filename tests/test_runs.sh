#!/bin/sh
# Runs of any size: streamed per-event output, event ranges, exact merge, checkpoint and resume,
# progress; the same for the hadron collisions pp-z and pp-ll, with a run card.  Every promise
# is checked with cmp against one uninterrupted run.  Runs are interrupted at chosen
# checkpoints by the test hooks of src/program/testhook.h (GAPS_HOOKS_BINARY, the program
# gaps-hooks), never after a guessed time: the test passes the same on a loaded machine.
# Every run is under a timeout (T seconds, 300 by default); a run that fails says whether it
# timed out, was killed by a signal or exited with a status.
# Usage: test_runs.sh GAPS_BINARY WORKDIR GAPS_HOOKS_BINARY
gaps=$1
work=$2
hooks=$3
[ -n "$gaps" ] && [ -n "$work" ] && [ -n "$hooks" ] \
    || { echo "usage: test_runs.sh GAPS_BINARY WORKDIR GAPS_HOOKS_BINARY"; exit 2; }
case $gaps in /*) ;; *) gaps=$(pwd)/$gaps ;; esac
case $hooks in /*) ;; *) hooks=$(pwd)/$hooks ;; esac
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
export KMP_WARNINGS=0
T=${T:-300}
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
# why STATUS: what an exit status of a command run under timeout means
why() {
    case $1 in
        124) echo "timed out after ${T}s" ;;
        137) echo "killed (SIGKILL; or timed out after ${T}s)" ;;
        0) echo "exit 0" ;;
        *) if [ "$1" -gt 128 ]; then echo "killed by signal $(($1 - 128))"; else echo "exit $1"; fi ;;
    esac
}
extra=""
timeout 60 "$gaps" --version | grep -q "offload backend" && extra="--allow-host"
run() {
    timeout $T "$gaps" $extra --seed 5 --quiet "$@"
    rc=$?
    [ $rc -ne 0 ] && echo "   gaps $*: $(why $rc)" >&2
    return $rc
}
# at_checkpoint K SIGNAL ARGS...: gaps-hooks (seed 5, quiet) runs ARGS and gets SIGNAL at its
# K-th checkpoint (1: the one written at the start), right after it is in place; sets rc.
at_checkpoint() {
    k=$1 sig=$2; shift 2
    rm -f hook.count
    GAPS_TEST_HOOK_CHECKPOINT="n=\$((\$(cat hook.count 2>/dev/null || echo 0) + 1)); echo \$n >hook.count; [ \$n -eq $k ] && kill -$sig \$PPID" \
        timeout $T "$hooks" $extra --seed 5 --quiet "$@"
    rc=$?
}
N=24000

# JSON minus the keys that describe how (not what) a run computed
physics_json() {
    python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
for k in ("backend", "device", "threads", "slots", "loops", "cycles_per_launch", "split_every",
          "refill",
          "launches", "veto_cycles", "time_s", "events_per_s", "merged_from", "mpi", "ranks",
          "threads_requested", "slots_requested", "notes", "overestimate_violations"):
    d.pop(k, None)
print(json.dumps(d, sort_keys=True))' "$1"
}
same_physics_json() { [ "$(physics_json "$1")" = "$(physics_json "$2")" ]; }

# ---- the reference: one uninterrupted run ----
run --events $N --output full.yoda --json full.json --observables-out full.csv \
    --hepmc full.hepmc --state-out full.state || bad "reference run"
[ "$(wc -l <full.csv)" -eq $((N + 1)) ] || bad "reference CSV has $(wc -l <full.csv) lines"

# ---- event ranges and merging ----
run --events 8000 --state-out a.state --output none || bad "range a"
run --events 8000 --first-event 8000 --state-out b.state --output none || bad "range b"
run --events 8000 --first-event 16000 --state-out c.state --output none --observables-out c.csv \
    || bad "range c"
# the events of a range are those of the big run
tail -n 8000 full.csv >c-from-full.csv
tail -n 8000 c.csv | cmp -s - c-from-full.csv && ok "range [16000,24000) holds the big run's events" \
    || bad "range c differs from the big run's events"
for order in "a b c" "c a b" "b c a" "c b a"; do
    set -- $order
    timeout $T "$gaps" merge -o m.yoda --json m.json --quiet "$1.state" "$2.state" "$3.state" \
        || { bad "merge $order"; continue; }
    grep -v '^Backend: ' m.yoda >m.phys; grep -v '^Backend: ' full.yoda >full.phys
    cmp -s m.phys full.phys && same_physics_json m.json full.json \
        && ok "merge $order == one run (YODA bytes, JSON physics)" || bad "merge $order differs"
done
# a merge of merges is the same
timeout $T "$gaps" merge -o ab.yoda --state-out ab.state --quiet a.state b.state \
    && timeout $T "$gaps" merge -o abc.yoda --quiet ab.state c.state && grep -v '^Backend: ' abc.yoda | cmp -s - full.phys \
    && ok "merge of a merged state" || bad "merge of a merged state"
# gaps in the ranges are allowed and reported
timeout $T "$gaps" merge -o ac.yoda a.state c.state 2>err.txt >/dev/null && grep -q "gaps" err.txt \
    && ok "gap reported: $(cat err.txt)" || bad "gap in ranges not reported"

# refusals: exit 2 and one line
refuse() {   # refuse WORD ARGS...
    word=$1; shift
    timeout $T "$gaps" merge -o r.yoda --quiet "$@" >out.txt 2>err.txt; rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q -- "$word" err.txt && [ ! -e r.yoda ]; then
        ok "merge $* refused: $(cat err.txt)"
    else
        bad "merge $* -> exit $rc, $(cat err.txt)"
    fi
}
run --events 1000 --seed 6 --state-out seed6.state --output none
run --events 1000 --ecm 50 --state-out ecm50.state --output none
run --events 1000 --first-event 4000 --state-out over.state --output none
refuse "parameters" a.state seed6.state
refuse "parameters" a.state ecm50.state
run --events 1000 --first-event 8000 --compat gaps21 --state-out compat.state --output none
refuse "different parameters: --compat none and gaps21" a.state compat.state
refuse "overlaps" a.state over.state
refuse "twice" a.state a.state
refuse "No such file" a.state missing.state
head -c 2000 a.state >trunc.state
refuse "corrupt" a.state trunc.state
python3 -c 'import sys; d = bytearray(open("a.state","rb").read()); d[5000] ^= 1; open("flip.state","wb").write(d)'
refuse "corrupt" flip.state
# another version: rewrite the version field and the checksum (CRC-32 as zlib computes it)
python3 -c 'import zlib
d = bytearray(open("b.state","rb").read()[:-4]); d[16:48] = b"0.9.9".ljust(32, b"\0")
open("old.state","wb").write(d + zlib.crc32(d).to_bytes(4, "little"))'
refuse "made by gaps 0.9.9" a.state old.state
printf 'not a state' >text.state
refuse "not a gaps state" text.state

# ---- more events finish in one launch than the output buffers hold (65536): analysed in
# chunks, same bytes ----
run --events 150000 --output big1.yoda --observables-out big1.csv --hepmc big1.hepmc || bad "big run"
run --events 150000 --pool 150000 --cycles-per-launch 64 --output big2.yoda --observables-out big2.csv \
    --hepmc big2.hepmc || bad "big run in chunks"
cmp -s big1.csv big2.csv && cmp -s big1.hepmc big2.hepmc && cmp -s big1.yoda big2.yoda \
    && ok "analysis in chunks of the output buffers gives the same bytes" || bad "chunked analysis differs"
rm -f big1.* big2.*

# ---- streaming: standard output and a named pipe ----
run --events 3000 --output none --hepmc - >stdout.hepmc || bad "--hepmc -"
run --events 3000 --output none --hepmc h3.hepmc || bad "--hepmc file"
cmp -s stdout.hepmc h3.hepmc && ok "--hepmc - writes the file's bytes to standard output" \
    || bad "--hepmc - differs from the file"
rm -f fifo && mkfifo fifo
cat fifo >from-fifo.csv &
reader=$!
run --events 3000 --output none --observables-out fifo || bad "writing to a FIFO"
wait $reader
[ -p fifo ] && head -n 3001 full.csv | cmp -s - from-fifo.csv \
    && ok "a FIFO consumer reads the events while they are made; the FIFO stays a FIFO" \
    || bad "FIFO output"

# ---- checkpoint, killed at a checkpoint, resume ----
ckargs="--events $N --output r.yoda --json r.json --observables-out r.csv --hepmc r.hepmc \
        --checkpoint r.ckpt --checkpoint-every 2000"
# the outputs of the resumed run against the uninterrupted one; says what differs
resumed_same() {   # resumed_same REF_PREFIX
    for f in csv hepmc yoda; do
        cmp -s r.$f $1.$f || { echo "   r.$f differs from $1.$f"; return 1; }
    done
    same_physics_json r.json $1.json || { echo "   r.json physics differs"; return 1; }
    [ ! -e r.ckpt ] || { echo "   r.ckpt left behind"; return 1; }
    [ -z "$(ls r.*.part 2>/dev/null)" ] || { echo "   left behind: $(ls r.*.part)"; return 1; }
}
# SIGKILL at the first checkpoint (no event yet) and at two random ones of the 12 written
# while it goes (printed, so that a failure can be repeated: K=... in the message)
kills="1 $(od -An -N4 -tu2 /dev/urandom | awk '{ for (i = 1; i <= NF; i++) printf "%d ", 2 + $i % 11 }')"
for k in $kills; do
    rm -f r.*
    at_checkpoint $k KILL $ckargs
    if [ $rc -ne 137 ] || [ -e r.yoda ] || [ ! -e r.ckpt ]; then
        bad "SIGKILL at checkpoint K=$k: $(why $rc), $(ls r.* 2>/dev/null | tr '\n' ' ')"; continue
    fi
    part=$(ls r.* 2>/dev/null | tr '\n' ' ')
    if ! run $ckargs --resume r.ckpt; then
        bad "resume after SIGKILL at checkpoint K=$k: $(why $rc)"
    elif resumed_same full; then
        ok "SIGKILL at checkpoint K=$k (left: $part) + resume == one run (YODA, JSON, CSV, HepMC3)"
    else
        bad "SIGKILL at checkpoint K=$k + resume: the outputs differ from one run's"
    fi
done
# SIGINT and SIGTERM at the third checkpoint (2000 events done): a clean stop
for sig in INT TERM; do
    rm -f r.*
    at_checkpoint 3 $sig $ckargs --checkpoint-every 1000 2>err.txt
    want=130; [ $sig = TERM ] && want=143
    [ $rc -eq $want ] && grep -q -- "--resume r.ckpt" err.txt && [ -e r.ckpt ] && [ ! -e r.yoda ] \
        && ok "SIG$sig: exit $rc, '$(cat err.txt)'" \
        || bad "SIG$sig at the third checkpoint: $(why $rc) (want $want), $(cat err.txt)"
    if run $ckargs --resume r.ckpt; then
        resumed_same full && ok "resumed after SIG$sig == one run" \
            || bad "resumed after SIG$sig: the outputs differ from one run's"
    else
        bad "resume after SIG$sig: $(why $rc)"
    fi
done
# a checkpoint only continues its own run
rm -f x.ckpt
at_checkpoint 1 KILL --events 5000 --output none --checkpoint x.ckpt --checkpoint-every 1000
[ $rc -eq 137 ] && [ -e x.ckpt ] || bad "killed at its first checkpoint: $(why $rc), x.ckpt $(ls x.ckpt 2>&1)"
if [ -e x.ckpt ]; then
    run --events 5000 --seed 9 --output none --resume x.ckpt 2>err.txt; rc=$?
    [ $rc -eq 2 ] && grep -q "other physics" err.txt && ok "resume with another seed refused" \
        || bad "resume with another seed: exit $rc, $(cat err.txt)"
    run --events 5000 --compat gaps21 --output none --resume x.ckpt 2>err.txt; rc=$?
    [ $rc -eq 2 ] && grep -q "other physics parameters (--compat none, not gaps21)" err.txt \
        && ok "resume with another --compat refused: $(cat err.txt)" \
        || bad "resume with another --compat: exit $rc, $(cat err.txt)"
    run --events 6000 --output none --resume x.ckpt 2>err.txt; rc=$?
    [ $rc -eq 2 ] && grep -q "belongs to a run of 5000" err.txt && ok "resume with another N refused" \
        || bad "resume with another N: exit $rc, $(cat err.txt)"
fi

# ---- hadron collisions (pp-z, pp-ll): streamed outputs, ranges and merge, a run card that
# names the process, a checkpoint killed and resumed, each against one run of the process ----
NP=2000
for proc in pp-z pp-ll; do
    p="--process $proc --events $NP"
    run $p --output $proc.yoda --json $proc.json --observables-out $proc.csv --hepmc $proc.hepmc \
        --state-out $proc.state || bad "$proc: reference run"
    run $p --output none --hepmc - >$proc-stdout.hepmc && cmp -s $proc-stdout.hepmc $proc.hepmc \
        && ok "$proc: --hepmc - writes the file's bytes to standard output" \
        || bad "$proc: --hepmc - differs from the file"
    rm -f fifo && mkfifo fifo
    cat fifo >$proc-fifo.csv &
    reader=$!
    run $p --output none --observables-out fifo || bad "$proc: writing to a FIFO"
    wait $reader
    cmp -s $proc-fifo.csv $proc.csv && ok "$proc: a FIFO reader gets the CSV's bytes" \
        || bad "$proc: FIFO output differs"
    # two ranges, merged in the other order: the bytes of one run
    run --process $proc --events $((NP / 2)) --output none --state-out $proc-a.state \
        || bad "$proc: range a"
    run --process $proc --events $((NP / 2)) --first-event $((NP / 2)) --output none \
        --state-out $proc-b.state --observables-out $proc-b.csv || bad "$proc: range b"
    tail -n $((NP / 2)) $proc.csv >b-from-full.csv
    tail -n $((NP / 2)) $proc-b.csv | cmp -s - b-from-full.csv \
        && ok "$proc: range [$((NP / 2)),$NP) holds the run's events" || bad "$proc: range b differs"
    timeout $T "$gaps" merge -o $proc-m.yoda --json $proc-m.json --state-out $proc-m.state --quiet \
        $proc-b.state $proc-a.state || bad "$proc: merge"
    grep -v '^Backend: ' $proc-m.yoda >m.phys; grep -v '^Backend: ' $proc.yoda >full.phys
    cmp -s m.phys full.phys && same_physics_json $proc-m.json $proc.json \
        && cmp -s $proc-m.state $proc.state \
        && ok "$proc: merge b a == one run (YODA, JSON physics, state bytes)" || bad "$proc: merge differs"
    # a run card with the process (and its PDF set named)
    cat >$proc.card <<CARD
# $proc from a run card
process = $proc
pdf = CT14lo/0
events = $NP
seed = 5
output = $proc-card.yoda
observables-out = $proc-card.csv
CARD
    timeout $T "$gaps" $extra --card $proc.card --quiet && cmp -s $proc-card.yoda $proc.yoda \
        && cmp -s $proc-card.csv $proc.csv && ok "$proc: a run card with 'process = $proc' == the command line" \
        || bad "$proc: the run card's run differs"
    # killed at its second checkpoint (100 events done), then resumed
    ck="$p --threads 1 --output r.yoda --json r.json --observables-out r.csv --hepmc r.hepmc \
        --checkpoint r.ckpt --checkpoint-every 100"
    rm -f r.*
    at_checkpoint 2 KILL $ck
    part=$(ls r.* 2>/dev/null | tr '\n' ' ')
    if [ $rc -ne 137 ] || [ -e r.yoda ] || [ ! -e r.ckpt ]; then
        bad "$proc: SIGKILL at its second checkpoint: $(why $rc), left: $part"
    elif ! run $ck --resume r.ckpt; then
        bad "$proc: resume after SIGKILL: $(why $rc)"
    elif resumed_same $proc; then
        ok "$proc: SIGKILL at its second checkpoint (left: $part) + resume == one run"
    else
        bad "$proc: SIGKILL + resume: the outputs differ from one run's (left: $part)"
    fi
done

# ---- progress: a line per 10 % in a log, nothing with --quiet ----
# one thread and 10^6 events: longer than the 2 s before progress shows, on any machine
timeout $T "$gaps" $extra --threads 1 --events 1000000 --output none --progress 2>progress.txt >/dev/null
lines=$(grep -c "events/s" progress.txt)
[ "$lines" -ge 1 ] && [ "$lines" -le 10 ] && ok "progress in a log: $lines lines, e.g. '$(tail -n 1 progress.txt)'" \
    || bad "progress lines: $lines"
run --events 400000 --output none 2>quiet.txt
[ ! -s quiet.txt ] && ok "--quiet prints nothing" || bad "--quiet printed: $(cat quiet.txt)"

# ---- memory does not grow with the number of events ----
# One thread: with several, a thread the machine starves (CI runs tests side by side on two
# cores) holds back the event order while the others go on, and their events wait in the
# reorder buffer for as long as it is starved; that memory follows the machine's load, not the
# number of events (doc/design.md, streaming).
if [ -x /usr/bin/time ]; then
    rss() { timeout $T /usr/bin/time -f %M "$gaps" $extra --threads 1 --quiet --output none \
                --observables-out o.csv --hepmc o.hepmc --events "$1" 2>&1 >/dev/null | tail -n 1; }
    small=$(rss 10000); big=$(rss 400000)
    echo "   maximum resident size: $small kB at 10^4 events, $big kB at 4x10^5 events"
    [ "$big" -le $((small * 12 / 10)) ] && ok "memory bounded with streamed outputs" \
        || bad "memory grows: $small kB -> $big kB"
else
    echo "SKIPPED: memory bound (/usr/bin/time missing: apt-get install time)"
    [ "${GAPS_STRICT:-0}" = 1 ] && fail=1
fi
exit $fail
