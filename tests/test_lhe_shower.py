#!/usr/bin/env python3
"""Showering Les Houches Event files (`gaps --lhe FILE`, src/program/lhe_feed.c).

Hand-made files of every colour configuration the shower takes (q qbar -> Z -> e- e+ with the
Z as a status-2 resonance, g g -> H, u g -> Z u, u ubar -> Z g, u dbar -> W+ -> e+ nu), their
momenta balanced exactly, with random weights:
  - each runs: exit 0, no event fails the momentum, mass and colour checks, none hits the
    record's capacity, the cross section is the mean XWGTUP computed here (to 1e-12), the
    leptons of a decayed Z keep its mass (zmass = 91.1876 to 1e-9 in every event), and the
    shower radiates (most events end with more partons than they started with);
  - the colour tags' numbers do not matter, only their connections: the same file with other
    tag numbers gives the same events byte for byte;
  - gzip through standard input and a FIFO give the plain file's events;
  - --first-event/--events parts merged (gaps merge) give the YODA file of one run, and the
    parts' per-event rows are the whole run's;
  - refused with exit status 2, one line naming the file's line where there is one, and no
    output file left: the MadGraph t tbar file (massive coloured partons), a malformed event in
    the middle of a file, a truncated file, --ecm against the beams, --events beyond the
    file's end, a record too small for an event, n p beams, a gaps element out of order.
With several programs (`--compare`), the same file runs through every build, pool size,
loop structure and thread count and must give the same bytes (CSV, HepMC3, YODA physics).

Usage: test_lhe_shower.py WORKDIR GAPS [MADGRAPH_FILE]
       test_lhe_shower.py --compare WORKDIR GAPS [GAPS ...]
"""
import gzip
import json
import math
import os
import random
import shutil
import subprocess
import sys
import threading

failures = 0


def check(ok, what):
    global failures
    if not ok:
        failures += 1
        print("FAIL:", what)
    return ok


MZ, MW, MH = 91.1876, 80.379, 125.0
E_BEAM = 6500.0


def boost_z(v, beta):
    g = 1.0 / math.sqrt(1.0 - beta * beta)
    px, py, pz, e = v
    return (px, py, g * (pz + beta * e), g * (e + beta * pz))


def two_body(m, m1, m2, rng):
    """Back-to-back momenta of masses m1, m2 in the rest frame of mass m."""
    p = math.sqrt((m * m - (m1 + m2) ** 2) * (m * m - (m1 - m2) ** 2)) / (2 * m)
    c = rng.uniform(-1, 1)
    s = math.sqrt(1 - c * c)
    ph = rng.uniform(0, 2 * math.pi)
    k = (p * s * math.cos(ph), p * s * math.sin(ph), p * c)
    return ((k[0], k[1], k[2], math.sqrt(p * p + m1 * m1)),
            (-k[0], -k[1], -k[2], math.sqrt(p * p + m2 * m2)))


def line(pid, status, m1, m2, c1, c2, p, mass=0.0):
    return (f"{pid} {status} {m1} {m2} {c1} {c2} {p[0]:.17e} {p[1]:.17e} {p[2]:.17e} "
            f"{p[3]:.17e} {mass:.10e} 0 9")


