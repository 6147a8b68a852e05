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
# the kernel's values of the types bookworm's bpftool has no name for
# (same_type())
ENUMS = ["p/d BPF_PROG_TYPE_NETFILTER", "p/d BPF_LINK_TYPE_NETFILTER"]
CMDS += ENUMS
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


def same_type(dump, enum, ours, live):
    """Our type name OURS against bpftool's LIVE.  The guest's bpftool is
    bookworm's (7.1) on every kernel, and prints a type it has no name for
    as its number (v6.4's netfilter programs and links): that number is
    compared with the value of the kernel's enum constant ENUM + OURS in
    capitals (crash's p/d, from the vmlinux's debuginfo)."""
    if isinstance(live, int) and isinstance(ours, str):
        cmd = "p/d %s%s" % (enum, ours.upper())
        assert cmd in ENUMS, cmd
        m = re.search(rb"= (-?\d+)", dump.out(cmd))
        return m is not None and int(m.group(1)) == live
    return ours == live


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
        assert same_type(dump, "BPF_PROG_TYPE_", op["type"], lp["type"]), \
            "prog %d type: %r, live %r" % (pid, op["type"], lp["type"])
        for k in ("name", "tag", "bytes_xlated", "jited",
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
        assert same_type(dump, "BPF_LINK_TYPE_", ol["type"], ll["type"]), \
            "link %d type: %r, live %r" % (lid, ol["type"], ll["type"])
        assert ol["prog_id"] == ll["prog_id"], lid
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


# The programs of th_pinned.bpf.o, whose loader ("th_bpfload -x") pinned
# what it made and exited (testdata/scenarios/bpf/setup.sh)
EXITED = {"th_pinned", "th_tp_btf", "th_xdp", "th_tcx", "th_nf"}
# th_bpfload -n's programs a network device holds, without a link
DEVICE_HELD = {"th_xdp", "th_tcx"}


def holders_text(hs, pins=None):
    """ebpf's "held by" text of the processes HS and the pins PINS (None:
    a perf event, which has no pins)."""
    items = ["pid %d %s fd %d" % (h["pid"], h["comm"], h["fd"]) for h in hs]
    items += ["pin " + p["path"] for p in pins or []]
    if not items:
        return "[no process]" if pins is None else "[no process or pin]"
    return "[" + ", ".join(items) + "]"


def prog_held_text(p):
    return "held by " + holders_text(p["holders"], p["pins"]) + (
        ", only by its link" if p["held_by"] == "link" else "") + (
        ", only by the device that runs it" if p["held_by"] == "device"
        else "") + (
        "; no process holds it or its links" if p["no_process"] else "")


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
        if progs[l["prog_id"]]["name"] in EXITED:
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
    assert held == [prog_held_text(p) for p in progs]
    dev = [l.strip() for l in text if l.strip().startswith("no link, device")]
    assert dev == ["no link, device: " + d for p in progs for d in p["devices"]]
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
        "held by " + holders_text(l["holders"], l["pins"]) + (
            ", its perf event by " + holders_text(l["perf_holders"])
            if l["perf_holders"] is not None else "") for l in links]
    text = dump.out("ebpf -m").decode().splitlines()[1:]
    assert [l.split() for l in text if re.match(r"\s*\d+\s", l)] == \
        [[str(m["id"]), m["type"], m["name"], str(m["bytes_key"]),
          str(m["bytes_value"]), str(m["max_entries"]), "%x" % m["flags"],
          m["struct"][2:]] for m in maps]
    held = [l.strip() for l in text if l.strip().startswith("held by ")]
    assert held == ["held by " + holders_text(m["holders"], m["pins"])
                    for m in maps]


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
    # the links' findings first, then those of the programs attached
    # without one (test_hooks_net_programs, test_hooks_every_program)
    assert len(bpf) >= len(links)
    assert all(f["bpf"]["link_id"] == 0 and f["bpf"]["link_held_by"] ==
               {"processes": [], "pins": []} for f in bpf[len(links):])
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


