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

Legends describe each configuration in words, from the CSV's columns (backend, threads,
loop structure, cycles per launch, refill); --name LABEL=TEXT overrides one.  Curves that
are the same data are drawn so that both stay visible, and the legend says so.

Examples:
  tools/plot_benchmarks.py --csv bench-results/benchmark.csv --out-dir doc/
  # the figures in doc/ (CPU and H200 results side by side):
  tools/plot_benchmarks.py --csv doc/results/cpu/benchmark.csv \
      --csv doc/results/h200/benchmark.csv --out-dir doc/ \
      --labels serial,openmp,gpu,gpu-c1,gpu-steps,gpu-batches \
      --title "gaps, LEP 91.2 GeV: serial and multicore on a 2-core AMD EPYC VM, GPU on an \
NVIDIA H200"

Needs numpy and matplotlib.
"""

import argparse
import csv
import glob
import os
import re
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


def power_text(text):
    """'10^7' and '2^19' in a title or label as superscripts (matplotlib mathtext)."""
    return re.sub(r"(?<![\w$^{])(\d+)\^(\d+)(?![\w}])", r"$\1^{\2}$", text)


def count_text(n):
    """An event or slot count for a label: 10^k and 2^k as powers, others as digits."""
    n = int(n)
    if n >= 1000:
        for base in (10, 2):
            k = round(np.log(n) / np.log(base))
            if base ** k == n:
                return "$%d^{%d}$" % (base, k)
    return "{:,}".format(n).replace(",", r"$\,$")


def gpu_model(device):
    """'GPU 0 of 1: NVIDIA H100 80GB HBM3' -> 'H100'."""
    name = device.split(":", 1)[-1].strip()
    name = re.sub(r"^NVIDIA\s+", "", name)
    return name.split()[0] if name else "GPU"


def largest_run(label, rows):
    """The CSV row of the label's largest N (the run its cycle log comes from)."""
    mine = [r for r in rows if r["label"] == label]
    return max(mine, key=lambda r: int(r["events"])) if mine else {}


def describe(label, rows, names):
    """A configuration in words, from the CSV columns of the label's largest run: what a
    reader needs to tell the lines apart, not the command line."""
    if label in names:
        return names[label]
    row = largest_run(label, rows)
    backend = row.get("backend", "")
    if backend == "serial":
        return "CPU, serial (1 thread)"
    if backend == "openmp":
        n = row.get("threads", "")
        return "CPU, OpenMP (%s threads)" % n if n else "CPU, OpenMP"
    if backend != "offload":
        return label
    models = {gpu_model(r.get("device", "")) for r in rows if r.get("backend") == "offload"}
    gpu = "GPU (%s)" % gpu_model(row.get("device", "")) if len(models) > 1 else "GPU"
    k = int(row.get("cycles_per_launch") or 1)
    if row.get("loops") == "steps":
        text = "%s, one loop per veto step" % gpu
    elif row.get("loops") == "trials":
        text = "%s, a loop for the trial and one for the splitting" % gpu
    elif row.get("refill", "true") == "false":
        text = "%s, batches without refill, %d cycles per launch" % (gpu, k)
    else:
        text = "%s, %d cycle%s per launch" % (gpu, k, "s" if k != 1 else "")
    if not row.get("args"):       # no extra arguments: the program's default settings
        text += " (default)"
    return text


def unique_names(labels, rows, names):
    """describe() for every label; two labels that read the same get their label added."""
    out = {lab: describe(lab, rows, names) for lab in labels}
    for lab in labels:
        if sum(1 for x in labels if out[x] == out[lab]) > 1:
            out[lab] += " [%s]" % lab
    return out


def cycles_per_entry(label, rows):
    """Veto cycles between two entries of the cycle log: the host logs once per launch, and a
    fused launch runs cycles_per_launch cycles (one loop per step runs one)."""
    row = largest_run(label, rows)
    k = row.get("cycles_per_launch", "") or "1"
    return int(k) if row.get("loops", "fused") == "fused" else 1


def size_label(n):
    """10^k for powers of ten, m×10^k otherwise."""
    k = int(np.floor(np.log10(n) + 1e-9))
    m = n / 10 ** k
    if abs(m - 1) < 1e-9:
        return "$10^{%d}$" % k
    return "$%g\\times10^{%d}$" % (round(m, 3), k) if k > 2 else "%g" % n


