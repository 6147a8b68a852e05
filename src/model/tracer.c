/*
 * tracehunt: tracers (struct tracer on trace_types), their options
 * (struct tracer_flags, tracer_opt), the per-array struct tracers list,
 * and the core trace options (trace_options[], TRACE_ITER_*) and trace
 * clocks (trace_clocks[]).  Each struct's members are looked up here, in
 * one offset struct filled on first use.
 */
#include "model/model.h"
#include "model/ftrace_files.h"
#include "model/tracearray.h"
#include "model/trace_opts.h"
#include "model/vmlinux_file.h"

static struct th_tracer_off {
	int read;
	long next, name, flags, allow_instances, init, use_max_tr, print_max;
	long tflags_val, tflags_opts;		/* struct tracer_flags */
	long opt_name, opt_bit, opt_size;	/* struct tracer_opt */
} th_tracer_offsets;

/* struct tracers: per-instance tracer options (7.2), looked up only where
 * trace_array has its "tracers" list: gdb answers a type the debuginfo
 * lacks with a search of every compile unit (0.5 s on 6.1 for these four,
 * on every first command that prints a trace). */
static struct th_tracers_off {
	int read;
	long list, flags, tracer, size;
} th_tracers_offsets;

static const struct th_tracers_off *th_tracers_off(void)
{
	struct th_tracers_off *o = &th_tracers_offsets;

	if (o->read)
		return o;
	o->read = TRUE;
	o->list = th_member("tracers", "list");
	o->flags = th_member("tracers", "flags");
	o->tracer = th_member("tracers", "tracer");
	o->size = th_size("tracers");
	return o;
}

static const struct th_tracer_off *th_tracer_off(void)
{
	struct th_tracer_off *o = &th_tracer_offsets;

	if (o->read)
		return o;
	o->read = TRUE;
	o->next = th_member("tracer", "next");
	o->name = th_member("tracer", "name");
	o->flags = th_member("tracer", "flags");
	o->allow_instances = th_member("tracer", "allow_instances");
	o->init = th_member("tracer", "init");
	/* CONFIG_TRACER_MAX_TRACE only */
	o->use_max_tr = th_member("tracer", "use_max_tr");
	o->print_max = th_member("tracer", "print_max");
	o->tflags_val = th_member("tracer_flags", "val");
	o->tflags_opts = th_member("tracer_flags", "opts");
	o->opt_name = th_member("tracer_opt", "name");
	o->opt_bit = th_member("tracer_opt", "bit");
	o->opt_size = th_size("tracer_opt");
	return o;
}

/**
 * th_tracer_uses_max_tr - tracer.use_max_tr (a latency tracer that keeps
 * its maximum in the snapshot buffer)
 * @t: the struct tracer
 *
 * Return: 1, 0, or -1 when it cannot be read.
 */
int th_tracer_uses_max_tr(ulong t)
{
	long o = th_tracer_off()->use_max_tr;
	unsigned char v = 0;

	if (o < 0)
		return 0;
	if (!t || !th_read(t + o, &v, 1, "tracer.use_max_tr"))
		return -1;
	return v != 0;
}

/**
 * th_tracer_prints_max - tracer.print_max: the trace files of an array
 * whose current tracer has it show the max (snapshot) buffer
 * (__tracing_open())
 * @t: the struct tracer
 *
 * Return: 1, 0 (or no such member: CONFIG_TRACER_MAX_TRACE off), or -1
 * when it cannot be read.
 */
int th_tracer_prints_max(ulong t)
{
	long o = th_tracer_off()->print_max;
	unsigned char v = 0;

	if (o < 0)
		return 0;
	if (!t || !th_read(t + o, &v, 1, "tracer.print_max"))
		return -1;
	if (v > 1)
		th_damaged("tracer", t, "print_max %u is no bool", v);
	return v != 0;
}

/**
 * th_tracer_allows_instances - tracer.allow_instances
 * @t: the struct tracer
 */
int th_tracer_allows_instances(ulong t)
{
	long o = th_tracer_off()->allow_instances;
	unsigned char allow = 0;

	if (o < 0 || !th_read(t + o, &allow, 1, "tracer.allow_instances"))
		return FALSE;
	/* a C bool holds 0 or 1 */
	if (allow > 1)
		th_damaged("tracer", t, "allow_instances %u is no bool",
			   allow);
	return allow != 0;
}

/**
 * ff_tracer_ok - trace_ok_for_array(): the global array takes every
 * tracer, an instance only those with allow_instances
 * @tr: the array
 * @t: the struct tracer
 */
int ff_tracer_ok(struct th_tr *tr, ulong t)
{
	if (!tr->name[0])
		return TRUE;
	return th_tracer_allows_instances(t);
}

