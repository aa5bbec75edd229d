#!/usr/bin/env python3
"""--lhe read in parallel gives the events and the errors of the serial reader, byte for byte.

The feed cuts a file's text into pieces at lines that open an <event> and reads the pieces
on several threads (src/io/lhe.h, "Reading in parallel"); where a piece's events might not be
what the serial reader reads, it puts the text back and reads on serially.  This test runs
`gaps --lhe FILE` with --lhe-threads 0 (the run's own thread reads everything) and with
reading threads and pieces as small as one event and of a few events, on:

  - valid files with what may fool a cutter: comments, CDATA sections and processing
    instructions between events that hold <event> lines, event groups, indented <event>
    tags, CRLF line ends, '#' lines in events that hold "<!--", two tags on one line,
    extra elements in events; a gaps-written file and the same events as another
    generator's (no <gaps .../> elements); plain and gzip;
  - damaged ones: cut at many bytes (plain and gzip), lines deleted, duplicated, swapped,
    </LesHouchesEvents> or an <event> inside the file, event groups left open or closed
    twice, an unclosed comment, a missing event (numbers not consecutive), an event the
    shower refuses (a massive quark), also inside the part that --first-event skips;

and requires the same exit status, the same standard error and, for a run that succeeds,
the same per-event CSV.  Then checkpoints of --lhe runs (GAPS_HOOKS: the test build, which the
test hook kills at its third checkpoint): killed and resumed, a gaps-written and a foreign
file give the uninterrupted run's YODA, CSV and HepMC3 bytes, and so does one stopped by
SIGTERM (which checkpoints inside the batch the file handed it); resumed with the file changed
(one event's weight) or cut short, the resume is refused (exit 2) and the checkpoint kept.
Last, the file's PDF set (its LHAPDF ID) against --pdf: a warning in the summary and the JSON,
with --lhe-strict-pdf an error.
Usage: test_lhe_parallel.py GAPS WORKDIR [GAPS_HOOKS]
"""
import concurrent.futures
import gzip
import json
import os
import random
import re
import shutil
import subprocess
import sys

gaps = os.path.abspath(sys.argv[1])
work = os.path.abspath(sys.argv[2])
hooks = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 else None
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
os.chdir(work)
env = dict(os.environ, LC_ALL="C")
rng = random.Random(7)

# the base: pp-z NLO hard events (S and H events, so Z + 1 parton too)
subprocess.run([gaps, "-q", "--process", "pp-z", "--nlo", "1", "--events", "120",
                "--lhe-out", "base.lhe", "-o", "none"], check=True, env=env)
gaps_text = open("base.lhe").read()
foreign_text = re.sub(r"<gaps [^>]*/>\n", "", gaps_text)
assert "<gaps" not in foreign_text


def split_events(text):
    """(head, [event blocks], tail): head ends after </init>, each block '<event>...</event>\n'."""
    head_end = text.index("</init>\n") + len("</init>\n")
    tail_start = text.rindex("</LesHouchesEvents>")
    body = text[head_end:tail_start]
    blocks = re.findall(r"<event>.*?</event>\n", body, re.S)
    assert "".join(blocks) == body
    return text[:head_end], blocks, text[tail_start:]


def join(head, blocks, tail):
    return head + "".join(blocks) + tail


def decorated(text, kind):
    head, ev, tail = split_events(text)
    ev = list(ev)
    if kind == "comments":
        for k in range(2, len(ev), 7):
            ev[k] = "<!-- a comment\n<event>\n 1 2 3\n</event>\n-->\n" + ev[k]
    elif kind == "cdata":
        for k in range(3, len(ev), 11):
            ev[k] = "<![CDATA[\n<event>\n<!-- \n</event>\n]]>\n" + ev[k]
    elif kind == "pi":
        for k in range(1, len(ev), 13):
            ev[k] = "<?note\n<event>\n?>\n" + ev[k]
    elif kind == "groups":
        out = []
        for k in range(0, len(ev), 5):
            out.append("<eventgroup>\n" + "".join(ev[k:k + 5]) + "</eventgroup>\n")
        out[3] = "<eventgroup/>\n" + out[3]
        ev = out
    elif kind == "indent":
        ev = [("  " if k % 2 else "\t") + e for k, e in enumerate(ev)]
    elif kind == "crlf":
        return join(head, ev, tail).replace("\n", "\r\n")
    elif kind == "hash":
        ev = [e.replace("</event>", "# aMC@NLO-like comment <!-- not a comment\n</event>")
              if k % 9 == 4 else e for k, e in enumerate(ev)]
    elif kind == "oneline":
        ev = [e.replace("</event>\n", "</event>") if k % 6 == 1 else e for k, e in enumerate(ev)]
    elif kind == "elements":
        ev = [e.replace("</event>", "<scales muf=\"91\" mur=\"91\">\n</scales>\n<mgrwt>\n"
                        "<rscale> 0 0.9E+02 </rscale>\n</mgrwt>\n</event>")
              for e in ev]
    return join(head, ev, tail)


