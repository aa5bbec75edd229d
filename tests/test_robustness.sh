#!/bin/sh
# Hostile input and faults: whatever the user types or the system does, gaps must not crash,
# hang, or clobber a file.  Each class is tried with several generated values (boundaries
# computed from the program's own limits and messages, random values from a printed seed);
# every command runs under `timeout`, so a hang is a failure; and each check looks at
#   - the exit status (0 success, 1 run failed, 2 bad input, 3 events failed the built-in
#     checks, 128 + signal),
#   - standard error: exactly one line, "gaps: ...", naming the problem,
#   - the watched directory: the same entries with the same type, mode, size, inode and
#     change time before and after a command that fails (no stray temporary file, no
#     pre-existing file changed or replaced: the kernel sets the change time on any write,
#     and a replaced file has a new inode); the checksums of the files that each group
#     prepares are compared at the end of the group as well.
# Usage: test_robustness.sh GAPS_BINARY WORKDIR
# Environment: SEED (random values; default from the clock, printed first), TIMEOUT (seconds
# per command, default 60).  Needs python3, timeout, find, sha256sum, mkfifo; chattr, mount,
# /usr/bin/time and `ulimit -v` are used where they work, otherwise that check says "skip:".
gaps=$1
work=$2
[ -n "$gaps" ] && [ -n "$work" ] || { echo "usage: test_robustness.sh GAPS_BINARY WORKDIR"; exit 2; }
case $gaps in /*) ;; *) gaps=$(pwd)/$gaps ;; esac
here=$(cd "$(dirname "$0")" && pwd)
values="python3 $here/robustness/values.py"
rm -rf "$work" && mkdir -p "$work/sb" "$work/tmp" || exit 1
work=$(cd "$work" && pwd)
sb=$work/sb     # where gaps runs and writes: watched by snap()
tmp=$work/tmp   # captured output and reference files: not watched
TMO=${TIMEOUT:-60}
SEED=${SEED:-$(date +%s)}
echo "SEED=$SEED (SEED=$SEED sh $0 ... repeats these random values)"
export KMP_WARNINGS=0 LC_ALL=C
ulimit -c 0   # SIGQUIT must not leave a core file behind
fail=0
ok() { echo "ok: $*"; }
n_bad=0
bad() { echo "FAIL: $*"; fail=1; n_bad=$((n_bad + 1)); }
skip() { echo "skip: $*"; }
for tool in python3 timeout find sha256sum mkfifo; do
    command -v $tool >/dev/null 2>&1 || { echo "FAIL: $tool is needed"; exit 1; }
done

extra=""
"$gaps" --version | grep -q "offload backend" && extra="--allow-host"
openmp=0
"$gaps" --version | grep -q "openmp backend" && openmp=1
# A sanitized build cannot run under `ulimit -v`, and its memory use says nothing about ours.
sanitized=0
ASAN_OPTIONS=help=1 "$gaps" --version 2>&1 | grep -q "AddressSanitizer" && sanitized=1
[ $sanitized = 1 ] && echo "(sanitized build: the memory-size checks are skipped)"
# A huge request must come back as NULL under the sanitizer too, as it does without it.
export ASAN_OPTIONS="allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
nl='
'

# ---- helpers ----
# The watched directory: every entry with its type, mode, size, inode, change time (ns) and
# link target.  Cheap enough to take twice around each of several hundred commands.
snap() { find "$sb" -mindepth 1 -printf '%P %y %m %s %i %C@ %l\n' | sort; }
# Checksums of the regular files (FIFOs and devices are never opened), for a group's end.
sums() { (cd "$sb" && find . -type f -exec sha256sum {} + | sort -k2); }
same_sums() {   # same_sums BEFORE WHAT: the files still have the checksums BEFORE
    if [ "$(sums)" = "$1" ]; then n_ok=$((n_ok + 1)); else bad "$2: checksums changed"; fi
}
show() { printf '%s ' "$@" | tr -c '[:print:]' '?' | cut -c1-150; }

# Checks of a group are counted: a "FAIL:" line for each failure, then one line for the group.
n_ok=0
t_start=$(date +%s)
group_ok() {
    if [ $n_bad -eq 0 ]; then ok "$* ($n_ok checks, $(($(date +%s) - t_start)) s so far)"
    else echo "FAIL: $* ($n_bad of $((n_ok + n_bad)) checks failed, see above)"; fi
    n_ok=0 n_bad=0
}

# expect STATUS 'WORD|WORD...' ARGS...: run gaps in $sb; want exit STATUS, one line on
# standard error that starts with "gaps: " and contains every WORD (fixed strings), and, for
# STATUS 1 or 2 (a failed run, bad input), an unchanged directory.  Standard output goes to $tmp/out.
expect() {
    want=$1 words=$2
    shift 2
    before=$(snap)
    (cd "$sb" && exec timeout -k 5 "$TMO" "$gaps" $extra "$@") >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check_result "$want" "$words" "$before" "$@"
}
# check_result STATUS WORDS BEFORE ARGS...: the checks of expect for a command already run
# ($rc, $tmp/err).
check_result() {
    want=$1 words=$2 before=$3
    shift 3
    after=$(snap)
    first=""
    IFS= read -r first <"$tmp/err"
    why=""
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then why="hung (killed after ${TMO}s)"
    elif [ $rc -ne "$want" ]; then why="exit $rc, expected $want"
    elif [ "$(wc -c <"$tmp/err")" -ne $((${#first} + 1)) ] || [ -z "$first" ]; then
        why="not exactly one line on stderr"
    else
        case $first in "gaps: "*) ;; *) why="stderr does not start with 'gaps: '" ;; esac
    fi
    if [ -z "$why" ]; then
        oldifs=$IFS
        IFS='|'
        for w in $words; do
            case $first in *"$w"*) ;; *) why="${why}no '$w' in the message; " ;; esac
        done
        IFS=$oldifs
    fi
    if [ -z "$why" ] && { [ "$want" -eq 1 ] || [ "$want" -eq 2 ]; } && [ "$before" != "$after" ]; then
        printf '%s\n' "$before" >"$tmp/before"
        printf '%s\n' "$after" >"$tmp/after"
        why="the directory changed: $(diff "$tmp/before" "$tmp/after" | grep '^[<>]' | head -n 4 | tr '\n' ' ')"
    fi
    if [ -z "$why" ]; then
        n_ok=$((n_ok + 1))
        return 0
    fi
    bad "$(show "$@")-> $why; stderr: $(head -c 300 "$tmp/err" | tr -c '[:print:]\n' '?')"
    return 1
}

# runs STATUS ARGS...: a quiet run in $sb that must end with STATUS and print nothing.
runs() {
    want=$1
    shift
    (cd "$sb" && exec timeout -k 5 "$TMO" "$gaps" $extra --quiet "$@") >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq "$want" ] && { [ "$want" -ne 0 ] || [ ! -s "$tmp/err" ]; }; then
        n_ok=$((n_ok + 1))
        return 0
    fi
    bad "$(show "$@")-> exit $rc (expected $want)$([ $rc -eq 124 ] && echo ', hung'): $(head -c 300 "$tmp/err")"
    return 1
}
# json FILE KEY: a top-level scalar of the JSON that gaps writes (one key per line).
json() { sed -n "s/^ *\"$2\": \([^,{]*\),\{0,1\}\$/\1/p" "$1" 2>/dev/null; }
# a finite positive decimal number (JSON has no inf or nan)
positive() {
    case $1 in ''|*[!0-9.eE+-]*) return 1 ;; esac
    awk -v x="$1" 'BEGIN { exit !(x + 0 > 0) }'
}

# A run's physics is sound: exit 0, no event failed the built-in checks, a finite positive
# cross section in valid JSON.
sound_run() {
    rm -f "$sb/j.json"
    runs 0 --events 200 --max-partons 64 --output none --json j.json "$@" || return 1
    inv=$(json "$sb/j.json" invalid_events)
    sig=$(json "$sb/j.json" sigma_pb)
    if [ "$inv" = 0 ] && positive "$sig"; then
        rm -f "$sb/j.json"
        return 0
    fi
    bad "$(show "$@")-> $inv events failed the checks, sigma $sig pb"
    n_ok=$((n_ok - 1))
    rm -f "$sb/j.json"
    return 1
}

precious() { for f in "$@"; do printf 'precious %s\n' "$f" >"$sb/$f"; done; }
clean_sb() { chattr -R -i "$sb" 2>/dev/null; rm -rf "$sb" && mkdir -p "$sb"; }


# ============================================================================================
# The limits as the program states them, then every generated value in one go.
expect 2 "--ecm" --ecm 1e300
ecm_msg=$first
ecm_hi=$(echo "$ecm_msg" | sed -n 's/.* to \([0-9.e+]*\) GeV.*/\1/p')
ecm_lo=$(echo "$ecm_msg" | sed -n 's/.*from \([0-9.e+-]*\) to .*/\1/p')
[ -n "$ecm_hi" ] || ecm_hi=$(echo "$ecm_msg" | sed -n 's/.*up to \([0-9.e+]*\) GeV.*/\1/p')
[ -n "$ecm_hi" ] || { bad "no --ecm range in '$ecm_msg'"; ecm_hi=1e5; }
expect 2 "--tcut|s / t_cut" --tcut 1e-30
ratio=$(echo "$first" | sed -n 's/.*s \/ t_cut <= \([0-9.e+]*\).*/\1/p')
[ -n "$ratio" ] || { bad "no s / t_cut limit in '$first'"; ratio=1e12; }
echo "limits: --ecm ${ecm_lo:-(no lower limit)} to $ecm_hi GeV, s / t_cut <= $ratio"
int_options="events 1 4611686018427387904 -
first-event 0 4611686018427387903 --events=1
seed 0 4294967295 -
pool 1 268435456 -
max-partons 3 64 -
threads 1 4096 -
cycles-per-launch 1 1048576 -
split-every 1 1048576 -
checkpoint-every 1 4611686018427387904 --checkpoint=ck
alphas-order 0 2 -"
plan=$(echo "$int_options" | $values plan "$SEED" "${ecm_lo:--}" "$ecm_hi" "$ratio") \
    || { echo "FAIL: tests/robustness/values.py plan"; exit 1; }
