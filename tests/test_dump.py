"""ftrace dump -t: the trace.dat read back by Debian's trace-cmd lists the
same events as the live "trace" file of the same boot, field by field:
version 7 (the default: a section and a page size per buffer) and, with
-V 6, version 6; read by the host's trace-cmd (bookworm's 3.1.6) and, with
sid in the matrix, sid's (3.4) in its chroot."""

import os
import re
import subprocess

import pytest

import thlib
from conftest import scenarios

TRACE_CMD = "/usr/bin/trace-cmd"

# live "trace": comm-pid [cpu] flags ts: text
LIVE = re.compile(rb"^\s*(.+)-(\d+)\s+\[(\d+)\]\s+\S+\s+(\d+\.\d+): (.*)$")
# trace-cmd report: comm-pid [cpu] [latency flags] ts: event: text (3.4
# prints the flags, 3.1 not)
TCMD = re.compile(rb"^\s*(.+)-(\d+)\s+\[(\d+)\]\s+(?:[.a-zA-Z]\S*\s+)?"
                  rb"(\d+\.\d+): (\S+):\s+(.*)$")
# The readers of the trace.dat: the host's trace-cmd (bookworm: 3.1.6)
# and, where sid is in the matrix, sid's (3.4), run in its chroot.
READERS = ("host",) + (("sid",) if "sid" in thlib.env_list("SUITES", [])
                       and thlib.fixture.host_suite() != "sid" else ())


def _outdir(dump):
    # next to the .so: a directory the crash process sees (bound)
    base = os.path.dirname(thlib.so_for(dump.suite))
    d = os.path.join(base, "dump-test")
    os.makedirs(d, exist_ok=True)
    return d


def _argv(reader, path, args):
    """trace-cmd ARGS of READER on PATH (a chroot sees PATH's directory
    at the same path)."""
    if reader == "host":
        return [TRACE_CMD] + list(args)
    suite = thlib.fixture.make_suite(reader)
    suite.ensure_package("trace-cmd", TRACE_CMD)
    return suite.argv([TRACE_CMD] + list(args),
                      binds=[os.path.dirname(os.path.realpath(path))])


