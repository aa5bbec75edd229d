#!/usr/bin/env python3
"""Compare two --observables-out files event by event.

Usage: compare_events.py A.csv B.csv [--max-show N]

Prints how many events differ at all (any column, bitwise as text), the largest relative
difference per column, and the first differing events; exit status 0 if every line is
identical, 1 otherwise.
"""
import argparse
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--max-show", type=int, default=5)
    args = ap.parse_args()
    with open(args.a) as fa, open(args.b) as fb:
        la, lb = fa.read().splitlines(), fb.read().splitlines()
    header = la[0].lstrip("# ").split(",")
    rows_a = [l for l in la if not l.startswith("#")]
    rows_b = [l for l in lb if not l.startswith("#")]
    if len(rows_a) != len(rows_b):
        print(f"different numbers of events: {len(rows_a)} and {len(rows_b)}")
    n = min(len(rows_a), len(rows_b))
    differ, shown = 0, 0
    worst = [0.0] * len(header)
    for i in range(n):
        if rows_a[i] == rows_b[i]:
            continue
        differ += 1
        va, vb = rows_a[i].split(","), rows_b[i].split(",")
        for k, (x, y) in enumerate(zip(va, vb)):
            x, y = float(x), float(y)
            if x != y:
                worst[k] = max(worst[k], abs(x - y) / max(abs(x), abs(y), 1e-300))
        if shown < args.max_show:
            print(f"event {va[0]} differs:\n  A: {rows_a[i]}\n  B: {rows_b[i]}")
            shown += 1
    print(f"{differ} of {n} events differ")
    if differ:
        print("largest relative difference per column:")
        for name, w in zip(header, worst):
            if w:
                print(f"  {name:10s} {w:.3e}")
    sys.exit(0 if differ == 0 and len(rows_a) == len(rows_b) else 1)


if __name__ == "__main__":
    main()
