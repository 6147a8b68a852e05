/*
 * tracehunt: the model's reader of the osnoise and timerlat tracers'
 * state (kernel/trace/trace_osnoise.c: struct osnoise_data) and of the
 * hwlat tracer's (trace_hwlat.c: struct hwlat_data): osnoise.c.
 */
#ifndef TRACEHUNT_OSNOISE_H
#define TRACEHUNT_OSNOISE_H

#include "model/model.h"

#pragma GCC visibility push(hidden)

/* osnoise_data.tainted: 1, 0, -1 when absent or unreadable. */
int th_osnoise_tainted(void);
/* *param.val of the trace_min_max_param PARAM; FALSE when absent. */
int th_min_max_value(const char *param, uint64_t *val);
/* hwlat's thread modes and the current one; -1 without the tracer. */
int th_hwlat_modes(char (*names)[32], int max, int *cur);
/* osnoise_options and their names; -1 without the tracer. */
int th_osnoise_options(char (*names)[32], int max, ulong *opts);
/* osnoise_cpumask and nr_cpu_ids; FALSE when absent or unreadable. */
int th_osnoise_cpumask(ulong *bits, int nwords, int *nbits);

#pragma GCC visibility pop

#endif