def plot_times(rows, raw, out_path, title, dpi, names):
    labels = labels_in_order(rows)
    style = styles(labels)
    words = unique_names(labels, rows, names)
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
                        label=words[lab], **style[lab])
            ymin, ymax = min(ymin, t[ok].min()), max(ymax, t[ok].max())
        if ymax > 0:
            # guide: time proportional to N, through the middle of the data
            n0 = np.sqrt(all_n.min() * all_n.max())
            t0 = np.sqrt(ymin * ymax)
            ax.plot(all_n, t0 * all_n / n0, ls=":", color="0.55", lw=1,
                    label=r"time $\propto N$ (guide)" if ax is axes.flat[0] else None)
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
    handles, labs = axes.flat[0].get_legend_handles_labels()
    handles, labs = handles[1:] + handles[:1], labs[1:] + labs[:1]   # guide last
    fig.suptitle(power_text(title or "Execution time against number of events"), fontsize=13)
    fig.tight_layout(rect=(0, 0, 1, 0.98))
    fig.legend(handles, labs, loc="upper center", bbox_to_anchor=(0.5, 0.0),
               ncol=1 if len(labs) > 8 or max(map(len, labs)) > 45 else 2,
               fontsize=9.5, frameon=False)
    fig.savefig(out_path, dpi=dpi, bbox_inches="tight")
    plt.close(fig)


def find_cycle_files(csv_dirs, labels):
    """cycles_<label>.csv next to any of the CSVs, for the labels plotted, in their order."""
    files = {}
    for d in csv_dirs:
        for path in sorted(glob.glob(os.path.join(d, "cycles_*.csv"))):
            files.setdefault(os.path.basename(path)[len("cycles_"):-len(".csv")], path)
    return [(lab, files[lab]) for lab in labels if lab in files]