eval "$plan"
n_ok=0 n_bad=0

# ============================================================================================
echo "=== integers: exact values within the range, nothing else"
# An accepted value is shown to pass the parser and the configuration check by the refusal
# that follows them (a missing output directory), so nothing runs.
while read -r name lo hi more; do
    [ "$more" = - ] && more=""
    key=$(echo "$name" | tr - _)
    eval "mid=\$mid_$key above=\$above_$key below=\$below_$key hex=\$hex_$key sci=\$sci_$key"
    for form in "$lo" "$hi" "$mid" "$lo.0" "${hi}e0" "${mid}000e-3" "0$mid.00" "$sci"; do
        expect 2 "no/such/dir/x.yoda|No such file or directory" --"$name" "$form" $more \
            --output no/such/dir/x.yoda
    done
    for v in "$above" "$below" "${hi}0" " $mid" "$mid " "+$mid" "$hex" "${mid}.5" "${mid}e" \
             "18446744073709551617" "" "inf" "nan" "$mid$nl" "${mid}e99999999999999999999" \
             "${mid}E-${#mid}9"; do
        expect 2 "--$name|expected an integer from $lo to $hi" --"$name" "$v" $more
    done
    group_ok "--$name: $lo..$hi exact in every notation, everything else refused with the range"
done <<EOF
$int_options
EOF
expect 2 "--first-event|--events|4611686018427387904" --events 4611686018427387904 --first-event 1
expect 2 "--first-event|--events" --events 2 --first-event 4611686018427387903
group_ok "--first-event + --events beyond 2^62 refused"

echo "=== real numbers: finite decimals only"
for name in ecm tcut alphas-mz; do
    for v in "0x1p3" "inf" "-inf" "nan" "-1" "+91" " 91" "91 " "1e" "." "1e400" "0" "-0" "1e-400" \
             "91,2" "" "91$nl" "1e+-2"; do
        expect 2 "--$name|expected" --"$name" "$v"
    done
    group_ok "--$name: hexadecimal, inf, nan, signs, spaces, overflow, underflow refused"
done
expect 2 "--alphas-mz" --alphas-mz 1
expect 2 "--alphas-mz" --alphas-mz 1.0
expect 2 "no/such/dir" --alphas-mz 0.9999999999999999 --alphas-order 0 --output no/such/dir/x
expect 2 "no/such/dir" --alphas-mz 1e-300 --output no/such/dir/x
group_ok "--alphas-mz: 0 < X < 1"

