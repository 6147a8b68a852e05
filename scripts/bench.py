#!/usr/bin/python3
"""make bench: how long tracehunt's commands take on a big dump (issue 11).

    scripts/bench.py [--so SO] [--runs N] [--big-runs N] [--variant elf]
                     [--against OLD_SO] [--no-main] [--no-batch]
                     [--new-suite sid] [--format-runs N]
                     [--cpus-scenario "cpus2 cpus8 cpus32 big8"]
                     [--only-cpus]
                     [--out bench/results] [--suite SUITE]

Every measurement is its own crash process: the session loads the
extension, runs one command with its output to /dev/null (or a file), and
reads crash's own peak RSS (VmHWM) at the end.  Inside the session the
command is bracketed by "!date" shell escapes; the time of a bare pair of
"!date" (the fork/exec of the escape itself) is subtracted, so the figures
are the extension's time inside crash, without crash's start-up.  The raw
read and "cat trace", whose ratio is a target, run in alternate sessions:
the median of the pairs' ratios is reported beside the ratio of the
medians.

Fixtures: "big" (testdata/scenarios/big: function tracer on every
function, 32 MB per CPU, filled) and "events" as the small buffer.  The
ELF variant by default: no decompression in the way of the read path.

Then (issue 25): "ftrace sites -a" and "hooks" on the newest kernel
(--new-suite, sid's 7.2: its graph fixture, in its chroot's crash); the
big fixture's boot in each dump format users send (QEMU's ELF and
kdump-zlib, makedumpfile -c/-l/-z -d 31 made by scripts/dumpformats.py):
raw read against "cat trace", the pages crash read from the dump per
sub-buffer (its "help -D" counters) and where a raw read's time goes
(perf, attached after crash's start-up); optionally a scenario on more
vCPUs (--cpus-scenario: cpus2, cpus8 and cpus32, one workload on 2, 8
and 32; big8, the big one on 8 vCPUs x 64 MB; --only-cpus for those
alone); and tracehunt-batch's sweep of the host
suite's 20 fixture dumps (dumps per minute, time to the first line of
"hooks" with and without the gdb-indexed vmlinux).  --no-main skips the
big fixture's own rows.

Results go to OUT/DATE-RELEASE.md with the date, kernel, machine (CPU
model, cores) and the load average before every session.  Nothing here is
asserted: the targets of issues 11 and 25 are printed next to the figures.
"""
import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import fixture  # noqa: E402
import dumpformats  # noqa: E402


def loadavg():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


class Session:
    """One crash process: extend, one command, peak RSS."""

    def __init__(self, manifest, so, tmp, vmlinux=None):
        self.m = manifest
        self.so = so
        self.tmp = tmp
        self.vmlinux = vmlinux or manifest["vmlinux"]
        # another suite's crash runs in its chroot, with the files it
        # needs at the same paths (fixture.Suite.argv)
        self.suite = fixture.Suite(manifest.get("crash_suite") or
                                   manifest["suite"])
        self.flags = []
        self.env = None      # crash's environment when not ours

    def argv(self, args):
        binds = [os.path.dirname(self.so), os.path.dirname(self.vmlinux),
                 os.path.dirname(self.m["vmcore"]), self.tmp]
        return self.suite.argv(["crash"] + self.flags + list(args), binds)

    def start(self, cmds, **kw):
        """crash on the dump with the command file CMDS (Popen)."""
        return subprocess.Popen(self.argv(["-s", self.vmlinux,
                                           self.m["vmcore"], "-i", cmds]),
                                stdin=subprocess.DEVNULL, env=self.env,
                                **kw)

    def run(self, cmd, out="/dev/null", repeat=1):
        """Times of CMD run REPEAT times in one session (the first pays
        for the one-time debuginfo lookups, the others do not)."""
        d = tempfile.mkdtemp(dir=self.tmp)
        ts = os.path.join(d, "t")
        # the wall clock and crash's own CPU time (schedstat: ns on CPU),
        # a line each
        stamp = ('!echo $(date +%%s.%%N) $(cut -d" " -f1 '
                 '/proc/$PPID/schedstat) >> %s' % ts)
        lines = [stamp, "extend %s" % self.so, stamp, stamp, stamp]
        for i in range(repeat if cmd else 1):
            if cmd:
                lines.append("%s > %s" % (cmd, out))
            lines.append(stamp)
        lines.append("!grep VmHWM /proc/$PPID/status > %s/hwm" % d)
        with open(os.path.join(d, "cmds"), "w") as f:
            f.write("\n".join(lines) + "\n")
        la = loadavg()
        p = self.start(os.path.join(d, "cmds"), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, errors="replace")
        p.stdout, p.stderr = p.communicate()
        # crash 9.0.2 dies in its module_init() on 7.x ("invalid
        # structure member offset: module_num_gpl_syms"): without its
        # module support (as tests/thlib.py opens them)
        if "module_num_gpl_syms" in p.stdout + p.stderr and \
                "--no_modules" not in self.flags:
            self.flags.append("--no_modules")
            return self.run(cmd, out, repeat)
        try:
            with open(ts) as f:
                rows = [l.split() for l in f.read().splitlines()]
            t = [float(r[0]) for r in rows]
            c = [int(r[1]) / 1e9 for r in rows]
            with open(os.path.join(d, "hwm")) as f:
                hwm = int(f.read().split()[1])
        except (OSError, ValueError, IndexError):
            raise SystemExit("bench: crash session failed (%d):\n%s\n%s"
                             % (p.returncode, p.stdout[-2000:],
                                p.stderr[-2000:]))
        if len(t) != 4 + (repeat if cmd else 1) or \
                "shared object loaded" not in p.stdout:
            raise SystemExit("bench: the extension did not load:\n%s"
                             % p.stdout[-2000:])
        # one "!date" and crash's turn-around: the faster of two
        escape = min(t[2] - t[1], t[3] - t[2])
        cmds = [max(0.0, t[i + 1] - t[i] - escape)
                for i in range(3, len(t) - 1)]
        cescape = min(c[2] - c[1], c[3] - c[2])
        cpus = [max(0.0, c[i + 1] - c[i] - cescape)
                for i in range(3, len(c) - 1)]
        return {"load": max(0.0, t[1] - t[0] - escape),
                "cmd": cmds[0], "again": cmds[1:], "cpu": cpus[0],
                "hwm_kb": hwm, "loadavg": la}

    def blocks(self, cmds, n, rounds=3):
        """Seconds a command of CMDS takes, each the median over ROUNDS
        blocks of N runs in one session, stamped around the block only:
        a command of a few ms is measured to well under a stamp's noise
        (the first run of each, which pays the debuginfo look-ups, is not
        timed)."""
        d = tempfile.mkdtemp(dir=self.tmp)
        ts = os.path.join(d, "t")
        stamp = "!echo $(date +%%s.%%N) >> %s" % ts
        lines = ["extend %s" % self.so] + \
            ["%s > /dev/null" % c for c in cmds] + [stamp, stamp]
        for i in range(rounds):
            for c in cmds:
                lines += ["%s > /dev/null" % c] * n + [stamp]
        with open(os.path.join(d, "cmds"), "w") as f:
            f.write("\n".join(lines) + "\n")
        p = self.start(os.path.join(d, "cmds"), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, errors="replace")
        p.communicate()
        try:
            with open(ts) as f:
                t = [float(l.split()[0]) for l in f.read().splitlines()]
        except (OSError, ValueError, IndexError):
            t = []
        if len(t) != 2 + rounds * len(cmds):
            raise SystemExit("bench: the block session failed (%s)" % cmds)
        escape = t[1] - t[0]
        per = [max(0.0, t[i + 1] - t[i] - escape) / n
               for i in range(1, len(t) - 1)]
        return [med(per[j::len(cmds)]) for j in range(len(cmds))]


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def summarize(cmd, rs, note=""):
    # the median of a run's repeats after its first command (a command of
    # a few ms is within the shell stamps' noise once)
    again = [med(r["again"]) for r in rs if r["again"]]
    return {"cmd": cmd, "runs": len(rs), "note": note,
            "t": med([r["cmd"] for r in rs]),
            "tmin": min(r["cmd"] for r in rs),
            "tmax": max(r["cmd"] for r in rs),
            "cpu": med([r["cpu"] for r in rs]),
            "again": med(again) if again else None,
            "again_min": min(again) if again else None,
            "again_max": max(again) if again else None,
            "load": [r["load"] for r in rs],
            "hwm_kb": med([r["hwm_kb"] for r in rs]),
            "loadavg": [r["loadavg"] for r in rs]}


