#!/usr/bin/env python3
"""--vary shower with state files, merges and checkpoints (state format 9, doc/formats.md).

Usage: test_vary_state.py GAPS WORKDIR [GAPS_HOOKS [PDF_PATH]]

For ee-qq (2 variation weights) and pp-z (6) with --vary shower at LO, and pp-z at NLO with
--vary shower,scales,alphas (14):
  - split and merge: the runs of events [0, N/2) and [N/2, N) with --state-out, merged in the
    other order by `gaps merge`, give the YODA file of the one run of N events (the Backend
    line apart, as every merge test compares), variation histograms and /_XSEC[NAME] included;
    the merged state has the bytes of the one run's; the merge's JSON has the one run's
    "variations" object (cross sections of each weight);
  - killed at its third checkpoint (the test build GAPS_HOOKS, GAPS_TEST_HOOK_CHECKPOINT) and
    resumed: the YODA bytes of the uninterrupted run, and its JSON's "variations" and
    "variation_checks".
Then refusals (exit 2, one line on standard error naming the option): a merge of a --vary
state with a plain one, of states of different --shower-mur-factor, a resume with another
--vary or --shower-mur-factor; crafted files (valid CRC) with impossible variation counts,
variation bits the file's sums do not match, or sums no run makes.  And split runs with
--shower-mur-factor 2 (no --vary) and of a --lhe file with --vary merge to the one run's bytes.
Standard library only.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import zlib

gaps = os.path.abspath(sys.argv[1])
work = os.path.abspath(sys.argv[2])
hooks = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3] else None
pdf = os.path.abspath(sys.argv[4]) if len(sys.argv) > 4 else None
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
os.chdir(work)
env = dict(os.environ, KMP_WARNINGS="0", LC_ALL="C")
env.pop("GAPS_TEST_HOOK_CHECKPOINT", None)
TIMEOUT = 300
extra = []
if "offload backend" in subprocess.run([gaps, "--version"], capture_output=True, text=True,
                                       timeout=TIMEOUT).stdout:
    extra = ["--allow-host"]

failures = 0


def check(ok, what, detail=""):
    global failures
    if ok:
        print("ok: " + what)
    else:
        failures += 1
        print("FAIL: " + what + (" (" + detail + ")" if detail else ""))


def run(binary, args, extra_env=None):
    cmd = [binary] + args
    if args and args[0] != "merge":   # (a merge takes neither)
        cmd += extra
        if pdf and "pp-" in " ".join(args):
            cmd += ["--pdf-path", pdf]
    return subprocess.run(cmd, capture_output=True, env=dict(env, **(extra_env or {})),
                          timeout=TIMEOUT)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def phys(path):
    """A YODA file without its Backend line (a merge writes 'merged')."""
    return [l for l in read(path).split(b"\n") if not l.startswith(b"Backend: ")]


def refused(p, word):
    err = p.stderr.decode("utf-8", "replace")
    lines = err.strip("\n").split("\n")
    return p.returncode == 2 and len(lines) == 1 and lines[0].startswith("gaps: ") \
        and word in lines[0], "exit %d, %r" % (p.returncode, err)


KILL = ('n=$(($(cat hook.count 2>/dev/null || echo 0) + 1)); echo $n >hook.count; '
        '[ $n -eq 3 ] && kill -KILL $PPID')

# (label, options, events, number of variation weights)
RUNS = [("ee-qq", ["--process", "ee-qq", "--vary", "shower"], 2000, 2),
        ("pp-z", ["--process", "pp-z", "--vary", "shower"], 2000, 6),
        ("pp-z-nlo", ["--process", "pp-z", "--nlo", "1", "--vary", "shower,scales,alphas"],
         1200, 14)]
for proc, opts, n, n_vary in RUNS:
    base = ["-q"] + opts
    p = run(gaps, base + ["--events", str(n), "-o", proc + "-one.yoda", "--json",
                          proc + "-one.json", "--state-out", proc + "-one.state",
                          "--hepmc", proc + "-one.hepmc", "--observables-out",
                          proc + "-one.csv"])
    check(p.returncode == 0, proc + ": the one run", p.stderr.decode())
    one = read(proc + "-one.yoda")
    names = [l for l in one.split(b"\n") if l.startswith(b"Path: /_XSEC[")]
    check(len(names) == n_vary, "%s: %d variations in the YODA file" % (proc, n_vary),
          repr(names))
    h = n // 2
    for part, first in (("a", 0), ("b", h)):
        p = run(gaps, base + ["--first-event", str(first), "--events", str(h), "--state-out",
                              "%s-%s.state" % (proc, part)])
        check(p.returncode == 0, "%s: part %s" % (proc, part), p.stderr.decode())
    p = run(gaps, ["merge", "-q", "-o", proc + "-m.yoda", "--json", proc + "-m.json",
                   "--state-out", proc + "-m.state", proc + "-b.state", proc + "-a.state"])
    check(p.returncode == 0, proc + ": merge", p.stderr.decode())
    if p.returncode == 0:
        check(phys(proc + "-m.yoda") == phys(proc + "-one.yoda"),
              proc + ": merge b a == one run (YODA bytes, variations included)")
        check(read(proc + "-m.state") == read(proc + "-one.state"),
              proc + ": merged state == one run's state (bytes)")
        jm, jo = json.load(open(proc + "-m.json")), json.load(open(proc + "-one.json"))
        check(jm.get("variations") == jo["variations"] and len(jo["variations"]) == n_vary,
              proc + ": merge JSON variations == one run's",
              "%r vs %r" % (jm.get("variations"), jo.get("variations")))
        vc = {k: v for k, v in jo["variation_checks"].items()
              if k not in ("overestimate_factor", "headroom_below_GeV2")}
        check(jm.get("variation_checks") == vc, proc + ": merge JSON variation_checks")
    if hooks:
        for f in ("ck.ckpt", "hook.count", "ck.yoda", "ck.json", "ck.hepmc", "ck.csv",
                  "ck.hepmc.part", "ck.csv.part"):
            if os.path.exists(f):
                os.remove(f)
        ck = base + ["--events", str(n), "-o", "ck.yoda", "--json", "ck.json",
                     "--checkpoint", "ck.ckpt", "--checkpoint-every", str(n // 4),
                     "--hepmc", "ck.hepmc", "--observables-out", "ck.csv"]
        p = run(hooks, ck, {"GAPS_TEST_HOOK_CHECKPOINT": KILL})
        killed = p.returncode in (-9, 137)
        check(killed, proc + ": killed at its third checkpoint", "exit %d" % p.returncode)
        if killed:
            shutil.copy("ck.ckpt", proc + "-killed.ckpt")
            p = run(gaps, ck + ["--resume", "ck.ckpt"])
            check(p.returncode == 0 and read("ck.yoda") == one,
                  proc + ": killed and resumed == the uninterrupted run (YODA bytes)",
                  p.stderr.decode())
            # the HepMC3 events' variation weights and their running cross sections
            # (GenCrossSection, kept in the checkpoint), and the CSV's columns
            check(p.returncode == 0 and read("ck.hepmc") == read(proc + "-one.hepmc")
                  and read("ck.csv") == read(proc + "-one.csv"),
                  proc + ": killed and resumed == the uninterrupted run (HepMC3, CSV bytes)")
            if p.returncode == 0:
                jc, jo = json.load(open("ck.json")), json.load(open(proc + "-one.json"))
                check(jc["variations"] == jo["variations"]
                      and jc["variation_checks"] == jo["variation_checks"],
                      proc + ": resumed JSON variations and checks == the uninterrupted run's")

# ---- refusals ----
q = ["-q", "--process", "ee-qq", "--events", "100"]
run(gaps, q + ["--state-out", "plain.state", "--first-event", "100"])
run(gaps, q + ["--vary", "shower", "--state-out", "vary.state"])
run(gaps, q + ["--vary", "shower", "--shower-mur-factor", "2", "--state-out", "mur2.state",
               "--first-event", "100"])
ok, why = refused(run(gaps, ["merge", "-o", "r.yoda", "vary.state", "plain.state"]), "--vary")
check(ok, "merge of a --vary state and a plain one refused", why)
ok, why = refused(run(gaps, ["merge", "-o", "r.yoda", "vary.state", "mur2.state"]),
                  "--shower-mur-factor")
check(ok, "merge of states of different --shower-mur-factor refused", why)
check(not os.path.exists("r.yoda"), "no output of a refused merge")
if os.path.exists("ee-qq-killed.ckpt"):
    n = RUNS[0][2]
    for label, args, word in (("without --vary", [], "--vary"),
                              ("with --shower-mur-factor 2",
                               ["--vary", "shower", "--shower-mur-factor", "2"],
                               "--shower-mur-factor")):
        shutil.copy("ee-qq-killed.ckpt", "r.ckpt")
        p = run(gaps, ["-q", "--process", "ee-qq", "--events", str(n), "-o", "ck.yoda",
                       "--json", "ck.json", "--checkpoint", "r.ckpt", "--checkpoint-every",
                       str(n // 4), "--resume", "r.ckpt"] + args)
        ok, why = refused(p, word)
        check(ok, "resume of a --vary checkpoint " + label + " refused", why)

# --shower-mur-factor alone: split and merged == one run
mq = ["-q", "--process", "ee-qq", "--shower-mur-factor", "2"]
run(gaps, mq + ["--events", "400", "-o", "mur-one.yoda"])
run(gaps, mq + ["--events", "200", "--state-out", "mur-a.state"])
run(gaps, mq + ["--events", "200", "--first-event", "200", "--state-out", "mur-b.state"])
p = run(gaps, ["merge", "-q", "-o", "mur-m.yoda", "mur-a.state", "mur-b.state"])
check(p.returncode == 0 and phys("mur-m.yoda") == phys("mur-one.yoda"),
      "--shower-mur-factor 2: merge == one run (YODA)", p.stderr.decode())

# --lhe with --vary (a process whose hard events come from a file): split and merged == one run
run(gaps, ["-q", "--process", "ee-qq", "--events", "400", "--output", "none", "--lhe-out",
           "v.lhe"])
lq = ["-q", "--lhe", "v.lhe", "--vary", "shower"]
run(gaps, lq + ["--events", "400", "-o", "lhe-one.yoda"])
run(gaps, lq + ["--events", "200", "--state-out", "lhe-a.state"])
run(gaps, lq + ["--events", "200", "--first-event", "200", "--state-out", "lhe-b.state"])
p = run(gaps, ["merge", "-q", "-o", "lhe-m.yoda", "lhe-b.state", "lhe-a.state"])
check(p.returncode == 0 and os.path.exists("lhe-one.yoda")
      and phys("lhe-m.yoda") == phys("lhe-one.yoda") and b"/_XSEC[MUR_FSR=2]" in read("lhe-m.yoda"),
      "--lhe --vary shower: merge == one run (YODA, variations included)", p.stderr.decode())

# ---- crafted files (valid CRC) ----
HEADER = 352   # the ranges start here; the layout (nbins, nwords, nranges) at 336


def vary_block(body):
    nbins, nwords, nranges = struct.unpack_from("<3I", body, 336)
    return HEADER + 16 * nranges + 8 * nbins * nwords, nbins * nwords


def write(path, body):
    open(path, "wb").write(bytes(body) + struct.pack("<I", zlib.crc32(bytes(body))))


body = bytearray(read("vary.state")[:-4])
check(struct.unpack_from("<I", body, 8)[0] == 9, "state format 9")
at, words = vary_block(body)
vb, mur, over, large = struct.unpack_from("<QdQQ", body, at)
check(vb == 1 and mur == 1.0 and len(body) == at + 32 + 8 * 2 * words,
      "the variation block: --vary shower, factor 1, two copies of the sums",
      "%r %r %d" % (vb, mur, len(body) - at))
events = struct.unpack_from("<Q", body, 304)[0]
cases = []
b = bytearray(body)
struct.pack_into("<Q", b, at + 16, events + 1)
cases.append(("more events over the overestimate than events", b, "safeguards"))
b = bytearray(body)
struct.pack_into("<Q", b, at, 0)
cases.append(("--vary bits 0 with the sums of two variations", b, "trailing"))
b = bytearray(body)
struct.pack_into("<Q", b, at, 16)
cases.append(("unknown --vary bits", b, "--vary"))
b = bytearray(body)
struct.pack_into("<Q", b, at, 8)   # pdf on ee-qq: the members' fields where the sums are
cases.append(("--vary pdf on a process without parton densities", b, "--vary pdf"))
b = bytearray(body)
struct.pack_into("<Q", b, at, 3)   # shower,scales: four variations for ee-qq, the file has two
cases.append(("--vary bits of four variations with the sums of two", b, "shorter"))
b = bytearray(body)
struct.pack_into("<d", b, at + 8, 8.0)
cases.append(("--shower-mur-factor 8", b, "shower-mur-factor"))
b = bytearray(body)
# the event counter of the first variation (its last bins: the counter's bin 1) one entry more
counter = at + 32 + 8 * (words - 13 * 2) + 8 * 12
struct.pack_into("<Q", b, counter, struct.unpack_from("<Q", b, counter)[0] + 1)
cases.append(("a variation's event counter with an entry too many", b, "variation MUR_FSR=0.5"))
plain = bytearray(read("plain.state")[:-4])
pat, _ = vary_block(plain)
struct.pack_into("<Q", plain, pat, 1)
cases.append(("--vary bits on a state without the variations' sums", plain, "shorter"))
for label, b, word in cases:
    write("crafted.state", b)
    ok, why = refused(run(gaps, ["merge", "-o", "c.yoda", "crafted.state"]), word)
    check(ok, "crafted: " + label + " refused", why)
write("crafted.state", body)
p = run(gaps, ["merge", "-q", "-o", "c.yoda", "crafted.state"])
check(p.returncode == 0, "crafted: the unchanged content accepted (control)", p.stderr.decode())

print("%d failure%s" % (failures, "" if failures == 1 else "s"))
sys.exit(1 if failures else 0)
