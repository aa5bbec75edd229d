#!/usr/bin/env python3
"""--vary pdf: the members of a PDF set as event weights (doc/physics.md 17.10).

Usage: test_vary_pdf.py GAPS WORKDIR PDFSETS_DIR

The set is made here from CT14lo (tests/make_pdf_members.py): members 1 and 2 scale every
density by 1.02 and 0.98, members 3 and 4 move the gluon against the quarks and small x
against large x by up to 25 %.
  1. Exact ratios: with members 1 and 2 every event's weight is the nominal one times
     1.02^2 and 0.98^2 (the Born's two densities; the initial-state shower's density ratios
     are unchanged by a uniform factor), at LO and NLO, to 1e-6 (the set's 10 digits): from the
     CSV columns weight[PDF=90001] and weight[PDF=90002], every event.
  2. Against independent runs: the reweighted histograms of PDF=90003 and PDF=90004 of one
     --vary pdf run against runs with --pdf TSET/3 and TSET/4 (other seeds), pp-z at LO and
     NLO: per histogram the chi2 probability must exceed 1e-3 (as test_vary_bands.py), the
     cross sections within 4 standard deviations; the control (the nominal histograms
     against the same runs, all histograms together) must fail (probability below 1e-6).
  3. The band: the JSON's pdf_uncertainty against this script's own sums over the JSON's
     member cross sections, for ErrorType hessian, symmhessian (also at ErrorConfLevel 90:
     divided by 1.6448536) and replicas; an unknown ErrorType gives members but no band.
  4. Split and merged: two halves with --state-out merged give the one run's YODA file and
     its JSON variations and pdf_uncertainty; a merge with a state made with another member
     grid is refused.
  5. Refusals (exit 2, one line): ee-qq (no parton densities), a one-member set (CT14lo),
     --pdf TSET/1 (the variations are around member 0), a --lhe file (its weights are its
     own).
Standard library only.
"""
import json
import math
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_yoda import parse_yoda  # noqa: E402
from test_vary_bands import chi2_of, chi2_sf, xsec_of  # noqa: E402

gaps = os.path.abspath(sys.argv[1])
work = os.path.abspath(sys.argv[2])
ct14 = os.path.abspath(sys.argv[3])
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
os.chdir(work)
here = os.path.dirname(os.path.abspath(__file__))
sets = os.path.join(work, "sets")
subprocess.run([sys.executable, os.path.join(here, "make_pdf_members.py"),
                os.path.join(ct14, "CT14lo"), "TSET", sets], check=True)
env = dict(os.environ, LC_ALL="C")
TIMEOUT = 300
extra = []
if "offload backend" in subprocess.run([gaps, "--version"], capture_output=True, text=True,
                                       timeout=TIMEOUT).stdout:
    extra = ["--allow-host"]
P_MIN, P_POWER, XSEC_PULL = 1e-3, 1e-6, 4.0
failures = 0


def check(ok, what, detail=""):
    global failures
    if ok:
        print("ok: " + what)
    else:
        failures += 1
        print("FAIL: " + what + (" (" + detail + ")" if detail else ""))


def run(args, pdf_path=sets):
    cmd = [gaps] + args
    if args[0] != "merge":
        cmd += extra + ["--quiet"] + (["--pdf-path", pdf_path] if pdf_path else [])
    return subprocess.run(cmd, capture_output=True, env=env, timeout=TIMEOUT)


def must(args, what, pdf_path=sets):
    p = run(args, pdf_path)
    check(p.returncode == 0, what, p.stderr.decode("utf-8", "replace").strip())
    return p


def refused(p, word):
    lines = p.stderr.decode("utf-8", "replace").strip("\n").split("\n")
    return (p.returncode == 2 and len(lines) == 1 and word in lines[0],
            "exit %d, %r" % (p.returncode, lines))


def csv_rows(path):
    with open(path) as f:
        header = f.readline().lstrip("# ").strip().split(",")
        return header, [[float(x) for x in line.split(",")] for line in f if line.strip()]


