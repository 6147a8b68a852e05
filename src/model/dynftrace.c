/*
 * tracehunt: dynamic ftrace as the dump holds it: the dyn_ftrace records
 * (ftrace_pages_start), the ftrace_ops list with their filter and notrace
 * hashes, direct_functions, and the x86 call targets the kernel computes
 * from them (ftrace_get_addr_curr(), arch_ftrace_trampoline_func()).
 *
 * Read once per dump, in bulk: each ftrace_page's records in one read,
 * each hash's bucket array in one read, text a page at a time.
 */
#include "model/ftrace_ops.h"
#include "insn.h"

#define THF_MAX_PAGES	200000
#define THF_MAX_OPS	4096
#define THF_MAX_HASH_BITS 24

static struct thf_state S;

/* -------------------------------------------------------------- enums --- */

/*
 * The enumerators of an anonymous enum of flags (FTRACE_OPS_FL_*,
 * FTRACE_FL_*), in declaration order, through core.c's one parser: one
 * gdb lookup instead of one per name (a name that is absent costs crash a
 * search of every symbol table).  The flags are 32-bit: (1UL << 31) may
 * print as a negative value.
 */
static int thf_enum_all(const char *member, struct th_enumv *out, int max)
{
	int n = th_enum_list(member, out, max), i;

	for (i = 0; i < n; i++)
		out[i].val = (long)((ulong)out[i].val & 0xffffffffUL);
	return n;
}

#define THF_MAX_ENUM 64
static struct th_enumv thf_opsfl[THF_MAX_ENUM];
static int thf_nopsfl = -1;

/* FTRACE_OPS_FL_<NAME> as the dump defines it, 0 when absent */
ulong thf_ops_flag(const char *name)
{
	char full[80];
	int i;

	if (thf_nopsfl < 0)
		thf_nopsfl = thf_enum_all("FTRACE_OPS_FL_ENABLED", thf_opsfl,
					  THF_MAX_ENUM);
	snprintf(full, sizeof(full), "FTRACE_OPS_FL_%s", name);
	for (i = 0; i < thf_nopsfl; i++)
		if (strcmp(thf_opsfl[i].name, full) == 0)
			return thf_opsfl[i].val;
	/* gdb could not list the enum: ask for the one name */
	if (thf_nopsfl == 0)
		return (ulong)th_enum(full, 0);
	return 0;
}

/* ------------------------------------------------------------- hashes --- */

struct thf_pair {
	ulong ip, direct;
};

