"""hooks: one table of everything that diverts control flow, with verdicts;
JSON that validates against the schema documented in the README and
docs/tracehunt-json.schema.json."""

import json
import re

import pytest

import conftest
import damage
import thlib
from conftest import scenarios

VERDICTS = ("ok", "note", "suspicious", "HIDDEN")

# The schema of `hooks -j`, as documented in the README (section "JSON")
# and docs/tracehunt-json.schema.json: field name -> allowed types.
FINDING_SCHEMA = {
    "kind": (str,), "target": (str,), "target_addr": (str,),
    "handler": (str,), "handler_addr": (str,), "owner": (str,),
    "owner_module": (str, type(None)), "vmap": (dict, type(None)),
    "verdict": (str,), "why": (str,), "bytes": (str, type(None)),
    "bpf": (dict, type(None)),
}
KINDS = ("kprobe", "kretprobe", "jprobe", "ftrace_ops", "ftrace_site",
         "ftrace_direct", "tracepoint", "fprobe_event", "eprobe", "text",
         "bpf", "uprobe", "module", "hw_breakpoint", "netfilter")


def validate(doc):
    # the fields every -j document has (docs/tracehunt-json.schema.json,
    # which tests/test_json.py validates hooks -j against too)
    assert set(doc) == {"schema", "tracehunt", "command", "findings",
                        "summary", "warnings"}, doc.keys()
    assert doc["schema"] == 1 and doc["command"] == "hooks"
    assert doc["warnings"] == doc["summary"]["warnings"]
    assert isinstance(doc["findings"], list)
    for f in doc["findings"]:
        assert set(f) == set(FINDING_SCHEMA), f
        for k, types in FINDING_SCHEMA.items():
            assert isinstance(f[k], types), (k, f)
        assert f["kind"] in KINDS, f
        assert f["verdict"] in VERDICTS, f
        for k in ("target_addr", "handler_addr"):
            assert re.fullmatch(r"0x[0-9a-f]+", f[k]), f
        if f["vmap"] is not None:
            assert set(f["vmap"]) == {"start", "end", "caller"}
        if f["bytes"] is not None:
            assert re.fullmatch(r"([0-9a-f]{2})+", f["bytes"])
        # a bpf finding's program, link and holders (tests/test_ebpf.py)
        assert (f["bpf"] is not None) == (f["kind"] == "bpf"), f
    s = doc["summary"]
    for v in VERDICTS:
        assert s[v] == sum(1 for f in doc["findings"] if f["verdict"] == v)
    assert s["total"] == len(doc["findings"])
    assert isinstance(s["text_checked"], bool)
    assert isinstance(s["text_functions_checked"], int)


def findings(dump):
    doc = json.loads(dump.out("hooks -j"))
    validate(doc)
    return doc


def test_json_validates(dump):
    findings(dump)


def test_table_summary_agrees_with_json(dump):
    doc = findings(dump)
    last = dump.out("hooks").decode().rstrip("\n").splitlines()[-1]
    s = doc["summary"]
    assert last == ("hooks: %d findings: ok %d, note %d, suspicious %d, "
                    "HIDDEN %d" % (s["total"], s["ok"], s["note"],
                                   s["suspicious"], s["HIDDEN"])), last


