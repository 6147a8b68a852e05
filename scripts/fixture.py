#!/usr/bin/env python3
"""Build (or reuse) one tracehunt fixture: a real Debian kernel booted under
QEMU with a scenario, its live tracefs/debugfs files captured as ground truth
before a sysrq panic, and the guest memory dumped over QMP.

    scripts/fixture.py [--suite bookworm] [--variant kdump] SCENARIO
    scripts/fixture.py --print-release SUITE

Output directory (printed on the last line of stdout):
    $TRACEHUNT_CACHE/fixtures/<release>/<scenario>-<hash>/<variant>/
        vmcore  truth/  truth.raw  console.log  manifest.json
The cache defaults to ~/.cache/tracehunt.  A fixture is keyed by the kernel
release and a hash of the scenario directory plus the guest-side files, so a
changed scenario only rebuilds its own fixtures.
"""

import argparse
import glob
import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIOS = os.path.join(ROOT, "testdata", "scenarios")
GUEST = os.path.join(ROOT, "scripts", "guest")
CACHE = os.environ.get("TRACEHUNT_CACHE",
                       os.path.expanduser("~/.cache/tracehunt"))
VARIANTS = ("kdump", "elf", "kaslr", "filtered")
BOOT_TIMEOUT = int(os.environ.get("TRACEHUNT_BOOT_TIMEOUT", "600"))
# Bumped whenever the way a fixture is produced changes in a way the
# scenario hash cannot see.
PIPELINE_VERSION = "1"


class FixtureError(Exception):
    pass


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
        raise FixtureError("%s failed (exit %d)%s" % (
            " ".join(cmd[:4]), e.returncode,
            (": " + out.strip().splitlines()[-1]) if out.strip() else ""))


def host_suite():
    with open("/etc/os-release") as f:
        for line in f:
            if line.startswith("VERSION_CODENAME="):
                return line.split("=", 1)[1].strip().strip('"')
    return ""


# ---------------------------------------------------------------- suites ---

class Suite:
    """Where a suite's packages, compiler and crash come from.  The host's
    own suite uses the host; any other suite uses a debootstrap chroot."""

    def __init__(self, name):
        self.name = name
        self.host = (name == host_suite())
        self.root = "/" if self.host else os.path.join(CACHE, "chroots", name)

    def sh(self, script, capture=False):
        cmd = ["bash", "-c", script]
        if not self.host:
            cmd = ["chroot", self.root] + cmd
        r = run(cmd, capture_output=capture, text=True)
        return r.stdout if capture else None

    def path(self, p):
        """Host path of a path inside the suite's root."""
        return os.path.join(self.root, p.lstrip("/"))

    def ensure(self):
        if self.host:
            return
        stamp = os.path.join(self.root, ".tracehunt-ready")
        if os.path.exists(stamp):
            return
        log("creating %s chroot (debootstrap)" % self.name)
        if os.path.exists(self.root):
            shutil.rmtree(self.root)
        os.makedirs(os.path.dirname(self.root), exist_ok=True)
        mirror = "http://deb.debian.org/debian"
        run(["debootstrap", "--variant=minbase",
             "--include=crash,gcc,libc6-dev,make,xz-utils", self.name,
             self.root, mirror], capture_output=True)
        with open(stamp, "w") as f:
            f.write("ok\n")

    def release(self):
        """The suite's current amd64 kernel release (resolved now; the last
        answer is remembered for offline runs)."""
        memo = os.path.join(CACHE, "suites", self.name + ".release")
        try:
            self.ensure()
            if not self.host:
                self.sh("apt-get update -qq >/dev/null 2>&1 || true")
            out = self.sh("apt-cache depends linux-image-amd64", capture=True)
            rel = None
            for line in out.splitlines():
                line = line.strip()
                if line.startswith("Depends: linux-image-"):
                    rel = line.split("linux-image-", 1)[1].strip()
                    break
            if not rel:
                raise FixtureError("apt-cache names no linux-image for "
                                   "linux-image-amd64 in %s" % self.name)
            os.makedirs(os.path.dirname(memo), exist_ok=True)
            with open(memo, "w") as f:
                f.write(rel + "\n")
            return rel
        except FixtureError as e:
            if os.path.exists(memo):
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


# ---------------------------------------------------------------- kernel ---

