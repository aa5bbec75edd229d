#!/usr/bin/env python3
"""check_nlo_weights.py: the signed weights of one run, recomputed from its per-event CSV and
compared with every other output of the same run (doc/nlo.md, "Negative weights: where they
are handled and tested").

    check_nlo_weights.py RUN.csv RUN.json RUN.txt RUN.hepmc RUN.yoda PATH=COLUMN ...

RUN.txt is the text summary (standard output without --quiet).  PATH=COLUMN pairs name a
histogram of the YODA file and the CSV column it histograms (/gaps_lhc/zpt=zpt).  Checked:

- the CSV holds events 0 .. N-1 once each, and some weights are negative;
- JSON: sigma_pb = mean weight, sigma_err_pb = std(w)/sqrt(N) (the spread of the signed
  weights, population variance), effective_events = (sum w)^2 / sum w^2, negative_weights =
  the number of w < 0, negative_weight_fraction = that / N;
- the summary's "cross section" and "weights" lines say the same;
- HepMC3: the run description (T line) names NLO; one W line per event with the CSV's weight (bit for bit), as many negative ones; the
  GenCrossSection of event k is the mean and std(w)/sqrt(k+1) of the first k+1 weights;
- YODA: /_XSEC is the JSON's sigma and error, /_EVTCOUNT holds sum w and sum w^2; each named
  histogram's bins, under- and overflow hold sum w / N and sum w^2 / N^2 of the events whose
  CSV value falls in them (the CSV binned again here, with the file's bin edges).

Exit 0 when everything agrees, 1 when something does not (each finding on one line), 2 on
unreadable input.
"""

import json
import math
import re
import sys

REL = 1e-9          # YODA prints 11 significant digits; the sums are exact in the program


def close(a, b, rel=REL, absolute=0.0):
    return abs(a - b) <= rel * max(abs(a), abs(b)) + absolute


def read_csv(path):
    with open(path) as f:
        header = f.readline()
        if not header.startswith("# "):
            raise ValueError("%s: no '# ' header line" % path)
        cols = header[2:].strip().split(",")
        rows = [line.rstrip("\n").split(",") for line in f if line.strip()]
    return cols, rows


def yoda_objects(path):
    text = open(path).read()
    objs = {}
    for kind, name, body in re.findall(r"BEGIN (YODA_\w+) (\S+)\n(.*?)\nEND YODA_\w+", text, re.S):
        objs[name] = (kind, body)
    return objs


def yoda_histo(body):
    """(edges list of (lo, hi), bins [(sumw, sumw2)], underflow, overflow, scaled_by)."""
    bins, flows, scaled = [], {}, None
    for line in body.splitlines():
        f = line.split()
        if line.startswith("ScaledBy:"):
            scaled = float(line.split(":", 1)[1])
        elif len(f) == 7 and f[0] in ("Total", "Underflow", "Overflow"):
            flows[f[0]] = (float(f[2]), float(f[3]))
        elif len(f) == 7 and not f[0].startswith("#"):
            bins.append((float(f[0]), float(f[1]), float(f[2]), float(f[3])))
    return bins, flows, scaled


