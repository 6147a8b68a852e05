/*
 * tracehunt: the model's one reader of kprobes: the kprobe_table hash
 * (aggregate probes expanded into their children), struct kprobe,
 * kretprobe and jprobe, and the free instances of a kretprobe.
 */
#include "model/kprobes.h"
#include "model/ftrace_ops.h"
#include "model/slab.h"
#include "model/vmlinux_file.h"
#include "kplist.h"

/* Offsets in the kprobe structs, -1 when absent; filled once. */
struct th_kprobe_off {
	long hlist, list, addr, symbol_name, offset, pre_handler;
	long post_handler, fault_handler, flags, nmissed, opcode;
	long insn;		/* kprobe.ainsn.insn (x86) */
	/* struct kretprobe */
	long krp_kp, krp_handler, krp_entry_handler, krp_maxactive;
	long krp_nmissed, krp_data_size, krp_rh, krp_rph, krp_freelist;
	long krp_free_instances;
	/* where the free instances are */
	long rethook_pool, holder_pool, objpool_size, objpool_slots;
	long objpool_nr, slot_head, slot_tail, freelist_next;
	/* what points back at the kretprobe */
	long rethook_data, holder_rp;
	/* struct jprobe */
	long jp_kp, jp_entry;
};

static struct th_kprobe_off kp_off;

static void kp_off_kprobe(struct th_kprobe_off *o)
{
	o->hlist = th_member("kprobe", "hlist");
	o->list = th_member("kprobe", "list");
	o->addr = th_member("kprobe", "addr");
	o->symbol_name = th_member("kprobe", "symbol_name");
	o->offset = th_member("kprobe", "offset");
	o->pre_handler = th_member("kprobe", "pre_handler");
	o->post_handler = th_member("kprobe", "post_handler");
	/* fault_handler went away in Linux kernel commit ec6aba3d2be1
	 * ("kprobes: Remove kprobe::fault_handler") (v5.14).  The jprobe API
	 * was disabled in v4.15, but break_handler and setjmp_pre_handler
	 * stayed in the tree a few releases longer (still in v4.18). */
	o->fault_handler = th_member("kprobe", "fault_handler");
	o->flags = th_member("kprobe", "flags");
	o->nmissed = th_member("kprobe", "nmissed");
	o->opcode = th_member("kprobe", "opcode");
	/* x86's arch_specific_insn.insn: the probed instruction's copy */
	o->insn = -1;
	if (th_member("kprobe", "ainsn") >= 0 &&
	    th_member("arch_specific_insn", "insn") >= 0)
		o->insn = th_member("kprobe", "ainsn") +
			th_member("arch_specific_insn", "insn");
	o->jp_kp = th_member("jprobe", "kp");
	o->jp_entry = th_member("jprobe", "entry");
}

static void kp_off_kretprobe(struct th_kprobe_off *o)
{
	o->krp_kp = th_member("kretprobe", "kp");
	o->krp_handler = th_member("kretprobe", "handler");
	o->krp_entry_handler = th_member("kretprobe", "entry_handler");
	o->krp_maxactive = th_member("kretprobe", "maxactive");
	o->krp_nmissed = th_member("kretprobe", "nmissed");
	o->krp_data_size = th_member("kretprobe", "data_size");
	/* The free instances: an hlist free_instances until Linux kernel
	 * commit 6e426e0fcd20 ("kprobes: Replace rp->free_instance with
	 * freelist") (in v5.11); kretprobe.rph from Linux kernel commit
	 * d741bf41d7c7 ("kprobes: Remove kretprobe hash") (in v5.11); the
	 * rethook from Linux kernel commit 73f9b911faa7 ("kprobes: Use
	 * rethook for kretprobe if possible") (in v5.19); objpools from
	 * Linux kernel commit 4bbd93455659 ("kprobes: kretprobe scalability
	 * improvement") (in v6.7). */
	o->krp_rh = th_member("kretprobe", "rh");
	o->krp_rph = th_member("kretprobe", "rph");
	o->krp_freelist = th_member("kretprobe", "freelist");
	o->krp_free_instances = th_member("kretprobe", "free_instances");
	o->rethook_pool = th_member("rethook", "pool");
	o->rethook_data = o->krp_rh >= 0 ? th_member("rethook", "data") : -1;
	o->objpool_size = th_size("objpool_head");
	o->freelist_next = th_member("freelist_node", "next");
	/* holder_pool and the objpool's insides: looked up only on the
	 * branches that need them (kp_off_objpool(), the rph branch): gdb
	 * answers a type the debuginfo lacks with a search of every compile
	 * unit, 50-90 ms each. */
	o->holder_pool = -2;
	o->holder_rp = -2;
	o->objpool_slots = -2;
}

/* The objpool's members (v6.7+), once, when an objpool is counted. */
static void kp_off_objpool(struct th_kprobe_off *o)
{
	if (o->objpool_slots != -2)
		return;
	o->objpool_slots = th_member("objpool_head", "cpu_slots");
	o->objpool_nr = th_member("objpool_head", "nr_objs");
	o->slot_head = th_member("objpool_slot", "head");
	o->slot_tail = th_member("objpool_slot", "tail");
}

