#!/bin/sh
# Scaling of a run shared by MPI ranks, one per GPU (doc/mpi.md): strong and weak scaling
# tables, the YODA files of 1 and 2 ranks compared with cmp, and the cost of each MPI step per
# call (taking a piece, the meeting, the exact sum, a batch of streamed events) from the JSON
# files, with a model of larger runs built from them.
#
#   tools/mpi-bench.sh prepare [DIR]   (build machine: clang-19, CUDA toolkit, OpenMPI)
#       builds the offload backend with -DGAPS_MPI=ON into DIR/gaps-offload-mpi and bundles
#       the LLVM offload runtime (DIR default .bundle-mpi/).  libmpi.so.40 comes from the GPU
#       node's own Open MPI 4.1 (same ABI); see tools/bundle-offload-runtime.sh --mpi.
#   tools/mpi-bench.sh run DIR OUT [SIZES] [RANKS]   (GPU node)
#       SIZES: events of the strong-scaling runs (default "1e8 1e9"); RANKS: rank counts
#       (default "1 2"); weak scaling runs 1e8 events per rank.  Writes OUT/*.json, *.yoda,
#       OUT/scaling.md (the tables) and prints them.
#   tools/mpi-bench.sh report OUT      (anywhere) the tables again from OUT's JSON files.
# Environment: MPIRUN (default mpirun), MPIFLAGS (default "--bind-to none", plus
# --allow-run-as-root for root), GAPS_BIN (a program to use instead of DIR's, e.g. a CPU MPI
# build for a dry run), GAPS_EXTRA (more options for every run, e.g. --allow-host),
# WEAK_EVENTS (events per rank of the weak scaling, default 100000000), STREAM_EVENTS (events
# of the streamed-output runs, default 10000000).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
cmd=${1:-}

tables() {   # tables OUT: the tables and the per-call costs from OUT's JSON files
    python3 - "$1" <<'EOF'
import glob, json, math, os, sys
out = sys.argv[1]
def load(name):
    p = os.path.join(out, name + ".json")
    if not os.path.exists(p): return None
    d = json.load(open(p))
    w = os.path.join(out, name + ".wall")
    d["wall"] = float(open(w).read()) if os.path.exists(w) else float("nan")
    return d
runs = {}
for p in glob.glob(os.path.join(out, "strong-*.json")):
    _, n, r = os.path.basename(p)[:-5].split("-")
    runs[(float(n), int(r))] = load(os.path.basename(p)[:-5])
lines = []
def table(title, rows, head):
    lines.append("### " + title)
    lines.append("")
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + " --- |" * len(head))
    for r in rows: lines.append("| " + " | ".join(r) + " |")
    lines.append("")
rows = []
for (n, r) in sorted(runs):
    d = runs[(n, r)]
    one = runs.get((n, 1))
    t = d["time_s"]["total"]
    eff = one["time_s"]["total"] / (r * t) if one else float("nan")
    rows.append(["%.0e" % n, str(r), "%.2f" % t, "%.2f" % d["wall"], "%.3g" % (n / t),
                 "%.1f %%" % (100 * eff)])
table("Strong scaling (same events, more ranks)", rows,
      ["events", "ranks", "run time (s)", "wall incl. start (s)", "events/s", "efficiency"])
rows = []
weak = {}
for p in glob.glob(os.path.join(out, "weak-*.json")):
    r = int(os.path.basename(p)[:-5].split("-")[1])
    weak[r] = load("weak-%d" % r)
for r in sorted(weak):
    d = weak[r]
    t = d["time_s"]["total"]
    eff = weak[1]["time_s"]["total"] / t if 1 in weak else float("nan")
    rows.append([str(r), "%.0e" % d["events"], "%.2f" % t, "%.3g" % (d["events"] / t),
                 "%.1f %%" % (100 * eff)])
table("Weak scaling (the same events per rank)", rows,
      ["ranks", "events", "run time (s)", "events/s", "efficiency"])
# per-call costs of the MPI steps
rows = []
costs = {"take": [], "meet": [], "reduce": [], "batch": []}
for name in sorted(glob.glob(os.path.join(out, "*.json"))):
    d = load(os.path.basename(name)[:-5])
    if not d or "mpi" not in d: continue
    m, rk = d["mpi"], d["ranks"]
    takes = sum(x["takes"] for x in rk)
    take_us = 1e6 * sum(x["take_s"] for x in rk) / takes if takes else 0
    batches = sum(x["batches"] for x in rk[1:])
    batch_ms = 1e3 * sum(x["send_s"] for x in rk[1:]) / batches if batches else 0
    busy = [x["busy_s"] for x in rk]
    costs["take"].append(take_us)
    costs["meet"].append(1e3 * m["meet_s"] / m["segments"])
    costs["reduce"].append(1e3 * m["reduce_s"] / m["segments"])
    if batches: costs["batch"].append(batch_ms)
    rows.append([os.path.basename(name)[:-5], str(m["ranks"]), str(m["piece_events"]),
                 str(takes), "%.1f" % take_us, "%.3f" % (1e3 * m["meet_s"] / m["segments"]),
                 "%.3f" % (1e3 * m["reduce_s"] / m["segments"]),
                 "%.3f" % batch_ms if batches else "-",
                 "%.3f" % (max(busy) - min(busy))])
table("MPI steps per call", rows,
      ["run", "ranks", "events/piece", "pieces taken", "us per take", "meeting (ms)",
       "exact sum (ms)", "ms per batch sent", "busy spread (s)"])
