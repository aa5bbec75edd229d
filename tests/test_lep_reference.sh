#!/bin/sh
# The e+ e- shower against GAPS 2.1's own output (doc/validation-lep.md): N ee-qq events with
# --compat gaps21, at LO and with --nlo 1, compared bin by bin, as unit-area shapes with
# under- and overflow, with tests/data/gaps21-lep-lo-1e6.yoda and gaps21-lep-nlo-1e6.yoda
# (GAPS 2.1's GPU program, 10^6 events each on an H200) by tools/yoda-chi2.  --compat gaps21
# gives ee-qq GAPS 2.1's LEP histograms (/gaps_lep/..., src/analysis/lep_gaps21.c).  Pass:
# chi^2/ndf of all histograms together below MAX_TOTAL and no histogram with a p-value below
# MIN_P.
# Negative controls, which must FAIL the same criterion with the same number of events:
#   - the default physics (alpha_s with flavour thresholds; at NLO also the default S/H choice
#     and H-event start scale) through GAPS 2.1's histograms (tools/lep_reanalyse.c);
#   - --compat gaps21 with alpha_s(M_Z) = 0.119 instead of 0.118.
# Measured with N = 10^5 and seeds 5 to 10 (doc/validation-lep.md): compat gives chi^2/ndf
# 0.92 to 1.10 (LO) and 0.92 to 1.11 (NLO) over about 800 bins (smallest p-value of a
# histogram 0.002); the default physics 2.8 to 3.5, alpha_s(M_Z) = 0.119 1.50 and 1.75.  The
# threshold 1.25 is 4 to 5 standard deviations (0.05) above the compat mean and below the
# closest control.
# Also: tools/lep_reanalyse with --compat gaps21 writes the very file of gaps --compat gaps21
# (apart from the GitRevision line), so that the default-physics control uses the analysis
# the program uses; and two merged state files of such runs give the whole run's histograms.
# Usage: test_lep_reference.sh GAPS_BINARY LEP_REANALYSE_BINARY WORKDIR [PYTHON]
# Exits 77 (SKIPPED) without numpy, unless GAPS_STRICT=1.
gaps=$1
reanalyse=$2
work=$3
python=${4:-python3}
src="$(cd "$(dirname "$0")/.." && pwd)"
chi2="$src/tools/yoda-chi2"
[ -n "$gaps" ] && [ -n "$reanalyse" ] && [ -n "$work" ] || {
    echo "usage: test_lep_reference.sh GAPS_BINARY LEP_REANALYSE_BINARY WORKDIR [PYTHON]"; exit 2; }

if ! missing=$("$python" -c "import numpy" 2>&1); then
    why=$(printf '%s\n' "$missing" | tail -n 1)
    if [ "${GAPS_STRICT:-0}" = 1 ]; then
        echo "FAIL: GAPS_STRICT=1 but numpy is missing ($why)"
        exit 1
    fi
    echo "SKIPPED: numpy missing ($why)"
    exit 77
fi

rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
export KMP_WARNINGS=0
N=100000
SEED=5
MAX_TOTAL=1.25
MIN_P=1e-4
extra=""
"$gaps" --version | grep -q "offload backend" && extra="--allow-host"
fail=0
crit="--max-total-chi2ndf $MAX_TOTAL --min-pvalue $MIN_P"

# must agree: $1 = label, $2 = file, $3 = lo|nlo
agree() {
    "$python" "$chi2" "$2" "$src/tests/data/gaps21-lep-$3-1e6.yoda" $crit >"$2.txt" 2>&1
    rc=$?
    cat "$2.txt"
    if [ $rc = 0 ]; then
        echo "ok: $1 agrees with GAPS 2.1 ($(grep '^all ' "$2.txt"))"
    else
        echo "FAIL: $1 disagrees with GAPS 2.1 (yoda-chi2 exit $rc)"; fail=1
    fi
}
# must be told apart: the same, exit 1 expected
differ() {
    "$python" "$chi2" "$2" "$src/tests/data/gaps21-lep-$3-1e6.yoda" $crit >"$2.txt" 2>&1
    rc=$?
    if [ $rc = 1 ]; then
        echo "ok: negative control: $1 is told apart from GAPS 2.1 ($(grep '^all ' "$2.txt"))"
    else
        cat "$2.txt"
        echo "FAIL: negative control: $1 not rejected (yoda-chi2 exit $rc; 1 expected)"; fail=1
    fi
}