/*
 * The fields of a tracer the kernel never writes: register_tracer() sets
 * next, and flags and set_flag when the tracer has none; the tracer's
 * users count ref.  A tracer of the kernel image (all of them:
 * register_tracer() is __init) holds its initializer's name, init and
 * flags, as the vmlinux file does.
 */
static void th_tracer_static_check(ulong t)
{
	const struct th_tracer_off *o = th_tracer_off();
	const struct th_static_field f[] = {
		{ "name", o->name, sizeof(ulong), TRUE },
		{ "init", o->init, sizeof(ulong), TRUE },
		{ "allow_instances", o->allow_instances, 1, FALSE },
		{ "use_max_tr", o->use_max_tr, 1, FALSE },
		{ "print_max", o->print_max, 1, FALSE },
	};

	th_static_check("tracer", t, f, sizeof(f) / sizeof(f[0]));
}

/**
 * ff_tracers - every tracer on trace_types, in list order, bounded and
 * cycle-safe
 * @out: the struct tracers
 * @max: room in @out
 *
 * Return: their number, -1 without trace_types.
 */
int ff_tracers(ulong *out, int max)
{
	ulong head = th_symbol("trace_types"), t = 0, seen;
	long o_next = th_tracer_off()->next;
	int n = 0, i;

	if (!head || o_next < 0 || !th_read_ulong(head, &t, "trace_types"))
		return -1;
	while (t && n < max) {
		/* tracers are static data of the kernel or of a module */
		/* (crash's is_kernel_text() counts init sections as text:
		 * a tracer in __initdata is in "text" by that measure) */
		if (!th_ptr_in(t, TH_M(TH_R_TEXT) | TH_M(TH_R_IMAGE) |
			       TH_M(TH_R_MODULE))) {
			th_damaged("trace_types", n ? out[n - 1] : head,
				   "next tracer %lx is in %s", t,
				   th_region_name(th_region(t)));
			return n;
		}
		for (i = 0; i < n; i++)
			if (out[i] == t) {
				th_damaged("trace_types", out[n - 1], "cycle "
					   "back to tracer %lx", t);
				return n;
			}
		out[n++] = t;
		th_tracer_static_check(t);
		if (!th_read_ulong(t + o_next, &seen, "tracer.next")) {
			th_damaged("trace_types", t, "unreadable tracer");
			return n;
		}
		t = seen;
	}
	/* tracer_alloc_buffers() registers nop_trace first of all */
	if (!t && n < max && (seen = th_symbol("nop_trace"))) {
		for (i = 0; i < n && out[i] != seen; i++)
			;
		if (i == n)
			th_damaged("trace_types", head, "the nop tracer %lx is "
				   "not on the list", seen);
	}
	return n;
}

/**
 * ff_tracer_name - tracer.name, or "?ADDR"
 * @t: the struct tracer
 * @buf: where
 * @len: its size
 */
char *ff_tracer_name(ulong t, char *buf, int len)
{
	ulong np = 0;

	if (!th_read_ulong(t + th_tracer_off()->name, &np, "tracer.name") ||
	    !th_read_cstr(np, buf, len, "tracer.name")) {
		/* a tracer's name is a string of the kernel or its module */
		th_damaged("tracer", t, "name %lx is unreadable", np);
		snprintf(buf, len, "?%lx", t);
	} else if (!buf[0] || !th_printable(buf))
		/* register_tracer() takes no tracer without a name, and every
		 * tracer's is a word: the tracefs name current_tracer takes */
		th_damaged("tracer", t, "name at %lx is not text", np);
	return buf;
}

/**
 * th_tracer_name_at - tracer.name, the pointer
 * @t: the struct tracer
 * @np: the pointer (0 when NULL)
 *
 * Return: FALSE when unreadable.
 */
int th_tracer_name_at(ulong t, ulong *np)
{
	*np = 0;
	return th_read_ulong(t + th_tracer_off()->name, np, "tracer.name");
}

/**
 * th_tracer_flags_val - tracer_flags.val
 * @tflags: the struct tracer_flags
 * @val: the value, unchanged when unreadable
 */
void th_tracer_flags_val(ulong tflags, unsigned int *val)
{
	if (th_tracer_off()->tflags_val >= 0)
		th_read_uint(tflags + th_tracer_off()->tflags_val, val,
			     "tracer_flags.val");
}

/**
 * th_tracer_next - tracer.next (0: the last, or unreadable)
 * @t: the struct tracer
 */
ulong th_tracer_next(ulong t)
{
	return th_ptr_at(t, th_tracer_off()->next, "tracer.next");
}

/**
 * th_tracer_flags - tracer.flags, its struct tracer_flags (0: none)
 * @t: the struct tracer
 */
ulong th_tracer_flags(ulong t)
{
	return th_ptr_at(t, th_tracer_off()->flags, "tracer.flags");
}

