#!/usr/bin/env python3
"""Benchmark the gaps event generator: stage times against event count, per backend.

For every configuration (label) and every size the program is run once as a warm-up and
then R times; the median of each stage time (matrix element, shower, analysis, total) is
reported.  Times come from the program's --json summary: wall clock around each whole
stage, device work included.  A table is printed last, so the tail of the output holds the
complete comparison, and the results are written to OUT_DIR/benchmark.csv (medians),
OUT_DIR/benchmark_raw.csv (every timed repeat) and OUT_DIR/benchmark.json.

Examples:
  tools/benchmark.py                                      # serial vs openmp, 1e4..1e6
  tools/benchmark.py --sizes 1e3,1e4 --repeats 3 --cycles-out --out-dir /tmp/bench
  tools/benchmark.py --binary cpu=build-omp/gaps --binary gpu=build-offload/gaps \\
      --variant gpu-batches=gpu:--no-refill --sizes 1e5,1e6,1e7
  tools/benchmark.py --backends serial --variant steps=serial:--loops steps

Standard library only (python3 >= 3.6).
"""

import argparse
import csv
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAGES = ("me", "shower", "analysis", "total")
LABEL_RE = re.compile(r"^[A-Za-z0-9_.+-]+$")


class BenchError(Exception):
    """A failure that ends the benchmark with a message (and no traceback)."""


# ---------------------------------------------------------------------------------------
# command line
# ---------------------------------------------------------------------------------------
def parse_sizes(text):
    sizes = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        try:
            value = float(item)
        except ValueError:
            raise argparse.ArgumentTypeError("size '%s' is not a number" % item)
        if value < 1 or value != int(value):
            raise argparse.ArgumentTypeError("size '%s' is not a positive integer" % item)
        sizes.append(int(value))
    if not sizes:
        raise argparse.ArgumentTypeError("no sizes given")
    return sorted(set(sizes))


def check_label(label, what):
    if not LABEL_RE.match(label):
        raise BenchError("%s label '%s': use letters, digits and _ . + - only" % (what, label))
    return label


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="benchmark.py",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Time the gaps generator (matrix element, shower, analysis, total)\n"
                    "for several event counts and backends: median of R timed runs after\n"
                    "a warm-up run. Prints a table last; writes benchmark.csv (medians),\n"
                    "benchmark_raw.csv (every timed run) and benchmark.json to OUT_DIR.",
        epilog="Labels: each backend in --backends is a label (built in the repository's\n"
               "build-bench-<backend>); each --binary adds a label for a prebuilt program,\n"
               "and nothing is built unless --backends is also given; each --variant adds\n"
               "a label running another label's program with extra arguments. The first\n"
               "label is the baseline of the speed-up column unless --baseline names one.\n"
               "An option value that starts with '-' and has no space needs '=':\n"
               "--extra-args=--no-refill.\n\n"
               "Examples:\n"
               "  %(prog)s --sizes 1e3,1e4 --repeats 3 --cycles-out --out-dir /tmp/bench\n"
               "  %(prog)s --binary cpu=build-omp/gaps --binary gpu=build-offload/gaps \\\n"
               "      --variant gpu-batches=gpu:--no-refill --sizes 1e5,1e6,1e7\n"
               "  %(prog)s --backends serial --variant steps=serial:'--loops steps'\n")
    p.add_argument("--backends", metavar="LIST",
                   help="comma-separated CMake backends to build and run (serial, openmp, "
                        "offload); default serial,openmp, or none when --binary is given")
    p.add_argument("--binary", metavar="LABEL=PATH", action="append", default=[],
                   help="run this prebuilt program under LABEL instead of building "
                        "(repeatable)")
    p.add_argument("--variant", metavar="LABEL=BASE:ARGS", action="append", default=[],
                   help="extra configuration: the program of label BASE (a backend or "
                        "--binary label) with extra arguments ARGS, e.g. "
                        "'steps=serial:--loops steps' (repeatable)")
    p.add_argument("--baseline", metavar="LABEL",
                   help="label the speed-up is relative to (default: the first label)")
    p.add_argument("--sizes", type=parse_sizes, default=parse_sizes("1e4,1e5,1e6"),
                   metavar="N1,N2,...", help="event counts (default 1e4,1e5,1e6)")
    p.add_argument("--repeats", type=int, default=3, metavar="R",
                   help="timed runs per label and size; the median is reported (default 3)")
    p.add_argument("--warmup", type=int, default=1, metavar="W",
                   help="untimed runs before the timed ones, per label and size (default 1)")
    p.add_argument("--seed", type=int, default=1, help="random seed of every run (default 1)")
    p.add_argument("--threads", type=int, metavar="N",
                   help="OpenMP threads, passed as --threads to runs of openmp builds")
    p.add_argument("--extra-args", default="", metavar="ARGS",
                   help="extra arguments for every run, e.g. \"--pool 4096\"")
    p.add_argument("--cycles-out", action="store_true",
                   help="also run each label once at the largest size with --cycles-out and "
                        "save OUT_DIR/cycles_<label>.csv (for plot_benchmarks.py)")
    p.add_argument("--timeout", type=float, default=None, metavar="S",
                   help="seconds allowed for one run (default: no limit)")
    p.add_argument("--out-dir", default="bench-results", metavar="DIR",
                   help="where the CSV and JSON files go (default bench-results)")
    p.add_argument("--build-jobs", type=int, default=None, metavar="J",
                   help="parallel build jobs (default: CMake's -j default)")
    args = p.parse_args(argv)
    if args.repeats < 1:
        p.error("--repeats must be at least 1")
    if args.warmup < 0:
        p.error("--warmup must not be negative")
    if args.threads is not None and args.threads < 1:
        p.error("--threads must be positive")
    if args.timeout is not None and args.timeout <= 0:
        p.error("--timeout must be positive")
    try:
        args.extra = shlex.split(args.extra_args)
    except ValueError as e:
        p.error("--extra-args: %s" % e)
    return args


