"""Issue 22's census: the guests of a census scenario (its capture.conf says
"mode census") capture every readable file under /sys/kernel/tracing and
/sys/kernel/debug/kprobes (scripts/guest/capture.conf: the one skip list).
One crash session writes the tree with "ftrace dump -d DIR -a" (the
global array and each instance); every file it wrote must be the live one,
byte for byte, and the census counts what it has not written yet."""

import collections
import json
import os
import shutil

import pytest

import thlib
from conftest import scenarios

CENSUS = tuple(s for s in thlib.all_scenarios()
               if "\nmode census" in "\n" + thlib.fixture.capture_conf(
                   os.path.join(thlib.fixture.SCENARIOS, s)))


def _outdir(dump):
    # under thlib's scratch directory: one the crash process sees (bound),
    # on a tmpfs where the machine has one
    return os.path.join(thlib.SCRATCH, "census-test", dump.id)


def _cmds(dump):
    d = _outdir(dump)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.dirname(d), exist_ok=True)
    return ["ftrace dump -d %s -a" % d]


def _written(dump, name):
    """Where the census wrote the captured tracing/ file NAME."""
    d = dump.__dict__.get("_census_dir")
    if d is None:
        d = dump._census_dir = _outdir(dump)
    return os.path.join(d, name[len("tracing/"):])


thlib.batch(lambda dump: _cmds(dump) if dump.scenario in CENSUS else [])


def census(dump):
    """{captured name: "exact" | "differs" | "not written" | "elsewhere"
    (not a tracefs file)}."""
    res = dump.__dict__.get("_census")
    if res is None:
        res = dump._census = _census(dump)
    return res


def _census(dump):
    if dump.outputs is None:
        dump.prefetch()
    cmds = [c for c in dump.outputs if c.startswith("ftrace dump -d ") and
            _outdir(dump) in c]
    assert cmds, "the census commands did not run"
    res = {}
    for name in dump.truth_names():
        if not name.startswith("tracing/"):
            # not tracefs files, which "ftrace dump -d" writes: debugfs'
            # kprobes files are compared through "kprobes" and "ftrace
            # cat /sys/kernel/debug/kprobes/..." (test_kprobes.py), and
            # proc/ is the capture's context (its modules)
            res[name] = "elsewhere"
            continue
        path = _written(dump, name)
        if not os.path.exists(path):
            res[name] = "not written"
            continue
        with open(path, "rb") as f:
            ours = f.read()
        live = dump.truth(name)
        if thlib.compared_elsewhere(name) or \
                thlib.tracing_rel(name) == "saved_cmdlines":
            # compared with the live file by their own modules (trace:
            # line order while tracing ran; saved_cmdlines: the capture's
            # processes), through "ftrace cat": what -d wrote must be
            # that output, byte for byte
            cat = dump.outputs.get(thlib.truth_to_command(name))
            assert cat is not None, "no ftrace cat of " + name
            if thlib.tracing_rel(name) == "saved_cmdlines":
                # -d writes trace-cmd's saved_cmdlines, the tasks the
                # recorded events name (src/tracefs/table.c): lines of
                # the whole file "ftrace cat" prints
                whole = set(cat.split(b"\n"))
                same = all(l in whole for l in ours.split(b"\n"))
            else:
                same = cat == ours
            res[name] = "exact" if same else "differs"
            continue
        res[name] = "exact" if thlib.comparable(name, ours) == \
            thlib.comparable(name, live) else "differs"
    if "differs" not in res.values():
        # (the tree is ~200 MB of tmpfs per options dump; one that
        # differs stays for the failure's message and a look by hand)
        shutil.rmtree(_outdir(dump), ignore_errors=True)
    return res


def kind(name):
    """A captured file's kind: its path in its array with the event
    system and event replaced by S and E (events/S/E/enable, ...)."""
    rel = thlib.tracing_rel(name) or name
    p = rel.split("/")
    if p[0] == "events" and len(p) == 4:
        return "events/S/E/" + p[3]
    if p[0] == "events" and len(p) == 3:
        return "events/S/" + p[2]
    if p[0] == "per_cpu" and len(p) == 3:
        return "per_cpu/cpuN/" + p[2]
    return rel


def _report(dump, res):
    by = collections.defaultdict(collections.Counter)
    for name, r in res.items():
        by[kind(name)][r] += 1
    out = {"dump": dump.id, "captured": len(res),
           "exact": sum(r == "exact" for r in res.values()),
           "kinds": {k: dict(v) for k, v in sorted(by.items())}}
    # (beside the .so, where the README's census figures are read from)
    d = os.path.join(os.path.dirname(thlib.so_for(dump.suite)),
                     "census-test")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "%s.json" % dump.id)
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    return out


@scenarios(*CENSUS)
def test_written_files_are_live(dump):
    """Every file "ftrace dump -d" wrote is the one the guest read."""
    res = census(dump)
    bad = sorted(n for n, r in res.items() if r == "differs")
    for n in bad[:5]:
        path = _written(dump, n)
        with open(path, "rb") as f:
            try:
                thlib.assert_same(thlib.comparable(n, dump.truth(n)),
                                  thlib.comparable(n, f.read()), n)
            except AssertionError as e:
                print(e)
    assert not bad, "%d written files differ from the live ones: %s" % (
        len(bad), ", ".join(bad[:20]))


@scenarios(*CENSUS)
def test_census_complete(dump):
    """Every tracefs file the guest read is one "ftrace dump -d" wrote
    (the kinds of any it did not are in the message and in
    build/*/census-test/DUMP.json)."""
    res = census(dump)
    out = _report(dump, res)
    missing = collections.Counter(kind(n) for n, r in res.items()
                                  if r == "not written")
    assert not missing, "%d of %d captured files exact; not written: %s" % (
        out["exact"], out["captured"],
        ", ".join("%s %d" % kv for kv in missing.most_common()))
