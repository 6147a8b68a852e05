"""Damaged-dump matrix (scripts/damage-matrix.py): damaged copies of the
real "modules" ELF dump (and, for pages left out of the dump, of its
filtered makedumpfile -c -d 31 sibling), each opened by one crash process
running every tracehunt command.  For each: crash does not crash, no
command runs longer than 10 s (TRACEHUNT_DAMAGE_LIMIT), no command's output
runs away or repeats a line in a loop, hooks -j stays valid JSON, a copy
with pages left out names what it could not read, and a later crash
command works.  TRACEHUNT_DAMAGE=name,... narrows the matrix;
TRACEHUNT_DAMAGE_SCENARIO picks another scenario's ELF dump."""

import importlib.util
import os
import shutil
import subprocess
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

import thlib

# The same whatever SUITES selects: make check runs these in its main run
# only (conftest.py's _drop_once())
pytestmark = pytest.mark.once

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spec = importlib.util.spec_from_file_location(
    "damage_matrix", os.path.join(ROOT, "scripts", "damage-matrix.py"))
dm = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(dm)

SCENARIO = os.environ.get("TRACEHUNT_DAMAGE_SCENARIO", "modules")
SO = os.environ.get("TRACEHUNT_SO",
                    os.path.join(ROOT, "extensions", "tracehunt.so"))


def _all_names():
    every = {k: 0xffff888000001000 for k in dm.EXPRS}
    every.update(kp_node=0xffff888000002000, hlist_off=0,
                 tr_list_next=0xffff888000003000)
    every.update(("kp_" + f, 0xffff888000004000) for f in dm.KP_FIELDS)
    return [d[0] for d in dm.damages(every, every)]


NAMES = _all_names()
_only = os.environ.get("TRACEHUNT_DAMAGE")
if _only:
    NAMES = [n for n in NAMES if n in _only.split(",")]
_state = {}
# The copies are made and opened in the session's pool (thlib.pool(),
# TRACEHUNT_JOBS at a time) behind the dump sessions, or in a pool of our
# own from the first test on; each test checks its own run.
JOBS = int(os.environ.get("TRACEHUNT_JOBS") or os.cpu_count() or 1)


_setup_lock = threading.Lock()


def _setup():
    with _setup_lock:
        return _setup_locked()


def _kickoff():
    """The baseline and every damaged copy, queued in the session's pool
    behind the dump sessions."""
    def quiet():
        try:
            _setup()
        except BaseException:       # each test reports it
            pass
    thlib.pool().submit(quiet)


def _setup_locked():
    if "err" in _state:
        pytest.fail(_state["err"], pytrace=False)
    if "man" not in _state:
        try:
            man = dm.load_manifest(dm.fixture_dir(SCENARIO))
            # crash starts 2-3x faster on the gdb-indexed copy (thlib)
            man = dict(man, vmlinux=thlib.indexed_vmlinux(man["vmlinux"]))
            virt, phys = dm.probe(man)
            cmds = dm.commands(man)
            base, bound = dm.baseline(man, cmds, SO)
            assert not base.base_problems, \
                "the undamaged dump fails: %s" % base.base_problems
        except Exception as e:      # one clear failure for every case
            _state["err"] = "damage matrix setup: %s" % e
            raise
        _state.update(man=man, dmgs={d[0]: d for d in dm.damages(virt,
                                                                 phys)},
                      cmds=cmds, bound=bound, base=base,
                      work=os.path.dirname(
                          man["vmcore"]))
        pool = thlib.pool()
        if pool is None:
            pool = ThreadPoolExecutor(max_workers=JOBS)
            _state["own_pool"] = pool
        _state["runs"] = {n: pool.submit(_run, _state, n) for n in NAMES
                          if _runs(_state, n)}
    return _state


def _runs(st, name):
    dmg = st["dmgs"].get(name)
    return dmg is not None and not (dmg[3] and dmg[3][0] == "vmlinux" and
                                    not dm.other_vmlinux(st["man"]))


def _run(st, name):
    """NAME's damaged copy opened by crash and checked: (problems, run);
    the copy and the outputs are gone afterwards."""
    dmg = st["dmgs"][name]
    work = tempfile.mkdtemp(prefix="th-damaged-%s-" % name)
    try:
        vmlinux, core = dm.make_copy(st["man"], dmg, work)
        run = dm.Run(vmlinux, core, st["cmds"], SO, out_bound=st["bound"])
        try:
            return dm.check(run, dmg, base=st["base"]), run
        finally:
            run.cleanup()
    finally:
        shutil.rmtree(work, ignore_errors=True)


