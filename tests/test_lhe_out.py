#!/usr/bin/env python3
"""`--lhe-out FILE` (src/program/lhe_out.c, src/io/lhe_write.c; doc/formats.md, "Les Houches
Event files (written)").

For every process of `gaps --help` at every order it has, and ee-qq under --compat gaps21, a
run of N events (default 200) with --lhe-out:
  1. the run's other outputs (YODA, per-event CSV, the JSON's physics keys) are those of the
     same run without --lhe-out;
  2. `gaps lhe-check` takes the file (exit 0, N events, the built-in shower can start from
     every event);
  3. this script's own parse of the file: the <gaps> header element (process, nlo, seed,
     weight unit, event range), the init block (beams, beam energies sqrt(s)/2, IDWTUP 4 at LO
     and -4 at NLO, XSECUP and XERRUP the JSON's sigma and error exactly, XMAXUP the largest
     |weight|), and every event against the hard events that tests/lhe_out_expect.c computes
     through the library: the weight, the start scale (SCALUP = sqrt(t), the <gaps> element's
     t, x1, x2, event number and draw index), and after the lines a shower does not take
     (status 2; the incoming e+ e- of lepton beams) every row in order, PDG code, colour tags
     500 + the record's, and momentum, all bit for bit; the decayed boson (status 2) of pp-ll
     and pp-w is the sum of its products, which name it as mother; four-momentum balances
     (1e-9 of the incoming energy); every colour tag joins one colour to one anticolour;
  4. the round trip: `gaps --lhe FILE` (with the run's --compat) showers the file into the
     run's events, every final particle's PDG code and momentum and every weight of the HepMC3
     output, and the cross section of the JSON, bit for bit; where the reader says it takes
     such files "not yet" (e+ e- beams), a note instead;
  5. once: --first-event and --seed reach the file; --vary shower on a pp-z NLO and an ee-qq
     file gives the variation histograms of the run that wrote it; '-' writes the same bytes to standard
     output, a FIFO too; a run with --checkpoint writes the bytes of one without, and so does
     a run killed at its second checkpoint (GAPS_HOOKS, the test build of
     src/program/testhook.h), which leaves no file, then resumed; a bad path, a second
     output on standard output and --lhe-out with --lhe are refused with exit status 2 and
     one line, and nothing is created.

With --pylhe: every file is read by pylhe (PyPI) as well, which must give this script's
numbers; skipped (exit 77) when pylhe is not installed, a failure under GAPS_STRICT=1.

With --compare (tests/run_all.sh, the builds against each other): the files of every process
and order written by each build (serial, openmp, the offload build's host run) are the same
bytes.

Usage: test_lhe_out.py [--pylhe] GAPS LHE_OUT_EXPECT PDFSETS_DIR WORKDIR [N [GAPS_HOOKS]]
       test_lhe_out.py --compare WORKDIR GAPS GAPS...
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys
import threading

args = sys.argv[1:]


def compare_builds(work, bins, n=200):
    """The --lhe-out files of each build, for every process and order, are the same bytes."""
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = dict(os.environ, LC_ALL="C", KMP_WARNINGS="0")
    bad = 0

    def run(cmd):
        return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)

    m = re.search(r"^ *--process (\S+)", run([bins[0], "--help"]).stdout, re.M)
    for p in m.group(1).split("|") if m else []:
        for nlo in (0, 1):
            for compat in ("none", "gaps21") if p == "ee-qq" else ("none",):
                label = f"{p} --nlo {nlo} --compat {compat}"
                files = []
                for k, b in enumerate(bins):
                    extra = ["--allow-host"] if "offload" in run([b, "--version"]).stdout else []
                    out = os.path.join(work, f"{k}.lhe")
                    r = run([b, "--process", p, "--nlo", str(nlo), "--compat", compat,
                             "--events", str(n), "--quiet", "-o", "none", "--lhe-out", out]
                            + extra)
                    if r.returncode != 0:
                        break
                    files.append(open(out, "rb").read())
                if not files and "is not implemented" in r.stderr:   # no such order
                    continue
                if len(files) != len(bins) or any(f != files[0] for f in files):
                    print(f"FAIL: {label}: the builds' --lhe-out files differ "
                          f"({len(files)} of {len(bins)} written)")
                    bad += 1
                else:
                    print(f"ok: {label}: the same {len(files[0])} bytes from {len(bins)} builds")
    print(f"{bad} failure(s)" if bad else "all passed")
    sys.exit(1 if bad else 0)


if args and args[0] == "--compare":
    compare_builds(os.path.abspath(args[1]), [os.path.abspath(b) for b in args[2:]])
use_pylhe = bool(args) and args[0] == "--pylhe"
if use_pylhe:
    args = args[1:]
    try:
        import pylhe
    except ImportError:
        print("SKIP: pylhe not installed (python3 -m pip install pylhe, or "
              "tools/install-deps.sh --plots)")
        sys.exit(1 if os.environ.get("GAPS_STRICT") == "1" else 77)
if len(args) < 4:
    print(__doc__)
    sys.exit(2)
gaps, expect, pdfsets, work = (os.path.abspath(a) for a in args[:4])
N = int(args[4]) if len(args) > 4 else 200
hooks = os.path.abspath(args[5]) if len(args) > 5 else None
TIMEOUT = 300
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
os.chdir(work)
env = dict(os.environ, LC_ALL="C", KMP_WARNINGS="0")
extra = []
failures = 0


def ok(msg):
    print("ok: " + msg)


def fail(msg):
    global failures
    failures += 1
    print("FAIL: " + msg)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=TIMEOUT, **kw)


if "offload backend" in run([gaps, "--version"]).stdout:
    extra = ["--allow-host"]


# ---- this script's own parse of an event file ----
ATTR = re.compile(r'(\w+)="([^"]*)"')


def parse_lhe(path):
    """(gaps header attributes, init numbers, [event]) where an event is
    (info fields, [particle fields], gaps event attributes)."""
    with open(path) as f:
        lines = f.read().split("\n")
    header = {}
    init = None
    events = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("<gaps process="):
            header = dict(ATTR.findall(line))
        elif line == "<init>":
            beams = lines[i + 1].split()
            proc = lines[i + 2].split()
            init = (beams, proc)
            i += 2
        elif line == "<event>":
            info = lines[i + 1].split()
            nup = int(info[0])
            parts = [lines[i + 2 + k].split() for k in range(nup)]
            tail = lines[i + 2 + nup]
            attrs = dict(ATTR.findall(tail)) if tail.startswith("<gaps event=") else None
            if lines[i + 3 + nup] != "</event>":
                raise ValueError(f"event at line {i + 1}: no </event> after the <gaps> line")
            events.append((info, parts, attrs))
            i += 3 + nup
        i += 1
    if lines[-2:] != ["</LesHouchesEvents>", ""]:
        raise ValueError("the file does not end with </LesHouchesEvents>")
    return header, init, events


def expected(process, nlo, compat, seed, first, n):
    """The hard events of tests/lhe_out_expect.c: [(E fields, [R fields])], weight unit."""
    r = run([expect, pdfsets, process, str(nlo), compat, str(seed), str(first), str(n)])
    if r.returncode != 0:
        raise RuntimeError("lhe_out_expect: " + r.stderr.strip())
    evs, unit = [], None
    for line in r.stdout.splitlines():
        f = line.split()
        if f[0] == "E":
            evs.append((f[1:], []))
        elif f[0] == "R":
            evs[-1][1].append(f[1:])
        elif f[0] == "U":
            unit = float(f[1])
    return evs, unit


def physics(j):
    drop = ("backend", "device", "threads", "slots", "threads_requested", "slots_requested",
            "notes", "loops", "cycles_per_launch", "split_every", "refill", "launches",
            "veto_cycles", "time_s", "energy_j", "energy_source", "events_per_s")
    return {k: v for k, v in j.items() if k not in drop}


def tag(c):
    c = int(c)
    return c + 500 if c > 0 else 0


def check_file(label, path, process, nlo, compat, seed, first, n, j):
    """Check an event file against the run's JSON j and the expected hard events."""
    header, init, events = parse_lhe(path)
    exp, unit = expected(process, nlo, compat, seed, first, n)
    problems = []
    want = {"process": process, "nlo": str(nlo), "seed": str(seed),
            "first_event": str(first), "events": str(n)}
    for k, v in want.items():
        if header.get(k) != v:
            problems.append(f"<gaps> {k}={header.get(k)!r}, not {v!r}")
    if float(header.get("weight_unit", "nan")) != unit:
        problems.append(f"weight_unit {header.get('weight_unit')} is not {unit!r}")
    beams, proc = init
    lepton = process == "ee-qq"
    if [int(beams[0]), int(beams[1])] != ([-11, 11] if lepton else [2212, 2212]):
        problems.append(f"IDBMUP {beams[:2]}")
    half = j["parameters"]["ecm"] / 2
    if float(beams[2]) != half or float(beams[3]) != half:
        problems.append(f"EBMUP {beams[2:4]}, not {half}")
    if int(beams[8]) != (-4 if nlo else 4) or int(beams[9]) != 1:
        problems.append(f"IDWTUP NPRUP {beams[8:]}")
    if float(proc[0]) != j["sigma_pb"] or float(proc[1]) != j["sigma_err_pb"]:
        problems.append(f"XSECUP XERRUP {proc[:2]}, the run's {j['sigma_pb']!r} "
                        f"{j['sigma_err_pb']!r}")
    if len(events) != n or len(exp) != n:
        problems.append(f"{len(events)} events in the file, {len(exp)} expected, not {n}")
    max_w = 0.0
    sum_w = 0.0
    for (info, parts, attrs), (e, rows) in zip(events, exp):
        number, draw, n_in, n_rows = int(e[0]), int(e[1]), int(e[2]), int(e[3])
        w, t, x1, x2 = (float(v) for v in e[4:8])
        where = f"event {number}"
        max_w = max(max_w, abs(w))
        sum_w += w
        if attrs is None:
            problems.append(f"{where}: no <gaps> element")
            continue
        if (int(attrs["event"]), int(attrs["draw"]), float(attrs["t"]), float(attrs["x1"]),
                float(attrs["x2"])) != (number, draw, t, x1, x2):
            problems.append(f"{where}: <gaps> {attrs}, expected {e}")
        if (int(info[0]) != len(parts) or int(info[1]) != int(proc[3]) or float(info[2]) != w
                or float(info[3]) != math.sqrt(t)):
            problems.append(f"{where}: event line {info}, weight {w!r}, sqrt(t) {math.sqrt(t)!r}")
        # the rows a shower takes: no status 2, no incoming leptons (beams of e+ e-)
        kept = [p for p in parts if int(p[1]) != 2
                and not (int(p[1]) == -1 and abs(int(p[0])) in (11, 13))]
        if len(kept) != n_rows:
            problems.append(f"{where}: {len(kept)} rows, expected {n_rows}")
            continue
        for k, (p, r) in enumerate(zip(kept, rows)):
            status = -1 if k < n_in else 1
            got = (int(p[0]), int(p[1]), int(p[4]), int(p[5]), float(p[9]), float(p[6]),
                   float(p[7]), float(p[8]))
            want_row = (int(r[0]), status, tag(r[1]), tag(r[2]), float(r[3]), float(r[4]),
                        float(r[5]), float(r[6]))
            if got != want_row:
                problems.append(f"{where} row {k}: {got}, expected {want_row}")
        # status 2: the sum of its products, which name it as mother
        for k, p in enumerate(parts):
            if int(p[1]) != 2:
                continue
            kids = [q for q in parts if int(q[2]) == k + 1 and int(q[3]) == k + 1]
            s = [sum(float(q[c]) for q in kids) for c in (6, 7, 8, 9)]
            if len(kids) != 2 or any(abs(a - float(b)) > 1e-12 * abs(float(p[9]))
                                     for a, b in zip(s, p[6:10])):
                problems.append(f"{where}: status 2 line {k + 1} is not the sum of its products")
        # momentum balance and colour lines
        pin = [sum(float(p[c]) for p in parts if int(p[1]) == -1) for c in (6, 7, 8, 9)]
        pout = [sum(float(p[c]) for p in parts if int(p[1]) == 1) for c in (6, 7, 8, 9)]
        if any(abs(a - b) > 1e-9 * pin[3] for a, b in zip(pin, pout)):
            problems.append(f"{where}: momentum {pin} in, {pout} out")
        colours = {}
        for p in parts:
            st, c1, c2 = int(p[1]), int(p[4]), int(p[5])
            if st == 2:
                continue
            c, a = (c2, c1) if st == -1 else (c1, c2)   # incoming: crossed
            if c:
                colours.setdefault(c, [0, 0])[0] += 1
            if a:
                colours.setdefault(a, [0, 0])[1] += 1
        if any(v != [1, 1] for v in colours.values()):
            problems.append(f"{where}: colour tags {colours}")
    if float(proc[2]) != max_w:
        problems.append(f"XMAXUP {proc[2]}, the largest |weight| {max_w!r}")
    if n and abs(sum_w / n - j["sigma_pb"]) > 1e-9 * abs(j["sigma_pb"]):
        problems.append(f"mean weight {sum_w / n!r}, sigma {j['sigma_pb']!r}")
    for p in problems[:5]:
        fail(f"{label}: {p}")
    if len(problems) > 5:
        fail(f"{label}: ... {len(problems)} problems in all")
    if not problems:
        ok(f"{label}: {n} events, the hard events bit for bit (weights, rows, momenta, colours, "
           f"t, x, draw), init and header, balance and colour lines")
    return events, init