echo "=== option names: no abbreviations, an unknown option is named wherever it stands"
names="events first-event ecm alphas-mz alphas-order tcut seed output json observables-out
cycles-out hepmc quiet progress no-progress state-out checkpoint checkpoint-every resume pool
max-partons threads loops cycles-per-launch split-every no-refill allow-host energy card help
version"
for n in $names; do
    short=${n%?}
    case " $(echo $names) " in *" $short "*) ;; *)
        expect 2 "unknown option '--$short'" --events 10 --output none --"$short" ;;
    esac
    expect 2 "unknown option '--${n}x'" --events 10 --output none --"${n}x"
    up=$(echo "$n" | tr a-z A-Z)
    expect 2 "unknown option '--$up'" --"$up" 1
done
for n in $names; do
    case $n in quiet|progress|no-progress|no-refill|allow-host|energy|help|version) continue ;; esac
    expect 2 "--$n|needs a value" --events 10 --"$n"
done
for junk in --frobnicate -x -Z "--=" "--events10" "---events" "-events"; do
    expect 2 "unknown option" --events 10 --output none "$junk"
done
expect 2 "unexpected argument" --events 10 stray
expect 2 "takes no value" --quiet=yes
group_ok "unknown, abbreviated and valueless options refused by name"

echo "=== run card: line and size limits"
python3 - "$tmp" <<'PYEOF'
import sys
d = sys.argv[1]
for n in (4095, 4096, 4097, 9000):
    line = "events = 10 #"
    open(f"{d}/card{n}", "w").write(line + "x" * (n - len(line)) + "\n")
body = "output = none\n"
pad = "#" + "y" * 4000 + "\n"
while len(body) + len(pad) <= (1 << 20):
    body += pad
body += "#" * ((1 << 20) - len(body) - 1) + "\n"
open(f"{d}/card1M", "w").write(body)
open(f"{d}/card1M+1", "w").write(body + "\n")
open(f"{d}/cardnul", "wb").write(b"events = 10\0\n")
PYEOF
for n in 4095 4096; do runs 0 --card "$tmp/card$n" --output none; done
for n in 4097 9000; do expect 2 "card$n:1:|line longer than 4096 characters" --card "$tmp/card$n"; done
runs 0 --card "$tmp/card1M" --events 10
expect 2 "card1M+1|larger than 1048576 bytes" --card "$tmp/card1M+1"
expect 2 "NUL" --card "$tmp/cardnul"
expect 2 "/dev/zero|not a regular file (a character device)" --card /dev/zero
mkdir -p "$tmp/carddir"
expect 2 "carddir|not a regular file (a directory)" --card "$tmp/carddir"
# a card path longer than any message shows: its end (the file's own name) is kept
deep="$tmp/$(printf 'd%.0s' $(seq 1 120))/$(printf 'e%.0s' $(seq 1 120))"
mkdir -p "$deep"
cp "$tmp/card4097" "$deep/cardlongpath"
expect 2 "...|cardlongpath:1:|line longer than 4096 characters" --card "$deep/cardlongpath"
group_ok "card lines up to 4096 characters and cards up to 1 MiB; beyond refused"

# ============================================================================================
echo "=== physics limits: the largest and smallest accepted values run correctly"
for e in $ecm_accept; do sound_run --ecm "$e"; done
for e in $ecm_refuse; do expect 2 "--ecm|$ecm_hi" --ecm "$e"; done
if [ -n "$ecm_lo" ]; then
    for et in $ecm_lo_accept; do sound_run --ecm "${et%:*}" --tcut "${et#*:}" --alphas-order 0; done
    for e in $ecm_lo_refuse; do expect 2 "--ecm|$ecm_lo" --ecm "$e"; done
else
    bad "--ecm has no lower limit ('$ecm_msg'): tiny energies must be refused or run correctly, see below"
fi
# Tiny energies, each with the largest and nearly the smallest t_cut that the ratio limits
# allow: refused with one line, or a sound run; never a hang or events failing the checks.
for et in $tiny; do
    e=${et%:*} t=${et#*:}
    rm -f "$sb/j.json"
    (cd "$sb" && exec timeout -k 5 10 "$gaps" $extra --quiet --ecm "$e" --tcut "$t" --alphas-order 0 \
        --events 200 --output none --json j.json) >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then n_ok=$((n_ok + 1))
    elif [ $rc -eq 0 ] && [ "$(json "$sb/j.json" invalid_events)" = 0 ]; then n_ok=$((n_ok + 1))
    else bad "--ecm $e --tcut $t --alphas-order 0 -> exit $rc$([ $rc -eq 124 ] && echo ' (hung)'), $(json "$sb/j.json" invalid_events) events failed the checks: $(head -c 200 "$tmp/err")"
    fi
done
rm -f "$sb/j.json"
group_ok "--ecm limits"
for c in $tcut_cases; do
    IFS=: read -r e t0 below t1 above <<EOF
$c
EOF
    sound_run --ecm "$e" --tcut "$t0" --alphas-order 0
    expect 2 "--tcut|s / t_cut <= $ratio" --ecm "$e" --tcut "$below" --alphas-order 0
    sound_run --ecm "$e" --tcut "$t1"
    expect 2 "--ecm|need s > 4 t_cut" --ecm "$e" --tcut "$above"
done
expect 2 "Landau" --tcut 0.01 --alphas-order 2
expect 2 "Landau" --tcut 0.001 --alphas-order 1
group_ok "s / t_cut <= $ratio and s > 4 t_cut: both boundaries run, one step beyond refused"
# random parameters inside the limits: a sound run, or a one-line refusal (Landau pole)
for c in $combos; do
    IFS=: read -r e t a order mp <<EOF
$c
EOF
    rm -f "$sb/j.json"
    (cd "$sb" && exec timeout -k 5 "$TMO" "$gaps" $extra --quiet --ecm "$e" --tcut "$t" --alphas-mz "$a" \
        --alphas-order "$order" --max-partons "$mp" --events 200 --output none --json j.json) >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 2 ] && grep -q Landau "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then n_ok=$((n_ok + 1))
    elif [ $rc -eq 0 ] && [ "$(json "$sb/j.json" invalid_events)" = 0 ]; then n_ok=$((n_ok + 1))
    else bad "--ecm $e --tcut $t --alphas-mz $a --alphas-order $order --max-partons $mp -> exit $rc: $(head -c 200 "$tmp/err")"
    fi
done
rm -f "$sb/j.json"
group_ok "random parameters within the limits: sound runs"