def make_event(kind, rng, tags):
    """One event of `kind`: (lines, scale).  tags: the two or three colour tag numbers."""
    a, b, c = tags
    if kind in ("z", "w"):
        m = MZ if kind == "z" else MW
        y = rng.uniform(-2, 2)
        x1, x2 = m / 13000 * math.exp(y), m / 13000 * math.exp(-y)
        p1 = (0.0, 0.0, x1 * E_BEAM, x1 * E_BEAM)
        p2 = (0.0, 0.0, -x2 * E_BEAM, x2 * E_BEAM)
        V = (0.0, 0.0, p1[2] + p2[2], p1[3] + p2[3])
        beta = V[2] / V[3]
        l1, l2 = two_body(m, 0.0, 0.0, rng)
        l1, l2 = boost_z(l1, beta), boost_z(l2, beta)
        if kind == "z":
            q = rng.choice([1, 2, 3, 4, 5])
            ins = [(q, a, 0), (-q, 0, a)] if rng.random() < 0.5 else [(-q, 0, a), (q, a, 0)]
            boson, leps = 23, (11, -11)
        else:
            ins = [(2, a, 0), (-1, 0, a)] if rng.random() < 0.5 else [(-1, 0, a), (2, a, 0)]
            boson, leps = 24, (-11, 12)
        rows = [line(ins[0][0], -1, 0, 0, ins[0][1], ins[0][2], p1),
                line(ins[1][0], -1, 0, 0, ins[1][1], ins[1][2], p2),
                line(boson, 2, 1, 2, 0, 0, V, m),
                line(leps[0], 1, 3, 3, 0, 0, l1),
                line(leps[1], 1, 3, 3, 0, 0, l2)]
        return rows, m
    if kind == "h":
        y = rng.uniform(-2, 2)
        x1, x2 = MH / 13000 * math.exp(y), MH / 13000 * math.exp(-y)
        p1 = (0.0, 0.0, x1 * E_BEAM, x1 * E_BEAM)
        p2 = (0.0, 0.0, -x2 * E_BEAM, x2 * E_BEAM)
        H = (0.0, 0.0, p1[2] + p2[2], p1[3] + p2[3])
        return [line(21, -1, 0, 0, a, b, p1), line(21, -1, 0, 0, b, a, p2),
                line(25, 1, 1, 2, 0, 0, H, MH)], MH
    # Z + one parton: sqrt(s-hat) above M_Z, the pair's rapidity, then the 2 -> 2 angle
    shat = rng.uniform(120.0, 400.0)
    y = rng.uniform(-1.5, 1.5)
    x1, x2 = shat / 13000 * math.exp(y), shat / 13000 * math.exp(-y)
    p1 = (0.0, 0.0, x1 * E_BEAM, x1 * E_BEAM)
    p2 = (0.0, 0.0, -x2 * E_BEAM, x2 * E_BEAM)
    beta = (p1[2] + p2[2]) / (p1[3] + p2[3])
    kz, kj = two_body(shat, MZ, 0.0, rng)
    kz, kj = boost_z(kz, beta), boost_z(kj, beta)
    if kind == "zq":   # u g -> Z u
        rows = [line(2, -1, 0, 0, a, 0, p1), line(21, -1, 0, 0, b, a, p2),
                line(23, 1, 1, 2, 0, 0, kz, MZ), line(2, 1, 1, 2, b, 0, kj)]
    else:              # u ubar -> Z g
        rows = [line(2, -1, 0, 0, a, 0, p1), line(-2, -1, 0, 0, 0, b, p2),
                line(23, 1, 1, 2, 0, 0, kz, MZ), line(21, 1, 1, 2, a, b, kj)]
    pt = math.hypot(kj[0], kj[1])
    return rows, pt


VARIATIONS = ("muR=0.5 muF=0.5", "muR=2", "PDF=13401")   # named weights (<rwgt>)


def write_file(path, kind, n, seed, tags=(501, 502, 503), beams=(2212, 2212),
               compress=False, rwgt=False):
    """The file and its events' weights: XWGTUP, and with rwgt three named weights each."""
    rng = random.Random(seed)
    weights = []
    declared = ["<initrwgt>", '<weightgroup name="variations" combine="envelope">']
    declared += [f'<weight id="{v}">{v}</weight>' for v in VARIATIONS]
    declared += ["</weightgroup>", "</initrwgt>"]
    out = ['<LesHouchesEvents version="3.0">', "<header>", *(declared if rwgt else []),
           "</header>", "<init>",
           f"{beams[0]} {beams[1]} {E_BEAM} {E_BEAM} 0 0 13400 13400 4 1",
           "100.0 1.0 150.0 1", "</init>"]
    for _ in range(n):
        rows, scale = make_event(kind, rng, tags)
        w = 100.0 * rng.uniform(0.5, 1.5)
        extra = [w * rng.uniform(0.8, 1.2) for _ in VARIATIONS] if rwgt else []
        weights.append([w] + extra if rwgt else w)
        out.append("<event>")
        out.append(f"{len(rows)} 1 {w:.17e} {scale:.10e} 7.8e-03 1.18e-01")
        out.extend(rows)
        if rwgt:
            out.append("<rwgt>")
            out += [f"<wgt id='{v}'> {x:.17e} </wgt>" for v, x in zip(VARIATIONS, extra)]
            out.append("</rwgt>")
        out.append("</event>")
    out.append("</LesHouchesEvents>")
    text = "\n".join(out) + "\n"
    if compress:
        with gzip.open(path, "wt") as f:
            f.write(text)
    else:
        with open(path, "w") as f:
            f.write(text)
    return weights