/**
 * th_tracer_init - tracer.init (0: none)
 * @t: the struct tracer
 */
ulong th_tracer_init(ulong t)
{
	ulong init = th_ptr_at(t, th_tracer_off()->init, "tracer.init");

	/* tracing_set_tracer() calls it when there is one: code */
	if (init)
		th_check_code("tracer", t, init, "init");
	return init;
}

/**
 * th_tracer_opts - a tracer_flags' opts[] (a NULL name ends it) with
 * their values
 * @tflags: the struct tracer_flags
 * @o: the options
 * @max: room in @o
 *
 * Return: their number.
 */
int th_tracer_opts(ulong tflags, struct ff_opt *o, int max)
{
	const struct th_tracer_off *off = th_tracer_off();
	long sz = off->opt_size;
	unsigned int val = 0, bit;
	ulong opts = 0, np;
	int n;

	if (!tflags || off->tflags_val < 0 || off->tflags_opts < 0 ||
	    off->opt_name < 0 || off->opt_bit < 0 || sz <= 0)
		return 0;
	if (!th_read_uint(tflags + off->tflags_val, &val, "tracer_flags.val") ||
	    !th_read_ulong(tflags + off->tflags_opts, &opts,
			   "tracer_flags.opts") || !opts)
		return 0;
	for (n = 0; n < max; n++) {
		if (!th_read_ulong(opts + n * sz + off->opt_name, &np,
				   "tracer_opt.name") || !np)
			break;
		if (!th_read_uint(opts + n * sz + off->opt_bit, &bit,
				  "tracer_opt.bit"))
			break;
		th_read_cstr(np, o[n].name, sizeof(o[n].name), "tracer_opt.name");
		o[n].set = (val & bit) != 0;
		o[n].bit = bit;
	}
	return n;
}

/**
 * th_cur_tracer_flags - the tracer_flags of TR's current tracer: per
 * instance where the kernel keeps them per instance
 * (trace_array.current_trace_flags), else the tracer's own
 * @tr: the array
 */
ulong th_cur_tracer_flags(struct th_tr *tr)
{
	ulong f = th_tr_current_trace_flags(tr->addr), t;

	if (f)
		return f;
	t = th_tr_current_tracer(tr->addr);
	return t ? th_tracer_flags(t) : 0;
}

/**
 * th_tr_tracers_flags - tracer options kept per trace array: the list of
 * struct tracers (tracer, its flags for this array) at
 * trace_array.tracers, where the per-array tracer_flags may be NULL (no
 * per-array copy: the tracer's own flags)
 * @tr: the array
 * @tflags: the tracer_flags, in list order (entries without any skipped)
 * @max: room in @tflags
 *
 * Return: their number, -1 when the kernel has no such list.
 */
int th_tr_tracers_flags(struct th_tr *tr, ulong *tflags, int max)
{
	const struct th_tracers_off *o;
	ulong head = th_tr_list(tr->addr, TH_TR_TRACERS), tf, t;
	struct th_walk w;
	long i;
	int n = 0;

	if (!head)
		return -1;
	o = th_tracers_off();
	if (o->list < 0 || o->flags < 0 || o->size <= 0)
		return -1;
	th_list_walk(head, FF_MAX_TRACERS, &w);
	for (i = 0; i < w.n && n < max; i++) {
		ulong e = w.ent[i] - o->list;

		if (!th_read_ulong(e + o->flags, &tf, "tracers.flags"))
			continue;
		if (!tf && o->tracer >= 0 &&
		    th_read_ulong(e + o->tracer, &t, "tracers.tracer") && t)
			tf = th_tracer_flags(t);
		if (tf)
			tflags[n++] = tf;
	}
	th_walk_free(&w);
	return n;
}

/**
 * th_core_options - the core flag names: trace_options[], NULL-terminated
 * @names: the names
 * @max: room in @names
 *
 * Return: their number, -1 without trace_options[].
 */
int th_core_options(char names[][32], int max)
{
	const struct th_core_opts *o = th_core_opts();
	int n;

	if (!o)
		return -1;
	for (n = 0; n < o->n && n < max; n++)
		memcpy(names[n], o->name[n], sizeof(o->name[n]));
	if (o->unreadable >= 0 && o->unreadable < max)
		th_warn("trace_options[%d]: unreadable at %lx; the core "
			"options from it on are not shown", o->unreadable,
			o->arr + o->unreadable * sizeof(ulong));
	return n;
}

/* Bit of TRACE_ITER_<name> by its _BIT enumerator (6.1 and later), else by
 * the older mask enumerator; 0 when the kernel has neither. */
