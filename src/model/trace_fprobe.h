/*
 * tracehunt: struct trace_fprobe (kernel/trace/trace_fprobe.c): fprobe
 * events ("f:") and tracepoint probes ("t:"), both v6.5 (Masami
 * Hiramatsu's "tracing/probes: Add fprobe events for tracing function
 * entry and exit" and "tracing/probes: Add tracepoint support on
 * fprobe_events"), and the struct fprobe each holds; the model's one
 * reader of both (model/trace_fprobe.c).
 */
#ifndef TRACEHUNT_MODEL_TRACE_FPROBE_H
#define TRACEHUNT_MODEL_TRACE_FPROBE_H

#include "model/model.h"

#pragma GCC visibility push(hidden)

/* At most this many of an fprobe's sites are read. */
#define TH_FPROBE_SITES	64

/* One fprobe event, read whole. */
struct th_fprobe_ev {
	ulong tf;		/* struct trace_fprobe */
	ulong tp;		/* its struct trace_probe */
	ulong fp;		/* its struct fprobe */
	ulong ops;		/* fprobe.ops, its own ftrace_ops (before
				 * v6.14); 0 since: the shared ones */
	ulong entry, exit;	/* fprobe.entry_handler, .exit_handler */
	int is_return;		/* exit_handler set: "SYM%return" */
	int is_tp;		/* a tracepoint probe ("t:") */
	int maxactive;		/* fprobe.nr_maxactive (before v6.14) */
	char symbol[128];	/* trace_fprobe.symbol, "unknown" when NULL */
	char group[64], name[128];
	/* the sites of fprobe.hlist_array (v6.14+; nsites 0 before:
	 * the ops' filter hash has them) */
	ulong sites[TH_FPROBE_SITES];
	int nsites;
};

/* The struct fprobe at FP (a BPF kprobe_multi link's too): its own
 * ftrace_ops (before v6.14; 0 since, or without the type), and whether
 * it has an exit handler (-1: unreadable). */
ulong th_fprobe_ops(ulong fp);
int th_fprobe_has_exit(ulong fp);

/* FALSE when the dump lacks struct trace_fprobe or trace_probe (no
 * CONFIG_FPROBE_EVENTS, before v6.5). */
int th_trace_fprobes_ok(void);
/* The fprobe event around the struct dyn_event EV into *OUT; FALSE when
 * its struct cannot be read (*OUT then partly filled). */
int th_fprobe_of_dyn(ulong ev, struct th_fprobe_ev *out);

#pragma GCC visibility pop

#endif
