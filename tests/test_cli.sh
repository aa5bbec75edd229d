#!/bin/sh
# Bad input gives a one-line error naming the problem and exit status 2; an interrupted run
# leaves no output file behind.  Usage: test_cli.sh GAPS_BINARY WORKDIR
gaps=$1
work=$2
case $gaps in /*) ;; *) gaps=$(pwd)/$gaps ;; esac   # the test runs in WORKDIR
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail=0

expect_error() {   # expect_error WORD ARGS...: exit 2, one stderr line mentioning WORD
    word=$1; shift
    timeout 60 "$gaps" "$@" >out.txt 2>err.txt
    rc=$?
    lines=$(wc -l <err.txt)
    if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -q -- "$word" err.txt; then
        echo "FAIL: gaps $* -> exit $rc, stderr:"; cat err.txt; fail=1
    else
        echo "ok: gaps $* -> $(cat err.txt)"
    fi
}

# the processes, as the program lists them in --help ("--process NAME|NAME|...")
"$gaps" --help >help.txt 2>&1 || { echo "FAIL: --help"; fail=1; }
processes=$(sed -n 's/^ *--process \([^ ]*\).*/\1/p' help.txt | head -n 1 | tr '|' ' ')
[ -n "$processes" ] || { echo "FAIL: no process list in --help"; fail=1; }
one_of=$(echo $processes | sed 's/ /, /g')

expect_error "--frobnicate" --frobnicate
expect_error "unknown option '--proces' (did you mean --process?)" --proces pp-z
expect_error "expected one of $one_of (did you mean pp-z?)" --process pp-zz
expect_error "--events" --events -5
expect_error "--events" --events abc
expect_error "--events" --events 0
expect_error "--events" --events
expect_error "--ecm" --ecm 1 --tcut 1
expect_error "--ecm" --ecm -91.2
expect_error "--tcut" --tcut 0
expect_error "--alphas-order" --alphas-order 3
expect_error "--alphas-mz" --alphas-mz 1.5
expect_error "--max-partons" --max-partons 100
expect_error "--loops" --loops sideways
expect_error "--seed" --seed 99999999999
expect_error "Landau" --tcut 0.01 --events 10
# the cutoff against the hard scale Q^2 (s, M_Z^2, 66^2 GeV^2): at NLO at most Q^2 / 100
# (doc/nlo.md), at LO below the hadronic shower's start; just inside each limit runs
for c in "ee-qq 1 8317.44" "pp-z 1 8315.1811" "pp-ll 1 4356" "pp-z 0 8315.1811" "pp-ll 0 4356"; do
    set -- $c
    q2=$3
    if [ "$2" = 1 ]; then
        expect_error "not well below the hard scale of $1 at NLO" --process $1 --nlo 1 \
            --tcut $(awk "BEGIN { printf \"%.9g\", $q2 / 100 * 1.001 }") --events 10 --output none
        expect_error "not well below the hard scale of $1 at NLO" --process $1 --nlo 1 \
            --tcut 4e7 --events 10 --output none
        inside=$(awk "BEGIN { printf \"%.9g\", $q2 / 100 * 0.999 }")
    else
        expect_error "at or above the shower's start scale of $1" --process $1 --tcut $q2 \
            --events 10 --output none
        inside=$(awk "BEGIN { printf \"%.9g\", $q2 * 0.999 }")
    fi
    if timeout 60 "$gaps" --quiet --process $1 --nlo $2 --tcut $inside --events 10 \
            --output none 2>err.txt; then
        echo "ok: --process $1 --nlo $2 --tcut $inside runs"
    else
        echo "FAIL: --process $1 --nlo $2 --tcut $inside (inside the limit) -> exit $?:"
        cat err.txt; fail=1
    fi
done
expect_error "no/such/dir" --events 10 --output no/such/dir/out.yoda
expect_error "no/such/dir" --events 10 --output none --json no/such/dir/run.json
expect_error "stray" stray

# the process, its PDF set and the compatibility switch (gaps/parameters.h)
expect_error "expected one of $one_of" --process no-such-process
expect_error "expected one of none, gaps21" --compat gaps20
expect_error "--pdf is only for a process with hadron beams" --pdf CT14lo
expect_error "--pdf is only for a process with hadron beams" --process ee-qq --pdf CT14lo/0
expect_error "--pdf-path is only for a process with hadron beams" --pdf-path .
expect_error "--pdf" --process pp-z --pdf 'CT 14'
expect_error "--pdf" --process pp-z --pdf CT14lo/10000
expect_error "PDF set 'NoSuchSet' not found" --process pp-z --pdf NoSuchSet --output none
# a set that is found passes (the missing output directory is refused next: nothing runs)
expect_error "no/such/dir" --process pp-z --pdf CT14lo/0 --events 1 --output no/such/dir/x.yoda
expect_error "no/such/dir" --process pp-ll --events 1 --output no/such/dir/x.yoda
expect_error "pp-z needs sqrt(s) above the Z mass" --process pp-z --ecm 50
expect_error "pp-ll needs sqrt(s) above its dilepton mass window" --process pp-ll --ecm 91
printf 'process = pp-z\necm = 50\n' >pp.card
expect_error "pp-z needs sqrt(s) above the Z mass" --card pp.card
printf 'process = ee-qq\npdf = CT14lo\n' >ee.card
expect_error "--pdf is only" --card ee.card
# nothing was written by the refusals above
[ ! -e gaps.yoda ] && echo "ok: no output after a refused PDF set" \
    || { echo "FAIL: gaps.yoda written"; fail=1; }

