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
  elfdata   ELF files: one built here per class and byte order (and one
            with extended section numbering), and the bookworm vmlinux's
            headers and section table with each allocated section cut to
            its first 64 bytes, each with an address and length to look up
  btf       a small BTF cut from the sid kernel's own (the functions of
            the funcargs scenario, their parameters' types), both byte
            orders; a small base and two split BTFs on it cut from the
            modules' BTF as the dump holds it (relocated on vmlinux's);
            also tests/unit/data/btf/ for tests/unit/test_btf.c

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


def fixture(scenario, suite=None):
    d = subprocess.run([PYTHON, os.path.join(ROOT, "scripts", "fixture.py"),
                        scenario] + (["--suite", suite] if suite else []),
                       check=True, capture_output=True,
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


# BTF kinds: bytes after struct btf_type (by kind, times vlen when a pair)
BTF_EXTRA = {1: (4, 0), 3: (12, 0), 4: (0, 12), 5: (0, 12), 6: (0, 8),
             13: (0, 8), 14: (4, 0), 15: (0, 12), 17: (4, 0), 19: (0, 12)}
BTF_FUNCS = ("task_work_add", "do_mmap", "vm_normal_page", "do_sys_openat2",
             "vfs_statx", "ksys_read", "security_file_permission")


def btf_types(data):
    hdr_len, toff, tlen, soff, slen = struct.unpack_from("<IIIII", data, 4)
    types = data[hdr_len + toff:hdr_len + toff + tlen]
    strs = data[hdr_len + soff:hdr_len + soff + slen]
    out, pos = [None], 0
    while pos < len(types):
        name_off, info, st = struct.unpack_from("<III", types, pos)
        one, each = BTF_EXTRA.get((info >> 24) & 0x7f, (0, 0))
        n = one + each * (info & 0xffffff)
        out.append([name_off, info, st, types[pos + 12:pos + 12 + n]])
        pos += 12 + n
    return out, strs


def btf_mini(data, funcs):
    """The FUNCs named, their prototypes and their parameters' types down
    to the first type that is not a modifier, renumbered: pointers point
    to void, structs lose their members (their size stays)."""
    types, strs = btf_types(data)
    new, ids, tab = [None], {0: 0}, {b"": 0}
    table = bytearray(b"\0")

    def name(off):
        s = strs[off:strs.index(b"\0", off)]
        if s not in tab:
            tab[s] = len(table)
            table.extend(s + b"\0")
        return tab[s]

    def add(old):
        if old in ids:
            return ids[old]
        ids[old] = len(new)
        new.append(None)
        name_off, info, st, extra = types[old]
        kind = (info >> 24) & 0x7f
        words = list(struct.unpack("<%dI" % (len(extra) // 4), extra))
        if kind == 2:                           # PTR: to void
            st = 0
        elif kind in (8, 9, 10, 11, 18, 12):    # modifiers, FUNC
            st = add(st)
        elif kind in (4, 5):                    # STRUCT, UNION
            info &= ~0xffffff
            words = []
        elif kind in (6, 19):                   # ENUM, ENUM64
            step = 2 if kind == 6 else 3
            for i in range(0, len(words), step):
                words[i] = name(words[i])
        elif kind == 13:                        # FUNC_PROTO
            st = 0
            for i in range(0, len(words), 2):
                words[i] = name(words[i])
                words[i + 1] = add(words[i + 1])
        new[ids[old]] = (name(name_off), info, st, words)
        return ids[old]

    by_name = {}
    for i in range(1, len(types)):
        t = types[i]
        if (t[1] >> 24) & 0x7f == 12:
            by_name.setdefault(strs[t[0]:strs.index(b"\0", t[0])], i)
    for f in funcs:
        add(by_name[f.encode()])
    return new, bytes(table)


# The funcargs scenario's modules: the functions cut from each one's BTF
# (th_fa2's cmdline_proc_show is vmlinux's: the kernel finds it there)
BTF_MODS = (("th_fa1", ("th_fa_mixed", "th_fa_enums", "th_fa_many",
                        "th_fa_small", "th_fa_void", "th_fa_same",
                        "th_fa_outer", "th_fa_run_set")),
            ("th_fa2", ("th_fa_same", "th_fa2_big", "th_fa2_run_set",
                        "cmdline_proc_show")))


def btf_split_mini(vmlinux, mods):
    """A small base and the split BTFs on it: MODS is a list of (the
    module's BTF as the kernel keeps it, split on VMLINUX, its FUNCs);
    each FUNC found as the kernel does (the base first), the types it
    reaches cut as btf_mini() does, the base's renumbered from 1 and each
    module's after them."""
    base, bstrs = btf_types(vmlinux)
    nb = len(base)
    chains, seen_b = [], set()
    for data, funcs in mods:
        own, ostrs = btf_types(data)
        types, strs = base + own[1:], bstrs + ostrs
        seen = set()

        def reach(i):
            if i == 0 or i in seen:
                return
            seen.add(i)
            name_off, info, st, extra = types[i]
            kind = (info >> 24) & 0x7f
            if kind in (8, 9, 10, 11, 18, 12):
                reach(st)
            elif kind == 13:
                words = struct.unpack("<%dI" % (len(extra) // 4), extra)
                for j in range(1, len(words), 2):
                    reach(words[j])

        by_name = {}
        for i in range(1, len(types)):
            if (types[i][1] >> 24) & 0x7f == 12:
                n = strs[types[i][0]:strs.index(b"\0", types[i][0])]
                by_name.setdefault(n, i)
        for f in funcs:
            reach(by_name[f.encode()])
        seen_b |= {i for i in seen if i < nb}
        chains.append((types, strs, sorted(i for i in seen if i >= nb)))
    ids = {0: 0}
    for n, i in enumerate(sorted(seen_b), 1):
        ids[i] = n
    out_base = btf_emit(base, bstrs, sorted(seen_b), ids, 0)
    outs = []
    for types, strs, own in chains:
        m = dict(ids)
        for n, i in enumerate(own, len(seen_b) + 1):
            m[i] = n
        outs.append(btf_emit(types, strs, own, m, len(out_base[1])))
    return out_base, outs


def btf_emit(types, strs, which, ids, str_base):
    """The types WHICH of TYPES renumbered by IDS, their names in a new
    string table whose offsets start at STR_BASE (a split BTF's)."""
    new, tab = [None], {}
    table = bytearray(b"" if str_base else b"\0")
    if not str_base:
        tab[b""] = 0

    def name(off):
        s = strs[off:strs.index(b"\0", off)]
        if s not in tab:
            tab[s] = str_base + len(table)
            table.extend(s + b"\0")
        return tab[s]

    for i in which:
        name_off, info, st, extra = types[i]
        kind = (info >> 24) & 0x7f
        words = list(struct.unpack("<%dI" % (len(extra) // 4), extra))
        if kind == 2:
            st = 0
        elif kind in (8, 9, 10, 11, 18, 12):
            st = ids[st]
        elif kind in (4, 5):
            info &= ~0xffffff
            words = []
        elif kind in (6, 19):
            step = 2 if kind == 6 else 3
            for j in range(0, len(words), step):
                words[j] = name(words[j])
        elif kind == 13:
            st = 0
            for j in range(0, len(words), 2):
                words[j] = name(words[j]) if words[j] else 0
                words[j + 1] = ids[words[j + 1]]
        new.append((name(name_off) if name_off else 0, info, st, words))
    return new, bytes(table)


def btf_module_data(d):
    """Each module's BTF as the kernel keeps it (struct btf's data, on
    btf_modules), read with the crash that opens the fixture in D (the
    sid kernel's is run in its chroot): {module: bytes}."""
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    import thlib
    dump = thlib.Dump(None, None, None, directory=d)
    c = "list -H btf_modules -o btf_module.list -s btf_module.btf"
    addrs = re.findall(r"btf = (0x[0-9a-f]+)", dump.run([c])[c].decode())
    cmds = []
    for a in addrs:
        cmds += ["p ((struct btf *)%s)->name" % a,
                 "p/x ((struct btf *)%s)->data" % a,
                 "p ((struct btf *)%s)->data_size" % a]
    out = dump.run(cmds)
    res, rds = {}, []
    for i in range(0, len(cmds), 3):
        name = re.search(r'= "([^"\\]*)', out[cmds[i]].decode()).group(1)
        data = re.search(r"= (0x[0-9a-f]+)", out[cmds[i + 1]].decode())
        size = int(re.search(r"= (\d+)", out[cmds[i + 2]].decode()).group(1))
        rds.append((name, "rd -8 %s %d" % (data.group(1), size), size))
    out = dump.run([r for _, r, _ in rds])
    for name, r, size in rds:
        b = bytearray()
        for line in out[r].decode().splitlines():
            m = re.match(r"^[0-9a-f]+:\s+((?:[0-9a-f]{2} ){1,16})", line + " ")
            if m:
                b += bytes.fromhex(m.group(1))[:size - len(b)]
        res[name] = bytes(b)
    return res

def btf_bytes(new, table, big=False):
    e = ">" if big else "<"
    body = b"".join(struct.pack(e + "III%dI" % len(w), n, i, st, *w)
                    for n, i, st, w in new[1:])
    return struct.pack(e + "HBBIIIII", 0xeB9F, 1, 0, 24, 0, len(body),
                       len(body), len(table)) + body + table


def btf():
    d, man = fixture("funcargs", "sid")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "btf")
        subprocess.run(["objcopy", "-O", "binary", "--only-section=.BTF",
                        man["vmlinux"], out], check=True)
        with open(out, "rb") as f:
            vml = f.read()
    new, table = btf_mini(vml, BTF_FUNCS)
    unit = os.path.join(ROOT, "tests", "unit", "data", "btf")
    os.makedirs(unit, exist_ok=True)
    with open(os.path.join(unit, "funcargs-%s.btf" % man["release"]),
              "wb") as f:
        f.write(btf_bytes(new, table))
    regs = struct.pack("<6Q", 0xffff8880046bb480, 0xffff888004deb208, 1,
                       0xffffff9c, 0x100002, 0)
    for name, flags, big in (("le", 0x0c, False), ("be", 0x0c, True),
                             ("le-long4", 0x0d, False),
                             ("le-short", 0x2c, False),
                             ("le-noargs", 0x0e, False)):
        put("btf", name, bytes([flags, 64]) + regs +
            btf_bytes(new, table, big))
    mdata = btf_module_data(d)
    (bnew, btab), splits = btf_split_mini(
        vml, [(mdata[m], funcs) for m, funcs in BTF_MODS])
    with open(os.path.join(unit, "funcargs-base-%s.btf" % man["release"]),
              "wb") as f:
        f.write(btf_bytes(bnew, btab))
    for (m, _), (snew, stab) in zip(BTF_MODS, splits):
        with open(os.path.join(unit, "funcargs-%s-%s.btf" % (
                m, man["release"])), "wb") as f:
            f.write(btf_bytes(snew, stab))
        for name, flags, big in (("le", 0x4c, False), ("be", 0x4c, True),
                                 ("le-short", 0x6c, False)):
            b = btf_bytes(bnew, btab, big)
            put("btf", "split-%s-%s" % (m, name), bytes([flags, 64]) + regs
                + struct.pack("<I", len(b)) + b + btf_bytes(snew, stab, big))


def elf_image(is64, big, sections, xnum=False):
    """An ELF file: header, then SECTIONS [(name, type, flags, addr,
    bytes)] (a NULL section and .shstrtab added), then the headers."""
    e = ">" if big else "<"
    names = b"\0"
    secs = [(0, 0, 0, 0, b"")]
    for name, typ, flags, addr, data in sections:
        secs.append((len(names), typ, flags, addr, data))
        names += name.encode() + b"\0"
    secs.append((len(names), 3, 0, 0, names))
    names += b".shstrtab\0"
    secs[-1] = secs[-1][:4] + (names,)
    ehsize, shsize = (64, 64) if is64 else (52, 40)
    body, offs = b"", []
    for s in secs:
        offs.append(ehsize + len(body))
        body += s[4]
    shoff = ehsize + len(body)
    shoff += -shoff % 8
    body += bytes(shoff - ehsize - len(body))
    shnum, strndx = len(secs), len(secs) - 1
    ident = b"\x7fELF" + bytes([2 if is64 else 1, 2 if big else 1, 1]) + \
        bytes(9)
    if is64:
        hdr = ident + struct.pack(e + "HHIQQQIHHHHHH", 2, 62, 1, 0, 0, shoff,
                                  0, 64, 0, 0, 64, 0 if xnum else shnum,
                                  0xffff if xnum else strndx)
    else:
        hdr = ident + struct.pack(e + "HHIIIIIHHHHHH", 2, 3, 1, 0, 0, shoff,
                                  0, 52, 0, 0, 40, 0 if xnum else shnum,
                                  0xffff if xnum else strndx)
    tab = b""
    for i, (nm, typ, flags, addr, data) in enumerate(secs):
        size = len(data) if i or not xnum else shnum
        link = strndx if i == 0 and xnum else 0
        if is64:
            tab += struct.pack(e + "IIQQQQIIQQ", nm, typ, flags, addr,
                               offs[i], size, link, 0, 1, 0)
        else:
            tab += struct.pack(e + "IIIIIIIIII", nm, typ, flags, addr,
                               offs[i], size, link, 0, 1, 0)
    return hdr + body + tab


def vmlinux_cut(path):
    """The vmlinux at PATH as a small ELF: its sections' names, types,
    flags and addresses, each allocated PROGBITS section's first 64
    bytes, the others empty."""
    with open(path, "rb") as f:
        head = f.read(64)
        shoff, = struct.unpack_from("<Q", head, 0x28)
        shnum, strndx = struct.unpack_from("<HH", head, 0x3c)
        f.seek(shoff)
        tab = f.read(64 * shnum)
        sh = [struct.unpack_from("<IIQQQQIIQQ", tab, 64 * i)
              for i in range(shnum)]
        f.seek(sh[strndx][4])
        strs = f.read(sh[strndx][5])
        out = []
        for i, (nm, typ, flags, addr, off, size, _, _, _, _) in \
                enumerate(sh[1:], 1):
            name = strs[nm:strs.index(b"\0", nm)].decode()
            data = b""
            if typ == 1 and flags & 2:
                f.seek(off)
                data = f.read(min(size, 64))
            if i != strndx:
                out.append((name, typ, flags, addr, data))
    return out


def elfdata():
    def put_elf(name, img, addr, n):
        put("elfdata", name, struct.pack("<QI", addr, n) + img)
    data = (".data", 1, 3, 0x1000, bytes(range(0x10, 0x30)))
    bss = (".bss", 8, 3, 0x2000, b"")
    for is64 in (True, False):
        for big in (False, True):
            put_elf("%d%s" % (64 if is64 else 32, "be" if big else "le"),
                    elf_image(is64, big, [data, bss]), 0x1008, 8)
    put_elf("xnum", elf_image(True, False, [data, bss], xnum=True),
            0x1000, 32)
    d, man = fixture("modules")
    secs = vmlinux_cut(man["vmlinux"])
    at = [s[3] for s in secs if s[0] == ".data"][0]
    put_elf("vmlinux-cut", elf_image(True, False, secs), at + 8, 16)


def main():
    which = sys.argv[1:] or ["ringbuf", "printfmt", "bprint", "walk", "btf",
                             "elfdata"]
    if "ringbuf" in which or "insn" in which:
        ringbuf_and_insn()
    if "printfmt" in which:
        printfmt()
    if "bprint" in which:
        bprint()
    if "walk" in which:
        walk()
    if "btf" in which:
        btf()
    if "elfdata" in which:
        elfdata()


if __name__ == "__main__":
    main()