# Event numbers anywhere in the documented range reach the per-event outputs exactly, in
# order (a double holds every integer only up to 2^53).
for f in $firsts; do
    rm -f "$sb/big.csv" "$sb/big.hepmc"
    runs 0 --first-event "$f" --events 1000 --output none --observables-out big.csv --hepmc big.hepmc || continue
    for out in "big.csv:tail -n +2 $sb/big.csv | cut -d, -f1" "big.hepmc:grep '^E ' $sb/big.hepmc | cut -d' ' -f2"; do
        eval "${out#*:}" >"$tmp/numbers"
        if [ "$(wc -l <"$tmp/numbers")" -eq 1000 ] && sort -c -n "$tmp/numbers" 2>/dev/null \
            && [ "$(sort -u "$tmp/numbers" | wc -l)" -eq 1000 ] && [ "$(head -n 1 "$tmp/numbers")" = "$f" ] \
            && [ "$(tail -n 1 "$tmp/numbers")" = "$((f + 999))" ]; then
            n_ok=$((n_ok + 1))
        else
            bad "--first-event $f: ${out%%:*} holds event numbers $(head -n 1 "$tmp/numbers") .. $(tail -n 1 "$tmp/numbers") ($(wc -l <"$tmp/numbers") lines), expected $f .. $((f + 999))"
        fi
    done
done
rm -f "$sb/big.csv" "$sb/big.hepmc"
group_ok "event numbers up to 2^62 in the per-event outputs"

# ============================================================================================
echo "=== exit status 3: events that failed the built-in checks"
# No test switch in the generator: a checkpoint whose state already counts K failed events
# (made from a real --state-out by tests/robustness/values.py) is resumed; the run must
# finish, write its outputs, say so on one line and end with status 3.  The same for merge.
runs 0 --events 1000 --seed 5 --output none --state-out half.state
runs 0 --events 2000 --seed 5 --output "$tmp/full.yoda"
grep -v '^Backend' "$tmp/full.yoda" >"$tmp/full.phys"
for k in $failures; do
    $values failing-checkpoint "$sb/half.state" "$sb/k.ckpt" 0 2000 1000 "$k" || bad "crafting a checkpoint"
    precious k.yoda
    expect 3 "$k events failed the built-in checks" --events 2000 --seed 5 --resume k.ckpt \
        --output k.yoda --json k.json --quiet
    if [ "$(json "$sb/k.json" invalid_events)" = "$k" ] && [ ! -e "$sb/k.ckpt" ] \
        && grep -v '^Backend' "$sb/k.yoda" | cmp -s - "$tmp/full.phys"; then
        n_ok=$((n_ok + 1))
    else
        bad "exit 3 with $k failures: outputs not as expected (JSON invalid_events $(json "$sb/k.json" invalid_events))"
    fi
    rm -f "$sb/k.yoda" "$sb/k.json"
    $values failing-state "$sb/half.state" "$sb/k.state" "$k"
    expect 3 "merge|$k of the merged events failed" merge -o k.yoda --quiet k.state
    rm -f "$sb/k.yoda" "$sb/k.state"
done
group_ok "K failed events: outputs written, one line, exit 3 (run and merge)"

# ============================================================================================
echo "=== outputs that collide: refused before the run, nothing touched"
clean_sb
precious x x.part
mkdir -p "$sb/sub"
ln -s x "$sb/lnk"
ln "$sb/x" "$sb/hl"
sums0=$(sums)
labels="output json observables-out hepmc cycles-out state-out checkpoint"
for a in $labels; do
    for b in $labels; do
        [ "$a" \< "$b" ] || continue
        for pair in "x x" "x ./x" "sub/../x x" "lnk x" "x hl" "$sb/x x" "new ./new"; do
            set -- $pair
            expect 2 "same file" --events 10 --"$a" "$1" --"$b" "$2"
        done
    done
done
expect 2 "same file" --events 10 --checkpoint ck --observables-out y --json y.part
expect 2 "same file" --events 10 --checkpoint ck --hepmc y --state-out ./y.part
expect 2 "standard output" --events 10 --output - --json -
expect 2 "standard output" --events 10 --hepmc - --observables-out -
same_sums "$sums0" "colliding outputs"
# an output must not replace a file the program reads: the run card, a state to merge
printf 'events = 10\n' >"$sb/run.card"
(cd "$sb" && "$gaps" $extra --events 10 --output none --state-out in.state --quiet) || bad "state for merge"
sums0=$(sums)
for label in $labels; do
    [ $label = checkpoint ] && continue
    for p in run.card ./run.card lnk-card; do
        ln -sf run.card "$sb/lnk-card"
        expect 2 "run card" --card run.card --"$label" "$p"
    done
done
for label in -o --json --state-out; do
    for p in in.state ./in.state "$sb/in.state"; do
        expect 2 "merge|input state" merge -o none "$label" "$p" in.state
    done
done
same_sums "$sums0" "colliding outputs"
group_ok "two outputs on one file (names, ./, .., symbolic and hard links, FILE.part, '-'), or an output on an input"

echo "=== destinations that cannot be written: refused before the run with the system's reason"
clean_sb
precious f imm
mkdir -p "$sb/d" "$sb/immd"
ln -s d "$sb/dlink"
ln -s loopb "$sb/loopa"
ln -s loopa "$sb/loopb"
ln -s missing/target "$sb/dangling-dir"
python3 -c "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$sb/sock"
name256=$(printf '%0256d' 0)
longpath=$(for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21; do printf '%0200d/' 0; done)x
have_chattr=0
chattr +i "$sb/imm" "$sb/immd" 2>/dev/null && lsattr -d "$sb/immd" 2>/dev/null | grep -q '^....i' && have_chattr=1
[ $have_chattr = 1 ] || skip "immutable files (chattr +i does not work here)"
sums0=$(sums)
while IFS='|' read -r path words; do
    case $path in
        NAME256) path=$name256 ;;
        LONGPATH) path=$longpath ;;
        NEWLINE) path="no${nl}such/x" ;;
        imm|immd/x) [ $have_chattr = 1 ] || continue ;;
    esac
    for label in $labels; do
        expect 2 "$words" --events 10 --"$label" "$path"
    done
done <<'EOF'
|expected a file name
d/|ends in '/'
f/|ends in '/'
/|ends in '/'
nodir/|ends in '/'
.|Is a directory
..|Is a directory
d|Is a directory
dlink|Is a directory
nodir/x|No such file or directory
dangling-dir|No such file or directory
f/x|Not a directory
NAME256|File name too long
LONGPATH|File name too long
loopa|Too many levels of symbolic links
sock|not a regular file
NEWLINE|No such file or directory
-x|not an option
imm|Operation not permitted
immd/x|Operation not permitted
EOF
expect 2 "--checkpoint|not allowed" --events 10 --checkpoint -
# input files with awkward names: still one line
for name in "no${nl}such.state" "$name256" "$longpath" d f; do
    expect 2 "merge" merge -o none --json j.json "$name"
    expect 2 "--resume" --events 10 --resume "$name"
    expect 2 "" --events 10 --card "$name"   # not readable, or not a card