def run1(sess, cmd, out, repeat, i, runs):
    r = sess.run(cmd, out, repeat)
    print("bench: %-28s run %d/%d: %.3f s (CPU %.3f s)%s (load %.3f s, "
          "HWM %d MB, loadavg %.2f)"
          % (cmd or "(no command)", i + 1, runs, r["cmd"], r["cpu"],
             "".join(", again %.3f s" % x for x in r["again"]),
             r["load"], r["hwm_kb"] >> 10, r["loadavg"]),
          file=sys.stderr, flush=True)
    return r


def measure(sess, cmd, runs, out="/dev/null", note="", repeat=1):
    return summarize(cmd, [run1(sess, cmd, out, repeat, i, runs)
                           for i in range(runs)], note)


def measure_pairs(sess, a, b, runs, repeat=1, sess_b=None):
    """A and B ((cmd, out, note) each) in alternate sessions (B's in SESS_B
    when given: two builds), so that both see the same drift of the
    machine; with the ratio B/A of each pair (first command, and again
    when REPEAT > 1)."""
    ra, rb = [], []
    for i in range(runs):
        ra.append(run1(sess, a[0], a[1], repeat, i, runs))
        rb.append(run1(sess_b or sess, b[0], b[1], repeat, i, runs))
    A, B = summarize(a[0], ra, a[2]), summarize(b[0], rb, b[2])
    B["pair_ratio"] = med([y["cmd"] / x["cmd"] for x, y in zip(ra, rb)
                           if x["cmd"] > 0])
    B["pair_ratio_cpu"] = med([y["cpu"] / x["cpu"] for x, y in zip(ra, rb)
                               if x["cpu"] > 0])
    B["pair_ratio_again"] = med([med(y["again"]) / med(x["again"])
                                 for x, y in zip(ra, rb)
                                 if x["again"] and y["again"] and
                                 med(x["again"]) > 0])
    return A, B


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--so", default=os.path.join(ROOT, "extensions",
                                                 "tracehunt.so"))
    ap.add_argument("--suite", default=fixture.host_suite())
    ap.add_argument("--variant", default="elf")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--big-runs", type=int, default=7,
                    help="pairs of sessions of the raw read and the full "
                    "'cat trace' of the big buffer, alternated")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results"))
    ap.add_argument("--against", metavar="OLD_SO",
                    help="also run 'ftrace cat trace' of the big buffer with "
                    "OLD_SO and this build in alternate sessions (--big-runs "
                    "pairs) and report the median of the pairs' ratios: a "
                    "change that must not cost speed (make bench "
                    "BENCH_ARGS=--against=...)")
    ap.add_argument("--note", default="",
                    help="said next to the extension in the results")
    ap.add_argument("--no-main", action="store_true",
                    help="skip the big fixture's rows (the sections "
                    "after them only)")
    ap.add_argument("--no-batch", action="store_true",
                    help="skip tracehunt-batch's sweep of the host suite's "
                    "20 fixture dumps")
    ap.add_argument("--new-suite", default="sid",
                    help="the suite of the newest kernel (7.2: 119k "
                    "functions): 'ftrace sites -a' and 'hooks' on its "
                    "graph fixture, every call site patched ('': none)")
    ap.add_argument("--subbuf-suite", default="sid",
                    help="the suite of the bench-only 'bigsub' fixture "
                    "(32 MB a CPU in 64 KB sub-buffers, kernels since "
                    "6.8): the sub-buffers 'ftrace trace -n' reads grow "
                    "with N, not with the buffer ('': none)")
    ap.add_argument("--only-subbuf", action="store_true",
                    help="run the 'bigsub' section alone, results in "
                    "their own file")
    ap.add_argument("--cpus-scenario", default="",
                    help="scenarios on more vCPUs, space-separated "
                    "(cpus2 cpus8 cpus32: one workload on 2, 8 and 32; "
                    "big8: the big one on 8 vCPUs x 64 MB): raw read, cat "
                    "trace and trace -n 50 of each, the decoding cost per "
                    "entry beside cpus2's (the cpus ones) or the big "
                    "fixture's")
    ap.add_argument("--only-cpus", action="store_true",
                    help="only the --cpus-scenario sections, in a results "
                    "file of their own (the big fixture's rows not run)")
    ap.add_argument("--tree-suites", default="bookworm sid",
                    help="suites whose options (census) fixture times one "
                    "session's 'ftrace dump -d DIR -a' (issue 22: the "
                    "whole tree under 60 s); '' skips it")
    ap.add_argument("--only-tree", action="store_true",
                    help="only the whole-tree section (--tree-suites), in "
                    "a results file of its own")
    ap.add_argument("--format-runs", type=int, default=3,
                    help="pairs of sessions (raw read, cat trace) on each "
                    "dump format of the big fixture's boot (0: none)")
    ap.add_argument("--timeout", type=int, default=3600,
                    help="seconds for the big fixture's guest")
    a = ap.parse_args()
    so = os.path.abspath(a.so)
    if not os.path.exists(so):
        ap.error("no extension at %s (make first)" % so)

    t_start = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    rev = git_rev()
    la_start = open("/proc/loadavg").read().split()[:3]
    if a.only_subbuf:
        return main_subbuf(a, t_start, la_start)
    if a.only_tree:
        return main_tree(a, t_start, la_start)
    if a.only_cpus:
        return main_cpus(a, so, t_start, la_start)
    big_dir = fixture.build(a.suite, "big", a.variant, timeout=a.timeout)
    small_dir = fixture.build(a.suite, "events", a.variant)
    # function_graph on every function: every call site patched, the
    # longest "-j" document (ftrace sites -j: tens of MB)
    graph_dir = fixture.build(a.suite, "graph", a.variant)
    with open(os.path.join(big_dir, "manifest.json")) as f:
        big_m = json.load(f)
    with open(os.path.join(small_dir, "manifest.json")) as f:
        small_m = json.load(f)
    with open(os.path.join(graph_dir, "manifest.json")) as f:
        graph_m = json.load(f)
    # The live header of the big buffer: its entry count.
    with open(os.path.join(big_dir, "truth", "tracing",
                           "trace.head"), "rb") as f:
        head = f.read()
    m = re.search(rb"entries-in-buffer/entries-written: (\d+)/(\d+)", head)
    entries = int(m.group(1)) if m else 0

    tmp = tempfile.mkdtemp(prefix="th-bench-")
    big = Session(big_m, so, tmp)
    small = Session(small_m, so, tmp)
    R = {}
    subbufs = nbytes = nsites = 0
    sitesj_mb = 0.0
    if not a.no_main:
        R["noop"] = measure(big, None, a.runs, note="crash + extend, no command")
        rawout = os.path.join(tmp, "raw.out")
        # the raw read and cat trace in alternate sessions (a.big_runs pairs)
        R["raw"], R["cat"] = measure_pairs(
            big, ("ftrace trace -R", rawout,
                  "every sub-buffer read, nothing decoded"),
            ("ftrace cat trace", "/dev/null",
             "the whole buffer decoded and printed"), a.big_runs, repeat=2)
        with open(rawout) as f:
            mm = re.search(r"total: (\d+) sub-buffers read, (\d+) bytes", f.read())
        subbufs, nbytes = (int(mm.group(1)), int(mm.group(2))) if mm else (0, 0)
        R["n50big"] = measure(big, "ftrace trace -n 50", a.runs,
                              note="big buffer", repeat=2)
        R["n50small"] = measure(small, "ftrace trace -n 50", a.runs,
                                note="small buffer (events)", repeat=2)
        # The same with the vmlinux copy that has a .gdb_index section (made by
        # gdb-add-index; the tests make it, tests/thlib.py): gdb's symbol
        # searches, most of a first command's time, go through the index.
        indexed = big_m["vmlinux"] + ".indexed"
        if os.path.exists(indexed):
            R["n50idx"] = measure(Session(big_m, so, tmp, indexed),
                                  "ftrace trace -n 50", a.runs,
                                  note="big buffer, gdb-indexed vmlinux",
                                  repeat=2)
        sitesout = os.path.join(tmp, "sites.out")
        R["sites"] = measure(big, "ftrace sites -a", a.runs, out=sitesout,
                             note="every dyn_ftrace record")
        nsites = count_sites(sitesout)
        R["hooks"] = measure(big, "hooks", a.runs)
        sitesj = os.path.join(tmp, "sitesj.out")
        R["sitesj"] = measure(Session(graph_m, so, tmp), "ftrace sites -j",
                              a.runs, out=sitesj,
                              note="function_graph: every site patched")
        sitesj_mb = os.path.getsize(sitesj) / 1e6
        if a.against:
            old = Session(big_m, os.path.abspath(a.against), tmp)
            R["old_cat"], R["new_cat"] = measure_pairs(
                old, ("ftrace cat trace", "/dev/null", "the old build"),
                ("ftrace cat trace", "/dev/null", "this build"), a.big_runs,
                repeat=2, sess_b=big)
    C = [bench_cpus(a, so, tmp, sc) for sc in a.cpus_scenario.split()]
    N = bench_new_suite(a, tmp) if a.new_suite else None
    S = bench_subbuf(a, tmp) if a.subbuf_suite else None
    F = bench_formats(a, big_m, so, tmp, R) if a.format_runs else None
    T = bench_tree(a, tmp) if a.tree_suites.split() else None
    B = None if a.no_batch else bench_batch(a.suite, so, tmp, a.runs)
    la_end = open("/proc/loadavg").read().split()[:3]
    # the measurements themselves, whatever happens to the writing below
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, ".last-run.json"), "w") as f:
        json.dump({"R": R, "C": C, "N": N, "S": S, "F": F, "B": B, "T": T}, f,
                  default=str)
    import shutil
    shutil.rmtree(tmp, ignore_errors=True)

    if not a.no_main:
        load_ms = med([x for r in R.values() for x in r["load"]]) * 1000
        cat, raw = R["cat"]["t"], R["raw"]["t"]
        base_hwm = R["noop"]["hwm_kb"]
    lines = []
    w = lines.append
    w("# tracehunt bench %s" % t_start)
    w("")
    w("- kernel: %s (%s), dump: %s (%s variant), crash %s"
      % (big_m["release"], big_m["suite"], big_m["dump_format"],
         big_m["variant"], big_m["crash_version"]))
    w("- machine: %s, %d cores, load average at start %s, at end %s"
      % (cpu_model(), os.cpu_count(), " ".join(la_start), " ".join(la_end)))
    w("- extension: %s (git %s)%s" % (os.path.relpath(so, ROOT) if
                                      so.startswith(ROOT) else so, rev,
                                      " " + a.note if a.note else ""))
    def row(name, r, target=""):
        w("| %s | %d | %.3f | [%.3f-%.3f] | %s | %s | %.3f |"
          % (name, r["runs"], r["t"], r["tmin"], r["tmax"], target,
             " ".join("%.1f" % x for x in r["loadavg"]), r["cpu"]))
    def row2(name, r, target=""):
        w("| %s | %d | %.3f | [%.3f-%.3f] | %s | (same sessions) | |"
          % (name, r["runs"], r["again"], r["again_min"], r["again_max"],
             target))
    if not a.no_main:
        w("- big buffer: %d entries in %d sub-buffers, %.1f MB committed"
          % (entries, subbufs, nbytes / 1e6))
        w("- times: median of N crash sessions, each running one command with "
          "its output to /dev/null; the extension's time inside crash (a bare "
          "\"!date\" escape subtracted); min-max in brackets; loadavg = the "
          "1-minute load average before each session; \"first command\" "
          "includes the session's one-time debuginfo lookups through gdb "
          "(types, enums), \"again\" is the same command repeated in the same "
          "session; CPU s = median CPU time of the crash process over the "
          "same span (information: less sensitive to the machine's load)")
        w("")
        w("| measurement | N | median s | [min-max] | target | loadavg | CPU s |")
        w("|---|---|---|---|---|---|---|")

        w("| extension load (`extend`) | %d | %.3f | | < 0.050 | | |"
          % (sum(r["runs"] for r in R.values()), load_ms / 1000))
        row("`ftrace trace -R` (raw sub-buffer read), first command", R["raw"])
        row2("`ftrace trace -R`, again", R["raw"])
        row("`ftrace cat trace` (big), first command", R["cat"],
            "< 2x raw = %.3f" % (2 * raw))
        row2("`ftrace cat trace` (big), again", R["cat"],
             "< 2x raw again = %.3f" % (2 * R["raw"]["again"]))
        row("`ftrace trace -n 50` (big, %.0f MB), first command"
            % (nbytes / 1e6), R["n50big"], "< 0.2, = small")
        row2("`ftrace trace -n 50` (big), again", R["n50big"], "< 0.2, = small")
        row("`ftrace trace -n 50` (small: events), first command",
            R["n50small"], "< 0.2")
        row2("`ftrace trace -n 50` (small), again", R["n50small"], "< 0.2")
        if "n50idx" in R:
            row("`ftrace trace -n 50` (big), first command, vmlinux with "
                "a .gdb_index", R["n50idx"], "(information)")
        row("`ftrace sites -a` (%d records)" % nsites, R["sites"], "< 1")
        row("`hooks`", R["hooks"], "< 5")
        row("`ftrace sites -j` (graph dump, every site patched: %.0f MB of "
            "JSON)" % sitesj_mb, R["sitesj"], "< 2")
        w("")
        w("- `cat trace`: %.0f events/s, %.1f MB/s of buffer; %.1fx the raw "
          "read (%.1f MB/s); in CPU time %.1fx (%.3f s / %.3f s)"
          % (entries / cat if cat else 0, nbytes / 1e6 / cat if cat else 0,
             cat / raw if raw else 0, nbytes / 1e6 / raw if raw else 0,
             R["cat"]["cpu"] / R["raw"]["cpu"] if R["raw"]["cpu"] else 0,
             R["cat"]["cpu"], R["raw"]["cpu"]))
        w("- the same, repeated in the session (gdb's type and enumerator "
          "lookups, the first command's one-time cost, already done): "
          "%.1fx (%.3f s / %.3f s)"
          % (R["cat"]["again"] / R["raw"]["again"] if R["raw"]["again"]
             else 0, R["cat"]["again"], R["raw"]["again"]))
        w("- `cat trace` / raw read, median of the ratios of the %d pairs of "
          "sessions run one after the other: first command %.2fx (CPU %.2fx), "
          "again %.2fx" % (R["cat"]["runs"], R["cat"]["pair_ratio"],
                           R["cat"]["pair_ratio_cpu"],
                           R["cat"]["pair_ratio_again"]))
        w("- crash peak RSS (VmHWM, median): %d MB with the extension loaded "
          "and idle; with the command:" % (base_hwm >> 10))
        for k in ("raw", "cat", "n50big", "n50small", "sites", "hooks"):
            if k not in R:
                continue
            w("  - `%s`%s: %d MB (%+d MB)"
              % (R[k]["cmd"], " (%s)" % R[k]["note"] if k.startswith("n50")
                 else "", R[k]["hwm_kb"] >> 10,
                 (R[k]["hwm_kb"] - base_hwm) >> 10))
        if a.against:
            o, n = R["old_cat"], R["new_cat"]
            w("- against %s: `ftrace cat trace` (big) in %d alternated pairs of "
              "sessions, this build / that one, median of the pairs' ratios: "
              "first command %.3f (CPU %.3f), again %.3f; medians %.3f s / "
              "%.3f s, again %.3f s / %.3f s"
              % (a.against, n["runs"], n["pair_ratio"], n["pair_ratio_cpu"],
                 n["pair_ratio_again"], n["t"], o["t"], n["again"], o["again"]))
    write_cpus_all(w, C, R, entries, row, row2)
    if N:
        w("")
        w("## %s (%s, %s dump of the graph fixture: every call site "
          "patched; crash %s)" % (N["release"], N["suite"], N["variant"],
                                 N["crash"]))
        w("")
        w("| measurement | N | median s | [min-max] | target | loadavg | "
          "CPU s |")
        w("|---|---|---|---|---|---|---|")
        row("`ftrace sites -a` (%d records), first command" % N["nsites"],
            N["sites"], "< 1")
        row2("`ftrace sites -a`, again", N["sites"], "< 1")
        row("`hooks`, first command", N["hooks"], "< 1")
        row2("`hooks`, again", N["hooks"], "< 1")
        w("")
        w("- crash peak RSS (VmHWM, median): `ftrace sites -a` %d MB, "
          "`hooks` %d MB" % (int(N["sites"]["hwm_kb"]) >> 10,
                             int(N["hooks"]["hwm_kb"]) >> 10))
    if S:
        write_subbuf(w, S, row, row2)
    if F:
        write_formats(w, F, subbufs or F["subbufs"])
    if T:
        write_tree(w, T, row)
    if B:
        w("- tracehunt-batch (`hooks -j` + `ftrace -j`, one crash session "
          "per dump, GNU parallel on %d cores): %d dumps (every scenario "
          "and variant of %s) in %.0f s: %.1f dumps per minute, %d with "
          "errors; making the gdb-indexed vmlinux copy and sweeping the "
          "first dump took %.0f s, once per kernel"
          % (os.cpu_count(), B["dumps"], a.suite, B["sweep"],
             60 * B["dumps"] / B["sweep"] if B["sweep"] else 0, B["errors"],
             B["first_index"]))
        if B["plain"] and all(B["plain"]) and B["fast"] and all(B["fast"]):
            w("- from `crash` start to the first line of `hooks` (median "
              "of %d): %.1f s with the vmlinux as shipped, %.1f s with "
              "the gdb-indexed copy" % (len(B["plain"]), med(B["plain"]),
                                        med(B["fast"])))
    text = "\n".join(lines) + "\n"
    print(text)
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, "%s-%s.md" % (time.strftime(
        "%Y%m%dT%H%M", time.gmtime()), big_m["release"]))
    with open(path, "w") as f:
        f.write(text)
    print("bench: results in %s" % os.path.relpath(path, ROOT))
    return 0

