/*
 * tracehunt: one ring-buffer entry printed as the kernel's "trace" file
 * prints it (kernel/trace/trace.c print_trace_fmt): the context columns,
 * then the event's own text, each line assembled in place in th_ob; and
 * the function tracer's entries run by run straight from a sub-buffer,
 * with their text cached per (ip, parent) pair.
 */
#include "render/trace_priv.h"
#include "model/handoff.h"
#include "model/tgid.h"
#include "model/trace_opts.h"

/* "000".."999", four bytes each: the microseconds of a time stamp in two
 * pieces (th_context_cols()). */
static char th_digits3[4000];

static void th_digits3_init(void)
{
	int i;

	for (i = 0; i < 1000; i++) {
		th_digits3[i * 4] = '0' + i / 100;
		memcpy(th_digits3 + i * 4 + 1, th_digits2 + i % 100 * 2, 2);
	}
}

/* "%16s-%-7d " of the pid's saved comm: a direct-mapped cache (the same
 * few pids name millions of entries; the dump does not change). */
#define TH_PIDCOL_CACHE 1024
static struct {
	int pid, valid, len;
	char s[40];
} th_pidcol[TH_PIDCOL_CACHE];

static const char *th_pid_column(int pid, int *len)
{
	unsigned h = (unsigned)pid % TH_PIDCOL_CACHE;

	if (!th_pidcol[h].valid || th_pidcol[h].pid != pid) {
		char comm[32];
		int n, w = th_trace_pid_width();
		size_t cl;

		th_find_cmdline(pid, comm);
		cl = strnlen(comm, sizeof(comm));
		if (cl <= 16 && pid >= 0 && w <= 12) {
			/* by hand: a new pid costs a line's printf */
			char *p = th_pidcol[h].s, *q;

			memset(p, ' ', 16 - cl);
			memcpy(p + 16 - cl, comm, cl);
			p[16] = '-';
			q = th_put_udec(p + 17, pid, 0, ' ');
			while (q - (p + 17) < w)
				*q++ = ' ';
			*q++ = ' ';
			n = q - p;
		} else
			n = snprintf(th_pidcol[h].s, sizeof(th_pidcol[h].s),
				     "%16s-%-*d ", comm, w, pid);
		if (n < 0 || n >= (int)sizeof(th_pidcol[h].s)) {
			/* cannot happen: comm is at most 15 bytes */
			*len = 0;
			return "";
		}
		th_pidcol[h].len = n;
		th_pidcol[h].pid = pid;
		th_pidcol[h].valid = TRUE;
	}
	*len = th_pidcol[h].len;
	return th_pidcol[h].s;
}

/*
 * The columns before the time stamp ("comm-pid [cpu] flags") depend on
 * the pid, the CPU and two bytes of the entry, which stay the same for
 * long runs of a CPU's entries and then mostly come back (interrupts off
 * and on, preemption counts): the last few of each CPU are kept.
 */
#define TH_PREFIX_WAYS	4
struct th_prefix {
	/* flags | pc << 8 | pid << 16 | irq-info << 48 | 1 << 49 |
	 * cpu << 50 | record-tgid << 63: one compare an entry
	 * (th_context_at()); 0: unused */
	uint64_t key;
	int len;
	char s[80];
};
static struct th_prefix_set {
	unsigned last, next;		/* the way hit last; replaced next */
	struct th_prefix w[TH_PREFIX_WAYS];
} th_prefix[64];