# ---------------------------------------------------------------------------------------
# machine description
# ---------------------------------------------------------------------------------------
def read_cpuinfo():
    """(model name, physical cores or None) from /proc/cpuinfo."""
    model, cores = None, set()
    phys = core = None
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                key, value = key.strip(), value.strip()
                if key in ("model name", "Model", "cpu model") and model is None:
                    model = value
                elif key == "physical id":
                    phys = value
                elif key == "core id":
                    core = value
                elif not key and core is not None:      # end of one processor block
                    cores.add((phys, core))
                    phys = core = None
        if core is not None:
            cores.add((phys, core))
    except OSError:
        pass
    return model or platform.processor() or platform.machine() or "unknown CPU", \
        (len(cores) or None)


def gpu_names():
    """GPU names from nvidia-smi, if there is one."""
    if shutil.which("nvidia-smi") is None:
        return []
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             universal_newlines=True, timeout=20).stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
    return [line.strip() for line in out.splitlines() if line.strip()]


def machine_info():
    model, physical = read_cpuinfo()
    logical = os.cpu_count() or 0
    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        usable = logical
    return {"host": platform.node(), "cpu": model, "physical_cores": physical,
            "logical_cpus": logical, "usable_cpus": usable, "gpus": gpu_names(),
            "os": "%s %s" % (platform.system(), platform.release()),
            "python": platform.python_version()}


def machine_line(m):
    cores = "%d logical CPUs" % m["logical_cpus"]
    if m["physical_cores"] and m["physical_cores"] != m["logical_cpus"]:
        cores = "%d cores, %s" % (m["physical_cores"], cores)
    if m["usable_cpus"] != m["logical_cpus"]:
        cores += " (%d usable)" % m["usable_cpus"]
    text = "Machine: %s, %s, host %s" % (m["cpu"], cores, m["host"])
    if m["gpus"]:
        names = sorted(set(m["gpus"]))
        text += "; GPU: " + ", ".join("%d x %s" % (m["gpus"].count(n), n) for n in names)
    return text


