#!/bin/sh
# The event record's capacity (--max-partons) against what each process's events need
# (gaps_process_min_partons(), gaps/process.h): for every process, order and compat that the
# program lists, the smallest capacity it accepts must run soundly and one less must be
# refused before the run.  A record smaller than a hard event once wrote past the pool's arrays
# (exit 0 with a Z of mass 7e-7 GeV in the HepMC3 file, or a crash): under the sanitizer
# (tests/run_all.sh runs robustness_* there) any such write is an error of its own.
#   at the minimum M: exit 0, invalid_events 0, bad_weights 0, a finite cross section, and a
#     HepMC3 file whose every event balances (the final state against the beams) with finite
#     momenta and a boson of a real mass;
#   at M - 1 (where the range of --max-partons allows it): exit 2, one line naming
#     --max-partons M - 1, the process and "at least M", and no output file;
#   M is what the program says at the range's lower bound, cross-checked where this test knows
#     the process's hard events: the most rows they have, plus one for the first emission.
# Usage: test_record_capacity.sh GAPS_BINARY WORKDIR.  Environment: EVENTS (per run, default
# 20), TIMEOUT (seconds per command, default 120).
gaps=$1
work=$2
[ -n "$gaps" ] && [ -n "$work" ] || { echo "usage: test_record_capacity.sh GAPS_BINARY WORKDIR"; exit 2; }
case $gaps in /*) ;; *) gaps=$(pwd)/$gaps ;; esac
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
TMO=${TIMEOUT:-120}
EVENTS=${EVENTS:-20}
export LC_ALL=C KMP_WARNINGS=0
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
extra=""
"$gaps" --version | grep -q "offload backend" && extra="--allow-host"
run() { timeout -k 5 "$TMO" "$gaps" $extra "$@"; }
json() { sed -n "s/^ *\"$2\": \([^,]*\),*\$/\1/p" "$1" | head -1; }

# The lists come from the program's own refusals, so that a new process is tested too.
list_of() { run "$@" 2>&1 | sed -n 's/.*expected one of //p' | tr -d ','; }
processes=$(list_of --process '?')
compats=$(list_of --compat '?')
nlo_hi=$(run --nlo 99 2>&1 | sed -n 's/.*from 0 to \([0-9]*\).*/\1/p')
mp_lo=$(run --max-partons 0 2>&1 | sed -n 's/.*from \([0-9]*\) to .*/\1/p')
[ -n "$processes" ] && [ -n "$compats" ] && [ -n "$nlo_hi" ] && [ -n "$mp_lo" ] \
    || { bad "cannot read the lists (processes '$processes', compats '$compats', nlo 0..$nlo_hi, max-partons from $mp_lo)"; exit 1; }
echo "processes: $processes; compat: $compats; nlo 0..$nlo_hi; --max-partons from $mp_lo"

# What this test knows independently: the most rows of each process's hard events (LO NLO):
# ee-qq q qbar (+ g), pp-z q qbar Z (+ a parton), pp-ll q qbar l- l+ (+ a parton).
hard_rows() {
    case $1 in ee-qq) echo "2 3" ;; pp-z) echo "3 4" ;; pp-ll) echo "4 5" ;; *) echo "" ;; esac
}

# Every HepMC3 event: finite numbers, the final state (status 1) equal to the beams (status 4)
# within 1e-6 of sqrt(s), and a Z/gamma* (PDG 23) or a decayed boson (status 62) of mass above
# 1 GeV.  A process without NLO (--nlo 1 refused with "not implemented") is tested at LO.
hepmc_sane() {
    awk '
    function fin(x) { return x ~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/ }
    function check() {
        if (!ev) return
        for (m = 0; m < 4; ++m) {
            d = out[m] - beam[m]; if (d < 0) d = -d
            if (!(d <= 1e-6 * (beam[0] > 0 ? beam[0] : 1))) { print "event " ev ": final state " m " off by " d; bad = 1; break }
        }
    }
    $1 == "E" { check(); ev = $2 + 1; for (m = 0; m < 4; ++m) out[m] = beam[m] = 0; next }
    $1 == "P" {
        for (k = 5; k <= 9; ++k) if (!fin($k)) { print "event " ev ": not a number: " $0; bad = 1 }
        if ($10 == 4) { beam[0] += $8; beam[1] += $5; beam[2] += $6; beam[3] += $7 }
        if ($10 == 1) { out[0] += $8; out[1] += $5; out[2] += $6; out[3] += $7 }
        if (($4 == 23 || $10 == 62) && !($9 > 1)) { print "event " ev ": boson of mass " $9; bad = 1 }
    }
    END { check(); if (!ev) { print "no event"; bad = 1 } exit bad }' "$1"
}

