#!/usr/bin/env python3
"""Plot the results of tools/benchmark.py.

Makes, in OUT_DIR:
  time_vs_events.png  execution time against number of events, log-log, one panel per
                      stage (matrix element, shower, analysis, total), one line per label;
                      bars span the fastest to slowest timed run when benchmark_raw.csv is
                      next to the CSV
  cycles.png          completed events (fraction of N) against veto cycle, one line per
                      label, if cycles_<label>.csv files (benchmark.py --cycles-out) are
                      next to the CSV

Example:
  tools/plot_benchmarks.py --csv bench-results/benchmark.csv --out-dir doc/

Needs numpy and matplotlib.
"""

import argparse
import csv
import glob
import os
import sys

import numpy as np
import matplotlib

matplotlib.use("Agg")
import matplotlib.ticker  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

STAGES = [("me_s", "Matrix element"), ("shower_s", "Parton shower"),
          ("analysis_s", "Analysis (observables + histograms)"), ("total_s", "Total")]
MARKERS = "osD^vP*Xh<>"
LINESTYLES = ["-", "--", "-.", ":", (0, (5, 1, 1, 1, 1, 1)), (0, (8, 2))]


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def labels_in_order(rows):
    seen = []
    for r in rows:
        if r["label"] not in seen:
            seen.append(r["label"])
    return seen


def styles(labels):
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    return {lab: dict(color=colors[i % len(colors)], marker=MARKERS[i % len(MARKERS)],
                      ls=LINESTYLES[i % len(LINESTYLES)])
            for i, lab in enumerate(labels)}


def legend_name(label, rows):
    """'label: device, args' from the CSV, shortened to stay readable."""
    dev = next((r.get("device", "") for r in rows if r["label"] == label), "")
    args = next((r.get("args", "") for r in rows if r["label"] == label), "")
    text = label
    extra = ", ".join(x for x in (dev, args) if x)
    if extra:
        if len(extra) > 70:
            extra = extra[:67] + "..."
        text += ": " + extra
    return text


def largest_run(label, rows):
    """The CSV row of the label's largest N (the run its cycle log comes from)."""
    mine = [r for r in rows if r["label"] == label]
    return max(mine, key=lambda r: int(r["events"])) if mine else {}


def cycles_per_entry(label, rows):
    """Veto cycles between two entries of the cycle log: the host logs once per launch, and a
    fused launch runs cycles_per_launch cycles (one loop per step runs one)."""
    row = largest_run(label, rows)
    k = row.get("cycles_per_launch", "") or "1"
    return int(k) if row.get("loops", "fused") == "fused" else 1


def pool_text(label, rows):
    """' S slots,' plus ' K cycles/launch,' when K > 1."""
    row = largest_run(label, rows)
    text = " %s slots," % row["slots"] if row.get("slots") else ""
    k = cycles_per_entry(label, rows)
    if k > 1:
        text += " %d cycles/launch," % k
    return text


def size_label(n):
    """10^k for powers of ten, m×10^k otherwise."""
    k = int(np.floor(np.log10(n) + 1e-9))
    m = n / 10 ** k
    if abs(m - 1) < 1e-9:
        return "$10^{%d}$" % k
    return "$%g\\times10^{%d}$" % (round(m, 3), k) if k > 2 else "%g" % n


