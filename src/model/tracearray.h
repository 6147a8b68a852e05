/*
 * tracehunt: struct trace_array's offsets, for the model's own readers
 * (tracearray.c fills them; upper layers use the functions of
 * model/ftrace_files.h).
 */
#ifndef TRACEHUNT_TRACEARRAY_H
#define TRACEHUNT_TRACEARRAY_H

struct th_tr_off {
	long list, name;
	long current_trace, current_trace_flags;
	long trace_flags, trace_flags_size;
	long trace_flags_index, trace_flags_index_size;
	long clock_id;
	long ops;
	long events, mod_events, mod_trace, mod_notrace, func_probes, tracers;
	long buffer_disabled, ring_buffer_expanded;
	long buffer_percent, max_latency, tracing_cpumask;
	long allocated_snapshot, syscall_buf_sz;
	long event_dir;
	long tracing_cpumask_size;
	int tracing_cpumask_ptr;	/* a pointer (CPUMASK_OFFSTACK) */
	long function_pids, function_no_pids, filtered_pids, filtered_no_pids;
	long err_log;
	long systems, trace_marker_file;
	long flags, flags_size;
	/* boot-mapped ("persistent") arrays (model/last_boot.c) */
	long range_addr_start, text_delta, module_delta;
	long scratch, scratch_size;
};

const struct th_tr_off *th_tr_off(void);

#endif
