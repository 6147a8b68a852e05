/*
 * tracehunt: the model's reader of ring buffers (trace_rb.c): a trace
 * array's array_buffer, and each CPU's ring buffer read in the order of
 * the kernel's iterator.
 */
#ifndef TRACEHUNT_TRACE_RB_H
#define TRACEHUNT_TRACE_RB_H

#include "model/model.h"

/* Internal to the extension: calls between its files are direct, not
 * through the PLT (millions per "ftrace cat trace"). */
#pragma GCC visibility push(hidden)

#include "ringbuf.h"

/* ------------------------------------------------------ array_buffer --- */

/* A trace array's struct array_buffer (struct trace_buffer before v5.6). */
struct th_abuf {
	ulong addr;			/* the struct, in the trace_array */
	ulong ring;			/* ->buffer: the ring buffer */
	ulong ring_at;			/* where ->buffer is */
	ulong data;			/* ->data: percpu trace_array_cpu */
	int ring_ok, data_ok;		/* whether those could be read */
	uint64_t time_start;
};
/* TR's array_buffer (its max_buffer when MAX).  FALSE when the debuginfo
 * lacks it, or MAX and the kernel has no max buffer. */
int th_array_buffer(ulong tr, int max, struct th_abuf *ab);

/* ------------------------------------------------------- ring buffer --- */

/* A sub-buffer kept by th_rb_cpu_start_last() for the passes after it. */
struct th_rbkeep {
	ulong bpage, dpage;
	unsigned char *bytes;
};

/* Sub-buffer copies a CPU keeps at most for a helper thread. */
#define TH_RB_COPIES	4

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
	int head_cached;	/* no RB_PAGE_HEAD flag: the cached head_page
				 * (a writer moving the head at the crash) */
	struct th_pagecopy bp_copy;	/* the page of the buffer_pages */
	/* th_rb_cpu_start_last(): where it started for N (memo_n, -1 for
	 * none; memo_p 0: from the reader page), and the sub-buffers it
	 * read, kept within the ring buffer's budget so that the counting
	 * and printing passes read none of them from the dump again */
	long memo_n;
	ulong memo_p;
	int memo_late;
	int keeping;
	struct th_rbkeep *keep;
	int nkeep, capkeep, keep_hint;
	size_t *keep_left;
	/* while a helper thread reads the sub-buffers behind the reading
	 * (th_rb_copies()): NCOPY copies of them in turn, CUR the one
	 * being read; COPY_PG[i] is copy i's page as parsed, COPY_USE[i]
	 * what th_rb_copy_wait() waits for before copy i is read into */
	int ncopy, cur;
	size_t bufsz;
	unsigned char *copy[TH_RB_COPIES];
	struct rb_page copy_pg[TH_RB_COPIES];
	unsigned long copy_use[TH_RB_COPIES];
};

/* The ring buffer of an array buffer. */
struct th_rb {
	ulong trace_buffer;		/* struct trace_buffer (ring) */
	ulong array_buffer;		/* struct array_buffer */
	ulong data;			/* percpu struct trace_array_cpu */
	uint64_t time_start;
	int ncpus;
	struct th_rbcpu *cpus;		/* ncpus entries, cpu numbers inside */
	size_t keep_left;		/* bytes the CPUs may still keep */
	/* th_rb_next(): the CPUs with an entry ahead, a min-heap */
	struct th_rbcpu **heap;
	int nheap, heap_built;
	unsigned long heap_gen;		/* th_rb_gen when built */
};
/* Moves whenever a CPU is started again (the heap is then rebuilt). */
extern unsigned long th_rb_gen;

/* tr's main buffer (max buffer when MAX is set); FALSE + message. */
/* warnings when a ring buffer is not as ring_buffer_alloc() left it */
void th_rb_check(ulong ring);
/* ring_buffer_size(): nr_pages times the sub-buffer data size */
int th_rb_cpu_size(ulong ring, int cpu, ulong *bytes);
int th_rb_cpu_pages(ulong ring, int cpu, ulong *bytes, ulong *subbuf);
int th_rb_open(ulong tr, int max, struct th_rb *rb, char *err, size_t elen);
void th_rb_close(struct th_rb *rb);
/* Start (or restart) reading one CPU. */
void th_rb_cpu_start(struct th_rbcpu *c);
/* Start so that at least the last N data events are ahead: sub-buffers
 * are decoded backward from the commit page only as far as needed.  A
 * second call with the same N starts at the same place without reading
 * those sub-buffers again (kept up to TH_RB_KEEP_MAX bytes per ring
 * buffer, whatever its size: beyond that they are read again). */
#define TH_RB_KEEP_MAX	(32UL << 20)
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
/*
 * A printer reading C's records straight from its sub-buffer
 * (rb_iter_peek_quick()/rb_iter_take()): C's current event is taken, and
 * IT and PG, copies of C's iterator and page that the printer's stores
 * cannot alias (kept in registers), start there; th_rb_cpu_run_end()
 * leaves C where IT stopped, its next record for th_rb_cpu_peek().
 */
