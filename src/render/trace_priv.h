/*
 * tracehunt: private interface of the trace printers: the output buffer
 * and string builder (outbuf.c), code addresses named (symtext.c), the
 * printing context (trace_ctx.c), an entry's text (event_text.c), the
 * "trace" file's lines (trace_line.c), the function_graph printer
 * (trace_graph.c) and the trace commands (ftrace_trace.c, trace_dump.c).
 */
#ifndef TRACEHUNT_TRACE_PRIV_H
#define TRACEHUNT_TRACE_PRIV_H

#include "model/model.h"

/* Internal to the extension: calls between its files are direct, not
 * through the PLT (millions per "ftrace cat trace"). */
#pragma GCC visibility push(hidden)

#include "model/trace_rb.h"
#include "model/events.h"
#include "model/cmdlines.h"
#include "model/last_boot.h"
#include "printfmt.h"

/* -------------------------------------------------------- outbuf.c --- */

/*
 * The output of the trace printers: lines are assembled in place in one
 * large buffer, written to fp with one fwrite() when it fills
 * (th_ob_flush()) and at the end of the command.  Whoever writes to fp
 * directly while entries are printed flushes it first.
 */
#define TH_OB_SIZE	(32 * 1024)
struct th_ob {
	size_t n;
	char *b;		/* TH_OB_SIZE bytes (a helper thread's own
				 * buffers while it prints: trace_helper.c) */
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
/* th_ob's buffer when no helper thread prints (trace_helper.c) */
char *th_ob_own_buffer(void);

/*
 * A string built piece by piece: into the fixed buffer BUF of LEN bytes
 * (cut at its end, always NUL-terminated), or when GROW into a malloc'd
 * buffer that grows (start from TH_SB_GROW, free(buf) at the end).
 */
struct th_sb {
	char *buf;
	size_t len, pos;
	int grow;
};
#define TH_SB_GROW	{ NULL, 0, 0, 1 }
void th_sb_printf(struct th_sb *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* th_sb_printf(b, "%s", s) for the N bytes of S (no NUL among them) */
void th_sb_put(struct th_sb *b, const char *s, size_t n);

/* "00".."99" */
extern const char th_digits2[201];
/* Decimal V right-aligned in WIDTH columns padded with PAD, at P; the
 * end of what was written. */
char *th_put_udec(char *p, unsigned long long v, int width, char pad);

/* ------------------------------------------------------- symtext.c --- */

/* The texts th_sym_text() gives: seq_print_ip_sym() with sym-offset,
 * with sym-addr, or "%ps". */
enum { TH_SYMC_OFFSET = 1, TH_SYMC_ADDR = 2, TH_SYMC_PS = 4 };
/* seq_print_ip_sym() of IP into OUT; its length. */
int th_ip_sym(char *out, size_t len, ulong ip, int sym_offset, int sym_addr);
/* The text for IP in MODE (TH_SYMC_*) from the cache, its length in *LEN;
 * TMP (512 bytes) holds it when it cannot be kept. */
const char *th_sym_text(ulong ip, unsigned mode, size_t *len, char *tmp);
/* "%ps" of ADDR (th_ksym_ps) from the cache; *LEN set. */
const char *th_ksym_ps_cached(ulong addr, size_t *len);
/*
 * A session's cache of texts by key (A, B, MODE), up to MAX of them: an
 * index of pointers (open addressing, at most half full) over entries laid
 * end to end in chunks.  A first command fills it with a few thousand
 * texts; dense entries touch a few hundred KB of fresh memory where slots
 * that held the texts touched megabytes (each fresh page is a page fault,
 * about 20 us under some hypervisors).  Every kept text is followed by
 * readable bytes up to TH_TXC_SLACK from its start.
 */
#define TH_TXC_SLACK	128
struct th_txc_ent {
	ulong a, b;
	unsigned h;		/* the hash it was kept under */
	unsigned short len;
	unsigned char mode;
	char text[];		/* NUL-terminated */
};
struct th_txc {
	struct th_txc_ent **slot;
	unsigned slots, n, max;
	char *free;		/* the current chunk's unused bytes */
	size_t left;
};

static inline const struct th_txc_ent *
th_txc_find(const struct th_txc *c, unsigned h, ulong a, ulong b,
	    unsigned mode)
{
	unsigned m = c->slots - 1;
	const struct th_txc_ent *e;

	if (!c->slots)
		return NULL;
	for (h &= m; (e = c->slot[h]); h = (h + 1) & m)
		if (e->a == a && e->b == b && e->mode == mode)
			return e;
	return NULL;
}

/* Keep TEXT (N bytes and a NUL) under (A, B, MODE) of hash H, not there
 * yet: the kept copy, or NULL (the cache is full, or no memory). */
const char *th_txc_put(struct th_txc *c, unsigned h, ulong a, ulong b,
		       unsigned mode, const char *text, size_t n);

/* ----------------------------------------------------- trace_ctx.c --- */

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
	int f_tgid;			/* record-tgid: the (TGID) column */
	/* bin, hex, raw (print_bin_fmt() & co.), verbose, fields */
	int f_bin, f_hex, f_raw, f_verbose, f_fields;
	int f_userobj;			/* sym-userobj */
	/* an event's first %s printed nothing (th_print_tracepoint()) */
	int first_s_empty;
	/* latency format: the buffer's time_start and the time stamp of
	 * the entry printed after this one (trace_find_next_entry()) */
	uint64_t time_start, next_ts;
	int max;			/* the max (snapshot) buffer printed */
	int sym_flags;			/* 1 sym-offset, 2 sym-addr, 4 parent */
	uint32_t fn_args_len;		/* th_fn_args_min(0) */
	/* a boot-mapped array holding the previous boot's trace: its
	 * deltas (trace_adjust_address()), else NULL and 0 */
	struct th_last_boot *lb;
	long text_delta;
};

/* trace_adjust_address() of ADDR in T's array */
static inline ulong th_adjust(const struct th_tctx *t, ulong addr)
{
	return t->lb ? th_last_boot_adjust(t->lb, addr) : addr;
}

int th_tctx_init(struct th_tctx *t, ulong tr);
/* The text of the latency tracers' entries (lat_text.c); FALSE when
 * TYPE is none of theirs. */
int th_lat_entry_text(struct th_tctx *t, unsigned type, struct th_sb *b);
/* TR's trace files show its max buffer (the current tracer's print_max). */
int th_tr_prints_max(ulong tr);
void th_tctx_done(struct th_tctx *t);
/* Flag bit of the tracer options (enum trace_iterator_bits). */
int th_tflag(struct th_tctx *t, const char *bit);
/* trace_print_lat_fmt() of ENT into OUT (at least 8 bytes); its length. */
int th_lat_str(const unsigned char *ent, char *out);

/* Event type of an entry; its pid. */
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

/* The unsigned long at OFF of an entry of LEN bytes; 0 past its end (or
 * at a negative OFF: a member the kernel lacks). */
static inline ulong th_get_ul(const unsigned char *ent, uint32_t len,
			      long off)
{
	ulong v = 0;

	if (off >= 0 && (ulong)off + sizeof(ulong) <= len)
		memcpy(&v, ent + off, sizeof(ulong));
	return v;
}

/* ------------------------------------------------------- fn_args.c --- */

/* The length from which a function (GRAPH 0) or function_graph entry
 * (GRAPH 1) holds its call's argument registers; UINT32_MAX when the
 * kernel never records or prints them. */
uint32_t th_fn_args_min(int graph);
/* trace_find_mark(): a gap's or duration's mark, 3.10's two without it */
char th_find_mark(unsigned long long d);
/* print_function_args() of the call of FUNC whose entry ENT (LEN bytes)
 * holds them, "(name=value, ...)", into OUT (at least 3 bytes); its
 * length, 0 (nothing written) when the entry holds no arguments. */
size_t th_fn_args_text(ulong func, const unsigned char *ent, uint32_t len,
		       int graph, char *out, size_t outlen);

/* ---------------------------------------------------- event_text.c --- */

/* The event's text as the kernel's funcs->trace prints it, without the
 * context columns, into BUF. */
void th_event_text(struct th_tctx *t, char *buf, size_t len);
/* The print_fmt interpreter's context (%p's hashing, symbols, strings
 * and enumerators from the dump). */
extern struct pf_ctx th_pfc;
/* TRACE_RAW_DATA's type value; -1 where the kernel has none. */
long th_raw_data_type(void);

/* The room of a line in th_ob: its context columns, then its text */
enum { TH_CTX = 128, TH_TEXT = 8192 };

/* A type's tracepoint for th_tracepoint_text_at() (struct th_typeslot) */
struct th_evfmt;
struct th_tpc {
	struct th_event *e;		/* NULL: th_event_text() prints it */
	struct th_evfmt *f;		/* its compiled print_fmt */
	size_t name_len;
	int nul_free;			/* pf_nul_free() of it */
};

/* T's entry, when a tracepoint's whose print_fmt compiled (C its type's
 * slot), written at P (TH_TEXT bytes of room); its end, or NULL for
 * th_event_text(). */
char *th_tracepoint_text_at(struct th_tctx *t, const struct th_tpc *c,
			    char *p);

/* --------------------------------------------------- syscall_text.c --- */

/* The kernel's own entry types, which th_event_text() prints before it
 * looks for an event of the type. */
int th_type_is_core(unsigned type);

/* print_syscall_enter() or print_syscall_exit() of T's entry of event E
 * into B (th_syscall_text_at()'s long way). */
void th_print_syscall(struct th_tctx *t, struct th_event *e,
		      struct th_sb *b);
/* T's entry of TYPE, when a system call's enter or exit, written at P
 * (TH_TEXT bytes of room); its end, or NULL for th_event_text(). */
char *th_syscall_text_at(struct th_tctx *t, unsigned type, char *p);

/* A type's system call event for th_syscall_text_at() (struct
 * th_typeslot) */
struct th_sysc {
	int kind;			/* TH_EVK_SYS_ENTER or _EXIT; 0: neither */
	const struct th_syscall_meta *m;
	struct pf_sysmeta pm;		/* m as pf_syscall_enter() takes it */
	unsigned flags;			/* PF_SYS_USER, PF_SYS_OPENAT */
	struct pf_sysline line;		/* its common line, compiled */
};
/* C for E, a system call's event (C zeroed) */
void th_sysc_fill(struct th_sysc *c, struct th_event *e);

/*
 * The entry types of a trace, each resolved once to what prints its text
 * straight into the line: a system call's event or a tracepoint's
 * compiled print_fmt (a syscall or sched trace is mostly their lines, and
 * th_event_text()'s dispatch, its string builder and the strlen() of the
 * line were a quarter of its time).  Keyed by type, direct-mapped; a
 * type that is neither is kept too, with neither.
 */
#define TH_TYPE_SLOTS 2048
struct th_typeslot {
	unsigned type;			/* 0: unused */
	struct th_sysc sc;		/* kind 0: not a system call's */
	struct th_tpc tp;		/* e NULL: not a tracepoint's */
};
extern struct th_typeslot th_typeslots[TH_TYPE_SLOTS];
void th_typeslot_fill(struct th_typeslot *s, unsigned type);

static inline const struct th_typeslot *th_typeslot_of(unsigned type)
{
	struct th_typeslot *s = &th_typeslots[type % TH_TYPE_SLOTS];

	if (s->type != type)
		th_typeslot_fill(s, type);
	return s;
}

/* The system call event of TYPE as its slot has it (kind 0: none) */
static inline const struct th_sysc *th_sysc_of(unsigned type)
{
	return &th_typeslot_of(type)->sc;
}

/* The tracepoint of TYPE as its slot has it (e NULL: none) */
static inline const struct th_tpc *th_tpc_of(unsigned type)
{
	return &th_typeslot_of(type)->tp;
}

/* pf_syscall_enter()'s flags for C's entries under T's options */
static inline unsigned th_sysc_flags(const struct th_tctx *t,
				     const struct th_sysc *c)
{
	return c->flags | (t->f_verbose ? PF_SYS_VERBOSE : 0);
}

/* pf_sysline_fits()'s flags for C's entries under T's options: its
 * compiled line is the exit's, and the enter's without them */
static inline unsigned th_sysc_line_flags(const struct th_tctx *t,
					  const struct th_sysc *c)
{
	return c->kind == TH_EVK_SYS_EXIT ? 0 : th_sysc_flags(t, c);
}

/* Whether th_sysc_line_at() prints C's entry of LEN bytes (a slot
 * without an event has no compiled line) */
static inline int th_sysc_fits(const struct th_tctx *t,
			       const struct th_sysc *c, uint32_t len)
{
	return pf_sysline_fits(&c->line, len, th_sysc_line_flags(t, c), 4096);
}

/* th_sysc_line_at() of an entry th_sysc_fits() */
static inline char *th_sysc_line_put(const struct th_sysc *c,
				     const unsigned char *ent, char *p)
{
	return pf_sysline_put(&c->line, ent,
			      (th_pfc.flags & PF_CTX_BIG_ENDIAN) != 0, p);
}

/* The compiled line of C's entry ENT of LEN bytes under T's options, at P
 * (4096 bytes of room), its end (no newline); NULL when the line takes
 * pf_syscall_enter()'s way or th_sysexit_at()'s (!th_sysc_fits()) */
static inline char *th_sysc_line_at(const struct th_tctx *t,
				    const struct th_sysc *c,
				    const unsigned char *ent, uint32_t len,
				    char *p)
{
	return th_sysc_fits(t, c, len) ? th_sysc_line_put(c, ent, p) : NULL;
}

/* -------------------------------------------------- trace_rawfmt.c --- */

/* print_bin_fmt(), print_hex_fmt() or print_raw_fmt() of T's entry of
 * TYPE, as T's bin, hex and raw flags choose, into th_ob. */
void th_print_rawfmt(struct th_tctx *t, unsigned type);

/* ---------------------------------------------------- trace_line.c --- */

/* Print one entry as the "trace" file does. */
void th_print_entry(struct th_tctx *t);
/* CPU's prefix of the context columns, loaded ahead of its run */
void th_context_prefetch(int cpu);
/* th_print_entry() of C's current entry and the entries after it in its
 * sub-buffer older than LIM (as old: while TIE), while each is the
 * function tracer's, a system call's or a tracepoint's whose line is
 * made straight; FALSE when C's entry is not. */
int th_print_run(struct th_tctx *t, struct th_rbcpu *c, uint64_t lim,
		 int tie);

/* Whether T's options print an entry of CPU by its context columns and
 * a text made without th_event_text() (th_fn_line(), th_sysc_line_at()) */
static inline int th_line_fast_on(const struct th_tctx *t, int cpu)
{
	/* (not for the previous boot's addresses: th_event_text() maps
	 * them) */
	return t->f_context && !t->f_lat_fmt && !t->lb && !t->f_bin &&
	       !t->f_hex && !t->f_raw &&
	       (!t->annotate ||
		(cpu < 64 && (t->started & (1UL << cpu))));
}
/* The same of T's entry */
static inline int th_line_fast(const struct th_tctx *t)
{
	return th_line_fast_on(t, t->cpu);
}

/*
 * A run of one CPU's entries that crash's thread found (th_helper_run())
 * and a helper thread prints (th_print_job()): the first entry, read
 * already, and the records after it in the sub-buffer.  One cache line,
 * written past the writer's cache (the reader is another CPU).
 */
struct th_job {
	const unsigned char *ent;	/* the first entry's payload */
	uint64_t ts, its;		/* its time; the iterator's after it */
	const struct rb_page *pg;	/* its sub-buffer, as parsed */
	uint32_t off, len;		/* the iterator's offset after it; its
					 * length */
	uint32_t n, cpu;		/* entries in the run; their CPU */
} __attribute__((aligned(64)));
void th_print_job(struct th_tctx *t, const struct th_job *j);

/* How th_print_run() prints an entry (th_run_takes()) */
enum { TH_RUN_NONE, TH_RUN_FN, TH_RUN_SYS, TH_RUN_TP };

/*
 * How th_print_run() prints an entry of TYPE and LEN bytes (T's options
 * th_line_fast()): the function tracer's as th_fn_line() does, a system
 * call's whose compiled line fits (*SC its slot) or a tracepoint's whose
 * print_fmt compiled (*TP its slot) as th_print_other() would;
 * TH_RUN_NONE for any other.
 */
static inline int th_run_takes(const struct th_tctx *t, unsigned type,
			       uint32_t len, const struct th_sysc **sc,
			       const struct th_tpc **tp)
{
	if (type == th_ttypes.fn)
		return len >= 8 + 2 * sizeof(ulong) && len < t->fn_args_len ?
			TH_RUN_FN : TH_RUN_NONE;
	/* (th_print_other()'s conditions for either; an entry shorter
	 * than its header is not printed) */
	if (t->f_fields || len < 8)
		return TH_RUN_NONE;
	*sc = th_sysc_of(type);
	if (th_sysc_fits(t, *sc, len))
		return TH_RUN_SYS;
	if (t->text_delta || (*sc)->kind)
		return TH_RUN_NONE;
	*tp = th_tpc_of(type);
	return (*tp)->e ? TH_RUN_TP : TH_RUN_NONE;
}


/* -------------------------------------------------- trace_helper.c --- */

/* A helper thread for RB's entries as T prints them (th_print_run()'s
 * entries), when two CPUs are there for it and th_out_guarded(); FALSE:
 * none, the caller prints them all. */
int th_helper_start(struct th_tctx *t, struct th_rb *rb);
/* th_print_run() of C's entries, handed to the helper (T: crash's
 * thread's copy of the options); FALSE when C's entry is not one;
 * TH_HELPER_LEAVE when handed, but the runs are too short for a helper
 * to pay (th_helper_end() then). */
#define TH_HELPER_LEAVE	2
int th_helper_run(const struct th_tctx *t, struct th_rbcpu *c, uint64_t lim,
		  int tie);
/* Until the helper has printed everything it was given, then th_ob is
 * crash's thread's again (until the next th_helper_run()). */
void th_helper_drain(void);
/* Whether crash's thread printed so many entries itself (each one a
 * drain) that one thread would do better. */
int th_helper_wasteful(void);
/* Everything printed, the helper joined, RB's copies gone. */
void th_helper_end(struct th_rb *rb);
/* An interrupted command's: the helper stopped and joined. */
void th_helper_abort(void);
/* On crash's thread: the buffers the helper filled, written out. */
void th_helper_write_out(void);
/* On the helper: th_ob is full; it goes to crash's thread, and th_ob is
 * another buffer. */
void th_helper_hand_out(void);
/* ftrace_trace.c: fp buffered, with the cleanup that th_helper_abort()s */
int th_out_guarded(void);

/* --------------------------------------------------- trace_graph.c --- */

void th_graph_header(struct th_tctx *t);
/* One warning per function_graph option set on TR whose output the
 * printer does not make (funcgraph-retval, funcgraph-retaddr). */
void th_graph_check_opts(struct th_tr *tr);
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
