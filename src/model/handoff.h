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
#include <sched.h>

#pragma GCC visibility push(hidden)

/* One step of a wait for the other thread: a pause, and after a while
 * the CPU offered to whatever else waits for it (the helper runs only
 * where a CPU was idle: render/trace_helper.c; a sleep here would make
 * each of the many short waits as long as a sleep) */
static inline void th_spin_wait(unsigned *spins)
{
	if (++*spins < 256)
		__builtin_ia32_pause();
	else
		sched_yield();
}

struct th_handoff {
	int on;			/* a helper thread runs */
	int stop;		/* it is to stop: calls are refused */
	int serving;		/* crash's thread runs one of its calls */
	pthread_t helper;
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