/* kretprobe_holder.pool (v6.7+), once, where kretprobe has rph. */
static long kp_off_holder_pool(struct th_kprobe_off *o)
{
	if (o->holder_pool == -2)
		o->holder_pool = th_member("kretprobe_holder", "pool");
	return o->holder_pool;
}

/* kretprobe_holder.rp (v5.11+), once, where kretprobe has rph. */
static long kp_off_holder_rp(struct th_kprobe_off *o)
{
	if (o->holder_rp == -2)
		o->holder_rp = th_member("kretprobe_holder", "rp");
	return o->holder_rp;
}

static const struct th_kprobe_off *th_kprobe_off(void)
{
	static int filled;

	if (!filled) {
		kp_off_kprobe(&kp_off);
		kp_off_kretprobe(&kp_off);
		filled = 1;
	}
	return &kp_off;
}

/* The table and the handlers that tell the probe types apart. */
static struct {
	int inited;
	int ok;
	const char *missing;
	ulong table;
	long table_size;
	ulong aggr_pre_handler, pre_handler_kretprobe, setjmp_pre_handler;
} kp_table;

int th_kprobes_init(void)
{
	const struct th_kprobe_off *o;

	if (kp_table.inited)
		return kp_table.ok;
	kp_table.inited = 1;
	kp_table.table = th_symbol("kprobe_table");
	if (!kp_table.table) {
		kp_table.missing = "kprobe_table (kernel built without "
			"CONFIG_KPROBES)";
		return 0;
	}
	o = th_kprobe_off();
	if (o->hlist < 0 || o->list < 0 || o->addr < 0 ||
	    o->pre_handler < 0 || o->flags < 0) {
		kp_table.missing = "struct kprobe in the debuginfo";
		return 0;
	}
	kp_table.table_size = th_vmlinux_array_len("kprobe_table",
						   th_size("hlist_head"));
	if (kp_table.table_size <= 0 || kp_table.table_size > 1 << 16)
		kp_table.table_size = 64;
	kp_table.aggr_pre_handler = th_symbol("aggr_pre_handler");
	kp_table.pre_handler_kretprobe = th_symbol("pre_handler_kretprobe");
	kp_table.setjmp_pre_handler = th_symbol("setjmp_pre_handler");
	kp_table.ok = 1;
	return 1;
}

const char *th_kprobes_missing(void)
{
	return kp_table.missing;
}

/* A new entry at the end of *V (N entries, room for *CAP). */
static struct kp_probe *kp_append(struct kp_probe **v, long n, long *cap)
{
	if (n >= *cap) {
		*cap = *cap ? *cap * 2 : 64;
		*v = realloc(*v, *cap * sizeof(**v));
	}
	memset(&(*v)[n], 0, sizeof((*v)[n]));
	return &(*v)[n];
}

/*
 * A probe of the table that is not an aggregate: register_kprobe() leaves
 * its list empty (INIT_LIST_HEAD()); only an aggregate's holds probes
 * (add_new_kprobe()).  A list that is not empty under another pre_handler:
 * an aggregate whose handler was damaged (its probes would go unlisted),
 * or a damaged list.
 */
static void kp_check_plain(ulong p)
{
	const struct th_kprobe_off *o = th_kprobe_off();
	ulong next = 0;

	if (kp_table.aggr_pre_handler &&
	    th_read_ulong(p + o->list, &next, "kprobe.list") &&
	    next != p + o->list)
		th_damaged("kprobe", p, "its list holds %lx, but its "
			   "pre_handler is not aggr_pre_handler %lx: an "
			   "aggregate's probes are not listed", next,
			   kp_table.aggr_pre_handler);
}

/* One bucket of kprobe_table, children of aggregates in list order. */
static long kp_bucket(long b, struct kp_probe **v, long n, long *cap)
{
	const struct th_kprobe_off *o = th_kprobe_off();
	struct th_walk hw, lw;
	struct kp_probe *k;
	ulong first;
	long i, j;

	if (!th_read_ulong(kp_table.table + b * sizeof(ulong), &first,
			   "kprobe_table bucket")) {
		th_warn("kprobe_table[%ld]: unreadable", b);
		return n;
	}
	th_hlist_walk(first, TH_MAX_HLIST, &hw);
	if (hw.err)
		th_warn("kprobe_table[%ld]: %s at %lx; the rest of the "
			"bucket is not shown", b, hw.err, hw.bad);
	for (i = 0; i < hw.n; i++) {
		ulong p = hw.ent[i] - o->hlist, pre = 0, paddr = 0;
		unsigned int pflags = 0;

		th_read_ulong(p + o->pre_handler, &pre, "kprobe.pre_handler");
		th_read_ulong(p + o->addr, &paddr, "kprobe.addr");
		th_read_uint(p + o->flags, &pflags, "kprobe.flags");
		if (kp_table.aggr_pre_handler &&
		    pre == kp_table.aggr_pre_handler) {
			th_list_walk(p + o->list, TH_MAX_HLIST, &lw);
			if (lw.err)
				th_warn("aggregate kprobe %lx: %s at %lx",
					p, lw.err, lw.bad);
			for (j = 0; j < lw.n; j++) {
				k = kp_append(v, n++, cap);
				k->kp = lw.ent[j] - o->list;
				k->parent = p;
				k->pflags = pflags;
				k->bucket = b;
			}
			th_walk_free(&lw);
			continue;
		}
		kp_check_plain(p);
		k = kp_append(v, n++, cap);
		k->kp = p;
		k->pflags = pflags;
		k->bucket = b;
	}
	th_walk_free(&hw);
	return n;
}

