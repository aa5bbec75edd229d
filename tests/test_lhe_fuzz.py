#!/usr/bin/env python3
"""The Les Houches Event reader against damaged files (src/io/lhe_read.c, `gaps lhe-check`).

A small valid file that uses most of what the reader reads (a header with <initrwgt>, weight
groups, a comment and CDATA; <init> with a <generator>; events with <rwgt>, <mgrwt>, a comment
line, a resonance) is damaged in every way below, and `gaps lhe-check FILE` must exit 0 (the
damage left a valid file) or 2 with exactly one line on standard error starting with "gaps: ",
and never crash, hang or print anything else:

  - cut at every byte (the reader must say "truncated", never end silently), and its gzip
    cut at every byte;
  - each line deleted, duplicated, and swapped with the next;
  - random bytes replaced by random bytes (including NUL, '<', '>', quotes, newlines);
  - each number replaced by a random choice of hostile numbers (nan, inf, 1e999, 2^31, ...);
  - random '<', '>', '/' or quotes deleted or inserted, tag names changed.

The unchanged file must be valid (exit 0) as a control.  Then the same, fewer cases, on
lhe_check_sanitized (the command and the reader built with AddressSanitizer and
UndefinedBehaviorSanitizer) when its path is given: any finding aborts it with another exit
status.  Deterministic (seed 1, or the fourth argument); about 30 s on two busy cores.

Usage: test_lhe_fuzz.py GAPS WORKDIR [SANITIZED_BINARY [SEED]]
"""
import concurrent.futures
import gzip
import itertools
import os
import random
import re
import shutil
import subprocess
import sys
import threading