def write_ee_file(path, n, seed, weight, sqrt_s=91.2, scale=None, beams="ee"):
    """e+ e- -> Z (status 2) -> q qbar at sqrt(s), q qbar back to back, isotropic; SCALUP
    sqrt(s) unless given.  beams "pp": the same decays from u ubar -> Z at rest in p p
    collisions at 13 TeV (the incoming partons colour-connected to each other)."""
    rng = random.Random(seed)
    e = 0.5 * sqrt_s
    scale = sqrt_s if scale is None else scale
    if beams == "ee":
        init = f"11 -11 {e!r} {e!r} 0 0 0 0 3 1"
        ins = [line(11, -1, 0, 0, 0, 0, (0.0, 0.0, e, e)),
               line(-11, -1, 0, 0, 0, 0, (0.0, 0.0, -e, e))]
    else:
        init = f"2212 2212 {E_BEAM!r} {E_BEAM!r} 0 0 13400 13400 3 1"
        ins = [line(2, -1, 0, 0, 502, 0, (0.0, 0.0, e, e)),
               line(-2, -1, 0, 0, 0, 502, (0.0, 0.0, -e, e))]
    out = ['<LesHouchesEvents version="3.0">', "<init>", init,
           f"{weight!r} 1.0 {weight!r} 1", "</init>"]
    for _ in range(n):
        c = rng.uniform(-1, 1)
        s_ = math.sqrt(1 - c * c)
        ph = rng.uniform(0, 2 * math.pi)
        q = rng.choice([1, 2, 3, 4, 5])
        p = (e * s_ * math.cos(ph), e * s_ * math.sin(ph), e * c, e)
        out += ["<event>", f"5 1 {weight!r} {scale!r} 7.8e-03 1.18e-01", *ins,
                line(23, 2, 1, 2, 0, 0, (0.0, 0.0, 0.0, 2 * e), 2 * e),
                line(q, 1, 3, 3, 501, 0, p),
                line(-q, 1, 3, 3, 0, 501, (-p[0], -p[1], -p[2], p[3])), "</event>"]
    out.append("</LesHouchesEvents>")
    open(path, "w").write("\n".join(out) + "\n")


def decay_shapes(path, beams, check):
    """From a HepMC3 file of the Z -> q qbar decays at rest: histograms of the final partons'
    multiplicity and C-parameter.  For p p, also checked in every event: the incoming partons
    kept their momenta (no initial-state emission) and the final partons (beam remnants
    aside) add up to the Z at rest."""
    mult, cpar = [0] * 40, [0] * 20
    bad = 0

    def close(parts, incoming):
        nonlocal bad
        if not parts:
            return
        tot = [sum(q[k] for q in parts) for k in range(4)]
        if beams == "pp":
            ok = all(abs(q[3] - 45.6) < 1e-9 for q in incoming) and len(incoming) == 2
            ok = ok and max(abs(tot[0]), abs(tot[1]), abs(tot[2]), abs(tot[3] - 91.2)) < 1e-9
            bad += not ok
        mult[min(len(parts), 39)] += 1
        a = [[sum(q[i] * q[j] / math.sqrt(q[0] ** 2 + q[1] ** 2 + q[2] ** 2) for q in parts)
              for j in range(3)] for i in range(3)]
        norm = sum(math.sqrt(q[0] ** 2 + q[1] ** 2 + q[2] ** 2) for q in parts)
        # C = 3 (l1 l2 + l2 l3 + l3 l1): the sum of the principal minors of a / norm
        minors = (a[0][0] * a[1][1] - a[0][1] ** 2 + a[1][1] * a[2][2] - a[1][2] ** 2
                  + a[0][0] * a[2][2] - a[0][2] ** 2)
        c = 3.0 * minors / norm ** 2
        cpar[min(int(c * 20), 19)] += 1

    parts, incoming = [], []
    for ln in open(path):
        if ln.startswith("E "):
            close(parts, incoming)
            parts, incoming = [], []
        elif ln.startswith("P "):
            f = ln.split()
            pid, status = int(f[3]), int(f[9])
            q = (float(f[4]), float(f[5]), float(f[6]), float(f[7]))
            if status == 21:
                incoming.append(q)
            elif status == 1 and pid != 82:
                parts.append(q)
    close(parts, incoming)
    check(bad == 0, f"{beams} file: {bad} events with an initial-state emission or the decay "
                    f"products not adding up to the Z at rest")
    return mult, cpar


