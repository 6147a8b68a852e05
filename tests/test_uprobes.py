"""uprobes (issue 23): uprobe_events and uprobe_profile as the live kernel
printed them, and every uprobe of the kernel's uprobes tree in hooks with
its consumers and their owners, compared with what the guest of the same
boot captured before the panic.

The uprobe scenario (testdata/scenarios/uprobe) puts on the static
busybox: tracefs uprobe events (one left disabled), a module's own
consumer (th_uvis) and a self-unlinking module's (th_uhid), BPF uprobe and
uretprobe programs through perf links, a uprobe_multi link (v6.6), and
beside them kprobe_multi (CONFIG_FPROBE), fmod_ret and LSM programs.  Its
truth: the tracefs files, each uprobe event's enable file
(uprobe/enable/GROUP/EVENT), bpftool's JSON (bpf/prog.json, link.json,
perf.json) and the loader's /proc/PID/fdinfo (bpf/fdinfo.FD: a multi
link's places, on kernels that show them).  The options scenario's
uprobe events are compared too, by their files and hits."""

import json
import os
import re

import pytest

import thlib
from conftest import scenarios

thlib.batch(["ebpf -j", "ebpf -l -j"], scenarios=("uprobe",))

# a line of uprobe_events: p|r:GROUP/EVENT PATH:0x%016lx[(0x%lx)] ARGS
EVENT_LINE = re.compile(r"([pr]):([^/ ]+)/(\S+) (\S+):0x([0-9a-f]{16})"
                        r"(?:\(0x([0-9a-f]+)\))?")


def doc(dump, cmd):
    d = json.loads(dump.out(cmd).decode())
    assert "error" not in d, d["error"]
    assert d["warnings"] == [], d["warnings"]
    return d


def live_events(dump):
    """The live uprobe events: (kind, group, event, path, offset) by
    GROUP/EVENT, from the captured uprobe_events."""
    if not dump.has_truth("tracing/uprobe_events"):
        pytest.skip("no uprobe_events captured")
    out = {}
    for line in dump.truth("tracing/uprobe_events").decode().splitlines():
        m = EVENT_LINE.match(line)
        assert m, line
        out["%s/%s" % (m.group(2), m.group(3))] = (
            m.group(1), m.group(2), m.group(3), m.group(4),
            int(m.group(5), 16))
    return out


def live_hits(dump):
    """EVENT -> hits of the captured uprobe_profile."""
    out = {}
    for line in dump.truth("tracing/uprobe_profile").decode().splitlines():
        path, event, hits = line.split()
        out[event] = int(hits)
    return out


def uprobe_findings(dump):
    """hooks -j's uprobe findings by target ("PATH:0xOFFSET")."""
    out = {}
    for f in doc(dump, "hooks -j")["findings"]:
        if f["kind"] == "uprobe":
            assert f["target"] not in out, f
            out[f["target"]] = f
    return out


def at(path, offset):
    return "%s:%#x" % (path, offset)


@pytest.mark.parametrize("name", ["uprobe_events", "uprobe_profile"])
def test_files_equal_live(dump, name):
    """Byte for byte the live file (the options and uprobe scenarios
    have uprobe events; elsewhere the files are empty)."""
    if not dump.has_truth("tracing/" + name):
        pytest.skip("%s not captured" % name)
    thlib.assert_same(dump.truth("tracing/" + name),
                      dump.out("ftrace cat " + name), name)


def test_no_uprobe_is_ok(dump):
    """User code diverted into the kernel is never ok; every consumer is
    named."""
    for f in uprobe_findings(dump).values():
        assert f["verdict"] != "ok", f
        n = int(re.search(r", (\d+) consumers?", f["why"]).group(1))
        named = re.findall(r"(?:: |; )(\d+)\. ", f["why"])
        assert n >= 1 and [int(i) for i in named] == \
            list(range(1, n + 1)), f


def test_events_in_the_tree(dump):
    """An enabled uprobe event is a consumer of the uprobe at its file and
    offset (named as its trace event, uprobe or uretprobe); a disabled one
    is in no uprobe's consumers.  Where the enable files were not captured
    (the options scenario), an event with hits is registered."""
    events = live_events(dump)
    hits = live_hits(dump)
    found = uprobe_findings(dump)
    for key, (kind, group, event, path, offset) in events.items():
        en = "uprobe/enable/%s/%s" % (group, event)
        if dump.has_truth(en):
            enabled = dump.truth(en).strip() == b"1"
        elif hits[event]:
            enabled = True
        else:
            continue
        name = "trace event %s/%s (%s, uprobe_events)" % (
            group, event, "uretprobe" if kind == "r" else "uprobe")
        f = found.get(at(path, offset))
        if enabled:
            assert f and name in f["why"], (key, f)
        else:
            assert not any(name in g["why"] for g in found.values()), key


