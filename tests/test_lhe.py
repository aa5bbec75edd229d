#!/usr/bin/env python3
"""Les Houches Event files: the reader (src/io/lhe.h) and `gaps lhe-check` (doc/formats.md,
"Les Houches Event files (read)").

1. tests/data/madgraph-ttbar-decays-100.lhe (MadGraph5_aMC@NLO 3.3.0, LHEF 3.0, 145 weights per
   event): every number that the reader gives through its API (tests/lhe_dump.c) equals this
   script's own parse of the file, event by event, particle by particle and weight by weight
   (weights by their id); lhe-check says 100 events, 145 weights, and that the built-in shower
   cannot shower it because of top quarks.  The same file gzipped, through a FIFO (plain and
   gzipped, the reader opening the FIFO before any writer), and on standard input: the same
   report (but the file's name) and the same dump.
2. Small files written here: every status (-1, 1, 2, 3, -2, -9), colour configurations (q qbar,
   g g, q g, s-channel colour, colour through a resonance, an epsilon tensor), LHEF 1.0 without
   weights, LHEF 3.0 <weights> with <weightinfo>, undeclared <rwgt> ids, <eventgroup>, comments,
   CRLF, Fortran exponents, concatenated gzip members: valid (exit 0), with the shower's
   verdict on each.
3. Every error class: exit status 2 and one line on standard error "gaps: FILE:LINE: ..." with
   the expected line and words; nothing on standard output.
4. The command line: --help, --quiet, a missing or second FILE, an unknown option.

Usage: test_lhe.py GAPS LHE_DUMP DATA_FILE WORKDIR
"""
import gzip
import os
import re
import shutil
import subprocess
import sys
import threading

gaps, dump, data, work = (os.path.abspath(a) for a in sys.argv[1:5])
TIMEOUT = 60
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
os.chdir(work)
env = dict(os.environ, LC_ALL="C")
failures = 0


def ok(msg):
    print("ok: " + msg)


def bad(msg):
    global failures
    failures += 1
    print("FAIL: " + msg)


def run(args, stdin=None):
    """(exit status, stdout, stderr) of a command; stdin is bytes or None (/dev/null)."""
    p = subprocess.run(args, input=stdin if stdin is not None else b"", capture_output=True,
                       timeout=TIMEOUT, env=env)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def via_fifo(args, content, chunk=None):
    """args with the path of a FIFO appended, its writer started only once the reader has
    opened it (so the reader must wait for data, not take the missing writer for the end);
    chunk: write in pieces of that many bytes."""
    fifo = os.path.join(work, "events.fifo")
    if os.path.exists(fifo):
        os.unlink(fifo)
    os.mkfifo(fifo)
    p = subprocess.Popen(args + [fifo], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)

    def writer():
        while True:   # a non-blocking open for writing succeeds once a reader has it open
            try:
                fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError:
                if p.poll() is not None:
                    return
        os.set_blocking(fd, True)
        with os.fdopen(fd, "wb") as f:
            step = chunk or len(content) or 1
            for k in range(0, len(content), step):
                f.write(content[k:k + step])
                f.flush()
    t = threading.Thread(target=writer, daemon=True)
    t.start()
    out, err = p.communicate(timeout=TIMEOUT)
    t.join(TIMEOUT)
    return p.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def without_file(report):
    """The report without its first line (the file's name and compression)."""
    return report.split("\n", 1)[1] if "\n" in report else report


# ---- 1. the MadGraph file -----------------------------------------------------------------

def parse_lhe(text):
    """This script's own reading of a MadGraph LHEF 3.0 file: the init lines and each event's
    line, first line, particle lines and <wgt id='...'> values."""
    lines = text.split("\n")
    init = None
    events = []
    i = 0
    while i < len(lines):
        s = lines[i].strip()
        if s == "<init>":
            first = lines[i + 1].split()
            procs = [lines[i + 2 + k].split() for k in range(int(first[9]))]
            init = (first, procs)
        elif s == "<event>":
            head = lines[i + 1].split()
            n = int(head[0])
            parts = [(i + 3 + k, lines[i + 2 + k].split()) for k in range(n)]
            j = i + 2 + n
            weights = {}
            while lines[j].strip() != "</event>":
                m = re.match(r"\s*<wgt id='([^']*)'>\s*(\S+)\s*</wgt>\s*$", lines[j])
                if m:
                    weights[m.group(1)] = float(m.group(2))
                j += 1
            events.append((i + 1, head, parts, weights))
            i = j
        i += 1
    return init, events


