#!/usr/bin/python3
"""Seed corpora for the fuzz targets, from real fixture bytes.

  ringbuf   sub-buffers (reader, head, commit and tail pages of every CPU)
            read with crash `rd -r` from the graph and wrap fixtures
  insn      function entries as the dumps hold them: ftrace calls (graph),
            int3 and optimized-kprobe jumps (modules), plain NOPs
  printfmt  print_fmt + fields of real events (tests/unit/data/printfmt/
            events.txt) with the real records paired with them
  bprint    the fixture modules' trace_printk formats, arguments packed as
            vbin_printf() packs them
  walk      memory images: chains, cycles, garbage and NULL pointers

Writes fuzz/corpus/TARGET/seed-*.  Run by hand (needs the fixtures); the
seeds are kept in the repository.
"""

import os
import re
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")
PYTHON = "/usr/bin/python3"
DATA = os.path.join(ROOT, "tests", "unit", "data", "printfmt")


def fixture(scenario):
    d = subprocess.run([PYTHON, os.path.join(ROOT, "scripts", "fixture.py"),
                        scenario], check=True, capture_output=True,
                       text=True).stdout.strip().splitlines()[-1]
    import json
    with open(os.path.join(d, "manifest.json")) as f:
        return d, json.load(f)


def crash(man, cmds):
    with tempfile.NamedTemporaryFile("w", suffix=".crash") as cf:
        cf.write("\n".join(cmds) + "\nquit\n")
        cf.flush()
        return subprocess.run(["crash", "-s", man["vmlinux"], man["vmcore"],
                               "-i", cf.name], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True,
                              timeout=600).stdout


def put(target, name, data):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "seed-" + name), "wb") as f:
        f.write(data)


def ringbuf_and_insn():
    tmp = tempfile.mkdtemp(prefix="th-seeds-")
    for scen in ("graph", "wrap", "modules"):
        d, man = fixture(scen)
        exprs = []
        for cpu in range(2):
            for which in ("reader_page", "head_page", "commit_page",
                          "tail_page"):
                exprs.append(("%s-cpu%d-%s" % (scen, cpu, which),
                              "p/x ((struct trace_buffer *)global_trace."
                              "array_buffer.buffer)->buffers[%d]->%s->page"
                              % (cpu, which)))
        funcs = []
        if scen == "graph":
            with open(os.path.join(d, "truth/tracing/enabled_functions")) as f:
                funcs = [l.split()[0] for l in f][:6]
        if scen == "modules":
            with open(os.path.join(d, "truth/debug/kprobes/list")) as f:
                funcs = sorted({l.split()[2].split("+")[0] for l in f
                                if len(l.split()) > 2})
        funcs += ["schedule", "ftrace_caller", "ftrace_regs_caller"]
        out = crash(man, [c for _, c in exprs])
        addrs = re.findall(r"^\$\d+ = (0x[0-9a-f]+)", out, re.M)
        cmds = []
        for (name, _), a in zip(exprs, addrs):
            if int(a, 16):
                cmds.append("rd -r %s/rb-%s %s 4096" % (tmp, name, a))
        for fn in funcs:
            cmds.append("rd -r %s/insn-%s-%s %s 64" % (tmp, scen, fn, fn))
        crash(man, cmds)
    seen = set()
    for name in sorted(os.listdir(tmp)):
        with open(os.path.join(tmp, name), "rb") as f:
            data = f.read()
        os.unlink(os.path.join(tmp, name))
        if data in seen or not data:
            continue
        seen.add(data)
        if name.startswith("rb-"):
            # layout byte 0: little endian, 8-byte local_t, capacity =
            # the bytes given (4096 - 16)
            put("ringbuf", name[3:], b"\x00" + data)
        else:
            put("insn", name[5:], b"\x01" + data)
    os.rmdir(tmp)


def unesc(s):
    return re.sub(r"\\(.)", lambda m: {"t": "\t", "n": "\n"}.get(
        m.group(1), m.group(1)), s)


def load_events():
    events, e = {}, None
    with open(os.path.join(DATA, "events.txt")) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if p[0] == "E" and len(p) >= 4:
                e = {"name": unesc(p[2]), "fmt": "", "fields": []}
                events[e["name"]] = e
            elif p[0] == "P" and e and len(p) >= 2:
                e["fmt"] = unesc(p[1])
            elif p[0] == "F" and e and len(p) >= 7:
                e["fields"].append((int(p[1]), int(p[2]), int(p[3]),
                                    unesc(p[5]), unesc(p[6])))
    return events


def printfmt_input(flags, fmt, fields, rec):
    ftext = "\n".join("%d\t%d\t%d\t%s\t%s" % f for f in fields)
    return (bytes([flags]) + fmt.encode() + b"\0" + ftext.encode() + b"\0" +
            rec)


