/*
 * tracehunt: "kprobes" — every kprobe, kretprobe and jprobe in the dump,
 * as /sys/kernel/debug/kprobes/list printed them, and with -v everything
 * about each probe including the owner of every handler.
 */
#include "glue/commands.h"
#include "tracefs/tracefs.h"
#include "tracefs/kprobe_events.h"
#include "tracefs/kprobes.h"
#include "kplist.h"

#define KPROBE_FLAG_GONE	KPL_FLAG_GONE
#define KPROBE_FLAG_DISABLED	KPL_FLAG_DISABLED
#define KPROBE_FLAG_OPTIMIZED	KPL_FLAG_OPTIMIZED
#define KPROBE_FLAG_FTRACE	KPL_FLAG_FTRACE

static struct {
	int inited;
	int ok;
	const char *missing;
	ulong table;
	long table_size;
	long hlist, list, addr, symbol_name, offset, pre_handler;
	long post_handler, fault_handler, break_handler, flags, nmissed;
	long opcode;
	ulong aggr_pre_handler, pre_handler_kretprobe, setjmp_pre_handler;
	/* kretprobe */
	long krp_kp, krp_handler, krp_entry_handler, krp_maxactive;
	long krp_nmissed, krp_data_size, krp_rh, krp_freelist;
	long krp_free_instances;
	/* jprobe */
	long jp_kp, jp_entry;
} KP;

int th_kprobes_init(void)
{
	if (KP.inited)
		return KP.ok;
	KP.inited = 1;
	KP.table = th_symbol("kprobe_table");
	if (!KP.table) {
		KP.missing = "kprobe_table (kernel built without CONFIG_KPROBES)";
		return 0;
	}
	KP.hlist = th_member("kprobe", "hlist");
	KP.list = th_member("kprobe", "list");
	KP.addr = th_member("kprobe", "addr");
	KP.symbol_name = th_member("kprobe", "symbol_name");
	KP.offset = th_member("kprobe", "offset");
	KP.pre_handler = th_member("kprobe", "pre_handler");
	KP.post_handler = th_member("kprobe", "post_handler");
	/* fault_handler went away in Linux kernel commit ec6aba3d2be1
	 * ("kprobes: Remove kprobe::fault_handler") (v5.14).  The jprobe API was
	 * disabled in v4.15, but break_handler and setjmp_pre_handler stayed
	 * in the tree a few releases longer (still in v4.18). */
	KP.fault_handler = th_member("kprobe", "fault_handler");
	KP.break_handler = th_member("kprobe", "break_handler");
	KP.flags = th_member("kprobe", "flags");
	KP.nmissed = th_member("kprobe", "nmissed");
	KP.opcode = th_member("kprobe", "opcode");
	if (KP.hlist < 0 || KP.list < 0 || KP.addr < 0 || KP.pre_handler < 0 ||
	    KP.flags < 0) {
		KP.missing = "struct kprobe in the debuginfo";
		return 0;
	}
	/* The bucket count is the array's own length. */
	KP.table_size = get_array_length("kprobe_table", NULL, 0);
	if (KP.table_size <= 0 || KP.table_size > 1 << 16)
		KP.table_size = 64;
	KP.aggr_pre_handler = th_symbol("aggr_pre_handler");
	KP.pre_handler_kretprobe = th_symbol("pre_handler_kretprobe");
	KP.setjmp_pre_handler = th_symbol("setjmp_pre_handler");
	KP.krp_kp = th_member("kretprobe", "kp");
	KP.krp_handler = th_member("kretprobe", "handler");
	KP.krp_entry_handler = th_member("kretprobe", "entry_handler");
	KP.krp_maxactive = th_member("kretprobe", "maxactive");
	KP.krp_nmissed = th_member("kretprobe", "nmissed");
	KP.krp_data_size = th_member("kretprobe", "data_size");
	KP.krp_rh = th_member("kretprobe", "rh");
	KP.krp_freelist = th_member("kretprobe", "freelist");
	KP.krp_free_instances = th_member("kretprobe", "free_instances");
	KP.jp_kp = th_member("jprobe", "kp");
	KP.jp_entry = th_member("jprobe", "entry");
	KP.ok = 1;
	return 1;
}


const char *th_kprobes_missing(void)
{
	return KP.missing;
}

