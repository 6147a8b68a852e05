"""tracehunt test harness: fixtures (real vmcores with live truth) and one
crash process per dump with every command batched."""

import atexit
import collections
import fnmatch
import hashlib
import functools
import inspect
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import fixture  # noqa: E402

SO = os.environ.get("TRACEHUNT_SO") or os.path.join(ROOT, "extensions",
                                                  "tracehunt.so")
# Where the per-suite builds go: next to TRACEHUNT_SO's directory for a
# private build (build/NAME/tracehunt.so -> build/NAME/SUITE/), else build/.
SO_BASE = os.path.dirname(os.path.abspath(SO)) \
    if os.environ.get("TRACEHUNT_SO") else os.path.join(ROOT, "build")
CRASH_TIMEOUT = int(os.environ.get("TRACEHUNT_CRASH_TIMEOUT", "1800"))


def _scratch_root():
    """The directory crash writes its outputs under: a fresh one on a
    tmpfs (/dev/shm) when the machine has one, TRACEHUNT_SCRATCH if set,
    else the temporary directory.  Each command's output is a file of its
    own ("CMD > FILE": ~50,000 per options dump, as many again for the
    census's tree); creating them on the host's ext4 took 23 s of the 30 s
    of CPU of a bookworm options session, 4 s on tmpfs."""
    base = os.environ.get("TRACEHUNT_SCRATCH")
    if not base:
        try:
            with open("/proc/mounts") as f:
                if any(l.split()[1:3] == ["/dev/shm", "tmpfs"] for l in f) \
                        and os.access("/dev/shm", os.W_OK):
                    base = "/dev/shm"
        except OSError:
            pass
    d = tempfile.mkdtemp(prefix="tracehunt-%d-" % os.getpid(), dir=base)
    atexit.register(shutil.rmtree, d, True)
    return d


SCRATCH = _scratch_root()


def scratch_dir(*parts):
    """A directory under SCRATCH (every crash session of thlib sees it at
    the same path)."""
    d = os.path.join(SCRATCH, *parts)
    os.makedirs(d, exist_ok=True)
    return d
# crash spends most of its start (5-25 s of CPU per session) in gdb
# reading the vmlinux's DWARF and scanning its line tables; the tests open
# a copy with a .gdb_index section and no line tables (indexed_vmlinux):
# 3-4 times faster, same tracehunt output.  TRACEHUNT_GDB_INDEX=0 opens
# the plain vmlinux.
GDB_INDEX = os.environ.get("TRACEHUNT_GDB_INDEX", "1") != "0"


# Dump.truth(): files of at most TRUTH_CACHE_MAX bytes kept, for the
# TRUTH_CACHE_DUMPS dumps whose truth was read last (some 8 MB for the
# options scenario's 57,000 files)
TRUTH_CACHE_MAX = 16 << 10
TRUTH_CACHE_DUMPS = 2
_truth_caches = collections.OrderedDict()
_truth_lock = threading.Lock()


def _truth_cache_of(dump):
    with _truth_lock:
        c = _truth_caches.get(dump.dir)
        if c is None:
            c = _truth_caches[dump.dir] = {}
            while len(_truth_caches) > TRUTH_CACHE_DUMPS:
                _truth_caches.popitem(last=False)
        else:
            _truth_caches.move_to_end(dump.dir)
        return c


class DumpError(Exception):
    """A dump that cannot be opened; the message says why."""


_so_built = {}
_so_lock = threading.Lock()
# crash processes started through Dump (the session summary counts them)
crash_sessions = 0
# (CPU seconds, dump id, commands, the test or step that ran it) of each
session_cpu = []
# Extra crash options a crash turned out to need (see Dump.run).
_crash_flags = {}


def _caller():
    """The test function (or Dump.prefetch) up the stack: whom a crash
    session was for, in the summary."""
    for f in inspect.stack(0)[2:]:
        if f.function.startswith("test_") or f.function == "prefetch":
            return f.function
    return "?"


def so_for(suite):
    """The extension built against the defs.h of the crash that opens
    SUITE's dumps: SO for the host's crash, else build/SUITE/tracehunt.so
    (make CRASH_INCLUDE=<chroot>/usr/include/crash), built here once per
    session (make is incremental)."""
    cs = fixture.Suite(fixture.CRASH_SUITE.get(suite, suite))
    if cs.host:
        return SO
    if cs.name in _so_built:
        return _so_built[cs.name]
    with _so_lock:          # make is not safe twice on one tree at once
        if cs.name not in _so_built:
            _so_built[cs.name] = _build_so(cs)
        return _so_built[cs.name]


def _build_so(cs):
    cs.ensure()
    bdir = os.path.join(SO_BASE, cs.name)
    so = os.path.join(bdir, "tracehunt.so")
    if SAN_LOGDIR:
        bdir += "-chroot"
        so = os.path.join(bdir, "tracehunt.so")
        return _san_so_in_chroot(cs, bdir, so)
    p = subprocess.run(["make", "-s", "-j%d" % (os.cpu_count() or 1),
                        "CRASH_INCLUDE=" +
                        cs.path("/usr/include/crash"), "BUILD=" + bdir,
                        "SO=" + so, so], cwd=ROOT, capture_output=True,
                       text=True)
    if p.returncode:
        raise DumpError("building the extension against %s's crash "
                        "failed:\n%s" % (cs.name, p.stderr[-3000:]))
    return so


# make SANITIZE=1 (fuzz/san): reports go to this directory.
SAN_LOGDIR = os.environ.get("TH_SAN_LOGDIR")
SAN_WRAPPER = os.path.join(ROOT, "fuzz", "san", "crash")
# the sanitizer runtime inside each chroot (its crash preloads it)
_san_runtime = {}


