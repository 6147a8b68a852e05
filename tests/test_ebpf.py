"""ebpf, ebpf -l, ebpf -m (issue 23): the BPF programs, links and maps the
dump holds, compared with what bpftool printed in the guest of the same
boot just before the panic (testdata/scenarios/bpf captures bpftool -j
prog/link/map/perf show and the [bpf] lines of /proc/kallsyms as
truth/bpf/*).  Every field bpftool printed and the dump holds is compared
exactly; not compared: bpftool's loaded_at (a wall-clock time bpftool
computes from the live clocks at the moment it ran; the dump holds the
boot-time nanoseconds, load_time_ns) and pids (bookworm's bpftool is built
without the iterator that finds them).  A program a process put on a
perf event with ioctl(PERF_EVENT_IOC_SET_BPF), without a BPF link (the
only way before Linux kernel commit b89fbfbb854c ("bpf: Implement
minimal BPF perf link") (in v5.15): the 5.10 guest's kprobes and
tracepoint programs), is listed among the links with id 0 and no struct
bpf_link, compared with bpftool perf show like the perf links of newer
kernels.  Dumps of other scenarios: only the shape of the output (a
listing, or one line saying what the kernel lacks)."""

import json
import re

import pytest

import thlib
from conftest import scenarios

CMDS = ["ebpf", "ebpf -l", "ebpf -m", "ebpf -j", "ebpf -l -j",
        "ebpf -m -j", "hooks -j"]
# helpers that let a program change what the kernel or a process sees:
# hooks calls a program holding one suspicious
BAD_HELPERS = {"bpf_probe_write_user", "bpf_override_return",
               "bpf_send_signal", "bpf_send_signal_thread"}
thlib.batch(CMDS)


def truth_json(dump, what):
    name = "bpf/%s.json" % what
    if not dump.has_truth(name):
        pytest.skip("no %s captured (bpftool failed in the guest?)" % name)
    return json.loads(dump.truth(name))


def doc(dump, cmd):
    d = json.loads(dump.out(cmd).decode())
    assert "error" not in d, d["error"]
    assert d["warnings"] == [], d["warnings"]
    return d


def by_id(items):
    out = {}
    for x in items:
        assert x["id"] not in out, "id %d twice" % x["id"]
        out[x["id"]] = x
    return out


def linked(links):
    """The entries of ebpf -l -j that are links (a link id is never 0);
    the others are programs on perf events without a link."""
    for l in links:
        assert (l["id"] == 0) == (l["struct"] is None), l
        if l["id"] == 0:
            assert l["type"] == "perf_event" and l["holders"] is None, l
            assert l["perf_event"] and l["perf_holders"], l
    return [l for l in links if l["id"]]


@pytest.mark.parametrize("cmd", ["ebpf", "ebpf -l", "ebpf -m"])
def test_output_shape(dump, cmd):
    """A listing with its header, or on a kernel without BPF one line
    saying what the dump lacks."""
    out = dump.out(cmd).decode()
    lines = out.splitlines()
    assert lines, "no output"
    if lines[0].startswith("ebpf: not available in this dump: no "):
        assert len(lines) == 1, out
        return
    assert lines[0].split()[0] == "ID", out[:300]
    assert "tracehunt: warning" not in out, out


@scenarios("bpf")
def test_programs_match_bpftool(dump):
    live = by_id(truth_json(dump, "prog"))
    ours = by_id(doc(dump, "ebpf -j")["programs"])
    assert sorted(ours) == sorted(live)
    for pid, lp in live.items():
        op = ours[pid]
        for k in ("type", "name", "tag", "bytes_xlated", "jited",
                  "bytes_jited", "bytes_memlock", "uid"):
            assert op[k] == lp[k], "prog %d %s: %r, live %r" % (
                pid, k, op[k], lp[k])
        # bpftool prints map_ids and btf_id only when there are some
        assert op["map_ids"] == lp.get("map_ids", []), pid
        assert op["btf_id"] == lp.get("btf_id"), pid
        assert op["error"] is None


@scenarios("bpf")
def test_maps_match_bpftool(dump):
    live = by_id(truth_json(dump, "map"))
    ours = by_id(doc(dump, "ebpf -m -j")["maps"])
    assert sorted(ours) == sorted(live)
    for mid, lm in live.items():
        om = ours[mid]
        for k in ("type", "name", "flags", "bytes_key", "bytes_value",
                  "max_entries"):
            assert om[k] == lm[k], "map %d %s: %r, live %r" % (
                mid, k, om[k], lm[k])
        assert om["frozen"] == bool(lm["frozen"]), mid
        assert om["btf_id"] == lm.get("btf_id"), mid


