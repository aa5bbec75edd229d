#!/bin/sh
# The library's writers under a decimal-comma locale (tests/test_locale.c).  The locale
# de_DE.UTF-8 is used where the system has it; otherwise it is made with localedef into the
# work directory (LOCPATH), from the 'locales' package's sources.  Where neither works the test
# is skipped with a notice (exit 77), or fails with GAPS_STRICT=1 (CI).
# Usage: test_locale.sh TEST_LOCALE_BINARY WORKDIR
bin=$1
work=$2
rm -rf "$work" && mkdir -p "$work" || exit 1
loc=de_DE.UTF-8
if ! locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\{0,1\}8$'; then
    if localedef -i de_DE -f UTF-8 "$work/de_DE.UTF-8" >"$work/localedef.log" 2>&1 \
        && [ -d "$work/de_DE.UTF-8" ]; then
        export LOCPATH="$work"
        echo "made $loc with localedef in $work"
    else
        echo "skip: no $loc locale here, and localedef cannot make one ($(tail -n 1 "$work/localedef.log"));" \
             "install the 'locales' package (bash tools/install-deps.sh)"
        [ "$GAPS_STRICT" = 1 ] && { echo "FAIL: GAPS_STRICT=1: the locale test must run"; exit 1; }
        exit 77
    fi
fi
LC_ALL=$loc "$bin"
rc=$?
[ $rc -eq 77 ] && [ "$GAPS_STRICT" = 1 ] && { echo "FAIL: GAPS_STRICT=1: the locale test must run"; exit 1; }
exit $rc
