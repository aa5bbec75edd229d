#!/bin/sh
# tools/install-deps.sh when another package manager holds the dpkg lock: it says so (naming
# the process), waits for the lock, and gives apt-get DPkg::Lock::Timeout; without a lock it
# goes on at once.  apt-get, dpkg and sudo are stand-ins on the PATH that record their
# arguments; the lock is a file of the work directory (GAPS_DPKG_LOCKS) that a helper locks
# with fcntl as apt does.  Nothing is installed.
# Usage: test_install_deps.sh SOURCE_DIR WORKDIR
src=$1
work=$2
rm -rf "$work" && mkdir -p "$work/bin" || exit 1
work=$(cd "$work" && pwd)
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
for tool in python3 timeout awk stat; do
    command -v $tool >/dev/null 2>&1 || { echo "skip: $tool is needed"; exit 77; }
done
cat >"$work/bin/dpkg" <<'EOS'
#!/bin/sh
exit 1   # every package is missing
EOS
cat >"$work/bin/apt-get" <<EOS
#!/bin/sh
echo "apt-get \$*" >>"$work/apt.log"
EOS
cat >"$work/bin/sudo" <<'EOS'
#!/bin/sh
exec "$@"
EOS
chmod +x "$work/bin/dpkg" "$work/bin/apt-get" "$work/bin/sudo"
: >"$work/lock"
export GAPS_DPKG_LOCKS="$work/lock" GAPS_DPKG_LOCK_TIMEOUT=60

run() {   # the script with the stand-ins first on the PATH; its status in $rc
    rm -f "$work/apt.log"
    PATH="$work/bin:$PATH" timeout 120 bash "$src/tools/install-deps.sh" >"$work/out" 2>"$work/err"
    rc=$?
}

# no lock: apt-get at once, with the timeout option, no message
start=$(date +%s)
run
took=$(( $(date +%s) - start ))
[ $rc -eq 0 ] && [ ! -s "$work/err" ] && [ $took -lt 5 ] \
    && grep -q '^apt-get -o DPkg::Lock::Timeout=60 update' "$work/apt.log" \
    && grep -q '^apt-get -o DPkg::Lock::Timeout=60 install' "$work/apt.log" \
    && ok "no lock held: apt-get at once with DPkg::Lock::Timeout" \
    || bad "no lock: exit $rc after ${took}s, $(cat "$work/err") $(cat "$work/apt.log" 2>/dev/null)"

# a lock held for 4 s: the script names the holder and waits for it
for hold in 4 6; do
    rm -f "$work/ready"
    python3 -c 'import fcntl, sys, time
f = open(sys.argv[1], "w")
fcntl.lockf(f, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
time.sleep(float(sys.argv[3]))' "$work/lock" "$work/ready" $hold &
    holder=$!
    i=0
    while [ ! -e "$work/ready" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    start=$(date +%s)
    run
    took=$(( $(date +%s) - start ))
    wait $holder
    [ $rc -eq 0 ] && grep -q "holds the dpkg lock (process $holder (python3))" "$work/err" \
        && grep -q "waiting" "$work/err" && grep -q "lock is free" "$work/err" \
        && [ $took -ge $((hold - 2)) ] && grep -q 'Lock::Timeout=60 install' "$work/apt.log" \
        && ok "lock held ${hold}s by process $holder: named, waited ${took}s, then apt-get" \
        || bad "lock held ${hold}s: exit $rc after ${took}s: $(cat "$work/err")"
done
exit $fail
