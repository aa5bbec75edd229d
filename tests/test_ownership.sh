#!/bin/sh
# Runs that share files: no silent corruption, ever.  A run is stopped at a chosen moment by
# the test build's hooks (src/program/testhook.h: the program gaps-hooks runs the shell
# command in GAPS_TEST_HOOK_<POINT> and waits for it), and while it waits something else
# happens to its files.  Every case is generated from lists (outputs x modes x moments x
# faults), every command runs under `timeout`, and each case checks the exit statuses, the
# one line of standard error, the bytes of every output against a reference run, and that no
# hidden temporary file is left behind.
#
#   two writers     a second run given the same output (each kind, checkpointed or not),
#                   the same checkpoint, or a --resume of the live run: a second writer of a
#                   DEST.part or of the checkpoint is refused at once (exit 2) naming the
#                   first run's process id, and the first run ends as if alone; a run whose
#                   destination another run committed meanwhile fails (exit 1) and commits
#                   nothing, the other's file stays
#   lost files      a .part or the checkpoint removed or replaced, or a destination taken by
#                   another file, after the start, after a checkpoint or just before the
#                   commit: exit 1, nothing committed, old files as they were
#   commit order    each output made impossible to rename at each position of the commit
#                   (its .part removed or replaced, its destination turned into a directory),
#                   with and without old files: exit 1, every output renamed before it put
#                   back, the old files intact; the run then resumes to the right bytes
#   resume          without a streamed output of the original run: refused (exit 2)
#
# Usage: test_ownership.sh GAPS_BINARY GAPS_HOOKS_BINARY WORKDIR
# Environment: TIMEOUT (seconds per command, default 60).
gaps=$1
hooks=$2
work=$3
[ -n "$gaps" ] && [ -n "$hooks" ] && [ -n "$work" ] \
    || { echo "usage: test_ownership.sh GAPS_BINARY GAPS_HOOKS_BINARY WORKDIR"; exit 2; }
