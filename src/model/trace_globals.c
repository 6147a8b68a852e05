/*
 * tracehunt: the tracing core's global settings and counters: the
 * variables behind tracing_thresh, max_graph_depth, stack_max_size,
 * dyn_ftrace_total_info, the stack tracer's maximum (stack_trace) and the
 * README text (readme_msg), each read at the size the debuginfo gives;
 * and nr_cpu_ids, for every reader of the model.
 */
#include "model/trace_globals.h"

#define TH_STACK_ENTRIES_MAX	4096	/* STACK_TRACE_ENTRIES is 500 */
#define TH_README_MAX		(256 * 1024)

static const char *const th_gval_sym[TH_G_COUNT] = {
	[TH_G_TRACING_THRESH] = "tracing_thresh",
	[TH_G_FGRAPH_MAX_DEPTH] = "fgraph_max_depth",
	[TH_G_STACK_MAX_SIZE] = "stack_trace_max_size",
	[TH_G_STACK_TRACER_ENABLED] = "stack_tracer_enabled",
	[TH_G_FTRACE_UPDATE_TOT_CNT] = "ftrace_update_tot_cnt",
	[TH_G_FTRACE_PAGES] = "ftrace_number_of_pages",
	[TH_G_FTRACE_GROUPS] = "ftrace_number_of_groups",
	[TH_G_FTRACE_UPDATE_TIME] = "ftrace_update_time",
	[TH_G_FTRACE_MOD_TIME] = "ftrace_total_mod_time",
};

/* The names the same variables had before (3.10): max_depth, static in
 * trace_functions_graph.c; max_stack_size, static in trace_stack.c */
static const char *const th_gval_old[TH_G_COUNT] = {
	[TH_G_FGRAPH_MAX_DEPTH] = "max_depth",
	[TH_G_STACK_MAX_SIZE] = "max_stack_size",
};

/* The address of a symbol the kernel has once only: a static of an old
 * name could be another file's; 0 when absent or not unique. */
static ulong th_unique_symbol(const char *name)
{
	struct syment *sp = kernel_symbol_search((char *)name);

	if (!sp || symbol_search_next((char *)name, sp))
		return 0;
	return sp->value;
}

/* The variable's name and address in this kernel (its current name
 * first); 0 when it has none */
static ulong th_gval_addr(enum th_gval which, const char **sym)
{
	ulong addr;

	*sym = th_gval_sym[which];
	if ((addr = th_ksymbol(*sym)) || !th_gval_old[which])
		return addr;
	*sym = th_gval_old[which];
	return th_unique_symbol(*sym);
}

/**
 * th_global_exists - whether the kernel has the variable
 * @which: which
 */
int th_global_exists(enum th_gval which)
{
	const char *sym;

	return th_gval_addr(which, &sym) != 0;
}

/**
 * th_global - a global variable's value (an int, unsigned int or long,
 * at its own size)
 * @which: which
 * @val: the value (a 4-byte signed one sign-extended)
 */
int th_global(enum th_gval which, ulong *val)
{
	const char *sym;
	ulong addr = th_gval_addr(which, &sym);
	long size;
	int v;

	*val = 0;
	if (!addr)
		return FALSE;
	/* the debuginfo's size of it (an int or unsigned int: 4) */
	size = get_symbol_length((char *)sym);
	if (size == 4) {
		if (!th_read_int(addr, &v, sym))
			return FALSE;
		*val = which == TH_G_STACK_TRACER_ENABLED ? (ulong)(long)v :
			(ulong)(unsigned)v;
		return TRUE;
	}
	return th_read_ulong(addr, val, sym);
}

/**
 * th_nr_cpu_ids - nr_cpu_ids, read once (the one reader of it)
 */
unsigned int th_nr_cpu_ids(void)
{
	static int done;
	static unsigned int nr;
	ulong sym;

	if (!done) {
		done = TRUE;
		if (!(sym = th_symbol("nr_cpu_ids")) ||
		    !th_read_uint(sym, &nr, "nr_cpu_ids"))
			nr = 0;
	}
	return nr;
}

/**
 * th_stack_max_exists - whether the kernel has the stack tracer
 */
int th_stack_max_exists(void)
{
	return th_ksymbol("stack_dump_trace") &&
		((th_ksymbol("stack_trace_index") &&
		  th_ksymbol("stack_trace_nr_entries")) ||
		 (th_ksymbol("stack_dump_index") &&
		  th_ksymbol("max_stack_trace")));
}

