"""kprobes: the live debug/kprobes/list, exactly; owners of every handler."""

import re

import pytest

import thlib
from conftest import scenarios


def test_list_matches_live(dump):
    if not dump.has_truth("debug/kprobes/list"):
        pytest.skip("no kprobes/list captured")
    thlib.assert_same(dump.truth("debug/kprobes/list"), dump.out("kprobes"),
                      "kprobes/list")


def _blocks(text):
    return [b for b in text.decode().split("\n\n") if b.strip()]


@scenarios("modules")
def test_modules_owners(dump):
    """Every handler of th_visible is attributed to it; every handler and
    probe struct of the unlinked th_hidden is HIDDEN with its vmap area."""
    blocks = _blocks(dump.out("kprobes -v"))
    assert blocks
    listed = dump.truth("proc/modules").decode()
    assert "th_visible" in listed and "th_hidden" not in listed
    seen = {"th_visible": 0, "th_hidden": 0}
    for b in blocks:
        head = b.splitlines()[0]
        for line in b.splitlines():
            m = re.search(r"\[(th_visible|th_hidden)\]\s+(.*)$", line)
            if not m or "_handler" not in line and "handler " not in line:
                continue
            mod, owner = m.group(1), m.group(2)
            if mod == "th_visible":
                assert owner == "[th_visible]", line
            else:
                assert owner.startswith("HIDDEN [th_hidden] (vmap "), line
            seen[mod] += 1
        if "th_hid_" in b:
            assert "HIDDEN [th_hidden] (vmap " in head, head
        elif "th_vis_" in b:
            assert head.split()[2] == "[th_visible]", head
    d = thlib.scenario_defines("modules")
    # pre+post, inside pre, kretprobe handler+entry
    assert seen["th_visible"] == 5 and seen["th_hidden"] == 4, seen


@scenarios("modules")
def test_modules_kretprobe_fields(dump):
    d = thlib.scenario_defines("modules")
    text = dump.out("kprobes -v").decode()
    for p in ("VIS", "HID"):
        sym = d["TH_%s_KRP_SYMBOL" % p]
        blk = [b for b in _blocks(text.encode())
               if b.startswith("kretprobe") and
               "registered as   %s+0x0" % sym in b]
        assert len(blk) == 1, (sym, text)
        b = blk[0]
        assert re.search(r"maxactive\s+%d\n" % d["TH_%s_KRP_MAXACTIVE" % p],
                         b + "\n"), b
        assert re.search(r"data_size\s+%d\n" % d["TH_%s_KRP_DATA_SIZE" % p],
                         b + "\n"), b


@pytest.mark.parametrize("name", ["kprobe_events", "kprobe_profile"])
def test_kprobe_event_files_match_live(dump, name):
    if not dump.has_truth("tracing/" + name):
        pytest.skip("not captured")
    thlib.assert_same(dump.truth("tracing/" + name),
                      dump.out("ftrace cat " + name), name)


@scenarios("events")
def test_verbose_names_trace_event(dump):
    """kprobes -v names the trace event of every probe that belongs to one,
    with the same hit count kprobe_profile shows."""
    text = dump.out("kprobes -v").decode()
    prof = {}
    for line in dump.truth("tracing/kprobe_profile").decode().splitlines():
        f = line.split()
        prof[f[0]] = int(f[1])
    events = re.findall(r"trace event\s+(\S+)/(\S+) \(hits (\d+)\)", text)
    assert sorted(e[1] for e in events) == sorted(prof)
    for grp, name, hits in events:
        assert int(hits) == prof[name]
