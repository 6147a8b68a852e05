"""tracehunt-batch (issue 25): one JSON line per dump, in the order given,
from one crash session of "hooks -j" and "ftrace -j" each; a dump that
cannot be read is a line with its errors, never a stop."""

import json
import os
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import pytest

import fixture
import thlib

BATCH = os.path.join(thlib.ROOT, "scripts", "tracehunt-batch")
# the suites whose dumps a real sweep runs on: the host's, and sid's
# (crash 9.0.2 opens 7.x only with --no_modules: the retry is checked)
SWEEP_SUITES = (fixture.host_suite(), "sid")

thlib.batch(["hooks -j", "ftrace -j"], scenarios=["modules"])


def _lines(argv, **kw):
    p = subprocess.run([sys.executable, BATCH] + argv, capture_output=True,
                       text=True, timeout=600, **kw)
    return p.returncode, [json.loads(l) for l in p.stdout.splitlines()]


@pytest.mark.once
def test_unreadable_dumps_are_lines(tmp_path):
    """Dumps that cannot be opened each give a line with its error, in
    the order given, and the exit status says some had errors; in DIR, a
    dump without a vmlinux beside it too."""
    d = tmp_path / "dir" / "host1"
    d.mkdir(parents=True)
    (d / "vmcore").write_bytes(b"not a dump")
    missing = str(tmp_path / "nothing")
    rc, lines = _lines([missing + "/vmlinux", missing + "/vmcore",
                        str(tmp_path / "vmlinux"), str(d / "vmcore")])
    assert rc == 1
    assert [l["dump"] for l in lines] == [missing + "/vmcore",
                                         str(d / "vmcore")]
    assert all(l["errors"] and l["verdicts"] is None for l in lines), lines
    rc, lines = _lines([str(tmp_path / "dir")])
    assert rc == 1 and len(lines) == 1, lines
    assert lines[0]["dump"] == str(d / "vmcore")
    assert "no vmlinux" in lines[0]["errors"][0]


def _crash_wrapper(dump, tmp):
    """A crash command for --crash: the suite's crash, in its chroot with
    what the session reads bind-mounted (the host's crash on the host)."""
    cs = fixture.Suite(dump.crash_suite())
    if cs.host:
        return "crash"
    binds = [os.path.dirname(dump.vmlinux()),
             os.path.dirname(dump.manifest["vmcore"]),
             os.path.dirname(thlib.so_for(dump.suite)),
             tempfile.gettempdir()]
    w = os.path.join(tmp, "crash")
    with open(w, "w") as f:
        f.write("#!/bin/sh\nexec %s \"$@\"\n"
                % " ".join(shlex.quote(x) for x in cs.argv(["crash"],
                                                           binds)))
    os.chmod(w, 0o755)
    return w


@thlib.background
def test_sweep_line_is_the_dumps_hooks(dump, tmp_path):
    """A real dump's line holds what "hooks -j" and "ftrace -j" say in the
    dump's own session: the kernel release, the verdict counts, every
    finding that is not ok, the summary, no errors."""
    if dump.scenario != "modules" or dump.variant != "kdump" or \
            dump.suite not in SWEEP_SUITES:
        pytest.skip("one modules dump of the host suite and of sid")
    rc, lines = _lines(["--so", thlib.so_for(dump.suite), "--cache",
                        str(tmp_path / "cache"), "--crash",
                        _crash_wrapper(dump, str(tmp_path)),
                        dump.vmlinux(), dump.manifest["vmcore"]])
    assert len(lines) == 1, lines
    assert rc == 0
    _is_the_dumps_line(lines[0], dump)
    # the vmlinux the tests open has its index: used as it is, no copy
    assert not os.path.exists(tmp_path / "cache")


def _is_the_dumps_line(line, dump):
    """LINE says what "hooks -j" and "ftrace -j" say in DUMP's session."""
    assert line["errors"] == [], line["errors"]
    assert line["kernel"] == dump.manifest["release"]
    hooks = json.loads(dump.out("hooks -j"))
    s = hooks["summary"]
    assert line["verdicts"] == {k: s[k] for k in ("ok", "note",
                                                  "suspicious", "HIDDEN",
                                                  "total")}
    assert line["findings"] == [f for f in hooks["findings"]
                                if f["verdict"] != "ok"]
    summary = json.loads(dump.out("ftrace -j"))
    assert line["summary"] == {k: v for k, v in summary.items() if k not in
                               ("schema", "tracehunt", "command",
                                "warnings")}


def _fake_ssh(tmp, rc=None):
    """An ssh for GNU parallel's --sshlogin that runs the remote command
    on this machine ("ssh [options] HOST COMMAND..." becomes sh -c
    "COMMAND..."), or, with RC, a host that cannot be reached (ssh's
    exit 255 and its message).  This machine runs no ssh server: the
    stand-in checks what tracehunt-batch does around the transport."""
    w = os.path.join(tmp, "ssh-unreachable" if rc else "ssh-local")
    with open(w, "w") as f:
        if rc:
            f.write("#!/bin/sh\necho \"ssh: connect to host $1 port 22: "
                    "Connection refused\" >&2\nexit %d\n" % rc)
        else:
            # options with a value, then the host, then the command
            # (after a "--", which ssh's getopt takes as the end of its
            # options: GNU parallel writes "HOST -- exec perl ...")
            f.write("#!/bin/sh\n"
                    "while [ $# -gt 0 ]; do\n"
                    "  case $1 in\n"
                    "  -[bcDEeFIiJLlmOopQRSWw]) shift 2 ;;\n"
                    "  -*) shift ;;\n"
                    "  *) shift; break ;;\n"
                    "  esac\n"
                    "done\n"
                    "[ \"$1\" = -- ] && shift\n"
                    "exec sh -c \"$*\"\n")
    os.chmod(w, 0o755)
    return w