def _report_all(path, *args, reader="host"):
    p = subprocess.run(_argv(reader, path, ["report", "-i", path, "-O",
                                            "parent=1"] + list(args)),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.returncode == 0, (reader, p.stderr.decode(errors="replace"))
    return p.stdout.split(b"\n")


def _report(path, *args, reader="host"):
    return [l for l in _report_all(path, *args, reader=reader)
            if TCMD.match(l)]


def _plain(path, reader="host"):
    """trace-cmd report without plugins: every event through its own
    print fmt (the sched plugin, for one, re-renders sched_switch)."""
    return _report(path, "-N", reader=reader)


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


def _same_text(live_text, event, text, syms, plain=None):
    """The event's own text: live as the kernel prints it, ours as
    trace-cmd prints it from the same fields (PLAIN: without plugins)."""
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
    if plain is not None:
        # a tracepoint: its print fmt over the same field values
        assert plain.rstrip() == live_text.rstrip(), (live_text, plain)
        return
    assert text == live_text, (live_text, text)


def _compare(live_text, report_lines, path, plain_lines=None,
             by_fields=None):
    """Every live line against trace-cmd's, field by field.  BY_FIELDS
    (one per report line): a tracepoint as the kernel printed it by its
    fields, from trace-cmd's raw values (_by_fields()), instead of its
    print fmt (PLAIN)."""
    live = [LIVE.match(l) for l in live_text.split(b"\n")
            if l and not l.startswith(b"#")]
    assert all(live), "unparsed live line"
    ours = [TCMD.match(l) for l in report_lines]
    plain = [TCMD.match(l) for l in plain_lines] if plain_lines \
        else [None] * len(ours)
    syms = _kallsyms(path)
    assert len(ours) == len(live), (len(ours), len(live))
    assert len(plain) == len(ours), (len(plain), len(ours))
    for i, (lm, om, pm) in enumerate(zip(live, ours, plain)):
        # comm, pid, cpu, timestamp
        assert lm.group(1).strip() == om.group(1).strip(), (lm.group(0),
                                                             om.group(0))
        assert int(lm.group(2)) == int(om.group(2))
        assert int(lm.group(3)) == int(om.group(3))
        assert lm.group(4) == om.group(4), (lm.group(0), om.group(0))
        if by_fields is not None and by_fields[i] is not None:
            assert lm.group(5) == by_fields[i], (lm.group(0), by_fields[i])
            continue
        if pm is not None:
            assert pm.group(4) == om.group(4) and pm.group(5) == om.group(5)
        _same_text(lm.group(5), om.group(5), om.group(6), syms,
                   pm.group(6) if pm is not None else None)


def _run(dump, cmds):
    """Outputs of CMDS: from the dump's one crash session (_batch put them
    there, after removing what they write), else from a session of their
    own."""
    if dump.outputs is None:
        dump.prefetch()
    missing = [c for c in cmds if c not in (dump.outputs or {})]
    if missing:
        dump.outputs.update(dump.run(missing))
    return {c: dump.outputs[c] for c in cmds}


def _rm(path):
    import shutil
    if os.path.isdir(path):
        shutil.rmtree(path, ignore_errors=True)
    elif os.path.exists(path):
        os.unlink(path)


def _dat_cmds(dump, version=""):
    """VERSION: "" (the default, 7) or "6" (-V 6)."""
    path = os.path.join(_outdir(dump), "%s%s.dat" % (
        dump.id, "-v" + version if version else ""))
    opt = "-V %s " % version if version else ""
    return path, ["ftrace dump %s-t %s" % (opt, path),
                  "ftrace dump %s-t %s " % (opt, path),
                  "ftrace dump -x", "ftrace cat current_tracer"]


def _inst_names(dump):
    return sorted(set(n.split("/")[2] for n in dump.truth_names()
                      if n.startswith("tracing/instances/") and
                      n.endswith("/trace")))


def _inst_cmds(dump, names):
    d = _outdir(dump)
    allp = os.path.join(d, "%s-all.dat" % dump.id)
    paths = {n: os.path.join(d, "%s-%s.dat" % (dump.id, n)) for n in names}
    cmds = ["ftrace dump -f -a -t %s" % allp] + \
        ["ftrace dump -f -i %s -t %s" % (n, paths[n]) for n in names] + \
        ["ftrace dump -f -V 6 -a -t %s" % allp + ".v6"] + \
        ["ftrace dump -i no_such_instance -t %s" % allp + ".x"]
    return allp, paths, cmds


def _dir_cmds(dump):
    d = os.path.join(_outdir(dump), "%s-dir" % dump.id)
    return d, ["ftrace dump -d %s" % d, "ftrace dump -d %s " % d]


def _dat_path_cmds(dump, name):
    path = os.path.join(_outdir(dump), "%s-%s.dat" % (dump.id, name))
    return path, ["ftrace dump -t %s" % path, "ftrace trace -r"]


# "subbuf": the global buffer (8 KB sub-buffers) and instance "big" (64
# KB): -a in one version 7 file, each alone, and version 6 of the global
# one; version 6 cannot hold both.
SUBBUF_INST = "big"


def _subbuf_cmds(dump):
    d = _outdir(dump)
    p = {k: os.path.join(d, "%s-%s.dat" % (dump.id, k))
         for k in ("all", "top", "inst", "v6", "v6all")}
    p["dir"] = os.path.join(d, "%s-%s-dir" % (dump.id, SUBBUF_INST))
    return p, {"dir": "ftrace dump -d %s -i %s" % (p["dir"], SUBBUF_INST),
               "all": "ftrace dump -a -t %s" % p["all"],
               "top": "ftrace dump -t %s" % p["top"],
               "inst": "ftrace dump -i %s -t %s" % (SUBBUF_INST, p["inst"]),
               "v6": "ftrace dump -V 6 -t %s" % p["v6"],
               "v6all": "ftrace dump -V 6 -a -t %s" % p["v6all"],
               "badv": "ftrace dump -V 5 -t %s" % p["v6all"],
               "vdir": "ftrace dump -V 6 -d %s" % p["v6all"]}


# "persist" (issue 24): a boot-mapped instance holding the previous
# boot's trace: alone in a version 7 file (-i), left out of -a, refused by
# -V 6, and its -d directory.
PERSIST_INST = "boot_mapped"


def _persist_cmds(dump):
    d = _outdir(dump)
    p = {k: os.path.join(d, "%s-lb-%s" % (dump.id, k))
         for k in ("inst.dat", "all.dat", "v6.dat", "dir")}
    return p, {"inst": "ftrace dump -t %s -i %s" % (p["inst.dat"],
                                                    PERSIST_INST),
               "all": "ftrace dump -a -t %s" % p["all.dat"],
               "v6": "ftrace dump -V 6 -t %s -i %s" % (p["v6.dat"],
                                                       PERSIST_INST),
               "dir": "ftrace dump -d %s -i %s" % (p["dir"], PERSIST_INST),
               "raw": "ftrace trace -r -i %s" % PERSIST_INST}


def _batch(dump):
    """The commands of the tests below for DUMP, in its one crash session
    (thlib.batch); what they write is removed first."""
    sc, out, files = dump.scenario, [], []
    if sc in ("events", "modules"):
        for version in ("", "6"):
            path, cmds = _dat_cmds(dump, version)
            out += [c for c in cmds if c not in out]
            files.append(path)
    if sc == "subbuf":
        paths, cmds = _subbuf_cmds(dump)
        out += list(cmds.values())
        files += list(paths.values())
    if sc == "graph":
        names = _inst_names(dump)
        if names:
            allp, paths, cmds = _inst_cmds(dump, names)
            out += cmds
            files += [allp, allp + ".x", allp + ".v6"] + \
                list(paths.values())
    if sc == "modules":
        d, cmds = _dir_cmds(dump)
        out += cmds
        files.append(d)
    if sc == "persist":
        paths, cmds = _persist_cmds(dump)
        out += list(cmds.values())
        files += list(paths.values())
    for name, scens in (("cat", ("wrap", "live")), ("rec", ("graph",
                                                             "wrap"))):
        if sc in scens:
            path, cmds = _dat_path_cmds(dump, name)
            out += cmds
            files.append(path)
    for f in files:
        _rm(f)
    return out


thlib.batch(_batch)


@scenarios("events", "modules")
@pytest.mark.parametrize("version", ["", "6"], ids=["v7", "v6"])
def test_trace_dat_matches_live_trace(dump, version):
    path, cmds = _dat_cmds(dump, version)
    outs = _run(dump, cmds)
    assert b"exists" in outs[cmds[1]], outs[cmds[1]]
    assert outs[cmds[2]].startswith(b"usage:"), outs[cmds[2]]
    assert outs[cmds[3]], "crash unusable after bad input"
    assert os.path.exists(path), outs[cmds[0]]
    assert not [f for f in os.listdir(_outdir(dump))
                if f.startswith(os.path.basename(path) + ".tmp")]
    assert _file_version(path) == int(version or 7)

    for reader in READERS:
        _compare(dump.truth("tracing/trace"), _report(path, reader=reader),
                 path, _plain(path, reader=reader))

    # page size: the header_page's data size plus its offset
    _page_size_ok(path)
    os.unlink(path)


def _file_version(path):
    """The version string after the magic and "tracing"."""
    with open(path, "rb") as f:
        head = f.read(16)
    assert head[:10] == b"\x17\x08\x44tracing", head
    return int(head[10:head.index(b"\0", 10)])


def _buffer_options(path):
    """trace-cmd dump --options: every BUFFER option's name, page size and
    CPU data (id, offset, size), as trace-cmd read them."""
    p = subprocess.run([TRACE_CMD, "dump", "--options", "-i", path],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert p.returncode == 0, p.stdout
    bufs = []
    for m in re.finditer(rb"\[Option BUFFER, \d+ bytes\]\n(\d+) \[offset\]\n"
                         rb"\"(.*)\" \[name\]\n\"(.*)\" \[clock\]\n"
                         rb"(\d+) \[Page size, bytes\]\n(\d+) \[CPUs\]:\n"
                         rb"((?:\s+\d+ \d+\s+\d+\s+\[id[^\n]*\n)*)",
                         p.stdout):
        cpus = [tuple(int(x) for x in l.split()[:3])
                for l in m.group(6).split(b"\n") if l.strip()]
        bufs.append({"name": m.group(2).decode(), "page": int(m.group(4)),
                     "ncpus": int(m.group(5)), "cpus": cpus})
    return bufs


def _live_page(dump, array):
    """The sub-buffer (page) size ARRAY's live events/header_page gives:
    the data's offset plus its size."""
    pre = "tracing/" + ("instances/%s/" % array if array else "")
    hp = re.search(rb"char data;\s+offset:(\d+);\s+size:(\d+);",
                   dump.truth(pre + "events/header_page"))
    assert hp, pre
    return int(hp.group(1)) + int(hp.group(2))


@scenarios("subbuf")
def test_trace_dat_subbuf_sizes(dump):
    """Sub-buffers of 8 KB (the global buffer) and 64 KB (an instance):
    version 7 carries each buffer with its own page size -- the one its
    live header_page gives -- and trace-cmd lists each buffer's events as
    the live trace files did, field by field; version 6 holds one of them
    alone, and says why it cannot hold both."""
    paths, cmds = _subbuf_cmds(dump)
    outs = _run(dump, list(cmds.values()))
    top_page, inst_page = _live_page(dump, ""), \
        _live_page(dump, SUBBUF_INST)
    assert top_page != inst_page and min(top_page, inst_page) > 4096
    live_top = dump.truth("tracing/trace")
    live_inst = dump.truth("tracing/instances/%s/trace" % SUBBUF_INST)
    for k in ("all", "top", "inst", "v6"):
        assert os.path.exists(paths[k]), outs[cmds[k]]
        assert _file_version(paths[k]) == (6 if k == "v6" else 7)

    # -a: one BUFFER option per array, CPU data on page boundaries
    bufs = _buffer_options(paths["all"])
    assert [(b["name"], b["page"]) for b in bufs] == \
        [("", top_page), (SUBBUF_INST, inst_page)], bufs
    size = os.path.getsize(paths["all"])
    for b in bufs:
        assert b["ncpus"] == len(b["cpus"]) > 0
        for cpu, off, n in b["cpus"]:
            assert off % b["page"] == 0 and n % b["page"] == 0, b
            assert off + n <= size
    prefix = SUBBUF_INST.encode() + b":"

    def split(*args, reader="host"):
        """The -a file's report lines: the top buffer's, the instance's
        (trace-cmd prefixes them with its name)."""
        lines = _report_all(paths["all"], *args, reader=reader)
        inst = [l[len(prefix):] for l in lines if l.startswith(prefix)]
        return [l for l in lines if TCMD.match(l) and
                not l.startswith(prefix)], \
            [l for l in inst if TCMD.match(l)]
    for reader in READERS:
        (top, inst), (ptop, pinst) = split(reader=reader), \
            split("-N", reader=reader)
        _compare(live_inst, inst, paths["all"], pinst)
        _compare(live_top, top, paths["all"], ptop)

        # each alone (the instance as the file's top buffer)
        _compare(live_top, _report(paths["top"], reader=reader),
                 paths["top"], _plain(paths["top"], reader=reader))
        _compare(live_inst, _report(paths["inst"], reader=reader),
                 paths["inst"], _plain(paths["inst"], reader=reader))
    # and version 6 of the global one
    assert [b["page"] for b in _buffer_options(paths["inst"])] == \
        [inst_page]
    assert _page_size_ok(paths["top"]) == top_page
    assert _page_size_ok(paths["inst"]) == inst_page
    _compare(live_top, _report(paths["v6"]), paths["v6"],
             _plain(paths["v6"]))
    assert _page_size_ok(paths["v6"]) == top_page

    # what version 6 cannot hold, and bad -V: one line each, no file
    out = outs[cmds["v6all"]]
    assert out.count(b"\n") == 1 and b"another sub-buffer size" in out, out
    assert not os.path.exists(paths["v6all"])
    assert outs[cmds["badv"]].startswith(b"usage:"), outs[cmds["badv"]]
    assert outs[cmds["vdir"]].count(b"\n") == 1 and \
        b"-V" in outs[cmds["vdir"]]
    assert not os.path.exists(paths["v6all"])
    for k in ("all", "top", "inst", "v6"):
        os.unlink(paths[k])


@scenarios("subbuf")
def test_dump_dir_subbuf_instance(dump):
    """-d DIR -i NAME of the 64 KB instance: its header_page and
    buffer_subbuf_size_kb are the live instance's, and each per-CPU
    trace_pipe_raw is whole 64 KB sub-buffers."""
    import shutil
    paths, cmds = _subbuf_cmds(dump)
    outs = _run(dump, list(cmds.values()))
    d = paths["dir"]
    assert os.path.isdir(d), outs[cmds["dir"]]
    pre = "tracing/instances/%s/" % SUBBUF_INST
    for f in ("events/header_page", "buffer_subbuf_size_kb"):
        with open(os.path.join(d, f), "rb") as fh:
            thlib.assert_same(dump.truth(pre + f), fh.read(), "-d " + f)
    page = _live_page(dump, SUBBUF_INST)
    sizes = [os.path.getsize(os.path.join(d, "per_cpu", c,
                                          "trace_pipe_raw"))
             for c in os.listdir(os.path.join(d, "per_cpu"))]
    assert sizes and all(n % page == 0 for n in sizes) and any(sizes), \
        (page, sizes)
    shutil.rmtree(d)


@scenarios("events")
@thlib.background
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
    # dump the same buffer many times over, each to a file of its own
    # (FILE.N): keeps crash writing, and any write caught in the act
    # counts, not only the first
    cmdfile.write("extend %s\n" % so + "".join(
        "ftrace dump -f -t %s.%d\n" % (path, n) for n in range(200)) +
        "exit\n")
    cmdfile.close()
    argv = dump.crash_argv(["-s", dump.vmlinux(),
                            dump.manifest["vmcore"], "-i", cmdfile.name],
                           binds=[d, os.path.dirname(so)])
    p = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    caught = tmp = None     # FILE.N whose FILE.N.tmpXXXXXX was seen
    base = os.path.basename(path) + "."
    try:
        deadline = time.time() + 300
        while time.time() < deadline and p.poll() is None:
            for f in os.listdir(d):
                if f.startswith(base) and ".tmp" in f:
                    final = os.path.join(d, f[:f.index(".tmp")])
                    if not os.path.exists(final):
                        p.send_signal(signal.SIGKILL)
                        caught, tmp = final, os.path.join(d, f)
                        break
            if caught:
                break
            time.sleep(0.0005)
    finally:
        if p.poll() is None:
            p.kill()
        p.wait()
        os.unlink(cmdfile.name)
    assert caught, "no dump's temporary file was ever seen"
    # (unless the write ended, and renamed its file, just before the kill)
    assert not os.path.exists(caught) or not os.path.exists(tmp)
    for f in os.listdir(d):
        if f.startswith(os.path.basename(path)):
            os.unlink(os.path.join(d, f))


@scenarios("graph")
def test_instances_in_trace_dat(dump):
    """-i NAME: the instance's buffer alone; -a: every instance as an
    extra buffer, its lines (prefixed "NAME:") equal to its live trace;
    -V 6 -a: the same records as version 7 (-a)."""
    names = _inst_names(dump)
    assert names
    allp, paths, cmds = _inst_cmds(dump, names)
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
    # version 6 of the same arrays (one page size): trace-cmd reads the
    # same records from it, rendered and raw
    for args in ([], ["-R", "-t"]):
        v7, v6 = (subprocess.run([TRACE_CMD, "report", "-i", f] + args,
                                 stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE)
                  for f in (allp, allp + ".v6"))
        assert v7.returncode == 0 and v6.returncode == 0, v6.stderr
        assert v7.stdout == v6.stdout, thlib.first_difference(v6.stdout,
                                                              v7.stdout)
    os.unlink(allp)
    os.unlink(allp + ".v6")


@scenarios("modules")
def test_dump_dir(dump):
    """-d DIR: the tracefs-shaped tree (every file "ftrace ls" lists);
    saved_cmdlines lines are live lines, the unlinked module's trace_printk
    format is in printk_formats, each per-CPU trace_pipe_raw is whole
    sub-buffers, every other captured file is the live one."""
    import shutil
    d, cmds = _dir_cmds(dump)
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
    # Every other file of the global array the guest captured is in the
    # tree as the live kernel printed it (issue 22's census); a file
    # another module compares in its own way (thlib.COMPARED_ELSEWHERE)
    # as "ftrace cat" prints it.
    checked = 0
    for name in dump.truth_names():
        rel = thlib.tracing_rel(name)
        if not thlib.table_file(name) or \
                name.startswith("tracing/instances/") or \
                rel == "saved_cmdlines":
            continue
        path = os.path.join(d, rel)
        assert os.path.exists(path), "-d did not write %s" % rel
        with open(path, "rb") as f:
            ours = f.read()
        want = dump.out(thlib.truth_to_command(name)) \
            if thlib.compared_elsewhere(name) else dump.truth(name)
        thlib.assert_same(thlib.comparable(name, want),
                          thlib.comparable(name, ours), "-d " + rel)
        checked += 1
    assert checked > 100, checked
    shutil.rmtree(d)


def _dump_dat(dump, name):
    path, cmds = _dat_path_cmds(dump, name)
    outs = _run(dump, cmds)
    assert os.path.exists(path), outs
    return path, outs["ftrace trace -r"]


def _page_size_ok(path):
    """trace-cmd dump --summary: the page size is the header_page's data
    offset plus its size (the sub-buffer as the dump holds it)."""
    p = subprocess.run([TRACE_CMD, "dump", "--summary", "--head-page",
                        "-i", path], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    m = re.search(rb"(\d+)\s+\[Page size", p.stdout)
    d = re.search(rb"field: char data;\s+offset:(\d+);\s+size:(\d+);",
                  p.stdout)
    assert m and d, p.stdout
    assert int(m.group(1)) == int(d.group(1)) + int(d.group(2))
    return int(m.group(1))


@scenarios("wrap", "live")
def test_trace_dat_matches_cat_trace(dump):
    """An overwritten buffer (wrap) and one still recording at the panic
    (live): trace-cmd lists the same events as "ftrace cat trace" (held
    to the live file by test_trace), field by field."""
    path, _ = _dump_dat(dump, "cat")
    _compare(dump.out("ftrace cat trace"), _report(path), path,
             _plain(path))
    _page_size_ok(path)
    os.unlink(path)


# "ftrace trace -r": a sub-buffer line, then one line per record
RAW_PAGE = re.compile(rb"^CPU (\d+) buffer_page ")
RAW_REC = re.compile(rb"^\s+\+[0-9a-f]+ type_len\s+\d+ delta\s+\d+ ts (\d+) "
                     rb"data len (\d+):((?: [0-9a-f]{2})*)( \.\.\.)?$")
# trace-cmd report -R -t: comm-pid [cpu] ts: event: raw fields
TRAW = re.compile(rb"^\s*(.+)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d{9}): (\S+):\s+(.*)$")


def _raw_records(text):
    """(ts, cpu, payload, cut) of every data record of "ftrace trace -r"
    (it shows at most 64 payload bytes: CUT when there were more)."""
    recs, cpu = [], None
    for l in text.split(b"\n"):
        m = RAW_PAGE.match(l)
        if m:
            cpu = int(m.group(1))
            continue
        m = RAW_REC.match(l)
        if m:
            recs.append((int(m.group(1)), cpu,
                         bytes.fromhex(m.group(3).decode()),
                         m.group(4) is not None))
    return recs


def _formats(path):
    """Event id -> (name, [(field, type, offset, size, signed)])."""
    text = b""
    for what in ("--ftrace", "--events"):
        p = subprocess.run([TRACE_CMD, "dump", what, "-i", path],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        text += p.stdout + b"\nname: \n"
    fmts, name, eid, fields = {}, None, None, []
    for l in text.split(b"\n"):
        m = re.match(rb"^\s*name: (\S*)", l)
        if m:
            if name is not None and eid is not None:
                fmts[eid] = (name, fields)
            name, eid, fields = m.group(1), None, []
            continue
        m = re.match(rb"^\s*ID: (\d+)", l)
        if m:
            eid = int(m.group(1))
            continue
        m = re.match(rb"^\s*field:(.*?)\s*(\w+)(\[[^\]]*\])?;\s*offset:(\d+);"
                     rb"\s*size:(\d+);\s*signed:(\d+);", l)
        if m:
            fields.append((m.group(2), m.group(1) + (m.group(3) or b""),
                           int(m.group(4)), int(m.group(5)),
                           int(m.group(6))))
    return fmts


def _field_values(text, names):
    """name=value pairs of a raw (-R) line, split at the known names."""
    pos = []
    for n in names:
        i = text.find(n + b"=")
        while i > 0 and text[i - 1:i] != b" ":
            i = text.find(n + b"=", i + 1)
        if i >= 0:
            pos.append((i, n))
    pos.sort()
    vals = {}
    for k, (i, n) in enumerate(pos):
        end = pos[k + 1][0] - 1 if k + 1 < len(pos) else len(text)
        vals[n] = text[i + len(n) + 1:end]
    return vals


def _printk(path):
    """The file's printk formats: address -> string as trace-cmd shows
    it (escapes undone, the trailing newline dropped)."""
    p = subprocess.run([TRACE_CMD, "dump", "--printk", "-i", path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = {}
    for l in p.stdout.split(b"\n"):
        m = re.match(rb'^0x([0-9a-f]+) : "(.*)"$', l)
        if m:
            s = m.group(2).decode("unicode_escape").encode("latin-1")
            out[int(m.group(1), 16)] = s.rstrip(b"\n")
    return out


def _same_value(v, ftype, raw, signed, syms, strs):
    if b"char" in ftype and b"[" in ftype:
        return v == raw.split(b"\0")[0]
    if ftype.startswith(b"const char *") and \
            strs.get(int.from_bytes(raw, "little")) == v:
        # a format string the file's printk formats hold
        return True
    val = int.from_bytes(raw, "little", signed=bool(signed))
    uval = int.from_bytes(raw, "little")
    for cand in (v, v[2:] if v.startswith(b"0x") else None):
        if cand is None:
            continue
        for base in (10, 16):
            try:
                if int(cand, base) in (val, uval):
                    return True
            except ValueError:
                pass
    s = _sym(syms, uval) if syms else None
    return bool(s) and (v == s[0] or v == b"%s+0x%x" % (s[0], s[1]))


@scenarios("graph", "wrap")
def test_trace_dat_records_match(dump):
    """Record by record (function_graph: trace-cmd groups entries and
    exits its own way, so records, not renderings): every data record of
    the dump's global buffer comes out of trace-cmd with the same time
    stamp (ns), CPU, pid, event, and field values."""
    path, raw = _dump_dat(dump, "rec")
    ours = sorted(_raw_records(raw), key=lambda r: (r[0], r[1]))
    assert ours
    fmts = _formats(path)
    syms = _kallsyms(path)
    strs = _printk(path)
    p = subprocess.run([TRACE_CMD, "report", "-R", "-t", "-i", path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.returncode == 0, p.stderr
    theirs = [TRAW.match(l) for l in p.stdout.split(b"\n")]
    theirs = sorted([m for m in theirs if m],
                    key=lambda m: (int(m.group(4) + m.group(5)),
                                   int(m.group(3))))
    assert len(theirs) == len(ours), (len(theirs), len(ours))
    checked = 0
    for (ts, cpu, pay, cut), m in zip(ours, theirs):
        what = (ts, cpu, m.group(0))
        assert int(m.group(4) + m.group(5)) == ts, what
        assert int(m.group(3)) == cpu, what
        assert int(m.group(2)) == int.from_bytes(pay[4:8], "little",
                                                 signed=True), what
        name, fields = fmts[int.from_bytes(pay[0:2], "little")]
        assert m.group(6) == name, what
        body = [f for f in fields if not f[0].startswith(b"common_")]
        vals = _field_values(m.group(7), [f[0] for f in body])
        for fname, ftype, off, size, signed in body:
            if b"__data_loc" in ftype or off + size > len(pay) or \
                    fname not in vals or vals[fname].startswith(b"ARRAY["):
                continue
            if size == 0 and b"char" in ftype:
                # char buf[]: the rest of the record, one line of it
                text = pay[off:].split(b"\0")[0].split(b"\n")[0]
                v = vals[fname]
                assert v == text or (cut and v.startswith(text)), \
                    (what, fname, v)
            else:
                assert _same_value(vals[fname], ftype, pay[off:off + size],
                                   signed, syms, strs), (what, fname,
                                                         vals[fname])
            checked += 1
    assert checked
    _page_size_ok(path)
    os.unlink(path)


def _lb_reader():
    """A trace-cmd that knows LAST_BOOT_INFO and MODULES_FILE (3.4: sid's,
    the host's when the host is sid)."""
    return "sid" if "sid" in READERS else "host"


def _dump_out(path, what, reader):
    p = subprocess.run(_argv(reader, path, ["dump", what, "-i", path]),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.returncode == 0, p.stderr.decode(errors="replace")
    return p.stdout


def _modules_then_and_now(dump):
    """{module: text address} of the boot that wrote the instance (its
    live last_boot_info) and of the boot that read it (/proc/modules),
    and the live last_boot_info itself."""
    info = dump.truth("tracing/instances/%s/last_boot_info" % PERSIST_INST)
    lines = info.decode().splitlines()
    assert lines and lines[0].endswith("\t[kernel]"), lines
    then = dict((l.split("\t")[1], int(l.split("\t")[0], 16))
                for l in lines[1:])
    now = [(l.split()[0], int(l.split()[5], 16)) for l in
           dump.truth("proc/modules").decode().splitlines()]
    return then, now, info


def _text_moved(dump):
    """Whether this boot's kernel text is elsewhere than the previous
    boot's (the live last_boot_info's [kernel] line): the kernel then
    prints the instance's events by their fields (print_trace_fmt():
    print_event_fields() while tr->text_delta).  This boot's _text: the
    live address of ksys_read's ftrace site (available_filter_functions_
    addrs) less ksys_read's offset from _text in the vmlinux, the site
    being the function's first bytes or those after its endbr64."""
    lbi = int(dump.truth("tracing/instances/%s/last_boot_info" %
                         PERSIST_INST).split(b"\t")[0], 16)
    site = [int(l.split()[0], 16) for l in dump.truth(
        "tracing/available_filter_functions_addrs").split(b"\n")
        if l.split()[1:2] == [b"ksys_read"]]
    nm = subprocess.run(["nm", dump.manifest["vmlinux"]],
                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    vml = dict((f[2], int(f[0], 16)) for f in
               (l.split() for l in nm.stdout.split(b"\n"))
               if len(f) == 3 and f[2] in (b"_text", b"ksys_read"))
    assert len(site) == 1 and len(vml) == 2, (site, vml)
    now = site[0] - (vml[b"ksys_read"] - vml[b"_text"])
    return not 0 <= now - lbi < 16


def _by_fields(path):
    """Each event of trace-cmd's report of PATH as the kernel prints it by
    its fields (print_event_fields(), kernel/trace/trace_output.c): "NAME:"
    then " FIELD=VALUE" for each field of its format past the common ones,
    from the values the host's trace-cmd reads (report -R; sid's puts the
    flags in its raw lines' context): a string as it is, an
    integer of 1 byte as its character in quotes when printable and
    "(%d)", of 2 or 4 bytes "0x%x (%d)"; None for the ftrace system's
    entries (the kernel's own types, printed as ever)."""
    fmts = dict((name, fields) for name, fields in _formats(path).values())
    out = []
    for l in _report(path, "-R"):
        m = TCMD.match(l)
        ev, raw = m.group(5), m.group(6)
        fields = [f for f in fmts[ev] if not f[0].startswith(b"common_")]
        if ev in (b"function", b"funcgraph_entry", b"funcgraph_exit",
                  b"print", b"bprint", b"bputs"):
            out.append(None)
            continue
        vals = _field_values(raw, [f[0] for f in fields])
        text = ev + b":"
        for name, ftype, off, size, signed in fields:
            v = vals[name].strip()
            if b"char" in ftype and (b"[" in ftype or b"__data_loc" in ftype):
                text += b" %s=%s" % (name, v)
                continue
            n = int(v, 0)
            if size == 1:
                c = n & 0xff
                text += b" %s=%s(%d)" % (name, b"'%c'" % c if 32 <= c < 127
                                         else b"", c)
            elif size in (2, 4):
                u = n & ((1 << (8 * size)) - 1)
                sv = u - (1 << 32) if size == 4 and u >> 31 else u
                text += b" %s=0x%x (%d)" % (name, u, sv)
            else:
                raise AssertionError("a field of %d bytes: %s" % (size, l))
        out.append(text)
    return out


@scenarios("persist")
def test_trace_dat_previous_boot(dump):
    """-t FILE -i NAME of the instance holding the previous boot's trace:
    trace-cmd (bookworm's 3.1.6, sid's 3.4) lists the events the second
    boot's live "trace" of that instance printed, field by field, its
    functions named as the kernel named them (the symbols at the previous
    boot's addresses); where the kernel's text moved (KASLR) the kernel
    printed its tracepoints by their fields, which trace-cmd's raw values
    give exactly (_by_fields()); the file carries, as trace-cmd 3.4 reads them, the
    LAST_BOOT_INFO option ("NAME:" and the live last_boot_info) and the
    modules section: the live /proc/modules' modules, each the previous
    boot had at its address then (so the reader's deltas are 0)."""
    paths, cmds = _persist_cmds(dump)
    outs = _run(dump, list(cmds.values()))
    path = paths["inst.dat"]
    out = outs[cmds["inst"]]
    assert os.path.exists(path), out
    assert _file_version(path) == 7
    assert out.count(b"\n") == 2 and \
        b"holds the previous boot's trace" in out.split(b"\n")[1], out
    live = dump.truth("tracing/instances/%s/trace" % PERSIST_INST)
    by_fields = _by_fields(path) if _text_moved(dump) else None
    for reader in READERS:
        _compare(live, _report(path, reader=reader), path,
                 _plain(path, reader=reader), by_fields)
    then, now, info = _modules_then_and_now(dump)
    reader = _lb_reader()
    opts = _dump_out(path, "--options", reader)
    m = re.search(rb"\[Option LAST_BOOT_INFO, (\d+) bytes\]\n", opts)
    assert m, opts
    want = PERSIST_INST.encode() + b":" + info
    assert int(m.group(1)) == len(want) + 1, (m.group(1), want)
    assert opts[m.end():m.end() + len(want)] == want, opts[m.end():]
    mods = _dump_out(path, "--modules", reader)
    m = re.search(rb"\[Saved modules\]\n(.*)\n\[\d+ bytes\]", mods, re.S)
    assert m, mods
    ours = [l.split() for l in m.group(1).replace(b"\0", b"").decode()
            .splitlines() if l.strip()]
    assert [(f[0], int(f[5], 16)) for f in ours] == \
        [(n, then.get(n, a)) for n, a in now], (ours, then, now)
    # (test_dump_dir_previous_boot reads it too, and removes it)


@scenarios("persist")
def test_trace_dat_previous_boot_refused(dump):
    """-a: every array but the previous boot's instance, which a line
    names with the command that writes it alone; -V 6 -i NAME: one line,
    no file (version 6 cannot say whose addresses it holds)."""
    paths, cmds = _persist_cmds(dump)
    outs = _run(dump, list(cmds.values()))
    out = outs[cmds["all"]]
    said = [l for l in out.split(b"\n")
            if b"previous boot's trace: left out of" in l]
    assert len(said) == 1 and PERSIST_INST.encode() in said[0] and \
        b"-i %s" % PERSIST_INST.encode() in said[0], out
    assert os.path.exists(paths["all.dat"]), out
    names = [b["name"] for b in _buffer_options(paths["all.dat"])]
    assert names and PERSIST_INST not in names, names
    assert sorted(names[1:]) == sorted(n for n in _inst_names(dump)
                                       if n != PERSIST_INST), names
    out = outs[cmds["v6"]]
    assert out.count(b"\n") == 1 and b"version 6" in out and \
        PERSIST_INST.encode() in out, out
    assert not os.path.exists(paths["v6.dat"])
    os.unlink(paths["all.dat"])


@scenarios("persist")
def test_dump_dir_previous_boot(dump):
    """-d DIR -i NAME of the previous boot's instance: its last_boot_info
    is the live one, and its kallsyms names every function entry the
    buffer recorded (ip and parent_ip of each record "ftrace trace -r"
    reads from the dump, bounding a symbol by the next one as
    libtraceevent does) as the second boot's live "trace" named it."""
    import bisect
    import shutil
    paths, cmds = _persist_cmds(dump)
    outs = _run(dump, list(cmds.values()))
    d = paths["dir"]
    assert os.path.isdir(d), outs[cmds["dir"]]
    with open(os.path.join(d, "last_boot_info"), "rb") as f:
        thlib.assert_same(dump.truth("tracing/instances/%s/last_boot_info"
                                     % PERSIST_INST), f.read(),
                          "-d last_boot_info")
    syms = []
    with open(os.path.join(d, "kallsyms"), "rb") as f:
        for l in f.read().split(b"\n"):
            fl = l.split()
            if len(fl) >= 3:
                syms.append((int(fl[0], 16), fl[2]))
    syms.sort()
    addrs = [a for a, _ in syms]
    with open(os.path.join(d, "events/ftrace/function/format"), "rb") as f:
        fid = int(re.search(rb"\nID: (\d+)\n", f.read()).group(1))
    recs, live = {}, {}
    for ts, cpu, pay, _ in _raw_records(outs[cmds["raw"]]):
        if int.from_bytes(pay[0:2], "little") == fid and len(pay) >= 24:
            recs.setdefault(cpu, []).append(
                (int.from_bytes(pay[8:16], "little"),
                 int.from_bytes(pay[16:24], "little")))
    for l in dump.truth("tracing/instances/%s/trace" %
                        PERSIST_INST).split(b"\n"):
        lm = LIVE.match(l)
        fn = lm and re.match(rb"^(\S+) <-(\S+)$", lm.group(5))
        if fn:
            live.setdefault(int(lm.group(3)), []).append(
                (fn.group(1), fn.group(2)))
    assert live and sorted(live) == sorted(recs), (live, recs)
    checked = 0
    for cpu in live:
        assert len(live[cpu]) == len(recs[cpu]), cpu
        for names, rec in zip(live[cpu], recs[cpu]):
            for name, addr in zip(names, rec):
                # a symbol ends where the next begins; an address at or
                # past the last is no symbol's
                k = bisect.bisect_right(addrs, addr) - 1
                got = syms[k][1] if 0 <= k < len(syms) - 1 else \
                    b"0x%x" % addr
                assert got == name, (cpu, names, hex(addr), got)
                checked += 1
    assert checked
    shutil.rmtree(d)
    os.unlink(paths["inst.dat"])