static void th_prefix_make(struct th_tctx *t, struct th_prefix *x, int pid,
			   uint64_t key)
{
	const char *col;
	char *p = x->s;
	int n;

	col = th_pid_column(pid, &n);
	memcpy(p, col, n);
	p += n;
	if (t->f_tgid) {
		/* trace_print_context(): "(%7d) " of trace_find_tgid() */
		int tgid = th_find_tgid(pid);

		if (tgid)
			p += snprintf(p, 16, "(%7d) ", tgid);
		else {
			memcpy(p, "(-------) ", 10);
			p += 10;
		}
	}
	/* "[%03d] " */
	*p++ = '[';
	if (t->cpu >= 0 && t->cpu < 1000) {
		*p++ = '0' + t->cpu / 100;
		memcpy(p, th_digits2 + t->cpu % 100 * 2, 2);
		p += 2;
	} else
		p += snprintf(p, 16, "%03d", t->cpu);
	*p++ = ']';
	*p++ = ' ';
	if (t->f_irq)
		p += th_lat_str(t->ent, p);
	x->len = p - x->s;
	x->key = key;
}

/* The prefix of PID and KEY on T's CPU: another kept way, or made anew
 * in place of the oldest one. */
static struct th_prefix * __attribute__((noinline))
th_prefix_find(struct th_tctx *t, struct th_prefix_set *ps, int pid,
	       uint64_t key)
{
	struct th_prefix *x;
	unsigned i;

	for (i = 0; i < TH_PREFIX_WAYS; i++) {
		x = &ps->w[i];
		if (x->key == key) {
			ps->last = i;
			return x;
		}
	}
	i = ps->next;
	ps->next = (i + 1) % TH_PREFIX_WAYS;
	ps->last = i;
	x = &ps->w[i];
	th_prefix_make(t, x, pid, key);
	return x;
}

/* CPU's last prefix, loaded ahead of a run of its entries (on many CPUs
 * the sets of the others push it out of the first-level cache) */
void th_context_prefetch(int cpu)
{
	const struct th_prefix_set *ps = &th_prefix[cpu & 63];
	uintptr_t x = (uintptr_t)&ps->w[ps->last & (TH_PREFIX_WAYS - 1)];

	__builtin_prefetch((const void *)x);
	__builtin_prefetch((const void *)(x + 64));
}

/* The bits of a prefix's key (struct th_prefix) that T's options and the
 * CPU give */
static inline uint64_t th_prefix_kc(const struct th_tctx *t, int cpu,
				    int f_irq)
{
	return (uint64_t)f_irq << 48 | 1ULL << 49 |
	       (uint64_t)(unsigned)cpu << 50 | (uint64_t)t->f_tgid << 63;
}

/*
 * The context columns of trace_print_context() into P, their end: of the
 * entry ENT at TS on CPU, with its prefix key's bits KC (th_prefix_kc())
 * and a clock that counts nanoseconds (IN_NS).  T's entry fields are set
 * from these when a prefix is made anew.  Values, not T's fields, so that
 * a caller's loop keeps them in registers across the stores into th_ob.
 */
static inline __attribute__((always_inline)) char *
th_context_at(struct th_tctx *t, char *p, const unsigned char *ent,
	      uint64_t ts, int cpu, uint64_t kc, int in_ns)
{
	/* the seconds of the last time stamp, formatted */
	static unsigned long long last_sec = ~0ULL;
	static char sec[24];
	static int sec_len;
	uint64_t key;
	struct th_prefix_set *ps = &th_prefix[cpu & 63];
	struct th_prefix *x = &ps->w[ps->last];

	/* the entry's flags, preempt count and pid (bytes 2-7) */
	memcpy(&key, ent, sizeof(key));
	key = key >> 16 | kc;
	if (x->key != key) {
		t->ent = ent;
		t->ts = ts;
		x = th_prefix_find(t, ps, th_ent_pid(ent), key);
	}
	if (x->len <= 48)
		memcpy(p, x->s, 48);
	else
		memcpy(p, x->s, x->len);
	p += x->len;
	if (in_ns) {
		/* " %5llu.%06llu" of the time in microseconds, rounded */
		unsigned long long us = (ts + 500) / 1000;
		unsigned long long s = us / 1000000;
		unsigned u = us % 1000000;

		if (s != last_sec) {
			sec[0] = ' ';
			sec_len = th_put_udec(sec + 1, s, 5, ' ') - sec;
			sec[sec_len++] = '.';
			last_sec = s;
		}
		if (sec_len <= 16)
			memcpy(p, sec, 16);
		else
			memcpy(p, sec, sec_len);
		p += sec_len;
		if (!th_digits3[0])
			th_digits3_init();
		/* four bytes each, the fourth overwritten next */
		memcpy(p, th_digits3 + u / 1000 * 4, 4);
		memcpy(p + 3, th_digits3 + u % 1000 * 4, 4);
		p += 6;
	} else {
		*p++ = ' ';
		p = th_put_udec(p, ts, 12, ' ');
	}
	*p++ = ':';
	*p++ = ' ';
	return p;
}

