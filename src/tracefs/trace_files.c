/*
 * tracehunt: the trace files of the table: trace and per_cpu/cpuN/trace,
 * printed by render/ftrace_trace.c.
 */
#include "tracefs/tracefs.h"
#include "render/trace_priv.h"

/**
 * th_missing_possible_cpu - per_cpu/cpuN/trace exists for the possible CPUs
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_possible_cpu(struct th_tr *tr,
				    const struct th_tref *ref, char *buf,
				    size_t len)
{
	int cpus[NR_CPUS], n = th_possible_cpus(cpus, NR_CPUS), i;

	for (i = 0; i < n; i++)
		if (cpus[i] == ref->cpu)
			return NULL;
	snprintf(buf, len, "ftrace cat: %s: no CPU %d in this dump", ref->file,
		 ref->cpu);
	return buf;
}

/**
 * th_cat_trace - trace, per_cpu/cpuN/trace: s_show() over the merged ring
 * buffers
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_trace(struct th_tr *tr, const struct th_tref *ref)
{
	th_trace_file(tr, ref->cpu);
}
