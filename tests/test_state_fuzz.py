#!/usr/bin/env python3
"""State and checkpoint files from a buggy or hostile writer (doc/formats.md, state format 9).

Takes a valid state and a valid checkpoint (with its .part files) made by the program, changes
one field at a time to values whose meaning is impossible (NaN, infinities, negatives, huge
numbers, values beyond the program's limits, non-printable or unterminated version strings,
counts beyond the events, ranges out of order or overlapping, sums no run can make, resume
points outside the run, stream offsets in the middle of a line or of an event), writes each
with a VALID CRC-32, and checks that

  gaps merge -o out.yoda FILE          and, for a checkpoint,
  gaps ... --resume FILE               (the run that wrote it, with its streamed outputs)

refuse it: exit status 2, exactly one line on standard error starting with "gaps: ", no
output created and the .part files untouched.  Stream offsets only mean something to a
resume: a checkpoint whose only fault is one is still a valid input of merge (exit 0).
Then random bytes of the content are changed (CRC recomputed): whatever happens, the
program must exit 0 or 2, with one line when 2, and never crash or hang.  The unchanged
files are accepted (exit 0) as a control.

Every command runs under a timeout.  Usage: test_state_fuzz.py GAPS_BINARY WORKDIR [SEED]
"""
import math
import os
import random
import shutil
import signal
import struct
import subprocess
import sys
import time
import zlib

TIMEOUT = 60
FORMAT = 9
HEADER = 352                              # ranges start here (doc/formats.md)
NBINS = 1191
NWORDS = 13
EVENT_BIN = NBINS - 2                     # the event counter's one bin
TAU_FIRST = 408                           # tau: bins 408..509 (underflow first)
MAX_EVENT = 1 << 62
U64 = (1 << 64) - 1

gaps = os.path.abspath(sys.argv[1])
work = os.path.abspath(sys.argv[2])
seed = int(sys.argv[3]) if len(sys.argv) > 3 else int(time.time())
rng = random.Random(seed)
print(f"seed {seed} (test_state_fuzz.py GAPS WORKDIR {seed} repeats it)")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
os.chdir(work)
env = dict(os.environ, KMP_WARNINGS="0", LC_ALL="C")
env["ASAN_OPTIONS"] = "allocator_may_return_null=1" + (
    ":" + env["ASAN_OPTIONS"] if env.get("ASAN_OPTIONS") else "")
extra = []
if "offload backend" in subprocess.run([gaps, "--version"], capture_output=True, text=True,
                                       timeout=TIMEOUT).stdout:
    extra = ["--allow-host"]

failures = 0
checks = 0
VERBOSE = os.environ.get("VERBOSE") == "1"   # every refusal message


def bad(why):
    global failures
    failures += 1
    print("FAIL: " + why)


def run(args, timeout=TIMEOUT):
    try:
        p = subprocess.run([gaps] + args, capture_output=True, timeout=timeout, env=env)
        return p.returncode, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return "timeout", ""


# ---- the file ----------------------------------------------------------------------------