/* The context columns of T's entry into P; their end. */
static inline __attribute__((always_inline)) char *
th_context_cols(struct th_tctx *t, char *p)
{
	return th_context_at(t, p, t->ent, t->ts, t->cpu,
			     th_prefix_kc(t, t->cpu, t->f_irq), t->in_ns);
}

static void th_print_other(struct th_tctx *t, unsigned type);

/*
 * The function tracer's text after the context columns, "ip <-parent\n",
 * is the same for a few thousand (ip, parent) pairs among millions of
 * entries: kept whole for the session, keyed by the pair and the
 * sym-offset/sym-addr/print-parent bits, one lookup and one copy an
 * entry.
 */
#define TH_FNC_MAX	(1U << 14)	/* entries, at most */
static struct th_txc th_fnc = { .max = TH_FNC_MAX };

static inline unsigned th_fnc_hash(ulong ip, ulong parent, unsigned mode)
{
	return (unsigned)(((ip ^ (parent * 0xff51afd7ed558ccdUL) ^ mode) *
			   0x9e3779b97f4a7c15UL) >> 32);
}

/* th_fnc_text() of a pair not in the cache: made from the names'
 * own cache, kept when there is room.  TMP holds 1040 bytes. */
static const char *th_fnc_miss(ulong ip, ulong parent, unsigned mode,
			       size_t *len, char *tmp);

/* th_fnc_miss() of a helper thread, made on crash's thread */
struct th_fnc_call {
	ulong ip, parent;
	unsigned mode;
	size_t len;
	char *tmp;
	const char *text;
};

static void th_fnc_served(void *arg)
{
	struct th_fnc_call *c = arg;

	c->text = th_fnc_miss(c->ip, c->parent, c->mode, &c->len, c->tmp);
}

static const char * __attribute__((noinline))
th_fnc_miss(ulong ip, ulong parent, unsigned mode, size_t *len, char *tmp)
{
	static char t1[512];
	const char *s;
	size_t l, n;

	if (th_on_helper()) {
		struct th_fnc_call c = { ip, parent, mode, 0, tmp, NULL };

		if (th_handoff_call(th_fnc_served, &c)) {
			*len = c.len;
			return c.text;
		}
		/* stopped: the output is dropped */
		*len = 1;
		return "\n";
	}

	s = th_sym_text(ip, mode & 3, &l, t1);
	memcpy(tmp, s, l);
	n = l;
	if ((mode & 4) && parent) {
		memcpy(tmp + n, " <-", 3);
		s = th_sym_text(parent, mode & 3, &l, t1);
		memcpy(tmp + n + 3, s, l);
		n += 3 + l;
	}
	tmp[n++] = '\n';
	tmp[n] = '\0';
	*len = n;
	s = th_txc_put(&th_fnc, th_fnc_hash(ip, parent, mode), ip, parent,
		       mode, tmp, n);
	return s ? s : tmp;
}

/* The text of (IP, PARENT) in MODE (sym_flags), its length in *LEN.  A
 * text is followed by readable bytes up to TH_TXC_SLACK (TMP's 1040). */
static inline const char *th_fnc_text(ulong ip, ulong parent, unsigned mode,
				      size_t *len, char *tmp)
{
	const struct th_txc_ent *e = th_txc_find(&th_fnc,
						 th_fnc_hash(ip, parent, mode),
						 ip, parent, mode);

	if (e) {
		*len = e->len;
		return e->text;
	}
	return th_fnc_miss(ip, parent, mode, len, tmp);
}