def truth_json(dump, what):
    name = "bpf/%s.json" % what
    if not dump.has_truth(name):
        pytest.skip("no %s captured" % name)
    return json.loads(dump.truth(name))


@scenarios("uprobe")
def test_bpf_perf_uprobes_match_bpftool(dump):
    """Each uprobe and uretprobe bpftool perf show listed: its link names
    the same file and offset, and so does the program's bpf finding; the
    uprobe at that place names the program among its consumers."""
    perf = [p for p in truth_json(dump, "perf")
            if p["fd_type"] in ("uprobe", "uretprobe")]
    assert perf, "the scenario's th_buprobe and th_buretprobe"
    progs = {p["id"]: p for p in truth_json(dump, "prog")}
    links = doc(dump, "ebpf -l -j")["links"]
    fs = doc(dump, "hooks -j")["findings"]
    found = uprobe_findings(dump)
    for p in perf:
        l = [l for l in links if l["prog_id"] == p["prog_id"]]
        assert len(l) == 1, (p, l)
        l = l[0]
        assert (l["perf_type"], l["perf_func"], l["perf_offset"]) == \
            (p["fd_type"], p["filename"], p["offset"]), (p, l)
        where = "%s %s" % (p["fd_type"], at(p["filename"], p["offset"]))
        assert l["attached_to"] == where
        name = progs[p["prog_id"]]["name"]
        b = [f for f in fs if f["kind"] == "bpf" and
             f["owner"] == "BPF prog %d %s" % (p["prog_id"], name)]
        assert len(b) == 1 and b[0]["target"] == where, b
        assert b[0]["verdict"] == "note", b
        u = found[at(p["filename"], p["offset"])]
        assert "BPF program %d %s (" % (p["prog_id"], name) in u["why"], u
        assert "through link %d (perf_event)" % l["id"] in u["why"], u


def fdinfo(dump, link_id):
    """The loader's fdinfo of the link LINK_ID: key -> value lines, and
    the lines of its table (after a header line of names); None when the
    kernel shows no such file."""
    for n in dump.truth_names():
        if not n.startswith("bpf/fdinfo."):
            continue
        text = dump.truth(n).decode()
        if re.search(r"^link_id:\s*%d$" % link_id, text, re.M):
            return text
    return None


def linked_as(dump, kind):
    """The live links of KIND (bpftool 7.1 names no uprobe_multi: its
    type number then) with the links ebpf -l -j has for them."""
    live = truth_json(dump, "link")
    ours = {l["id"]: l for l in doc(dump, "ebpf -l -j")["links"]}
    out = []
    for ll in live:
        ol = ours[ll["id"]]
        assert ol["prog_id"] == ll["prog_id"], (ll, ol)
        if isinstance(ll["type"], str):
            assert ol["type"] == ll["type"], (ll, ol)
        if ol["type"] == kind:
            out.append((ll, ol))
    return out


@scenarios("uprobe")
def test_uprobe_multi(dump):
    """A uprobe_multi link (v6.6): its file and offsets as the kernel's
    fdinfo of the link shows them (where it does), a uprobe at each offset
    naming the program through the link, and the program's bpf finding."""
    pairs = linked_as(dump, "uprobe_multi")
    loader = dump.truth("bpf/loader.out").decode()
    if not pairs:
        assert "ready" in loader
        pytest.skip("no uprobe_multi link (a kernel before v6.6)")
    found = uprobe_findings(dump)
    progs = {p["id"]: p for p in truth_json(dump, "prog")}
    for ll, ol in pairs:
        m = ol["multi"]
        assert m and m["count"] == len(m["offsets"]) and not m["return"], ol
        info = fdinfo(dump, ll["id"])
        if info is not None and "uprobe_cnt:" in info:
            # bpf_uprobe_multi_show_fdinfo(): uprobe_cnt, pid, path, then
            # "cookie offset ref_ctr_offset" per uprobe, in link order
            assert re.search(r"^uprobe_cnt:\s*%d$" % m["count"], info,
                             re.M), info
            assert re.search(r"^path:\s*%s$" % re.escape(m["path"]), info,
                             re.M), info
            offs = [int(x, 16) for x in re.findall(
                r"^\d+\s+(0x[0-9a-f]+)\s+0x[0-9a-f]+$", info, re.M)]
            assert offs == m["offsets"], (info, m)
        name = progs[ll["prog_id"]]["name"]
        for off in m["offsets"]:
            u = found[at(m["path"], off)]
            assert "BPF program %d %s (" % (ll["prog_id"], name) in \
                u["why"] and "through link %d (uprobe_multi)" % ll["id"] \
                in u["why"], u


