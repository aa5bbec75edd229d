#!/bin/sh
# PDF sets that are not what their name says, and inputs that are not files (doc/formats.md
# "PDF digest", doc/physics.md "Parton distributions"):
#   - two sets of one name with other values (generated: a grid value one ulp off at a random
#     place, a knot, ForcePositive, a mass of the metadata): their digests differ and appear
#     in YODA, JSON and HepMC3; `gaps merge` of their states and a --resume of a checkpoint
#     across them are refused (exit 2, one line naming both files); metadata that cannot change
#     a result (SetIndex, NumMembers, SetDesc) keeps the digest, and such states merge;
#   - a FIFO (and a device) in place of every input file: a set's .info and .dat, a run card,
#     a state to merge, a checkpoint to resume, a streamed output's FILE.part: exit 2 with one
#     line, never a hang (every command runs under `timeout`);
#   - nonsense sets: no gluon, a light flavour or the whole grid zero, a hadron run without a
#     quark it needs, negative densities at LO (ForcePositive 0: the run fails, no output),
#     values whose extrapolation overflows (`gaps pdf` never prints inf/nan with status 0), a
#     --pdf-path that does not exist;
#   - one limit of the search path for runs and `gaps pdf`; a set not found names the
#     directories searched that exist and the sets in them.
# With MPIEXEC (a build with -DGAPS_MPI=ON): two ranks that find different grids of one name
# are refused.
# Usage: test_pdf_robustness.sh GAPS_BINARY GAPS_HOOKS_BINARY PDFSETS WORKDIR [MPIEXEC]
# Environment: SEED (the random places; default from the clock, printed first).
gaps=$1
hooks=$2
sets=$3
work=$4
mpiexec=$5
[ -n "$work" ] || { echo "usage: test_pdf_robustness.sh GAPS HOOKS PDFSETS WORKDIR [MPIEXEC]"; exit 2; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
work=$(pwd)
SEED=${SEED:-$(date +%s)}
echo "SEED=$SEED"
export KMP_WARNINGS=0 LC_ALL=C
unset LHAPDF_DATA_PATH
TMO=60
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
extra=""
"$gaps" --version | grep -q "offload backend" && extra="--allow-host"
RUN="--process pp-z --pdf CTX --events 200 --quiet"

# expect STATUS WORDS -- COMMAND...: the command's exit status is STATUS; with STATUS != 0 its
# standard error is one line "gaps: ..." containing every word of WORDS ('|' separates them)
expect() {
    want=$1; words=$2; shift 3
    timeout "$TMO" "$@" >out.txt 2>err.txt </dev/null
    rc=$?
    if [ $rc -ne "$want" ]; then
        echo "  exit $rc, expected $want: $* : $(head -c 600 err.txt)"
        return 1
    fi
    [ "$want" -eq 0 ] && return 0
    if [ "$(wc -l <err.txt)" -ne 1 ] || ! grep -q '^gaps: ' err.txt; then
        echo "  not one line 'gaps: ...': $(head -c 600 err.txt)"
        return 1
    fi
    old_ifs=$IFS; IFS='|'
    for w in $words; do
        grep -qF -- "$w" err.txt || { IFS=$old_ifs; echo "  message lacks '$w': $(cat err.txt)"; return 1; }
    done
    IFS=$old_ifs
    return 0
}

# ---- the sets: CTX = a copy of the shipped set, and variants of it ----
[ -f "$sets/CT14lo/CT14lo_0000.dat" ] || { echo "FAIL: no CT14lo in $sets"; exit 1; }
# make_set DIR [PYTHON_EDIT]: DIR/CTX from CT14lo, then the edit (python code with `info` and
# `dat` as lists of lines, `rng` a random generator from SEED)
make_set() {
    mkdir -p "$1/CTX"
    python3 - "$sets/CT14lo" "$1/CTX" "$SEED" "${2:-pass}" <<'EOF'
import random, sys
src, dst, seed, edit = sys.argv[1:5]
info = open(src + "/CT14lo.info").read().split("\n")
dat = open(src + "/CT14lo_0000.dat").read().split("\n")
rng = random.Random(seed + dst)
head = dat.index("---")                     # the first block's x, Q, flavour lines follow
flav = dat[head + 3].split()
nq = len(dat[head + 2].split())
def values():                               # indices of the value lines of every block
    i = head + 1
    out = []
    while i + 3 < len(dat) and dat[i] and dat[i] != "---":
        j = i + 3
        while dat[j] != "---":
            out.append(j); j += 1
        i = j + 1
    return out
def set_value(line, col, v):
    p = dat[line].split(); p[col] = v; dat[line] = " " + " ".join(p)
def ulp_up(s):
    import struct
    b = struct.unpack("<q", struct.pack("<d", float(s)))[0]
    return repr(struct.unpack("<d", struct.pack("<q", b + 1))[0])
exec(edit)
open(dst + "/CTX.info", "w").write("\n".join(info))
open(dst + "/CTX_0000.dat", "w").write("\n".join(dat))
EOF
}
make_set base
cat >variants.txt <<'EOF'
value|v = rng.choice(values()); c = rng.randrange(len(flav)); p = dat[v].split(); set_value(v, c, ulp_up(p[c]))
value2|v = rng.choice(values()); c = rng.randrange(len(flav)); p = dat[v].split(); set_value(v, c, repr(float(p[c]) * 1.5 + 1e-3))
knot|p = dat[head + 2].split(); k = rng.randrange(1, len(p) - 1); p[k] = ulp_up(p[k]); dat[head + 2] = " ".join(p)
forcepositive|info = [l.replace("ForcePositive: 1", "ForcePositive: 2") for l in info]
mcharm|info = [l if not l.startswith("MCharm") else "MCharm: 1.5" for l in info]
EOF
# the same values: bookkeeping keys and the description may differ
make_set same 'info = [l if not l.startswith(("SetIndex", "SetDesc")) else l.split(":")[0] + ": 12345" for l in info]'
n=0
while IFS='|' read -r name edit; do
    make_set "v_$name" "$edit"
    n=$((n + 1))
done <variants.txt
ok "$n variants of CTX generated (and one with other bookkeeping keys)"

# ---- digests: in every output, equal exactly when the values are ----
digest_of() { sed -n 's/^PDFDigest: //p' "$1"; }
LHAPDF_DATA_PATH=$work/base expect 0 "" -- "$gaps" $extra $RUN -o base.yoda --json base.json \
    --hepmc base.hepmc --state-out base.state || bad "the base run"
d0=$(digest_of base.yoda)
if [ -n "$d0" ] && grep -q "\"pdf_digest\": \"$d0\"" base.json \
   && grep -q "^A pdf_digest $d0\$" base.hepmc; then
    ok "digest $d0 in YODA, JSON and HepMC3"
else
    bad "digest '$d0' not in every output"
fi
"$gaps" $extra --quiet --events 100 -o ee.yoda --json ee.json || bad "ee-qq run"
grep -q '"pdf_digest": ""' ee.json && ! grep -q PDFDigest ee.yoda \
    && ok "ee-qq: no digest (\"\" in JSON)" || bad "ee-qq digest"
LHAPDF_DATA_PATH=$work/same expect 0 "" -- "$gaps" $extra $RUN --first-event 200 -o same.yoda \
    --state-out same.state || bad "run with the bookkeeping variant"
[ "$(digest_of same.yoda)" = "$d0" ] && expect 0 "" -- "$gaps" merge -q base.state same.state \
    -o m.yoda && ok "bookkeeping keys keep the digest; the states merge" \
    || bad "bookkeeping keys changed the digest or the merge"
rm -f m.yoda

# a checkpoint of the base set with events in it, made deterministically: the test build stops
# the run (SIGKILL) right after its second checkpoint (src/program/testhook.h)
LHAPDF_DATA_PATH=$work/base GAPS_TEST_HOOK_CHECKPOINT='[ -f ck1 ] && kill -KILL $PPID; touch ck1' \
    timeout "$TMO" "$hooks" $extra --process pp-z --pdf CTX --events 400 --quiet -o r.yoda \
    --checkpoint ck --checkpoint-every 100 >/dev/null 2>&1
[ -f ck ] && [ ! -f r.yoda ] && cp ck ck.saved && ok "a checkpoint after 100 events" \
    || bad "no checkpoint from the stopped run"

while IFS='|' read -r name edit; do
    LHAPDF_DATA_PATH=$work/v_$name expect 0 "" -- "$gaps" $extra $RUN --first-event 200 \
        -o v.yoda --state-out "v_$name.state" || { bad "$name: the run"; continue; }
    d=$(digest_of v.yoda)
    [ -n "$d" ] && [ "$d" != "$d0" ] || bad "$name: digest '$d' (base $d0)"
    expect 2 "base.state|v_$name.state|$d0|$d" -- "$gaps" merge -q base.state "v_$name.state" \
        -o m.yoda || bad "$name: merge across two grids of one name"
    [ ! -e m.yoda ] || { bad "$name: merge wrote its output"; rm -f m.yoda; }
    cp ck.saved ck
    LHAPDF_DATA_PATH=$work/v_$name expect 2 "ck|v_$name/CTX/CTX_0000.dat|$d0|$d" -- "$gaps" \
        $extra --process pp-z --pdf CTX --events 400 --quiet -o r.yoda --checkpoint ck \
        --checkpoint-every 100 --resume ck || bad "$name: resume across two grids of one name"
    cmp -s ck ck.saved && [ ! -e r.yoda ] || bad "$name: the refused resume changed files"
done <variants.txt
ok "merge and resume refused for every variant (when no FAIL above)"
# the same grid resumes, and gives the bytes of a run never stopped
LHAPDF_DATA_PATH=$work/base expect 0 "" -- "$gaps" $extra --process pp-z --pdf CTX \
    --events 400 --quiet -o r.yoda --checkpoint ck --checkpoint-every 100 --resume ck \
    && LHAPDF_DATA_PATH=$work/base "$gaps" $extra --process pp-z --pdf CTX --events 400 \
        --quiet -o whole.yoda && cmp -s r.yoda whole.yoda \
    && ok "the same grid resumes to the bytes of one run" || bad "resume with the same grid"

# ---- inputs that are not regular files ----
fail_before=$fail
fail=0
mkfifo fifo
n=0
for kind in fifo /dev/null; do
    case $kind in fifo) what="FIFO" ;; *) what="character device" ;; esac
    for file in info dat; do
        make_set "in_$file"
        rm -f "in_$file/CTX/CTX_0000.$file" "in_$file/CTX/CTX.$file"
        target=$work/fifo; [ $kind = fifo ] || target=$kind
        [ $file = info ] && ln -s "$target" "in_$file/CTX/CTX.info" \
                         || ln -s "$target" "in_$file/CTX/CTX_0000.dat"
        LHAPDF_DATA_PATH=$work/in_$file expect 2 "$what" -- "$gaps" pdf --pdf CTX 0.1 10 \
            && LHAPDF_DATA_PATH=$work/in_$file expect 2 "$what" -- "$gaps" $extra $RUN -o x.yoda \
            && n=$((n + 2)) || bad "$what as the set's .$file"
        rm -rf "in_$file"
    done
    expect 2 "$what" -- "$gaps" $extra --card "$kind" -o x.yoda && n=$((n + 1)) \
        || bad "$what as a run card"
    expect 2 "$what" -- "$gaps" merge -q base.state "$kind" -o x.yoda && n=$((n + 1)) \
        || bad "$what as a state to merge"
    LHAPDF_DATA_PATH=$work/base expect 2 "$what" -- "$gaps" $extra $RUN --resume "$kind" \
        -o x.yoda && n=$((n + 1)) || bad "$what as a checkpoint to resume"