def check_pylhe(label, path, events, init):
    """pylhe's reading of the file gives this script's numbers."""
    if hasattr(pylhe, "LHEFile") and hasattr(pylhe.LHEFile, "fromfile"):
        f = pylhe.LHEFile.fromfile(path)
        pinit, pevents = f.init, list(f.events)
        info, procs = pinit.initInfo, pinit.procInfo
        beams = (info.beamA, info.beamB, info.energyA, info.energyB, info.weightingStrategy)
        xsec = procs[0].xSection
    else:   # pylhe < 0.9
        pinit = pylhe.read_lhe_init(path)
        pevents = list(pylhe.read_lhe_with_attributes(path))
        info = pinit["initInfo"]
        beams = (info["beamA"], info["beamB"], info["energyA"], info["energyB"],
                 info["weightingStrategy"])
        xsec = pinit["procInfo"][0]["xSection"]
    problems = []
    b, proc = init
    if (tuple(float(v) for v in beams) != (float(b[0]), float(b[1]), float(b[2]), float(b[3]),
                                           float(b[8])) or float(xsec) != float(proc[0])):
        problems.append(f"init {beams} {xsec}, the file's {b} {proc}")
    if len(pevents) != len(events):
        problems.append(f"{len(pevents)} events, the file has {len(events)}")
    for pe, (info_f, parts, _) in zip(pevents, events):
        ei = pe.eventinfo
        if (int(ei.nparticles), float(ei.weight), float(ei.scale)) != (
                int(info_f[0]), float(info_f[2]), float(info_f[3])):
            problems.append(f"event info {ei}, the file's {info_f}")
        for pp, p in zip(pe.particles, parts):
            got = (int(pp.id), int(pp.status), int(pp.mother1), int(pp.mother2),
                   int(pp.color1), int(pp.color2), float(pp.px), float(pp.py), float(pp.pz),
                   float(pp.e))
            want = tuple(int(v) for v in p[:6]) + tuple(float(v) for v in p[6:10])
            if got != want:
                problems.append(f"particle {got}, the file's {want}")
    for p in problems[:5]:
        fail(f"{label}: pylhe: {p}")
    if not problems:
        ok(f"{label}: pylhe {getattr(pylhe, '__version__', '?')} reads {len(pevents)} events, "
           f"every number the file's")


