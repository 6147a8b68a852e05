/*
 * tracehunt: tracepoints and the probes attached to them
 * (model/tracepoints.c).
 */
#ifndef TRACEHUNT_MODEL_TRACEPOINTS_H
#define TRACEHUNT_MODEL_TRACEPOINTS_H

#include "model/model.h"

/* tracepoint.name, the pointer (what trace_event_name() follows for a
 * tracepoint event); FALSE when unreadable. */
int th_tracepoint_name_ptr(ulong tp, ulong *name);
/* One probe function FN attached to the tracepoint TP named NAME ("" when
 * unreadable). */
typedef void (*th_tp_probe_fn)(ulong tp, const char *name, ulong fn,
			       void *arg);
/* Every probe of every tracepoint, the core kernel's then each module's;
 * nothing when the kernel has no tracepoints. */
void th_tracepoint_probes(th_tp_probe_fn cb, void *arg);
/* Whether tracepoint NAME has the probe (FUNC, DATA): 1, 0, -1 unknown. */
int th_tracepoint_probe_on(const char *name, ulong func, ulong data);

#endif