/* Collect every probe, children of aggregates in list order. */
long th_kprobes_collect(struct kp_probe **out)
{
	struct kp_probe *v = NULL;
	long n = 0, cap = 0, b, i, j;
	struct th_walk hw, lw;

	for (b = 0; b < KP.table_size; b++) {
		ulong first;

		if (!th_read_ulong(KP.table + b * sizeof(ulong), &first,
				   "kprobe_table bucket")) {
			th_warn("kprobe_table[%ld]: unreadable", b);
			continue;
		}
		th_hlist_walk(first, TH_MAX_HLIST, &hw);
		if (hw.err)
			th_warn("kprobe_table[%ld]: %s at %lx; the rest of the "
				"bucket is not shown", b, hw.err, hw.bad);
		for (i = 0; i < hw.n; i++) {
			ulong p = hw.ent[i] - KP.hlist, pre = 0, paddr = 0;
			unsigned int pflags = 0;

			th_read_ulong(p + KP.pre_handler, &pre,
				      "kprobe.pre_handler");
			th_read_ulong(p + KP.addr, &paddr, "kprobe.addr");
			th_read_uint(p + KP.flags, &pflags, "kprobe.flags");
			if (KP.aggr_pre_handler && pre == KP.aggr_pre_handler) {
				th_list_walk(p + KP.list, TH_MAX_HLIST, &lw);
				if (lw.err)
					th_warn("aggregate kprobe %lx: %s at %lx",
						p, lw.err, lw.bad);
				for (j = 0; j < lw.n; j++) {
					if (n >= cap) {
						cap = cap ? cap * 2 : 64;
						v = realloc(v, cap * sizeof(*v));
					}
					memset(&v[n], 0, sizeof(v[n]));
					v[n].kp = lw.ent[j] - KP.list;
					v[n].parent = p;
					v[n].pflags = pflags;
					v[n].bucket = b;
					n++;
				}
				th_walk_free(&lw);
				continue;
			}
			if (n >= cap) {
				cap = cap ? cap * 2 : 64;
				v = realloc(v, cap * sizeof(*v));
			}
			memset(&v[n], 0, sizeof(v[n]));
			v[n].kp = p;
			v[n].pflags = pflags;
			v[n].bucket = b;
			n++;
		}
		th_walk_free(&hw);
	}
	for (i = 0; i < n; i++) {
		struct kp_probe *k = &v[i];

		th_read_ulong(k->kp + KP.addr, &k->addr, "kprobe.addr");
		th_read_ulong(k->kp + KP.pre_handler, &k->pre,
			      "kprobe.pre_handler");
		if (KP.post_handler >= 0)
			th_read_ulong(k->kp + KP.post_handler, &k->post,
				      "kprobe.post_handler");
		if (KP.fault_handler >= 0)
			th_read_ulong(k->kp + KP.fault_handler, &k->fault,
				      "kprobe.fault_handler");
		th_read_uint(k->kp + KP.flags, &k->flags, "kprobe.flags");
		if (KP.nmissed >= 0)
			th_read_ulong(k->kp + KP.nmissed, &k->nmissed,
				      "kprobe.nmissed");
		if (k->parent) {
			/* the aggregate's addr names the site */
			ulong a;
			if (th_read_ulong(k->parent + KP.addr, &a, "kprobe.addr"))
				k->addr = a;
		} else {
			k->pflags = k->flags;
		}
	}
	*out = v;
	return n;
}

static void kp_to_kpl(struct kp_probe *k, struct kpl_probe *p)
{
	p->addr = k->addr;
	p->pre_handler = k->pre;
	p->flags = k->flags;
	p->site_flags = k->pflags;
}

char th_kprobe_type(struct kp_probe *k)
{
	struct kpl_syms s = { KP.pre_handler_kretprobe, KP.setjmp_pre_handler };
	struct kpl_probe p;

	kp_to_kpl(k, &p);
	return kpl_type(&p, &s);
}

/* report_probe() in kernel/kprobes.c */
static void kp_report(struct kp_probe *k)
{
	char ps[512], line[1024];
	struct kpl_probe p;
	struct th_sym s;
	int found;

	kp_to_kpl(k, &p);
	found = th_ksym_lookup(k->addr, &s);
	if (!found)
		th_ksym_pS(k->addr, ps, sizeof(ps));
	if (kpl_format(&p, th_kprobe_type(k), found ? s.name : NULL, s.offset,
		       s.module, ps, line, sizeof(line)) < 0)
		return;
	fputs(line, fp);
}