def fetch_kernel(suite, rel):
    """vmlinuz and debug vmlinux of REL, cached under kernels/REL."""
    kdir = os.path.join(CACHE, "kernels", rel)
    vmlinuz = os.path.join(kdir, "vmlinuz")
    vmlinux = os.path.join(kdir, "vmlinux")
    if os.path.exists(vmlinuz) and os.path.exists(vmlinux):
        return vmlinuz, vmlinux
    dl = os.path.join(kdir, "dl")
    os.makedirs(dl, exist_ok=True)
    debs = glob.glob(os.path.join(dl, "*.deb"))
    want = ["linux-image-%s" % rel, "linux-image-%s-dbg" % rel]
    have = [os.path.basename(d).split("_")[0] for d in debs]
    missing = [w for w in want if w not in have]
    if missing:
        log("downloading %s" % " ".join(missing))
        # apt-get download runs in the suite's root and writes to its cwd.
        tmp = suite.path("/tmp/tracehunt-dl")
        os.makedirs(tmp, exist_ok=True)
        suite.sh("cd /tmp/tracehunt-dl && apt-get download -q %s 2>&1 | "
                 "grep -v unsandboxed >&2; test ${PIPESTATUS[0]} -eq 0"
                 % " ".join(missing))
        for f in glob.glob(os.path.join(tmp, "*.deb")):
            shutil.move(f, os.path.join(dl, os.path.basename(f)))
    img = glob.glob(os.path.join(dl, "linux-image-%s_*.deb" % rel))[0]
    dbg = glob.glob(os.path.join(dl, "linux-image-%s-dbg_*.deb" % rel))[0]
    if not os.path.exists(vmlinuz):
        member = deb_member(img, lambda n: n.endswith("/vmlinuz-" + rel)
                            or n.endswith("/%s/vmlinuz" % rel))
        if member is None:
            # sid splits the image: vmlinuz lives in linux-binary-REL.
            suite.sh("cd /tmp/tracehunt-dl && apt-get download -q "
                     "linux-binary-%s >/dev/null 2>&1" % rel)
            for f in glob.glob(suite.path("/tmp/tracehunt-dl/*.deb")):
                shutil.move(f, os.path.join(dl, os.path.basename(f)))
            img = glob.glob(os.path.join(dl, "linux-binary-%s_*.deb" % rel))
            if not img:
                raise FixtureError("no vmlinuz found for %s" % rel)
            img = img[0]
            member = deb_member(img, lambda n: n.endswith("/vmlinuz")
                                or n.endswith("/vmlinuz-" + rel))
        deb_extract(img, member, vmlinuz)
    if not os.path.exists(vmlinux):
        member = deb_member(dbg, lambda n: os.path.basename(n) in
                            ("vmlinux-" + rel, "vmlinux"), regular=True)
        if member is None:
            raise FixtureError("no vmlinux in %s" % os.path.basename(dbg))
        log("extracting vmlinux (~40 s)")
        deb_extract(dbg, member, vmlinux)
    # The debs are no longer needed once both files are out.
    shutil.rmtree(dl, ignore_errors=True)
    return vmlinuz, vmlinux


def deb_member(deb, pred, regular=False):
    out = run(["dpkg-deb", "-c", deb], capture_output=True,
              text=True).stdout
    for line in out.splitlines():
        parts = line.split()
        name = parts[5] if len(parts) > 5 else ""
        if regular and not line.startswith("-"):
            continue
        if pred(name):
            return name
    return None


def deb_extract(deb, member, dest):
    tmp = dest + ".part"
    with open(tmp, "wb") as out:
        p1 = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", deb],
                              stdout=subprocess.PIPE)
        p2 = subprocess.Popen(["tar", "-xO", member], stdin=p1.stdout,
                              stdout=out)
        p1.stdout.close()
        rc2 = p2.wait()
        rc1 = p1.wait()
    if rc1 or rc2 or os.path.getsize(tmp) == 0:
        os.unlink(tmp)
        raise FixtureError("extracting %s from %s failed" % (member, deb))
    os.rename(tmp, dest)


def ensure_headers(suite, rel):
    hdr = "/usr/src/linux-headers-%s" % rel
    if not os.path.isdir(suite.path(hdr)):
        log("installing linux-headers-%s in %s" % (rel, suite.name))
        suite.sh("DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "
                 "linux-headers-%s >/dev/null" % rel)
    return hdr


def build_modules(suite, rel, scen_dir, out_dir):
    srcs = sorted(glob.glob(os.path.join(scen_dir, "modules", "*.c")))
    if not srcs:
        return []
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


# -------------------------------------------------------------- initramfs ---

def build_initramfs(scen_dir, kos, mod_dir, dest):
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
        os.chmod(os.path.join(root, "init"), 0o755)
        for f in os.listdir(scen_dir):
            p = os.path.join(scen_dir, f)
            if os.path.isfile(p):
                shutil.copy(p, os.path.join(root, "scenario", f))
        for ko in kos:
            shutil.copy(os.path.join(mod_dir, ko), os.path.join(root, "mods"))
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
    for c in cmds:
        call(c)
    s.close()


