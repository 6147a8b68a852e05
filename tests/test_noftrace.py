"""Issues #2 and #4 on a kernel built WITHOUT ftrace, tracing and kprobes.

No Debian kernel lacks them, so the pseudo suite bookworm-noftrace boots a
kernel that scripts/build-kernel builds from Debian's linux-source package
with testdata/kernels/noftrace.config (scenario testdata/scenarios/noftrace).
The extension must load on its dump; every command says in one line what
the kernel lacks, and crash keeps working after each.  The live guest's
own capture (every tracefs and debugfs/kprobes file missing) and crash's
own symbol lookups are the truth the lines are checked against.

Runs only when selected: "make check-noftrace" (SUITES=bookworm-noftrace;
a cold run builds the kernel first).
"""

import os
import re
import tempfile

import pytest

import thlib

SUITE = "bookworm-noftrace"
SCENARIO = "noftrace"

pytestmark = pytest.mark.skipif(
    SUITE not in thlib.env_list("SUITES", []),
    reason="needs SUITES=%s (boots a kernel built from Debian's "
    "linux-source by scripts/build-kernel)" % SUITE)

DAT = os.path.join(tempfile.gettempdir(), "th-noftrace-%d.dat" % os.getpid())
COMMANDS = ["kprobes", "kprobes -v", "ftrace", "ftrace ops", "ftrace ops -v",
            "ftrace sites", "ftrace sites -a", "ftrace cat trace",
            "ftrace cat enabled_functions", "ftrace ls", "ftrace trace",
            "ftrace dump -t " + DAT, "hooks", "hooks -j"]
# A plain crash command after each one: it reads the dump, so crash is
# still alive and still reading memory (distinct, so each has its output).
ALIVE = "rd -8 linux_banner %d"
# What crash itself says of the symbols the commands need.
SYMS = ["kprobe_table", "ftrace_ops_list", "global_trace"]


# One boot gives all three (the filtered one through makedumpfile).
@pytest.fixture(scope="module", params=["kdump", "elf", "filtered"])
def nd(request):
    try:
        d = thlib.Dump(SUITE, SCENARIO, request.param)
        cmds = []
        for i, c in enumerate(COMMANDS):
            cmds += [c, ALIVE % (i + 2)]
        cmds += ["sym " + s for s in SYMS]
        d.outputs = d.run(cmds)
    except (thlib.fixture.FixtureError, thlib.DumpError) as e:
        pytest.fail("fixture %s-%s-%s: %s" % (SUITE, SCENARIO,
                                              request.param, e),
                    pytrace=False)
    return d


def text(d, cmd):
    out = d.outputs.get(cmd)
    assert out is not None, "%s: no output file (crash stopped?)" % cmd
    return out.decode(errors="replace")


def test_live_kernel_had_no_tracing(nd):
    """The guest's own capture: tracefs and debugfs/kprobes were absent."""
    with open(os.path.join(nd.dir, "truth.raw"), "rb") as f:
        raw = f.read()
    for name in ("tracing/trace", "tracing/enabled_functions",
                 "tracing/kprobe_events", "debug/kprobes/list"):
        assert b"@@TH-MISSING %s\n" % name.encode() in raw, name
    assert not any(n.startswith(("tracing/", "debug/"))
                   for n in nd.truth_names())
    assert nd.manifest["suite"] == SUITE


def test_symbols_absent(nd):
    """crash's own lookup agrees: the symbols the commands need are not in
    this kernel."""
    for s in SYMS:
        assert "symbol not found" in text(nd, "sym " + s), s


def test_loads_and_crash_keeps_working(nd):
    assert "shared object loaded" in nd.log
    for i, c in enumerate(COMMANDS):
        out = text(nd, ALIVE % (i + 2))
        # "ADDR:  4c" ... : the first bytes of "Linux version"
        assert re.match(r"^[0-9a-f]+:\s+4c 69", out), \
            "after %r crash printed %r" % (c, out[:200])
    # unloaded at the end, and crash's own "sys" still ran
    assert re.search(r"^\s+RELEASE: ", nd.log, re.M), nd.log[-2000:]


KPROBES_LINE = ("kprobes: not available in this dump: no kprobe_table "
                "(kernel built without CONFIG_KPROBES)")


@pytest.mark.parametrize("cmd", [c for c in COMMANDS if c != "hooks" and
                                 c != "hooks -j"])
def test_one_line_says_what_is_missing(nd, cmd):
    out = text(nd, cmd)
    lines = out.splitlines()
    assert len(lines) == 1 and out.endswith("\n"), \
        "%s printed %d lines:\n%s" % (cmd, len(lines), out)
    line = lines[0]
    if cmd.startswith("kprobes"):
        assert line == KPROBES_LINE
    else:
        assert line.startswith("ftrace: ")
        for what in ("ftrace_ops_list", "CONFIG_FUNCTION_TRACER",
                     "global_trace", "CONFIG_TRACING"):
            assert what in line, "%s: %r does not name %s" % (cmd, line,
                                                               what)
        assert "?" not in line, "the dump says for certain: %r" % line
    if cmd.startswith("ftrace dump"):
        assert not os.path.exists(DAT)


def test_hooks_runs_what_exists_and_names_what_not(nd):
    """hooks still checks the kernel text (and any tracepoints); one line
    says which hook mechanisms this kernel does not have."""
    out = text(nd, "hooks")
    miss = [l for l in out.splitlines() if l.startswith("hooks: not ")]
    assert len(miss) == 1, out
    for what in ("kprobes", "kprobe_table", "CONFIG_KPROBES", "ftrace",
                 "ftrace_ops_list", "CONFIG_FUNCTION_TRACER"):
        assert what in miss[0], "%r does not name %s" % (miss[0], what)
    assert re.search(r"^text: \d+ core functions compared", out, re.M), out
    assert re.search(r"^hooks: \d+ findings: ", out, re.M), out
    # nothing on this kernel hooks a function it could not see
    assert not re.search(r"^(suspicious|HIDDEN)\s", out, re.M), out


def test_hooks_json_names_what_is_missing(nd):
    import json
    j = json.loads(text(nd, "hooks -j"))
    nc = j["summary"]["not_checked"]
    assert nc and "kprobe_table" in nc and "ftrace_ops_list" in nc, nc
    assert j["summary"]["text_checked"] is True
