#!/usr/bin/env python3
"""Generated values and files for tests/test_robustness.sh.

Every boundary is computed in IEEE double arithmetic exactly as the C code does it (Python
floats are C doubles; gaps is built with -ffp-contract=off), and every number is printed with
repr(), the shortest text that reads back as the same double.

Subcommands (one value per output line, except plan):
  plan SEED ECM_LO ECM_HI RATIO
                            every generated value of the test at once, as shell assignments
                            to eval (python starts once); ECM_LO may be "-" (no lower
                            limit).  Reads the integer options, "name lo hi" per line, on
                            standard input.
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
  split-ranges STATE OUT R  a state of N events in one range [B, B+N) made into R ranges of
                            N/R events each, one event apart (the same sums: a state the
                            program could have merged from R runs)
"""
import argparse
import json
import math
import random
import signal
import struct
import sys
import zlib

# The state file (src/io/state.c, doc/formats.md): magic, format, kind, version[32], the
# parameters (8 bytes each, the PDF set's name 128 more), the PDF digest, w_unit, events,
# capacity_hits, invalid_events, bad_weights, ..., the ranges, the sums, the variations' block
# (format 9: --vary, --shower-mur-factor, two counts, the variations' sums), then for a
# checkpoint the resume point; a CRC-32 (zlib's) of everything before it ends the file.
STATE_FORMAT = 9
KIND_OFFSET = 12
INVALID_OFFSET = 8 + 4 + 4 + 32 + 14 * 8 + 128 + 8 + 8 + 8 + 8
RANGES_OFFSET = 344   # u32 number of ranges, u32 reserved, then the ranges (16 bytes each)


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