def _san_so_in_chroot(cs, bdir, so):
    """make SANITIZE=1 for another suite's crash: built inside its chroot
    with its own gcc, so that the .so needs the libasan that suite has
    (a host-built one needs the host's, which an older glibc cannot
    load); libelf-dev is installed there on first use."""
    if not os.path.exists(cs.path("/usr/include/gelf.h")):
        with fixture.Lock(os.path.join(fixture.CACHE, "chroots",
                                       cs.name + ".lock")):
            if not os.path.exists(cs.path("/usr/include/gelf.h")):
                try:
                    cs.sh("DEBIAN_FRONTEND=noninteractive apt-get install "
                          "-y -qq --no-install-recommends libelf-dev "
                          ">/dev/null 2>&1 </dev/null")
                except fixture.FixtureError as e:
                    raise DumpError("installing libelf-dev in %s for "
                                    "SANITIZE=1 failed (no network?): %s"
                                    % (cs.name, e))
    os.makedirs(bdir, exist_ok=True)
    script = ("make -s -C %s SANITIZE=1 BUILD=%s SO=%s %s 2>&1; "
              "gcc -print-file-name=libasan.so" % (ROOT, bdir, so, so))
    try:
        out = cs.sh(script, capture=True, binds=[ROOT, bdir])
    except fixture.FixtureError as e:
        raise DumpError("SANITIZE=1 build in %s failed: %s" % (cs.name, e))
    lines = out.strip().splitlines()
    if not os.path.isfile(so) or not lines or \
            not lines[-1].startswith("/"):
        raise DumpError("SANITIZE=1 build in %s failed:\n%s"
                        % (cs.name, out[-3000:]))
    _san_runtime[cs.name] = lines[-1]
    return so


_indexed = {}
HIDE_LINES = os.path.join(ROOT, "scripts", "hide-line-tables.py")


# Symbols of the vmlinux's .symtab that crash's start hashes and
# tracehunt never reads or prints: the export tables' entries (__kstrtab*,
# __ksymtab_*).  crash <= 9.0.2 inserts every name into 512 hash chains,
# comparing it with each name already there (symname_hash_install(); 16,384
# FNV-1a chains since crash commit ce0fc6b73de8, 2026): quadratic in the
# number of symbols.  7.2's vmlinux has 230,090, 39,219 of them export
# entries: crash 9.0.2 took 24 s of CPU to open a dump, 13.5 s without
# them (6.12: 202,568, 33,744).  objcopy refuses to drop symbols that
# relocations name, so 5.10's and 6.1's vmlinux (with .rela sections)
# keep theirs.  The __pfx_ padding symbols (v6.2, a quarter of 7.2's) would
# save as much again, but tracehunt does read them: `hooks` counts the
# text it compared per symbol, and the kallsyms check looks names up.
# The same outputs: tests/test_foundation.py's
# test_fast_vmlinux_copy_prints_the_same.
UNPRINTED_SYMBOLS = ("__kstrtab*", "__ksymtab_*")


def _strip_unprinted_symbols(path):
    """Drop UNPRINTED_SYMBOLS from PATH's .symtab where objcopy can."""
    tmp = path + ".strip"
    argv = ["objcopy", "--wildcard"]
    for pat in UNPRINTED_SYMBOLS:
        argv += ["--strip-symbol=" + pat]
    p = subprocess.run(argv + [path, tmp], stdin=subprocess.DEVNULL,
                       capture_output=True)
    if p.returncode == 0 and fixture.is_elf(tmp):
        os.rename(tmp, path)
    elif os.path.exists(tmp):
        os.unlink(tmp)


def files_id(*paths):
    """What identifies the contents of PATHS across runs (each one's size
    and modification time), for a cache key; None when one is missing."""
    try:
        return "\n".join("%s %d %d" % (p, st.st_size, st.st_mtime_ns)
                         for p, st in ((p, os.stat(p)) for p in paths))
    except OSError:
        return None