def test_no_false_positives(dump):
    """Nothing suspicious or hidden where no scenario module hides."""
    if dump.scenario == "modules":
        pytest.skip("the modules scenario plants a hidden module")
    bad = [f for f in findings(dump)["findings"]
           if f["verdict"] in ("suspicious", "HIDDEN")]
    if dump.scenario == "bpf":
        # its th_tp_exit holds bpf_probe_write_user: what it runs through
        # is suspicious (tests/test_ebpf.py checks which, by the live
        # bpftool dump of its instructions); nothing else (a bpf
        # finding's reason then names who holds its link, or its perf
        # event without a link)
        bad = [f for f in bad if not (
            f["verdict"] == "suspicious" and
            re.split("; the (?:link|perf event) held by ", f["why"])[0]
            .endswith("; it calls bpf_probe_write_user"))]
    if dump.scenario == "uprobe":
        # th_uhid's uprobe consumer, the module unlinked from the list
        # (tests/test_uprobes.py checks which uprobe, and how)
        bad = [f for f in bad if not (
            f["kind"] in ("uprobe", "module") and
            f["verdict"] == "HIDDEN" and f["owner_module"] == "th_uhid")]
    if dump.scenario == "fprobe":
        # th_dhid's direct call and its ops, the module unlinked from the
        # list (tests/test_fprobe.py checks which site, and how)
        bad = [f for f in bad if not (
            f["kind"] in ("ftrace_direct", "ftrace_ops", "module") and
            f["verdict"] == "HIDDEN" and f["owner_module"] == "th_dhid")]
    if dump.scenario == "rhel7":
        # th_hidden unlinks itself as in "modules"; 3.10 has no module
        # tree, and hooks finds its struct module in its vmap area
        # (tests/test_rhel7.py checks which hooks, that they share one
        # area, and their handlers' names)
        bad = [f for f in bad if not (
            f["verdict"] == "HIDDEN" and f["vmap"] and
            f["owner_module"] == "th_hidden")]
    assert not bad, bad


def test_no_hw_breakpoints_but_the_modules(dump):
    """No scenario but "modules" sets a hardware breakpoint (no debugger,
    no perf breakpoint runs in the guests): none is found."""
    if dump.scenario == "modules":
        pytest.skip("the modules scenario sets two")
    fs = [f for f in findings(dump)["findings"]
          if f["kind"] == "hw_breakpoint"]
    assert not fs, fs


@scenarios("modules")
def test_hw_breakpoints(dump):
    """Each module's register_wide_hw_breakpoint(): one finding, at the
    address the module told the live trace, on every CPU of the guest,
    judged by its handler: the visible module's write watchpoint on its own
    variable a note, the unlinked module's instruction breakpoint on a
    kernel function HIDDEN."""
    d = thlib.scenario_defines("modules")
    told = dict(re.findall(r"(th_visible|th_hidden): hw breakpoint at "
                           r"([0-9a-f]+)$",
                           dump.truth("tracing/trace").decode(), re.M))
    assert set(told) == {"th_visible", "th_hidden"}, \
        "the guest did not set both breakpoints: %r" % told
    fs = [f for f in findings(dump)["findings"]
          if f["kind"] == "hw_breakpoint"]
    assert len(fs) == 2, fs
    by = {f["owner_module"]: f for f in fs}
    assert set(by) == {"th_visible", "th_hidden"}, fs
    cpus = "CPUs 0-%d" % (dump.manifest["smp"] - 1)
    vis, hid = by["th_visible"], by["th_hidden"]
    assert int(vis["target_addr"], 16) == int(told["th_visible"], 16)
    assert vis["target"] == "%s+0x0 [th_visible] (write, 8 bytes)" % \
        d["TH_VIS_BP_VAR"], vis
    assert vis["handler"].startswith("th_vis_bp_handler+0x0/"), vis
    assert vis["verdict"] == "note" and \
        ("on every task, set on %s " % cpus) in vis["why"], vis
    assert int(hid["target_addr"], 16) == int(told["th_hidden"], 16)
    assert hid["target"] == "%s+0x0 (execute)" % d["TH_HID_BP_SYMBOL"], hid
    assert hid["handler"].startswith("th_hid_bp_handler+0x0/"), hid
    assert hid["verdict"] == "HIDDEN" and hid["vmap"] and \
        ("on every task, set on %s " % cpus) in hid["why"], hid
    # the table says the same
    rows = [l.split() for l in dump.out("hooks").decode().splitlines()
            if "hw_breakpoint" in l.split()[1:2]]
    assert sorted(r[0] for r in rows) == ["HIDDEN", "note"], rows