def trace_entries(fixture_dir):
    """entries-in-buffer of the live trace's header (the truth)."""
    for name in ("trace.head", "trace"):
        try:
            with open(os.path.join(fixture_dir, "truth", "tracing",
                                   name), "rb") as f:
                m = re.search(rb"entries-in-buffer/entries-written: "
                              rb"(\d+)/(\d+)\s+#P:(\d+)", f.read(4096))
        except OSError:
            continue
        if m:
            return int(m.group(1)), int(m.group(3))
    return 0, 0


def bench_cpus(a, so, tmp, scenario):
    """A workload on more vCPUs (issue 25: the decoding cost per entry
    should not grow with the CPUs; trace -n 50 stays fast)."""
    d = fixture.build(a.suite, scenario, a.variant, timeout=a.timeout)
    with open(os.path.join(d, "manifest.json")) as f:
        m = json.load(f)
    sess = Session(m, so, tmp)
    rawout = os.path.join(tmp, "raw.cpus")
    r = {"scenario": scenario, "smp": m.get("smp"),
         "boot": m.get("boot_seconds"), "release": m.get("release")}
    r["entries"], r["ncpus"] = trace_entries(d)
    r["raw"], r["cat"] = measure_pairs(
        sess, ("ftrace trace -R", rawout, "raw"),
        ("ftrace cat trace", "/dev/null", "cat"), a.format_runs or 3,
        repeat=5)
    with open(rawout) as f:
        mm = re.search(r"total: (\d+) sub-buffers read, (\d+) bytes",
                       f.read())
    r["subbufs"], r["bytes"] = (int(mm.group(1)), int(mm.group(2))) \
        if mm else (0, 0)
    # decoding per entry: blocks of runs long enough (~0.5 s) that the
    # stamps' few ms do not count
    n = max(1, min(200, int(0.5 / max(r["cat"]["again"] or 0.005,
                                      0.0025))))
    # in 3 sessions: on this VM a whole session can run up to half again
    # slower than the next, in stretches of time (the machine, not the
    # code: the profile keeps its shape); the fastest session is the
    # code's cost, the median what a user may see
    pes = []
    for i in range(3):
        tr, tc = sess.blocks(["ftrace trace -R", "ftrace cat trace"], n)
        pes.append(((tc - tr) / r["entries"] * 1e9 if r["entries"] else 0,
                    tr, tc))
    pes.sort()
    r["block"] = {"n": n, "raw": pes[0][1], "cat": pes[0][2],
                  "pe": pes[0][0], "pe_med": pes[1][0],
                  "pe_all": [p[0] for p in pes]}
    # the same with the helper thread asked for (TRACEHUNT_HELPER=1:
    # not the default yet, src/render/trace_helper.c): the lines made on
    # a second CPU, the wait for all the work
    one = Session(m, so, tmp)
    one.env = dict(os.environ, TRACEHUNT_HELPER="1")
    pes1 = []
    for i in range(3):
        tr, tc = one.blocks(["ftrace trace -R", "ftrace cat trace"], n)
        pes1.append((tc - tr) / r["entries"] * 1e9 if r["entries"] else 0)
    pes1.sort()
    r["block"]["pe1"], r["block"]["pe1_med"] = pes1[0], pes1[1]
    r["n50"] = measure(sess, "ftrace trace -n 50", a.runs, repeat=2)
    # the same first commands with every type look-up asked of gdb, as
    # before the vmlinux BTF answered them (src/model/btf_types.h)
    gdb = Session(m, so, tmp)
    gdb.env = dict(os.environ, TRACEHUNT_NOBTF="1")
    r["cat_gdb"], r["n50_gdb"] = (
        measure(gdb, c, a.format_runs or 3, repeat=2) for c in
        ("ftrace cat trace", "ftrace trace -n 50"))
    r["noop"] = measure(sess, None, 1)
    r["lookups"] = [(c, lookup_cost(sess, c, tmp)) for c in
                    ("ftrace trace -R", "ftrace cat trace",
                     "ftrace trace -n 50")]
    return r