case $gaps in /*) ;; *) gaps=$(pwd)/$gaps ;; esac
case $hooks in /*) ;; *) hooks=$(pwd)/$hooks ;; esac
rm -rf "$work" && mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)
TMO=${TIMEOUT:-60}
export KMP_WARNINGS=0 LC_ALL=C
fail=0
n_ok=0
n_bad=0
bad() { echo "FAIL: $*"; fail=1; n_bad=$((n_bad + 1)); }
good() { n_ok=$((n_ok + 1)); }
group_ok() {
    if [ $n_bad -eq 0 ]; then echo "ok: $* ($n_ok checks)"
    else echo "FAIL: $* ($n_bad of $((n_ok + n_bad)) checks failed, see above)"; fi
    n_ok=0 n_bad=0
}
extra=""
"$gaps" --version | grep -q "offload backend" && extra="--allow-host"

N=3000
EVERY=1000
# kind  option  extension; the order of the commit (src/program/run.c: OUT_YODA ...)
kinds="output:yoda json:json observables-out:csv hepmc:hepmc cycles-out:cyc state-out:state"
streamed="observables-out hepmc"
ext_of() { for k in $kinds; do [ "${k%%:*}" = "$1" ] && echo "${k#*:}"; done; }
# every output of a run, each to PREFIX.EXT, except kind SHARED, which goes to s.EXT
outs() {
    a=""
    for k in $kinds; do
        o=${k%%:*} e=${k#*:}
        if [ "$o" = "$2" ]; then a="$a --$o s.$e"; else a="$a --$o $1.$e"; fi
    done
    echo "$a"
}

# The references: one run per seed, every output, without checkpoints.
mkdir -p "$work/ref"
for seed in 1 2; do
    (cd "$work/ref" && timeout "$TMO" "$gaps" $extra --quiet --seed $seed --events $N $(outs r$seed)) \
        || { echo "FAIL: reference run, seed $seed"; exit 1; }
done

# same FILE KIND SEED: FILE holds what output KIND of the reference run of SEED holds
same() {
    ref="$work/ref/r$3.$(ext_of "$2")"
    case $2 in
        json) python3 - "$1" "$ref" <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
keys = ("version", "parameters", "event_ranges", "events", "sigma_pb", "sigma_err_pb",
        "capacity_hits", "invalid_events")
sys.exit(0 if all(a.get(k) == b.get(k) for k in keys) else 1)
EOF
            ;;
        cycles-out) head -n 1 "$1" 2>/dev/null | grep -q '^veto_cycle,events_completed,seconds$' \
                    && [ "$(wc -l <"$1")" -gt 1 ] ;;
        *) cmp -s "$1" "$ref" ;;
    esac
}
hidden() { ls -A "$1" | grep '^\.gaps-' | tr '\n' ' '; }
one_line() {   # one_line FILE WORDS...: exactly one line "gaps: ..." holding every WORD
    [ "$(wc -l <"$1")" -eq 1 ] && grep -q '^gaps: ' "$1" || return 1
    _file=$1; shift
    for _w in "$@"; do grep -q -F -- "$_w" "$_file" || return 1; done
}
show() { head -c 300 "$1" | tr -c '[:print:]' ' '; }

# hooked DIR HOOKVAR COMMAND ARGS...: gaps-hooks in DIR with GAPS_TEST_HOOK_<HOOKVAR> set to
# COMMAND; exit status in $rc, standard error in DIR/a.err
hooked() {
    d=$1 var=$2 cmd=$3
    shift 3
    (cd "$d" && exec env "GAPS_TEST_HOOK_$var=$cmd" timeout -k 5 "$TMO" "$hooks" $extra --quiet "$@") \
        >"$d/a.out" 2>"$d/a.err"
    rc=$?
}
# the hook's command: run the second command in the same directory, keep its status, its
# standard error and the first run's pid ($PPID of the hook's shell); at CHECKPOINT only the
# second time it fires (the first is the checkpoint at the start)
second() {   # second WHEN ARGS...: the hook command that runs `gaps ARGS`
    when=$1
    shift
    run="timeout -k 5 $TMO $gaps $extra --quiet $* >b.out 2>b.err; echo \$? >b.rc; echo \$PPID >a.pid"
    if [ "$when" = CHECKPOINT ]; then
        echo "n=\$(cat hook.n 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n >hook.n; [ \$n -eq 2 ] || exit 0; $run"
    else
        echo "$run"
    fi
}

# ============================================================================================
echo "=== two writers: each kind of output, checkpointed or not, at the start and mid-run"
case_no=0
for k in $kinds checkpoint:ckpt; do
    kind=${k%%:*} ext=${k#*:}
    for modes in plain:plain plain:ckpt ckpt:plain ckpt:ckpt; do
        ma=${modes%:*} mb=${modes#*:}
        [ $kind = checkpoint ] && [ $modes != ckpt:ckpt ] && continue
        for when in PREPARED CHECKPOINT; do
            [ $when = CHECKPOINT ] && [ $ma = plain ] && continue
            case_no=$((case_no + 1))
            d="$work/two$case_no"
            mkdir -p "$d"
            a_args="--seed 1 --events $N $(outs a $kind)"
            b_args="--seed 2 --events $N"
            if [ $kind = checkpoint ]; then
                a_args="--seed 1 --events $N $(outs a none) --checkpoint s.ckpt --checkpoint-every $EVERY"
                b_args="$b_args --output none --checkpoint s.ckpt"
            else
                [ $ma = ckpt ] && a_args="$a_args --checkpoint a.ckpt --checkpoint-every $EVERY"
                b_args="$b_args --output none --$kind s.$ext"
                [ $kind = output ] && b_args="--seed 2 --events $N --output s.yoda"
                [ $mb = ckpt ] && b_args="$b_args --checkpoint b.ckpt --checkpoint-every $EVERY"
            fi
            hooked "$d" $when "$(second $when $b_args)" $a_args
            what="$kind, run A $ma, run B $mb, B at $when"
            brc=$(cat "$d/b.rc" 2>/dev/null)
            apid=$(cat "$d/a.pid" 2>/dev/null)
            [ -n "$brc" ] || { bad "$what: the second run did not run ($(show "$d/a.err"))"; continue; }
            refused=0
            [ $kind = checkpoint ] && refused=1
            case " $streamed " in *" $kind "*) [ $modes = ckpt:ckpt ] && refused=1 ;; esac
            if [ $refused = 1 ]; then
                # B refused at once, naming A; A ends as if alone
                one_line "$d/b.err" "belongs to a run that is still going" "process $apid" \
                    && [ "$brc" -eq 2 ] && good \
                    || bad "$what: B exit $brc, expected 2 naming process $apid: $(show "$d/b.err")"
                ok=1
                [ $rc -eq 0 ] && [ ! -s "$d/a.err" ] || ok=0
                for kk in $kinds; do
                    o=${kk%%:*} e=${kk#*:}
                    f=a.$e; [ $o = $kind ] && f=s.$e
                    same "$d/$f" $o 1 || { ok=0; echo "  $f differs from the reference"; }
                done
                [ -z "$(ls "$d" | grep -e '\.part$' -e 'ckpt$')" ] || ok=0
                [ $ok = 1 ] && good || bad "$what: A exit $rc ($(show "$d/a.err")), files: $(ls "$d" | tr '\n' ' ')"
            else
                # B ran; A finds its destination taken and commits nothing
                [ "$brc" -eq 0 ] && same "$d/s.$ext" $kind 2 && good \
                    || bad "$what: B exit $brc ($(show "$d/b.err")), s.$ext not seed 2's"
                ok=1
                [ $rc -eq 1 ] && one_line "$d/a.err" "s.$ext" "during the run" "nothing was committed" || ok=0
                for kk in $kinds; do
                    e=${kk#*:}
                    [ -e "$d/a.$e" ] && { ok=0; echo "  a.$e committed"; }
                done
                [ $ok = 1 ] && good || bad "$what: A exit $rc, $(show "$d/a.err"), files: $(ls "$d" | tr '\n' ' ')"
            fi
            [ -z "$(hidden "$d")" ] && good || bad "$what: hidden files left: $(hidden "$d")"
        done
    done
done
group_ok "two writers on one file: a second writer of a .part or checkpoint refused naming the first, a taken destination never overwritten ($case_no cases)"

echo "=== --resume of a run that is still going, for each streamed output"
for so in observables-out hepmc "observables-out hepmc"; do
    for when in PREPARED CHECKPOINT; do
        for ckmode in same other; do
            d="$work/live-$(echo $so | tr ' ' '+')-$when-$ckmode"
            mkdir -p "$d"
            args="--seed 1 --events $N --output a.yoda --checkpoint a.ckpt --checkpoint-every $EVERY"
            for o in $so; do args="$args --$o a.$(ext_of $o)"; done
            resume="$args --resume a.ckpt"
            [ $ckmode = other ] && resume="$(echo "$args" | sed 's/--checkpoint a.ckpt/--checkpoint c.ckpt/') --resume a.ckpt"
            # the .part files as the live run has them when the resume is tried, and after it
            sums="for f in *.part; do cksum \$f; done"
            cmd="$sums >before.sum; $(second PREPARED $resume); $sums >after.sum"
            [ $when = CHECKPOINT ] && cmd="n=\$(cat hook.n 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n >hook.n; [ \$n -eq 2 ] || exit 0; $cmd"
            hooked "$d" $when "$cmd" $args
            what="--resume while live: $so, at $when, checkpoint $ckmode"
            apid=$(cat "$d/a.pid" 2>/dev/null)
            [ "$(cat "$d/b.rc" 2>/dev/null)" = 2 ] && one_line "$d/b.err" "belongs to a run that is still going" "process $apid" \
                && good || bad "$what: exit $(cat "$d/b.rc" 2>/dev/null), $(show "$d/b.err")"
            cmp -s "$d/before.sum" "$d/after.sum" && [ -s "$d/before.sum" ] && good \
                || bad "$what: the live run's .part files changed under the refused resume"
            ok=1
            [ $rc -eq 0 ] && [ ! -s "$d/a.err" ] || ok=0
            same "$d/a.yoda" output 1 || ok=0
            for o in $so; do same "$d/a.$(ext_of $o)" $o 1 || ok=0; done
            [ ! -e "$d/a.ckpt" ] && [ ! -e "$d/c.ckpt" ] && [ -z "$(hidden "$d")" ] || ok=0
            [ $ok = 1 ] && good || bad "$what: the live run: exit $rc, $(show "$d/a.err"), files $(ls -A "$d" | tr '\n' ' ')"
        done
    done
done
group_ok "a --resume of a live run refused at once, its .part files untouched, the live run's outputs right"

# ============================================================================================
echo "=== files lost or taken during the run: exit 1, nothing committed, old files intact"
# fault: the shell command (run in the directory) that does it, and words of the message
faults="rm-csv-part|rm a.csv.part|a.csv.part|removed or replaced
replace-hepmc-part|cp a.hepmc.part t && mv t a.hepmc.part|a.hepmc.part|removed or replaced
replace-csv-part|cp a.csv.part t && mv t a.csv.part|a.csv.part|removed or replaced
rm-checkpoint|rm a.ckpt|a.ckpt|removed
replace-checkpoint|cp a.ckpt t && mv t a.ckpt|a.ckpt|replaced
replace-output|echo other >t && mv t a.yoda|a.yoda|during the run
replace-state|echo other >t && mv t a.state|a.state|during the run
create-json|echo other >a.json|a.json|during the run
dir-cycles|rm -f a.cyc && mkdir a.cyc|a.cyc|during the run"
for when in PREPARED CHECKPOINT COMMIT; do
    while IFS='|' read -r name cmd file words; do
        d="$work/lost-$name-$when"
        mkdir -p "$d"
        for kk in $kinds; do e=${kk#*:}; echo "old $e" >"$d/a.$e"; done
        [ $name = create-json ] && rm "$d/a.json"
        (cd "$d" && for f in a.*; do cksum "$f"; done) >"$d/../old.sum"
        hook=$cmd
        [ $when = CHECKPOINT ] && hook="n=\$(cat hook.n 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n >hook.n; [ \$n -eq 2 ] || exit 0; $cmd"
        hooked "$d" $when "$hook" --seed 1 --events $N $(outs a none) --checkpoint a.ckpt --checkpoint-every $EVERY
        what="$name at $when"
        ok=1
        [ $rc -eq 1 ] && one_line "$d/a.err" "$file" "$words" || ok=0
        # every old file as it was, but the one the fault itself changed
        (cd "$d" && for f in a.*; do case $f in *.part|*.ckpt|*.err|*.out) ;; *) cksum "$f" ;; esac; done) \
            | grep -v -F " $file" >"$d/now.sum"
        grep -v -F " $file" "$d/../old.sum" | grep -v -e '\.err$' -e '\.out$' | cmp -s - "$d/now.sum" || { ok=0; echo "  old files changed"; }
        [ -z "$(hidden "$d")" ] || { ok=0; echo "  hidden files: $(hidden "$d")"; }
        [ $ok = 1 ] && good || bad "$what: exit $rc, $(show "$d/a.err")"
    done <<EOF
$faults
EOF
done
group_ok ".part, checkpoint or destination lost or taken after the start, after a checkpoint, before the commit"

# ============================================================================================
echo "=== a rename that fails at each position of the commit: everything put back"
# outputs in commit order: yoda json csv hepmc cyc state; at position K, output K is broken
pos=0
for kk in $kinds; do
    o=${kk%%:*} e=${kk#*:}
    fl="dir"
    case " $streamed " in *" $o "*) fl="rm-part replace-part dir" ;; esac
    for f in $fl; do
        for old in yes no; do
            d="$work/commit-$pos-$f-$old"
            mkdir -p "$d"
            if [ $old = yes ]; then for x in $kinds; do echo "old ${x#*:}" >"$d/a.${x#*:}"; done; fi
            case $f in
                rm-part) cmd="rm a.$e.part" ;;
                replace-part) cmd="cp a.$e.part t && mv t a.$e.part" ;;
                dir) cmd="rm -f a.$e && mkdir a.$e && touch a.$e/x" ;;
            esac
            [ $old = yes ] && (cd "$d" && for x in a.*; do [ "$x" = "a.$e" ] || cksum "$x"; done) >"$d/../old.sum"
            hooked "$d" RENAME_$pos "$cmd" --seed 1 --events $N $(outs a none) --checkpoint a.ckpt \
                --checkpoint-every $EVERY
            what="commit position $pos ($o): $f, old files: $old"
            ok=1
            words="nothing was committed"
            [ $pos -gt 0 ] && words="put back"
            [ $rc -eq 1 ] && one_line "$d/a.err" "a.$e" "nothing was committed" "$words" || ok=0
            if [ $old = yes ]; then
                (cd "$d" && for x in a.*; do case $x in a.$e|*.part|*.ckpt|*.err|*.out) ;; *) cksum "$x" ;; esac; done) \
                    | cmp -s - "$d/../old.sum" || { ok=0; echo "  old files changed"; }
            else
                for x in $kinds; do
                    [ "${x#*:}" = $e ] || [ ! -e "$d/a.${x#*:}" ] || { ok=0; echo "  a.${x#*:} left in place"; }
                done
            fi
            for s in $streamed; do
                se=$(ext_of $s)
                [ $f = rm-part ] && [ $se = $e ] && continue
                [ -e "$d/a.$se.part" ] || { ok=0; echo "  a.$se.part not put back"; }
            done
            [ -e "$d/a.ckpt" ] && [ -z "$(hidden "$d")" ] || { ok=0; echo "  checkpoint or hidden files: $(ls -A "$d" | tr '\n' ' ')"; }
            [ $ok = 1 ] && good || bad "$what: exit $rc, $(show "$d/a.err")"
            # what the failed commit left is resumable: the same bytes as one run
            if [ $f != rm-part ]; then
                rm -rf "$d/a.$e"
                (cd "$d" && timeout -k 5 "$TMO" "$gaps" $extra --quiet --seed 1 --events $N --output a.yoda \
                    --json a.json --observables-out a.csv --hepmc a.hepmc --state-out a.state \
                    --checkpoint a.ckpt --resume a.ckpt) 2>"$d/r.err"
                r=$?
                ok=1
                for x in output json observables-out hepmc state-out; do
                    same "$d/a.$(ext_of $x)" $x 1 || { ok=0; echo "  a.$(ext_of $x) differs after the resume"; }
                done
                [ $r -eq 0 ] && [ $ok = 1 ] && [ ! -e "$d/a.ckpt" ] && good \
                    || bad "$what: resumed afterwards: exit $r, $(show "$d/r.err")"
            fi
        done
    done
    pos=$((pos + 1))
done
group_ok "a failed rename at every position: the outputs renamed before it put back, old files intact, the run resumable"

# ============================================================================================
echo "=== resume without a streamed output of the original run"
d="$work/resume-missing"
mkdir -p "$d"
# (the shell may say "Killed": that is this run, on purpose)
hooked "$d" CHECKPOINT 'n=$(cat hook.n 2>/dev/null || echo 0); n=$((n + 1)); echo $n >hook.n; [ $n -eq 2 ] && kill -KILL $PPID' \
    --seed 1 --events $N --output a.yoda --observables-out a.csv --hepmc a.hepmc --checkpoint a.ckpt \
    --checkpoint-every $EVERY
[ $rc -eq 137 ] && [ -e "$d/a.ckpt" ] && good || bad "killed run: exit $rc"
for drop in "--hepmc a.hepmc" "--observables-out a.csv" "--observables-out a.csv --hepmc a.hepmc"; do
    args="--seed 1 --events $N --output a.yoda --observables-out a.csv --hepmc a.hepmc --resume a.ckpt"
    for w in $drop; do args=$(echo " $args " | sed "s| $w | |"); done
    before=$(ls -l --time-style=+%s.%N "$d" | sort)
    (cd "$d" && timeout -k 5 "$TMO" "$gaps" $extra --quiet $args) 2>"$work/r.err"
    r=$?
    [ $r -eq 2 ] && one_line "$work/r.err" "--resume" "also wrote" && [ "$before" = "$(ls -l --time-style=+%s.%N "$d" | sort)" ] \
        && good || bad "resume without $drop: exit $r, $(show "$work/r.err")"
done
(cd "$d" && timeout -k 5 "$TMO" "$gaps" $extra --quiet --seed 1 --events $N --output a.yoda --observables-out a.csv \
    --hepmc a.hepmc --resume a.ckpt) 2>"$work/r.err"
r=$?
[ $r -eq 0 ] && same "$d/a.csv" observables-out 1 && same "$d/a.hepmc" hepmc 1 && same "$d/a.yoda" output 1 \
    && [ -z "$(ls "$d" | grep -e part -e ckpt)" ] && good || bad "resume with every output: exit $r, $(show "$work/r.err")"
group_ok "a resume without a streamed output of the original run refused, with all resumed"

[ $fail -eq 0 ] && echo "ownership: all checks passed" || echo "ownership: SOME CHECKS FAILED"
exit $fail