/*
 * Is the kprobe at KP the kp of a kretprobe?  Its kretprobe's rethook
 * points back at it (rethook_alloc(rp, ...) keeps rp in rethook.data), or
 * its kretprobe_holder does (kretprobe_holder.rp); a plain kprobe has no
 * such pointer behind it.  1 or 0 (*BACK the pointer to the rethook or
 * holder); -1 when the kernel keeps neither or a pointer cannot be read.
 */
static int kp_in_kretprobe(ulong kp, ulong *back)
{
	const struct th_kprobe_off *o = th_kprobe_off();
	ulong krp, p, rp;
	long via;

	*back = 0;
	if (o->krp_kp < 0)
		return -1;
	krp = kp - o->krp_kp;
	if (o->krp_rh >= 0 && o->rethook_data >= 0) {
		if (!th_read_ulong(krp + o->krp_rh, &p, "kretprobe.rh"))
			return -1;
		via = o->rethook_data;
	} else if (o->krp_rph >= 0 && kp_off_holder_rp(&kp_off) >= 0) {
		if (!th_read_ulong(krp + o->krp_rph, &p, "kretprobe.rph"))
			return -1;
		via = o->holder_rp;
	} else {
		return -1;
	}
	/* both are kzalloc'ed */
	*back = p;
	if (!th_ptr_in(p, TH_M(TH_R_DIRECT) | TH_M(TH_R_VMALLOC)))
		return 0;
	if (!th_read_ulong(p + via, &rp, "kretprobe back pointer"))
		return -1;
	return rp == krp;
}

/**
 * th_kprobes_all_disarmed - kprobes_all_disarmed: whether "echo 0 >
 * kprobes/enabled" disarmed every probe
 *
 * Return: 1, 0, or -1 when the dump has no such variable or it cannot
 * be read.
 */
int th_kprobes_all_disarmed(void)
{
	static int v = -2;
	unsigned char b = 0;
	ulong sym;

	if (v == -2) {
		sym = th_symbol("kprobes_all_disarmed");
		v = sym && th_read(sym, &b, 1, "kprobes_all_disarmed") ?
			b != 0 : -1;
	}
	return v;
}

/* Are the probes disarmed (debugfs kprobes/enabled 0)? */
static int kp_all_disarmed(void)
{
	return th_kprobes_all_disarmed() == 1;
}

/*
 * An armed probe that is not on ftrace's call site has an int3 at its
 * address (arm_kprobe() -> arch_arm_kprobe()), or the jmp of an optimized
 * probe (kept while unoptimizing too); arch_check_ftrace_location() gives
 * a probe at an ftrace call site KPROBE_FLAG_FTRACE, and such a site holds
 * a call.  A call under a probe without the flag: its flags are damaged.
 */
static void kp_check_armed(const struct kp_probe *k)
{
	unsigned char op;

	if ((k->flags & KPL_FLAG_FTRACE) || (k->pflags & KPL_FLAG_FTRACE) ||
	    (k->pflags & (KPL_FLAG_GONE | KPL_FLAG_DISABLED)) ||
	    (k->flags & KPL_FLAG_GONE) || kp_all_disarmed() ||
	    !th_ptr_in(k->addr, TH_M_CODE) ||
	    !thf_text_read(k->addr, &op, 1))
		return;
	if (op == 0xe8)
		th_damaged("kprobe", k->kp, "flags %#x (site %#x): not FTRACE, "
			   "but %lx holds a call, not the int3 or jmp of an "
			   "armed probe", k->flags, k->pflags, k->addr);
}

