/*
 * tracehunt: the function_graph tracer's output
 * (kernel/trace/trace_functions_graph.c print_graph_function_flags):
 * nested calls and leaves with their durations and overhead marks, pid
 * switch separators, events as comments at the current depth, irq entry
 * and exit arrows.
 */
#include "render/trace_priv.h"
#include "model/trace_entries.h"
#include "model/trace_opts.h"
#include "model/ftrace_files.h"

#define TH_GRAPH_DEPTH	50	/* FTRACE_RETFUNC_DEPTH */
#define TH_GRAPH_INDENT	2

struct th_gcpu {
	int last_pid;
	int depth;
	int depth_irq;
	ulong enter_funcs[TH_GRAPH_DEPTH];
};

static const struct th_graph_layout *layout;

struct th_graph {
	unsigned flags;
	struct th_gcpu cpu[NR_CPUS];
};

static void th_graph_init(void)
{
	if (!layout)
		layout = th_graph_layout();
}

static unsigned th_graph_flags(struct th_tctx *t)
{
	return th_tr_tracer_flags_val(t->tr, layout->fl_cpu | layout->fl_overhead |
			       layout->fl_duration | layout->fl_irqs);
}

/* __print_graph_headers_flags() */
void th_graph_header(struct th_tctx *t)
{
	unsigned f;
	int lat;

	th_graph_init();
	f = th_graph_flags(t);
	if (!th_tflag(t, "TRACE_ITER_CONTEXT_INFO_BIT"))
		return;
	lat = th_tflag(t, "TRACE_ITER_LATENCY_FMT_BIT");
	fputc('#', fp);
	if (f & layout->fl_abs_time)
		fputs("     TIME       ", fp);
	if (f & layout->fl_rel_time)
		fputs("   REL TIME     ", fp);
	if (f & layout->fl_cpu)
		fputs(" CPU", fp);
	if (f & layout->fl_proc)
		fputs("  TASK/PID       ", fp);
	if (lat)
		fputs("||||   ", fp);
	if (f & layout->fl_duration)
		fputs("  DURATION   ", fp);
	fputs("               FUNCTION CALLS\n", fp);
	fputc('#', fp);
	if (f & layout->fl_abs_time)
		fputs("      |         ", fp);
	if (f & layout->fl_rel_time)
		fputs("      |         ", fp);
	if (f & layout->fl_cpu)
		fputs(" |  ", fp);
	if (f & layout->fl_proc)
		fputs("   |    |        ", fp);
	if (lat)
		fputs("||||   ", fp);
	if (f & layout->fl_duration)
		fputs("   |   |      ", fp);
	fputs("               |   |   |   |\n", fp);
}

/*
 * The function_graph options this printer does not follow yet: the
 * return value (funcgraph-retval, CONFIG_FUNCTION_GRAPH_RETVAL) and the
 * return address (funcgraph-retaddr, CONFIG_FUNCTION_GRAPH_RETADDR), in
 * no kernel of the fixtures.  Set on TR: one line says the lines lack
 * them, rather than a silent difference.
 */
void th_graph_check_opts(struct th_tr *tr)
{
	static const char *const unsupported[] = {
		"funcgraph-retval", "funcgraph-retaddr",
	};
	struct ff_opt o[32];
	unsigned i;
	int n, j;

	n = th_tracer_opts(th_cur_tracer_flags(tr), o, 32);
	for (j = 0; j < n; j++)
		for (i = 0; i < sizeof(unsupported) / sizeof(*unsupported); i++)
			if (o[j].set && !strcmp(o[j].name, unsupported[i]))
				th_warn("%s%s: options/%s is set: its lines "
					"lack what it adds (not decoded yet)",
					tr->name[0] ? "instance " : "trace",
					tr->name, o[j].name);
}

/* The lines go to th_ob (trace_priv.h). */
static void th_gput(const char *s, size_t n)
{
	th_ob_put(s, n);
}

#define th_gputs(s) th_gput((s), strlen(s))

static void th_gputc(char c)
{
	*th_ob_reserve(1) = c;
	th_ob.n++;
}

static void th_gspaces(long n)
{
	static const char sp[] = "                                ";

	while (n > 0) {
		long k = n > 32 ? 32 : n;

		th_gput(sp, k);
		n -= k;
	}
}

static ulong th_g_ul(const unsigned char *e, uint32_t len, long off)
{
	ulong v = 0;

	if (off >= 0 && off + sizeof(ulong) <= len)
		memcpy(&v, e + off, sizeof(ulong));
	return v;
}