/* The function tracer's line of T's entry (trace_fn_trace() after the
 * context columns), as th_print_other() makes it through
 * th_event_text(): two names of at most 511 bytes fit in TH_TEXT. */
static inline __attribute__((always_inline)) char *
th_fn_text_at(char *p, const unsigned char *ent, unsigned mode)
{
	static char tmp[1040];
	ulong ip, parent;
	const char *s;
	size_t l;

	memcpy(&ip, ent + 8, sizeof(ulong));
	memcpy(&parent, ent + 8 + sizeof(ulong), sizeof(ulong));
	s = th_fnc_text(ip, parent, mode, &l, tmp);
	/* a fixed copy when short (see th_fnc_text()) */
	if (l <= 64)
		memcpy(p, s, 64);
	else if (l <= 96)
		memcpy(p, s, 96);
	else
		memcpy(p, s, l);
	return p + l;
}

static inline __attribute__((always_inline)) void
th_fn_line(struct th_tctx *t)
{
	char *p = th_context_cols(t, th_ob_reserve(TH_CTX + TH_TEXT));

	th_ob_commit(th_fn_text_at(p, t->ent, t->sym_flags & 7));
}

/* Whether th_print_entry() prints T's entry (of TYPE) by th_fn_line(). */
static inline int th_fn_fast(const struct th_tctx *t, unsigned type)
{
	return type == th_ttypes.fn && th_line_fast(t) &&
	       t->len >= 8 + 2 * sizeof(ulong) && t->len < t->fn_args_len;
}

/* print_trace_fmt() with trace_print_context(): each line assembled in
 * place in th_ob */
void th_print_entry(struct th_tctx *t)
{
	unsigned type = th_ent_type(t->ent);

	t->idx++;
	if (th_fn_fast(t, type)) {
		th_fn_line(t);
		return;
	}
	th_print_other(t, type);
}

/* th_print_other() of a helper thread's entry, on crash's thread */
struct th_other_call {
	struct th_tctx *t;
	unsigned type;
};

static void th_other_served(void *arg)
{
	struct th_other_call *c = arg;

	th_print_other(c->t, c->type);
}

/*
 * The line of a run's entry ENT (LEN bytes at TS) that th_run_takes()
 * takes HOW (SC, TP its slots), at OUT: its end, or NULL when
 * th_tracepoint_text_at() leaves it to th_print_other().
 */
static inline __attribute__((always_inline)) char *
th_run_line(struct th_tctx *t, char *out, const unsigned char *ent,
	    uint64_t ts, uint32_t len, int cpu, uint64_t kc, int in_ns,
	    unsigned mode, int how, const struct th_sysc *sc,
	    const struct th_tpc *tp)
{
	char *q = th_context_at(t, out, ent, ts, cpu, kc, in_ns);

	if (how == TH_RUN_FN)
		return th_fn_text_at(q, ent, mode);
	if (how == TH_RUN_SYS) {
		/* (th_run_takes(): it fits) */
		q = th_sysc_line_put(sc, ent, q);
		*q++ = '\n';
		return q;
	}
	/* (the entry th_tracepoint_text_at() reads) */
	t->ent = ent;
	t->len = len;
	return how == TH_RUN_TP ? th_tracepoint_text_at(t, tp, q) : NULL;
}

/* th_print_tracepoint()'s long way (an error, a text that may have been
 * cut), as th_print_entry() takes it, for the entry ENT at TS that a run
 * reached after N entries: OUT committed, T's entry set, and the room
 * for the next line.  On a helper thread, made on crash's thread. */
