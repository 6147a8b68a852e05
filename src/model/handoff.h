/*
 * tracehunt: a helper thread's calls back to crash's thread.
 *
 * Crash, gdb and the dump's reads belong to crash's thread alone.  While
 * a helper thread makes trace lines (render/trace_helper.c), whatever it
 * needs of them (a symbol's name, a string in the dump, an event's
 * format, a warning written to fp) is run on crash's thread instead:
 * the helper posts the call and waits; crash's thread runs it between
 * two of its own steps (th_handoff_serve()), where nothing of its own is
 * half done.  The model's reads (core.c) hand themselves over this way,
 * so a read the helper was not meant to make is still made safely.
 */
#ifndef TRACEHUNT_HANDOFF_H
#define TRACEHUNT_HANDOFF_H

#include <pthread.h>

#pragma GCC visibility push(hidden)

/*
 * A wait for the other thread.  Most are a few microseconds (the other
 * thread is at work on another CPU and publishes its next step soon), so
 * a waiter spins first, pausing, then offering its CPU; past
 * TH_SPIN_CYCLES it sleeps on a futex until the other thread next
 * publishes (th_wake()), so that a thread left waiting long, or one that
 * shares its CPU with the thread it waits for, does not keep a CPU from
 * it.  (A sleep of a set length made each of the many short waits as
 * long as a sleep under load: docs/SCALE.md, session 16.)
 *
 * The waiter reads th_wake_seen() before it looks at what it waits for;
 * th_wait_step() then sleeps only while nothing was published since: the
 * futex compares the count it was given with the current one, and the
 * publisher bumps the count before it looks for a sleeper.
 */
struct th_wake {
	int seq;		/* bumped at each publication */
	int sleeping;		/* the waiter is in (or entering) the futex */
} __attribute__((aligned(64)));

/* cycles spun before the first sleep: some 50 us at 2.5 GHz */
#define TH_SPIN_CYCLES	(1ULL << 17)

struct th_spin {
	unsigned long long t0;	/* the wait's first step; 0 before it */
	unsigned n;
};

static inline int th_wake_seen(struct th_wake *w)
{
	return __atomic_load_n(&w->seq, __ATOMIC_ACQUIRE);
}

/* The publisher, once what it publishes is stored: the waiter woken if
 * it sleeps. */
void th_wake(struct th_wake *w);
/* The waiter: one step of its wait; SEEN is th_wake_seen() from before
 * it last found nothing to do. */
void th_wait_step(struct th_wake *w, int seen, struct th_spin *sp);

struct th_handoff {
	int on;			/* a helper thread runs */
	int stop;		/* it is to stop: calls are refused */
	int serving;		/* crash's thread runs one of its calls */
	pthread_t helper;
	/* what the helper waits on (jobs, a free output buffer, a call's
	 * answer, the stop); what crash's thread waits on (jobs done, output
	 * to write, a call to serve) */
	struct th_wake to_helper, to_crash;
	/* crash's thread, before it writes to fp while the helper prints:
	 * what the helper printed so far written out (once the helper has
	 * done all it was given, unless crash's thread serves it a call) */
	void (*quiesce)(void);
};
extern struct th_handoff th_ho;

static inline int th_on_helper(void)
{
	return th_ho.on && pthread_equal(pthread_self(), th_ho.helper);
}

/* On the helper: FN(ARG) run on crash's thread.  FALSE, not run, once
 * the helper is told to stop. */
int th_handoff_call(void (*fn)(void *), void *arg);
/* On crash's thread: run the helper's pending call, if any. */
void th_handoff_serve(void);
/* On crash's thread: the helper's output so far written out, before
 * crash's thread prints. */
static inline void th_handoff_quiesce(void)
{
	if (th_ho.on && th_ho.quiesce && !th_on_helper())
		th_ho.quiesce();
}
/* Reset before a helper starts. */
void th_handoff_reset(void);

#pragma GCC visibility pop

#endif