/* A registered probe sits on code and its handlers are code. */
static void kp_plausible(const struct kp_probe *k)
{
	ulong back;

	th_check_code("kprobe", k->kp, k->addr, "addr");
	kp_check_armed(k);
	/* KPROBE_FLAG_GONE .. KPROBE_FLAG_ON_FUNC_ENTRY: five bits */
	if (k->flags >> 8)
		th_damaged("kprobe", k->kp, "flags %#x", k->flags);
	if (k->parent && (k->pflags >> 8))
		th_damaged("kprobe", k->parent, "flags %#x (an aggregate)",
			   k->pflags);
	if (k->pre)
		th_check_func("kprobe", k->kp, k->pre, "pre_handler");
	if (k->post)
		th_check_func("kprobe", k->kp, k->post, "post_handler");
	/* register_kretprobe() sets its kprobe's pre_handler; a kretprobe
	 * whose kprobe lacks it would be printed as a plain kprobe */
	if (!kp_table.pre_handler_kretprobe)
		return;
	if (k->pre != kp_table.pre_handler_kretprobe &&
	    kp_in_kretprobe(k->kp, &back) == 1)
		th_damaged("kprobe", k->kp, "pre_handler %lx: it is the kprobe "
			   "of a kretprobe (%lx points back at it), whose "
			   "pre_handler is pre_handler_kretprobe %lx", k->pre,
			   back, kp_table.pre_handler_kretprobe);
	/* and the converse: register_kretprobe() allocates the rethook (or
	 * holder) pointing at the kretprobe before it arms the kprobe, and
	 * unregister_kretprobes() unhooks the kprobe before it lets go of
	 * them, so a hashed one with pre_handler_kretprobe has its own */
	if (k->pre == kp_table.pre_handler_kretprobe &&
	    kp_in_kretprobe(k->kp, &back) == 0)
		th_damaged("kretprobe", k->kp - th_kprobe_off()->krp_kp,
			   "its kprobe %lx has pre_handler_kretprobe, but its "
			   "%s %lx does not point back at it", k->kp,
			   th_kprobe_off()->krp_rh >= 0 ? "rethook" :
			   "kretprobe_holder", back);
}

/* The fields of one probe; an aggregate child takes its site's address. */
static void kp_fields(struct kp_probe *k)
{
	const struct th_kprobe_off *o = th_kprobe_off();
	ulong a;

	th_read_ulong(k->kp + o->addr, &k->addr, "kprobe.addr");
	th_read_ulong(k->kp + o->pre_handler, &k->pre, "kprobe.pre_handler");
	if (o->post_handler >= 0)
		th_read_ulong(k->kp + o->post_handler, &k->post,
			      "kprobe.post_handler");
	if (o->fault_handler >= 0)
		th_read_ulong(k->kp + o->fault_handler, &k->fault,
			      "kprobe.fault_handler");
	th_read_uint(k->kp + o->flags, &k->flags, "kprobe.flags");
	if (o->nmissed >= 0 &&
	    th_read_ulong(k->kp + o->nmissed, &k->nmissed, "kprobe.nmissed"))
		th_check_events("kprobe", k->kp, k->nmissed, "nmissed");
	if (k->parent) {
		/* the aggregate's addr names the site */
		if (th_read_ulong(k->parent + o->addr, &a, "kprobe.addr"))
			k->addr = a;
	} else {
		k->pflags = k->flags;
	}
	kp_plausible(k);
}

/*
 * __arm_kprobe_ftrace() counts the armed probes on ftrace call sites
 * (kprobe_ftrace_enabled, and kprobe_ipmodify_enabled for those with a
 * post_handler), one per site: the table must hold as many armed FTRACE
 * sites, or probes went missing from it (a zeroed bucket hides them all).
 */
static void kp_ftrace_count_check(const struct kp_probe *v, long n)
{
	static const char *const names[] = { "kprobe_ftrace_enabled",
					     "kprobe_ipmodify_enabled" };
	static const char *const ops[] = { "kprobe_ftrace_ops",
					   "kprobe_ipmodify_ops" };
	ulong sym, last = 0, hash, in_hash = 0;
	long armed = 0, i;
	int cnt, sum = 0, have = 0, have_ops = 0;
	struct thf_hash h;
	unsigned k;

	if (kp_all_disarmed())
		return;
	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		if ((sym = th_symbol(names[k])) &&
		    th_read_int(sym, &cnt, names[k])) {
			sum += cnt;
			have = 1;
		}
	/* and each armed site is an ip in its ops' filter hash
	 * (ftrace_set_filter_ip()): another page than the counters */
	for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
		if (!(sym = th_symbol(ops[k])) ||
		    !(hash = thf_ops_hash(sym, FALSE)))
			continue;
		if (thf_hash_read(hash, &h) && !h.err) {
			in_hash += h.count;
			have_ops = 1;
		}
		thf_hash_free(&h);
	}
	if (!have && !have_ops)
		return;
	for (i = 0; i < n; i++) {
		ulong site = v[i].parent ? v[i].parent : v[i].kp;

		/* an aggregate's children are listed together */
		if (site == last)
			continue;
		last = site;
		if ((v[i].pflags & KPL_FLAG_FTRACE) &&
		    !(v[i].pflags & (KPL_FLAG_GONE | KPL_FLAG_DISABLED)))
			armed++;
	}
	if (have && armed != sum)
		th_damaged("kprobe_table", kp_table.table, "%ld armed probes "
			   "on ftrace call sites, but the kernel counts %d "
			   "(kprobe_ftrace_enabled, kprobe_ipmodify_enabled)",
			   armed, sum);
	else if (have_ops && (ulong)armed != in_hash)
		th_damaged("kprobe_table", kp_table.table, "%ld armed probes "
			   "on ftrace call sites, but the filters of "
			   "kprobe_ftrace_ops and kprobe_ipmodify_ops hold "
			   "%lu", armed, in_hash);
}