static void kp_handler_line(const char *label, ulong addr)
{
	char sym[512], own[256];
	struct th_owner o;

	if (!addr)
		return;
	th_owner_of(addr, &o);
	fprintf(fp, "  %-15s %016lx  %s  %s\n", label, addr,
		th_ksym_pS(addr, sym, sizeof(sym)),
		th_owner_str(&o, own, sizeof(own)));
}

static void kp_flags_str(unsigned int f, char *buf, size_t len)
{
	buf[0] = '\0';
	if (f & KPROBE_FLAG_GONE)
		strncat(buf, "GONE ", len - strlen(buf) - 1);
	if (f & KPROBE_FLAG_DISABLED)
		strncat(buf, "DISABLED ", len - strlen(buf) - 1);
	if (f & KPROBE_FLAG_OPTIMIZED)
		strncat(buf, "OPTIMIZED ", len - strlen(buf) - 1);
	if (f & KPROBE_FLAG_FTRACE)
		strncat(buf, "FTRACE ", len - strlen(buf) - 1);
	if (!buf[0])
		strncat(buf, "- ", len - 1);
	buf[strlen(buf) - 1] = '\0';
}

static void kp_site_bytes(ulong addr)
{
	unsigned char b[8];
	int i;

	if (!th_read(addr, b, sizeof(b), "probed instruction")) {
		fprintf(fp, "  %-15s (unreadable)\n", "site bytes");
		return;
	}
	fprintf(fp, "  %-15s", "site bytes");
	for (i = 0; i < 8; i++)
		fprintf(fp, " %02x", b[i]);
	if (b[0] == 0xcc)
		fprintf(fp, "  (int3)");
	else if (b[0] == 0xe9) {
		int rel;
		char sym[256];
		memcpy(&rel, b + 1, 4);
		fprintf(fp, "  (jmp %s)", th_ksym_pS(addr + 5 + rel, sym,
						     sizeof(sym)));
	} else if (b[0] == 0xe8) {
		int rel;
		char sym[256];
		memcpy(&rel, b + 1, 4);
		fprintf(fp, "  (call %s)", th_ksym_pS(addr + 5 + rel, sym,
						      sizeof(sym)));
	} else if (b[0] == 0x0f && b[1] == 0x1f && b[2] == 0x44)
		fprintf(fp, "  (nop5)");
	fprintf(fp, "\n");
}

/* Count the nodes of a freelist (struct freelist_head: next at node+8). */
static long kp_count_freelist(ulong head_addr)
{
	long o_next = th_member("freelist_node", "next");
	struct th_walk w;
	ulong first;
	long n;

	if (o_next < 0 || !th_read_ulong(head_addr, &first, "freelist head"))
		return -1;
	if (!first)
		return 0;
	th_chain_walk(first, o_next, 100000, &w);
	n = w.err ? -1 : w.n;
	th_walk_free(&w);
	return n;
}

/* objpool (v6.7+): free objects are tail - head of each CPU's ring. */
static long kp_count_objpool(ulong pool, long *total)
{
	long o_slots = th_member("objpool_head", "cpu_slots");
	long o_nr = th_member("objpool_head", "nr_objs");
	long o_head = th_member("objpool_slot", "head");
	long o_tail = th_member("objpool_slot", "tail");
	int cpus[NR_CPUS], n, i, nr = 0;
	ulong slots, slot;
	unsigned int h, t;
	long free_ = 0;

	if (o_slots < 0 || o_head < 0 || o_tail < 0 ||
	    !th_read_ulong(pool + o_slots, &slots, "objpool_head.cpu_slots"))
		return -1;
	if (o_nr >= 0 && th_read_int(pool + o_nr, &nr, "objpool_head.nr_objs"))
		*total = nr;
	n = th_possible_cpus(cpus, NR_CPUS);
	for (i = 0; i < n; i++) {
		if (!th_read_ulong(slots + cpus[i] * sizeof(ulong), &slot,
				   "objpool cpu slot") || !slot)
			continue;
		if (th_read_uint(slot + o_head, &h, "objpool_slot.head") &&
		    th_read_uint(slot + o_tail, &t, "objpool_slot.tail"))
			free_ += (unsigned int)(t - h);
	}
	return free_;
}

