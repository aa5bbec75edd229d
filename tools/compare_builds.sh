#!/bin/sh
# compare_builds.sh -- the same events, bit for bit, from two builds of gaps: each run below is
# made by both binaries and its outputs compared with cmp (the events' CSV, HepMC3, YODA, the
# state file; the YODA files may differ only in their Backend and GitRevision lines (the
# build's, not the events'); the JSON summaries are not compared: they hold timings).  Prints a table, exits 1 on any difference.
#
#   sh tools/compare_builds.sh OLD_GAPS NEW_GAPS [PDF_PATH] [EVENTS]
#
# PDF_PATH (default share/pdfsets of this tree) is passed as --pdf-path to both in the runs with
# hadron beams; EVENTS defaults
# to 3000.  Use it after a refactor that must not change physics (doc/design.md).
set -u
old=${1:?usage: compare_builds.sh OLD_GAPS NEW_GAPS [PDF_PATH] [EVENTS]}
new=${2:?usage: compare_builds.sh OLD_GAPS NEW_GAPS [PDF_PATH] [EVENTS]}
here=$(cd "$(dirname "$0")/.." && pwd)
pdfs=${3:-$here/share/pdfsets}
events=${4:-3000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
printf '%-34s %-6s %-6s %-6s %-6s\n' run csv hepmc yoda state
while read -r label args; do
    [ -n "$label" ] || continue
    for side in old new; do
        bin=$old
        [ "$side" = new ] && bin=$new
        d=$work/$label.$side
        mkdir -p "$d"
        case "$args" in *pp-*) pdf_args="--pdf-path $pdfs" ;; *) pdf_args= ;; esac
        # shellcheck disable=SC2086
        if ! "$bin" $args --events "$events" --seed 7 $pdf_args --quiet \
                --observables-out "$d/x.csv" --hepmc "$d/x.hepmc" --output "$d/x.yoda" \
                --json "$d/x.json" --state-out "$d/x.state" >"$d/log" 2>&1; then
            echo "$label: the $side binary failed:"; cat "$d/log"; status=1
        fi
    done
    row=$(printf '%-34s' "$label")
    for f in csv hepmc yoda state; do
        a=$work/$label.old/x.$f
        b=$work/$label.new/x.$f
        if [ "$f" = yoda ]; then
            grep -v -e '^Backend' -e '^GitRevision' "$a" >"$a.cmp" 2>/dev/null
            grep -v -e '^Backend' -e '^GitRevision' "$b" >"$b.cmp" 2>/dev/null
            a=$a.cmp
            b=$b.cmp
        fi
        if [ -s "$a" ] && cmp -s "$a" "$b"; then r=same; else r=DIFF; status=1; fi
        row="$row $(printf '%-6s' $r)"
    done
    echo "$row"
done <<'RUNS'
ee-qq                    --process ee-qq
ee-qq-nlo                --process ee-qq --nlo 1
ee-qq-gaps21             --process ee-qq --compat gaps21
pp-z                     --process pp-z
pp-z-nlo                 --process pp-z --nlo 1
pp-z-gaps21              --process pp-z --compat gaps21
pp-z-nlo-gaps21          --process pp-z --nlo 1 --compat gaps21
pp-ll                    --process pp-ll
pp-ll-nlo                --process pp-ll --nlo 1
pp-w                     --process pp-w
pp-w-nlo                 --process pp-w --nlo 1
pp-h                     --process pp-h
RUNS
[ $status -eq 0 ] && echo "all outputs identical" || echo "DIFFERENCES (see above)"
exit $status
