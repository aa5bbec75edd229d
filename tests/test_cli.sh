#!/bin/sh
# Bad input gives a one-line error naming the problem and exit status 2; an interrupted run
# leaves no output file behind.  Usage: test_cli.sh GAPS_BINARY WORKDIR
gaps=$1
work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail=0

expect_error() {   # expect_error WORD ARGS...: exit 2, one stderr line mentioning WORD
    word=$1; shift
    "$gaps" "$@" >out.txt 2>err.txt
    rc=$?
    lines=$(wc -l <err.txt)
    if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -q -- "$word" err.txt; then
        echo "FAIL: gaps $* -> exit $rc, stderr:"; cat err.txt; fail=1
    else
        echo "ok: gaps $* -> $(cat err.txt)"
    fi
}

expect_error "--frobnicate" --frobnicate
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
expect_error "no/such/dir" --events 10 --output no/such/dir/out.yoda
expect_error "no/such/dir" --events 10 --output none --json no/such/dir/run.json
expect_error "stray" stray

"$gaps" --help >help.txt 2>&1 && grep -q -- "--events" help.txt || { echo "FAIL: --help"; fail=1; }
"$gaps" --version | grep -q "gaps" || { echo "FAIL: --version"; fail=1; }

# a good run writes every output, and only complete ones
"$gaps" --events 2000 --output ok.yoda --json ok.json --observables-out ok.csv --quiet || { echo "FAIL: good run"; fail=1; }
grep -q "END YODA_COUNTER_V2" ok.yoda && grep -q '"sigma_pb"' ok.json && [ "$(wc -l <ok.csv)" -eq 2001 ] \
    || { echo "FAIL: outputs of a good run incomplete"; fail=1; }

# interrupt a long run: neither the output nor its temporary file may remain
"$gaps" --events 100000000 --output killed.yoda --json killed.json --quiet &
pid=$!
sleep 1
kill -INT $pid
wait $pid
if ls killed.* >/dev/null 2>&1; then echo "FAIL: interrupted run left files:"; ls killed.*; fail=1; else echo "ok: interrupted run left no file"; fi

exit $fail
