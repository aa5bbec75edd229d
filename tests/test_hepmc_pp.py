#!/usr/bin/env python3
"""Showered hadron-collision events of --hepmc read back with pyhepmc (the Python bindings of
HepMC3's own reader): 1000 events each of pp-z and pp-ll through the whole program.

Checked in every event, in the HepMC3 / Pythia 8 status convention:
  * two proton beams (status 4) of sqrt(s)/2 along +z and -z, each the only particle in its
    vertex, whose children are one incoming parton (status 21, a quark or a gluon along the
    beam) and one beam remnant (PDG 82, status 1, exactly beam minus parton);
  * the two incoming partons are the only incoming particles of one hard vertex, whose outgoing
    momenta add up to theirs;
  * pp-z: one Z (PDG 23), undecayed, status 1, out of the hard vertex; pp-ll: one Z/gamma*
    (PDG 23, status 62: the last copy of a decayed resonance), out of the hard vertex, mass in
    the 66-116 GeV window, whose only children are an e- and an e+ (status 1) adding up to it;
  * no other status (1, 4, 21 and for pp-ll 62), the final particles (status 1) add up to the
    two beams to 1e-10 of sqrt(s) in every component, and their colour lines are closed: every
    flow1 tag of a final particle is the flow2 tag of exactly one other final particle;
  * one weight, finite and > 0, and a GenCrossSection; event numbers 0..999 in order.
The run information: the weight name Default, the tool gaps with a description that names the
process (its title, 'p p -> ...'), and the attributes process (pp-z, pp-ll), pdf (CT14lo/0)
and sqrt_s_GeV (13000).  The last event's cross section is the run's (JSON sigma_pb).

Usage: test_hepmc_pp.py GAPS WORKDIR.  Exit 0 pass, 1 fail, 77 skipped (no pyhepmc; a failure
under GAPS_STRICT=1).
"""
import json
import math
import os
import shutil
import subprocess
import sys

try:
    import pyhepmc
except ImportError:
    print("SKIP: pyhepmc not installed (python3 -m pip install pyhepmc, or "
          "tools/install-deps.sh --plots)")
    sys.exit(1 if os.environ.get("GAPS_STRICT") == "1" else 77)

EVENTS = 1000
ECM = 13000.0
TOL = 1e-10 * ECM
failures = []


def fail(proc, event, what):
    if len(failures) < 30:
        print(f"FAIL {proc} event {event}: {what}")
    failures.append(what)


def vec(p):
    m = p.momentum
    return (m.e, m.px, m.py, m.pz)


def add(a, b, sign=1.0):
    return tuple(x + sign * y for x, y in zip(a, b))


def close(a, b, tol=TOL):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def flow(p, name):
    a = p.attributes
    if name not in a:
        return 0
    v = a[name]
    return int(v.astype(int)) if hasattr(v, "astype") else int(v)


def is_parton(pid):
    return pid == 21 or 1 <= abs(pid) <= 6


