/*
 * tracehunt: the model's reader of the tracing core's global settings
 * and counters (trace_globals.c): what tracing_thresh, max_graph_depth,
 * stack_max_size, stack_trace, dyn_ftrace_total_info and README print.
 */
#ifndef TRACEHUNT_TRACE_GLOBALS_H
#define TRACEHUNT_TRACE_GLOBALS_H

#include "model/model.h"

enum th_gval {
	TH_G_TRACING_THRESH,		/* unsigned long, ns */
	TH_G_FGRAPH_MAX_DEPTH,		/* unsigned int */
	TH_G_STACK_MAX_SIZE,		/* unsigned long */
	TH_G_STACK_TRACER_ENABLED,	/* int */
	TH_G_FTRACE_UPDATE_TOT_CNT,	/* unsigned long */
	TH_G_FTRACE_PAGES,		/* unsigned long */
	TH_G_FTRACE_GROUPS,		/* unsigned long */
	TH_G_FTRACE_UPDATE_TIME,	/* u64, ns */
	TH_G_FTRACE_MOD_TIME,		/* u64, ns */
	TH_G_COUNT
};
/* The variable's value; FALSE when the kernel has none or it cannot be
 * read. */
int th_global(enum th_gval which, ulong *val);
/* Whether the kernel has it. */
int th_global_exists(enum th_gval which);

/* The stack tracer's maximum (kernel/trace/trace_stack.c). */
struct th_stack_max {
	unsigned nr;			/* the entries t_show() prints */
	int header_nr;			/* the count its header gives */
	int *index;			/* stack_trace_index[nr] */
	ulong *addr;			/* stack_dump_trace[nr] */
};
/* FALSE when the kernel has no stack tracer or it cannot be read;
 * th_stack_max_free() after TRUE. */
int th_stack_max_read(struct th_stack_max *s);
void th_stack_max_free(struct th_stack_max *s);
int th_stack_max_exists(void);

/* nr_cpu_ids (an int, unsigned since 2.6.x), read once; 0 when the
 * kernel has none (CONFIG_FORCE_NR_CPUS) or it cannot be read. */
unsigned int th_nr_cpu_ids(void);

/* readme_msg: malloc'd, *LEN its strlen(); NULL when absent/unreadable. */
char *th_readme(size_t *len);

#endif
