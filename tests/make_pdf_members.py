#!/usr/bin/env python3
"""Make a small LHAPDF6 error set from one central member, for the tests of --vary pdf.

Usage: make_pdf_members.py SOURCE_DIR NAME OUT_DIR [ERROR_TYPE [MEMBERS]]

SOURCE_DIR is a one-member set (e.g. share/pdfsets/CT14lo); OUT_DIR/NAME/ receives NAME.info
(NumMembers MEMBERS, 5 by default, odd; SetIndex 90000, ErrorType ERROR_TYPE, "hessian" by
default) and the members, each the central grid with every value x f(x, Q) multiplied by a
factor c_m(x, flavour):

  member 0: c = 1 (the central member, bit for bit)
  member 1: c = 1.02             member 2: c = 0.98       (uniform: every ratio is exact)
  member 3: c = 1 + s(x, pid)    member 4: c = 1 - s(x, pid)
  s = 0.25 (1 + log10(x) / 4.5) for the gluon, -0.25 (...) for the quarks and antiquarks
  members 2k - 1 and 2k for k = 3, 4, ...: c = 1 + s / (k - 1) and 1 - s / (k - 1) (a set of
  the size of real ones, 101 members, for benchmarks)

so that members 3 and 4 move the gluon against the quarks, and small x against large x
(s runs from -0.25 at x = 1e-9 through 0 at x = 1e-4.5 to +0.25 at x = 1): a shape the
hard process's luminosity and the initial-state shower's density ratios both see, unlike a
uniform factor.  The factors need not respect the DGLAP evolution: the generator interpolates
whatever grid it is given, and the independent runs with --pdf NAME/m use the same grids.
Values are written with 10 significant digits.  Standard library only.
"""
import math
import os
import sys


def factor(member, x, pid):
    if member == 0:
        return 1.0
    if member == 1:
        return 1.02
    if member == 2:
        return 0.98
    s = 0.25 * (1.0 + math.log10(x) / 4.5) if x > 0 else -0.25
    if pid != 21 and pid != 0:
        s = -s
    s /= (member + 1) // 2 - 1   # 1 for members 3 and 4
    return 1.0 + s if member % 2 else 1.0 - s


def deform(lines, member):
    """The lines of a lhagrid1 member file with each block's values scaled."""
    out, i, n = [], 0, len(lines)
    while i < n and lines[i].strip() != "---":   # the header
        out.append(lines[i])
        i += 1
    while i < n:
        out.append(lines[i])   # "---"
        i += 1
        if i + 3 > n:
            break
        xs = [float(t) for t in lines[i].split()]
        qs = lines[i + 1].split()
        pids = [int(t) for t in lines[i + 2].split()]
        out += lines[i:i + 3]
        i += 3
        for ix, x in enumerate(xs):
            for _ in qs:
                vals = [float(t) for t in lines[i].split()]
                if member == 0:
                    out.append(lines[i])
                else:
                    out.append(" ".join("%.9e" % (v * factor(member, x, p))
                                        for v, p in zip(vals, pids)))
                i += 1
        if i < n and lines[i].strip() != "---":
            raise SystemExit("make_pdf_members.py: unexpected line %d" % (i + 1))
    return out


def main():
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    src, name, out_dir = sys.argv[1:4]
    error_type = sys.argv[4] if len(sys.argv) > 4 else "hessian"
    members = int(sys.argv[5]) if len(sys.argv) > 5 else 5
    if members < 5 or members % 2 == 0:
        raise SystemExit("make_pdf_members.py: MEMBERS must be odd and at least 5")
    base = os.path.basename(os.path.normpath(src))
    with open(os.path.join(src, base + ".info")) as f:
        info = f.read().split("\n")
    with open(os.path.join(src, base + "_0000.dat")) as f:
        central = f.read().rstrip("\n").split("\n")
    dest = os.path.join(out_dir, name)
    os.makedirs(dest, exist_ok=True)
    keep = [ln for ln in info if ln.split(":")[0] not in
            ("SetDesc", "SetIndex", "NumMembers", "ErrorType", "ErrorConfLevel")]
    head = ["SetDesc: 'test set of tests/make_pdf_members.py from %s'" % base,
            "SetIndex: 90000", "NumMembers: %d" % members, "ErrorType: %s" % error_type,
            "ErrorConfLevel: 68.268949"]
    with open(os.path.join(dest, name + ".info"), "w") as f:
        f.write("\n".join(head + keep).rstrip("\n") + "\n")
    for m in range(members):
        with open(os.path.join(dest, "%s_%04d.dat" % (name, m)), "w") as f:
            f.write("\n".join(deform(central, m)) + "\n")


if __name__ == "__main__":
    main()