@pytest.fixture(scope="module", autouse=True)
def _stop_pool():
    yield
    if "own_pool" in _state:
        _state["own_pool"].shutdown(wait=True, cancel_futures=True)


@thlib.pool_starter(_kickoff)
@pytest.mark.parametrize("name", NAMES)
def test_damaged_dump(name, tmp_path):
    st = _setup()
    dmg = st["dmgs"].get(name)
    if dmg is None:
        pytest.skip("the %s dump has no object for %s" % (SCENARIO, name))
    if dmg[3] and dmg[3][0] == "vmlinux" and not dm.other_vmlinux(st["man"]):
        pytest.skip("no other kernel's vmlinux in the cache")
    probs, run = st["runs"][name].result()
    assert not probs, "%s (%s):\n  %s\ncrash log tail:\n%s" % (
        name, dmg[1], "\n  ".join(probs), run.log[-1500:])
    if dmg[3] and dmg[3][0] in ("vmlinux",):
        # crash refuses the pair with a message, quickly
        assert not run.opened and run.log.strip()


# ---- the campaign (issue 27): random damage where a clean run reads ------
#
# Slices of `make damage`, each copy with one mutation (scripts/
# damage-matrix.py KINDS, in turn) at a word the clean run of the
# campaign's commands read, from a fixed seed:
# - modules: COPIES copies of the modules ELF dump, the 16 commands;
# - uprobe: UPROBE_COPIES copies of the uprobe ELF dump, mutations of what
#   the uprobe, file name and probe event readers read (dm.UPROBE_LABELS),
#   the commands that show them (dm.UPROBE_CMDS);
# - hist: HIST_COPIES copies of the options ELF dump, mutations of what the
#   hist triggers' reader reads (dm.HIST_LABELS), every command of the
#   campaign with its trigger files.
# No session may die or hang, and no command issue 27 names (dm.STRICT),
# nor the uprobe files, nor (hist) any command, may change its output
# without a "tracehunt: warning:" line.
CAMPAIGN_COPIES = int(os.environ.get("TRACEHUNT_DAMAGE_COPIES", "12"))
UPROBE_COPIES = int(os.environ.get("TRACEHUNT_DAMAGE_UPROBE_COPIES", "6"))
HIST_COPIES = int(os.environ.get("TRACEHUNT_DAMAGE_HIST_COPIES", "4"))
CAMPAIGN_SEED = int(os.environ.get("TRACEHUNT_DAMAGE_SEED", "27"))
SLICES = {
    "modules": dict(scenario=SCENARIO, copies=CAMPAIGN_COPIES,
                    labels=None, cmds=None, strict=dm.STRICT),
    "uprobe": dict(scenario="uprobe", copies=UPROBE_COPIES,
                   labels=dm.UPROBE_LABELS, cmds=dm.UPROBE_CMDS,
                   strict=dm.UPROBE_CMDS),
    # the hist triggers' readers (model/hist_trigger.c), every command of
    # the campaign on the options dump, each without a silent change
    "hist": dict(scenario="options", copies=HIST_COPIES,
                 labels=dm.HIST_LABELS, cmds=None, strict=None),
}
_campaign = {k: {} for k in SLICES}
_campaign_lock = {k: threading.Lock() for k in SLICES}


def _campaign_run(key):
    sl, st = SLICES[key], _campaign[key]
    with _campaign_lock[key]:
        if "res" not in st and "err" not in st:
            try:
                man = dm.load_manifest(dm.fixture_dir(sl["scenario"]))
                man = dict(man, vmlinux=thlib.indexed_vmlinux(
                    man["vmlinux"]))
                lines = []
                st["res"] = dm.campaign(
                    man, SO, CAMPAIGN_SEED, sl["copies"], jobs=1,
                    cmds=sl["cmds"], log=lines.append,
                    labels_re=sl["labels"])
                st["log"] = lines
            except Exception as e:      # the test reports it
                st["err"] = "damage campaign %s: %r" % (key, e)
        return st


def _campaign_kickoff():
    for k in SLICES:
        thlib.pool().submit(_campaign_run, k)