def compare_dump(dump_text, init, events):
    """The dump of lhe_dump against parse_lhe's reading; a list of differences."""
    diffs = []
    rows = [l.split(" ") for l in dump_text.strip().split("\n")]
    names = [r[1] for r in rows if r[0] == "N"]
    if rows[-1] != ["END"]:
        diffs.append("the dump does not end with END: %s" % " ".join(rows[-1]))
    first, procs = init
    irow = rows[0]
    want = [int(first[0]), int(first[1]), float(first[2]), float(first[3])] + \
        [int(x) for x in first[4:10]]
    got = [int(irow[2]), int(irow[3]), float(irow[4]), float(irow[5])] + \
        [int(x) for x in irow[6:12]]
    if got != want:
        diffs.append("init: %s, file %s" % (got, want))
    xrows = [r for r in rows if r[0] == "X"]
    for x, p in zip(xrows, procs):
        if [float(v) for v in x[1:4]] + [int(x[4])] != [float(v) for v in p[:3]] + [int(p[3])]:
            diffs.append("process: %s, file %s" % (x, p))
    # the rows of each event: E, its P rows, its W rows, S
    read = []
    for r in rows:
        if r[0] == "E":
            read.append((r, [], {}))
        elif r[0] == "P":
            read[-1][1].append(r)
        elif r[0] == "W":
            read[-1][2][names[int(r[1])]] = float(r[2])
    if len(read) != len(events):
        diffs.append("%d events read, %d in the file" % (len(read), len(events)))
    for (r, prows, w), (line, head, parts, weights) in zip(read, events):
        if int(r[2]) != line or int(r[3]) != int(head[0]) or int(r[4]) != int(head[1]) \
                or [float(v) for v in r[5:9]] != [float(v) for v in head[2:6]]:
            diffs.append("event at line %d: %s, file %s" % (line, r, head))
        if len(prows) != len(parts):
            diffs.append("event at line %d: %d particles read" % (line, len(prows)))
        for q, (pline, p) in zip(prows, parts):
            if [int(v) for v in q[1:7]] != [int(v) for v in p[:6]] \
                    or [float(v) for v in q[7:14]] != [float(v) for v in p[6:13]] \
                    or int(q[14]) != pline:
                diffs.append("particle at line %d: %s, file %s" % (pline, q, p))
        if w != weights:
            diffs.append("weights of the event at line %d differ (%d read, %d in the file)"
                         % (line, len(w), len(weights)))
    return diffs


text = open(data, "rb").read()
init, events = parse_lhe(text.decode())
if len(events) != 100 or any(len(e[3]) != 145 for e in events):
    bad("this script's parse of %s: %d events, weights %s" % (data, len(events),
        sorted({len(e[3]) for e in events})))
rc, dumped, err = run([dump, data])
diffs = compare_dump(dumped, init, events) if rc == 0 else ["exit %d: %s" % (rc, dumped[-300:])]
if diffs:
    bad("the reader's numbers differ from the file's: " + "; ".join(diffs[:5]))
else:
    ok("the reader gives every number of the 100 events, their 800 particles and 14500 "
       "weights (by id) as the file has them")
with open("ttbar.lhe.gz", "wb") as f:
    f.write(gzip.compress(text))
gz = open("ttbar.lhe.gz", "rb").read()
rc, dumped_gz, _ = run([dump, "ttbar.lhe.gz"])
rc2, dumped_in, _ = run([dump, "-"], stdin=gz)
if dumped_gz == dumped and dumped_in == dumped:
    ok("the same dump from the gzipped file and from gzip on standard input")
else:
    bad("the dump of the gzipped file or of standard input differs")

rc, report, err = run([gaps, "lhe-check", data])
print("    " + report.replace("\n", "\n    ").rstrip())
checks = [("events: 100\n", "100 events"),
          ("weights per event: 145 besides XWGTUP (<rwgt>, named in <initrwgt>)", "145 weights"),
          ("LHEF version: 3.0", "LHEF 3.0"),
          ("generator: MadGraph5_aMC@NLO 3.3.0", "the generator"),
          ("beams: p (2212) at 6500 GeV, p (2212) at 6500 GeV; sqrt(s) = 13000 GeV", "beams"),
          ("PDFSUP 247000 247000", "the PDF set"),
          ("in the header: NNPDF23_lo_as_0130_qed", "the PDF set's name"),
          ("IDWTUP: -4", "IDWTUP"),
          ("LPRUP 1: XSECUP = 481.594 +- 2.94441 pb", "the process"),
          ("cross section from the weights: 481.594 +- 0 pb", "sigma"),
          ("status codes: -1: 200, 1: 400, 2: 200", "status codes"),
          ("largest event: 8 particles", "the largest event"),
          ("shower: no, the built-in shower cannot shower 100 of the 100 events; the first: "
           "line 529: particle 3 is a top quark (PDG 6, status 2) of mass 173.151 GeV: the "
           "built-in shower has massless quarks and gluons only", "cannot shower: top quarks")]
if rc != 0 or err:
    bad("lhe-check of the MadGraph file: exit %d, %s" % (rc, err))
for want, what in checks:
    if want in report:
        ok("lhe-check of the MadGraph file: " + what)
    else:
        bad("lhe-check of the MadGraph file: %s: '%s' not in the report" % (what, want))

same = {
    "gzipped": run([gaps, "lhe-check", "ttbar.lhe.gz"]),
    "on standard input": run([gaps, "lhe-check", "-"], stdin=text),
    "gzipped on standard input": run([gaps, "lhe-check", "-"], stdin=gz),
    "through a FIFO": via_fifo([gaps, "lhe-check"], text),
    "gzipped through a FIFO, in pieces of 997 bytes": via_fifo([gaps, "lhe-check"], gz, 997),
    "through a FIFO, in pieces of 4096 bytes": via_fifo([gaps, "lhe-check"], text, 4096),
}
for what, (rc2, rep2, err2) in same.items():
    if rc2 == 0 and not err2 and without_file(rep2) == without_file(report):
        ok("the same report %s" % what)
    else:
        bad("the report %s differs: exit %d, %s\n%s" % (what, rc2, err2, rep2))
if "(gzip-compressed)" in same["gzipped"][1].split("\n")[0]:
    ok("gzip recognised by its content")
else:
    bad("the gzipped file is not reported as gzip-compressed")
shutil.copy("ttbar.lhe.gz", "ttbar-gzipped.lhe")
rc2, rep2, _ = run([gaps, "lhe-check", "ttbar-gzipped.lhe"])
if rc2 == 0 and without_file(rep2) == without_file(report) and "gzip" in rep2.split("\n")[0]:
    ok("a gzipped file named .lhe is read as gzip (by its first bytes, not its name)")
else:
    bad("a gzipped file named .lhe: exit %d" % rc2)

