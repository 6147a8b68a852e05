/*
 * tracehunt: reads shared by the ftrace state files -- the array's ring
 * buffer and per-CPU data, the tracing CPUs, event names, ftrace hashes
 * and the dyn_ftrace records.
 */
#include "model/model.h"
#include "model/ftrace_files.h"
#include "model/tracearray.h"

/* RB_BUFFER_OFF of ring_buffer.c: the bit tracing_off() sets */
#define FF_RB_BUFFER_OFF	(1 << 20)
/* FTRACE_HASH_FL_MOD of ftrace.c */
#define FF_HASH_FL_MOD		1

/* struct array_buffer, struct trace_buffer before v5.6: Linux kernel
 * commit 1c5eb4481e01 ("tracing: Rename trace_buffer to array_buffer")
 * (in v5.6) */
static long ff_ab_member(const char *m)
{
	long o = th_member("array_buffer", m);

	return o >= 0 ? o : th_member("trace_buffer", m);
}

/* The ring buffer was "struct ring_buffer" before v5.6: Linux kernel
 * commit 13292494379f ("tracing: Make struct ring_buffer less ambiguous") */
static long ff_rb_record_disabled(void)
{
	long o = th_member("trace_buffer", "record_disabled");

	return o >= 0 ? o : th_member("ring_buffer", "record_disabled");
}

/*
 * tracer_tracing_is_on(): the state user space set, i.e. without the
 * internal disables, as ring_buffer_record_is_set_on() reads it since
 * v6.8 ("tracing: Use ring_buffer_record_is_set_on() in
 * tracer_tracing_is_on()", trace-v6.8-rc4); without a buffer,
 * !tr->buffer_disabled.
 */
int ff_is_on(struct th_tr *tr)
{
	long o_ab = th_tr_off()->array_buffer, o_buf = ff_ab_member("buffer");
	long o_rd = ff_rb_record_disabled();
	ulong buf = 0;
	int rd = 0;

	if (o_ab < 0 || o_buf < 0)
		return -1;
	if (!th_read_ulong(tr->addr + o_ab + o_buf, &buf,
			   "trace_array.array_buffer.buffer"))
		return -1;
	if (!buf) {
		if (!th_read_int(tr->addr + th_tr_off()->buffer_disabled, &rd,
				 "trace_array.buffer_disabled"))
			return -1;
		return !rd;
	}
	if (o_rd < 0 || !th_read_int(buf + o_rd, &rd,
				     "trace_buffer.record_disabled"))
		return -1;
	return !(rd & FF_RB_BUFFER_OFF);
}

/* ring_buffer_expanded: a global bool, or trace_array.ring_buffer_expanded
 * where the kernel keeps it per array. */
int ff_expanded(struct th_tr *tr)
{
	long o = th_tr_off()->ring_buffer_expanded;
	ulong sym = th_symbol("ring_buffer_expanded");
	unsigned char v = 1;

	if (o >= 0)
		th_read(tr->addr + o, &v, 1, "trace_array.ring_buffer_expanded");
	else if (sym)
		th_read(sym, &v, 1, "ring_buffer_expanded");
	return v != 0;
}

ulong ff_trace_buf_size(void)
{
	ulong v = 0;

	th_read_ulong(th_symbol("trace_buf_size"), &v, "trace_buf_size");
	return v;
}

int ff_cpu_entries(struct th_tr *tr, int cpu, ulong *entries)
{
	long o_ab = th_tr_off()->array_buffer, o_data = ff_ab_member("data");
	long o_ent = th_member("trace_array_cpu", "entries");
	ulong data = 0;

	*entries = 0;
	if (o_ab < 0 || o_data < 0 || o_ent < 0 || cpu < 0 || cpu >= NR_CPUS)
		return FALSE;
	if (!th_read_ulong(tr->addr + o_ab + o_data, &data,
			   "trace_array.array_buffer.data") || !data)
		return FALSE;
	return th_read_ulong(data + kt->__per_cpu_offset[cpu] + o_ent, entries,
			     "trace_array_cpu.entries");
}

/*
 * tracing_buffer_mask is a cpumask_var_t: a pointer with
 * CONFIG_CPUMASK_OFFSTACK, else the mask itself.
 */
static int ff_cpumask_var_is_ptr(const char *sym)
{
	struct gnu_request req;
	long msize = th_size("cpumask");
	ulong v = 0;
	int type;

	memset(&req, 0, sizeof(req));
	type = get_symbol_type((char *)sym, NULL, &req);
	if (type == TYPE_CODE_PTR)
		return TRUE;
	if (type == TYPE_CODE_ARRAY || type == TYPE_CODE_STRUCT)
		return FALSE;
	/* a typedef: by size, and when a mask is one word, by value */
	if (req.length && msize > 0 && (long)req.length != msize)
		return req.length == sizeof(ulong);
	return th_read_ulong(th_symbol(sym), &v, sym) && th_kptr(v);
}

static int ff_ncpus = -1;
static int ff_cpus[FF_MAX_CPUS];

