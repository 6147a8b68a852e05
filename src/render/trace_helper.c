/*
 * tracehunt: "cat trace" on two CPUs.  Crash's thread reads the
 * sub-buffers, merges the CPUs and finds each run of a CPU's entries (as
 * th_print_run() would print it); a helper thread makes the runs' lines
 * (th_print_job()) into buffers of its own, which crash's thread writes
 * to fp in order.
 *
 * - The runs go through a ring of jobs, one cache line each, published
 *   in batches; a sub-buffer is read into one of a few copies per CPU in
 *   turn, and a copy is read into again only once the helper is done
 *   with every run that reads it (th_rb_copies()).
 * - The helper calls nothing of crash's or gdb's: what it misses (a
 *   symbol's name, a string or an event's format from the dump, a line
 *   that takes th_print_other()'s long way, a warning) is made on crash's
 *   thread through model/handoff.c, which crash's thread serves between
 *   two runs and whenever it waits.
 * - Crash's thread prints nothing while the helper prints: an entry it
 *   prints itself (one the runs do not take), a warning and an event
 *   slot it replaces wait until the helper has done all it was given
 *   (th_helper_drain()), as the lines of one thread would have them.
 * - Each thread waits for the other by spinning a while, then sleeping
 *   on a futex until the other publishes (th_wait_step(), th_wake():
 *   model/handoff.h), so a thread that waits long, or shares its CPU
 *   with the one it waits for, gives that CPU up.
 * - An interrupted command (SIGINT, an error's longjmp) stops and joins
 *   the helper from th_helper_abort(), which th_out_end() calls before
 *   fp goes back; the helper blocks every signal, so crash's thread gets
 *   them as before.
 */
#define _GNU_SOURCE		/* sched_getaffinity(), CPU_COUNT() */
#include <immintrin.h>
#include <signal.h>
#include "render/trace_priv.h"
#include "model/handoff.h"
#include "model/tgid.h"
#include "model/trace_opts.h"

/*
 * The thread functions by their first versions: glibc 2.34 moved them
 * from libpthread into libc under new ones, which the older suites'
 * crash (bullseye: glibc 2.31, without libpthread) cannot give.  With
 * these, and libpthread needed (make links it), the one build loads into
 * either.
 */
__asm__(".symver pthread_create,pthread_create@GLIBC_2.2.5");
__asm__(".symver pthread_join,pthread_join@GLIBC_2.2.5");
__asm__(".symver pthread_sigmask,pthread_sigmask@GLIBC_2.2.5");

#define TH_JOBS		4096	/* a power of two */
#define TH_JOB_BATCH	32	/* jobs published at once */
/* the copies of every CPU's sub-buffers, at most */
#define TH_COPY_BYTES	(16UL << 20)
/* copies a CPU: enough for crash's thread to stay TH_JOBS runs ahead
 * (each a fresh page of memory to the first command: on these virtual
 * machines some 13 us apiece); fewer than TH_COPIES_MIN, no helper */
#define TH_COPIES	TH_RB_COPIES
#define TH_COPIES_MIN	3

/* the helper's output buffers: filled by the helper in turn, written to
 * fp by crash's thread (th_ob_flush()'s way) */
#define TH_OUTS		4	/* a power of two */

static struct th_job th_jobs[TH_JOBS];
static char *th_outs[TH_OUTS];
static size_t th_out_len[TH_OUTS];
/* buffers the helper handed out; written out by crash's thread */
static unsigned long th_out_pub __attribute__((aligned(64)));
static unsigned long th_out_written __attribute__((aligned(64)));
/* jobs published by crash's thread; done by the helper; each alone in
 * its cache line, as the other thread polls it */
static unsigned long th_job_head __attribute__((aligned(64)));
static unsigned long th_job_done __attribute__((aligned(64)));
static struct {
	unsigned long pushed;		/* jobs written (crash's thread) */
	unsigned long entries;		/* in the last of them */
	unsigned long drains;
	struct th_tctx *t;		/* the helper's */
	pthread_t thr;
	cpu_set_t aff;			/* crash's thread's CPUs */
	long delay_us;			/* TRACEHUNT_HELPER_DELAY */
} th_hp __attribute__((aligned(64)));

static void th_helper_publish(void)
{
	if (th_job_head != th_hp.pushed) {
		/* the jobs' streaming stores before the count */
		_mm_sfence();
		__atomic_store_n(&th_job_head, th_hp.pushed,
				 __ATOMIC_RELEASE);
		th_wake(&th_ho.to_helper);
	}
}

