#!/bin/sh
# One run of gaps writes its events (--hepmc) and its per-event observables (CSV); crosscheck
# reads the events with HepMC3 and reclusters them with FastJet (see crosscheck.cc).
# Usage: run_crosscheck.sh GAPS CROSSCHECK WORKDIR
gaps=$1
xcheck=$2
work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
"$gaps" --events 10000 --seed 5 --hepmc ev.hepmc --observables-out obs.csv --output - --quiet \
    || { echo "FAIL: gaps run (exit $?)"; exit 1; }
"$xcheck" ev.hepmc obs.csv
