"""The ring buffers: "ftrace cat trace" (global, per-CPU, instances) against
the live files of the same boot, byte for byte."""

import re

import thlib
from conftest import scenarios

# Scenarios where tracing was stopped before the capture: every trace
# file (global, per-CPU, instances, instances' per-CPU) is exact; on
# "wrap" (a buffer overwritten many times) too, "subbuf" (the same with
# sub-buffers of 8 and 64 KB), "wrap8" (the same on 8 vCPUs, opt-in:
# SCENARIOS=wrap8), "cpus2", "cpus8" and "cpus32" (issue 25: one workload
# filling 512 KB a CPU on 2, 8 and 32 vCPUs, opt-in like wrap8),
# "funcargs" (function and function_graph entries with
# their arguments printed from the dump's BTF), "persist" (a
# boot-mapped instance holding the previous boot's trace), "latency"
# (sid-rt: wakeup_rt's max buffer at the top level, hwlat and timerlat
# instances) and "printopts" (every print option of options/, one an
# instance and in combinations; bin's files are binary: compared byte for
# byte).
EXACT = ("events", "modules", "graph", "wrap", "wrap8", "options", "subbuf",
         "funcargs", "persist", "latency", "printopts", "cpus2", "cpus8",
         "cpus32")
# The header (counts, #P, column lines) is exact on these too.
HEADER = ("events", "modules", "wrap", "wrap8", "graph", "options", "subbuf",
          "funcargs", "persist", "latency", "printopts", "cpus2", "cpus8",
          "cpus32")


# Commands besides the "ftrace cat" of each truth file: run in ONE extra
# crash session per dump.
LAST_N = (1, 2, 3, 10)
EXTRA = ["ftrace trace -n %d" % n for n in LAST_N] + ["ftrace trace -n x",
         "ftrace trace -i no_such_instance", "ftrace trace -c 99x",
         "ftrace cat per_cpu/cpu7x/trace"]
thlib.batch(EXTRA)
# "subbuf": the last entries of its instance's 64 KB sub-buffers too
SUBBUF_INST = "big"
SUBBUF_N = (1, 10, 500)
SUBBUF_EXTRA = ["ftrace trace -i %s -n %d" % (SUBBUF_INST, n)
                for n in SUBBUF_N]
thlib.batch(SUBBUF_EXTRA, scenarios=["subbuf"])
# "persist" (issue 24): the boot-mapped instance, read in the boot after
# the one that wrote it (testdata/scenarios/persist)
PERSIST_INST = "boot_mapped"
PERSIST_EXTRA = ["ftrace trace -i %s" % PERSIST_INST,
                 "ftrace trace -i %s -n 5" % PERSIST_INST,
                 "ftrace trace -j -i %s -n 5" % PERSIST_INST,
                 "ftrace trace -j -n 1"]
thlib.batch(PERSIST_EXTRA, scenarios=["persist"])
thlib.batch(["ftrace cat last_boot_info"], scenarios=["events"])


def _out(dump, cmd):
    dump.out("ftrace cat trace")
    if not all(c in dump.outputs for c in EXTRA):
        dump.outputs.update(dump.run(EXTRA))
    return dump.out(cmd)


def _trace_files(dump):
    return [n for n in dump.truth_names()
            if n.startswith("tracing/") and
            (n == "tracing/trace" or n.endswith("/trace"))]


# Where a trace file honestly differs from the live one: what differs is
# taken out of both (and checked on its own), the rest of the file
# compared exactly.
#
# "fields" (v6.15+): a string-pointer field (a syscall's "const char *")
# prints as "(0x%px)", or "(0x%px:%s)" when it points at kernel memory, of
# the field's place in the reader's copy of the entry (the ring-buffer
# iterator's event buffer or iter->temp), freed when the live file was
# closed: the dump has no such address.  tracehunt prints a note in its
# place; both are taken out and the rest compared.
_PTR_FIELD_LIVE = re.compile(rb"=\(0x[0-9a-f]{16}(:[^)\n]*)?\)")
_PTR_FIELD_OURS = re.compile(rb"=\(tracehunt: a string pointer, printed "
                             rb"with the address of the kernel's copy of "
                             rb"the entry\)")


