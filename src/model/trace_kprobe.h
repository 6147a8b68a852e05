/*
 * tracehunt: the trace events built on kprobes (model/trace_kprobe.c):
 * struct trace_kprobe on dyn_event_list (or probe_list before v5.0).
 */
#ifndef TRACEHUNT_MODEL_TRACE_KPROBE_H
#define TRACEHUNT_MODEL_TRACE_KPROBE_H

#include "model/model.h"

/* FALSE when the dump has no kprobe events or not their types. */
int th_trace_kprobes_ok(void);
/* Every struct trace_kprobe in the kernel's order; -1 when the dump has
 * no kprobe events.  *out is malloc'd. */
long th_trace_kprobes(ulong **out);
/* The trace_kprobe around the struct dyn_event EV (devent); 0 when the
 * dump lacks the types. */
ulong th_tk_of_dyn_event(ulong ev);
/* The trace_kprobe of the trace_probe at TP (also one made by perf for a
 * BPF kprobe, on no list); 0 when the dump lacks the types. */
ulong th_tk_of_probe(ulong tp);
/* The struct kprobe embedded in a trace_kprobe. */
ulong th_tk_kprobe(ulong tk);
/* The event's system and name; FALSE when it has no name. */
int th_tk_names(ulong tk, char *group, size_t glen, char *name, size_t nlen);
/* Whether kprobe_events shows a kretprobe's maxactive (v4.12+) */
int th_tk_shows_maxactive(void);
/* trace_kprobe.nhit, summed over the CPUs when per-CPU */
ulong th_tk_nhit(ulong tk);
/* trace_kprobe.symbol into BUF: FALSE (BUF "") when the probe was
 * placed by address. */
int th_tk_symbol(ulong tk, char *buf, int len);
/* The struct trace_probe inside a trace_kprobe (its fetch arguments:
 * model/trace_probe.h). */
ulong th_tk_probe(ulong tk);

#endif
