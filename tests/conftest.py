"""pytest wiring: every test that takes `dump` runs once per selected
(suite, scenario, variant); each dump is built (or reused from the cache)
once and opened by ONE crash process that runs every command."""

import os
import resource
import sys
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import thlib  # noqa: E402

def _xfail_unopenable(key, err):
    """Not ours, when crash itself cannot open a dump whose sibling it
    opens (the sibling's session is run first if need be):
    - filtered: a makedumpfile that leaves out a page crash needs to
      start (sid's 1.7.8 at -d 31 on 7.2: a page-table page, trixie's
      crash: "page excluded ... pud page"; sid's crash 9.0.2 exits
      without a word; fixture.FILTER_LEVEL now keeps it); the sibling is
      the same boot's unfiltered ELF dump;
    - kaslr: QEMU's dump carries no VMCOREINFO (the guest has no fw_cfg
      driver), so crash searches for the KASLR offset itself, and on an
      occasional boot finds a wrong one ("seek error: physical address
      346e65766000 type: "pmd page""); thlib then gives crash the offset
      the guest printed (Dump.kaslr_flags()), and only a dump crash cannot
      open with it either is left here; the sibling is the scenario's
      nokaslr kdump boot.
    Expected to fail, and reported with crash's message; docs/KERNELS.md."""
    if key[2] not in ("filtered", "kaslr") or \
            "crash could not open" not in str(err):
        return
    sib = (key[0], key[1], "elf" if key[2] == "filtered" else "kdump")
    other = _future(sib).result()
    if isinstance(other, Exception):
        return
    other.prefetch()        # no-op when this session already opened it
    if other.error is not None:
        return
    lines = [l for l in str(err).strip().splitlines()[1:] if l.strip()]
    pytest.xfail("crash opens %s but not %s: %s" % (
        "-".join(sib), "its %s copy" % _filtered_format(key)
        if key[2] == "filtered" else "this KASLR boot's dump",
        " / ".join(lines[-2:])))


def _filtered_format(key):
    """"makedumpfile -c -d N", the filtered dumps of KEY's suite."""
    return thlib.fixture.filter_cmd(thlib.fixture.make_suite(key[0]))


