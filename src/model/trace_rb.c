/*
 * tracehunt: the ring buffers of a trace array, read in the order of the
 * kernel's non-consuming iterator (rb_iter_reset/rb_inc_iter): the reader
 * page from its read offset, then the head page onward up to the commit
 * page, each sub-buffer only up to its committed bytes.  One sub-buffer
 * per CPU is held in memory.
 */
#include "model/trace_rb.h"
#include "insn.h"

#define RB_PAGE_FLAGS	3UL	/* RB_PAGE_HEAD | RB_PAGE_UPDATE in list.next */
#define RB_PAGE_HEAD	1UL
/* the largest sub-buffer: buffer_page.write's 20-bit index (RB_WRITE_MASK)
 * counts its bytes; ring_buffer_subbuf_order_set() refuses larger ones */
#define TH_RB_SUBBUF_MAX	(1L << 20)

/*
 * struct array_buffer was struct trace_buffer, and struct trace_buffer was
 * struct ring_buffer, before v5.6: Linux kernel commit 1c5eb4481e01
 * ("tracing: Rename trace_buffer to array_buffer") (in v5.6) and Linux
 * kernel commit 13292494379f ("tracing: Make struct ring_buffer less
 * ambiguous") (in v5.6).  The members are the same.
 */
static struct th_ab_off {
	int init;
	long tr_ab, tr_max;		/* trace_array.array_buffer, max_buffer */
	long ab_buffer, ab_data, ab_time_start;
	const char *ab_struct, *tb_struct;
} ab_off;

static const struct th_ab_off *th_ab_off(void)
{
	static const char *const ab_names[] = { "array_buffer",
						"trace_buffer", NULL };
	/* the snapshot buffer: max_buffer, snapshot_buffer in 7.2 (the
	 * rename's commit is not identified here; 6.12 has max_buffer) */
	static const char *const max_names[] = { "max_buffer",
						 "snapshot_buffer", NULL };

	if (ab_off.init)
		return &ab_off;
	ab_off.init = 1;
	ab_off.tr_ab = th_member_any("trace_array", ab_names, NULL);
	ab_off.tr_max = th_member_any("trace_array", max_names, NULL);
	if (th_size("array_buffer") > 0) {
		ab_off.ab_struct = "array_buffer";
		ab_off.tb_struct = "trace_buffer";
	} else {
		ab_off.ab_struct = "trace_buffer";
		ab_off.tb_struct = "ring_buffer";
	}
	ab_off.ab_buffer = th_member(ab_off.ab_struct, "buffer");
	ab_off.ab_data = th_member(ab_off.ab_struct, "data");
	ab_off.ab_time_start = th_member(ab_off.ab_struct, "time_start");
	return &ab_off;
}

int th_array_buffer(ulong tr, int max, struct th_abuf *ab)
{
	const struct th_ab_off *o = th_ab_off();

	memset(ab, 0, sizeof(*ab));
	if (o->tr_ab < 0 || o->ab_buffer < 0 || (max && o->tr_max < 0))
		return FALSE;
	ab->addr = tr + (max ? o->tr_max : o->tr_ab);
	ab->ring_at = ab->addr + o->ab_buffer;
	ab->ring_ok = th_read_ulong(ab->ring_at, &ab->ring,
				    "array_buffer.buffer");
	ab->data_ok = o->ab_data >= 0 &&
		      th_read_ulong(ab->addr + o->ab_data, &ab->data,
				    "array_buffer.data");
	if (o->ab_time_start >= 0)
		th_read_u64(ab->addr + o->ab_time_start, &ab->time_start,
			    "array_buffer.time_start");
	/* allocate_trace_buffer() allocates both or neither, and a trace
	 * array's own buffer with the array (only the snapshot buffer may
	 * be left unallocated); ring_buffer_alloc() kzalloc()s it */
	if (ab->ring_ok && ab->data_ok && !ab->data != !ab->ring)
		th_damaged("array_buffer", ab->addr, "buffer %lx with data "
			   "%lx", ab->ring, ab->data);
	if (ab->ring_ok && !ab->ring && !max)
		th_damaged("array_buffer", ab->ring_at, "no ring buffer");
	if (ab->ring_ok && ab->ring)
		th_check_ptr("array_buffer", ab->addr, ab->ring,
			     TH_M(TH_R_DIRECT) | TH_M(TH_R_VMALLOC), "buffer");
	return TRUE;
}

/* The ring buffer's own structures, filled once. */
static struct th_rb_off {
	int init;
	long tb_buffers, tb_subbuf, tb_subbuf_order, tb_cpus;
	long pc_reader, pc_head, pc_commit, pc_nr_pages, pc_nr_pages_size;
	long pc_entries, pc_overrun, pc_read;
	long pc_tail, pc_entries_bytes, pc_commit_overrun, pc_dropped;
	long pc_read_bytes, pc_write_stamp;
	long bdp_time_stamp;
	long bp_list, bp_read, bp_page, bp_write;
	long bdp_commit, bdp_data;
	long tac_skipped;
	long tb_ts_abs;
	long tb_cpumask;	/* cpumask_var_t: a pointer when */
	int tb_cpumask_ptr;	/* CONFIG_CPUMASK_OFFSTACK, else the mask */
	int local_size;
} rbo;

