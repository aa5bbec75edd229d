#!/usr/bin/env python3
"""A warp of GPU lanes running the veto algorithm, as a toy model (doc/course.md, exercise 8).

Each of W lanes runs one trial per veto cycle (cost 1); a trial is accepted with probability
p and then needs a splitting (cost S).  A warp pays for a path whenever any of its lanes takes
it.  Printed: the warp's cost per trial, in units of one trial, for
  (a) splitting at once, in the cycle of the acceptance (the plain veto cycle);
  (b) every lane trying until it accepts, then all lanes splitting together;
  (c) splitting rounds every M cycles, lanes that accepted waiting for the round
      (gaps_veto_cycle() with --split-every M, doc/physics.md section 6.6).
The useful work is 1 + p S per trial; everything above it is lanes waiting for each other.
"""
import argparse
import random


def rounds(m, w, p, s, cycles, rng):
    cost = trials = 0
    waiting = [False] * w
    for c in range(cycles):
        if not all(waiting):
            cost += 1.0
        for lane in range(w):
            if not waiting[lane]:
                trials += 1
                waiting[lane] = rng.random() < p
        if (c + 1) % m == 0 and any(waiting):
            cost += s
            waiting = [False] * w
    return cost * w / trials


def until_accepted(w, p, s, repeats, rng):
    cost = trials = 0
    for _ in range(repeats):
        runs = []
        for _ in range(w):
            k = 1
            while rng.random() >= p:
                k += 1
            runs.append(k)
        cost += max(runs) + s
        trials += sum(runs)
    return cost * w / trials


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lanes", type=int, default=32, help="lanes per warp (default 32)")
    ap.add_argument("--accept", type=float, default=0.08, help="acceptance probability (0.08)")
    ap.add_argument("--split-cost", type=float, default=3.0, help="splitting cost in trials (3)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    w, p, s = a.lanes, a.accept, a.split_cost
    print("useful work per trial             %.2f" % (1 + p * s))
    print("(a) split at once                 %.2f" % rounds(1, w, p, s, 20000, rng))
    print("(b) try until accepted, then split %.2f" % until_accepted(w, p, s, 3000, rng))
    for m in (2, 4, 6, 8, 12, 16):
        print("(c) splitting round every %2d      %.2f" % (m, rounds(m, w, p, s, 20000, rng)))


if __name__ == "__main__":
    main()
