"""The helper thread of "ftrace cat trace" (src/render/trace_helper.c),
asked for with TRACEHUNT_HELPER=1 (not the default yet).

The other tests compare the trace files with the live ones on one thread.
Here: every trace file of the host suite's dumps, the same bytes with the
helper and without, and a command interrupted while the helper prints
(SIGINT reaches crash's thread, which stops and joins the helper; the
session goes on, its CPU affinity as it was, the next commands right).
"""
import os
import pty
import re
import select
import signal
import time

import pytest

import fixture
import thlib

# the wrap fixture of the host's suite: a function trace whose runs the
# helper prints (some 150 of them)
SUITE = fixture.host_suite()


def _dump():
    if (SUITE, "wrap", "kdump") not in thlib.selected():
        pytest.skip("needs %s's wrap fixture (kdump)" % SUITE)
    return thlib.Dump(SUITE, "wrap", "kdump")


def _host_dumps():
    return [(su, sc, va) for su, sc, va in thlib.selected()
            if su == SUITE and va == "kdump"]


@pytest.mark.parametrize("key", _host_dumps(),
                         ids=["-".join(k) for k in _host_dumps()])
def test_same_bytes_without_helper(key):
    """Every trace file of the host suite's kdump dumps, with the helper
    and without: the same bytes (the comparison with the live files is
    test_trace.py's)."""
    d = thlib.Dump(*key)
    names = [n for n in d.truth_names()
             if re.fullmatch(r"tracing/(instances/[^/]+/)?"
                             r"(trace|per_cpu/cpu\d+/trace)", n)]
    if not names:
        pytest.skip("no trace file captured")
    cmds = ["ftrace cat %s" % n[len("tracing/"):] for n in names]
    outs = {}
    for h in ("1", "0"):
        old = os.environ.get("TRACEHUNT_HELPER")
        os.environ["TRACEHUNT_HELPER"] = h
        try:
            outs[h] = d.run(cmds)
        finally:
            if old is None:
                del os.environ["TRACEHUNT_HELPER"]
            else:
                os.environ["TRACEHUNT_HELPER"] = old
    for c in cmds:
        assert outs["1"][c] is not None and outs["1"][c] == outs["0"][c], c


class _Pty:
    """crash on a terminal, as a user runs it (SIGINT as ^C sends it)."""

    def __init__(self, argv, env):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.environ.clear()
            os.environ.update(env)
            os.execvp(argv[0], argv)
        self.buf = b""

    def read_until(self, text, timeout):
        end = time.time() + timeout
        while text.encode() not in self.buf and time.time() < end:
            r, _, _ = select.select([self.fd], [], [], 0.1)
            if r:
                try:
                    b = os.read(self.fd, 65536)
                except OSError:
                    break
                if not b:
                    break
                self.buf += b
        return text.encode() in self.buf

    def send(self, line):
        os.write(self.fd, (line + "\n").encode())

    def close(self):
        try:
            os.kill(self.pid, signal.SIGKILL)
        except OSError:
            pass
        os.waitpid(self.pid, 0)
        os.close(self.fd)


def test_interrupted_while_helper_prints():
    d = _dump()
    so = thlib.so_for(SUITE)
    full = d.run(["ftrace trace -n 20", "ftrace cat trace"])
    want = full["ftrace trace -n 20"]
    assert want and full["ftrace cat trace"]
    cut = "/tmp/th-helper-%d.cut" % os.getpid()
    # the helper sleeps 50 ms before each run: the command takes seconds,
    # the SIGINT comes one second into it
    env = dict(os.environ, TRACEHUNT_HELPER_DELAY="50000")
    env["TRACEHUNT_HELPER"] = "1"
    t = _Pty(["crash", "-s", d.vmlinux(), d.manifest["vmcore"]], env)
    mark = 0
    try:
        assert t.read_until("crash> ", 300), t.buf[-2000:]
        t.send("set scroll off")
        t.send("extend %s" % so)
        assert t.read_until("shared object loaded", 120), t.buf[-2000:]
        t.send("!grep Cpus_allowed_list /proc/$PPID/status")
        assert t.read_until("Cpus_allowed_list", 60)
        tasks = "/proc/%d/task" % t.pid
        before = set(os.listdir(tasks))
        t.send("ftrace cat trace > %s" % cut)
        # the helper: a thread of crash's for the command's time
        end = time.time() + 120
        while time.time() < end and len(os.listdir(tasks)) <= len(before):
            time.sleep(0.01)
        during = set(os.listdir(tasks))
        assert len(during) == len(before) + 1, (before, during)
        time.sleep(0.5)
        os.kill(t.pid, signal.SIGINT)
        t.send("!echo AFTER-$((1+1)); grep Cpus_allowed_list "
               "/proc/$PPID/status")
        assert t.read_until("AFTER-2\r\n", 120), t.buf[-2000:]
        # stopped and joined at the interrupt: the trace cut short, the
        # thread gone
        assert set(os.listdir(tasks)) == before
        with open(cut, "rb") as f:
            got_cut = f.read()
        os.unlink(cut)
        assert len(got_cut) < len(full["ftrace cat trace"])
        assert full["ftrace cat trace"].startswith(got_cut)
        t.send("ftrace trace -n 20 > /tmp/th-helper-%d.out" % os.getpid())
        # (a marker its echo does not hold)
        t.send("!echo DONE-$((20+22))")
        assert t.read_until("DONE-42\r\n", 300), t.buf[-2000:]
        text = t.buf.decode(errors="replace")
        # crash's thread's CPUs as they were before the command
        allowed = [l.split()[-1] for l in text.splitlines()
                   if l.startswith("Cpus_allowed_list")]
        assert len(allowed) == 2 and allowed[0] == allowed[1], text
        out = "/tmp/th-helper-%d.out" % os.getpid()
        with open(out, "rb") as f:
            got = f.read()
        os.unlink(out)
        assert got == want
    finally:
        t.close()
