/*
 * tracehunt: private interface of the ring-buffer walker (trace_rb.c),
 * the event printers (trace_fmt.c, trace_graph.c) and the trace commands
 * (ftrace_trace.c).
 */
#ifndef TRACEHUNT_TRACE_PRIV_H
#define TRACEHUNT_TRACE_PRIV_H

#include "glue/commands.h"
#include "tracefs/tracefs.h"

/* Internal to the extension: calls between its files are direct, not
 * through the PLT (millions per "ftrace cat trace"). */
#pragma GCC visibility push(hidden)

#include "ringbuf.h"

/* ------------------------------------------------------ trace_rb.c --- */

/* One per-CPU buffer being read in the order of the kernel's iterator:
 * the reader page from its read offset, then head page .. commit page. */
struct th_rbcpu {
	int cpu;
	ulong cpu_buffer;		/* struct ring_buffer_per_cpu */
	ulong reader, head, commit;	/* struct buffer_page */
	ulong bpage;			/* page being decoded */
	ulong dpage;			/* its buffer_data_page */
	int on_reader;
	long pages_left;		/* bound of the walk */
	unsigned char *buf;		/* one sub-buffer */
	struct rb_page pg;
	struct rb_iter it;
	int done;
	int have;			/* ev holds the next data event */
	struct rb_event ev;
	long bad;			/* malformed records seen */
	ulong nr_pages;
	/* counters of the per-CPU buffer */
	ulong entries, overrun, read;
	ulong skipped;
	ulong uncommitted;		/* bytes reserved past the commit */
	int cpu_unreadable;	/* its ring_buffer_per_cpu could not be read */
	int late;		/* th_rb_cpu_start_last() left entries behind */
};

/* The ring buffer of an array buffer. */
struct th_rb {
	ulong trace_buffer;		/* struct trace_buffer (ring) */
	ulong array_buffer;		/* struct array_buffer */
	ulong data;			/* percpu struct trace_array_cpu */
	uint64_t time_start;
	int ncpus;
	struct th_rbcpu *cpus;		/* ncpus entries, cpu numbers inside */
};

/* tr's main buffer (max buffer when MAX is set); FALSE + message. */
int th_rb_open(ulong tr, int max, struct th_rb *rb, char *err, size_t elen);
void th_rb_close(struct th_rb *rb);
/* Start (or restart) reading one CPU. */
void th_rb_cpu_start(struct th_rbcpu *c);
/* Start so that at least the last N data events are ahead: sub-buffers
 * are decoded backward from the commit page only as far as needed. */
void th_rb_cpu_start_last(struct th_rbcpu *c, long n);
/* Load the next data event into c->ev (c->have); FALSE at the end. */
int th_rb_cpu_fill(struct th_rbcpu *c);
static inline int th_rb_cpu_peek(struct th_rbcpu *c)
{
	if (c->have)
		return TRUE;
	if (!c->done && rb_iter_next_quick(&c->it, &c->ev)) {
		c->have = TRUE;
		return TRUE;
	}
	return th_rb_cpu_fill(c);
}
static inline void th_rb_cpu_advance(struct th_rbcpu *c)
{
	c->have = FALSE;
}
/* Header counts like get_total_entries(). */
void th_rb_totals(struct th_rb *rb, int cpu, ulong *entries, ulong *total);
/* Raw records of one CPU for "ftrace trace -r". */
void th_rb_cpu_raw(struct th_rbcpu *c, long max);
long th_rb_overruns(struct th_rb *rb);
/* Read every sub-buffer of one CPU without decoding ("trace -R"). */
void th_rb_cpu_read_all(struct th_rbcpu *c, ulong *subbufs, ulong *bytes);

/* ----------------------------------------------------- trace_fmt.c --- */

struct th_tevent;

struct th_tctx {
	ulong tr;
	unsigned int trace_flags;
	int in_ns;			/* clock counts nanoseconds */
	int lat_cols;			/* latency columns: 4 or 5 */
	const char *tracer;		/* current tracer name */
	char tracer_name[64];
	int graph;			/* function_graph output */
	int cpu_file;			/* -1: all CPUs */
	long idx;			/* entries printed so far */
	unsigned long started;		/* annotate: CPUs seen (bitmask) */
	int annotate;
	/* the entry being printed */
	int cpu;
	uint64_t ts;
	const unsigned char *ent;
	uint32_t len;
	int msg_only;			/* print/bprint/bputs: message only */
	int notes;			/* fallback notes printed */
	void *graph_state;
	/* trace_flags bits asked per entry, resolved by th_tctx_init() */
	int f_context, f_irq, f_printk_msgonly, f_hash_ptr, f_lat_fmt;
	int sym_flags;			/* 1 sym-offset, 2 sym-addr, 4 parent */
};