def plot_times(rows, raw, out_path, title, dpi):
    labels = labels_in_order(rows)
    style = styles(labels)
    fig, axes = plt.subplots(2, 2, figsize=(10, 8), sharex=True)
    all_n = np.array(sorted({int(r["events"]) for r in rows}), dtype=float)
    for ax, (key, name) in zip(axes.flat, STAGES):
        ymin, ymax = np.inf, 0.0
        for lab in labels:
            sel = sorted((r for r in rows if r["label"] == lab), key=lambda r: int(r["events"]))
            n = np.array([int(r["events"]) for r in sel], dtype=float)
            t = np.array([float(r[key]) for r in sel])
            ok = t > 0
            if not ok.any():
                continue
            yerr = None
            if raw:
                lo, hi = [], []
                for ni, ti in zip(n, t):
                    reps = [float(x[key]) for x in raw
                            if x["label"] == lab and int(x["events"]) == int(ni) and x.get(key)]
                    lo.append(ti - min(reps) if reps else 0.0)
                    hi.append(max(reps) - ti if reps else 0.0)
                yerr = np.array([lo, hi])[:, ok]
            ax.errorbar(n[ok], t[ok], yerr=yerr, capsize=2, lw=1.5, ms=5,
                        label=legend_name(lab, rows), **style[lab])
            ymin, ymax = min(ymin, t[ok].min()), max(ymax, t[ok].max())
        if ymax > 0:
            # guide: time proportional to N, through the middle of the data
            n0 = np.sqrt(all_n.min() * all_n.max())
            t0 = np.sqrt(ymin * ymax)
            ax.plot(all_n, t0 * all_n / n0, ls=":", color="0.55", lw=1,
                    label=r"$\propto N$" if ax is axes.flat[0] else None)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xticks(all_n)          # the measured sizes
        ax.set_xticklabels([size_label(x) for x in all_n])
        ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
        ax.set_title(name, fontsize=11)
        ax.grid(True, which="major", alpha=0.35)
        ax.grid(True, which="minor", alpha=0.12)
    for ax in axes[1]:
        ax.set_xlabel("Number of events $N$")
    for ax in axes[:, 0]:
        ax.set_ylabel("Execution time [s]")
    handles, names = axes.flat[0].get_legend_handles_labels()
    handles, names = handles[1:] + handles[:1], names[1:] + names[:1]   # guide last
    fig.suptitle(title or "Execution time against number of events", fontsize=13)
    fig.tight_layout(rect=(0, 0, 1, 0.98))
    fig.legend(handles, names, loc="upper center", bbox_to_anchor=(0.5, 0.0),
               ncol=1 if len(names) > 4 or max(map(len, names)) > 40 else 2,
               fontsize=9, frameon=False)
    fig.savefig(out_path, dpi=dpi, bbox_inches="tight")
    plt.close(fig)


def find_cycle_files(csv_dir, labels):
    files = {}
    for path in sorted(glob.glob(os.path.join(csv_dir, "cycles_*.csv"))):
        files[os.path.basename(path)[len("cycles_"):-len(".csv")]] = path
    ordered = [lab for lab in labels if lab in files]
    ordered += [lab for lab in files if lab not in ordered]
    return [(lab, files[lab]) for lab in ordered]