static int th_rb_layout(char *err, size_t elen)
{
	static const char *const sub_names[] = { "subbuf_size", "bpage_size",
						 NULL };
	const struct th_ab_off *ab = th_ab_off();

	if (rbo.init)
		return rbo.init > 0;
	rbo.init = -1;
	rbo.tb_buffers = th_member(ab->tb_struct, "buffers");
	rbo.tb_cpus = th_member(ab->tb_struct, "cpus");
	/* sub-buffers larger than a page: Linux kernel commit 139f84002145
	 * ("ring-buffer: Page size per ring buffer") (in v6.8) added
	 * subbuf_size, Linux kernel commit 2808e31ec12e ("ring-buffer: Add
	 * interface for configuring trace sub buffer size") (in v6.8) its
	 * order, which buffer_subbuf_size_kb shows */
	rbo.tb_subbuf = th_member_any(ab->tb_struct, sub_names, NULL);
	rbo.tb_subbuf_order = th_member(ab->tb_struct, "subbuf_order");
	rbo.pc_reader = th_member("ring_buffer_per_cpu", "reader_page");
	rbo.pc_head = th_member("ring_buffer_per_cpu", "head_page");
	rbo.pc_commit = th_member("ring_buffer_per_cpu", "commit_page");
	rbo.pc_nr_pages = th_member("ring_buffer_per_cpu", "nr_pages");
	/* an unsigned int in 3.10's ring_buffer.c, unsigned long later:
	 * read at the size debuginfo gives */
	rbo.pc_nr_pages_size = th_member_size("ring_buffer_per_cpu",
					      "nr_pages");
	rbo.pc_entries = th_member("ring_buffer_per_cpu", "entries");
	rbo.pc_overrun = th_member("ring_buffer_per_cpu", "overrun");
	rbo.pc_read = th_member("ring_buffer_per_cpu", "read");
	/* the counters of per_cpu/cpuN/stats */
	rbo.pc_tail = th_member("ring_buffer_per_cpu", "tail_page");
	rbo.pc_entries_bytes = th_member("ring_buffer_per_cpu",
					 "entries_bytes");
	rbo.pc_commit_overrun = th_member("ring_buffer_per_cpu",
					  "commit_overrun");
	rbo.pc_dropped = th_member("ring_buffer_per_cpu", "dropped_events");
	rbo.pc_read_bytes = th_member("ring_buffer_per_cpu", "read_bytes");
	/* a u64, or an rb_time_t of one 64-bit word (v5.10) on 64-bit */
	rbo.pc_write_stamp = th_member("ring_buffer_per_cpu", "write_stamp");
	rbo.bdp_time_stamp = th_member("buffer_data_page", "time_stamp");
	rbo.bp_list = th_member("buffer_page", "list");
	rbo.bp_read = th_member("buffer_page", "read");
	rbo.bp_page = th_member("buffer_page", "page");
	rbo.bp_write = th_member("buffer_page", "write");
	rbo.bdp_commit = th_member("buffer_data_page", "commit");
	rbo.bdp_data = th_member("buffer_data_page", "data");
	rbo.tac_skipped = th_member("trace_array_cpu", "skipped_entries");
	rbo.tb_ts_abs = th_member(ab->tb_struct, "time_stamp_abs");
	rbo.tb_cpumask = th_member(ab->tb_struct, "cpumask");
	rbo.tb_cpumask_ptr = rbo.tb_cpumask >= 0 &&
		th_member_size(ab->tb_struct, "cpumask") == sizeof(ulong) &&
		th_size("cpumask") > (long)sizeof(ulong);
	rbo.local_size = sizeof(long);
	if (ab->tr_ab < 0 || ab->ab_buffer < 0 || rbo.tb_buffers < 0 ||
	    rbo.pc_reader < 0 || rbo.pc_head < 0 || rbo.pc_commit < 0 ||
	    rbo.bp_list < 0 || rbo.bp_page < 0 || rbo.bdp_commit < 0 ||
	    rbo.bdp_data < 0) {
		snprintf(err, elen, "the dump's debuginfo lacks the ring "
			 "buffer structures (%s, ring_buffer_per_cpu, "
			 "buffer_page)", ab->tb_struct);
		return FALSE;
	}
	rbo.init = 1;
	return TRUE;
}

/**
 * th_rb_time_stamp_abs - ring_buffer_time_stamp_abs() of TR's buffer
 * @tr: the struct trace_array
 * @abs: set to the ring buffer's time_stamp_abs
 *
 * Return: FALSE when the kernel has none or it cannot be read.
 */
int th_rb_time_stamp_abs(ulong tr, int *abs)
{
	struct th_abuf ab;
	unsigned char v;
	char err[8];

	if (!th_rb_layout(err, sizeof(err)) || rbo.tb_ts_abs < 0 ||
	    !th_array_buffer(tr, FALSE, &ab) || !ab.ring_ok || !ab.ring ||
	    !th_read(ab.ring + rbo.tb_ts_abs, &v, 1,
		     "trace_buffer.time_stamp_abs"))
		return FALSE;
	*abs = v != 0;
	return TRUE;
}

