"""User events (issue 23) on the kernel built with CONFIG_USER_EVENTS
(suite trixie-uevents, scenario uevents: no Debian kernel has user
events).  tests/test_ftrace_files.py compares dynamic_events,
user_events_status and each event's format and id with the capture byte
for byte, tests/test_trace.py the trace; this module checks that the
scenario really made what those comparisons are about (so that a guest
whose tracer failed cannot pass them with empty files), and that the
"ftrace" summary's user events count is the live file's."""

import re

import pytest

import thlib
from conftest import scenarios

# the events th_uevents registers (testdata/scenarios/uevents/src) and the
# persistent one, by their tracepoint names
HELD = ["th_basic", "th_str", "th_struct", "th_empty", "th_rel",
        "th_small", "th_multi.0"]


def live(dump, name):
    if not dump.has_truth(name):
        pytest.skip("%s not captured" % name)
    return dump.truth(name).decode("latin-1")


@scenarios("uevents")
def test_scenario_made_every_kind(dump):
    """dynamic_events has the kprobe event and every user event, the live
    trace an entry of each enabled one."""
    dyn = live(dump, "tracing/dynamic_events").splitlines()
    assert any(l.startswith("p:kprobes/th_open ") for l in dyn), dyn
    users = [l.split()[0][2:] for l in dyn if l.startswith("u:")]
    assert sorted(users) == sorted(["th_persist", "th_multi"] +
                                   [e for e in HELD if e != "th_multi.0"]), \
        dyn
    trace = live(dump, "tracing/trace")
    for e in HELD:
        assert len(re.findall(r" %s:" % re.escape(e), trace)) == 2, \
            (e, trace[-3000:])


@scenarios("uevents")
def test_summary_counts_user_events(dump):
    """The summary's "user events: N, M in use" is user_events_status'
    Active and Busy."""
    status = live(dump, "tracing/user_events_status")
    active = int(re.search(r"^Active: (\d+)$", status, re.M).group(1))
    busy = int(re.search(r"^Busy: (\d+)$", status, re.M).group(1))
    assert active == len(HELD) + 1 and busy == len(HELD), status
    text = dump.out("ftrace").decode()
    m = re.search(r"^user events:\s+(\d+), (\d+) in use", text, re.M)
    assert m, text
    assert (int(m.group(1)), int(m.group(2))) == (active, busy), text


@scenarios("uevents")
def test_ls_lists_the_user_event_files(dump):
    ls = dump.out("ftrace ls").decode().splitlines()
    assert "user_events_status" in ls
    for e in HELD:
        system = "user_events_multi" if "." in e else "user_events"
        assert "events/%s/%s/format" % (system, e) in ls, e


@scenarios("uevents")
def test_summary_names_the_process_and_its_enable_bits(dump):
    """Under the user events line, the tracer that registered them: its
    pid and comm, and each enable bit (event, the address of the word in
    its memory, the bit), as the tracer itself printed them; the
    persistent event's process is gone, and so are its enable bits."""
    out = live(dump, "uevents/th_out")
    m = re.search(r"registered pid (\d+) th_on (0x[0-9a-f]+) "
                  r"th_on64 (0x[0-9a-f]+)", out)
    assert m, out
    pid, on, on64 = m.group(1), int(m.group(2), 16), int(m.group(3), 16)
    # th_uevents' bits: event I of its list on bit I of th_on, th_small
    # on bit 40 of th_on64
    bits32 = ["th_basic", "th_str", "th_struct", "th_empty", "th_rel",
              "th_multi.0"]
    want = {"%s@%x:%d" % (e, on, i) for i, e in enumerate(bits32)} | \
        {"th_small@%x:40" % on64}
    text = dump.out("ftrace").decode()
    lines = [l for l in text.splitlines() if l.startswith("  pid ") or
             l.startswith("  mm ")]
    assert len(lines) == 1, text
    head, bits = lines[0].split(": %d enable bits: " % len(want))
    assert head == "  pid %s (th_uevents)" % pid, lines
    assert set(bits.split()) == want, lines