int ff_tracing_cpus(int *cpus, int max)
{
	ulong mask = th_symbol("tracing_buffer_mask"), word;
	unsigned int nr = 0;
	int i, n = 0;

	if (ff_ncpus < 0) {
		if (mask && ff_cpumask_var_is_ptr("tracing_buffer_mask") &&
		    !th_read_ulong(mask, &mask, "tracing_buffer_mask"))
			mask = 0;
		if (!th_read_uint(th_symbol("nr_cpu_ids"), &nr, "nr_cpu_ids") ||
		    nr > NR_CPUS)
			nr = NR_CPUS;
		for (i = 0; mask && i < (int)nr; i++) {
			if (!th_read_ulong(mask + (i / 64) * 8, &word,
					   "tracing_buffer_mask"))
				break;
			if (word & (1UL << (i % 64)))
				ff_cpus[n++] = i;
		}
		if (!mask)	/* no mask: the CPUs crash knows */
			for (n = 0; n < kt->cpus && n < FF_MAX_CPUS; n++)
				ff_cpus[n] = n;
		ff_ncpus = n;
	}
	for (i = 0; i < ff_ncpus && i < max; i++)
		cpus[i] = ff_cpus[i];
	return i;
}

int ff_tracing_cpu(int cpu)
{
	int cpus[FF_MAX_CPUS], n = ff_tracing_cpus(cpus, FF_MAX_CPUS), i;

	for (i = 0; i < n; i++)
		if (cpus[i] == cpu)
			return TRUE;
	return FALSE;
}

long ff_array_info(const char *sym, long *stride)
{
	struct gnu_request req;
	long n;

	*stride = -1;
	if (!th_symbol(sym))
		return -1;
	memset(&req, 0, sizeof(req));
	if (get_symbol_type((char *)sym, NULL, &req) != TYPE_CODE_ARRAY)
		return -1;
	n = get_array_length((char *)sym, NULL, 0);
	if (n <= 0)
		return -1;
	*stride = req.length / n;
	return n;
}

/* trace_event_name(): CUSTOM events and plain ones have call->name,
 * TRACEPOINT ones call->tp->name (the same union). */
void ff_event_names(ulong call, char *sys, int slen, char *name, int nlen)
{
	long o_class = th_member("trace_event_call", "class");
	long o_name = th_member("trace_event_call", "name");
	long o_flags = th_member("trace_event_call", "flags");
	long o_sys = th_member("trace_event_class", "system");
	long fl_tp = th_enum("TRACE_EVENT_FL_TRACEPOINT", 0);
	long fl_custom = th_enum("TRACE_EVENT_FL_CUSTOM", 0);
	ulong cls = 0, p = 0;
	int flags = 0;

	sys[0] = name[0] = '\0';
	if (th_read_ulong(call + o_class, &cls, "trace_event_call.class") &&
	    th_read_ulong(cls + o_sys, &p, "trace_event_class.system"))
		th_read_cstr(p, sys, slen, "trace_event_class.system");
	th_read_int(call + o_flags, &flags, "trace_event_call.flags");
	if (!th_read_ulong(call + o_name, &p, "trace_event_call.name"))
		return;
	if (!(flags & fl_custom) && (flags & fl_tp) && p &&
	    !th_read_ulong(p + th_member("tracepoint", "name"), &p,
			   "tracepoint.name"))
		return;
	if (p)
		th_read_cstr(p, name, nlen, "trace_event_call.name");
}

ulong ff_ops_hash(ulong ops, int notrace)
{
	long o_fh = th_member("ftrace_ops", "func_hash");
	long o_h = th_member("ftrace_ops_hash", notrace ? "notrace_hash" :
			     "filter_hash");
	ulong fh = 0, h = 0;

	if (o_fh < 0 || o_h < 0 ||
	    !th_read_ulong(ops + o_fh, &fh, "ftrace_ops.func_hash") || !fh)
		return 0;
	th_read_ulong(fh + o_h, &h, "ftrace_ops_hash");
	return h;
}

static ulong *ff_grow(ulong *a, long n, long ncap)
{
	ulong *b = (ulong *)GETBUF(ncap * sizeof(ulong));

	if (n)
		memcpy(b, a, n * sizeof(ulong));
	if (a)
		FREEBUF(a);
	return b;
}

static void ff_hash_add(struct ff_hash *h, long *cap, ulong ip, ulong ent)
{
	if (h->n >= *cap) {
		long ncap = *cap ? *cap * 2 : 64;

		h->ip = ff_grow(h->ip, h->n, ncap);
		h->ent = ff_grow(h->ent, h->n, ncap);
		*cap = ncap;
	}
	h->ip[h->n] = ip;
	h->ent[h->n++] = ent;
}

