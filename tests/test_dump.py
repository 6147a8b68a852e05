"""ftrace dump -t: the trace.dat read back by Debian's trace-cmd lists the
same events as the live "trace" file of the same boot, field by field."""

import os
import re
import subprocess

import pytest

import thlib
from conftest import scenarios

TRACE_CMD = "/usr/bin/trace-cmd"

# live "trace": comm-pid [cpu] flags ts: text
LIVE = re.compile(rb"^\s*(.+)-(\d+)\s+\[(\d+)\]\s+\S+\s+(\d+\.\d+): (.*)$")
# trace-cmd report: comm-pid [cpu] ts: event: text
TCMD = re.compile(rb"^\s*(.+)-(\d+)\s+\[(\d+)\]\s+(\d+\.\d+): (\S+):\s+(.*)$")


def _outdir(dump):
    # next to the .so: a directory the crash process sees (bound)
    base = os.path.dirname(thlib.so_for(dump.suite))
    d = os.path.join(base, "dump-test")
    os.makedirs(d, exist_ok=True)
    return d


def _report(path, *args):
    p = subprocess.run([TRACE_CMD, "report", "-i", path, "-O", "parent=1"]
                       + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    assert p.returncode == 0, p.stderr.decode(errors="replace")
    return [l for l in p.stdout.split(b"\n") if TCMD.match(l)]


def _kallsyms(path):
    p = subprocess.run([TRACE_CMD, "dump", "--kallsyms", "-i", path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    syms = []
    for l in p.stdout.split(b"\n"):
        f = l.split()
        if len(f) >= 3 and re.match(rb"^[0-9a-f]{16}$", f[0]):
            syms.append((int(f[0], 16), f[2]))
    return sorted(syms)


def _sym(syms, addr):
    best = None
    for a, n in syms:
        if a <= addr:
            best = (n, addr - a)
    return best


def _same_text(live_text, event, text, syms):
    """The event's own text: live as the kernel prints it, ours as
    trace-cmd prints it from the same fields."""
    if event == b"function":
        m = re.match(rb"^(\S+) <-(\S+)$", live_text)
        assert m, live_text
        assert text == m.group(1) + b" <-- " + m.group(2), (live_text, text)
        return
    if event in (b"bprint", b"print", b"bputs"):
        assert text.rstrip() == re.sub(rb"^\S+: ", b"", live_text).rstrip() \
            or text.rstrip() == live_text.rstrip(), (live_text, text)
        return
    # kprobe events: "NAME: (sym+off/size) args" / "(a <- b) args"
    assert live_text.startswith(event + b": "), (live_text, event)
    live_text = live_text[len(event) + 2:]
    lm = re.match(rb"^\((\S+?)(?: <- (\S+))?\)(.*)$", live_text)
    om = re.match(rb"^\(([0-9a-f]+)(?: <- ([0-9a-f]+))?\)(.*)$", text)
    if lm and om:
        assert lm.group(3) == om.group(3), (live_text, text)
        # the probed address resolves to the kernel's symbol+offset
        name, off = _sym(syms, int(om.group(1), 16))
        live_sym = re.split(rb"[+/]", lm.group(1))
        if lm.group(2) is None:
            assert (name, off) == (live_sym[0], int(live_sym[1], 16)), \
                (live_text, text)
        return
    assert text == live_text, (live_text, text)


def _compare(live_text, report_lines, path):
    """Every live line against trace-cmd's, field by field."""
    live = [LIVE.match(l) for l in live_text.split(b"\n")
            if l and not l.startswith(b"#")]
    assert all(live), "unparsed live line"
    ours = [TCMD.match(l) for l in report_lines]
    syms = _kallsyms(path)
    assert len(ours) == len(live), (len(ours), len(live))
    for lm, om in zip(live, ours):
        # comm, pid, cpu, timestamp
        assert lm.group(1).strip() == om.group(1).strip(), (lm.group(0),
                                                             om.group(0))
        assert int(lm.group(2)) == int(om.group(2))
        assert int(lm.group(3)) == int(om.group(3))
        assert lm.group(4) == om.group(4), (lm.group(0), om.group(0))
        _same_text(lm.group(5), om.group(5), om.group(6), syms)


def _run(dump, cmds):
    return dump.run(cmds)


@scenarios("events", "modules")
def test_trace_dat_matches_live_trace(dump):
    path = os.path.join(_outdir(dump), "%s.dat" % dump.id)
    if os.path.exists(path):
        os.unlink(path)
    cmds = ["ftrace dump -t %s" % path, "ftrace dump -t %s " % path,
            "ftrace dump -x", "ftrace cat current_tracer"]
    outs = _run(dump, cmds)
    assert b"exists" in outs[cmds[1]], outs[cmds[1]]
    assert outs[cmds[2]].startswith(b"usage:"), outs[cmds[2]]
    assert outs[cmds[3]], "crash unusable after bad input"
    assert os.path.exists(path), outs[cmds[0]]
    assert not [f for f in os.listdir(_outdir(dump))
                if f.startswith(os.path.basename(path) + ".tmp")]

    _compare(dump.truth("tracing/trace"), _report(path), path)

    # page size: the header_page's data size plus its offset
    p = subprocess.run([TRACE_CMD, "dump", "--summary", "--head-page",
                        "-i", path], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    m = re.search(rb"(\d+)\s+\[Page size", p.stdout)
    d = re.search(rb"field: char data;\s+offset:(\d+);\s+size:(\d+);",
                  p.stdout)
    assert m and d, p.stdout
    assert int(m.group(1)) == int(d.group(1)) + int(d.group(2))
    os.unlink(path)


@scenarios("events")
def test_killed_dump_leaves_no_file(dump):
    """SIGKILL to crash while it writes: FILE never appears (only the
    FILE.tmpXXXXXX being written, which the test removes)."""
    import signal
    import tempfile
    import time

    d = _outdir(dump)
    path = os.path.join(d, "%s-killed.dat" % dump.id)
    for f in os.listdir(d):
        if f.startswith(os.path.basename(path)):
            os.unlink(os.path.join(d, f))
    so = thlib.so_for(dump.suite)
    cmdfile = tempfile.NamedTemporaryFile("w", dir=d, suffix=".cmds",
                                          delete=False)
    # dump the same buffer many times over: keeps crash writing
    cmdfile.write("extend %s\n" % so +
                  "ftrace dump -f -t %s\n" % path * 200 + "exit\n")
    cmdfile.close()
    argv = dump.crash_argv(["-s", dump.manifest["vmlinux"],
                            dump.manifest["vmcore"], "-i", cmdfile.name],
                           binds=[d])
    p = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    seen_tmp = False
    try:
        deadline = time.time() + 300
        while time.time() < deadline and p.poll() is None:
            tmps = [f for f in os.listdir(d)
                    if f.startswith(os.path.basename(path) + ".tmp")]
            if tmps and not os.path.exists(path):
                p.send_signal(signal.SIGKILL)
                seen_tmp = True
                break
            time.sleep(0.0005)
    finally:
        if p.poll() is None:
            p.kill()
        p.wait()
        os.unlink(cmdfile.name)
    assert seen_tmp, "the dump's temporary file was never seen"
    assert not os.path.exists(path)
    for f in os.listdir(d):
        if f.startswith(os.path.basename(path)):
            os.unlink(os.path.join(d, f))


@scenarios("graph")
def test_instances_in_trace_dat(dump):
    """-i NAME: the instance's buffer alone; -a: every instance as an
    extra buffer, its lines (prefixed "NAME:") equal to its live trace."""
    names = sorted(set(n.split("/")[2] for n in dump.truth_names()
                       if n.startswith("tracing/instances/") and
                       n.endswith("/trace")))
    assert names
    d = _outdir(dump)
    allp = os.path.join(d, "%s-all.dat" % dump.id)
    paths = {n: os.path.join(d, "%s-%s.dat" % (dump.id, n)) for n in names}
    cmds = ["ftrace dump -f -a -t %s" % allp] + \
        ["ftrace dump -f -i %s -t %s" % (n, paths[n]) for n in names] + \
        ["ftrace dump -i no_such_instance -t %s" % allp + ".x"]
    outs = _run(dump, cmds)
    assert b"no trace instance" in outs[cmds[-1]]
    assert not os.path.exists(allp + ".x")
    for n in names:
        live = dump.truth("tracing/instances/%s/trace" % n)
        _compare(live, _report(paths[n]), paths[n])
        prefix = n.encode() + b":"
        p = subprocess.run([TRACE_CMD, "report", "-i", allp, "-O",
                            "parent=1"], stdout=subprocess.PIPE)
        mine = [l[len(prefix):] for l in p.stdout.split(b"\n")
                if l.startswith(prefix)]
        _compare(live, [l for l in mine if TCMD.match(l)], allp)
        os.unlink(paths[n])
    os.unlink(allp)


@scenarios("modules")
def test_dump_dir(dump):
    """-d DIR: the tracefs-shaped tree; saved_cmdlines lines are live
    lines, the unlinked module's trace_printk format is in printk_formats,
    each per-CPU trace_pipe_raw is whole sub-buffers."""
    import shutil
    d = os.path.join(_outdir(dump), "%s-dir" % dump.id)
    shutil.rmtree(d, ignore_errors=True)
    cmds = ["ftrace dump -d %s" % d, "ftrace dump -d %s " % d]
    outs = _run(dump, cmds)
    assert b"exists" in outs[cmds[1]]
    for f in ("events/header_page", "events/header_event", "kallsyms",
              "printk_formats", "saved_cmdlines",
              "events/ftrace/function/format"):
        assert os.path.exists(os.path.join(d, f)), f
    with open(os.path.join(d, "saved_cmdlines"), "rb") as f:
        ours = [l for l in f.read().split(b"\n") if l]
    live = set(dump.truth("tracing/saved_cmdlines").split(b"\n"))
    assert ours and all(l in live for l in ours), ours
    with open(os.path.join(d, "printk_formats"), "rb") as f:
        pf = f.read()
    for l in dump.truth("tracing/trace").split(b"\n"):
        m = LIVE.match(l)
        if m and b"th_hidden: planted" in m.group(5):
            assert b'"th_hidden: planted %d hooks\\n"' in pf
    with open(os.path.join(d, "events/header_page"), "rb") as f:
        hp = re.search(rb"char data;\s+offset:(\d+);\s+size:(\d+);", f.read())
    page = int(hp.group(1)) + int(hp.group(2))
    for cpu in os.listdir(os.path.join(d, "per_cpu")):
        sz = os.path.getsize(os.path.join(d, "per_cpu", cpu,
                                          "trace_pipe_raw"))
        assert sz % page == 0, (cpu, sz)
    shutil.rmtree(d)
