#!/bin/sh
# --vary scales and --vary pdf against fixed order (tests/test_scale_variations.c says what is
# checked): the independent integrations' table of the 7-point scale choices (test_pp_w_nlo
# --scales for pp-z and pp-w, test_pp_h_nlo --scales for pp-h), then the generator's hard
# events against it; then a five-member set made from CT14lo (tests/make_pdf_members.py), the
# integrations' cross sections of each member (test_pp_w_nlo --member) and the generator's
# --vary pdf weights against them.
# Usage: test_scale_variations.sh TEST_PP_W_NLO TEST_PP_H_NLO TEST_SCALE_VARIATIONS PDFDIR WORKDIR [N]
set -u
w=$1 h=$2 t=$3 pdf=$4 work=$5 n=${6:-1000000}
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work" || exit 1
"$w" "$pdf" --scales >"$work/table" || { echo "FAIL: test_pp_w_nlo --scales"; exit 1; }
"$h" "$pdf" --scales >>"$work/table" || { echo "FAIL: test_pp_h_nlo --scales"; exit 1; }
cat "$work/table"
"$t" "$pdf" "$work/table" "$n" || { echo "FAIL: --vary scales against fixed order"; exit 1; }
python3 "$here/make_pdf_members.py" "$pdf/CT14lo" TSET "$work/sets" \
    || { echo "FAIL: make_pdf_members.py"; exit 1; }
for m in 0 1 2 3 4; do
    "$w" "$work/sets" --member TSET/$m >>"$work/members" \
        || { echo "FAIL: test_pp_w_nlo --member TSET/$m"; exit 1; }
done
cat "$work/members"
exec "$t" "$pdf" "$work/members" "$n" "$work/sets" TSET