def write_cpus_all(w, Cs, R, entries, row, row2):
    """Each --cpus-scenario section; a "cpus" one is compared per entry
    with cpus2 (the same workload on 2 vCPUs) when that was measured, the
    others with the big fixture (R)."""
    base = next((c for c in Cs if c["scenario"] == "cpus2"), None)
    for C in Cs:
        if C["scenario"].startswith("cpus") and base and C is not base:
            write_cpus(w, C, {"cat": base["cat"], "raw": base["raw"],
                              "block": base.get("block")},
                       base["entries"], row, row2,
                       "%s (the same workload on %d)" % (base["scenario"],
                                                         base["ncpus"]))
        else:
            write_cpus(w, C, R, entries, row, row2)


def main_cpus(a, so, t_start, la_start):
    """--only-cpus: the --cpus-scenario sections alone, in their own
    results file."""
    tmp = tempfile.mkdtemp(prefix="th-bench-")
    try:
        Cs = [bench_cpus(a, so, tmp, sc) for sc in a.cpus_scenario.split()]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    _write_alone(a, t_start, la_start, "the vCPU sections", "cpus",
                 lambda w, row, row2: write_cpus_all(w, Cs, {}, 0, row,
                                                     row2))


def write_cpus(w, C, R, entries, row, row2, base_name="the big fixture"):
    w("")
    w("## %d vCPUs (%s on %s: %d entries, %d sub-buffers, "
      "%.0f MB; its TCG boot took %s s)"
      % (C["ncpus"], C["scenario"], C["release"], C["entries"],
         C["subbufs"], C["bytes"] / 1e6, C["boot"]))
    w("")
    w("| measurement | N | median s | [min-max] | target | loadavg | "
      "CPU s |")
    w("|---|---|---|---|---|---|---|")
    row("`ftrace trace -R`, first command", C["raw"])
    row2("`ftrace trace -R`, again", C["raw"])
    row("`ftrace cat trace`, first command", C["cat"],
        "< 2x raw = %.3f" % (2 * C["raw"]["t"]))
    row2("`ftrace cat trace`, again", C["cat"],
         "< 2x raw again = %.3f" % (2 * C["raw"]["again"]))
    row("`ftrace trace -n 50`, first command", C["n50"], "< 0.2")
    row2("`ftrace trace -n 50`, again", C["n50"], "< 0.2")
    if C.get("cat_gdb"):
        row("`ftrace cat trace`, first command, every type look-up by "
            "gdb (TRACEHUNT_NOBTF=1)", C["cat_gdb"])
        row("`ftrace trace -n 50`, first command, the same",
            C["n50_gdb"], "< 0.2")
    w("")
    w("- `cat trace` / raw read, median of the pairs' ratios: first "
      "command %.2fx (CPU %.2fx), again %.2fx"
      % (C["cat"]["pair_ratio"], C["cat"]["pair_ratio_cpu"],
         C["cat"]["pair_ratio_again"]))
    if C.get("lookups"):
        w("- the first command's debuginfo look-ups the vmlinux BTF left "
          "to gdb (TRACEHUNT_LOOKUPLOG, one session each): " + "; ".join(
              "`%s` %d in %.3f s" % (c, n, t) for c, (n, t) in
              C["lookups"]))

    def per_entry(X, n, key="pe"):
        if X.get("block"):
            return X["block"][key]
        return (X["cat"]["again"] - X["raw"]["again"]) / n * 1e9 if n \
            else 0
    mine = per_entry(C, C["entries"])
    B = C.get("block")
    how = ("`cat trace` minus the raw read, each timed in blocks of %d "
           "runs (median of 3 blocks) in 3 sessions, over the entries; "
           "the fastest session: %.1f - %.1f ms; all three: %s ns"
           % (B["n"], B["cat"] * 1e3, B["raw"] * 1e3,
              "/".join("%.0f" % x for x in B["pe_all"]))) if B else \
        "`cat trace` minus the raw read, again in the session, over the " \
        "entries"
    if "cat" in R and entries:
        base = per_entry(R, entries)
        w("- decoding per entry (%s): %.0f ns on %d vCPUs, %.0f ns "
          "on %s: %+.0f%% (goal: at most +20%%)"
          % (how, mine, C["ncpus"], base, base_name,
             100 * (mine / base - 1) if base else 0))
        if B and R.get("block"):
            m, b = B["pe_med"], R["block"]["pe_med"]
            w("- the same with the median session: %.0f ns, %.0f ns on "
              "%s: %+.0f%%" % (m, b, base_name,
                               100 * (m / b - 1) if b else 0))
        if B and "pe1" in B and R.get("block") and "pe1" in R["block"]:
            m, b = B["pe1"], R["block"]["pe1"]
            w("- the same with the helper thread (TRACEHUNT_HELPER=1: "
              "the lines made on a second CPU; not the default), fastest "
              "session: %.0f ns, %.0f ns on %s: %+.0f%%; median session "
              "%.0f ns, %.0f ns"
              % (m, b, base_name, 100 * (m / b - 1) if b else 0,
                 B["pe1_med"], R["block"]["pe1_med"]))
    else:
        w("- decoding per entry (%s): %.0f ns" % (how, mine))
    w("- crash peak RSS: %d MB idle, %d MB after `cat trace` (%+d MB)"
      % (int(C["noop"]["hwm_kb"]) >> 10, int(C["cat"]["hwm_kb"]) >> 10,
         int(C["cat"]["hwm_kb"] - C["noop"]["hwm_kb"]) >> 10))