gaps = os.path.abspath(sys.argv[1])
work = os.path.abspath(sys.argv[2])
sanitized = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3] else None
seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
print("seed %d" % seed)
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
os.chdir(work)
env = dict(os.environ, LC_ALL="C")
env["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=0:exitcode=99" + (
    ":" + env["ASAN_OPTIONS"] if env.get("ASAN_OPTIONS") else "")
env["UBSAN_OPTIONS"] = "halt_on_error=1:print_stacktrace=1:exitcode=98"
TIMEOUT = 30

VALID = """<LesHouchesEvents version="3.0">
<!-- written by hand for tests/test_lhe_fuzz.py -->
<header>
<MGVersion> 3.3.0 </MGVersion>
<MG5ProcCard><![CDATA[ generate p p > t t~ <fake> ]]></MG5ProcCard>
<initrwgt>
<weightgroup name="scale" combine="envelope">
<weight id="1" MUR="0.5"> mur=0.5 </weight>
<weight id="2" MUR="2.0"> mur=2 </weight>
</weightgroup> # scale
<weightgroup name="NNPDF23_lo_as_0130_qed" combine="replicas">
<weight id="3" PDF="247001"/>
</weightgroup>
</initrwgt>
</header>
<init>
2212 2212 6.5000000000e+03 6.5000000000e+03 0 0 247000 247000 -4 2
1.0000000000e+02 1.0000000000e+00 2.0000000000e+02 1
5.0000000000e+01 5.0000000000e-01 8.0000000000e+01 2
<generator name='hand' version='1.0'>no generator</generator>
</init>
<event>
 4      1 +1.0000000e+02 9.1000000e+01 7.5467711e-03 1.1800000e-01
       21 -1    0    0  501  502 +0.0000000000e+00 +0.0000000000e+00 +1.0000000000e+02 1.0000000000e+02 0.0000000000e+00 0.0000e+00 9.0000e+00
       21 -1    0    0  503  501 -0.0000000000e+00 -0.0000000000e+00 -1.0000000000e+02 1.0000000000e+02 0.0000000000e+00 0.0000e+00 9.0000e+00
       21  1    1    2  503  504 +6.0000000000e+01 +0.0000000000e+00 +8.0000000000e+01 1.0000000000e+02 0.0000000000e+00 0.0000e+00 9.0000e+00
       21  1    1    2  504  502 -6.0000000000e+01 +0.0000000000e+00 -8.0000000000e+01 1.0000000000e+02 0.0000000000e+00 0.0000e+00 9.0000e+00
<mgrwt>
<rscale>  2 0.91E+02</rscale>
</mgrwt>
<rwgt>
<wgt id='1'> +1.1000000e+02 </wgt>
<wgt id='2'> +9.0000000e+01 </wgt>
<wgt id='3'> +1.0100000e+02 </wgt>
</rwgt>
</event>
<event>
 5      2 -5.0000000e+01 9.1000000e+01 7.5467711e-03 1.1800000e-01
        2 -1    0    0  501    0 +0.0000000000e+00 +0.0000000000e+00 +1.0000000000e+02 1.0000000000e+02 0.0000000000e+00 0.0000e+00 9.0000e+00
       -1 -1    0    0    0  501 -0.0000000000e+00 -0.0000000000e+00 -1.0000000000e+02 1.0000000000e+02 0.0000000000e+00 0.0000e+00 9.0000e+00
       24  2    1    2    0    0 +0.0000000000e+00 +0.0000000000e+00 +0.0000000000e+00 2.0000000000e+02 2.0000000000e+02 0.0000e+00 9.0000e+00
      -11  1    3    3    0    0 +6.0000000000e+01 +0.0000000000e+00 +8.0000000000e+01 1.0000000000e+02 0.0000000000e+00 0.0000e+00 9.0000e+00
       12  1    3    3    0    0 -6.0000000000e+01 +0.0000000000e+00 -8.0000000000e+01 1.0000000000e+02 0.0000000000e+00 0.0000e+00 9.0000e+00
#aMCatNLO a comment line
<rwgt>
<wgt id='1'> -5.5000000e+01 </wgt>
<wgt id='2'> -4.5000000e+01 </wgt>
<wgt id='3'> -5.0500000e+01 </wgt>
</rwgt>
</event>
</LesHouchesEvents>
"""

HOSTILE = ["nan", "-nan", "inf", "-inf", "1e999", "-1e999", "1e-400", "0", "-0", "-1", "2",
           "2147483647", "2147483648", "-2147483649", "99999999999999999999999", "1e308",
           "x", "", "1.0.0", "+", "-", "1e", "1D+", ".", "0x10", "1,5", "513", "-9", "3",
           "6", "21", "501", "1e+02", "4.7", "173.0"]
failures = 0
runs = 0
lock = threading.Lock()
case_numbers = itertools.count()


def check(binary, content, what, stdin=False):
    """Run the check on content; a failure is reported with what made the content."""
    global failures, runs
    with lock:
        runs += 1
        case = "case-%d.lhe" % next(case_numbers)
    args = [binary] if binary != gaps else [gaps, "lhe-check"]
    if stdin:
        p = subprocess.run(args + ["-"], input=content, capture_output=True, timeout=TIMEOUT,
                           env=env)
    else:
        with open(case, "wb") as f:
            f.write(content)
        try:
            p = subprocess.run(args + [case], stdin=subprocess.DEVNULL,
                               capture_output=True, timeout=TIMEOUT, env=env)
        except subprocess.TimeoutExpired:
            p = None
        os.unlink(case)
    problem = None
    if p is None:
        problem = "no answer in %d s" % TIMEOUT
    elif p.returncode not in (0, 2):
        problem = "exit status %d%s" % (p.returncode, " (a signal)" if p.returncode < 0 else "")
    elif p.returncode == 2:
        err = p.stderr.decode("utf-8", "replace")
        if err.count("\n") != 1 or not err.endswith("\n") or not err.startswith("gaps: "):
            problem = "not one line 'gaps: ...' on standard error"
        elif p.stdout:
            problem = "exit 2 and a report on standard output"
    elif p.stderr or not p.stdout.startswith(b"file: "):
        problem = "exit 0 without a report, or with standard error"
    if problem:
        with lock:
            failures += 1
            name = "failure-%03d.lhe" % failures
        with open(name, "wb") as f:
            f.write(content)
        print("FAIL: %s: %s: %s (kept as %s/%s)\n    %s" % (
            os.path.basename(binary), what, problem, work, name,
            (p.stderr.decode("utf-8", "replace")[-1500:] if p else "").replace("\n", "\n    ")))
    return p.returncode if p else None


def mutations(rng, text, every_cut=1, sample=1.0):
    """(what, bytes, whether it must be refused) of the damaged files, deterministic for one
    rng state: a cut file must be refused, whatever else is left to chance."""
    data = text.encode()
    gz = gzip.compress(data, mtime=0)
    for k in range(0, len(data), every_cut):   # only the final newline may go
        yield "cut at byte %d" % k, data[:k], k < len(data) - 1
    for k in range(0, len(gz), every_cut):
        yield "gzip cut at byte %d" % k, gz[:k], True
    lines = text.split("\n")
    for k in range(len(lines) - 1):
        if rng.random() < sample:
            yield "line %d deleted" % (k + 1), "\n".join(lines[:k] + lines[k + 1:]).encode()
        if rng.random() < sample:
            yield "line %d twice" % (k + 1), "\n".join(lines[:k + 1] + lines[k:]).encode()
        if rng.random() < sample:
            yield "lines %d and %d swapped" % (k + 1, k + 2), \
                "\n".join(lines[:k] + [lines[k + 1], lines[k]] + lines[k + 2:]).encode()
    special = b"\x00\n<>/'\"=#- 0123456789.eE\xff\x1f\x8b"
    for n in range(int(400 * sample)):
        b = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(b))
            b[at] = rng.choice(special) if rng.random() < 0.7 else rng.randrange(256)
        yield "bytes changed (%d)" % n, bytes(b)
    for n in range(int(60 * sample)):
        b = bytearray(gz)
        at = rng.randrange(10, len(b))
        b[at] = rng.randrange(256)
        yield "gzip byte %d changed" % at, bytes(b)
    numbers = [m for m in re.finditer(r"(?<![\w.])[-+]?\d[\w.+-]*", text)]
    for n in range(int(500 * sample)):
        m = rng.choice(numbers)
        new = rng.choice(HOSTILE)
        yield "number '%s' at %d replaced by '%s'" % (m.group(0), m.start(), new), \
            (text[:m.start()] + new + text[m.end():]).encode()
    marks = [m.start() for m in re.finditer(r"[<>/'\"=]", text)]
    for n in range(int(200 * sample)):
        at = rng.choice(marks)
        if rng.random() < 0.5:
            yield "'%s' at %d deleted" % (text[at], at), (text[:at] + text[at + 1:]).encode()
        else:
            c = rng.choice("<>/'\"=")
            yield "'%s' inserted at %d" % (c, at), (text[:at] + c + text[at:]).encode()
    tags = [m for m in re.finditer(r"</?([A-Za-z]+)", text)]
    for n in range(int(100 * sample)):
        m = rng.choice(tags)
        new = rng.choice(["event", "init", "header", "rwgt", "wgt", "weights", "x", "initrwgt",
                          "weightgroup", "LesHouchesEvents", "eventgroup", "mgrwt", "weight"])
        yield "tag <%s> at %d renamed <%s>" % (m.group(1), m.start(), new), \
            (text[:m.start(1)] + new + text[m.end(1):]).encode()