# Results of the tests run so far, by node id ("passed", "failed", ...).
_results = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A test that fails on a filtered dump whose own output says data is
    not in the dump ("# tracehunt: ... (not in the dump)", or crash's
    "page excluded"), while the same test passed on the same boot's ELF
    dump, is an expected failure: makedumpfile left out pages the kernel
    was using (sid's 1.7.8 on 7.2 at -d 31, see _xfail_unopenable), and
    tracehunt said so instead of printing wrong data."""
    outcome = yield
    rep = outcome.get_result()
    if rep.when != "call":
        return
    _results[item.nodeid] = rep.outcome
    key = _dump_key(item)
    if not rep.failed or not isinstance(key, tuple) or \
            key[2] != "filtered":
        return
    kid = "-".join(key)
    sib = item.nodeid.replace("[%s" % kid, "[%s-%s-elf" % key[:2], 1)
    if sib == item.nodeid or _results.get(sib) != "passed":
        return
    fut = _builds.get(key)
    d = fut.result() if fut is not None and fut.done() else None
    if d is None or isinstance(d, Exception) or not d.outputs:
        return
    notes = [l for o in d.outputs.values() for l in o.split(b"\n")
             if b"(not in the dump)" in l or b"page excluded" in l]
    if notes:
        rep.outcome = "skipped"
        rep.wasxfail = ("passes on %s-%s-elf; this %s copy lacks pages: "
                        "%s" % (key[0], key[1], _filtered_format(key),
                                notes[0][:160].decode(errors="replace")))


_dumps_lock = threading.RLock()
# key -> Future of its Dump (or of the exception that stopped it): built by
# the session's builders (pytest_collection_finish) or, for a key nobody
# scheduled, by the first thread that asks.
_builds = {}


def _open(key):
    try:
        return thlib.Dump(*key)
    except (thlib.fixture.FixtureError, thlib.DumpError) as e:
        return e


def _future(key):
    with _dumps_lock:       # (tests marked @background run in threads)
        fut = _builds.get(key)
        mine = fut is None
        if mine:
            fut = _builds[key] = Future()
    if mine:
        fut.set_result(_open(key))
    return fut


def get_dump(key):
    d = _future(key).result()
    if isinstance(d, Exception):
        _xfail_unopenable(key, d)
        pytest.fail("fixture %s: %s" % ("-".join(key), d), pytrace=False)
    return d


def pytest_generate_tests(metafunc):
    if "dump" in metafunc.fixturenames:
        sel = thlib.selected()
        only = getattr(metafunc.function, "scenarios", None)
        if only is not None:
            sel = [k for k in sel if k[1] in only]
        metafunc.parametrize("dump_key", sel,
                             ids=["-".join(k) for k in sel])


def _dump_key(item):
    """The (suite, scenario, variant) a test item is parametrized with."""
    cs = getattr(item, "callspec", None)
    if not cs:
        return None
    return getattr(cs, "funcargs", {}).get("dump_key") or \
        cs.params.get("dump_key")


def _build_order(keys):
    """The order the builders take the fixtures in: round-robin over the
    suites (one suite's chroot and kernel download overlap another's
    boots), the boots first (kdump, kaslr), then the elf and filtered
    siblings a kdump boot already made."""
    rounds = []
    for sibling in (False, True):
        per_suite = {}
        for k in keys:
            if (k[2] in ("elf", "filtered")) == sibling:
                per_suite.setdefault(k[0], []).append(k)
        lists = list(per_suite.values())
        while any(lists):
            for one in lists:
                if one:
                    rounds.append(one.pop(0))
    return rounds


_order = []


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "once: runs the same whatever SUITES selects (a fixed "
        "fixture of the host suite, or none); TRACEHUNT_ONCE_RAN=1 leaves "
        "it out (make check's later runs: check-uevents, check-rhel7)")


def _drop_once(config, items):
    """Under TRACEHUNT_ONCE_RAN=1 (make check's check-uevents and
    check-rhel7, after its main run ran them), the @pytest.mark.once
    tests are deselected: they would run the same again."""
    if os.environ.get("TRACEHUNT_ONCE_RAN") != "1":
        return
    gone = [i for i in items if i.get_closest_marker("once")]
    if gone:
        items[:] = [i for i in items if not i.get_closest_marker("once")]
        config.hook.pytest_deselected(items=gone)


def pytest_collection_modifyitems(config, items):
    """Leave out what already ran (_drop_once()); then order for the
    pipeline: first the tests that need no dump (they run
    in pytest's thread while the builders boot the first guests), then the
    tests of each dump in the order the dumps are built, last the ones
    whose work the pool does after every dump (@thlib.background, the
    damaged-dump matrix).  Stable: files and parameters keep their order
    inside each group."""
    _drop_once(config, items)
    keys = []
    for item in items:
        k = _dump_key(item)
        if isinstance(k, tuple) and k not in keys:
            keys.append(k)
    _order[:] = _build_order(keys)
    rank = {k: i for i, k in enumerate(_order)}

    def group(item):
        f = getattr(item, "function", None)
        if getattr(f, "th_background", None) or \
                getattr(f, "th_pool_starter", None):
            return (2, 0)
        k = _dump_key(item)
        if isinstance(k, tuple):
            return (1, rank[k])
        return (0, 0)
    items.sort(key=group)


_builders = None
_built = []         # a line per fixture, for the summary
_t_built = []       # (seconds until the last fixture was ready)


def pytest_collection_finish(session):
    """Start the pipeline: TRACEHUNT_BUILDERS (default 2: a TCG guest keeps
    about one core busy) threads build the fixtures in _order; as each is
    ready its crash session, then its @thlib.background tests, go to the
    session's worker pool (TRACEHUNT_JOBS, default the number of CPUs);
    after the last one, the pool starters (the damaged-dump matrix).
    pytest's thread meanwhile runs the tests, each waiting only for the
    dump it reads."""
    global _builders
    if session.config.option.collectonly:
        return
    for item in session.items:
        starter = getattr(getattr(item, "function", None), "th_start_early",
                          None)
        if starter:
            thlib.early(starter)
    jobs = int(os.environ.get("TRACEHUNT_JOBS") or os.cpu_count() or 1)
    thlib._pool = ThreadPoolExecutor(max_workers=jobs,
                                     thread_name_prefix="th")
    background = {}
    starters = []
    for item in session.items:
        f = getattr(item, "function", None)
        bg = getattr(f, "th_background", None)
        key = _dump_key(item)
        if bg and isinstance(key, tuple):
            background.setdefault(key, []).append(bg)
        st = getattr(f, "th_pool_starter", None)
        if st and st not in starters:
            starters.append(st)
    keys = list(_order)
    if not keys:
        for st in starters:
            st()
        return
    with _dumps_lock:
        for k in keys:
            _builds.setdefault(k, Future())
    left = [len(keys)]
    left_lock = threading.Lock()
    t0 = time.time()

    def one(k):
        t = time.time()
        d = None
        try:
            d = _open(k)
            if isinstance(d, thlib.fixture.GuestFlake):
                # a TCG guest on a loaded machine (two guests, crash
                # sessions, the kernel build) can crawl into RCU stalls,
                # or panic with the end of its truth still in its serial
                # port: once more, and say so
                _built.append("fixture %s: %s; booting it once more" % (
                    "-".join(k), str(d).splitlines()[0]))
                d = _open(k)
            if not isinstance(d, Exception):
                try:
                    thlib.so_for(d.suite)
                except thlib.DumpError as e:
                    d.error = e
        except BaseException as e:      # never leave a test waiting
            d = e
        finally:
            _builds[k].set_result(d)
        _built.append("fixture %-32s %s (%.0f s)" % (
            "-".join(k), "error" if isinstance(d, Exception) else "ok",
            time.time() - t))
        if not isinstance(d, Exception):
            thlib._pool.submit(d.prefetch)
            for f, names in background.get(k, ()):
                thlib.start_background(f, names, d)
        with left_lock:
            left[0] -= 1
            last = left[0] == 0
        if last:
            _t_built.append(time.time() - t0)
            for st in starters:
                st()

    builders = int(os.environ.get("TRACEHUNT_BUILDERS") or 2)
    _builders = ThreadPoolExecutor(max_workers=builders,
                                   thread_name_prefix="th-build")
    for k in keys:
        _builders.submit(one, k)
    tr = session.config.pluginmanager.get_plugin("terminalreporter")
    if tr:
        tr.write_line("tracehunt: %d fixtures, built (or found in the cache) "
                      "%d at a time; crash opens each as it is ready, %d at "
                      "a time, while the tests run" % (len(keys), builders,
                                                       jobs))


def pytest_sessionfinish(session):
    if _builders is not None:
        _builders.shutdown(wait=True, cancel_futures=True)
        for fut in _builds.values():    # (cancelled: nobody waits now)
            if not fut.done():
                fut.set_result(thlib.DumpError("not built"))
    if thlib._pool is not None:
        thlib._pool.shutdown(wait=True, cancel_futures=True)


_t0 = time.time()
_load0 = os.getloadavg()


def pytest_terminal_summary(terminalreporter):
    """Where the time went: wall, CPU of every process the tests started,
    crash sessions, and the load (the machine may be shared)."""
    for line in _built:
        terminalreporter.write_line(line)
    if _t_built:
        terminalreporter.write_line("tracehunt: every fixture ready %.0f s "
                                    "after the start of the tests"
                                    % _t_built[0])
    me = resource.getrusage(resource.RUSAGE_SELF)
    ch = resource.getrusage(resource.RUSAGE_CHILDREN)
    terminalreporter.write_line(
        "tracehunt: %.0f s wall, %.0f s CPU (tests %.0f, their processes "
        "%.0f), %d crash sessions through thlib, %d CPUs, load %.1f at the "
        "start, %.1f at the end" % (
            time.time() - _t0, me.ru_utime + me.ru_stime + ch.ru_utime +
            ch.ru_stime, me.ru_utime + me.ru_stime, ch.ru_utime +
            ch.ru_stime, thlib.crash_sessions, os.cpu_count() or 1,
            _load0[0], os.getloadavg()[0]))
    cpu = sorted(thlib.session_cpu, reverse=True)
    if cpu:
        by = {}
        for c, i, n, who in cpu:
            t = by.setdefault(who, [0, 0.0])
            t[0] += 1
            t[1] += c
        terminalreporter.write_line(
            "tracehunt: the sessions through thlib took %.0f s CPU; by "
            "whom they were for: %s; the costliest: %s" % (
                sum(c[0] for c in cpu), ", ".join(
                    "%s %d (%.0f s)" % (w, t[0], t[1]) for w, t in sorted(
                        by.items(), key=lambda x: -x[1][1])),
                ", ".join("%s %.0f s (%d commands, %s)" % (i, c, n, w)
                          for c, i, n, w in cpu[:8])))


@pytest.fixture
def dump(dump_key):
    d = get_dump(dump_key)
    # its session may still be running in the pool: wait for it (or run
    # it now), so that a dump crash cannot open fails or xfails here
    d.prefetch()
    if d.error is not None:
        _xfail_unopenable(dump_key, d.error)
        pytest.fail("dump %s: %s" % (d.id, d.error), pytrace=False)
    return d


def scenarios(*names):
    """Decorator: run a test only on these scenarios."""
    def deco(f):
        f.scenarios = names
        return f
    return deco
