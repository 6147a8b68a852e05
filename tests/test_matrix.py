"""The kernel and crash matrix: every (suite, scenario, variant) opens in the
crash its manifest names, and src/ never compares kernel versions."""

import json
import os
import re

import pytest

import thlib

SRC_DIRS = ("src", "lib")

# Ways C code could look at the kernel's version instead of probing a
# feature: <linux/version.h> macros, crash's own version macros and fields,
# and parsing the release string (utsname / uname / osrelease).
VERSION_PATTERNS = [
    r"\bLINUX_VERSION_CODE\b", r"\bKERNEL_VERSION\s*\(",
    r"\bTHIS_KERNEL_VERSION\b", r"\bkernel_version\b", r"\bLINUX\s*\(",
    r"\bVERSION_CODE\b", r"\butsname\b", r"\buname\b", r"\bosrelease\b",
    r"\bUTS_RELEASE\b", r"\bLINUX_VERSION_(MAJOR|PATCHLEVEL|SUBLEVEL)\b",
    r"\bget_kernel_version\b", r"\bkt->(release|version)\b",
]


def strip_comments(text):
    """C source without comments (line numbers kept)."""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r"/\*.*?\*/|//[^\n]*", blank, text, flags=re.S)


def version_comparisons(root):
    hits = []
    for d in SRC_DIRS:
        base = os.path.join(root, d)
        for dp, _, fns in os.walk(base):
            for fn in sorted(fns):
                if not fn.endswith((".c", ".h")):
                    continue
                path = os.path.join(dp, fn)
                with open(path, errors="replace") as f:
                    code = strip_comments(f.read())
                for n, line in enumerate(code.splitlines(), 1):
                    for pat in VERSION_PATTERNS:
                        if re.search(pat, line):
                            hits.append("%s:%d: %s" % (
                                os.path.relpath(path, root), n,
                                line.strip()))
                            break
    return hits


@pytest.mark.once
def test_no_kernel_version_comparisons_in_src():
    hits = version_comparisons(thlib.ROOT)
    assert not hits, ("kernel version tests in src/ (feature-probe "
                      "instead):\n" + "\n".join(hits))


@pytest.mark.once
def test_version_grep_bites(tmp_path):
    """The grep finds what it is meant to find, and not in comments."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.c").write_text(
        "/* LINUX_VERSION_CODE in a comment is fine */\n"
        "// so is uname\n"
        "static int ok;\n")
    assert version_comparisons(str(tmp_path)) == []
    for bad in ("#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 11, 0)",
                "if (THIS_KERNEL_VERSION >= LINUX(6,4,0))",
                "sscanf(kt->utsname.release, \"%d.%d\", &a, &b);"):
        (src / "b.c").write_text(bad + "\n")
        assert version_comparisons(str(tmp_path)), bad


def test_opens_with_recorded_crash(dump):
    """The dump opens (kprobes runs) in the crash the manifest names, with
    the extension built against that crash's defs.h."""
    m = dump.manifest
    out = dump.out("kprobes")
    assert out is not None, dump.log[-2000:]
    assert b"not implemented" not in out
    # crash -s prints no banner; "sys" (run last) names the dump and kernel.
    tail = dump.log.split("shared object unloaded")[-1]
    assert "DUMPFILE: %s" % m["vmcore"] in tail, tail
    release = m["release"]
    if dump.suite in thlib.fixture.CUSTOM_KERNELS:
        # a custom kernel's cache key; its own release is build-kernel's
        # record of "make kernelrelease"
        with open(os.path.join(os.path.dirname(m["vmlinux"]),
                               "build.json")) as f:
            release = json.load(f)["release"]
    assert "RELEASE: %s" % release in tail, tail
    if "crash_suite" in m:
        so = thlib.so_for(dump.suite)
        assert "%s: shared object loaded" % so in dump.log


def test_variant_format(dump):
    """Each variant really is what it says."""
    with open(dump.manifest["vmcore"], "rb") as f:
        head = f.read(8)
    if dump.variant == "elf":
        assert head[:4] == b"\x7fELF"
    elif dump.variant == "filtered":
        assert head == b"KDUMP   ", head
    else:
        # QEMU (7.2) writes kdump-zlib in makedumpfile's flattened format
        # ("makedumpfile" signature); crash reassembles it.
        assert head in (b"KDUMP   ", b"makedump"), head
    if dump.variant == "filtered":
        # makedumpfile -d 31 (fixture.FILTER_LEVEL) left out pages the
        # unfiltered dump keeps.
        size = os.path.getsize(dump.manifest["vmcore"])
        sib = os.path.join(os.path.dirname(dump.dir), "kdump", "vmcore")
        if os.path.exists(sib):
            assert size < os.path.getsize(sib)


def test_kaslr_really_randomized(dump):
    """The KASLR variant's kernel text is not at its link address; the
    others are (nokaslr)."""
    tail = dump.log.split("shared object unloaded")[-1]
    m = re.search(r"KASLR offset:\s*(\w+)", dump.out("help -k").decode())
    if m is None:
        pytest.skip("crash prints no KASLR offset")
    off = int(m.group(1), 16)
    assert (off != 0) == (dump.variant == "kaslr"), (off, tail)