# ---- 2. small files -----------------------------------------------------------------------

E = 100.0
OUT = [(60.0, 0.0, 80.0, 100.0), (-60.0, 0.0, -80.0, 100.0)]


def part(pid, status, mothers, colours, p, mass=0.0):
    return (pid, status, mothers, colours, p, mass)


def incoming(id1, c1, id2, c2):
    return [part(id1, -1, (0, 0), c1, (0.0, 0.0, E, E)),
            part(id2, -1, (0, 0), c2, (0.0, 0.0, -E, E))]


def fmt_particle(p):
    pid, status, (m1, m2), (c1, c2), mom, mass = p
    return " %8d %2d %4d %4d %4d %4d %s %.10e 0.0000e+00 9.0000e+00" % (
        pid, status, m1, m2, c1, c2, " ".join("%+.10e" % v for v in mom), mass)


def event(parts, weight=10.0, idprup=1, extra=()):
    lines = ["<event>", " %d %d %+.7e 9.1188000e+01 7.5467711e-03 1.1800000e-01"
             % (len(parts), idprup, weight)]
    lines += [fmt_particle(p) for p in parts]
    return lines + list(extra) + ["</event>"]


def lhe(events, version="3.0", header=None, init_extra=(), beams=(2212, 2212, E, E),
        idwtup=-4, procs=((20.0, 0.5, 30.0, 1),), pdf=(0, 0, 247000, 247000), tail=()):
    lines = ['<LesHouchesEvents version="%s">' % version]
    if header is not None:
        lines += ["<header>"] + list(header) + ["</header>"]
    lines += ["<init>", "%d %d %.10e %.10e %d %d %d %d %d %d"
              % (beams + pdf + (idwtup, len(procs)))]
    lines += ["%.10e %.10e %.10e %d" % p for p in procs]
    lines += list(init_extra) + ["</init>"]
    for ev in events:
        lines += ev
    return "\n".join(lines + ["</LesHouchesEvents>"] + list(tail)) + "\n"


def zdecay(q, qbar, status=2, products=(11, -11)):
    """q qbar -> Z (status) -> products."""
    c = (501, 0) if q > 0 else (0, 501)
    cb = (0, 501) if q > 0 else (501, 0)
    prods = [part(products[0], 1, (3, 3), (0, 0), OUT[0]),
             part(products[1], 1, (3, 3), (0, 0), OUT[1])]
    if products[0] in range(1, 7):   # coloured decay products share a tag
        prods = [part(products[0], 1, (3, 3), (502, 0), OUT[0]),
                 part(products[1], 1, (3, 3), (0, 502), OUT[1])]
    return incoming(q, c, qbar, cb) + [part(23, status, (1, 2), (0, 0), (0.0, 0.0, 0.0, 2 * E),
                                            2 * E)] + prods


GG_GG = incoming(21, (501, 502), 21, (503, 501)) + [
    part(21, 1, (1, 2), (503, 504), OUT[0]), part(21, 1, (1, 2), (504, 502), OUT[1])]
QG_QG = incoming(2, (501, 0), 21, (502, 501)) + [
    part(2, 1, (1, 2), (503, 0), OUT[0]), part(21, 1, (1, 2), (502, 503), OUT[1])]
QQ_QQ = incoming(2, (501, 0), -2, (0, 502)) + [
    part(1, 1, (1, 2), (501, 0), OUT[0]), part(-1, 1, (1, 2), (0, 502), OUT[1])]
# colour through a resonance: g g -> t t~, t -> b W+, t~ -> b~ W- (t and W at rest, massless
# b for the checks' sake: colour and momentum only)
TT = incoming(21, (501, 502), 21, (503, 501)) + [
    part(6, 2, (1, 2), (503, 0), (60.0, 0.0, 80.0, 100.0), 0.0),
    part(-6, 2, (1, 2), (0, 502), (-60.0, 0.0, -80.0, 100.0), 0.0),
    part(5, 1, (3, 3), (503, 0), (30.0, 0.0, 40.0, 50.0), 4.7),
    part(24, 1, (3, 3), (0, 0), (30.0, 0.0, 40.0, 50.0)),
    part(-5, 1, (4, 4), (0, 502), (-30.0, 0.0, -40.0, 50.0), 4.7),
    part(-24, 1, (4, 4), (0, 0), (-30.0, 0.0, -40.0, 50.0))]
C, S = -0.5, 0.8660254037844386
EPS = incoming(2, (501, 0), -2, (0, 501)) + [
    part(2, 1, (1, 2), (502, 0), (2 * E / 3, 0.0, 0.0, 2 * E / 3)),
    part(1, 1, (1, 2), (502, 0), (2 * E / 3 * C, 2 * E / 3 * S, 0.0, 2 * E / 3)),
    part(3, 1, (1, 2), (502, 0), (2 * E / 3 * C, -2 * E / 3 * S, 0.0, 2 * E / 3))]
# DIS-like: e- u -> e- u through a space-like photon (status -2)
DIS = incoming(11, (0, 0), 2, (501, 0)) + [
    part(22, -2, (1, 1), (0, 0), (60.0, 0.0, 180.0, 0.0)),
    part(11, 1, (1, 1), (0, 0), OUT[0]), part(2, 1, (2, 2), (501, 0), OUT[1])]
# the beams in the record (status -9)
BEAMS9 = [part(2212, -9, (0, 0), (0, 0), (0.0, 0.0, E, E)),
          part(2212, -9, (0, 0), (0, 0), (0.0, 0.0, -E, E)),
          part(2, -1, (1, 1), (501, 0), (0.0, 0.0, E, E)),
          part(-2, -1, (2, 2), (0, 501), (0.0, 0.0, -E, E)),
          part(11, 1, (3, 4), (0, 0), OUT[0]), part(-11, 1, (3, 4), (0, 0), OUT[1])]

