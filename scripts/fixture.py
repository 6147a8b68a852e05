#!/usr/bin/env python3
"""Build (or reuse) one tracehunt fixture: a real Debian kernel booted under
QEMU with a scenario, its live tracefs/debugfs files captured as ground truth
before a sysrq panic, and the guest memory dumped over QMP.

    scripts/fixture.py [--suite bookworm] [--variant kdump] [--timeout S]
                       [--out DIR] [--force] SCENARIO|SCENARIO_DIR
    scripts/fixture.py --print-release SUITE

Output directory (printed on the last line of stdout):
    $TRACEHUNT_CACHE/fixtures/<release>/<scenario>-<hash>/<variant>/
        vmcore  truth/  truth.raw  console.log  manifest.json
The cache defaults to ~/.cache/tracehunt.  A fixture is keyed by the kernel
release and a hash of the scenario directory plus the guest-side files, so a
changed scenario only rebuilds its own fixtures.
"""

import argparse
import fcntl
import glob
import hashlib
import json
import os
import re
import shlex
import shutil
import socket
import struct
import subprocess
import sys
import tarfile
import tempfile
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIOS = os.path.join(ROOT, "testdata", "scenarios")
GUEST = os.path.join(ROOT, "scripts", "guest")
# The one table of tracefs files (the tests compare the files of its rows).
TRACEFS_TABLE = os.path.join(ROOT, "src", "tracefs", "table.c")
CACHE = os.environ.get("TRACEHUNT_CACHE",
                       os.path.expanduser("~/.cache/tracehunt"))
VARIANTS = ("kdump", "elf", "kaslr", "filtered")
# (the census capture, issue 22: some 2,700 more files take a loaded TCG
# guest 5-10 minutes on top of its boot)
BOOT_TIMEOUT = int(os.environ.get("TRACEHUNT_BOOT_TIMEOUT", "1500"))
# Seconds of console silence after "Kernel panic - not syncing" that end a
# panic on a kernel without the "---[ end Kernel panic" marker.
PANIC_QUIET = 5
# How long a resolved "current kernel of SUITE" is trusted without asking
# apt again; TRACEHUNT_OFFLINE=1 never asks.
RELEASE_TTL = int(os.environ.get("TRACEHUNT_RELEASE_TTL", str(12 * 3600)))
OFFLINE = os.environ.get("TRACEHUNT_OFFLINE", "") not in ("", "0")
# Bumped whenever the way a fixture is produced changes in a way the
# scenario hash cannot see.
PIPELINE_VERSION = "1"


class FixtureError(Exception):
    pass


class GuestFlake(FixtureError):
    """A boot that went wrong in a way a loaded machine causes: booting
    once more is worth it."""


class BootTimeout(GuestFlake):
    """The guest did not panic within the boot timeout."""


class GuestStalled(GuestFlake):
    """The guest fell into a livelock it does not leave (stalled())."""


class TruthLost(GuestFlake):
    """The guest panicked before the end of its truth reached the host:
    seen on cold CI runs before the init closed the port (which drains it)
    ahead of the panic: kprobe_profile and @@TH-DONE lost, and a whole
    truth file empty on two trixie boots under load."""


def log(msg):
    print("fixture: " + msg, file=sys.stderr, flush=True)


def run(cmd, **kw):
    kw.setdefault("check", True)
    try:
        return subprocess.run(cmd, **kw)
    except FileNotFoundError:
        raise FixtureError("%s: command not found (run scripts/install-deps)"
                           % cmd[0])
    except subprocess.CalledProcessError as e:
        out = ""
        if e.stderr:
            out = e.stderr if isinstance(e.stderr, str) else \
                e.stderr.decode(errors="replace")
        shown = cmd
        if cmd[:1] == ["unshare"] and cmd[4:6] == ["sh", "-c"]:
            shown = cmd[8:]                 # Suite.argv: sh -c PRE ROOT CMD
        elif cmd[:1] == ["unshare"]:
            shown = cmd[4:]
        if shown[:2] == ["bash", "-c"]:
            shown = shown[2:]
        raise FixtureError("%s failed (exit %d)%s" % (
            " ".join(shown)[:120], e.returncode,
            (": " + out.strip().splitlines()[-1]) if out.strip() else ""))


def host_suite():
    with open("/etc/os-release") as f:
        for line in f:
            if line.startswith("VERSION_CODENAME="):
                return line.split("=", 1)[1].strip().strip('"')
    return ""


# ---------------------------------------------------------------- suites ---

