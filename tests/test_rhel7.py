"""Issue 28: RHEL 7's 3.10.0-514.el7 (suite rhel7, scenario rhel7): the
seed case's hooks on the kernel it came from.  Every other test file runs
on these dumps too (fixture.GENERIC_SUITES); this one checks what only
the rhel7 scenario plants: the jprobe `my_fork [jprobe_test]` on do_fork,
SystemTap-style kprobes and kretprobes (stap_th_probes), and the self-
unlinking th_hidden, against the live kprobes/list of the same boot and
the scenario's own module sources.  `make check-rhel7`."""
import json
import os
import re

import thlib
from conftest import scenarios

MODDIR = os.path.join(thlib.fixture.SCENARIOS, "rhel7", "modules")


def _source(name):
    with open(os.path.join(MODDIR, name)) as f:
        return f.read()


def _findings(dump):
    return json.loads(dump.out("hooks -j"))["findings"]


def _blocks(text):
    """kprobes -v: one block per probe, split at its header line."""
    return [b for b in re.split(r"\n(?=(?:kprobe|kretprobe|jprobe) "
                                r"[0-9a-f]{16})", text) if b.strip()]


@scenarios("rhel7")
def test_live_list_has_every_type(dump):
    """The boot really planted a jprobe, kretprobes and kprobes (the
    live debug/kprobes/list: "ADDR  TYPE  SYMBOL ..."), and `kprobes`
    prints that list as it is (test_kprobes.py compares it byte for byte
    on every dump)."""
    live = dump.truth("debug/kprobes/list").decode().splitlines()
    types = set(l.split()[1] for l in live if len(l.split()) > 1)
    assert {"k", "r", "j"} <= types, live
    thlib.assert_same(dump.truth("debug/kprobes/list"), dump.out("kprobes"),
                      "kprobes/list")


@scenarios("rhel7")
def test_jprobe_entry_named(dump):
    """kprobes -v: the jprobe's entry is the module's own function, named
    with its module, on the function the module names."""
    src = _source("jprobe_test.c")
    entry = re.search(r"\.entry\s*=\s*(\w+)", src).group(1)
    target = re.search(r'\.symbol_name\s*=\s*"(\w+)"', src).group(1)
    blocks = [b for b in _blocks(dump.out("kprobes -v").decode())
              if b.startswith("jprobe ")]
    assert len(blocks) == 1, blocks
    b = blocks[0]
    assert re.search(r"^  address\s+[0-9a-f]{16}  %s\+0x0/" % target, b,
                     re.M), b
    assert re.search(r"^  jprobe entry\s+[0-9a-f]{16}  %s\+0x0/0x[0-9a-f]+ "
                     r"\[jprobe_test\]  \[jprobe_test\]$" % entry, b,
                     re.M), b
    assert re.search(r"^  pre_handler\s+[0-9a-f]{16}  setjmp_pre_handler\+",
                     b, re.M), b


@scenarios("rhel7")
def test_every_handler_named(dump):
    """kprobes -v: every handler in module space is named with its module
    ([th_visible], [jprobe_test], [stap_th_probes]); the module that
    unlinked itself too, found in its memory (3.10 has no module tree),
    and said to be HIDDEN."""
    text = dump.out("kprobes -v").decode()
    lines = [l for l in text.splitlines() if re.match(
        r"  (pre_handler|post_handler|handler|entry_handler|jprobe entry)"
        r"\s+ffffffffa", l)]
    assert lines, text
    for l in lines:
        assert re.search(r"\[(th_visible|jprobe_test|stap_th_probes)\]$",
                         l) or re.search(r" \w+\+0x0/0x[0-9a-f]+ "
                                         r"\[th_hidden\]  HIDDEN \[th_hidden\]",
                                         l), l
    # SystemTap's generated modules share one handler per kind
    stap = [l for l in lines if "[stap_th_probes]" in l]
    assert stap and any("enter_kprobe_probe" in l for l in stap) and \
        any("enter_kretprobe_probe" in l for l in stap), stap