/*
 * Every registered probe off an ftrace call site has its instruction copy
 * in a slot of kprobe_insn_slots (arch_prepare_kprobe() -> get_insn_slot()),
 * one per site (an aggregate takes its first probe's), until it is
 * unregistered or killed with its module (arch_remove_kprobe() ->
 * free_insn_slot()); each kprobe_insn_page counts its used slots (nused).
 * The table must hold as many such sites, or probes went missing from it.
 */
static void kp_slot_count_check(const struct kp_probe *v, long n)
{
	ulong cache = th_symbol("kprobe_insn_slots"), last = 0;
	long pages = th_member("kprobe_insn_cache", "pages");
	long lst = th_member("kprobe_insn_page", "list");
	long nu = th_member("kprobe_insn_page", "nused");
	long sites = 0, used = 0, i;
	struct th_walk w;
	int x;

	if (!cache || pages < 0 || lst < 0 || nu < 0)
		return;
	th_list_walk(cache + pages, 1024, &w);
	for (i = 0; !w.err && i < w.n; i++) {
		if (!th_read_int(w.ent[i] - lst + nu, &x,
				 "kprobe_insn_page.nused") || x < 0)
			w.err = "unreadable";
		used += x;
	}
	if (w.err) {
		th_damaged("kprobe_insn_slots", cache, "pages: %s", w.err);
		th_walk_free(&w);
		return;
	}
	th_walk_free(&w);
	for (i = 0; i < n; i++) {
		ulong site = v[i].parent ? v[i].parent : v[i].kp;

		if (site == last)
			continue;
		last = site;
		if (!(v[i].pflags & (KPL_FLAG_FTRACE | KPL_FLAG_GONE)))
			sites++;
	}
	if (sites != used)
		th_damaged("kprobe_table", kp_table.table, "%ld probes off "
			   "ftrace call sites, but kprobe_insn_slots has %ld "
			   "instruction slots in use", sites, used);
}

/**
 * th_kprobes_collect - every probe of kprobe_table
 * @out: the probes (malloc'd), children of aggregates in list order
 *
 * Call th_kprobes_init() first.  Returns the number of probes.
 */
long th_kprobes_collect(struct kp_probe **out)
{
	struct kp_probe *v = NULL;
	long n = 0, cap = 0, b, i;

	for (b = 0; b < kp_table.table_size; b++)
		n = kp_bucket(b, &v, n, &cap);
	for (i = 0; i < n; i++)
		kp_fields(&v[i]);
	kp_ftrace_count_check(v, n);
	kp_slot_count_check(v, n);
	*out = v;
	return n;
}

/**
 * th_kprobe_type - the type kprobes/list prints for a probe
 * @k: a probe from th_kprobes_collect()
 *
 * Returns 'r' (kretprobe), 'j' (jprobe) or 'k'.
 */
char th_kprobe_type(struct kp_probe *k)
{
	struct kpl_syms s = { kp_table.pre_handler_kretprobe,
			      kp_table.setjmp_pre_handler };
	struct kpl_probe p;

	p.addr = k->addr;
	p.pre_handler = k->pre;
	p.flags = k->flags;
	p.site_flags = k->pflags;
	return kpl_type(&p, &s);
}

/* _kprobe_addr() set addr to symbol_name + offset at registration: they
 * still agree (a name the kernel's symbol table lacks is not judged).  On
 * x86 with IBT, arch_adjust_kprobe_addr() moves a probe on a function's
 * entry past its 4-byte ENDBR. */
static void kp_check_symbol(ulong kp, const char *name, unsigned int off)
{
	ulong sym = name[0] && !strchr(name, ':') ? th_symbol(name) : 0;
	ulong addr = th_kprobe_addr(kp);

	if (sym && addr && addr != sym + off && !(off == 0 && addr == sym + 4))
		th_damaged("kprobe", kp, "addr %lx is not %s+0x%x (%lx)",
			   addr, name, off, sym + off);
}

/**
 * th_kprobe_symbol_name - the name a probe was registered with
 * @kp: struct kprobe
 * @name: kprobe.symbol_name's text
 * @len: room in @name
 * @off: kprobe.offset (0 when the member is absent)
 *
 * Returns FALSE when the probe was registered by address.
 */
int th_kprobe_symbol_name(ulong kp, char *name, int len, unsigned int *off)
{
	const struct th_kprobe_off *o = th_kprobe_off();
	ulong symname = 0;

	*off = 0;
	if (o->symbol_name < 0 ||
	    !th_read_ulong(kp + o->symbol_name, &symname,
			   "kprobe.symbol_name") || !symname)
		return FALSE;
	/* register_kprobe() resolved the name (kprobe_lookup_name()): a
	 * name it was given cannot be unreadable or empty */
	if (!th_read_cstr(symname, name, len, "kprobe.symbol_name") ||
	    !name[0]) {
		th_damaged("kprobe", kp, "symbol_name %lx: %s", symname,
			   name[0] ? "cannot be read" : "an empty name");
		name[0] = '\0';
	} else if (!th_printable(name)) {
		th_damaged("kprobe", kp, "symbol_name at %lx is not text",
			   symname);
		name[0] = '\0';
	}
	if (o->offset >= 0)
		th_read_uint(kp + o->offset, off, "kprobe.offset");
	kp_check_symbol(kp, name, *off);
	return TRUE;
}