@scenarios("uprobe")
def test_kprobe_multi(dump):
    """A kprobe_multi link: its functions as the kernel's fdinfo lists
    them (where it does) and as the live enabled_functions shows them on
    the fprobe's ops; that ops finding names the program, never ok."""
    pairs = linked_as(dump, "kprobe_multi")
    if not pairs:
        pytest.skip("no kprobe_multi link (no CONFIG_FPROBE)")
    fs = doc(dump, "hooks -j")["findings"]
    live_ef = dump.truth("tracing/enabled_functions").decode()
    for ll, ol in pairs:
        m = ol["multi"]
        syms = [a["symbol"] for a in m["addrs"]]
        funcs = [s.split("+")[0] for s in syms]
        assert m["count"] == len(funcs) >= 1 and not m["return"], ol
        info = fdinfo(dump, ll["id"])
        if info is not None and "kprobe_cnt:" in info:
            # bpf_kprobe_multi_show_fdinfo(): kprobe_cnt, missed, then
            # "cookie func" (%pS) per address, in the link's order
            assert re.search(r"^kprobe_cnt:\s*%d$" % m["count"], info,
                             re.M), info
            live = re.findall(r"^\d+\s+(\S+)$", info, re.M)
            assert live == syms, (info, syms)
        for fn in funcs:
            line = [l for l in live_ef.splitlines()
                    if l.split(" ")[0] == fn]
            assert line and "fprobe" in line[0], (fn, line)
        ops = [f for f in fs if f["kind"] == "ftrace_ops" and
               "link %d (kprobe_multi)" % ll["id"] in f["why"]]
        assert len(ops) == 1 and ops[0]["verdict"] == "note", ops


@scenarios("uprobe")
def test_every_bpf_link_named(dump):
    """Every live link has its bpf finding naming its program, never ok;
    a trampoline's direct ops (fmod_ret, LSM) names the programs it runs
    and is not ok either."""
    progs = {p["id"]: p for p in truth_json(dump, "prog")}
    fs = doc(dump, "hooks -j")["findings"]
    for ll in truth_json(dump, "link"):
        p = progs[ll["prog_id"]]
        b = [f for f in fs if f["kind"] == "bpf" and
             f["owner"] == "BPF prog %d %s" % (p["id"], p["name"])]
        assert len(b) == 1 and b[0]["verdict"] == "note", (ll, b)
        assert "link %d (" % ll["id"] in b[0]["why"], b
        if ll["type"] == "tracing":
            d = [f for f in fs if f["kind"] == "ftrace_ops" and
                 "BPF program %d %s (" % (p["id"], p["name"]) in f["why"]]
            assert len(d) == 1 and d[0]["verdict"] == "note", (ll, d)
    assert not [f for f in fs if f["kind"] == "ftrace_ops" and
                f["verdict"] == "ok" and
                f["handler"].startswith(("call_direct_funcs", "fprobe"))]


@scenarios("uprobe")
def test_module_consumers(dump):
    """The uprobe at _start (the unnamed, disabled event's place) has the
    listed th_uvis's consumer: note, owned by [th_uvis]; the one at main
    (th_grp/th_main's) the unlinked th_uhid's: HIDDEN, named from the
    module tree, with its vmalloc area."""
    events = live_events(dump)
    start = [e for e in events.values() if e[2].startswith("p_busybox_")]
    main = events["th_grp/th_main"]
    assert len(start) == 1
    found = uprobe_findings(dump)
    s = found[at(start[0][3], start[0][4])]
    assert s["verdict"] == "note" and "th_uc_handler+0x0/" in s["why"] \
        and "[th_uvis]" in s["why"], s
    m = found[at(main[3], main[4])]
    assert m["verdict"] == "HIDDEN" and m["owner_module"] == "th_uhid" and \
        m["vmap"], m
    assert "in memory no listed module covers" in m["why"], m
    others = [f for f in found.values() if f["verdict"] == "HIDDEN"]
    assert others == [m], others


