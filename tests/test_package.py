"""The Debian package crash-tracehunt (debian/): built by
dpkg-buildpackage from the working tree on the host (bookworm) and in the
trixie and sid chroots against their own crash, lintian-clean, and
installed in a clean bookworm chroot where "extend tracehunt.so" (by name:
crash's own extension directory) and "kprobes" work on a fixture."""

import glob
import os
import shutil
import subprocess
import tempfile
import threading

import pytest

import thlib
from thlib import fixture

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD_SUITES = ["bookworm", "trixie", "sid"]
# what dpkg-buildpackage needs besides the suite chroot's crash and gcc
# (ccache: the package is built on every run, its objects cached beside
# the fixtures like the Makefile's)
BUILD_DEPS = ("build-essential debhelper dpkg-dev fakeroot python3 "
              "libelf-dev ccache")
CCACHE_DIR = os.path.join(fixture.CACHE, "ccache-deb")

_debs = {}
_lock = threading.Lock()


def tree_copy(dest):
    """The working tree's files (tracked and new, not ignored) under DEST:
    what a clone with these changes would hold."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard",
                            "-z"], cwd=ROOT, capture_output=True,
                           check=True).stdout.split(b"\0")
    for f in files:
        f = f.decode()
        if not f or not os.path.isfile(os.path.join(ROOT, f)):
            continue
        os.makedirs(os.path.dirname(os.path.join(dest, f)), exist_ok=True)
        shutil.copy2(os.path.join(ROOT, f), os.path.join(dest, f))


def build_deb(suite_name):
    """The crash-tracehunt .deb built in SUITE (host or chroot): its path
    (in a directory kept for the session) and dpkg-buildpackage's log."""
    with _lock:
        if suite_name in _debs:
            return _debs[suite_name]
    suite = fixture.make_suite(suite_name)
    suite.ensure()
    top = tempfile.mkdtemp(prefix="th-deb-%s." % suite_name)
    src = os.path.join(top, "crash-tracehunt-0.1")
    tree_copy(src)
    if not suite.host:
        suite.sh("missing=; for p in %s; do dpkg-query -W -f '${Status}' "
                 "$p 2>/dev/null | grep -q 'ok installed' || "
                 "missing=\"$missing $p\"; done; [ -z \"$missing\" ] || "
                 "{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive "
                 "apt-get install -y -qq --no-install-recommends $missing "
                 ">/dev/null; }" % BUILD_DEPS)
    # nocheck: the unit tests run in make check itself
    os.makedirs(CCACHE_DIR, exist_ok=True)
    r = subprocess.run(suite.argv(["bash", "-c", "cd %s && "
                                   "DEB_BUILD_OPTIONS=nocheck "
                                   "TRACEHUNT_DEB_CCACHE=ccache "
                                   "CCACHE_DIR=%s CCACHE_BASEDIR=%s "
                                   "dpkg-buildpackage -b -us -uc 2>&1"
                                   % (src, CCACHE_DIR, src)],
                                  binds=[top, CCACHE_DIR]),
                       capture_output=True, text=True)
    debs = glob.glob(os.path.join(top, "crash-tracehunt_*_amd64.deb"))
    res = (debs[0] if r.returncode == 0 and debs else None,
           r.stdout[-3000:], top)
    with _lock:
        _debs[suite_name] = res
    return res


def deb_field(deb, field):
    return subprocess.run(["dpkg-deb", "-f", deb, field], capture_output=True,
                          text=True, check=True).stdout.strip()


def suite_crash_version(suite_name):
    suite = fixture.make_suite(suite_name)
    return suite.sh("dpkg-query -W -f '${Version}' crash", capture=True)


@pytest.fixture(scope="module", autouse=True)
def _only_once():
    if "bookworm" not in thlib.env_list("SUITES", ["bookworm"]):
        pytest.skip("the package is built when bookworm is in SUITES")
    for tool in ("dpkg-buildpackage", "dh", "lintian"):
        if not shutil.which(tool):
            pytest.fail("%s missing: run scripts/install-deps" % tool)


@pytest.mark.parametrize("suite", BUILD_SUITES)
def test_builds_against_suite_crash(suite):
    deb, log, _ = build_deb(suite)
    assert deb, "dpkg-buildpackage failed in %s:\n%s" % (suite, log)
    # exactly the crash whose defs.h it was compiled against
    assert deb_field(deb, "Depends").startswith(
        "crash (= %s)" % suite_crash_version(suite))
    files = subprocess.run(["dpkg-deb", "-c", deb], capture_output=True,
                           text=True, check=True).stdout
    for f in ("./usr/lib/crash/extensions/tracehunt.so",
              "./usr/bin/tracehunt-batch",
              "./usr/share/man/man1/tracehunt.1.gz",
              "./usr/share/man/man1/tracehunt-batch.1.gz",
              "./usr/share/doc/crash-tracehunt/README.md.gz",
              "./usr/share/doc/crash-tracehunt/tracehunt-json.schema.json"):
        assert f in files, (f, files)


def test_lintian_no_errors():
    deb, log, top = build_deb("bookworm")
    assert deb, log
    r = subprocess.run(["lintian", "--no-tag-display-limit", deb],
                       capture_output=True, text=True)
    errors = [l for l in r.stdout.splitlines() if l.startswith("E:")]
    assert not errors, r.stdout


def clean_root():
    """A bookworm chroot with crash and nothing of tracehunt (cached), and
    a throwaway copy of it to install the package into."""
    base = fixture.Suite("bookworm")
    base.host = False
    base.root = os.path.join(fixture.CACHE, "chroots", "pkgtest-bookworm")
    # the package's dependencies (what apt would pull in), nothing of
    # tracehunt: dpkg -i then needs no network
    base.PACKAGES = "crash,python3,libelf1"
    base.CHROOT_VERSION = "pkg1"
    base.ensure()
    copy = tempfile.mkdtemp(prefix="th-pkgroot.")
    os.rmdir(copy)
    subprocess.run(["cp", "-a", base.root, copy], check=True)
    inst = fixture.Suite("bookworm")
    inst.host = False
    inst.root = copy
    return inst


def test_installs_and_runs_in_clean_chroot():
    deb, log, top = build_deb("bookworm")
    assert deb, log
    d = thlib.Dump("bookworm", "modules", "kdump")
    root = clean_root()
    try:
        assert not os.path.exists(root.path(
            "/usr/lib/crash/extensions/tracehunt.so"))
        root.sh("dpkg -i %s >/dev/null" % deb, binds=[top])
        m = d.manifest
        cmds = os.path.join(top, "cmds")
        with open(cmds, "w") as f:
            f.write("extend tracehunt.so\nkprobes\nquit\n")
        r = subprocess.run(root.argv(
            ["crash", "-s", m["vmlinux"], m["vmcore"], "-i", cmds],
            binds=[top, os.path.dirname(m["vmlinux"]),
                   os.path.dirname(m["vmcore"])]),
            capture_output=True)
        out = r.stdout
        assert b"/usr/lib/crash/extensions/tracehunt.so: shared object " \
            b"loaded" in out, out[-2000:] + r.stderr[-2000:]
        live = d.truth("debug/kprobes/list")
        assert live and live in out, out[-2000:]
        man = root.sh("zcat /usr/share/man/man1/tracehunt.1.gz | head -5",
                      capture=True)
        assert ".TH TRACEHUNT 1" in man
    finally:
        fixture.safe_rmtree(root.root)