# A model of larger runs: every rank generates N/R events at the one-rank rate; the end of
# a run costs one meeting, one exact sum (a tree: log2 R steps) and, on average, half a
# piece of imbalance; every piece costs one take.
one = [runs[k] for k in sorted(runs) if k[1] == 1]
if one and costs["take"]:
    base = one[-1]
    rate = base["events"] / base["time_s"]["total"]
    take = max(costs["take"]) * 1e-6
    meet = max(costs["meet"]) * 1e-3
    red = max(costs["reduce"]) * 1e-3
    slots = base["ranks"][0]["slots"] or 1
    lines.append("### Model (from the measured rate %.3g events/s per rank, %.1f us per take, "
                 "%.2f ms per meeting, %.2f ms per exact sum)" % (rate, take * 1e6, meet * 1e3,
                                                                 red * 1e3))
    lines.append("")
    lines.append("| events | ranks | events/piece | pieces/rank | time (s) | efficiency |")
    lines.append("| --- | --- | --- | --- | --- | --- |")
    for n in (1e9, 1e10, 1e11):
        for r in (8, 64, 512):
            piece = max(4 * slots, math.ceil(n / (64 * r)))
            pieces = n / piece / r
            t1 = n / rate
            t = (n / r / rate + pieces * take + 0.5 * piece / rate
                 + meet * max(1, math.log2(r)) + red * max(1, math.log2(r)))
            lines.append("| %.0e | %d | %d | %.1f | %.3f | %.1f %% |"
                         % (n, r, piece, pieces, t, 100 * t1 / (r * t)))
    lines.append("")
    lines.append("(A model: off-node takes cost a network round trip, typically 2-5 us over "
                 "InfiniBand atomics; the start-up of the ranks and their GPUs is not counted.)")
text = "\n".join(lines)
print(text)
open(os.path.join(out, "scaling.md"), "w").write(text + "\n")
EOF
}

case $cmd in
prepare)
    dir=${2:-$here/.bundle-mpi}
    mkdir -p "$dir"
    cmake -S "$here" -B "$here/build-offload-mpi" -DGAPS_BACKEND=offload -DGAPS_MPI=ON \
        -DBUILD_TESTING=OFF >/dev/null
    cmake --build "$here/build-offload-mpi" -j >/dev/null
    cp "$here/build-offload-mpi/gaps" "$dir/gaps-offload-mpi"
    [ -e "$dir/rt.tar.xz" ] || sh "$here/tools/bundle-offload-runtime.sh" --mpi "$dir/rt.tar.xz"
    echo "prepared $dir: $(du -sh "$dir" | cut -f1); on the node: ldd $dir/gaps-offload-mpi"
    ;;
run)
    dir=$2; out=$3; sizes=${4:-1e8 1e9}; ranks=${5:-1 2}
    mkdir -p "$out" /tmp/gaps-rt
    gaps=${GAPS_BIN:-$dir/gaps-offload-mpi}
    if [ -z "${GAPS_BIN:-}" ]; then
        [ -e /tmp/gaps-rt/lib/libomp.so.5 ] || tar -xJf "$dir/rt.tar.xz" -C /tmp/gaps-rt
        export LD_LIBRARY_PATH=/tmp/gaps-rt/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
        export OMP_TARGET_OFFLOAD=MANDATORY
    fi
    mpirun=${MPIRUN:-mpirun}
    flags=${MPIFLAGS:---bind-to none}
    [ "$(id -u)" -eq 0 ] && [ -z "${MPIFLAGS:-}" ] && flags="$flags --allow-run-as-root"
    extra=${GAPS_EXTRA:-}
    ldd "$gaps" | grep -E "mpi|omp" >"$out/libraries.txt" || true
    "$mpirun" --version >>"$out/libraries.txt" 2>&1 || true
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader \
        >"$out/gpu.txt" 2>/dev/null || true
    timed() {   # timed NAME NRANKS ARGS...: a run, its JSON and its wall time
        # (sh has no local variables: these names are used nowhere else)
        t_name=$1; t_np=$2; shift 2
        t0=$(date +%s.%N)
        # shellcheck disable=SC2086
        "$mpirun" $flags -np "$t_np" "$gaps" $extra --quiet --json "$out/$t_name.json" "$@"
        t1=$(date +%s.%N)
        awk "BEGIN { print $t1 - $t0 }" >"$out/$t_name.wall"
        echo "$t_name: $(cat "$out/$t_name.wall") s"
    }
    for r in $ranks; do   # load the device images once
        # shellcheck disable=SC2086
        "$mpirun" $flags -np "$r" "$gaps" $extra --quiet --events 1000000 --output none
    done
    for n in $sizes; do
        for r in $ranks; do timed "strong-$n-$r" "$r" --events "$n" --output "$out/strong-$n-$r.yoda"; done
        first=$(echo "$ranks" | cut -d' ' -f1)
        for r in $ranks; do
            [ "$r" = "$first" ] && continue
            if cmp "$out/strong-$n-$first.yoda" "$out/strong-$n-$r.yoda"; then
                echo "YODA of $n events: $r ranks byte-identical to $first" | tee -a "$out/identity.txt"
            else
                echo "YODA of $n events: $r ranks DIFFER from $first" | tee -a "$out/identity.txt"
            fi
        done
    done
    for r in $ranks; do
        timed "weak-$r" "$r" --events "$((r * ${WEAK_EVENTS:-100000000}))" \
            --output "$out/weak-$r.yoda"
    done
    # the streamed output's transport: events sent to rank 0 in batches (--observables-out)
    for r in $ranks; do
        timed "stream-$r" "$r" --events "${STREAM_EVENTS:-10000000}" --output none \
            --observables-out /tmp/gaps-stream.csv
    done
    rm -f /tmp/gaps-stream.csv
    tables "$out"
    ;;
report)
    tables "$2"
    ;;
*)
    sed -n '2,22p' "$0"; exit 2 ;;
esac
