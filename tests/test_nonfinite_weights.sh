#!/bin/sh
# Weights that are not finite are bad weights at every order.  A PDF set whose grid holds
# values of 1e300 makes event weights overflow (1e300 x 1e300) or reach sizes the exact sums
# cannot take: at leading order the histograms count them (bad_weights, exit status 3); the
# NLO events once set such a weight to 0, so the same set gave sigma 0, bad_weights 0 and exit
# 0.  For every process with hadron beams, at LO and NLO, with copies of the shipped set:
#   all 1e300      every grid value 1e300: every event's weight overflows;
#   band 1e300     the values at 1e-3 <= x <= 5e-2 (where the Z's partons are) 1e300, the rest
#                  as shipped: events in the band and out of it in one run, and showers whose
#                  PDF ratios meet the huge values;
#   as shipped     the unchanged copy (control: the copy is read, and the run is sound);
# the mutated sets must give exit 3, bad_weights > 0, invalid_events 0 (the records stay
# sound: a bad weight is no bad event) and one line on standard error naming the bad
# weights; the control exit 0 with bad_weights 0.
# Usage: test_nonfinite_weights.sh GAPS_BINARY PDFSETS_DIR WORKDIR.  Environment: EVENTS
# (per run, default 40), TIMEOUT (seconds per command, default 120).
gaps=$1
sets=$2
work=$3
[ -n "$gaps" ] && [ -n "$sets" ] && [ -n "$work" ] \
    || { echo "usage: test_nonfinite_weights.sh GAPS_BINARY PDFSETS_DIR WORKDIR"; exit 2; }
case $gaps in /*) ;; *) gaps=$(pwd)/$gaps ;; esac
case $sets in /*) ;; *) sets=$(pwd)/$sets ;; esac
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
TMO=${TIMEOUT:-120}
EVENTS=${EVENTS:-40}
export LC_ALL=C KMP_WARNINGS=0
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
extra=""
"$gaps" --version | grep -q "offload backend" && extra="--allow-host"
run() { timeout -k 5 "$TMO" "$gaps" $extra "$@"; }
json() { sed -n "s/^ *\"$2\": \([^,]*\),*\$/\1/p" "$1" | head -1; }
set_name=CT14lo
dat=$sets/$set_name/${set_name}_0000.dat
[ -f "$dat" ] || { bad "no $dat"; exit 1; }

# mutate NAME X_LO X_HI: a copy of the set in NAME/ whose grid values at X_LO <= x <= X_HI
# are 1e300 (the grid: a line of x, one of Q, one of flavours, then one line per (x, Q) with
# x the slower index, between "---" lines).
mutate() {
    mkdir -p "$1/$set_name" && cp "$sets/$set_name/$set_name.info" "$1/$set_name/" || return 1
    awk -v lo="$2" -v hi="$3" '
    /^---/ { sep++; line = 0; print; next }
    sep >= 1 && line == 0 { nx = split($0, xs); line++; print; next }
    sep >= 1 && line == 1 { nq = NF; line++; print; next }
    sep >= 1 && line == 2 { line++; row = 0; print; next }
    sep >= 1 && line >= 3 {
        x = xs[int(row / nq) + 1] + 0; row++
        if (x >= lo && x <= hi) { for (k = 1; k <= NF; ++k) $k = "1e300" }
        print; next }
    { print }' "$dat" >"$1/$set_name/${set_name}_0000.dat"
}
mutate all 0 2 && mutate band 1e-3 5e-2 && mutate shipped 2 3 || { bad "cannot copy the set"; exit 1; }
cmp -s "$dat" shipped/$set_name/${set_name}_0000.dat || { bad "the unchanged copy differs"; exit 1; }
n_big=$(grep -c 1e300 band/$set_name/${set_name}_0000.dat)
[ "$n_big" -gt 0 ] && [ "$n_big" -lt "$(grep -c 1e300 all/$set_name/${set_name}_0000.dat)" ] \
    || { bad "the band copy has $n_big lines of 1e300"; exit 1; }

# the processes with hadron beams: those that take --pdf-path
processes=$(run --process '?' 2>&1 | sed -n 's/.*expected one of //p' | tr -d ',')
hadronic=""
for p in $processes; do
    run -q --process "$p" --pdf-path "$work/shipped" --events 1 --output none >/dev/null 2>&1 \
        && hadronic="$hadronic $p"
done
[ -n "$hadronic" ] || { bad "no process with hadron beams among '$processes'"; exit 1; }
echo "processes with hadron beams:$hadronic"

for p in $hadronic; do
    for nlo in 0 1; do
        # a process without an NLO calculation refuses --nlo 1 (exit 2, naming it): nothing to test
        if [ $nlo = 1 ] && ! run -q --process "$p" --nlo 1 --pdf-path "$work/shipped" --events 1 \
            --output none >/dev/null 2>e.txt; then
            if grep -q "not implemented for --process $p" e.txt; then
                ok "--process $p: no NLO ($(cat e.txt))"; continue
            fi
            bad "--process $p --nlo 1 on the shipped set: $(head -c 300 e.txt)"; continue
        fi
        for v in shipped all band; do
            what="--process $p --nlo $nlo, $v"
            rm -f j.json e.txt
            run -q --process "$p" --nlo $nlo --pdf-path "$work/$v" --pdf $set_name \
                --events "$EVENTS" --output none --json j.json >/dev/null 2>e.txt
            rc=$?
            bw=$(json j.json bad_weights) inv=$(json j.json invalid_events)
            if [ $v = shipped ]; then
                if [ $rc -eq 0 ] && [ "$bw" = 0 ] && [ "$inv" = 0 ]; then ok "$what: exit 0, no bad weight"
                else bad "$what: exit $rc, bad_weights '$bw', invalid_events '$inv': $(head -c 300 e.txt)"
                fi
            elif [ $rc -eq 3 ] && [ -n "$bw" ] && [ "$bw" -gt 0 ] && [ "$inv" = 0 ] \
                && [ "$(wc -l <e.txt)" -eq 1 ] && grep -q "weight" e.txt; then
                ok "$what: exit 3, bad_weights $bw of $EVENTS"
            else
                bad "$what: exit $rc, bad_weights '$bw', invalid_events '$inv': $(head -c 300 e.txt)"
            fi
        done
    done
done
[ $fail -eq 0 ] && echo "non-finite weights: all checks passed"
exit $fail