/*
 * 3.10's stack tracer: the count in a struct stack_trace max_stack_trace
 * (nr_entries, the header printing it less one) and the depths in
 * stack_dump_index[]; t_show() stops at nr_entries or at a ULONG_MAX
 * entry of stack_dump_trace[].
 */
static int th_stack_max_read_old(struct th_stack_max *s)
{
	ulong dump = th_ksymbol("stack_dump_trace");
	ulong index = th_ksymbol("stack_dump_index");
	ulong mst = th_ksymbol("max_stack_trace");
	long off = th_member("stack_trace", "nr_entries");
	unsigned int nr, i;

	if (!dump || !index || !mst || off < 0 ||
	    !th_read_uint(mst + off, &nr, "max_stack_trace.nr_entries") ||
	    !th_check_count("max_stack_trace", mst, nr, TH_STACK_ENTRIES_MAX,
			    "nr_entries"))
		return FALSE;
	s->header_nr = (int)nr - 1;
	s->index = calloc(nr + 1, sizeof(int));
	s->addr = calloc(nr + 1, sizeof(ulong));
	if (!s->index || !s->addr ||
	    (nr && (!th_read(index, s->index, nr * sizeof(int),
			     "stack_dump_index") ||
		    !th_read(dump, s->addr, nr * sizeof(ulong),
			     "stack_dump_trace")))) {
		th_stack_max_free(s);
		return FALSE;
	}
	for (i = 0; i < nr && s->addr[i] != ~0UL; i++)
		;
	s->nr = i;
	return TRUE;
}

/**
 * th_stack_max_read - the stack tracer's maximum stack: t_show() of
 * kernel/trace/trace_stack.c prints it
 * @s: filled (th_stack_max_free() it after TRUE)
 */
int th_stack_max_read(struct th_stack_max *s)
{
	ulong dump = th_ksymbol("stack_dump_trace");
	ulong index = th_ksymbol("stack_trace_index");
	ulong nr = th_ksymbol("stack_trace_nr_entries");

	memset(s, 0, sizeof(*s));
	if (!nr && !th_ksymbol("stack_trace_index"))
		return th_stack_max_read_old(s);
	if (!dump || !index || !nr ||
	    !th_read_uint(nr, &s->nr, "stack_trace_nr_entries") ||
	    !th_check_count("stack_trace_nr_entries", nr, s->nr,
			    TH_STACK_ENTRIES_MAX, "value"))
		return FALSE;
	s->index = calloc(s->nr + 1, sizeof(int));
	s->addr = calloc(s->nr + 1, sizeof(ulong));
	if (!s->index || !s->addr ||
	    (s->nr && (!th_read(index, s->index, s->nr * sizeof(int),
				"stack_trace_index") ||
		       !th_read(dump, s->addr, s->nr * sizeof(ulong),
				"stack_dump_trace")))) {
		th_stack_max_free(s);
		return FALSE;
	}
	s->header_nr = s->nr;
	return TRUE;
}

void th_stack_max_free(struct th_stack_max *s)
{
	free(s->index);
	free(s->addr);
	s->index = NULL;
	s->addr = NULL;
}

/**
 * th_readme - readme_msg, the text tracing_readme_read() gives
 * @len: its length
 *
 * Return: the text (malloc'd, NUL-terminated), NULL when the kernel has
 * none or it cannot be read.
 */
char *th_readme(size_t *len)
{
	ulong addr = th_ksymbol("readme_msg");
	size_t cap = 4096, n = 0;
	char *buf = NULL, *nb;
	char *nul;

	*len = 0;
	if (!addr)
		return NULL;
	/* page by page until its NUL (it ends in rodata, never at a hole) */
	while (n < TH_README_MAX) {
		if (!(nb = realloc(buf, n + cap + 1))) {
			free(buf);
			return NULL;
		}
		buf = nb;
		if (!th_read(addr + n, buf + n, cap, "readme_msg")) {
			free(buf);
			return NULL;
		}
		buf[n + cap] = '\0';
		if ((nul = memchr(buf + n, '\0', cap))) {
			*len = nul - buf;
			return buf;
		}
		n += cap;
	}
	free(buf);
	return NULL;
}