/**
 * th_kprobe_opcode - the instruction byte the probe's breakpoint replaced
 * @kp: struct kprobe
 * @op: kprobe.opcode (0 when unreadable)
 *
 * Returns FALSE when struct kprobe has no opcode.
 */
int th_kprobe_opcode(ulong kp, unsigned char *op)
{
	const struct th_kprobe_off *o = th_kprobe_off();
	unsigned int flags = 0;
	unsigned char first;
	ulong slot;

	*op = 0;
	if (o->opcode < 0)
		return FALSE;
	th_read(kp + o->opcode, op, 1, "kprobe.opcode");
	if (o->flags < 0 || !th_read_uint(kp + o->flags, &flags, "kprobe.flags"))
		return TRUE;
	/* a probe on ftrace's call site replaces no byte:
	 * arch_prepare_kprobe_ftrace() leaves opcode as allocated, 0 */
	if (*op && (flags & KPL_FLAG_FTRACE))
		th_damaged("kprobe", kp, "opcode %02x on an FTRACE probe",
			   *op);
	/* arch_copy_kprobe() takes opcode from the instruction's copy in
	 * the probe's slot ("displacement change doesn't affect the first
	 * byte"); a GONE probe's slot may be freed */
	if (o->insn >= 0 && !(flags & (KPL_FLAG_FTRACE | KPL_FLAG_GONE)) &&
	    th_read_ulong(kp + o->insn, &slot, "kprobe.ainsn.insn") &&
	    th_kptr(slot) && th_read(slot, &first, 1, "kprobe insn slot") &&
	    first != *op)
		th_damaged("kprobe", kp, "opcode %02x, but the copy of the "
			   "instruction in its slot %lx starts with %02x",
			   *op, slot, first);
	return TRUE;
}

/**
 * th_kprobe_addr - kprobe.addr, 0 when unreadable
 * @kp: struct kprobe
 */
ulong th_kprobe_addr(ulong kp)
{
	ulong a = 0;

	th_read_ulong(kp + th_kprobe_off()->addr, &a, "kprobe.addr");
	return a;
}

/**
 * th_kprobe_offset - kprobe.offset, 0 when unreadable
 * @kp: struct kprobe
 */
unsigned int th_kprobe_offset(ulong kp)
{
	unsigned int off = 0;

	th_read_uint(kp + th_kprobe_off()->offset, &off, "kprobe.offset");
	return off;
}

/**
 * th_kprobe_nmissed - kprobe.nmissed, 0 when unreadable
 * @kp: struct kprobe
 */
ulong th_kprobe_nmissed(ulong kp)
{
	ulong n = 0;

	th_read_ulong(kp + th_kprobe_off()->nmissed, &n, "kprobe.nmissed");
	return n;
}

/**
 * th_kprobe_pre_handler - kprobe.pre_handler, 0 when unreadable
 * @kp: struct kprobe
 */
ulong th_kprobe_pre_handler(ulong kp)
{
	ulong h = 0;

	if (th_kprobe_off()->pre_handler >= 0)
		th_read_ulong(kp + th_kprobe_off()->pre_handler, &h,
			      "kprobe.pre_handler");
	return h;
}

/* A free instance of the kretprobe at KRP, each an allocation of its own
 * before the objpools of v6.7: the first on its free list, or 0. */
static ulong kp_first_free_instance(ulong krp)
{
	const struct th_kprobe_off *o = th_kprobe_off();
	static long o_rn = -2, o_node, o_fl, o_hl;
	ulong p = 0, first = 0;
	long off = -1;

	if (o_rn == -2) {
		o_rn = th_member_path("rethook_node", "freelist");
		o_node = th_member("kretprobe_instance", "node");
		o_fl = th_member_path("kretprobe_instance", "freelist");
		o_hl = th_member("kretprobe_instance", "hlist");
	}
	if (o->krp_rh >= 0) {	/* rethook_add_node(): on rh->pool */
		if (o->rethook_pool >= 0 && o_rn >= 0 && o_node >= 0 &&
		    th_read_ulong(krp + o->krp_rh, &p, "kretprobe.rh") && p) {
			p += o->rethook_pool;
			off = o_rn + o_node;
		}
	} else if (o->krp_freelist >= 0) {
		p = krp + o->krp_freelist;
		off = o_fl;
	} else if (o->krp_free_instances >= 0) {
		p = krp + o->krp_free_instances;
		off = o_hl;
	}
	if (o->objpool_size > 0 || off < 0 || !p ||
	    !th_read_ulong(p, &first, "freelist head") || !first)
		return 0;
	return first - off;
}

