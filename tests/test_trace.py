"""The ring buffers: "ftrace cat trace" (global, per-CPU, instances) against
the live files of the same boot, byte for byte."""

import pytest

import thlib
from conftest import scenarios

# Scenarios where tracing was stopped before the capture and every event
# in the buffer is one tracehunt prints exactly.
EXACT = ("events", "modules")
# Tracing stopped too, but some events need the print_fmt interpreter:
# the header (counts, #P, column lines) is still exact.
HEADER = ("events", "modules", "wrap")


def _trace_files(dump):
    return [n for n in dump.truth_names()
            if n.startswith("tracing/") and
            (n == "tracing/trace" or n.endswith("/trace"))]


@scenarios(*EXACT)
def test_trace_files_match_live(dump):
    files = _trace_files(dump)
    assert "tracing/trace" in files
    for name in files:
        thlib.assert_same(dump.truth(name),
                          dump.out(thlib.truth_to_command(name)), name)


def _header(text):
    lines = text.split(b"\n")
    out = []
    for l in lines:
        if not l.startswith(b"#"):
            break
        out.append(l)
    return b"\n".join(out)


@scenarios(*HEADER)
def test_trace_header_matches_live(dump):
    for name in _trace_files(dump):
        ours = dump.out(thlib.truth_to_command(name))
        assert ours is not None, name
        thlib.assert_same(_header(dump.truth(name)), _header(ours), name)


@scenarios("wrap")
def test_wrap_context_columns(dump):
    """Overwritten buffer: the same surviving entries, in the same order,
    on the same CPUs with the same comm-pid, flags and time stamps (the
    event text of tracepoints needs the print_fmt interpreter)."""
    def ctx(text):
        return [l.split(b": ")[0] for l in text.split(b"\n")]
    for name in _trace_files(dump):
        ours = dump.out(thlib.truth_to_command(name))
        assert ctx(dump.truth(name)) == ctx(ours), name


@scenarios("live")
def test_live_lines_in_order(dump):
    """Tracing stayed on: every live line (past the header) appears in
    order in ours, and ours goes on to the panic."""
    truth = dump.truth("tracing/trace").split(b"\n")
    ours = dump.out("ftrace cat trace").split(b"\n")
    body = [l for l in truth if l and not l.startswith(b"#") and
            b"sched_process_exit" not in l]
    assert body
    assert thlib.lines_in_order(body, ours)
    assert len(ours) > len(truth)
    assert any(b"sysrq" in l for l in ours[-40:]), ours[-40:]


def test_trace_last_n(dump):
    """"ftrace trace -n 3" prints the last three entries of "cat trace"."""
    full = [l for l in dump.out("ftrace cat trace").split(b"\n")
            if l and not l.startswith(b"#")]
    last = dump.out("ftrace trace -n 3").split(b"\n")
    last = [l for l in last if l]
    assert last == full[-3:]


def test_trace_bad_options(dump):
    out = dump.out("ftrace trace -n x")
    assert out.count(b"\n") == 1 and b"not a count" in out
    out = dump.out("ftrace trace -i no_such_instance")
    assert out.count(b"\n") == 1 and b"no instance" in out
