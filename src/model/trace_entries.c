/*
 * tracehunt: what the kernel's trace entries hold beyond their bytes
 * (kernel/trace/trace_entries.h, trace.h): the bits of an entry's flags
 * byte, whether the latency columns end with migrate-disable, and the
 * layouts of the function_graph and stack entries.  The only file that
 * asks the debuginfo about them.
 */
#define _GNU_SOURCE		/* memmem */
#include "model/trace_entries.h"
#include "model/ftrace_files.h"
#include "model/trace_opts.h"
#include "model/vmlinux_file.h"
#include <stddef.h>

static struct th_entry_flags entry_flags;

const struct th_entry_flags *th_entry_flags(void)
{
	if (entry_flags.init)
		return &entry_flags;
	entry_flags.init = 1;
	entry_flags.irqs_off = th_enum("TRACE_FLAG_IRQS_OFF", 0x01);
	/* BH_OFF is absent from older kernels: 0 disables it */
	entry_flags.bh_off = th_enum("TRACE_FLAG_BH_OFF", 0);
	/*
	 * TRACE_FLAG_NEED_RESCHED_LAZY took over the bit of
	 * TRACE_FLAG_IRQS_NOSUPPORT (v6.13: "tracing: Replace
	 * TRACE_FLAG_IRQS_NOSUPPORT with its config option" and
	 * "tracing: Record task flag NEED_RESCHED_LAZY."): with it,
	 * the need-resched column has eight values.
	 */
	if (th_enum_cached("TRACE_FLAG_NEED_RESCHED_LAZY",
			   &entry_flags.lazy))
		;
	else if (th_enum_cached("TRACE_FLAG_IRQS_NOSUPPORT",
				&entry_flags.nosupport))
		/* the enum, read whole with IRQS_OFF, holds the
		 * older flag at that bit: no LAZY (a lookup of a
		 * name the debuginfo lacks searches all of it) */
		entry_flags.lazy = 0;
	else
		entry_flags.lazy = th_enum("TRACE_FLAG_NEED_RESCHED_LAZY", 0);
	entry_flags.nosupport = entry_flags.lazy ? 0 :
				th_enum("TRACE_FLAG_IRQS_NOSUPPORT", 0x02);
	entry_flags.need_resched = th_enum("TRACE_FLAG_NEED_RESCHED", 0x04);
	entry_flags.hardirq = th_enum("TRACE_FLAG_HARDIRQ", 0x08);
	entry_flags.softirq = th_enum("TRACE_FLAG_SOFTIRQ", 0x10);
	entry_flags.preempt_resched = th_enum("TRACE_FLAG_PREEMPT_RESCHED",
					      0x20);
	entry_flags.nmi = th_enum("TRACE_FLAG_NMI", 0x40);
	/* an enum that has NEED_RESCHED but not these is older than them
	 * (3.10's five flags): PREEMPT_RESCHED came with Linux kernel
	 * commit e5137b50a0b0 ("ftrace, sched: Add TRACE_FLAG_PREEMPT_RESCHED",
	 * v3.13), NMI later */
	if (th_enum_exists("TRACE_FLAG_NEED_RESCHED")) {
		if (!th_enum_exists("TRACE_FLAG_PREEMPT_RESCHED"))
			entry_flags.preempt_resched = 0;
		if (!th_enum_exists("TRACE_FLAG_NMI"))
			entry_flags.nmi = 0;
	}
	return &entry_flags;
}

/* Whether [A, END) of the kernel's memory holds the string S (N bytes):
 * 1, 0, -1 when none of it could be read; 64 KB chunks that overlap by
 * N so that no occurrence falls between two. */
static int th_mem_has(ulong a, ulong end, const char *s, size_t n, char *buf,
		      size_t chunk)
{
	int read_any = FALSE;

	for (; a < end; a += chunk - n) {
		long len = MIN((ulong)chunk, end - a);

		if (th_read(a, buf, len, "kernel rodata")) {
			read_any = TRUE;
			if (memmem(buf, len, s, n))
				return 1;
		}
		if ((ulong)len < chunk)
			break;
	}
	return read_any ? 0 : -1;
}

