#!/usr/bin/env python3
"""Showering Les Houches files of p pbar collisions (`gaps --lhe`, beams 2212 -2212, -2212 2212
and -2212 -2212; gaps_process.beam_anti, doc/physics.md 13.7).

An antiproton's parton densities are the proton set's with quarks and antiquarks swapped,
f_{q/pbar}(x) = f_{qbar/p}(x), so every PDF lookup and PDF-ratio bound of an incoming leg of
an antiproton beam takes the conjugate flavour.  Hand-made Tevatron files (sqrt(s) = 1960
GeV) of q qbar -> Z -> e- e+ (the Z a status-2 resonance), every light and heavy flavour, the
quark from beam 1 or from beam 2:
  (a) charge conjugation, exact: the file A (beams 2212 -2212) and its C-conjugate C (beams
      -2212 2212, every quark and lepton conjugated, colour and anticolour swapped, the same
      momenta) give, with the same seed, the same per-event observables bit for bit where the
      shower makes one emission (--max-partons 5: the record holds the hard event and one
      emission).  That emission's trial scale comes from the rate bounds and its acceptance
      from the PDF ratio, both of which see f_{u/p}(x) in A where they see f_{ubar/pbar}(x)
      in C: equal to the bit.  (Beyond one emission the shower is not C-symmetric in its
      rounding: a gluon's two dipoles are summed colour side first, and the conjugate swaps
      them; full showers of A and C agree in distribution, checked below.)  Likewise the p p
      file P and its conjugate (beams -2212 -2212).  Control: P (A's events with beams 2212
      2212) gives other events (the densities matter);
  (b) physics, full showers of u (beam 1) ubar (beam 2) -> Z events: the backward evolution
      turns the incoming ubar into a gluon as often as the u (valence both: beam 2 is a
      pbar), while in the p p control P the ubar, a sea quark there, becomes a gluon in far
      more events; in C (the pbar along +z) beam 1's ubar as often as A's beam 2's.  The
      flavours are the HepMC3 file's partons from each beam, whose beam particles are 2212
      and -2212 as the file's;
  (c) `gaps lhe-check` says a p pbar file is showerable; n p beams are still refused.

Usage: test_lhe_ppbar.py WORKDIR GAPS
"""
import math
import os
import random
import subprocess
import sys

failures = 0


def check(ok, what):
    global failures
    if not ok:
        failures += 1
        print("FAIL:", what)
    return ok


MZ = 91.1876
E_BEAM = 980.0


def boost_z(v, beta):
    g = 1.0 / math.sqrt(1.0 - beta * beta)
    px, py, pz, e = v
    return (px, py, g * (pz + beta * e), g * (e + beta * pz))


