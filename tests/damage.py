"""Damaged copies of real dumps: patch bytes of an ELF vmcore at a physical
address, so a test can plant a cycle, a garbage pointer or altered code in
otherwise real memory."""

import os
import re
import shutil
import struct


def elf_loads(path):
    """PT_LOAD segments of an ELF64 core: (paddr, offset, filesz)."""
    with open(path, "rb") as f:
        ehdr = f.read(64)
        if ehdr[:4] != b"\x7fELF" or ehdr[4] != 2:
            raise ValueError("%s is not an ELF64 dump" % path)
        phoff, = struct.unpack_from("<Q", ehdr, 32)
        phentsize, phnum = struct.unpack_from("<HH", ehdr, 54)
        f.seek(phoff)
        ph = f.read(phentsize * phnum)
    loads = []
    for i in range(phnum):
        p_type, _, p_offset, _, p_paddr, p_filesz = struct.unpack_from(
            "<IIQQQQ", ph, i * phentsize)
        if p_type == 1:
            loads.append((p_paddr, p_offset, p_filesz))
    return loads


def paddr_to_offset(path, paddr):
    for base, off, size in elf_loads(path):
        if base <= paddr < base + size:
            return off + (paddr - base)
    raise ValueError("physical address %#x is not in %s" % (paddr, path))


def copy_dump(src, dst):
    shutil.copyfile(src, dst)
    os.chmod(dst, 0o600)


def patch(path, paddr, data):
    off = paddr_to_offset(path, paddr)
    with open(path, "r+b") as f:
        f.seek(off)
        f.write(data)


def parse_vtop(text):
    """PHYSICAL address from crash's `vtop ADDR` output."""
    m = re.search(r"VIRTUAL\s+PHYSICAL\s*\n\s*[0-9a-f]+\s+([0-9a-f]+)", text)
    if not m:
        raise ValueError("no translation in: %r" % text[:300])
    return int(m.group(1), 16)


def with_vmcore(d, vmcore):
    """A copy of thlib.Dump D that opens VMCORE instead (same vmlinux,
    same truth), with no cached outputs."""
    bad = d.__class__.__new__(d.__class__)
    bad.__dict__.update(d.__dict__)
    bad.manifest = dict(d.manifest, vmcore=vmcore)
    bad.outputs = None
    if hasattr(bad, "error"):
        bad.error = None
    return bad
