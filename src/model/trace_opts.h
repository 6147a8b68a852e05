/*
 * tracehunt: the model's reader of a trace array's printing settings
 * (trace_opts.c): trace_flags and the option bits, the clock, the current
 * tracer and its flags, and the CPUs the header counts.
 */
#ifndef TRACEHUNT_TRACE_OPTS_H
#define TRACEHUNT_TRACE_OPTS_H

#include "model/model.h"

#pragma GCC visibility push(hidden)

/* What the trace file's printing follows in a struct trace_array. */
struct th_tr_opts {
	unsigned int trace_flags;
	int in_ns;			/* the clock counts nanoseconds */
	char tracer[64];		/* current_trace->name */
};
void th_tr_opts_read(ulong tr, struct th_tr_opts *o);
/*
 * trace_options[], the core options' names (a NULL-terminated array of
 * string constants), read once a session: its one reader.  Each name is
 * checked against the vmlinux file's bytes, the warning said again at
 * each call.  NULL when the kernel has no trace_options[].
 */
#define TH_CORE_OPTS_MAX	64
struct th_core_opts {
	ulong arr;			/* &trace_options[0] */
	int n;				/* names read */
	int whole;			/* read up to its NULL */
	int unreadable;			/* the slot not read, or -1 */
	ulong ptr[TH_CORE_OPTS_MAX];
	char name[TH_CORE_OPTS_MAX][32];	/* "?": unreadable */
};
const struct th_core_opts *th_core_opts(void);
/* The bit of a trace option (enum trace_iterator_bits, by the name of
 * its enumerator, "TRACE_ITER_SYM_OFFSET_BIT"), -1 when unknown. */
long th_trace_iter_bit(const char *bit);
/* tr->current_trace->flags->val, DEF when the tracer has no flags. */
unsigned th_tr_tracer_flags_val(ulong tr, unsigned def);
/* The kernel scanned a trace event's format for "%s" in the buffer it
 * wrote the nohash-ptr copy into (v5.12..v6.12): the first printed
 * nothing there. */
int th_trace_fmt_scan_in_place(void);
/* print_fields() of v6.15+: a long field through %pS, a string-pointer
 * field at the address of the reader's copy of the entry. */
int th_fields_v615(void);
/* num_online_cpus() as the live kernel saw it. */
int th_online_cpus(void);
/* trace_print_context()'s pid column width: 5 (3.10) or 7 */
int th_trace_pid_width(void);
/* print_graph_comment() prints trace_puts() entries as the message only */
int th_graph_bputs_msg_only(void);

#pragma GCC visibility pop

#endif
