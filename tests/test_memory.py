"""Issue 10: repeating every command 100 times in ONE crash session does not
grow crash's memory.  One crash process (events dump, host suite, kdump
variant only) runs every command ROUNDS times; after some rounds crash's
own VmRSS and VmData are read (`!grep ... /proc/$PPID/status`: the shell
crash starts for `!` is its child).  The first rounds warm crash's and
tracehunt's caches; from CHECK_FROM on, growth must stay under BOUND_KB.

TRACEHUNT_MEM_ROUNDS changes the number of rounds (default 100)."""

import os
import re
import shutil
import subprocess
import tempfile

import pytest

import thlib
from conftest import scenarios

ROUNDS = int(os.environ.get("TRACEHUNT_MEM_ROUNDS", "100"))
# Rounds after which memory is read; growth is measured from CHECK_FROM.
CHECK_FROM = min(10, ROUNDS)
POINTS = sorted(r for r in {1, 2, 5, CHECK_FROM, ROUNDS // 2, ROUNDS}
                if 0 < r <= ROUNDS)
# 2 MB over 90 rounds: a leak of ~300 bytes per command run shows.
BOUND_KB = int(os.environ.get("TRACEHUNT_MEM_BOUND_KB", "2048"))
TIMEOUT = int(os.environ.get("TRACEHUNT_MEM_TIMEOUT", "1500"))


def mem_commands(dump, tmp):
    cmds = ["kprobes", "kprobes -v", "ftrace", "ftrace ops -v",
            "ftrace sites -a"]
    seen = set(cmds)
    for n in dump.truth_names():
        c = thlib.truth_to_command(n)
        if c and c.startswith("ftrace cat ") and c not in seen:
            seen.add(c)
            cmds.append(c)
    cmds += ["ftrace trace -n 50", "hooks", "hooks -j",
             "ftrace dump -f -t %s" % os.path.join(tmp, "trace.dat")]
    return cmds


def is_host(dump):
    return thlib.fixture.Suite(dump.manifest.get(
        "crash_suite", dump.suite)).host


@scenarios("events")
@thlib.background
def test_repeated_commands_do_not_grow_memory(dump):
    if not is_host(dump) or dump.variant != "kdump":
        pytest.skip("one crash session per suite: host suite, kdump only")
    if os.environ.get("TH_SAN_LOGDIR"):
        pytest.skip("make SANITIZE=1: ASan's quarantine keeps freed memory, "
                    "crash's RSS says nothing about leaks")
    so = thlib.so_for(dump.suite)
    tmp = tempfile.mkdtemp(prefix="th-mem-")
    try:
        cmds = mem_commands(dump, tmp)
        lines = ["extend %s" % so]
        for r in range(1, ROUNDS + 1):
            lines += ["%s > /dev/null" % c for c in cmds]
            if r in POINTS:
                lines.append("!grep -E '^(VmRSS|VmData):' /proc/$PPID/status"
                             " > %s/mem.%d" % (tmp, r))
        lines += ["extend -u %s" % so, "sys > %s/final" % tmp, "exit"]
        cf = os.path.join(tmp, "cmds")
        with open(cf, "w") as f:
            f.write("\n".join(lines) + "\n")
        p = subprocess.run(["crash", "-s", dump.manifest["vmlinux"],
                            dump.manifest["vmcore"], "-i", cf],
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=TIMEOUT)
        log = p.stdout.decode(errors="replace")
        assert "shared object loaded" in log, log[-2000:]
        with open(os.path.join(tmp, "final")) as f:
            assert "RELEASE:" in f.read(), log[-2000:]
        mem = {}
        for r in POINTS:
            with open(os.path.join(tmp, "mem.%d" % r)) as f:
                mem[r] = {k: int(v) for k, v in re.findall(
                    r"^(\w+):\s+(\d+) kB", f.read(), re.M)}
        table = "  ".join("after %d: RSS %d kB data %d kB" % (
            r, mem[r]["VmRSS"], mem[r]["VmData"]) for r in POINTS)
        print("memory (%d commands x %d rounds): %s" % (len(cmds), ROUNDS,
                                                        table))
        for k in ("VmRSS", "VmData"):
            grew = mem[ROUNDS][k] - mem[CHECK_FROM][k]
            assert grew <= BOUND_KB, \
                "crash's %s grew by %d kB from round %d to round %d " \
                "(bound %d kB): %s" % (k, grew, CHECK_FROM, ROUNDS,
                                       BOUND_KB, table)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
