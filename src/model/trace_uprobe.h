/*
 * tracehunt: the trace events built on uprobes (model/trace_uprobe.c):
 * struct trace_uprobe on dyn_event_list (uprobe_list before v5.0), and
 * those perf makes for a perf or BPF uprobe, on no list.
 */
#ifndef TRACEHUNT_MODEL_TRACE_UPROBE_H
#define TRACEHUNT_MODEL_TRACE_UPROBE_H

#include "model/model.h"

#pragma GCC visibility push(hidden)

/* FALSE when the dump has no uprobe events or not their types. */
int th_trace_uprobes_ok(void);
/* Every struct trace_uprobe of uprobe_events in the kernel's order; -1
 * when the dump has no uprobe events.  *out is malloc'd. */
long th_trace_uprobes(ulong **out);
/* The trace_uprobe whose trace_probe is at TP, or whose uprobe_consumer
 * is at UC (also one perf made, on no list); 0 when the dump lacks the
 * types. */
ulong th_tu_of_probe(ulong tp);
ulong th_tu_of_consumer(ulong uc);
/* The trace_uprobe of the struct dyn_event EV (one of dyn_event_list
 * whose ops is &trace_uprobe_ops, th_tu_dyn_ops()); 0 without the types. */
ulong th_tu_of_dyn_event(ulong ev);
ulong th_tu_dyn_ops(void);
/* The event's system and name; FALSE when it has no name. */
int th_tu_names(ulong tu, char *group, size_t glen, char *name, size_t nlen);
/* trace_uprobe.filename (the path the probe was given) into BUF; FALSE
 * (BUF "") when unreadable. */
int th_tu_filename(ulong tu, char *buf, int len);
/* trace_uprobe.offset and .ref_ctr_offset; FALSE when unreadable. */
int th_tu_offsets(ulong tu, ulong *offset, ulong *ref_ctr_offset);
/* is_ret_probe(): the consumer has a ret_handler */
int th_tu_is_ret(ulong tu);
/* trace_uprobe.nhit, summed over the CPUs when per-CPU */
ulong th_tu_nhit(ulong tu);
/* The struct trace_probe inside a trace_uprobe (its fetch arguments:
 * model/trace_probe.h). */
ulong th_tu_probe(ulong tu);

#pragma GCC visibility pop

#endif