def boot_and_dump(vmlinuz, initrd, out, variant):
    console = os.path.join(out, "console.log")
    truth = os.path.join(out, "truth.raw")
    sock = os.path.join(out, "qmp.sock")
    for p in (console, truth, sock):
        if os.path.exists(p):
            os.unlink(p)
    append = "console=ttyS0 panic=0 quiet loglevel=4"
    if variant != "kaslr":
        append += " nokaslr"
    cmd = ["qemu-system-x86_64", "-m", "512M", "-smp", "2", "-nographic",
           "-no-reboot", "-kernel", vmlinuz, "-initrd", initrd,
           "-append", append, "-serial", "file:" + console,
           "-serial", "file:" + truth, "-monitor", "none",
           "-qmp", "unix:%s,server,nowait" % sock, "-display", "none"]
    if os.path.exists("/dev/kvm") and os.environ.get("TRACEHUNT_KVM"):
        cmd.insert(1, "-enable-kvm")
    log("booting %s (%s)" % (os.path.basename(out.rstrip("/")), variant))
    t0 = time.time()
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
                raise FixtureError("QEMU exited (%d) before the panic; "
                                   "console tail:\n%s"
                                   % (proc.returncode, tail(console)))
            text = ""
            if os.path.exists(console):
                with open(console, "rb") as f:
                    text = f.read().decode(errors="replace")
            if "end Kernel panic" in text:
                break
            if "@@TH-SCENARIO-FAILED" in text:
                raise FixtureError("the scenario failed in the guest; "
                                   "console tail:\n%s" % tail(console))
            if time.time() - t0 > BOOT_TIMEOUT:
                raise FixtureError("the guest did not panic within %d s; "
                                   "console tail:\n%s"
                                   % (BOOT_TIMEOUT, tail(console)))
            time.sleep(0.5)
        time.sleep(0.5)
        dump = os.path.join(out, "vmcore")
        if variant in ("kdump", "kaslr", "filtered"):
            args = {"paging": False, "protocol": "file:" + dump,
                    "format": "kdump-zlib"}
        else:
            args = {"paging": False, "protocol": "file:" + dump}
        if variant == "filtered":
            args["protocol"] = "file:" + dump + ".full"
            args.pop("format")
        qmp(sock, [{"execute": "qmp_capabilities"}, {"execute": "stop"},
                   {"execute": "dump-guest-memory", "arguments": args}],
            timeout=600)
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


def split_truth(raw_path, truth_dir):
    """truth.raw holds, per captured file, '@@TH-BEGIN NAME\\n' + the file's
    exact bytes + '\\n@@TH-END NAME\\n' (or '@@TH-MISSING NAME\\n')."""
    with open(raw_path, "rb") as f:
        data = f.read()
    names = []
    pos = 0
    while True:
        b = data.find(BEGIN, pos)
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
    return names


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


def build(suite_name, scenario, variant, force=False):
    scen_dir = os.path.join(SCENARIOS, scenario)
    if not os.path.isdir(scen_dir):
        raise FixtureError("no scenario %r (have: %s)" % (
            scenario, ", ".join(sorted(os.listdir(SCENARIOS)))))
    if variant not in VARIANTS:
        raise FixtureError("unknown variant %r (have: %s)"
                           % (variant, ", ".join(VARIANTS)))
    suite = Suite(suite_name)
    rel = suite.release()
    shash = scenario_hash(scen_dir)
    out = os.path.join(CACHE, "fixtures", rel, "%s-%s" % (scenario, shash),
                       variant)
    manifest = os.path.join(out, "manifest.json")
    if os.path.exists(manifest) and not force:
        return out
    suite.ensure()
    vmlinuz, vmlinux = fetch_kernel(suite, rel)
    # A changed scenario replaces its own older fixtures, nothing else.
    for old in glob.glob(os.path.join(CACHE, "fixtures", rel,
                                      "%s-*" % scenario)):
        if os.path.basename(old) != "%s-%s" % (scenario, shash):
            shutil.rmtree(old, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    kos = build_modules(suite, rel, scen_dir, out)
    initrd = os.path.join(out, "initrd.gz")
    build_initramfs(scen_dir, kos, out, initrd)
    boot_and_dump(vmlinuz, initrd, out, variant)
    if variant == "filtered":
        full = os.path.join(out, "vmcore.full")
        run(["makedumpfile", "-c", "-d", "31", "-x", vmlinux, full,
             os.path.join(out, "vmcore")], capture_output=True)
        os.unlink(full)
    names = split_truth(os.path.join(out, "truth.raw"),
                        os.path.join(out, "truth"))
    os.unlink(initrd)
    m = {
        "suite": suite_name,
        "release": rel,
        "scenario": scenario,
        "scenario_hash": shash,
        "variant": variant,
        "dump_format": "elf" if variant == "elf" else "kdump-zlib",
        "kaslr": variant == "kaslr",
        "crash_version": suite.crash_version(),
        "crash": suite.crash_cmd(),
        "chroot": None if suite.host else suite.root,
        "defs_h": suite.defs_h(),
        "vmlinux": vmlinux,
        "vmcore": os.path.join(out, "vmcore"),
        "modules": kos,
        "truth_files": names,
        "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    with open(manifest + ".tmp", "w") as f:
        json.dump(m, f, indent=1)
    os.rename(manifest + ".tmp", manifest)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenario", nargs="?")
    ap.add_argument("--suite", default=host_suite())
    ap.add_argument("--variant", default="kdump")
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--print-release", metavar="SUITE")
    a = ap.parse_args()
    try:
        if a.print_release:
            print(Suite(a.print_release).release())
            return 0
        if not a.scenario:
            ap.error("a scenario is required")
        print(build(a.suite, a.scenario, a.variant, a.force))
        return 0
    except FixtureError as e:
        print("fixture: error: %s" % e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
