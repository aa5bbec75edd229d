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
bad() { echo "FAIL: $*"; fail=1; }
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

# Checks of a group are counted; a group prints one "ok:" line, and a "FAIL:" line per failure.
n_ok=0
t_start=$(date +%s)
group_ok() { ok "$* ($n_ok checks, $(($(date +%s) - t_start)) s so far)"; n_ok=0; }

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