int th_tctx_init(struct th_tctx *t, ulong tr);
void th_tctx_done(struct th_tctx *t);
/* Flag bit of the tracer options (enum trace_iterator_bits). */
int th_tflag(struct th_tctx *t, const char *bit);
/* Print one entry as the "trace" file does. */
void th_print_entry(struct th_tctx *t);
/* th_print_entry() of C's current entry and the function tracer's
 * entries after it in its sub-buffer older than LIM (as old: while TIE);
 * FALSE when C's entry is not the function tracer's. */
int th_print_fn_run(struct th_tctx *t, struct th_rbcpu *c, uint64_t lim,
		    int tie);
/* Pieces shared with the graph printer. */
void th_find_cmdline(int pid, char *comm);
void th_print_lat_fmt(const unsigned char *ent);
/* The same columns into OUT (at least 8 bytes); their length. */
int th_lat_str(const unsigned char *ent, char *out);
/* "%ps" of ADDR (th_ksym_ps) from a bounded per-address cache; *LEN set. */
const char *th_ksym_ps_cached(ulong addr, size_t *len);
/* Decimal V right-aligned in WIDTH columns padded with PAD, at P; the
 * end of what was written. */
char *th_put_udec(char *p, unsigned long long v, int width, char pad);
/* Latency columns include migrate-disable (else preempt_count whole). */
int th_lat_migrate(void);
/* Event type of an entry; its name; whether it is one of ours. */
static inline unsigned th_ent_type(const unsigned char *ent)
{
	return ent[0] | ent[1] << 8;
}

static inline int th_ent_pid(const unsigned char *ent)
{
	int pid;

	memcpy(&pid, ent + 4, 4);
	return pid;
}
const char *th_event_name(unsigned type);
long th_trace_type(const char *name);
/* The event's text as the kernel's funcs->trace prints it, without the
 * context columns, into BUF. */
void th_event_text(struct th_tctx *t, char *buf, size_t len);
void th_sym_plain(ulong ip, int offset, char *buf, size_t len);

/*
 * The output of the trace printers: lines are assembled in place in one
 * large buffer, written to fp with one fwrite() when it fills
 * (th_ob_flush()) and at the end of the command.  Whoever writes to fp
 * directly while entries are printed flushes it first.
 */
#define TH_OB_SIZE	(32 * 1024)
struct th_ob {
	size_t n;
	char b[TH_OB_SIZE];
};
extern struct th_ob th_ob;
/* Where th_ob_flush() writes when set: the stream under a buffered fp
 * (ftrace_trace.c's th_out_begin()), fp being flushed first. */
extern FILE *th_ob_sink;
void th_ob_flush(void);
/* Drop what an interrupted command left. */
void th_ob_reset(void);
/* Room for NEED (<= TH_OB_SIZE) bytes at the returned pointer; what was
 * written there is kept by th_ob_commit(its end). */
static inline char *th_ob_reserve(size_t need)
{
	if (TH_OB_SIZE - th_ob.n < need)
		th_ob_flush();
	return th_ob.b + th_ob.n;
}
static inline void th_ob_commit(const char *end)
{
	th_ob.n = end - th_ob.b;
}
void th_ob_put(const char *s, size_t n);

/* --------------------------------------------------- trace_graph.c --- */

void th_graph_header(struct th_tctx *t);
struct th_rbcpu *th_trace_next(struct th_rb *rb);
long th_graph_count(struct th_rb *rb,
		    int (*want)(const unsigned char *ent, void *arg), void *arg);
void th_graph_print(struct th_tctx *t, struct th_rb *rb,
		    int (*want)(const unsigned char *ent, void *arg), void *arg,
		    long skip);

/* -------------------------------------------------- ftrace_trace.c --- */

/* "trace" of TR (CPU -1) or its per_cpu/cpuCPU/trace, as "cat" prints it */
void th_trace_file(struct th_tr *tr, int cpu);

#pragma GCC visibility pop

#endif
