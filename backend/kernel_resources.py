#!/usr/bin/env python3
"""Registers and stack frame of every GPU kernel in an offload executable, read from the CUDA
device image(s) embedded in it: what `cuobjdump -res-usage` would print, without the CUDA
toolkit's cuobjdump (not part of every toolkit install).

A kernel's register count decides its occupancy (threads resident per multiprocessor: 65536
registers are shared by all of them), the stack frame is its per-thread local memory.

Usage: kernel_resources.py EXECUTABLE [NAME ...]
    prints "kernel registers stack_bytes" for every kernel (or those whose name contains one
    of the NAMEs); exit status 1 if the executable holds no CUDA image.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fix_cuda_image  # noqa: E402  (the same directory)

EIFMT_SVAL = 4
EIATTR_FRAME_SIZE = 0x11
EIATTR_REGCOUNT = 0x2F


def cuda_images(data):
    """The bytes of each CUDA ELF image in data (found as backend/fix_cuda_image.py finds
    them), up to the end of its section header table."""
    for at in fix_cuda_image.cuda_images(data):
        shoff = struct.unpack_from("<Q", data, at + 0x28)[0]
        shentsize, shnum = struct.unpack_from("<HH", data, at + 0x3A)
        yield data[at:at + shoff + shentsize * shnum]


def resources(img):
    """{kernel name: {"registers": n, "stack": bytes}} from the image's .nv.info section."""
    shoff = struct.unpack_from("<Q", img, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", img, 0x3A)
    secs = [struct.unpack_from("<IIQQQQIIQQ", img, shoff + i * shentsize) for i in range(shnum)]

    def cstr(base, off):
        end = img.index(b"\0", base + off)
        return img[base + off:end].decode()

    names = [cstr(secs[shstrndx][4], s[0]) for s in secs]
    symtab = secs[names.index(".symtab")]
    strtab = secs[symtab[6]]
    syms = [cstr(strtab[4], struct.unpack_from("<I", img, symtab[4] + i * 24)[0])
            for i in range(symtab[5] // 24)]
    out = {}
    for sec, name in zip(secs, names):
        if name != ".nv.info":
            continue
        at, end = sec[4], sec[4] + sec[5]
        while at < end:
            fmt, attr, size = struct.unpack_from("<BBH", img, at)
            if fmt != EIFMT_SVAL:   # other formats carry no payload beyond these 4 bytes
                at += 4
                continue
            if attr in (EIATTR_REGCOUNT, EIATTR_FRAME_SIZE):
                sym, value = struct.unpack_from("<II", img, at + 4)
                key = "registers" if attr == EIATTR_REGCOUNT else "stack"
                out.setdefault(syms[sym], {})[key] = value
            at += 4 + size
    return out


def main(argv):
    if not argv:
        sys.exit(__doc__)
    with open(argv[0], "rb") as f:
        data = f.read()
    found = False
    for img in cuda_images(data):
        found = True
        for kernel, r in sorted(resources(img).items()):
            if "registers" not in r or (argv[1:] and not any(n in kernel for n in argv[1:])):
                continue
            print("%s %d %d" % (kernel, r["registers"], r.get("stack", 0)))
    return 0 if found else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