# A latency tracer's per-CPU file (per_cpu/cpuN/trace): its header's
# "#ENTRIES/TOTAL" counts every CPU's entries, each CPU's less its
# trace_array_cpu.skipped_entries (get_total_entries()), which only an open
# that resets that CPU sets (tracing_iter_reset(): the global trace file,
# that CPU's own files); the file's own open resets its CPU alone.  The
# capture opens the files in its own order, so a per-CPU file opened before
# the files that reset another CPU counted that CPU's entries with the
# skipped_entries it had then (0, before any reset: seen on the sid-rt
# latency boot of 2026-12-01, cpu0's file "#12/12" where the global one
# said "#6/6", cpu1's 6 entries all older than the trace); the dump holds
# what the last opens left.  Where the two counts differ, the difference
# must be exactly the other CPUs' skipped entries as the dump holds them;
# the counts are then taken out and the rest compared exactly.
_LAT_COUNTS = re.compile(rb"^# latency: \d+ us, #(\d+)/(\d+), CPU#", re.M)


def _skipped_cmds(dump):
    """The commands that print the dump's trace_array_cpu.skipped_entries
    of each CPU of the buffer a latency tracer prints (global_trace's
    max_buffer; snapshot_buffer since it was renamed): one gdb expression
    per CPU and name, batched in the dump's session."""
    return ["p ((struct trace_array_cpu *)((char *)global_trace.%s.data + "
            "__per_cpu_offset[%d]))->skipped_entries" % (member, cpu)
            for member in ("snapshot_buffer", "max_buffer")
            for cpu in range(int(dump.manifest["smp"]))]


thlib.batch(_skipped_cmds, scenarios=["latency"])


def _skipped_entries(dump):
    for member in ("snapshot_buffer", "max_buffer"):
        cmds = [c for c in _skipped_cmds(dump) if "." + member + "." in c]
        got = [re.search(rb"^\$\d+ = (\d+)$", dump.out(c), re.M)
               for c in cmds]
        if all(got):
            return [int(m.group(1)) for m in got]
    raise AssertionError("no skipped_entries of global_trace's max buffer")


def _lat_counts_before_reset(dump, name, live, ours):
    ml, mo = _LAT_COUNTS.search(live), _LAT_COUNTS.search(ours)
    cpu = re.match(r"tracing/per_cpu/cpu(\d+)/trace$", name)
    if not (ml and mo and cpu) or ml.groups() == mo.groups():
        return live, ours
    skipped = _skipped_entries(dump)
    others = sum(n for i, n in enumerate(skipped) if i != int(cpu.group(1)))
    assert [int(x) for x in ml.groups()] == \
        [int(x) + others for x in mo.groups()], (name, ml.group(0),
                                                  mo.group(0), skipped)
    return live[:ml.start(1)] + ours[mo.start(1):mo.end(2)] + \
        live[ml.end(2):], ours


def _known_differences(dump, live, ours, name=""):
    if dump.scenario == "latency":
        live, ours = _lat_counts_before_reset(dump, name, live, ours)
    if dump.scenario == "printopts" and _PTR_FIELD_OURS.search(ours):
        # (only where tracehunt says so: before v6.15 the field printed
        # the pointer itself, which is compared)
        n_live = len(_PTR_FIELD_LIVE.findall(live))
        live = _PTR_FIELD_LIVE.sub(b"=(PTR)", live)
        ours, n_ours = _PTR_FIELD_OURS.subn(b"=(PTR)", ours)
        assert n_live == n_ours, (n_live, n_ours)
    return live, ours


@scenarios(*EXACT)
def test_trace_files_match_live(dump):
    files = _trace_files(dump)
    assert "tracing/trace" in files
    for name in files:
        live, ours = dump.truth(name), dump.out(thlib.truth_to_command(name))
        live, ours = _known_differences(dump, live, ours, name)
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
        live, ours = _known_differences(dump, live, ours, name)
        thlib.assert_same(_header(live), _header(ours), name)


@scenarios("wrap", "wrap8", "subbuf", "cpus2", "cpus8", "cpus32")
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
        if name == "tracing/trace" or (
                dump.scenario == "subbuf" and
                name == "tracing/instances/%s/trace" % SUBBUF_INST):
            # the buffer did wrap: more entries written than kept
            m = counts(live)[0].split(b":")[1].split()[0].split(b"/")
            assert int(m[1]) > int(m[0]), (name, m)
        assert first(live) is not None, name
        assert first(ours) == first(live), (name, first(ours))


