"""ftrace ops / enabled_functions / sites: the live enabled_functions byte
for byte; every enabled function's call site decoded from the dump's text
and agreeing with the live file; the hidden module's ops; a dump whose
call-site bytes were altered."""

import os
import re
import shutil

import pytest

import thlib
from conftest import scenarios

SITE_RE = re.compile(r"^(ok|MISMATCH|UNREADABLE)\s+([0-9a-f]+)  (\S+)"
                     r"(?: \[(\S+)\])?  \((\d+)\)([ A-Z]*)  "
                     r"([0-9a-f ]{14}|-)  (.*)$")
SUMMARY_RE = re.compile(r"^(\d+) records, (\d+) enabled, (\d+) patched, "
                        r"(\d+) mismatches")


def parse_sites(text):
    sites, summary = [], None
    for line in text.decode().splitlines():
        m = SITE_RE.match(line)
        if m:
            verdict, ip, sym, mod, ref, fl, hexb, rest = m.groups()
            sites.append({"verdict": verdict, "ip": int(ip, 16),
                          "name": sym.split("+")[0], "mod": mod or "",
                          "off": sym.split("+")[1] if "+" in sym else "",
                          "ref": int(ref), "flags": fl.split(),
                          "bytes": hexb, "rest": rest, "line": line})
            continue
        m = SUMMARY_RE.match(line)
        if m:
            summary = [int(x) for x in m.groups()]
    return sites, summary


# outs() of the tests below, in each dump's one crash session
thlib.batch(["ftrace sites -a"])
thlib.batch(["ftrace sites %s" % thlib.scenario_defines(
    "modules").get("TH_HID_OPS_FUNC1"), "ftrace sites -m no_such_module",
    "ftrace sites no_such_symbol_xyz"], scenarios=["modules"])


def outs(dump, cmds):
    """Outputs of CMDS, the ones not in the default batch run together in
    one more crash process."""
    dump.out("ftrace ops")
    missing = [c for c in cmds if c not in dump.outputs]
    if missing:
        dump.outputs.update(dump.run(missing))
    return [dump.outputs[c] for c in cmds]


def live_entries(dump):
    """(name, module, first tramp %pS or None, '->' target or None, the
    "\tdirect-->%pS" or "\tdirect(jmp)-->%pS" continuation or None) of
    every live enabled_functions entry."""
    out = []
    for line in dump.truth("tracing/enabled_functions").decode().split("\n"):
        m = re.match(r"^\t(direct(?:\(jmp\))?-->.*)$", line)
        if m and out:
            out[-1] = out[-1][:4] + (m.group(1),)
            continue
        if not line or line.startswith("\t"):
            continue
        m = re.match(r"^(\S+)(?: \[(\S+)\])? \(\d+\)", line)
        assert m, line
        tramp = re.search(r"\ttramp: (.*?) \(", line)
        arrow = re.search(r" ->(.*?)(?:\t|$)", line)
        out.append((m.group(1), m.group(2) or "",
                    tramp.group(1) if tramp else None,
                    arrow.group(1) if arrow else None, None))
    return out


def test_enabled_functions_matches_live(dump):
    if not dump.has_truth("tracing/enabled_functions"):
        pytest.skip("no enabled_functions captured")
    thlib.assert_same(dump.truth("tracing/enabled_functions"),
                      dump.out("ftrace cat enabled_functions"),
                      "enabled_functions")