@thlib.background
def test_sshlogin_runs_jobs_on_the_hosts(dump, tmp_path):
    """--sshlogin: the jobs go through parallel's remote mode (the command
    quoted for a remote shell) and give the line of the dump's own
    session; a host that cannot be reached gives each of its dumps a line
    with the error, never a stop."""
    if dump.scenario != "modules" or dump.variant != "kdump" or \
            dump.suite != fixture.host_suite():
        pytest.skip("one modules dump of the host suite")
    if not shutil.which("parallel"):
        pytest.fail("GNU parallel is missing (scripts/install-deps)")
    pair = [dump.vmlinux(), dump.manifest["vmcore"]]
    so = ["--so", thlib.so_for(dump.suite), "--crash",
          _crash_wrapper(dump, str(tmp_path))]
    ssh = _fake_ssh(str(tmp_path))
    # (without $SHELL, as under CI's runner: parallel's remote mode
    # skipped every job and exited 0 when tracehunt-batch did not set it)
    noshell = {k: v for k, v in os.environ.items() if k != "SHELL"}
    rc, remote = _lines(so + ["-j", "1", "--sshlogin", "1/%s otherhost"
                              % ssh] + pair, env=noshell)
    assert rc == 0 and len(remote) == 1, remote
    _is_the_dumps_line(remote[0], dump)
    bad = _fake_ssh(str(tmp_path), rc=255)
    rc, lines = _lines(so + ["-j", "1", "--sshlogin", "1/%s nohost" % bad]
                       + pair + pair)
    assert rc == 1 and len(lines) == 2, lines
    for l in lines:
        assert l["dump"] == dump.manifest["vmcore"]
        assert l["errors"] and l["verdicts"] is None, l


def _sshd(tmp):
    """An OpenSSH server (openssh-server: scripts/install-deps) on a free
    port of 127.0.0.1, for this test only: its own host key, root's login
    by a key made here, its log in TMP/sshd.log.  (Popen, the ssh command
    for --sshlogin.)"""
    sshd = shutil.which("sshd") or "/usr/sbin/sshd"
    if not os.access(sshd, os.X_OK):
        pytest.fail("sshd is missing (openssh-server: scripts/install-deps)")
    for key in ("hostkey", "userkey"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f",
                        os.path.join(tmp, key)], check=True)
    shutil.copy(os.path.join(tmp, "userkey.pub"),
                os.path.join(tmp, "authorized_keys"))
    with socket.socket() as so:
        so.bind(("127.0.0.1", 0))
        port = so.getsockname()[1]
    cfg = os.path.join(tmp, "sshd_config")
    with open(cfg, "w") as f:
        f.write("Port %d\nListenAddress 127.0.0.1\nHostKey %s\n"
                "AuthorizedKeysFile %s\nPermitRootLogin prohibit-password\n"
                "PasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                "UsePAM no\nStrictModes no\nPidFile none\n"
                % (port, os.path.join(tmp, "hostkey"),
                   os.path.join(tmp, "authorized_keys")))
    os.makedirs("/run/sshd", exist_ok=True)     # its privilege separation
    log = open(os.path.join(tmp, "sshd.log"), "w")
    p = subprocess.Popen([sshd, "-D", "-e", "-f", cfg], stdout=log,
                         stderr=subprocess.STDOUT)
    log.close()
    ssh = ("ssh -p %d -i %s -o StrictHostKeyChecking=no -o "
           "UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR "
           "127.0.0.1" % (port, os.path.join(tmp, "userkey")))
    for _ in range(100):
        with socket.socket() as so:
            if so.connect_ex(("127.0.0.1", port)) == 0:
                return p, ssh
        if p.poll() is not None:
            break
        time.sleep(0.1)
    p.kill()
    with open(os.path.join(tmp, "sshd.log")) as f:
        pytest.fail("sshd did not start:\n" + f.read())


@thlib.background
def test_sshlogin_through_sshd(dump, tmp_path):
    """--sshlogin with a real OpenSSH server (this machine's, on a port of
    its own: no second machine here): the job logs in with ssh, runs
    there, and its line is the dump's own session's."""
    if dump.scenario != "modules" or dump.variant != "kdump" or \
            dump.suite != fixture.host_suite():
        pytest.skip("one modules dump of the host suite")
    if not shutil.which("parallel"):
        pytest.fail("GNU parallel is missing (scripts/install-deps)")
    tmp = str(tmp_path)
    p, ssh = _sshd(tmp)
    try:
        pair = [dump.vmlinux(), dump.manifest["vmcore"]]
        so = ["--so", thlib.so_for(dump.suite), "--crash",
              _crash_wrapper(dump, tmp)]
        noshell = {k: v for k, v in os.environ.items() if k != "SHELL"}
        rc, lines = _lines(so + ["-j", "1", "--sshlogin", "1/" + ssh]
                           + pair, env=noshell)
    finally:
        p.terminate()
        p.wait()
    with open(os.path.join(tmp, "sshd.log")) as f:
        log = f.read()
    assert "Accepted publickey for root" in log, log
    assert rc == 0 and len(lines) == 1, lines
    _is_the_dumps_line(lines[0], dump)