# where the uprobe events' arguments are (a planted-damage test)
_LAYOUT = ["list dyn_event.list -H dyn_event_list", "struct dyn_event -o",
           "struct trace_uprobe -o", "struct trace_probe -o",
           "struct probe_arg -o", "struct fetch_type -o",
           "sym probe_fetch_types"]
thlib.batch(_LAYOUT, scenarios=("uprobe",))


def _offsets(text):
    """{member: offset} and SIZE of crash's `struct X -o`."""
    offs = {m.group(2): int(m.group(1)) for m in re.finditer(
        r"^\s*\[(\d+)\] [^;]*?\**(\w+)(?:\[\d*\])?;$", text, re.M)}
    size = re.search(r"^SIZE: (\d+)", text, re.M)
    return offs, int(size.group(1)) if size else 0


@scenarios("uprobe")
@thlib.background
def test_damaged_probe_arg(dump, tmp_path):
    """A uprobe event's argument given another fetch type, or another
    offset, in a copy of the ELF dump: the trace prints what the kernel
    would have decoded, with a warning naming the event, in each command
    that prints its records (the global trace and the CPU's)."""
    import conftest
    import damage
    thlib.once_per_suite(dump, "damaged probe_arg")
    d = conftest.get_dump((dump.suite, "uprobe", "elf"))
    out = {c: d.out(c).decode() for c in _LAYOUT}
    dev, _ = _offsets(out["struct dyn_event -o"])
    tu, _ = _offsets(out["struct trace_uprobe -o"])
    tp, _ = _offsets(out["struct trace_probe -o"])
    pa, pa_size = _offsets(out["struct probe_arg -o"])
    ft, ft_size = _offsets(out["struct fetch_type -o"])
    table = int(out["sym probe_fetch_types"].split()[0], 16)
    core, pt = d.manifest["vmcore"], damage.PageTables(d.manifest)

    def word(addr, n=8):
        return int.from_bytes(damage.peek(core, pt.vtop(addr), n), "little")

    def cstr(addr):
        b = damage.peek(core, pt.vtop(addr), min(64, 4096 - (addr & 0xfff)))
        return b.split(b"\0")[0].decode(errors="replace")
    types = {}
    for i in range(64):
        name = word(table + i * ft_size + ft["name"])
        if not name:
            break
        types[cstr(name)] = table + i * ft_size
    # an x32 argument of a uprobe event (the scenario's th_mallopt value)
    victim = None
    for line in out["list dyn_event.list -H dyn_event_list"].split():
        ev = int(line, 16) - dev["list"] - tu["devent"]
        probe = ev + tu["tp"]
        for i in range(word(probe + tp["nr_args"], 4)):
            arg = probe + tp["args"] + i * pa_size
            if word(arg + pa["type"]) == types.get("x32"):
                victim = (arg, cstr(word(arg + pa["name"])))
                break
        if victim:
            break
    assert victim and "u32" in types, (types, out)
    arg, name = victim
    trace = [l for l in d.truth("tracing/trace").decode().splitlines()
             if re.search(r" %s=0x[0-9a-f]+" % name, l)]
    assert trace, "no live line prints %s as x32" % name
    cpu = int(re.search(r"\[(\d+)\]", trace[0]).group(1))
    cmds = ["ftrace cat trace", "ftrace cat per_cpu/cpu%d/trace" % cpu]
    for what, where, value in (
            ("type", arg + pa["type"], types["u32"].to_bytes(8, "little")),
            ("offset", arg + pa["offset"],
             (word(arg + pa["offset"], 4) + 4).to_bytes(4, "little"))):
        copy = str(tmp_path / "vmcore")
        damage.copy_dump(core, copy)
        damage.patch(copy, pt.vtop(where), value)
        bad = damage.with_vmcore(d, copy)
        res = {c: o.decode() for c, o in bad.run(cmds).items()}
        for c in cmds:
            warns = [l for l in res[c].splitlines()
                     if l.startswith("tracehunt: warning: ")]
            assert any("probe_arg at %x: event " % arg in w and
                       " (%s)" % name in w for w in warns), (what, c, warns)
        if what == "type":
            # decoded as the kernel would: the same value, in decimal
            v = int(re.search(r" %s=(0x[0-9a-f]+)" % name, trace[0])
                    .group(1), 16)
            assert " %s=%d" % (name, v) in res[cmds[0]], res[cmds[0]][:3000]
        assert "RELEASE:" in bad.log.split("shared object unloaded")[-1]
        os.unlink(copy)