static char * __attribute__((noinline))
th_run_other(struct th_tctx *t, char *out, long n, int cpu, uint64_t ts,
	     const unsigned char *ent, uint32_t len)
{
	th_ob_commit(out);
	t->idx += n;
	t->cpu = cpu;
	t->ts = ts;
	t->ent = ent;
	t->len = len;
	if (th_on_helper()) {
		struct th_other_call c = { t, th_ent_type(ent) };

		th_handoff_call(th_other_served, &c);
	} else
		th_print_other(t, th_ent_type(ent));
	return th_ob_reserve(TH_CTX + TH_TEXT);
}

/*
 * One entry of a run into th_ob at OUT (*END the buffer's end, *N the
 * run's entries so far, counted): th_run_line(), or th_run_other() for
 * the entry it leaves.  The end of what was written.
 */
static inline __attribute__((always_inline)) char *
th_run_put(struct th_tctx *t, char *out, char **end, long *n,
	   const unsigned char *ent, uint64_t ts, uint32_t len, int cpu,
	   uint64_t kc, int in_ns, unsigned mode, int how,
	   const struct th_sysc *sc, const struct th_tpc *tp)
{
	enum { LINE = TH_CTX + TH_TEXT };
	char *q;

	++*n;
	if (*end - out < LINE) {
		th_ob_commit(out);
		out = th_ob_reserve(LINE);
		/* (a helper's th_ob is another buffer then) */
		*end = th_ob.b + TH_OB_SIZE;
	}
	q = th_run_line(t, out, ent, ts, len, cpu, kc, in_ns, mode, how, sc,
			tp);
	if (q)
		return q;
	out = th_run_other(t, out, *n, cpu, ts, ent, len);
	*end = th_ob.b + TH_OB_SIZE;
	*n = 0;
	return out;
}

/*
 * th_print_entry() of C's current entry and of the entries after it in
 * its sub-buffer, read straight from the sub-buffer, while each is a
 * plain data record (rb_iter_next_quick()) that th_run_takes(), older
 * than LIM (as old: while TIE).  That is most of a function trace, of a
 * system call trace or of a tracepoint's, without a pass through
 * th_rb_cpu_peek(), the merge of the CPUs and the dispatch of
 * th_print_entry() for every entry.  FALSE, nothing done, when C's
 * current entry is not such an entry; else it is consumed (c->have
 * cleared) and the first record not taken is left for th_rb_cpu_peek().
 */
int th_print_run(struct th_tctx *t, struct th_rbcpu *c, uint64_t lim,
		 int tie)
{
	enum { LINE = TH_CTX + TH_TEXT };
	/* copies of the iterator and its page, which the stores into
	 * th_ob cannot alias: kept in registers */
	struct rb_page pg;
	struct rb_iter it;
	struct rb_event ev;
	const unsigned char *ent = c->ev.payload;
	const struct th_sysc *sc = NULL;
	const struct th_tpc *tp = NULL;
	uint64_t ts = c->ev.ts;
	uint32_t len = c->ev.len;
	unsigned mode = t->sym_flags & 7;
	int cpu = c->cpu, in_ns = t->in_ns, how;
	uint64_t kc = th_prefix_kc(t, cpu, t->f_irq);
	char *out, *end = th_ob.b + TH_OB_SIZE;
	long n = 0;

	t->cpu = cpu;
	t->ts = ts;
	t->ent = ent;
	t->len = len;
	if (!th_line_fast(t) ||
	    !(how = th_run_takes(t, th_ent_type(ent), len, &sc, &tp)))
		return FALSE;
	th_rb_cpu_run_begin(c, &it, &pg);
	out = th_ob_reserve(LINE);
	for (;;) {
		out = th_run_put(t, out, &end, &n, ent, ts, len, cpu, kc, in_ns,
				 mode, how, sc, tp);
		/* the next record, taken only if it is another such entry
		 * (th_line_fast() holds for the same CPU) */
		if (!rb_iter_peek_quick(&it, &ev) ||
		    ev.ts > lim || (ev.ts == lim && !tie) ||
		    !(how = th_run_takes(t, th_ent_type(ev.payload), ev.len,
					 &sc, &tp)))
			break;
		rb_iter_take(&it, &ev);
		ent = ev.payload;
		ts = ev.ts;
		len = ev.len;
	}
	th_ob_commit(out);
	t->idx += n;
	t->ts = ts;
	t->ent = ent;
	t->len = len;
	th_rb_cpu_run_end(c, &it);
	return TRUE;
}

