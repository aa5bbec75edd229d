#!/usr/bin/env python3
"""Time several builds of gaps on several processes, interleaved, and print medians and ratios.

Each case is run once per binary as a warm-up, then R times per binary in interleaved order
(binary A, binary B, A, B, ...), so that a drift of the machine touches every binary alike.
Times come from the program's --json summary (wall clock of the whole run and of its shower
stage; each run's line also gives the matrix-element and analysis stages).  The table
printed last gives, per case and binary, the median total time, the time per event, the
median shower time, the cross section and the veto cycles, and the ratio of each binary's
median to that of the first binary that runs the case.

  tools/bench_processes.py --binary before=OLD/gaps --binary after=NEW/gaps \\
      --case "pp-z:--process pp-z:1e7" --case "lep:--process ee-qq:1e8" --repeats 3 \\
      --out results.csv

A case is LABEL:ARGUMENTS:EVENTS[:BINARY,...] (arguments split like a shell does); the optional
last field names the binaries that run the case (default: all), for a case an older build
cannot run.  Ratios are to the first binary that runs the case.  Standard library only.
"""
import argparse
import csv
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile


def run_once(binary, args, events, workdir):
    js = os.path.join(workdir, "run.json")
    if os.path.exists(js):
        os.remove(js)
    cmd = [binary] + args + ["--events", str(events), "--output", "none", "--quiet",
                             "--json", js]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0:
        sys.exit("bench_processes: %s failed (%d): %s" % (" ".join(cmd), p.returncode,
                                                          p.stderr.strip()[-300:]))
    with open(js) as f:
        d = json.load(f)
    t = d["time_s"]
    return {"total": t["total"], "shower": t.get("shower", float("nan")),
            "me": t.get("me", float("nan")), "analysis": t.get("analysis", float("nan")),
            "sigma": d["sigma_pb"], "cycles": d.get("veto_cycles"),
            "overestimate": d.get("overestimate_violations")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", action="append", required=True, help="LABEL=PATH")
    ap.add_argument("--case", action="append", required=True, help="LABEL:ARGS:EVENTS[:BINARY,...]")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", help="CSV of every timed run")
    a = ap.parse_args()
    binaries = [b.split("=", 1) for b in a.binary]
    labels = [b[0] for b in binaries]
    cases = []
    for c in a.case:
        f = c.split(":")
        if len(f) not in (3, 4):
            ap.error("--case %r: expected LABEL:ARGS:EVENTS[:BINARY,...]" % c)
        use = f[3].split(",") if len(f) == 4 else labels
        for u in use:
            if u not in labels:
                ap.error("--case %r: no --binary labelled %r" % (c, u))
        cases.append((f[0], shlex.split(f[1]), int(float(f[2])),
                      [b for b in binaries if b[0] in use]))
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for label, args, n, bins in cases:
            for _, path in bins:
                run_once(path, args, min(n, 100000), work)
            for r in range(a.repeats):
                for blabel, path in bins:
                    res = run_once(path, args, n, work)
                    res.update(case=label, binary=blabel, events=n, repeat=r + 1)
                    rows.append(res)
                    print("%-12s %-10s %.0e r%d  total %.4f s  shower %.4f s  me %.4f s  "
                          "analysis %.4f s  sigma %.6g  cycles %s"
                          % (label, blabel, n, r + 1, res["total"], res["shower"], res["me"],
                             res["analysis"], res["sigma"], res["cycles"]), flush=True)
    if a.out:
        with open(a.out, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)
    print()
    print("| case | events | binary | total (median) | per event | shower | sigma [pb] "
          "| veto cycles | ratio to the first |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for label, args, n, bins in cases:
        base = None
        for blabel, _ in bins:
            rs = [r for r in rows
                  if r["case"] == label and r["events"] == n and r["binary"] == blabel]
            tot = statistics.median(r["total"] for r in rs)
            sh = statistics.median(r["shower"] for r in rs)
            base = tot if base is None else base
            per = tot / n
            unit = "%.1f ns" % (per * 1e9) if per < 1e-6 else "%.3f us" % (per * 1e6)
            print("| %s | %.0e | %s | %.4f s | %s | %.4f s | %.8g | %s | %.3f |"
                  % (label, n, blabel, tot, unit, sh, rs[0]["sigma"], rs[0]["cycles"],
                     tot / base))


if __name__ == "__main__":
    main()
