"""The ring buffers: "ftrace cat trace" (global, per-CPU, instances) against
the live files of the same boot, byte for byte."""

import re

import thlib
from conftest import scenarios

# Scenarios where tracing was stopped before the capture: every trace
# file (global, per-CPU, instances, instances' per-CPU) is exact; on
# "wrap" (a buffer overwritten many times) too, and "wrap8" (the same on
# 8 vCPUs, opt-in: SCENARIOS=wrap8).
EXACT = ("events", "modules", "graph", "wrap", "wrap8", "options")
# The header (counts, #P, column lines) is exact on these too.
HEADER = ("events", "modules", "wrap", "wrap8", "graph", "options")


# Commands besides the "ftrace cat" of each truth file: run in ONE extra
# crash session per dump.
LAST_N = (1, 2, 3, 10)
EXTRA = ["ftrace trace -n %d" % n for n in LAST_N] + ["ftrace trace -n x",
         "ftrace trace -i no_such_instance", "ftrace trace -c 99x",
         "ftrace cat per_cpu/cpu7x/trace"]
thlib.batch(EXTRA)


def _out(dump, cmd):
    dump.out("ftrace cat trace")
    if not all(c in dump.outputs for c in EXTRA):
        dump.outputs.update(dump.run(EXTRA))
    return dump.out(cmd)


def _trace_files(dump):
    return [n for n in dump.truth_names()
            if n.startswith("tracing/") and
            (n == "tracing/trace" or n.endswith("/trace"))]


# Where a trace file honestly differs from the live one, by suite: what
# differs is taken out of both (and checked on its own), the rest of the
# file compared exactly.
_SYSCALL_ENTER = re.compile(rb": sys_\w+\(")
_LAT_MODEL = re.compile(rb"^(# latency: .* \(M:)(\S+)( VP:.*)$")


def _known_differences(dump, live, ours):
    if dump.suite == "bullseye":
        # latency-format header: 5.10 printed its preemption model from
        # CONFIG_PREEMPT_* (no preempt_dynamic_mode), which the dump does
        # not record: ours says "M:?" and a note line says why.
        lines = []
        for l in ours.split(b"\n"):
            if l.startswith(b"# tracehunt: M:? is the preemption model"):
                continue
            m = _LAT_MODEL.match(l)
            if m:
                assert m.group(2) == b"?", l
                lm = [x for x in live.split(b"\n")
                      if _LAT_MODEL.match(x)]
                assert len(lm) == 1, lm
                l = m.group(1) + _LAT_MODEL.match(lm[0]).group(2) + \
                    m.group(3)
            lines.append(l)
        ours = b"\n".join(lines)
    if dump.suite == "sid":
        # 7.x's print_syscall_enter() prints user strings and decoded
        # flags ("filename: 591556344 \"/dev/null\", flags: O_WRONLY|...");
        # tracehunt prints the older form: those lines are left out, their
        # number compared.
        def drop(text):
            keep = [l for l in text.split(b"\n")
                    if not _SYSCALL_ENTER.search(l)]
            return b"\n".join(keep), text.count(b"\n") - len(keep) + 1
        live, n_live = drop(live)
        ours, n_ours = drop(ours)
        assert n_live == n_ours, (n_live, n_ours)
    return live, ours


@scenarios(*EXACT)
def test_trace_files_match_live(dump):
    files = _trace_files(dump)
    assert "tracing/trace" in files
    for name in files:
        live, ours = dump.truth(name), dump.out(thlib.truth_to_command(name))
        if dump.scenario == "options":
            live, ours = _known_differences(dump, live, ours)
        thlib.assert_same(live, ours, name)


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
        live = dump.truth(name)
        if dump.scenario == "options":
            live, ours = _known_differences(dump, live, ours)
        thlib.assert_same(_header(live), _header(ours), name)


@scenarios("wrap", "wrap8")
def test_wrap_counts_and_first_entry(dump):
    """Overwritten buffer (issue #6 acceptance): the header's counts
    (entries-in-buffer/entries-written, #P) and the first surviving entry
    equal the live file's, for the global and every per-CPU trace."""
    def counts(text):
        return [l for l in text.split(b"\n")
                if l.startswith(b"# entries-in-buffer/")]

    def first(text):
        return next((l for l in text.split(b"\n")
                     if l and not l.startswith(b"#")), None)
    for name in _trace_files(dump):
        live = dump.truth(name)
        ours = dump.out(thlib.truth_to_command(name))
        assert ours is not None, name
        assert counts(live), name
        assert counts(ours) == counts(live), (name, counts(ours))
        if name == "tracing/trace":
            # the buffer did wrap: more entries written than kept
            m = counts(live)[0].split(b":")[1].split()[0].split(b"/")
            assert int(m[1]) > int(m[0]), (name, m)
        assert first(live) is not None, name
        assert first(ours) == first(live), (name, first(ours))


@scenarios("live")
def test_live_lines_in_order(dump):
    """Tracing stayed on: every live line (past the header) appears in
    order in ours, and ours goes on to the panic."""
    truth = dump.truth("tracing/trace").split(b"\n")
    ours = dump.out("ftrace cat trace").split(b"\n")
    body = [l for l in truth if l and not l.startswith(b"#")]
    assert body
    assert thlib.lines_in_order(body, ours)
    assert len(ours) > len(truth)
    for cpu in ("cpu0", "cpu1"):
        name = "tracing/per_cpu/%s/trace" % cpu
        if not dump.has_truth(name):
            continue
        t = [l for l in dump.truth(name).split(b"\n")
             if l and not l.startswith(b"#")]
        o = dump.out(thlib.truth_to_command(name)).split(b"\n")
        assert thlib.lines_in_order(t, o), name
    assert any(b"sysrq" in l for l in ours[-40:]), ours[-40:]


# Lines "cat trace" prints before an entry that are not entries: "#####
# CPU 1 buffer started ####", "CPU:1 [LOST 3 EVENTS]", and function_graph's
# context-switch block (" ------", " 0)  cat-86  =>  init-1 ", " ------").
_NOTE = re.compile(rb"^(#####|CPU:\d+ \[LOST| -{20,}$| *\d+\) +\S+ +=> )")


def test_trace_last_n(dump):
    """"ftrace trace -n N" prints the last N entries of "cat trace", with
    the annotations "cat trace" prints before and among them.  A CPU's
    "##### CPU N buffer started" line belongs to the window only when
    that CPU's first entry does ("-n 3" printed it on one boot of wrap
    where "cat trace" had printed CPU 0 long before its last page)."""
    full = [l for l in dump.out("ftrace cat trace").split(b"\n") if l]
    entries = [i for i, l in enumerate(full)
               if not l.startswith(b"#") and not _NOTE.match(l)]
    for n in LAST_N:
        last = _out(dump, "ftrace trace -n %d" % n).split(b"\n")
        last = [l for l in last if l]
        start = entries[-n:][0] if entries else len(full)
        while entries and start > 0 and _NOTE.match(full[start - 1]):
            start -= 1
        assert last == full[start:], (n, last, full[start - 3:])


def test_trace_bad_options(dump):
    """Bad input: one clear line each, and the session goes on."""
    out = _out(dump, "ftrace trace -n x")
    assert out.count(b"\n") == 1 and b"not a count" in out
    out = _out(dump, "ftrace trace -i no_such_instance")
    assert out.count(b"\n") == 1 and b"no instance" in out
    out = _out(dump, "ftrace trace -c 99x")
    assert out.count(b"\n") == 1 and b"expected CPU numbers" in out
    out = _out(dump, "ftrace cat per_cpu/cpu7x/trace")
    assert out.count(b"\n") == 1