def plan(seed, ecm_lo, ecm_hi, ratio, int_specs):
    """Shell assignments for test_robustness.sh; every value a plain token (no quoting)."""
    rng = random.Random(seed)
    out = {}

    def loguniform(lo, hi, n):
        return [min(max(math.exp(rng.uniform(math.log(lo), math.log(hi))), lo), hi)
                for _ in range(n)]

    for line in int_specs:
        name, lo, hi = line.split()[:3]
        lo, hi = int(lo), int(hi)
        key = name.replace("-", "_")
        mid = rng.randint(max(lo, 1), hi)   # not 0: "00000" would be a valid 0
        out[f"mid_{key}"] = mid
        out[f"above_{key}"] = hi + 1
        out[f"below_{key}"] = lo - 1 if lo > 0 else -1
        out[f"hex_{key}"] = hex(mid)
        s = str(hi)
        out[f"sci_{key}"] = f"{s[0]}.{s[1:]}e{len(s) - 1}" if len(s) > 1 else f"{s}e0"
    # --ecm: the top, one step inside, two random energies inside; one step beyond and more
    out["ecm_accept"] = " ".join(repr(x) for x in [ecm_hi, nxt(ecm_hi, False)]
                                 + loguniform(91.2, ecm_hi, 2))
    out["ecm_refuse"] = " ".join(repr(x) for x in [nxt(ecm_hi, True), 2 * ecm_hi, 1e100, 1e155,
                                                   1e300, 1.7976931348623157e308])
    if ecm_lo is not None:
        out["ecm_lo_accept"] = " ".join(f"{repr(x)}:{repr(tmax(x))}"
                                        for x in [ecm_lo, nxt(ecm_lo, True)])
        out["ecm_lo_refuse"] = " ".join(repr(x) for x in [nxt(ecm_lo, False), ecm_lo / 2, 1e-40,
                                                          1e-300, 5e-324])
    # tiny energies with the largest and (nearly) the smallest t_cut the ratios allow
    tiny = [1e-3, 1e-20, 1e-35, 1e-40, 1e-60] + loguniform(1e-100, 1.0, 2)
    out["tiny"] = " ".join(f"{repr(e)}:{repr(tmax(e))} {repr(e)}:{repr(e * e / ratio * 1.0000001)}"
                           for e in tiny)
    # the two t_cut boundaries at several energies: e:tmin:below:tmax:above
    cases = []
    for e in [ecm_hi, 91.2] + loguniform(10.0, ecm_hi, 2):
        t0, t1 = tmin(e, ratio), tmax(e)
        cases.append(":".join(repr(x) for x in (e, t0, nxt(t0, False), t1, nxt(t1, True))))
    out["tcut_cases"] = " ".join(cases)
    # random physics inside the limits: e:t:alphas:order:maxpartons
    combos = []
    for _ in range(10):
        e = math.exp(rng.uniform(0.0, math.log(ecm_hi)))
        t = math.exp(rng.uniform(math.log(e * e / ratio * 1.000001), math.log(e * e / 4 * 0.999999)))
        a = rng.choice([math.exp(rng.uniform(math.log(1e-300), math.log(0.1))),
                        rng.uniform(0.01, 0.99), 1 - 10 ** rng.uniform(-16, -2)])
        combos.append(":".join([repr(e), repr(t), repr(a), str(rng.randint(0, 2)),
                                str(rng.randint(3, 64))]))
    out["combos"] = " ".join(combos)
    # event ranges around 2^53, where a double stops holding every integer, and up to 2^62
    out["firsts"] = " ".join(str(x) for x in [2**53 - 500, 2**53 + 1,
                                              rng.randint(2**53, 2**62 - 1000), 2**62 - 1000])
    # failing events of a state of 1000 events: at most all of them (a state file with more
    # is refused as impossible)
    out["failures"] = f"1 {rng.randint(2, 999)} 1000"
    out["modes"] = "600 640 604 444 755 " + " ".join(f"{rng.randint(0o400, 0o777):o}"
                                                     for _ in range(2))
    # signal:number:delay (the numbers differ between architectures)
    out["signals"] = " ".join(f"{n}:{int(getattr(signal, 'SIG' + n))}:{rng.uniform(0.05, 0.4):.3f}"
                              for n in ("QUIT", "USR1", "USR2", "ALRM", "HUP", "INT", "TERM",
                                        "KILL", "PIPE"))
    out["blocks"] = "1 " + " ".join(str(rng.randint(2, 2000)) for _ in range(4))
    out["pools"] = f"{1 << 28} " + " ".join(str(rng.randint(30_000_000, 200_000_000))
                                            for _ in range(2))
    out["threads"] = f"1 2 3 {rng.randint(4, 9)}"
    out["xsec_ecm"] = f"{repr(ecm_hi)} {repr(loguniform(1000.0, ecm_hi, 1)[0])}"
    for k, v in out.items():
        print(f"{k}='{v}'")


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
    if c == "plan":
        plan(int(v[0]), None if v[1] == "-" else float(v[1]), float(v[2]), float(v[3]),
             [line for line in sys.stdin if line.strip()])
    elif c == "next":
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
        # HepMC3 running sums, launches, veto cycles, the event-file digest (0: a built-in
        # process), the number of named HepMC3 weights whose running sums follow (none)
        body += struct.pack("<qqqqqQddQQQQ", first, events, nxt_event, -1, -1, 0, 0.0, 0.0, 0, 0,
                            0, 0)
        write_state(v[1], body)
    elif c == "failing-state":
        body, _ = read_state(v[0])
        struct.pack_into("<Q", body, INVALID_OFFSET, int(v[2]))
        write_state(v[1], body)
    elif c == "split-ranges":
        body, _ = read_state(v[0])
        r = int(v[2])
        (n_ranges,) = struct.unpack_from("<I", body, RANGES_OFFSET)
        if n_ranges != 1:
            sys.exit("values.py: split-ranges needs a state with one range")
        begin, end = struct.unpack_from("<qq", body, RANGES_OFFSET + 8)
        if (end - begin) % r:
            sys.exit(f"values.py: {end - begin} events do not split into {r} ranges")
        k = (end - begin) // r
        ranges = b"".join(struct.pack("<qq", begin + i * (k + 1), begin + i * (k + 1) + k)
                          for i in range(r))
        head = bytearray(body[:RANGES_OFFSET + 8])
        struct.pack_into("<I", head, RANGES_OFFSET, r)
        write_state(v[1], head + ranges + body[RANGES_OFFSET + 8 + 16:])
    else:
        sys.exit(f"values.py: unknown command {c}")


if __name__ == "__main__":
    main()
