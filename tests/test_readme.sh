#!/bin/sh
# Every command that README.md shows works as written: the commands of its indented and fenced
# code blocks are taken from the README itself and run, block by block, each in a scratch
# directory of its own (with links to the build, tools/ and tests/: the README's example
# files; the build commands in a scratch copy of the source tree), each under
# a timeout; a command that fails makes the test fail, naming the command and why (timed out,
# killed by a signal, or its exit status and last lines of output).
#
# A command is a line of a code block whose first word is one that starts commands
# (./build/gaps, ./b/..., cmake, cc, bash, sh, python3, mkfifo, grep, rivet, export, mpirun,
# srun); the other lines of the blocks are output, messages, comments or files.  A block whose
# first line is "# NAME: ..." (the run card) and the fenced C, CMake and C++ blocks are files:
# they are written into the scratch directories as NAME, thrust.c, CMakeLists.txt and
# lep_rates.cpp, the names the README gives them.
#
# What is changed, so that the whole test takes a minute or two on a loaded 2-core machine:
#   ./build/gaps             the program under test (BUILD_DIR/gaps; ./build links to BUILD_DIR)
#   --events N, N > 20000    --events 2000 (the README's runs are 10^5 to 10^6 events)
#   /path/to/LHAPDF/sets     the source tree's share/pdfsets (a placeholder in the README)
#   PREFIX                   a scratch prefix into which this test first installs BUILD_DIR
#                            (cmake --install), as the README's library section assumes
#   a checkpointed run followed by a "# killed ..." comment
#                            is run with the test hooks (GAPS_HOOKS_BINARY, src/program/testhook.h)
#                            and SIGKILLed right after its first checkpoint, as the comment says,
#                            so that the --resume command after it has something to resume
# What is not run, with the reason printed:
#   the first two commands (bash tools/install-deps.sh ...: they install system packages and
#     run the whole test suite; CI runs exactly the second one);
#   "cmake --build" of the three backends in "Building": a full build takes minutes (CI builds
#     all three, tests/run_all.sh); their "cmake -S . -B ..." configure steps are run, and the
#     offload one is checked to take clang++ as the C++ compiler of its tests;
#   the offload configure step without clang-19 or a CUDA toolkit (doc/gpu.md);
#   mpirun and srun (an MPI launcher: tests/test_mpi.sh);
#   the Rivet block where rivet is not installed (it is not packaged for Debian 12);
#   tools/gaps-plot without numpy, matplotlib and mplhep (a failure with GAPS_STRICT=1).
# Usage: test_readme.sh SOURCE_DIR BUILD_DIR GAPS_HOOKS_BINARY WORKDIR
src=$1
build=$2
hooks=$3
work=$4
[ -n "$src" ] && [ -n "$build" ] && [ -n "$hooks" ] && [ -n "$work" ] \
    || { echo "usage: test_readme.sh SOURCE_DIR BUILD_DIR GAPS_HOOKS_BINARY WORKDIR"; exit 2; }