/* register_kretprobe() allocates each instance with kzalloc(sizeof(struct
 * kretprobe_instance) + data_size): a free one's kmalloc cache holds that */
static void kp_check_instance_size(struct th_kretprobe *r)
{
	long size = th_size("kretprobe_instance");
	ulong inst;

	if (size > 0 && (inst = kp_first_free_instance(r->addr)))
		th_check_kmalloc_size("kretprobe", r->addr, inst,
				      size + r->data_size, "data_size",
				      r->data_size);
}

/**
 * th_kretprobe_of - the kretprobe a struct kprobe is embedded in
 * @kp: struct kprobe
 * @r: its fields (0 where unreadable)
 *
 * Returns FALSE when the dump has no struct kretprobe.
 */
int th_kretprobe_of(ulong kp, struct th_kretprobe *r)
{
	const struct th_kprobe_off *o = th_kprobe_off();

	memset(r, 0, sizeof(*r));
	if (o->krp_kp < 0 || o->krp_handler < 0)
		return FALSE;
	r->addr = kp - o->krp_kp;
	th_read_ulong(r->addr + o->krp_handler, &r->handler,
		      "kretprobe.handler");
	if (o->krp_entry_handler >= 0)
		th_read_ulong(r->addr + o->krp_entry_handler,
			      &r->entry_handler, "kretprobe.entry_handler");
	/* NULL is "no handler" (an entry_handler is optional) */
	if (r->handler)
		th_check_func("kretprobe", r->addr, r->handler, "handler");
	if (r->entry_handler)
		th_check_func("kretprobe", r->addr, r->entry_handler,
			      "entry_handler");
	if (o->krp_maxactive >= 0)
		th_read_int(r->addr + o->krp_maxactive, &r->maxactive,
			    "kretprobe.maxactive");
	if (o->krp_nmissed >= 0 &&
	    th_read_int(r->addr + o->krp_nmissed, &r->nmissed,
			"kretprobe.nmissed") && r->nmissed < 0)
		th_damaged("kretprobe", r->addr, "nmissed %d", r->nmissed);
	/* each instance is one allocation with its data (kmalloc()'s
	 * largest is 4 MB on x86_64) */
	if (o->krp_data_size >= 0 &&
	    th_read_ulong(r->addr + o->krp_data_size, &r->data_size,
			  "kretprobe.data_size"))
		if (th_check_count("kretprobe", r->addr, r->data_size,
				   1UL << 22, "data_size"))
			kp_check_instance_size(r);
	return TRUE;
}

/**
 * th_kretprobe_kprobe - the struct kprobe inside a kretprobe
 * @krp: struct kretprobe
 */
ulong th_kretprobe_kprobe(ulong krp)
{
	return krp + th_kprobe_off()->krp_kp;
}

/**
 * th_jprobe_entry - the entry function of the jprobe around a kprobe
 * @kp: struct kprobe
 * @entry: jprobe.entry (0 when unreadable); untouched when FALSE
 *
 * Returns FALSE when the dump has no struct jprobe.
 */
int th_jprobe_entry(ulong kp, ulong *entry)
{
	const struct th_kprobe_off *o = th_kprobe_off();

	if (o->jp_kp < 0 || o->jp_entry < 0)
		return FALSE;
	th_read_ulong(kp - o->jp_kp + o->jp_entry, entry, "jprobe.entry");
	return TRUE;
}

/* ---------------------------------------------- kretprobe instances --- */

/* Count the nodes of a freelist (struct freelist_head: next at node+8). */
static long kp_count_freelist(ulong head_addr)
{
	long o_next = th_kprobe_off()->freelist_next;
	struct th_walk w;
	ulong first;
	long n;

	if (o_next < 0 || !th_read_ulong(head_addr, &first, "freelist head"))
		return -1;
	if (!first)
		return 0;
	th_chain_walk(first, o_next, 100000, &w);
	n = w.err ? -1 : w.n;
	if (w.err)
		th_damaged("freelist_head", head_addr, "%s at %lx", w.err,
			   w.bad);
	th_walk_free(&w);
	return n;
}

/* objpool (v6.7+): free objects are tail - head of each CPU's ring. */
static long kp_count_objpool(ulong pool, long *total)
{
	const struct th_kprobe_off *o = th_kprobe_off();
	int cpus[NR_CPUS], n, i, nr = 0;
	ulong slots, slot;
	unsigned int h, t;
	long free_ = 0;

	kp_off_objpool(&kp_off);
	if (o->objpool_slots < 0 || o->slot_head < 0 || o->slot_tail < 0 ||
	    !th_read_ulong(pool + o->objpool_slots, &slots,
			   "objpool_head.cpu_slots"))
		return -1;
	if (o->objpool_nr >= 0 &&
	    th_read_int(pool + o->objpool_nr, &nr, "objpool_head.nr_objs"))
		*total = nr;
	n = th_possible_cpus(cpus, NR_CPUS);
	for (i = 0; i < n; i++) {
		if (!th_read_ulong(slots + cpus[i] * sizeof(ulong), &slot,
				   "objpool cpu slot") || !slot)
			continue;
		if (th_read_uint(slot + o->slot_head, &h,
				 "objpool_slot.head") &&
		    th_read_uint(slot + o->slot_tail, &t,
				 "objpool_slot.tail"))
			free_ += (unsigned int)(t - h);
	}
	return free_;
}

