#!/usr/bin/python3
"""Extract tracepoint formats and real records from a fixture for the
print_fmt interpreter's unit tests (tests/unit/test_printfmt.c).

    scripts/extract-printfmt.py [--scenario wrap] [--instance NAME] OUTDIR

Regenerate the unit-test data (about two minutes):

    D=tests/unit/data/printfmt
    /usr/bin/python3 scripts/extract-printfmt.py --scenario wrap $D
    /usr/bin/python3 scripts/extract-printfmt.py --scenario graph \\
        --instance inst1 $D

Runs ONE interactive crash process on the fixture's vmcore and writes:

  OUTDIR/events.txt      every event of ftrace_events with its print_fmt and
                         fields (as the kernel's struct ftrace_event_field
                         holds them)
  OUTDIR/records-SCEN[-INST].txt
                         raw tracepoint records read from the ring buffer
                         pages of the dump, each paired with the text after
                         "name: " of the SAME event's line in the live
                         truth trace file (matched by cpu, timestamp, name).

File format (tab separated, one item per line; \\, \\t, \\n escaped):
  E  system  name  type  flags
  P  print_fmt
  F  offset  size  is_signed  filter_type  name  type
  R  name  cpu  timestamp  hexbytes  expected-text
"""
import json
import os
import re
import struct
import subprocess
import sys
from collections import defaultdict, deque

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PER_EVENT_MAX = 1000        # records kept per event name


def esc(s):
    return s.replace('\\', '\\\\').replace('\t', '\\t').replace('\n', '\\n')