def check_event(proc, evt):
    n = evt.event_number
    ps = evt.particles
    by_status = {}
    for p in ps:
        by_status.setdefault(p.status, []).append(p)
    allowed = {1, 4, 21} | ({62} if proc == "pp-ll" else set())
    if set(by_status) - allowed:
        fail(proc, n, f"statuses {sorted(set(by_status))}, allowed {sorted(allowed)}")
    beams = by_status.get(4, [])
    incoming = by_status.get(21, [])
    final = by_status.get(1, [])
    if len(beams) != 2 or len(incoming) != 2:
        fail(proc, n, f"{len(beams)} beams and {len(incoming)} incoming partons, not 2 and 2")
        return
    # beams, and what each beam's vertex makes: one incoming parton and one remnant
    beam_sum = (0.0, 0.0, 0.0, 0.0)
    for b, pz in zip(sorted(beams, key=lambda p: -p.momentum.pz), (ECM / 2, -ECM / 2)):
        pv = b.production_vertex   # the event's root vertex (id 0) or none
        if b.pid != 2212 or vec(b) != (ECM / 2, 0.0, 0.0, pz) or (pv and pv.id != 0):
            fail(proc, n, f"beam {b} is not a {ECM / 2} GeV proton along z")
        beam_sum = add(beam_sum, vec(b))
        v = b.end_vertex
        if not v or len(v.particles_in) != 1:
            fail(proc, n, "a beam does not end in a vertex of its own")
            continue
        kids = v.particles_out
        parton = [p for p in kids if p.status == 21]
        remnant = [p for p in kids if p.pid == 82]
        if len(kids) != 2 or len(parton) != 1 or len(remnant) != 1:
            fail(proc, n, f"beam's children {kids}: not one incoming parton and one remnant")
            continue
        q, r = parton[0], remnant[0]
        if not is_parton(q.pid) or q.momentum.px != 0.0 or q.momentum.py != 0.0 \
                or q.momentum.pz * pz <= 0.0:
            fail(proc, n, f"incoming parton {q} is not a parton along its beam")
        if r.status != 1 or not close(vec(r), add(vec(b), vec(q), -1.0)):
            fail(proc, n, f"remnant {r} is not final, or not beam minus parton")
    # the hard vertex
    hard = incoming[0].end_vertex
    if not hard or incoming[1].end_vertex is None or incoming[1].end_vertex.id != hard.id \
            or sorted(p.id for p in hard.particles_in) != sorted(p.id for p in incoming):
        fail(proc, n, "the incoming partons are not the incoming particles of one vertex")
        return
    sum_in = add(vec(incoming[0]), vec(incoming[1]))
    sum_out = (0.0, 0.0, 0.0, 0.0)
    for p in hard.particles_out:
        sum_out = add(sum_out, vec(p))
    if not close(sum_in, sum_out):
        fail(proc, n, f"hard vertex: in {sum_in}, out {sum_out}")
    # the boson
    bosons = [p for p in ps if p.pid == 23]
    if len(bosons) != 1 or bosons[0].production_vertex is None \
            or bosons[0].production_vertex.id != hard.id:
        fail(proc, n, f"not one Z out of the hard vertex: {bosons}")
    else:
        z = bosons[0]
        if proc == "pp-z":
            if z.status != 1 or z.end_vertex:
                fail(proc, n, f"the pp-z Z is not final (status 1): {z}")
        else:
            kids = z.end_vertex.particles_out if z.end_vertex else []
            m = math.sqrt(max(0.0, z.momentum.e ** 2 - z.momentum.px ** 2 - z.momentum.py ** 2
                              - z.momentum.pz ** 2))
            if z.status != 62 or sorted(p.pid for p in kids) != [-11, 11] \
                    or any(p.status != 1 for p in kids):
                fail(proc, n, f"the Z/gamma* {z} (status 62) does not decay into final e- e+")
            elif not close(vec(z), add(vec(kids[0]), vec(kids[1])), 1e-12 * z.momentum.e):
                fail(proc, n, "the Z/gamma* is not the sum of its leptons")
            if not (66.0 - 1e-9 <= m <= 116.0 + 1e-9) or abs(z.generated_mass - m) > 1e-9:
                fail(proc, n, f"Z/gamma* mass {m}, generated mass {z.generated_mass}")
    # the final state: the beams' momentum, closed colour lines
    final_sum = (0.0, 0.0, 0.0, 0.0)
    for p in final:
        final_sum = add(final_sum, vec(p))
        if p.end_vertex:
            fail(proc, n, f"final particle {p} decays")
    if not close(final_sum, beam_sum):
        fail(proc, n, "final particles add up to "
             f"{final_sum}, the beams to {beam_sum} (difference "
             f"{max(abs(a - b) for a, b in zip(final_sum, beam_sum)):.3g} GeV)")
    col = sorted(flow(p, "flow1") for p in final if flow(p, "flow1"))
    acol = sorted(flow(p, "flow2") for p in final if flow(p, "flow2"))
    if col != acol or len(set(col)) != len(col):
        fail(proc, n, f"open colour lines in the final state: flow1 {col}, flow2 {acol}")
    for p in final:
        if is_parton(p.pid) and p.pid != 21 and (flow(p, "flow1") != 0) == (flow(p, "flow2") != 0):
            fail(proc, n, f"quark {p} with flows {flow(p, 'flow1')} {flow(p, 'flow2')}")
    # weight and cross section
    w = list(evt.weights)
    if len(w) != 1 or not (math.isfinite(w[0]) and w[0] > 0.0):
        fail(proc, n, f"weights {w}")
    if evt.cross_section is None:
        fail(proc, n, "no GenCrossSection")


def main():
    gaps, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    version = subprocess.run([gaps, "--version"], capture_output=True, text=True).stdout
    extra = ["--allow-host"] if "offload backend" in version else []
    titles = {"pp-z": "p p -> Z", "pp-ll": "p p -> Z/gamma* -> l+ l-"}
    for proc in ("pp-z", "pp-ll"):
        hepmc = os.path.join(work, proc + ".hepmc")
        js = os.path.join(work, proc + ".json")
        r = subprocess.run([gaps, *extra, "--process", proc, "--events", str(EVENTS), "--seed",
                            "2", "--quiet", "--output", "none", "--hepmc", hepmc, "--json", js])
        if r.returncode != 0:
            fail(proc, "-", f"gaps exited with {r.returncode}")
            continue
        sigma = json.load(open(js))["sigma_pb"]
        numbers, last = [], None
        with pyhepmc.open(hepmc) as f:
            for evt in f:
                if not numbers:
                    ri = evt.run_info
                    tools = [(t.name, t.version, t.description) for t in ri.tools]
                    attrs = {k: str(v) for k, v in ri.attributes.items()}
                    print(f"{proc}: tool {tools}, attributes {attrs}")
                    if list(ri.weight_names) != ["Default"]:
                        fail(proc, "run", f"weight names {list(ri.weight_names)}")
                    if len(tools) != 1 or tools[0][0] != "gaps" \
                            or not tools[0][2].startswith(titles[proc]) or "e+e-" in tools[0][2]:
                        fail(proc, "run", f"tool line {tools} does not name the process")
                    for k, v in (("process", proc), ("pdf", "CT14lo/0"), ("sqrt_s_GeV", "13000")):
                        if attrs.get(k) != v:
                            fail(proc, "run", f"run attribute {k} = {attrs.get(k)}, not {v}")
                numbers.append(evt.event_number)
                check_event(proc, evt)
                last = evt.cross_section.xsec() if evt.cross_section else None
        if numbers != list(range(EVENTS)):
            fail(proc, "-", f"read {len(numbers)} events numbered {numbers[:3]}..., "
                 f"not 0..{EVENTS - 1}")
        if last is None or abs(last - sigma) > 1e-12 * sigma:
            fail(proc, "-", f"last event's cross section {last}, the run's {sigma}")
        print(f"{proc}: {len(numbers)} events read by pyhepmc {pyhepmc.__version__}, "
              f"sigma {sigma:.2f} pb")
    print("test_hepmc_pp:", "FAILED" if failures else "passed", f"({len(failures)} failures)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