/* An entry's function: the kernel adds its array's text_delta (a
 * previous boot's trace, its kernel elsewhere) before it names it or
 * looks for an interrupt entry (print_graph_entry(), check_irq_entry()) */
static ulong th_g_func(const struct th_tctx *t, const unsigned char *e,
		       uint32_t len, long off)
{
	return th_g_ul(e, len, off) + t->text_delta;
}

static int th_g_int(const unsigned char *e, uint32_t len, long off)
{
	int v = 0;

	if (off >= 0 && off + 4 <= len)
		memcpy(&v, e + off, 4);
	return v;
}

static uint64_t th_g_u64(const unsigned char *e, uint32_t len, long off)
{
	uint64_t v = 0;

	if (off >= 0 && off + 8 <= len)
		memcpy(&v, e + off, 8);
	return v;
}

static void th_graph_cpu(int cpu)
{
	char b[40], *p = b;

	/* " %*d) " */
	*p++ = ' ';
	if (cpu >= 0)
		p = th_put_udec(p, cpu, layout->cpu_width, ' ');
	else
		p += snprintf(p, 24, "%*d", layout->cpu_width, cpu);
	*p++ = ')';
	*p++ = ' ';
	th_gput(b, p - b);
}

/* print_graph_proc(): comm-pid centred in 14 columns */
static void th_graph_proc(int pid)
{
	char comm[32], pid_str[16];
	int len, spaces = 0;

	th_find_cmdline(pid, comm);
	comm[7] = '\0';
	snprintf(pid_str, sizeof(pid_str), "%d", pid);
	len = strlen(comm) + strlen(pid_str) + 1;
	if (len < 14)
		spaces = 14 - len;
	th_gspaces(spaces / 2);
	th_gputs(comm);
	th_gputc('-');
	th_gputs(pid_str);
	th_gspaces(spaces - spaces / 2);
}

static void th_verif_pid(struct th_graph *g, int pid, int cpu)
{
	struct th_gcpu *c = &g->cpu[cpu];
	int prev;

	if (c->last_pid == pid)
		return;
	prev = c->last_pid;
	c->last_pid = pid;
	if (prev == -1)
		return;
	th_gputs(" ------------------------------------------\n");
	th_graph_cpu(cpu);
	th_graph_proc(prev);
	th_gputs(" => ");
	th_graph_proc(pid);
	th_gputs("\n ------------------------------------------\n\n");
}

enum { FILL_NONE, FILL_FULL, FILL_START, FILL_END };

/* print_graph_duration() with trace_print_graph_duration() */
static void th_graph_duration(struct th_tctx *t, struct th_graph *g,
			      unsigned long long d, int fill)
{
	char b[64], *p = b, *us;
	unsigned long nsecs_rem;
	int len, nl;

	if (!(g->flags & layout->fl_duration) || !t->f_context)
		return;
	switch (fill) {
	case FILL_FULL:
		th_gputs("              |  ");
		return;
	case FILL_START:
		th_gputs("  ");
		return;
	case FILL_END:
		th_gputs(" |");
		return;
	}
	*p++ = (g->flags & layout->fl_overhead) ? th_find_mark(d) : ' ';
	*p++ = ' ';
	nsecs_rem = d % 1000;
	d /= 1000;
	/* "%lu" of the microseconds */
	us = p;
	p = th_put_udec(p, (unsigned long)d, 0, ' ');
	len = p - us;
	if (len < 7) {
		/* ".%03lu" of the nanoseconds, cut to 8 - len - 1 digits:
		 * snprintf(ns, MIN(5, 8 - len), "%03lu", nsecs_rem) */
		char ns[8], *e = th_put_udec(ns, nsecs_rem, 3, '0');

		nl = MIN(5, 8 - len) - 1;
		if (nl > e - ns)
			nl = e - ns;
		*p++ = '.';
		memcpy(p, ns, nl);
		p += nl;
		len += nl + 1;
	}
	memcpy(p, " us ", 4);
	p += 4;
	for (; len < 8; len++)
		*p++ = ' ';
	memcpy(p, "|  ", 3);
	p += 3;
	th_gput(b, p - b);
}

static void th_graph_lat(struct th_tctx *t)
{
	char b[16];
	int n;

	b[0] = ' ';
	n = 1 + th_lat_str(t->ent, b + 1);
	memcpy(b + n, " | ", 3);
	th_gput(b, n + 3);
}