# The bench-only big8 (issue 25: 8 vCPUs x 64 MB): its trace is over a GB
# of text, more than the serial port carries, so the guest captured each
# trace file's first 40 lines (NAME.head) and, for the whole global trace,
# its MD5, bytes and lines (testdata/scenarios/big8/setup.sh prints them
# on the console the fixture keeps).
_DIGEST = re.compile(rb"^@@TH-DIGEST (\S+) md5 ([0-9a-f]{32}) bytes (\d+) "
                     rb"lines (\d+)\s*$", re.M)


def _digests(dump):
    import os
    with open(os.path.join(dump.dir, "console.log"), "rb") as f:
        return {m.group(1).decode(): (m.group(2).decode(), int(m.group(3)),
                                      int(m.group(4)))
                for m in _DIGEST.finditer(f.read())}


@scenarios("big8")
def test_big_trace_digest_and_heads(dump):
    """The whole global trace (millions of lines) has the live file's MD5,
    size and line count; every trace file's head (the header with its
    counts, the oldest entries) is the live head."""
    import hashlib
    sums = _digests(dump)
    assert "trace" in sums, "the guest printed no @@TH-DIGEST trace line"
    heads = [n for n in dump.truth_names()
             if n.startswith("tracing/") and n.endswith("/trace.head")]
    assert "tracing/trace.head" in heads
    for name in heads:
        cmd = thlib.truth_to_command(name[:-len(".head")])
        ours = dump.out(cmd)
        assert ours is not None, name
        live = dump.truth(name)
        thlib.assert_same(live, ours[:len(live)], name)
        if name == "tracing/trace.head":
            want = sums["trace"]
            got = (hashlib.md5(ours).hexdigest(), len(ours),
                   ours.count(b"\n"))
            assert got == want, (got, want)
        # (a GB of output each: not kept for the next test)
        dump.outputs.pop(cmd, None)


@scenarios("subbuf")
def test_subbuf_sizes_differ(dump):
    """The scenario did what it is for: the live global buffer and the
    instance had sub-buffers of other sizes (ftrace cat of each is held
    to the live file by test_ftrace_files)."""
    top = dump.truth("tracing/buffer_subbuf_size_kb")
    inst = dump.truth("tracing/instances/%s/buffer_subbuf_size_kb" %
                      SUBBUF_INST)
    assert top.strip() and inst.strip() and top != inst, (top, inst)
    assert int(top) * 1024 > 4096 and int(inst) * 1024 > 4096


@scenarios("subbuf")
def test_subbuf_instance_last_n(dump):
    """"ftrace trace -i NAME -n N" on the 64 KB sub-buffers: the last N
    entries of the instance's "cat trace" (held to the live file above)."""
    name = "tracing/instances/%s/trace" % SUBBUF_INST
    full = [l for l in dump.out(thlib.truth_to_command(name)).split(b"\n")
            if l]
    entries = [i for i, l in enumerate(full)
               if not l.startswith(b"#") and not _NOTE.match(l)]
    assert len(entries) > max(SUBBUF_N)
    for n in SUBBUF_N:
        last = [l for l in dump.out("ftrace trace -i %s -n %d" %
                                    (SUBBUF_INST, n)).split(b"\n") if l]
        start = entries[-n]
        while start > 0 and _NOTE.match(full[start - 1]):
            start -= 1
        assert last == full[start:], (n, last[:3], full[start - 3:start + 3])


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
    # (a stack entry's callers, " => sym" lines, belong to its first line:
    # the wakeup tracers record one at the wakeup and at the switch)
    entries = [i for i, l in enumerate(full)
               if not l.startswith(b"#") and not _NOTE.match(l) and
               not l.startswith(b" => ")]
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


def _modules_then_and_now(dump):
    """{module: text address} of the boot that wrote the persistent
    instance (its live last_boot_info) and of the boot that read it (the
    live /proc/modules)."""
    info = dump.truth("tracing/instances/%s/last_boot_info" %
                      PERSIST_INST).decode().splitlines()
    assert info and info[0].endswith("\t[kernel]"), info
    then = dict((l.split("\t")[1], int(l.split("\t")[0], 16))
                for l in info[1:])
    now = dict((l.split()[0], int(l.split()[5], 16)) for l in
               dump.truth("proc/modules").decode().splitlines())
    return then, now