static int thf_pair_cmp(const void *a, const void *b)
{
	const struct thf_pair *x = a, *y = b;

	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

/*
 * Read the struct ftrace_hash at ADDR: size_bits, the bucket array and
 * every ftrace_func_entry on it.  Bounded by the hash's own count (a
 * damaged chain or a cycle ends the read with h->err set).
 */
static void thf_hash_read(ulong addr, struct thf_hash *h, int want_direct)
{
	long o_bits = th_member("ftrace_hash", "size_bits");
	long o_buckets = th_member("ftrace_hash", "buckets");
	long o_count = th_member("ftrace_hash", "count");
	long o_flags = th_member("ftrace_hash", "flags");
	long o_hlist = th_member("ftrace_func_entry", "hlist");
	long o_ip = th_member("ftrace_func_entry", "ip");
	long o_direct = th_member("ftrace_func_entry", "direct");
	long esz = th_size("ftrace_func_entry");
	struct thf_pair *pairs = NULL;
	ulong buckets, nb, b, *heads = NULL, limit;
	long cap = 0, i;
	unsigned char ent[64];

	memset(h, 0, sizeof(*h));
	h->addr = addr;
	if (!addr)
		return;
	if (o_bits < 0 || o_buckets < 0 || o_count < 0 || o_ip < 0 ||
	    o_hlist < 0 || esz <= 0 || esz > (long)sizeof(ent)) {
		h->err = "struct ftrace_hash/ftrace_func_entry not in debuginfo";
		return;
	}
	if (!th_read_ulong(addr + o_bits, &h->size_bits, "ftrace_hash.size_bits") ||
	    !th_read_ulong(addr + o_buckets, &buckets, "ftrace_hash.buckets") ||
	    !th_read_ulong(addr + o_count, &h->count, "ftrace_hash.count")) {
		h->err = "unreadable ftrace_hash";
		return;
	}
	if (o_flags >= 0)
		th_read_ulong(addr + o_flags, &h->hflags, "ftrace_hash.flags");
	if (!h->count)
		return;
	if (h->size_bits > THF_MAX_HASH_BITS || !th_kptr(buckets)) {
		h->err = "implausible ftrace_hash";
		return;
	}
	nb = 1UL << h->size_bits;
	heads = malloc(nb * sizeof(ulong));
	if (!heads || !th_read(buckets, heads, nb * sizeof(ulong),
			       "ftrace_hash.buckets")) {
		free(heads);
		h->err = "unreadable ftrace_hash buckets";
		return;
	}
	/* a chain longer than the whole count is damaged or a cycle */
	limit = h->count + 16;
	for (b = 0; b < nb && !h->err; b++) {
		ulong node = heads[b];
		ulong steps = 0;

		while (node) {
			ulong next, ip, direct = 0;

			if (!th_kptr(node) || ++steps > limit ||
			    (ulong)h->n >= limit) {
				h->err = "damaged ftrace_hash chain";
				break;
			}
			if (!th_read(node - o_hlist, ent, esz,
				     "ftrace_func_entry")) {
				h->err = "unreadable ftrace_func_entry";
				break;
			}
			memcpy(&next, ent + o_hlist, sizeof(ulong));
			memcpy(&ip, ent + o_ip, sizeof(ulong));
			if (o_direct >= 0)
				memcpy(&direct, ent + o_direct, sizeof(ulong));
			if (h->n >= cap) {
				cap = cap ? cap * 2 : 64;
				pairs = realloc(pairs, cap * sizeof(*pairs));
			}
			pairs[h->n].ip = ip;
			pairs[h->n].direct = direct;
			h->n++;
			node = next;
		}
	}
	free(heads);
	if (!h->n)
		return;
	qsort(pairs, h->n, sizeof(*pairs), thf_pair_cmp);
	h->ip = malloc(h->n * sizeof(ulong));
	if (want_direct)
		h->direct = malloc(h->n * sizeof(ulong));
	for (i = 0; i < h->n; i++) {
		h->ip[i] = pairs[i].ip;
		if (h->direct)
			h->direct[i] = pairs[i].direct;
	}
	free(pairs);
}

static void thf_hash_free(struct thf_hash *h)
{
	free(h->ip);
	free(h->direct);
	memset(h, 0, sizeof(*h));
}

void thf_ops_release(struct thf_ops *op)
{
	thf_hash_free(&op->filter);
	thf_hash_free(&op->notrace);
}

int thf_hash_has(const struct thf_hash *h, ulong ip, ulong *direct)
{
	long lo = 0, hi = h->n - 1, mid;

	while (lo <= hi) {
		mid = (lo + hi) / 2;
		if (h->ip[mid] == ip) {
			if (direct)
				*direct = h->direct ? h->direct[mid] : 0;
			return TRUE;
		}
		if (h->ip[mid] < ip)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return FALSE;
}

/* ftrace_hash_empty(): NULL, or no entries and no FTRACE_HASH_FL_MOD
 * (a #define, bit 0 of hash->flags since it exists: not in debuginfo) */
int thf_hash_empty(const struct thf_hash *h)
{
	return !h->addr || !(h->count || (h->hflags & 1));
}

int thf_ops_contains(const struct thf_ops *op, ulong ip)
{
	return (thf_hash_empty(&op->filter) ||
		thf_hash_has(&op->filter, ip, NULL)) &&
	       (thf_hash_empty(&op->notrace) ||
		!thf_hash_has(&op->notrace, ip, NULL));
}

/* ---------------------------------------------------------------- ops --- */

int thf_ops_read(ulong addr, struct thf_ops *op)
{
	static const char *const fh_names[] = { "func_hash", NULL };
	long o_func = th_member("ftrace_ops", "func");
	long o_flags = th_member("ftrace_ops", "flags");
	long o_tramp = th_member("ftrace_ops", "trampoline");
	long o_tsize = th_member("ftrace_ops", "trampoline_size");
	long o_priv = th_member("ftrace_ops", "private");
	long o_fh = th_member_any("ftrace_ops", fh_names, NULL);
	long o_filter, o_notrace;
	ulong filter = 0, notrace = 0;

	memset(op, 0, sizeof(*op));
	op->addr = addr;
	if (!th_read_ulong(addr + o_func, &op->func, "ftrace_ops.func") ||
	    !th_read_ulong(addr + o_flags, &op->flags, "ftrace_ops.flags"))
		return FALSE;
	op->readable = TRUE;
	if (o_tramp >= 0)
		th_read_ulong(addr + o_tramp, &op->trampoline,
			      "ftrace_ops.trampoline");
	if (o_tsize >= 0)
		th_read_ulong(addr + o_tsize, &op->trampoline_size,
			      "ftrace_ops.trampoline_size");
	if (o_priv >= 0)
		th_read_ulong(addr + o_priv, &op->private_data,
			      "ftrace_ops.private");
	if (o_fh >= 0) {
		/* struct ftrace_ops_hash since Linux kernel commit
		 * 33b7f99cf003 ("ftrace: Allow ftrace_ops to use the hashes
		 * from other ops") (in v3.19) */
		o_filter = th_member("ftrace_ops_hash", "filter_hash");
		o_notrace = th_member("ftrace_ops_hash", "notrace_hash");
		if (th_read_ulong(addr + o_fh, &op->func_hash,
				  "ftrace_ops.func_hash") &&
		    th_kptr(op->func_hash) && o_filter >= 0 && o_notrace >= 0) {
			th_read_ulong(op->func_hash + o_filter, &filter,
				      "ftrace_ops_hash.filter_hash");
			th_read_ulong(op->func_hash + o_notrace, &notrace,
				      "ftrace_ops_hash.notrace_hash");
		}
	} else {
		o_filter = th_member("ftrace_ops", "filter_hash");
		o_notrace = th_member("ftrace_ops", "notrace_hash");
		if (o_filter >= 0)
			th_read_ulong(addr + o_filter, &filter,
				      "ftrace_ops.filter_hash");
		if (o_notrace >= 0)
			th_read_ulong(addr + o_notrace, &notrace,
				      "ftrace_ops.notrace_hash");
	}
	thf_hash_read(filter, &op->filter, FALSE);
	thf_hash_read(notrace, &op->notrace, FALSE);
	return TRUE;
}

/* do_for_each_ftrace_op(): from ftrace_ops_list to &ftrace_list_end. */
static void thf_ops_load(void)
{
	ulong head = th_symbol("ftrace_ops_list");
	long o_next = th_member("ftrace_ops", "next");
	ulong op = 0;
	int cap = 0, i;

	S.list_end = th_symbol("ftrace_list_end");
	if (!head || o_next < 0 || th_member("ftrace_ops", "func") < 0 ||
	    th_member("ftrace_ops", "flags") < 0) {
		S.ops_err = "no ftrace_ops_list or struct ftrace_ops";
		return;
	}
	if (!th_read_ulong(head, &op, "ftrace_ops_list")) {
		S.ops_err = "unreadable ftrace_ops_list";
		S.ops_bad = head;
		return;
	}
	while (op && op != S.list_end) {
		ulong next;

		if (!th_kptr(op)) {
			S.ops_err = "invalid pointer";
			S.ops_bad = op;
			break;
		}
		for (i = 0; i < S.nops; i++)
			if (S.ops[i].addr == op)
				break;
		if (i < S.nops) {
			S.ops_err = "cycle";
			S.ops_bad = op;
			break;
		}
		if (S.nops >= THF_MAX_OPS) {
			S.ops_err = "too many entries";
			S.ops_bad = op;
			break;
		}
		if (S.nops >= cap) {
			cap = cap ? cap * 2 : 16;
			S.ops = realloc(S.ops, cap * sizeof(*S.ops));
		}
		if (!thf_ops_read(op, &S.ops[S.nops]) ||
		    !th_read_ulong(op + o_next, &next, "ftrace_ops.next")) {
			S.ops_err = "unreadable ftrace_ops";
			S.ops_bad = op;
			break;
		}
		S.nops++;
		op = next;
	}
}

int thf_tramp_ops_next(struct thf_state *s, ulong ip, int from)
{
	int i;

	for (i = from + 1; i < s->nops; i++)
		if (s->ops[i].trampoline && thf_ops_contains(&s->ops[i], ip))
			return i;
	return -1;
}

int thf_ops_by_tramp(struct thf_state *s, ulong addr)
{
	int i;

	for (i = 0; i < s->nops; i++) {
		ulong t = s->ops[i].trampoline;
		ulong sz = s->ops[i].trampoline_size ?
			s->ops[i].trampoline_size : 1;

		if (t && addr >= t && addr < t + sz)
			return i;
	}
	return -1;
}

/* ------------------------------------------------------------ records --- */

static int thf_recfl_load(struct thf_recfl *f)
{
	static const struct {
		const char *name;
		size_t off;
	} names[] = {
		{ "FTRACE_FL_ENABLED", offsetof(struct thf_recfl, enabled) },
		{ "FTRACE_FL_REGS", offsetof(struct thf_recfl, regs) },
		{ "FTRACE_FL_REGS_EN", offsetof(struct thf_recfl, regs_en) },
		{ "FTRACE_FL_TRAMP", offsetof(struct thf_recfl, tramp) },
		{ "FTRACE_FL_TRAMP_EN", offsetof(struct thf_recfl, tramp_en) },
		{ "FTRACE_FL_IPMODIFY", offsetof(struct thf_recfl, ipmodify) },
		{ "FTRACE_FL_DISABLED", offsetof(struct thf_recfl, disabled) },
		{ "FTRACE_FL_DIRECT", offsetof(struct thf_recfl, direct) },
		{ "FTRACE_FL_DIRECT_EN", offsetof(struct thf_recfl, direct_en) },
		{ "FTRACE_FL_CALL_OPS", offsetof(struct thf_recfl, call_ops) },
		{ "FTRACE_FL_CALL_OPS_EN",
		  offsetof(struct thf_recfl, call_ops_en) },
		{ "FTRACE_FL_TOUCHED", offsetof(struct thf_recfl, touched) },
		{ "FTRACE_FL_MODIFIED", offsetof(struct thf_recfl, modified) },
	};
	struct th_enumv all[THF_MAX_ENUM];
	int nall = thf_enum_all("FTRACE_FL_ENABLED", all, THF_MAX_ENUM);
	ulong lowest = 0;
	size_t i;
	int k;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		ulong bit = 0;

		if (nall) {
			for (k = 0; k < nall; k++)
				if (strcmp(all[k].name, names[i].name) == 0)
					bit = all[k].val;
		} else {
			bit = (ulong)th_enum(names[i].name, 0) & 0xffffffffUL;
		}
		if (!bit || (bit & (bit - 1)))
			continue;
		*(ulong *)((char *)f + names[i].off) = bit;
	}
	/* FTRACE_REF_MAX_SHIFT is the lowest bit of the enum in every
	 * version: the reference count lives below every flag */
	for (k = 0; k < nall; k++)
		if (all[k].val && (!lowest || all[k].val < lowest))
			lowest = all[k].val;
	for (i = 0; !nall && i < sizeof(names) / sizeof(names[0]); i++) {
		ulong bit = *(ulong *)((char *)f + names[i].off);

		if (bit && (!lowest || bit < lowest))
			lowest = bit;
	}
	if (!f->enabled)
		return FALSE;
	f->ref_mask = lowest - 1;
	return TRUE;
}

static void thf_rec_take(struct thf_rec *r, const unsigned char *rec,
			 long o_ip, long o_flags)
{
	memcpy(&r->ip, rec + o_ip, sizeof(ulong));
	memcpy(&r->flags, rec + o_flags, sizeof(ulong));
}

static void thf_recs_load(void)
{
	ulong start = th_symbol("ftrace_pages_start");
	long o_next = th_member("ftrace_page", "next");
	long o_records = th_member("ftrace_page", "records");
	long o_index = th_member("ftrace_page", "index");
	long o_ip = th_member("dyn_ftrace", "ip");
	long o_flags = th_member("dyn_ftrace", "flags");
	long rsz = th_size("dyn_ftrace");
	ulong pg, *seen = NULL;
	long cap = 0, scap = 0, i;
	unsigned char *buf = NULL;
	long bufsz = 0;

	if (o_next < 0 || o_records < 0 || o_index < 0 || o_ip < 0 ||
	    o_flags < 0 || rsz <= 0) {
		S.rec_err = "struct ftrace_page/dyn_ftrace not in debuginfo";
		return;
	}
	if (!th_read_ulong(start, &pg, "ftrace_pages_start")) {
		S.rec_err = "unreadable ftrace_pages_start";
		S.rec_bad = start;
		return;
	}
	while (pg) {
		ulong records, next;
		int index;
		long k;

		if (!th_kptr(pg)) {
			S.rec_err = "invalid ftrace_page pointer";
			S.rec_bad = pg;
			break;
		}
		/* pages are few (hundreds): a linear cycle check is cheap
		 * next to the records read for each */
		for (k = 0; k < S.npages; k++)
			if (seen[k] == pg)
				break;
		if (k < S.npages || S.npages >= THF_MAX_PAGES) {
			S.rec_err = k < S.npages ? "cycle in ftrace_pages" :
				"too many ftrace_pages";
			S.rec_bad = pg;
			break;
		}
		if (S.npages >= scap) {
			scap = scap ? scap * 2 : 256;
			seen = realloc(seen, scap * sizeof(ulong));
		}
		seen[S.npages++] = pg;
		if (!th_read_ulong(pg + o_records, &records,
				   "ftrace_page.records") ||
		    !th_read_int(pg + o_index, &index, "ftrace_page.index") ||
		    !th_read_ulong(pg + o_next, &next, "ftrace_page.next")) {
			S.rec_err = "unreadable ftrace_page";
			S.rec_bad = pg;
			break;
		}
		/* an order-N allocation holds at most a few thousand */
		if (index < 0 || index > (1 << 20) ||
		    (index && !th_kptr(records))) {
			S.rec_err = "implausible ftrace_page";
			S.rec_bad = pg;
			break;
		}
		if (index) {
			if (index * rsz > bufsz) {
				bufsz = index * rsz;
				free(buf);
				buf = malloc(bufsz);
			}
			if (!buf) {
				S.rec_err = "out of memory for dyn_ftrace "
					"records";
				S.rec_bad = records;
				break;
			}
			if (S.nrec + index > cap) {
				cap = (S.nrec + index) * 2;
				S.rec = realloc(S.rec, cap * sizeof(*S.rec));
				if (!S.rec) {
					S.nrec = cap = 0;
					S.rec_err = "out of memory for dyn_ftrace "
						"records";
					S.rec_bad = records;
					break;
				}
			}
			if (th_read(records, buf, index * rsz,
				    "ftrace_page.records")) {
				for (i = 0; i < index; i++)
					thf_rec_take(&S.rec[S.nrec++],
						     buf + i * rsz, o_ip,
						     o_flags);
			} else {
				/* e.g. pages left out of a filtered dump:
				 * page by page, the records on readable
				 * pages are still shown */
				if (!S.rec_err) {
					S.rec_err = "unreadable dyn_ftrace "
						"records";
					S.rec_bad = records;
				}
				for (i = 0; i < index; i++) {
					if (!th_read(records + i * rsz, buf,
						     rsz, "dyn_ftrace")) {
						S.rec_missing++;
						continue;
					}
					thf_rec_take(&S.rec[S.nrec++], buf,
						     o_ip, o_flags);
				}
			}
		}
		pg = next;
	}
	S.rec_stopped = pg != 0;
	free(buf);
	free(seen);
}

/* ------------------------------------------------------- text and x86 --- */

static ulong thf_tp_addr = 1;	/* cached text page (1: none) */
static unsigned char *thf_tp;
static int thf_tp_ok;

int thf_text_read(ulong addr, unsigned char *buf, int len)
{
	ulong psz = PAGESIZE(), page = addr & ~(psz - 1);

	if (len <= 0 || (ulong)len > psz)
		return FALSE;
	if (((addr + len - 1) & ~(psz - 1)) != page)
		return th_read(addr, buf, len, "text");
	if (!thf_tp)
		thf_tp = malloc(psz);
	if (!thf_tp)
		return th_read(addr, buf, len, "text");
	if (page != thf_tp_addr) {
		thf_tp_addr = page;
		thf_tp_ok = th_read(page, thf_tp, psz, "text page");
	}
	if (!thf_tp_ok)
		return th_read(addr, buf, len, "text");
	memcpy(buf, thf_tp + (addr - page), len);
	return TRUE;
}

/* addr_from_call(): the destination of the call at PTR, 0 if none */
static ulong thf_addr_from_call(ulong ptr)
{
	unsigned char b[5];
	struct insn in;

	if (!ptr || !thf_text_read(ptr, b, sizeof(b)))
		return 0;
	if (insn_decode(b, sizeof(b), ptr, &in) != 5 || in.kind != INSN_CALL)
		return 0;
	return in.target;
}

/* arch_ftrace_trampoline_func() of x86 */
ulong thf_tramp_func(struct thf_state *s, const struct thf_ops *op,
		     const struct thf_rec *r)
{
	if (!op || !(op->flags & s->ops_fl_alloc_tramp) ||
	    !s->ops_fl_alloc_tramp) {
		/* static_tramp_func() */
		if (op && op->trampoline) {
			/* FTRACE_GRAPH_ADDR as a static trampoline: only
			 * before x86 had DYNAMIC_FTRACE_WITH_ARGS, when
			 * ftrace_graph_caller still existed */
			if (s->graph_caller && op->trampoline == s->graph_caller)
				return s->prepare_ftrace_return;
			return 0;
		}
		if (r && (r->flags & s->fl.regs_en) && s->ftrace_regs_caller)
			return thf_addr_from_call(s->ftrace_regs_caller +
						  s->regs_call_off);
		if (!s->ftrace_caller)
			return 0;
		return thf_addr_from_call(s->ftrace_caller + s->call_off);
	}
	return thf_addr_from_call(op->trampoline +
				  ((op->flags & s->ops_fl_save_regs) ?
				   s->regs_call_off : s->call_off));
}

ulong thf_expected_target(struct thf_state *s, const struct thf_rec *r,
			  const char **why)
{
	ulong direct;
	int i;

	if (s->fl.direct_en && (r->flags & s->fl.direct_en) &&
	    thf_hash_has(&s->direct, r->ip, &direct) && direct) {
		*why = "direct";
		return direct;
	}
	if (s->fl.tramp_en && (r->flags & s->fl.tramp_en)) {
		ulong adding = thf_ops_flag("ADDING");

		/* ftrace_find_tramp_ops_curr(): ops being added are not
		 * attached yet */
		for (i = thf_tramp_ops_next(s, r->ip, -1); i >= 0;
		     i = thf_tramp_ops_next(s, r->ip, i))
			if (!(s->ops[i].flags & adding)) {
				*why = "trampoline";
				return s->ops[i].trampoline;
			}
	}
	if ((r->flags & s->fl.regs_en) && s->ftrace_regs_caller) {
		*why = "ftrace_regs_caller";
		return s->ftrace_regs_caller;
	}
	*why = "ftrace_caller";
	return s->ftrace_caller;
}

/* ------------------------------------------------------ symbol text --- */

/* %pS of the ops fields and the "->" target, once per ops: the 37,000
 * lines of a function_graph dump share a handful of ops */
static struct thf_opstr *thf_opstr;
static char thf_sarrow[2][320];		/* by FTRACE_FL_REGS_EN */
static int thf_sarrow_done[2];

const struct thf_opstr *thf_ops_str(struct thf_state *s, int i)
{
	struct thf_opstr *o;
	ulong t;

	if (i < 0 || i >= s->nops)
		return NULL;
	if (!thf_opstr)
		thf_opstr = calloc(s->nops, sizeof(*thf_opstr));
	if (!thf_opstr)
		return NULL;
	o = &thf_opstr[i];
	if (o->done)
		return o;
	th_ksym_pS(s->ops[i].trampoline, o->tramp, sizeof(o->tramp));
	th_ksym_pS(s->ops[i].func, o->func, sizeof(o->func));
	th_ksym_pS(s->ops[i].addr, o->self, sizeof(o->self));
	/* for a trampoline of its own the target does not depend on the
	 * record; a static one (FTRACE_GRAPH_ADDR) neither */
	t = thf_tramp_func(s, &s->ops[i], NULL);
	o->arrow[0] = '\0';
	if (t) {
		char b[300];

		snprintf(o->arrow, sizeof(o->arrow), " ->%s",
			 th_ksym_pS(t, b, sizeof(b)));
	}
	o->done = TRUE;
	return o;
}

const char *thf_static_arrow(struct thf_state *s, int regs_en)
{
	struct thf_rec r;
	ulong t;
	int k = !!regs_en;

	if (!thf_sarrow_done[k]) {
		char b[300];

		r.ip = 0;
		r.flags = k ? s->fl.regs_en : 0;
		t = thf_tramp_func(s, NULL, &r);
		thf_sarrow[k][0] = '\0';
		if (t)
			snprintf(thf_sarrow[k], sizeof(thf_sarrow[k]), " ->%s",
				 th_ksym_pS(t, b, sizeof(b)));
		thf_sarrow_done[k] = TRUE;
	}
	return thf_sarrow[k];
}

/* ------------------------------------------------------------- flags --- */

char *thf_ops_flags_str(ulong flags, char *buf, size_t len)
{
	ulong rest = flags;
	size_t n = 0;
	int i;

	buf[0] = '\0';
	thf_ops_flag("ENABLED");	/* loads the table */
	for (i = 0; i < thf_nopsfl; i++) {
		ulong bit = thf_opsfl[i].val;

		if (!bit || (bit & (bit - 1)) || !(rest & bit))
			continue;
		rest &= ~bit;
		n += snprintf(buf + n, n < len ? len - n : 0, "%s%s",
			      n ? "|" : "", thf_opsfl[i].name + 14);
	}
	if (rest)
		n += snprintf(buf + n, n < len ? len - n : 0, "%s0x%lx",
			      n ? "|" : "", rest);
	if (!n)
		snprintf(buf, len, "-");
	return buf;
}

/* -------------------------------------------------------------- load --- */

/* One line on what the ftrace_pages walk could not read (nothing when it
 * read everything). */
void thf_warn_recs(struct thf_state *s)
{
	if (!s || !s->rec_err)
		return;
	if (s->rec_missing && !s->rec_stopped)
		th_warn("ftrace_pages: %s at %lx: %ld call sites not read, "
			"the other pages' are shown", s->rec_err, s->rec_bad,
			s->rec_missing);
	else if (s->rec_missing)
		th_warn("ftrace_pages: %s at %lx: records after it are missing "
			"(and %ld earlier call sites not read)", s->rec_err,
			s->rec_bad, s->rec_missing);
	else
		th_warn("ftrace_pages: %s at %lx: records after it are missing",
			s->rec_err, s->rec_bad);
}

/* ... and what the ftrace_pages and ftrace_ops_list walks could not read */
void thf_warn_damage(struct thf_state *s)
{
	if (!s)
		return;
	thf_warn_recs(s);
	if (s->ops_err)
		th_warn("ftrace_ops_list: %s at %lx", s->ops_err, s->ops_bad);
}

void thf_load_why(void)
{
	fprintf(fp, "ftrace: %s\n", S.why ? S.why : "not loaded");
}

struct thf_state *thf_load(void)
{
	if (S.loaded)
		return S.why ? NULL : &S;
	S.loaded = TRUE;
	if (!th_symbol("ftrace_pages_start")) {
		S.why = "no ftrace_pages_start in this kernel (built without "
			"CONFIG_DYNAMIC_FTRACE?)";
		return NULL;
	}
	if (!thf_recfl_load(&S.fl)) {
		S.why = "FTRACE_FL_ENABLED is not in the dump's debuginfo: "
			"cannot decode dyn_ftrace flags";
		return NULL;
	}
	S.ftrace_caller = th_symbol("ftrace_caller");
	S.ftrace_regs_caller = th_symbol("ftrace_regs_caller");
	if (S.ftrace_caller && th_symbol("ftrace_call"))
		S.call_off = th_symbol("ftrace_call") - S.ftrace_caller;
	if (S.ftrace_regs_caller && th_symbol("ftrace_regs_call"))
		S.regs_call_off = th_symbol("ftrace_regs_call") -
			S.ftrace_regs_caller;
	S.graph_caller = th_symbol("ftrace_graph_caller");
	S.prepare_ftrace_return = th_symbol("prepare_ftrace_return");
	S.ops_fl_alloc_tramp = thf_ops_flag("ALLOC_TRAMP");
	S.ops_fl_save_regs = thf_ops_flag("SAVE_REGS");
	/* print_rec() checks FTRACE_MCOUNT_MAX_OFFSET since v6.0; its
	 * weak-function scan is the mark of it */
	S.have_max_offset = th_symbol("ftrace_check_for_weak_functions") ||
		th_symbol("ftrace_check_work_func");
	thf_recs_load();
	thf_ops_load();
	if (th_symbol("direct_functions")) {
		ulong h = 0;

		S.have_direct = TRUE;
		if (th_read_ulong(th_symbol("direct_functions"), &h,
				  "direct_functions"))
			thf_hash_read(h, &S.direct, TRUE);
	}
	/* IBT: the site follows an endbr64 (FTRACE_MCOUNT_MAX_OFFSET is
	 * ENDBR_INSN_SIZE); look at the first records */
	{
		long i;
		unsigned char b[4];

		for (i = 0; i < S.nrec && i < 256; i++)
			if (thf_text_read(S.rec[i].ip - 4, b, 4) &&
			    insn_is_endbr(b, 4)) {
				S.max_offset = 4;
				break;
			}
	}
	return &S;
}