/**
 * th_rb_subbuf_kb - buffer_subbuf_size_read(): a sub-buffer's size in KB,
 * (PAGE_SIZE << trace_buffer.subbuf_order) / 1024, of TR's buffer
 * @tr: the struct trace_array
 * @kb: set to the size
 *
 * Return: TH_RB_SUBBUF_OK; TH_RB_SUBBUF_NONE when the kernel has no
 * subbuf_order (so no buffer_subbuf_size_kb file); TH_RB_SUBBUF_UNREAD
 * when the dump does not hold it (or it is not an order the kernel sets:
 * ring_buffer_subbuf_order_set() refuses a sub-buffer whose size the
 * 20-bit write counter cannot count).
 */
int th_rb_subbuf_kb(ulong tr, ulong *kb)
{
	struct th_abuf ab;
	int order;
	char err[8];

	*kb = 0;
	if (!th_rb_layout(err, sizeof(err)) || rbo.tb_subbuf_order < 0)
		return TH_RB_SUBBUF_NONE;
	if (!th_array_buffer(tr, FALSE, &ab) || !ab.ring_ok || !ab.ring ||
	    !th_read_int(ab.ring + rbo.tb_subbuf_order, &order,
			 "trace_buffer.subbuf_order"))
		return TH_RB_SUBBUF_UNREAD;
	if (order < 0 || order >= 31 ||
	    (PAGESIZE() << order) > TH_RB_SUBBUF_MAX) {
		th_damaged("trace_buffer", ab.ring, "subbuf_order %d", order);
		return TH_RB_SUBBUF_UNREAD;
	}
	*kb = (PAGESIZE() << order) / 1024;
	return TH_RB_SUBBUF_OK;
}

void th_rb_iter_offsets(long *pc_head, long *bp_read, long *bp_page)
{
	char err[8];

	th_rb_layout(err, sizeof(err));
	*pc_head = rbo.pc_head;
	*bp_read = rbo.bp_read;
	*bp_page = rbo.bp_page;
}

void th_rb_bdp_offsets(long *commit, long *data)
{
	char err[8];

	th_rb_layout(err, sizeof(err));
	*commit = rbo.bdp_commit;
	*data = rbo.bdp_data;
}

static ulong th_rd_ulong(ulong addr, long off, const char *what)
{
	ulong v = 0;

	if (off < 0 || !th_read_ulong(addr + off, &v, what))
		return 0;
	return v;
}

#define TH_RB_PAGE_MASK	(TH_M(TH_R_DIRECT) | TH_M(TH_R_VMALLOC))

/* A per-CPU buffer's page pointers are allocations and its counters agree
 * (get_total_entries_cpu() subtracts overrun, read and skipped from
 * entries): else the buffer is believed no further than it must be, and
 * its counts are printed with the warning. */
static void th_rb_cpu_plausible(struct th_rbcpu *c)
{
	const char *obj = "ring_buffer_per_cpu";

	/* rb_allocate_cpu_buffer() gives each a reader page and its pages */
	if (!c->cpu_unreadable && (!c->reader || !c->head || !c->commit))
		th_damaged(obj, c->cpu_buffer, "no reader, head or commit "
			   "page (%lx %lx %lx)", c->reader, c->head, c->commit);
	if ((c->reader && !th_check_ptr(obj, c->cpu_buffer, c->reader,
					TH_RB_PAGE_MASK, "reader_page")) ||
	    (c->head && !th_check_ptr(obj, c->cpu_buffer, c->head,
				      TH_RB_PAGE_MASK, "head_page")) ||
	    (c->commit && !th_check_ptr(obj, c->cpu_buffer, c->commit,
					TH_RB_PAGE_MASK, "commit_page"))) {
		c->reader = c->head = c->commit = 0;
		return;
	}
	if (!th_check_count(obj, c->cpu_buffer, c->nr_pages, 1UL << 24,
			    "nr_pages"))
		c->nr_pages = 1UL << 24;
	if (c->overrun + c->read < c->overrun ||
	    c->entries < c->overrun + c->read ||
	    c->entries - (c->overrun + c->read) < c->skipped)
		th_damaged(obj, c->cpu_buffer, "entries %lu below overrun "
			   "%lu + read %lu + skipped %lu", c->entries,
			   c->overrun, c->read, c->skipped);
	/* the smallest event is 8 bytes (RB_EVNT_MIN_SIZE): what is still
	 * in the buffer fits in its pages and the reader page */
	else if (c->pg.data_size &&
		 c->entries - (c->overrun + c->read) >
		 (c->nr_pages + 1) * (c->pg.data_size / 8))
		th_damaged(obj, c->cpu_buffer, "entries %lu - overrun %lu - "
			   "read %lu: more than %lu pages can hold",
			   c->entries, c->overrun, c->read, c->nr_pages + 1);
}

/*
 * A sub-buffer's data size: trace_buffer.subbuf_size where the kernel has
 * it (v6.8), else what ring_buffer_subbuf_order_set() makes of the order
 * (PAGE_SIZE << subbuf_order, less the buffer_data_page header): Debian's
 * 6.12.118 and 7.2.13 keep subbuf_order and max_data_size but no
 * subbuf_size (seen in their debuginfo); else a page less the header.
 */