for p in $processes; do
    for c in $compats; do
        nlo=0
        while [ $nlo -le "$nlo_hi" ]; do
            what="--process $p --compat $c --nlo $nlo"
            # the minimum as the program states it at the range's lower bound
            rm -f e.txt
            run -q $what --max-partons "$mp_lo" --events 1 --output none >/dev/null 2>e.txt
            rc=$?
            if [ $rc -eq 2 ] && [ $nlo -gt 0 ] \
                && grep -q -- "--nlo $nlo is not implemented for --process $p\$" e.txt; then
                ok "$what refused: the process has no NLO ($(cat e.txt))"
                nlo=$((nlo + 1))
                continue
            fi
            if [ $rc -eq 0 ]; then min=$mp_lo
            else min=$(sed -n 's/.*need at least \([0-9]*\).*/\1/p' e.txt)
                [ $rc -eq 2 ] && [ -n "$min" ] \
                    || { bad "$what --max-partons $mp_lo: exit $rc, no minimum in '$(head -c 200 e.txt)'"; nlo=$((nlo + 1)); continue; }
            fi
            rows=$(hard_rows "$p")
            if [ -n "$rows" ]; then
                set -- $rows
                [ $nlo = 0 ] && want=$(($1 + 1)) || want=$(($2 + 1))
                [ $want -lt "$mp_lo" ] && want=$mp_lo
                [ "$min" = "$want" ] || bad "$what: the program's minimum $min, its hard events need $want"
            fi
            # at the minimum: a sound run and sound output
            rm -f s.yoda s.json s.hepmc e.txt
            run -q $what --max-partons "$min" --events "$EVENTS" -o s.yoda --json s.json \
                --hepmc s.hepmc >/dev/null 2>e.txt
            rc=$?
            inv=$(json s.json invalid_events) bw=$(json s.json bad_weights) sig=$(json s.json sigma_pb)
            if [ $rc -ne 0 ] || [ "$inv" != 0 ] || [ "$bw" != 0 ] || [ -s e.txt ]; then
                bad "$what --max-partons $min: exit $rc, invalid_events '$inv', bad_weights '$bw': $(head -c 300 e.txt)"
            elif ! echo "$sig" | grep -Eq '^-?[0-9.]+([eE][-+]?[0-9]+)?$' || [ "$sig" = 0 ]; then
                bad "$what --max-partons $min: sigma '$sig'"
            elif ! msg=$(hepmc_sane s.hepmc); then
                bad "$what --max-partons $min: HepMC3: $(echo "$msg" | head -3)"
            else
                ok "$what --max-partons $min runs (capacity_hits $(json s.json capacity_hits) of $EVENTS)"
            fi
            # one less: refused before the run, naming the minimum
            if [ "$min" -gt "$mp_lo" ]; then
                less=$((min - 1))
                rm -f s.yoda e.txt
                run -q $what --max-partons $less --events "$EVENTS" -o s.yoda >/dev/null 2>e.txt
                rc=$?
                if [ $rc -eq 2 ] && [ "$(wc -l <e.txt)" -eq 1 ] && [ ! -e s.yoda ] \
                    && grep -q -- "--max-partons $less .*$p.*at least $min" e.txt; then
                    ok "$what --max-partons $less refused: $(cat e.txt)"
                else
                    bad "$what --max-partons $less: exit $rc, '$(head -c 300 e.txt)'"
                fi
            fi
            nlo=$((nlo + 1))
        done
    done
done
[ $fail -eq 0 ] && echo "record capacity: all checks passed"
exit $fail