done
before=$(snap)
(cd "$sb" && exec timeout "$TMO" "$gaps" $extra --events 10 --output -) >&- 2>"$tmp/err"
rc=$?; check_result 2 "'--output' to '-'|Bad file descriptor" "$before" "--output - >&-"
same_sums "$sums0" "bad destinations"
group_ok "bad destinations refused, the directory unchanged"
[ $have_chattr = 1 ] && chattr -i "$sb/imm" "$sb/immd"

echo "=== destinations that can be written"
clean_sb
# a 255-byte name and a path near PATH_MAX; a partial file's name must fit as well
name255=$(printf '%0255d' 0)
near=$(for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do printf '%0250d/' 0; done)$(printf '%0200d' 1)
(cd "$sb" && mkdir -p "${near%/*}")   # relative: $sb/$near may exceed PATH_MAX
runs 0 --events 200 --output none --json "$name255" && [ "$(json "$sb/$name255" events)" = 200 ] \
    || bad "255-byte file name"
runs 0 --events 200 --output "$near" && (cd "$sb" && grep -q "END YODA" "$near") || bad "path of ${#near} bytes"
expect 2 "too long" --events 200 --output none --checkpoint ck --observables-out "$name255"
# symbolic links are written through and stay links; the old file's mode stays
echo old >"$sb/target"
ln -s target "$sb/link"
ln -s "$sb/new-target" "$sb/dangling"
for mode in $modes; do
    chmod "$mode" "$sb/target"
    runs 0 --events 200 --output none --json link --state-out dangling
    if [ -L "$sb/link" ] && [ -L "$sb/dangling" ] && [ "$(json "$sb/target" events)" = 200 ] \
        && [ "$(stat -c %a "$sb/target")" = "$mode" ] && [ -s "$sb/new-target" ]; then
        n_ok=$((n_ok + 1))
    else
        bad "symbolic link or mode $mode: $(ls -l "$sb" | tr '\n' ' ')"
    fi
    rm -f "$sb/new-target"
done
# the null device stays the null device (root could replace it)
runs 0 --events 200 --output /dev/null --json /dev/null --hepmc /dev/null --observables-out /dev/null \
    --state-out /dev/null
[ -c /dev/null ] && [ "$(stat -c '%t:%T' /dev/null)" = "1:3" ] && n_ok=$((n_ok + 1)) \
    || bad "/dev/null is no longer the null device: $(ls -l /dev/null)"
# a FIFO is written in place and its reader gets every event
runs 0 --events 500 --seed 3 --output none --hepmc "$tmp/ref.hepmc"
mkfifo "$sb/events.fifo"
timeout "$TMO" cat "$sb/events.fifo" >"$tmp/from-fifo.hepmc" &   # ends even if gaps never opens it
reader=$!
runs 0 --events 500 --seed 3 --output none --hepmc events.fifo
wait $reader
[ -p "$sb/events.fifo" ] && cmp -s "$tmp/ref.hepmc" "$tmp/from-fifo.hepmc" && n_ok=$((n_ok + 1)) \
    || bad "--hepmc to a FIFO: the reader did not get the file's events"
group_ok "255-byte names, long paths, links kept, modes kept, /dev/null, FIFO"

# ============================================================================================
echo "=== signals: no stray file, old files intact"
clean_sb
outs="p.yoda p.json p.csv p.hepmc p.state p.cyc"
precious $outs
sums0=$(sums)
slow="--ecm 1e5 --max-partons 64"   # about 1 ms an event: the outputs grow slowly
for sd in $signals; do
    IFS=: read -r sig n delay <<EOF
$sd
EOF
    before=$(snap)
    (cd "$sb" && exec "$gaps" $extra --quiet $slow --events 4611686018427387904 --output p.yoda --json p.json \
        --observables-out p.csv --hepmc p.hepmc --state-out p.state --cycles-out p.cyc) 2>"$tmp/err" &
    pid=$!
    sleep "$delay"
    kill -s "$sig" $pid
    [ $sig = PIPE ] && { sleep 0.2; kill -s TERM $pid; sig=TERM n=15; }   # SIGPIPE is ignored
    (sleep "$TMO"; kill -s KILL $pid) >/dev/null 2>&1 &   # in case the signal were lost
    watchdog=$!
    wait $pid 2>/dev/null
    rc=$?
    kill $watchdog 2>/dev/null
    after=$(snap)
    if [ $rc -eq $((128 + n)) ] && [ "$before" = "$after" ] && [ ! -s "$tmp/err" ]; then
        n_ok=$((n_ok + 1))
    else
        printf '%s\n' "$before" >"$tmp/before"
        bad "SIG$sig after ${delay}s: exit $rc (expected $((128 + n))), stderr '$(head -c 200 "$tmp/err")', changes: $(printf '%s\n' "$after" | diff "$tmp/before" - | grep '^[<>]' | head -n 3 | tr '\n' ' ')"
    fi
done
# With --checkpoint a signal that ends the run at once leaves only what --resume needs: the
# FILE.part files of the streamed outputs and the checkpoint, never a complete-looking file.
before=$(snap)
(cd "$sb" && exec "$gaps" $extra --quiet $slow --events 4611686018427387904 --output p.yoda --json p.json \
    --observables-out p.csv --hepmc p.hepmc --checkpoint p.ckpt --checkpoint-every 50) 2>"$tmp/err" &
pid=$!
i=0
while [ ! -e "$sb/p.csv.part" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done   # running
sleep 0.2
kill -s USR1 $pid
wait $pid 2>/dev/null
rc=$?
new=$(snap | cut -d' ' -f1 | grep -v -x -F "$(printf '%s\n' "$before" | cut -d' ' -f1)" | tr '\n' ' ')
case " $new" in *" p.csv.part "*) ;; *) new="$new(no p.csv.part)" ;; esac
if [ $rc -gt 128 ] && [ -z "$(printf '%s' "$new" | tr ' ' '\n' | grep -v -x -e p.csv.part -e p.hepmc.part -e p.ckpt -e '')" ] \
    && [ "$(printf '%s\n' "$before" | sed -n '/^p\.\(yoda\|json\) /p')" = "$(snap | sed -n '/^p\.\(yoda\|json\) /p')" ]; then
    n_ok=$((n_ok + 1))