/*
 * th_print_job - on the helper thread, the lines of a run that
 * th_helper_run() found: J's first entry, and J's n - 1 records after it
 * in its sub-buffer, each of them one that th_run_takes() (as
 * th_print_run() makes them, the same bytes into th_ob).
 */
void th_print_job(struct th_tctx *t, const struct th_job *j)
{
	enum { LINE = TH_CTX + TH_TEXT };
	struct rb_page pg = *j->pg;
	struct rb_iter it = { .pg = &pg, .off = j->off, .ts = j->its };
	struct rb_event ev;
	const unsigned char *ent = j->ent;
	const struct th_sysc *sc = NULL;
	const struct th_tpc *tp = NULL;
	uint64_t ts = j->ts;
	uint32_t len = j->len, k;
	unsigned mode = t->sym_flags & 7;
	int cpu = j->cpu, in_ns = t->in_ns, how;
	uint64_t kc = th_prefix_kc(t, cpu, t->f_irq);
	char *out, *end = th_ob.b + TH_OB_SIZE;
	long n = 0;

	t->cpu = cpu;
	out = th_ob_reserve(LINE);
	for (k = 0; k < j->n; k++) {
		if (k) {
			/* (th_helper_run() took it: a quick record) */
			if (!rb_iter_peek_quick(&it, &ev))
				break;
			rb_iter_take(&it, &ev);
			ent = ev.payload;
			ts = ev.ts;
			len = ev.len;
		}
		how = th_run_takes(t, th_ent_type(ent), len, &sc, &tp);
		out = th_run_put(t, out, &end, &n, ent, ts, len, cpu, kc, in_ns,
				 mode, how, sc, tp);
	}
	th_ob_commit(out);
	t->idx += n;
	t->ts = ts;
	t->ent = ent;
	t->len = len;
}

/*
 * trace_find_mark(): the mark of a gap or duration of D ns.  Before it
 * (and its '$', '@', '*' and '#' for 1 s, 100 ms, 10 ms and 1 ms: 3.10
 * has no trace_find_mark()) the function graph tracer marked only 100 us
 * with '!' and 10 us with '+'.
 */
/* trace_find_mark() is the kernel's (not 3.10's): looked up once */
static int th_have_find_mark(void)
{
	static int have = -1;

	if (have < 0)
		have = th_ksymbol("trace_find_mark") != 0;
	return have;
}

char th_find_mark(unsigned long long d)
{
	static const struct {
		unsigned long long val;
		char sym;
	} mark[] = {
		{ 1000000000ULL, '$' }, { 100000000ULL, '@' },
		{ 10000000ULL, '*' }, { 1000000ULL, '#' },
		{ 100000ULL, '!' }, { 10000ULL, '+' },
	};
	unsigned i;

	for (i = th_have_find_mark() ? 0 : 4;
	     i < sizeof(mark) / sizeof(mark[0]); i++)
		if (d > mark[i].val)
			return mark[i].sym;
	return ' ';
}

/* trace_print_lat_context(): lat_print_generic() ("%8.8s-%-7d %3d" and
 * the latency columns), or with verbose "%16s %7d %3d %d %08x %08lx " of
 * the comm, pid, CPU, flags, preempt count and iter->idx (from 0); then
 * lat_print_timestamp() of the time since time_start and of the gap to
 * the next entry, into P */