/*
 * Free kretprobe instances, wherever this kernel keeps them: an hlist
 * free_instances (before v5.11), a freelist in the kretprobe (v5.11 to
 * the rethook conversion), the rethook's pool (freelist, or objpool from
 * v6.7), or the kretprobe_holder's objpool.
 */
static void kp_instances(ulong krp, int maxactive)
{
	long o, total = maxactive, nfree = -1;
	const char *where = NULL;
	ulong p;

	if ((o = th_member("kretprobe", "rh")) >= 0) {
		long o_pool = th_member("rethook", "pool");

		where = "rethook pool";
		if (o_pool >= 0 && th_read_ulong(krp + o, &p, "kretprobe.rh") &&
		    p) {
			if (th_size("objpool_head") > 0)
				nfree = kp_count_objpool(p + o_pool, &total);
			else
				nfree = kp_count_freelist(p + o_pool);
		}
	} else if ((o = th_member("kretprobe", "rph")) >= 0 &&
		   th_member("kretprobe_holder", "pool") >= 0) {
		/* kretprobe_holder got its pool with the objpool conversion
		 * (4bbd93455659, v6.7); 5.11 to 6.6 kernels without rethook
		 * have rph but keep the free list in kretprobe.freelist. */
		long o_pool = th_member("kretprobe_holder", "pool");

		where = "objpool";
		if (th_read_ulong(krp + o, &p, "kretprobe.rph") && p)
			nfree = kp_count_objpool(p + o_pool, &total);
	} else if ((o = th_member("kretprobe", "freelist")) >= 0) {
		where = "freelist";
		nfree = kp_count_freelist(krp + o);
	} else if ((o = th_member("kretprobe", "free_instances")) >= 0) {
		struct th_walk w;

		where = "free_instances";
		if (th_read_ulong(krp + o, &p, "kretprobe.free_instances")) {
			th_hlist_walk(p, 100000, &w);
			nfree = w.err ? -1 : w.n;
			th_walk_free(&w);
		}
	}
	if (!where)
		return;
	if (nfree < 0)
		fprintf(fp, "  %-15s (%s unreadable)\n", "instances", where);
	else
		fprintf(fp, "  %-15s %ld free of %ld, %ld in use (%s)\n",
			"instances", nfree, total,
			total >= nfree ? total - nfree : 0, where);
}

/* Trace events built on kprobes (kprobe_events), found once per command. */
static ulong *kp_tks;
static long kp_ntks = -1;

static void kp_trace_event(struct kp_probe *k)
{
	char group[64], name[128];
	long i;

	if (kp_ntks < 0)
		kp_ntks = th_trace_kprobes(&kp_tks);
	for (i = 0; i < kp_ntks; i++) {
		if (th_tk_kprobe(kp_tks[i]) != k->kp)
			continue;
		th_tk_names(kp_tks[i], group, sizeof(group), name, sizeof(name));
		fprintf(fp, "  %-15s %s/%s (hits %lu)\n", "trace event", group,
			name, th_tk_nhit(kp_tks[i]));
	}
}