static void th_graph_context(struct th_tctx *t, struct th_graph *g, int pid)
{
	if (!t->f_context)
		return;
	if (g->flags & layout->fl_abs_time) {
		uint64_t ts = t->ts;
		char b[48], *p = b;

		/* "%5lu.%06lu |  " */
		p = th_put_udec(p, ts / 1000000000ULL, 5, ' ');
		*p++ = '.';
		p = th_put_udec(p, (ts % 1000000000ULL) / 1000, 6, '0');
		memcpy(p, " |  ", 4);
		th_gput(b, p + 4 - b);
	}
	if (g->flags & layout->fl_rel_time)
		th_gputs("        0 us |  ");	/* "%9llu us |  " of 0 */
	if (g->flags & layout->fl_cpu)
		th_graph_cpu(t->cpu);
	if (g->flags & layout->fl_proc) {
		th_graph_proc(pid);
		th_gputs(" | ");
	}
	if (t->f_lat_fmt)
		th_graph_lat(t);
}

/* print_graph_irq(): arrows around interrupt entry code */
static void th_graph_irq(struct th_tctx *t, struct th_graph *g, ulong addr,
			 int enter, int pid)
{
	if (!layout->irq_start || addr < layout->irq_start || addr >= layout->irq_end)
		return;
	th_graph_context(t, g, pid);
	th_graph_duration(t, g, 0, FILL_START);
	th_gputs(enter ? "==========>" : "<==========");
	th_graph_duration(t, g, 0, FILL_END);
	th_gputc('\n');
}

static void th_graph_prologue(struct th_tctx *t, struct th_graph *g,
			      int enter_irq, ulong addr)
{
	int pid = th_ent_pid(t->ent);

	th_verif_pid(g, pid, t->cpu);
	if (enter_irq)
		th_graph_irq(t, g, addr, TRUE, pid);
	th_graph_context(t, g, pid);
}

/* check_irq_entry() / check_irq_return(): hide irq code unless shown */
static int th_irq_entry(struct th_graph *g, int cpu, ulong addr, int depth)
{
	struct th_gcpu *c = &g->cpu[cpu];

	if (g->flags & layout->fl_irqs)
		return 0;
	if (c->depth_irq >= 0)
		return 1;
	if (!layout->irq_start || addr < layout->irq_start || addr >= layout->irq_end)
		return 0;
	c->depth_irq = depth;
	return 1;
}

static int th_irq_return(struct th_graph *g, int cpu, int depth)
{
	struct th_gcpu *c = &g->cpu[cpu];

	if (g->flags & layout->fl_irqs)
		return 0;
	if (c->depth_irq == -1)
		return 0;
	if (c->depth_irq >= depth)
		c->depth_irq = -1;
	return 1;
}

static void th_indent(int n)
{
	th_gspaces(n);
}

/* "()", or print_function_args() of FUNC when T's entry holds the call's
 * arguments (funcgraph-args) */
static void th_graph_args(struct th_tctx *t, ulong func)
{
	char args[512];
	size_t n = th_fn_args_text(func, t->ent, t->len, TRUE, args,
				   sizeof(args));

	if (n)
		th_gput(args, n);
	else
		th_gput("()", 2);
}

static void th_graph_entry(struct th_tctx *t, struct th_graph *g,
			   struct th_rbcpu *rc, long ret_type)
{
	const unsigned char *e = t->ent;
	ulong func = th_g_func(t, e, t->len, layout->ent_func);
	int depth = th_g_int(e, t->len, layout->ent_depth);
	struct th_gcpu *c = &g->cpu[t->cpu];
	const char *name;
	size_t nlen;
	const unsigned char *n;