done
# a streamed output's FILE.part in place of the one the checkpoint names
LHAPDF_DATA_PATH=$work/base GAPS_TEST_HOOK_CHECKPOINT='[ -f cs1 ] && kill -KILL $PPID; touch cs1' \
    timeout "$TMO" "$hooks" $extra --process pp-z --pdf CTX --events 400 --quiet -o s.yoda \
    --hepmc s.hepmc --checkpoint cks --checkpoint-every 100 >/dev/null 2>&1
if [ -f cks ] && [ -f s.hepmc.part ]; then
    rm -f s.hepmc.part && mkfifo s.hepmc.part
    LHAPDF_DATA_PATH=$work/base expect 2 "FIFO|s.hepmc.part" -- "$gaps" $extra --process pp-z \
        --pdf CTX --events 400 --quiet -o s.yoda --hepmc s.hepmc --checkpoint cks \
        --checkpoint-every 100 --resume cks && n=$((n + 1)) || bad "a FIFO as FILE.part"
else
    bad "no checkpoint with a HepMC3 stream"
fi
[ $fail = 0 ] && ok "$n commands given a FIFO or a device as input: exit 2, one line, no hang"
fail=$((fail | fail_before))

# ---- nonsense sets ----
cat >nonsense.txt <<'EOF'
no gluon|2|gluon|info = [l.replace(", 21]", ", 22]") for l in info]; dat = [l.replace(" 5 21", " 5 22") for l in dat]
all zero|2|zero at every knot|[set_value(v, c, "0") for v in values() for c in range(len(flav))]
gluon zero|2|flavour 21 is zero|[set_value(v, flav.index("21"), "0") for v in values()]
u zero|2|flavour 2 is zero|[set_value(v, flav.index("2"), "0") for v in values()]
dbar zero|2|flavour -1 is zero|[set_value(v, flav.index("-1"), "-0") for v in values()]
EOF
while IFS='|' read -r name want words edit; do
    make_set bad "$edit"
    LHAPDF_DATA_PATH=$work/bad expect "$want" "$words" -- "$gaps" pdf --pdf CTX 0.1 10 \
        && LHAPDF_DATA_PATH=$work/bad expect "$want" "$words" -- "$gaps" $extra $RUN -o x.yoda \
        && [ ! -e x.yoda ] && ok "$name: refused by gaps pdf and a run" || bad "$name"
    rm -rf bad