def test_sites_agree_with_live(dump):
    """0 mismatches, and every live enabled function is a patched site
    whose decoded call target is the live file's trampoline / caller."""
    if not dump.has_truth("tracing/enabled_functions"):
        pytest.skip("no enabled_functions captured")
    sites, summary = parse_sites(dump.out("ftrace sites"))
    assert summary, dump.out("ftrace sites")[-2000:]
    records, enabled, patched, mismatches = summary
    live = live_entries(dump)
    assert mismatches == 0, [s["line"] for s in sites
                             if s["verdict"] != "ok"][:20]
    assert enabled == len(live) and patched == len(live), (summary,
                                                          len(live))
    # Not every record is enabled on 5.10/6.1; function_graph on 6.12 and
    # 7.2 enables them all (the live file lists every record there).
    assert records >= enabled
    by_name = {}
    for s in sites:
        by_name.setdefault((s["name"], s["mod"]), []).append(s)
    for name, mod, tramp, arrow, direct in live:
        cands = by_name.get((name, mod), [])
        assert cands, "live %s [%s] has no patched site" % (name, mod)
        ok = False
        for s in cands:
            # a direct trampoline alone on the function: the site calls
            # it (ftrace_get_addr_new()), or jumps to it ("(jmp)", 7.x)
            if s["verdict"] == "ok" and direct is not None and \
                    s["rest"].startswith(
                        "jmp 0x" if "(jmp)" in direct else "call 0x") and \
                    s["rest"].endswith(direct):
                ok = True
                break
            if s["verdict"] != "ok" or not s["rest"].startswith("call 0x"):
                continue
            if tramp is not None:
                ok = ("tramp: %s (ops " % tramp) in s["rest"] and \
                    (arrow is None or s["rest"].endswith("->" + arrow))
            else:
                ok = re.search(r"ftrace_(regs_)?caller ->", s["rest"]) \
                    is not None and (arrow is None or
                                     s["rest"].endswith("->" + arrow))
            if ok:
                break
        assert ok, (name, mod, tramp, arrow, [s["line"] for s in cands])


def test_sites_all_counts(dump):
    """-a lists every record; the totals agree with the default view."""
    out_a, out = outs(dump, ["ftrace sites -a", "ftrace sites"])
    all_sites, summary_a = parse_sites(out_a)
    _, summary = parse_sites(out)
    assert summary_a == summary
    assert len(all_sites) == summary[0]
    ips = [s["ip"] for s in all_sites]
    assert len(set(ips)) == len(ips)
    for s in all_sites:
        if s["verdict"] == "ok" and "E" not in s["flags"]:
            # (before v6.2 the XDP dispatcher's function jumps to its
            # image, its record disabled: the bpf scenario's XDP program)
            assert s["rest"] == "nop" or (
                dump.scenario == "bpf" and
                s["line"].split()[2].startswith("bpf_dispatcher_xdp_func+") and
                s["rest"].endswith("-- the XDP BPF dispatcher's jump to its "
                                   "image")), s["line"]


def _blocks(text):
    return [b for b in text.decode().split("\n\n") if b.count("\n") > 1]


@scenarios("modules")
def test_hidden_ops(dump):
    """The unlinked module's IPMODIFY ops is HIDDEN and its filter names
    the functions it hooks; the visible one is attributed to its module;
    ftrace's own trampolines are never HIDDEN."""
    d = thlib.scenario_defines("modules")
    blocks = _blocks(dump.out("ftrace ops -v"))
    hid = [b for b in blocks if "th_hid_ftrace_cb" in b.splitlines()[1]]
    vis = [b for b in blocks if "th_vis_ftrace_cb" in b.splitlines()[1]]
    assert len(hid) == 1 and len(vis) == 1, blocks
    head = hid[0].splitlines()[0]
    assert "HIDDEN [th_hidden] (vmap " in head, head
    assert "IPMODIFY" in hid[0]
    for k in ("TH_HID_OPS_FUNC1", "TH_HID_OPS_FUNC2"):
        assert re.search(r"^\s+[0-9a-f]+  %s$" % re.escape(d[k]), hid[0],
                         re.M), (k, hid[0])
    assert vis[0].splitlines()[0].endswith("[th_visible]"), vis[0]
    for k in ("TH_VIS_OPS_FUNC1", "TH_VIS_OPS_FUNC2"):
        assert re.search(r"^\s+[0-9a-f]+  %s$" % re.escape(d[k]), vis[0],
                         re.M), (k, vis[0])
    for b in blocks:
        for line in b.splitlines():
            if line.strip().startswith("trampoline"):
                assert "HIDDEN" not in line, line
    assert re.search(r"\n\d+ ftrace_ops on ftrace_ops_list, 1 HIDDEN",
                     dump.out("ftrace ops").decode()), \
        dump.out("ftrace ops")
    # without -v: counts, not the functions
    plain = _blocks(dump.out("ftrace ops"))
    hp = [b for b in plain if "th_hid_ftrace_cb" in b]
    assert hp and "2 functions" in hp[0] and d["TH_HID_OPS_FUNC1"] not in \
        hp[0]


