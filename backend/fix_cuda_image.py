#!/usr/bin/env python3
"""Make the GPU image inside an offload executable loadable by libomptarget 19.

CUDA 13's ptxas/nvlink write device images in a newer CUDA ELF layout: EI_ABIVERSION 8 and
the SM number in bits 8-15 of e_flags (0x06005a04 for sm_90).  libomptarget 19 reads the SM
from the low byte, finds no image compatible with the GPU, reports 0 devices and would run
everything on the host.  This script finds every CUDA ELF image (e_machine 190) embedded in
the executable and, for those in the new layout, rewrites the three header fields to the
layout of CUDA <= 12 (EI_OSABI 51, EI_ABIVERSION 7, e_flags = sm | 0x100 | 0x400 | sm << 16),
in place: the image keeps its size and content.  Verified on an H200 (doc/gpu.md).

Usage: fix_cuda_image.py EXECUTABLE        exit 0 if at least one CUDA image is present
"""
import struct
import sys

EM_CUDA = 190


def cuda_images(data):
    """Offsets of the 64-bit little-endian CUDA ELF headers in data."""
    at = data.find(b"\x7fELF")
    while at >= 0:
        if at + 64 <= len(data) and data[at + 4] == 2 and data[at + 5] == 1:
            if struct.unpack_from("<H", data, at + 18)[0] == EM_CUDA:
                yield at
        at = data.find(b"\x7fELF", at + 1)


def main(path):
    with open(path, "rb") as f:
        data = bytearray(f.read())
    found = fixed = 0
    for at in cuda_images(data):
        found += 1
        abiversion = data[at + 8]
        flags = struct.unpack_from("<I", data, at + 48)[0]
        if abiversion < 8:
            continue  # already the layout libomptarget 19 reads
        sm = (flags >> 8) & 0xFF
        data[at + 7] = 51
        data[at + 8] = 7
        struct.pack_into("<I", data, at + 48, sm | 0x100 | 0x400 | (sm << 16))
        fixed += 1
        print(f"fix_cuda_image: image at byte {at}: sm_{sm}, e_flags {flags:#x} -> "
              f"{sm | 0x100 | 0x400 | (sm << 16):#x}")
    if found == 0:
        sys.exit(f"fix_cuda_image: no CUDA device image in {path}: the offload build is broken")
    if fixed:
        tmp = path + ".fixing"
        with open(tmp, "wb") as f:
            f.write(data)
        import os
        os.chmod(tmp, os.stat(path).st_mode)
        os.replace(tmp, path)
    else:
        print(f"fix_cuda_image: {found} image(s) already in the CUDA 12 layout")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
