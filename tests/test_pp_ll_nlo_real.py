#!/usr/bin/env python3
"""The real matrix elements of p p -> Z/gamma* -> l- l+ + parton (gaps_pp_ll_qqbar_real(),
gaps_pp_ll_qg_real(), src/process/pp_ll_nlo.c; doc/nlo.md section 12.2) against a calculation
from Dirac traces that shares nothing with the code's crossing of e+ e- -> q qbar g.

For one chirality of the lepton current and one of the quark current (the photon's and the Z's
couplings and the propagator only weight these channels), the spin-summed squared amplitude is
L_{mu nu} H^{mu nu}: the lepton tensor of u-bar(l-) gamma^mu P_l v(l+), the hadronic tensor of
the two diagrams of each process, the gluon's polarisations summed with -g:
  q(pa) qbar(pb) -> V g(k):    v-bar(pb) [gamma^mu P S(pa - k) gamma^nu + gamma^nu S(k - pb) gamma^mu P] u(pa)
  q(pa) g(pb) -> V q(k):       u-bar(k) [gamma^mu P S(pa + pb) gamma^nu + gamma^nu S(pa - q_V) gamma^mu P] u(pa)
  qbar(pa) g(pb) -> V qbar(k): v-bar(pa) [gamma^mu P S(pb - k) gamma^nu + gamma^nu S(-pa - pb) gamma^mu P] v(k)
with S(p) = pslash / p^2.  The Born q qbar -> l- l+ of the same chiralities at the same pair mass
(quark along +z, l- at 90 degrees: c = 0) normalises each channel: with the Born
P (1 + c)^2 + Q (1 - c)^2 (P: equal chiralities, the l- follows the quark; checked here on the
traces' Born at c = 0.5),

    R = g^2 F [P X_same(p) / X^B_same(c = 0) + Q X_opp(p) / X^B_opp(c = 0)]

with F = C_F for q qbar (colour sum C_F N_c over the average 1/N_c^2, against the Born's
N_c / N_c^2) and F = T_R for q g and qbar g (T_R N_c / (N_c (N_c^2 - 1)) against 1/N_c).
`test_pp_ll_nlo --print-real` writes 120 points with the code's three R; each must agree to
1e-10.  Negative control: the channels' Born weights P and Q swapped must be off by more than
1 % somewhere.  Needs numpy (skipped, exit 77, without it unless GAPS_STRICT=1).
Usage: test_pp_ll_nlo_real.py TEST_PP_LL_NLO_BINARY"""
import math
import os
import subprocess
import sys

try:
    import numpy as np
except ImportError:
    print("numpy not found: skipped")
    sys.exit(1 if os.environ.get("GAPS_STRICT") == "1" else 77)

CF, TR = 4.0 / 3.0, 0.5
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


def prop(p):
    return slash(p) / dot(p, p)


def contract(lt, ht):
    return sum(lt[m, n] * ht[m, n] * METRIC[m] * METRIC[n]
               for m in range(4) for n in range(4)).real


def lepton(lm, lp, pl):
    """sum over spins of [u-bar(lm) gamma^m P v(lp)] [...]^*"""
    return np.array([[np.trace(slash(lm) @ G[m] @ pl @ slash(lp) @ bar(G[n] @ pl))
                      for n in range(4)] for m in range(4)])


def born_tensor(q, qb, pq):
    """v-bar(qb) gamma^m P u(q): trace with qb-slash ... q-slash"""
    return np.array([[np.trace(slash(qb) @ G[m] @ pq @ slash(q) @ bar(G[n] @ pq))
                      for n in range(4)] for m in range(4)])