def plot_cycles(cycle_files, rows, out_path, title, log_x, dpi):
    labels = labels_in_order(rows) + [lab for lab, _ in cycle_files]
    style = styles(list(dict.fromkeys(labels)))
    data = []
    for lab, path in cycle_files:
        table = read_csv(path)
        if not table:
            print("plot_benchmarks.py: %s is empty, skipped" % path, file=sys.stderr)
            continue
        c = np.array([int(r["cycle"]) for r in table]) * cycles_per_entry(lab, rows)
        done = np.array([int(r["events_completed"]) for r in table], dtype=float)
        data.append((lab, c, done))
    if not data:
        return False
    if log_x is None:   # automatic: log scale when the cycle counts differ a lot
        counts = [c.max() for _, c, _ in data]
        log_x = max(counts) > 30 * min(counts)

    fig, ax = plt.subplots(figsize=(8, 5))
    for lab, c, done in data:
        logged = int(done.max())
        # benchmark.py --cycles-out runs each label at its largest size
        sizes = [int(r["events"]) for r in rows if r["label"] == lab]
        n_run = max(sizes) if sizes else logged
        what = "N = %d" % n_run
        if logged != n_run:
            # e.g. an OpenMP build logs the cycles of one host partition only
            what += " (log covers %d)" % logged
            print("plot_benchmarks.py: note: cycles_%s.csv ends at %d completed events, "
                  "not N = %d; plotted as a fraction of %d" % (lab, logged, n_run, logged),
                  file=sys.stderr)
        ax.step(c, done / max(logged, 1), where="post", lw=1.6, color=style[lab]["color"],
                ls=style[lab]["ls"],
                label="%s; %s,%s %d cycles" % (legend_name(lab, rows), what,
                                               pool_text(lab, rows), c.max()))
    ax.set_xlabel("Veto cycle")
    ax.set_ylabel("Fraction of events completed")
    ax.set_ylim(0, 1.03)
    if log_x:
        ax.set_xscale("log")
        ax.set_xlim(left=1)
    else:
        ax.set_xlim(left=0)
    ax.grid(True, alpha=0.35)
    ax.set_title(title or "Completed events against veto cycle", fontsize=13)
    fig.tight_layout()
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), fontsize=9, frameon=False)
    fig.savefig(out_path, dpi=dpi, bbox_inches="tight")
    plt.close(fig)
    return True


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="plot_benchmarks.py",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Plot tools/benchmark.py results: time_vs_events.png (time against\n"
                    "number of events per stage, log-log) and, where cycles_<label>.csv\n"
                    "files lie next to the CSV, cycles.png (completed events against veto\n"
                    "cycle).",
        epilog="Example:\n  %(prog)s --csv bench-results/benchmark.csv --out-dir doc/")
    p.add_argument("--csv", default="bench-results/benchmark.csv",
                   help="benchmark.csv written by benchmark.py "
                        "(default bench-results/benchmark.csv)")
    p.add_argument("--out-dir", default=None,
                   help="where the figures go (default: the CSV's directory)")
    p.add_argument("--format", default="png", choices=("png", "pdf", "svg"),
                   help="figure file format (default png)")
    p.add_argument("--dpi", type=int, default=150, help="resolution of PNGs (default 150)")
    p.add_argument("--title", default=None, help="title of the time figure")
    p.add_argument("--cycles-title", default=None, help="title of the cycle figure")
    p.add_argument("--cycles-x", choices=("auto", "linear", "log"), default="auto",
                   help="x axis of the cycle figure; auto uses log when the labels' cycle "
                        "counts differ by more than 30x (default auto)")
    args = p.parse_args(argv)

    if not os.path.isfile(args.csv):
        p.error("no such file: %s (run tools/benchmark.py first)" % args.csv)
    rows = read_csv(args.csv)
    needed = {"label", "events"} | {k for k, _ in STAGES}
    if not rows or not needed <= set(rows[0]):
        p.error("%s is not a benchmark.py CSV (needs columns %s)"
                % (args.csv, ", ".join(sorted(needed))))
    csv_dir = os.path.dirname(os.path.abspath(args.csv))
    raw_path = os.path.join(csv_dir, "benchmark_raw.csv")
    raw = read_csv(raw_path) if os.path.isfile(raw_path) else []
    out_dir = args.out_dir or csv_dir
    os.makedirs(out_dir, exist_ok=True)

    out = os.path.join(out_dir, "time_vs_events." + args.format)
    plot_times(rows, raw, out, args.title, args.dpi)
    print("wrote %s" % out)

    cycle_files = find_cycle_files(csv_dir, labels_in_order(rows))
    if cycle_files:
        out = os.path.join(out_dir, "cycles." + args.format)
        log_x = {"auto": None, "linear": False, "log": True}[args.cycles_x]
        if plot_cycles(cycle_files, rows, out, args.cycles_title, log_x, args.dpi):
            print("wrote %s" % out)
    else:
        print("no cycles_<label>.csv next to %s: cycle figure skipped "
              "(benchmark.py --cycles-out makes them)" % args.csv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