class Crash:
    def __init__(self, vmlinux, vmcore):
        self.p = subprocess.Popen(['crash', '-s', vmlinux, vmcore],
                                  stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT)
        self.cmd('gdb set print elements 0')

    def cmd(self, c):
        return self.cmds([c])[0]

    def cmds(self, cs):
        """Run many commands in one round trip; their outputs in order."""
        outs = []
        for i in range(0, len(cs), 500):
            chunk = cs[i:i + 500]
            self.p.stdin.write(''.join('%s\necho @@END@@\n' % c
                                       for c in chunk).encode())
            self.p.stdin.flush()
            for c in chunk:
                out = []
                while True:
                    line = self.p.stdout.readline()
                    if not line:
                        raise SystemExit('crash exited during: ' + c)
                    line = line.decode('latin-1')
                    if line.strip() == '@@END@@':
                        break
                    out.append(line)
                outs.append(''.join(out))
        return outs

    def close(self):
        self.p.stdin.write(b'quit\n')
        self.p.stdin.close()
        self.p.wait()

    @staticmethod
    def parse_rd(out, n):
        vals = []
        for line in out.splitlines():
            m = re.match(r'^\s*[0-9a-f]+:\s+(.*)$', line)
            if not m:
                continue
            for t in m.group(1).split()[:min(2, n - len(vals))]:
                vals.append(int(t, 16))
        return vals if len(vals) == n else None

    def rd64s(self, reqs):
        """[(addr, n)] -> [list of n u64 or None]"""
        outs = self.cmds(['rd -64 %x %d' % (a, n) for a, n in reqs])
        return [self.parse_rd(o, n) for o, (a, n) in zip(outs, reqs)]

    def rd64(self, addr, n):
        return self.rd64s([(addr, n)])[0]

    def bytes_many(self, reqs):
        """[(addr, n)] -> [bytes or None]"""
        rr = []
        for addr, n in reqs:
            base = addr & ~7
            rr.append((base, (addr - base + n + 7) // 8))
        res = []
        for (addr, n), (base, _), vals in zip(reqs, rr, self.rd64s(rr)):
            if vals is None:
                res.append(None)
                continue
            raw = b''.join(struct.pack('<Q', v) for v in vals)
            res.append(raw[addr - base:addr - base + n])
        return res

    def bytes(self, addr, n):
        return self.bytes_many([(addr, n)])[0]

    def strings(self, addrs, limit=8192):
        """{addr: str or None} for every address (batched)."""
        res = {a: None for a in addrs}
        todo = {a: b'' for a in set(addrs) if a}
        while todo:
            reqs = []
            for a, got in todo.items():
                cur = a + len(got)
                reqs.append((cur, min(256, 4096 - (cur & 4095))))
            nxt = {}
            for (cur, n), a, chunk in zip(reqs, list(todo),
                                          self.bytes_many(reqs)):
                if chunk is None:
                    continue
                got = todo[a] + chunk
                i = chunk.find(b'\0')
                if i >= 0:
                    res[a] = (todo[a] + chunk[:i]).decode('latin-1')
                elif len(got) < limit:
                    nxt[a] = got
            todo = nxt
        return res

    def string(self, addr):
        return self.strings([addr])[addr]

    def off(self, typ, member):
        out = self.cmd('p/x (long)&((struct %s *)0)->%s' % (typ, member))
        m = re.search(r'= (0x[0-9a-f]+)', out)
        if not m:
            raise SystemExit('no offset for %s.%s: %s' % (typ, member, out))
        return int(m.group(1), 16)

    def sym(self, name):
        out = self.cmd('sym %s' % name)
        m = re.match(r'^([0-9a-f]+) ', out.strip())
        return int(m.group(1), 16) if m else None

    def u64(self, addr):
        v = self.rd64(addr, 1)
        return v[0] if v else None

    def u32(self, addr):
        b = self.bytes(addr, 4)
        return struct.unpack('<I', b)[0] if b else None

    def s32(self, addr):
        b = self.bytes(addr, 4)
        return struct.unpack('<i', b)[0] if b else None

    def list_heads(self, heads):
        """Entries of each list_head (crash's bounded list walk)."""
        outs = self.cmds(['list -H %x' % h for h in heads])
        res = []
        for o in outs:
            res.append([int(l, 16) for l in o.split()
                        if re.match(r'^[0-9a-f]{8,16}$', l)])
        return res


def walk(c, head, limit=100000):
    """Entries of the list_head at head (addresses of the list_heads)."""
    out, seen = [], set()
    p = c.u64(head)
    while p and p != head and p not in seen and len(out) < limit:
        seen.add(p)
        out.append(p)
        p = c.u64(p)
    return out


def extract_events(c):
    O = {m: c.off('trace_event_call', m) for m in
         ('list', 'class', 'name', 'event', 'print_fmt', 'data', 'flags')}
    O['type'] = O['event'] + c.off('trace_event', 'type')
    K = {m: c.off('trace_event_class', m) for m in
         ('system', 'get_fields', 'fields')}
    F = {m: c.off('ftrace_event_field', m) for m in
         ('link', 'name', 'type', 'filter_type', 'offset', 'size',
          'is_signed')}
    tp_name = c.off('tracepoint', 'name')
    enter_fields = c.off('syscall_metadata', 'enter_fields')
    get_enter = c.sym('syscall_get_enter_fields')
    calls = [n - O['list'] for n in
             c.list_heads([c.sym('ftrace_events')])[0]]
    size = c.off('trace_event_call', 'flags') + 8
    raws = c.bytes_many([(a, size) for a in calls])
    ev = []
    for a, raw in zip(calls, raws):
        if raw is None:
            continue
        q = lambda o: struct.unpack_from('<Q', raw, o)[0]
        ev.append(dict(call=a, flags=struct.unpack_from('<i', raw,
                                                        O['flags'])[0],
                       cls=q(O['class']), name_p=q(O['name']),
                       fmt_p=q(O['print_fmt']), data=q(O['data']),
                       type=struct.unpack_from('<H', raw, O['type'])[0]))
    # TRACE_EVENT_FL_TRACEPOINT (16): the union holds a tracepoint.
    tps = [e for e in ev if e['flags'] & 16]
    for e, v in zip(tps, c.rd64s([(e['name_p'] + tp_name, 1)
                                  for e in tps])):
        e['name_p'] = v[0] if v else 0
    classes = sorted(set(e['cls'] for e in ev))
    craw = dict(zip(classes, c.bytes_many([(k, K['fields'] + 16)
                                           for k in classes])))
    for e in ev:
        r = craw.get(e['cls'])
        if r is None:
            e['sys_p'], e['fhead'] = 0, None
            continue
        e['sys_p'] = struct.unpack_from('<Q', r, K['system'])[0]
        gf = struct.unpack_from('<Q', r, K['get_fields'])[0]
        if not gf:
            e['fhead'] = e['cls'] + K['fields']
        elif gf == get_enter:
            e['fhead'] = e['data'] + enter_fields
        else:
            e['fhead'] = None
    heads = sorted(set(e['fhead'] for e in ev if e['fhead']))
    fl = dict(zip(heads, c.list_heads(heads)))
    faddrs = sorted(set(f - F['link'] for h in heads for f in fl[h]))
    fraw = dict(zip(faddrs, c.bytes_many([(f, F['is_signed'] + 4)
                                          for f in faddrs])))
    sp = set()
    for e in ev:
        sp.update((e['name_p'], e['fmt_p'], e['sys_p']))
    for f, r in fraw.items():
        if r:
            sp.update(struct.unpack_from('<QQ', r, F['name']))
    strs = c.strings(sorted(x for x in sp if x))
    events = []
    for e in ev:
        fields = []
        for fa in (fl.get(e['fhead'], []) if e['fhead'] else []):
            r = fraw.get(fa - F['link'])
            if r is None:
                continue
            i32 = lambda o: struct.unpack_from('<i', r, o)[0]
            np_, tp_ = struct.unpack_from('<QQ', r, F['name'])
            fields.append((i32(F['offset']), i32(F['size']),
                           i32(F['is_signed']), i32(F['filter_type']),
                           strs.get(np_), strs.get(tp_)))
        fields.reverse()        # list_add() prepends: declaration order
        events.append(dict(system=strs.get(e['sys_p']),
                           name=strs.get(e['name_p']), type=e['type'],
                           flags=e['flags'], fmt=strs.get(e['fmt_p']),
                           fields=fields))
    return events


def trace_array(c, instance):
    if not instance:
        return c.sym('global_trace')
    lo = c.off('trace_array', 'list')
    no = c.off('trace_array', 'name')
    for node in walk(c, c.sym('ftrace_trace_arrays'), 1000):
        tr = node - lo
        if c.string(c.u64(tr + no)) == instance:
            return tr
    raise SystemExit('no instance ' + instance)


def cpu_records(c, tr):
    """{cpu: [(ts_ns, type, payload)]} in ring-buffer order."""
    ab = c.off('trace_array', 'array_buffer') + c.off('array_buffer', 'buffer')
    buf = c.u64(tr + ab)
    cpus = c.s32(buf + c.off('trace_buffer', 'cpus'))
    buffers = c.u64(buf + c.off('trace_buffer', 'buffers'))
    P = {m: c.off('ring_buffer_per_cpu', m) for m in
         ('head_page', 'commit_page', 'reader_page')}
    B = {m: c.off('buffer_page', m) for m in ('list', 'read', 'page')}
    out = {}
    for cpu in range(cpus):
        cb = c.u64(buffers + 8 * cpu)
        if not cb:
            continue
        reader = c.u64(cb + P['reader_page'])
        head = c.u64(cb + P['head_page'])
        commit = c.u64(cb + P['commit_page'])
        pages = [(reader, c.u32(reader + B['read']))]
        if reader != commit:
            p, n = head, 0
            while n < 100000:
                pages.append((p, 0))
                if p == commit:
                    break
                p = (c.u64(p + B['list']) & ~3) - B['list']
                n += 1
        recs = []
        for bp, start in pages:
            page = c.u64(bp + B['page'])
            hdr = c.bytes(page, 16)
            ts, commit_len = struct.unpack('<QQ', hdr)
            commit_len &= 0xfffff
            data = c.bytes(page + 16, commit_len) if commit_len else b''
            i = 0
            while i + 4 <= len(data):
                w = struct.unpack_from('<I', data, i)[0]
                tl, delta = w & 31, w >> 5
                if tl == 29:
                    if delta == 0:
                        break
                    i += 4 + struct.unpack_from('<I', data, i + 4)[0]
                    continue
                if tl == 30:
                    ts += (struct.unpack_from('<I', data, i + 4)[0] << 27) \
                        + delta
                    i += 8
                    continue
                if tl == 31:
                    ts = (struct.unpack_from('<I', data, i + 4)[0] << 27) \
                        | delta
                    i += 8
                    continue
                ts += delta
                if tl == 0:
                    n = struct.unpack_from('<I', data, i + 4)[0] - 4
                    payload = data[i + 8:i + 8 + n]
                    i += 8 + n
                else:
                    payload = data[i + 4:i + 4 + 4 * tl]
                    i += 4 + 4 * tl
                if i > len(data) or len(payload) < 8:
                    break
                if i > start:
                    recs.append((ts, struct.unpack_from('<H', payload)[0],
                                 payload))
        out[cpu] = recs
    return out


LINE = re.compile(r'\[(\d{3})\] \S+\s+(\d+\.\d{6}): (\w+): (.*)$')


def main():
    args = sys.argv[1:]
    scen, inst = 'wrap', None
    while args and args[0].startswith('--'):
        if args[0] == '--scenario':
            scen = args[1]
        elif args[0] == '--instance':
            inst = args[1]
        args = args[2:]
    outdir = args[0]
    fix = subprocess.run(['/usr/bin/python3',
                          os.path.join(ROOT, 'scripts/fixture.py'), scen],
                         capture_output=True, text=True,
                         check=True).stdout.strip().splitlines()[-1]
    man = json.load(open(os.path.join(fix, 'manifest.json')))
    c = Crash(man['vmlinux'], man['vmcore'])
    os.makedirs(outdir, exist_ok=True)

    evpath = os.path.join(outdir, 'events.txt')
    events = extract_events(c)
    with open(evpath, 'w') as f:
        f.write('# generated by scripts/extract-printfmt.py from the %s '
                'fixture (%s)\n' % (scen, man['release']))
        for e in events:
            f.write('E\t%s\t%s\t%d\t%d\n' % (esc(e['system'] or ''),
                                             esc(e['name'] or ''),
                                             e['type'], e['flags']))
            if e['fmt'] is not None:
                f.write('P\t%s\n' % esc(e['fmt']))
            for fl in e['fields']:
                f.write('F\t%d\t%d\t%d\t%d\t%s\t%s\n' %
                        (fl[0], fl[1], fl[2], fl[3], esc(fl[4] or ''),
                         esc(fl[5] or '')))
    byid = {e['type']: e['name'] for e in events}

    truth = os.path.join(fix, 'truth/tracing',
                         'instances/%s/trace' % inst if inst else 'trace')
    want = defaultdict(deque)
    for line in open(truth, encoding='latin-1'):
        m = LINE.search(line.rstrip('\n'))
        if m:
            want[int(m.group(1))].append((m.group(2), m.group(3),
                                          m.group(4)))
    recs = cpu_records(c, trace_array(c, inst))
    c.close()
    kept, matched, total = defaultdict(int), 0, 0
    name = 'records-%s%s.txt' % (scen, '-' + inst if inst else '')
    with open(os.path.join(outdir, name), 'w') as f:
        f.write('# generated by scripts/extract-printfmt.py: ring-buffer '
                'records of the %s fixture\n# paired with their lines in '
                'the live truth %s\n' % (scen, os.path.relpath(
                    truth, fix)))
        for cpu, rl in sorted(recs.items()):
            q = want.get(cpu, deque())
            total += len(q)
            for ts, typ, payload in rl:
                us = (ts + 500) // 1000     # ns2usecs() rounds
                tstr = '%d.%06d' % (us // 1000000, us % 1000000)
                ev = byid.get(typ)
                # Skip lines of the truth that precede this record
                # (internal events, lines not decoded here).
                while q and (q[0][0], q[0][1]) != (tstr, ev) and \
                        float(q[0][0]) <= float(tstr):
                    q.popleft()
                if not q or (q[0][0], q[0][1]) != (tstr, ev):
                    continue
                _, _, text = q.popleft()
                matched += 1
                if kept[ev] >= PER_EVENT_MAX:
                    continue
                kept[ev] += 1
                f.write('R\t%s\t%d\t%s\t%s\t%s\n' % (ev, cpu, tstr,
                                                     payload.hex(),
                                                     esc(text)))
    print('%d events, %d of %d truth lines matched to records, %d kept'
          % (len(events), matched, total, sum(kept.values())),
          file=sys.stderr)


if __name__ == '__main__':
    main()