/*
 * Whether the kernel's read-only data holds the string S, one of trace.c's
 * own (-1: unreadable).  The strings of one object file are merged into
 * rodata next to each other, more or less: the search starts around
 * trace.c's name of its first option (trace_options[0]), 64 KB and then
 * 1 MB either side (6.1: 2 KB away; 6.12, 7.2: 0.5-0.7 MB), before the
 * whole of __start_rodata..__end_rodata (bounded: at most 256 MB).
 */
static int th_rodata_has(const char *s)
{
	enum { CHUNK = 64 * 1024 };
	static const ulong radius[] = { 64 << 10, 1 << 20 };
	ulong start = th_ksymbol("__start_rodata");
	ulong end = th_ksymbol("__end_rodata");
	const struct th_core_opts *o = th_core_opts();
	ulong anchor = o && o->n > 0 ? o->ptr[0] : 0;
	size_t n = strlen(s);
	char *buf;
	int r;
	unsigned i;

	if (!start || end <= start || end - start > (256UL << 20) ||
	    n == 0 || n >= CHUNK)
		return -1;
	buf = malloc(CHUNK);
	if (!buf)
		return -1;
	for (i = 0; anchor >= start && anchor < end &&
		    i < sizeof(radius) / sizeof(radius[0]); i++) {
		ulong lo = anchor - start > radius[i] ? anchor - radius[i] :
			   start;
		ulong hi = end - anchor > radius[i] ? anchor + radius[i] : end;

		if (th_mem_has(lo, hi, s, n, buf, CHUNK) > 0) {
			free(buf);
			return 1;
		}
	}
	r = th_mem_has(start, end, s, n, buf, CHUNK);
	free(buf);
	return r;
}

/*
 * Whether t_show() says "#### no functions disabled ####" for an empty
 * notrace hash (3.10's prints nothing): the kernel's rodata has the line
 * or not; read once (a search may walk the whole of rodata).
 */
int th_notrace_says_none(void)
{
	static int v = -1;

	if (v < 0)
		v = th_rodata_has("#### no functions disabled ####") != 0;
	return v;
}

/*
 * The latency columns end with migrate-disable (preempt_count's high
 * nibble) since Linux kernel commit 54357f0c9149 ("tracing: Add
 * migrate-disabled counter to tracing output.") (in v5.15); before it the
 * whole preempt_count is one column.  That commit added no symbol, type
 * or member of its own, so the kernel's own header text is the probe;
 * when rodata cannot be read, TRACE_FLAG_BH_OFF (v5.18, later) decides.
 */
int th_lat_migrate(void)
{
	static int v = -1;

	if (v < 0) {
		v = th_rodata_has("_-=> migrate-disable");
		if (v < 0)
			v = th_enum("TRACE_FLAG_BH_OFF", 0) != 0;
	}
	return v;
}

static struct th_graph_layout gl;

/*
 * 3.10 has the TRACE_GRAPH_PRINT_* bits as #defines (IRQS 0x40, no
 * REL_TIME or TAIL), which debuginfo does not keep: each bit is the one
 * the function_graph tracer's own options (graph_trace's flags, "funcgraph-
 * NAME") give it, 0 for an option it does not have.
 */