def plot_cycles(cycle_files, rows, out_path, title, log_x, dpi, names):
    labels = labels_in_order(rows)
    style = styles(labels)
    words = unique_names(labels, rows, names)
    data = []
    for lab, path in cycle_files:
        table = read_csv(path)
        if not table:
            print("plot_benchmarks.py: %s is empty, skipped" % path, file=sys.stderr)
            continue
        if "veto_cycle" in table[0]:   # gaps --cycles-out: veto cycles already
            c = np.array([int(r["veto_cycle"]) for r in table])
        else:                          # older files: host passes
            c = np.array([int(r["cycle"]) for r in table]) * cycles_per_entry(lab, rows)
        done = np.array([int(r["events_completed"]) for r in table], dtype=float)
        data.append((lab, c, done))
    if not data:
        return False
    if log_x is None:   # automatic: log scale when the cycle counts differ a lot
        counts = [c.max() for _, c, _ in data]
        log_x = max(counts) > 30 * min(counts)

    # Curves with the same data (e.g. one cycle per launch and one loop per veto step both
    # complete their events after the same veto cycles) would hide each other: the first is
    # drawn wide and pale, each copy thin with markers on top, and its legend entry says so.
    same_as = {}
    for i, (lab, c, done) in enumerate(data):
        for lab0, c0, done0 in data[:i]:
            if lab0 not in same_as and np.array_equal(c, c0) and np.array_equal(done, done0):
                same_as[lab] = lab0
                break
    has_copy = set(same_as.values())

    # what every curve shares (events, slots, device) goes into the title, not the legend
    def run_facts(lab):
        row = largest_run(lab, rows)
        n_run = int(row["events"]) if row else int(max(d[2].max() for d in data))
        return n_run, row.get("slots", ""), row.get("device", "")
    facts = {lab: run_facts(lab) for lab, _, _ in data}
    shared_n = len({f[0] for f in facts.values()}) == 1
    shared_slots = len({f[1] for f in facts.values()}) == 1 and next(iter(facts.values()))[1]

    fig, ax = plt.subplots(figsize=(8, 5))
    for lab, c, done in data:
        logged = int(done.max())
        n_run, slots, _ = facts[lab]
        if logged != n_run:
            # e.g. an OpenMP build logs the cycles of one host partition only
            print("plot_benchmarks.py: note: cycles_%s.csv ends at %d completed events, "
                  "not N = %d; plotted as a fraction of %d" % (lab, logged, n_run, logged),
                  file=sys.stderr)
        text = "%s: %d cycles" % (words[lab], c.max())
        extra = []
        if not shared_n:
            extra.append("N = %s" % count_text(n_run))
        if logged != n_run:
            extra.append("log covers %s events" % count_text(logged))
        if not shared_slots and slots:
            extra.append("%s slots" % count_text(slots))
        if extra:
            text += " (%s)" % ", ".join(extra)
        kw = dict(color=style[lab]["color"], ls=style[lab]["ls"], lw=1.6)
        if lab in has_copy:
            kw.update(ls="-", lw=5.5, alpha=0.35, solid_capstyle="butt")
        if lab in same_as:
            # markers at fixed fractions of the curve, so they do not pile up
            kw.update(lw=1.4, ls=(0, (4, 2)), marker=style[lab]["marker"], ms=5,
                      markevery=max(1, len(c) // 14))
            text += ", identical to \"%s\"" % words[same_as[lab]]
        ax.step(c, done / max(logged, 1), where="post", label=text, **kw)
    ax.set_xlabel("Veto cycle")
    ax.set_ylabel("Fraction of events completed")
    ax.set_ylim(0, 1.03)
    if log_x:
        ax.set_xscale("log")
        ax.set_xlim(left=1)
    else:
        ax.set_xlim(left=0)
    ax.grid(True, alpha=0.35)
    if not title:
        title = "Completed events against veto cycle"
        n_run, slots, device = next(iter(facts.values()))
        if shared_n:
            title += ", %s events" % count_text(n_run)
        if shared_slots:
            title += " in %s slots" % count_text(shared_slots)
        devices = {f[2] for f in facts.values()}
        if len(devices) == 1 and device.startswith("GPU"):
            title += " on an NVIDIA %s" % gpu_model(device)
    ax.set_title(power_text(title), fontsize=12)
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
        epilog="Example:\n  %(prog)s --csv bench-results/benchmark.csv --out-dir doc/\n"
               "  %(prog)s --csv doc/results/cpu/benchmark.csv "
               "--csv doc/results/h200/benchmark.csv \\\n"
               "      --labels serial,openmp,gpu,gpu-c1,gpu-steps,gpu-batches --out-dir doc/")
    p.add_argument("--csv", action="append", default=None, metavar="FILE",
                   help="benchmark.csv written by benchmark.py (default "
                        "bench-results/benchmark.csv); repeat to combine several, e.g. a CPU "
                        "and a GPU machine's (their labels must differ)")
    p.add_argument("--labels", metavar="LIST",
                   help="comma-separated labels to plot, in this order (default: all)")
    p.add_argument("--name", action="append", default=[], metavar="LABEL=TEXT",
                   help="legend text for LABEL instead of the one made from the CSV columns "
                        "(repeatable)")
    p.add_argument("--out-dir", default=None,
                   help="where the figures go (default: the first CSV's directory)")
    p.add_argument("--format", default="png", choices=("png", "pdf", "svg"),
                   help="figure file format (default png)")
    p.add_argument("--dpi", type=int, default=150, help="resolution of PNGs (default 150)")
    p.add_argument("--title", default=None,
                   help="title of the time figure (10^7 is written as a power)")
    p.add_argument("--cycles-title", default=None,
                   help="title of the cycle figure (default: made from the runs)")
    p.add_argument("--cycles-x", choices=("auto", "linear", "log"), default="auto",
                   help="x axis of the cycle figure; auto uses log when the labels' cycle "
                        "counts differ by more than 30x (default auto)")
    args = p.parse_args(argv)

    names = {}
    for item in args.name:
        lab, sep, text = item.partition("=")
        if not sep or not lab or not text:
            p.error("--name %s: use LABEL=TEXT" % item)
        names[lab] = text

    rows, raw, csv_dirs, origin = [], [], [], {}
    needed = {"label", "events"} | {k for k, _ in STAGES}
    for path in args.csv or ["bench-results/benchmark.csv"]:
        if not os.path.isfile(path):
            p.error("no such file: %s (run tools/benchmark.py first)" % path)
        these = read_csv(path)
        if not these or not needed <= set(these[0]):
            p.error("%s is not a benchmark.py CSV (needs columns %s)"
                    % (path, ", ".join(sorted(needed))))
        for lab in labels_in_order(these):
            if lab in origin:
                p.error("label %s is in both %s and %s" % (lab, origin[lab], path))
            origin[lab] = path
        rows += these
        d = os.path.dirname(os.path.abspath(path))
        csv_dirs.append(d)
        raw_path = os.path.join(d, "benchmark_raw.csv")
        if os.path.isfile(raw_path):
            raw += read_csv(raw_path)
    if args.labels:
        wanted = [x.strip() for x in args.labels.split(",") if x.strip()]
        missing = [x for x in wanted if x not in origin]
        if missing:
            p.error("--labels: %s not in the CSV (have: %s)"
                    % (", ".join(missing), ", ".join(origin)))
        rows = [r for lab in wanted for r in rows if r["label"] == lab]
        raw = [r for r in raw if r["label"] in wanted]
    out_dir = args.out_dir or csv_dirs[0]
    os.makedirs(out_dir, exist_ok=True)

    out = os.path.join(out_dir, "time_vs_events." + args.format)
    plot_times(rows, raw, out, args.title, args.dpi, names)
    print("wrote %s" % out)

    cycle_files = find_cycle_files(csv_dirs, labels_in_order(rows))
    if cycle_files:
        out = os.path.join(out_dir, "cycles." + args.format)
        log_x = {"auto": None, "linear": False, "log": True}[args.cycles_x]
        if plot_cycles(cycle_files, rows, out, args.cycles_title, log_x, args.dpi, names):
            print("wrote %s" % out)
    else:
        print("no cycles_<label>.csv next to the CSV: cycle figure skipped "
              "(benchmark.py --cycles-out makes them)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