class Suite:
    """Where a suite's packages, compiler, makedumpfile and crash come from.
    The host's own suite uses the host; any other suite uses a debootstrap
    chroot cached under $TRACEHUNT_CACHE/chroots/SUITE."""

    # What a suite chroot holds besides minbase: crash (to open the suite's
    # dumps), gcc/make/libc6-dev (scenario modules; the extension against
    # its defs.h), makedumpfile (filtered dumps), xz-utils (.deb payloads).
    PACKAGES = "crash,gcc,libc6-dev,make,makedumpfile,xz-utils"
    # Bumped when the chroot recipe changes (forces a new debootstrap).
    CHROOT_VERSION = "2"

    def __init__(self, name):
        if not re.match(r"^[a-z][a-z0-9-]*$", name or ""):
            raise FixtureError("bad suite name %r" % name)
        self.name = name
        self.host = (name == host_suite())
        self.root = "/" if self.host else os.path.join(CACHE, "chroots", name)

    def sh(self, script, capture=False, binds=()):
        """Run a bash script in the suite (host, or chroot with BINDS
        bind-mounted at the same paths in a private mount namespace)."""
        r = run(self.argv(["bash", "-c", script], binds),
                capture_output=capture, text=True)
        return r.stdout if capture else None

    def argv(self, cmd, binds=()):
        """argv that runs CMD in the suite.  Host paths in BINDS appear at
        the same path inside the chroot, so command lines are identical;
        the mounts vanish with the process (unshare -m)."""
        if self.host:
            return list(cmd)
        # /proc: objtool (7.x kbuild) and crash read it.
        mounts = ["mount -t proc proc %s" % shlex.quote(self.path("/proc"))]
        for b in sorted(set(os.path.realpath(x) for x in binds)):
            inner = self.path(b)
            os.makedirs(inner, exist_ok=True)
            mounts.append("mount --bind %s %s" % (shlex.quote(b),
                                                  shlex.quote(inner)))
        pre = " && ".join(mounts + ['exec chroot "$0" "$@"'])
        return ["unshare", "-m", "--propagation", "private", "sh", "-c",
                pre, self.root] + list(cmd)

    def path(self, p):
        """Host path of a path inside the suite's root."""
        return os.path.join(self.root, p.lstrip("/"))

    def ensure(self):
        if self.host:
            return
        stamp = os.path.join(self.root, ".tracehunt-ready")
        if os.path.exists(stamp) and \
                open(stamp).read().strip() == self.CHROOT_VERSION and \
                self._has_strings_wrapper():
            return
        with Lock(os.path.join(CACHE, "chroots", self.name + ".lock")):
            if not (os.path.exists(stamp) and
                    open(stamp).read().strip() == self.CHROOT_VERSION):
                self._debootstrap(stamp)
            if not self._has_strings_wrapper():
                self._strings_wrapper()

    def ensure_package(self, package, binary):
        """BINARY (a path in the suite) from Debian's PACKAGE, installed
        into the chroot on first use (the tests read the trace.dat with
        each suite's trace-cmd); the path, or FixtureError."""
        if self.host:
            if not os.path.exists(binary):
                raise FixtureError("%s missing: scripts/install-deps "
                                   "installs %s" % (binary, package))
            return binary
        self.ensure()
        if os.path.exists(self.path(binary)):
            return binary
        with Lock(os.path.join(CACHE, "chroots", self.name + ".lock")):
            if not os.path.exists(self.path(binary)):
                try:
                    self.sh("DEBIAN_FRONTEND=noninteractive apt-get "
                            "install -y -qq --no-install-recommends %s "
                            ">/dev/null" % shlex.quote(package))
                except FixtureError as e:
                    raise FixtureError("installing %s in the %s chroot "
                                       "failed: %s" % (package, self.name,
                                                       e))
        return binary

    # crash 7.2.9 (bullseye; 8.0.1 reads the banner with libbfd instead)
    # checks that vmlinux matches the dump by reading "strings VMLINUX"
    # until the dump's banner, then closes the pipe.  crash ignores
    # SIGPIPE, strings inherits that, and so scans the whole 700 MB vmlinux
    # into the closed pipe: 7 s of CPU in every session.  The chroots'
    # strings is diverted to a wrapper that restores SIGPIPE's default, so
    # strings stops where crash stops reading.  What crash reads is the
    # same.
    STRINGS_WRAPPER = """#!/usr/bin/perl
# tracehunt (scripts/fixture.py): strings with SIGPIPE's default action
$SIG{PIPE} = "DEFAULT";
exec { "/usr/bin/strings.distrib" } "strings", @ARGV;
die "strings: $!\\n";
"""

    def _has_strings_wrapper(self):
        try:
            with open(self.path("/usr/bin/strings")) as f:
                return f.read() == self.STRINGS_WRAPPER
        except (OSError, UnicodeDecodeError):
            return False

    def _strings_wrapper(self):
        try:
            self.sh("dpkg-divert --quiet --local --rename --add "
                    "/usr/bin/strings")
        except FixtureError as e:
            raise FixtureError("diverting strings in the %s chroot failed: "
                               "%s" % (self.name, e))
        tmp = self.path("/usr/bin/strings.tracehunt")
        with open(tmp, "w") as f:
            f.write(self.STRINGS_WRAPPER)
        os.chmod(tmp, 0o755)
        os.rename(tmp, self.path("/usr/bin/strings"))

    def _debootstrap(self, stamp):
        log("creating the %s chroot (debootstrap, ~1-2 min)" % self.name)
        t0 = time.time()
        safe_rmtree(self.root)
        os.makedirs(os.path.dirname(self.root), exist_ok=True)
        tmp = self.root + ".part"
        safe_rmtree(tmp)
        mirror = mirror_url()
        try:
            # In a private mount namespace: the /proc etc. debootstrap
            # mounts inside the target never leak to the host.
            run(["unshare", "-m", "--propagation", "private",
                 "debootstrap", "--variant=minbase",
                 "--include=" + self.PACKAGES, self.name, tmp, mirror],
                capture_output=True)
        except FixtureError as e:
            safe_rmtree(tmp)
            raise FixtureError("debootstrap of %s from %s failed (no "
                               "network?): %s" % (self.name, mirror, e))
        # The current kernel of a stable suite may live in -security or
        # -updates (bookworm's does); sid has only itself.
        lines = ["deb %s %s main" % (mirror, self.name)]
        if self.name not in ("sid", "unstable"):
            lines.append("deb %s %s-updates main" % (mirror, self.name))
            lines.append("deb %s %s-security main"
                         % (security_url(mirror), self.name))
        with open(os.path.join(tmp, "etc/apt/sources.list"), "w") as f:
            f.write("\n".join(lines) + "\n")
        # The mirror may serve a snapshot whose Release files are past
        # their Valid-Until (sid's expire after a week).
        with open(os.path.join(tmp, "etc/apt/apt.conf.d/99tracehunt"),
                  "w") as f:
            f.write('Acquire::Check-Valid-Until "false";\n'
                    'Acquire::Retries "2";\n'
                    'APT::Install-Recommends "false";\n')
        with open(os.path.join(tmp, ".tracehunt-ready"), "w") as f:
            f.write(self.CHROOT_VERSION + "\n")
        os.rename(tmp, self.root)
        log("%s chroot ready in %.0f s" % (self.name, time.time() - t0))

    def lists_ready(self):
        return self.host or bool(glob.glob(
            self.path("/var/lib/apt/lists/*Packages*")))

    def apt_update(self):
        try:
            err = self.sh("apt-get update -qq 2>&1 | grep -v unsandboxed; "
                          "exit ${PIPESTATUS[0]}", capture=True)
            if "E: " in err or "W: Failed" in err:
                raise FixtureError(err.strip().splitlines()[-1])
        except FixtureError as e:
            raise FixtureError("apt-get update in %s failed (no network?): "
                               "%s" % (self.name, e))

    # The meta package whose dependency is the suite's current kernel (a
    # flavor's suite names its own: FLAVORS below).
    META = "linux-image-amd64"

    def release(self, refresh=False):
        """The suite's current amd64 kernel release.  Resolved from apt at
        most every RELEASE_TTL seconds (the answer is remembered, so a warm
        run needs no network); offline, the remembered answer is used."""
        memo = os.path.join(CACHE, "suites",
                            getattr(self, "pseudo", self.name) + ".release")
        rel = self._remembered(memo, refresh)
        if rel:
            return rel
        # one apt-get update per chroot at a time (fixtures build two at a
        # time, and apt's own lock would fail the second; a flavor shares
        # its suite's chroot)
        with Lock(os.path.join(CACHE, "suites",
                               self.name + ".release.lock")):
            return self._remembered(memo, refresh) or \
                self._resolve_release(memo)

    def _remembered(self, memo, refresh):
        if not refresh and os.path.exists(memo) and \
                (OFFLINE or time.time() - os.path.getmtime(memo)
                 < RELEASE_TTL):
            return open(memo).read().strip() or None
        return None

    def _resolve_release(self, memo):
        try:
            if OFFLINE:
                raise FixtureError("TRACEHUNT_OFFLINE is set")
            self.ensure()
            if not self.host:
                self.apt_update()
            out = self.sh("apt-cache depends " + self.META, capture=True)
            rel = None
            for line in out.splitlines():
                line = line.strip()
                if line.startswith("Depends: linux-image-"):
                    rel = line.split("linux-image-", 1)[1].strip()
                    break
            if not rel:
                raise FixtureError("apt-cache names no linux-image for "
                                   "%s in %s" % (self.META, self.name))
            os.makedirs(os.path.dirname(memo), exist_ok=True)
            with open(memo, "w") as f:
                f.write(rel + "\n")
            return rel
        except FixtureError as e:
            if os.path.exists(memo) and open(memo).read().strip():
                rel = open(memo).read().strip()
                log("cannot resolve %s's kernel now (%s); using cached %s"
                    % (self.name, e, rel))
                return rel
            raise FixtureError("cannot resolve the current kernel of %s and "
                               "none is cached: %s" % (self.name, e))

    def crash_version(self):
        out = self.sh("dpkg-query -W -f '${Version}' crash", capture=True)
        return out.strip()

    def crash_cmd(self):
        return ["crash"] if self.host else ["chroot", self.root, "crash"]

    def defs_h(self):
        return self.path("/usr/include/crash/defs.h")


class Lock:
    """An exclusive flock on PATH (fixture builds and chroot creation may
    run from several pytest processes at once)."""

    def __init__(self, path):
        self.path = path

    def __enter__(self):
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        self.f = open(self.path, "a")
        fcntl.flock(self.f, fcntl.LOCK_EX)
        return self

    def __exit__(self, *a):
        fcntl.flock(self.f, fcntl.LOCK_UN)
        self.f.close()


def safe_rmtree(path):
    """rmtree that first detaches anything mounted below PATH (never
    deletes through a mount into the host)."""
    real = os.path.realpath(path)
    try:
        with open("/proc/self/mounts") as f:
            mnts = [line.split()[1] for line in f]
    except OSError:
        mnts = []
    for m in sorted(mnts, key=len, reverse=True):
        m = m.replace("\\040", " ")
        if m == real or m.startswith(real + "/"):
            subprocess.run(["umount", "-l", m], check=False)
    shutil.rmtree(path, ignore_errors=True)


def mirror_url():
    """The Debian mirror apt already uses on this host (or
    $TRACEHUNT_MIRROR)."""
    if os.environ.get("TRACEHUNT_MIRROR"):
        return os.environ["TRACEHUNT_MIRROR"]
    for p in glob.glob("/etc/apt/sources.list.d/*.sources") + \
            ["/etc/apt/sources.list"]:
        try:
            text = open(p).read()
        except OSError:
            continue
        m = re.search(r"^URIs:\s*(\S+/debian)/?\s*$", text, re.M) or \
            re.search(r"^deb\s+(?:\[[^]]*\]\s+)?(\S+/debian)/?\s", text, re.M)
        if m:
            return m.group(1)
    return "http://deb.debian.org/debian"


def security_url(mirror):
    if mirror.endswith("/debian"):
        return mirror + "-security"
    return "http://deb.debian.org/debian-security"


# ---------------------------------------------------------------- kernel ---

def is_elf(path):
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def fetch_kernel(suite, rel):
    """vmlinuz and debug vmlinux of REL, cached under kernels/REL."""
    kdir = os.path.join(CACHE, "kernels", rel)
    vmlinuz = os.path.join(kdir, "vmlinuz")
    vmlinux = os.path.join(kdir, "vmlinux")

    def good():
        return os.path.getsize(vmlinuz) > 0 if os.path.exists(vmlinuz) \
            and is_elf(vmlinux) else False
    if good():
        return vmlinuz, vmlinux
    with Lock(os.path.join(CACHE, "kernels", rel + ".lock")):
        if good():
            return vmlinuz, vmlinux
        if os.path.exists(vmlinux) and not is_elf(vmlinux):
            log("%s is not an ELF file (garbled?); fetching it again"
                % vmlinux)
            os.unlink(vmlinux)
        _fetch_kernel(suite, rel, kdir, vmlinuz, vmlinux)
    return vmlinuz, vmlinux