grep -q -- "--events" help.txt || { echo "FAIL: --help"; fail=1; }
# an option too long for column 27 has its text on the next line, not glued to it
bar=$(echo $processes | tr ' ' '|')
if grep -q -e "--process $bar " -e '--compat none|gaps21 ' help.txt \
        || ! grep -q -x -- "      --process $bar" help.txt; then
    echo "FAIL: --help glues an option to its text:"; grep -e '--process' -e '--compat' help.txt; fail=1
else
    echo "ok: --help puts the text of a long option on its own line"
fi
"$gaps" --version | grep -q "gaps" || { echo "FAIL: --version"; fail=1; }

# a good run writes every output, and only complete ones
"$gaps" --events 2000 --output ok.yoda --json ok.json --observables-out ok.csv --quiet || { echo "FAIL: good run"; fail=1; }
grep -q "END YODA_COUNTER_V2" ok.yoda && grep -q '"sigma_pb"' ok.json && [ "$(wc -l <ok.csv)" -eq 2001 ] \
    || { echo "FAIL: outputs of a good run incomplete"; fail=1; }
# the JSON's times: start-up and wall beside the event loop's total, wall >= total >= 0
time_s=$(grep '"time_s"' ok.json)
if echo "$time_s" | awk '{
        for (i = 1; i <= NF; ++i) { k = $i; gsub(/[":{},]/, "", k); v = $(i + 1); gsub(/[},]/, "", v); t[k] = v }
        ok = ("total" in t) && ("startup" in t) && ("wall" in t) && t["startup"] + 0 >= 0 \
             && t["total"] + 0 >= 0 && t["wall"] + 0 >= t["total"] + 0 && t["wall"] + 0 >= t["startup"] + 0
        exit !ok }'; then
    echo "ok: JSON time_s has startup and wall (wall >= total): $time_s"
else
    echo "FAIL: JSON time_s lacks startup or wall, or wall < total: $time_s"; fail=1
fi
"$gaps" --events 200 --output none >sum.txt 2>&1
grep -q '^        start-up ' sum.txt && grep -q '^        wall ' sum.txt \
    && echo "ok: the summary states start-up and wall time" \
    || { echo "FAIL: summary lacks start-up or wall time:"; cat sum.txt; fail=1; }

# every process of the list runs, at LO and (where it has one) at NLO; one without NLO says
# so by its name
for p in $processes; do
    if "$gaps" --process $p --events 20 --output none --quiet >out.txt 2>err.txt; then
        echo "ok: --process $p runs"
    else
        echo "FAIL: --process $p: $(cat err.txt)"; fail=1
    fi
    if "$gaps" --process $p --nlo 1 --events 20 --output none --quiet >out.txt 2>err.txt; then
        echo "ok: --process $p --nlo 1 runs"
    elif grep -q -- "--nlo 1 is not implemented for --process $p" err.txt; then
        echo "ok: --process $p has no NLO: $(cat err.txt)"
    else
        echo "FAIL: --process $p --nlo 1: $(cat err.txt)"; fail=1
    fi
done

# help and version that cannot be written are an error
for a in --help --version; do
    "$gaps" $a >/dev/full 2>err.txt
    rc=$?
    [ $rc -eq 1 ] && [ "$(wc -l <err.txt)" -eq 1 ] && echo "ok: gaps $a >/dev/full -> $(cat err.txt)" \
        || { echo "FAIL: gaps $a >/dev/full -> exit $rc"; fail=1; }
done

# interrupt a long run: exit 128 + SIGINT, and neither the output nor a temporary file remains
ls -A >before.txt
"$gaps" --events 100000000 --output killed.yoda --json killed.json --quiet 2>err.txt &
pid=$!
(sleep 120; kill -KILL $pid) >/dev/null 2>&1 &   # should SIGINT be lost, the test still ends
watchdog=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
kill $watchdog 2>/dev/null
ls -A | grep -v -x -e before.txt -e after.txt -e err.txt >after.txt
if [ $rc -ne 130 ] || [ -s err.txt ] || ! grep -v -x -e before.txt -e err.txt -e after.txt before.txt | cmp -s - after.txt; then
    echo "FAIL: interrupted run: exit $rc (expected 130), stderr '$(cat err.txt)', files now: $(tr '\n' ' ' <after.txt)"; fail=1
else
    echo "ok: interrupted run: exit 130, no file left"
fi

exit $fail