for binary, every_cut, sample in [(gaps, 1, 0.8), (sanitized, 7, 0.25)]:
    if not binary:
        print("SKIPPED: the sanitized run (no lhe_check_sanitized: the build has no "
              "-fsanitize=address,undefined)")
        continue
    if check(binary, VALID.encode(), "the valid file") != 0:
        print("FAIL: the valid file is not valid")
        failures += 1
    before, fails_before = runs, failures
    rng = random.Random(seed)
    outcome = {0: 0, 2: 0}
    cases = [c if len(c) == 3 else c + (False,) for c in mutations(rng, VALID, every_cut, sample)]
    # two at a time: the cases are independent, the machine has two cores
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        codes = list(pool.map(lambda c: check(binary, c[1], c[0]), cases))
    for (what, _, must_refuse), rc in zip(cases, codes):
        outcome[rc] = outcome.get(rc, 0) + 1
        if must_refuse and rc == 0:
            failures += 1
            print("FAIL: %s: %s: taken as a valid file" % (os.path.basename(binary), what))
    # through standard input: a few cuts and the gzip stream
    for k in range(0, len(VALID), 97):
        check(binary, VALID.encode()[:k], "cut at byte %d, on standard input" % k, stdin=True)
    check(binary, gzip.compress(VALID.encode()), "gzipped, on standard input", stdin=True)
    print("%s %s: %d files, %d valid, %d refused (exit 2), %d failures"
          % ("ok:" if failures == fails_before else "FAIL:", os.path.basename(binary),
             runs - before, outcome.get(0, 0), outcome.get(2, 0), failures - fails_before))

print("%s: %d runs, %d failures" % ("FAIL" if failures else "PASS", runs, failures))
sys.exit(1 if failures else 0)
