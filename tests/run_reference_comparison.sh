#!/bin/sh
# Run the production generator and the independent reference shower on independent seeds and
# compare their histograms statistically (tests/compare_yoda.py).
# Usage: run_reference_comparison.sh GAPS_BINARY REFERENCE_BINARY WORK_DIR COMPARE_SCRIPT [PYTHON]
set -eu
gaps=$1
ref=$2
work=$3
compare=$4
python=${5:-python3}
mkdir -p "$work"
cd "$work"
# Different seeds: the comparison must be between statistically independent samples.
"$gaps" --events 200000 --seed 1001 --output A.yoda --quiet
"$ref" --events 200000 --seed 2002 --output B.yoda
"$python" "$compare" A.yoda B.yoda --max-chi2ndf 1.5
