/*
 * tracehunt: reads shared by the ring-buffer state files -- whether an
 * array records, its buffer sizes (trace_array_cpu.entries), the tracing
 * CPUs; the array_buffer itself is model/trace_rb.c's (th_array_buffer).
 */
#include "model/model.h"
#include "model/ftrace_files.h"
#include "model/tracearray.h"
#include "model/trace_rb.h"
#include "model/trace_globals.h"

/* RB_BUFFER_OFF of ring_buffer.c: the bit tracing_off() sets */
#define FF_RB_BUFFER_OFF	(1 << 20)

/* The ring buffer was "struct ring_buffer" before v5.6: Linux kernel
 * commit 13292494379f ("tracing: Make struct ring_buffer less ambiguous") */
static long ff_rb_record_disabled(void)
{
	long o = th_member("trace_buffer", "record_disabled");

	return o >= 0 ? o : th_member("ring_buffer", "record_disabled");
}

/*
 * tracer_tracing_off() and _on() set RB_BUFFER_OFF and tr->buffer_disabled
 * together, and every path of the kernels that have them goes through
 * them; before, rb_simple_write() and others called ring_buffer_record_off()
 * alone, so the two are compared only where tracer_tracing_off() exists.
 */
static void ff_is_on_check(struct th_tr *tr, ulong buf, int rd)
{
	long o = th_tr_off()->buffer_disabled;
	int bd;

	if (o < 0 || !th_symbol("tracer_tracing_off") ||
	    !th_read_int(tr->addr + o, &bd, "trace_array.buffer_disabled"))
		return;
	if (!(rd & FF_RB_BUFFER_OFF) != !bd)
		th_damaged("trace_buffer", buf, "record_disabled %#x %s "
			   "RB_BUFFER_OFF, but its trace_array %lx has "
			   "buffer_disabled %d: tracer_tracing_off() sets both",
			   (unsigned int)rd, rd & FF_RB_BUFFER_OFF ? "has" :
			   "lacks", tr->addr, bd);
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
	long o_rd = ff_rb_record_disabled();
	struct th_abuf ab;
	ulong buf;
	int rd = 0;

	if (!th_array_buffer(tr->addr, FALSE, &ab) || !ab.ring_ok)
		return -1;
	buf = ab.ring;
	if (!buf) {
		if (!th_read_int(tr->addr + th_tr_off()->buffer_disabled, &rd,
				 "trace_array.buffer_disabled"))
			return -1;
		return !rd;
	}
	th_rb_check(buf);
	if (o_rd < 0 || !th_read_int(buf + o_rd, &rd,
				     "trace_buffer.record_disabled"))
		return -1;
	/* RB_BUFFER_OFF and a nesting count of ring_buffer_record_disable()
	 * calls, each undone by its enable: never hundreds deep */
	if ((unsigned int)rd & ~(FF_RB_BUFFER_OFF | 0xffU))
		th_damaged("trace_buffer", buf, "record_disabled %#x: more "
			   "than RB_BUFFER_OFF and a nesting count",
			   (unsigned int)rd);
	ff_is_on_check(tr, buf, rd);
	return !(rd & FF_RB_BUFFER_OFF);
}

/* RB_FL_OVERWRITE of ring_buffer.h: trace_buffer.flags */
#define FF_RB_FL_OVERWRITE	(1 << 0)

/**
 * ff_rb_overwrite - whether TR's ring buffer overwrites its oldest events
 * (RB_FL_OVERWRITE in trace_buffer.flags), -1 when unknown
 * @tr: the struct trace_array
 */