static char *th_lat_context(struct th_tctx *t, char *p)
{
	char comm[32];
	int pid = th_ent_pid(t->ent);
	unsigned long long abs_ts = t->ts - t->time_start;
	unsigned long long rel_ts = t->next_ts - t->ts;

	th_find_cmdline(pid, comm);
	/* (3.10: "%5d" and "%-5d", th_trace_pid_width()) */
	if (t->f_verbose)
		p += sprintf(p, "%16s %*d %3d %d %08x %08lx ", comm,
			     th_trace_pid_width(), pid, t->cpu, t->ent[2],
			     t->ent[3] & 0xf, t->idx - 1);
	else {
		p += sprintf(p, "%8.8s-%-*d %3d", comm, th_trace_pid_width(),
			     pid, t->cpu);
		p += th_lat_str(t->ent, p);
	}
	if (t->in_ns) {
		abs_ts = (abs_ts + 500) / 1000;
		rel_ts = (rel_ts + 500) / 1000;
	}
	if (t->f_verbose && t->in_ns)
		p += sprintf(p, "[%08llx] %llu.%03llums (+%llu.%03llums): ",
			     (unsigned long long)(t->ts + 500) / 1000,
			     abs_ts / 1000, abs_ts % 1000, rel_ts / 1000,
			     rel_ts % 1000);
	else if (t->f_verbose)
		p += sprintf(p, "[%016llx] %lld (+%lld): ",
			     (unsigned long long)t->ts, (long long)abs_ts,
			     (long long)rel_ts);
	else if (t->in_ns)
		/* 3.10's lat_print_timestamp() (no trace_find_mark()):
		 * '!' past preempt_mark_thresh_us (100), '+' past 1 us */
		p += sprintf(p, " %4lluus%c: ", abs_ts,
			     th_have_find_mark() ?
			     th_find_mark(rel_ts * 1000) : rel_ts > 100 ? '!' :
			     rel_ts > 1 ? '+' : ' ');
	else
		p += sprintf(p, " %4lld: ", (long long)abs_ts);
	return p;
}

/* th_print_entry() of everything but the function tracer's entries, out
 * of its way: the function tracer's line is most of a big buffer, and
 * made with fewer registers to save alone. */
static void __attribute__((noinline))
th_print_other(struct th_tctx *t, unsigned type)
{
	char *p, *line;

	th_trace_types();	/* th_ttypes below */
	/* print_trace_line(): printk-msg-only prints the bare message */
	if ((type == th_ttypes.bputs || type == th_ttypes.bprint ||
	     type == th_ttypes.print) && t->f_printk_msgonly) {
		line = th_ob_reserve(TH_TEXT);
		t->msg_only = TRUE;
		th_event_text(t, line, TH_TEXT);
		t->msg_only = FALSE;
		th_ob_commit(line + strlen(line));
		return;
	}
	if (t->f_bin || t->f_hex || t->f_raw) {
		th_print_rawfmt(t, type);
		return;
	}
	/* test_cpu_buff_start() */
	if (t->annotate && t->cpu < 64 && !(t->started & (1UL << t->cpu))) {
		t->started |= 1UL << t->cpu;
		if (t->idx > 1) {
			line = th_ob_reserve(64);
			th_ob_commit(line + sprintf(line, "##### CPU %u buffer "
						    "started ####\n", t->cpu));
		}
	}
	p = th_ob_reserve(TH_CTX + TH_TEXT);
	if (t->f_context && t->f_lat_fmt)
		p = th_lat_context(t, p);
	else if (t->f_context) {
		p = th_context_cols(t, p);
		/* a system call's line, most of a syscall trace, and a
		 * tracepoint's: straight into the line (th_by_fields() and
		 * th_adjust() leave such an entry alone without these) */
		if (!t->f_fields && !t->lb &&
		    ((line = th_syscall_text_at(t, type, p)) != NULL ||
		     (!t->text_delta &&
		      (line = th_tracepoint_text_at(t, th_tpc_of(type),
						    p)) != NULL))) {
			th_ob_commit(line);
			return;
		}
	}
	th_event_text(t, p, TH_TEXT);
	/* fputs() of the text: up to its first NUL */
	th_ob_commit(p + strlen(p));
}