done <nonsense.txt
# a set without the b quark: gaps pdf reads it, a hadron run needs it
make_set nob 'info = [l.replace("[-5, ", "[") for l in info]; dat = [l.replace("-5 -4", "-4", 1) if l.strip().startswith("-5 -4") else l for l in dat]; [dat.__setitem__(v, " " + " ".join(dat[v].split()[1:])) for v in values()]'
LHAPDF_DATA_PATH=$work/nob expect 0 "" -- "$gaps" pdf --pdf CTX 0.1 10 \
    && LHAPDF_DATA_PATH=$work/nob expect 2 "no flavour -5" -- "$gaps" $extra $RUN -o x.yoda \
    && ok "a set without the b antiquark: read by gaps pdf, refused by a run" \
    || bad "set without -5"
# negative antiquarks: used as they are with ForcePositive 0 (the LO run fails), clamped with 1
for fp in 0 1; do
    make_set "neg$fp" "info = [l.replace('ForcePositive: 1', 'ForcePositive: $fp') for l in info]
for v in values():
    p = dat[v].split()
    dat[v] = ' ' + ' '.join(('-' + t if int(flav[k]) < 0 and not t.startswith('-') and float(t) != 0 else t) for k, t in enumerate(p))"
done
LHAPDF_DATA_PATH=$work/neg0 expect 2 "negative weight|leading-order|neg0/CTX/CTX_0000.dat" -- \
    "$gaps" $extra $RUN -o x.yoda --json x.json && [ ! -e x.yoda ] && [ ! -e x.json ] \
    && ok "negative densities, ForcePositive 0: the LO run fails, nothing written" \
    || bad "negative densities at LO"