static ulong th_rb_subbuf(ulong ring)
{
	unsigned int v = 0;
	int order;

	if (rbo.tb_subbuf >= 0 &&
	    th_read_uint(ring + rbo.tb_subbuf, &v, "trace_buffer.subbuf_size")
	    && v)
		return v;
	if (rbo.tb_subbuf < 0 && rbo.tb_subbuf_order >= 0 &&
	    th_read_int(ring + rbo.tb_subbuf_order, &order,
			"trace_buffer.subbuf_order")) {
		if (order >= 0 && order < 31 &&
		    (PAGESIZE() << order) <= TH_RB_SUBBUF_MAX)
			return (PAGESIZE() << order) - rbo.bdp_data;
		/* believed no further than a page */
		th_damaged("trace_buffer", ring, "subbuf_order %d", order);
	}
	return PAGESIZE() - rbo.bdp_data;
}

/**
 * th_rb_check - a ring buffer as ring_buffer_alloc() leaves it: its
 * per-CPU buffers array allocated, its cpus nr_cpu_ids (warnings only)
 * @ring: the struct trace_buffer (struct ring_buffer before v5.6)
 */
void th_rb_check(ulong ring)
{
	ulong buffers, ids = th_symbol("nr_cpu_ids");
	unsigned int cpus, n;
	char err[8];

	if (!ring || !th_rb_layout(err, sizeof(err)))
		return;
	if (th_read_ulong(ring + rbo.tb_buffers, &buffers,
			  "trace_buffer.buffers"))
		th_check_ptr("trace_buffer", ring, buffers,
			     TH_M(TH_R_DIRECT) | TH_M(TH_R_VMALLOC), "buffers");
	if (rbo.tb_cpus >= 0 && ids &&
	    th_read_uint(ring + rbo.tb_cpus, &cpus, "trace_buffer.cpus") &&
	    th_read_uint(ids, &n, "nr_cpu_ids") && cpus != n)
		th_damaged("trace_buffer", ring, "cpus %u, nr_cpu_ids %u",
			   cpus, n);
}

/* ring_buffer_per_cpu.nr_pages of PC; FALSE when unreadable */
static int th_rb_nr_pages(ulong pc, ulong *nr)
{
	unsigned int v32 = 0;
	int ok;

	*nr = 0;
	if (rbo.pc_nr_pages < 0)
		return FALSE;
	if (rbo.pc_nr_pages_size != sizeof(unsigned int))
		return th_read_ulong(pc + rbo.pc_nr_pages, nr, "nr_pages");
	ok = th_read_uint(pc + rbo.pc_nr_pages, &v32, "nr_pages");
	*nr = v32;
	return ok;
}

/**
 * th_rb_cpu_size - ring_buffer_size(): what one CPU's buffer holds
 * @ring: the struct trace_buffer (struct ring_buffer before v5.6)
 * @cpu: the CPU
 * @bytes: its nr_pages times a sub-buffer's data size
 *
 * Return: FALSE when the dump does not tell.
 */
int th_rb_cpu_size(ulong ring, int cpu, ulong *bytes)
{
	return th_rb_cpu_pages(ring, cpu, bytes, NULL);
}

/**
 * th_rb_cpu_pages - th_rb_cpu_size(), and the sub-buffer's data size
 * @ring: the struct trace_buffer (ring_buffer before v5.6)
 * @cpu: the CPU
 * @bytes: its nr_pages times a sub-buffer's data size
 * @subbuf: if not NULL, a sub-buffer's data size
 */
int th_rb_cpu_pages(ulong ring, int cpu, ulong *bytes, ulong *subbuf)
{
	ulong buffers, pc, nr;
	char err[8];

	*bytes = 0;
	if (!ring || cpu < 0 || cpu >= NR_CPUS ||
	    !th_rb_layout(err, sizeof(err)) || rbo.pc_nr_pages < 0)
		return FALSE;
	if (!th_read_ulong(ring + rbo.tb_buffers, &buffers,
			   "trace_buffer.buffers") || !buffers ||
	    !th_read_ulong(buffers + cpu * sizeof(ulong), &pc,
			   "trace_buffer.buffers[cpu]") || !pc ||
	    !th_rb_nr_pages(pc, &nr))
		return FALSE;
	*bytes = nr * th_rb_subbuf(ring);
	if (subbuf)
		*subbuf = th_rb_subbuf(ring);
	return TRUE;
}

/* One CPU's ring_buffer_per_cpu at PC: its pages and counters. */
static void th_rb_cpu_fill_state(struct th_rb *rb, struct th_rbcpu *c,
				 int cpu, ulong pc, ulong subbuf)
{
	ulong probe;

	c->cpu = cpu;
	c->cpu_buffer = pc;
	c->cpu_unreadable = rbo.pc_reader >= 0 &&
		!th_read_ulong(pc + rbo.pc_reader, &probe,
			       "ring_buffer_per_cpu");
	/* rb_allocate_cpu_buffer(): kzalloc'ed, kept by every dump filter */
	if (c->cpu_unreadable)
		th_damaged("trace_buffer", rb->trace_buffer, "buffers[%d] %lx "
			   "cannot be read", cpu, pc);
	c->reader = th_rd_ulong(pc, rbo.pc_reader, "reader_page");
	c->head = th_rd_ulong(pc, rbo.pc_head, "head_page");
	c->commit = th_rd_ulong(pc, rbo.pc_commit, "commit_page");
	th_rb_nr_pages(pc, &c->nr_pages);
	c->entries = th_rd_ulong(pc, rbo.pc_entries, "entries");
	c->overrun = th_rd_ulong(pc, rbo.pc_overrun, "overrun");
	c->read = th_rd_ulong(pc, rbo.pc_read, "read");
	c->buf = malloc(rbo.bdp_data + subbuf);
	c->bufsz = rbo.bdp_data + subbuf;
	c->pg.data_size = subbuf;
	c->memo_n = -1;
	c->keep_left = &rb->keep_left;
	if (rb->data && rbo.tac_skipped >= 0)
		c->skipped = th_rd_ulong(th_percpu_ptr(rb->data, cpu),
					 rbo.tac_skipped,
					 "trace_array_cpu.skipped");
}

