"""Bad input to the fixture pipeline and the harness ends with one clear
message: a missing or garbled vmlinux, a dump that does not match its
vmlinux, a guest that never panics, no network."""

import glob
import json
import os
import subprocess
import sys

import pytest

import thlib

# The same whatever SUITES selects: make check runs these in its main run
# only (conftest.py's _drop_once())
pytestmark = pytest.mark.once

FIXTURE = os.path.join(thlib.ROOT, "scripts", "fixture.py")
PY = sys.executable


def host_fixture(scenario="events"):
    """The host suite's kdump fixture of SCENARIO (built if needed)."""
    try:
        return thlib.fixture.build(thlib.fixture.host_suite(), scenario,
                                   "kdump")
    except thlib.fixture.FixtureError as e:
        pytest.skip("no host fixture: %s" % e)


def copy_fixture(src, dst, **changes):
    """A fixture directory whose manifest differs by CHANGES (the vmcore
    and truth are linked, not copied)."""
    os.makedirs(dst)
    with open(os.path.join(src, "manifest.json")) as f:
        m = json.load(f)
    os.symlink(os.path.join(src, "truth"), os.path.join(dst, "truth"))
    m.update(changes)
    with open(os.path.join(dst, "manifest.json"), "w") as f:
        json.dump(m, f)
    return dst


def open_error(directory):
    d = thlib.Dump(None, None, None, directory=directory)
    with pytest.raises(thlib.DumpError) as ei:
        d.run(["kprobes"])
    return str(ei.value)


def test_missing_vmlinux(tmp_path):
    src = host_fixture()
    missing = str(tmp_path / "no-such-vmlinux")
    msg = open_error(copy_fixture(src, str(tmp_path / "f"),
                                  vmlinux=missing))
    assert "vmlinux %s is missing" % missing in msg, msg
    assert "fixture.py --force" in msg, msg


def test_garbled_vmlinux_not_elf(tmp_path):
    src = host_fixture()
    bad = tmp_path / "vmlinux"
    bad.write_bytes(b"this is not a kernel\n" * 100)
    msg = open_error(copy_fixture(src, str(tmp_path / "f"),
                                  vmlinux=str(bad)))
    assert "is not an ELF file" in msg, msg


def test_garbled_vmlinux_truncated(tmp_path):
    """An ELF header and then nothing: crash itself refuses it; the harness
    says so with crash's own words instead of failing later."""
    src = host_fixture()
    with open(src + "/manifest.json") as f:
        real = json.load(f)["vmlinux"]
    bad = tmp_path / "vmlinux"
    with open(real, "rb") as f:
        bad.write_bytes(f.read(1 << 20))
    msg = open_error(copy_fixture(src, str(tmp_path / "f"),
                                  vmlinux=str(bad)))
    assert msg.startswith("crash could not open"), msg
    assert "crash:" in msg or "crash " in msg.splitlines()[-1], msg


def test_dump_does_not_match_vmlinux(tmp_path):
    src = host_fixture()
    with open(src + "/manifest.json") as f:
        mine = json.load(f)["vmlinux"]
    others = [v for v in glob.glob(os.path.join(thlib.fixture.CACHE,
                                                "kernels", "*", "vmlinux"))
              if v != mine and thlib.fixture.is_elf(v)]
    if not others:
        pytest.skip("only one kernel in the cache")
    msg = open_error(copy_fixture(src, str(tmp_path / "f"),
                                  vmlinux=sorted(others)[0]))
    assert msg.startswith("crash could not open"), msg
    assert "do not match" in msg, msg