def _download(suite, pkgs, dl):
    if not suite.lists_ready():
        suite.apt_update()
    log("downloading %s (%s)" % (" ".join(pkgs), suite.name))
    # apt-get download runs in the suite's root and writes to its cwd: a
    # directory of this process's own (a flavor's kernel, sid-rt, shares
    # the chroot with its suite's, and both may download at once).
    os.makedirs(suite.path("/tmp"), exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="tracehunt-dl-", dir=suite.path("/tmp"))
    os.chmod(tmp, 0o755)
    inner = "/tmp/" + os.path.basename(tmp)
    try:
        suite.sh("cd %s && apt-get download -q %s 2>&1 | "
                 "grep -v unsandboxed >&2; test ${PIPESTATUS[0]} -eq 0"
                 % (inner, " ".join(pkgs)))
    except FixtureError as e:
        raise FixtureError("downloading %s failed (no network?): %s"
                           % (" ".join(pkgs), e))
    for f in glob.glob(os.path.join(tmp, "*.deb")):
        shutil.move(f, os.path.join(dl, os.path.basename(f)))
    shutil.rmtree(tmp, ignore_errors=True)


def _fetch_kernel(suite, rel, kdir, vmlinuz, vmlinux):
    dl = os.path.join(kdir, "dl")
    os.makedirs(dl, exist_ok=True)
    debs = glob.glob(os.path.join(dl, "*.deb"))
    want = ["linux-image-%s" % rel, "linux-image-%s-dbg" % rel]
    have = [os.path.basename(d).split("_")[0] for d in debs]
    missing = [w for w in want if w not in have]
    if missing:
        _download(suite, missing, dl)
    img = glob.glob(os.path.join(dl, "linux-image-%s_*.deb" % rel))[0]
    dbg = glob.glob(os.path.join(dl, "linux-image-%s-dbg_*.deb" % rel))[0]
    if not os.path.exists(vmlinuz):
        def is_vmlinuz(n):
            return n.endswith("/vmlinuz-" + rel) or \
                n.endswith("/%s/vmlinuz" % rel)
        if deb_extract(img, is_vmlinuz, vmlinuz) is None:
            # sid splits the image: linux-image-REL is a meta package and
            # vmlinuz lives in linux-binary-REL at usr/lib/modules/REL/.
            _download(suite, ["linux-binary-%s" % rel], dl)
            img = glob.glob(os.path.join(dl, "linux-binary-%s_*.deb" % rel))
            if not img or deb_extract(img[0], is_vmlinuz, vmlinuz) is None:
                raise FixtureError("no vmlinuz found for %s" % rel)
    if not os.path.exists(vmlinux):
        # bookworm: usr/lib/debug/boot/vmlinux-REL; sid: boot/vmlinux-REL
        # is a symlink to usr/lib/debug/lib/modules/REL/vmlinux (regular
        # files only are taken).
        log("extracting vmlinux (~40 s)")
        if deb_extract(dbg, lambda n: os.path.basename(n) in
                       ("vmlinux-" + rel, "vmlinux"), vmlinux) is None:
            raise FixtureError("no vmlinux in %s" % os.path.basename(dbg))
    if not is_elf(vmlinux):
        os.unlink(vmlinux)
        raise FixtureError("the vmlinux extracted for %s is not ELF" % rel)
    # The debs are no longer needed once both files are out.
    shutil.rmtree(dl, ignore_errors=True)


def deb_extract(deb, pred, dest):
    """Extract the first regular file of DEB whose name satisfies PRED to
    DEST, in one streaming pass over the package (a -dbg package is 1 GB
    of xz: listing it first would decompress it twice).  Returns the
    member's name, or None when there is none."""
    tmp = dest + ".part"
    p = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", deb],
                         stdout=subprocess.PIPE)
    found = None
    try:
        with tarfile.open(fileobj=p.stdout, mode="r|") as tf:
            for ti in tf:
                if ti.isreg() and pred(ti.name):
                    src = tf.extractfile(ti)
                    with open(tmp, "wb") as out:
                        shutil.copyfileobj(src, out, 1 << 20)
                    found = ti.name
                    break
    except (tarfile.TarError, OSError) as e:
        raise FixtureError("reading %s failed: %s" % (deb, e))
    finally:
        p.stdout.close()
        p.kill()
        p.wait()
    if found is None:
        return None
    if os.path.getsize(tmp) == 0:
        os.unlink(tmp)
        raise FixtureError("extracting %s from %s failed" % (found, deb))
    os.rename(tmp, dest)
    return found


def ensure_headers(suite, rel):
    # The directory appears while apt unpacks: only the marker written after
    # apt-get returned says the tree is whole (two variants of one scenario
    # build their modules at once; the second must wait for the first's
    # install, not compile against half a tree).
    hdr = "/usr/src/linux-headers-%s" % rel
    done = suite.path("/var/lib/tracehunt-headers-%s" % rel)
    if suite.host and os.path.isdir(suite.path(hdr)):
        return hdr
    if not os.path.exists(done):
        with Lock(os.path.join(CACHE, "chroots", suite.name + ".lock")):
            if os.path.exists(done):
                return hdr
            if suite.host:
                raise FixtureError("linux-headers-%s is not installed (run "
                                   "scripts/install-deps)" % rel)
            log("installing linux-headers-%s in %s" % (rel, suite.name))
            try:
                suite.sh("DEBIAN_FRONTEND=noninteractive apt-get install "
                         "-y -qq --no-install-recommends linux-headers-%s "
                         ">/dev/null 2>&1 </dev/null" % rel)
            except FixtureError as e:
                raise FixtureError("installing linux-headers-%s in %s failed"
                                   " (no network?): %s" % (rel, suite.name, e))
            open(done, "w").close()
    return hdr


def build_modules(suite, rel, scen_dir, out_dir):
    srcs = sorted(glob.glob(os.path.join(scen_dir, "modules", "*.c")))
    if not srcs:
        return []
    # A custom kernel built with --keep-build: its own tree (on the host).
    hdr = os.path.join(CACHE, "kernels", rel, "build")
    if not os.path.isdir(hdr):
        hdr = ensure_headers(suite, rel)
    work = suite.path("/tmp/tracehunt-mod-%d" % os.getpid())
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    objs = [os.path.basename(s)[:-2] + ".o" for s in srcs]
    for f in os.listdir(os.path.join(scen_dir, "modules")):
        shutil.copy(os.path.join(scen_dir, "modules", f), work)
    with open(os.path.join(work, "Kbuild"), "w") as f:
        f.write("obj-m := %s\n" % " ".join(objs))
    inner = "/" + os.path.relpath(work, suite.root)
    try:
        suite.sh("make -s -C %s M=%s modules >%s/build.log 2>&1 || "
                 "{ tail -20 %s/build.log >&2; exit 1; }"
                 % (hdr, inner, inner, inner))
    except FixtureError as e:
        raise FixtureError("building scenario modules failed: %s" % e)
    kos = []
    for o in objs:
        ko = o[:-2] + ".ko"
        shutil.copy(os.path.join(work, ko), os.path.join(out_dir, ko))
        kos.append(ko)
    shutil.rmtree(work, ignore_errors=True)
    return kos


# ------------------------------------------------------- capture list ---

def tracefs_rows(path=TRACEFS_TABLE):
    """The rows of the tracefs table (src/tracefs/table.c, whose header
    comment documents the syntax): dicts of name, family (ONE, OPTIONS,
    TRACING_CPUS, ...), scope (TOP or ALL), flags (a set of TH_TF_*) and
    printed (whether "ftrace cat" prints the file)."""
    with open(path) as f:
        text = f.read()
    m = re.search(r"^\S.*\bth_tfiles\[\] = \{$", text, re.M)
    if not m:
        raise FixtureError("%s: no th_tfiles[] = {" % path)
    body = text[m.end():text.index("\n};", m.end())]
    rows = []
    for args in re.findall(r"TH_ROW\(([^()]*)\)", body):
        a = [x.strip() for x in args.split(",")]
        if len(a) != 8 or not re.match(r'^"[^"]+"$', a[0]):
            raise FixtureError("%s: cannot parse TH_ROW(%s)" % (path, args))
        flags = set() if a[3] == "0" else {f.strip()
                                            for f in a[3].split("|")}
        rows.append({"name": a[0][1:-1], "family": a[1], "scope": a[2],
                     "flags": flags, "printed": a[6] != "NULL"})
    if not rows:
        raise FixtureError("%s: no TH_ROW in th_tfiles[]" % path)
    return rows