static void th_graph_bits_from_opts(struct th_graph_layout *g)
{
	static const struct { const char *name; size_t off; } map[] = {
		{ "funcgraph-overrun", offsetof(struct th_graph_layout,
						fl_overrun) },
		{ "funcgraph-cpu", offsetof(struct th_graph_layout, fl_cpu) },
		{ "funcgraph-overhead", offsetof(struct th_graph_layout,
						 fl_overhead) },
		{ "funcgraph-proc", offsetof(struct th_graph_layout, fl_proc) },
		{ "funcgraph-duration", offsetof(struct th_graph_layout,
						 fl_duration) },
		{ "funcgraph-abstime", offsetof(struct th_graph_layout,
						fl_abs_time) },
		{ "funcgraph-irqs", offsetof(struct th_graph_layout, fl_irqs) },
		{ "funcgraph-tail", offsetof(struct th_graph_layout, fl_tail) },
	};
	struct ff_opt o[32];
	ulong t = th_symbol("graph_trace");
	int n, i, k;

	if (!t || (n = th_tracer_opts(th_tracer_flags(t), o, 32)) <= 0)
		return;
	for (k = 0; k < (int)(sizeof(map) / sizeof(map[0])); k++) {
		long *fl = (long *)((char *)g + map[k].off);

		*fl = 0;
		for (i = 0; i < n; i++)
			if (strcmp(o[i].name, map[k].name) == 0)
				*fl = o[i].bit;
	}
	g->fl_rel_time = 0;
}

const struct th_graph_layout *th_graph_layout(void)
{
	long eo, ro;
	unsigned int nr = 0;
	ulong p;

	if (gl.init)
		return &gl;
	gl.init = 1;
	gl.fl_overrun = th_enum("TRACE_GRAPH_PRINT_OVERRUN", 0x1);
	gl.fl_cpu = th_enum("TRACE_GRAPH_PRINT_CPU", 0x2);
	gl.fl_overhead = th_enum("TRACE_GRAPH_PRINT_OVERHEAD", 0x4);
	gl.fl_proc = th_enum("TRACE_GRAPH_PRINT_PROC", 0x8);
	gl.fl_duration = th_enum("TRACE_GRAPH_PRINT_DURATION", 0x10);
	gl.fl_abs_time = th_enum("TRACE_GRAPH_PRINT_ABS_TIME", 0x20);
	gl.fl_rel_time = th_enum("TRACE_GRAPH_PRINT_REL_TIME", 0x40);
	gl.fl_irqs = th_enum("TRACE_GRAPH_PRINT_IRQS", 0x80);
	gl.fl_tail = th_enum("TRACE_GRAPH_PRINT_TAIL", 0x100);
	if (!th_enum_exists("TRACE_GRAPH_PRINT_OVERRUN"))
		th_graph_bits_from_opts(&gl);
	eo = th_member("ftrace_graph_ent_entry", "graph_ent");
	ro = th_member("ftrace_graph_ret_entry", "ret");
	if (eo < 0)
		eo = 8;
	if (ro < 0)
		ro = 8;
	gl.ent_func = eo + MAX(th_member("ftrace_graph_ent", "func"), 0);
	gl.ent_depth = eo + MAX(th_member("ftrace_graph_ent", "depth"), 8);
	gl.ret_func = ro + MAX(th_member("ftrace_graph_ret", "func"), 0);
	gl.ret_depth = ro + MAX(th_member("ftrace_graph_ret", "depth"), 8);
	gl.ret_overrun = ro + th_member("ftrace_graph_ret", "overrun");
	if (th_member("ftrace_graph_ret", "calltime") >= 0) {
		gl.ret_calltime = ro + th_member("ftrace_graph_ret",
						 "calltime");
		gl.ret_rettime = ro + th_member("ftrace_graph_ret",
						"rettime");
	} else {
		/* calltime/rettime moved from struct ftrace_graph_ret to the
		 * ring-buffer entry (struct ftrace_graph_ret_entry) in v6.14,
		 * Linux kernel commit 66611c047570 ("fgraph: Remove calltime
		 * and rettime from generic operations") */
		gl.ret_calltime = th_member("ftrace_graph_ret_entry",
					    "calltime");
		gl.ret_rettime = th_member("ftrace_graph_ret_entry",
					   "rettime");
	}
	gl.irq_start = th_symbol("__irqentry_text_start");
	gl.irq_end = th_symbol("__irqentry_text_end");
	/* max_bytes_for_cpu: digits of nr_cpu_ids - 1 */
	p = th_symbol("nr_cpu_ids");
	if (!p || !th_read_uint(p, &nr, "nr_cpu_ids") || !nr)
		nr = kt->cpus;
	gl.cpu_width = snprintf(NULL, 0, "%u", nr ? nr - 1 : 0);
	return &gl;
}