else
    bad "SIGUSR1 with --checkpoint: exit $rc, new entries: $new"
fi
rm -f "$sb"/p.*.part "$sb/p.ckpt"
group_ok "SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGHUP, SIGINT, SIGTERM, SIGKILL, SIGPIPE at random moments"

echo "=== one output fails during the run: nothing committed, old files intact"
for label in output json observables-out hepmc state-out cycles-out; do
    set -- --output p.yoda --json p.json --observables-out p.csv --hepmc p.hepmc --state-out p.state \
        --cycles-out p.cyc
    args=""
    while [ $# -gt 0 ]; do
        if [ "$1" = "--$label" ]; then args="$args $1 /dev/full"; else args="$args $1 $2"; fi
        shift 2
    done
    expect 1 "--$label|/dev/full|No space left on device" --events 2000 $args
done
# a file that grows past `ulimit -f` (File too large), at several limits
for b in $blocks; do
    before=$(snap)
    (ulimit -f "$b" && cd "$sb" && exec timeout -k 5 "$TMO" "$gaps" $extra --events 3000 --output p.yoda \
        --json p.json --observables-out p.csv --hepmc p.hepmc --state-out p.state --cycles-out p.cyc) \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check_result 1 "File too large" "$before" "(ulimit -f $b)" --events 3000 ...
done
# a full file system, where a small tmpfs can be mounted here
mkdir -p "$sb/small"
if mount -t tmpfs -o size=256k tmpfs "$sb/small" 2>/dev/null; then
    trap 'umount "$sb/small" 2>/dev/null' EXIT
    echo old >"$sb/small/p.yoda"
    expect 1 "No space left on device" --events 3000 --output small/p.yoda --hepmc small/p.hepmc
    expect 1 "No space left on device" --events 3000 --output small/p.yoda --json small/p.json \
        --observables-out small/p.csv --state-out small/p.state
    head -c 200000 /dev/zero >"$sb/small/fill"   # no room left for a checkpoint (86 kB)
    expect 1 "--checkpoint|No space left on device" --events 3000 --output p.yoda \
        --checkpoint small/ck --checkpoint-every 500
    umount "$sb/small" && trap - EXIT
else
    skip "full file system (cannot mount a tmpfs here)"
fi
rmdir "$sb/small"
same_sums "$sums0" "signals and failing outputs"
group_ok "/dev/full, ulimit -f and a full file system fail the run with the reason"

echo "=== standard output that cannot be written"
clean_sb
before=$(snap)
(cd "$sb" && exec timeout "$TMO" "$gaps" $extra --events 200 --output none) >/dev/full 2>"$tmp/err"
rc=$?; check_result 1 "writing the summary failed|No space left on device" "$before" "--events 200 >/dev/full"
(cd "$sb" && exec timeout "$TMO" "$gaps" $extra --events 200 --output -) >/dev/full 2>"$tmp/err"
rc=$?; check_result 1 "'--output' to '-'|No space left on device" "$before" "--output - >/dev/full"
(cd "$sb" && exec timeout "$TMO" "$gaps" $extra --events 20000 --output none --hepmc -) >/dev/full 2>"$tmp/err"
rc=$?; check_result 1 "'--hepmc' to '-'|No space left on device" "$before" "--hepmc - >/dev/full"
for a in --help --version "merge --help"; do
    (cd "$sb" && exec timeout "$TMO" "$gaps" $a) >/dev/full 2>"$tmp/err"
    rc=$?; check_result 1 "standard output|No space left on device" "$before" "$a >/dev/full"
done
# closed standard output or error: the text meant for them never lands in an output file
(cd "$sb" && exec timeout "$TMO" "$gaps" $extra --events 200 --output c.yoda --json c.json) >&- 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "summary" "$tmp/err" && head -n 1 "$sb/c.yoda" | grep -q '^BEGIN YODA' \
    && ! grep -q "cross section" "$sb/c.yoda" "$sb/c.json"; then n_ok=$((n_ok + 1))
else bad "closed standard output: exit $rc, $(head -c 200 "$tmp/err")"; fi
(cd "$sb" && exec timeout "$TMO" "$gaps" $extra --events 200 --output - --json e.json) >"$tmp/e.yoda" 2>&-
rc=$?   # the summary goes to standard error when an output is on standard output
[ $rc -eq 1 ] && grep -q "END YODA" "$tmp/e.yoda" && [ "$(json "$sb/e.json" events)" = 200 ] \
    && ! grep -q "cross section" "$sb/e.json" "$tmp/e.yoda" && n_ok=$((n_ok + 1)) \
    || bad "closed standard error: exit $rc"
group_ok "a failed write to standard output is exit 1 with the reason"

# ============================================================================================
echo "=== memory"
if [ $sanitized = 1 ]; then
    skip "allocation failures and memory bounds (sanitized build)"
elif ! (ulimit -v 4000000 && "$gaps" --version) >/dev/null 2>&1; then
    skip "allocation failures (ulimit -v does not work here)"
else
    for pool in $pools; do
        before=$(snap)
        (ulimit -v 2000000 && cd "$sb" && exec timeout "$TMO" "$gaps" $extra --pool "$pool" --events 1e9 --output none --quiet) \
            >"$tmp/out" 2>"$tmp/err"
        rc=$?; check_result 1 "cannot allocate a pool of $pool slots" "$before" "(ulimit -v)" --pool "$pool"
    done
    # the --cycles-out table grows with the run: its growth failing is an error, named as such
    lo=1000 hi=400000
    while [ $((hi - lo)) -gt 64 ]; do   # the least address space a short run needs
        m=$(((lo + hi) / 2))
        if (ulimit -v $m && cd "$sb" && exec "$gaps" $extra --events 1000 --output none --cycles-out c.csv --quiet) \
            >/dev/null 2>&1; then hi=$m; else lo=$m; fi
    done
    rm -f "$sb/c.csv"
    precious c.csv
    before=$(snap)
    (ulimit -v $((hi + 150)) && cd "$sb" && exec timeout "$TMO" "$gaps" $extra --events 400000 --output none \
        --cycles-out c.csv --quiet) >"$tmp/out" 2>"$tmp/err"
    rc=$?; check_result 1 "--cycles-out" "$before" "(ulimit -v $((hi + 150)))" --events 400000 --cycles-out c.csv
    rm -f "$sb/c.csv"
    group_ok "an allocation that fails names what it was for"
fi
if [ $sanitized = 0 ] && [ -x /usr/bin/time ]; then
    rss() { (cd "$sb" && /usr/bin/time -f %M "$gaps" $extra --quiet --output none --events "$1" 2>&1 >/dev/null | tail -n 1); }
    small=$(rss 20000)
    big=$(rss 200000)
    echo "   no per-event output: maximum resident size $small kB at 2x10^4 events, $big kB at 2x10^5"
    [ "$big" -le $((small * 12 / 10 + 512)) ] && n_ok=$((n_ok + 1)) \
        || bad "memory grows with N without per-event output: $small kB -> $big kB"
    # 2^62 events streamed: the resident size levels off.  The two readings are taken after
    # a number of events (bytes of rows read from a FIFO, which holds the run back while
    # nobody reads), not after a time, so that a slow machine reads the same points of the
    # run: after 2 MB of rows and after 20 MB (some 10^5 events later).
    rm -f "$tmp/rows.fifo"; mkfifo "$tmp/rows.fifo"
    (cd "$sb" && exec timeout -k 5 600 "$gaps" $extra --quiet --events 4611686018427387904 \
        --output none --observables-out "$tmp/rows.fifo" --hepmc /dev/null) 2>/dev/null &
    pid=$!
    hwm() {   # of gaps, the child of timeout ($pid)
        for c in $(cat /proc/$pid/task/$pid/children 2>/dev/null); do
            awk '/VmHWM/ { print $2 }' /proc/$c/status 2>/dev/null
        done
    }
    { head -c 2000000 >/dev/null; early=$(hwm); head -c 18000000 >/dev/null; late=$(hwm); } \
        <"$tmp/rows.fifo"
    kill $pid 2>/dev/null; wait $pid 2>/dev/null
    rm -f "$tmp/rows.fifo"
    # Held events follow how far the partitions drift apart (a thread descheduled on a busy
    # machine), not N: allow that, but not the tens of MB that 18 MB of rows would hold.
    echo "   2^62 events streamed: resident size $early kB after 2 MB of rows, $late kB after 20 MB"
    [ -n "$early" ] && [ -n "$late" ] && [ "$late" -le $((early + (early / 2 > 8192 ? early / 2 : 8192))) ] \
        && n_ok=$((n_ok + 1)) || bad "2^62 events streamed: resident size $early kB -> $late kB"
    group_ok "memory does not grow with the number of events"
elif [ $sanitized = 0 ]; then
    skip "memory bounds (/usr/bin/time missing: apt-get install time)"
fi

# ============================================================================================
echo "=== the summary and the JSON report what happened"
clean_sb
if [ $openmp = 1 ]; then
    for t in $threads; do
        runs 0 --threads "$t" --events 2000 --output none --json t.json
        [ "$(json "$sb/t.json" threads)" = "$t" ] && n_ok=$((n_ok + 1)) \
            || bad "--threads $t: JSON says $(json "$sb/t.json" threads) threads"
    done
    # OpenMP may run fewer threads than asked: the report must say how many ran
    OMP_THREAD_LIMIT=2 runs 0 --threads 3 --events 2000 --output none --json t.json
    [ "$(json "$sb/t.json" threads)" = 2 ] && n_ok=$((n_ok + 1)) \
        || bad "OMP_THREAD_LIMIT=2 --threads 3: JSON says $(json "$sb/t.json" threads) threads, 2 ran"
    group_ok "JSON threads is the number of threads that ran"
fi
# a small cross-section error is printed with its digits, never as 0
for e in $xsec_ecm; do
    (cd "$sb" && exec timeout "$TMO" "$gaps" $extra --ecm "$e" --events 300 --max-partons 64 --output none \
        --json x.json) >"$tmp/out" 2>"$tmp/err"
    line=$(grep "cross section" "$tmp/out")
    shown=$(echo "$line" | sed -n 's/.*+- *\([^ ]*\) pb.*/\1/p')
    inj=$(json "$sb/x.json" sigma_err_pb)
    if positive "$shown" && awk -v a="$shown" -v b="$inj" 'BEGIN { d = a - b; exit !(d * d <= 2.5e-5 * b * b) }'; then
        n_ok=$((n_ok + 1))
    else bad "--ecm $e: summary '$line', JSON error $inj"; fi
done
group_ok "the summary's cross-section error keeps its digits"

# ============================================================================================
echo "=== messages that say what is wrong, and the status that fits"
clean_sb
mkdir -p "$sb/d"
# a path in a kernel file system: said so, whichever output
for p in /proc/version /proc/gaps-new /sys/kernel/gaps-new /proc/self/status; do
    for label in output json state-out; do
        expect 2 "kernel file system" --events 10 --"$label" "$p"
    done
done
# a directory given as a state to merge or a checkpoint to resume: said so, not "read error"
for p in /tmp . d "$sb/d"; do
    expect 2 "Is a directory" merge -o m.yoda "$p"
    expect 2 "--resume|Is a directory" --events 10 --resume "$p"
done
group_ok "a path in /proc or /sys, a directory as an input: the message names the real reason"

# a run card with a byte-order mark at its start is read; one elsewhere is shown, not hidden
bom=$(printf '\357\273\277')
zwsp=$(printf '\342\200\213')
printf '%sevents = 30\noutput = none\n' "$bom" >"$tmp/bom.card"
printf '%sevents = 30\r\noutput = none\r\n' "$bom" >"$tmp/bom-crlf.card"
printf '%s# comment\nevents = 30\noutput = none\n' "$bom" >"$tmp/bom-comment.card"
for c in bom bom-crlf bom-comment; do runs 0 --card "$tmp/$c.card"; done
printf 'output = none\n%sevents = 30\n' "$bom" >"$tmp/bom2.card"
expect 2 "bom2.card:2:|unknown key '\\uFEFFevents'" --card "$tmp/bom2.card"
printf 'output = none\nev%sents = 30\n' "$zwsp" >"$tmp/zw.card"
expect 2 "zw.card:2:|unknown key 'ev\\u200Bents'" --card "$tmp/zw.card"
group_ok "a UTF-8 byte-order mark starting a card is skipped; invisible characters elsewhere are shown"

# out of file descriptors: the system failed, not the input (exit 1, never 2)
(cd "$sb" && "$gaps" $extra --quiet --events 100 --output none --state-out a.state --seed 1 \
    && "$gaps" $extra --quiet --events 100 --first-event 100 --output none --state-out b.state --seed 1) \
    || bad "states for merge"
printf 'events = 100\n' >"$sb/fd.card"
sums0=$(sums)
# from the descriptors this shell already has open (ctest, make and friends may pass some on)
# to a few more than a full run needs
fds=$(ls /proc/self/fd | wc -l)
for k in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 16 20 28; do
    n=$((fds + k))
    before=$(snap)
    (cd "$sb" && ulimit -n $n && exec timeout -k 5 "$TMO" "$gaps" $extra --quiet --card fd.card --output p.yoda \
        --json p.json --observables-out p.csv --hepmc p.hepmc --state-out p.state --cycles-out p.cyc) \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 0 ]; then n_ok=$((n_ok + 1)); rm -f "$sb"/p.*
    else check_result 1 "Too many open files" "$before" "(ulimit -n $n)" --card fd.card ...; fi
    before=$(snap)
    (cd "$sb" && ulimit -n $n && exec timeout -k 5 "$TMO" "$gaps" merge --quiet -o m.yoda --json m.json \
        --state-out m.state a.state b.state) >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 0 ]; then n_ok=$((n_ok + 1)); rm -f "$sb"/m.*
    else check_result 1 "Too many open files" "$before" "(ulimit -n $n)" merge ...; fi
    # with a checkpoint, a failure once the run goes keeps what --resume needs: no status 2
    (cd "$sb" && ulimit -n $n && exec timeout -k 5 "$TMO" "$gaps" $extra --quiet --card fd.card --output p.yoda \
        --observables-out p.csv --checkpoint p.ckpt --checkpoint-every 20) >"$tmp/out" 2>"$tmp/err"
    rc=$?
    case $rc in 0|1) n_ok=$((n_ok + 1)) ;; *) bad "(ulimit -n $n) --checkpoint: exit $rc: $(head -c 200 "$tmp/err")" ;; esac
    rm -f "$sb"/p.*