def write_replacing(path, text):
    """PATH's contents TEXT, written beside it and renamed over it: a
    reader in another process sees the old file or the new one."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = "%s.%d" % (path, os.getpid())
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


_cache_lock = threading.Lock()
_cache_pruned = set()


def cache_file(kind, name):
    """The path of NAME among the cached answers of KIND ($TRACEHUNT_CACHE/
    KIND/NAME), marked as used now.  Their keys name what the answers
    hold for (a crash, a vmlinux, a dump, a scenario's hash), so one
    whose inputs changed is never read again: once a process, KIND's files
    unused for fixture.STALE_SECONDS are removed, as old fixtures are."""
    d = os.path.join(fixture.CACHE, kind)
    with _cache_lock:
        if kind not in _cache_pruned:
            _cache_pruned.add(kind)
            now = time.time()
            try:
                names = os.listdir(d)
            except OSError:
                names = []
            for n in names:
                p = os.path.join(d, n)
                try:
                    if now - os.stat(p).st_mtime > fixture.STALE_SECONDS:
                        os.unlink(p)
                except OSError:
                    pass
    path = os.path.join(d, name)
    try:
        os.utime(path)
    except OSError:
        pass
    return path


_btf_known_lock = threading.Lock()


def _btf_known_add(path, lines):
    """gdb's answers in the TRACEHUNT_BTFCHECK LINES ("= KEY btf=B
    gdb=G", "!" when they differ) added to PATH's ("KEY<TAB>G")."""
    new = {}
    for line in lines:
        if line[:2] not in ("= ", "! ") or " btf=" not in line or \
                " gdb=" not in line:
            continue
        key = line[2:line.index(" btf=")]
        val = line[line.rindex(" gdb=") + 5:]
        if "\t" not in key + val:
            new[key] = val
    with _btf_known_lock:
        old = {}
        try:
            with open(path) as f:
                for l in f.read().splitlines():
                    k, _, v = l.partition("\t")
                    old[k] = v
        except OSError:
            pass
        if all(k in old for k in new):
            return
        old.update(new)
        write_replacing(path, "".join("%s\t%s\n" % kv
                                      for kv in sorted(old.items())))


def indexed_vmlinux(path):
    """PATH, or a copy of it beside it, built once and kept in the cache:
    with a .gdb_index section (gdb-add-index), its line tables hidden
    from gdb (scripts/hide-line-tables.py) and UNPRINTED_SYMBOLS dropped.
    Same sections, types and debuginfo otherwise, so tracehunt prints
    the same (a test compares it with PATH); crash starts 3-4 times
    faster.  Only for vmlinux
    files in the fixture cache; PATH itself when this is off
    (TRACEHUNT_GDB_INDEX=0) or fails."""
    if not GDB_INDEX or not os.path.isfile(path) or \
            not os.path.realpath(path).startswith(
                os.path.realpath(fixture.CACHE) + os.sep):
        return path
    if path in _indexed:
        return _indexed[path]
    st = os.stat(path)
    key = "%d %d\n" % (st.st_size, st.st_mtime_ns)
    fast_key = "fast-3 " + key      # (bumped when the recipe changes)
    # (vmlinux.fast3: a name of its own, so a checkout with the previous
    # recipe, which rebuilt vmlinux.fast whenever its stamp differed, and
    # this one do not rebuild each other's copy)
    out = path + ".fast3"
    prev = path + ".fast"
    stamp = out + ".src"
    # (vmlinux.indexed: the index-only copy of earlier rounds; reused as
    # the starting point when it is current, gdb-add-index takes minutes)
    older = path + ".indexed"

    def fresh(f, want):
        try:
            with open(f + ".src") as s:
                return s.read() == want and os.path.isfile(f)
        except OSError:
            return False

    def fail(why):
        sys.stderr.write("thlib: no fast vmlinux copy for %s (%s); crash "
                         "reads its DWARF\n" % (path, why))
        _indexed[path] = path
        return path

    if not fresh(out, fast_key):
        with fixture.Lock(out + ".lock"):
            if not fresh(out, fast_key):
                tmp = out + ".tmp"
                # (the previous recipe's copy lacks only the strip)
                was_fast = fresh(prev, "fast-2 " + key)
                start = prev if was_fast else \
                    older if fresh(older, key) else path
                if subprocess.run(["cp", "--reflink=auto", start, tmp]
                                  ).returncode != 0:
                    return fail("cp failed")
                if start == path:
                    p = subprocess.run(["gdb-add-index", tmp],
                                       stdin=subprocess.DEVNULL,
                                       capture_output=True, text=True)
                    if p.returncode != 0 or not fixture.is_elf(tmp):
                        os.unlink(tmp)
                        return fail("gdb-add-index failed")
                p = subprocess.run([sys.executable, HIDE_LINES, tmp],
                                   capture_output=True, text=True) \
                    if not was_fast else None
                if p is not None and p.returncode != 0:
                    os.unlink(tmp)
                    return fail(p.stderr.strip() or "hide-line-tables")
                _strip_unprinted_symbols(tmp)
                os.rename(tmp, out)
                with open(stamp, "w") as f:
                    f.write(fast_key)
    _indexed[path] = out
    return out


def env_list(name, default):
    v = os.environ.get(name, "").replace(",", " ").split()
    return v or default


def all_scenarios():
    """Every scenario directory, except those marked bench-only (a file
    BENCH_ONLY in the directory: built by "make bench", not by the tests)
    and those for pseudo suites only (a file SUITES naming only the
    pseudo suites they run on, e.g. bookworm-noftrace:
    tests/test_noftrace.py, sid-rt: the latency tracers).  A SUITES file naming Debian suites (subbuf:
    trixie sid, the kernels with the feature) keeps the scenario, on those
    suites only (scenario_on())."""
    return sorted(d for d in os.listdir(fixture.SCENARIOS)
                  if os.path.isdir(os.path.join(fixture.SCENARIOS, d)) and
                  not os.path.exists(os.path.join(fixture.SCENARIOS, d,
                                                  "BENCH_ONLY")) and
                  not _custom_only(d))


def _custom_only(scenario):
    """The scenario's SUITES file names only pseudo suites."""
    named = _suites_file(scenario)
    return named is not None and \
        all(s in fixture.PSEUDO_SUITES for s in named)


# Scenarios without a kaslr dump: that variant is a TCG boot of its own
# (~2 minutes cold, every scenario's fixtures rebuilt whenever the capture
# changes), and their subject is the same under KASLR: how trace lines
# print (options, printopts), the ring buffer's pages while tracing runs (live) and
# after it wrapped (wrap), where uprobes are (uprobe: offsets in a user
# file; its handlers' owners are the modules and bpf scenarios' subject).
# Relocated addresses are proven by the kaslr dumps of modules (hooks,
# module text, kprobes), events (symbolized trace lines), graph (function
# names) and bpf (programs, trampolines).  Their elf and filtered dumps
# come from the kdump boot and do run.
NO_KASLR_BOOT = ("options", "live", "wrap", "wrap8", "subbuf", "uprobe",
                 "fprobe", "latency", "printopts")


def selected():
    """(suite, scenario, variant) triples chosen by SUITES, SCENARIOS and
    VARIANTS (space or comma separated)."""
    # Pseudo suites (a custom kernel, fixture.CUSTOM_KERNELS, or another
    # flavor of a suite's kernel, fixture.FLAVORS) run the scenarios whose
    # SUITES file names them, through every test file when
    # fixture.GENERIC_SUITES has them (rhel7, sid-rt), else only through
    # their own test file (tests/test_noftrace.py); the others never run
    # those.
    suites = [s for s in env_list("SUITES", [fixture.host_suite()])
              if s not in fixture.PSEUDO_SUITES or
              s in fixture.GENERIC_SUITES]
    variants = env_list("VARIANTS", ["kdump"])
    # The dump variants other than kdump only on these scenarios ("all":
    # every scenario); see the Makefile for the default and why.
    vscens = env_list("VARIANT_SCENARIOS", ["all"])
    out = []
    for s in suites:
        scens = [c for c in env_list("SCENARIOS", all_scenarios() +
                                     suite_scenarios(s))
                 if scenario_on(c, s)]
        out += [(s, c, v) for c in scens for v in variants
                if (v == "kdump" or "all" in vscens or c in vscens) and
                not (v == "kaslr" and c in NO_KASLR_BOOT)]
    return out


def _suites_file(scenario):
    p = os.path.join(fixture.SCENARIOS, scenario, "SUITES")
    if not os.path.exists(p):
        return None
    with open(p) as f:
        return f.read().split()


def suite_scenarios(suite):
    """The scenarios whose SUITES file names SUITE."""
    if suite not in fixture.PSEUDO_SUITES:
        return []
    return sorted(d for d in os.listdir(fixture.SCENARIOS)
                  if suite in (_suites_file(d) or []))


def scenario_on(scenario, suite):
    """A scenario with a SUITES file runs on those suites only; a custom
    kernel's suite only runs those naming it."""
    named = _suites_file(scenario)
    if named is None:
        return suite not in fixture.PSEUDO_SUITES
    return suite in named


# Commands tests add to every dump's one crash session (thlib.batch).
_batched = []


def batch(cmds, scenarios=None):
    """Run CMDS in the one crash session of every dump (of SCENARIOS, if
    given), after the default commands, instead of in a session of their
    own: a crash session costs 5-25 s of CPU before its first command.
    Call at import time of a test module; dump.out(c) then has them.
    CMDS may be a function of the dump returning its commands (it may
    first remove what they will write)."""
    _batched.append((cmds if callable(cmds) else list(cmds),
                     tuple(scenarios) if scenarios else None))


_once = {}


def once_per_suite(dump, what):
    """Skip when WHAT already ran for DUMP's suite this session: for a test
    that works on one fixed dump of the suite (a planted copy of the ELF
    dump, say), whatever dump it was parametrized with."""
    key = (dump.suite, what)
    with _bg_lock:
        done = _once.setdefault(key, dump.id)
    if done != dump.id:
        import pytest
        pytest.skip("%s: runs once per suite, done with %s" % (what, done))


_early = {}


def start_early(starter):
    """Decorator for a test that waits on something slow but nearly idle
    (a guest that sleeps until a timeout): STARTER() runs when the session
    starts, before the dumps are opened, if the test is selected; the test
    gets what it returned with thlib.early(STARTER)."""
    def deco(f):
        f.th_start_early = starter
        return f
    return deco


def early(starter):
    if starter not in _early:
        _early[starter] = starter()
    return _early[starter]


# The session's worker pool (conftest): every dump's crash session, then
# the slow parts of tests marked @background, TRACEHUNT_JOBS at a time,
# while pytest's own thread goes through the tests in order.
_pool = None
_bg = {}
_bg_lock = threading.Lock()


def pool():
    return _pool


def background(f):
    """Decorator for a slow test of a dump (a planted copy, a long
    session): the whole test function runs in the session's pool as soon
    as every dump session is queued, with its own dump and a temporary
    directory as tmp_path (its only other argument, if any); at its turn
    pytest gets the result, or the failure or skip it raised there.  Run
    directly when there is no pool (a test selected on its own)."""
    names = list(inspect.signature(f).parameters)
    assert set(names) <= {"dump", "tmp_path"}, names

    @functools.wraps(f)
    def wrapper(**kw):
        fut = _bg.get((f, kw["dump"].id))
        if fut is None:
            return f(**kw)
        return fut.result()
    wrapper.th_background = (f, names)
    return wrapper


def start_background(f, names, dump):
    """Queue F(DUMP, ...) in the pool (conftest, at the session start)."""
    def run():
        kw = {"dump": dump}
        tmp = None
        if "tmp_path" in names:
            tmp = tempfile.mkdtemp(prefix="th-bg-", dir=SCRATCH)
            kw["tmp_path"] = pathlib.Path(tmp)
        try:
            return f(**kw)
        finally:
            if tmp:
                shutil.rmtree(tmp, ignore_errors=True)
    with _bg_lock:
        if (f, dump.id) not in _bg:
            _bg[(f, dump.id)] = _pool.submit(run)


def pool_starter(starter):
    """Decorator: STARTER() runs once, when the session's pool has every
    dump session and @background test queued, if the test is selected
    (to queue more slow work behind them)."""
    def deco(f):
        f.th_pool_starter = starter
        return f
    return deco


# The captured tracing/ files a test module compares in its own way, by
# the capture pattern of their row in the tracefs table (src/tracefs/
# table.c, relative to an array's directory), with the reason.
# tests/test_ftrace_files.py compares every other captured tracing/ file
# with "ftrace cat" of it.
COMPARED_ELSEWHERE = {
    "trace": "test_trace.py: byte for byte where tracing was stopped "
             "before the capture, line order where it ran on (live), the "
             "header and the counts on their own",
    "per_cpu/cpu*/trace": "test_trace.py, as trace",
    "kprobe_events": "test_kprobes.py, beside the kprobes it lists",
    "kprobe_profile": "test_kprobes.py: captured last, its hit counts "
                      "also against kprobes -v",
    "enabled_functions": "test_ftrace_ops.py, beside the call sites and "
                         "ops it lists",
}


# Lines of captured files that the live kernel printed from a clock it
# read at the read() itself: no dump holds that reading.  By pattern
# relative to an array's directory: the line's regular expression and the
# reason.  Only that line's value is left out of the comparisons
# (comparable()); the rest of the file must be exact.
READ_TIME_LINES = {
    "per_cpu/cpu*/stats": (
        re.compile(rb"^(now ts: ).*$", re.M),
        '"now ts" is ring_buffer_time_stamp(), the trace clock when the '
        'file was read (tracehunt prints the time stamp of the CPU\'s '
        'last event)'),
}


def comparable(name, data):
    """DATA (a captured file NAME, or tracehunt's) with the values of its
    READ_TIME_LINES replaced by one marker."""
    rel = tracing_rel(name)
    for pattern, (rx, _why) in READ_TIME_LINES.items():
        if data is not None and rel is not None and matches(rel, pattern):
            return rx.sub(rb"\1(the clock at the read)", data)
    return data


# Files of a row that "ftrace cat" answers, for now, with one line saying
# what tracehunt does not reconstruct yet (issue 22), by pattern relative
# to an array's directory: test_ftrace_files.py ends as an expected
# failure naming them (never a pass), the census counts them "not
# written".
NOT_YET = {
    # (none: the last, events/*/*/hist, is written since the options
    # scenario pauses its hist triggers before the capture)
}


def not_yet(name, ours):
    """Why OURS, "ftrace cat" of the captured file NAME, is the one line
    of a file tracehunt does not reconstruct yet; None if it is not."""
    rel = tracing_rel(name)
    lines = (ours or b"").split(b"\n")
    if rel is None or len(lines) != 2 or lines[1] or \
            not lines[0].startswith(b"ftrace cat: ") or \
            b"does not reconstruct yet" not in lines[0]:
        return None
    for pattern, why in NOT_YET.items():
        if fnmatch.fnmatchcase(rel, pattern):
            return why
    return None


@functools.lru_cache(maxsize=None)
def tracing_rel(name):
    """tracing/instances/X/F -> F, tracing/F -> F; None if not tracing/."""
    if not name.startswith("tracing/"):
        return None
    f = name[len("tracing/"):]
    m = re.match(r"instances/[^/]+/(.*)$", f)
    return m.group(1) if m else f


@functools.lru_cache(maxsize=None)
def compared_elsewhere(name):
    """Why a captured file is compared by another module than
    test_ftrace_files.py, or None."""
    rel = tracing_rel(name)
    for pattern, why in COMPARED_ELSEWHERE.items():
        if rel is not None and fnmatch.fnmatchcase(rel, pattern):
            return why
    return None


@functools.lru_cache(maxsize=None)
def table_patterns():
    """The files of the tracefs table's printed rows, as globs relative to
    an array's directory (src/tracefs/table.c through scripts/fixture.py)."""
    return tuple(fixture.row_pattern(r) for r in fixture.tracefs_rows()
                 if r["printed"] and r["scope"] != "KPROBES")


@functools.lru_cache(maxsize=None)
def debugfs_rows():
    """The table's rows of debugfs' kprobes directory, by their captured
    names (debug/kprobes/X)."""
    pre = "/sys/kernel/"
    return tuple(r["name"][len(pre):] for r in fixture.tracefs_rows()
                 if r["printed"] and r["scope"] == "KPROBES")


@functools.lru_cache(maxsize=None)
def table_file(name):
    """Whether a captured file is one of the table's rows (the guest
    captures every readable file; "ftrace cat" prints the table's)."""
    rel = tracing_rel(name)
    return rel is not None and pattern_of(rel) is not None


@functools.lru_cache(maxsize=None)
def _pattern_index():
    """The table's patterns: {literal name: itself}, and the others as
    (pattern, compiled regex), in the table's order."""
    literal, wild = {}, []
    for p in table_patterns():
        if any(c in p for c in "*?["):
            wild.append((p, re.compile(fnmatch.translate(p))))
        else:
            literal.setdefault(p, p)
    return literal, tuple(wild)


@functools.lru_cache(maxsize=None)
def pattern_of(rel):
    """The first table pattern REL (relative to an array's directory)
    matches, or None.  (A make check looks up ~10^5 captured names: one
    fnmatch per pattern and name took minutes of CPU.)"""
    literal, wild = _pattern_index()
    if rel in literal:
        return rel
    for p, rx in wild:
        if rx.match(rel):
            return p
    return None


def matches(rel, pattern):
    """fnmatch.fnmatchcase(REL, PATTERN), cached per pattern."""
    return _compiled(pattern).match(rel) is not None


@functools.lru_cache(maxsize=None)
def _compiled(pattern):
    return re.compile(fnmatch.translate(pattern))


def truth_to_command(name):
    """The tracehunt command that reproduces a captured live file (None:
    not a file of the tracefs table)."""
    if name == "debug/kprobes/list":
        return "kprobes"
    if name in debugfs_rows():
        return "ftrace cat /sys/kernel/" + name
    if table_file(name):
        return "ftrace cat " + name[len("tracing/"):]
    return None


class Dump:
    """One fixture and the output of every command run on it."""

    # Commands every dump runs besides one "ftrace cat" per truth file.
    EXTRA = ["kprobes -v", "ftrace", "ftrace ops", "ftrace ops -v",
             "ftrace sites", "ftrace ls", "ftrace tracers -v", "hooks",
             "hooks -j", "kprobes -x", "ftrace bogus",
             "ftrace cat no_such_file",
             # crash's own: the KASLR offset it found (tests/test_matrix.py)
             "help -k"]

    def __init__(self, suite, scenario, variant, directory=None):
        """The fixture (SUITE, SCENARIO, VARIANT), built or reused; or the
        fixture already in DIRECTORY (its manifest names the rest)."""
        self.dir = directory or fixture.build(suite, scenario, variant)
        try:
            with open(os.path.join(self.dir, "manifest.json")) as f:
                self.manifest = json.load(f)
        except (OSError, ValueError) as e:
            raise DumpError("fixture %s has no readable manifest: %s"
                            % (self.dir, e))
        m = self.manifest
        self.suite = suite or m["suite"]
        self.scenario = scenario or m["scenario"]
        self.variant = variant or m["variant"]
        self.id = "%s-%s-%s" % (self.suite, self.scenario, self.variant)
        self.outputs = None
        self.error = None
        self.btfcheck = []     # TRACEHUNT_BTFCHECK lines of its sessions
        self.crash_flags = []
        self.log = ""
        self._lock = threading.Lock()   # one session per dump at a time

    # ---- truth ----
    def truth_names(self):
        return list(self.manifest["truth_files"])

    def truth(self, name):
        """The live file NAME as the guest read it.  The small ones are
        kept for the two dumps read last: the census (test_census.py)
        and test_ftrace_files.py each read the 57,000 of an options dump,
        one after the other."""
        cache = _truth_cache_of(self)
        body = cache.get(name)
        if body is None:
            with open(os.path.join(self.dir, "truth", name), "rb") as f:
                body = f.read()
            if len(body) <= TRUTH_CACHE_MAX:
                cache[name] = body
        return body

    def truth_error(self, name):
        """The errno name of the live read of NAME when it failed (the
        manifest's truth_errors: its truth file holds what came before
        the error, if anything), else None."""
        return (self.manifest.get("truth_errors") or {}).get(name)

    def has_truth(self, name):
        return os.path.exists(os.path.join(self.dir, "truth", name))

    def commands(self):
        # (a dict keeps the order: "c not in" a list of the options
        # scenario's 49,495 commands took 21 s of CPU per dump)
        cmds = {}
        for n in self.truth_names():
            c = truth_to_command(n)
            if c:
                cmds.setdefault(c)
        for c in self.EXTRA:
            cmds.setdefault(c)
        for more, only in _batched:
            if only is None or self.scenario in only:
                if callable(more):
                    more = more(self)
                for c in more:
                    cmds.setdefault(c)
        return list(cmds)

    def truth_matching(self, pattern, keep=None):
        """The captured names whose path relative to their array's
        directory matches PATTERN (and KEEP(name), if given), in capture
        order; the index is built once per dump."""
        idx = self.__dict__.get("_by_rel")
        if idx is None:
            idx = {}
            for n in self.truth_names():
                rel = tracing_rel(n)
                if rel is not None:
                    idx.setdefault(rel, []).append(n)
            self._by_rel = idx
        if not any(c in pattern for c in "*?["):
            names = idx.get(pattern, [])
        else:
            names = [n for rel, ns in idx.items() if matches(rel, pattern)
                     for n in ns]
            order = self.__dict__.setdefault("_order", {})
            if not order:
                order.update((n, i) for i, n in
                             enumerate(self.truth_names()))
            names.sort(key=order.__getitem__)
        return [n for n in names if keep is None or keep(n)]

    # ---- crash ----
    def kaslr_flags(self):
        """crash's --kaslr for a KASLR boot whose offset crash's own search
        got wrong (_run_in() tries without it first): the offset the guest
        printed at its panic ("Kernel Offset: 0x... from ...").  A kdump
        dump tells crash the offset (VMCOREINFO's KERNELOFFSET); QEMU's
        dumps carry no VMCOREINFO, and the search found a wrong one on an
        occasional boot (sid-bpf-kaslr: "seek error: physical address ...
        pmd page"; docs/KERNELS.md).  The same on a boot without KASLR
        ("Kernel Offset: disabled"), whose offset is then 0: sid's crash
        9.0.2 searched, and found an offset, in the nokaslr dumps of a
        persist boot that reset itself four times (2026-12-01).  Not
        always: given --kaslr, crash 8.0.2 no longer finds QEMU's dumps'
        physical base."""
        if not self.__dict__.get("_kaslr_needed"):
            return []
        off = self.__dict__.get("_kaslr_off")
        if off is None:
            off = ""
            try:
                with open(os.path.join(self.dir, "console.log"),
                          errors="replace") as f:
                    for m in re.finditer(r"Kernel Offset: (?:(0x[0-9a-f]+) "
                                         r"from |disabled)", f.read()):
                        off = m.group(1) or "0"
            except OSError:
                pass
            self._kaslr_off = off
        return ["--kaslr=" + off] if off else []

    def crash_argv(self, args, binds=()):
        """argv running the crash that opens this dump (the suite's own, in
        its chroot, with BINDS and the dump's files at the same paths)."""
        m = self.manifest
        args = self.kaslr_flags() + list(args)
        cs = fixture.Suite(m.get("crash_suite", m["suite"]))
        binds = list(binds) + [os.path.dirname(m["vmlinux"]),
                               os.path.dirname(m["vmcore"])]
        crash = ["crash"]
        if SAN_LOGDIR and not cs.host:
            # the suite's crash with its own sanitizer runtime preloaded
            so_for(self.suite)
            os.makedirs(SAN_LOGDIR, exist_ok=True)
            crash = ["env", "TH_SAN_RUNTIME=" + _san_runtime[cs.name],
                     SAN_WRAPPER]
            binds += [os.path.dirname(SAN_WRAPPER), SAN_LOGDIR]
        return cs.argv(crash + list(args), binds)

    def vmlinux(self):
        """The vmlinux crash opens: the manifest's, gdb-indexed."""
        return indexed_vmlinux(self.manifest["vmlinux"])

    def crash_suite(self):
        m = self.manifest
        return m.get("crash_suite", m["suite"])

    def _crash(self, args, binds, ncmds=0, env=None):
        global crash_sessions
        crash_sessions += 1
        fd, ru = tempfile.mkstemp(prefix="th-rusage-")
        os.close(fd)
        try:
            # (GNU time: the CPU of crash and what it waited for, for the
            # summary's list of the costliest sessions)
            return subprocess.run(["/usr/bin/time", "-f", "%U %S", "-o", ru]
                                  + self.crash_argv(args, binds),
                                  stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT,
                                  env=env, timeout=CRASH_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise DumpError("crash did not finish on %s within %d s "
                            "(TRACEHUNT_CRASH_TIMEOUT)" % (self.id,
                                                           CRASH_TIMEOUT))
        finally:
            try:
                with open(ru) as f:
                    u, s = f.read().split()[-2:]
                session_cpu.append((float(u) + float(s), self.id, ncmds,
                                    _caller()))
            except (OSError, ValueError):
                pass
            os.unlink(ru)

    def crash_binary(self):
        """The crash that opens this dump, as a path on this machine (in
        its suite's chroot): what the cached answers are keyed by."""
        return os.path.join(fixture.Suite(self.crash_suite()).root, "usr",
                            "bin", "crash")

    def btf_known_path(self):
        """Where gdb's answers of this dump's BTF checks are kept across
        runs (TRACEHUNT_BTFCHECK_KNOWN, src/model/types.c): they hold while
        the vmlinux, the scenario's modules and the crash that asked gdb
        do, which the name says; None when one cannot be told."""
        m = self.manifest
        ids = files_id(self.crash_binary(), m["vmlinux"])
        if ids is None:
            return None
        key = "\n".join([ids, m["release"], m["scenario"],
                         m["scenario_hash"]])
        return cache_file("btfcheck-known", "%s-%s-%s.tsv"
                          % (m["release"], m["scenario"], hashlib.sha256(
                              key.encode()).hexdigest()[:16]))

    def crash_flags_path(self):
        """Where the options this dump's crash turned out to need (Dump.run)
        are kept across runs, by that crash and the dump's kernel; None
        when the crash cannot be told."""
        m = self.manifest
        ids = files_id(self.crash_binary())
        if ids is None:
            return None
        return cache_file("crash-flags", "%s-%s.json" % (
            m["release"], hashlib.sha256(("%s\n%s" % (
                ids, m["release"])).encode()).hexdigest()[:16]))

    def checks_btf(self):
        """Whether this dump's sessions ask gdb each look-up the vmlinux
        BTF answered (TRACEHUNT_BTFCHECK, tests/test_btftypes.py).  The
        answers are the vmlinux's and its modules' (their BTF, their
        debuginfo), which a scenario's dumps share (the same kernel, the
        same modules, the same commands): so its kdump dump's sessions
        ask, when that dump is selected too, else each of its dumps'.
        (gdb's answers are half of a 7.2 dump's session: some 6 s of
        CPU each.)"""
        return self.variant == "kdump" or \
            (self.suite, self.scenario, "kdump") not in selected()

    def check_inputs(self):
        m = self.manifest
        for what in ("vmlinux", "vmcore"):
            if not os.path.isfile(m[what]):
                raise DumpError("%s %s is missing (rebuild: scripts/"
                                "fixture.py --force --suite %s --variant %s "
                                "%s)" % (what, m[what], self.suite,
                                         self.variant, self.scenario))
        if not fixture.is_elf(m["vmlinux"]):
            raise DumpError("vmlinux %s is not an ELF file (garbled?); "
                            "delete it and rebuild the fixture"
                            % m["vmlinux"])

    def run(self, cmds=None, so=None, vmlinux=None):
        cmds = cmds or self.commands()
        self.check_inputs()
        so = so or so_for(self.suite)
        outdir = tempfile.mkdtemp(prefix="th-%s-" % self.id, dir=SCRATCH)
        try:
            return self._run_in(outdir, cmds, so, vmlinux)
        finally:
            # the outputs are in memory (or the error says why not); a
            # make check used to leave 130 of these, up to 26 MB each
            shutil.rmtree(outdir, ignore_errors=True)

    def _run_in(self, outdir, cmds, so, vmlinux):
        lines = ["extend %s" % so]
        files = {}
        for i, c in enumerate(cmds):
            out = os.path.join(outdir, "%03d.out" % i)
            files[c] = out
            lines.append("%s > %s" % (c, out))
        lines.append("extend -u %s" % so)
        lines.append("sys")
        cmdfile = os.path.join(outdir, "cmds")
        with open(cmdfile, "w") as f:
            f.write("\n".join(lines) + "\nexit\n")
        flags = list(_crash_flags.get(self.crash_suite(), []))
        known_flags = self.crash_flags_path()
        if not flags and known_flags:
            try:
                with open(known_flags) as f:
                    flags = [a for a in json.load(f) if a == "--no_modules"]
            except (OSError, ValueError, TypeError):
                pass
        # every look-up the vmlinux BTF answers is asked of gdb too, both
        # answers logged (src/model/btf_types.h): test_btftypes.py
        btfcheck = os.path.join(outdir, "btfcheck")
        env = dict(os.environ)
        checks = self.checks_btf()
        btf_known = self.btf_known_path() if checks else None
        if checks:
            env["TRACEHUNT_BTFCHECK"] = btfcheck
            if btf_known and os.path.exists(btf_known):
                # (a copy in OUTDIR: the chroots of other suites' crash
                # see the scratch directory, not the cache)
                known_copy = os.path.join(outdir, "btfcheck-known.tsv")
                shutil.copyfile(btf_known, known_copy)
                env["TRACEHUNT_BTFCHECK_KNOWN"] = known_copy
        while True:
            if os.path.exists(btfcheck):
                os.unlink(btfcheck)
            p = self._crash(flags + ["-s", vmlinux or self.vmlinux(),
                                     self.manifest["vmcore"], "-i",
                                     cmdfile], [SCRATCH, os.path.dirname(so)],
                            len(cmds), env)
            self.log = p.stdout.decode(errors="replace")
            # A crash that cannot follow the kernel's struct module (crash
            # 9.0.2 on 7.2: "invalid structure member offset:
            # module_num_gpl_syms") dies in its module_init(); it still
            # opens the dump without its module layer, and tracehunt walks
            # modules itself.  Remembered per crash for the session.
            if "--no_modules" not in flags and re.search(
                    r"invalid structure member offset: module_\w+\s+"
                    r"FILE: kernel\.c.*FUNCTION: module_init", self.log,
                    re.S):
                flags.append("--no_modules")
                known = _crash_flags.setdefault(self.crash_suite(), [])
                if "--no_modules" not in known:    # (dumps run in threads)
                    known.append("--no_modules")
                if known_flags:    # and across runs (3-4 s each time)
                    write_replacing(known_flags, json.dumps(["--no_modules"]))
                continue
            # (a boot without KASLR: only crash's wrong offset, its page
            # table walk off the dump)
            if "shared object loaded" not in self.log and \
                    (self.manifest.get("kaslr") or
                     re.search(r"(seek|read) error: physical address",
                               self.log)) and \
                    not self.__dict__.get("_kaslr_needed"):
                self._kaslr_needed = True
                if self.kaslr_flags():
                    continue
            break
        self.crash_flags = flags
        if "shared object loaded" not in self.log:
            lines = [l for l in self.log.split("Usage:")[0].splitlines()
                     if l.strip()]
            tail = "\n".join(lines[-8:])
            if any(os.path.exists(f) for f in files.values()) or \
                    "extend:" in self.log:
                raise DumpError("crash opened %s but could not load %s:\n%s"
                                % (self.manifest["vmcore"], so, tail))
            raise DumpError("crash could not open %s with %s:\n%s"
                            % (self.manifest["vmcore"],
                               self.manifest["vmlinux"], tail))
        try:
            with open(btfcheck, errors="replace") as f:
                lines = f.read().splitlines()
            self.btfcheck.extend(lines)
            if btf_known:
                _btf_known_add(btf_known, lines)
        except OSError:
            pass
        outputs = {}
        for c, path in files.items():
            if os.path.exists(path):
                with open(path, "rb") as f:
                    outputs[c] = f.read()
            else:
                outputs[c] = None
        self.rc = p.returncode
        return outputs

    def prefetch(self):
        """Run every command now (conftest does this for all dumps in
        parallel); a failure is kept and reported by each out()."""
        with self._lock:
            if self.outputs is None and self.error is None:
                try:
                    self.outputs = self.run()
                except DumpError as e:
                    self.error = e

    def out(self, cmd):
        if self.error is not None:
            raise DumpError(str(self.error))
        if self.outputs is None:
            self.prefetch()
            return self.out(cmd)
        if cmd not in self.outputs:
            with self._lock:
                if cmd not in self.outputs:
                    self.outputs.update(self.run([cmd]))
        return self.outputs[cmd]


def first_difference(expected, actual):
    """A short human-readable description of the first differing line."""
    el = expected.split(b"\n")
    al = actual.split(b"\n")
    for i in range(max(len(el), len(al))):
        e = el[i] if i < len(el) else b"<missing>"
        a = al[i] if i < len(al) else b"<missing>"
        if e != a:
            return ("line %d differs:\n  live: %r\n  ours: %r\n"
                    "(%d live lines, %d ours)" % (i + 1, e, a, len(el),
                                                  len(al)))
    return "no difference"


def assert_same(expected, actual, what):
    """Byte-exact comparison with the live file."""
    assert actual is not None, "%s: no output" % what
    if expected != actual:
        raise AssertionError("%s differs from the live kernel's file: %s"
                             % (what, first_difference(expected, actual)))


def lines_in_order(expected_lines, actual_lines):
    """True when every expected line appears in actual, in order."""
    it = iter(actual_lines)
    return all(any(a == e for a in it) for e in expected_lines)


def scenario_defines(scenario, pattern=r"TH_\w+"):
    """#define NAME VALUE constants of a scenario's module sources."""
    out = {}
    mdir = os.path.join(fixture.SCENARIOS, scenario, "modules")
    if not os.path.isdir(mdir):
        return out
    for fn in os.listdir(mdir):
        with open(os.path.join(mdir, fn)) as f:
            for line in f:
                m = re.match(r"#define\s+(%s)\s+(.+?)\s*$" % pattern, line)
                if m:
                    v = m.group(2)
                    out[m.group(1)] = v.strip('"') if v.startswith('"') \
                        else int(v, 0) if re.match(r"^(0x)?[0-9a-fA-F]+$", v) \
                        else v
    return out
