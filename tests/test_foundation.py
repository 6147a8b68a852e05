"""The extension loads, registers its commands, survives bad input, and the
oracle really compares (a truth file altered by one character fails)."""

import os
import subprocess

import pytest

import thlib
from conftest import scenarios


def _crash_suites():
    """The crash suites whose defs.h the selected dumps build against."""
    out = []
    for s in dict.fromkeys(t[0] for t in thlib.selected()):
        cs = thlib.fixture.CRASH_SUITE.get(s, s)
        if cs not in out:
            out.append(cs)
    return out or [thlib.fixture.host_suite()]


def _objdir(suite):
    """The object directory of the .so the sessions load for SUITE (the
    Makefile's OBJDIR): make check passes the host build's; the other
    suites' builds are thlib.so_for's."""
    so = thlib.so_for(suite)
    if so == thlib.SO:
        return os.environ.get("TRACEHUNT_OBJDIR")
    return os.path.join(os.path.dirname(so),
                        "obj-san" if thlib.SAN_LOGDIR else "obj")


def _compiler_said(objdir):
    """{source: what the compiler said} from the Makefile's OBJ.log files
    of OBJDIR, or None when some object has none (built before the logs
    were kept)."""
    said = {}
    for top in ("src", "lib"):
        for dp, dns, fns in os.walk(os.path.join(thlib.ROOT, top)):
            dns.sort()
            d = os.path.relpath(dp, thlib.ROOT)
            for c in sorted(fns):
                if not c.endswith(".c"):
                    continue
                log = os.path.join(objdir, d, c[:-2] + ".o.log")
                if not os.path.exists(log):
                    return None
                with open(log) as f:
                    said["%s/%s" % (d, c)] = f.read()
    return said


@pytest.mark.parametrize("suite", _crash_suites())
def test_builds_warning_free(suite, tmp_path):
    """Every file of the .so the sessions load, compiled against SUITE's
    crash defs.h, without a word from the compiler (-Wall -Wextra).  The
    compiler's words are the ones the build kept; without them (a build
    older than the logs, or pytest run by hand), a private build."""
    objdir = _objdir(suite)
    said = _compiler_said(objdir) if objdir else None
    if said is None:
        # A private build from scratch (-B), away from the .so the
        # sessions load; the outer make's variables are not ours.
        env = {k: v for k, v in os.environ.items()
               if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "SO",
                            "BUILD", "SANITIZE")}
        cs = thlib.fixture.Suite(suite)
        args = ["make", "-B", "-s", "-j2", "BUILD=%s" % tmp_path,
                "SO=%s/tracehunt.so" % tmp_path]
        if not cs.host:
            args.append("CRASH_INCLUDE=" + cs.path("/usr/include/crash"))
        p = subprocess.run(args, cwd=thlib.ROOT, capture_output=True,
                           text=True, env=env)
        assert p.returncode == 0, p.stderr
        said = _compiler_said(os.path.join(tmp_path, "obj"))
    loud = {c: t for c, t in said.items() if t.strip()}
    assert not loud, "".join(loud.values())


def test_loads_and_registers(dump):
    dump.out("kprobes")
    assert "tracehunt.so: shared object loaded" in dump.log
    for c in ("kprobes", "ftrace", "hooks"):
        assert dump.out(c if c != "ftrace" else "ftrace") is not None


def test_bad_input_is_one_clear_line_and_session_survives(dump):
    out = dump.out("ftrace bogus")
    assert out.count(b"\n") == 1 and b"unknown subcommand" in out
    # crash ran its last command after the extension was unloaded
    dump.out("kprobes")
    assert "RELEASE:" in dump.log.split("tracehunt.so: shared object "
                                        "unloaded")[-1]


def test_oracle_bites(dump):
    """Alter one byte of a truth file: the comparison must fail."""
    name = "debug/kprobes/list" if dump.has_truth("debug/kprobes/list") \
        else dump.truth_names()[0]
    truth = dump.truth(name)
    ours = dump.out(thlib.truth_to_command(name))
    if not truth:
        pytest.skip("empty truth file")
    i = len(truth) // 2
    altered = truth[:i] + bytes([truth[i] ^ 0x01]) + truth[i + 1:]
    with pytest.raises(AssertionError):
        thlib.assert_same(altered, ours, name)


def test_fixture_key_tracks_scenario(tmp_path, monkeypatch):
    """Changing a scenario changes only that scenario's hash."""
    import fixture
    a1 = fixture.scenario_hash(os.path.join(fixture.SCENARIOS, "modules"))
    b1 = fixture.scenario_hash(os.path.join(fixture.SCENARIOS, "events"))
    src = os.path.join(fixture.SCENARIOS, "events")
    dst = tmp_path / "events"
    subprocess.run(["cp", "-r", src, str(dst)], check=True)
    assert fixture.scenario_hash(str(dst)) == b1
    with open(dst / "setup.sh", "a") as f:
        f.write("# changed\n")
    assert fixture.scenario_hash(str(dst)) != b1
    assert fixture.scenario_hash(
        os.path.join(fixture.SCENARIOS, "modules")) == a1


# Commands whose output must not depend on which vmlinux file crash read.
SAME = ["kprobes -v", "ftrace", "ftrace ops", "ftrace sites -a",
        "ftrace cat enabled_functions", "ftrace cat trace", "hooks -v",
        "hooks -j", "ftrace trace -n 50"]
# The fast copy's side in the dump's one session (dump.out() would open a
# session for each command the other tests do not run).
thlib.batch(lambda dump: SAME if dump.variant == "kdump" else [],
            scenarios=["modules"])


@scenarios("modules")
@thlib.background
def test_fast_vmlinux_copy_prints_the_same(dump):
    """The sessions open a copy of the vmlinux with a gdb index and its
    line tables hidden (thlib.indexed_vmlinux); tracehunt prints the same
    from the distribution's vmlinux itself.  Once per kernel (kdump)."""
    orig = dump.manifest["vmlinux"]
    if dump.variant != "kdump" or dump.vmlinux() == orig:
        pytest.skip("kdump variant only, with a fast copy")
    theirs = dump.run(SAME, vmlinux=orig)
    for c in SAME:
        thlib.assert_same(theirs[c], dump.out(c), c + " (vmlinux itself vs "
                          "the fast copy)")