/*
 * A CPU without a per-CPU buffer: the kernel sets a CPU's bit in
 * trace_buffer.cpumask only once it allocated that CPU's buffer
 * (ring_buffer_alloc(), trace_rb_cpu_prepare()): a NULL under a set bit
 * is damage, and would hide the CPU's events.
 */
static void th_rb_cpu_null_check(ulong ring, int cpu)
{
	ulong mask = ring + rbo.tb_cpumask, word;

	if (rbo.tb_cpumask < 0 || cpu < 0 || cpu >= NR_CPUS)
		return;
	if (rbo.tb_cpumask_ptr &&
	    (!th_read_ulong(mask, &mask, "trace_buffer.cpumask") ||
	     !th_kptr(mask)))
		return;
	if (!th_read_ulong(mask + (cpu / BITS_PER_LONG) * sizeof(ulong),
			   &word, "trace_buffer cpumask word"))
		return;
	if (word & (1UL << (cpu % BITS_PER_LONG)))
		th_damaged("trace_buffer", ring, "buffers[%d] is NULL, but "
			   "CPU %d is in its cpumask", cpu, cpu);
}

int th_rb_open(ulong tr, int max, struct th_rb *rb, char *err, size_t elen)
{
	struct th_abuf ab;
	ulong buffers, subbuf;
	int cpus[NR_CPUS], n, i;
	int nbuf = 0;
	ulong unread = 0;

	memset(rb, 0, sizeof(*rb));
	rb->keep_left = TH_RB_KEEP_MAX;
	if (!th_rb_layout(err, elen))
		return FALSE;
	if (!th_array_buffer(tr, max, &ab)) {
		snprintf(err, elen, "this kernel has no max/snapshot buffer");
		return FALSE;
	}
	rb->array_buffer = ab.addr;
	rb->trace_buffer = ab.ring;
	if (!ab.ring_ok) {
		/* not the same as NULL (never allocated): e.g. the page is
		 * missing from a filtered dump */
		snprintf(err, elen, "cannot read the %s buffer pointer "
			 "(array_buffer.buffer at %lx)", max ? "snapshot" :
			 "ring", ab.ring_at);
		return FALSE;
	}
	rb->data = ab.data;
	rb->time_start = ab.time_start;
	if (!rb->trace_buffer) {
		snprintf(err, elen, "%s buffer not allocated",
			 max ? "snapshot" : "ring");
		return FALSE;
	}
	buffers = th_rd_ulong(rb->trace_buffer, rbo.tb_buffers,
			      "trace_buffer.buffers");
	if (!buffers) {
		snprintf(err, elen, "cannot read the per-CPU buffers of "
			 "trace_buffer %lx", rb->trace_buffer);
		th_damaged("trace_buffer", rb->trace_buffer, "no per-CPU "
			   "buffers array");
		return FALSE;
	}
	subbuf = th_rb_subbuf(rb->trace_buffer);
	if (subbuf > 64UL << 20) {
		snprintf(err, elen, "implausible sub-buffer size %lu", subbuf);
		return FALSE;
	}
	n = th_possible_cpus(cpus, NR_CPUS);
	rb->cpus = calloc(n ? n : 1, sizeof(*rb->cpus));
	for (i = 0; i < n; i++) {
		struct th_rbcpu *c = &rb->cpus[rb->ncpus];
		ulong pc = 0;

		if (!th_read_ulong(buffers + cpus[i] * sizeof(ulong), &pc,
				   "trace_buffer.buffers[cpu]")) {
			if (!unread)
				unread = buffers + cpus[i] * sizeof(ulong);
			continue;
		}
		if (!pc) {
			th_rb_cpu_null_check(rb->trace_buffer, cpus[i]);
			continue;
		}
		th_rb_cpu_fill_state(rb, c, cpus[i], pc, subbuf);
		c->done = TRUE;
		th_rb_cpu_plausible(c);
		rb->ncpus++;
		nbuf++;
	}
	if (!nbuf && unread) {
		th_damaged("trace_buffer", rb->trace_buffer, "buffers[] at "
			   "%lx cannot be read", unread);
		snprintf(err, elen, "cannot read the per-CPU ring buffer "
			 "pointers (trace_buffer.buffers[] at %lx: not in the "
			 "dump)", unread);
		free(rb->cpus);
		rb->cpus = NULL;
		return FALSE;
	}
	if (!nbuf) {
		/* ring_buffer_alloc() allocates every possible CPU's */
		th_damaged("trace_buffer", rb->trace_buffer, "no CPU has a "
			   "ring_buffer_per_cpu");
		snprintf(err, elen, "no per-CPU ring buffers");
		free(rb->cpus);
		rb->cpus = NULL;
		return FALSE;
	}
	return TRUE;
}

