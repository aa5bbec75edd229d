#!/usr/bin/env python3
"""The real matrix element of e+ e- -> q qbar g (gaps_ee_qqg_real(), src/process/ee_qq_nlo.c;
doc/nlo.md section 2) against an independent calculation from Dirac traces.

For one chirality of the electron current and one of the quark current (vector and axial
couplings of the photon and the Z only weight these channels), the spin-summed squared
amplitude is L_{mu nu} H^{mu nu} with the lepton tensor of v(k+) gamma^mu P_e u(k-) and the
hadronic tensor of the two diagrams u(p1) [gamma^nu (p1 + p3)/s13 gamma^mu P_q
- gamma^mu P_q (p2 + p3)/s23 gamma^nu] v(p2), the gluon's polarisations summed with -g.  The
Born of the same chiralities gives the channel's Born normalisation.  With the Born written as
|M_B|^2 = S^same (1 - c)^2 + S^opp (1 + c)^2 (same: equal chiralities), the prediction is

    R = g^2 C_F [S^same X_same(p) / X^B_same(c = 0) + S^opp X_opp(p) / X^B_opp(c = 0)]

(the couplings, the propagator 1/s and N_c are common to a channel's Born and real, the gluon
adds g^2 C_F).  `test_nlo --print-real` writes 200 points with the code's R; each must agree
to 1e-10.  A negative control swaps the channels' Born weights (the forward-backward term's
sign), which must be off by more than 1 % somewhere.  Needs numpy (skipped, exit 77, without it unless GAPS_STRICT=1).
Usage: test_nlo_real.py TEST_NLO_BINARY"""
import math
import os
import subprocess
import sys

try:
    import numpy as np
except ImportError:
    print("numpy not found: skipped")
    sys.exit(1 if os.environ.get("GAPS_STRICT") == "1" else 77)

CF = 4.0 / 3.0
I2, Z2 = np.eye(2), np.zeros((2, 2))
PAULI = [np.array([[0, 1], [1, 0]], complex), np.array([[0, -1j], [1j, 0]]),
         np.array([[1, 0], [0, -1]], complex)]
G = [np.block([[I2, Z2], [Z2, -I2]]).astype(complex)] + [np.block([[Z2, s], [-s, Z2]])
                                                         for s in PAULI]
G5 = 1j * G[0] @ G[1] @ G[2] @ G[3]
PL, PR = (np.eye(4) - G5) / 2, (np.eye(4) + G5) / 2
METRIC = np.array([1.0, -1.0, -1.0, -1.0])


def slash(p):
    return sum(METRIC[m] * p[m] * G[m] for m in range(4))


def bar(m):
    return G[0] @ m.conj().T @ G[0]


def dot(a, b):
    return a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3]


def contract(lt, ht):
    return sum(lt[m, n] * ht[m, n] * METRIC[m] * METRIC[n]
               for m in range(4) for n in range(4)).real


def lepton(kp, km, pe):
    return np.array([[np.trace(slash(kp) @ G[m] @ pe @ slash(km) @ bar(G[n] @ pe))
                      for n in range(4)] for m in range(4)])


def born_tensor(pq, pqb, pq_proj):
    return np.array([[np.trace(slash(pq) @ G[m] @ pq_proj @ slash(pqb) @ bar(G[n] @ pq_proj))
                      for n in range(4)] for m in range(4)])


def real_tensor(p1, p2, p3, pq_proj):
    h = np.zeros((4, 4), complex)
    s13, s23 = 2 * dot(p1, p3), 2 * dot(p2, p3)
    for nu in range(4):
        gam = [G[nu] @ slash(p1 + p3) @ G[m] @ pq_proj / s13
               - G[m] @ pq_proj @ slash(p2 + p3) @ G[nu] / s23 for m in range(4)]
        for m in range(4):
            for n in range(4):
                h[m, n] += -METRIC[nu] * np.trace(slash(p1) @ gam[m] @ slash(p2) @ bar(gam[n]))
    return h


def main():
    out = subprocess.run([sys.argv[1], "--print-real"], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    rows = [list(map(float, line.split())) for line in out if line.strip()]
    worst, worst_control = 0.0, 0.0
    for row in rows:
        f, alphas, a_f, b_f = int(row[0]), row[1], row[2], row[3]
        p1, p2, p3 = (np.array(row[4 + 4 * i: 8 + 4 * i]) for i in range(3))
        r_code = row[16]
        ecm = p1[0] + p2[0] + p3[0]
        kp = np.array([ecm / 2, 0, 0, ecm / 2])     # e+ along +z
        km = np.array([ecm / 2, 0, 0, -ecm / 2])    # e- along -z
        q0 = np.array([ecm / 2, ecm / 2, 0, 0])     # a Born quark at c = 0
        qb0 = np.array([ecm / 2, -ecm / 2, 0, 0])
        same, opp = a_f / 2 - b_f / 4, a_f / 2 + b_f / 4
        g2 = 4 * math.pi * alphas
        x = {}
        for name, pe, pq in (("same", PL, PL), ("opp", PL, PR)):
            lt = lepton(kp, km, pe)
            x[name] = contract(lt, real_tensor(p1, p2, p3, pq)) / \
                contract(lt, born_tensor(q0, qb0, pq))
        pred = g2 * CF * (same * x["same"] + opp * x["opp"])
        control = g2 * CF * (opp * x["same"] + same * x["opp"])
        worst = max(worst, abs(r_code / pred - 1))
        worst_control = max(worst_control, abs(r_code / control - 1))
    print(f"gaps_ee_qqg_real against Dirac traces, {len(rows)} points: largest relative "
          f"difference {worst:.2e}; control (channels swapped): largest {worst_control:.2e}")
    ok = worst < 1e-10 and worst_control > 1e-2
    print("ok" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
