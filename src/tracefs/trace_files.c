/*
 * tracehunt: the trace files of the table: trace and per_cpu/cpuN/trace,
 * snapshot and per_cpu/cpuN/snapshot, printed by render/ftrace_trace.c.
 */
#include "tracefs/tracefs.h"
#include "render/trace_priv.h"
#include "render/trace_cmd.h"
#include "model/ftrace_files.h"

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

/**
 * th_missing_snapshot - snapshot and per_cpu/cpuN/snapshot: only with
 * CONFIG_TRACER_SNAPSHOT (trace_array.allocated_snapshot), and not while
 * a latency tracer keeps its maximum in that buffer (s_start(): EBUSY)
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_snapshot(struct th_tr *tr, const struct th_tref *ref,
				char *buf, size_t len)
{
	int alloc;

	if (!th_tr_allocated_snapshot(tr->addr, &alloc)) {
		snprintf(buf, len, "ftrace cat: %s: this kernel has no snapshot "
			 "buffer (CONFIG_TRACER_SNAPSHOT), or the dump cannot "
			 "say", ref->file);
		return buf;
	}
	if (th_tracer_uses_max_tr(th_tr_current_tracer(tr->addr)) != 0) {
		snprintf(buf, len, "ftrace cat: %s: the current tracer keeps "
			 "its maximum in the snapshot buffer (or cannot be "
			 "read): the kernel refused the read (EBUSY)",
			 ref->file);
		return buf;
	}
	if (ref->cpu >= 0)
		return th_missing_tracing_cpu(tr, ref, buf, len);
	return NULL;
}

/**
 * th_cat_snapshot - snapshot, per_cpu/cpuN/snapshot: s_show() over the
 * snapshot (max) buffer, or print_snapshot_help() when it is empty
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_snapshot(struct th_tr *tr, const struct th_tref *ref)
{
	struct th_sel s;

	memset(&s, 0, sizeof(s));
	s.cpu = ref->cpu;
	s.snapshot = TRUE;
	th_trace_print(tr, &s, TRUE, -1);
}