static inline void th_rb_cpu_run_begin(struct th_rbcpu *c, struct rb_iter *it,
				       struct rb_page *pg)
{
	*pg = *c->it.pg;
	*it = c->it;
	it->pg = pg;
	c->have = FALSE;
}
static inline void th_rb_cpu_run_end(struct th_rbcpu *c,
				     const struct rb_iter *it)
{
	c->it.off = it->off;
	c->it.ts = it->ts;
}

/*
 * The CPUs merged in time order as the kernel's iterator does
 * (trace_find_next_entry(): the smallest time stamp, lowest CPU on
 * ties): the CPU holding the oldest entry, or NULL; th_rb_next2() also
 * the one that holds the next oldest after it among the others (NULL:
 * none).  Between two calls only the CPU returned is consumed.
 */
/*
 * th_rb_copies - read RB's sub-buffers into N copies per CPU in turn
 * (N <= TH_RB_COPIES; 0: one buffer again, the copies freed), so that a
 * helper thread may still read the last N - 1 after the reading moved
 * on.  Before a copy is read into again, WAIT(its copy_use) returns once
 * the helper is done with it.  FALSE without the memory (nothing
 * changed).
 */
int th_rb_copies(struct th_rb *rb, int n, void (*wait)(unsigned long use));
/* Where C's next sub-buffer is read: its one buffer, or its next copy
 * once the helper is done with it (th_rb_copies()). */
unsigned char *th_rb_next_copy(struct th_rbcpu *c);
/* (trace_rb.c's) the copy of BPAGE's sub-buffer th_rb_cpu_start_last()
 * kept, or NULL; where to read a sub-buffer of SZ bytes while C keeps */
const unsigned char *th_rb_kept(struct th_rbcpu *c, ulong bpage);
unsigned char *th_rb_keep_slot(struct th_rbcpu *c, size_t sz);
struct th_rbcpu *th_rb_next(struct th_rb *rb);
struct th_rbcpu *th_rb_next2(struct th_rb *rb, struct th_rbcpu **second);
void th_rb_merge_free(struct th_rb *rb);
/* What per_cpu/cpuN/stats shows of one CPU's buffer. */
struct th_rb_stats {
	ulong entries, overrun, commit_overrun, bytes, dropped, read;
	uint64_t oldest_ts;		/* ring_buffer_oldest_event_ts() */
	uint64_t last_ts;		/* the last event's (write_stamp) */
	int have_last;
};
/* The counters of TR's main buffer for CPU; FALSE + ERR when unreadable. */
int th_rb_cpu_stats(ulong tr, int cpu, struct th_rb_stats *st, char *err,
		    size_t elen);
/* ring_buffer_time_stamp_abs() of TR's buffer; FALSE: unknown. */
int th_rb_time_stamp_abs(ulong tr, int *abs);
/* buffer_subbuf_size_kb of TR's buffer (trace_buffer.subbuf_order,
 * v6.8): TH_RB_SUBBUF_OK, or why not */
enum { TH_RB_SUBBUF_OK, TH_RB_SUBBUF_NONE, TH_RB_SUBBUF_UNREAD };
int th_rb_subbuf_kb(ulong tr, ulong *kb);
/* Offsets of struct buffer_data_page's commit and data (-1: absent). */
void th_rb_bdp_offsets(long *commit, long *data);
/* Offsets of ring_buffer_per_cpu.head_page, buffer_page.read and .page
 * (-1: absent). */
void th_rb_iter_offsets(long *pc_head, long *bp_read, long *bp_page);
/* events/header_page's overwrite line declares "char" (the format string
 * ring_buffer_print_page_header() loads says so), else "int" */
int th_rb_overwrite_is_char(void);
/* events/header_event has the "time_stamp : type == 31" line (v4.17) */
int th_rb_header_has_time_stamp(void);
/* ring_buffer_iter_empty() is 3.10's (no reader-page clause), and its
 * answer for a fresh iterator on C (1, 0, -1 unreadable) */
int th_rb_iter_empty_is_old(void);
int th_rb_cpu_iter_empty_old(const struct th_rbcpu *c);
/* Header counts like get_total_entries(). */
/* tracing_iter_reset()'s skip of what predates time_start (c->skipped),
 * and the cross-check of time_start once every CPU skipped: FALSE (and a
 * warning) when it is after every event */
void th_rb_cpu_skip_early(struct th_rb *rb, struct th_rbcpu *c);
int th_rb_check_time_start(struct th_rb *rb);
/* Once the CPUs of RB marked in STARTED (one char per rb->cpus[], NULL:
 * all) were started and skipped: each CPU's counters against the records
 * its pages gave so far, time_start against every CPU's events (the CPUs
 * not started are started for them and left as they were); a warning
 * each. */
void th_rb_check_start(struct th_rb *rb, const char *started);
void th_rb_totals(struct th_rb *rb, int cpu, ulong *entries, ulong *total);
/* Raw records of one CPU for "ftrace trace -r". */
void th_rb_cpu_raw(struct th_rbcpu *c, long max);
long th_rb_overruns(struct th_rb *rb);
/* Read every sub-buffer of one CPU without decoding ("trace -R"). */
void th_rb_cpu_read_all(struct th_rbcpu *c, ulong *subbufs, ulong *bytes);

#pragma GCC visibility pop

#endif