	if (th_irq_entry(g, t->cpu, func, depth))
		return;
	th_graph_prologue(t, g, TRUE, func);
	name = th_ksym_ps_cached(func, &nlen);
	/* get_return_for_leaf(): the next entry on this CPU */
	if (th_rb_cpu_peek(rc) && rc->ev.len >= 8 &&
	    th_ent_type(n = rc->ev.payload) == ret_type &&
	    th_ent_pid(n) == th_ent_pid(e) &&
	    th_g_func(t, n, rc->ev.len, layout->ret_func) == func) {
		unsigned long long d =
			th_g_u64(n, rc->ev.len, layout->ret_rettime) -
			th_g_u64(n, rc->ev.len, layout->ret_calltime);
		ulong rfunc = th_g_func(t, n, rc->ev.len,
					   layout->ret_func);

		th_rb_cpu_advance(rc);
		c->depth = depth - 1;
		if (depth >= 0 && depth < TH_GRAPH_DEPTH)
			c->enter_funcs[depth] = 0;
		th_graph_duration(t, g, d, FILL_NONE);
		th_indent(depth * TH_GRAPH_INDENT);
		th_gput(name, nlen);
		th_graph_args(t, rfunc);
		th_gput(";\n", 2);
		th_graph_irq(t, g, rfunc, FALSE, th_ent_pid(e));
		return;
	}
	c->depth = depth;
	if (depth >= 0 && depth < TH_GRAPH_DEPTH)
		c->enter_funcs[depth] = func;
	th_graph_duration(t, g, 0, FILL_FULL);
	th_indent(depth * TH_GRAPH_INDENT);
	th_gput(name, nlen);
	th_graph_args(t, func);
	th_gput(" {\n", 3);
}

static void th_graph_return(struct th_tctx *t, struct th_graph *g)
{
	const unsigned char *e = t->ent;
	ulong func = th_g_func(t, e, t->len, layout->ret_func);
	int depth = th_g_int(e, t->len, layout->ret_depth);
	unsigned long long d = th_g_u64(e, t->len, layout->ret_rettime) -
			       th_g_u64(e, t->len, layout->ret_calltime);
	struct th_gcpu *c = &g->cpu[t->cpu];
	int match = 1;

	if (th_irq_return(g, t->cpu, depth))
		return;
	c->depth = depth - 1;
	if (depth >= 0 && depth < TH_GRAPH_DEPTH) {
		if (c->enter_funcs[depth] != func)
			match = 0;
		c->enter_funcs[depth] = 0;
	}
	th_graph_prologue(t, g, FALSE, 0);
	th_graph_duration(t, g, d, FILL_NONE);
	th_indent(depth * TH_GRAPH_INDENT);
	if (match && !(g->flags & layout->fl_tail))
		th_gput("}\n", 2);
	else {
		size_t nlen;
		const char *name = th_ksym_ps_cached(func, &nlen);

		th_gput("} /* ", 5);
		th_gput(name, nlen);
		th_gput(" */\n", 4);
	}
	if (g->flags & layout->fl_overrun) {
		char b[48], *p = b;

		memcpy(p, " (Overruns: ", 12);
		p = th_put_udec(p + 12,
				(unsigned)th_g_int(e, t->len, layout->ret_overrun),
				0, ' ');
		memcpy(p, ")\n", 2);
		th_gput(b, p + 2 - b);
	}
	th_graph_irq(t, g, func, FALSE, th_ent_pid(e));
}

static void th_graph_comment(struct th_tctx *t, struct th_graph *g)
{
	int depth = g->cpu[t->cpu].depth;
	char *text = malloc(8192);
	size_t l;

	th_graph_prologue(t, g, FALSE, 0);
	th_graph_duration(t, g, 0, FILL_FULL);
	if (depth > 0)
		th_indent((depth + 1) * TH_GRAPH_INDENT);
	t->msg_only = TRUE;
	th_event_text(t, text, 8192);
	t->msg_only = FALSE;
	l = strlen(text);
	if (l && text[l - 1] == '\n')
		text[--l] = '\0';
	th_gput("/* ", 3);
	th_gput(text, l);
	th_gput(" */\n", 4);
	free(text);
}

/* An entry before the last N: pid, depth and open calls as if printed. */
static void th_graph_skip(struct th_tctx *t, struct th_graph *g,
			  struct th_rbcpu *rc, unsigned type, long T_ENT,
			  long T_RET)
{
	struct th_gcpu *c = &g->cpu[t->cpu];
	const unsigned char *e = t->ent;
	int depth;
	ulong func;

	c->last_pid = th_ent_pid(e);
	if (type == T_ENT) {
		func = th_g_func(t, e, t->len, layout->ent_func);
		depth = th_g_int(e, t->len, layout->ent_depth);
		if (th_irq_entry(g, t->cpu, func, depth))
			return;
		if (th_rb_cpu_peek(rc) && rc->ev.len >= 8 &&
		    th_ent_type(rc->ev.payload) == T_RET &&
		    th_ent_pid(rc->ev.payload) == th_ent_pid(e) &&
		    th_g_func(t, rc->ev.payload, rc->ev.len,
			      layout->ret_func) == func) {
			th_rb_cpu_advance(rc);
			c->depth = depth - 1;
			if (depth >= 0 && depth < TH_GRAPH_DEPTH)
				c->enter_funcs[depth] = 0;
			return;
		}
		c->depth = depth;
		if (depth >= 0 && depth < TH_GRAPH_DEPTH)
			c->enter_funcs[depth] = func;
	} else if (type == T_RET) {
		depth = th_g_int(e, t->len, layout->ret_depth);
		if (th_irq_return(g, t->cpu, depth))
			return;
		c->depth = depth - 1;
		if (depth >= 0 && depth < TH_GRAPH_DEPTH)
			c->enter_funcs[depth] = 0;
	}
}