def count_sites(path):
    """The records "ftrace sites -a" listed: its last line says how many
    ("N records, ..."), else its lines."""
    with open(path) as f:
        lines = [l for l in f if l.strip() and not l.startswith("#")]
    m = re.match(r"(\d+) records,", lines[-1]) if lines else None
    return int(m.group(1)) if m else len(lines)


def so_for(suite):
    """The extension built against the defs.h of SUITE's crash (in its
    chroot), as tests/thlib.py builds it: build/SUITE/tracehunt.so."""
    cs = fixture.Suite(suite)
    cs.ensure()
    so = os.path.join(ROOT, "build", cs.name, "tracehunt.so")
    p = subprocess.run(["make", "-s", "CRASH_INCLUDE=" +
                        cs.path("/usr/include/crash"),
                        "BUILD=" + os.path.dirname(so), "SO=" + so, so],
                       cwd=ROOT, capture_output=True, text=True)
    if p.returncode:
        raise SystemExit("bench: building the extension against %s's "
                         "crash failed:\n%s" % (suite, p.stderr[-3000:]))
    return so


def bench_new_suite(a, tmp):
    """ftrace sites -a and hooks on the newest kernel (issue 25: under 1 s
    each on 7.2's 119k functions)."""
    d = fixture.build(a.new_suite, "graph", a.variant, timeout=a.timeout)
    with open(os.path.join(d, "manifest.json")) as f:
        m = json.load(f)
    sess = Session(m, so_for(m.get("crash_suite") or m["suite"]), tmp)
    out = os.path.join(tmp, "sites7.out")
    r = {"suite": m["suite"], "release": m["release"],
         "variant": m["variant"], "crash": m["crash_version"]}
    r["sites"] = measure(sess, "ftrace sites -a", a.runs, out=out,
                         note="every dyn_ftrace record", repeat=2)
    r["nsites"] = count_sites(out)
    r["hooks"] = measure(sess, "hooks", a.runs, repeat=2)
    return r