void th_helper_write_out(void)
{
	unsigned long pub = __atomic_load_n(&th_out_pub, __ATOMIC_ACQUIRE);

	if (th_out_written == pub)
		return;
	if (th_ob_sink)
		fflush_unlocked(fp);
	while (th_out_written < pub) {
		unsigned i = th_out_written % TH_OUTS;

		fwrite_unlocked(th_outs[i], 1, th_out_len[i],
				th_ob_sink ? th_ob_sink : fp);
		__atomic_store_n(&th_out_written, th_out_written + 1,
				 __ATOMIC_RELEASE);
	}
	th_wake(&th_ho.to_helper);
}

void th_helper_hand_out(void)
{
	unsigned long pub = th_out_pub;
	struct th_spin sp = { 0, 0 };

	th_out_len[pub % TH_OUTS] = th_ob.n;
	__atomic_store_n(&th_out_pub, pub + 1, __ATOMIC_RELEASE);
	th_wake(&th_ho.to_crash);
	/* the next buffer, once crash's thread wrote what it held */
	for (;;) {
		int seen = th_wake_seen(&th_ho.to_helper);

		if (pub + 1 - __atomic_load_n(&th_out_written,
					      __ATOMIC_ACQUIRE) < TH_OUTS ||
		    __atomic_load_n(&th_ho.stop, __ATOMIC_ACQUIRE))
			break;		/* (stopped: the output is dropped) */
		th_wait_step(&th_ho.to_helper, seen, &sp);
	}
	th_ob.b = th_outs[(pub + 1) % TH_OUTS];
	th_ob.n = 0;
}

/* crash's thread: wait until the helper has done USE jobs, serving its
 * calls and writing its output meanwhile */
static void th_helper_wait(unsigned long use)
{
	struct th_spin sp = { 0, 0 };

	if (__atomic_load_n(&th_job_done, __ATOMIC_ACQUIRE) >= use)
		return;
	th_helper_publish();
	for (;;) {
		int seen = th_wake_seen(&th_ho.to_crash);

		th_handoff_serve();
		th_helper_write_out();
		if (__atomic_load_n(&th_job_done, __ATOMIC_ACQUIRE) >= use)
			break;
		th_wait_step(&th_ho.to_crash, seen, &sp);
	}
}

static void th_helper_quiesce(void)
{
	if (!th_ho.serving) {
		th_hp.drains++;
		th_helper_wait(th_hp.pushed);
	}
	th_helper_write_out();
}

static void *th_helper_main(void *arg)
{
	unsigned long seq = 0;

	(void)arg;
	for (;;) {
		unsigned long head;
		struct th_spin sp = { 0, 0 };

		for (;;) {
			int seen = th_wake_seen(&th_ho.to_helper);

			head = __atomic_load_n(&th_job_head, __ATOMIC_ACQUIRE);
			if (head != seq)
				break;
			if (__atomic_load_n(&th_ho.stop, __ATOMIC_ACQUIRE))
				return NULL;
			th_wait_step(&th_ho.to_helper, seen, &sp);
		}
		while (seq < head) {
			if (__atomic_load_n(&th_ho.stop, __ATOMIC_RELAXED))
				return NULL;
			if (th_hp.delay_us) {
				struct timespec ts = {
					th_hp.delay_us / 1000000,
					th_hp.delay_us % 1000000 * 1000
				};

				nanosleep(&ts, NULL);
			}
			th_print_job(th_hp.t, &th_jobs[seq % TH_JOBS]);
			seq++;
			if (!(seq % TH_JOB_BATCH)) {
				__atomic_store_n(&th_job_done, seq,
						 __ATOMIC_RELEASE);
				th_wake(&th_ho.to_crash);
			}
		}
		__atomic_store_n(&th_job_done, seq, __ATOMIC_RELEASE);
		th_wake(&th_ho.to_crash);
	}
}

/* The load average of the last minute (/proc/loadavg); -1 unknown. */
static double th_load1(void)
{
	char b[64];
	const char *p;
	FILE *f = fopen("/proc/loadavg", "r");
	size_t n = f ? fread(b, 1, sizeof(b) - 1, f) : 0;

	if (f)
		fclose(f);
	b[n] = '\0';
	if (!n || b[0] < '0' || b[0] > '9')
		return -1;
	/* "1.23 ...", whatever the locale's decimal point */
	p = strchr(b, '.');
	return atoi(b) + (p && p[1] >= '0' && p[1] <= '9' ?
			  (p[1] - '0') / 10.0 : 0);
}