for v in src build hooks; do
    eval "p=\$$v"
    case $p in /*) ;; *) eval "$v=\$(pwd)/\$p" ;; esac
done
rm -rf "$work" && mkdir -p "$work" || exit 1
T=${T:-300}
export KMP_WARNINGS=0 GAPS_T=$T GAPS_SRC=$src GAPS_BUILD=$build GAPS_HOOKS=$hooks GAPS_WORK=$work
exec python3 - "$src/README.md" <<'PY'
import os, re, shlex, shutil, subprocess, sys

readme = sys.argv[1]
T = int(os.environ["GAPS_T"])
src, build, hooks, work = (os.environ[k] for k in ("GAPS_SRC", "GAPS_BUILD", "GAPS_HOOKS", "GAPS_WORK"))
strict = os.environ.get("GAPS_STRICT") == "1"
STARTS = ("./build/gaps", "./b/", "cmake", "cc", "bash", "sh", "python3", "mkfifo", "grep",
          "rivet", "export", "mpirun", "srun")
FENCED = {"c": "thrust.c", "cmake": "CMakeLists.txt", "cpp": "lep_rates.cpp"}

# ---- the code blocks of the README ----
blocks = []          # [kind, lines, line number]; kind: indented, or the fence's language
lines = open(readme, encoding="utf-8").read().split("\n")
i = 0
while i < len(lines):
    m = re.match(r"^```(\w*)\s*$", lines[i])
    if m:
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        blocks.append([m.group(1) or "text", lines[i + 1:j], i + 2])
        i = j + 1
        continue
    if lines[i].startswith("    ") and (i == 0 or lines[i - 1].strip() == ""):
        j = i
        body = []
        while j < len(lines) and (lines[j].startswith("    ") or lines[j].strip() == ""):
            body.append(lines[j][4:])
            j += 1
        while body and body[-1].strip() == "":
            body.pop()
        blocks.append(["indented", body, i + 1])
        i = j
        continue
    i += 1

files = {}
for kind, body, at in blocks:
    if kind in FENCED:
        files[FENCED[kind]] = "\n".join(body) + "\n"
    m = re.match(r"^# (\S+\.\w+): ", body[0]) if kind == "indented" and body else None
    if m:   # the file ends at the first blank line (a command may follow in the block)
        end = body.index("") if "" in body else len(body)
        files[m.group(1)] = "\n".join(body[:end]) + "\n"
text = "\n".join(lines)
for name in FENCED.values():
    if name not in files:
        print("FAIL: README.md has no fenced block for %s" % name)
        sys.exit(1)
for name in ("thrust.c", "lep_rates.cpp"):
    if name not in text.replace(files[name], ""):
        print("FAIL: README.md no longer names %s beside its block" % name)
        sys.exit(1)

def is_command(line):
    return any(line == s or line.startswith(s + " ") or (s.endswith("/") and line.startswith(s))
               for s in STARTS)

def strip_comment(line):   # a trailing "   # ..." comment (not inside quotes)
    out, q = "", None
    for k, ch in enumerate(line):
        if q:
            q = None if ch == q else q
        elif ch in "'\"":
            q = ch
        elif ch == "#" and k > 0 and line[k - 1] == " ":
            return out.rstrip()
        out += ch
    return out.rstrip()

prefix = os.path.join(work, "prefix")
def substitute(cmd):
    cmd = re.sub(r"--events (\d+(?:\.\d+)?(?:e\d+)?)",
                 lambda m: "--events 2000" if float(m.group(1)) > 20000 else m.group(0), cmd)
    cmd = cmd.replace("/path/to/LHAPDF/sets", os.path.join(src, "share", "pdfsets"))
    cmd = re.sub(r"\bPREFIX\b", prefix, cmd)
    return cmd

fail = 0
ran = skipped = 0
def bad(msg):
    global fail
    print("FAIL: " + msg)
    fail = 1

def why(rc):
    if rc == 124: return "timed out after %d s" % T
    if rc == 137: return "killed (SIGKILL, or timed out after %d s)" % T
    if rc > 128: return "killed by signal %d" % (rc - 128)
    if rc < 0: return "killed by signal %d" % -rc
    return "exit status %d" % rc

env = dict(os.environ)
def run(cmd, cwd, shown, extra_env=None):
    global ran
    ran += 1
    e = dict(env)
    if extra_env: e.update(extra_env)
    # output to a file, not a pipe: a command that starts a background job (cmd &) returns
    # at once, while the job may hold its output open until a later command ends it
    log = os.path.join(work, "command-%03d.log" % ran)
    with open(log, "wb") as f:
        p = subprocess.run(["timeout", str(T), "sh", "-c", cmd], cwd=cwd, env=e,
                           stdin=subprocess.DEVNULL, stdout=f, stderr=subprocess.STDOUT)
    out = open(log, "rb").read().decode("utf-8", "replace").strip().split("\n")
    if p.returncode != 0:
        bad("README line %d: '%s' (run as '%s' in %s): %s; last output:\n    %s"
            % (shown[1], shown[0], cmd, cwd, why(p.returncode), "\n    ".join(out[-6:])))
        return False
    print("ok: README line %d: %s" % (shown[1], cmd if len(cmd) < 150 else cmd[:147] + "..."))
    return True

def skip(shown, reason):
    global skipped
    skipped += 1
    print("SKIPPED: README line %d: '%s': %s" % (shown[1], shown[0][:100], reason))

def have(cmd):
    return shutil.which(cmd) is not None

def scratch(n):
    d = os.path.join(work, "block-%02d" % n)
    os.makedirs(d)
    os.symlink(build, os.path.join(d, "build"))
    os.symlink(os.path.join(src, "tools"), os.path.join(d, "tools"))
    os.symlink(os.path.join(src, "tests"), os.path.join(d, "tests"))   # its data files
    for name, body in files.items():
        with open(os.path.join(d, name), "w") as f:
            f.write(body)
    return d

# a scratch copy of the source tree for the build commands (no build directories)
source_copy = os.path.join(work, "source")
def copy_source():
    if not os.path.isdir(source_copy):
        shutil.copytree(src, source_copy, symlinks=True,
                        ignore=lambda d, names: [n for n in names if d == src and
                                                 (n.startswith("build") or n == ".git")])
    return source_copy

installed = False
plots_ok = subprocess.run([sys.executable, "-c", "import numpy, matplotlib, mplhep"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
cuda = have("nvcc") or os.access("/usr/local/cuda/bin/ptxas", os.X_OK)
setup_skipped = 0
for n, (kind, body, at) in enumerate(blocks):
    if kind != "indented":
        continue
    cmds = []
    for k, line in enumerate(body):
        s = line.strip()
        if is_command(s):
            killed_next = k + 1 < len(body) and body[k + 1].strip().startswith("# killed")
            cmds.append((strip_comment(s), at + k, killed_next))
    if not cmds:
        continue
    cwd = None
    for cmd, line_no, killed_next in cmds:
        shown = (cmd, line_no)
        if "tools/install-deps.sh" in cmd and setup_skipped < 2:
            setup_skipped += 1
            skip(shown, "installs system packages and runs the whole suite (CI runs it: .ci/run)")
            continue
        if re.match(r"^(mpirun|srun)\b", cmd):
            skip(shown, "an MPI launcher (tests/test_mpi.sh runs the MPI program)")
            continue
        if any(c.strip().startswith("rivet") for c, _, _ in cmds) and not have("rivet"):
            skip(shown, "the Rivet example, and rivet is not installed (not packaged for Debian 12)")
            continue
        if "gaps-plot" in cmd and not plots_ok:
            if strict:
                bad("README line %d: '%s': numpy, matplotlib or mplhep missing (GAPS_STRICT=1)"
                    % (line_no, cmd))
            else:
                skip(shown, "numpy, matplotlib and mplhep not installed (bash tools/install-deps.sh --plots)")
            continue
        m = re.match(r"^(cmake -S \. -B (build-\w+)\s+-DGAPS_BACKEND=(\w+))\s*&&\s*(cmake --build .*)$", cmd)
        if m:
            configure, bdir, backend, build_cmd = m.groups()
            if backend == "offload" and not (have("clang-19") and cuda):
                skip(shown, "the GPU build needs clang-19 and a CUDA toolkit (bash tools/install-deps.sh --offload)")
                continue
            d = copy_source()
            if run(configure + " >configure-%s.log 2>&1 || { tail -n 20 configure-%s.log; exit 1; }"
                   % (backend, backend), d, shown) and backend == "offload":
                cache = open(os.path.join(d, bdir, "CMakeCache.txt")).read()
                cxx = re.search(r"^CMAKE_CXX_COMPILER:\w+=(.*)$", cache, re.M)
                if cxx and "clang++" not in os.path.basename(cxx.group(1)):
                    bad("README line %d: the offload build's tests would be compiled by %s, not "
                        "clang++ (g++ does not know --offload-arch)" % (line_no, cxx.group(1)))
                else:
                    print("ok: the offload build compiles its C++ tests with %s"
                          % (cxx.group(1) if cxx else "no C++ compiler"))
            skip((build_cmd, line_no), "a full build takes minutes; CI builds every backend "
                 "(tests/run_all.sh), the configure step above was run")
            continue
        if cwd is None:
            cwd = scratch(n)
        if "PREFIX" in cmd and not installed:
            installed = run("cmake --install %s --prefix %s >install.log 2>&1 || { tail -n 20 install.log; exit 1; }"
                            % (shlex.quote(build), shlex.quote(prefix)), work,
                            ("(setup) cmake --install BUILD --prefix PREFIX", line_no))
        c = substitute(cmd)
        if c.startswith("export "):   # for the commands after it in this block
            k, _, v = c[len("export "):].partition("=")
            env[k] = v
            print("ok: README line %d: %s" % (line_no, c))
            continue
        if killed_next:
            c2 = c.replace("./build/gaps", shlex.quote(hooks), 1)
            hook = "kill -KILL $PPID"
            p = subprocess.run(["timeout", str(T), "sh", "-c", c2], cwd=cwd,
                               env=dict(env, GAPS_TEST_HOOK_CHECKPOINT=hook),
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
            if p.returncode != 137:
                bad("README line %d: '%s', killed at its first checkpoint by the test hook: %s"
                    % (line_no, cmd, why(p.returncode)))
            else:
                print("ok: README line %d: %s  (SIGKILLed at its first checkpoint, as the comment "
                      "after it says)" % (line_no, c))
            continue
        run(c, cwd, shown)
print("%d commands run, %d skipped" % (ran, skipped))
sys.exit(fail)
PY
