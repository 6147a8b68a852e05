#!/usr/bin/python3
"""Save raw ring-buffer sub-buffers of a fixture, with the live truth of the
same boot, for the sub-buffer decoder's unit test (tests/unit/test_ringbuf.c).

    scripts/extract-ringbuf.py [--so SO] SCENARIO CPU OUTFILE

Regenerate the unit-test data (a few minutes; needs a built extension):

    /usr/bin/python3 scripts/extract-ringbuf.py wrap 0 \\
        tests/unit/data/ringbuf/wrap-cpu0.txt
    /usr/bin/python3 scripts/extract-ringbuf.py events 1 \\
        tests/unit/data/ringbuf/events-cpu1.txt

The sub-buffers of one CPU are listed, in the kernel iterator's order, by
"ftrace trace -r -c CPU" and read with crash's own "rd"; the expected
entries are the lines of the live truth per_cpu/cpuCPU/trace.

File format (one item per line):
  G  data_offset  data_size          (buffer_data_page layout)
  P  skip  hexbytes                  (one sub-buffer; skip: reader offset)
  T  timestamp  pid                  (one live line: "%5lu.%06lu", pid)
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import fixture  # noqa: E402


def run_crash(manifest, cmds):
    cf = "/tmp/extract-ringbuf-%d.cmds" % os.getpid()
    with open(cf, "w") as f:
        f.write("\n".join(cmds) + "\nexit\n")
    p = subprocess.run(list(manifest["crash"]) + [
        "-s", manifest["vmlinux"], manifest["vmcore"], "-i", cf],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, check=False)
    os.unlink(cf)
    return p.stdout.decode(errors="replace")


def main():
    args = sys.argv[1:]
    so = os.path.join(ROOT, "extensions", "tracehunt.so")
    if args and args[0] == "--so":
        so = os.path.abspath(args[1])
        args = args[2:]
    if len(args) != 3:
        sys.exit(__doc__)
    scen, cpu, out = args[0], int(args[1]), args[2]
    d = fixture.build(fixture.host_suite(), scen, "kdump")
    with open(os.path.join(d, "manifest.json")) as f:
        manifest = json.load(f)
    text = run_crash(manifest, ["extend " + so,
                                "ftrace trace -r -c %d" % cpu,
                                "struct buffer_data_page -o"])
    pages = []
    first = True
    for m in re.finditer(r"^CPU (\d+) buffer_page (\w+) data (\w+)"
                         r"( \(reader\))?", text, re.M):
        pages.append((m.group(3), first and m.group(4) is not None))
        first = False
    off = int(re.search(r"\[(\d+)\] unsigned char data", text).group(1))
    # the reader page's read offset, and every page's bytes
    cmds = []
    for data, _ in pages:
        cmds.append("rd -8 %s %d" % (data, 4096))
    reader = re.search(r"^CPU \d+ buffer_page (\w+) .*\(reader\)", text,
                       re.M)
    if reader:
        cmds.append("struct buffer_page.read %s" % reader.group(1))
    raw = run_crash(manifest, cmds)
    blocks, cur = [], None
    for line in raw.splitlines():
        m = re.match(r"^([0-9a-f]{16}):\s+((?:[0-9a-f]{2} ){1,16})", line)
        if not m:
            continue
        addr = int(m.group(1), 16)
        if cur is None or addr == cur[0] + len(cur[1]) and \
                len(cur[1]) < 4096:
            if cur is None:
                cur = [addr, bytearray()]
            cur[1] += bytes.fromhex(m.group(2).replace(" ", ""))
            if len(cur[1]) == 4096:
                blocks.append(bytes(cur[1]))
                cur = None
    read = 0
    m = re.search(r"read = (\d+)", raw)
    if m:
        read = int(m.group(1))
    assert len(blocks) == len(pages), (len(blocks), len(pages))
    truth = open(os.path.join(d, "truth", "tracing", "per_cpu",
                              "cpu%d" % cpu, "trace"), "rb").read()
    lines = []
    for l in truth.decode(errors="replace").splitlines():
        m = re.match(r"^\s*.*-(\d+)\s+\[\d+\] \S+\s+(\d+\.\d{6}): ", l)
        if m:
            lines.append((m.group(2), int(m.group(1))))
    with open(out, "w") as f:
        f.write("# %s cpu%d: scripts/extract-ringbuf.py; do not edit\n"
                % (scen, cpu))
        f.write("G %d %d\n" % (off, 4096 - off))
        for i, b in enumerate(blocks):
            f.write("P %d %s\n" % (read if pages[i][1] else 0, b.hex()))
        for ts, pid in lines:
            f.write("T %s %d\n" % (ts, pid))
    print("%s: %d sub-buffers, %d entries" % (out, len(blocks), len(lines)))


if __name__ == "__main__":
    main()