static uint64_t th_iter_bit(const char *name)
{
	char e[64];
	long v;

	snprintf(e, sizeof(e), "TRACE_ITER_%s_BIT", name);
	if (th_enum_exists(e))
		return 1ULL << th_enum(e, 0);
	snprintf(e, sizeof(e), "TRACE_ITER_%s", name);
	v = th_enum(e, 0);
	return v > 0 ? (uint64_t)v : 0;
}

/**
 * th_top_level_flags - TOP_LEVEL_TRACE_FLAGS: the core options only the
 * global array has
 */
uint64_t th_top_level_flags(void)
{
	return th_iter_bit("PRINTK") | th_iter_bit("PRINTK_MSGONLY") |
	       th_iter_bit("RECORD_CMD") | th_iter_bit("PROF_TEXT_OFFSET");
}

/*
 * trace_clocks[]'s entries and their stride.  The array's element is an
 * anonymous struct { u64 (*func)(void); const char *name; int in_ns; }
 * (kernel/trace/trace.c), two pointers and an int padded to a pointer's
 * alignment, read at those offsets below; the entries are the size the
 * vmlinux file's symbol table gives the array over that.  gdb would
 * expand all of trace.c to tell its type (some 50 ms of a session's
 * first trace command); it is asked only when the file has no symbol
 * table or the sizes disagree.
 */
static long th_trace_clocks_n(long *stride)
{
	static long n, st;
	long sz;

	if (!n) {
		st = (2 * sizeof(ulong) + sizeof(int) + sizeof(ulong) - 1) &
			~(sizeof(ulong) - 1);
		sz = th_vmlinux_symbol_size("trace_clocks");
		if (sz > 0 && sz % st == 0 && sz / st <= 64)
			n = sz / st;
		else
			n = ff_array_info("trace_clocks", &st);
	}
	*stride = st;
	return n;
}

/**
 * th_trace_clocks - the names of trace_clocks[] (at most 64)
 * @names: the names ("?" when unreadable)
 * @max: room in @names
 *
 * Return: their number, -1 without trace_clocks[].
 */
int th_trace_clocks(char names[][64], int max)
{
	ulong clocks = th_symbol("trace_clocks"), np;
	long stride, n, i;

	n = th_trace_clocks_n(&stride);
	if (!clocks || n <= 0 || stride < (long)(2 * sizeof(ulong)))
		return -1;
	th_trace_clock_check(-1);
	for (i = 0; i < n && i < max; i++) {
		/* { u64 (*func)(void); const char *name; int in_ns; } */
		if (!th_read_ulong(clocks + i * stride + sizeof(ulong), &np,
				   "trace_clocks.name") ||
		    !th_read_cstr(np, names[i], 64, "trace_clocks.name"))
			snprintf(names[i], 64, "?");
	}
	return i;
}

/**
 * th_trace_clock_in_ns - trace_clocks[ID].in_ns: whether the clock counts
 * nanoseconds (tracing_stats_read() then prints seconds)
 * @id: the index (trace_array.clock_id)
 *
 * Return: 1, 0, or -1 when unknown.
 */
int th_trace_clock_in_ns(int id)
{
	ulong clocks = th_symbol("trace_clocks");
	long stride, n;
	int in_ns;

	n = th_trace_clocks_n(&stride);
	/* { u64 (*func)(void); const char *name; int in_ns; } */
	if (!clocks || id < 0 || id >= n ||
	    stride < (long)(2 * sizeof(ulong) + sizeof(int)) ||
	    !th_read_int(clocks + id * stride + 2 * sizeof(ulong), &in_ns,
			 "trace_clocks.in_ns"))
		return -1;
	th_trace_clock_check(id);
	return in_ns != 0;
}

/**
 * th_trace_clock_check - trace_clocks[ID] against the vmlinux file: the
 * kernel never writes the array (trace.c's initializer), and a damaged
 * in_ns changes how every timestamp of the trace is printed
 * @id: the clock (trace_array.clock_id); -1: every clock
 */
void th_trace_clock_check(int id)
{
	long n, stride;
	/* { u64 (*func)(void); const char *name; int in_ns; } */
	static const struct th_static_field f[] = {
		{ "func", 0, sizeof(ulong), TRUE },
		{ "name", sizeof(ulong), sizeof(ulong), TRUE },
		{ "in_ns", 2 * sizeof(ulong), sizeof(int), FALSE },
	};
	ulong clocks = th_symbol("trace_clocks");
	char what[48];
	long i;

	n = th_trace_clocks_n(&stride);
	if (!clocks || n <= 0 || id >= n ||
	    stride < (long)(2 * sizeof(ulong) + sizeof(int)))
		return;
	for (i = id < 0 ? 0 : id; i < n && (id < 0 || i == id); i++) {
		snprintf(what, sizeof(what), "trace_clocks[%ld]", i);
		th_static_check(what, clocks + i * stride, f,
				sizeof(f) / sizeof(f[0]));
	}
}