# ---- 1 and 2: exact ratios, and against independent runs, LO and NLO ----
CASES = [("lo", [], 30000), ("nlo", ["--nlo", "1"], 20000)]
for order, opts, n in CASES:
    base = ["--process", "pp-z", "--events", str(n)] + opts
    va = "vary-%s" % order
    must(base + ["--pdf", "TSET", "--vary", "pdf", "--seed", "1", "-o", va + ".yoda",
                 "--json", va + ".json", "--observables-out", va + ".csv"],
         "pp-z %s --vary pdf" % order)
    header, rows = csv_rows(va + ".csv")
    iw = header.index("weight")
    for name, want in (("PDF=90001", 1.02 ** 2), ("PDF=90002", 0.98 ** 2)):
        col = header.index("weight[%s]" % name)
        worst = max(abs(r[col] / r[iw] - want) for r in rows if r[iw] != 0)
        check(worst < 1e-6 and len(rows) == n,
              "pp-z %s: %s / nominal = %.6f for every one of %d events (worst %.2e)"
              % (order, name, want, len(rows), worst))
    hv, _ = parse_yoda(va + ".yoda")
    nominal = {p: h for p, h in hv.items() if "[" not in p}
    for member, seed in ((3, "2"), (4, "3")):
        ind = "ind-%s-%d.yoda" % (order, member)
        must(base + ["--pdf", "TSET/%d" % member, "--seed", seed, "-o", ind],
             "pp-z %s --pdf TSET/%d" % (order, member))
        hk, _ = parse_yoda(ind)
        name = "PDF=%d" % (90000 + member)
        total_ctl, ndf_ctl = 0.0, 0
        for path in sorted(nominal):
            a = hv.get(path + "[%s]" % name)
            if a is None or path not in hk:
                check(False, "%s %s: %s present" % (order, name, path))
                continue
            chi2, ndf = chi2_of(a, hk[path])
            p = chi2_sf(chi2, ndf)
            c2, cn = chi2_of(nominal[path], hk[path])
            total_ctl += c2
            ndf_ctl += cn
            check(p > P_MIN, "pp-z %s %s %-24s against --pdf TSET/%d: chi2/ndf %.1f/%d, p %.3g"
                  % (order, name, path, member, chi2, ndf, p))
        xa, xb = xsec_of(va + ".yoda", name), xsec_of(ind, None)
        pull = (xa[0] - xb[0]) / math.hypot(xa[1], xb[1])
        check(abs(pull) < XSEC_PULL, "pp-z %s %s: sigma %.6g +- %.3g against %.6g +- %.3g pb, "
              "pull %.2f" % (order, name, xa[0], xa[1], xb[0], xb[1], pull))
        p_ctl = chi2_sf(total_ctl, ndf_ctl)
        check(p_ctl < P_POWER, "pp-z %s control: nominal against --pdf TSET/%d fails, "
              "chi2/ndf %.1f/%d, p %.3g" % (order, member, total_ctl, ndf_ctl, p_ctl))


# ---- 3: the band by ErrorType ----
def band(kind, x0, x, cl):
    """LHAPDF's uncertainty at one standard deviation, written apart from the program's."""
    def z(c):   # two-sided normal quantile by Newton on erf
        t = 1.0
        for _ in range(100):
            t -= (math.erf(t / math.sqrt(2)) - c / 100.0) / (math.sqrt(2 / math.pi)
                                                           * math.exp(-t * t / 2))
        return t
    one_sigma = 68.268949213708585   # 100 erf(1/sqrt 2); sets write it as 68.268949
    scale = 1.0 if abs(cl - one_sigma) < 1e-6 else z(one_sigma) / z(cl)
    if kind == "hessian":
        up = math.sqrt(sum(max(x[i] - x0, x[i + 1] - x0, 0) ** 2 for i in range(0, len(x), 2)))
        dn = math.sqrt(sum(max(x0 - x[i], x0 - x[i + 1], 0) ** 2 for i in range(0, len(x), 2)))
        return x0, up * scale, dn * scale
    if kind == "symmhessian":
        d = math.sqrt(sum((v - x0) ** 2 for v in x))
        return x0, d * scale, d * scale
    mean = sum(x) / len(x)
    sd = math.sqrt(sum((v - mean) ** 2 for v in x) / (len(x) - 1))
    return mean, sd, sd


