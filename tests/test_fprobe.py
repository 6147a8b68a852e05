"""fprobe events, tracepoint probes, event probes and modules' ftrace
direct calls (issue 23) in hooks, each attributed to its event or module,
compared with what the guest of the same boot captured before the panic.

The fprobe scenario (testdata/scenarios/fprobe, trixie and sid: Debian's
6.1 has no CONFIG_FPROBE) writes f: and f%return fprobe events, t:
tracepoint probes, an e: event probe into dynamic_events (some enabled,
some not), and loads th_dvis and th_dhid, which register an ftrace direct
call each with a trampoline of their own; th_dhid then unlinks itself
from the module list.  Its truth: dynamic_events (which test_ftrace_files
compares whole), each event's enable file (fprobe/enable/GROUP/EVENT),
enabled_functions (a direct site's "direct-->TRAMPOLINE [MODULE]" line)
and /proc/modules."""

import json
import re

import pytest

import thlib
from conftest import scenarios

# a line of dynamic_events: KIND[MAXACTIVE]:GROUP/EVENT WHAT ...
DYN_LINE = re.compile(r"([a-z])\d*:([^/ ]+)/(\S+) (\S+)")
# a direct site of enabled_functions and the line under it
DIRECT = re.compile(r"^(\S+) \(\d+\).*\n\tdirect(?:\(jmp\))?-->(\S+) "
                    r"\[(\w+)\]$", re.M)


def hooks(dump):
    d = json.loads(dump.out("hooks -j").decode())
    assert d["warnings"] == [], d["warnings"]
    return d["findings"]


def live_dyn(dump, kinds):
    """(kind, group, event, what) of the captured dynamic_events' lines
    of KINDS."""
    if not dump.has_truth("tracing/dynamic_events"):
        pytest.skip("no dynamic_events captured")
    out = []
    for line in dump.truth("tracing/dynamic_events").decode().splitlines():
        m = DYN_LINE.match(line)
        assert m, line
        if m.group(1) in kinds:
            out.append(m.groups())
    return out


def enabled(dump, group, event):
    name = "fprobe/enable/%s/%s" % (group, event)
    return dump.has_truth(name) and \
        dump.truth(name).decode().strip() == "1"


@scenarios("fprobe")
def test_every_fprobe_event_is_a_finding(dump):
    """Each f:/t: line of the live dynamic_events is one fprobe_event
    finding naming its event and function (or tracepoint), never HIDDEN
    nor suspicious (tracefs' own events, core handlers); an enabled one
    goes through an ops with its site."""
    live = live_dyn(dump, "ft")
    assert live, "the scenario wrote no fprobe event"
    found = [f for f in hooks(dump) if f["kind"] == "fprobe_event"]
    assert len(found) == len(live), (live, found)
    for kind, group, event, what in live:
        sym = what[:-len("%return")] if what.endswith("%return") else what
        tag = "event %s/%s on %s (dynamic_events)" % (group, event, what)
        mine = [f for f in found if tag in f["why"]]
        assert len(mine) == 1, (tag, found)
        f = mine[0]
        assert f["verdict"] == "ok", f
        assert f["owner"] == "core", f
        if kind == "t":
            assert f["target"] == "tracepoint " + sym, f
        else:
            assert f["target"].split("+")[0] == sym, f
        assert ("exit handler" if what.endswith("%return") else
                "entry handler") in f["why"], f
        if enabled(dump, group, event):
            assert re.search(r"\b[1-9]\d* sites? through .*ftrace_ops "
                             r"[0-9a-f]+", f["why"]), f


@scenarios("fprobe")
def test_every_eprobe_names_its_event(dump):
    live = live_dyn(dump, "e")
    assert live, "the scenario wrote no event probe"
    found = [f for f in hooks(dump) if f["kind"] == "eprobe"]
    assert len(found) == len(live), (live, found)
    for kind, group, event, src in live:
        mine = [f for f in found if "event probe %s/%s on %s " %
                (group, event, src) in f["why"]]
        assert len(mine) == 1, (group, event, found)
        assert mine[0]["target"] == "event " + src, mine[0]
        assert mine[0]["verdict"] == "ok", mine[0]


def live_directs(dump):
    """(function, trampoline, module) of every direct site of the live
    enabled_functions whose trampoline is a module's (not BPF's)."""
    return DIRECT.findall(dump.truth("tracing/enabled_functions").decode())


def listed_modules(dump):
    return {line.split()[0] for line in
            dump.truth("proc/modules").decode().splitlines() if line}


@scenarios("fprobe")
def test_every_direct_call_names_its_module(dump):
    """Each module's direct call of the live enabled_functions is one
    ftrace_direct finding naming the site, the trampoline and its module:
    note for a listed module, HIDDEN for one gone from /proc/modules,
    never ok."""
    live = live_directs(dump)
    assert len(live) >= 2, "the scenario's two direct calls are not live"
    mods = listed_modules(dump)
    found = [f for f in hooks(dump) if f["kind"] == "ftrace_direct"]
    for func, tramp, mod in live:
        mine = [f for f in found if f["target"].split("+")[0] == func]
        assert len(mine) == 1, (func, found)
        f = mine[0]
        assert f["handler"].split(" ")[0] == tramp, f
        assert f["owner_module"] == mod, f
        assert f["verdict"] == ("note" if mod in mods else "HIDDEN"), f
        # the ops behind it is judged by the trampoline too
        ops = re.search(r"of ops ([0-9a-f]+)", f["why"]).group(1)
        opf = [g for g in hooks(dump) if g["kind"] == "ftrace_ops" and
               g["target"].startswith("ops %s:" % ops)]
        assert len(opf) == 1 and opf[0]["verdict"] == f["verdict"], opf
    assert {m for _, _, m in live} - mods, \
        "no direct call of a module gone from the list: th_dhid's is live"
