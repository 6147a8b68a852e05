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

#pragma GCC visibility pop

#endif
