#!/bin/sh
# --ablate (include/gaps/ablate.h; doc/validation-lhc.md section 8): the option and its run-card
# key are parsed, a bad value or a run it does not apply to is refused with one line and exit
# status 2, the default ("none", or no option) makes the events of a run without it, every
# variant changes the events, the files record it, and states of different variants do not
# merge.  Nothing here depends on timing.
# Usage: test_ablate.sh GAPS_BINARY WORKDIR
gaps=$1
work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
export KMP_WARNINGS=0
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
extra=""
"$gaps" --version | grep -q "offload backend" && extra="--allow-host"
N=1500
run() { "$gaps" $extra --seed 3 --events $N --threads 1 --quiet "$@"; }

# ---- refused: exit 2, one line on standard error, nothing written ----
refused() {   # refused WHAT WORDS ARGS...
    what=$1; words=$2; shift 2
    rm -f r.yoda
    "$gaps" $extra --events 10 --quiet --output r.yoda "$@" >out.txt 2>err.txt
    rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q -- "$words" err.txt \
            && [ ! -e r.yoda ]; then
        ok "refused: $what"
    else
        bad "$what: exit $rc, expected 2 with one line naming '$words':"; cat err.txt
    fi
}
refused "an unknown name" "invalid value 'bogus' for --ablate" --process pp-z --ablate bogus
refused "a misspelt name, with the closest" "did you mean fi-kernels" --process pp-z \
    --ablate if-kernels,fi-kernel
refused "a name twice" "each at most once" --process pp-z --ablate fi-kernels,fi-kernels
refused "an empty value" "invalid value '' for --ablate" --process pp-z --ablate ""
refused "an empty item" "for --ablate" --process pp-z --ablate fi-kernels,
refused "none in a list" "for --ablate" --process pp-z --ablate none,fi-kernels
refused "with --nlo 1" "only for leading-order runs" --process pp-z --nlo 1 --ablate fi-kernels
refused "with --compat gaps21" "only for leading-order runs" --process pp-z --compat gaps21 \
    --ablate alphas-herwig
refused "a kernel variant with ee-qq" "apply to --process ee-qq" --ablate if-kernels
printf 'process = pp-z\nablate = fi-kernelz\n' >bad.card
refused "a bad value in a run card" "bad.card:2" --card bad.card

# ---- the default: no option, "none" and a card's "none" make the same events ----
run --process pp-z --observables-out plain.csv --output plain.yoda || bad "pp-z run"
run --process pp-z --ablate none --observables-out none.csv --output none.yoda \
    || bad "pp-z --ablate none"
cmp -s plain.csv none.csv && cmp -s plain.yoda none.yoda \
    && ok "--ablate none: the events and histograms of a run without it" \
    || bad "--ablate none changes the run"
grep -q '^Ablate' plain.yoda && bad "a default run's YODA file names Ablate" \
    || ok "a default run's YODA file has no Ablate line"

# ---- every variant changes the events, and the files say which ran ----
for v in alphas-herwig alphas-thresholds fi-kernels fi-gg-asym if-kernels gqq-virtuality \
         isr-no-b; do
    run --process pp-z --ablate $v --observables-out $v.csv --output $v.yoda --json $v.json \
        || { bad "pp-z --ablate $v: exit $?"; continue; }
    cmp -s plain.csv $v.csv && bad "--ablate $v leaves the pp-z events as they were" \
        || ok "--ablate $v changes the pp-z events"
    grep -q "^Ablate: $v\$" $v.yoda || bad "$v.yoda lacks 'Ablate: $v'"
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not (d["parameters"]["ablate"] == sys.argv[2] and d["overestimate_violations"] == 0 and d["invalid_events"] == 0))' \
        $v.json $v || bad "$v.json: not ablate $v, or a trial above its bound, or a bad event"
done
# the alpha_s variants and gqq-virtuality also for e+e- -> q qbar
run --observables-out lep.csv --output none || bad "ee-qq run"
for v in alphas-herwig alphas-thresholds gqq-virtuality; do
    run --ablate $v --observables-out lep-$v.csv --output none || bad "ee-qq --ablate $v"
    cmp -s lep.csv lep-$v.csv && bad "--ablate $v leaves the ee-qq events as they were" \
        || ok "--ablate $v changes the ee-qq events"
done
# a list, from the command line and from a run card, in canonical order whatever the order given
run --process pp-z --ablate if-kernels,alphas-herwig --observables-out list.csv \
    --output list.yoda || bad "a list"
printf 'process = pp-z\nablate = alphas-herwig,if-kernels\n' >list.card
run --card list.card --observables-out card.csv --output card.yoda || bad "the run card"
cmp -s list.csv card.csv && grep -q '^Ablate: alphas-herwig,if-kernels$' list.yoda \
    && ok "a list, in any order, from the command line or a run card" \
    || bad "a list: the card's events differ, or the YODA file does not name it"

# ---- states of different variants do not merge ----
run --process pp-z --output none --state-out a.state || bad "state a"
run --process pp-z --ablate fi-kernels --first-event $N --output none --state-out b.state \
    || bad "state b"
"$gaps" merge --quiet --output m.yoda a.state b.state >out.txt 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q -- "--ablate" err.txt && ok "states of different --ablate do not merge" \
    || { bad "merge of different --ablate: exit $rc"; cat err.txt; }

[ $fail -eq 0 ] && echo "all ablate checks passed"
exit $fail