def printfmt():
    events = load_events()
    done = set()
    for rf in sorted(os.listdir(DATA)):
        if not rf.startswith("records-"):
            continue
        with open(os.path.join(DATA, rf)) as f:
            for line in f:
                p = line.rstrip("\n").split("\t")
                if p[0] != "R" or len(p) < 6 or p[1] in done:
                    continue
                e = events.get(p[1])
                if not e:
                    continue
                done.add(p[1])
                rec = bytes.fromhex(p[4])
                put("printfmt", "rec-" + p[1],
                    printfmt_input(0, e["fmt"], e["fields"], rec))
                put("printfmt", "fields-" + p[1],
                    printfmt_input(0x20, e["fmt"], e["fields"], rec))
    # Events with no record: their print_fmt over a zeroed record (the
    # parser is what these exercise); one per distinct construct family.
    kinds = {}
    for name, e in sorted(events.items()):
        if name in done or not e["fmt"]:
            continue
        key = tuple(sorted(set(re.findall(r"__\w+\(|%[-#0-9.]*[a-zA-Z]+",
                                          e["fmt"]))))
        if key in kinds:
            continue
        kinds[key] = name
        size = max([f[0] + f[1] for f in e["fields"]] + [8])
        put("printfmt", "fmt-" + name,
            printfmt_input(0, e["fmt"], e["fields"], bytes(size)))
        if name.startswith("sys_enter_"):
            put("printfmt", "sysenter-" + name,
                printfmt_input(0x40, "sys_" + name[10:], e["fields"],
                               bytes(size)))
        if name.startswith("sys_exit_"):
            put("printfmt", "sysexit-" + name,
                printfmt_input(0x60, "sys_" + name[9:], e["fields"],
                               bytes(size)))


def vbin_pack(args, long_size=8):
    """Arguments packed as vbin_printf() does: each aligned to its size,
    strings inline with their NUL."""
    out = b""
    for kind, v in args:
        if kind == "s":
            out += v.encode() + b"\0"
            continue
        size = {"c": 1, "h": 2, "i": 4, "q": 8, "l": long_size}[kind]
        out += bytes(-len(out) % size)
        fmt = {1: "<B", 2: "<H", 4: "<I", 8: "<Q"}[size]
        out += struct.pack(fmt, v & ((1 << (8 * size)) - 1))
    return out


def bprint():
    # the fixture modules' trace_printk() calls and every conversion
    seeds = {
        "th_printk-read": ("th_printk: read #%d len=%zu\n",
                           [("i", 3), ("l", 17)]),
        "th_printk-str": ("th_printk: %s and %lx\n",
                          [("s", "a string"), ("l", 0xdeadbeef)]),
        "th_hidden": ("th_hidden: planted %d hooks\n", [("i", 4)]),
        "conv": ("%pS %ps %pB %c%c %5.3s|%-*d|%.*s|%hhx %hx %llx %%\n",
                 [("l", 0xffffffff81a52dd0), ("l", 0xffffffff81a52dd0),
                  ("l", 0xffffffff81a52dd1), ("c", 97), ("c", 98),
                  ("s", "xyzw"), ("i", 6), ("i", -5), ("i", 2),
                  ("s", "abc"), ("c", 0x7f), ("h", 0x1234),
                  ("q", 1 << 40)]),
    }
    for name, (fmt, args) in seeds.items():
        put("bprint", name, b"\x04" + fmt.encode() + b"\0" +
            vbin_pack(args))
        put("bprint", name + "-32", b"\x06" + fmt.encode() + b"\0" +
            vbin_pack(args, 4))


def walk():
    base = 0xffff888000001000

    def img(flags, mx, words):
        return bytes([flags, mx]) + b"".join(struct.pack("<Q", w)
                                             for w in words)

    a = lambda i: base + 8 * i
    put("walk", "hlist", img(0, 64, [a(1), a(2), a(3), 0]))
    put("walk", "circular", img(2, 64, [a(1), a(2), a(3), a(0)]))
    put("walk", "cycle", img(0, 64, [a(1), a(2), a(3), a(1)]))
    put("walk", "self", img(0, 64, [a(0)]))
    put("walk", "garbage", img(0, 64, [a(1), 0x4141414141414141]))
    put("walk", "unaligned", img(4, 64, [a(1) + 3, a(2), 0]))
    put("walk", "outside", img(0, 64, [a(1), base + 0x100000]))
    put("walk", "long", img(0, 200, [a(i + 1) for i in range(120)] + [0]))
    put("walk", "stop-first", img(1, 64, [a(1), a(2), a(0)]))


def main():
    which = sys.argv[1:] or ["ringbuf", "printfmt", "bprint", "walk"]
    if "ringbuf" in which or "insn" in which:
        ringbuf_and_insn()
    if "printfmt" in which:
        printfmt()
    if "bprint" in which:
        bprint()
    if "walk" in which:
        walk()


if __name__ == "__main__":
    main()