void th_rb_close(struct th_rb *rb)
{
	int i, k;

	th_rb_copies(rb, 0, NULL);
	for (i = 0; i < rb->ncpus; i++) {
		struct th_rbcpu *c = &rb->cpus[i];

		free(c->buf);
		th_pagecopy_free(&c->bp_copy);
		for (k = 0; k < c->nkeep; k++)
			free(c->keep[k].bytes);
		free(c->keep);
	}
	free(rb->cpus);
	rb->cpus = NULL;
	rb->ncpus = 0;
	th_rb_merge_free(rb);
}

/* rb_set_head_page(): the page whose predecessor's next pointer carries
 * RB_PAGE_HEAD; the cached head_page when no flag is found. */
static ulong th_rb_find_head(struct th_rbcpu *c)
{
	ulong p = c->head, start, next = 0;
	long i, max = c->nr_pages + 2;

	/* start one page back: the flag sits in the predecessor */
	if (!p || !th_read_ulong(p + rbo.bp_list + sizeof(ulong), &start,
				 "buffer_page.list.prev")) {
		c->head_cached = p != 0;
		return c->head;
	}
	p = (start & ~RB_PAGE_FLAGS) - rbo.bp_list;
	for (i = 0; i < max && i < TH_MAX_LIST; i++) {
		if (!th_read_ulong(p + rbo.bp_list, &next,
				   "buffer_page.list.next"))
			break;
		if ((next & RB_PAGE_FLAGS) == RB_PAGE_HEAD)
			return (next & ~RB_PAGE_FLAGS) - rbo.bp_list;
		p = (next & ~RB_PAGE_FLAGS) - rbo.bp_list;
	}
	c->head_cached = TRUE;
	return c->head;
}

/* The dpage of BPAGE, checked; 0 when it cannot be believed. */
static ulong th_rb_dpage(struct th_rbcpu *c, ulong bpage)
{
	ulong dpage = 0;

	/* the buffer_pages' page (kzalloc_node() in order: many to a page)
	 * is read once, not once per sub-buffer read in between */
	if (!th_read_via(&c->bp_copy, bpage + rbo.bp_page, &dpage,
			 sizeof(dpage), "buffer_page.page"))
		dpage = 0;
	c->dpage = dpage;
	if (!dpage)
		th_damaged("buffer_page", bpage, "no data page");
	else if (!th_check_ptr("buffer_page", bpage, dpage, TH_RB_PAGE_MASK,
			       "page"))
		dpage = 0;
	/* alloc_pages_node(): the data page starts a page */
	else if (dpage & (PAGESIZE() - 1)) {
		th_damaged("buffer_page", bpage, "data page %lx is not page "
			   "aligned", dpage);
		dpage = 0;
	}
	return dpage;
}

/* Load bpage's sub-buffer; skip records before SKIP bytes. */
static int th_rb_load(struct th_rbcpu *c, ulong bpage, unsigned skip)
{
	size_t sz = rbo.bdp_data + c->pg.data_size;
	size_t data_size = c->pg.data_size;
	const unsigned char *src;
	struct rb_event ev;

	c->bpage = bpage;
	src = c->nkeep ? th_rb_kept(c, bpage) : NULL;
	if (!src) {
		ulong dpage = th_rb_dpage(c, bpage);
		unsigned char *dst = th_rb_keep_slot(c, sz);

		if (dst == c->buf)
			dst = th_rb_next_copy(c);

		if (!dpage || !th_read(dpage, dst, sz, "buffer_data_page")) {
			if (dst != c->buf)
				free(dst);
			c->bad++;
			memset(&c->pg, 0, sizeof(c->pg));
			c->pg.data_size = data_size;
			rb_iter_init(&c->it, &c->pg);
			return FALSE;
		}
		if (dst != c->buf) {
			c->keep[c->nkeep].bpage = bpage;
			c->keep[c->nkeep].dpage = dpage;
			c->keep[c->nkeep++].bytes = dst;
			*c->keep_left -= sz;
		}
		src = dst;
	}
	if (rb_page_parse(&c->pg, src, sz, rbo.local_size, rbo.bdp_data,
			  data_size, 0) != 0)
		c->bad++;
	c->pg.data_size = data_size;
	if (c->ncopy > 1)
		c->copy_pg[c->cur] = c->pg;
	rb_iter_init(&c->it, &c->pg);
	while (skip && c->it.off < skip && rb_iter_next(&c->it, &ev))
		;
	return TRUE;
}

/* Bytes reserved on the commit page but never committed (RB_WRITE_MASK
 * keeps the index; the high bits count interrupted writers). */
static void th_rb_uncommitted(struct th_rbcpu *c)
{
	ulong write = 0;

	c->uncommitted = 0;
	if (rbo.bp_write < 0 || !c->commit ||
	    !th_read_ulong(c->commit + rbo.bp_write, &write,
			   "buffer_page.write"))
		return;
	write &= 0xfffff;
	if (c->bpage != c->commit || write <= c->pg.commit ||
	    write > c->pg.data_size)
		return;
	/* a page with neither time stamp nor commit was never written:
	 * blame no writer for what a zeroed page lost */
	if (!c->pg.commit && !c->pg.time_stamp) {
		th_damaged("buffer_data_page", c->dpage, "empty, but "
			   "buffer_page %lx says %lu bytes were written",
			   c->bpage, write);
		return;
	}
	c->uncommitted = write - c->pg.commit;
}