def row_pattern(row):
    """The shell pattern of a row's files, relative to an array's
    directory."""
    fam = row["family"]
    if row["scope"] == "KPROBES":
        return None     # debugfs: not relative to an array's directory
    if fam == "ONE":
        return row["name"]
    if fam == "OPTIONS":
        return row["name"] + "*"
    if fam in ("TRACING_CPUS", "POSSIBLE_CPUS"):
        return "per_cpu/cpu*/" + row["name"]
    if fam in ("EVENTS", "EVENT_FILES"):
        return "events/*/*/" + row["name"]
    if fam == "SYSTEMS":
        return "events/*/" + row["name"]
    raise FixtureError("tracefs row %s: family %s has no capture pattern"
                       % (row["name"], fam))


def capture_conf(scen_dir):
    """The guest's /capture.conf: scripts/guest/capture.conf, then the
    scenario's own capture.conf (its "mode census", its "head" lines)."""
    text = ""
    for d in (GUEST, scen_dir):
        p = os.path.join(d, "capture.conf")
        if os.path.isfile(p):
            with open(p) as f:
                text += f.read()
    return text


def build_capture(dest):
    """scripts/guest/capture.c as a static binary at DEST (host gcc: the
    guest runs no libc of its own)."""
    r = subprocess.run(["gcc", "-static", "-O2", "-Wall", "-o", dest,
                        os.path.join(GUEST, "capture.c"), "-lz"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise FixtureError("cannot build scripts/guest/capture.c (gcc, "
                           "libc6-dev and zlib1g-dev: scripts/install-deps):"
                           "\n" + r.stderr)


# -------------------------------------------------------------- initramfs ---

def build_initramfs(scen_dir, kos, mod_dir, dest, tracing_dir=None):
    busybox = "/bin/busybox"
    if not os.path.exists(busybox):
        raise FixtureError("/bin/busybox missing (apt-get install "
                           "busybox-static)")
    with tempfile.TemporaryDirectory() as root:
        for d in ("bin", "sbin", "proc", "sys", "dev", "tmp", "mods",
                  "scenario", "etc"):
            os.makedirs(os.path.join(root, d))
        shutil.copy(busybox, os.path.join(root, "bin", "busybox"))
        applets = run([busybox, "--list"], capture_output=True,
                      text=True).stdout.split()
        for a in applets:
            if a != "busybox":
                os.symlink("busybox", os.path.join(root, "bin", a))
        shutil.copy(os.path.join(GUEST, "init"), os.path.join(root, "init"))
        build_capture(os.path.join(root, "bin", "capture"))
        with open(os.path.join(root, "capture.conf"), "w") as f:
            f.write(capture_conf(scen_dir))
        os.chmod(os.path.join(root, "init"), 0o755)
        for f in os.listdir(scen_dir):
            p = os.path.join(scen_dir, f)
            if os.path.isfile(p):
                shutil.copy(p, os.path.join(root, "scenario", f))
        if tracing_dir:
            # A kernel without tracefs (3.10): init sources setup.sh, so
            # this $T is the one its capture uses too.
            p = os.path.join(root, "scenario", "setup.sh")
            with open(p) as f:
                text = f.read()
            with open(p, "w") as f:
                f.write("T=%s\n%s" % (tracing_dir, text))
        for ko in kos:
            shutil.copy(os.path.join(mod_dir, ko), os.path.join(root, "mods"))
        # A scenario's own programs (testdata/scenarios/bpf: a loader and
        # bpftool with their libraries): its rootfs.sh, run on the host,
        # adds them to the initramfs root given as its argument.
        extra = os.path.join(scen_dir, "rootfs.sh")
        if os.path.isfile(extra):
            r = subprocess.run(["sh", extra, root], cwd=scen_dir)
            if r.returncode:
                raise FixtureError("%s failed" % extra)
        p = subprocess.run("find . | LC_ALL=C sort | cpio -o -H newc "
                           "--quiet | gzip -n > '%s'" % dest,
                           shell=True, cwd=root)
        if p.returncode:
            raise FixtureError("packing the initramfs failed")


# ------------------------------------------------------------------ boot ---

def qmp(sock_path, cmds, timeout=120):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.connect(sock_path)
    f = s.makefile("rw")
    f.readline()                                   # greeting

    def call(obj):
        f.write(json.dumps(obj) + "\n")
        f.flush()
        while True:
            line = f.readline()
            if not line:
                raise FixtureError("QMP closed the connection")
            msg = json.loads(line)
            if "return" in msg:
                return msg["return"]
            if "error" in msg:
                raise FixtureError("QMP %s: %s" % (obj["execute"],
                                                   msg["error"]))
    r = None
    for c in cmds:
        r = call(c)
    s.close()
    return r


# Samples of the vCPUs' registers, STUCK_EVERY s apart once the guest has
# run STUCK_AFTER s, that make a guest stuck when all are the same.
STUCK_AFTER, STUCK_EVERY, STUCK_SAMPLES = 60, 15, 5


def vcpu_states(regs_text):
    """(RIP, RFL, HLT) of each vCPU in QEMU's "info registers -a"."""
    return tuple(re.findall(r"RIP=([0-9a-f]+) RFL=([0-9a-f]+) .*?HLT=(\d)",
                            regs_text))


def stuck(samples):
    """Whether STUCK_SAMPLES samples of vcpu_states() show a guest that no
    longer runs: every vCPU at the same instruction in each, interrupts
    off, not halted.  The livelock of stalled() can print nothing at all:
    the second boot of the 5.10 graph guest (KASLR) of that cold run had
    both vCPUs in tick_sched_timer(), at the patched call of
    _raw_spin_unlock_irqrestore() (function_graph traces every function;
    under TCG at load 10 each tick took longer than its period), sampled
    so for 12 minutes with its console silent.  An idle guest stands at
    its HLT with interrupts on; one at work is never found twice at the
    same place with interrupts off 15 s apart."""
    if len(samples) < STUCK_SAMPLES or not samples[-1]:
        return False
    last = samples[-STUCK_SAMPLES:]
    return all(x == last[0] for x in last) and all(
        not int(rfl, 16) & 0x200 and hlt == "0" for _, rfl, hlt in last[0])


def sample_vcpus(sock):
    """vcpu_states() of the running guest; () when QEMU does not answer."""
    try:
        out = qmp(sock, [{"execute": "qmp_capabilities"},
                         {"execute": "human-monitor-command",
                          "arguments": {"command-line":
                                        "info registers -a"}}], timeout=10)
    except (OSError, ValueError, FixtureError):
        return ()
    return vcpu_states(out if isinstance(out, str) else "")


def accel_args():
    """TCG unless TRACEHUNT_KVM=1: then KVM, with TCG as QEMU's fallback
    (it takes the -accel options in order).  Not the default: on these
    machines /dev/kvm opens, but a KVM guest spent 10 minutes in system
    time without reaching its panic, where TCG takes 1-2 minutes.  The
    guest's CPU model is qemu64 either way and the truth is captured in
    the same boot as its dump, so the accelerator changes boot time, not
    what a fixture holds."""
    if os.environ.get("TRACEHUNT_KVM", "") == "1":
        return ["-accel", "kvm", "-accel", "tcg"]
    return ["-accel", "tcg"]


# The guest's shape: 2 vCPUs and 512 MB unless the scenario has a MACHINE
# file ("smp 8", "mem 2G" lines): the same workload on more CPUs (issue 25).
# "append WORD..." adds words to the kernel command line, "resets N" lets
# the guest reset itself N times (QEMU keeps the RAM across a reset: the
# persistent ring buffer of issue 24 is read in the boot after the one that
# wrote it); only the last boot writes the truth and panics.
GUEST_SHAPE = {"smp": "2", "mem": "512M", "append": "", "resets": 0}


def guest_shape(scen_dir):
    """{"smp": N, "mem": SIZE, "append": WORDS, "resets": N} of the
    scenario in SCEN_DIR."""
    shape = dict(GUEST_SHAPE)
    p = os.path.join(scen_dir, "MACHINE")
    if os.path.exists(p):
        with open(p) as f:
            for line in f:
                w = line.split("#")[0].split()
                if len(w) == 2 and w[0] in ("smp", "mem") and \
                        re.fullmatch(r"\d+[MG]?", w[1]):
                    shape[w[0]] = w[1]
                elif len(w) == 2 and w[0] == "resets" and w[1].isdigit():
                    shape["resets"] = int(w[1])
                elif len(w) >= 2 and w[0] == "append":
                    shape["append"] = " ".join(
                        ([shape["append"]] if shape["append"] else []) +
                        w[1:])
                elif w:
                    raise FixtureError("%s: expected 'smp N', 'mem SIZE',"
                                       " 'append WORD...' or 'resets N'"
                                       " lines, not %r" % (p, line))
    return shape


# Soft lockup reports of one vCPU that make a guest stalled (counted over
# the whole console): the watchdog reports one about every 20-28 s of the
# guest's time while a lockup lasts.
LOCKUP_REPORTS = 4
_LOCKUP = re.compile(r"BUG: soft lockup - CPU#(\d+) stuck")


def stalled(console_text):
    """Whether a guest's console shows the livelock a TCG guest on a loaded
    machine can fall into and never leave: its timer interrupts take all
    of its emulated time, the watchdog reports soft lockups on its vCPUs
    (ksoftirqd) over and over, the RCU kthread starves, and the boot
    never gets further.  Seen at boot, before the scenario ran, on 5.10's
    graph (KASLR) in a cold CI run (2026-12-01): stalled for 22 minutes
    until the boot timeout would have ended it (a hung rhel7 graph guest
    of an earlier cold run, README.md, may have been the same).  A vCPU
    reported stuck LOCKUP_REPORTS times, some 90 s of its time, is the
    sign: a guest that leaves a passing lockup is reported once or
    twice."""
    seen = {}
    for m in _LOCKUP.finditer(console_text):
        seen[m.group(1)] = seen.get(m.group(1), 0) + 1
        if seen[m.group(1)] >= LOCKUP_REPORTS:
            return True
    return False


def boot_and_dump(vmlinuz, initrd, out, kaslr, dumps, timeout=None,
                  shape=None):
    """Boot, wait for the panic, then write each (path, format) of DUMPS
    (format "kdump-zlib" or "elf") from the same stopped guest."""
    shape = shape or GUEST_SHAPE
    timeout = BOOT_TIMEOUT if timeout is None else timeout
    console = os.path.join(out, "console.log")
    truth = os.path.join(out, "truth.raw")
    # A unix socket path must fit in 108 bytes: not under a deep cache.
    sockdir = tempfile.mkdtemp(prefix="th-qmp-")
    sock = os.path.join(sockdir, "qmp.sock")
    for p in (console, truth):
        if os.path.exists(p):
            os.unlink(p)
    # no_timer_check: on a starved host the TCG guest fails the IO-APIC
    # timer check ("IO-APIC + timer doesn't work!" panic, or a hang).
    append = "console=ttyS0 panic=0 quiet loglevel=4 no_timer_check"
    if not kaslr:
        append += " nokaslr"
    if shape["append"]:
        append += " " + shape["append"]
    # vmcoreinfo: the dump carries the guest's VMCOREINFO (KERNELOFFSET for
    # KASLR, what makedumpfile and crash read first).
    cmd = ["qemu-system-x86_64", "-m", shape["mem"], "-smp", shape["smp"],
           "-nographic",
           "-kernel", vmlinuz, "-initrd", initrd,
           "-append", append, "-serial", "file:" + console,
           "-serial", "file:" + truth, "-monitor", "none",
           "-device", "vmcoreinfo",
           "-qmp", "unix:%s,server,nowait" % sock, "-display", "none"]
    cmd[1:1] = accel_args()
    # -no-reboot: a reset ends QEMU (a guest that reboots is a failure),
    # unless the scenario resets on purpose: then the boots are counted
    # by the line the init prints first (scripts/guest/init).
    if not shape["resets"]:
        cmd.insert(cmd.index("-kernel"), "-no-reboot")
    log("booting %s %s" % (os.path.basename(out.rstrip("/")),
                           "(kaslr)" if kaslr else ""))
    t0 = time.time()
    quiet = [None, t0]
    samples, sampled = [], t0 + STUCK_AFTER - STUCK_EVERY
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL,
                                stderr=open(os.path.join(out, "qemu.err"),
                                            "w"))
    except FileNotFoundError:
        raise FixtureError("qemu-system-x86_64 not found (apt-get install "
                           "qemu-system-x86)")
    try:
        while True:
            if proc.poll() is not None:
                raise FixtureError("QEMU exited (%d) before the panic: %s;"
                                   " console tail:\n%s"
                                   % (proc.returncode,
                                      tail(os.path.join(out, "qemu.err"), 3),
                                      tail(console)))
            text = ""
            if os.path.exists(console):
                with open(console, "rb") as f:
                    text = f.read().decode(errors="replace")
            if "end Kernel panic" in text:
                break
            boots = text.count("@@TH-VMCOREINFO")
            if shape["resets"] and boots > 1 + shape["resets"]:
                raise FixtureError("the guest booted %d times (MACHINE "
                                   "allows %d resets); console tail:\n%s"
                                   % (boots, shape["resets"],
                                      tail(console)))
            # Kernels before d7c0847fe368 (3.10) print no end marker:
            # their panic line, then a quiet console, is the end.
            if "Kernel panic - not syncing" in text:
                if text != quiet[0]:
                    quiet[:] = [text, time.time()]
                elif time.time() - quiet[1] > PANIC_QUIET:
                    break
            if "@@TH-SCENARIO-FAILED" in text:
                raise FixtureError("the scenario failed in the guest; "
                                   "console tail:\n%s" % tail(console))
            if stalled(text):
                raise GuestStalled("the guest stalled (soft lockups, "
                                   "reported %d times on one vCPU) after "
                                   "%.0f s; console tail:\n%s"
                                   % (LOCKUP_REPORTS, time.time() - t0,
                                      tail(console)))
            if time.time() - sampled >= STUCK_EVERY:
                sampled = time.time()
                samples.append(sample_vcpus(sock))
                if stuck(samples):
                    raise GuestStalled(
                        "the guest stalled: its vCPUs stood at %s with "
                        "interrupts off for %d s; console tail:\n%s"
                        % (", ".join(sorted(set(
                            r for r, _, _ in samples[-1]))),
                           STUCK_EVERY * (STUCK_SAMPLES - 1),
                           tail(console)))
            if time.time() - t0 > timeout:
                raise BootTimeout("the guest did not panic within %d s "
                                   "(TRACEHUNT_BOOT_TIMEOUT); console "
                                   "tail:\n%s" % (timeout, tail(console)))
            time.sleep(0.5)
        time.sleep(0.5)
        cmds = [{"execute": "qmp_capabilities"}, {"execute": "stop"}]
        for path, fmt in dumps:
            args = {"paging": False, "protocol": "file:" + path}
            if fmt != "elf":
                args["format"] = fmt
            cmds.append({"execute": "dump-guest-memory", "arguments": args})
        qmp(sock, cmds, timeout=600)
        try:
            qmp(sock, [{"execute": "qmp_capabilities"},
                       {"execute": "quit"}], timeout=10)
        except (OSError, FixtureError):
            pass
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        shutil.rmtree(sockdir, ignore_errors=True)
    log("guest done in %.1f s" % (time.time() - t0))


def tail(path, n=25):
    if not os.path.exists(path):
        return "(no console output)"
    with open(path, "rb") as f:
        lines = f.read().decode(errors="replace").splitlines()
    return "\n".join(lines[-n:])


# ----------------------------------------------------------------- truth ---

BEGIN = b"@@TH-BEGIN "
END = b"\n@@TH-END "
ZBEGIN = b"@@TH-ZBEGIN\n"
ZEND = b"\n@@TH-ZEND\n"
ERROR = re.compile(rb"^@@TH-ERROR (\S+) (\S+)$", re.M)


def expand_truth(data):
    """The truth stream with every zlib segment (scripts/guest/capture.c)
    replaced by its records.  A segment the guest did not finish (it
    panicked early) gives what it holds."""
    out, pos = [], 0
    while True:
        z = data.find(ZBEGIN, pos)
        if z < 0:
            out.append(data[pos:])
            return b"".join(out)
        out.append(data[pos:z])
        d = zlib.decompressobj()
        try:
            out.append(d.decompress(data[z + len(ZBEGIN):]))
        except zlib.error as e:
            raise FixtureError("the guest's capture stream is corrupt (%s)"
                               % e)
        rest = d.unused_data
        if not d.eof:
            return b"".join(out)
        if not rest.startswith(ZEND):
            raise FixtureError("the guest's capture stream does not end "
                               "with @@TH-ZEND")
        pos = len(data) - len(rest) + len(ZEND)


def split_truth(raw_path, truth_dir):
    """truth.raw holds, per captured file, '@@TH-BEGIN NAME\\n' + the file's
    exact bytes + '\\n@@TH-END NAME\\n' (or '@@TH-MISSING NAME\\n'), and
    '@@TH-ERROR NAME ERRNO' when opening or reading it failed; the capture
    program's records come zlib-compressed (expand_truth()).  Returns the
    names written under TRUTH_DIR and {name: errno name} of the errors."""
    with open(raw_path, "rb") as f:
        data = expand_truth(f.read())
    names = []
    errors = {m.group(1).decode(): m.group(2).decode()
              for m in ERROR.finditer(data)}
    pos = 0
    # (the next @@TH-MISSING at or after pos, searched again only once pos
    # has passed it: searching from every file scanned the rest of the
    # data each time, 40 minutes for the options scenario's 60,000 files)
    m = data.find(b"@@TH-MISSING ")
    while True:
        b = data.find(BEGIN, pos)
        if 0 <= m < pos:
            m = data.find(b"@@TH-MISSING ", pos)
        if m >= 0 and (b < 0 or m < b):
            pos = data.index(b"\n", m) + 1
            continue
        if b < 0:
            break
        nl = data.index(b"\n", b)
        name = data[b + len(BEGIN):nl].decode()
        end_marker = END + name.encode() + b"\n"
        e = data.find(end_marker, nl + 1)
        if e < 0:
            raise FixtureError("truth for %s is truncated" % name)
        body = data[nl + 1:e]
        dest = os.path.join(truth_dir, name)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "wb") as f:
            f.write(body)
        names.append(name)
        pos = e + len(end_marker)
    if not names:
        raise FixtureError("the guest captured no truth files")
    return names, errors


