#!/usr/bin/env python3
"""Generated values and files for tests/test_robustness.sh.

Every boundary is computed in IEEE double arithmetic exactly as the C code does it (Python
floats are C doubles; gaps is built with -ffp-contract=off), and every number is printed with
repr(), the shortest text that reads back as the same double.

Subcommands (one value per output line):
  next X up|down            the neighbouring double of X
  tmin ECM RATIO            smallest t_cut with ECM*ECM <= RATIO*t_cut
  tmax ECM                  largest t_cut with ECM*ECM > 4*t_cut
  loguniform LO HI N SEED   N values, log-uniform in [LO, HI]
  uniform LO HI N SEED      N integers, uniform in [LO, HI]
  json FILE KEY             a top-level key of a JSON file
  failing-checkpoint STATE OUT FIRST EVENTS NEXT K
                            turn a --state-out file of the events [FIRST, NEXT) into the
                            checkpoint of a run of EVENTS events from FIRST that stopped at
                            NEXT, with K events counted as failing the built-in checks
  failing-state STATE OUT K the same state with K failing events
"""
import argparse
import json
import math
import random
import struct
import sys
import zlib

# The state file (src/state.c): magic, format, kind, version[32], ecm, alphas_mz, t_cut,
# 4 u32, events, capacity_hits, invalid_events, ...; a CRC-32 (zlib's) of everything before
# it ends the file.
STATE_FORMAT = 1
KIND_OFFSET = 12
INVALID_OFFSET = 8 + 4 + 4 + 32 + 3 * 8 + 4 * 4 + 8 + 8


def nxt(x, up):
    return math.nextafter(x, math.inf if up else -math.inf)


def tmin(ecm, ratio):
    s = ecm * ecm
    t = s / ratio
    while not s <= ratio * t:
        t = nxt(t, True)
    while s <= ratio * nxt(t, False):
        t = nxt(t, False)
    return t


def tmax(ecm):
    s = ecm * ecm
    t = s / 4.0
    while not s > 4.0 * t:
        t = nxt(t, False)
    while s > 4.0 * nxt(t, True):
        t = nxt(t, True)
    return t


def read_state(path):
    data = bytearray(open(path, "rb").read())
    if data[:8] != b"GAPSSTAT":
        sys.exit(f"values.py: {path} is not a gaps state file")
    fmt, kind = struct.unpack_from("<II", data, 8)
    if fmt != STATE_FORMAT:
        sys.exit(f"values.py: {path} has state format {fmt}; this script knows {STATE_FORMAT}")
    if zlib.crc32(data[:-4]) != struct.unpack_from("<I", data, len(data) - 4)[0]:
        sys.exit(f"values.py: {path}: checksum mismatch")
    return data[:-4], kind


def write_state(path, body):
    open(path, "wb").write(bytes(body) + struct.pack("<I", zlib.crc32(body)))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command")
    ap.add_argument("args", nargs="*")
    a = ap.parse_args()
    c, v = a.command, a.args
    if c == "next":
        print(repr(nxt(float(v[0]), v[1] == "up")))
    elif c == "tmin":
        print(repr(tmin(float(v[0]), float(v[1]))))
    elif c == "tmax":
        print(repr(tmax(float(v[0]))))
    elif c == "loguniform":
        rng = random.Random(int(v[3]))
        lo, hi = math.log(float(v[0])), math.log(float(v[1]))
        for _ in range(int(v[2])):
            print(repr(min(max(math.exp(rng.uniform(lo, hi)), float(v[0])), float(v[1]))))
    elif c == "uniform":
        rng = random.Random(int(v[3]))
        for _ in range(int(v[2])):
            print(rng.randint(int(v[0]), int(v[1])))
    elif c == "json":
        print(json.load(open(v[0]))[v[1]])
    elif c == "failing-checkpoint":
        body, kind = read_state(v[0])
        if kind != 1:
            sys.exit("values.py: expected a state file, not a checkpoint")
        first, events, nxt_event, k = (int(x) for x in v[2:6])
        struct.pack_into("<I", body, KIND_OFFSET, 2)
        struct.pack_into("<Q", body, INVALID_OFFSET, k)
        # resume point: first_event, events, next_event, rows and hepmc offsets (-1: none),
        # HepMC3 running sums, launches, veto cycles
        body += struct.pack("<qqqqqQddQQ", first, events, nxt_event, -1, -1, 0, 0.0, 0.0, 0, 0)
        write_state(v[1], body)
    elif c == "failing-state":
        body, _ = read_state(v[0])
        struct.pack_into("<Q", body, INVALID_OFFSET, int(v[2]))
        write_state(v[1], body)
    else:
        sys.exit(f"values.py: unknown command {c}")


if __name__ == "__main__":
    main()