@thlib.pool_starter(_campaign_kickoff)
@pytest.mark.parametrize("key", sorted(SLICES))
def test_damage_campaign(key):
    sl = SLICES[key]
    if not sl["copies"]:
        pytest.skip("no copies asked for")
    st = _campaign_run(key)
    if "err" in st:
        pytest.fail(st["err"], pytrace=False)
    s = st["res"]
    table = []
    dm.print_table(s, out=table.append)
    report = "\n".join(table) + "\n" + "\n".join(st["log"])
    assert s["copies"] >= sl["copies"] * 9 // 10, report
    assert not s["died"] and not s["hung"], report
    silent = {c: s["table"][c]["silent"] for c in sl["strict"] or s["table"]
              if c in s["table"] and s["table"][c]["silent"]}
    assert not silent, "silent changes %s\n%s" % (silent, report)


# ---- static objects the kernel never writes (issue 27) -------------------
#
# A static object of the kernel image whose fields the kernel never writes
# after it is built must hold the vmlinux file's initial bytes (pointers
# moved by the KASLR offset: src/model/vmlinux_file.c).  Each case damages
# one such field of the modules ELF dump as the campaign did (copies 30,
# 92 and 120) and wants a warning naming the object, in the text and in
# the JSON "warnings" list, where the undamaged dump has none.
STATIC_CASES = {
    # the clock of the global array: in_ns 1 -> 0 makes the trace print
    # raw counts instead of seconds
    "trace-clock-in-ns": ("&trace_clocks[global_trace.clock_id].in_ns",
                          bytes(4), ["ftrace cat trace", "ftrace trace -j"],
                          r"trace_clocks\[\d+\] at [0-9a-f]+: in_ns 0 "
                          r"differs from the vmlinux file's initial 0x1"),
    # an option's name (a string of .rodata, which trace_opts.c reads to
    # find an option's bit): 'p' -> 'X' makes print-parent look unset
    # (the campaign's copy 72 of 2026-11-29 21:25 poisoned another name:
    # the trace's header vanished)
    "trace-option-name": ("trace_options[0]", b"X",
                          ["ftrace cat trace", "ftrace trace -j"],
                          r"trace_options at [0-9a-f]+: option 0's name at "
                          r"[0-9a-f]+ differs from the vmlinux file's "
                          r"\\?\"print-parent\\?\""),
    # the compressed symbol names and their tokens, constants of the
    # image: a byte inside a name (not a length, so the names still end
    # where kallsyms_markers says) changes a symbol's name; before it was
    # compared with the vmlinux file's it was silent
    "kallsyms-name-byte": ("&kallsyms_names[4000]", b"\xff",
                           ["kprobes -v", "ftrace cat trace", "hooks -j"],
                           r"kallsyms_names at [0-9a-f]+: byte 4000 differs "
                           r"from the vmlinux file's"),
    "kallsyms-token-byte": ("&kallsyms_token_table[300]", b"q",
                            ["kprobes -v", "ftrace cat trace", "hooks -j"],
                            r"kallsyms_token_table at [0-9a-f]+: byte 300 "
                            r"differs from the vmlinux file's"),
    # nop allows instances: 1 -> 0
    "tracer-allow-instances": ("&nop_trace.allow_instances", bytes(1),
                               ["ftrace tracers -v", "ftrace tracers -j"],
                               r"tracer at [0-9a-f]+: allow_instances 0 "
                               r"differs from the vmlinux file's initial "
                               r"0x1"),
}


@pytest.mark.parametrize("case", sorted(STATIC_CASES))
def test_static_object_differs_from_vmlinux(case, tmp_path):
    _damage_warns(*STATIC_CASES[case], tmp_path=tmp_path)


# The saved command lines: the kernel prints "<...>" for a pid its maps do
# not agree on, and so do we (faithful), with a warning in every command
# that names tasks through them, the later ones answered from the cache of
# names too (the campaign's copies 74, 173, 297 and 298 warned only in the
# first).  The pid of the slot saved last is changed to one no task had.
CMDLINE_CASES = {
    "saved-cmdline-slot-pid": (
        "&savedcmd->map_cmdline_to_pid[savedcmd->cmdline_idx]",
        (32766).to_bytes(4, "little"),
        ["ftrace cat trace", "ftrace cat per_cpu/cpu1/trace",
         "ftrace cat per_cpu/cpu0/trace", "ftrace trace -j"],
        r"saved_cmdlines_buffer at [0-9a-f]+: slot \d+ holds pid 32766, "
        r"whose map_pid_to_cmdline entry is \d+; printed as the kernel "
        r"would print it"),
}