INITRWGT = ["<initrwgt>", '<weightgroup name="scale" combine="envelope">',
            '<weight id="a" MUR="0.5"> mur=0.5 </weight>',
            '<weight id="b" MUR="2.0"> mur=2 </weight>', "</weightgroup> # free text",
            "<weight id='c'/>", "</initrwgt>"]


def rwgt(values, ids=("a", "b", "c")):
    return ["<rwgt>"] + ["<wgt id='%s'> %+.7e </wgt>" % kv for kv in zip(ids, values)] + \
        ["</rwgt>"]


valid = [
    ("q qbar -> Z -> e+ e-, LHEF 1.0 without weights or header, IDWTUP 3",
     lhe([event(zdecay(2, -2), weight=20.0), event(zdecay(-1, 1), weight=20.0)],
         version="1.0", idwtup=3),
     ["events: 2\n", "weights per event: 1 (XWGTUP only)", "status codes: -1: 4, 1: 4, 2: 2",
      "cross section from the weights: 20 +- 0 pb", "shower: yes"], 0),
    ("g g -> g g, q g -> q g, q qbar -> q' qbar' (s-channel colour)",
     lhe([event(GG_GG), event(QG_QG), event(QQ_QQ)]), ["events: 3\n", "shower: yes"], 0),
    ("status 3: q qbar -> Z (3) -> e+ e-; a <generator> in the header",
     lhe([event(zdecay(2, -2, status=3))],
         header=["<!-- <init> in a comment -->", "<generator name='POWHEG-BOX' version='V2'>",
                 "text with < and > </generator>", "<![CDATA[ <event> ]]>", "a < b"]),
     ["status codes: -1: 2, 1: 2, 3: 1", "shower: yes", "generator: POWHEG-BOX V2"], 0),
    ("a colourless resonance decaying into quarks: W+ -> c s~ (a colour singlet: showered)",
     lhe([event(zdecay(2, -2, products=(4, -3)))]), ["shower: yes"], 0),
    ("colour through resonances: g g -> t t~ -> b W+ b~ W-", lhe([event(TT)]),
     ["shower: no", "particle 3 is a top quark (PDG 6, status 2)"], 5),
    ("an epsilon tensor: u u~ -> u d s with one colour tag", lhe([event(EPS)]),
     ["shower: no", "colour tag 502 joins three partons"], 6),
    ("status -2: e- u -> e- u through a space-like photon",
     lhe([event(DIS)], beams=(11, 2212, E, E)),
     ["status codes: -2: 1, -1: 2, 1: 2", "shower: no", "the beams are PDG 11 and 2212"], 2),
    ("status -9: the beams in the record", lhe([event(BEAMS9)]),
     ["status codes: -9: 2, -1: 2, 1: 2", "shower: no",
      "particle 1 has status -9 (a beam in the event)"], 3),
    ("a massive b quark", lhe([event(incoming(21, (501, 502), 21, (502, 501))
                                     + [part(5, 1, (1, 2), (503, 0), OUT[0], 4.7),
                                        part(-5, 1, (1, 2), (0, 503), OUT[1], 4.7)])]),
     ["shower: no", "particle 3 is a bottom quark (PDG 5, status 1) of mass 4.7 GeV"], 5),
    ("<rwgt> declared in <initrwgt>, two events, the second in another order",
     lhe([event(GG_GG, extra=rwgt((1, 2, 3))),
          event(QG_QG, extra=rwgt((6, 4, 5), ids=("c", "a", "b")))], header=INITRWGT),
     ["weights per event: 3 besides XWGTUP (<rwgt>, named in <initrwgt>)",
      "  scale (2): a b\n", "  (no group) (1): c\n"], 0),
    ("<rwgt> without declaration: the first event names the weights",
     lhe([event(GG_GG, extra=rwgt((1, 2))), event(GG_GG, extra=rwgt((1, 2)))]),
     ["weights per event: 2 besides XWGTUP (<rwgt>, named by the first event's <wgt id=...>)",
      "  ids (2): a b"], 0),
    ("LHEF 3.0 <weights> named by <weightinfo>, other tags, comments and an <eventgroup>",
     lhe([["<!-- a comment\n between events -->", "<eventgroup nreal=\"2\">"],
          event(GG_GG, extra=["<weights> 1.0 2.5", " 3e0 </weights>", "# a comment line",
                              "<scales muf=\"91.2\" mur=\"91.2\"/>",
                              "<mgrwt>", "<rscale> 2 0.91E+02</rscale>", "</mgrwt>",
                              "<clustering><clus> 1 2 </clus></clustering>"]),
          event(GG_GG, extra=["<weights>4 5 6</weights>"]), ["</eventgroup>"]],
         init_extra=['<generator name="hand" version="1">made by hand</generator>',
                     "<weightgroup name='g'>", "<weightinfo name=\"w1\"/>",
                     "<weightinfo name=\"w2\" mur=\"2\"/>", "</weightgroup>",
                     "<weightinfo name='w3'></weightinfo>", "# comment in init",
                     "<xsecinfo neve='2' totxsec='20'/>"],
         tail=["<!-- after the end -->", ""]),
     ["weights per event: 3 besides XWGTUP (<weights>, named by <weightinfo>)",
      "  g (2): w1 w2\n", "  (no group) (1): w3\n", "generator: hand 1\n"], 0),
    ("<weights> without names, negative weights, IDWTUP -3",
     lhe([event(GG_GG, weight=-20.0, extra=["<weights>1 2</weights>"]),
          event(GG_GG, weight=20.0, extra=["<weights>1 2</weights>"])], idwtup=-3),
     ["weights per event: 2 besides XWGTUP (<weights>, unnamed)", "1 negative",
      "cross section from the weights: 0 +- 20 pb"], 0),
    ("two processes", lhe([event(GG_GG, idprup=7), event(QG_QG, idprup=1)],
                          procs=((20.0, 0.5, 30.0, 1), (5.0, 0.25, 8.0, 7))),
     ["LPRUP 1: XSECUP = 20 +- 0.5 pb, XMAXUP = 30; 1 events",
      "LPRUP 7: XSECUP = 5 +- 0.25 pb, XMAXUP = 8; 1 events"], 0),
    ("momentum imbalance within the tolerance (1e-6 of the incoming energy): 1.5e-4 of 200 GeV",
     lhe([event(incoming(21, (501, 502), 21, (503, 501)) + [
         part(21, 1, (1, 2), (503, 504), (60.00015, 0.0, 80.0, 100.0)),
         part(21, 1, (1, 2), (504, 502), OUT[1])])]), ["events: 1\n"], 0),
    ("an e+ e- collision, no events", lhe([], beams=(-11, 11, 45.6, 45.6)),
     ["events: 0\n", "sqrt(s) = 91.2 GeV", "cross section from the weights: none"], 0),
]