@scenarios("persist")
def test_persistent_instance_is_the_previous_boots(dump):
    """The scenario did what it is for: the live last_boot_info names the
    previous boot's kernel and modules (not "# Current"), one module loaded
    elsewhere in the boot that read it and one not loaded at all; the
    instance's trace (held to the live file above) names functions of
    both; the "ftrace" summary says so on the instance's row.  ftrace cat
    of last_boot_info is held to the live file by test_ftrace_files."""
    then, now = _modules_then_and_now(dump)
    moved = [m for m in then if m in now and now[m] != then[m]]
    gone = [m for m in then if m not in now]
    assert moved and gone, (then, now)
    trace = dump.truth("tracing/instances/%s/trace" % PERSIST_INST)
    for m in moved:
        assert (b": %s_read <-" % m.encode()) in trace, m
    row = [l for l in dump.out("ftrace").decode().splitlines()
           if l.split()[:1] == [PERSIST_INST]]
    assert row and row[0].endswith(
        " (boot-mapped: the previous boot's trace)"), row


@scenarios("persist")
def test_persistent_instance_ftrace_trace(dump):
    """"ftrace trace -i" of the persistent instance: a first line says
    that it holds the previous boot's trace and gives each module's delta
    (its address in the live /proc/modules minus the one in the live
    last_boot_info; "not loaded now" for one /proc/modules lacks); then
    every entry of the live "cat trace", and "-n 5" its last five."""
    out = dump.out("ftrace trace -i %s" % PERSIST_INST).split(b"\n")
    note = out[0].decode()
    assert note.startswith("# tracehunt: instance %s holds the previous "
                           "boot's trace" % PERSIST_INST), note
    then, now = _modules_then_and_now(dump)
    for m, a in then.items():
        if m in now:
            d = now[m] - a
            want = "%s %s%#x" % (m, "-" if d < 0 else "+", abs(d))
        else:
            want = "%s (not loaded now: kept)" % m
        assert ", " + want in note, (want, note)
    live = [l for l in dump.truth("tracing/instances/%s/trace" %
                                  PERSIST_INST).split(b"\n")
            if l and not l.startswith(b"#")]
    assert live
    assert [l for l in out[1:] if l] == live
    last = [l for l in dump.out("ftrace trace -i %s -n 5" %
                                PERSIST_INST).split(b"\n") if l]
    assert last[0] == out[0] and last[1:] == live[-5:], last


@scenarios("persist")
def test_persistent_instance_json(dump):
    """"ftrace trace -j -i" of the persistent instance: the head's
    last_boot gives the previous boot's kernel text and modules as the
    live last_boot_info lists them, each module's delta (its address in
    the live /proc/modules minus the previous one; 0 and not loaded for
    one /proc/modules lacks); the entries' texts are the live trace's
    last five.  The global buffer's head has no last_boot."""
    import json
    lines = dump.out("ftrace trace -j -i %s -n 5" % PERSIST_INST).split(
        b"\n")
    head = json.loads(lines[0])
    lb = head.get("last_boot")
    assert lb and lb["known"] is True and "why" not in lb, head
    info = dump.truth("tracing/instances/%s/last_boot_info" %
                      PERSIST_INST).decode().splitlines()
    assert int(lb["text_addr"], 16) == int(info[0].split("\t")[0], 16)
    then, now = _modules_then_and_now(dump)
    assert [(m["name"], int(m["addr"], 16)) for m in lb["modules"]] == \
        [(l.split("\t")[1], int(l.split("\t")[0], 16)) for l in info[1:]]
    for m in lb["modules"]:
        name = m["name"]
        assert m["loaded"] == (name in now), m
        assert m["delta"] == (now[name] - then[name] if name in now
                              else 0), m
    live = [l for l in dump.truth("tracing/instances/%s/trace" %
                                  PERSIST_INST).split(b"\n")
            if l and not l.startswith(b"#")]
    texts = [d["text"] for d in (json.loads(l) for l in lines[1:]
                                 if l.strip()) if "text" in d]
    assert len(texts) == 5 and all(
        lv.decode().endswith(": " + t) for lv, t in zip(live[-5:], texts)), \
        (texts, live[-5:])
    top = json.loads(dump.out("ftrace trace -j -n 1").split(b"\n")[0])
    assert "last_boot" not in top, top


@scenarios("events")
def test_last_boot_info_absent(dump):
    """A kernel or an array without a boot-mapped buffer: the live tree
    has no last_boot_info, ftrace ls lists none, and ftrace cat says why
    in one line (no boot-mapped arrays in this kernel, or not this
    one)."""
    assert not [n for n in dump.truth_names()
                if n.endswith("/last_boot_info")]
    assert b"last_boot_info" not in dump.out("ftrace ls")
    out = dump.out("ftrace cat last_boot_info")
    assert out.count(b"\n") == 1 and b"boot-mapped" in out, out