# include/uapi/linux/netfilter.h: NFPROTO_IPV4, and the NF_INET_* hook
# points in their order, as the modules' trace gives them in numbers
_NFPROTO = {2: "ipv4", 10: "ipv6"}
_NF_INET = ["PRE_ROUTING", "LOCAL_IN", "FORWARD", "LOCAL_OUT",
            "POST_ROUTING"]


def test_netfilter_hooks_of_the_kernel_only(dump):
    """Without the modules scenario's, a dump's netfilter hooks are the
    core kernel's own (AppArmor's POST_ROUTING hooks on these kernels):
    every one ok, each with its nf_hook_ops' priority."""
    if dump.scenario == "modules":
        pytest.skip("the modules scenario registers two")
    fs = [f for f in findings(dump)["findings"]
          if f["kind"] == "netfilter"]
    if dump.scenario == "bpf":
        # its netfilter link's entry runs a BPF program: judged by it
        # (tests/test_ebpf.py's test_hooks_net_programs)
        fs = [f for f in fs if not f["handler"].startswith(
            "nf_hook_run_bpf+")]
    bad = [f for f in fs if f["verdict"] != "ok" or f["owner"] != "core"
           or "priority ?" in f["target"]]
    assert not bad, bad


@scenarios("modules")
def test_netfilter_hooks(dump):
    """Each module's nf_register_net_hook(): one finding at the family,
    hook point and priority the module told the live trace, named by its
    function and judged by its owner (the visible module's a note, the
    unlinked one's HIDDEN); every other hook is the core kernel's."""
    d = thlib.scenario_defines("modules")
    told = {m: (_NFPROTO[int(pf)], _NF_INET[int(num)], int(prio))
            for m, pf, num, prio in re.findall(
                r"(th_visible|th_hidden): netfilter hook (\d+)/(\d+) "
                r"priority (-?\d+)$",
                dump.truth("tracing/trace").decode(), re.M)}
    assert set(told) == {"th_visible", "th_hidden"}, \
        "the guest did not register both hooks: %r" % told
    for m, p in (("th_visible", "VIS"), ("th_hidden", "HID")):
        assert told[m][1:] == (d["TH_%s_NF_POINT" % p],
                               int(d["TH_%s_NF_PRIORITY" % p])), told
    fs = [f for f in findings(dump)["findings"]
          if f["kind"] == "netfilter"]
    ours = {f["owner_module"]: f for f in fs if f["owner"] != "core"}
    assert sorted(ours) == ["th_hidden", "th_visible"] and \
        len(fs) - len(ours) == sum(1 for f in fs if f["owner"] == "core" and
                                   f["verdict"] == "ok"), fs
    for m, fn, verdict in (("th_visible", "th_vis_nf_fn", "note"),
                           ("th_hidden", "th_hid_nf_fn", "HIDDEN")):
        f = ours[m]
        assert f["target"] == "%s %s priority %d" % told[m], f
        assert f["handler"].startswith(fn + "+0x0/"), f
        assert f["verdict"] == verdict, f
    assert ours["th_hidden"]["vmap"], ours["th_hidden"]


# the layout of a hook point's functions, in the modules dumps' sessions
_NF_LAYOUT = ["struct nf_hook_entries -o", "struct nf_hook_entry -o"]
thlib.batch(_NF_LAYOUT, scenarios=["modules"])


