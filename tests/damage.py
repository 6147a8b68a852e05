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
from fixture import paddr_to_offset  # noqa: E402
import fixture  # noqa: E402


def copy_dump(src, dst):
    shutil.copyfile(src, dst)
    os.chmod(dst, 0o600)


def peek(path, paddr, n):
    """N bytes of an ELF vmcore at physical address PADDR (patch's twin)."""
    with open(path, "rb") as f:
        f.seek(paddr_to_offset(path, paddr))
        return f.read(n)


def patch(path, paddr, data):
    off = paddr_to_offset(path, paddr)
    with open(path, "r+b") as f:
        f.seek(off)
        f.write(data)


def parse_vtop(text):
    """PHYSICAL address from crash's `vtop ADDR` output (the damage matrix,
    scripts/damage-matrix.py)."""
    m = re.search(r"VIRTUAL\s+PHYSICAL\s*\n\s*[0-9a-f]+\s+([0-9a-f]+)", text)
    if not m:
        raise ValueError("no translation in: %r" % text[:300])
    return int(m.group(1), 16)


# x86_64's kernel text mapping starts here, mapped from physical
# phys_base (Documentation/arch/x86/x86_64/mm.rst): how init_top_pgt's
# physical address follows from its symbol.
START_KERNEL_MAP = 0xffffffff80000000
PTE_PFN = 0x000ffffffffff000        # bits 12-51 of an entry
PTE_PRESENT, PTE_LARGE = 0x1, 0x80


class PageTables:
    """vtop without a crash session, for the ELF dumps the tests plant
    damage in: the kernel's own page tables (init_top_pgt, which maps every
    kernel address: text, modules, vmalloc, the direct map), found through
    the VMCOREINFO the guest printed (fixture.guest_vmcoreinfo)."""

    def __init__(self, manifest):
        self.elf = manifest["vmcore"]
        info = fixture.guest_vmcoreinfo(
            self.elf, os.path.join(os.path.dirname(self.elf),
                                   "console.log")).decode()
        kv = dict(l.split("=", 1) for l in info.splitlines() if "=" in l)
        top = int(kv["SYMBOL(init_top_pgt)"], 16)
        self.root = top - START_KERNEL_MAP + int(kv["NUMBER(phys_base)"])
        self.levels = 5 if kv.get("NUMBER(pgtable_l5_enabled)",
                                  "0") == "1" else 4

    def _entry(self, table, index):
        return struct.unpack("<Q", peek(self.elf, table + 8 * index, 8))[0]

    def vtop(self, vaddr):
        """The physical address of kernel virtual address VADDR."""
        table = self.root
        for shift in (48, 39, 30, 21, 12)[5 - self.levels:]:
            e = self._entry(table, (vaddr >> shift) & 0x1ff)
            if not e & PTE_PRESENT:
                raise ValueError("%#x is not mapped (level %d entry %#x)"
                                 % (vaddr, shift, e))
            if shift in (30, 21) and e & PTE_LARGE:
                mask = (1 << shift) - 1
                return (e & PTE_PFN & ~mask) | (vaddr & mask)
            table = e & PTE_PFN
        return table | (vaddr & 0xfff)


def parse_rd(text):
    """The bytes of crash's `rd -8 ADDR N` output."""
    out = b""
    for line in text.splitlines():
        if ":" in line:
            for w in line.split(":", 1)[1].split():
                if len(w) != 2:
                    break
                try:
                    out += bytes([int(w, 16)])
                except ValueError:
                    break
    return out


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
