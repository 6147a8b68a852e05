/*
 * tracehunt: the texts of dynamic ftrace objects as the kernel prints
 * them: print_rec() (one core for enabled_functions and the filter
 * files), and the %pS texts of each ops, computed once.
 */
#include "render/ftrace_text.h"

/**
 * thf_print_rec - print_rec() of kernel/trace/ftrace.c
 * @ip: the record's address
 * @mode: THF_REC_ENABLED or THF_REC_FILTER (see ftrace_text.h)
 * @buf: "name" or "name [mod]", or the invalid-address text
 * @len: its size
 *
 * Return: FALSE for an invalid record.
 */
int thf_print_rec(ulong ip, enum thf_rec_mode mode, char *buf, size_t len)
{
	struct thf_state *s = mode == THF_REC_ENABLED ? thf_load() : NULL;
	struct th_sym sym;
	int ok = th_ksym_lookup(ip, &sym);

	if (s && s->have_max_offset &&
	    (!ok || sym.offset > (ulong)s->max_offset)) {
		snprintf(buf, len, "__ftrace_invalid_address___%lu",
			 ok ? sym.offset : 0UL);
		return FALSE;
	}
	if (!ok && mode == THF_REC_FILTER)
		snprintf(buf, len, "__ftrace_invalid_address___0");
	else
		th_ksym_ps(ip, buf, len);	/* "name [mod]", or 0x%lx */
	return TRUE;
}

/* %pS of the ops fields and the "->" target, once per ops: the 37,000
 * lines of a function_graph dump share a handful of ops */
static struct thf_opstr *thf_opstr;
static char thf_sarrow[2][320];		/* by FTRACE_FL_REGS_EN */
static int thf_sarrow_done[2];

/**
 * thf_ops_str - the %pS texts of an ops, computed once
 * @s: the state
 * @i: the ops' index
 *
 * Return: the texts, or NULL (no such ops, out of memory).
 */
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

/**
 * thf_static_arrow - " ->X": what the static caller calls
 * @s: the state
 * @regs_en: ftrace_regs_caller's (else ftrace_caller's)
 *
 * Return: the text, "" when it calls nothing known.
 */
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