def main(argv):
    if len(argv) < 6:
        sys.stderr.write("usage: check_nlo_weights.py RUN.csv RUN.json RUN.txt RUN.hepmc RUN.yoda "
                         "[PATH=COLUMN ...]\n")
        return 2
    csv, js, txt, hepmc, yoda = argv[1:6]
    pairs = [a.split("=", 1) for a in argv[6:]]
    problems = []

    def check(cond, what):
        print(("ok: " if cond else "FAIL: ") + what)
        if not cond:
            problems.append(what)

    try:
        cols, rows = read_csv(csv)
        d = json.load(open(js))
        text = open(txt).read()
        hep = open(hepmc).read().splitlines()
        objs = yoda_objects(yoda)
    except (OSError, ValueError) as e:
        sys.stderr.write("check_nlo_weights.py: %s\n" % e)
        return 2

    # ---- the weights themselves ----
    n = len(rows)
    ev = [int(r[0]) for r in rows]
    wstr = [r[1] for r in rows]
    w = [float(s) for s in wstr]
    check(ev == list(range(n)), "CSV: events 0 .. %d in order, once each" % (n - 1))
    neg = sum(1 for x in w if x < 0)
    check(0 < neg < n, "CSV: %d of %d weights negative" % (neg, n))
    sw, sw2 = math.fsum(w), math.fsum(x * x for x in w)
    mean = sw / n
    spread = math.sqrt(max(sw2 / n - mean * mean, 0.0) / n)     # std(w) / sqrt(N)
    naive = abs(mean) / math.sqrt(n)                              # sigma / sqrt(N): wrong here
    neff = sw * sw / sw2

    # ---- JSON ----
    check(d["events"] == n, "JSON: events %d" % d["events"])
    check(close(d["sigma_pb"], mean), "JSON: sigma %.6f pb = mean weight %.6f pb"
          % (d["sigma_pb"], mean))
    check(close(d["sigma_err_pb"], spread, 1e-7),
          "JSON: sigma_err %.6f pb = std(w)/sqrt(N) %.6f pb (sigma/sqrt(N) would be %.6f)"
          % (d["sigma_err_pb"], spread, naive))
    check(close(d["effective_events"], neff, 1e-7),
          "JSON: effective_events %.4f = (sum w)^2 / sum w^2 %.4f" % (d["effective_events"], neff))
    check(d["negative_weights"] == neg and d["negative_weight_fraction"] == neg / n,
          "JSON: negative_weights %s, fraction %s (CSV: %d, %r)"
          % (d["negative_weights"], d["negative_weight_fraction"], neg, neg / n))

    # ---- the text summary ----
    m = re.search(r"cross section\s+(\S+) \+- (\S+) pb", text)
    check(m is not None and close(float(m.group(1)), mean, 1e-8)
          and close(float(m.group(2)), spread, 0.01),
          "summary: cross section line '%s'" % (m.group(0) if m else "missing"))
    m = re.search(r"weights\s+([\d.e+]+) effective events.*?, (\d+) negative \(([\d.]+) %\)", text)
    check(m is not None and close(float(m.group(1)), neff, 1e-5, 0.5) and int(m.group(2)) == neg
          and abs(float(m.group(3)) - 100.0 * neg / n) < 0.006,
          "summary: weights line '%s'" % (m.group(0) if m else "missing"))

    # ---- HepMC3 ----
    tline = next((line for line in hep if line.startswith("T ")), "")
    check("next-to-leading order" in tline or "--nlo 1" in tline,
          "HepMC3: the run's description names NLO: '%s'" % tline)
    hw = [line[2:] for line in hep if line.startswith("W ") and line != "W Default"]
    check(len(hw) == n, "HepMC3: %d W lines for %d events" % (len(hw), n))
    check(hw == wstr, "HepMC3: every W line is the CSV's weight, digit for digit (%d negative)"
          % sum(1 for s in hw if s.startswith("-")))
    xs = [line.split()[3:5] for line in hep if line.startswith("A 0 GenCrossSection ")]
    okx = len(xs) == n
    run_w = run_w2 = 0.0
    checked = 0
    for k in range(n if okx else 0):
        run_w += w[k]
        run_w2 += w[k] * w[k]
        if k in (0, 1, n // 3, n // 2, n - 1):
            mk = run_w / (k + 1)
            ek = math.sqrt(max(run_w2 / (k + 1) - mk * mk, 0.0) / (k + 1))
            okx &= close(float(xs[k][0]), mk, 1e-8) and close(float(xs[k][1]), ek, 1e-6, 1e-9)
            checked += 1
    check(okx, "HepMC3: GenCrossSection = running mean and std(w)/sqrt(k+1) at %d events "
          "(last: %s +- %s)" % (checked, xs[-1][0] if xs else "-", xs[-1][1] if xs else "-"))

    # ---- YODA ----
    xsec = objs.get("/_XSEC")
    if xsec:
        row = [line.split() for line in xsec[1].splitlines()
               if line.strip() and not line.startswith("#") and ":" not in line
               and line.strip() != "---"]
        check(close(float(row[0][0]), d["sigma_pb"]) and close(float(row[0][1]), d["sigma_err_pb"]),
              "YODA: /_XSEC %s +- %s" % (row[0][0], row[0][1]))
    else:
        check(False, "YODA: /_XSEC missing")
    cnt = objs.get("/_EVTCOUNT")
    if cnt:
        row = [line.split() for line in cnt[1].splitlines()
               if re.match(r"^\s*[-+0-9.]", line)][-1]
        check(close(float(row[0]), sw) and close(float(row[1]), sw2) and int(float(row[2])) == n,
              "YODA: /_EVTCOUNT sum w %s, sum w^2 %s, %s entries" % tuple(row))
    else:
        check(False, "YODA: /_EVTCOUNT missing")
    negbins = 0
    for path, col in pairs:
        if path not in objs or col not in cols:
            check(False, "YODA: %s or CSV column %s missing" % (path, col))
            continue
        bins, flows, scaled = yoda_histo(objs[path][1])
        c = cols.index(col)
        lo = bins[0][0]
        hi = bins[-1][1]
        acc = [[0.0, 0.0, 0.0] for _ in range(len(bins) + 2)]    # underflow, bins, overflow
        for r, x in zip(rows, w):
            v = float(r[c])
            if v < lo:
                j = 0
            elif v >= hi:
                j = len(bins) + 1
            else:
                j = 1 + next(i for i, b in enumerate(bins) if b[0] <= v < b[1])
            acc[j][0] += x
            acc[j][1] += x * x
            acc[j][2] += abs(x)
        got = [flows.get("Underflow", (0.0, 0.0))] + [(b[2], b[3]) for b in bins] \
            + [flows.get("Overflow", (0.0, 0.0))]
        bad = 0
        s = 1.0 / n
        check(scaled is not None and close(scaled, s), "YODA: %s ScaledBy = 1/N" % path)
        for (gw, gw2), (ew, ew2, ea) in zip(got, acc):
            # a bin's sum of weights may cancel: compare to the sum of |w| there
            if not (close(gw, ew * s, REL, 1e-9 * ea * s) and close(gw2, ew2 * s * s)):
                bad += 1
            negbins += gw < 0 or gw * gw < gw2 * (1 - 1e-6)
        check(bad == 0, "YODA: %s: every bin and flow holds sum w/N, sum w^2/N^2 of its CSV "
              "events (%d bins differ)" % (path, bad))
    if pairs:
        check(negbins > 0, "YODA: %d bins of the named histograms hold negative weights "
              "(sum w < 0 or (sum w)^2 < sum w^2)" % negbins)
    print("%s: %d problem(s)" % ("FAIL" if problems else "PASS", len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