@scenarios("bpf")
def test_links_match_bpftool(dump):
    live = by_id(truth_json(dump, "link"))
    ours = by_id(linked(doc(dump, "ebpf -l -j")["links"]))
    assert sorted(ours) == sorted(live)
    for lid, ll in live.items():
        ol = ours[lid]
        assert (ol["type"], ol["prog_id"]) == (ll["type"], ll["prog_id"])
        # what bpftool's show_link_*_json() print for these kinds
        if "tp_name" in ll:
            assert ol["tp_name"] == ll["tp_name"], lid
        if "attach_type" in ll:
            assert ol["attach_type"] == ll["attach_type"], lid
        assert ol["error"] is None
    # every program's links, as the programs' document lists them
    progs = doc(dump, "ebpf -j")["programs"]
    for p in progs:
        assert sorted(p["links"]) == sorted(
            l["id"] for l in ours.values() if l["prog_id"] == p["id"])


@scenarios("bpf")
def test_attach_points_match_bpftool_perf(dump):
    """bpftool perf show: each perf event (and raw tracepoint) a process
    holds, with the program on it: the same attach point on the link of
    that program, or on its entry without a link exactly when the live
    kernel listed no perf_event link of that program; and no entry
    without a link that bpftool perf did not list."""
    perf = truth_json(dump, "perf")
    assert perf, "bpftool perf show listed nothing"
    live_links = truth_json(dump, "link")
    links = doc(dump, "ebpf -l -j")["links"]
    linked(links)
    for p in perf:
        mine = [l for l in links if l["prog_id"] == p["prog_id"]]
        assert len(mine) == 1, (p, mine)
        l = mine[0]
        if p["fd_type"] == "raw_tracepoint":
            assert (l["type"], l["tp_name"]) == ("raw_tracepoint",
                                                 p["tracepoint"])
            continue
        live_perf_link = [ll for ll in live_links
                          if ll["prog_id"] == p["prog_id"] and
                          ll["type"] == "perf_event"]
        assert (l["id"] != 0) == bool(live_perf_link), (p, l)
        assert l["type"] == "perf_event" and l["perf_type"] == p["fd_type"]
        if p["fd_type"] in ("kprobe", "kretprobe"):
            assert (l["perf_func"], l["perf_offset"]) == (p["func"],
                                                          p["offset"])
            # the probed address: the function's own %pS
            assert l["target"]["symbol"].startswith(
                "%s+0x%x/" % (p["func"], p["offset"])), l["target"]
        elif p["fd_type"] == "tracepoint":
            assert l["tp_name"] == p["tracepoint"]
        else:
            pytest.fail("fd_type %s not compared" % p["fd_type"])
    unlinked = sorted(l["prog_id"] for l in links if l["id"] == 0)
    assert unlinked == sorted(
        p["prog_id"] for p in perf if p["fd_type"] != "raw_tracepoint" and
        not any(ll["prog_id"] == p["prog_id"] and
                ll["type"] == "perf_event" for ll in live_links))


def kallsyms(dump):
    if not dump.has_truth("bpf/kallsyms"):
        pytest.skip("no bpf/kallsyms captured")
    out = {}
    for line in dump.truth("bpf/kallsyms").decode().splitlines():
        addr, _, name, mod = line.split()
        assert mod == "[bpf]", line
        out[name] = int(addr, 16)
    return out


@scenarios("bpf")
def test_kallsyms_names_and_addresses(dump):
    """Every program's and trampoline's name and address as the live
    /proc/kallsyms listed it."""
    ks = kallsyms(dump)
    progs = doc(dump, "ebpf -j")["programs"]
    links = doc(dump, "ebpf -l -j")["links"]
    ours = {p["ksym"]: int(p["image"], 16) for p in progs}
    for l in links:
        if l["trampoline"]:
            ours[l["trampoline"]] = int(l["trampoline_image"], 16)
    named = {n: a for n, a in ks.items()
             if n.startswith(("bpf_prog_", "bpf_trampoline_"))}
    assert named, "no program in the live kallsyms"
    assert ours == named


def holders_text(hs):
    if not hs:
        return "[no process]"
    return "[" + ", ".join("pid %d %s fd %d" % (h["pid"], h["comm"], h["fd"])
                           for h in hs) + "]"


@scenarios("bpf")
def test_holders_match_bpftool_perf(dump):
    """bpftool perf show's pid and fd of every perf event (and raw
    tracepoint link) carrying a program: the same process and fd on the
    link of that program; the loader's pid (bpf/loader.pid) holds every
    link it made, and the link it pinned before exiting is held by no
    process."""
    perf = truth_json(dump, "perf")
    links = doc(dump, "ebpf -l -j")["links"]
    for p in perf:
        l = [l for l in links if l["prog_id"] == p["prog_id"]][0]
        hs = l["holders"] if p["fd_type"] == "raw_tracepoint" else \
            l["perf_holders"]
        assert {"pid": p["pid"], "fd": p["fd"]} in \
            [{"pid": h["pid"], "fd": h["fd"]} for h in hs], (p, hs)
    loader = int(dump.truth("bpf/loader.pid"))
    progs = {p["id"]: p for p in truth_json(dump, "prog")}
    for l in links:
        if l["id"] == 0:
            # no link: the perf event, held by the loader, keeps it
            assert {h["pid"] for h in l["perf_holders"]} == {loader}, l
            continue
        pids = {h["pid"] for h in l["holders"]}
        if progs[l["prog_id"]]["name"] == "th_pinned":
            assert pids == set(), l
        else:
            assert pids == {loader}, l