# ------------------------------------------------------------------ main ---

def scenario_hash(scen_dir):
    h = hashlib.sha256()
    h.update(PIPELINE_VERSION.encode())
    files = []
    for label, base in (("scenario", scen_dir), ("guest", GUEST)):
        for dp, _, fns in os.walk(base):
            for fn in fns:
                p = os.path.join(dp, fn)
                files.append((label + "/" + os.path.relpath(p, base), p))
    for rel, p in sorted(files):
        h.update(rel.encode() + b"\0")
        with open(p, "rb") as f:
            h.update(f.read())
        h.update(b"\0")
    return h.hexdigest()[:12]


def resolve_scenario(scenario):
    """A scenario name under testdata/scenarios, or a directory path."""
    if os.sep in scenario:
        scen_dir = os.path.abspath(scenario)
    else:
        scen_dir = os.path.join(SCENARIOS, scenario)
    if not os.path.isfile(os.path.join(scen_dir, "setup.sh")):
        raise FixtureError("no scenario %r (have: %s)" % (
            scenario, ", ".join(sorted(os.listdir(SCENARIOS)))))
    return scen_dir


# One boot gives the dumps of every variant it can: kdump-zlib and ELF are
# written from the same stopped guest and the filtered dump is made from
# the ELF one, so all three share the same live truth.  KASLR needs its own
# boot.
BOOTS = {"kdump": ("kdump", "elf", "filtered"),
         "elf": ("kdump", "elf", "filtered"),
         "filtered": ("kdump", "elf", "filtered"),
         "kaslr": ("kaslr",)}