LHAPDF_DATA_PATH=$work/neg1 expect 0 "" -- "$gaps" $extra $RUN -o x.yoda \
    && ok "negative densities, ForcePositive 1: clamped, the run goes" || bad "ForcePositive 1"
rm -f x.yoda
# values whose power law below x_min overflows: a tiny value at the second x knot, for a
# random flavour and Q knot each time
i=0
while [ $i -lt 4 ]; do
    make_set "tiny$i" "c = rng.randrange(len(flav)); q = rng.randrange(nq); set_value(head + 4 + nq + q, c, '1.2e-37')"
    LHAPDF_DATA_PATH=$work/tiny$i timeout "$TMO" "$gaps" pdf --pdf CTX 1e-10 1 >out.txt 2>err.txt
    rc=$?
    if grep -Eqi 'inf|nan' out.txt && [ $rc -eq 0 ]; then bad "tiny$i: gaps pdf printed inf/nan with exit 0"
    elif [ $rc -ne 0 ] && [ $rc -ne 2 ]; then bad "tiny$i: exit $rc"
    elif [ $rc -eq 2 ] && ! grep -q "not finite" err.txt; then bad "tiny$i: $(cat err.txt)"
    fi
    for q in 1e-9 1e-10 1e-12 1e-15; do
        LHAPDF_DATA_PATH=$work/tiny$i timeout "$TMO" "$gaps" pdf --pdf CTX "$q" 1.3 >out.txt 2>/dev/null
        rc=$?
        [ $rc -eq 0 ] && grep -Eqi 'inf|nan' out.txt && bad "tiny$i: x=$q printed inf/nan with exit 0"
        [ $rc -eq 0 ] || [ $rc -eq 2 ] || bad "tiny$i: x=$q exit $rc"
    done
    i=$((i + 1))