def z_events(n, seed, flavours, p_quark_first):
    """q qbar -> Z -> e- e+ events: rows (pid, status, m1, m2, col, acol, p, mass), weight."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        y = rng.uniform(-1.5, 1.5)
        x1, x2 = MZ / (2 * E_BEAM) * math.exp(y), MZ / (2 * E_BEAM) * math.exp(-y)
        p1 = (0.0, 0.0, x1 * E_BEAM, x1 * E_BEAM)
        p2 = (0.0, 0.0, -x2 * E_BEAM, x2 * E_BEAM)
        V = (0.0, 0.0, p1[2] + p2[2], p1[3] + p2[3])
        c = rng.uniform(-1, 1)
        s = math.sqrt(1 - c * c)
        ph = rng.uniform(0, 2 * math.pi)
        k = 0.5 * MZ
        l1 = boost_z((k * s * math.cos(ph), k * s * math.sin(ph), k * c, k), V[2] / V[3])
        l2 = boost_z((-k * s * math.cos(ph), -k * s * math.sin(ph), -k * c, k), V[2] / V[3])
        q = rng.choice(flavours)
        ins = [(q, 501, 0), (-q, 0, 501)]
        if rng.random() >= p_quark_first:
            ins.reverse()
        rows = [(ins[0][0], -1, 0, 0, ins[0][1], ins[0][2], p1, 0.0),
                (ins[1][0], -1, 0, 0, ins[1][1], ins[1][2], p2, 0.0),
                (23, 2, 1, 2, 0, 0, V, MZ),
                (11, 1, 3, 3, 0, 0, l1, 0.0),
                (-11, 1, 3, 3, 0, 0, l2, 0.0)]
        out.append((rows, 100.0 * rng.uniform(0.5, 1.5)))
    return out


def conjugate(pid):
    return pid if pid in (21, 22, 23, 25) else -pid


def write(path, beams, events, conj=False):
    """The file; conj: every particle conjugated, colour and anticolour swapped."""
    out = ['<LesHouchesEvents version="3.0">', "<init>",
           f"{beams[0]} {beams[1]} {E_BEAM!r} {E_BEAM!r} 0 0 13400 13400 4 1",
           "100.0 1.0 150.0 1", "</init>"]
    for rows, w in events:
        out += ["<event>", f"{len(rows)} 1 {w:.17e} {MZ:.10e} 7.8e-03 1.18e-01"]
        for pid, st, m1, m2, c1, c2, p, mass in rows:
            if conj:
                pid, c1, c2 = conjugate(pid), c2, c1
            out.append(f"{pid} {st} {m1} {m2} {c1} {c2} {p[0]:.17e} {p[1]:.17e} {p[2]:.17e} "
                       f"{p[3]:.17e} {mass:.10e} 0 9")
        out.append("</event>")
    out.append("</LesHouchesEvents>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def run(gaps, *args):
    env = dict(os.environ, KMP_WARNINGS="0")
    return subprocess.run([gaps, *args], capture_output=True, text=True, env=env, timeout=600)


def host_args(gaps):
    v = subprocess.run([gaps, "--version"], capture_output=True, text=True).stdout
    return ["--allow-host"] if "offload backend" in v else []


def read_csv(path):
    with open(path) as f:
        header = f.readline().lstrip("# ").strip().split(",")
        return header, [l.strip().split(",") for l in f if not l.startswith("#")]


# the observables that C leaves as they are (the leptons' columns are named by charge)
C_INVARIANT = ("event", "weight", "n_partons", "zmass", "zpt", "zrap", "zphi", "j1_pt",
               "j1_eta", "j2_pt", "j2_eta", "j3_pt", "j3_eta", "njets", "detazj1", "dRzj1",
               "dRj1j2", "dRj1j3", "dRj2j3")


def invariant_rows(path):
    header, rows = read_csv(path)
    cols = [header.index(c) for c in C_INVARIANT if c in header]
    return [tuple(r[i] for i in cols) for r in rows], header


def beam_partons(path):
    """Per event of a HepMC3 file, the PDG codes of the partons leaving beams 1 and 2 (the
    particles whose parent is beam particle 1 or 2 and whose status is 21), and the beams'
    own codes."""
    events, beams = [], {}
    for l in open(path):
        if l.startswith("E "):
            events.append([0, 0])
        elif l.startswith("P "):
            f = l.split()
            if f[2] == "0":
                beams[f[1]] = int(f[3])
            elif f[2] in ("1", "2") and f[-1] == "21":
                events[-1][int(f[2]) - 1] = int(f[3])
    return events, beams


def main():
    work, gaps = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    os.chdir(work)
    extra = host_args(gaps)

    # (a) one emission: C-conjugates give the same bits
    before = failures
    evs = z_events(4000, 7, [1, 2, 2, 3, 4, 5], 0.7)
    files = {"A": ((2212, -2212), False), "C": ((-2212, 2212), True),
             "P": ((2212, 2212), False), "Pc": ((-2212, -2212), True)}
    rows = {}
    for name, (beams, conj) in files.items():
        write(f"{name}.lhe", beams, evs, conj)
        r = run(gaps, "--lhe", f"{name}.lhe", "--seed", "3", "--quiet", "--output", "none",
                "--max-partons", "5", "--observables-out", f"{name}1.csv", *extra)
        if not check(r.returncode == 0, f"{name}: one emission: exit {r.returncode}: "
                                        f"{r.stderr.strip()}"):
            return
        rows[name], header = invariant_rows(f"{name}1.csv")
    check(len(rows["A"]) == 4000, f"A: {len(rows['A'])} events, expected 4000")
    emitted = sum(int(r[2]) > 0 for r in rows["A"])   # n_partons: final-state partons
    check(emitted > 2000, f"A: only {emitted} of 4000 events emitted")
    for a, b in (("A", "C"), ("P", "Pc")):
        same = sum(x == y for x, y in zip(rows[a], rows[b]))
        check(same == len(rows[a]), f"one emission: {a} and its C-conjugate {b} differ in "
                                    f"{len(rows[a]) - same} of {len(rows[a])} events")
    same = sum(x == y for x, y in zip(rows["A"], rows["P"]))
    check(same < 0.8 * len(rows["A"]),
          f"control: the p p file gives the p pbar file's events in {same} of 4000")
    if failures == before:
        print(f"ok: one emission, C-conjugates bit for bit ({emitted} of 4000 events emitted; "
              f"p p instead of p pbar: {len(rows['A']) - same} events differ)")

    # (b) full showers of u (beam 1) ubar (beam 2)
    before = failures
    n = 10000
    uu = z_events(n, 11, [2], 1.0)
    frac = {}
    for name, (beams, conj) in files.items():
        if name == "Pc":
            continue
        write(f"{name}-u.lhe", beams, uu, conj)
        r = run(gaps, "--lhe", f"{name}-u.lhe", "--seed", "5", "--quiet", "--output", "none",
                "--hepmc", f"{name}.hepmc", "--observables-out", f"{name}.csv", *extra)
        if not check(r.returncode == 0, f"{name}: shower: exit {r.returncode}: "
                                        f"{r.stderr.strip()}"):
            return
        partons, beam_ids = beam_partons(f"{name}.hepmc")
        check(beam_ids == {"1": beams[0], "2": beams[1]},
              f"{name}: HepMC3 beams {beam_ids}, the file's are {beams}")
        check(len(partons) == n and all(p[0] and p[1] for p in partons),
              f"{name}: {len(partons)} events with a parton from each beam, expected {n}")
        frac[name] = [sum(p[b] == 21 for p in partons) / n for b in (0, 1)]
        # the other partons: the file's u from beam 1 (ubar in C) and ubar from beam 2 (u)
        q1, q2 = (-2, 2) if conj else (2, -2)
        if name != "P":
            ok1 = sum(p[0] in (q1, 21) for p in partons) > 0.8 * n
            ok2 = sum(p[1] in (q2, 21) for p in partons) > 0.8 * n
            check(ok1 and ok2, f"{name}: the incoming partons are mostly not the file's")
    sigma = math.sqrt(0.25 / n)   # a fraction's error, at most

    def near(a, b):
        return abs(a - b) < 5.0 * math.sqrt(2.0) * sigma

    fa, fc, fp = frac["A"], frac["C"], frac["P"]
    check(near(fa[0], fa[1]), f"A: u (p) and ubar (pbar) become gluons in {fa[0]:.4f} and "
                              f"{fa[1]:.4f} of the events: not alike")
    check(near(fc[0], fa[1]) and near(fc[1], fa[0]),
          f"C: gluon fractions {fc}, A's {fa}: not alike")
    check(fp[1] > fa[1] + 20 * sigma and near(fp[0], fa[0]),
          f"control: p p: gluon fractions {fp}, p pbar {fa}: the sea ubar of a proton should "
          f"turn into a gluon far more often than the valence ubar of an antiproton")
    # A and C in distribution: the mean Z p_T and jet count
    for col in ("zpt", "njets"):
        means = {}
        for name in ("A", "C"):
            header, rs = read_csv(f"{name}.csv")
            v = [float(r[header.index(col)]) for r in rs]
            m = sum(v) / len(v)
            sd = math.sqrt(sum((x - m) ** 2 for x in v) / (len(v) - 1))
            means[name] = (m, sd / math.sqrt(len(v)))
        (ma, ea), (mc, ec) = means["A"], means["C"]
        check(abs(ma - mc) < 5 * math.hypot(ea, ec),
              f"A and C: mean {col} {ma:.4f} +- {ea:.4f} and {mc:.4f} +- {ec:.4f}")
    if failures == before:
        print(f"ok: full showers, gluons from beams 1, 2: p pbar {fa[0]:.4f} {fa[1]:.4f}, "
              f"pbar p (conjugate) {fc[0]:.4f} {fc[1]:.4f}, p p {fp[0]:.4f} {fp[1]:.4f}")

    # (c) lhe-check; other hadron beams still refused
    before = failures
    r = run(gaps, "lhe-check", "A.lhe")
    check(r.returncode == 0 and "pbar (-2212)" in r.stdout
          and "shower: yes" in r.stdout, f"lhe-check A.lhe: exit {r.returncode}: {r.stdout}")
    write("np.lhe", (2112, 2212), evs[:10])
    r = run(gaps, "lhe-check", "np.lhe")
    check("shower: no" in r.stdout and "the beams are PDG 2112 and 2212" in r.stdout,
          f"lhe-check np.lhe: {r.stdout}")
    r = run(gaps, "--lhe", "np.lhe", "--quiet", "--output", "none", *extra)
    check(r.returncode == 2 and "np.lhe:" in r.stderr
          and "the beams are PDG 2112 and 2212" in r.stderr,
          f"--lhe np.lhe: exit {r.returncode}: {r.stderr.strip()}")
    if failures == before:
        print("ok: lhe-check, refusals")


main()
if failures:
    print(f"{failures} failure(s)")
    sys.exit(1)
print("all passed")
