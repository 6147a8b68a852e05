/*
 * tracehunt: what print_trace_header() (kernel/trace/trace.c) prints atop
 * a trace in latency format: the kernel release, the preemption model,
 * and the max-latency record of the array_buffer's CPU (trace_array_cpu:
 * saved_latency, the task, critical_start/end).  The model's one reader
 * of them (lat_header.c).
 */
#ifndef TRACEHUNT_LAT_HEADER_H
#define TRACEHUNT_LAT_HEADER_H

#include "model/model.h"

#pragma GCC visibility push(hidden)

struct th_lat_hdr {
	char release[65];		/* UTS_RELEASE */
	char model[64];			/* "desktop", "PREEMPT(lazy)", ... */
	int model_ok;			/* FALSE: the dump does not tell */
	int cpu;			/* array_buffer.cpu */
	int data_ok;			/* the fields below were read */
	ulong saved_latency;		/* ns */
	char comm[17];
	int pid, uid;
	long nice, policy, rt_priority;
	ulong critical_start, critical_end;
};

/* TR's header fields, of its max buffer when MAX (the buffer the trace
 * file shows: print_trace_header() reads iter->array_buffer); FALSE when
 * the dump lacks the structures. */
int th_lat_header(ulong tr, int max, struct th_lat_hdr *h);

/* CONFIG_PREEMPT_RT: 1 or 0. */
int th_preempt_rt(void);

#pragma GCC visibility pop

#endif