def live_pins(dump):
    """bpf/pins: {(kind, id): [path, ...]}, each file of the guest's bpf
    file system and the object bpftool KIND show pinned PATH found."""
    if not dump.has_truth("bpf/pins"):
        pytest.skip("no bpf/pins captured")
    out = {}
    for line in dump.truth("bpf/pins").decode().splitlines():
        path, kind, oid = line.split()
        out.setdefault((kind, int(oid)), []).append(path)
    assert out, "the guest's bpf file system has no pin"
    return out


def live_inos(dump):
    """bpf/bpffs.ls (busybox ls -liR /sys/fs/bpf): {path: inode number}."""
    out, d = {}, None
    for line in dump.truth("bpf/bpffs.ls").decode().splitlines():
        if line.endswith(":"):
            d = line[:-1]
        elif d and line.split() and line.split()[0].isdigit():
            f = line.split()
            out[d + "/" + f[-1]] = int(f[0])
    return out


def our_pins(dump):
    """{(kind, id): [pin, ...]} of every program, link and map ebpf -j,
    -l -j and -m -j list (a link's id 0: no link, no pins)."""
    out = {}
    for cmd, kind, key in (("ebpf -j", "prog", "programs"),
                           ("ebpf -l -j", "link", "links"),
                           ("ebpf -m -j", "map", "maps")):
        for o in doc(dump, cmd)[key]:
            if kind == "link" and o["id"] == 0:
                assert o["pins"] is None, o
                continue
            assert o["pins"] is not None, o
            if o["pins"]:
                out[(kind, o["id"])] = o["pins"]
    return out


@scenarios("bpf")
def test_pins_match_bpffs(dump):
    """Every pin of the guest's bpf file system, and no other, on the
    object bpftool found through it, by its path (the mount point of
    /proc/mounts and the path under it) and its inode number (ls -i)."""
    live = live_pins(dump)
    ours = our_pins(dump)
    assert {k: sorted(p["path"] for p in v) for k, v in ours.items()} == \
        {k: sorted(v) for k, v in live.items()}
    mounts = [l.split()[1] for l in
              dump.truth("bpf/mounts").decode().splitlines()]
    assert len(mounts) == 1, mounts
    inos = live_inos(dump)
    for pins in ours.values():
        for p in pins:
            assert p["mount"] == mounts[0], p
            assert p["path"] == p["mount"] + p["fs_path"], p
            assert p["ino"] == inos[p["path"]], (p, inos)


@scenarios("bpf")
def test_held_by(dump):
    """What keeps each program: the loader's programs are held by its fds;
    those of the loader that exited (EXITED) by no process, through a pin
    of their own where bpf/pins has one, else through their link alone
    (th_tp_btf, whose link alone is pinned)."""
    live = live_pins(dump)
    links = doc(dump, "ebpf -l -j")["links"]
    for p in doc(dump, "ebpf -j")["programs"]:
        if p["name"] not in EXITED:
            assert (p["held_by"], p["no_process"]) == ("process", False), p
            continue
        assert p["no_process"] is True and p["holders"] == [], p
        if ("prog", p["id"]) in live:
            assert p["held_by"] == "pin", p
        elif p["name"] in DEVICE_HELD:
            assert not p["links"] and p["held_by"] == "device", p
        else:
            assert p["links"] and p["held_by"] == "link", p
            # its link is pinned, and held by no process
            for l in links:
                if l["prog_id"] == p["id"]:
                    assert ("link", l["id"]) in live and \
                        l["held_by"] == "pin", l


