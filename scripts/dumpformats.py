#!/usr/bin/python3
"""The dump formats users receive, made from one fixture's ELF dump.

    scripts/dumpformats.py FIXTURE_DIR      (an "elf" variant's directory)

makedumpfile -c (zlib), -l (lzo) and -z (zstd), each with -d 31 (what
kdump's default configuration writes), from the ELF dump of a fixture and
the VMCOREINFO the guest printed: the same boot, the same memory, only the
format differs.  Cached outside the clone like the fixtures, under
$TRACEHUNT_CACHE/formats/KEY/ (KEY: the source dump's path, size and
modification time), made once.

makedumpfile is the host's when it was built with the compression (Debian
12's 1.7.2 has zlib and lzo, not zstd), else the first suite chroot of
scripts/fixture.py whose makedumpfile has it (trixie's 1.7.6 has all
three).  Prints the directory; made.json there says which makedumpfile
made each file.
"""
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import fixture  # noqa: E402

# name, makedumpfile's option, the line of "makedumpfile -v" that says the
# build has it (None: always there)
FORMATS = [("zlib", "-c", None), ("lzo", "-l", "lzo"), ("zstd", "-z", "zstd")]
# suites whose chroot may lend its makedumpfile, in order of preference
LENDERS = ["trixie", "sid"]


def makedumpfile_info(suite):
    """(version, {compression: enabled}) of SUITE's makedumpfile."""
    out = suite.sh("makedumpfile -v 2>&1 || true", capture=True)
    ver, have = "?", {}
    for line in out.splitlines():
        w = line.split()
        if line.startswith("makedumpfile: version") and len(w) > 2:
            ver = w[2]
        elif len(w) == 2 and w[1] in ("enabled", "disabled"):
            have[w[0]] = w[1] == "enabled"
    return ver, have


def suite_for(option, suites):
    """The first of SUITES (Suite, version, have) whose makedumpfile has
    OPTION's compression."""
    for s, ver, have in suites:
        if option is None or have.get(option):
            return s, ver
    return None, None


def key_of(path):
    st = os.stat(path)
    return hashlib.sha256(("%s\0%d\0%d" % (os.path.realpath(path),
                                           st.st_size, st.st_mtime_ns))
                          .encode()).hexdigest()[:16]


def derive(elf_dir):
    """{format: path} of the makedumpfile dumps of ELF_DIR's vmcore, with
    "made" (format: "makedumpfile VERSION (SUITE)") and "dir"."""
    with open(os.path.join(elf_dir, "manifest.json")) as f:
        m = json.load(f)
    if m.get("dump_format") != "elf":
        raise fixture.FixtureError("%s is not an ELF dump" % elf_dir)
    src = m["vmcore"]
    out = os.path.join(fixture.CACHE, "formats", key_of(src))
    made = os.path.join(out, "made.json")
    if not os.path.exists(made):
        with fixture.Lock(out + ".lock"):
            if not os.path.exists(made):
                _derive(m, elf_dir, out, made)
    with open(made) as f:
        r = json.load(f)
    return {"dir": out, "made": r["made"], "seconds": r["seconds"],
            **{k: os.path.join(out, "vmcore." + k) for k in r["made"]}}


def _derive(m, elf_dir, out, made):
    os.makedirs(out, exist_ok=True)
    host = fixture.Suite(fixture.host_suite())
    suites = [(host, *makedumpfile_info(host))]
    work = os.path.join(out, "work")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    # a copy: QEMU's program headers are moved for makedumpfile
    # (fixture.elf_phdrs_after_ehdr), and the fixture is read by others
    elf = os.path.join(work, "vmcore.elf")
    shutil.copyfile(m["vmcore"], elf)
    info = os.path.join(work, "vmcoreinfo")
    with open(info, "wb") as f:
        f.write(fixture.guest_vmcoreinfo(elf, os.path.join(elf_dir,
                                                           "console.log")))
    res, secs = {}, {}
    with fixture.elf_phdrs_after_ehdr(elf):
        for name, opt, need in FORMATS:
            s, ver = suite_for(need, suites)
            if s is None:
                for lender in LENDERS:
                    if lender == host.name:
                        continue
                    ls = fixture.Suite(lender)
                    ls.ensure()
                    suites.append((ls, *makedumpfile_info(ls)))
                    s, ver = suite_for(need, suites)
                    if s:
                        break
            if s is None:
                fixture.log("no makedumpfile with %s (%s) here or in %s"
                            % (name, opt, ", ".join(LENDERS)))
                continue
            dest = os.path.join(out, "vmcore." + name)
            fixture.log("makedumpfile %s -d 31 (%s %s) of %s"
                        % (opt, s.name, ver, m["vmcore"]))
            t0 = time.time()
            fixture._suite_cmd(s, "makedumpfile %s -d 31 -i %s %s %s"
                               % (opt, *(shlex.quote(x) for x in
                                         (info, elf, dest + ".part"))),
                               dest + ".err", [work, out])
            os.rename(dest + ".part", dest)
            os.unlink(dest + ".err")
            secs[name] = round(time.time() - t0, 1)
            res[name] = "makedumpfile %s %s (%s)" % (ver, opt, s.name)
    shutil.rmtree(work, ignore_errors=True)
    with open(made + ".tmp", "w") as f:
        json.dump({"source": m["vmcore"], "made": res, "seconds": secs},
                  f, indent=1)
    os.rename(made + ".tmp", made)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    r = derive(sys.argv[1])
    for k, v in r["made"].items():
        print("%s: %s (%s)" % (r[k], v, r["seconds"][k]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