for name, content, words, _ in valid:
    fname = "valid.lhe"
    open(fname, "w").write(content)
    rc, out, err = run([gaps, "lhe-check", fname])
    missing = [w for w in words if w not in out]
    if rc == 0 and not err and not missing:
        ok("valid: " + name)
    else:
        bad("valid: %s: exit %d, %s; missing %s in\n%s" % (name, rc, err.strip(), missing, out))

# a file with CRLF line ends, Fortran exponents (1.0D+02) and tabs; and concatenated gzip
crlf = lhe([event(GG_GG)]).replace("e+02", "D+02").replace(" ", "\t", 3).replace("\n", "\r\n")
open("crlf.lhe", "w", newline="").write(crlf)
rc, out, err = run([gaps, "lhe-check", "crlf.lhe"])
(ok if rc == 0 and "events: 1\n" in out else bad)("CRLF line ends, tabs, Fortran exponents "
                                                  "(exit %d %s)" % (rc, err.strip()))
two = lhe([event(GG_GG), event(QG_QG)]).encode()
cut = two.index(b"<event>")
open("members.lhe.gz", "wb").write(gzip.compress(two[:cut]) + gzip.compress(two[cut:]))
rc, out, err = run([gaps, "lhe-check", "members.lhe.gz"])
(ok if rc == 0 and "events: 2\n" in out else bad)("two concatenated gzip members (exit %d %s)"
                                                  % (rc, err.strip()))

# the API's view of the undeclared, reordered weights: aligned by id
content = lhe([event(GG_GG, extra=rwgt((1, 2, 3))),
               event(QG_QG, extra=rwgt((6, 4, 5), ids=("c", "a", "b")))])
open("order.lhe", "w").write(content)
rc, out, _ = run([dump, "order.lhe"])
w = [l for l in out.split("\n") if l.startswith("W ")]
(ok if w == ["W 0 1", "W 1 2", "W 2 3", "W 0 4", "W 1 5", "W 2 6"] else bad)(
    "weights of events that give their ids in another order are stored by id (%s)" % w)
for name, content, words, refusal in valid:
    open("valid.lhe", "w").write(content)
    rc, out, _ = run([dump, "valid.lhe"])
    got = sorted({int(l.split()[1]) for l in out.split("\n") if l.startswith("S ")})
    if got and got != [refusal]:
        bad("gaps_lhe_showerable of '%s': %s, expected %d" % (name, got, refusal))

# ---- 3. errors ------------------------------------------------------------------------------

base = lhe([event(GG_GG), event(QG_QG)])
baselines = base.split("\n")


def line_of(text, needle, nth=1):
    """The 1-based number of the nth line of text that contains needle."""
    seen = 0
    for k, l in enumerate(text.split("\n")):
        if needle in l:
            seen += 1
            if seen == nth:
                return k + 1
    raise ValueError(needle)


def swap(text, old, new, nth=1):
    """text with the nth occurrence of old replaced by new."""
    at = -1
    for _ in range(nth):
        at = text.index(old, at + 1)
    return text[:at] + new + text[at + len(old):]


def particle_line(text, event_no, k):
    """Line of particle k (1-based) of event event_no (1-based)."""
    return line_of(text, "<event>", event_no) + 1 + k


P3 = fmt_particle(GG_GG[2])
errors = []   # (name, content bytes or str, line or None, words)


def err_case(name, content, line, *words):
    errors.append((name, content, line, words))


def one(parts, **kw):
    """A file of one event: its particle k (1-based) is on line 7 + k, its first line on 7."""
    return lhe([event(parts, **kw)])


def edited(parts, k, **change):
    """parts with particle k (1-based) changed: pid, status, mothers, colours, p, mass."""
    fields = ["pid", "status", "mothers", "colours", "p", "mass"]
    q = list(parts[k - 1])
    for key, v in change.items():
        q[fields.index(key)] = v
    return parts[:k - 1] + [tuple(q)] + parts[k:]


# structure
err_case("not an event file", "hello world\n", 1, "not a Les Houches Event file")
err_case("an empty file", "", 1, "the file is empty")
err_case("LHEF version 4.0", base.replace('version="3.0"', 'version="4.0"'), 1,
         'LHEF version "4.0" is not read')