/* A NULL hash reads as an empty one, like ftrace_hash_empty(). */
int ff_hash_read(ulong hash, struct ff_hash *h)
{
	long o_bits = th_member("ftrace_hash", "size_bits");
	long o_buckets = th_member("ftrace_hash", "buckets");
	long o_count = th_member("ftrace_hash", "count");
	long o_flags = th_member("ftrace_hash", "flags");
	long o_hl = th_member("ftrace_func_entry", "hlist");
	long o_ip = th_member("ftrace_func_entry", "ip");
	ulong buckets = 0, first, ip, i;
	struct th_walk w;
	long cap = 0, j;

	memset(h, 0, sizeof(*h));
	h->addr = hash;
	if (!hash)
		return TRUE;
	if (o_bits < 0 || o_buckets < 0 || o_count < 0 || o_hl < 0 ||
	    o_ip < 0)
		return FALSE;
	if (!th_read_ulong(hash + o_bits, &h->size_bits, "ftrace_hash") ||
	    !th_read_ulong(hash + o_buckets, &buckets, "ftrace_hash") ||
	    !th_read_ulong(hash + o_count, &h->count, "ftrace_hash"))
		return FALSE;
	if (o_flags >= 0)
		th_read_ulong(hash + o_flags, &h->flags, "ftrace_hash.flags");
	if (h->size_bits > 20)
		return FALSE;
	for (i = 0; buckets && i < (1UL << h->size_bits); i++) {
		if (!th_read_ulong(buckets + i * sizeof(ulong), &first,
				   "ftrace_hash.buckets"))
			return FALSE;
		if (!first)
			continue;
		th_hlist_walk(first, TH_MAX_HLIST, &w);
		for (j = 0; j < w.n; j++)
			if (th_read_ulong(w.ent[j] - o_hl + o_ip, &ip,
					  "ftrace_func_entry.ip"))
				ff_hash_add(h, &cap, ip, w.ent[j] - o_hl);
		if (w.err)
			th_warn("ftrace_hash %lx bucket %lu: %s at %lx", hash,
				i, w.err, w.bad);
		th_walk_free(&w);
	}
	return TRUE;
}

int ff_hash_empty(const struct ff_hash *h)
{
	return !h->addr || !(h->count || (h->flags & FF_HASH_FL_MOD));
}

void ff_hash_free(struct ff_hash *h)
{
	if (h->ip)
		FREEBUF(h->ip);
	if (h->ent)
		FREEBUF(h->ent);
	h->ip = h->ent = NULL;
	h->n = 0;
}

static int ff_cmp_ulong(const void *a, const void *b)
{
	ulong x = *(const ulong *)a, y = *(const ulong *)b;

	return x < y ? -1 : x > y;
}

long ff_records_in_hash(const struct ff_hash *h, ulong **ips)
{
	long o_next = th_member("ftrace_page", "next");
	long o_recs = th_member("ftrace_page", "records");
	long o_index = th_member("ftrace_page", "index");
	long o_ip = th_member("dyn_ftrace", "ip");
	long rsz = th_size("dyn_ftrace");
	ulong pg = 0, recs, *sorted, ip, next;
	long n = 0, cap = 0, pages = 0, i;
	char *buf;
	int idx;

	*ips = NULL;
	if (o_next < 0 || o_recs < 0 || o_index < 0 || o_ip < 0 || rsz <= 0 ||
	    !th_read_ulong(th_symbol("ftrace_pages_start"), &pg,
			   "ftrace_pages_start"))
		return -1;
	sorted = (ulong *)GETBUF((h->n + 1) * sizeof(ulong));
	if (h->n)
		memcpy(sorted, h->ip, h->n * sizeof(ulong));
	qsort(sorted, h->n, sizeof(ulong), ff_cmp_ulong);
	for (; pg && pages < 1000000; pg = next, pages++) {
		if (!th_read_ulong(pg + o_recs, &recs, "ftrace_page.records") ||
		    !th_read_int(pg + o_index, &idx, "ftrace_page.index") ||
		    !th_read_ulong(pg + o_next, &next, "ftrace_page.next"))
			break;
		if (idx <= 0 || idx > (1 << 20))
			continue;
		buf = GETBUF(idx * rsz);
		if (th_read(recs, buf, idx * rsz, "dyn_ftrace records")) {
			for (i = 0; i < idx; i++) {
				ip = *(ulong *)(buf + i * rsz + o_ip);
				if (!bsearch(&ip, sorted, h->n, sizeof(ulong),
					     ff_cmp_ulong))
					continue;
				if (n >= cap) {
					ulong *nb;

					cap = cap ? cap * 2 : 64;
					nb = (ulong *)GETBUF(cap * sizeof(ulong));
					if (n)
						memcpy(nb, *ips, n * sizeof(ulong));
					if (*ips)
						FREEBUF(*ips);
					*ips = nb;
				}
				(*ips)[n++] = ip;
			}
		}
		FREEBUF(buf);
	}
	FREEBUF(sorted);
	return n;
}

char *ff_print_rec(ulong ip, char *buf, size_t len)
{
	struct th_sym s;

	if (!th_ksym_lookup(ip, &s)) {
		snprintf(buf, len, "__ftrace_invalid_address___0");
		return buf;
	}
	if (s.module[0])
		snprintf(buf, len, "%s [%s]", s.name, s.module);
	else
		snprintf(buf, len, "%s", s.name);
	return buf;
}
