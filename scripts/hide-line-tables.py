#!/usr/bin/env python3
"""Hide the line tables of a vmlinux COPY from gdb, in place:
    scripts/hide-line-tables.py FILE

Why: for every identifier of an expression that is not a symbol, gdb
checks whether it names a source file (c-exp.y classify_name ->
lookup_symtab), scanning the file names of every compile unit's line
table: some 10^5 names in a distro vmlinux, tens of ms per miss.  crash's
start-up and every feature probe for an absent member or type pay it;
crash then spends about 40% of its start in lbasename/strcmp.

How: in .debug_abbrev, the DW_AT_stmt_list attribute of compile, partial,
type and skeleton units is renamed to DW_AT_ordering (same one-byte code
length, same form), an attribute gdb never reads on a unit.  Nothing else
moves: .debug_info, .debug_line, symbols and the .gdb_index stay as they
were.  gdb then has no line table (crash's "sym" and "dis -l" print no
file:line); types, symbols and every tracehunt command are unchanged
(tests/test_foundation.py compares them with the original vmlinux).

Only for DWARF 5 files: the gdb 10.2 inside crash 8.0.2 dies with a
segmentation violation on a DWARF 4 vmlinux (5.10's) patched this way, so
those are left alone.  Only for copies the tests open (tests/thlib.py),
never for a user's file.  Prints how many abbreviations it changed (0:
nothing done)."""

import struct
import sys

UNIT_TAGS = {0x11, 0x3c, 0x41, 0x4a}   # compile/partial/type/skeleton unit
DW_AT_stmt_list = 0x10
DW_AT_ordering = 0x09
DW_FORM_implicit_const = 0x21
SHF_COMPRESSED = 0x800


def uleb(b, i):
    r = s = 0
    while True:
        c = b[i]
        i += 1
        r |= (c & 0x7f) << s
        s += 7
        if c < 0x80:
            return r, i


def section(f, want):
    """(file offset, size, flags) of section WANT of an ELF64 LE file."""
    f.seek(0)
    eh = f.read(64)
    if eh[:4] != b"\x7fELF" or eh[4] != 2 or eh[5] != 1:
        raise ValueError("not a little-endian ELF64 file")
    shoff, = struct.unpack_from("<Q", eh, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", eh, 0x3a)
    f.seek(shoff)
    sh = f.read(shentsize * shnum)
    ents = [struct.unpack_from("<IIQQQQIIQQ", sh, i * shentsize)
            for i in range(shnum)]
    f.seek(ents[shstrndx][4])
    names = f.read(ents[shstrndx][5])
    for e in ents:
        if names[e[0]:names.index(b"\0", e[0])] == want.encode():
            return e[4], e[5], e[2]
    return None


def dwarf_version(f):
    """The version of the first unit of .debug_info (0: none)."""
    sec = section(f, ".debug_info")
    if sec is None or sec[2] & SHF_COMPRESSED:
        return 0
    f.seek(sec[0])
    hdr = f.read(16)
    length, = struct.unpack_from("<I", hdr, 0)
    return struct.unpack_from("<H", hdr, 12 if length == 0xffffffff
                              else 4)[0]


def hide(path):
    with open(path, "r+b") as f:
        sec = section(f, ".debug_abbrev")
        if sec is None or dwarf_version(f) < 5:
            return 0
        off, size, flags = sec
        if flags & SHF_COMPRESSED:
            raise ValueError(".debug_abbrev is compressed")
        f.seek(off)
        b = bytearray(f.read(size))
        i = n = 0
        while i < len(b):
            code, i = uleb(b, i)
            if code == 0:               # end of one CU's table
                continue
            tag, i = uleb(b, i)
            i += 1                      # DW_CHILDREN_*
            while True:
                at_pos = i
                at, i = uleb(b, i)
                form, i = uleb(b, i)
                if form == DW_FORM_implicit_const:
                    while b[i] & 0x80:
                        i += 1
                    i += 1
                if at == 0 and form == 0:
                    break
                if tag in UNIT_TAGS and at == DW_AT_stmt_list:
                    b[at_pos] = DW_AT_ordering
                    n += 1
        f.seek(off)
        f.write(b)
        return n


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.splitlines()[1])
    try:
        print(hide(sys.argv[1]))
    except (OSError, ValueError, IndexError) as e:
        sys.exit("hide-line-tables: %s: %s" % (sys.argv[1], e))
