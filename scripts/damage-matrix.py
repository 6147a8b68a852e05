#!/usr/bin/python3
"""Damaged-dump matrix: damaged copies of a real ELF fixture, each opened by
ONE crash process that runs every tracehunt command, timed per command.

  scripts/damage-matrix.py [--scenario modules] [--only NAME,...] [--keep]
                           [--list]
  scripts/damage-matrix.py --campaign N [--seed S] [--jobs J]

Each damage is planted in a (sparse) copy of the fixture's vmcore at the
physical address crash's own `vtop` gives for the kernel object, found by
crash expressions on the undamaged dump (no address or offset is written
here).  A copy is deleted as soon as its run is checked.  A run passes when:
crash does not crash (no fatal signal, exit status 0), no command takes
more than LIMIT seconds, no command's output grows past a bound (8 times
the undamaged output, at least 4 MB), and crash still works afterwards
(`sys` after the commands prints the RELEASE line).

tests/test_damaged.py runs this matrix under pytest.
"""

import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import damage  # noqa: E402

PYTHON = "/usr/bin/python3"
LIMIT = float(os.environ.get("TRACEHUNT_DAMAGE_LIMIT", "10"))
LOOP_LINES = 64		# a line repeated more often than this is a loop
STARTUP = 600		# crash opening a dump on a loaded machine
NONCANON = 0x00dead0000000100
USERPTR = 0x00007fffdead0000
GARBAGE = 0x4141414141414141
FATAL = re.compile(r"Segmentation fault|SIGSEGV|SIGBUS|SIGABRT|Aborted|"
                   r"core dumped|AddressSanitizer|runtime error:|"
                   r"double free|stack smashing")

# Commands besides one "ftrace cat" per truth file (thlib.Dump.commands()).
EXTRA = ["kprobes", "kprobes -v", "kprobes -x", "ftrace", "ftrace ls",
         "ftrace ops", "ftrace ops -v", "ftrace sites", "ftrace tracers -v",
         "hooks", "hooks -v", "hooks -j"]


def fixture_dir(scenario, variant="elf", suite=None):
    out = subprocess.run([PYTHON, os.path.join(ROOT, "scripts", "fixture.py"),
                          "--variant", variant, scenario] +
                         (["--suite", suite] if suite else []), check=True,
                         capture_output=True, text=True).stdout
    return out.strip().splitlines()[-1]


def load_manifest(d):
    import json
    with open(os.path.join(d, "manifest.json")) as f:
        return json.load(f)


def commands(man):
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    import thlib
    cmds = []
    for n in man["truth_files"]:
        c = thlib.truth_to_command(n)
        if c and c not in cmds:
            cmds.append(c)
    return cmds + [c for c in EXTRA if c not in cmds]


# ---- running crash, timed per command -------------------------------------

