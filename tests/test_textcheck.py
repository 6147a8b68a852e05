"""Text integrity in `hooks`: each core function's entry, up to the end of
its ftrace site, compared with the vmlinux on disk; every rewrite the
kernel made (ftrace, alternatives, paravirt, retpolines, return thunks,
jump labels, static calls, IBT sealing, SMP locks, kprobes) is explained,
so a real dump has no suspicious text finding, and a jmp written over a
function's entry gives exactly one, at that function."""

import json
import re

import pytest

import conftest
import damage
import thlib


def _hooks_json(out):
    assert out is not None, "hooks -j printed nothing"
    return json.loads(out.decode())


def _text_findings(j):
    return [f for f in j["findings"] if f["kind"] == "text"]


def test_no_unexplained_text(dump):
    """Every difference between the dump's core text and the vmlinux is
    explained: no text finding at all, and the functions were compared."""
    j = _hooks_json(dump.out("hooks -j"))
    s = j["summary"]
    assert s["text_checked"], "text integrity was not checked"
    assert s["text_functions_checked"] > 0
    text = _text_findings(j)
    assert not text, "unexplained text differences:\n" + "\n".join(
        "%s %s: %s" % (f["target"], f["bytes"], f["why"]) for f in text)
    assert re.search(r"^text: \d+ core functions compared",
                     dump.out("hooks").decode(), re.M)


# Entries rewritten in different ways by the kernel itself: an ftrace
# site (NOP), an alternative, a jump label, and one left as on disk.
VICTIMS = ("vfs_statx", "__memcpy", "native_sched_clock", "rcu_is_watching")
# their addresses and first bytes, from the events dumps' one session each
_INFO = ["sym %s" % v for v in VICTIMS + ("do_exit",)] + \
    ["rd -8 %s 5" % v for v in VICTIMS]
thlib.batch(_INFO, scenarios=["events"])


def _sym(text):
    m = re.match(r"\s*([0-9a-f]{16})\s", text)
    return int(m.group(1), 16) if m else None


@thlib.background
def test_jmp_over_entry(dump, tmp_path):
    """A jmp written over core functions' entries in a copy of a real dump
    gives exactly one suspicious text finding at each function, and none
    elsewhere; its bytes and both decodings are shown."""
    if dump.scenario != "events":
        pytest.skip("run once per suite and variant")
    thlib.once_per_suite(dump, "jmp over entry")
    d = conftest.get_dump((dump.suite, "events", "elf"))
    info = {c: d.out(c) for c in _INFO}
    addr = {}
    for v in VICTIMS + ("do_exit",):
        a = _sym((info["sym %s" % v] or b"").decode())
        if a is not None:
            addr[v] = a
    assert "do_exit" in addr, info["sym do_exit"]
    victims = [v for v in VICTIMS if v in addr]
    assert victims, "none of %s in this kernel" % (VICTIMS,)
    pt = damage.PageTables(d.manifest)
    copy = str(tmp_path / "vmcore")
    damage.copy_dump(d.manifest["vmcore"], copy)
    for v in victims:
        phys = pt.vtop(addr[v])
        # (the translation checked: the bytes there are the entry's)
        assert damage.peek(copy, phys, 5) == damage.parse_rd(
            info["rd -8 %s 5" % v].decode()), (v, hex(phys))
        rel = (addr["do_exit"] - (addr[v] + 5)) & 0xffffffff
        damage.patch(copy, phys, b"\xe9" + rel.to_bytes(4, "little"))
    bad = damage.with_vmcore(d, copy)
    out = bad.run(["hooks -j", "hooks -v", "hooks"])
    j = _hooks_json(out["hooks -j"])
    text = _text_findings(j)
    for v in victims:
        mine = [f for f in j["findings"]
                if int(f["target_addr"], 16) == addr[v]]
        assert len(mine) == 1, (v, mine)
        f = mine[0]
        assert f["kind"] == "text" and f["verdict"] == "suspicious", f
        assert f["bytes"].startswith("e9"), f
        assert "do_exit" in f["handler"], f
    assert len(text) == len(victims), text
    assert j["summary"]["suspicious"] == len(victims), j["summary"]
    verbose = out["hooks -v"].decode()
    for v in victims:
        pat = r"^suspicious\s+text\s+\S*%s\S*\+0x0\b" % v.lstrip("_")
        assert re.search(pat, verbose, re.M), verbose
    # crash goes on after the command
    assert "RELEASE:" in bad.log.split("shared object unloaded")[-1]
