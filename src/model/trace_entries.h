/*
 * tracehunt: the model's reader of what the kernel's trace entries hold
 * beyond their bytes (trace_entries.c): the bits of an entry's flags
 * byte, the latency columns' layout, the function_graph entries' and
 * stack entries' layouts.
 */
#ifndef TRACEHUNT_TRACE_ENTRIES_H
#define TRACEHUNT_TRACE_ENTRIES_H

#include "model/model.h"

#pragma GCC visibility push(hidden)

/* enum trace_flag_type: the bits of an entry's flags byte (0: absent) */
struct th_entry_flags {
	int init;
	long irqs_off, bh_off, nosupport, need_resched, preempt_resched,
	     lazy, hardirq, softirq, nmi;
};
const struct th_entry_flags *th_entry_flags(void);
/* The latency columns include migrate-disable (else preempt_count whole). */
int th_lat_migrate(void);

/* struct ftrace_graph_ent_entry / ftrace_graph_ret_entry: offsets in the
 * entry; the flags of the function_graph tracer's options; the irq entry
 * text; the width of a CPU number. */
struct th_graph_layout {
	int init;
	/* TRACE_GRAPH_PRINT_* */
	long fl_overrun, fl_cpu, fl_overhead, fl_proc, fl_duration,
	     fl_abs_time, fl_rel_time, fl_irqs, fl_tail;
	long ent_func, ent_depth;
	long ret_func, ret_depth, ret_overrun, ret_calltime, ret_rettime;
	ulong irq_start, irq_end;
	int cpu_width;
};
const struct th_graph_layout *th_graph_layout(void);

/*
 * The argument registers the function and function_graph tracers record
 * with func-args / funcgraph-args (CONFIG_FUNCTION_TRACE_ARGS, v6.16):
 * where args[] starts in struct ftrace_entry and struct
 * ftrace_graph_ent_entry (-1: the kernel records none), how many there
 * are (FTRACE_REGS_MAX_ARGS), and whether the kernel prints them
 * (print_function_args()).  An entry holds them when it is at least
 * that many longs longer than the offset (trace_fn_trace()).
 */
struct th_fnargs_layout {
	int init;
	int printed;
	int max;
	long fn_off, graph_off;
};
const struct th_fnargs_layout *th_fnargs_layout(void);

/* Offset of struct stack_entry's caller[] in a TRACE_STACK entry, or -1. */
long th_stack_caller_off(void);
/* Offset of struct userstack_entry's tgid, -1 when unknown. */
long th_userstack_tgid_off(void);
/* Offset of struct userstack_entry's caller[] in a TRACE_USER_STACK
 * entry, or -1. */
long th_userstack_caller_off(void);
/* Offset of struct raw_data_entry's id (BUF 0) or buf[] (BUF 1) in a
 * TRACE_RAW_DATA entry, or -1. */
long th_raw_data_off(int buf);

/* The latency tracers' entries: struct ctx_switch_entry (TRACE_CTX,
 * TRACE_WAKE), hwlat_entry, osnoise_entry, timerlat_entry; offsets from
 * the entry's start, -1 when absent. */
struct th_lat_entries {
	int init;
	long ctx_prev_pid, ctx_prev_prio, ctx_prev_state, ctx_next_pid,
	     ctx_next_prio, ctx_next_state, ctx_next_cpu;
	long hw_seqnum, hw_duration, hw_outer, hw_nmi_total, hw_nmi_count,
	     hw_count, hw_ts_sec, hw_ts_nsec;
	long os_noise, os_runtime, os_max_sample, os_hw, os_nmi, os_irq,
	     os_softirq, os_thread;
	long tl_seqnum, tl_context, tl_latency;
};
const struct th_lat_entries *th_lat_entries(void);
/* timerlat_lat_context[CTX] into BUF; FALSE when there is none. */
int th_timerlat_context(int ctx, char *buf, int len);
/* The letters trace_ctxwake_print() gives the states a ctx_switch_entry
 * holds: chars[] indexed by the state itself (task_state_index()), or,
 * with by_bit, by its lowest set bit plus one (3.10's raw task state) */
struct th_task_states {
	int by_bit, n;
	char chars[32];
};
const struct th_task_states *th_task_states(void);

#pragma GCC visibility pop

/* t_show()'s line for an empty notrace hash exists (not in 3.10) */
int th_notrace_says_none(void);

#endif