void th_rb_cpu_start(struct th_rbcpu *c)
{
	unsigned int read = 0;

	th_rb_gen++;
	c->done = FALSE;
	c->have = FALSE;
	c->bad = 0;
	c->uncommitted = 0;
	c->late = FALSE;
	c->head_cached = FALSE;
	c->pages_left = c->nr_pages + 2;
	if (!c->reader) {
		c->done = TRUE;
		return;
	}
	if (rbo.bp_read >= 0)
		th_read_uint(c->reader + rbo.bp_read, &read,
			     "buffer_page.read");
	c->on_reader = TRUE;
	th_rb_load(c, c->reader, read);
}

/* rb_inc_iter(): after the reader page comes the head page. */
static int th_rb_next_page(struct th_rbcpu *c)
{
	ulong next;

	if (c->bpage == c->commit)
		return FALSE;
	if (--c->pages_left < 0) {
		th_damaged("ring_buffer_per_cpu", c->cpu_buffer, "the page "
			   "list runs past nr_pages %lu without reaching the "
			   "commit page", c->nr_pages);
		return FALSE;
	}
	if (c->on_reader) {
		c->on_reader = FALSE;
		next = th_rb_find_head(c);
		if (!next || next == c->reader)
			return FALSE;
	} else {
		if (!th_read_via(&c->bp_copy, c->bpage + rbo.bp_list, &next,
				 sizeof(next), "buffer_page.list.next"))
			return FALSE;
		next = (next & ~RB_PAGE_FLAGS) - rbo.bp_list;
		if (next == c->reader)
			return FALSE;
	}
	if (!th_check_ptr("buffer_page", c->bpage, next, TH_RB_PAGE_MASK,
			  "list.next"))
		return FALSE;
	th_rb_load(c, next, 0);
	return TRUE;
}

/* Start C at page P, found for N by th_rb_cpu_start_last() (0: from the
 * reader page), LATE as it found it. */
static void th_rb_cpu_start_at(struct th_rbcpu *c, long n, ulong p, int late)
{
	c->memo_n = n;
	c->memo_p = p;
	c->memo_late = late;
	if (!p) {
		th_rb_cpu_start(c);
		return;
	}
	th_rb_gen++;
	c->late = late;
	c->done = FALSE;
	c->have = FALSE;
	c->bad = 0;
	c->uncommitted = 0;
	c->on_reader = FALSE;
	c->pages_left = c->nr_pages + 2;
	th_rb_load(c, p, 0);
}

void th_rb_cpu_start_last(struct th_rbcpu *c, long n)
{
	struct rb_event ev;
	ulong p, head, prev = 0;
	long count = 0, i, max = c->nr_pages + 2;
	int late;

	if (n >= 0 && n == c->memo_n) {
		/* the same start again: no sub-buffer read twice */
		c->keep_hint = c->nkeep - 1;
		th_rb_cpu_start_at(c, n, c->memo_p, c->memo_late);
		return;
	}
	c->keeping = TRUE;
	if (!c->reader || !c->commit || c->commit == c->reader) {
		th_rb_cpu_start_at(c, n, 0, FALSE);
		return;
	}
	head = th_rb_find_head(c);
	p = c->commit;
	for (i = 0; i < max && i < TH_MAX_LIST; i++) {
		th_rb_load(c, p, 0);
		while (rb_iter_next(&c->it, &ev))
			if (ev.kind == RB_EV_DATA)
				count++;
		if (count >= n)
			break;
		if (p == head ||
		    !th_read_ulong(p + rbo.bp_list + sizeof(ulong), &prev,
				   "buffer_page.list.prev")) {
			/* everything back to the head: the reader page too */
			th_rb_cpu_start_at(c, n, 0, FALSE);
			return;
		}
		p = (prev & ~RB_PAGE_FLAGS) - rbo.bp_list;
		if (p == c->reader) {
			th_rb_cpu_start_at(c, n, 0, FALSE);
			return;
		}
	}
	/* Whether a whole read meets an entry before page P: "cat trace"
	 * has then printed this CPU already (test_cpu_buff_start()). */
	th_rb_cpu_start(c);
	late = th_rb_cpu_peek(c) && c->bpage != p;
	th_rb_cpu_start_at(c, n, p, late);
}

int th_rb_cpu_fill(struct th_rbcpu *c)
{
	if (c->have)
		return TRUE;
	while (!c->done) {
		if (!rb_iter_next(&c->it, &c->ev)) {
			if (c->bpage == c->commit)
				th_rb_uncommitted(c);
			if (!th_rb_next_page(c))
				c->done = TRUE;
			continue;
		}
		if (c->ev.kind == RB_EV_BAD)
			c->bad++;
		if (c->ev.kind != RB_EV_DATA)
			continue;
		c->have = TRUE;
		return TRUE;
	}
	return FALSE;
}

