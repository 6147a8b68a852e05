/*
 * tracehunt: private declarations of ftrace_files*.c.
 */
#ifndef TRACEHUNT_FTRACE_FILES_H
#define TRACEHUNT_FTRACE_FILES_H

#include "model/model.h"

#define FF_MAX_TRACERS	64
#define FF_MAX_CPUS	NR_CPUS

/* One tracer option: name and whether its bit is set. */
struct ff_opt {
	char name[64];
	int set;
};

/* An ftrace_hash read from the dump: entries in bucket order. */
struct ff_hash {
	ulong addr;
	ulong size_bits, count, flags;
	ulong *ip;		/* GETBUF'd, bucket order */
	ulong *ent;		/* the ftrace_func_entry of each ip */
	long n;
};

/* tracer.c: every tracer on trace_types, in list order; -1 without it */
int ff_tracers(ulong *out, int max);
/* trace_ok_for_array() */
int ff_tracer_ok(struct th_tr *tr, ulong t);
/* tracer.name, or "?ADDR" */
char *ff_tracer_name(ulong t, char *buf, int len);
/* trace_array.current_trace, 0 when unreadable */
ulong ff_current_tracer(struct th_tr *tr);

/* tracer_tracing_is_on(): 1, 0, or -1 when unreadable. */
int ff_is_on(struct th_tr *tr);
/* ring_buffer_expanded (global, or per array where the kernel keeps it). */
int ff_expanded(struct th_tr *tr);
ulong ff_trace_buf_size(void);
/* per_cpu_ptr(tr->array_buffer.data, cpu)->entries */
int ff_cpu_entries(struct th_tr *tr, int cpu, ulong *entries);
/* for_each_tracing_cpu(): the CPUs of tracing_buffer_mask */
int ff_tracing_cpus(int *cpus, int max);
int ff_tracing_cpu(int cpu);

/* Elements of a global array and the size of one, or -1. */
long ff_array_info(const char *sym, long *stride);

/* trace_event_call -> class->system and trace_event_name() */
void ff_event_names(ulong call, char *sys, int slen, char *name, int nlen);

/* trace_array.ops, 0 when none or unreadable */
ulong ff_tr_ops(struct th_tr *tr);
ulong ff_ops_hash(ulong ops, int notrace);
int ff_hash_read(ulong hash, struct ff_hash *h);
int ff_hash_empty(const struct ff_hash *h);
void ff_hash_free(struct ff_hash *h);
/* ips of the dyn_ftrace records (ftrace_pages order) in the hash; -1 when
 * the pages cannot be walked.  *ips GETBUF'd (or NULL). */
long ff_records_in_hash(const struct ff_hash *h, ulong **ips);
/* print_rec(): "name" or "name [module]" */
char *ff_print_rec(ulong ip, char *buf, size_t len);

#endif