@pytest.mark.parametrize("case", sorted(CMDLINE_CASES))
def test_saved_cmdlines_damage_warned_in_each_command(case, tmp_path):
    _damage_warns(*CMDLINE_CASES[case], tmp_path=tmp_path)


def _crash_facts(man, named):
    """dm.crash_batch(MAN, NAMED), each answer kept in the cache: what
    crash alone says of a cached dump (an address, its vtop, a list) is
    the same in every run while crash, the vmlinux and the dump are, and
    those sessions were half of the sessions of the tests below."""
    import hashlib
    import json
    key = thlib.files_id(shutil.which("crash") or "crash", man["vmlinux"],
                         man["vmcore"])
    if key is None:
        return dm.crash_batch(man, named)
    path = thlib.cache_file("crash-facts", hashlib.sha256(
        key.encode()).hexdigest()[:16] + ".json")
    try:
        with open(path) as f:
            facts = json.load(f)
    except (OSError, ValueError):
        facts = {}
    if facts.get("key") != key:
        facts = {"key": key, "out": {}}
    want = [(n, c) for n, c in named if c not in facts["out"]]
    if want:
        res = dm.crash_batch(man, want)
        facts["out"].update((c, res[n]) for n, c in want if res.get(n))
        thlib.write_replacing(path, json.dumps(facts))
    return {n: facts["out"].get(c, "") for n, c in named}


def _damage_warns(expr, data, cmds, want, tmp_path, scenario=SCENARIO):
    """EXPR's bytes (a crash expression for an address) set to DATA in a
    copy of the dump: each of CMDS, run in one session, warns WANT (a
    regex), in the JSON warnings for a -j command; the undamaged dump
    does not."""
    import re
    man = dm.load_manifest(dm.fixture_dir(scenario))
    man = dict(man, vmlinux=thlib.indexed_vmlinux(man["vmlinux"]))
    res = _crash_facts(man, [("v", "p/x (unsigned long)(%s)" % expr)])
    m = re.search(r"\$\d+ = (0x[0-9a-f]+)", res.get("v", ""))
    assert m, "no address for %s: %r" % (expr, res)
    va = int(m.group(1), 16)
    pa = dm.damage.parse_vtop(_crash_facts(
        man, [("p", "vtop %x" % va)])["p"])
    assert dm.damage.peek(man["vmcore"], pa, len(data)) != data, \
        "%s already holds %r" % (expr, data)
    clean = _clean_outputs(scenario, cmds)
    copy = str(tmp_path / "vmcore")
    subprocess.run(["cp", "--sparse=always", man["vmcore"], copy],
                   check=True)
    os.chmod(copy, 0o600)
    dm.damage.patch(copy, pa, data)
    run = dm.Run(man["vmlinux"], copy, cmds, SO)
    try:
        for c in cmds:
            assert not re.search(want, clean[c]), \
                "the undamaged dump warns in '%s'" % c
            out = run.out(c) or ""
            assert re.search(want, out), "'%s' on %s damaged:\n%s" % (
                c, expr, out[:2000])
            if c.endswith("-j"):
                # one document, or one per line (ftrace trace -j)
                import json
                try:
                    docs = [json.loads(out)]
                except ValueError:
                    docs = [json.loads(l) for l in out.splitlines()
                            if l.strip()]
                warns = [w for d in docs if isinstance(d, dict)
                         for w in d.get("warnings", [])]
                assert [w for w in warns if re.search(want, w)], \
                    "no JSON warning in '%s': %r" % (c, warns)
    finally:
        run.cleanup()


def _clean_outputs(scenario, cmds):
    """CMDS' outputs on the undamaged ELF dump of SCENARIO (the one
    dm.fixture_dir() names): its session's own, which ran every command
    the tests run, or one session for those it did not."""
    import conftest
    d = conftest.get_dump((thlib.fixture.host_suite(), scenario, "elf"))
    return {c: (d.out(c) or b"").decode(errors="replace") for c in cmds}


def _undamaged_out(scenario, cmd):
    """CMD's output on the undamaged dump of SCENARIO."""
    return _clean_outputs(scenario, [cmd])[cmd]