# ------------------------------------ the whole tracefs tree (22) ---
def bench_tree(a, tmp):
    """One session's "ftrace dump -d DIR -a" on the census fixture
    (options: every readable file of the guest's tracefs, instances and
    every event's files) of each suite of --tree-suites: the files written
    and the time (issue 22: 30,000+ files in under 60 s)."""
    out = []
    for suite in a.tree_suites.split():
        d = fixture.build(suite, "options", "kdump", timeout=a.timeout)
        with open(os.path.join(d, "manifest.json")) as f:
            m = json.load(f)
        sess = Session(m, so_for(m.get("crash_suite") or m["suite"]), tmp)
        tree = os.path.join(tmp, "tree-" + suite)
        rs = []
        files = 0
        for i in range(max(1, min(a.runs, 3))):
            shutil.rmtree(tree, ignore_errors=True)
            rs.append(run1(sess, "ftrace dump -d %s -a" % tree, "/dev/null",
                           1, i, max(1, min(a.runs, 3))))
            files = sum(len(fs) for _, _, fs in os.walk(tree))
        shutil.rmtree(tree, ignore_errors=True)
        out.append({"suite": m["suite"], "release": m["release"],
                    "crash": m["crash_version"], "files": files,
                    "r": summarize("ftrace dump -d DIR -a", rs)})
    return out


def write_tree(w, T, row):
    w("")
    w("## The whole tracefs tree in one session (`ftrace dump -d DIR -a`, "
      "the options fixture: a census of every readable file)")
    w("")
    w("| measurement | N | median s | [min-max] | target | loadavg | "
      "CPU s |")
    w("|---|---|---|---|---|---|---|")
    for t in T:
        row("%s (%s, crash %s): %d files written" % (
            t["release"], t["suite"], t["crash"], t["files"]), t["r"],
            "< 60")
    w("")
    w("- crash peak RSS (VmHWM, median): %s" % ", ".join(
        "%s %d MB" % (t["suite"], int(t["r"]["hwm_kb"]) >> 10) for t in T))


# ------------------------------------------- 64 KB sub-buffers (24) ---
# "ftrace trace -n N" on a 32 MB-a-CPU buffer of 64 KB sub-buffers: the
# data pages (sub-buffers) it reads from the dump, counted by the read log
# (TRACEHUNT_READLOG, src/model/plausible.c), grow with N, not with the
# buffer; each is read once however many passes the command makes.
SUBBUF_COUNTS = ("ftrace trace -n 1", "ftrace trace -n 50",
                 "ftrace trace -n 1000", "ftrace trace -n 10000",
                 "ftrace cat trace")


def logged_run(sess, cmd, tmp, var):
    """The lines of the log the extension writes to $VAR while CMD runs
    (one session: src/model/plausible.c's read log, types.c's look-ups);
    none when the extension had nothing to log (it opens the log at its
    first line)."""
    log = os.path.join(tmp, var.lower() + ".txt")
    if os.path.exists(log):
        os.unlink(log)
    os.environ[var] = log
    try:
        sess.run(cmd)
    finally:
        del os.environ[var]
    if not os.path.exists(log):
        return []
    with open(log) as f:
        return f.read().splitlines()


def data_pages_read(sess, cmd, tmp):
    """Sub-buffers CMD reads from the dump (one session, read log on)."""
    return sum(1 for l in logged_run(sess, cmd, tmp, "TRACEHUNT_READLOG")
               if l.rstrip().endswith(" buffer_data_page"))


def lookup_cost(sess, cmd, tmp):
    """(look-ups, seconds): the debuginfo look-ups of CMD as the first
    command of a session, which its type cache did not answer, and their
    time (TRACEHUNT_LOOKUPLOG, src/model/types.c): what the vmlinux
    BTF did not answer of a first command's fixed cost."""
    lines = logged_run(sess, cmd, tmp, "TRACEHUNT_LOOKUPLOG")
    return len(lines), sum(float(l.split()[0]) for l in lines) / 1e3


def bench_subbuf(a, tmp):
    d = fixture.build(a.subbuf_suite, "bigsub", "kdump", timeout=a.timeout)
    with open(os.path.join(d, "manifest.json")) as f:
        m = json.load(f)
    sess = Session(m, so_for(m.get("crash_suite") or m["suite"]), tmp)
    r = {"suite": m["suite"], "release": m["release"],
         "variant": m["variant"], "crash": m["crash_version"]}
    rawout = os.path.join(tmp, "rawsub.out")
    r["raw"] = measure(sess, "ftrace trace -R", a.runs, out=rawout,
                       repeat=2)
    with open(rawout) as f:
        mm = re.search(r"total: (\d+) sub-buffers read, (\d+) bytes",
                       f.read())
    r["subbufs"], r["bytes"] = (int(mm.group(1)), int(mm.group(2))) \
        if mm else (0, 0)
    r["cat"] = measure(sess, "ftrace cat trace", a.runs, repeat=2)
    r["n50"] = measure(sess, "ftrace trace -n 50", a.runs, repeat=2)
    r["pages"] = [(c, data_pages_read(sess, c, tmp)) for c in SUBBUF_COUNTS]
    return r


def write_subbuf(w, S, row, row2):
    w("")
    w("## 64 KB sub-buffers: %s (%s, %s dump of the bigsub fixture; "
      "crash %s)" % (S["release"], S["suite"], S["variant"], S["crash"]))
    w("")
    w("- %d sub-buffers, %.1f MB committed (`ftrace trace -R`)"
      % (S["subbufs"], S["bytes"] / 1e6))
    w("")
    w("| measurement | N | median s | [min-max] | target | loadavg | "
      "CPU s |")
    w("|---|---|---|---|---|---|---|")
    row("raw read (`ftrace trace -R`), first command", S["raw"])
    row2("raw read, again", S["raw"])
    row("`ftrace cat trace`, first command", S["cat"], "< 2x raw")
    row2("`ftrace cat trace`, again", S["cat"], "< 2x raw")
    row("`ftrace trace -n 50`, first command", S["n50"], "< 0.2")
    row2("`ftrace trace -n 50`, again", S["n50"], "< 0.2")
    w("")
    w("| command | sub-buffers read from the dump |")
    w("|---|---|")
    for c, n in S["pages"]:
        w("| `%s` | %d |" % (c, n))
    w("")
    w("- crash peak RSS (VmHWM, median): raw read %d MB, `cat trace` %d MB, "
      "`trace -n 50` %d MB" % (S["raw"]["hwm_kb"] >> 10,
                               S["cat"]["hwm_kb"] >> 10,
                               S["n50"]["hwm_kb"] >> 10))