# Fixtures of a scenario's other hashes (an older scenario, or another
# checkout's: a CI run beside a session, two branches at once) are kept
# while something uses them, and removed once unused for STALE_SECONDS.
STALE_SECONDS = 2 * 86400


def touch_used(base):
    """Mark BASE (one scenario-hash directory) as used now."""
    try:
        os.utime(base)
    except OSError:
        pass


def prune_stale(parent, scenario, shash):
    """Remove PARENT's fixtures of SCENARIO's other hashes unused for
    STALE_SECONDS.  Only SCENARIO-<hash>: another scenario whose name
    starts with SCENARIO- (rhel7-graph for rhel7) is not one of them."""
    keep = "%s-%s" % (scenario, shash)
    own = re.compile(r"%s-[0-9a-f]{%d}\Z" % (re.escape(scenario),
                                            len(shash)))
    now = time.time()
    for old in glob.glob(os.path.join(parent, "%s-*" % scenario)):
        name = os.path.basename(old)
        if name == keep or not own.match(name):
            continue
        try:
            if now - os.stat(old).st_mtime < STALE_SECONDS:
                continue
        except OSError:
            continue
        shutil.rmtree(old, ignore_errors=True)
        try:
            os.unlink(old + ".lock")
        except OSError:
            pass


def build(suite_name, scenario, variant, force=False, timeout=None,
          fixtures=None):
    scen_dir = resolve_scenario(scenario)
    scenario = os.path.basename(scen_dir.rstrip("/"))
    if variant not in VARIANTS:
        raise FixtureError("unknown variant %r (have: %s)"
                           % (variant, ", ".join(VARIANTS)))
    suite = make_suite(suite_name)
    rel = suite.release()
    shash = scenario_hash(scen_dir)
    fixtures = fixtures or os.path.join(CACHE, "fixtures")
    base = os.path.join(fixtures, rel, "%s-%s" % (scenario, shash))
    out = os.path.join(base, variant)
    if os.path.exists(os.path.join(out, "manifest.json")) and not force \
            and not _refilter_wanted(suite, out):
        touch_used(base)
        prune_stale(os.path.dirname(base), scenario, shash)
        return out
    with Lock(base + ".lock"):
        if _refilter_wanted(suite, out) and not force and \
                os.path.exists(os.path.join(base, "elf", "manifest.json")):
            _refilter(suite, base)
        if os.path.exists(os.path.join(out, "manifest.json")) and not force:
            return out
        _build(suite, rel, scen_dir, scenario, shash, base, variant,
               timeout, force)
    return out


def _refilter_wanted(suite, out):
    """Whether OUT is a filtered dump made at another level than the
    suite's (FILTER_LEVEL changed since it was cached)."""
    if os.path.basename(out) != "filtered":
        return False
    try:
        with open(os.path.join(out, "manifest.json")) as f:
            return json.load(f).get("dump_format") != filtered_format(suite)
    except (OSError, ValueError):
        return False