# A kretprobe's kprobe has pre_handler_kretprobe, and its rethook (or
# kretprobe_holder) points back at the kretprobe: register_kretprobe()
# sets both before it arms the probe.  th_visible's kretprobe (its address
# from `kprobes -v` of the undamaged dump) gets a rethook whose back
# pointer is NULL; each command that reads the kprobes warns.
def test_kretprobe_back_pointer_damage_warns(tmp_path):
    import re
    out = _undamaged_out(SCENARIO, "kprobes -v")
    krps = re.findall(r"^kretprobe ([0-9a-f]+) +\[th_visible\]", out, re.M)
    if not krps:
        pytest.skip("no kretprobe of th_visible in %s's kprobes -v"
                    % SCENARIO)
    rh = "rethook" if "rethook pool" in out else None
    if rh is None:
        pytest.skip("%s's kretprobes have no rethook" % SCENARIO)
    _damage_warns("&((struct kretprobe *)0x%s)->rh->data" % krps[0],
                  bytes(8), ["kprobes -v", "hooks -j", "kprobes"],
                  r"kretprobe at %s: its kprobe [0-9a-f]+ has "
                  r"pre_handler_kretprobe, but its rethook [0-9a-f]+ does "
                  r"not point back at it" % krps[0], tmp_path)


# The kprobe of a kprobe event has the handlers trace_kprobe.c gave it
# (alloc_trace_kprobe(): kretprobe_dispatcher for a return probe, with no
# entry handler; kprobe_dispatcher for any other), and the kernel never
# changes them.  The events scenario's kretprobe event (its kretprobe from
# `kprobes -v` of the undamaged dump) loses its return handler: the
# kernel's own kprobe_events would print it as a plain probe
# (trace_kprobe_is_return()), and every command that reads the kprobe
# events warns.
def test_kprobe_event_handler_damage_warns(tmp_path):
    import re
    out = _undamaged_out("events", "kprobes -v")
    krps = re.findall(r"^  kretprobe +([0-9a-f]+)\n(?:  .*\n)*?  handler +"
                      r"[0-9a-f]+  kretprobe_dispatcher\+", out, re.M)
    if not krps:
        pytest.skip("no kprobe event's kretprobe in the events scenario's "
                    "kprobes -v")
    _damage_warns("&((struct kretprobe *)0x%s)->handler" % krps[0],
                  bytes(8), ["ftrace cat kprobe_events", "kprobes -v",
                             "hooks -j"],
                  r"trace_kprobe at [0-9a-f]+: its kprobe's handlers \(pre "
                  r"[0-9a-f]+, return 0, entry 0\) are not the ones "
                  r"trace_kprobe\.c gives a plain probe", tmp_path,
                  scenario="events")


# A probe event's count of arguments agrees with trace_probe.size, where
# traceprobe_parse_probe_arg_body() left the end of the last one (the
# uprobe campaign's copy 36 set th_mallopt's nr_args to 0: uprobe_events,
# dynamic_events and its trace lines lost the arguments without a word).
# The first uprobe event with arguments in dynamic_events' order (the
# order of dyn_event_list) gets nr_args 0.
def test_probe_nr_args_damage_warns(tmp_path):
    import re
    man = dm.load_manifest(dm.fixture_dir("uprobe"))
    with open(os.path.join(os.path.dirname(man["vmcore"]), "truth",
                           "tracing", "dynamic_events")) as f:
        lines = f.read().splitlines()
    k = next((i for i, l in enumerate(lines)
              if l.startswith("p:") and len(l.split()) > 2), None)
    if k is None:
        pytest.skip("no uprobe event with arguments in the capture")
    man = dict(man, vmlinux=thlib.indexed_vmlinux(man["vmlinux"]))
    evs = re.findall(r"^([0-9a-f]+)$", _crash_facts(
        man, [("l", "list -H dyn_event_list")])["l"], re.M)
    assert len(evs) == len(lines), evs
    _damage_warns("&((struct trace_uprobe *)(0x%s - (unsigned long)&"
                  "((struct trace_uprobe *)0)->devent))->tp.nr_args"
                  % evs[k], bytes(4),
                  ["ftrace cat uprobe_events", "ftrace cat dynamic_events",
                   "ftrace cat trace"],
                  r"trace_probe at [0-9a-f]+: event %s: 0 arguments, but "
                  r"its size is [1-9]\d*" % re.escape(
                      lines[k].split()[0].split("/")[1]),
                  tmp_path, scenario="uprobe")
