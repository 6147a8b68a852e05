"""Damaged copies of real dumps: patch bytes of an ELF vmcore at a physical
address, so a test can plant a cycle, a garbage pointer or altered code in
otherwise real memory."""

import os
import re
import shutil
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "scripts"))
from fixture import elf_loads, paddr_to_offset  # noqa: E402,F401


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
