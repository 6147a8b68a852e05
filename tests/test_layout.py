"""The architecture as the tree shows it (issue 21; docs/HACKING.md):
src/ in layer folders whose includes point only downward, kernel objects
read only by the model (every struct member looked up in one file), no
source file over 1,000 lines, no function over 120 lines but a decoder's
one switch, and a .so that exports nothing crash does not need."""

import os
import re
import subprocess

import pytest

import thlib

# The same whatever SUITES selects: make check runs these in its main run
# only (conftest.py's _drop_once())
pytestmark = pytest.mark.once

SRC = os.path.join(thlib.ROOT, "src")
LIB = os.path.join(thlib.ROOT, "lib")

# What each layer may include besides itself and lib/ (docs/HACKING.md).
MAY_INCLUDE = {
    "glue": {"tracefs", "audit", "render", "model"},
    "tracefs": {"render", "model"},
    "audit": {"render", "model"},
    "render": {"model"},
    "model": set(),
}

# The type probes of model/model.h: only the model asks gdb for a layout.
PROBES = re.compile(r"\bth_(member|member_any|member_path|member_size|"
                    r"member_ptr|size|enum|enum_exists|"
                    r"enum_cached)\s*\(")
MEMBER = re.compile(r'\bth_member(?:_path)?\s*\(\s*"(\w+)"\s*,\s*'
                    r'"([\w.]+)"\s*\)')

MAX_FILE_LINES = 1000
MAX_FUNC_LINES = 120
# A decoder whose body is one switch over its input may be longer; each
# says so in the comment at its head ("one switch over ...").
ONE_SWITCH = re.compile(r"one switch over", re.I)


def strip_comments(text):
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r"/\*.*?\*/|//[^\n]*", blank, text, flags=re.S)


def sources(top, exts=(".c", ".h")):
    for dp, dns, fns in os.walk(top):
        dns.sort()
        for fn in sorted(fns):
            if fn.endswith(exts):
                yield os.path.join(dp, fn)


def layer_of(path):
    rel = os.path.relpath(path, SRC).split(os.sep)
    return rel[0] if len(rel) > 1 else None


def read(path):
    with open(path, errors="replace") as f:
        return f.read()


def test_src_is_only_layer_folders():
    loose = [f for f in os.listdir(SRC)
             if os.path.isfile(os.path.join(SRC, f))]
    assert not loose, "files outside a layer folder: %s" % loose
    assert set(os.listdir(SRC)) == set(MAY_INCLUDE), os.listdir(SRC)