def _write_alone(a, t_start, la_start, what, name, body):
    """One section in a results file of its own (--only-subbuf,
    --only-tree): BODY(w, row, row2) writes it; NAME goes in the file's
    name."""
    la_end = open("/proc/loadavg").read().split()[:3]
    lines = []
    w = lines.append

    def row(label, r, target=""):
        w("| %s | %d | %.3f | [%.3f-%.3f] | %s | %s | %.3f |"
          % (label, r["runs"], r["t"], r["tmin"], r["tmax"], target,
             " ".join("%.1f" % x for x in r["loadavg"]), r["cpu"]))

    def row2(label, r, target=""):
        w("| %s | %d | %.3f | [%.3f-%.3f] | %s | (same sessions) | |"
          % (label, r["runs"], r["again"], r["again_min"], r["again_max"],
             target))
    w("# tracehunt bench %s (%s alone)" % (t_start, what))
    w("")
    w("- machine: %s, %d cores, load average at start %s, at end %s"
      % (cpu_model(), os.cpu_count(), " ".join(la_start), " ".join(la_end)))
    w("- extension: git %s" % git_rev())
    body(w, row, row2)
    text = "\n".join(lines) + "\n"
    print(text)
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, "%s-%s.md" % (time.strftime(
        "%Y%m%dT%H%M", time.gmtime()), name))
    with open(path, "w") as f:
        f.write(text)
    print("bench: results in %s" % os.path.relpath(path, ROOT))