@scenarios("modules")
def test_sites_filters(dump):
    """SYMBOL arguments and -m select records; bad ones say so in one
    line and later commands still work."""
    d = thlib.scenario_defines("modules")
    sym = d["TH_HID_OPS_FUNC1"]
    o_sym, o_mod, o_none = outs(dump, [
        "ftrace sites %s" % sym, "ftrace sites -m no_such_module",
        "ftrace sites no_such_symbol_xyz"])
    sites, summary = parse_sites(o_sym)
    assert len(sites) == 1 and sites[0]["name"] == sym, sites
    assert "(ops " in sites[0]["rest"] and "th_hid_ftrace_cb" in \
        sites[0]["rest"]
    assert summary[:3] == [1, 1, 1]
    out = o_mod.decode()
    assert out.count("\n") == 1 and "no module" in out, out
    out = o_none.decode()
    assert "no_such_symbol_xyz: no such symbol" in out, out


@scenarios("modules")
@thlib.background
def test_damaged_call_sites(dump, tmp_path):
    """An ELF copy of the dump with two call sites rewritten: the enabled
    kretprobe site becomes a NOP, a disabled site gets a call.  Exactly
    those two are reported, each at its address."""
    import conftest
    import damage
    thlib.once_per_suite(dump, "damaged call sites")
    elf = thlib.Dump(dump.suite, "modules", "elf")
    d = thlib.scenario_defines("modules")
    all_sites, _ = parse_sites(conftest.get_dump(
        (dump.suite, "modules", "elf")).out("ftrace sites -a"))
    by = {}
    for s in all_sites:
        by.setdefault(s["name"], s)
    on = by[d["TH_VIS_KRP_SYMBOL"]]           # enabled: a kretprobe
    off = next(s for s in all_sites
               if s["rest"] == "nop" and "E" not in s["flags"] and
               not s["mod"] and s["name"] != on["name"])
    assert on["verdict"] == "ok" and on["rest"].startswith("call ")
    pt = damage.PageTables(elf.manifest)
    copy = str(tmp_path / "vmcore")
    shutil.copyfile(elf.manifest["vmcore"], copy)
    with open(copy, "r+b") as f:
        for s, new in ((on, b"\x0f\x1f\x44\x00\x00"),
                       (off, None)):
            off_in_file = damage.paddr_to_offset(copy, pt.vtop(s["ip"]))
            f.seek(off_in_file)
            old = f.read(5)
            assert old == bytes.fromhex(s["bytes"]), (s["line"], old)
            if new is None:
                # call rel32 to the byte after the site: a call into
                # memory no ops, trampoline or caller owns
                new = b"\xe8\x00\x00\x00\x00"
            f.seek(off_in_file)
            f.write(new)
    bad = thlib.Dump(dump.suite, "modules", "elf")
    bad.manifest = dict(bad.manifest, vmcore=copy)
    outs = bad.run(["ftrace sites", "ftrace sites -a"])
    sites, summary = parse_sites(outs["ftrace sites"])
    mism = [s for s in sites if s["verdict"] == "MISMATCH"]
    assert summary[3] == 2, outs["ftrace sites"]
    assert sorted(s["ip"] for s in mism) == sorted([on["ip"], off["ip"]])
    m_on = next(s for s in mism if s["ip"] == on["ip"])
    m_off = next(s for s in mism if s["ip"] == off["ip"])
    assert m_on["rest"].startswith("nop") and "enabled" in m_on["rest"]
    assert m_off["rest"].startswith("call 0x%x" % (off["ip"] + 5)), m_off
    assert "not enabled" in m_off["rest"]
    all_bad, summary_a = parse_sites(outs["ftrace sites -a"])
    assert summary_a == summary
    assert [s["ip"] for s in all_bad if s["verdict"] != "ok"] == \
        [s["ip"] for s in all_sites if s["ip"] in (on["ip"], off["ip"])]
    os.unlink(copy)