@scenarios("bpf")
def test_hooks_name_the_holders(dump):
    """Each bpf finding of hooks -j names who holds its link and its
    program: the loader's fds, the pins bpf/pins lists for them, and no
    process for the programs of the loader that exited (EXITED), said in
    its reason too."""
    live = live_pins(dump)
    loader = int(dump.truth("bpf/loader.pid"))
    progs = {p["id"]: p for p in doc(dump, "ebpf -j")["programs"]}
    bpf = [f for f in doc(dump, "hooks -j")["findings"] if f["kind"] == "bpf"]
    assert bpf
    for f in bpf:
        b = f["bpf"]
        p = progs[b["prog_id"]]
        if b["link_id"]:
            assert sorted(b["link_held_by"]["pins"]) == \
                sorted(live.get(("link", b["link_id"]), [])), f
        else:
            assert b["link_held_by"]["pins"] == [], f
        assert sorted(b["prog_held_by"]["pins"]) == \
            sorted(live.get(("prog", p["id"]), [])), f
        pids = {h["pid"] for h in b["link_held_by"]["processes"] +
                b["prog_held_by"]["processes"]}
        orphan = p["name"] in EXITED
        assert pids == (set() if orphan else {loader}), f
        assert (b["no_process"], b["held_by"]) == (orphan, p["held_by"]), f
        assert ("no process holds it or its links" in f["why"]) == orphan
        assert f["verdict"] != "ok", f


@scenarios("bpf")
def test_tp_btf(dump):
    """A tp_btf program (a tracing program on a raw_tracepoint link, as
    bpftool listed it live): a bpf finding "tp_btf TRACEPOINT" naming it,
    and the tracepoint's __bpf_trace_ probe judged by it, neither ok."""
    live_progs = {p["id"]: p for p in truth_json(dump, "prog")}
    tp_btf = [l for l in truth_json(dump, "link")
              if l["type"] == "raw_tracepoint" and
              live_progs[l["prog_id"]]["type"] == "tracing"]
    assert tp_btf, "the scenario's th_tp_btf is not attached"
    findings = doc(dump, "hooks -j")["findings"]
    for l in tp_btf:
        p = live_progs[l["prog_id"]]
        mine = [f for f in findings if f["kind"] == "bpf" and
                f["bpf"]["link_id"] == l["id"]]
        assert len(mine) == 1, (l, mine)
        f = mine[0]
        assert f["target"] == "tp_btf " + l["tp_name"], f
        assert f["owner"] == "BPF prog %d %s" % (p["id"], p["name"]), f
        assert f["verdict"] != "ok", f
        core = [f for f in findings if f["kind"] == "tracepoint" and
                f["target"] == l["tp_name"] and
                f["handler"].startswith("__bpf_trace_" + l["tp_name"] + "+")]
        assert core and all(f["verdict"] != "ok" for f in core), core
        assert all("BPF program %d %s" % (p["id"], p["name"]) in f["why"]
                   for f in core), core


def live_net(dump):
    """bpf/net.out, th_bpfload -n's lines: the attachments the kernel
    accepted {kind: (where, program id)} and those it refused {kind:
    errno}."""
    if not dump.has_truth("bpf/net.out"):
        pytest.skip("no bpf/net.out captured")
    acc, ref = {}, {}
    for line in dump.truth("bpf/net.out").decode().splitlines():
        tag, kind, where, n = line.split()
        assert tag == "th_net", line
        if where == "none":
            ref[kind] = int(n)
        else:
            acc[kind] = (where, int(n))
    return acc, ref