/*
 * Whether a helper prints: asked for (TRACEHUNT_HELPER=1; "auto": when
 * the last minute's load average is under the CPU count, as a busy make
 * check's 3 to 6 on 2 is not), and two CPUs to run on.  Not by default:
 * on these virtual machines one first command in four or so with it
 * took 2 to 3 times as long as without (docs/SCALE.md, session 16),
 * which is not understood yet: not a CPU the threads share nor time the
 * host took, and still there with waits that sleep (session 17).
 */
static int th_helper_wanted(cpu_set_t *aff)
{
	const char *e = getenv("TRACEHUNT_HELPER");
	double load;
	int ncpu;

	if (!e || (strcmp(e, "1") != 0 && strcmp(e, "auto") != 0))
		return FALSE;
	if (sched_getaffinity(0, sizeof(*aff), aff) != 0)
		return FALSE;
	ncpu = CPU_COUNT(aff);
	if (ncpu < 2)
		return FALSE;
	if (strcmp(e, "1") == 0)
		return TRUE;
	load = th_load1();
	return load >= 0 && load < ncpu;
}

int th_helper_start(struct th_tctx *t, struct th_rb *rb)
{
	sigset_t all, old;
	size_t each = 0;
	int i, ncopy;

	if (th_ho.on || !th_out_guarded() || !th_helper_wanted(&th_hp.aff))
		return FALSE;
	for (i = 0; i < rb->ncpus; i++)
		if (rb->cpus[i].bufsz > each)
			each = rb->cpus[i].bufsz;
	if (!each || !rb->ncpus)
		return FALSE;
	ncopy = TH_COPY_BYTES / (each * rb->ncpus);
	if (ncopy > TH_COPIES)
		ncopy = TH_COPIES;
	if (ncopy < TH_COPIES_MIN ||
	    !th_rb_copies(rb, ncopy, th_helper_wait))
		return FALSE;
	/* what the lines read that crash's thread loads once */
	th_savedcmd();
	th_trace_pid_width();
	if (t->f_tgid)
		th_find_tgid(0);
	for (i = 0; i < TH_OUTS; i++)
		if (!th_outs[i] && !(th_outs[i] = malloc(TH_OB_SIZE))) {
			th_rb_copies(rb, 0, NULL);
			return FALSE;
		}
	/* what crash's thread printed so far goes first */
	th_ob_flush();
	th_ob.b = th_outs[0];
	th_ob.n = 0;
	th_out_pub = th_out_written = 0;
	th_hp.t = t;
	/* (tests: a helper this much slower a run, that a SIGINT finds
	 * working) */
	th_hp.delay_us = getenv("TRACEHUNT_HELPER_DELAY") ?
			 atol(getenv("TRACEHUNT_HELPER_DELAY")) : 0;
	th_hp.pushed = th_hp.entries = th_hp.drains = 0;
	th_job_head = th_job_done = 0;
	th_handoff_reset();
	/* signals stay crash's thread's */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	i = pthread_create(&th_hp.thr, NULL, th_helper_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (i != 0) {
		th_rb_copies(rb, 0, NULL);
		th_ob.b = th_ob_own_buffer();
		return FALSE;
	}
	/* (before the first jobs are published: the helper sees these
	 * through that release) */
	th_ho.helper = th_hp.thr;
	th_ho.quiesce = th_helper_quiesce;
	__atomic_store_n(&th_ho.on, TRUE, __ATOMIC_RELEASE);
	return TRUE;
}

/* The helper stopped and joined; nothing else undone. */
static void th_helper_join(void)
{
	__atomic_store_n(&th_ho.stop, TRUE, __ATOMIC_RELEASE);
	th_wake(&th_ho.to_helper);
	pthread_join(th_hp.thr, NULL);
	th_ho.on = FALSE;
	th_ho.quiesce = NULL;
}

/* th_ob crash's thread's own buffer again, with what the helper's held */
static void th_helper_ob_back(void)
{
	char *own = th_ob_own_buffer();

	if (th_ob.b != own) {
		memcpy(own, th_ob.b, th_ob.n);
		th_ob.b = own;
	}
}

void th_helper_end(struct th_rb *rb)
{
	if (!th_ho.on)
		return;
	th_helper_quiesce();
	th_helper_join();
	th_helper_write_out();
	th_helper_ob_back();
	th_rb_copies(rb, 0, NULL);
}

void th_helper_abort(void)
{
	/* (the ring buffer went with the command's stack: its copies with
	 * it, as its other buffers; the output is dropped) */
	if (!th_ho.on)
		return;
	th_helper_join();
	th_out_written = th_out_pub;
	th_ob.n = 0;
	th_helper_ob_back();
}

void th_helper_drain(void)
{
	if (th_ho.on)
		th_helper_quiesce();
}

int th_helper_wasteful(void)
{
	/* entries crash's thread prints itself, each a wait for the
	 * helper: past one in 16 runs, one thread does better */
	return th_hp.drains > 64 && th_hp.drains * 16 > th_hp.pushed;
}

/* Runs so short that handing each over costs crash's thread about what
 * making its lines would (the function tracer's entries of a few CPUs
 * in turn: 1.2 entries a run on the big fixture): under 2 entries a run
 * in the last 512, one thread again. */
#define TH_SHORT_WINDOW	512	/* runs whose entries are counted */

static int th_helper_runs_short(void)
{
	int sh;

	if (th_hp.pushed % TH_SHORT_WINDOW)
		return FALSE;
	sh = th_hp.entries < 2 * TH_SHORT_WINDOW;
	th_hp.entries = 0;
	return sh;
}

/*
 * th_helper_run - crash's thread: th_print_run()'s run of C's entries
 * older than LIM (as old: while TIE), found and handed to the helper.
 * T is crash's thread's copy of the options.  FALSE, nothing done, when
 * C's current entry is not one th_print_run() makes; TH_HELPER_LEAVE
 * when handed over, but the runs are too short for a helper
 * (th_helper_end() next).
 */
int th_helper_run(const struct th_tctx *t, struct th_rbcpu *c, uint64_t lim,
		  int tie)
{
	struct rb_page pg;
	struct rb_iter it;
	struct rb_event ev;
	const struct th_sysc *sc = NULL;
	const struct th_tpc *tp = NULL;
	unsigned long seq = th_hp.pushed;
	struct th_job *j;
	uint32_t n = 1;

	th_handoff_serve();
	if (!th_line_fast_on(t, c->cpu) ||
	    !th_run_takes(t, th_ent_type(c->ev.payload), c->ev.len, &sc, &tp))
		return FALSE;
	if (seq - __atomic_load_n(&th_job_done, __ATOMIC_ACQUIRE) >= TH_JOBS)
		th_helper_wait(seq - TH_JOBS + 1);
	j = &th_jobs[seq % TH_JOBS];
	th_rb_cpu_run_begin(c, &it, &pg);
	/* streaming stores: the line goes to the helper's CPU without
	 * being read into this one's cache first */
	_mm_stream_si64((long long *)&j->ent, (long long)c->ev.payload);
	_mm_stream_si64((long long *)&j->ts, (long long)c->ev.ts);
	_mm_stream_si64((long long *)&j->its, (long long)it.ts);
	_mm_stream_si64((long long *)&j->pg,
			(long long)(c->ncopy > 1 ? &c->copy_pg[c->cur] :
				    &c->pg));
	_mm_stream_si32((int *)&j->off, (int)it.off);
	_mm_stream_si32((int *)&j->len, (int)c->ev.len);
	_mm_stream_si32((int *)&j->cpu, c->cpu);
	while (rb_iter_peek_quick(&it, &ev) &&
	       (ev.ts < lim || (ev.ts == lim && tie)) &&
	       th_run_takes(t, th_ent_type(ev.payload), ev.len, &sc, &tp)) {
		rb_iter_take(&it, &ev);
		n++;
	}
	_mm_stream_si32((int *)&j->n, (int)n);
	th_hp.entries += n;
	th_rb_cpu_run_end(c, &it);
	if (c->ncopy > 1)
		c->copy_use[c->cur] = seq + 1;
	th_hp.pushed = seq + 1;
	if (!(th_hp.pushed % TH_JOB_BATCH)) {
		th_helper_publish();
		th_helper_write_out();
		if (th_helper_runs_short())
			return TH_HELPER_LEAVE;
	}
	return TRUE;
}