done
group_ok "out of file descriptors at every point: exit 1 with the reason, nothing changed"

# the note of a merge with gaps in its ranges stays short, however many ranges
(cd "$sb" && "$gaps" $extra --quiet --events 2048 --output none --state-out r.state) || bad "state for ranges"
for r in 2 8 64 1024; do
    $values split-ranges "$sb/r.state" "$sb/r$r.state" $r || bad "split-ranges $r"
    (cd "$sb" && timeout "$TMO" "$gaps" merge -o m.yoda "r$r.state") >"$tmp/out" 2>"$tmp/err"
    rc=$?
    line=$(cat "$tmp/err")
    if [ $rc -eq 0 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ${#line} -le 300 ] \
        && echo "$line" | grep -q "note: the event ranges have gaps: $r ranges cover 2048 events"; then
        n_ok=$((n_ok + 1))
    else bad "merge of $r ranges: exit $rc, note of ${#line} bytes: $(echo "$line" | cut -c1-200)"; fi
    rm -f "$sb/m.yoda" "$sb/r$r.state"
done
group_ok "the gaps note of a merge is one short line for 2 to 1024 ranges"

# a pool or thread count other than asked for is said so, in the summary and the JSON
for pe in 1000:10 64:63 5:1; do
    p=${pe%:*} e=${pe#*:}
    (cd "$sb" && exec timeout "$TMO" "$gaps" $extra --pool "$p" --events "$e" --output none --json pool.json) \
        >"$tmp/out" 2>"$tmp/err"
    got=$(json "$sb/pool.json" slots)
    asked=$(json "$sb/pool.json" slots_requested)
    th=$(json "$sb/pool.json" threads)
    want=$e
    [ "$th" -gt "$want" ] 2>/dev/null && want=$th   # at least one slot per thread
    if [ "$asked" = "$p" ] && [ "$got" = "$want" ] && grep -q "note .*--pool $p asked; $want slots" "$tmp/out" \
        && grep -q "\"notes\": \[\"--pool $p asked" "$sb/pool.json"; then n_ok=$((n_ok + 1))
    else bad "--pool $p --events $e: JSON slots $got slots_requested $asked; summary: $(grep note "$tmp/out")"; fi
done
(cd "$sb" && exec timeout "$TMO" "$gaps" $extra --pool 50 --events 100 --output none --json pool.json) >"$tmp/out" 2>&1
[ "$(json "$sb/pool.json" slots)" = 50 ] && ! grep -q note "$tmp/out" && ! grep -q '"notes"' "$sb/pool.json" \
    && n_ok=$((n_ok + 1)) || bad "--pool 50 granted: a note was printed"
if [ $openmp = 1 ]; then
    (cd "$sb" && OMP_THREAD_LIMIT=2 exec timeout "$TMO" "$gaps" --threads 3 --events 2000 --output none \
        --json t.json) >"$tmp/out" 2>"$tmp/err"
    [ "$(json "$sb/t.json" threads_requested)" = 3 ] && grep -q "note .*--threads 3 asked; 2 ran" "$tmp/out" \
        && n_ok=$((n_ok + 1)) || bad "OMP_THREAD_LIMIT=2 --threads 3: no note ($(grep note "$tmp/out"))"
    (cd "$sb" && exec timeout "$TMO" "$gaps" --threads 4 --pool 3 --events 100 --output none --json t.json) \
        >"$tmp/out" 2>"$tmp/err"
    grep -q "note .*--pool 3 asked; 4 slots: at least one slot per thread" "$tmp/out" \
        && n_ok=$((n_ok + 1)) || bad "--threads 4 --pool 3: no note ($(grep note "$tmp/out"))"
fi
rm -f "$sb/pool.json" "$sb/t.json"
group_ok "a pool or thread count other than asked is noted in the summary and the JSON"

# OpenMP's default thread count beyond the program's limit: refused with a message, no crash
for t in 4097 100000 2147483647; do
    if [ $openmp = 1 ]; then
        (cd "$sb" && OMP_NUM_THREADS=$t exec timeout "$TMO" "$gaps" --events 100 --output none) \
            >"$tmp/out" 2>"$tmp/err"
        rc=$?
        check_result 2 "OMP_NUM_THREADS|$t|4096" "$(snap)" "OMP_NUM_THREADS=$t"
        OMP_NUM_THREADS=$t runs 0 --threads 2 --events 100 --output none
    else
        OMP_NUM_THREADS=$t runs 0 --events 100 --output none   # no OpenMP: no threads to start
    fi
done
group_ok "OMP_NUM_THREADS beyond 4096 refused with a message (--threads still works)"

[ $fail -eq 0 ] && echo "robustness: all checks passed" || echo "robustness: SOME CHECKS FAILED"
exit $fail