def final_states(path):
    """Per event of a HepMC3 file: its weight line and its final particles (PDG code, px, py,
    pz, E as written), sorted: what a shower made, whichever ids the writer gave."""
    evs = []
    for line in open(path):
        f = line.split()
        if not f:
            continue
        if f[0] == "E":
            evs.append([None, []])
        elif f[0] == "W" and evs:
            evs[-1][0] = f[1:]
        elif f[0] == "P" and evs and f[-1] == "1":
            evs[-1][1].append((f[3],) + tuple(f[4:8]))
    return [(w, sorted(p)) for w, p in evs]


def round_trip(label, compat, ja, path="f.lhe", hepmc="a.hepmc", n=N, more=()):
    """gaps --lhe PATH gives the events of the run that wrote it (its HepMC3 file, its JSON
    ja)."""
    r = run([gaps, "--lhe", path, "--compat", compat, "--quiet", "-o", "t.yoda", "--json",
             "t.json", "--hepmc", "t.hepmc", "--observables-out", "t.csv"] + list(more)
            + extra)
    if r.returncode == 2 and "not yet" in r.stderr:
        print(f"note: {label}: the round trip is not tested: --lhe says {r.stderr.strip()}")
        return
    if r.returncode != 0:
        fail(f"{label}: round trip: gaps --lhe: {r.stderr.strip()}")
        return
    a, t = final_states(hepmc), final_states("t.hepmc")
    same = sum(x == y for x, y in zip(a, t))
    sigma = json.load(open("t.json"))["sigma_pb"]
    good = len(a) == len(t) == n and same == n and sigma == ja["sigma_pb"]
    (ok if good else fail)(f"{label}: round trip: gaps --lhe showers {same} of {len(a)} events "
                           f"into the run's (weights, final particles bit for bit), sigma "
                           f"{sigma!r} (the run's {ja['sigma_pb']!r})")
    # the run's per-event observables, and its histograms (every line but the metadata that
    # names the process, the backend and the revision), where the run wrote them
    if path == "f.lhe" and os.path.exists("a.csv"):
        same_rows = open("a.csv", "rb").read() == open("t.csv", "rb").read()
        skip = ("Process: ", "ProcessName: ", "NLO: ", "Analysis: ", "Backend: ", "GitRevision: ")
        hist = lambda f: [l for l in open(f) if not l.startswith(skip)]
        same_hist = hist("a.yoda") == hist("t.yoda")
        (ok if same_rows and same_hist else fail)(
            f"{label}: round trip: per-event CSV {'identical' if same_rows else 'DIFFERENT'}, "
            f"YODA histograms {'identical' if same_hist else 'DIFFERENT'}")


