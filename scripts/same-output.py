#!/usr/bin/env python3
"""Byte-identity check for changes that must not change what users see
(a change of layout, a shared reader rewritten): every command the tests
run, plus "ftrace cat" of every file "ftrace ls" lists and the trees
"ftrace dump -d/-t" write, on every fixture in the cache, once with the
extension built from OLD and once from NEW; any byte of difference is
printed and the exit status is 1.

    scripts/same-output.py --old REV [--new DIR] [--suites bookworm,sid]
                           [--scenarios events,modules] [--variants kdump]

OLD is a git revision (checked out into a temporary worktree) or a
directory; NEW defaults to this working tree.  Each is built against the
defs.h of every crash that opens the selected dumps (the host's, or a
suite chroot's), in a build directory of its own.  Dumps run two at a
time (TRACEHUNT_JOBS).
"""

import argparse
import concurrent.futures
import filecmp
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

import fixture  # noqa: E402
import thlib  # noqa: E402

# Commands beyond Dump.commands(): the listings and trace options the
# tests exercise in sessions of their own.
MORE = ["ftrace trace -n 50", "ftrace trace -n 3 -c 0", "ftrace trace -R",
        "ftrace ops -v", "ftrace sites -a", "hooks -v", "ftrace tracers",
        "kprobes -v", "ftrace ls"]


def source_tree(spec, tmp):
    if os.path.isdir(spec):
        return os.path.abspath(spec)
    d = os.path.join(tmp, "src-" + spec.replace("/", "_"))
    subprocess.run(["git", "worktree", "add", "--detach", "-f", d, spec],
                   cwd=ROOT, check=True, capture_output=True)
    return d


def build(src, crash_suite, tmp, tag):
    cs = fixture.Suite(crash_suite)
    if not cs.host:
        cs.ensure()
    bdir = os.path.join(tmp, "build-%s-%s" % (tag, crash_suite))
    so = os.path.join(bdir, "tracehunt.so")
    args = ["make", "-s", "-j2", "BUILD=" + bdir, "SO=" + so, so]
    if not cs.host:
        args.append("CRASH_INCLUDE=" + cs.path("/usr/include/crash"))
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    p = subprocess.run(args, cwd=src, capture_output=True, text=True,
                       env=env)
    if p.returncode:
        sys.exit("building %s for %s failed:\n%s" % (src, crash_suite,
                                                      p.stderr[-3000:]))
    return so


def cached_dumps(suites, scenarios, variants):
    base = os.path.join(fixture.CACHE, "fixtures")
    for man in sorted(glob.glob(os.path.join(base, "*", "*", "*",
                                             "manifest.json"))):
        with open(man) as f:
            m = json.load(f)
        if suites and m["suite"] not in suites:
            continue
        if scenarios and m["scenario"] not in scenarios:
            continue
        if variants and m["variant"] not in variants:
            continue
        if not os.path.exists(m.get("vmcore", "")):
            continue
        yield os.path.dirname(man)


def session(dump, so, cmds, out):
    """Run CMDS; the files "dump" writes go under OUT, named in the
    commands as @OUT@."""
    os.makedirs(out, exist_ok=True)
    real = [c.replace("@OUT@", out) for c in cmds]
    res = dump.run(real, so=so)
    return {c: (res.get(r) or b"").replace(out.encode(), b"@OUT@")
            for c, r in zip(cmds, real)}


def tree_digest(d):
    got = {}
    for dp, _, fns in os.walk(d):
        for fn in fns:
            p = os.path.join(dp, fn)
            with open(p, "rb") as f:
                got[os.path.relpath(p, d)] = hashlib.sha256(
                    f.read()).hexdigest()
    return got


def compare(dirname, builds):
    dump = thlib.Dump(None, None, None, directory=dirname)
    cs = dump.crash_suite()
    cmds = [c for c in dump.commands() if "dump" not in c.split()[:2]]
    cmds += [c for c in MORE if c not in cmds]
    cmds += ["ftrace dump -d @OUT@/dir", "ftrace dump -t @OUT@/trace.dat"]
    problems = []
    outs = {}
    for tag, sos in builds.items():
        # (two hashes of one scenario may be cached: the fixture's own
        # directory names the output, not the dump's id)
        # (under thlib's scratch directory, which every crash session sees
        # at the same path: a suite's crash runs in its chroot)
        out = thlib.scratch_dir("same-output", "out-%s-%s" % (
            tag, hashlib.sha256(dirname.encode()).hexdigest()[:12]))
        try:
            first = session(dump, sos[cs], cmds, out)
            files = [l for l in (first.get("ftrace ls") or b"")
                     .decode(errors="replace").splitlines() if l]
            cats = ["ftrace cat " + f for f in files]
            cats = [c for c in cats if c not in first]
            if cats:
                first.update(session(dump, sos[cs], cats, out))
        except thlib.DumpError as e:
            first = {"<session>": str(e).encode()}
        outs[tag] = (first, out)
    (a, da), (b, db) = outs["old"], outs["new"]
    for c in sorted(set(a) | set(b)):
        if a.get(c) != b.get(c):
            problems.append("%s: %r differs: %s" % (
                dump.id, c, thlib.first_difference(a.get(c) or b"",
                                                   b.get(c) or b"")))
    ta, tb = tree_digest(da), tree_digest(db)
    for d in (da, db):
        shutil.rmtree(d, ignore_errors=True)
    for f in sorted(set(ta) | set(tb)):
        if ta.get(f) != tb.get(f):
            problems.append("%s: written file %s differs" % (dump.id, f))
    return "%s (%s)" % (dump.id, dirname.split(os.sep)[-2]), \
        "%d outputs, %d files" % (len(a), len(tb)), problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", default=ROOT)
    ap.add_argument("--suites", default="")
    ap.add_argument("--scenarios", default="")
    ap.add_argument("--variants", default="")
    a = ap.parse_args()
    split = lambda s: [x for x in s.split(",") if x]  # noqa: E731
    dumps = list(cached_dumps(split(a.suites), split(a.scenarios),
                              split(a.variants)))
    if not dumps:
        sys.exit("no cached fixture matches (build them with make check)")
    tmp = tempfile.mkdtemp(prefix="th-same-")
    srcs = {"old": source_tree(a.old, tmp), "new": source_tree(a.new, tmp)}
    need = set()
    for d in dumps:
        need.add(thlib.Dump(None, None, None, directory=d).crash_suite())
    builds = {tag: {cs: build(src, cs, tmp, tag) for cs in sorted(need)}
              for tag, src in srcs.items()}
    bad = 0
    jobs = int(os.environ.get("TRACEHUNT_JOBS", "2"))
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        for did, n, problems in ex.map(lambda d: compare(d, builds),
                                       dumps):
            print("%-56s %s  %s" % (
                did, n, "same" if not problems else
                "%d DIFFER" % len(problems)), flush=True)
            for p in problems:
                print("   ", p)
            bad += len(problems)
    print("same-output: %d dumps, %d differences" % (len(dumps), bad))
    if not a.old.startswith("/"):
        subprocess.run(["git", "worktree", "remove", "--force",
                        srcs["old"]], cwd=ROOT, capture_output=True)
    # (the worktree and both builds: 2.8 GB left behind a run each before)
    shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