def chi2_counts(a, b):
    """chi2 of two histograms of counts of the same total, over the bins with entries."""
    chi2, ndf = 0.0, 0
    for x, y in zip(a, b):
        if x + y > 0:
            chi2 += (x - y) ** 2 / (x + y)
            ndf += 1
    return chi2, ndf


def run(gaps, *args, stdin=None):
    env = dict(os.environ, KMP_WARNINGS="0")
    return subprocess.run([gaps, *args], capture_output=True, text=True, stdin=stdin, env=env,
                          timeout=600)


def host_args(gaps):
    v = subprocess.run([gaps, "--version"], capture_output=True, text=True).stdout
    return ["--allow-host"] if "offload backend" in v else []


def functional(work, gaps, madgraph):
    extra = host_args(gaps)
    n = 2000
    for kind in ("z", "h", "zq", "zg", "w"):
        f = os.path.join(work, f"{kind}.lhe")
        weights = write_file(f, kind, n, seed=len(kind))
        j = os.path.join(work, f"{kind}.json")
        csv = os.path.join(work, f"{kind}.csv")
        r = run(gaps, "--lhe", f, "--quiet", "--output", "none", "--json", j,
                "--observables-out", csv, *extra)
        if not check(r.returncode == 0, f"{kind}: exit {r.returncode}: {r.stderr.strip()}"):
            continue
        s = json.load(open(j))
        mean = sum(weights) / len(weights)
        check(s["events"] == n and s["invalid_events"] == 0 and s["capacity_hits"] == 0,
              f"{kind}: events {s['events']}, invalid {s['invalid_events']}, capacity "
              f"{s['capacity_hits']}")
        check(abs(s["sigma_pb"] / mean - 1) < 1e-12,
              f"{kind}: sigma {s['sigma_pb']!r} pb, the mean weight is {mean!r} pb")
        rows = [l.split(",") for l in open(csv) if not l.startswith("#")]
        head = open(csv).readline().lstrip("# ").strip().split(",")
        npart = head.index("n_partons")
        hard = {"z": 0, "h": 0, "zq": 1, "zg": 1, "w": 0}[kind]
        more = sum(1 for r_ in rows if int(float(r_[npart])) > hard)
        check(more > 0.8 * n, f"{kind}: only {more} of {n} events radiated")
        if kind == "z":
            zm = head.index("zmass")
            worst = max(abs(float(r_[zm]) - MZ) for r_ in rows)
            check(worst < 1e-9 * MZ, f"z: the leptons' mass is off the Z mass by {worst} GeV")
        print(f"ok: {kind}: {n} events, sigma {s['sigma_pb']:.6f} pb = mean weight, "
              f"{more} radiated")

    # e+ e- -> Z -> q qbar (a colourless resonance decaying into quarks, the decay showered):
    # the event shapes and jet rates of the built-in ee-qq, statistically (tests/compare_yoda.py)
    n_ee = 20000
    jb = os.path.join(work, "eeqq.json")
    yb = os.path.join(work, "eeqq.yoda")
    r = run(gaps, "--process", "ee-qq", "--events", str(n_ee), "--seed", "3", "--quiet",
            "--output", yb, "--json", jb, *extra)
    if check(r.returncode == 0, f"ee-qq: {r.stderr.strip()}"):
        sigma = json.load(open(jb))["sigma_pb"]
        fee = os.path.join(work, "ee.lhe")
        write_ee_file(fee, n_ee, seed=4, weight=sigma)
        ye = os.path.join(work, "ee.yoda")
        je = os.path.join(work, "ee.json")
        r = run(gaps, "--lhe", fee, "--seed", "5", "--quiet", "--output", ye, "--json", je,
                *extra)
        if check(r.returncode == 0, f"e+ e- file: {r.stderr.strip()}"):
            s = json.load(open(je))
            check(s["parameters"]["process"] == "lhe-ee" and s["parameters"]["analysis"] == "lep"
                  and s["invalid_events"] == 0, f"e+ e- file: {s['parameters']}, invalid "
                  f"{s['invalid_events']}")
            cmp_ = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__),
                                                                 "compare_yoda.py"), ye, yb,
                                   "--max-chi2ndf", "1.6"], capture_output=True, text=True)
            check(cmp_.returncode == 0, "e+ e- file against ee-qq: " + cmp_.stdout[-1500:])
            print(f"ok: e+ e- -> Z -> q qbar file: the event shapes of ee-qq ({n_ee} events)")
        # Each dipole starts at its own scale: the decay system at the resonance's mass
        # squared, whatever SCALUP says, the rest at SCALUP^2.  A SCALUP of 5 GeV in the
        # e+ e- file: still ee-qq's shapes (a decay started at SCALUP^2 would make almost no
        # three-jet events).  The same decays in p p -> u ubar -> Z at rest with SCALUP
        # 0.5 GeV, below the cutoff, analysed by the LEP analysis: the incoming partons' dipoles
        # may not radiate at all, the decay showers as in e+ e- (starting the initial state
        # at the event's largest scale instead would put jets of tens of GeV along the beams).
        shapes = {}
        for beams, scale in (("ee", 5.0), ("pp", 0.5)):
            fs = os.path.join(work, f"{beams}-scale.lhe")
            write_ee_file(fs, n_ee, seed=6 if beams == "ee" else 9, weight=sigma, scale=scale,
                          beams=beams)
            ys = os.path.join(work, f"{beams}-scale.yoda")
            hs = os.path.join(work, f"{beams}-scale.hepmc")
            r = run(gaps, "--lhe", fs, "--seed", "7", "--quiet", "--output",
                    ys if beams == "ee" else "none", "--hepmc", hs, *extra)
            if not check(r.returncode == 0, f"{beams} file, SCALUP {scale}: "
                                            f"{r.stderr.strip()}"):
                continue
            shapes[beams] = decay_shapes(hs, beams, check)
            if beams == "ee":
                cmp_ = subprocess.run([sys.executable,
                                       os.path.join(os.path.dirname(__file__), "compare_yoda.py"),
                                       ys, yb, "--max-chi2ndf", "1.6"],
                                      capture_output=True, text=True)
                if check(cmp_.returncode == 0, "e+ e- file, SCALUP 5 GeV, against ee-qq: "
                         + cmp_.stdout[-1500:]):
                        print("ok: e+ e- -> Z -> q qbar, SCALUP 5 GeV: the decay starts at M_Z^2, "
                          "the event shapes of ee-qq")
        if len(shapes) == 2:
            for k, name in enumerate(("multiplicity", "C-parameter")):
                chi2, ndf = chi2_counts(shapes["ee"][k], shapes["pp"][k])
                if check(chi2 < 1.6 * ndf + 3 * math.sqrt(2 * ndf),
                         f"p p file, SCALUP 0.5 GeV: the decay's {name} differs from the e+ e- "
                         f"file's: chi2 {chi2:.1f} for {ndf} bins"):
                        print(f"ok: p p -> Z -> q qbar, SCALUP 0.5 GeV: no initial-state emission, "
                          f"the decay's {name} that of e+ e- (chi2 {chi2:.1f}, {ndf} bins)")

    # the tags' numbers are labels: other numbers, the same events
    for kind in ("zq", "h"):
        f2 = os.path.join(work, f"{kind}-tags.lhe")
        write_file(f2, kind, n, seed=len(kind), tags=(777, 512, 9001))
        csv2 = os.path.join(work, f"{kind}-tags.csv")
        r = run(gaps, "--lhe", f2, "--quiet", "--output", "none", "--observables-out", csv2,
                *extra)
        check(r.returncode == 0 and open(csv2).read() == open(os.path.join(work, f"{kind}.csv")).read(),
              f"{kind}: other colour tag numbers gave other events ({r.stderr.strip()})")

    # gzip on standard input, and a FIFO
    z = os.path.join(work, "z.lhe")
    zgz = os.path.join(work, "z.lhe.gz")
    with open(z, "rb") as fi, gzip.open(zgz, "wb") as fo:
        shutil.copyfileobj(fi, fo)
    csv3 = os.path.join(work, "z-stdin.csv")
    with open(zgz, "rb") as fi:
        r = run(gaps, "--lhe", "-", "--quiet", "--output", "none", "--observables-out", csv3,
                *extra, stdin=fi)
    check(r.returncode == 0 and open(csv3).read() == open(os.path.join(work, "z.csv")).read(),
          f"gzip on standard input: other events ({r.stderr.strip()})")
    fifo = os.path.join(work, "z.fifo")
    os.mkfifo(fifo)

    def feed():
        with open(fifo, "wb") as fo, open(z, "rb") as fi:
            shutil.copyfileobj(fi, fo)
    t = threading.Thread(target=feed)
    t.start()
    csv4 = os.path.join(work, "z-fifo.csv")
    r = run(gaps, "--lhe", fifo, "--quiet", "--output", "none", "--observables-out", csv4,
            *extra)
    t.join()
    check(r.returncode == 0 and open(csv4).read() == open(os.path.join(work, "z.csv")).read(),
          f"FIFO: other events ({r.stderr.strip()})")

    # parts of a file merged: the bytes of one run
    zq = os.path.join(work, "zq.lhe")
    yw = os.path.join(work, "whole.yoda")
    r = run(gaps, "--lhe", zq, "--quiet", "--output", yw, *extra)
    check(r.returncode == 0, f"whole run: {r.stderr.strip()}")
    parts = []
    rows = []
    for first, count in ((0, 700), (700, 900), (1600, 400)):
        st = os.path.join(work, f"part{first}.state")
        csvp = os.path.join(work, f"part{first}.csv")
        r = run(gaps, "--lhe", zq, "--quiet", "--output", "none", "--first-event", str(first),
                "--events", str(count), "--state-out", st, "--observables-out", csvp, *extra)
        check(r.returncode == 0, f"part from {first}: {r.stderr.strip()}")
        parts.append(st)
        rows += [l for l in open(csvp) if not l.startswith("#")]
    ym = os.path.join(work, "merged.yoda")
    r = run(gaps, "merge", *parts[::-1], "--output", ym, "--quiet")
    phys = lambda p: [l for l in open(p) if not l.startswith("Backend: ")]
    check(r.returncode == 0 and phys(ym) == phys(yw),
          f"the merged parts' YODA differs from one run's ({r.stderr.strip()})")
    whole_rows = [l for l in open(os.path.join(work, "zq.csv")) if not l.startswith("#")]
    check(rows == whole_rows, "the parts' per-event rows are not the whole run's")
    print("ok: colour tags, gzip on standard input, FIFO, parts merged")

    # a gaps-written file carries its run's seed: without --seed the shower continues each
    # event's own stream (the run's events); another --seed, another shower of the same events
    hf = os.path.join(work, "seeded.lhe")
    a, b, c = (os.path.join(work, f"seeded-{k}.csv") for k in "abc")
    r = run(gaps, "--process", "pp-z", "--seed", "77", "--events", "1000", "--quiet",
            "--output", "none", "--observables-out", a, "--lhe-out", hf, *extra)
    r2 = run(gaps, "--lhe", hf, "--quiet", "--output", "none", "--observables-out", b, *extra)
    r3 = run(gaps, "--lhe", hf, "--seed", "3", "--quiet", "--output", "none",
             "--observables-out", c, *extra)
    check(r.returncode == r2.returncode == r3.returncode == 0
          and open(a).read() == open(b).read() and open(a).read() != open(c).read(),
          "the file's seed: --lhe without --seed does not give the writing run's events, or "
          f"--seed 3 gives them too ({r.stderr.strip()} {r2.stderr.strip()} {r3.stderr.strip()})")

    # named weights (LHEF 3.0 <rwgt>): carried unchanged to the HepMC3 events, their names in
    # the run info, each with its running cross section
    rf = os.path.join(work, "rwgt.lhe")
    ws = write_file(rf, "zq", 500, seed=9, rwgt=True)
    hf = os.path.join(work, "rwgt.hepmc")
    r = run(gaps, "--lhe", rf, "--quiet", "--output", "none", "--hepmc", hf, *extra)
    if check(r.returncode == 0, f"named weights: {r.stderr.strip()}"):
        lines = open(hf).read().splitlines()
        names = [l for l in lines if l.startswith("W ") and "Default" in l]
        want = "W Default " + " ".join(v.replace(" ", "_") for v in VARIATIONS)
        check(names == [want], f"named weights: run info {names}, expected '{want}'")
        wl = [l.split()[1:] for l in lines if l.startswith("W ") and "Default" not in l]
        got = [[float(x) for x in w] for w in wl]
        check(got == ws, "named weights: the HepMC3 events' weights are not the file's")
        xs = [l.split()[3:] for l in lines if "GenCrossSection" in l][-1]
        means = [sum(w[k] for w in ws) / len(ws) for k in range(4)]
        vals = [float(xs[0])] + [float(xs[4 + 2 * k]) for k in range(3)]
        check(all(abs(a / b - 1) < 1e-12 for a, b in zip(vals, means)),
              f"named weights: cross sections {vals}, means {means}")
        # read ahead in batches of 7 events (each filled while the one before showers): each
        # event still carries its own named weights
        h7 = os.path.join(work, "rwgt-7.hepmc")
        r7 = run(gaps, "--lhe", rf, "--quiet", "--output", "none", "--hepmc", h7,
                 "--lhe-threads", "2", "--lhe-batch", "7", *extra)
        check(r7.returncode == 0 and open(h7, "rb").read() == open(hf, "rb").read(),
              f"named weights read ahead in batches of 7: other bytes {r7.stderr.strip()}")
        # with --vary shower: the file's weights first, unchanged, then the six variation
        # weights, which are the CSV's weight[NAME] columns of the same run
        hv, cv = os.path.join(work, "rwgt-vary.hepmc"), os.path.join(work, "rwgt-vary.csv")
        rv = run(gaps, "--lhe", rf, "--quiet", "--output", "none", "--hepmc", hv,
                 "--observables-out", cv, "--vary", "shower", *extra)
        if check(rv.returncode == 0, f"named weights with --vary: {rv.stderr.strip()}"):
            vl = open(hv).read().splitlines()
            vnames = [l.split()[1:] for l in vl if l.startswith("W ") and "Default" in l]
            head = open(cv).readline().lstrip("# ").strip().split(",")
            cols = [c[len("weight["):-1] for c in head if c.startswith("weight[")]
            check(len(cols) == 6 and vnames == [["Default"] + [v.replace(" ", "_")
                                                             for v in VARIATIONS] + cols],
                  f"named weights with --vary: run info {vnames}, CSV columns {cols}")
            vw = [l.split()[1:] for l in vl if l.startswith("W ") and "Default" not in l]
            rows = [l.strip().split(",") for l in open(cv) if not l.startswith("#")]
            check(len(vw) == len(rows) == len(ws)
                  and all([float(x) for x in w[:4]] == f for w, f in zip(vw, ws))
                  and all(w[4:] == r[2:8] for w, r in zip(vw, rows))
                  and any(w[4] != w[0] for w in vw),
                  "named weights with --vary: the file's weights, then the CSV's variation "
                  "weights, event by event")
        try:
            import pyhepmc
            with pyhepmc.open(hf) as f_:
                evs = list(f_)
            check(len(evs) == 500 and list(evs[0].weight_names) == ["Default"] + [
                v.replace(" ", "_") for v in VARIATIONS]
                  and [list(e.weights) for e in evs] == ws,
                  "named weights: pyhepmc reads other names or weights")
        except ImportError:
            print("note: pyhepmc not installed; the HepMC3 text checked alone")
        print("ok: named weights in HepMC3")

    # refusals: exit 2, one line, no output left
    def refused(what, args, *fragments, stdin=None):
        out = os.path.join(work, "refused.yoda")
        if os.path.exists(out):
            os.remove(out)
        r = run(gaps, *args, "--quiet", "--output", out, *extra, stdin=stdin)
        lines = r.stderr.strip().splitlines()
        ok = (r.returncode == 2 and len(lines) == 1 and all(f in r.stderr for f in fragments)
              and not os.path.exists(out))
        check(ok, f"{what}: exit {r.returncode}, '{r.stderr.strip()}', output left: "
                  f"{os.path.exists(out)}")
    if madgraph:
        refused("t tbar", ["--lhe", madgraph], "top quark", "massless quarks and gluons only")
    text = open(z).read().splitlines()
    bad = list(text)
    k = [i for i, l in enumerate(bad) if l == "<event>"][1500]
    bad[k + 3] = bad[k + 3].replace("e+", "x+", 1)
    badf = os.path.join(work, "bad.lhe")
    open(badf, "w").write("\n".join(bad) + "\n")
    refused("a malformed event", ["--lhe", badf], f"bad.lhe:{k + 4}:", "not a number")
    truncf = os.path.join(work, "trunc.lhe")
    open(truncf, "w").write("\n".join(text[: k + 3]) + "\n")
    refused("a truncated file", ["--lhe", truncf], "trunc.lhe:")
    refused("--ecm against the beams", ["--lhe", z, "--ecm", "8000"], "contradicts")
    refused("--events beyond the file", ["--lhe", z, "--events", "2001"], "fewer than --events")
    refused("too small a record", ["--lhe", z, "--max-partons", "4"], "z.lhe:",
            "raise --max-partons")
    # p pbar files are showered (tests/test_lhe_ppbar.py); n p beams are not
    np_ = os.path.join(work, "np.lhe")
    write_file(np_, "z", 10, seed=1, beams=(2112, 2212))
    refused("n p beams", ["--lhe", np_], "np.lhe:", "the beams are PDG 2112 and 2212",
            "p pbar (2212 -2212, -2212 2212)")
    g = list(text)
    g.insert(2, '<gaps process="pp-z" weight_unit="1024"/>')
    for j, at in enumerate([i for i, l in enumerate(g) if l == "</event>"]):
        g[at] = f'<gaps event="{j if j != 5 else 50}" draw="3" t="8315" x1="0.01" x2="0.01"/>\n</event>'
    gf = os.path.join(work, "gaps-order.lhe")
    open(gf, "w").write("\n".join(g) + "\n")
    refused("a gaps element out of order", ["--lhe", gf], "not consecutive")
    print("ok: refusals")