/*
 * How many items th_graph_print() walks over from RB's current position:
 * one per record, except that a leaf entry and the return right after it
 * on its CPU (printed as one "func();" line, and skipped as one item) are
 * one.  The "last N" count must be made in these units, or the skip runs
 * past the end.
 */
long th_graph_count(struct th_rb *rb,
		    int (*want)(const unsigned char *ent, void *arg), void *arg)
{
	const struct th_trace_types *tt = th_trace_types();
	long T_ENT = tt->graph_ent, T_RET = tt->graph_ret;
	struct th_rbcpu *rc;
	long n = 0;

	th_graph_init();
	for (;;) {
		const unsigned char *e;
		unsigned type;
		ulong func;
		int pid, ok;

		if (!(rc = th_rb_next(rb)))
			break;
		e = rc->ev.payload;
		ok = rc->ev.len >= 8 && rc->cpu < NR_CPUS && want(e, arg);
		type = ok ? th_ent_type(e) : 0;
		func = ok && type == T_ENT ?
			th_g_ul(e, rc->ev.len, layout->ent_func) : 0;
		pid = ok ? th_ent_pid(e) : -1;
		th_rb_cpu_advance(rc);
		if (!ok)
			continue;
		n++;
		if (type == T_ENT && th_rb_cpu_peek(rc) && rc->ev.len >= 8 &&
		    th_ent_type(rc->ev.payload) == T_RET &&
		    th_ent_pid(rc->ev.payload) == pid &&
		    th_g_ul(rc->ev.payload, rc->ev.len, layout->ret_func) == func)
			th_rb_cpu_advance(rc);
	}
	return n;
}

void th_graph_print(struct th_tctx *t, struct th_rb *rb,
		    int (*want)(const unsigned char *ent, void *arg), void *arg,
		    long skip)
{
	const struct th_trace_types *tt = th_trace_types();
	long T_ENT = tt->graph_ent, T_RET = tt->graph_ret;
	long T_FN = tt->fn, T_STACK = tt->stack;
	struct th_graph *g = calloc(1, sizeof(*g));
	unsigned char *ent = malloc(65536);
	struct th_rbcpu *rc;
	int i, j;

	th_graph_init();
	g->flags = th_graph_flags(t);
	for (i = 0; i < NR_CPUS; i++) {
		g->cpu[i].last_pid = -1;
		g->cpu[i].depth_irq = -1;
		for (j = 0; j < TH_GRAPH_DEPTH; j++)
			g->cpu[i].enter_funcs[j] = 0;
	}
	for (;;) {
		unsigned type;

		if (!(rc = th_rb_next(rb)))
			break;
		/* the entry outlives its sub-buffer once the CPU moves on */
		t->len = MIN(rc->ev.len, 65536);
		memcpy(ent, rc->ev.payload, t->len);
		t->ent = ent;
		t->cpu = rc->cpu;
		t->ts = rc->ev.ts;
		th_rb_cpu_advance(rc);
		if (t->len < 8 || t->cpu >= NR_CPUS || !want(ent, arg))
			continue;
		type = th_ent_type(ent);
		if (skip > 0) {
			/* not printed, but the state it leaves behind is */
			skip--;
			th_graph_skip(t, g, rc, type, T_ENT, T_RET);
			continue;
		}
		if (type == T_ENT)
			th_graph_entry(t, g, rc, T_RET);
		else if (type == T_RET)
			th_graph_return(t, g);
		else if (type == T_FN || type == T_STACK)
			th_print_entry(t);
		else
			th_graph_comment(t, g);
	}
	th_ob_flush();
	free(ent);
	free(g);
}