@thlib.background
def test_netfilter_entry_written_in_place(dump, tmp_path):
    """The visible module's hook entry made to call another of its
    functions (th_vis_pre), as a rootkit rewrites a pointer instead of
    registering: that hook alone turns suspicious, naming the function it
    now calls and the one its nf_hook_ops holds; nothing else changes."""
    if dump.scenario != "modules":
        pytest.skip("run once per suite")
    thlib.once_per_suite(dump, "netfilter entry written in place")
    d = conftest.get_dump((dump.suite, "modules", "elf"))
    j = findings(d)
    vis = [f for f in j["findings"] if f["kind"] == "netfilter" and
           f["owner_module"] == "th_visible"]
    pre = [f for f in j["findings"] if f["kind"] == "kprobe" and
           f["handler"].startswith("th_vis_pre+0x0/")]
    assert len(vis) == 1 and pre, (vis, pre)
    m = re.search(r"entry (\d+) of nf_hook_entries ([0-9a-f]+)",
                  vis[0]["why"])
    assert m, vis[0]
    # where the entry's function pointer is, by crash's debuginfo
    hooks = re.search(r"\[(\d+)\] struct nf_hook_entry hooks\[",
                      d.out(_NF_LAYOUT[0]).decode())
    entry = d.out(_NF_LAYOUT[1]).decode()
    hook = re.search(r"\[(\d+)\] nf_hookfn \*hook;", entry)
    size = re.search(r"SIZE: (\d+)", entry)
    assert hooks and hook and size, (d.out(_NF_LAYOUT[0]), entry)
    where = int(m.group(2), 16) + int(hooks.group(1)) + \
        int(m.group(1)) * int(size.group(1)) + int(hook.group(1))
    pt = damage.PageTables(d.manifest)
    copy = str(tmp_path / "vmcore")
    damage.copy_dump(d.manifest["vmcore"], copy)
    phys = pt.vtop(where)
    assert damage.peek(copy, phys, 8) == int(
        vis[0]["handler_addr"], 16).to_bytes(8, "little")
    damage.patch(copy, phys, int(pre[0]["handler_addr"], 16).to_bytes(
        8, "little"))
    bad = damage.with_vmcore(d, copy)
    jb = json.loads(bad.run(["hooks -j"])["hooks -j"])
    validate(jb)
    now = [f for f in jb["findings"] if f["kind"] == "netfilter" and
           f["target"] == vis[0]["target"]]
    assert len(now) == 1 and now[0]["verdict"] == "suspicious" and \
        now[0]["handler"].startswith("th_vis_pre+0x0/") and \
        "is not its nf_hook_ops" in now[0]["why"] and \
        "th_vis_nf_fn" in now[0]["why"], now
    assert jb["summary"]["suspicious"] == j["summary"]["suspicious"] + 1
    assert jb["summary"]["total"] == j["summary"]["total"]


@scenarios("modules")
def test_modules_verdicts(dump):
    """Every hook of the unlinked module is HIDDEN (kprobes, kretprobe,
    ftrace ops and the sites it patches), and so is the module itself (a
    module finding); the visible module's are note."""
    d = thlib.scenario_defines("modules")
    fs = findings(dump)["findings"]
    hid = [f for f in fs if "[th_hidden]" in f["handler"]]
    vis = [f for f in fs if "[th_visible]" in f["handler"]]
    assert all(f["verdict"] == "HIDDEN" and f["owner_module"] == "th_hidden"
               and f["vmap"] for f in hid), hid
    assert all(f["verdict"] == "note" and f["owner_module"] == "th_visible"
               for f in vis), vis
    for fl in (hid, vis):
        kinds = sorted(set(f["kind"] for f in fl))
        assert kinds == ["ftrace_ops", "ftrace_site", "hw_breakpoint",
                         "kprobe", "kretprobe", "netfilter"], kinds
    # the sites each ops patches are the functions its source filters
    for p, fl in (("HID", hid), ("VIS", vis)):
        sites = sorted(f["target"].split("+")[0] for f in fl
                       if f["kind"] == "ftrace_site")
        assert sites == sorted([d["TH_%s_OPS_FUNC1" % p],
                                d["TH_%s_OPS_FUNC2" % p]]), sites
    # the module itself: one finding of its own, whatever it hooks
    mod = [f for f in fs if f["kind"] == "module"]
    assert len(mod) == 1 and mod[0]["target"] == "module th_hidden" and \
        mod[0]["verdict"] == "HIDDEN" and \
        mod[0]["owner_module"] == "th_hidden" and mod[0]["vmap"] and \
        "address tree" in mod[0]["why"], mod
    # nothing else is HIDDEN or suspicious
    others = [f for f in fs if f not in hid + mod and
              f["verdict"] in ("HIDDEN", "suspicious")]
    assert not others, others