class Run:
    """One crash process over CMDS; per-command wall time measured from
    when each output file appears (polled every 0.1 s)."""

    def __init__(self, vmlinux, vmcore, cmds, so=None, limit=LIMIT,
                 out_bound=None, env=None):
        self.cmds = cmds
        self.dir = tempfile.mkdtemp(prefix="th-damage-")
        self.files = [os.path.join(self.dir, "%03d.out" % i)
                      for i in range(len(cmds))]
        self.final = os.path.join(self.dir, "final.out")
        lines = ["extend %s" % so] if so else []
        lines += ["%s > %s" % (c, f) for c, f in zip(cmds, self.files)]
        if so:
            lines.append("extend -u %s" % so)
        lines.append("sys > %s" % self.final)
        cf = os.path.join(self.dir, "cmds")
        with open(cf, "w") as f:
            f.write("\n".join(lines) + "\nexit\n")
        self.log_path = os.path.join(self.dir, "log")
        self.problems = []
        self.times = {}
        self.sizes = {}
        self.killed = None
        out_bound = out_bound or {}
        t0 = time.time()
        with open(self.log_path, "wb") as log:
            p = subprocess.Popen(["crash", "-s", vmlinux, vmcore, "-i", cf],
                                 stdin=subprocess.DEVNULL, stdout=log,
                                 stderr=subprocess.STDOUT,
                                 start_new_session=True,
                                 env=dict(os.environ, **(env or {})))
            seen = {}
            while p.poll() is None:
                time.sleep(0.1)
                now = time.time()
                for i, f in enumerate(self.files + [self.final]):
                    if i not in seen and os.path.exists(f):
                        seen[i] = now
                cur = max(seen) if seen else None
                if cur is None:
                    if now - t0 > STARTUP:
                        self.kill(p, "crash did not reach the first "
                                  "command within %d s" % STARTUP)
                    continue
                if cur < len(self.cmds):
                    c = self.cmds[cur]
                    if now - seen[cur] > limit * 3:
                        self.kill(p, "hang: '%s' still running after "
                                  "%.0f s" % (c, now - seen[cur]))
                    try:
                        size = os.path.getsize(self.files[cur])
                    except OSError:
                        size = 0
                    if size > out_bound.get(c, 1 << 62):
                        self.kill(p, "endless output: '%s' wrote %d "
                                  "bytes" % (c, size))
                if now - t0 > STARTUP + limit * 3 * (len(self.cmds) + 2):
                    self.kill(p, "crash did not finish")
            end = time.time()
        self.rc = p.returncode
        with open(self.log_path, "rb") as f:
            self.log = f.read(1 << 20).decode(errors="replace")
        order = sorted(seen)
        for k, i in enumerate(order):
            nxt = seen[order[k + 1]] if k + 1 < len(order) else end
            if i < len(self.cmds):
                self.times[self.cmds[i]] = nxt - seen[i]
                self.sizes[self.cmds[i]] = os.path.getsize(self.files[i])
        self.opened = bool(seen)

    def kill(self, p, why):
        if self.killed is None:
            self.killed = why
            self.problems.append(why)
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except OSError:
                pass

    def out(self, cmd):
        try:
            with open(self.files[self.cmds.index(cmd)], "rb") as f:
                return f.read().decode(errors="replace")
        except (OSError, ValueError):
            return None

    def final_out(self):
        try:
            # (a mutation in init_uts_ns puts any byte into sys' banner)
            with open(self.final, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def cleanup(self):
        shutil.rmtree(self.dir, ignore_errors=True)


# ---- finding the objects to damage ----------------------------------------

# name -> crash expression of an ADDRESS (of a pointer or a page)
EXPRS = {
    "ops": "ftrace_ops_list",
    "ops_next": "&ftrace_ops_list->next",
    "ops_list_head": "&ftrace_ops_list",
    "pages": "ftrace_pages_start",
    "pages_next": "&ftrace_pages_start->next",
    "pages_records": "&ftrace_pages_start->records",
    "types": "trace_types",
    "types_next": "&trace_types->next",
    "types_name": "&trace_types->name",
    "types_head": "&trace_types",
    "arr_buffer": "&global_trace.array_buffer.buffer",
    "tr_list": "&global_trace.list",
    "tr_list_next": "global_trace.list.next",
    "kp_table": "&kprobe_table",
    # objects whose page a filtered copy leaves out (the "excl-" damages)
    "global_trace": "&global_trace",
    "dyn_ftrace": "ftrace_pages_start->records",
    "trace_buffer": "global_trace.array_buffer.buffer",
    "ops_func": "&ftrace_ops_list->func",
    "ops_hash": "&ftrace_ops_list->func_hash",
}
RB = "((struct trace_buffer *)global_trace.array_buffer.buffer)"
for _cpu in range(2):
    EXPRS["buffers%d" % _cpu] = "&%s->buffers[%d]" % (RB, _cpu)
    for _w in ("commit_page", "reader_page", "head_page", "tail_page"):
        EXPRS["%s%d" % (_w, _cpu)] = "%s->buffers[%d]->%s->page" % (
            RB, _cpu, _w)
        EXPRS["%s%d_bp" % (_w, _cpu)] = "%s->buffers[%d]->%s" % (
            RB, _cpu, _w)
    EXPRS["cpu_buffer%d" % _cpu] = "%s->buffers[%d]" % (RB, _cpu)
    EXPRS["reader_page%d_ptr" % _cpu] = "&%s->buffers[%d]->reader_page" % (
        RB, _cpu)
    EXPRS["commit_page%d_pageptr" % _cpu] = \
        "&%s->buffers[%d]->commit_page->page" % (RB, _cpu)


KP_FIELDS = ("addr", "symbol_name", "pre_handler")


def crash_batch(man, named):
    """Run NAMED [(name, command)] in one crash; {name: output}."""
    d = tempfile.mkdtemp(prefix="th-damage-probe-")
    try:
        cf = os.path.join(d, "cmds")
        with open(cf, "w") as f:
            for i, (_, c) in enumerate(named):
                f.write("%s > %s/%d.out\n" % (c, d, i))
            f.write("exit\n")
        subprocess.run(["crash", "-s", man["vmlinux"], man["vmcore"], "-i",
                        cf], stdin=subprocess.DEVNULL, capture_output=True,
                       timeout=STARTUP)
        res = {}
        for i, (n, _) in enumerate(named):
            try:
                with open("%s/%d.out" % (d, i), errors="replace") as f:
                    res[n] = f.read()
            except OSError:
                res[n] = ""
        return res
    finally:
        shutil.rmtree(d, ignore_errors=True)


def probe(man):
    """Virtual and physical addresses of every object in EXPRS (those this
    dump has), plus the kprobe hlist nodes."""
    named = [(n, "p/x (unsigned long)(%s)" % e) for n, e in EXPRS.items()]
    named += [("kptable", "p/x kprobe_table"),
              ("hlist_off", "p/x (unsigned long)&((struct kprobe *)0)"
               "->hlist")]
    named += [("kpoff_" + f, "p/x (unsigned long)&((struct kprobe *)0)->"
               + f) for f in KP_FIELDS]
    res = crash_batch(man, named)
    virt = {}
    for n, text in res.items():
        m = re.search(r"\$\d+ = (0x[0-9a-f]+)", text)
        if m and n not in ("kptable",):
            virt[n] = int(m.group(1), 16)
    nodes = [int(x, 16) for x in re.findall(r"first = (0x[0-9a-f]+)",
                                            res.get("kptable", ""))
             if int(x, 16)]
    if nodes:
        virt["kp_node"] = nodes[0]
        # fields of that kprobe (the struct around its hlist node)
        for f in KP_FIELDS:
            if "kpoff_" + f in virt and "hlist_off" in virt:
                virt["kp_" + f] = nodes[0] - virt["hlist_off"] + \
                    virt.pop("kpoff_" + f)
    res = crash_batch(man, [(n, "vtop %x" % v) for n, v in virt.items()
                            if v and n != "hlist_off" and
                            not n.startswith("kpoff_")])
    phys = {}
    for n, text in res.items():
        try:
            phys[n] = damage.parse_vtop(text)
        except ValueError:
            pass
    return virt, phys


# ---- the damages ----------------------------------------------------------

def u64(v):
    return (v & (1 << 64) - 1).to_bytes(8, "little")


def u32(v):
    return (v & 0xffffffff).to_bytes(4, "little")


def rnd(seed, n):
    r = random.Random(seed)
    return bytes(r.getrandbits(8) for _ in range(n))


def rb_pages(phys):
    return sorted({phys[k] for k in phys
                   if re.match(r"(commit|reader|head|tail)_page\d$", k)})


def damages(virt, phys):
    """(name, description, patches, file_op): patches are (paddr, bytes);
    file_op an operation on the copy (truncate) or None.  Only damages
    whose object this dump holds are listed."""
    d = []

    def add(name, desc, need, patches, op=None):
        if all(k in phys or k in virt for k in need):
            d.append((name, desc, patches() if patches else [], op))

    P, V = phys, virt
    # ring-buffer pages (buffer_data_page: time_stamp, commit, data[])
    add("rb-random-commit-page", "random bytes over CPU 0's commit page",
        ["commit_page0"], lambda: [(P["commit_page0"], rnd(1, 4096))])
    add("rb-random-data", "random bytes over the data of every buffer page "
        "(headers kept)", ["commit_page0"],
        lambda: [(p + 16, rnd(p, 4080)) for p in rb_pages(P)])
    add("rb-random-all", "random bytes over every buffer page, headers too",
        ["commit_page0"],
        lambda: [(p, rnd(p + 1, 4096)) for p in rb_pages(P)])
    add("rb-commit-absurd", "commit = 0x3fffffffffffffff on every page",
        ["commit_page0"],
        lambda: [(p + 8, u64(0x3fffffffffffffff)) for p in rb_pages(P)])
    add("rb-commit-flags", "commit = only the MISSED flags and 4080",
        ["commit_page0"],
        lambda: [(p + 8, u64(0xc0000000 | 4080)) for p in rb_pages(P)])
    add("rb-len-absurd", "first record: type_len 0, length 0xfffffff0",
        ["commit_page0"],
        lambda: [(p + 16, u32(0) + u32(0xfffffff0)) for p in rb_pages(P)])
    add("rb-len-zero", "first record: type_len 0, length 0 (no progress)",
        ["commit_page0"],
        lambda: [(p + 16, u32(0) + u32(0)) for p in rb_pages(P)])
    add("rb-padding-absurd", "first record: padding with length 0xfffffff0",
        ["commit_page0"],
        lambda: [(p + 16, u32(29 | 7 << 5) + u32(0xfffffff0))
                 for p in rb_pages(P)])
    add("rb-all-extends", "every record a TIME_EXTEND of all ones",
        ["commit_page0"],
        lambda: [(p + 16, u32(0xffffffff) * 1020) for p in rb_pages(P)])
    add("rb-type-len-28", "every header type_len 28 (largest data record)",
        ["commit_page0"],
        lambda: [(p + 16, u32(28) * 1020) for p in rb_pages(P)])
    # ring-buffer structures
    add("rb-buffer-null", "global_trace.array_buffer.buffer = NULL",
        ["arr_buffer"], lambda: [(P["arr_buffer"], u64(0))])
    add("rb-buffer-noncanonical", "global_trace.array_buffer.buffer "
        "non-canonical", ["arr_buffer"],
        lambda: [(P["arr_buffer"], u64(NONCANON))])
    add("rb-percpu-null", "trace_buffer.buffers[0] = NULL", ["buffers0"],
        lambda: [(P["buffers0"], u64(0))])
    add("rb-page-user-pointer", "CPU 0 commit_page->page a user address",
        ["commit_page0_pageptr"],
        lambda: [(P["commit_page0_pageptr"], u64(USERPTR))])
    add("rb-page-list-cycle", "CPU 0 head page's list.next points to itself",
        ["head_page0_bp"],
        lambda: [(P["head_page0_bp"], u64(V["head_page0_bp"]))])
    add("rb-page-list-garbage", "CPU 0 commit page's list.next = 0x4141..",
        ["commit_page0_bp"],
        lambda: [(P["commit_page0_bp"], u64(GARBAGE))])
    # kprobes
    add("kprobe-hlist-cycle", "first kprobe hlist node points to itself",
        ["kp_node", "hlist_off"],
        lambda: [(P["kp_node"], u64(V["kp_node"]))])
    add("kprobe-hlist-noncanonical", "first kprobe hlist next non-canonical",
        ["kp_node", "hlist_off"],
        lambda: [(P["kp_node"], u64(NONCANON))])
    add("kprobe-table-garbage", "random bytes over kprobe_table",
        ["kp_table"], lambda: [(P["kp_table"], rnd(7, 512))])
    add("kprobe-fields-bad", "first kprobe: addr NULL, symbol_name and "
        "pre_handler non-canonical", ["kp_addr", "kp_symbol_name",
                                      "kp_pre_handler"],
        lambda: [(P["kp_addr"], u64(0)),
                 (P["kp_symbol_name"], u64(NONCANON)),
                 (P["kp_pre_handler"], u64(NONCANON))])
    # ftrace
    add("ftrace-ops-func-null", "ftrace_ops_list->func = NULL, its "
        "func_hash non-canonical", ["ops_func", "ops_hash"],
        lambda: [(P["ops_func"], u64(0)), (P["ops_hash"], u64(NONCANON))])
    add("ftrace-ops-cycle", "ftrace_ops_list->next = ftrace_ops_list",
        ["ops_next", "ops"], lambda: [(P["ops_next"], u64(V["ops"]))])
    add("ftrace-ops-null", "ftrace_ops_list->next = NULL", ["ops_next"],
        lambda: [(P["ops_next"], u64(0))])
    add("ftrace-ops-noncanonical", "ftrace_ops_list non-canonical",
        ["ops_list_head"], lambda: [(P["ops_list_head"], u64(NONCANON))])
    add("ftrace-pages-cycle", "ftrace_pages_start->next = itself",
        ["pages_next", "pages"], lambda: [(P["pages_next"],
                                           u64(V["pages"]))])
    add("ftrace-pages-records-bad", "ftrace_pages_start->records "
        "non-canonical", ["pages_records"],
        lambda: [(P["pages_records"], u64(NONCANON))])
    add("trace-types-cycle", "trace_types->next = trace_types",
        ["types_next", "types"], lambda: [(P["types_next"],
                                           u64(V["types"]))])
    add("trace-types-next-noncanonical", "trace_types->next "
        "non-canonical", ["types_next"],
        lambda: [(P["types_next"], u64(NONCANON))])
    add("rb-reader-page-null", "CPU 0's reader_page = NULL",
        ["reader_page0_ptr"], lambda: [(P["reader_page0_ptr"], u64(0))])
    add("trace-types-name-null", "trace_types->name = NULL", ["types_name"],
        lambda: [(P["types_name"], u64(0))])
    add("trace-arrays-cycle", "the first instance's list.next points to "
        "itself (a cycle not through the head)", ["tr_list_next"],
        lambda: [(P["tr_list_next"], u64(V["tr_list_next"]))]
        if V.get("tr_list_next") != V.get("tr_list") else [])
    # pages missing from the dump: a copy of the filtered (makedumpfile -c
    # -d 31) dump of the same boot with the page's bit cleared in the
    # dumpable bitmap, as makedumpfile leaves out a page it excludes
    def excl(name, desc, keys):
        if all(k in P for k in keys):
            d.append((name, desc, [],
                      ("exclude", sorted({P[k] >> 12 for k in keys}))))
    excl("excl-rb-data-page", "CPU 0's commit page (ring-buffer data) "
         "excluded", ["commit_page0"])
    excl("excl-rb-all-data", "every ring-buffer data page excluded",
         [k for k in P if re.match(r"(commit|reader|head|tail)_page\d$",
                                   k)] or ["commit_page0"])
    excl("excl-buffer-page", "CPU 0's commit struct buffer_page excluded",
         ["commit_page0_bp"])
    excl("excl-cpu-buffer", "CPU 0's ring_buffer_per_cpu excluded",
         ["cpu_buffer0"])
    excl("excl-trace-buffer", "global_trace's struct trace_buffer excluded",
         ["trace_buffer"])
    excl("excl-trace-array", "the pages of global_trace (trace_array) "
         "excluded", ["global_trace", "arr_buffer", "tr_list"])
    excl("excl-kprobe", "the page of the first kprobe in kprobe_table "
         "excluded", ["kp_node"])
    excl("excl-kprobe-table", "the page of kprobe_table excluded",
         ["kp_table"])
    excl("excl-ftrace-ops", "the page of the first ftrace_ops excluded",
         ["ops"])
    excl("excl-ftrace-page", "the first struct ftrace_page excluded",
         ["pages"])
    excl("excl-dyn-ftrace", "the first page of dyn_ftrace records excluded",
         ["dyn_ftrace"])
    # (no tracer page: the tracers share their pages with what crash
    # itself needs to open the dump, _totalram_pages on 6.1)
    # the file itself
    add("truncated-half", "the dump file cut to half its size", [], None,
        ("truncate", 0.5))
    add("truncated-headers", "the dump file cut to its first 64 KB", [],
        None, ("truncate", 65536))
    add("wrong-vmlinux", "the vmlinux of another kernel release", [], None,
        ("vmlinux", None))
    return [x for x in d if x[2] or x[3]]


def other_vmlinux(man):
    kdir = os.path.dirname(os.path.dirname(man["vmlinux"]))
    mine = os.path.basename(os.path.dirname(man["vmlinux"]))
    for rel in sorted(os.listdir(kdir)):
        v = os.path.join(kdir, rel, "vmlinux")
        if rel != mine and os.path.isfile(v):
            return v
    return None


EXCLUDED = {}		# damage name -> the pfns its copy left out


def sibling_vmcore(man, variant):
    """The vmcore of VARIANT from the same boot as MAN's dump (built when
    missing: the filtered dump is made from the ELF one)."""
    d = os.path.join(os.path.dirname(os.path.dirname(man["vmcore"])),
                     variant)
    if not os.path.exists(os.path.join(d, "manifest.json")):
        d = fixture_dir(man["scenario"], variant)
    return load_manifest(d)["vmcore"]


def kdump_exclude(path, pfns):
    """Leave PFNS out of the kdump-compressed dump PATH the way makedumpfile
    excludes a page: its bit cleared in the dumpable (2nd) bitmap and its
    page descriptor removed from the table (descriptors are indexed by the
    number of dumpable pages before the pfn).  Layout: crash's diskdump.h
    (struct disk_dump_header, struct kdump_sub_header, page_desc_t).
    Returns the pfns that were dumpable before (the others were already
    excluded)."""
    import struct
    with open(path, "r+b") as f:
        h = f.read(448)
        if h[:8] != b"KDUMP   ":
            raise ValueError("%s is not a kdump-compressed dump" % path)
        version, = struct.unpack_from("<i", h, 8)
        # new_utsname (6 x 65) ends at 402; struct timeval is 8-aligned
        block, sub_blocks, bm_blocks, mapnr = struct.unpack_from("<iiII",
                                                                 h, 428)
        f.seek(block)
        sub = f.read(112)
        split, = struct.unpack_from("<i", sub, 12)
        if version >= 6:
            mapnr, = struct.unpack_from("<Q", sub, 96)
        if split:
            raise ValueError("%s is a split dump" % path)
        bm_off = block * (1 + sub_blocks)
        bm_len = bm_blocks * block
        one = -(-(-(-mapnr // 8)) // block) * block
        bm2 = bm_off + (bm_len // 2 if bm_len >= 2 * one else 0)
        f.seek(bm2)
        bm = bytearray(f.read(-(-mapnr // 8)))
        desc_off = block * (1 + sub_blocks + bm_blocks)
        total = sum(bin(b).count("1") for b in bm)
        f.seek(desc_off)
        table = bytearray(f.read(24 * total))
        done = []
        for pfn in sorted(set(pfns), reverse=True):
            if pfn >= mapnr or not bm[pfn >> 3] & 1 << (pfn & 7):
                continue
            pos = sum(bin(b).count("1") for b in bm[:pfn >> 3]) + \
                bin(bm[pfn >> 3] & ((1 << (pfn & 7)) - 1)).count("1")
            del table[24 * pos:24 * pos + 24]
            table += table[-24:]
            bm[pfn >> 3] &= ~(1 << (pfn & 7)) & 0xff
            done.append(pfn)
        f.seek(bm2)
        f.write(bm)
        f.seek(desc_off)
        f.write(table)
    return sorted(done)


def make_copy(man, dmg, workdir):
    """The damaged copy: (vmlinux, vmcore path)."""
    name, _, patches, op = dmg
    dst = os.path.join(workdir, "vmcore-" + name)
    vmlinux = man["vmlinux"]
    if op and op[0] == "vmlinux":
        return other_vmlinux(man), man["vmcore"]
    if op and op[0] == "exclude":
        subprocess.run(["cp", sibling_vmcore(man, "filtered"), dst],
                       check=True)
        os.chmod(dst, 0o600)
        EXCLUDED[name] = kdump_exclude(dst, op[1])
        return vmlinux, dst
    subprocess.run(["cp", "--sparse=always", man["vmcore"], dst], check=True)
    os.chmod(dst, 0o600)
    for paddr, data in patches:
        damage.patch(dst, paddr, data)
    if op and op[0] == "truncate":
        size = os.path.getsize(dst)
        os.truncate(dst, int(size * op[1]) if op[1] < 1 else op[1])
    return vmlinux, dst


def baseline(man, cmds, so):
    r = Run(man["vmlinux"], man["vmcore"], cmds, so)
    sizes = dict(r.sizes)
    r.outputs = {c: r.out(c) or "" for c in cmds}
    r.base_problems = check(r, None, base=r) if r.opened else ["crash could not "
                                                       "open the dump"]
    r.cleanup()
    return r, {c: max(8 * sizes.get(c, 0), 4 << 20) for c in cmds}


WARN = re.compile(r"cycle|invalid|unreadable|cannot|can't|not read|damaged|"
                  r"too many|truncated|bad |error|warning", re.I)


def messages(run, base):
    """{command: first new line that names a problem} of a damaged run."""
    res = {}
    for c in run.cmds:
        old = set((base.outputs.get(c) or "").splitlines())
        for line in (run.out(c) or "").splitlines():
            if line not in old and WARN.search(line):
                res[c] = line.strip()[:110]
                break
    return res


def loops(run, base):
    """Output that repeats itself: a line printed more than LOOP_LINES
    times and more than twice as often as in the undamaged output."""
    res = []
    for c in run.cmds:
        out = run.out(c)
        if not out:
            continue
        counts = {}
        for line in out.splitlines():
            if line.strip():
                counts[line] = counts.get(line, 0) + 1
        if not counts:
            continue
        line, n = max(counts.items(), key=lambda kv: kv[1])
        old = (base.outputs.get(c) or "").splitlines().count(line) \
            if base else 0
        if n > max(LOOP_LINES, 2 * old):
            res.append("'%s' prints one line %d times: %r" % (c, n,
                                                              line[:80]))
    return res


def bad_json(run):
    """hooks -j must stay one JSON document whatever the dump holds."""
    import json
    out = run.out("hooks -j") if "hooks -j" in run.cmds else None
    if not out or run.killed:
        return []
    try:
        json.loads(out)
    except ValueError as e:
        return ["'hooks -j' is not valid JSON (%s): %r" % (e, out[:120])]
    return []


def check(run, dmg, opened_expected=True, base=None):
    """Problems of a run on a damaged copy (empty: it passed).  With BASE
    (the undamaged run): no output loops, and a copy with pages left out
    names in some command what it could not read."""
    probs = list(run.problems)
    if run.opened:
        probs += loops(run, base) + bad_json(run)
        if base is not None and dmg and dmg[3] and \
                dmg[3][0] == "exclude" and EXCLUDED.get(dmg[0]) and \
                not messages(run, base):
            probs.append("pages %s left out, but no command says what it "
                         "could not read" % ", ".join(
                             "%#x" % (p << 12) for p in EXCLUDED[dmg[0]]))
    if FATAL.search(run.log):
        probs.append("fatal: " + FATAL.search(run.log).group(0))
    for c, t in run.times.items():
        if t > LIMIT:
            probs.append("slow: '%s' took %.1f s" % (c, t))
    if run.opened:
        if run.rc != 0:
            probs.append("crash exited with status %s" % run.rc)
        if "RELEASE:" not in run.final_out():
            probs.append("crash no longer works after the commands "
                         "(sys printed no RELEASE)")
        missing = [c for c in run.cmds if run.out(c) is None]
        if missing and not run.killed:
            probs.append("no output file for: %s" % ", ".join(missing[:5]))
    elif run.killed is None and not run.log.strip():
        probs.append("crash printed nothing and opened nothing")
    return probs


# ---- the campaign: random damage on the pages a clean run reads ----------
#
# A clean run with TRACEHUNT_READLOG (src/model/plausible.c) logs every read
# the model makes, command by command; each copy gets ONE mutation of one
# kind at a word of one such read (a label, i.e. a kind of object, drawn
# first, then one of its reads), from a fixed seed.  Per command it counts
# what issue 27 asks: sessions that died or hung, commands slower than 10x
# their clean time, outputs that changed with no "tracehunt: warning:" line.

CAMPAIGN_CMDS = [
    "kprobes", "kprobes -v", "ftrace", "ftrace ops -v", "ftrace sites",
    "ftrace tracers -v", "hooks", "hooks -j", "ftrace cat trace",
    "ftrace cat saved_cmdlines", "ftrace cat kprobe_events",
    "ftrace cat enabled_functions", "ftrace cat set_ftrace_filter",
    "ftrace cat kprobe_profile", "ftrace cat buffer_total_size_kb",
    "ftrace cat per_cpu/cpu1/trace"]
# the commands issue 27 wants without any silent change
STRICT = ["hooks", "hooks -j", "kprobes -v", "ftrace ops -v", "ftrace sites",
          "ftrace", "ftrace cat buffer_total_size_kb"]
# files whose readers only some scenarios exercise (the uprobe and options
# dumps): campaigned wherever the guest's capture of them is not empty, so
# a scenario without them keeps its plan
CAMPAIGN_IF_CAPTURED = ["uprobe_events", "uprobe_profile", "dynamic_events"]


def campaign_cmds(man):
    """CAMPAIGN_CMDS, and a `ftrace cat` of each file of
    CAMPAIGN_IF_CAPTURED the capture holds text for and of each event
    trigger file with a hist trigger (model/hist_trigger.c)."""
    truth = os.path.join(os.path.dirname(man["vmcore"]), "truth")

    def text(name):
        try:
            with open(os.path.join(truth, name), errors="replace") as f:
                return f.read(1 << 16)
        except OSError:
            return ""
    cmds = list(CAMPAIGN_CMDS)
    names = set(man["truth_files"])
    for n in CAMPAIGN_IF_CAPTURED:
        if "tracing/" + n in names and text("tracing/" + n).strip():
            cmds.append("ftrace cat " + n)
    for n in sorted(names):
        if n.startswith("tracing/events/") and n.endswith("/trigger") and \
                "hist:" in text(n):
            cmds.append("ftrace cat " + n[len("tracing/"):])
    return cmds


# the uprobe scenario's slice (tests/test_damaged.py, `make damage`'s
# uprobe run): mutations of what the readers of uprobes, file names and
# probe events read (model/uprobes.c, path.c, trace_uprobe.c,
# trace_probe.c, dyn_event.c), and the commands that show them
UPROBE_LABELS = (r"^(uprobe|trace_uprobe|dentry|inode|mount|vfsmount|path|"
                 r"super_block|dyn_event|d_name|trace_probe|probe_arg|"
                 r"fetch_type|tpe)\b")
UPROBE_CMDS = ["hooks", "hooks -j", "ftrace", "ftrace cat uprobe_events",
               "ftrace cat uprobe_profile", "ftrace cat dynamic_events"]
# the hist triggers' text (model/hist_trigger.c), options scenario
HIST_LABELS = (r"^(hist|hist_field|action|field_var|var|match_data|"
               r"sort_key|tracing_map|track_data|hist_trigger_attrs)\b")
LABEL_PRESETS = {"uprobe": UPROBE_LABELS, "hist": HIST_LABELS}
KINDS = ["random", "null", "poison", "self", "other", "count", "zero-page"]
POISON = 0xdead000000000100		# LIST_POISON1
# code and its copies: a change there is a finding (altered text), not
# damage to a data structure
CODE_LABELS = {"kernel text", "text page", "probed instruction"}
WARNED = "tracehunt: warning:"
SLOW_FLOOR = 0.5	# a clean time below this is timing noise


def warned(out):
    """A warning line in the text, or a -j document's "warnings" list (its
    items without the text's prefix) not empty."""
    if WARNED in out:
        return True
    try:
        doc = json.loads(out)
    except ValueError:
        return False
    return isinstance(doc, dict) and bool(doc.get("warnings"))


def read_log(path):
    """{label: sorted [(addr, len)]} of a TRACEHUNT_READLOG file."""
    sites = {}
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("#"):
                continue
            parts = line.rstrip("\n").split(" ", 2)
            if len(parts) < 3 or parts[2] in CODE_LABELS:
                continue
            n = int(parts[1])
            if n > 0:
                sites.setdefault(parts[2], set()).add((int(parts[0], 16), n))
    return {k: sorted(v) for k, v in sites.items()}


def mutation(rng, kind, sites, labels):
    """(label, kind, virtual address, bytes) of one mutation."""
    label = rng.choice(labels)
    addr, n = rng.choice(sites[label])
    off = rng.randrange(0, n // 8) * 8 if n >= 8 else 0
    va = addr + off
    room = min(n - off, 4096 - (va & 0xfff))
    if kind == "random":
        data = bytes(rng.getrandbits(8) for _ in range(
            min(room, rng.choice([1, 4, 8, 16, 64]))))
    elif kind == "null":
        data = bytes(min(room, 8))
    elif kind == "poison":
        data = u64(POISON)[:room]
    elif kind == "self":
        data = u64(va)[:room]
    elif kind == "other":
        other = rng.choice([x for x in labels if x != label] or labels)
        data = u64(rng.choice(sites[other])[0])[:room]
    elif kind == "count":
        data = u32(0xffffffff)[:room]
    else:
        va &= ~0xfff
        data = bytes(4096)
    return label, kind, va, data


def plan(man, sites, seed, count, labels_re=None):
    """COUNT mutations drawn from SEED, each translated to a physical
    address the copy holds (a draw that cannot be is drawn again).
    LABELS_RE: draw only from the reads whose label matches it."""
    pt = damage.PageTables(man)
    labels = sorted(l for l in sites
                    if not labels_re or re.search(labels_re, l))
    if not labels:
        raise ValueError("no read's label matches %r" % labels_re)
    out = []
    for i in range(count):
        rng = random.Random("%d:%d" % (seed, i))
        for _ in range(50):
            label, kind, va, data = mutation(rng, KINDS[i % len(KINDS)],
                                             sites, labels)
            try:
                pa = pt.vtop(va)
                damage.peek(man["vmcore"], pa, len(data))
            except (ValueError, KeyError, OSError, IndexError):
                continue
            out.append(dict(i=i, label=label, kind=kind, va=va, pa=pa,
                            data=data))
            break
    return out


# Values the kernel itself allows in a field, so that no check can tell
# them from damage: {label (the read, TRACEHUNT_READLOG's name): (kinds of
# mutation, why)}.  A silent change from such a mutation is counted as
# "legal", not "silent"; every other mutation of the same field (a pointer
# into no code, a negative count) must still warn.
LEGAL = {
    "kretprobe.entry_handler": (
        {"null"}, "NULL: pre_handler_kretprobe() calls a kretprobe's "
        "entry_handler only when set (kernel/kprobes.c)"),
    "kretprobe.handler": (
        {"null"}, "NULL: kretprobe_rethook_handler() (v5.19+, "
        "__kretprobe_trampoline_handler() before) calls the return "
        "handler only when set (kernel/kprobes.c)"),
    "kretprobe.nmissed": (
        {"random", "count", "zero-page", "null"}, "a counter of missed "
        "instances that no other kernel state bounds (any value >= 0)"),
    "kprobe.nmissed": (
        {"random", "count", "zero-page", "null"}, "a counter of missed "
        "hits that no other kernel state bounds (th_check_events() "
        "bounds only the implausible)"),
}
HOOKS_CMDS = ("hooks", "hooks -v", "hooks -j")
VERDICTS = ("ok", "note", "suspicious", "HIDDEN")


def text_findings(doc, va, n):
    """The `text` findings of a hooks -j document whose instruction holds
    one of the N bytes at VA: {target: verdict}."""
    out = {}
    for f in (doc.get("findings") or []) if isinstance(doc, dict) else []:
        try:
            a = int(f.get("target_addr") or "0", 16)
        except (TypeError, ValueError):
            continue
        blen = len(f.get("bytes") or "") // 2 or 1
        if f.get("kind") == "text" and a < va + n and a + max(blen, 16) > va:
            out[f.get("target")] = f.get("verdict")
    return out


def explained_by_text_check(cmd, clean, out, hooks_json, va, n):
    """The damage is to kernel text, and the only change in the `hooks`
    output CMD printed is the text check's finding of it: a `text` finding
    at the mutated bytes (from the same session's hooks -j) and the counts
    that finding adds.  The text check's purpose is to report code that
    differs from the vmlinux file; a patch and damage cannot be told
    apart, and the finding names the address and the bytes."""
    try:
        jd = json.loads(hooks_json or "")
    except ValueError:
        return False
    found = text_findings(jd, va, n)
    if not found:
        return False
    add = {v: 0 for v in VERDICTS}
    for v in found.values():
        if v not in add:
            return False
        add[v] += 1
    if cmd == "hooks -j":
        try:
            cd, dd = json.loads(clean), json.loads(out)
        except ValueError:
            return False
        rest = [f for f in dd.get("findings", [])
                if not (f.get("kind") == "text" and f.get("target") in found)]
        if rest != cd.get("findings"):
            return False
        cs, ds = dict(cd.get("summary", {})), dict(dd.get("summary", {}))
        for v in VERDICTS:
            cs[v] = cs.get(v, 0) + add[v]
        cs["total"] = cs.get("total", 0) + sum(add.values())
        return cs == ds and {k: v for k, v in cd.items()
                             if k not in ("findings", "summary")} == \
            {k: v for k, v in dd.items() if k not in ("findings", "summary")}
    tgt = re.compile(r"^(%s)\s+text\s+(\S+)" % "|".join(VERDICTS))
    summ = re.compile(r"^hooks: (\d+) findings: ok (\d+), note (\d+), "
                      r"suspicious (\d+), HIDDEN (\d+)$")
    kept = []
    for line in out.splitlines():
        t = tgt.match(line)
        if t and t.group(2) in found:
            continue
        s = summ.match(line)
        if s:
            tot, *k = (int(x) for x in s.groups())
            k = [x - add[v] for x, v in zip(k, VERDICTS)]
            line = "hooks: %d findings: ok %d, note %d, suspicious %d, " \
                "HIDDEN %d" % (tot - sum(add.values()), *k)
        kept.append(line)
    return kept == clean.splitlines()


def campaign_copy(man, m, cmds, so, clean, bound, work, keep=None):
    """One damaged copy run: {cmd: verdict} and the session's fate.
    KEEP: a directory the damaged copy is moved to (to open it by hand);
    only a copy with a silent change, or whose session died or hung, stays
    there (each is a full-size dump)."""
    dst = os.path.join(work, "vmcore-%d" % m["i"])
    subprocess.run(["cp", "--sparse=always", man["vmcore"], dst], check=True)
    try:
        os.chmod(dst, 0o600)
        damage.patch(dst, m["pa"], m["data"])
        r = Run(man["vmlinux"], dst, cmds, so, out_bound=bound)
        refused = None
        if not r.opened and not r.killed:
            # no command ran: does crash alone open this copy?
            alone = Run(man["vmlinux"], dst, [], None)
            if "RELEASE:" not in alone.final_out():
                refused = (alone.log.strip().splitlines() or ["?"])[-1]
            alone.cleanup()
    finally:
        if keep:
            os.makedirs(keep, exist_ok=True)
            shutil.move(dst, os.path.join(keep, os.path.basename(dst)))
        else:
            os.unlink(dst)
    try:
        res = {"died": None, "hung": None, "refused": refused, "cmds": {}}
        if refused:
            # crash itself stops before the extension loads (its own
            # module symbol tables, say): nothing of ours ran
            return res
        if r.killed and r.killed.startswith("hang"):
            res["hung"] = r.killed
        elif r.killed or r.rc != 0 or FATAL.search(r.log) or \
                "RELEASE:" not in r.final_out():
            fatal = FATAL.search(r.log)
            res["died"] = r.killed or ("fatal: " + fatal.group(0) if fatal
                                       else "exit status %s or no RELEASE"
                                       % r.rc)
        for c in cmds:
            out = r.out(c)
            t = r.times.get(c)
            v = res["cmds"][c] = {}
            v["slow"] = t is not None and t > 10 * max(clean.times.get(c, 0),
                                                       SLOW_FLOOR)
            if out is None:
                continue
            v["changed"] = out != clean.outputs[c]
            v["warned"] = warned(out)
            if not v["changed"] or v["warned"]:
                continue
            legal = LEGAL.get(m["label"])
            if c in HOOKS_CMDS and explained_by_text_check(
                    c, clean.outputs[c], out, r.out("hooks -j"), m["va"],
                    len(m["data"])):
                v["finding"] = True
            elif legal and m["kind"] in legal[0]:
                v["legal"] = legal[1]
            else:
                v["diff"] = first_diff(clean.outputs[c], out)
        if keep and not (res["died"] or res["hung"] or any(
                v.get("diff") for v in res["cmds"].values())):
            os.unlink(os.path.join(keep, os.path.basename(dst)))
        return res
    finally:
        r.cleanup()


def first_diff(a, b):
    al, bl = a.splitlines(), b.splitlines()
    for k in range(max(len(al), len(bl))):
        x = al[k] if k < len(al) else "<end>"
        y = bl[k] if k < len(bl) else "<end>"
        if x != y:
            return "line %d: %r -> %r" % (k + 1, x[:90], y[:90])
    return "?"


def campaign(man, so, seed, count, jobs=1, cmds=None, log=print,
             log_so=None, only=None, keep=None, labels_re=None):
    """Run the campaign; the per-command figures and the silent cases.
    LOG_SO (default SO) is the build whose clean run logs the reads the
    mutations are drawn from (the same plan for two builds)."""
    from concurrent.futures import ThreadPoolExecutor
    cmds = cmds or campaign_cmds(man)
    work = tempfile.mkdtemp(prefix="th-campaign-")
    try:
        rlog = os.path.join(work, "reads")
        if log_so and log_so != so:
            Run(man["vmlinux"], man["vmcore"], cmds, log_so,
                env={"TRACEHUNT_READLOG": rlog}).cleanup()
        clean = Run(man["vmlinux"], man["vmcore"], cmds, so,
                    env={} if log_so and log_so != so else
                    {"TRACEHUNT_READLOG": rlog})
        clean.outputs = {c: clean.out(c) or "" for c in cmds}
        again = Run(man["vmlinux"], man["vmcore"], cmds, so)
        unstable = [c for c in cmds if (again.out(c) or "") !=
                    clean.outputs[c]]
        again.cleanup()
        clean.cleanup()
        bound = {c: max(8 * clean.sizes.get(c, 0), 4 << 20) for c in cmds}
        sites = read_log(rlog)
        muts = plan(man, sites, seed, count, labels_re)
        if only:
            muts = [m for m in muts if m["i"] in only]
        log("campaign: seed %d, %d copies, %d kinds of object read, "
            "%d commands%s" % (seed, len(muts), len(sites), len(cmds),
                               "; unstable when clean: %s" % unstable
                               if unstable else ""))
        with ThreadPoolExecutor(max_workers=jobs) as ex:
            futs = [ex.submit(campaign_copy, man, m, cmds, so, clean, bound,
                              work, keep) for m in muts]
            results = []
            for m, f in zip(muts, futs):
                r = f.result()
                results.append((m, r))
                bad = [c for c, v in r["cmds"].items()
                       if v.get("diff") and c not in unstable]
                slow = [c for c, v in r["cmds"].items() if v.get("slow")]
                if r.get("refused"):
                    log("%3d %-9s %-34s %x REFUSED by crash: %s" % (
                        m["i"], m["kind"], m["label"][:34], m["va"],
                        r["refused"][:80]))
                    continue
                log("%3d %-9s %-34s %x changed %d%s%s%s" % (
                    m["i"], m["kind"], m["label"][:34], m["va"],
                    sum(bool(v.get("changed")) for v in r["cmds"].values()),
                    " SLOW %s" % slow if slow else "",
                    " DIED" if r["died"] else " HUNG" if r["hung"] else "",
                    "".join("\n      silent %-22s %s" % (c, r["cmds"][c][
                        "diff"]) for c in bad) +
                    "".join("\n      %-6s %-22s %s" % (
                        "legal" if v.get("legal") else "found", c,
                        v.get("legal") or "the text check's finding")
                        for c, v in r["cmds"].items()
                        if v.get("legal") or v.get("finding"))))
        return summarize(results, cmds, unstable)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def summarize(results, cmds, unstable):
    tab = {c: dict(died=0, hung=0, slow=0, changed=0, silent=0, finding=0,
                   legal=0) for c in cmds}
    died = hung = refused = 0
    for m, r in results:
        refused += bool(r.get("refused"))
        died += bool(r["died"])
        hung += bool(r["hung"])
        for c, v in r["cmds"].items():
            tab[c]["slow"] += v.get("slow", False)
            tab[c]["changed"] += v.get("changed", False)
            tab[c]["finding"] += bool(v.get("finding"))
            tab[c]["legal"] += bool(v.get("legal"))
            if c not in unstable:
                tab[c]["silent"] += bool(v.get("diff"))
        for key in ("died", "hung"):
            if r[key]:
                why = r[key] if isinstance(r[key], str) else ""
                hit = [c for c in cmds if "'%s'" % c in why] or \
                    [c for c in cmds if c not in r["cmds"] or
                     "changed" not in r["cmds"][c]][:1]
                for c in hit:
                    tab[c][key] += 1
    return dict(copies=len(results), died=died, hung=hung, table=tab,
                refused=refused,
                unstable=unstable, results=results)


def print_table(s, out=print):
    out("%-32s %5s %5s %5s %8s %7s %8s %6s" % (
        "command", "died", "hung", ">10x", "changed", "silent", "finding",
        "legal"))
    for c, v in s["table"].items():
        out("%-32s %5d %5d %5d %8d %7d %8d %6d%s" % (
            c, v["died"], v["hung"], v["slow"], v["changed"], v["silent"],
            v.get("finding", 0), v.get("legal", 0),
            "  (unstable when clean)" if c in s["unstable"] else ""))
    out("%d copies: %d sessions died, %d hung; crash itself refused %d "
        "(before the extension loaded)" % (s["copies"], s["died"],
                                           s["hung"], s.get("refused", 0)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenario", default="modules")
    ap.add_argument("--only", default="")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--so", default=os.environ.get(
        "TRACEHUNT_SO", os.path.join(ROOT, "extensions", "tracehunt.so")))
    ap.add_argument("--campaign", type=int, metavar="N", default=0,
                    help="N random mutations of what a clean run reads")
    ap.add_argument("--seed", type=int, default=27)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--copies", default="",
                    help="run only these copies of the campaign's plan "
                    "(comma-separated numbers, as its log prints them)")
    ap.add_argument("--keep-dir", help="campaign: keep each damaged copy "
                    "in this directory (vmcore-N) to open it by hand")
    ap.add_argument("--labels", metavar="REGEX", help="campaign: draw "
                    "the mutations only from reads whose label (the "
                    "object read, as TRACEHUNT_READLOG names it) matches; "
                    "'uprobe' and 'hist' name the new readers' labels")
    ap.add_argument("--suite", default=None, help="the fixture's suite "
                    "(default: fixture.py's)")
    ap.add_argument("--log-so", help="the build whose clean run's reads "
                    "the mutations are drawn from (default: --so)")
    a = ap.parse_args()
    d = fixture_dir(a.scenario, suite=a.suite)
    man = load_manifest(d)
    if a.campaign:
        sys.path.insert(0, os.path.join(ROOT, "tests"))
        import thlib
        man = dict(man, vmlinux=thlib.indexed_vmlinux(man["vmlinux"]))
        only = {int(x) for x in a.copies.split(",") if x}
        s = campaign(man, a.so, a.seed, a.campaign, a.jobs,
                     log_so=a.log_so, only=only,
                     labels_re=LABEL_PRESETS.get(a.labels, a.labels),
                     keep=a.keep_dir)
        print_table(s)
        # a plan drawn from some readers (--labels) shows their objects
        # in every command: none may change silently
        strict = list(s["table"]) if a.labels else STRICT
        return 1 if s["died"] or s["hung"] or any(
            s["table"][c]["silent"] for c in strict if c in s["table"]) \
            else 0
    virt, phys = probe(man)
    dmgs = damages(virt, phys)
    if a.only:
        order = a.only.split(",")
        dmgs = sorted([x for x in dmgs if x[0] in order],
                      key=lambda x: order.index(x[0]))
    if a.list:
        for x in dmgs:
            print("%-28s %s" % (x[0], x[1]))
        return 0
    cmds = commands(man)
    base, bound = baseline(man, cmds, a.so)
    print("baseline: %d commands, slowest %.1f s%s" % (
        len(cmds), max(base.times.values() or [0]),
        "".join("\n    " + p for p in base.base_problems)))
    if base.base_problems:
        return 1
    work = tempfile.mkdtemp(prefix="th-damage-copies-", dir=os.path.dirname(
        man["vmcore"]) if os.access(os.path.dirname(man["vmcore"]), os.W_OK)
        else None)
    failed = 0
    for x in dmgs:
        vml, core = make_copy(man, x, work)
        r = Run(vml, core, cmds, a.so, out_bound=bound)
        probs = check(r, x, base=base)
        slow = max(r.times.items(), key=lambda kv: kv[1],
                   default=("-", 0))
        print("%-28s %-4s slowest %-28s %5.1f s%s" % (
            x[0], "FAIL" if probs else "ok", "'%s'" % slow[0], slow[1],
            "".join("\n    " + p for p in probs)))
        failed += bool(probs)
        msgs = messages(r, base) if r.opened else {}
        for c, m in list(msgs.items())[:4]:
            print("    %-24s %s" % (c, m))
        if len(msgs) > 4:
            print("    ... and %d more commands with a message" %
                  (len(msgs) - 4))
        if not r.opened:
            print("    crash: %s" % " | ".join(
                l.strip() for l in r.log.splitlines() if l.strip())[:200])
        if core != man["vmcore"] and not a.keep:
            os.unlink(core)
        r.cleanup()
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)
    print("%d damaged dumps, %d failed" % (len(dmgs), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