static struct th_fnargs_layout fa;

const struct th_fnargs_layout *th_fnargs_layout(void)
{
	long size, off;

	if (fa.init)
		return &fa;
	fa.init = 1;
	/*
	 * ftrace_entry.args and ftrace_graph_ent_entry.args (dynamic arrays
	 * after ip/parent_ip and graph_ent) came with the function-argument
	 * tracing of v6.16, printed by print_function_args() from BTF.
	 */
	fa.printed = th_ksymbol("print_function_args") != 0;
	fa.fn_off = fa.graph_off = -1;
	fa.max = 0;
	/* nothing prints an entry's args without it: its layout is not
	 * asked (a type the dump lacks costs a scan of all its debuginfo) */
	if (!fa.printed)
		return &fa;
	fa.fn_off = th_member("ftrace_entry", "args");
	fa.graph_off = th_member("ftrace_graph_ent_entry", "args");
	/* struct fgraph_ent_args (trace_functions_graph.c) sizes its
	 * args[] to FTRACE_REGS_MAX_ARGS; 6 on x86_64 otherwise */
	size = th_size("fgraph_ent_args");
	off = th_member("fgraph_ent_args", "args");
	fa.max = size > 0 && off >= 0 && size > off ?
		 (int)((size - off) / sizeof(ulong)) : 6;
	if (fa.max > 32)
		fa.max = 6;
	return &fa;
}

long th_stack_caller_off(void)
{
	static long off = -2;

	if (off == -2)
		off = th_member("stack_entry", "caller");
	return off;
}

long th_userstack_tgid_off(void)
{
	static long off = -2;

	if (off == -2)
		off = th_member("userstack_entry", "tgid");
	return off;
}

long th_userstack_caller_off(void)
{
	static long off = -2;

	if (off == -2)
		off = th_member("userstack_entry", "caller");
	return off;
}

long th_raw_data_off(int buf)
{
	static long off[2] = { -2, -2 };

	if (off[0] == -2) {
		off[0] = th_member("raw_data_entry", "id");
		off[1] = th_member("raw_data_entry", "buf");
	}
	return off[!!buf];
}

/*
 * The latency tracers' own entries (kernel/trace/trace_entries.h):
 * struct ctx_switch_entry (TRACE_CTX and TRACE_WAKE, the wakeup
 * tracers), hwlat_entry, osnoise_entry and timerlat_entry.  Offsets from
 * the entry's start (each struct begins with its struct trace_entry).
 */
static struct th_lat_entries lat_entries;