@scenarios("bpf")
def test_hooks_net_programs(dump):
    """The programs th_bpfload -n attached on the network path and left to
    the kernel alone (bpf/net.out: what it accepted): XDP on lo in generic
    mode, as bpftool net show listed it live; tcx on lo's ingress (v6.6),
    both through no link; a netfilter link on ipv4 LOCAL_OUT, priority
    -128 (v6.4), held by its pin.  Each is one bpf finding naming its
    program, a note, never ok; the netfilter hook entry the link made
    runs nf_hook_run_bpf, core code that is judged by the program it
    runs.  What a kernel refused is not found."""
    acc, ref = live_net(dump)
    findings = doc(dump, "hooks -j")["findings"]
    progs = {p["id"]: p for p in doc(dump, "ebpf -j")["programs"]}
    bpf = [f for f in findings if f["kind"] == "bpf"]

    def only(target, pid, name):
        m = [f for f in bpf if f["target"] == target]
        assert len(m) == 1, (target, m)
        f = m[0]
        assert f["bpf"]["prog_id"] == pid, f
        assert f["owner"] == "BPF prog %d %s" % (pid, name), f
        assert f["handler"].startswith(progs[pid]["ksym"] + "+0x0/"), f
        assert f["verdict"] == "note", f
        return f

    # generic XDP: every kernel of the matrix (v4.12)
    assert "xdp" in acc, ref
    where, pid = acc["xdp"]
    assert where == "lo/generic"
    live_xdp = [x for d in truth_json(dump, "net") for x in d.get("xdp", [])]
    assert live_xdp == [{"devname": "lo", "ifindex": 1, "mode": "generic",
                         "id": pid}], live_xdp
    assert progs[pid]["devices"] == ["xdp lo (generic)"]
    f = only("xdp lo (generic)", pid, "th_xdp")
    assert f["bpf"]["link_id"] == 0, f
    assert "through the device lo without a link" in f["why"], f
    if "tcx" in acc:
        where, pid = acc["tcx"]
        assert where == "lo/ingress"
        assert progs[pid]["devices"] == ["tcx lo ingress"]
        f = only("tcx lo ingress", pid, "th_tcx")
        assert f["bpf"]["link_id"] == 0, f
        assert "through the device lo without a link" in f["why"], f
    else:
        assert not [f for f in bpf if f["target"].startswith("tcx ")]
    nf = [f for f in findings if f["kind"] == "netfilter" and
          f["handler"].startswith("nf_hook_run_bpf+")]
    if "netfilter" in acc:
        where, pid = acc["netfilter"]
        assert where == "ipv4/LOCAL_OUT/-128"
        links = [l for l in truth_json(dump, "link") if l["prog_id"] == pid]
        assert len(links) == 1, links
        f = only("netfilter ipv4 LOCAL_OUT priority -128", pid, "th_nf")
        assert f["bpf"]["link_id"] == links[0]["id"], f
        assert len(nf) == 1, nf
        assert nf[0]["target"] == "ipv4 LOCAL_OUT priority -128", nf
        assert nf[0]["verdict"] == "note", nf
        assert nf[0]["why"].startswith(
            "runs BPF program %d th_nf (netfilter, tag %s) through link %d "
            "(netfilter)" % (pid, progs[pid]["tag"], links[0]["id"])), nf
    else:
        assert not nf, nf
        assert not [f for f in bpf if f["target"].startswith("netfilter ")]


@scenarios("bpf")
def test_hooks_every_program(dump):
    """No loaded program escapes hooks: every program bpftool listed live
    is the program of a bpf finding.  Those that no live link, perf event
    or device runs are findings "no attachment found (TYPE program)" (the
    5.10 guest's th_pinned: before v5.15 a kprobe program has no link to
    pin, and its perf event closed with its loader), and no other is."""
    acc, _ = live_net(dump)
    live = by_id(truth_json(dump, "prog"))
    attached = ({l["prog_id"] for l in truth_json(dump, "link")} |
                {p["prog_id"] for p in truth_json(dump, "perf")} |
                {pid for _, pid in acc.values()})
    bpf = [f for f in doc(dump, "hooks -j")["findings"] if f["kind"] == "bpf"]
    assert {f["bpf"]["prog_id"] for f in bpf} == set(live)
    loose = {}
    for f in bpf:
        if f["target"].startswith("no attachment found"):
            assert f["bpf"]["prog_id"] not in loose, f
            loose[f["bpf"]["prog_id"]] = f
    assert set(loose) == set(live) - attached, loose
    for pid, f in loose.items():
        p = live[pid]
        assert f["target"] == "no attachment found (%s program)" % p["type"]
        assert f["owner"] == "BPF prog %d %s" % (pid, p["name"]), f
        bad = BAD_HELPERS & set(live_helpers(dump, pid))
        assert f["verdict"] == ("suspicious" if bad else "note"), f