# each module's name, symbol table, kept names and typetab (the module
# list: the visible module)
_MODS_KALLSYMS = "list module.list -H modules -s module.name,core_kallsyms -x"
thlib.batch([_MODS_KALLSYMS], scenarios=["modules"])


def _core_kallsyms(text, name):
    """{symtab, num_symtab, strtab, typetab} of module NAME in the output
    of _MODS_KALLSYMS."""
    for block in re.split(r"\n(?=[0-9a-f]{16}\n)", text):
        if not re.search(r'name = "%s\\000' % re.escape(name), block):
            continue
        return {k: int(v, 16) for k, v in re.findall(
            r"(symtab|num_symtab|strtab|typetab) = (0x[0-9a-f]+)", block)}
    return None


@thlib.background
def test_module_name_cut(dump, tmp_path):
    """A name of the visible module's kallsyms cut to one letter in a copy
    of the ELF dump (a NUL planted after its first letter) breaks the
    chain add_kallsyms() packs the names in: hooks, hooks -j, kprobes -v
    and ftrace ops -v say so in a warning naming the module and the
    name's address, and the findings named from that table rest on
    damaged data."""
    import conftest
    import damage
    if dump.scenario != "modules":
        pytest.skip("run once per suite and variant")
    thlib.once_per_suite(dump, "module name cut")
    d = conftest.get_dump((dump.suite, "modules", "elf"))
    clean = json.loads(d.out("hooks -j"))
    assert clean["warnings"] == [], clean["warnings"]
    vis = [f for f in clean["findings"] if f["kind"] == "kprobe" and
           f["handler"].endswith(" [th_visible]")]
    assert vis, clean["findings"]
    victim = vis[0]["handler"].split("+")[0]
    ks = _core_kallsyms(d.out(_MODS_KALLSYMS).decode(), "th_visible")
    assert ks and ks["strtab"] == ks["symtab"] + 24 * ks["num_symtab"], ks
    pt = damage.PageTables(d.manifest)
    size = ks["typetab"] - ks["strtab"]
    assert 0 < size < 1 << 20, ks
    names, a, end = b"", ks["strtab"], ks["typetab"]
    while a < end:          # page by page: module memory is vmalloc'ed
        n = min(end - a, 4096 - (a & 0xfff))
        names += damage.peek(d.manifest["vmcore"], pt.vtop(a), n)
        a += n
    # (what is read there is the table: the names, NUL after NUL, ending
    # where typetab begins)
    assert len(names) == size and names.endswith(b"\0"), (size, names)
    off = names.find(b"\0" + victim.encode() + b"\0")
    assert off >= 0, (victim, names)
    at = ks["strtab"] + off + 1
    copy = str(tmp_path / "vmcore")
    damage.copy_dump(d.manifest["vmcore"], copy)
    damage.patch(copy, pt.vtop(at + 1), b"\0")
    bad = damage.with_vmcore(d, copy)
    cmds = ["hooks", "hooks -j", "kprobes -v", "ftrace ops -v"]
    out = {c: o.decode() for c, o in bad.run(cmds).items()}
    warning = "tracehunt: warning: mod_kallsyms at %x: module th_visible: " \
        "the name of symbol" % at
    bare = warning[len("tracehunt: warning: "):]
    for c in cmds:
        assert (bare if c.endswith("-j") else warning) in out[c], (c, out[c])
    doc = json.loads(out["hooks -j"])
    validate(doc)
    # the JSON warnings without the text's prefix, as in every -j document
    assert any(w.startswith(bare) for w in doc["warnings"]), doc
    cut = [f for f in doc["findings"]
           if f["handler"].startswith(victim[0] + "+")]
    assert cut and all(f["owner"].endswith("[rests on damaged data]") and
                       f["owner_module"] == "th_visible" for f in cut), cut
    assert "RELEASE:" in bad.log.split("shared object unloaded")[-1]