def main_subbuf(a, t_start, la_start):
    """--only-subbuf: the bigsub section alone, in its own results file."""
    tmp = tempfile.mkdtemp(prefix="th-bench-")
    try:
        S = bench_subbuf(a, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    _write_alone(a, t_start, la_start, "the 64 KB sub-buffer section",
                 "subbuf-" + S["release"],
                 lambda w, row, row2: write_subbuf(w, S, row, row2))


def main_tree(a, t_start, la_start):
    """--only-tree: the whole-tree section alone, in its own results
    file."""
    tmp = tempfile.mkdtemp(prefix="th-bench-")
    try:
        T = bench_tree(a, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    _write_alone(a, t_start, la_start, "the whole-tree section", "tree",
                 lambda w, row, row2: write_tree(w, T, row))


# ------------------------------------------------------ dump formats ---
# The big fixture's boot in the formats users send (issue 25): QEMU's ELF
# and kdump-zlib dumps (written from the same stopped guest), and
# makedumpfile's -c, -l and -z dumps of the ELF one (scripts/dumpformats.py).

# perf's symbols, sorted into where a raw read's time goes
DECOMPRESS = re.compile(r"^(inflate|adler32|crc32|zcalloc|zcfree|lzo1x|"
                        r"_?lzo|ZSTD_|HUF_|FSE_|BIT_|ZSTDv|snappy)")
SYSCALL_STUBS = {"read", "__libc_read", "llseek", "lseek", "lseek64",
                 "__lseek", "llseek@GLIBC_2.2.5", "pread", "pread64",
                 "__libc_pread", "__pread64"}
WHERE = [("decompression", "zlib/lzo/zstd, linked into crash or its "
          "libraries"),
         ("syscalls", "the kernel (read, lseek: crash reads each page's "
          "descriptor, then its data) and libc's stubs"),
         ("crash", "crash's own code: readmem, the 16-page cache's "
          "lookup, pfn_to_pos()'s bitmap count"),
         ("tracehunt", "the extension"),
         ("other", "everything else (libc's memcpy, malloc)")]


def where_of(dso, sym):
    if DECOMPRESS.match(sym) or re.match(r"lib(z|lzo2|zstd|snappy)\.so",
                                         dso):
        return "decompression"
    if dso.startswith("[kernel") or sym in SYSCALL_STUBS:
        return "syscalls"
    if dso == "tracehunt.so":
        return "tracehunt"
    if dso == "crash":
        return "crash"
    return "other"


def dd_counters(path):
    """crash's "help -D" counters of a compressed dump: (accesses,
    cached_reads), None for an ELF dump."""
    try:
        text = open(path).read()
    except OSError:
        return None
    a = re.search(r"^\s*accesses: (\d+)", text, re.M)
    c = re.search(r"^\s*cached_reads: (\d+)", text, re.M)
    return (int(a.group(1)), int(c.group(1))) if a and c else None


def profile_read(sess, so, tmp, reads=5):
    """One crash session on VMCORE: the raw read once (the first command's
    one-time lookups), then READS times under perf (attached after crash's
    start-up, when perf is installed) between two "help -D": the pages
    crash read from the dump per raw read (its cache's misses) and the
    share of perf's samples by WHERE."""
    d = tempfile.mkdtemp(dir=tmp)
    ready = os.path.join(d, "ready")
    lines = ["extend %s" % so, "ftrace trace -R > /dev/null",
             "!touch %s; sleep 2" % ready, "help -D > %s/d0" % d]
    lines += ["ftrace trace -R > /dev/null"] * reads
    lines += ["help -D > %s/d1" % d]
    with open(os.path.join(d, "cmds"), "w") as f:
        f.write("\n".join(lines) + "\n")
    p = sess.start(os.path.join(d, "cmds"), stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    perf = None
    while p.poll() is None and not os.path.exists(ready):
        time.sleep(0.05)
    data = os.path.join(d, "perf.data")
    if shutil.which("perf") and p.poll() is None:
        perf = subprocess.Popen(["perf", "record", "-q", "-F", "2000",
                                 "-o", data, "-p", str(p.pid)],
                                stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
    p.wait()
    r = {"misses": None, "accesses": None, "where": None}
    if perf:
        perf.wait()
        rep = subprocess.run(["perf", "report", "-i", data, "--stdio",
                              "--no-children", "--sort", "dso,sym"],
                             capture_output=True, text=True,
                             errors="replace").stdout
        where = {k: 0.0 for k, _ in WHERE}
        for line in rep.splitlines():
            mm = re.match(r"\s*([\d.]+)%\s+(\S+)\s+\[.\]\s+(\S+)", line)
            if mm:
                where[where_of(mm.group(2), mm.group(3))] += \
                    float(mm.group(1))
        if sum(where.values()) > 0:
            r["where"] = where
    c0 = dd_counters(os.path.join(d, "d0"))
    c1 = dd_counters(os.path.join(d, "d1"))
    if c0 and c1:
        acc = c1[0] - c0[0]
        r["accesses"] = acc / reads
        r["misses"] = (acc - (c1[1] - c0[1])) / reads
    return r


def bench_formats(a, big_m, so, tmp, R):
    elf_dir = fixture.build(a.suite, "big", "elf", timeout=a.timeout)
    kdump_dir = fixture.build(a.suite, "big", "kdump", timeout=a.timeout)
    made = dumpformats.derive(elf_dir)
    fmts = [("ELF (QEMU)", os.path.join(elf_dir, "vmcore"), "QEMU"),
            ("kdump-zlib, unfiltered (QEMU)",
             os.path.join(kdump_dir, "vmcore"), "QEMU")]
    for name, opt, _ in dumpformats.FORMATS:
        if name in made:
            fmts.append(("makedumpfile %s -d 31 (%s)" % (opt, name),
                         made[name], made["made"][name]))
    out = []
    subbufs = 0
    rawout = os.path.join(tmp, "raw.fmt")
    for name, path, by in fmts:
        sess = Session(dict(big_m, vmcore=path), so, tmp)
        if path == big_m["vmcore"] and "raw" in R:
            raw, cat = R["raw"], R["cat"]
        else:
            raw, cat = measure_pairs(
                sess, ("ftrace trace -R", rawout, name),
                ("ftrace cat trace", "/dev/null", name), a.format_runs,
                repeat=2)
            try:
                with open(rawout) as f:
                    mm = re.search(r"total: (\d+) sub-buffers read",
                                   f.read())
                subbufs = subbufs or (int(mm.group(1)) if mm else 0)
            except OSError:
                pass
        prof = profile_read(sess, so, tmp)
        out.append({"name": name, "by": by, "mb": os.path.getsize(path) /
                    1e6, "raw": raw, "cat": cat, **prof})
    against = None
    if a.against and "zlib" in made:
        # the read path's change against another build: the raw read of
        # the zlib dump, old and new in alternated sessions
        m = dict(big_m, vmcore=made["zlib"])
        o, n = measure_pairs(
            Session(m, os.path.abspath(a.against), tmp),
            ("ftrace trace -R", "/dev/null", "old"),
            ("ftrace trace -R", "/dev/null", "new"), a.format_runs,
            repeat=2, sess_b=Session(m, so, tmp))
        po = profile_read(Session(m, os.path.abspath(a.against), tmp),
                          os.path.abspath(a.against), tmp)
        against = {"old": o, "new": n, "old_misses": po["misses"],
                   "so": a.against}
    return {"formats": out, "subbufs": subbufs, "against": against,
            "missing": [n for n, _, _ in dumpformats.FORMATS
                        if n not in made]}


def a_name(A):
    return A.get("so", "the other build")


def write_formats(w, F, subbufs):
    w("")
    w("## Dump formats (the same boot: the big fixture)")
    w("")
    w("Pairs of sessions (raw read, `cat trace`) on each format; the "
      "pages crash read from the dump per raw read are the misses of its "
      "page cache (`help -D`: accesses - cached_reads), against the %d "
      "sub-buffers; where the time of a raw read goes: perf's samples of "
      "crash over 5 raw reads in one session, after its start-up." % subbufs)
    w("")
    w("| format | MB | made by | raw read s: first / again | `cat trace` "
      "s: first / again | cat / raw (median of the pairs): first / again "
      "| pages read from the dump per sub-buffer | %s |"
      % " / ".join(k for k, _ in WHERE))
    w("|---|---|---|---|---|---|---|---|")
    for f in F["formats"]:
        raw, cat = f["raw"], f["cat"]
        wh = f["where"]
        w("| %s | %.0f | %s | %.3f / %.3f | %.3f / %.3f | %.2fx / %.2fx | "
          "%s | %s |"
          % (f["name"], f["mb"], f["by"], raw["t"], raw["again"], cat["t"],
             cat["again"], cat["pair_ratio"], cat["pair_ratio_again"],
             "%.3f (%d accesses)" % (f["misses"] / subbufs, f["accesses"])
             if f["misses"] is not None and subbufs else "(not cached: "
             "read in place)",
             " / ".join("%.0f%%" % wh[k] for k, _ in WHERE) if wh else
             "(no perf)"))
    w("")
    for k, what in WHERE:
        w("- %s: %s" % (k, what))
    for f in F["formats"]:
        wh = f["where"]
        if not wh or not f["misses"] or not subbufs:
            continue
        dec = wh["decompression"] / 100 * f["raw"]["again"]
        once = dec * subbufs / f["misses"]
        w("- %s: decompression %.3f s of the %.3f s raw read (again); "
          "each sub-buffer's page decompressed once: %.3f s, the raw read "
          "%.1fx that" % (f["name"], dec, f["raw"]["again"], once,
                          f["raw"]["again"] / once if once else 0))
    for n in F["missing"]:
        w("- %s: no makedumpfile here with it" % n)
    A = F.get("against")
    if A:
        o, n = A["old"], A["new"]
        zl = [f for f in F["formats"] if "(zlib)" in f["name"]]
        w("- against %s, `ftrace trace -R` of the zlib dump in %d "
          "alternated pairs, this build / that one: first command %.3f, "
          "again %.3f (medians %.3f / %.3f s, again %.3f / %.3f s); pages "
          "read from the dump per sub-buffer %s (that build) -> %s"
          % (a_name(A), n["runs"], n["pair_ratio"], n["pair_ratio_again"],
             n["t"], o["t"], n["again"], o["again"],
             "%.3f" % (A["old_misses"] / subbufs) if A["old_misses"] and
             subbufs else "?",
             "%.3f" % (zl[0]["misses"] / subbufs) if zl and
             zl[0]["misses"] and subbufs else "?"))


BATCH_SCENARIOS = ["modules", "events", "graph", "live", "wrap"]
BATCH_VARIANTS = ["kdump", "elf", "filtered", "kaslr"]


def first_line_time(vmlinux, vmcore, so, tmp, marker=b"VERDICT"):
    """Seconds from crash's start to the first line of "hooks" (its
    header, MARKER) on its output."""
    cmds = os.path.join(tmp, "first.cmds")
    with open(cmds, "w") as f:
        f.write("extend %s\nhooks\nquit\n" % so)
    t0 = time.time()
    p = subprocess.Popen(["crash", "-s", vmlinux, vmcore, "-i", cmds],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         stdin=subprocess.DEVNULL)
    t = None
    for line in p.stdout:
        if t is None and marker in line:
            t = time.time() - t0
    p.wait()
    return t


def bench_batch(suite, so, tmp, runs):
    """tracehunt-batch on the host suite's fixtures (every scenario and
    variant: 20 dumps), and the time to the first line of hooks with the
    plain vmlinux and with tracehunt-batch's gdb-indexed copy."""
    pairs = []
    for scen in BATCH_SCENARIOS:
        for var in BATCH_VARIANTS:
            d = fixture.build(suite, scen, var)
            with open(os.path.join(d, "manifest.json")) as f:
                m = json.load(f)
            if not m.get("chroot"):
                pairs.append((m["vmlinux"], m["vmcore"]))
    lst = os.path.join(tmp, "pairs")
    with open(lst, "w") as f:
        f.writelines("%s %s\n" % p for p in pairs)
    cache = os.path.join(tmp, "batch-cache")
    out = os.path.join(tmp, "batch.jsonl")
    batch = [sys.executable, os.path.join(ROOT, "scripts", "tracehunt-batch"),
             "--so", so, "--cache", cache, "--pairs", lst, "-o", out]
    # the indexed copy is made once per kernel, before the timed sweep
    t0 = time.time()
    subprocess.run(batch[:-4] + [pairs[0][0], pairs[0][1]],
                   stdout=subprocess.DEVNULL)
    t_index = time.time() - t0
    t0 = time.time()
    subprocess.run(batch, stdout=subprocess.DEVNULL)
    t_sweep = time.time() - t0
    with open(out) as f:
        lines = [json.loads(l) for l in f]
    errors = sum(1 for l in lines if l["errors"])
    indexed = [os.path.join(cache, d, "vmlinux") for d in os.listdir(cache)]
    plain = [first_line_time(pairs[0][0], pairs[0][1], so, tmp)
             for _ in range(runs)]
    fast = [first_line_time(indexed[0], pairs[0][1], so, tmp)
            for _ in range(runs)] if indexed else []
    return {"dumps": len(lines), "errors": errors, "sweep": t_sweep,
            "first_index": t_index, "plain": plain, "fast": fast}


def git_rev():
    try:
        r = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short",
                            "HEAD"], capture_output=True, text=True)
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain",
                                "--untracked-files=no", "src", "lib"],
                               capture_output=True, text=True).stdout
        return r.stdout.strip() + ("+dirty" if dirty.strip() else "")
    except OSError:
        return "?"


if __name__ == "__main__":
    sys.exit(main())