@scenarios("bpf")
def test_text_matches_json(dump):
    """The text listings say what -j says: one row per object with its id,
    type, name and tag (programs), prog (links), sizes (maps), and each
    link's attach point under its program."""
    progs = doc(dump, "ebpf -j")["programs"]
    links = doc(dump, "ebpf -l -j")["links"]
    maps = doc(dump, "ebpf -m -j")["maps"]
    text = dump.out("ebpf").decode().splitlines()[1:]
    rows = [l.split() for l in text if re.match(r"\s*\d+\s", l)]
    assert [(int(r[0]), r[1], r[2], r[3]) for r in rows] == \
        [(p["id"], p["type"], p["name"], p["tag"]) for p in progs]
    att = [l.strip() for l in text
           if l.strip().startswith(("link ", "no link "))]
    assert att == [("link %d" % l["id"] if l["id"] else "no link") +
                   " %s: %s" % (l["type"], l["attached_to"])
                   for p in progs for l in links if l["prog_id"] == p["id"]]
    held = [l.strip() for l in text if l.strip().startswith("held by ")]
    assert held == ["held by " + holders_text(p["holders"]) for p in progs]
    text = dump.out("ebpf -l").decode().splitlines()[1:]
    assert [l.split(None, 4) for l in text if re.match(r"\s*[\d-]+\s", l)] \
        == [[str(l["id"]) if l["id"] else "-", l["type"], str(l["prog_id"]),
             l["struct"][2:] if l["struct"] else "-", l["attached_to"]]
            for l in links]
    held = [l.strip() for l in text
            if l.strip().startswith(("held by ", "no link; "))]
    assert held == [
        "no link; its perf event held by " + holders_text(l["perf_holders"])
        if l["id"] == 0 else
        "held by " + holders_text(l["holders"]) + (
            ", its perf event by " + holders_text(l["perf_holders"])
            if l["perf_holders"] is not None else "") for l in links]
    text = dump.out("ebpf -m").decode().splitlines()[1:]
    assert [l.split() for l in text] == \
        [[str(m["id"]), m["type"], m["name"], str(m["bytes_key"]),
          str(m["bytes_value"]), str(m["max_entries"]), "%x" % m["flags"],
          m["struct"][2:]] for m in maps]


def live_helpers(dump, prog_id):
    """The functions the program's translated instructions call, as the
    live bpftool prog dump xlated named them ("(85) call NAME#IMM"), each
    once, in order."""
    name = "bpf/xlated.%d" % prog_id
    if not dump.has_truth(name):
        pytest.skip("no %s captured" % name)
    out = []
    for n in re.findall(r"\(85\) call ([A-Za-z_][\w.]*)#",
                        dump.truth(name).decode()):
        if n not in out:
            out.append(n)
    return out


@scenarios("bpf")
def test_helpers_match_bpftool_xlated(dump):
    progs = doc(dump, "ebpf -j")["programs"]
    called = set()
    for p in progs:
        assert p["helpers"] == live_helpers(dump, p["id"]), p["id"]
        called |= set(p["helpers"])
    assert "bpf_probe_write_user" in called, \
        "the scenario's th_tp_exit holds bpf_probe_write_user"


@scenarios("bpf")
def test_hooks_judge_every_bpf_link(dump):
    """hooks: one "bpf" finding per link (and per program on a perf event
    without a link, naming the process holding the event), naming the
    program it runs, never ok; suspicious exactly when the program calls
    a helper of BAD_HELPERS (by the live xlated dump); the kprobes BPF put
    through perf events are judged by their programs, not as core."""
    findings = doc(dump, "hooks -j")["findings"]
    progs = {p["id"]: p for p in doc(dump, "ebpf -j")["programs"]}
    links = doc(dump, "ebpf -l -j")["links"]
    bpf = [f for f in findings if f["kind"] == "bpf"]
    assert len(bpf) == len(links)
    for f, l in zip(bpf, links):
        p = progs[l["prog_id"]]
        assert f["owner"] == "BPF prog %d %s" % (p["id"], p["name"])
        assert f["handler"].startswith(p["ksym"] + "+0x0/"), f
        bad = BAD_HELPERS & set(live_helpers(dump, p["id"]))
        assert f["verdict"] == ("suspicious" if bad else "note"), f
        if l["id"]:
            assert "link %d " % l["id"] in f["why"], f
        else:
            h = l["perf_holders"][0]
            assert "a perf event without a link held by pid %d %s fd %d" % (
                h["pid"], h["comm"], h["fd"]) in f["why"], f
    for p in truth_json(dump, "perf"):
        if p["fd_type"] not in ("kprobe", "kretprobe"):
            continue
        at = [f for f in findings if f["kind"] == p["fd_type"] and
              f["target"].startswith("%s+0x%x/" % (p["func"], p["offset"]))]
        assert at and all(f["verdict"] != "ok" for f in at), (p, at)