"$gaps" $extra --compat gaps21 --events $N --seed $SEED --quiet --output compat-lo.yoda \
    || { echo "FAIL: gaps --compat gaps21 run"; exit 1; }
grep -q '^BEGIN YODA_HISTO1D_V2 /gaps_lep/tzoomd$' compat-lo.yoda \
    || { echo "FAIL: --compat gaps21 --process ee-qq did not write GAPS 2.1's LEP histograms"; exit 1; }
agree "--compat gaps21, LO, $N events" compat-lo.yoda lo
"$gaps" $extra --compat gaps21 --nlo 1 --events $N --seed $SEED --quiet --output compat-nlo.yoda \
    || { echo "FAIL: gaps --compat gaps21 --nlo 1 run"; exit 1; }
agree "--compat gaps21 --nlo 1, $N events" compat-nlo.yoda nlo

# the tool of the first control computes what gaps computes
"$reanalyse" --compat gaps21 --events 20000 --seed $SEED --output tool.yoda 2>/dev/null \
    || { echo "FAIL: lep_reanalyse run"; exit 1; }
"$gaps" $extra --compat gaps21 --events 20000 --seed $SEED --quiet --output prog.yoda \
    || { echo "FAIL: gaps run"; exit 1; }
grep -v '^GitRevision' tool.yoda >tool.nogit
grep -v '^GitRevision' prog.yoda >prog.nogit
if cmp -s tool.nogit prog.nogit; then
    echo "ok: lep_reanalyse --compat gaps21 writes gaps's file"
else
    echo "FAIL: lep_reanalyse --compat gaps21 and gaps --compat gaps21 differ"; fail=1
fi

# states of this analysis: a run split in two and merged gives the whole run's histograms
"$gaps" $extra --compat gaps21 --nlo 1 --events 10000 --seed $SEED --quiet --output none \
    --state-out part1.state && "$gaps" $extra --compat gaps21 --nlo 1 --events 10000 \
    --first-event 10000 --seed $SEED --quiet --output none --state-out part2.state \
    && "$gaps" $extra --compat gaps21 --nlo 1 --events 20000 --seed $SEED --quiet \
    --output whole.yoda && "$gaps" merge -o merged.yoda part1.state part2.state 2>/dev/null \
    || { echo "FAIL: split and merged --compat gaps21 --nlo 1 runs"; exit 1; }
grep -v '^GitRevision\|^Backend' merged.yoda >merged.nogit
if grep -v '^GitRevision\|^Backend' whole.yoda | cmp -s - merged.nogit; then
    echo "ok: two merged states of GAPS 2.1's LEP histograms equal the whole run"
else
    echo "FAIL: merged states differ from the whole run"; fail=1
fi

"$reanalyse" --events $N --seed $SEED --output default-lo.yoda 2>/dev/null \
    || { echo "FAIL: lep_reanalyse default run"; exit 1; }
differ "the default physics, LO" default-lo.yoda lo
"$reanalyse" --nlo 1 --events $N --seed $SEED --output default-nlo.yoda 2>/dev/null \
    || { echo "FAIL: lep_reanalyse default NLO run"; exit 1; }
differ "the default physics, NLO" default-nlo.yoda nlo
"$gaps" $extra --compat gaps21 --alphas-mz 0.119 --events $N --seed $SEED --quiet \
    --output alphas.yoda || { echo "FAIL: gaps --alphas-mz 0.119 run"; exit 1; }
differ "--compat gaps21 with alpha_s(M_Z) = 0.119" alphas.yoda lo
exit $fail