static void kp_verbose(struct kp_probe *k)
{
	char sym[512], own[256], fl[64];
	struct th_owner o;
	char type = th_kprobe_type(k);
	const char *tname;
	ulong symname = 0;

	th_owner_of(k->kp, &o);
	if (type == 'r')
		tname = "kretprobe";
	else if (type == 'j')
		tname = "jprobe";
	else
		tname = "kprobe";
	fprintf(fp, "%s %016lx  %s%s\n", tname, k->kp,
		th_owner_str(&o, own, sizeof(own)),
		k->parent ? "  (aggregate child)" : "");
	fprintf(fp, "  %-15s kprobe_table[%d]\n", "bucket", k->bucket);
	if (k->parent)
		fprintf(fp, "  %-15s %016lx\n", "aggregate", k->parent);
	fprintf(fp, "  %-15s %016lx  %s\n", "address", k->addr,
		th_ksym_pS(k->addr, sym, sizeof(sym)));
	if (KP.symbol_name >= 0 &&
	    th_read_ulong(k->kp + KP.symbol_name, &symname,
			  "kprobe.symbol_name") && symname) {
		char name[128];
		unsigned int off = 0;

		th_read_cstr(symname, name, sizeof(name), "kprobe.symbol_name");
		if (KP.offset >= 0)
			th_read_uint(k->kp + KP.offset, &off, "kprobe.offset");
		fprintf(fp, "  %-15s %s+0x%x\n", "registered as", name, off);
	}
	kp_flags_str(k->flags, fl, sizeof(fl));
	fprintf(fp, "  %-15s 0x%x %s\n", "flags", k->flags, fl);
	if (k->parent) {
		kp_flags_str(k->pflags, fl, sizeof(fl));
		fprintf(fp, "  %-15s 0x%x %s\n", "site flags", k->pflags, fl);
	}
	fprintf(fp, "  %-15s %lu\n", "nmissed", k->nmissed);
	if (KP.opcode >= 0) {
		unsigned char op = 0;
		th_read(k->kp + KP.opcode, &op, 1, "kprobe.opcode");
		fprintf(fp, "  %-15s %02x\n", "saved opcode", op);
	}
	kp_site_bytes(k->addr);
	kp_trace_event(k);
	kp_handler_line("pre_handler", k->pre);
	kp_handler_line("post_handler", k->post);
	kp_handler_line("fault_handler", k->fault);
	if (type == 'r' && KP.krp_kp >= 0) {
		ulong krp = k->kp - KP.krp_kp, h = 0, eh = 0, ds = 0;
		int maxactive = 0, nm = 0;

		th_read_ulong(krp + KP.krp_handler, &h, "kretprobe.handler");
		if (KP.krp_entry_handler >= 0)
			th_read_ulong(krp + KP.krp_entry_handler, &eh,
				      "kretprobe.entry_handler");
		th_read_int(krp + KP.krp_maxactive, &maxactive,
			    "kretprobe.maxactive");
		th_read_int(krp + KP.krp_nmissed, &nm, "kretprobe.nmissed");
		th_read_ulong(krp + KP.krp_data_size, &ds,
			      "kretprobe.data_size");
		fprintf(fp, "  %-15s %016lx\n", "kretprobe", krp);
		kp_handler_line("handler", h);
		kp_handler_line("entry_handler", eh);
		fprintf(fp, "  %-15s %d\n", "maxactive", maxactive);
		fprintf(fp, "  %-15s %d\n", "kretprobe miss", nm);
		fprintf(fp, "  %-15s %lu\n", "data_size", ds);
		kp_instances(krp, maxactive);
	}
	if (type == 'j' && KP.jp_kp >= 0 && KP.jp_entry >= 0) {
		ulong e = 0;
		th_read_ulong(k->kp - KP.jp_kp + KP.jp_entry, &e, "jprobe.entry");
		kp_handler_line("jprobe entry", e);
	}
	fprintf(fp, "\n");
}

static int kp_match(struct kp_probe *k, ulong *want, int nwant)
{
	int i;

	if (!nwant)
		return TRUE;
	for (i = 0; i < nwant; i++)
		if (k->addr == want[i])
			return TRUE;
	return FALSE;
}

void cmd_kprobes(void)
{
	int c, verbose = 0, nwant = 0, i;
	ulong want[64];
	struct kp_probe *v = NULL;
	long n;

	while ((c = getopt(argcnt, args, "v")) != EOF) {
		switch (c) {
		case 'v':
			verbose = 1;
			break;
		default:
			argerrs++;
			break;
		}
	}
	if (argerrs)
		cmd_usage(pc->curcmd, SYNOPSIS);
	for (i = optind; args[i] && nwant < 64; i++) {
		struct syment *sp;

		if ((sp = symbol_search(args[i])))
			want[nwant++] = sp->value;
		else if (hexadecimal(args[i], 0))
			want[nwant++] = htol(args[i], RETURN_ON_ERROR, NULL);
		else
			error(FATAL, "%s: not a symbol or address\n", args[i]);
	}
	if (!th_kprobes_init()) {
		fprintf(fp, "kprobes: not available in this dump: no %s\n",
			KP.missing);
		return;
	}
	n = th_kprobes_collect(&v);
	for (i = 0; i < n; i++) {
		if (!kp_match(&v[i], want, nwant))
			continue;
		if (verbose)
			kp_verbose(&v[i]);
		else
			kp_report(&v[i]);
	}
	free(v);
	free(kp_tks);
	kp_tks = NULL;
	kp_ntks = -1;
}