done
ok "gaps pdf never printed inf or nan with exit 0 (4 sets x 5 points)"
# --pdf-path that does not exist, is a file, or has one bad entry among good ones
for p in /nonexistent "$work/base.yoda" "$work/base:/nonexistent/x"; do
    expect 2 "--pdf-path" -- "$gaps" pdf --pdf-path "$p" --pdf CTX 0.1 10 \
        && LHAPDF_DATA_PATH=$work/base expect 2 "--pdf-path" -- "$gaps" $extra $RUN \
            --pdf-path "$p" -o x.yoda || bad "--pdf-path $p accepted"
done
ok "--pdf-path that is no directory: exit 2 (run and gaps pdf)"

# ---- one limit of the search path; what a set not found says ----
long40=$(python3 -c 'import sys; print(":".join([sys.argv[1]] * (40000 // (len(sys.argv[1]) + 1))))' "$work/base")
long70=$(python3 -c 'import sys; print(":".join([sys.argv[1]] * (70000 // (len(sys.argv[1]) + 1))))' "$work/base")
LHAPDF_DATA_PATH=$long40 expect 0 "" -- "$gaps" pdf --pdf CTX 0.1 10 \
    && LHAPDF_DATA_PATH=$long40 expect 0 "" -- "$gaps" $extra $RUN -o x.yoda \
    && ok "a 40 KB LHAPDF_DATA_PATH: both take it" || bad "40 KB search path"
LHAPDF_DATA_PATH=$long70 expect 2 "longer than 65535 bytes" -- "$gaps" pdf --pdf CTX 0.1 10 \
    && LHAPDF_DATA_PATH=$long70 expect 2 "longer than 65535 bytes" -- "$gaps" $extra $RUN -o x.yoda \
    && ok "a 70 KB LHAPDF_DATA_PATH: both refuse it" || bad "70 KB search path"
LHAPDF_DATA_PATH=/no/such/dir:$work/base:$work/v_value expect 2 \
    "'NOPE' not found|$work/base (sets: CTX)|$work/v_value (sets: CTX)|not exist" -- \
    "$gaps" pdf --pdf NOPE 0.1 10 && ! grep -q /no/such/dir err.txt \
    && ok "a set not found: the existing directories and their sets, not the missing one" \
    || bad "not-found message: $(cat err.txt)"

# ---- MPI: ranks that find different grids of one name ----
if [ -n "$mpiexec" ]; then
    flags=""
    if "$mpiexec" --version 2>&1 | grep -Eq "Open MPI|OpenRTE"; then
        flags="--oversubscribe --bind-to none"
        [ "$(id -u)" -eq 0 ] && flags="$flags --allow-run-as-root"
    fi
    # (the launcher adds lines of its own about the failed job: only gaps's are counted)
    # shellcheck disable=SC2086
    timeout "$TMO" "$mpiexec" $flags -np 1 env LHAPDF_DATA_PATH="$work/base" "$gaps" $extra \
        $RUN --threads 1 -o mpi.yoda : -np 1 env LHAPDF_DATA_PATH="$work/v_value" "$gaps" \
        $extra $RUN --threads 1 -o mpi.yoda >out.txt 2>err.txt </dev/null
    rc=$?
    if [ $rc -eq 2 ] && [ "$(grep -c '^gaps: ' err.txt)" -eq 1 ] \
       && grep '^gaps: ' err.txt | grep -qF "rank 0 $work/base/CTX/CTX_0000.dat" \
       && grep '^gaps: ' err.txt | grep -qF "rank 1 $work/v_value/CTX/CTX_0000.dat" \
       && [ ! -e mpi.yoda ]; then
        ok "MPI: two ranks with different grids of one name refused"
    else
        bad "MPI ranks with different grids: exit $rc: $(head -c 800 err.txt)"
    fi
    # shellcheck disable=SC2086
    expect 0 "" -- "$mpiexec" $flags -np 1 env LHAPDF_DATA_PATH="$work/base" "$gaps" $extra \
        $RUN --threads 1 -o mpi.yoda : -np 1 env LHAPDF_DATA_PATH="$work/same" "$gaps" $extra \
        $RUN --threads 1 -o mpi.yoda && cmp -s mpi.yoda base.yoda \
        && ok "MPI: the same grid in two places: the bytes of one process" || bad "MPI same grid"
fi

[ $fail = 0 ] && echo "all PDF robustness checks passed" || echo "SOME PDF ROBUSTNESS CHECKS FAILED"
exit $fail