# ---------------------------------------------------------------------------------------
# configurations
# ---------------------------------------------------------------------------------------
class Config:
    """One label: a program and the arguments it always gets."""

    def __init__(self, label, binary, extra, base=None, build_backend=None):
        self.label = label
        self.binary = binary
        self.extra = extra            # label-specific arguments (variants)
        self.base = base or label     # the label whose program this runs
        self.build_backend = build_backend
        self.backend = None           # from `gaps --version`
        self.device = None            # from the first JSON summary
        self.threads = None
        self.slots = None
        self.loops = None
        self.cycles_per_launch = None
        self.split_every = None
        self.refill = None


def log(msg=""):
    print(msg, flush=True)


def run_checked(cmd, what, timeout=None, cwd=None):
    """Run a command, capturing its output; raise BenchError with its tail if it fails."""
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                universal_newlines=True, cwd=cwd)
    except OSError as e:
        raise BenchError("%s: cannot execute '%s': %s" % (what, cmd[0], e.strerror))
    try:
        output, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.terminate()              # SIGTERM: gaps removes its temporary outputs
        try:
            proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
        raise BenchError("%s: timed out after %g s (--timeout)\n  command: %s"
                         % (what, timeout, " ".join(shlex.quote(c) for c in cmd)))
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    if proc.returncode != 0:
        tail = "\n".join(output.strip().splitlines()[-30:])
        status = ("killed by signal %d" % -proc.returncode if proc.returncode < 0
                  else "exit status %d" % proc.returncode)
        raise BenchError("%s failed (%s)\n  command: %s\n%s"
                         % (what, status, " ".join(shlex.quote(c) for c in cmd),
                            "  | " + tail.replace("\n", "\n  | ") if tail else "  (no output)"))
    return output


def build(backend, jobs):
    """Configure and build build-bench-<backend>; return the path of its gaps program."""
    if shutil.which("cmake") is None:
        raise BenchError("cmake not found: install it, or give prebuilt programs with "
                         "--binary LABEL=PATH")
    build_dir = os.path.join(REPO, "build-bench-%s" % backend)
    log("Building %s backend in %s ..." % (backend, os.path.relpath(build_dir)))
    run_checked(["cmake", "-S", REPO, "-B", build_dir, "-DGAPS_BACKEND=%s" % backend,
                 "-DBUILD_TESTING=OFF"],
                "configuring the %s backend" % backend)
    cmd = ["cmake", "--build", build_dir, "-j"]
    if jobs:
        cmd.append(str(jobs))
    run_checked(cmd, "building the %s backend" % backend)
    binary = os.path.join(build_dir, "gaps")
    if not os.access(binary, os.X_OK):
        raise BenchError("building the %s backend produced no program %s" % (backend, binary))
    return binary


def make_configs(args):
    binaries = []
    for item in args.binary:
        label, sep, path = item.partition("=")
        if not sep or not label or not path:
            raise BenchError("--binary '%s': expected LABEL=PATH" % item)
        check_label(label, "--binary")
        path = os.path.abspath(os.path.expanduser(path))
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise BenchError("--binary %s: '%s' is not an executable file" % (label, path))
        binaries.append((label, path))

    if args.backends is None:
        backends = [] if binaries else ["serial", "openmp"]
    else:
        backends = [b.strip() for b in args.backends.split(",")
                    if b.strip() and b.strip() != "none"]
    for b in backends:
        if b not in ("serial", "openmp", "offload"):
            raise BenchError("--backends: unknown backend '%s' (serial, openmp or offload)" % b)

    configs, seen = [], set()
    binary_labels = {label for label, _ in binaries}
    for b in backends:
        if b in seen:
            continue
        seen.add(b)
        if b in binary_labels:       # a prebuilt program under the backend's name wins
            continue
        configs.append(Config(b, None, [], build_backend=b))
    for label, path in binaries:
        if label in seen and label not in backends:
            raise BenchError("label '%s' given twice" % label)
        seen.add(label)
        configs.append(Config(label, path, []))
    if not configs:
        raise BenchError("nothing to run: give --backends or --binary")

    by_label = {c.label: c for c in configs}
    for item in args.variant:
        label, sep, rest = item.partition("=")
        base, sep2, extra = rest.partition(":")
        if not sep or not sep2 or not label or not base:
            raise BenchError("--variant '%s': expected LABEL=BASE:ARGS" % item)
        check_label(label, "--variant")
        if label in by_label:
            raise BenchError("--variant %s: label already used" % label)
        if base not in by_label or by_label[base].base != base:
            raise BenchError("--variant %s: BASE '%s' is not a backend or --binary label "
                             "(have: %s)" % (label, base, ", ".join(
                                 c.label for c in configs if c.base == c.label)))
        try:
            extra_args = shlex.split(extra)
        except ValueError as e:
            raise BenchError("--variant %s: %s" % (label, e))
        cfg = Config(label, None, extra_args, base=base)
        configs.append(cfg)
        by_label[label] = cfg

    if args.baseline is not None:
        if args.baseline not in by_label:
            raise BenchError("--baseline '%s' is not a label (have: %s)"
                             % (args.baseline, ", ".join(c.label for c in configs)))
        configs.sort(key=lambda c: c.label != args.baseline)   # stable: baseline first
    return configs