def real_tensor(kind, pa, pb, k, qv, pq):
    """hadronic tensor of the process kind (0 q qbar -> V g, 1 q g -> V q, 2 qbar g -> V qbar)"""
    h = np.zeros((4, 4), complex)
    for nu in range(4):
        if kind == 0:
            gam = [G[m] @ pq @ prop(pa - k) @ G[nu] + G[nu] @ prop(k - pb) @ G[m] @ pq
                   for m in range(4)]
            left, right = slash(pb), slash(pa)    # v(pb) v-bar(pb) ... u(pa) u-bar(pa)
        elif kind == 1:
            gam = [G[m] @ pq @ prop(pa + pb) @ G[nu] + G[nu] @ prop(pa - qv) @ G[m] @ pq
                   for m in range(4)]
            left, right = slash(k), slash(pa)     # u(k) ... u(pa)
        else:
            gam = [G[m] @ pq @ prop(pb - k) @ G[nu] + G[nu] @ prop(-pa - pb) @ G[m] @ pq
                   for m in range(4)]
            left, right = slash(pa), slash(k)     # v(pa) ... v(k)
        for m in range(4):
            for n in range(4):
                h[m, n] += -METRIC[nu] * np.trace(left @ gam[m] @ right @ bar(gam[n]))
    return h


def main():
    out = subprocess.run([sys.argv[1], "--print-real"], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    rows = [list(map(float, line.split())) for line in out if line.strip()]
    worst = [0.0, 0.0, 0.0]
    worst_control = [0.0, 0.0, 0.0]
    born_shape = 0.0
    for row in rows:
        p_same, q_opp, alphas = row[1], row[2], row[3]
        pa, pb, k, lm, lp = (np.array(row[4 + 4 * i: 8 + 4 * i]) for i in range(5))
        r_code = row[24:27]
        qv = lm + lp
        m = math.sqrt(dot(qv, qv))
        q0 = np.array([m / 2, 0, 0, m / 2])        # Born reference at the same pair mass
        qb0 = np.array([m / 2, 0, 0, -m / 2])
        lm0, lp0 = np.array([m / 2, m / 2, 0, 0]), np.array([m / 2, -m / 2, 0, 0])   # c = 0
        c5 = 0.5                                        # and c = 0.5
        s5 = math.sqrt(1 - c5 * c5)
        lm5, lp5 = (np.array([m / 2, m / 2 * s5, 0, m / 2 * c5]),
                    np.array([m / 2, -m / 2 * s5, 0, -m / 2 * c5]))
        g2 = 4 * math.pi * alphas
        x = {}
        for name, pl, pq in (("same", PL, PL), ("opp", PL, PR)):
            b0 = contract(lepton(lm0, lp0, pl), born_tensor(q0, qb0, pq))
            b5 = contract(lepton(lm5, lp5, pl), born_tensor(q0, qb0, pq))
            want = ((1 + c5) / 1) ** 2 if name == "same" else ((1 - c5) / 1) ** 2
            born_shape = max(born_shape, abs(b5 / b0 / want - 1))
            lt = lepton(lm, lp, pl)
            x[name] = [contract(lt, real_tensor(kind, pa, pb, k, qv, pq)) / b0
                       for kind in range(3)]
        for kind in range(3):
            fac = g2 * (CF if kind == 0 else TR)
            pred = fac * (p_same * x["same"][kind] + q_opp * x["opp"][kind])
            control = fac * (q_opp * x["same"][kind] + p_same * x["opp"][kind])
            worst[kind] = max(worst[kind], abs(r_code[kind] / pred - 1))
            worst_control[kind] = max(worst_control[kind], abs(r_code[kind] / control - 1))
    names = ("q qbar -> l l g", "q g -> l l q", "qbar g -> l l qbar")
    print(f"Born of the traces: equal chiralities (1 + c)^2, opposite (1 - c)^2 to {born_shape:.1e}")
    for kind in range(3):
        print(f"{names[kind]}: the code against Dirac traces, {len(rows)} points: largest "
              f"relative difference {worst[kind]:.2e}; control (P and Q swapped): largest "
              f"{worst_control[kind]:.2e}")
    ok = born_shape < 1e-12 and max(worst) < 1e-10 and min(worst_control) > 1e-2
    print("ok" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