int ff_rb_overwrite(ulong tr)
{
	static long o = -2;
	struct th_abuf ab;
	unsigned int flags;

	if (o == -2) {
		o = th_member("trace_buffer", "flags");
		if (o < 0)
			o = th_member("ring_buffer", "flags");
	}
	if (o < 0 || !th_array_buffer(tr, FALSE, &ab) || !ab.ring_ok ||
	    !ab.ring || !th_read_uint(ab.ring + o, &flags,
				      "trace_buffer.flags"))
		return -1;
	return (flags & FF_RB_FL_OVERWRITE) != 0;
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
	/* until expanded, every CPU has the 2 pages of a 1-byte request
	 * (rb_allocate_cpu_buffer()'s minimum); any resize expands */
	if (!v) {
		struct th_abuf ab;
		ulong size;
		int cpus[NR_CPUS];

		if (th_possible_cpus(cpus, NR_CPUS) > 0 &&
		    th_array_buffer(tr->addr, FALSE, &ab) && ab.ring_ok &&
		    th_rb_cpu_size(ab.ring, cpus[0], &size) &&
		    size > 2 * PAGESIZE())
			th_damaged("trace_array", tr->addr, "ring buffer not "
				   "expanded, but CPU %d holds %lu bytes",
				   cpus[0], size);
	}
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
	long o_ent = th_member("trace_array_cpu", "entries");
	struct th_abuf ab;
	ulong size, sub = 0;

	*entries = 0;
	if (o_ent < 0 || cpu < 0 || cpu >= NR_CPUS ||
	    !th_array_buffer(tr->addr, FALSE, &ab) || !ab.data_ok || !ab.data)
		return FALSE;
	if (!th_read_ulong(ab.data + kt->__per_cpu_offset[cpu] + o_ent,
			   entries, "trace_array_cpu.entries")) {
		/* per-CPU memory is in every dump */
		th_damaged("array_buffer", ab.addr, "data %lx: CPU %d's "
			   "trace_array_cpu cannot be read", ab.data, cpu);
		return FALSE;
	}
	/* update_buffer_entries() copies ring_buffer_size() into it; 3.10's
	 * __tracing_resize_ring_buffer() the size asked for, which the ring
	 * buffer rounded up to whole sub-buffers (two at least) */
	if (th_rb_cpu_pages(ab.ring, cpu, &size, &sub) && size != *entries &&
	    !(sub && *entries < size &&
	      ((*entries + sub - 1) / sub == size / sub ||
	       (size == 2 * sub && *entries <= sub))))
		th_damaged("trace_array_cpu", ab.data +
			   kt->__per_cpu_offset[cpu], "entries %lu, but CPU "
			   "%d's ring buffer holds %lu bytes", *entries, cpu,
			   size);
	return TRUE;
}

/*
 * tracing_buffer_mask is a cpumask_var_t: a pointer with
 * CONFIG_CPUMASK_OFFSTACK, else the mask itself.
 */
static int ff_cpumask_var_is_ptr(const char *sym)
{
	long msize = th_size("cpumask"), length;
	ulong v = 0;
	int type = th_var_type(sym, &length);

	if (type == TH_VT_PTR)
		return TRUE;
	if (type == TH_VT_ARRAY || type == TH_VT_STRUCT)
		return FALSE;
	/* a typedef: by size, and when a mask is one word, by value */
	if (length && msize > 0 && length != msize)
		return length == (long)sizeof(ulong);
	return th_read_ulong(th_symbol(sym), &v, sym) && th_kptr(v);
}

static int ff_ncpus = -1;
static int ff_cpus[FF_MAX_CPUS];

/* tracer_alloc_buffers() copies cpu_possible_mask, and nothing changes
 * it after: at least one CPU, only possible ones, and every one of them. */
static void ff_tracing_cpus_check(ulong mask)
{
	const char *tag = th_damage_tag("tracing_cpus");
	int possible[NR_CPUS], np = th_possible_cpus(possible, NR_CPUS);
	int i, k;

	if (mask && !ff_ncpus)
		th_damaged("tracing_buffer_mask", mask, "no CPU");
	for (i = 0; i < ff_ncpus && np > 0; i++) {
		for (k = 0; k < np && possible[k] != ff_cpus[i]; k++)
			;
		if (k == np) {
			th_damaged("tracing_buffer_mask", mask, "CPU %d is "
				   "not a possible CPU", ff_cpus[i]);
			break;
		}
	}
	for (k = 0; mask && ff_ncpus && k < np; k++) {
		for (i = 0; i < ff_ncpus && ff_cpus[i] != possible[k]; i++)
			;
		if (i == ff_ncpus) {
			th_damaged("tracing_buffer_mask", mask, "possible CPU "
				   "%d is not in it (a copy of "
				   "cpu_possible_mask)", possible[k]);
			break;
		}
	}
	th_damage_tag(tag);
}

int ff_tracing_cpus(int *cpus, int max)
{
	ulong mask = th_symbol("tracing_buffer_mask"), word;
	unsigned int nr = 0;
	int i, n = 0;

	if (ff_ncpus < 0) {
		if (mask && ff_cpumask_var_is_ptr("tracing_buffer_mask") &&
		    !th_read_ulong(mask, &mask, "tracing_buffer_mask"))
			mask = 0;
		if (!(nr = th_nr_cpu_ids()) || nr > NR_CPUS)
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
		ff_tracing_cpus_check(mask);
	} else {
		th_damage_replay("tracing_cpus");
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
	long n, length;

	*stride = -1;
	if (!th_symbol(sym) || th_var_type(sym, &length) != TH_VT_ARRAY)
		return -1;
	n = th_array_len(sym);
	if (n <= 0)
		return -1;
	*stride = length / n;
	return n;
}