def detect_backend(binary):
    try:
        out = subprocess.run([binary, "--version"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, universal_newlines=True,
                             timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r"\((\w+) backend\)", out)
    return m.group(1) if m else None


# ---------------------------------------------------------------------------------------
# runs
# ---------------------------------------------------------------------------------------
def program_args(cfg, args, events):
    cmd = [cfg.binary, "--events", str(events), "--seed", str(args.seed),
           "--quiet", "--output", "-"]
    if args.threads is not None and cfg.backend == "openmp":
        cmd += ["--threads", str(args.threads)]
    return cmd + args.extra + cfg.extra


def run_once(cfg, args, events, tmpdir, cycles_path=None):
    json_path = os.path.join(tmpdir, "run.json")
    if os.path.exists(json_path):
        os.unlink(json_path)
    cmd = program_args(cfg, args, events) + ["--json", json_path]
    if cycles_path:
        cmd += ["--cycles-out", cycles_path]
    run_checked(cmd, "run of %s with %d events" % (cfg.label, events), timeout=args.timeout)
    try:
        with open(json_path) as f:
            summary = json.load(f)
        times = summary["time_s"]
        result = {k: float(times[k]) for k in STAGES}
        result.update(events=int(summary["events"]), sigma_pb=float(summary["sigma_pb"]),
                      sigma_err_pb=float(summary.get("sigma_err_pb", float("nan"))),
                      cycles=int(summary.get("cycles", 0)), slots=summary.get("slots"))
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise BenchError("run of %s with %d events: unreadable JSON summary (%s)"
                         % (cfg.label, events, e))
    if result["events"] != events:
        raise BenchError("run of %s: asked for %d events, summary reports %d"
                         % (cfg.label, events, result["events"]))
    if cfg.device is None:
        cfg.device = summary.get("device", "?")
        cfg.threads = summary.get("threads")
        cfg.slots = summary.get("slots")
        cfg.backend = summary.get("backend", cfg.backend)
        cfg.loops = summary.get("loops")
        cfg.cycles_per_launch = summary.get("cycles_per_launch")
        cfg.split_every = summary.get("split_every")
        cfg.refill = summary.get("refill")
        log("  %s: %s backend on %s, %s slots at N = %d, loops %s%s" % (
            cfg.label, cfg.backend, cfg.device, cfg.slots, events, summary.get("loops", "?"),
            "" if summary.get("refill", True) else ", batches (no refill)"))
    return result


def median_row(cfg, events, reps):
    row = {"label": cfg.label, "backend": cfg.backend, "device": cfg.device,
           "threads": cfg.threads, "slots": reps[0].get("slots", cfg.slots),
           "loops": cfg.loops,
           "cycles_per_launch": cfg.cycles_per_launch, "split_every": cfg.split_every,
           "refill": cfg.refill,
           "args": " ".join(shlex.quote(a) for a in cfg.extra), "events": events,
           "repeats": len(reps)}
    for k in STAGES:
        row[k + "_s"] = statistics.median(r[k] for r in reps)
    total = row["total_s"]
    row["us_per_event"] = 1e6 * total / events
    row["events_per_s"] = events / total if total > 0 else float("inf")
    row["sigma_pb"] = reps[0]["sigma_pb"]
    row["sigma_err_pb"] = reps[0]["sigma_err_pb"]
    row["cycles"] = reps[0]["cycles"]
    row["total_min_s"] = min(r["total"] for r in reps)
    row["total_max_s"] = max(r["total"] for r in reps)
    return row


def add_speedups(rows, baseline):
    base = {r["events"]: r["total_s"] for r in rows if r["label"] == baseline}
    for r in rows:
        b = base.get(r["events"])
        r["speedup"] = b / r["total_s"] if b is not None and r["total_s"] > 0 else None


# ---------------------------------------------------------------------------------------
# output
# ---------------------------------------------------------------------------------------
SUMMARY_FIELDS = ["label", "backend", "device", "threads", "slots", "loops",
                  "cycles_per_launch", "split_every", "refill", "args", "events",
                  "repeats", "me_s", "shower_s", "analysis_s", "total_s", "total_min_s",
                  "total_max_s", "us_per_event", "events_per_s", "speedup", "sigma_pb",
                  "sigma_err_pb", "cycles"]
RAW_FIELDS = ["label", "events", "repeat", "me_s", "shower_s", "analysis_s", "total_s",
              "events_per_s", "sigma_pb", "cycles"]


def fmt_csv(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return "%.6g" % v
    return v


def write_outputs(out_dir, rows, raw, configs, args, machine, complete):

    def write_csv(name, fields, data):
        path = os.path.join(out_dir, name)
        with open(path + ".tmp", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
            w.writeheader()
            for r in data:
                w.writerow({k: fmt_csv(r.get(k)) for k in fields})
        os.replace(path + ".tmp", path)

    write_csv("benchmark.csv", SUMMARY_FIELDS, rows)
    write_csv("benchmark_raw.csv", RAW_FIELDS, raw)
    doc = {
        "complete": complete,
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": machine,
        "settings": {"sizes": args.sizes, "repeats": args.repeats, "warmup": args.warmup,
                     "seed": args.seed, "threads": args.threads, "extra_args": args.extra,
                     "baseline": configs[0].label},
        "labels": [{"label": c.label, "program": c.binary, "base": c.base,
                    "args": c.extra, "backend": c.backend, "device": c.device,
                    "threads": c.threads, "slots": c.slots, "loops": c.loops,
                    "cycles_per_launch": c.cycles_per_launch, "split_every": c.split_every,
                    "refill": c.refill}
                   for c in configs],
        "results": rows,
        "raw": raw,
    }
    path = os.path.join(out_dir, "benchmark.json")
    with open(path + ".tmp", "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)


def sig(x, digits=4):
    """x with `digits` significant digits, without exponent up to 1e9."""
    if x is None or x != x:
        return "-"
    if x == 0 or abs(x) >= 10 ** digits:
        return "%.0f" % x
    if abs(x) < 1e-4 or abs(x) >= 1e9:
        return "%.*e" % (digits - 1, x)
    return ("%#.*g" % (digits, x)).rstrip(".")


def fmt_time(t):
    return sig(t)


def show_path(path):
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def print_table(rows, configs, machine, baseline, args):
    log()
    log("=" * 20 + " gaps benchmark " + "=" * 20)
    log(machine_line(machine))
    for c in configs:
        if c.device is None:          # never ran
            continue
        extra = (" [%s]" % " ".join(c.extra)) if c.extra else ""
        log("  %-14s %s backend on %s, %s slots%s"
            % (c.label, c.backend or "?", c.device or "?", c.slots, extra))
    log("Median of %d timed runs after %d warm-up (each column its own median); wall-clock "
        "seconds per stage;\nspeed-up = total time of %s / total time at the same N."
        % (args.repeats, args.warmup, baseline))
    head = ["label", "events", "total s", "ME s", "shower s", "analysis s", "us/event",
            "events/s", "speed-up"]
    table = []
    for r in rows:
        table.append([r["label"], "%d" % r["events"], fmt_time(r["total_s"]),
                      fmt_time(r["me_s"]), fmt_time(r["shower_s"]),
                      fmt_time(r["analysis_s"]), sig(r["us_per_event"]),
                      sig(r["events_per_s"]),
                      "-" if r["speedup"] is None else sig(r["speedup"], 3) + "x"])
    widths = [max(len(h), *(len(t[i]) for t in table)) if table else len(h)
              for i, h in enumerate(head)]
    line = lambda cells: "  ".join(
        c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))
    log(line(head))
    log("  ".join("-" * w for w in widths))
    for t in table:
        log(line(t))


# ---------------------------------------------------------------------------------------
def main(argv=None):
    args = parse_args(argv)
    machine = machine_info()
    log(machine_line(machine))
    log("Sizes %s, %d warm-up + %d timed runs each, seed %d%s"
        % (",".join(str(n) for n in args.sizes), args.warmup, args.repeats, args.seed,
           ", extra args: " + " ".join(args.extra) if args.extra else ""))

    configs = make_configs(args)
    out_dir = os.path.abspath(args.out_dir)
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as e:
        raise BenchError("cannot create output directory '%s': %s" % (args.out_dir, e))
    if not os.access(out_dir, os.W_OK):
        raise BenchError("output directory '%s' is not writable" % args.out_dir)
    by_label = {c.label: c for c in configs}
    for c in configs:                     # build backends, then resolve variants
        if c.build_backend:
            c.binary = build(c.build_backend, args.build_jobs)
    for c in configs:
        if c.binary is None:
            c.binary = by_label[c.base].binary
        c.backend = detect_backend(c.binary)
    baseline = configs[0].label

    rows, raw = [], []
    complete = False
    t0 = time.time()
    try:
        with tempfile.TemporaryDirectory(prefix="gaps-bench-") as tmpdir:
            for c in configs:
                log("Running %s (%s)" % (c.label, " ".join(
                    shlex.quote(a) for a in [show_path(c.binary)] + args.extra + c.extra)))
                for n in args.sizes:
                    for _ in range(args.warmup):
                        run_once(c, args, n, tmpdir)
                    reps = []
                    for i in range(args.repeats):
                        r = run_once(c, args, n, tmpdir)
                        reps.append(r)
                        raw.append({"label": c.label, "events": n, "repeat": i + 1,
                                    "me_s": r["me"], "shower_s": r["shower"],
                                    "analysis_s": r["analysis"], "total_s": r["total"],
                                    "events_per_s": n / r["total"] if r["total"] > 0 else None,
                                    "sigma_pb": r["sigma_pb"], "cycles": r["cycles"]})
                    row = median_row(c, n, reps)
                    rows.append(row)
                    log("  %-14s N=%-9d total %s s (%s us/event)"
                        % (c.label, n, fmt_time(row["total_s"]), sig(row["us_per_event"])))
                if args.cycles_out:
                    path = os.path.join(out_dir, "cycles_%s.csv" % c.label)
                    run_once(c, args, args.sizes[-1], tmpdir, cycles_path=path)
                    log("  %-14s cycles at N=%d -> %s"
                        % (c.label, args.sizes[-1], show_path(path)))
        complete = True
    finally:
        # On failure, keep and show what was measured; the error message follows.
        add_speedups(rows, baseline)
        if rows or raw:
            write_outputs(out_dir, rows, raw, configs, args, machine, complete)
            log("Wrote %s%s/benchmark.csv, benchmark_raw.csv, benchmark.json (%.0f s)"
                % ("" if complete else "PARTIAL results to ", show_path(out_dir),
                   time.time() - t0))
        if rows:
            print_table(rows, configs, machine, baseline, args)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as e:
        print("benchmark.py: error: %s" % e, file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print("benchmark.py: interrupted", file=sys.stderr)
        sys.exit(130)