const struct th_lat_entries *th_lat_entries(void)
{
	struct th_lat_entries *o = &lat_entries;
	long ts;

	if (o->init)
		return o;
	o->init = 1;
	o->ctx_prev_pid = th_member("ctx_switch_entry", "prev_pid");
	o->ctx_prev_prio = th_member("ctx_switch_entry", "prev_prio");
	o->ctx_prev_state = th_member("ctx_switch_entry", "prev_state");
	o->ctx_next_pid = th_member("ctx_switch_entry", "next_pid");
	o->ctx_next_prio = th_member("ctx_switch_entry", "next_prio");
	o->ctx_next_state = th_member("ctx_switch_entry", "next_state");
	o->ctx_next_cpu = th_member("ctx_switch_entry", "next_cpu");
	o->hw_seqnum = th_member("hwlat_entry", "seqnum");
	o->hw_duration = th_member("hwlat_entry", "duration");
	o->hw_outer = th_member("hwlat_entry", "outer_duration");
	o->hw_nmi_total = th_member("hwlat_entry", "nmi_total_ts");
	o->hw_nmi_count = th_member("hwlat_entry", "nmi_count");
	/* "count" is newer than the tracer (v5.9's entries lack it):
	 * printed only where the member is */
	o->hw_count = th_member("hwlat_entry", "count");
	ts = th_member("hwlat_entry", "timestamp");
	o->hw_ts_sec = o->hw_ts_nsec = -1;
	if (ts >= 0) {
		long s = th_member("timespec64", "tv_sec");
		long ns = th_member("timespec64", "tv_nsec");

		if (s >= 0 && ns >= 0) {
			o->hw_ts_sec = ts + s;
			o->hw_ts_nsec = ts + ns;
		}
	}
	o->os_noise = th_member("osnoise_entry", "noise");
	o->os_runtime = th_member("osnoise_entry", "runtime");
	o->os_max_sample = th_member("osnoise_entry", "max_sample");
	o->os_hw = th_member("osnoise_entry", "hw_count");
	o->os_nmi = th_member("osnoise_entry", "nmi_count");
	o->os_irq = th_member("osnoise_entry", "irq_count");
	o->os_softirq = th_member("osnoise_entry", "softirq_count");
	o->os_thread = th_member("osnoise_entry", "thread_count");
	o->tl_seqnum = th_member("timerlat_entry", "seqnum");
	o->tl_context = th_member("timerlat_entry", "context");
	o->tl_latency = th_member("timerlat_entry", "timer_latency");
	return o;
}

/**
 * th_timerlat_context - timerlat_lat_context[CTX] (trace_output.c: "irq",
 * "thread", "user-ret"), read from the dump into BUF
 * @ctx: the entry's context
 * @buf: room for the name
 * @len: its size
 *
 * Return: FALSE when the kernel has no such name.
 */
int th_timerlat_context(int ctx, char *buf, int len)
{
	ulong a = th_ksymbol("timerlat_lat_context"), p;
	long n = th_array_len("timerlat_lat_context");

	buf[0] = '\0';
	if (!a || ctx < 0 || n < 0 || ctx >= n)
		return FALSE;
	return th_read_ulong(a + ctx * sizeof(ulong), &p,
			     "timerlat_lat_context[]") && p &&
	       th_read_cstr(p, buf, len, "timerlat_lat_context[]");
}

/*
 * th_task_states - what trace_ctxwake_print() makes of a task state.
 * Since Linux kernel commit 3f5fe9fef5b2 ("sched/debug: Fix task state
 * recording/printout") (in v4.14) a ctx_switch_entry holds
 * task_state_index(), printed by task_index_to_char() from "RSDTtXZPI"
 * (the same letters since 06eb61844d84, "sched/debug: Add explicit
 * TASK_IDLE printing", in v4.14 too).  Before it, the raw state, which
 * task_state_char() maps through the bit it has set lowest into
 * trace_output.c's state_to_char[] (TASK_STATE_TO_CHAR_STR): told by that
 * array's symbol, and its letters read from the dump.
 */
const struct th_task_states *th_task_states(void)
{
	static struct th_task_states st;
	static int init;
	ulong a;

	if (init)
		return &st;
	init = 1;
	a = th_ksymbol("state_to_char");
	if (!a) {
		snprintf(st.chars, sizeof(st.chars), "RSDTtXZPI");
	} else {
		/* read-only data: the vmlinux file's bytes where the dump
		 * lacks the page; neither: every letter '?' */
		const unsigned char *f;

		st.by_bit = 1;
		if (!th_read_cstr(a, st.chars, sizeof(st.chars),
				  "state_to_char") &&
		    (f = th_vmlinux_bytes(a, sizeof(st.chars) - 1)) != NULL)
			memcpy(st.chars, f, sizeof(st.chars) - 1);
		st.chars[sizeof(st.chars) - 1] = '\0';
	}
	st.n = (int)strlen(st.chars);
	return &st;
}