class State:
    """A state or checkpoint file, field by field (doc/formats.md)."""

    def __init__(self, data):
        assert data[:8] == b"GAPSSTAT", "not a state file"
        assert zlib.crc32(data[:-4]) == struct.unpack_from("<I", data, len(data) - 4)[0]
        self.fmt, self.kind = struct.unpack_from("<II", data, 8)
        assert self.fmt == FORMAT, f"state format {self.fmt}, this test knows {FORMAT}"
        self.version = bytes(data[16:48])
        # the parameters of gaps/parameters.h in list order, 8 bytes each (the PDF set's
        # name 128 bytes before its member)
        self.process, self.compat, self.analysis = struct.unpack_from("<3Q", data, 48)
        (self.ecm,) = struct.unpack_from("<d", data, 72)
        self.pdf_name = bytes(data[80:208])
        (self.pdf_member,) = struct.unpack_from("<Q", data, 208)
        (self.alphas_mz,) = struct.unpack_from("<d", data, 216)
        (self.order,) = struct.unpack_from("<Q", data, 224)
        (self.tcut,) = struct.unpack_from("<d", data, 232)
        self.seed, self.maxp, self.nlo, self.ablate = struct.unpack_from("<4Q", data, 240)
        self.w_charge, self.leptons = struct.unpack_from("<2Q", data, 272)
        (self.pdf_digest,) = struct.unpack_from("<Q", data, 288)
        (self.w_unit,) = struct.unpack_from("<d", data, 296)
        self.events, self.cap, self.invalid, self.badw = struct.unpack_from("<4Q", data, 304)
        self.nbins, self.nwords, self.nranges, self.res1 = struct.unpack_from("<4I", data, 336)
        self.ranges = [list(struct.unpack_from("<2q", data, HEADER + 16 * i))
                       for i in range(self.nranges)]
        at = HEADER + 16 * self.nranges
        self.words = list(struct.unpack_from("<%dQ" % (NBINS * NWORDS), data, at))
        at += 8 * NBINS * NWORDS
        # the variations (format 9): --vary bits, --shower-mur-factor, the safeguards' counts,
        # and the variations' sums (none here: the states of this test have no --vary)
        self.vary, self.mur, self.vover, self.vlarge = struct.unpack_from("<QdQQ", data, at)
        assert self.vary == 0
        at += 32
        self.ck = None
        if self.kind == 2:
            self.ck = list(struct.unpack_from("<5qQ2d3Q", data, at))
            at += 88
            # the named HepMC3 weights' running sums (sum, sum of squares each)
            (nw,) = struct.unpack_from("<Q", data, at)
            self.ck_named = list(struct.unpack_from("<%dd" % (2 * nw), data, at + 8))
            at += 8 + 16 * nw
        assert at == len(data) - 4

    def copy(self):
        c = State.__new__(State)
        c.__dict__ = {k: (list(v) if isinstance(v, list) else v) for k, v in self.__dict__.items()}
        c.ranges = [list(r) for r in self.ranges]
        if hasattr(self, "ck_named"):
            c.ck_named = list(self.ck_named)
        return c

    def body(self, nranges=None):
        b = bytearray(b"GAPSSTAT")
        b += struct.pack("<II", self.fmt & 0xffffffff, self.kind & 0xffffffff)
        b += self.version
        b += struct.pack("<3Q", self.process & U64, self.compat & U64, self.analysis & U64)
        b += struct.pack("<d", self.ecm)
        b += self.pdf_name
        b += struct.pack("<Q", self.pdf_member & U64)
        b += struct.pack("<d", self.alphas_mz)
        b += struct.pack("<Q", self.order & U64)
        b += struct.pack("<d", self.tcut)
        b += struct.pack("<4Q", self.seed & U64, self.maxp & U64, self.nlo & U64,
                         self.ablate & U64)
        b += struct.pack("<2Q", self.w_charge & U64, self.leptons & U64)
        b += struct.pack("<Q", self.pdf_digest & U64)
        b += struct.pack("<d", self.w_unit)
        b += struct.pack("<4Q", *(x & U64 for x in (self.events, self.cap, self.invalid,
                                                      self.badw)))
        b += struct.pack("<4I", self.nbins & 0xffffffff, self.nwords & 0xffffffff,
                         (len(self.ranges) if nranges is None else nranges) & 0xffffffff,
                         self.res1 & 0xffffffff)
        for r in self.ranges:
            b += struct.pack("<2Q", r[0] & U64, r[1] & U64)
        b += struct.pack("<%dQ" % len(self.words), *(w & U64 for w in self.words))
        b += struct.pack("<QdQQ", self.vary & U64, self.mur, self.vover & U64, self.vlarge & U64)
        if self.ck is not None:
            c = self.ck
            b += struct.pack("<5QQ2d3Q", *(x & U64 for x in c[:6]), c[6], c[7],
                             c[8] & U64, c[9] & U64, c[10] & U64)
            b += struct.pack("<Q", len(self.ck_named) // 2)
            b += struct.pack("<%dd" % len(self.ck_named), *self.ck_named)
        return b

    def write(self, path, nranges=None):
        b = self.body(nranges)
        with open(path, "wb") as f:
            f.write(bytes(b) + struct.pack("<I", zlib.crc32(b)))

    # the accumulators of one bin: [sumw, sumw2, sumwx, sumwx2] as integers, and the count
    def get_sum(self, b, k):
        w = self.words[b * NWORDS + 3 * k: b * NWORDS + 3 * k + 3]
        v = w[0] | w[1] << 64 | w[2] << 128
        return v - (1 << 192) if v >> 191 else v

    def set_sum(self, b, k, v):
        v &= (1 << 192) - 1
        for j in range(3):
            self.words[b * NWORDS + 3 * k + j] = (v >> (64 * j)) & U64

    def count(self, b):
        return self.words[b * NWORDS + 12]

    def set_count(self, b, n):
        self.words[b * NWORDS + 12] = n & U64


def f64_bits(x):
    return struct.unpack("<d", struct.pack("<Q", x))[0]


# ---- the valid files, made by the program ------------------------------------------------

rc, err = run(extra + ["--events", "3000", "--seed", "4", "--output", "none", "--quiet",
                       "--state-out", "valid.state"])
if rc != 0:
    sys.exit(f"FAIL: making the valid state: exit {rc}: {err}")

# A checkpoint with streamed outputs: a run stopped by SIGTERM after its first checkpoint
# leaves a last checkpoint and the .part files.
RUN = ["--seed", "4", "--max-partons", "32", "--output", "none", "--quiet",
       "--observables-out", "o.csv", "--hepmc", "o.hepmc"]
events = 400000
for attempt in range(6):
    for f in ("ck", "o.csv.part", "o.hepmc.part"):
        if os.path.exists(f):
            os.unlink(f)
    cmd = [gaps] + extra + ["--events", str(events)] + RUN + ["--checkpoint", "ck",
                                                              "--checkpoint-every", "2000"]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    t0 = time.time()
    # the first checkpoint is written at the start (no event yet): wait for streamed events
    def streamed():
        return os.path.exists("ck") and os.path.exists("o.csv.part") \
            and os.path.getsize("o.csv.part") > 4096
    while not streamed() and p.poll() is None and time.time() - t0 < TIMEOUT:
        time.sleep(0.005)
    if p.poll() is None:
        p.send_signal(signal.SIGTERM)
    try:
        p.wait(TIMEOUT)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        sys.exit("FAIL: the checkpointed run did not stop after SIGTERM")
    if p.returncode == 128 + signal.SIGTERM and os.path.exists("ck"):
        break
    events *= 4   # it ended before the signal: a longer run
else:
    sys.exit("FAIL: could not make a checkpoint with .part files")
RUN = ["--events", str(events)] + RUN
os.makedirs("pristine")
for f in ("ck", "o.csv.part", "o.hepmc.part"):
    shutil.copy(f, "pristine/" + f)
st = State(open("valid.state", "rb").read())
ck = State(open("ck", "rb").read())
first, nev, nxt, rows_off, hepmc_off = ck.ck[:5]
print(f"valid state: {st.events} events; checkpoint: run of {nev} events, next event {nxt}, "
      f"offsets {rows_off} (CSV) {hepmc_off} (HepMC3)")
if not (rows_off > 0 and hepmc_off > 0 and nxt > first):
    sys.exit("FAIL: the checkpoint has no streamed events")


def part_stamp():
    return [(os.stat(f).st_size, os.stat(f).st_mtime_ns) for f in ("o.csv.part", "o.hepmc.part")]


stamp0 = part_stamp()


def restore_parts():
    for f in ("ck", "o.csv.part", "o.hepmc.part"):
        shutil.copy("pristine/" + f, f)


def one_line(rc, err):
    return err.count("\n") == 1 and err.endswith("\n") and err.startswith("gaps: ")


def expect_refused(what, path, resume, merge_ok=False, words=()):
    """merge (and --resume) of path: exit 2 and one line; merge_ok: merge must succeed."""
    global checks
    if os.path.exists("out.yoda"):
        os.unlink("out.yoda")
    rc, err = run(["merge", "-o", "out.yoda", "--quiet", path])
    if merge_ok:
        if rc != 0:
            bad(f"{what}: merge exit {rc}, expected 0: {err.strip()[:300]}")
    elif rc != 2 or not one_line(rc, err) or os.path.exists("out.yoda"):
        bad(f"{what}: merge exit {rc}, expected 2 and one line: {err.strip()[:300]!r}")
    else:
        checks += 1
        if VERBOSE:
            print(f"  {what}: merge: {err.strip()}")
        for w in words:
            if w not in err:
                bad(f"{what}: merge message lacks '{w}': {err.strip()}")
    if not resume:
        return
    rc, err = run(extra + RUN + ["--resume", path])
    if rc != 2 or not one_line(rc, err):
        bad(f"{what}: --resume exit {rc}, expected 2 and one line: {err.strip()[:300]!r}")
    else:
        checks += 1
        if VERBOSE:
            print(f"  {what}: --resume: {err.strip()}")
        for w in words:
            if w not in err:
                bad(f"{what}: --resume message lacks '{w}': {err.strip()}")
    if part_stamp() != stamp0 or not os.path.exists("ck"):
        bad(f"{what}: a refused resume changed the .part files or the checkpoint")
        restore_parts()


# ---- controls: the files as written are accepted ----
rc, err = run(["merge", "-o", "out.yoda", "--quiet", "valid.state"])
if rc != 0:
    bad(f"the valid state: merge exit {rc}: {err}")
rc, err = run(["merge", "-o", "out.yoda", "--quiet", "ck"])
if rc != 0:
    bad(f"the valid checkpoint: merge exit {rc}: {err}")
ck.write("same.ckpt")
rc, err = run(["merge", "-o", "out.yoda", "--quiet", "same.ckpt"])
if rc != 0:
    bad(f"the checkpoint rewritten by this test: merge exit {rc}: {err} (the test's writer is "
        "wrong)")

# ---- one field at a time ------------------------------------------------------------------
NAN = float("nan")
INF = float("inf")
mutations = []   # (name, function(State) -> None or nranges override, only_checkpoint)


def field(name, attr, values, ck_only=False):
    for v in values:
        mutations.append((f"{name} = {v!r}", lambda s, a=attr, v=v: setattr(s, a, v), ck_only))


field("format", "fmt", [1, 2, 3, 4, 5, 6, 7, 8, 10, 0, 0xffffffff])
# the variations' block (format 9) of a state without --vary
field("--shower-mur-factor", "mur", [NAN, INF, 0.0, -1.0, 0.2, 8.0])
field("variation safeguard count", "vover", [1, U64])
field("variation weight-ratio count", "vlarge", [1, U64])
field("kind", "kind", [0, 3, 0xffffffff])
for label, v in [("non-printable", b"1.0\x01.0"), ("DEL", b"1.0.0\x7f"), ("8-bit", b"1.\xc3\xa9"),
                 ("newline", b"1.0\n0"), ("empty", b""), ("unterminated", b"A" * 32),
                 ("bytes after the NUL", b"1.0.0\0junk")]:
    mutations.append((f"version {label}",
                      lambda s, v=v: setattr(s, "version", v.ljust(32, b"\0")[:32]), False))
field("sqrt(s)", "ecm", [NAN, INF, -INF, -91.2, 0.0, 0.5, 1e300, 1.0000001e5, 5e-324,
                         f64_bits(0x7ff8000000000001)])
field("alpha_s(M_Z)", "alphas_mz", [NAN, INF, 0.0, 1.0, -0.118, 1.5])
field("t_cut", "tcut", [NAN, INF, 0.0, -1.0, 1e-300, 1e-9, 1e4])
field("alpha_s order", "order", [3, 7, 0xffffffff, 1 << 32, U64])
field("record capacity", "maxp", [0, 2, 65, 1000, 0xffffffff, (1 << 32) + 32])
field("seed", "seed", [1 << 32, U64])
field("nlo", "nlo", [2, 1 << 32, U64])
field("ablate", "ablate", [128, 1 << 32, U64])
field("W charge", "w_charge", [3, 1 << 32, U64])
field("leptons", "leptons", [3, 1 << 32, U64])
field("process", "process", [3, 1000, U64])
field("compat", "compat", [2, U64])
field("analysis", "analysis", [1, 5, U64])
field("PDF member without a set", "pdf_member", [1, U64])
field("PDF digest without a set", "pdf_digest", [1, U64])
# a PDF set with ee-qq, a name that is no set name or not NUL-padded
for label, v in [("a PDF set with ee-qq", b"CT14lo"), ("a space", b"CT 14"),
                 ("a slash", b"CT/14"), ("non-printable", b"CT\x01"), ("8-bit", b"C\xc3\xa9"),
                 ("unterminated", b"A" * 128), ("bytes after the NUL", b"CT14lo\0junk")]:
    mutations.append((f"PDF name {label}",
                      lambda s, v=v: setattr(s, "pdf_name", v.ljust(128, b"\0")[:128]), False))
field("reserved word 348", "res1", [1])
field("weight unit", "w_unit", [NAN, INF, -INF, 0.0, -1.0, 5e-324, 2.0 ** 101, 2.0 ** -101])
mutations.append(("weight unit twice the process's", lambda s: setattr(s, "w_unit", 2 * s.w_unit),
                  False))
mutations.append(("weight unit one ulp off", lambda s: setattr(s, "w_unit",
                                                                 math.nextafter(s.w_unit, 0)),
                  False))
mutations.append(("events + 1", lambda s: setattr(s, "events", s.events + 1), False))
mutations.append(("events 0", lambda s: setattr(s, "events", 0), False))
mutations.append(("events 2^64-1", lambda s: setattr(s, "events", U64), False))
for attr, name in (("cap", "capacity hits"), ("invalid", "invalid events"),
                   ("badw", "bad weights")):
    mutations.append((f"{name} = events + 1", lambda s, a=attr: setattr(s, a, s.events + 1), False))
    mutations.append((f"{name} = 2^64-1", lambda s, a=attr: setattr(s, a, U64), False))
    mutations.append((f"{name} = 2^63", lambda s, a=attr: setattr(s, a, 1 << 63), False))
field("bins", "nbins", [NBINS - 1, NBINS + 1, 0])
field("words per bin", "nwords", [9, 12, 14])
mutations.append(("range count + 1 (table shorter than said)", lambda s: len(s.ranges) + 1, False))
mutations.append(("range count 1025", lambda s: 1025, False))
mutations.append(("range count 2^32-1", lambda s: 0xffffffff, False))


def set_ranges(s, ranges):
    s.ranges = [list(r) for r in ranges]


def ranges_of(s):
    return s.ranges[0][0], s.ranges[0][1]


def m_range(kind):
    def f(s):
        b, e = ranges_of(s)
        n = e - b
        if kind == "negative":
            set_ranges(s, [[-1, n - 1]])
        elif kind == "beyond 2^62":
            set_ranges(s, [[MAX_EVENT - n + 1, MAX_EVENT + 1]])
        elif kind == "end before begin":
            set_ranges(s, [[e, b]])
        elif kind == "empty":
            set_ranges(s, [[b, b], [b, e]])
        elif kind == "overlapping":
            set_ranges(s, [[b, b + n // 2 + 10], [b + n // 2, e + 10]])
        elif kind == "adjacent":
            set_ranges(s, [[b, b + n // 2], [b + n // 2, e]])
        elif kind == "unsorted":
            set_ranges(s, [[b + n + 100, b + n + 100 + n // 2], [b, b + n - n // 2]])
        elif kind == "huge":
            set_ranges(s, [[0, MAX_EVENT]])
        elif kind == "shifted":
            set_ranges(s, [[b + 1, e + 1]])
    return f


for kind in ("negative", "beyond 2^62", "end before begin", "empty", "overlapping",
             "adjacent", "unsorted", "huge"):
    mutations.append((f"ranges {kind}", m_range(kind), False))
mutations.append(("checkpoint ranges shifted by one", m_range("shifted"), True))


def cs_excess(s, b):
    """a sum of weights (quanta) just beyond what Cauchy-Schwarz allows bin b with its count
    and sum of w^2: |s1| <= sqrt(n 2^40 (s2 + n/2)) + n/2 (src/io/state.c), within the
    2^126-per-entry range (so that only that check can refuse it)"""
    n, s2 = s.count(b), s.get_sum(b, 1)
    return math.isqrt(n * (1 << 40) * (s2 + n)) * 1000001 // 1000000 + n + 1


def m_words(kind):
    def f(s):
        n = s.events
        if kind == "bin entries > events":
            s.set_count(TAU_FIRST + 5, n + 1)
        elif kind == "histogram entries > events":
            s.set_count(TAU_FIRST + 5, n)
            s.set_count(TAU_FIRST + 6, 1)
        elif kind == "event counter entries != events":
            s.set_count(EVENT_BIN, n - 1)
        elif kind == "event counter overflow entries > events":
            # (the overflow counts the imprecise weights: at most one per event)
            s.set_count(EVENT_BIN + 1, n + 1)
        elif kind == "imprecise weights with a negative sum of |w|":
            s.set_count(EVENT_BIN + 1, 1)
            s.set_sum(EVENT_BIN + 1, 0, -(1 << 20))
            s.set_sum(EVENT_BIN + 1, 1, 2)    # (Cauchy-Schwarz holds)
        elif kind == "event counter sum w above sqrt(n sum w^2)":
            s.set_sum(EVENT_BIN, 0, cs_excess(s, EVENT_BIN))
        elif kind == "event counter sum w below -sqrt(n sum w^2)":
            s.set_sum(EVENT_BIN, 0, -cs_excess(s, EVENT_BIN))
        elif kind == "event counter sum w^2 0 with a sum w":
            s.set_sum(EVENT_BIN, 1, 0)
        elif kind == "bin sum w above sqrt(n sum w^2)":
            b = max(range(TAU_FIRST, TAU_FIRST + 102), key=s.count)
            s.set_sum(b, 0, cs_excess(s, b))
        elif kind == "bin sum w^2 0 with a sum w":
            b = max(range(TAU_FIRST, TAU_FIRST + 102), key=s.count)
            s.set_sum(b, 1, 0)
        elif kind == "event counter underflow entries > events":
            s.set_count(EVENT_BIN - 1, n + 1)
        elif kind == "negative weights with a positive sum":
            s.set_count(EVENT_BIN - 1, 1)
            s.set_sum(EVENT_BIN - 1, 0, 1 << 40)
        elif kind == "negative sum of w^2":
            s.set_sum(EVENT_BIN, 1, -1)
        elif kind == "sum w beyond its entries":
            s.set_sum(EVENT_BIN, 0, (n << 126) + 1)
        elif kind == "sum w x beyond its entries (negative)":
            s.set_sum(EVENT_BIN, 2, -(n << 126) - 1)
        elif kind == "a sum without entries":
            b = next((b for b in range(TAU_FIRST, TAU_FIRST + 102) if s.count(b) == 0),
                     TAU_FIRST)
            s.set_sum(b, 0, (s.count(b) << 126) + 1)
        elif kind == "sum near 2^191":
            s.set_sum(EVENT_BIN, 0, (1 << 191) - 1)
        elif kind == "count 2^64-1":
            s.set_count(TAU_FIRST + 5, U64)
    return f


for kind in ("bin entries > events", "histogram entries > events",
             "event counter entries != events", "event counter overflow entries > events",
             "imprecise weights with a negative sum of |w|",
             "event counter sum w above sqrt(n sum w^2)",
             "event counter sum w below -sqrt(n sum w^2)",
             "event counter sum w^2 0 with a sum w", "bin sum w above sqrt(n sum w^2)",
             "bin sum w^2 0 with a sum w",
             "event counter underflow entries > events", "negative weights with a positive sum",
             "negative sum of w^2", "sum w beyond its entries",
             "sum w x beyond its entries (negative)", "a sum without entries", "sum near 2^191",
             "count 2^64-1"):
    mutations.append((f"words: {kind}", m_words(kind), False))


def m_ck(i, value, name):
    def f(s):
        s.ck[i] = value(s) if callable(value) else value
    mutations.append((f"checkpoint {name}", f, True))


m_ck(0, -1, "first event -1")
m_ck(0, MAX_EVENT, "first event 2^62")
m_ck(0, lambda s: s.ck[0] + 1, "first event + 1")
m_ck(1, 0, "events 0")
m_ck(1, -1, "events -1")
m_ck(1, MAX_EVENT + 1, "events 2^62 + 1")
m_ck(1, lambda s: s.ck[1] + 1, "events + 1 (another run)")
m_ck(2, lambda s: s.ck[0] - 1, "next event before the run")
m_ck(2, lambda s: s.ck[0] + s.ck[1] + 1, "next event after the run")
m_ck(2, lambda s: s.ck[2] - 1, "next event - 1 (not the ranges' end)")
m_ck(2, -(1 << 63), "next event -2^63")
m_ck(3, -2, "CSV offset -2")
m_ck(4, -(1 << 63), "HepMC3 offset -2^63")
m_ck(5, lambda s: s.ck[2] - s.ck[0] + 1, "HepMC3 events > events done")
m_ck(5, U64, "HepMC3 events 2^64-1")
m_ck(6, NAN, "HepMC3 sum w NaN")
m_ck(6, INF, "HepMC3 sum w inf")
m_ck(7, -1.0, "HepMC3 sum w^2 negative")
m_ck(7, NAN, "HepMC3 sum w^2 NaN")
# running sums with a valid CRC that no run of these events makes (issue 28: a sum of 1e300
# resumed and wrote GenCrossSection 8.3e296)
m_ck(6, 1e300, "HepMC3 sum w 1e300")
m_ck(6, lambda s: -s.ck[6], "HepMC3 sum w negated")
m_ck(6, lambda s: 2 * s.ck[6], "HepMC3 sum w doubled")
m_ck(6, lambda s: s.ck[6] * (1 + 1e-6), "HepMC3 sum w 1e-6 off")
m_ck(7, lambda s: s.ck[7] * (1 + 1e-6), "HepMC3 sum w^2 1e-6 off")
m_ck(7, lambda s: s.ck[7] * 1e6, "HepMC3 sum w^2 x 1e6")
m_ck(7, 1e300, "HepMC3 sum w^2 1e300")


def m_ck_both(s):
    s.ck[6], s.ck[7] = 1e150, 1e300   # (sum w)^2 <= n sum w^2: only the state refutes them
mutations.append(("checkpoint HepMC3 sums 1e150 and 1e300", m_ck_both, True))


def m_ck_fewer(s):
    s.ck[5] = s.ck[5] // 2            # fewer events than done, with all the events' sums
    s.ck[7] = s.ck[7] * 4
mutations.append(("checkpoint HepMC3 half the events, 4 x the sum w^2", m_ck_fewer, True))
m_ck(8, 1 << 63, "launches 2^63")
m_ck(9, U64, "veto cycles 2^64-1")
m_ck(10, 0x1234, "an event-file digest for a built-in process")


def m_ck_zero_n(s):
    s.ck[5] = 0
mutations.append(("checkpoint HepMC3 sums without events", m_ck_zero_n, True))

# ---- stream offsets: only a resume can tell ----
csv = open("o.csv.part", "rb").read()
hep = open("o.hepmc.part", "rb").read()


def line_start(data, end):
    """start of the line that ends (with its newline) at byte `end`"""
    return data.rfind(b"\n", 0, end - 1) + 1


csv_prev = line_start(csv, rows_off)                  # end of event next - 2
hep_last_line = line_start(hep, hepmc_off)            # inside event next - 1 (a P line)
hep_prev_event = hep.rfind(b"\nE ", 0, hepmc_off - 1) + 1   # start of event next - 1
csv_header = csv.index(b"\n") + 1
hep_header = hep.index(b"\nE ") + 1
offset_cases = [
    ("CSV offset in the middle of a line", 3, rows_off - 1),
    ("CSV offset one byte on", 3, rows_off + 1),
    ("CSV offset at the previous line", 3, csv_prev),
    ("CSV offset at the header's end", 3, csv_header),
    ("CSV offset inside the header", 3, 5),
    ("CSV offset 0", 3, 0),
    ("CSV offset past the file's end", 3, len(csv) + 10),
    ("HepMC3 offset in the middle of a line", 4, hepmc_off - 1),
    ("HepMC3 offset at a line inside the event", 4, hep_last_line),
    ("HepMC3 offset at the previous event", 4, hep_prev_event),
    ("HepMC3 offset at the header's end", 4, hep_header),
    ("HepMC3 offset 0", 4, 0),
    ("HepMC3 offset past the file's end", 4, len(hep) + 10),
    ("CSV offset -1 (no stream, but the run has one)", 3, -1),
]
for name, i, v in offset_cases:
    def f(s, i=i, v=v):
        s.ck[i] = v
    mutations.append((name, f, "stream"))

# a possible checkpoint, of another run: merge takes it, --resume of this run does not
MERGE_OK = {"checkpoint events + 1 (another run)"}
n_tried = 0
for name, mutate, which in mutations:
    for base, label, path in ((st, "state", "m.state"), (ck, "checkpoint", "m.ckpt")):
        if which and base is st:
            continue
        m = base.copy()
        nr = mutate(m)
        m.write(path, nranges=nr if isinstance(nr, int) else None)
        n_tried += 1
        expect_refused(f"{label}: {name}", path, resume=base is ck,
                       merge_ok=which == "stream" or name in MERGE_OK)

# a state where a checkpoint is needed
rc, err = run(extra + RUN + ["--resume", "valid.state"])
if rc != 2 or not one_line(rc, err) or "not a checkpoint" not in err:
    bad(f"--resume of a state file: exit {rc}: {err.strip()}")
else:
    checks += 1
# the old format: one line naming both versions
old = st.copy()
old.fmt = 1
old.write("old.state")
expect_refused("format 1", "old.state", resume=False, words=("format 1", f"format {FORMAT}"))
for fmt in (2, 3, 4, 5, 6, 7, 8):
    old.fmt = fmt
    old.write("old.state")
    expect_refused(f"format {fmt}", "old.state", resume=False,
                   words=(f"format {fmt}", f"format {FORMAT}"))

# .part files that are not this run's: another header, an event that is not the next one
shutil.copy("o.csv.part", "saved.csv")
with open("o.csv.part", "r+b") as f:
    f.write(b"% ")
rc, err = run(extra + RUN + ["--resume", "ck"])
if rc != 2 or not one_line(rc, err) or "header" not in err:
    bad(f"a CSV .part with another header: exit {rc}: {err.strip()}")
else:
    checks += 1
restore_parts()
stamp0 = part_stamp()

# .part files cut at a line boundary inside the last event (or a row early), the offset there:
# nothing after it to give it away, yet it is not where the checkpoint's events end
for name, part, i, at in (("HepMC3 .part cut inside an event", "o.hepmc.part", 4, hep_last_line),
                          ("CSV .part cut a row early", "o.csv.part", 3, csv_prev)):
    with open(part, "r+b") as f:
        f.truncate(at)
    m = ck.copy()
    m.ck[i] = at
    m.write("cut.ckpt")
    stamp0 = part_stamp()
    rc, err = run(extra + RUN + ["--resume", "cut.ckpt"])
    if rc != 2 or not one_line(rc, err) or part_stamp() != stamp0:
        bad(f"{name}: --resume exit {rc}: {err.strip()[:300]!r}")
    else:
        checks += 1
        if VERBOSE:
            print(f"  {name}: --resume: {err.strip()}")
    restore_parts()
stamp0 = part_stamp()

# ---- random bytes of the content, CRC recomputed: 0 or 2, never a crash ----
n_random = 0
for trial in range(int(os.environ.get("GAPS_FUZZ_TRIALS", "150"))):
    base, path = (st, "r.state") if trial % 2 == 0 else (ck, "r.ckpt")
    b = base.body()
    if trial % 3 == 0:   # somewhere in the header, the ranges or the checkpoint fields
        spots = list(range(8, HEADER + 16 * len(base.ranges)))
        if base.ck is not None:
            spots += list(range(len(b) - 80, len(b)))
    else:                # anywhere
        spots = range(8, len(b))
    for _ in range(rng.randint(1, 4)):
        i = rng.choice(spots)
        b[i] = rng.choice([rng.randrange(256), b[i] ^ (1 << rng.randrange(8)), 0, 0xff])
    with open(path, "wb") as f:
        f.write(bytes(b) + struct.pack("<I", zlib.crc32(b)))
    rc, err = run(["merge", "-o", "out.yoda", "--quiet", path])
    n_random += 1
    if rc not in (0, 2, 3) or (rc == 2 and not one_line(rc, err)):
        bad(f"random change {trial}: merge exit {rc}: {err.strip()[:300]!r}")
    if base is ck and rc == 2:
        # what merge refuses as a file, a resume refuses too (a change that leaves a possible
        # checkpoint would resume the whole run: not tried here)
        rc, err = run(extra + RUN + ["--resume", path])
        if rc != 2 or not one_line(rc, err):
            bad(f"random change {trial}: --resume exit {rc}: {err.strip()[:300]!r}")
        if rc != 2 or part_stamp() != stamp0 or not os.path.exists("ck"):
            restore_parts()
            stamp0 = part_stamp()

# ---- finally the checkpoint resumes (the .part files were not changed by any refusal) ----
rc, err = run(extra + RUN + ["--resume", "ck"], timeout=300)
if rc != 0:
    bad(f"the valid checkpoint does not resume: exit {rc}: {err.strip()}")

print(f"{n_tried} files with one impossible field, {checks} refusals checked (merge and "
      f"--resume), {n_random} random changes")
if failures:
    print(f"{failures} checks FAILED")
    sys.exit(1)
print("ok: every impossible state or checkpoint refused with one line and exit 2")