def test_includes_point_downward():
    bad = []
    for path in sources(SRC):
        layer = layer_of(path)
        for n, line in enumerate(read(path).splitlines(), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            inc = m.group(1)
            if "/" not in inc:
                # lib/ headers (crash-free) or crash's defs.h
                if inc != "defs.h" and not os.path.exists(
                        os.path.join(LIB, inc)):
                    bad.append("%s:%d: %s is neither lib/ nor defs.h" % (
                        os.path.relpath(path, thlib.ROOT), n, inc))
                continue
            to = inc.split("/")[0]
            if to != layer and to not in MAY_INCLUDE.get(layer, ()):
                bad.append("%s:%d: %s includes %s (an arrow upward)" % (
                    os.path.relpath(path, thlib.ROOT), n, layer, inc))
    assert not bad, "\n".join(bad)


def test_lib_is_free_of_crash():
    bad = [os.path.relpath(p, thlib.ROOT) for p in sources(LIB)
           if re.search(r'#\s*include\s+"defs\.h"', read(p))]
    assert not bad, bad


def calls_outside(pattern, allowed, exts=(".c",)):
    """"file:line: code" of each line of src/ that PATTERN matches, in the
    files ALLOWED(path) refuses, comments aside."""
    bad = []
    for path in sources(SRC, exts):
        if allowed(path):
            continue
        code = strip_comments(read(path))
        for n, line in enumerate(code.splitlines(), 1):
            if pattern.search(line):
                bad.append("%s:%d: %s" % (os.path.relpath(path, thlib.ROOT),
                                          n, line.strip()))
    return bad


def in_model(path):
    return layer_of(path) == "model"


def test_only_the_model_probes_kernel_types():
    bad = calls_outside(PROBES, in_model)
    assert not bad, ("type probes outside src/model/:\n" + "\n".join(bad))


# The model's reads of raw dump memory (model/model.h), and crash's own:
# the layers above ask the model for an object (a kprobe, a hash, the code
# at an address: model/text_bytes.h) or a string (th_read_cstr()), never
# for bytes at an address they worked out themselves.
RAW_READ = re.compile(r"\b(th_read|th_read_ulong|th_read_uint|th_read_int|"
                      r"th_read_u64|th_read_via|readmem)\s*\(")


def test_only_the_model_reads_the_dump():
    bad = calls_outside(RAW_READ, in_model, (".c", ".h"))
    assert not bad, ("reads of dump memory outside src/model/:\n" +
                     "\n".join(bad))


# crash's own look-ups of a type: only model/types.c asks them, behind its
# cache and the vmlinux BTF's answers (model/btf_types.h)
CRASH_TYPE = re.compile(r"\b(MEMBER_OFFSET|MEMBER_SIZE|MEMBER_TYPE|"
                        r"ANON_MEMBER_OFFSET|STRUCT_SIZE|datatype_info)\s*\(")


def test_only_types_c_asks_crash_for_types():
    bad = calls_outside(CRASH_TYPE, lambda p: p.endswith(
        os.path.join("model", "types.c")))
    assert not bad, ("crash's type look-ups outside src/model/types.c "
                     "(use th_member(), th_size(), ...):\n" + "\n".join(bad))


def test_each_member_is_looked_up_in_one_file():
    where = {}
    for path in sources(SRC):
        for m in MEMBER.finditer(strip_comments(read(path))):
            where.setdefault(m.groups(), set()).add(
                os.path.relpath(path, thlib.ROOT))
    twice = {"%s.%s" % k: sorted(v) for k, v in where.items() if len(v) > 1}
    assert not twice, "\n".join("%s: %s" % (k, ", ".join(v))
                                for k, v in sorted(twice.items()))


def functions(code):
    """(name, first line, number of lines) of each top-level function:
    kernel style, the body's braces in column 0."""
    lines = code.splitlines()
    start = None
    for i, l in enumerate(lines):
        if l == "{" and start is None:
            j = i - 1
            while j > 0 and "(" not in lines[j]:
                j -= 1
            m = re.search(r"(\w+)\s*\(", lines[j])
            start = (i, m.group(1) if m else "?", j)
        elif l == "}" and start is not None:
            yield start[1], start[2] + 1, i - start[0] + 1
            start = None


def test_file_and_function_sizes():
    bad = []
    for top in (SRC, LIB):
        for path in sources(top):
            text = read(path)
            rel = os.path.relpath(path, thlib.ROOT)
            n = text.count("\n")
            if n > MAX_FILE_LINES:
                bad.append("%s: %d lines" % (rel, n))
            lines = text.splitlines()
            for name, first, length in functions(text):
                if length <= MAX_FUNC_LINES:
                    continue
                head = "\n".join(lines[max(0, first - 15):first])
                if ONE_SWITCH.search(head):
                    continue
                bad.append("%s:%d: %s() is %d lines" % (rel, first, name,
                                                        length))
    assert not bad, "\n".join(bad)


def test_functions_finds_long_ones():
    body = "\n".join(["\tx();"] * 130)
    code = "static void f(void)\n{\n%s\n}\n\nint g(int a)\n{\n}\n" % body
    got = list(functions(code))
    assert got[0][0] == "f" and got[0][2] == 132
    assert got[1][0] == "g" and got[1][2] == 2


def test_so_exports_nothing_but_what_crash_needs():
    """crash dlopen()s the .so and its constructor registers the commands:
    no symbol of ours is looked up, so none is exported (two extensions in
    one crash process must not collide on a global name)."""
    if not os.path.exists(thlib.SO):
        pytest.skip("no %s" % thlib.SO)
    p = subprocess.run(["nm", "-D", "--defined-only", thlib.SO],
                       capture_output=True, text=True, check=True)
    exported = [l.split()[-1] for l in p.stdout.splitlines() if l.strip()]
    # _init/_fini are the linker's, on toolchains that still emit them
    extra = [s for s in exported if s not in ("_init", "_fini")]
    assert not extra, "exported: %s" % " ".join(extra)


# The oldest glibc a suite's crash runs on (bullseye's 2.31): the extension
# built on the host for another suite (make CRASH_INCLUDE=<chroot>/...)
# links against the host's glibc, so it may use no symbol version newer
# than that one (fstat() and stat() are GLIBC_2.33 symbols).
OLDEST_GLIBC = (2, 31)


def test_so_needs_no_newer_glibc_than_the_oldest_suite():
    if not os.path.exists(thlib.SO):
        pytest.skip("no %s" % thlib.SO)
    p = subprocess.run(["objdump", "-T", thlib.SO], capture_output=True,
                       text=True, check=True)
    newer = sorted({"%s (GLIBC_%s)" % (l.split()[-1], m.group(1))
                    for l in p.stdout.splitlines()
                    for m in [re.search(r"\(GLIBC_([\d.]+)\)", l)]
                    if m and tuple(int(x) for x in m.group(1).split(".")
                                   [:2]) > OLDEST_GLIBC})
    assert not newer, "symbols bullseye's glibc %d.%d lacks: %s" % (
        OLDEST_GLIBC + (", ".join(newer),))