for kind, cl in (("hessian", "68.268949"), ("symmhessian", "68.268949"),
                 ("symmhessian", "90"), ("replicas", "68.268949"), ("unknownkind", "68.268949")):
    d = os.path.join(work, "sets-%s-%s" % (kind, cl), "TSET")
    os.makedirs(d)
    for f in os.listdir(os.path.join(sets, "TSET")):
        src = os.path.join(sets, "TSET", f)
        if f.endswith(".info"):
            with open(src) as g:
                text = g.read().replace("ErrorType: hessian", "ErrorType: " + kind)
                text = text.replace("ErrorConfLevel: 68.268949", "ErrorConfLevel: " + cl)
            with open(os.path.join(d, f), "w") as g:
                g.write(text)
        else:
            os.symlink(src, os.path.join(d, f))
    js = "band-%s-%s.json" % (kind, cl)
    p = must(["--process", "pp-z", "--events", "2000", "--pdf", "TSET", "--vary", "pdf",
              "--json", js, "-o", "band.yoda"], "band run, ErrorType %s at %s %%" % (kind, cl),
             os.path.dirname(d))
    if p.returncode:
        continue
    with open(js) as f:
        j = json.load(f)
    u = j.get("pdf_uncertainty", {})
    x = [j["variations"]["PDF=%d" % (90000 + m)]["sigma_pb"] for m in range(1, 5)]
    members_ok = [j["variations"]["PDF=%d" % (90000 + m)]["pdf_member"] for m in range(1, 5)]
    check(members_ok == [1, 2, 3, 4] and u.get("members") == 5 and u.get("set") == "TSET",
          "%s: JSON pdf_member 1..4, pdf_uncertainty of TSET, 5 members" % kind)
    if kind == "unknownkind":
        check(u.get("error_type") == "unknown" and u.get("up_pb") is None,
              "ErrorType %s: members, no band (up_pb null)" % kind)
        continue
    c, up, dn = band(kind, j["sigma_pb"], x, float(cl))
    got = (u.get("sigma_pb"), u.get("up_pb"), u.get("down_pb"))
    good = all(g is not None and abs(g - w) <= 1e-9 * abs(c) for g, w in zip(got, (c, up, dn)))
    check(good and up > 0 and dn > 0, "ErrorType %s at %s %%: band %s = this script's %s"
          % (kind, cl, got, (c, up, dn)))

# ---- 4: split and merged ----
q = ["--process", "pp-z", "--nlo", "1", "--pdf", "TSET", "--vary", "pdf,scales"]
must(q + ["--events", "1000", "-o", "one.yoda", "--json", "one.json", "--state-out",
          "one.state"], "one run of 1000 events")
for tag, first in (("a", 0), ("b", 500)):
    must(q + ["--first-event", str(first), "--events", "500", "--state-out", tag + ".state",
              "-o", tag + ".yoda"], "half " + tag)
p = run(["merge", "-q", "-o", "m.yoda", "--json", "m.json", "--state-out", "m.state",
         "b.state", "a.state"])
check(p.returncode == 0, "merge b a", p.stderr.decode())


def phys(path):
    with open(path, "rb") as f:
        return [ln for ln in f.read().split(b"\n") if not ln.startswith(b"Backend: ")]


if p.returncode == 0:
    check(phys("m.yoda") == phys("one.yoda"), "merged == one run (YODA, PDF members included)")
    with open("one.json") as f:
        jo = json.load(f)
    with open("m.json") as f:
        jm = json.load(f)
    check(jm.get("variations") == jo["variations"]
          and jm.get("pdf_uncertainty") == jo["pdf_uncertainty"],
          "merge JSON variations and pdf_uncertainty == one run's")
    with open("m.state", "rb") as f, open("one.state", "rb") as g:
        check(f.read() == g.read(), "merged state == one run's state (bytes)")
# another grid for member 3, same name
other = os.path.join(work, "sets-other")
shutil.copytree(sets, other)
m3 = os.path.join(other, "TSET", "TSET_0003.dat")
with open(m3) as f:
    lines = f.read().split("\n")
lines[6] = " ".join("%.9e" % (float(v) * 1.001) for v in lines[6].split())
with open(m3, "w") as f:
    f.write("\n".join(lines))
must(q + ["--first-event", "500", "--events", "500", "--state-out", "o.state"],
     "half b with another member 3", other)
ok, why = refused(run(["merge", "-q", "-o", "r.yoda", "a.state", "o.state"]), "pdf")
check(ok and not os.path.exists("r.yoda"), "merge with another member grid refused", why)

# ---- 5: refusals ----
must(["--process", "pp-z", "--events", "20", "--lhe-out", "z.lhe", "-o", "z.yoda"],
     "an LHE file of pp-z", ct14)
for args, word, what in (
        (["--lhe", "z.lhe", "--pdf", "TSET", "--vary", "pdf"], "file", "--lhe"),
        (["--process", "ee-qq", "--vary", "pdf"], "parton densities", "ee-qq"),
        (["--process", "pp-z", "--pdf", "CT14lo", "--vary", "pdf"], "one member",
         "a one-member set"),
        (["--process", "pp-z", "--pdf", "TSET/1", "--vary", "pdf"], "member 0", "TSET/1")):
    path = ct14 if "CT14lo" in args else None if "ee-qq" in args else sets
    ok, why = refused(run(args + ["--events", "10", "-o", "x.yoda"], path), word)
    check(ok and not os.path.exists("x.yoda"), "--vary pdf refused: " + what, why)

print("%s: %d failure(s)" % ("PASS" if failures == 0 else "FAIL", failures))
sys.exit(1 if failures else 0)