@scenarios("rhel7")
def test_hooks_attribution(dump):
    """hooks -j: the jprobe belongs to jprobe_test, the SystemTap-style
    probes to stap_th_probes, the visible module's hooks to it (note);
    th_hidden's hooks (its kprobes, kretprobe, ftrace ops and the sites
    its filter names) are HIDDEN, each inside one vmap area; nothing is
    suspicious.  3.10 has no module tree: the kernel itself knows nothing
    of th_hidden once it left the list (its kprobes/list names none of
    its code), and hooks finds its struct module in that vmap area
    (model/modules.c): each hook's owner is [th_hidden] and its handler
    a function of th_hidden.c, named from the module's own symbols."""
    d = thlib.scenario_defines("rhel7")
    fs = _findings(dump)
    jp = [f for f in fs if f["kind"] == "jprobe"]
    assert len(jp) == 1 and jp[0]["owner_module"] == "jprobe_test" and \
        jp[0]["verdict"] == "note", jp
    stap = [f for f in fs if f["owner_module"] == "stap_th_probes"]
    assert sorted(set(f["kind"] for f in stap)) == ["kprobe",
                                                    "kretprobe"], stap
    mod = [f for f in fs if f["kind"] == "module"]
    assert len(mod) == 1 and mod[0]["target"] == "module th_hidden" and \
        mod[0]["verdict"] == "HIDDEN" and "its own memory" in mod[0]["why"], \
        mod
    hid = [f for f in fs if f["verdict"] == "HIDDEN" and f not in mod]
    assert sorted(set(f["kind"] for f in hid)) == [
        "ftrace_ops", "ftrace_site", "kprobe", "kretprobe"], hid
    assert all(f["vmap"] for f in hid), hid
    src = _source("th_hidden.c")
    for f in hid:
        m = re.match(r"(\w+)\+0x0/0x[0-9a-f]+ \[th_hidden\]$",
                     f["handler"])
        assert f["owner_module"] == "th_hidden" and m and \
            re.search(r"\b%s\(" % m.group(1), src), f
    # its probe on its own code: the live kprobes/list prints only the
    # address (the kernel's kallsyms no longer sees the module), hooks
    # names the function
    live = dump.truth("debug/kprobes/list").decode().splitlines()
    bare = set(int(l.split()[0], 16) for l in live
               if len(l.split()) > 2 and l.split()[2].startswith("ffff"))
    own = [f for f in hid if int(f["target_addr"], 16) in bare]
    assert own, (bare, hid)
    for f in own:
        m = re.match(r"(\w+)\+0x0/0x[0-9a-f]+ \[th_hidden\]$", f["target"])
        assert m and re.search(r"\b%s\(" % m.group(1), src), f
    assert len(set((f["vmap"]["start"], f["vmap"]["end"])
                   for f in hid)) == 1, hid
    targets = set(f["target"].split("+")[0] for f in hid)
    for k in ("TH_HID_KRP_SYMBOL", "TH_HID_KP_SYMBOL", "TH_HID_KP_INSIDE",
              "TH_HID_OPS_FUNC1", "TH_HID_OPS_FUNC2"):
        assert d[k] in targets, (k, targets)
    assert not [f for f in fs if f["verdict"] == "suspicious"]


@scenarios("rhel7")
def test_sites_decoded(dump):
    """ftrace sites: 3.10's patched call sites (call ftrace_regs_caller,
    the probes on ftrace) agree with ftrace's records: 0 mismatches."""
    out = dump.out("ftrace sites").decode()
    m = re.search(r"(\d+) records, (\d+) enabled, (\d+) patched, (\d+) "
                  r"mismatches", out)
    assert m, out[-2000:]
    assert int(m.group(2)) > 0 and m.group(2) == m.group(3), m.group(0)
    assert m.group(4) == "0", m.group(0)
    assert "call 0x" in out and "ftrace_regs_caller" in out, out[:2000]