# ---- every process at every order ----
help_text = run([gaps, "--help"]).stdout
m = re.search(r"^ *--process (\S+)", help_text, re.M)
processes = m.group(1).split("|") if m else []
if not processes:
    fail("no process list in --help")
cases = []
for p in processes:
    for nlo in (0, 1):
        r = run([gaps, "--process", p, "--nlo", str(nlo), "--events", "1", "--output", "none",
                 "--quiet"] + extra)
        if r.returncode != 0:
            if nlo == 1 and f"--nlo 1 is not implemented for --process {p}" in r.stderr:
                ok(f"{p} has no NLO")
                continue
            fail(f"{p} --nlo {nlo}: {r.stderr.strip()}")
            continue
        cases.append((p, nlo, "none"))
        if p == "ee-qq":
            cases.append((p, nlo, "gaps21"))

for p, nlo, compat in cases:
    label = f"{p} --nlo {nlo}" + (f" --compat {compat}" if compat != "none" else "")
    base = [gaps, "--process", p, "--nlo", str(nlo), "--compat", compat, "--events", str(N),
            "--quiet"] + extra
    r = run(base + ["-o", "a.yoda", "--json", "a.json", "--observables-out", "a.csv",
                    "--hepmc", "a.hepmc", "--lhe-out", "f.lhe"])
    if r.returncode != 0:
        fail(f"{label}: the run: {r.stderr.strip()}")
        continue
    ja = json.load(open("a.json"))
    if not use_pylhe:   # (the pylhe test checks only what pylhe reads)
        r2 = run(base + ["-o", "b.yoda", "--json", "b.json", "--observables-out", "b.csv",
                         "--hepmc", "b.hepmc"])
        same = (r2.returncode == 0
                and open("a.yoda", "rb").read() == open("b.yoda", "rb").read()
                and open("a.csv", "rb").read() == open("b.csv", "rb").read()
                and open("a.hepmc", "rb").read() == open("b.hepmc", "rb").read()
                and physics(ja) == physics(json.load(open("b.json"))))
        (ok if same else fail)(f"{label}: YODA, CSV, HepMC3 and JSON physics as without "
                               f"--lhe-out")
        c = run([gaps, "lhe-check", "f.lhe"])
        good = (c.returncode == 0 and re.search(rf"^events: {N}$", c.stdout, re.M)
                and "shower: yes" in c.stdout)
        (ok if good else fail)(f"{label}: gaps lhe-check takes it"
                               + ("" if good else f": {c.returncode} {c.stdout} {c.stderr}"))
    try:
        events, init = check_file(label, "f.lhe", p, nlo, compat, 1, 0, N, ja)
    except (ValueError, IndexError, KeyError, RuntimeError) as e:
        fail(f"{label}: {e}")
        continue
    if use_pylhe:
        check_pylhe(label, "f.lhe", events, init)
    else:
        round_trip(label, compat, ja)

