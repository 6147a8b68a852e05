/*
 * tracehunt: struct trace_eprobe (kernel/trace/trace_eprobe.c): the event
 * an event probe is attached to; the model's one reader (trace_eprobe.c).
 */
#ifndef TRACEHUNT_TRACE_EPROBE_H
#define TRACEHUNT_TRACE_EPROBE_H

#include "model/model.h"

#pragma GCC visibility push(hidden)

/* "SYSTEM.EVENT" of the eprobe event CALL into BUF; FALSE when not
 * readable (BUF ""). */
int th_eprobe_source(ulong call, char *buf, size_t len);
/* FALSE when the dump lacks struct trace_eprobe (before v5.15). */
int th_eprobe_ok(void);
/* The eprobe around the struct dyn_event EV: its struct trace_probe in
 * *TP and "SYSTEM.EVENT" of its source event in BUF; FALSE when not
 * readable. */
int th_eprobe_dyn(ulong ev, ulong *tp, char *buf, size_t len);

#pragma GCC visibility pop

#endif
