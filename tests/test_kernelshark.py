"""Issue 24: KernelShark (Debian's kernelshark package) opens the trace.dat
"ftrace dump -t" writes, version 7 by default: one buffer (events),
every array with its own sub-buffer size (subbuf, -a), and an instance
holding the previous boot's trace (persist, -i).  It runs under Xvfb
as an unprivileged user (as root it first shows a warning dialog), and the
screenshot of its window is kept as the test's artifact in
build/artifacts/kernelshark-DUMP.png.  The kdump, elf and filtered dumps
of one boot write the same file, byte for byte: KernelShark opens each
distinct file once (the same bytes give the same answer), and a dump
whose file it opened already gets that screenshot."""

import hashlib
import os
import pathlib
import shutil
import subprocess
import tempfile
import time

import pytest

import thlib
from conftest import scenarios

TOOLS = ("kernelshark", "xvfb-run", "xwininfo", "xwd", "xwdtopnm",
         "pnmtopng", "runuser")
USER = "nobody"


def _outdir(dump):
    # next to the .so: a directory the crash process sees (bound)
    d = os.path.join(os.path.dirname(thlib.so_for(dump.suite)), "ks-test")
    os.makedirs(d, exist_ok=True)
    return d


def _path(dump):
    return os.path.join(_outdir(dump), "%s.dat" % dump.id)


# persist: the boot-mapped instance holding the previous boot's trace,
# alone (its file names zstd, the compression of its modules section)
PERSIST_INST = "boot_mapped"


def _cmd(dump):
    return "ftrace dump %s-t %s" % (
        "-a " if dump.scenario == "subbuf" else
        "-i %s " % PERSIST_INST if dump.scenario == "persist" else "",
        _path(dump))


def _batch(dump):
    if dump.scenario not in ("events", "subbuf", "persist"):
        return []
    if os.path.exists(_path(dump)):
        os.unlink(_path(dump))
    return [_cmd(dump)]


thlib.batch(_batch)


def _artifacts():
    objdir = os.environ.get("TRACEHUNT_OBJDIR") or os.path.join(
        thlib.ROOT, "build", "obj")
    d = os.path.join(os.path.dirname(os.path.abspath(objdir)), "artifacts")
    os.makedirs(d, exist_ok=True)
    return d


def _shot(work, dat, attempt):
    """One run of SHOT under a fresh Xvfb: (process, KernelShark's log,
    the window tree, Xvfb's own messages)."""
    home = work / ("home%d" % attempt)
    home.mkdir(mode=0o700)
    shutil.chown(home, USER)
    xerr = work / ("xvfb%d.log" % attempt)
    for f in ("ks.log", "tree.txt"):
        if (work / f).exists():
            os.unlink(work / f)
    p = subprocess.run(
        ["runuser", "-u", USER, "--", "env", "HOME=%s" % home,
         "XDG_RUNTIME_DIR=%s" % home, "xvfb-run", "-a", "-e", str(xerr),
         "-s", "-screen 0 1280x800x24", "sh", str(work / "shot.sh"),
         str(work), dat],
        capture_output=True, timeout=300)
    read = lambda f: f.read_bytes() if f.exists() else b""
    return p, read(work / "ks.log"), read(work / "tree.txt"), read(xerr)


# Run inside xvfb-run as USER: KernelShark on the file, until its main
# window (titled with the file's path) is mapped or 90 s pass, then the
# window list and a screenshot of the screen.
SHOT = r"""
cd "$1" || exit 1
kernelshark "$2" > ks.log 2>&1 &
pid=$!
i=0
while [ $i -lt 180 ]; do
	xwininfo -root -tree > tree.txt 2>&1
	grep -q "Kernel Shark ($2)" tree.txt && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.5
	i=$((i + 1))
done
sleep 2
xwininfo -root -tree > tree.txt 2>&1
xwd -root -silent > shot.xwd
kill $pid 2>/dev/null
wait $pid 2>/dev/null
exit 0
"""


@scenarios("events", "subbuf", "persist")
def test_kernelshark_opens_trace_dat(dump):
    missing = [t for t in TOOLS if not shutil.which(t)]
    assert not missing, "%s missing: scripts/install-deps installs them" % (
        ", ".join(missing))
    if dump.outputs is None:
        dump.prefetch()
    cmd = _cmd(dump)
    if cmd not in dump.outputs:
        dump.outputs.update(dump.run([cmd]))
    assert os.path.exists(_path(dump)), dump.outputs[cmd]
    with open(_path(dump), "rb") as f:
        key = hashlib.sha256(f.read()).digest()
    png = os.path.join(_artifacts(), "kernelshark-%s.png" % dump.id)
    if key in _opened:
        shutil.copy(_opened[key][1], png)
        print("%s: the same bytes as %s's file, which KernelShark opened; "
              "screenshot %s" % (dump.id, _opened[key][0], png))
        return
    # a directory and a copy of the file USER can read and write (pytest's
    # tmp_path is private to root)
    with tempfile.TemporaryDirectory(prefix="th-ks-") as d:
        _kernelshark(dump, pathlib.Path(d), png)
    _opened[key] = (dump.id, png)


# sha256 of each file KernelShark opened -> (its dump, its screenshot)
_opened = {}


# Xvfb that xvfb-run saw start but that KernelShark then could not reach
# (one test of stop 43's CI; every other test passed): the X server,
# not the file, so the run is repeated; the file's checks below are not.
NO_DISPLAY = b"could not connect to display"
TRIES = 3


def _kernelshark(dump, work, png):
    dat = str(work / os.path.basename(_path(dump)))
    shutil.copy(_path(dump), dat)
    script = work / "shot.sh"
    script.write_text(SHOT)
    os.chmod(work, 0o777)
    for p in (dat, str(script)):
        os.chmod(p, 0o755)
    t0 = time.time()
    for attempt in range(1, TRIES + 1):
        p, log, tree, xerr = _shot(work, dat, attempt)
        if NO_DISPLAY not in log:
            break
        print("%s: try %d: KernelShark found no X display (Xvfb said: %r)" %
              (dump.id, attempt, xerr[-300:]))
    assert p.returncode == 0, (p.stderr.decode(errors="replace"), xerr)
    assert b"Loading  \"%s\"" % dat.encode() in log or \
        b"Loading \"%s\"" % dat.encode() in log, (log, xerr)
    # the main window, titled with the file: the file loaded
    assert b'"Kernel Shark (%s)"' % dat.encode() in tree, (tree, log)
    for bad in (b"rror", b"annot", b"nable to", b"ailed to open",
                b"egmentation"):
        assert bad not in log, log
    with open(png, "wb") as f:
        conv = subprocess.run("xwdtopnm %s 2>/dev/null | pnmtopng" %
                              (work / "shot.xwd"), shell=True, stdout=f)
    assert conv.returncode == 0 and os.path.getsize(png) > 0, png
    print("%s: KernelShark loaded %s in %.1f s; screenshot %s" % (
        dump.id, dat, time.time() - t0, png))
