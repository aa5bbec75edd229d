#!/usr/bin/env python3
"""Check the nvptx device code that GCC embedded in an executable (cmake/GapsOffloadGCC.cmake).

GCC's mkoffload stores each PTX module as a NUL-terminated string in the executable's
read-only data; libgomp's nvptx plugin hands them to the CUDA driver at start-up.  The check:
  - the executable holds PTX modules and at least one kernel (.entry), i.e. the target regions
    really were compiled for the GPU (an executable without them would run on the host only);
  - no floating-point add/sub/mul without an explicit rounding mode is left: the driver may fuse
    those into fma, which changes results in the last bit (the build's ld wrapper adds .rn);
  - every simd region (SIMT: one OpenMP simd lane per GPU lane) has per-lane stack space for
    the deepest chain of functions it calls: GCC reserves a fixed size per lane
    (-msoft-stack-reserve-local), and a deeper chain would overwrite other lanes' data;
  - with --ptxas: every module compiles for --arch, as the driver will do on the GPU.
Exit status 0 if all pass, 1 with a one-line reason otherwise, 2 for bad usage.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

MODULE_START = b"// BEGIN PREAMBLE\n.version"
# An unrounded floating-point add/sub/mul instruction (see GapsOffloadGCC.cmake).
FUSABLE = re.compile(rb"(?:^|\s)(?:add|sub|mul)\.f(?:32|64)\s", re.MULTILINE)
ENTRY = re.compile(rb"^\.visible \.entry ([A-Za-z0-9_$]+)", re.MULTILINE)
# GCC's PTX marks each function definition with a comment; its soft-stack frame is allocated
# as "sub.u64 %frame,%sspprev,SIZE" and a simd region's per-lane stack as
# ".local ... %simtstack_ar[SIZE]".
FUNCTION = re.compile(rb"^// BEGIN (?:GLOBAL )?FUNCTION DEF: (\S+)\n", re.MULTILINE)
FRAME = re.compile(rb"sub\.u64 %frame,%sspprev,(\d+)")
SIMT_STACK = re.compile(rb"%simtstack_ar\[(\d+)\]")
CALL = re.compile(rb"\bcall(?:\.uni)? (?:\([^)]*\),\s*)?([A-Za-z_$][A-Za-z0-9_$]*)")


def modules(data):
    """The PTX modules in the file's bytes, in order."""
    out = []
    pos = data.find(MODULE_START)
    while pos >= 0:
        end = data.find(b"\0", pos)
        if end < 0:
            end = len(data)
        out.append(data[pos:end])
        pos = data.find(MODULE_START, end)
    return out


def functions(mods):
    """name -> (soft-stack frame bytes, per-lane simd stack bytes or 0, callees)."""
    out = {}
    for m in mods:
        starts = list(FUNCTION.finditer(m))
        for i, f in enumerate(starts):
            body = m[f.end():starts[i + 1].start() if i + 1 < len(starts) else len(m)]
            frame = FRAME.search(body)
            simt = SIMT_STACK.search(body)
            out[f.group(1).decode()] = (int(frame.group(1)) if frame else 0,
                                        int(simt.group(1)) if simt else 0,
                                        {c.decode() for c in CALL.findall(body)})
    return out


def simt_stack_overflows(funcs):
    """(function, needed, reserved) for each simd region whose callees need more stack per
    lane than GCC reserved.  A frame is counted with 8 bytes for the saved stack pointer."""
    memo = {}

    def depth(name, seen):
        if name in memo:
            return memo[name]
        if name not in funcs or name in seen:
            return 0   # external (no frame of ours) or recursion (the physics has none)
        frame, _, callees = funcs[name]
        d = (frame + 8 if frame else 0) + max([depth(c, seen | {name}) for c in callees] or [0])
        memo[name] = d
        return d

    bad = []
    for name, (_, simt, callees) in funcs.items():
        if simt:
            need = 8 + max([depth(c, {name}) for c in callees] or [0])
            if need > simt:
                bad.append((name, need, simt))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("executable")
    ap.add_argument("--ptxas", help="ptxas to compile each module with")
    ap.add_argument("--arch", default="sm_90", help="GPU architecture for ptxas (default sm_90)")
    args = ap.parse_args()
    name = os.path.basename(args.executable)
    try:
        with open(args.executable, "rb") as f:
            data = f.read()
    except OSError as e:
        print(f"check_gcc_offload_image: {e}", file=sys.stderr)
        return 2
    mods = modules(data)
    kernels = [k for m in mods for k in ENTRY.findall(m)]
    if not mods or not kernels:
        print(f"check_gcc_offload_image: {name} holds no nvptx device code "
              f"({len(mods)} PTX modules, {len(kernels)} kernels): the target regions would run "
              "on the host only", file=sys.stderr)
        return 1
    fusable = sum(len(FUSABLE.findall(m)) for m in mods)
    if fusable:
        print(f"check_gcc_offload_image: {name}: {fusable} floating-point add/sub/mul without "
              ".rn in the PTX (the driver may fuse them into fma): the device link did not go "
              "through the build's ld wrapper", file=sys.stderr)
        return 1
    overflows = simt_stack_overflows(functions(mods))
    if overflows:
        name_, need, have = max(overflows, key=lambda t: t[1])
        print(f"check_gcc_offload_image: {name}: the simd region of {name_} calls functions that "
              f"need {need} bytes of stack per lane, GCC reserved {have}: raise "
              "GAPS_GCC_SIMT_STACK (-msoft-stack-reserve-local)", file=sys.stderr)
        return 1
    if args.ptxas:
        with tempfile.TemporaryDirectory() as tmp:
            for i, m in enumerate(mods):
                src = os.path.join(tmp, f"m{i}.ptx")
                with open(src, "wb") as f:
                    f.write(m)
                r = subprocess.run([args.ptxas, f"-arch={args.arch}", "-c", src,
                                    "-o", os.path.join(tmp, f"m{i}.cubin")],
                                   capture_output=True, text=True)
                if r.returncode != 0:
                    msg = (r.stderr or r.stdout).strip().splitlines()
                    print(f"check_gcc_offload_image: {name}: PTX module {i} does not compile for "
                          f"{args.arch}: {msg[0] if msg else 'ptxas failed'}", file=sys.stderr)
                    return 1
    print(f"{name}: {len(mods)} PTX modules, {len(kernels)} kernels, no fusable add/sub/mul"
          + (f", compiled by ptxas for {args.arch}" if args.ptxas else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