err_case("no version", base.replace(' version="3.0"', ""), 1, "without version")
err_case("<event> before <init>", '<LesHouchesEvents version="3.0">\n' +
         "\n".join(event(GG_GG)) + "\n</LesHouchesEvents>\n", 2,
         "expected <header> or <init>, found <event>")
err_case("</init> missing", base.replace("</init>\n", ""), line_of(base, "<event>") - 1,
         "<init> (line 2) is not closed: <event> comes before its </init>")
ev2 = line_of(base, "<event>", 2)
err_case("</event> missing", swap(base, "</event>\n", ""), ev2 - 1,
         "<event> (line 6) is not closed: <event> comes before its </event>")
err_case("</header> missing", base.replace("<init>", "<header>\n<init>"), 3,
         "<header> (line 2) is not closed: <init> comes before its </header>")
err_case("<eventgroup> not closed", swap(base, "<event>", "<eventgroup>\n<event>", 1),
         len(baselines), "<eventgroup> (line 6) is not closed before </LesHouchesEvents>")
err_case("text after </LesHouchesEvents> (two files joined)", base + base, len(baselines),
         "text after </LesHouchesEvents>")
err_case("no </LesHouchesEvents> (truncated after an event)",
         base.replace("</LesHouchesEvents>\n", ""), len(baselines) - 2,
         "the file ends after 2 events without </LesHouchesEvents>: it is truncated")
err_case("truncated inside a particle line", base[:base.index(P3) + 20], 10,
         "particle 3 has 3 numbers, 13 expected",
         "the file ends in this line, without a newline: truncated?")
err_case("truncated after a particle line", base[:base.index(P3) + len(P3) + 1], 10,
         "the file ends inside <event> opened at line 6: it is truncated")
err_case("a NUL byte", swap(base, "<event>", "<event>\0", 2), ev2, "a NUL byte")
err_case("a line of 2 MiB", base.replace("<init>", "<header>\n" + "x" * (2 << 20) +
                                         "\n</header>\n<init>"), 3,
         "a line longer than 1048576 bytes")
