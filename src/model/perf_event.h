/*
 * tracehunt: perf events (model/perf_event.c): what the BPF reader asks of
 * the event a program or a perf link is on (its trace event, its type,
 * its program), and what the hardware breakpoint reader asks of the event
 * in a debug register (where it breaks, on what access, its handler, its
 * task).
 */
#ifndef TRACEHUNT_MODEL_PERF_EVENT_H
#define TRACEHUNT_MODEL_PERF_EVENT_H

#include "model/model.h"

#pragma GCC visibility push(hidden)

/* perf_event.tp_event (0: none) and attr.type of EV; FALSE when the
 * dump lacks them or they cannot be read. */
int th_perf_event_tp(ulong ev, ulong *call, unsigned int *type);
/* Whether perf events hold a program (perf_event.prog, v4.15+). */
int th_perf_event_has_prog(void);
/* perf_event.prog of EV; FALSE when the kernel has none or it cannot be
 * read. */
int th_perf_event_prog(ulong ev, ulong *prog);

/* A breakpoint event: attr.bp_addr, bp_type, bp_len, the overflow
 * handler, and hw.target (0: every task). */
struct th_perf_bp {
	ulong addr;
	unsigned int type;
	uint64_t len;
	ulong handler;
	ulong task;
};
/* FALSE when the dump lacks these members (*WHY names them). */
int th_perf_bp_ok(const char **why);
/* EV's breakpoint into *BP; FALSE when it cannot be read (not said:
 * the caller knows where the event was found). */
int th_perf_event_bp(ulong ev, struct th_perf_bp *bp);

#pragma GCC visibility pop

#endif
