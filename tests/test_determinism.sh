#!/bin/sh
# The same seed gives bitwise-identical per-event observables, byte-identical HepMC3 event
# files and byte-identical YODA files (apart from the lines that name the backend and the source revision),
# whatever the build (serial, multicore, offload on the host), thread count, pool size, loop
# structure and refill mode.  Usage: test_determinism.sh WORKDIR BINARY [BINARY...]
work=$1; shift
rm -rf "$work" && mkdir -p "$work" || exit 1
common="--events 20000 --seed 7 --quiet"
fail=0
ref=""
i=0
run() {   # run LABEL BINARY ARGS...
    label=$1; bin=$2; shift 2
    KMP_WARNINGS=0 "$bin" $common --observables-out "$work/$label.csv" --output "$work/$label.yoda" \
        --json "$work/$label.json" --hepmc "$work/$label.hepmc" "$@" \
        || { echo "FAIL: $label did not run"; fail=1; return; }
    grep -v -e '^Backend: ' -e '^GitRevision: ' "$work/$label.yoda" >"$work/$label.yoda-physics"
    sed -n 's/.*"sigma_pb": \(.*\),/\1/p' "$work/$label.json" >"$work/$label.sigma"
    if [ -z "$ref" ]; then ref=$label; return; fi
    for ext in csv yoda-physics hepmc sigma; do
        if cmp -s "$work/$ref.$ext" "$work/$label.$ext"; then :; else
            echo "FAIL: $label.$ext differs from $ref.$ext"; fail=1
            [ $ext = csv ] && echo "  $(cmp "$work/$ref.csv" "$work/$label.csv" | head -1)"
        fi
    done
    echo "ok: $label identical to $ref"
}
for bin in "$@"; do
    i=$((i + 1))
    backend=$("$bin" --version | sed -n '1s/.*(\([a-z]*\) backend.*/\1/p')
    extra=""
    [ "$backend" = offload ] && extra="--allow-host"
    run "b${i}-$backend" "$bin" $extra
    run "b${i}-$backend-pool37" "$bin" $extra --pool 37
    run "b${i}-$backend-steps" "$bin" $extra --loops steps --pool 1000
    run "b${i}-$backend-batches-c3" "$bin" $extra --no-refill --cycles-per-launch 3 --pool 500
    run "b${i}-$backend-rounds-c7s3" "$bin" $extra --cycles-per-launch 7 --split-every 3 --pool 300
    run "b${i}-$backend-rounds-c16s32" "$bin" $extra --cycles-per-launch 16 --split-every 32
    if [ "$backend" = openmp ]; then
        run "b${i}-openmp-1thread" "$bin" --threads 1
        run "b${i}-openmp-2threads" "$bin" --threads 2 --pool 999
        run "b${i}-openmp-3threads" "$bin" --threads 3 --loops steps
    fi
done
exit $fail