# compression
gzbase = gzip.compress(base.encode())
err_case("truncated gzip data", gzbase[:len(gzbase) // 2], None,
         "the gzip data end in the middle of the compressed stream: a truncated file")
err_case("gzip without its last 4 bytes", gzbase[:-4], None, "truncated file")
bad_gz = bytearray(gzbase)
bad_gz[len(bad_gz) // 2] ^= 0x55
err_case("corrupt gzip data", bytes(bad_gz), None, "gzip")
err_case("junk after the gzip data", gzbase + b"junk", None, "after the end of the gzip data")
err_case("xz data", b"\xfd7zXZ\x00rest", 1, "compressed with xz")
# <init>
err_case("the first line of <init> with 9 numbers", base.replace(" 247000 -4 1", " -4 1"), 3,
         "has 9 numbers, 10 expected")
err_case("IDWTUP 1", base.replace(" 247000 -4 1", " 247000 1 1"), 3, "IDWTUP = 1 is not read")
err_case("IDWTUP -2", base.replace(" 247000 -4 1", " 247000 -2 1"), 3, "IDWTUP = -2 is not read")
err_case("NPRUP 2 with one process line", base.replace(" 247000 -4 1", " 247000 -4 2"), 5,
         "<init> has 1 process lines, NPRUP = 2")
err_case("NPRUP 1 with two process lines", base.replace("</init>", "1 1 1 2\n</init>"), 5,
         "more process lines in <init> than NPRUP = 1")
err_case("an unknown beam", base.replace("2212 2212", "2212 99"), 3,
         "IDBMUP(2) = 99 is not a beam particle")
err_case("a beam energy of 0", base.replace("2212 2212 1.0000000000e+02", "2212 2212 0"), 3,
         "EBMUP(1) = 0 GeV")
err_case("XERRUP negative", base.replace("5.0000000000e-01", "-5.0e-01"), 4,
         "XERRUP = -0.5 is negative")
# an event's lines
err_case("NUP 5 with 4 particle lines", swap(base, " 4 1 +1.0", " 5 1 +1.0", 2), ev2 + 6,
         "has 4 particle lines, NUP = 5")
err_case("NUP 3 with 4 particle lines", swap(base, " 4 1 +1.0", " 3 1 +1.0", 2), ev2 + 5,
         "more particle lines than NUP = 3")
err_case("NUP 0", swap(base, " 4 1 +1.0", " 0 1 +1.0", 2), ev2 + 1, "NUP = 0")
err_case("NUP 513", swap(base, " 4 1 +1.0", " 513 1 +1.0", 2), ev2 + 1,
         "NUP = 513: more particles than this reader takes (512)")
err_case("a particle's px not a number", swap(base, "+6.0000000000e+01", "abc", 2), ev2 + 4,
         "particle 3: PUP(1) = 'abc' is not a number")
err_case("nan", swap(base, "+6.0000000000e+01", "nan", 1), 10, "PUP(1) = 'nan' is not a number")
err_case("-inf", swap(base, "+8.0000000000e+01", "-inf", 1), 10,
         "PUP(3) = '-inf' is not a number")
err_case("1e999", swap(base, "+8.0000000000e+01", "1e999", 1), 10,
         "PUP(3) = '1e999' is not finite")
err_case("an integer field with a fraction", swap(base, "21 -1", "21.0 -1", 1), 8,
         "particle 1: IDUP = '21.0' is not an integer")
err_case("trailing text on a particle line", swap(base, "9.0000e+00\n", "9.0000e+00 x\n", 3), 10,
         "particle 3: text after its 13 numbers: 'x'")
err_case("trailing text on the event's first line", swap(base, "1.1800000e-01", "1.18e-01 7", 1),
         7, "text after its 6 numbers")
err_case("text in an event", swap(base, "</event>", "hello\n</event>", 1), 12,
         "text in <event> outside any tag: 'hello'")
err_case("an element not closed before </event>",
         swap(base, "</event>", "<mgrwt>\n<rscale> 1 </rscale>\n</event>", 2), ev2 + 8,
         "<mgrwt> (line %d) is not closed: </event> comes before its </mgrwt>" % (ev2 + 6))
err_case("a closing tag without its opening", swap(base, "</event>", "</mgrwt>\n</event>", 1),
         12, "</mgrwt> without its <mgrwt>")
err_case("a tag without '>'", swap(base, "</event>", "<scales a='1'\n</event>", 1), 12,
         "does not end with '>' on its line")
err_case("an attribute without quotes", swap(base, "</event>", "<scales a=1/>\n</event>", 1),
         12, "has no quoted value")
# the particles
err_case("an unknown status", one(edited(GG_GG, 3, status=5)), 10,
         "particle 3: ISTUP = 5 is not a status of the accord")
err_case("IDUP 0", one(edited(GG_GG, 4, pid=0, colours=(0, 0))), 11, "particle 4: IDUP = 0")
err_case("a mother beyond the event", one(edited(GG_GG, 3, mothers=(1, 9))), 10,
         "particle 3: MOTHUP(2) = 9 is outside the event's particles 1..4")
err_case("a final-state mother", one(edited(GG_GG, 4, mothers=(3, 3))), 11,
         "particle 4: its mother 3 is a final-state particle")
err_case("an incoming particle with a mother", one(edited(GG_GG, 2, mothers=(1, 1))), 9,
         "particle 2 is incoming (status -1) but has mother 1")
err_case("its own mother", one(edited(GG_GG, 3, mothers=(3, 3))), 10,
         "particle 3 is its own mother")
err_case("IDPRUP not declared", swap(base, " 4 1 +1.0", " 4 7 +1.0", 2), ev2 + 1,
         "IDPRUP = 7 is none of the processes of <init> (LPRUP 1)")
err_case("a negative weight with IDWTUP +4",
         swap(base.replace(" 247000 -4 1", " 247000 4 1"), " 4 1 +1.0", " 4 1 -1.0", 2), ev2 + 1,
         "negative weight XWGTUP = -10 with IDWTUP = 4")
photon = part(22, -1, (0, 0), (0, 0), (0.0, 0.0, 0.0, 0.0))
err_case("three incoming particles", one(zdecay(2, -2)[:2] + [photon] + [
    part(11, 1, (1, 2), (0, 0), OUT[0]), part(-11, 1, (1, 2), (0, 0), OUT[1])]), 7,
    "the event has 3 incoming particles (status -1)")
err_case("no final-state particle", one(zdecay(2, -2)[:2] + [
    part(23, -2, (1, 2), (0, 0), (0.0, 0.0, 0.0, 2 * E), 2 * E)]), 7, "no final-state particle")
# colour
err_case("a colour line without its other end", one(edited(GG_GG, 4, colours=(505, 502))), 10,
         "colour tag 504 appears on particle 3 only: a colour line without its other end")
err_case("a colour tag that is the outgoing anticolour of two partons",
         one(edited(edited(QQ_QQ, 3, colours=(502, 0)), 4, colours=(0, 501))), 8,
         "colour tag 501 is an outgoing anticolour of both particles 1 and 4")
err_case("a colour tag on three partons, not all of one sense", one(edited(GG_GG, 3, colours=(502, 504))), 8,
         "colour tag 502 appears 3 times")
err_case("colour on an electron", one(edited(GG_GG, 4, pid=11)), 11,
         "particle 4: PDG 11 has colour tags 504 502, but only quarks (1 to 6) and gluons (21)")
err_case("colour on a gluino (PDG 1000021)", one(edited(GG_GG, 4, pid=1000021)), 11,
         "PDG 1000021 has colour tags")
err_case("a quark without colour", one(edited(QG_QG, 1, colours=(0, 0))), 8,
         "particle 1: a quark (PDG 2) has colour tags 0 0")
err_case("an antiquark with a colour", one(edited(QQ_QQ, 4, colours=(502, 0))), 11,
         "particle 4: an antiquark (PDG -1) has colour tags 502 0")
err_case("a gluon with one tag twice", one(edited(GG_GG, 3, colours=(504, 504))), 10,
         "particle 3: a gluon has colour tags 504 504")
err_case("a negative colour tag (sextet)", one(edited(GG_GG, 3, colours=(-503, 504))), 10,
         "negative colour tag -503")
tt_noproducts = one(TT[:4] + [part(21, 1, (1, 2), (503, 502), (0.0, 0.0, 0.0, 200.0))])
err_case("a resonance without decay products", tt_noproducts, 10,
         "particle 3 (PDG 6) has status 2 (an intermediate resonance) but no particle has it")
tt_wrong = one(edited(edited(TT, 5, mothers=(4, 4)), 7, mothers=(3, 3)))
err_case("colour that does not flow through a resonance", tt_wrong, 10,
         "colour does not flow through particle 3 (PDG 6, colour tags 503 0)")
# momentum: 0.03 GeV of 200 GeV, beyond 1e-6 (within: see the valid files)
err_case("momentum not conserved", one(edited(GG_GG, 3, p=(60.03, 0.0, 80.0, 100.0))), 7,
         "momentum is not conserved", "beyond 1e-06 of the incoming energy 200 GeV")
# weights
decl = lhe([event(GG_GG, extra=rwgt((1, 2, 3))), event(GG_GG, extra=rwgt((1, 2, 3)))],
           header=INITRWGT)
wl = line_of(decl, "<wgt id='b'>", 2)
err_case("a weight id not declared", swap(decl, "<wgt id='b'>", "<wgt id='x'>", 2), wl,
         "weight id 'x' is not declared in the header's <initrwgt>")
err_case("a weight id twice", swap(decl, "<wgt id='b'>", "<wgt id='a'>", 2), wl,
         "weight id 'a' twice in one event")
err_case("a weight missing", swap(decl, "<wgt id='b'> +2.0000000e+00 </wgt>\n", "", 2),
         line_of(decl, "<rwgt>", 2),
         "has 2 of the 3 weights: 'b' is missing")
err_case("a weight not a number", swap(decl, "+2.0000000e+00", "two", 2), wl,
         "weight 'b' = 'two' is not a number")
err_case("two numbers in a <wgt>", swap(decl, "+2.0000000e+00", "2 3", 2), wl,
         "holds more than one number")
err_case("declared weights missing from the first event",
         swap(decl, "\n".join(rwgt((1, 2, 3))) + "\n", "", 1), line_of(decl, "<event>"),
         "the event has no weights, the file declares 3 (<initrwgt>)")
err_case("a weight declared twice", decl.replace("<weight id='c'/>", "<weight id='a'/>"),
         line_of(decl, "<weight id='c'/>"), "weight id 'a' declared twice")
err_case("<initrwgt> not closed", decl.replace("</initrwgt>", ""), line_of(decl, "</header>"),
         "<initrwgt> (line 3) is not closed: </header> comes before its </initrwgt>")
many = one(GG_GG, extra=["<weights>" + " 1" * 257 + "</weights>"])
err_case("257 weights", many, 12, "more than 256 weights in <weights>: this reader keeps at most")
two_ids = lhe([event(GG_GG, extra=rwgt((1, 2))), event(GG_GG, extra=rwgt((1, 2), ids=("a", "z")))])
err_case("undeclared weights changing between events", two_ids, line_of(two_ids, "<wgt id='z'>"),
         "weight id 'z' is not among the first event's weights")
err_case("an event without the earlier events' weights",
         lhe([event(GG_GG, extra=["<weights>1</weights>"]), event(GG_GG)]), 14,
         "this event has no extra weights, the earlier ones had <weights>")

for name, content, line, words in errors:
    data_bytes = content.encode() if isinstance(content, str) else content
    open("bad.lhe", "wb").write(data_bytes)
    rc, out, err = run([gaps, "lhe-check", "bad.lhe"])
    lines = err.split("\n")
    prefix = "gaps: bad.lhe:%d: " % line if line else "gaps: bad.lhe:"
    problems = []
    if rc != 2:
        problems.append("exit %d" % rc)
    if len(lines) != 2 or lines[1] != "":
        problems.append("%d lines on standard error" % (len(lines) - 1))
    if not err.startswith(prefix):
        problems.append("not '%s...'" % prefix)
    problems += ["lacks '%s'" % w for w in words if w not in err]
    if out:
        problems.append("wrote to standard output")
    if problems:
        bad("error: %s: %s: %s" % (name, ", ".join(problems), err.strip()[:400]))
    else:
        ok("error: %s: %s" % (name, err.strip()[:160]))

# inputs that are no files
for name, args, stdin, words in [
        ("a directory", [gaps, "lhe-check", work], None, ["is a directory"]),
        ("a missing file", [gaps, "lhe-check", "missing.lhe"], None, ["missing.lhe: cannot open"]),
        ("a character device", [gaps, "lhe-check", "/dev/zero"], None, ["a character device"]),
        ("empty standard input", [gaps, "lhe-check", "-"], b"", ["standard input:1: the file is empty"]),
        ("a directory as standard input", None, None, ["standard input:1: read error"])]:
    if args is None:
        fd = os.open(work, os.O_RDONLY)
        p = subprocess.run([gaps, "lhe-check", "-"], stdin=fd, capture_output=True,
                           timeout=TIMEOUT, env=env)
        os.close(fd)
        rc, out, err = p.returncode, p.stdout.decode(), p.stderr.decode()
    else:
        rc, out, err = run(args, stdin)
    if rc == 2 and err.count("\n") == 1 and all(w in err for w in words):
        ok("refused: %s: %s" % (name, err.strip()))
    else:
        bad("%s: exit %d, %s" % (name, rc, err.strip()))

# ---- 4. the command line --------------------------------------------------------------------

open("valid.lhe", "w").write(base)
for name, args, want_rc, want_out, want_err in [
        ("--quiet", ["--quiet", "valid.lhe"], 0, "", ""),
        ("-q after FILE", ["valid.lhe", "-q"], 0, "", ""),
        ("--help", ["--help"], 0, "usage: gaps lhe-check", ""),
        ("no FILE", [], 2, "", "FILE is required"),
        ("two files", ["valid.lhe", "valid.lhe"], 2, "", "one FILE only"),
        ("an unknown option", ["--frobnicate", "valid.lhe"], 2, "", "unknown option '--frobnicate'"),
        ("-- before a FILE that starts with -", ["--", "-"], 0, "events: 2", "")]:
    rc, out, err = run([gaps, "lhe-check"] + args, stdin=base.encode())
    if rc == want_rc and (want_out in out if want_out else out == "") and \
            (want_err in err if want_err else err == ""):
        ok("command line: %s" % name)
    else:
        bad("command line: %s: exit %d, out %r, err %r" % (name, rc, out[:200], err[:200]))
rc, out, _ = run([gaps, "--help"])
(ok if "gaps lhe-check" in out else bad)("gaps --help names gaps lhe-check")

print("%s: %d failures" % ("FAIL" if failures else "PASS", failures))
sys.exit(1 if failures else 0)