def _refilter(suite, base):
    """The filtered variant made again, without a boot, from the ELF dump
    of the same scenario hash: that boot's truth, console and manifest,
    and a makedumpfile copy at the suite's level."""
    elf = os.path.join(base, "elf")
    out = os.path.join(base, "filtered")
    work = os.path.join(base, ".refilter")
    with open(os.path.join(elf, "manifest.json")) as f:
        m = json.load(f)
    log("%s: the filtered dump again (%s), from the ELF dump"
        % (base, filter_cmd(suite)))
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(elf, work, ignore=shutil.ignore_patterns(
        "vmcore", "manifest.json"))
    # (a copy: make_filtered() moves QEMU's program headers for the
    # time, and tests may be reading the ELF dump)
    copy = os.path.join(work, "vmcore.elf")
    shutil.copyfile(os.path.join(elf, "vmcore"), copy)
    info = make_filtered(suite, m["vmlinux"], copy,
                         os.path.join(work, "vmcore"),
                         os.path.join(work, "console.log"))
    os.unlink(copy)
    m.update(variant="filtered", dump_format=filtered_format(suite),
             vmcoreinfo=info, vmcore=os.path.join(out, "vmcore"),
             built=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    with open(os.path.join(work, "manifest.json"), "w") as f:
        json.dump(m, f, indent=1)
    shutil.rmtree(out, ignore_errors=True)
    os.rename(work, out)


def _build(suite, rel, scen_dir, scenario, shash, base, variant, timeout,
           force):
    suite.ensure()
    vmlinuz, vmlinux = fetch_kernel(suite, rel)
    prune_stale(os.path.dirname(base), scenario, shash)
    t0 = time.time()
    # Siblings that already exist keep their own boot (tests may be reading
    # them); only the missing ones come from this boot.
    variants = [v for v in BOOTS[variant] if v == variant or force or
                not os.path.exists(os.path.join(base, v, "manifest.json"))]
    work = os.path.join(base, ".boot-" + variant)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    kos = build_modules(suite, rel, scen_dir, work)
    initrd = os.path.join(work, "initrd.gz")
    build_initramfs(scen_dir, kos, work, initrd,
                    getattr(suite, "tracing_dir", None))
    dumps = []
    for v in variants:
        if v == "filtered" and "elf" not in variants:
            dumps.append((os.path.join(work, "vmcore.elf"), "elf"))
        if v != "filtered":
            dumps.append((os.path.join(work, "vmcore." + v),
                          "elf" if v == "elf" else "kdump-zlib"))
    shape = guest_shape(scen_dir)
    boot_and_dump(vmlinuz, initrd, work, variant == "kaslr", dumps,
                  timeout, shape)
    with open(os.path.join(work, "truth.raw"), "rb") as f:
        raw = f.read()
    if b"@@TH-DONE" not in raw:
        last = raw.rstrip().rsplit(b"\n", 1)[-1].decode(errors="replace")
        raise TruthLost("the guest panicked before its truth was captured "
                        "(the truth ends with %r); console tail:\n%s"
                        % (last[-100:], tail(os.path.join(work,
                                                          "console.log"))))
    vmcoreinfo = None
    if "filtered" in variants:
        vmcoreinfo = make_filtered(suite, vmlinux,
                                   os.path.join(work, "vmcore.elf"),
                                   os.path.join(work, "vmcore.filtered"),
                                   os.path.join(work, "console.log"))
        if "elf" not in variants:
            os.unlink(os.path.join(work, "vmcore.elf"))
    truth = os.path.join(work, "truth")
    names, errors = split_truth(os.path.join(work, "truth.raw"), truth)
    os.unlink(initrd)
    # (a custom kernel's by its pseudo suite's name)
    crash_suite = Suite(CRASH_SUITE.get(getattr(suite, "pseudo", None) or
                                        suite.name, suite.name))
    for v in variants:
        out = os.path.join(base, v)
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        os.rename(os.path.join(work, "vmcore." + v),
                  os.path.join(out, "vmcore"))
        shutil.copytree(truth, os.path.join(out, "truth"))
        for f in ["console.log", "truth.raw"] + kos:
            shutil.copy(os.path.join(work, f), os.path.join(out, f))
        m = {
            "suite": getattr(suite, "pseudo", suite.name),
            "release": rel,
            "scenario": scenario,
            "scenario_hash": shash,
            "variant": v,
            "dump_format": {"elf": "elf", "filtered":
                            filtered_format(suite)}.get(v, "kdump-zlib"),
            "kaslr": v == "kaslr",
            # (filtered: the VMCOREINFO makedumpfile was given)
            "vmcoreinfo": vmcoreinfo if v == "filtered" else None,
            # The crash that opens this dump (the suite's own unless
            # CRASH_SUITE says otherwise).
            "crash_suite": crash_suite.name,
            "crash_version": crash_suite.crash_version(),
            "crash": crash_suite.crash_cmd(),
            "chroot": None if crash_suite.host else crash_suite.root,
            "defs_h": crash_suite.defs_h(),
            "gcc": suite.sh("gcc -dumpfullversion", capture=True).strip(),
            "vmlinux": vmlinux,
            "vmlinuz": vmlinuz,
            "vmcore": os.path.join(out, "vmcore"),
            "modules": kos,
            "truth_files": names,
            # files the guest could not open or read: {name: errno}
            "truth_errors": errors,
            "boot_seconds": round(time.time() - t0, 1),
            "smp": int(shape["smp"]),
            "mem": shape["mem"],
            # (MACHINE: kernel command-line words, guest resets)
            "append": shape["append"],
            "resets": shape["resets"],
            "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
        manifest = os.path.join(out, "manifest.json")
        with open(manifest + ".tmp", "w") as f:
            json.dump(m, f, indent=1)
        os.rename(manifest + ".tmp", manifest)
    shutil.rmtree(work, ignore_errors=True)


# The dump level of the filtered variant, by the Debian suite whose
# makedumpfile makes it: -d 31, what customers usually send, except where
# that makedumpfile leaves out a page crash cannot start without.
# - sid: makedumpfile 1.7.8 takes a page-table page of 7.2 (trixie's crash:
#   "page excluded ... pud page") for a user page; -d 31 and -d 15 leave it
#   out and crash cannot open the dump (sid's crash 9.0.2 exits without a
#   word), -d 23 (user pages kept) opens (2026-11-30, the events boot: 22 MB
#   against 21 MB at -d 31).  docs/KERNELS.md.
FILTER_LEVEL = {"sid": 23}


def filter_level(suite):
    return FILTER_LEVEL.get(suite.name, 31)


def filter_cmd(suite):
    """The makedumpfile options of SUITE's filtered dumps."""
    return "makedumpfile -c -d %d" % filter_level(suite)


def filtered_format(suite):
    """The filtered variant's dump_format (its manifest)."""
    return "kdump-zlib (%s)" % filter_cmd(suite)


def make_filtered(suite, vmlinux, elf, dest, console):
    """makedumpfile -c -d 31 (what customers usually send; FILTER_LEVEL
    has the exceptions), with the suite's own makedumpfile and the
    kernel's own VMCOREINFO note, taken
    out of the ELF dump where the guest said it is (CONSOLE's
    "@@TH-VMCOREINFO PHYS SIZE" line, from /sys/kernel/vmcoreinfo), as
    kdump's makedumpfile finds it in /proc/vmcore.  "makedumpfile -g"
    derives one from the vmlinux only when the guest has none: the derived
    one lacks the page-type values (NUMBER(PAGE_SLAB_MAPCOUNT_VALUE), ...)
    the kernel exports, and makedumpfile then takes in-use slab pages of
    6.12 and 7.2 (page types in the top byte since 6.12) for free ones.
    Returns where the VMCOREINFO came from."""
    log("%s (%s)" % (filter_cmd(suite), suite.name))
    info = dest + ".vmcoreinfo"
    source = "guest"
    try:
        with open(info, "wb") as f:
            f.write(guest_vmcoreinfo(elf, console))
    except FixtureError as e:
        log("%s; makedumpfile -g derives one from the vmlinux" % e)
        info = vmcoreinfo_of(suite, vmlinux)
        source = "makedumpfile -g"
    with elf_phdrs_after_ehdr(elf):
        _makedumpfile(suite, info, elf, dest)
    if source == "guest":
        os.unlink(info)
    return source


def guest_vmcoreinfo(elf, console):
    """The text of the VMCOREINFO note at the physical address the guest
    printed on CONSOLE, read from ELF's PT_LOAD segments."""
    m = None
    try:
        with open(console, errors="replace") as f:
            # (the last boot's, when the scenario resets the guest)
            for m in re.finditer(r"@@TH-VMCOREINFO (?:0x)?([0-9a-f]+) "
                                 r"(?:0x)?([0-9a-f]+)", f.read()):
                pass
    except OSError:
        pass
    if not m:
        raise FixtureError("the guest printed no /sys/kernel/vmcoreinfo")
    phys, size = int(m.group(1), 16), int(m.group(2), 16)
    try:
        off = paddr_to_offset(elf, phys)
    except ValueError as e:
        raise FixtureError("the VMCOREINFO note: %s" % e)
    with open(elf, "rb") as f:
        f.seek(off)
        note = f.read(size)
    if len(note) >= 12:
        namesz, descsz, _ = struct.unpack_from("<III", note)
        at = 12 + ((namesz + 3) & ~3)
        if note[12:12 + namesz].rstrip(b"\0") == b"VMCOREINFO" and \
                at + descsz <= len(note):
            return note[at:at + descsz].rstrip(b"\0") + b"\n"
    raise FixtureError("no VMCOREINFO note at %#x in %s" % (phys, elf))


def elf_loads(path):
    """PT_LOAD segments of an ELF64 core: (paddr, offset, filesz)."""
    with open(path, "rb") as f:
        ehdr = f.read(64)
        if ehdr[:4] != b"\x7fELF" or ehdr[4] != 2:
            raise ValueError("%s is not an ELF64 dump" % path)
        phoff, = struct.unpack_from("<Q", ehdr, 32)
        phentsize, phnum = struct.unpack_from("<HH", ehdr, 54)
        f.seek(phoff)
        ph = f.read(phentsize * phnum)
    loads = []
    if phentsize < 56:
        return loads
    for i in range(min(phnum, len(ph) // phentsize)):
        p_type, _, p_offset, _, p_paddr, p_filesz = struct.unpack_from(
            "<IIQQQQ", ph, i * phentsize)
        if p_type == 1:
            loads.append((p_paddr, p_offset, p_filesz))
    return loads


def paddr_to_offset(path, paddr):
    for base, off, size in elf_loads(path):
        if base <= paddr < base + size:
            return off + (paddr - base)
    raise ValueError("physical address %#x is not in %s" % (paddr, path))


class elf_phdrs_after_ehdr:
    """QEMU (7.2) writes its ELF dump with section headers right after the
    ELF header and the program headers behind them; makedumpfile (1.6.8 to
    1.7.x) reads the program headers from just after the ELF header.  For
    the duration, move them there (the notes and loads are found through
    their own offsets); the original bytes are put back afterwards."""

    def __init__(self, path):
        self.path = path
        self.saved = None

    def __enter__(self):
        import struct
        os.chmod(self.path, 0o600)
        with open(self.path, "r+b") as f:
            eh = bytearray(f.read(64))
            if eh[:4] != b"\x7fELF" or eh[4] != 2:
                return self
            phoff, = struct.unpack_from("<Q", eh, 32)
            phentsize, phnum = struct.unpack_from("<HH", eh, 54)
            if phoff == 64 or phnum == 0xffff:
                return self
            f.seek(phoff)
            ph = f.read(phentsize * phnum)
            end = max(64 + len(ph), phoff + len(ph))
            f.seek(0)
            self.saved = f.read(end)
            struct.pack_into("<Q", eh, 32, 64)        # e_phoff
            struct.pack_into("<Q", eh, 40, 0)         # e_shoff
            struct.pack_into("<H", eh, 52, 64)        # e_ehsize
            struct.pack_into("<HHH", eh, 58, 0, 0, 0)  # e_sh*
            f.seek(0)
            f.write(bytes(eh) + ph)
        return self

    def __exit__(self, *a):
        if self.saved is not None:
            with open(self.path, "r+b") as f:
                f.write(self.saved)


def vmcoreinfo_of(suite, vmlinux):
    """The VMCOREINFO makedumpfile derives from VMLINUX's debug info
    (makedumpfile -g), once per kernel: parsing the DWARF is most of the
    cost of "makedumpfile -x", and the guest exports none itself (its
    fw_cfg driver is a module the initramfs does not load)."""
    info = os.path.join(os.path.dirname(vmlinux), "vmcoreinfo")
    if os.path.exists(info):
        return info
    with Lock(info + ".lock"):      # (fixtures build two at a time)
        if not os.path.exists(info):
            _vmcoreinfo(suite, vmlinux, info)
    return info


def _vmcoreinfo(suite, vmlinux, info):
    log("makedumpfile -g (VMCOREINFO of %s, once per kernel)"
        % os.path.basename(os.path.dirname(vmlinux)))
    _suite_cmd(suite, "makedumpfile -g %s.part -x %s"
               % (shlex.quote(info), shlex.quote(vmlinux)),
               info + ".err", [os.path.dirname(vmlinux)])
    os.rename(info + ".part", info)


def _makedumpfile(suite, info, elf, dest):
    _suite_cmd(suite, "%s -i %s %s %s"
               % ((filter_cmd(suite),) +
                  tuple(shlex.quote(x) for x in (info, elf, dest))),
               dest + ".err", sorted({os.path.dirname(info),
                                      os.path.dirname(elf),
                                      os.path.dirname(dest)}))
    os.unlink(dest + ".err")


def _suite_cmd(suite, cmd, err, binds):
    try:
        suite.sh("%s >/dev/null 2>%s || { tail -5 %s >&2; exit 1; }"
                 % (cmd, shlex.quote(err), shlex.quote(err)), binds=binds)
    except FixtureError as e:
        raise FixtureError("%s: %s" % (cmd.split()[0], e))


# Suites whose dumps another suite's crash opens (see README: kernel table).
CRASH_SUITE = {}


# ------------------------------------------------------- custom kernels ---
# Pseudo-suites whose kernel no Debian package has (every Debian kernel has
# ftrace and kprobes): scripts/build-kernel builds it from the base suite's
# kernel source package with a config fragment of testdata/kernels/,
# cached in kernels/KEY/ (KEY = source version + fragment hash), which is
# where fetch_kernel() then finds its vmlinuz and vmlinux.  Host tools,
# gcc and crash are the base suite's.  Scenarios meant for such a kernel
# carry a SUITES file (tests/thlib.py keeps them out of the normal runs).
# "rhel7": RHEL 7.3's 3.10.0-514.el7 from its source tarball beside the
# project, with the project's patches for today's compilers, its build tree
# kept for the scenario modules; 3.10 has no tracefs, so the guest's $T is
# debugfs's tracing directory (set before the scenario's setup.sh).
RHEL7_TARBALL = "../shared/kernels/linux-3.10.0-514.el7.tar.xz"
CUSTOM_KERNELS = {
    "bookworm-noftrace": ("bookworm", "noftrace.config", [], None),
    "rhel7": ("bookworm", "rhel7.config",
              ["--tarball", RHEL7_TARBALL, "--patches",
               "scripts/patches/rhel7", "--base", "allnoconfig",
               "--keep-build"], "/sys/kernel/debug/tracing"),
    # user events (CONFIG_USER_EVENTS: no Debian kernel has it; 6.1's
    # depends on BROKEN): trixie's linux-source-6.12, from its chroot
    "trixie-uevents": ("trixie", "uevents.config",
                       ["--suite", "trixie", "--package",
                        "linux-source-6.12"], None),
}
CRASH_SUITE.update({k: v[0] for k, v in CUSTOM_KERNELS.items()})
# trixie's crash 8.0.6 cannot open a kernel without CONFIG_AMD_MEM_ENCRYPT:
# its #VC exception stacks have size 0, and reading them at start-up
# ("invalid size request: 0  type: \"stack contents\"") is fatal; sid's
# crash 9.0.2 opens it.
CRASH_SUITE["trixie-uevents"] = "sid"
# Custom kernels whose scenarios every test file runs on (tests/thlib.py);
# the others have a test file of their own.
GENERIC_SUITES = ("rhel7", "trixie-uevents")


class CustomKernelSuite(Suite):
    def __init__(self, name):
        base, frag, self.build_args, self.tracing_dir = \
            CUSTOM_KERNELS[name]
        Suite.__init__(self, base)
        self.pseudo = name
        self.fragment = os.path.join(ROOT, "testdata", "kernels", frag)

    def release(self, refresh=False):
        """The build-kernel cache key (builds the kernel the first time,
        ~15-30 min on 2 cores; its progress goes to stderr).  The base
        suite's chroot first: build-kernel --suite takes the source
        package from it."""
        self.ensure()
        kdir = run([os.path.join(ROOT, "scripts", "build-kernel"),
                    self.fragment] + self.build_args,
                   stdout=subprocess.PIPE,
                   text=True).stdout.strip().splitlines()[-1]
        if os.path.dirname(kdir) != os.path.join(CACHE, "kernels"):
            raise FixtureError("build-kernel put the kernel in %s, not "
                               "under %s/kernels" % (kdir, CACHE))
        return os.path.basename(kdir)


# ------------------------------------------------------- kernel flavors ---
# Pseudo suites whose kernel is another flavor Debian builds for a suite:
# the release is the dependency of the flavor's meta package, fetched and
# cached like the suite's own kernel; chroot, tools and crash are the
# suite's.  Like the custom kernels, they run only the scenarios whose
# SUITES file names them, through every test file (GENERIC_SUITES).
# "sid-rt": PREEMPT_RT, the only Debian kernel with latency tracers
# (wakeup, wakeup_rt, wakeup_dl, hwlat, osnoise, timerlat).
FLAVORS = {
    "sid-rt": ("sid", "linux-image-rt-amd64"),
}
CRASH_SUITE.update({k: v[0] for k, v in FLAVORS.items()})
GENERIC_SUITES += tuple(FLAVORS)
# Every pseudo suite (tests/thlib.py: scenarios only where SUITES names it).
PSEUDO_SUITES = tuple(CUSTOM_KERNELS) + tuple(FLAVORS)


class FlavorSuite(Suite):
    def __init__(self, name):
        base, self.META = FLAVORS[name]
        Suite.__init__(self, base)
        self.pseudo = name


def make_suite(name):
    if name in CUSTOM_KERNELS:
        return CustomKernelSuite(name)
    return FlavorSuite(name) if name in FLAVORS else Suite(name)
# ------------------------------------------------- end custom kernels ---


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenario", nargs="?")
    ap.add_argument("--suite", default=host_suite())
    ap.add_argument("--variant", default="kdump")
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--timeout", type=int, default=None,
                    help="seconds to wait for the guest's panic")
    ap.add_argument("--out", default=None,
                    help="fixtures root (default $TRACEHUNT_CACHE/fixtures)")
    ap.add_argument("--print-release", metavar="SUITE")
    a = ap.parse_args()
    try:
        if a.print_release:
            print(make_suite(a.print_release).release())
            return 0
        if not a.scenario:
            ap.error("a scenario is required")
        print(build(a.suite, a.scenario, a.variant, a.force, a.timeout,
                    a.out))
        return 0
    except FixtureError as e:
        print("fixture: error: %s" % e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
