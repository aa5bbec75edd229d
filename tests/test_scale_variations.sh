#!/bin/sh
# --vary scales against fixed order (tests/test_scale_variations.c says what is checked): the
# independent integrations' table of the 7-point scale choices (test_pp_w_nlo --scales for
# pp-z and pp-w, test_pp_h_nlo --scales for pp-h), then the generator's hard events against it.
# Usage: test_scale_variations.sh TEST_PP_W_NLO TEST_PP_H_NLO TEST_SCALE_VARIATIONS PDFDIR WORKDIR [N]
set -u
w=$1 h=$2 t=$3 pdf=$4 work=$5 n=${6:-1000000}
rm -rf "$work" && mkdir -p "$work" || exit 1
"$w" "$pdf" --scales >"$work/table" || { echo "FAIL: test_pp_w_nlo --scales"; exit 1; }
"$h" "$pdf" --scales >>"$work/table" || { echo "FAIL: test_pp_h_nlo --scales"; exit 1; }
cat "$work/table"
exec "$t" "$pdf" "$work/table" "$n"