def _hang_build():
    """The hanging scenario's build, started with the session (its guest
    mostly sleeps through the 120 s)."""
    import tempfile
    tmp = tempfile.mkdtemp(prefix="th-hang-")
    scen = os.path.join(tmp, "hang")
    os.mkdir(scen)
    with open(os.path.join(scen, "setup.sh"), "w") as f:
        f.write("echo 'th-hang: sleeping forever' > /dev/console\n"
                "sleep 100000\n")
    p = subprocess.Popen([PY, FIXTURE, "--timeout", "120", "--out",
                          os.path.join(tmp, "fx"), scen],
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    return p, tmp


@thlib.start_early(_hang_build)
def test_guest_never_panics():
    """A scenario that hangs: the build gives up after the (configurable)
    timeout and shows the console's tail."""
    import shutil
    proc, tmp = thlib.early(_hang_build)
    try:
        _, err = proc.communicate(timeout=600)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    p = subprocess.CompletedProcess(proc.args, proc.returncode, "", err)
    assert p.returncode == 1, p.stderr
    err = p.stderr
    assert "the guest did not panic within 120 s" in err, err
    assert "console tail" in err and "th-hang: sleeping forever" in err, err
    assert "Traceback" not in err


def test_no_network_nothing_cached(tmp_path):
    """Resolving a non-host suite's kernel with no network and an empty
    cache ends with one clear message (no traceback)."""
    env = dict(os.environ, TRACEHUNT_CACHE=str(tmp_path / "cache"))
    suite = "trixie" if thlib.fixture.host_suite() != "trixie" else "sid"
    p = subprocess.run(["unshare", "-n", PY, FIXTURE, "--print-release",
                        suite], capture_output=True, text=True, env=env,
                       timeout=300)
    if "unshare failed" in p.stderr or "Operation not permitted" in p.stderr:
        pytest.skip("cannot make a network namespace here")
    assert p.returncode == 1, p.stdout + p.stderr
    err = p.stderr.strip().splitlines()
    assert err[-1].startswith("fixture: error: cannot resolve the current "
                              "kernel of %s and none is cached" % suite), err
    assert "no network?" in err[-1], err
    assert "Traceback" not in p.stderr


def test_no_network_uses_cached_release(tmp_path):
    """Offline with a remembered answer: that answer, and a note."""
    cache = tmp_path / "cache"
    (cache / "suites").mkdir(parents=True)
    (cache / "suites" / "trixie.release").write_text("6.12.0-test-amd64\n")
    env = dict(os.environ, TRACEHUNT_CACHE=str(cache),
               TRACEHUNT_RELEASE_TTL="0")
    p = subprocess.run(["unshare", "-n", PY, FIXTURE, "--print-release",
                        "trixie"], capture_output=True, text=True, env=env,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "6.12.0-test-amd64"
    assert "using cached 6.12.0-test-amd64" in p.stderr


@pytest.mark.parametrize("args,msg", [
    (["no_such_scenario"], "no scenario 'no_such_scenario'"),
    (["--variant", "bogus", "events"], "unknown variant 'bogus'"),
    (["--suite", "Bad Suite", "events"], "bad suite name"),
])
def test_bad_arguments(args, msg):
    p = subprocess.run([PY, FIXTURE] + args, capture_output=True, text=True,
                       env=dict(os.environ, TRACEHUNT_OFFLINE="1"))
    assert p.returncode == 1
    assert msg in p.stderr and "Traceback" not in p.stderr, p.stderr


def test_prune_stale_keeps_other_scenarios(tmp_path):
    """A scenario's fixtures of other hashes go once unused for
    STALE_SECONDS, with their locks; the current one, a recent one, and
    a scenario whose name only starts with this one's (rhel7-graph for
    rhel7) stay."""
    import time
    fx = thlib.fixture
    old = time.time() - fx.STALE_SECONDS - 3600
    names = {"rhel7-3bf1be59ede5": old,     # current
             "rhel7-838eca7735d2": old,     # stale
             "rhel7-aaaaaaaaaaaa": time.time(),     # used lately
             "rhel7-graph-e9d20c0b7857": old,       # another scenario
             "rhel7-wrap-3f3089e57701": old}
    for n, t in names.items():
        for p in (tmp_path / n, tmp_path / (n + ".lock")):
            if p.suffix == ".lock":
                p.write_text("")
            else:
                p.mkdir()
            os.utime(p, (t, t))
    fx.prune_stale(str(tmp_path), "rhel7", "3bf1be59ede5")
    left = sorted(os.listdir(tmp_path))
    assert left == sorted(n + s for n in names if n != "rhel7-838eca7735d2"
                          for s in ("", ".lock")), left


def test_stalled_guest_recognised():
    """The livelock a TCG guest can fall into on a loaded machine ends its
    boot at once as a flake (booted once more), not at the boot timeout:
    the console of a 5.10 guest that stalled on a cold CI run
    (testdata/consoles/, as QEMU wrote it), against every cached
    fixture's console, none of which stalled."""
    path = os.path.join(thlib.ROOT, "testdata", "consoles",
                        "stalled-5.10-graph-kaslr.log")
    with open(path, errors="replace") as f:
        text = f.read()
    assert thlib.fixture.stalled(text)
    # up to the third report on each vCPU: a lockup it may still leave
    third = text.index("[  116.378887]")
    assert not thlib.fixture.stalled(text[:third])
    for c in glob.glob(os.path.join(thlib.fixture.CACHE, "fixtures", "*",
                                    "*", "*", "console.log")):
        with open(c, errors="replace") as f:
            assert not thlib.fixture.stalled(f.read()), c


def test_stuck_guest_recognised():
    """A guest whose vCPUs stand at one instruction with interrupts off
    is stuck (fixture.stuck()): the registers QEMU's monitor showed for
    the silent 5.10 graph guest of that cold run (CPU#1's RIP line alone
    kept), sampled alike STUCK_SAMPLES times; a running 2-vCPU guest's,
    the same number of times, is not (one vCPU halted, the other with
    interrupts on), nor are fewer samples of the stuck one."""
    def regs(name):
        with open(os.path.join(thlib.ROOT, "testdata", "consoles",
                               name)) as f:
            return thlib.fixture.vcpu_states(f.read())
    fx = thlib.fixture
    stuck = regs("stuck-5.10-graph-kaslr.regs")
    running = regs("running-2vcpu.regs")
    assert len(stuck) == 2 and len(running) == 2
    assert fx.stuck([stuck] * fx.STUCK_SAMPLES)
    assert not fx.stuck([stuck] * (fx.STUCK_SAMPLES - 1))
    assert not fx.stuck([running] * fx.STUCK_SAMPLES)
    assert not fx.stuck([running] + [stuck] * (fx.STUCK_SAMPLES - 1))
    # QEMU that did not answer
    assert not fx.stuck([()] * fx.STUCK_SAMPLES)