/*
 * "ftrace trace -R": every sub-buffer of one CPU read as "ftrace cat trace"
 * reads them (the same page walk and th_rb_load()), without decoding their
 * records: the floor of the decoding path, for "make bench".
 */
void th_rb_cpu_read_all(struct th_rbcpu *c, ulong *subbufs, ulong *bytes)
{
	*subbufs = *bytes = 0;
	th_rb_cpu_start(c);
	while (!c->done) {
		(*subbufs)++;
		*bytes += c->pg.commit;
		if (!th_rb_next_page(c))
			c->done = TRUE;
	}
}

static const char *const th_rb_kind[] = {
	"data", "padding", "discard", "time_extend", "time_stamp", "BAD",
};

/* Every record of one CPU, raw: page, offset, type_len, delta, bytes. */
void th_rb_cpu_raw(struct th_rbcpu *c, long max)
{
	struct rb_event ev;
	ulong last = 0;
	long n = 0;
	uint32_t i;

	th_rb_cpu_start(c);
	while (!c->done && (max < 0 || n < max)) {
		if (c->bpage != last) {
			fprintf(fp, "CPU %d buffer_page %lx data %lx%s ts %llu "
				"commit %u%s%s\n", c->cpu, c->bpage, c->dpage,
				c->on_reader ? " (reader)" : "",
				(unsigned long long)c->pg.time_stamp,
				c->pg.commit,
				c->pg.flags & RB_MISSED_EVENTS ?
				" MISSED_EVENTS" : "",
				c->pg.flags & RB_MISSED_STORED ?
				" MISSED_STORED" : "");
			last = c->bpage;
		}
		if (!rb_iter_next(&c->it, &ev)) {
			if (!th_rb_next_page(c))
				c->done = TRUE;
			continue;
		}
		fprintf(fp, "  +%04lx type_len %2u delta %8u ts %llu %s "
			"len %u:", (ulong)ev.offset, ev.type_len, ev.delta,
			(unsigned long long)ev.ts, th_rb_kind[ev.kind], ev.len);
		for (i = 0; ev.payload && i < ev.len && i < 64; i++)
			fprintf(fp, " %02x", ev.payload[i]);
		fprintf(fp, "%s\n", ev.payload && ev.len > 64 ? " ..." : "");
		n++;
	}
	c->done = TRUE;
}

/**
 * th_rb_cpu_stats - the counters tracing_stats_read() prints for one CPU
 * of an array's ring buffer
 * @tr: the struct trace_array
 * @cpu: the CPU
 * @st: filled (zeros for a CPU without a per-CPU buffer, as the kernel's
 *      ring_buffer_*_cpu() give)
 * @err: why not
 * @elen: room in @err
 *
 * Return: FALSE (and @err) when the buffer or its counters cannot be read.
 */
int th_rb_cpu_stats(ulong tr, int cpu, struct th_rb_stats *st, char *err,
		    size_t elen)
{
	struct th_rbcpu *c = NULL;
	struct th_rb rb;
	ulong pc, bpage, dpage, tail;
	int i, ok = TRUE;

	memset(st, 0, sizeof(*st));
	if (!th_rb_open(tr, FALSE, &rb, err, elen))
		return FALSE;
	for (i = 0; i < rb.ncpus; i++)
		if (rb.cpus[i].cpu == cpu)
			c = &rb.cpus[i];
	if (c && (c->cpu_unreadable || rbo.pc_entries_bytes < 0 ||
		  rbo.pc_commit_overrun < 0 || rbo.pc_dropped < 0 ||
		  rbo.pc_read_bytes < 0 || rbo.pc_tail < 0 ||
		  rbo.bdp_time_stamp < 0)) {
		snprintf(err, elen, "the per-CPU buffer's counters cannot be "
			 "read (ring_buffer_per_cpu at %lx)", c->cpu_buffer);
		ok = FALSE;
	} else if (c) {
		pc = c->cpu_buffer;
		/* rb_num_of_entries() */
		st->entries = c->entries - (c->overrun + c->read);
		st->overrun = c->overrun;
		st->commit_overrun = th_rd_ulong(pc, rbo.pc_commit_overrun,
						 "commit_overrun");
		st->bytes = th_rd_ulong(pc, rbo.pc_entries_bytes,
					"entries_bytes") -
			th_rd_ulong(pc, rbo.pc_read_bytes, "read_bytes");
		st->dropped = th_rd_ulong(pc, rbo.pc_dropped,
					  "dropped_events");
		st->read = c->read;
		/* ring_buffer_oldest_event_ts(): the reader page's when the
		 * tail is on it, else the head page's */
		tail = th_rd_ulong(pc, rbo.pc_tail, "tail_page");
		bpage = tail == c->reader ? c->reader : th_rb_find_head(c);
		dpage = bpage ? th_rd_ulong(bpage, rbo.bp_page,
					    "buffer_page.page") : 0;
		if (dpage && !th_read_u64(dpage + rbo.bdp_time_stamp,
					  &st->oldest_ts,
					  "buffer_data_page.time_stamp"))
			st->oldest_ts = 0;
		st->have_last = rbo.pc_write_stamp >= 0 &&
			th_read_u64(pc + rbo.pc_write_stamp, &st->last_ts,
				    "ring_buffer_per_cpu.write_stamp");
	}
	th_rb_close(&rb);
	return ok;
}