def compare(work, bins):
    f = os.path.join(work, "cmp.lhe")
    write_file(f, "zg", 3000, seed=11)
    ref = None
    for i, gaps in enumerate(bins):
        backend = subprocess.run([gaps, "--version"], capture_output=True,
                                 text=True).stdout.split("(")[1].split()[0]
        settings = [[], ["--pool", "37"], ["--loops", "steps", "--pool", "500"]]
        if backend == "openmp":
            settings += [["--threads", "2", "--pool", "999"], ["--threads", "3"]]
        for s in settings:
            label = f"b{i}-{backend}-{'-'.join(x.strip('-') for x in s) or 'default'}"
            base = os.path.join(work, label)
            r = run(gaps, "--lhe", f, "--quiet", "--seed", "5", "--observables-out",
                    base + ".csv", "--hepmc", base + ".hepmc", "--output", base + ".yoda",
                    *host_args(gaps), *s)
            if not check(r.returncode == 0, f"{label}: {r.stderr.strip()}"):
                continue
            got = [open(base + ".csv").read(), open(base + ".hepmc").read(),
                   [l for l in open(base + ".yoda") if not l.startswith(("Backend: ", "GitRevision: "))]]
            if ref is None:
                ref = (label, got)
            else:
                check(got == ref[1], f"{label}: other events than {ref[0]}")
                print(f"ok: {label} identical to {ref[0]}")


def main():
    if sys.argv[1] == "--compare":
        work, bins = sys.argv[2], sys.argv[3:]
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        compare(work, bins)
    else:
        work, gaps = sys.argv[1], sys.argv[2]
        madgraph = sys.argv[3] if len(sys.argv) > 3 else None
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        functional(work, gaps, madgraph)
        os.makedirs(os.path.join(work, "compare"))
        compare(os.path.join(work, "compare"), [gaps])
    print(f"{'FAIL' if failures else 'ok'}: test_lhe_shower, {failures} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