if not use_pylhe:
    # ---- the event range and seed reach the file ----
    base = [gaps, "--process", "pp-w", "--nlo", "1", "--quiet"] + extra
    r = run(base + ["--events", "50", "--first-event", "7", "--seed", "5", "-o", "none",
                    "--json", "r.json", "--hepmc", "r.hepmc", "--lhe-out", "r.lhe"])
    if r.returncode != 0:
        fail(f"--first-event 7 --seed 5: {r.stderr.strip()}")
    else:
        label = "pp-w --nlo 1 --first-event 7 --seed 5"
        jr = json.load(open("r.json"))
        check_file(label, "r.lhe", "pp-w", 1, "none", 5, 7, 50, jr)
        # the shower's seed is the --lhe run's own: the same seed gives the same events
        round_trip(label, "none", jr, "r.lhe", "r.hepmc", 50, ["--seed", "5"])

    # ---- --vary shower on the file: the variations of the run that wrote it ----
    for vp, vn in (("pp-z", "1"), ("ee-qq", "0")):
        label = f"{vp} --nlo {vn} --vary shower"
        base = [gaps, "--process", vp, "--nlo", vn, "--events", "300", "--quiet",
                "--vary", "shower"] + extra
        r = run(base + ["-o", "va.yoda", "--lhe-out", "v.lhe"])
        t = run([gaps, "--lhe", "v.lhe", "--vary", "shower", "--quiet", "-o", "vt.yoda"]
                + extra)
        skip = ("Process: ", "ProcessName: ", "NLO: ", "Analysis: ", "Backend: ", "GitRevision: ")
        hist = lambda f: [l for l in open(f) if not l.startswith(skip)]
        good = (r.returncode == 0 and t.returncode == 0 and hist("va.yoda") == hist("vt.yoda")
                and any("[MUR_FSR" in l for l in hist("vt.yoda")))
        (ok if good else fail)(f"{label}: gaps --lhe --vary shower gives the variation "
                               f"histograms of the run that wrote the file"
                               + ("" if good else f": {r.stderr.strip()} {t.stderr.strip()}"))

    # ---- standard output and a FIFO: the same bytes ----
    base = [gaps, "--events", "30", "--quiet", "-o", "none"] + extra
    r = run(base + ["--lhe-out", "s.lhe"])
    s = run(base + ["--lhe-out", "-"])
    (ok if r.returncode == 0 and s.returncode == 0 and s.stdout == open("s.lhe").read()
     else fail)("--lhe-out - writes the file's bytes to standard output")
    os.mkfifo("fifo.lhe")
    got = []
    reader = threading.Thread(target=lambda: got.append(open("fifo.lhe").read()))
    reader.start()
    f = run(base + ["--lhe-out", "fifo.lhe"])
    reader.join(TIMEOUT)
    (ok if f.returncode == 0 and got == [open("s.lhe").read()] else fail)(
        "--lhe-out FIFO: the same bytes, written in place")

    # ---- checkpoints: the file of one run, also when killed and resumed ----
    base = [gaps, "--process", "pp-ll", "--nlo", "1", "--events", str(N), "--quiet",
            "-o", "none"] + extra
    ck = ["--checkpoint-every", str(N // 3 + 1)]
    r = run(base + ["--lhe-out", "u.lhe"])
    c = run(base + ck + ["--checkpoint", "c.ckpt", "--lhe-out", "c.lhe"])
    same = (r.returncode == 0 and c.returncode == 0
            and open("u.lhe", "rb").read() == open("c.lhe", "rb").read())
    (ok if same else fail)("--checkpoint: the file of a run without checkpoints")
    if hooks:
        kill = ('n=$(($(cat hook.count 2>/dev/null || echo 0) + 1)); echo $n >hook.count; '
                '[ $n -eq 2 ] && kill -KILL $PPID')
        k = subprocess.run([hooks] + base[1:] + ck + ["--checkpoint", "k.ckpt", "--lhe-out",
                                                      "k.lhe"],
                           capture_output=True, text=True, timeout=TIMEOUT,
                           env=dict(env, GAPS_TEST_HOOK_CHECKPOINT=kill))
        killed = k.returncode == -9 and os.path.exists("k.ckpt") and not os.path.exists("k.lhe")
        (ok if killed else fail)(f"killed at its second checkpoint (exit {k.returncode}): no "
                                 f"--lhe-out file")
        r = run(base + ck + ["--checkpoint", "k.ckpt", "--resume", "k.ckpt", "--lhe-out",
                             "k.lhe"])
        same = (r.returncode == 0 and os.path.exists("k.lhe")
                and open("u.lhe", "rb").read() == open("k.lhe", "rb").read())
        (ok if same else fail)("killed and resumed: the file of one run"
                               + ("" if same else f": {r.stderr.strip()}"))
    else:
        print("note: no GAPS_HOOKS binary given: the kill and resume are not tested")

    # ---- a write error: exit 1, one line naming the output ----
    if os.path.exists("/dev/full"):
        r = run([gaps, "--events", "10", "-o", "none", "--quiet", "--lhe-out", "/dev/full"]
                + extra)
        lines = r.stderr.strip().splitlines()
        (ok if r.returncode == 1 and len(lines) == 1 and "'--lhe-out'" in lines[0] else fail)(
            f"--lhe-out /dev/full: exit {r.returncode}: {lines[0] if lines else ''}")

    # ---- refusals: exit 2, one line, nothing created ----
    refusals = [
        (["--lhe-out", "nodir/x.lhe"], "cannot write '--lhe-out'"),
        (["--lhe-out", "-", "--json", "-"], "both write to standard output"),
        (["--lhe", "f.lhe", "--lhe-out", "x.lhe"], "--lhe-out with --lhe"),
        (["--lhe-out", "-", "--checkpoint", "x.ckpt", "--hepmc", "-"],
         "both write to standard output"),
        (["--lhe-out"], "--lhe-out"),
    ]
    for extra_args, words in refusals:
        for name in ("x.lhe", "x.ckpt", "x.yoda"):
            if os.path.exists(name):
                os.remove(name)
        r = run([gaps, "--events", "10", "-o", "x.yoda"] + extra + extra_args)
        lines = r.stderr.strip().splitlines()
        good = (r.returncode == 2 and len(lines) == 1 and words in lines[0]
                and not any(os.path.exists(x) for x in ("x.lhe", "x.ckpt", "x.yoda")))
        (ok if good else fail)(f"{' '.join(extra_args)}: refused (exit {r.returncode}: "
                               f"{lines[0] if lines else ''})")

print(f"{failures} failure(s)" if failures else "all passed")
sys.exit(1 if failures else 0)