cases = []   # (name, text or bytes, extra options)
for base_name, base in (("gaps", gaps_text), ("foreign", foreign_text)):
    cases.append((base_name, base, []))
    for kind in ("comments", "cdata", "pi", "groups", "indent", "crlf", "hash", "oneline",
                 "elements"):
        cases.append(("%s-%s" % (base_name, kind), decorated(base, kind), []))
    cases.append((base_name + "-range", base, ["--first-event", "37", "--events", "50"]))
cases.append(("gzip", gzip.compress(gaps_text.encode(), mtime=0), []))

# damage
head, ev, tail = split_events(gaps_text)
size = len(gaps_text)
for k in range(12):
    cut = len(head) + rng.randrange(size - len(head))
    cases.append(("cut-%d" % cut, gaps_text[:cut], []))
packed = gzip.compress(gaps_text.encode(), mtime=0)
for k in range(4):
    cut = rng.randrange(len(packed) // 4, len(packed))
    cases.append(("gzip-cut-%d" % cut, packed[:cut], []))
lines = gaps_text.split("\n")
first_event_line = next(i for i, l in enumerate(lines) if l == "<event>")
for k in range(8):
    i = rng.randrange(first_event_line, len(lines) - 2)
    how = k % 3
    changed = list(lines)
    if how == 0:
        del changed[i]
    elif how == 1:
        changed.insert(i, changed[i])
    else:
        changed[i], changed[i + 1] = changed[i + 1], changed[i]
    cases.append(("line-%d-%d" % (how, i), "\n".join(changed), []))
mid = len(ev) // 2
cases.append(("end-inside", join(head, ev[:mid] + ["</LesHouchesEvents>\n"] + ev[mid:], tail), []))
cases.append(("event-in-event", join(head, ev[:mid] + [ev[mid].replace("</event>", "<event>\n</event>")]
                                      + ev[mid + 1:], tail), []))
cases.append(("group-open", join(head, ev[:mid] + ["<eventgroup>\n"] + ev[mid:], tail), []))
cases.append(("group-closed-twice", join(head, ev[:mid] + ["</eventgroup>\n"] + ev[mid:], tail), []))
cases.append(("comment-open", join(head, ev[:mid] + ["<!-- never closed\n"] + ev[mid:], tail), []))
cases.append(("missing-event", join(head, ev[:mid] + ev[mid + 1:], tail), []))
# a massive quark: a valid event that the shower refuses (in the part --first-event skips,
# the serial reader reads it without handing it over: no refusal)
lines_mid = ev[mid].split("\n")
fields = lines_mid[2].split()
fields[10] = "5"
lines_mid[2] = " " + " ".join(fields)
massive = "\n".join(lines_mid)
cases.append(("massive-quark", join(head, ev[:mid] + [massive] + ev[mid + 1:], tail), []))
cases.append(("massive-quark-skipped", join(head, ev[:mid] + [massive] + ev[mid + 1:], tail),
              ["--first-event", str(mid + 1)]))
cases.append(("massive-quark-foreign", re.sub(r"<gaps [^>]*/>\n", "",
                                              join(head, ev[:mid] + [massive] + ev[mid + 1:],
                                                   tail)), []))

# the last reads batches of 7 events, each read ahead while the one before showers (a
# damaged event then lies in a batch read ahead: the events before it are still showered and
# the same message comes after them)
READERS = [["--lhe-threads", "0"], ["--lhe-threads", "2", "--lhe-piece", "1"],
           ["--lhe-threads", "3", "--lhe-piece", "3000", "--lhe-batch", "7"]]


def run(index, name, content, extra, reader):
    path = "case-%d.lhe" % index
    csv = "case-%d-%d.csv" % (index, READERS.index(reader))
    js = "case-%d-%d.json" % (index, READERS.index(reader))
    p = subprocess.run([gaps, "-q", "--lhe", path, "-o", "none", "--observables-out", csv,
                        "--json", js] + extra + reader, capture_output=True, env=env,
                       timeout=120)
    out = open(csv, "rb").read() if p.returncode == 0 else b""
    reading = json.load(open(js))["lhe"] if p.returncode == 0 else None
    return p.returncode, p.stderr, out, reading


failures = 0
jobs = []
with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
    for index, (name, content, extra) in enumerate(cases):
        with open("case-%d.lhe" % index, "wb") as f:
            f.write(content if isinstance(content, bytes) else content.encode())
        jobs.append((index, name, [pool.submit(run, index, name, content, extra, r)
                                   for r in READERS]))
    valid = 0
    for index, name, futures in jobs:
        results = [fu.result() for fu in futures]
        rc, err, out, _ = results[0]
        valid += rc == 0
        # a valid file is read in parallel to its end: the pieces of one event each were
        # all read by the threads (a '#' line's "<!--" hides every cut: one piece; an event
        # the shower refuses, though --first-event skips it, sends the rest to the serial
        # reader, which does not look at skipped events)
        if rc == 0 and name != "massive-quark-skipped":
            reading = results[1][3]
            if reading["read_serially_from"] is not None or (
                    reading["pieces"] < 2 and not name.endswith("-hash")):
                failures += 1
                print("FAIL %s: read in %d pieces, serially from event %s"
                      % (name, reading["pieces"], reading["read_serially_from"]))
        for reader, (rc2, err2, out2, _) in zip(READERS[1:], results[1:]):
            if (rc2, err2, out2) != (rc, err, out):
                failures += 1
                print("FAIL %s with %s: exit %d, serially %d\n  %s\n  serially: %s"
                      % (name, " ".join(reader), rc2, rc, err2.decode().strip(),
                         err.decode().strip()))
        if rc not in (0, 2) or (rc == 2 and err.count(b"\n") != 1):
            failures += 1
            print("FAIL %s: exit %d, standard error %r" % (name, rc, err))
        print("%-28s exit %d %s" % (name, rc, err.decode().strip()[:90]))
# the valid decorations must all have been read, and the damage refused
expected_valid = 2 * 11 + 1 + 1   # the decorations, gzip, the skipped massive quark
if valid < expected_valid:
    failures += 1
    print("FAIL: %d runs succeeded serially, at least %d expected" % (valid, expected_valid))

# checkpoints: killed at the third checkpoint (every 25 events), resumed
KILL = ('n=$(($(cat hook.count 2>/dev/null || echo 0) + 1)); echo $n >hook.count; '
        '[ $n -eq 3 ] && kill -KILL $PPID')


def kill_at_third(path, extra):
    for f in ("ck.ckpt", "hook.count"):
        if os.path.exists(f):
            os.remove(f)
    p = subprocess.run([hooks, "-q", "--lhe", path, "-o", "ck.yoda", "--observables-out",
                        "ck.csv", "--hepmc", "ck.hepmc", "--checkpoint", "ck.ckpt",
                        "--checkpoint-every", "25"] + extra, capture_output=True,
                       env=dict(env, GAPS_TEST_HOOK_CHECKPOINT=KILL), timeout=120)
    return p.returncode == -9 or p.returncode == 137


def resume(path, extra):
    return subprocess.run([gaps, "-q", "--lhe", path, "-o", "ck.yoda", "--observables-out",
                           "ck.csv", "--hepmc", "ck.hepmc", "--checkpoint", "ck.ckpt",
                           "--checkpoint-every", "25", "--resume", "ck.ckpt"] + extra,
                          capture_output=True, env=env, timeout=120)


if hooks:
    open("foreign.lhe", "w").write(foreign_text)
    lines10 = ev[10].split("\n")
    fields = lines10[1].split()
    fields[2] = repr(float(fields[2]) * 1.5)
    lines10[1] = " " + " ".join(fields)
    open("changed.lhe", "w").write(join(head, ev[:10] + ["\n".join(lines10)] + ev[11:], tail))
    open("short.lhe", "w").write(join(head, ev[:40], tail))
    for path, extra in (("base.lhe", []), ("foreign.lhe", ["--lhe-threads", "0"]),
                        ("base.lhe", ["--lhe-threads", "2", "--lhe-piece", "1"])):
        label = "%s %s" % (path, " ".join(extra))
        one = subprocess.run([gaps, "-q", "--lhe", path, "-o", "one.yoda", "--observables-out",
                              "one.csv", "--hepmc", "one.hepmc"] + extra, env=env)
        if not kill_at_third(path, extra):
            failures += 1
            print("FAIL checkpoint %s: not killed at its third checkpoint" % label)
            continue
        p = resume(path, extra)
        same = p.returncode == 0 and all(open("one." + x, "rb").read() == open("ck." + x, "rb").read()
                                         for x in ("yoda", "csv", "hepmc"))
        print("checkpoint %-40s killed and resumed: %s" % (label, "the run's bytes" if same
                                                            else "DIFFERENT " + p.stderr.decode()))
        failures += not same
    # stopped by SIGTERM at its second checkpoint: the run stops starting events in the batch
    # the file has just handed it, checkpoints there (before the batch's events) and exits 143
    for f in ("ck.ckpt", "hook.count"):
        if os.path.exists(f):
            os.remove(f)
    subprocess.run([gaps, "-q", "--lhe", "base.lhe", "-o", "one.yoda", "--observables-out",
                    "one.csv", "--hepmc", "one.hepmc"], env=env)
    TERM = KILL.replace("-eq 3 ] && kill -KILL", "-eq 2 ] && kill -TERM")
    p = subprocess.run([hooks, "-q", "--lhe", "base.lhe", "-o", "ck.yoda", "--observables-out",
                        "ck.csv", "--hepmc", "ck.hepmc", "--checkpoint", "ck.ckpt",
                        "--checkpoint-every", "25"], capture_output=True,
                       env=dict(env, GAPS_TEST_HOOK_CHECKPOINT=TERM), timeout=120)
    stopped = p.returncode == 143 and b"stopped by SIGTERM after 25 events of the file" in p.stderr
    r = resume("base.lhe", []) if stopped else None
    same = stopped and r.returncode == 0 and all(
        open("one." + x, "rb").read() == open("ck." + x, "rb").read() for x in ("yoda", "csv", "hepmc"))
    print("checkpoint stopped by SIGTERM (exit %d: %s) and resumed: %s"
          % (p.returncode, p.stderr.decode().strip()[:70], "the run's bytes" if same else "FAIL"))
    failures += not same
    for path, words in (("changed.lhe", "changed or replaced"), ("short.lhe", "before the checkpoint")):
        kill_at_third("base.lhe", [])
        saved = open("ck.ckpt", "rb").read()
        p = resume(path, [])
        err = p.stderr.decode()
        ok = (p.returncode == 2 and err.count("\n") == 1 and words in err
              and open("ck.ckpt", "rb").read() == saved)
        print("checkpoint resumed with %-12s exit %d: %s" % (path, p.returncode, err.strip()))
        if not ok:
            failures += 1
            print("FAIL: a resume from %s must be refused (exit 2, '%s'), the checkpoint kept"
                  % (path, words))

# the file's PDF set against the run's: the same set (13200, CT14lo's LHAPDF ID, as gaps
# writes it) says nothing; another is a warning in the summary and the JSON, or with
# --lhe-strict-pdf an error naming both
other = gaps_text.replace(" 2212 2212 6500 6500 0 0 13200 13200 ", " 2212 2212 6500 6500 0 0 13100 13100 ", 1)
assert other != gaps_text
open("other-pdf.lhe", "w").write(other)
for path, strict, want_rc, want_warning in (("base.lhe", [], 0, False),
                                            ("other-pdf.lhe", [], 0, True),
                                            ("base.lhe", ["--lhe-strict-pdf"], 0, False),
                                            ("other-pdf.lhe", ["--lhe-strict-pdf"], 2, True)):
    p = subprocess.run([gaps, "--lhe", path, "-o", "none", "--json", "pdf.json"] + strict,
                       capture_output=True, env=env, timeout=120)
    out, err = p.stdout.decode(), p.stderr.decode()
    if want_rc == 0:
        warning = json.load(open("pdf.json"))["lhe"]["pdf_warning"] if p.returncode == 0 else None
        ok = (p.returncode == 0 and (warning is not None) == want_warning
              and ("  warning " in out) == want_warning
              and (not want_warning or ("13100" in warning and "CT14lo (LHAPDF ID 13200)" in warning)))
    else:
        ok = p.returncode == 2 and err.count("\n") == 1 and "13100" in err and "13200" in err
        warning = err.strip()
    print("PDF %-14s %-18s exit %d: %s" % (path, " ".join(strict), p.returncode, warning))
    if not ok:
        failures += 1
        print("FAIL: the PDF check of %s %s" % (path, " ".join(strict)))
print("%d files, %d failures" % (len(cases), failures))
sys.exit(1 if failures else 0)