/**
 * th_kretprobe_instances - the free instances of a kretprobe
 * @krp: struct kretprobe
 * @maxactive: kretprobe.maxactive, the total unless the pool knows it
 * @nfree: the free instances, -1 when unreadable
 * @total: all instances
 *
 * An hlist free_instances (before v5.11), a freelist in the kretprobe
 * (v5.11 to the rethook conversion), the rethook's pool (freelist, or
 * objpool from v6.7), or the kretprobe_holder's objpool.  Returns which,
 * or NULL when the kernel keeps them in none of these.
 */
static const char *kp_instances(ulong krp, int maxactive, long *nfree,
				long *total);

/*
 * The rethook instances in use: rethook_hook() puts each on its task's
 * task_struct.rethooks llist until the probed function returns.  -1 when
 * the kernel keeps no such list.
 */
static long kp_rethook_in_use(ulong rh)
{
	static long o_task = -2, o_llist, o_rh;
	struct task_context *tc = FIRST_CONTEXT();
	struct th_walk w;
	ulong i, first, r;
	long n = 0, j;

	if (o_task == -2) {
		o_task = th_member("task_struct", "rethooks");
		o_llist = th_member("rethook_node", "llist");
		o_rh = th_member("rethook_node", "rethook");
	}
	if (o_task < 0 || o_llist < 0 || o_rh < 0 || !tc)
		return -1;
	for (i = 0; i < RUNNING_TASKS(); i++, tc++) {
		/* llist_head.first, llist_node.next: the first words */
		if (!th_read_ulong(tc->task + o_task, &first,
				   "task_struct.rethooks") || !first)
			continue;
		th_chain_walk(first, 0, 10000, &w);
		for (j = 0; j < w.n; j++)
			if (th_read_ulong(w.ent[j] - o_llist + o_rh, &r,
					  "rethook_node.rethook") && r == rh)
				n++;
		th_walk_free(&w);
	}
	return n;
}

const char *th_kretprobe_instances(ulong krp, int maxactive, long *nfree,
				   long *total)
{
	const char *where = kp_instances(krp, maxactive, nfree, total);
	const struct th_kprobe_off *o = th_kprobe_off();
	long used;
	ulong rh;

	/* the pool holds the instances the kretprobe allocated, no more */
	if (where && *nfree > *total)
		th_damaged("kretprobe", krp, "%ld free instances in its %s, "
			   "of %ld", *nfree, where, *total);
	if (where && *nfree < 0)
		th_damaged("kretprobe", krp, "its %s is unreadable", where);
	/* an instance not free is on the task that is in the function */
	if (where && o->krp_rh >= 0 && *nfree >= 0 && *nfree < *total &&
	    th_read_ulong(krp + o->krp_rh, &rh, "kretprobe.rh") && rh &&
	    (used = kp_rethook_in_use(rh)) >= 0 && *nfree + used < *total)
		th_damaged("kretprobe", krp, "%ld of %ld instances free in "
			   "its %s and %ld on tasks: the pool lost %ld", *nfree,
			   *total, where, used, *total - *nfree - used);
	return where;
}

static const char *kp_instances(ulong krp, int maxactive, long *nfree,
				long *total)
{
	const struct th_kprobe_off *o = th_kprobe_off();
	struct th_walk w;
	ulong p;

	*nfree = -1;
	*total = maxactive;
	if (o->krp_rh >= 0) {
		if (o->rethook_pool >= 0 &&
		    th_read_ulong(krp + o->krp_rh, &p, "kretprobe.rh") && p) {
			if (o->objpool_size > 0)
				*nfree = kp_count_objpool(p + o->rethook_pool,
							  total);
			else
				*nfree = kp_count_freelist(p + o->rethook_pool);
		}
		return "rethook pool";
	}
	if (o->krp_rph >= 0 && kp_off_holder_pool(&kp_off) >= 0) {
		/* kretprobe_holder got its pool with the objpool conversion
		 * (4bbd93455659, v6.7); 5.11 to 6.6 kernels without rethook
		 * have rph but keep the free list in kretprobe.freelist. */
		if (th_read_ulong(krp + o->krp_rph, &p, "kretprobe.rph") && p)
			*nfree = kp_count_objpool(p + o->holder_pool, total);
		return "objpool";
	}
	if (o->krp_freelist >= 0) {
		*nfree = kp_count_freelist(krp + o->krp_freelist);
		return "freelist";
	}
	if (o->krp_free_instances >= 0) {
		if (th_read_ulong(krp + o->krp_free_instances, &p,
				  "kretprobe.free_instances")) {
			th_hlist_walk(p, 100000, &w);
			*nfree = w.err ? -1 : w.n;
			th_walk_free(&w);
		}
		return "free_instances";
	}
	return NULL;
}
