/*
 * tracehunt: a helper thread's calls back to crash's thread (handoff.h).
 * One call at a time: the helper waits for its answer.
 */
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>
#include "model/model.h"
#include "model/handoff.h"

struct th_handoff th_ho;

/* state: 0 idle, 1 posted by the helper, 2 done by crash's thread; a
 * cache line of its own, which the helper's steps do not touch */
static struct {
	int state;
	void (*fn)(void *);
	void *arg;
} th_call __attribute__((aligned(64)));

void th_wake(struct th_wake *w)
{
	/* (sequentially consistent, with the waiter's flag: either it
	 * sees this count, or this sees its flag) */
	__atomic_add_fetch(&w->seq, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&w->sleeping, __ATOMIC_SEQ_CST))
		syscall(SYS_futex, &w->seq, FUTEX_WAKE_PRIVATE, INT_MAX,
			NULL, NULL, 0);
}

void th_wait_step(struct th_wake *w, int seen, struct th_spin *sp)
{
	/* a bound on one sleep, should a wake be missed all the same */
	static const struct timespec most = { 0, 20 * 1000 * 1000 };
	unsigned long long now;

	if (++sp->n < 256) {
		__builtin_ia32_pause();
		return;
	}
	now = __rdtsc();
	if (!sp->t0)
		sp->t0 = now;
	if (now - sp->t0 < TH_SPIN_CYCLES) {
		sched_yield();
		return;
	}
	__atomic_store_n(&w->sleeping, 1, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, &w->seq, FUTEX_WAIT_PRIVATE, seen, &most, NULL, 0);
	__atomic_store_n(&w->sleeping, 0, __ATOMIC_RELAXED);
}

void th_handoff_reset(void)
{
	th_call.state = 0;
	th_call.fn = NULL;
	th_call.arg = NULL;
	th_ho.stop = FALSE;
	th_ho.serving = FALSE;
	th_ho.to_helper.seq = th_ho.to_crash.seq = 0;
	th_ho.to_helper.sleeping = th_ho.to_crash.sleeping = 0;
}

int th_handoff_call(void (*fn)(void *), void *arg)
{
	struct th_spin sp = { 0, 0 };

	if (__atomic_load_n(&th_ho.stop, __ATOMIC_ACQUIRE))
		return FALSE;
	th_call.fn = fn;
	th_call.arg = arg;
	__atomic_store_n(&th_call.state, 1, __ATOMIC_RELEASE);
	th_wake(&th_ho.to_crash);
	for (;;) {
		int seen = th_wake_seen(&th_ho.to_helper);

		if (__atomic_load_n(&th_call.state, __ATOMIC_ACQUIRE) == 2)
			break;
		if (__atomic_load_n(&th_ho.stop, __ATOMIC_ACQUIRE))
			return FALSE;
		th_wait_step(&th_ho.to_helper, seen, &sp);
	}
	th_call.state = 0;
	return TRUE;
}

void th_handoff_serve(void)
{
	if (__atomic_load_n(&th_call.state, __ATOMIC_ACQUIRE) != 1)
		return;
	th_ho.serving = TRUE;
	th_call.fn(th_call.arg);
	th_ho.serving = FALSE;
	__atomic_store_n(&th_call.state, 2, __ATOMIC_RELEASE);
	th_wake(&th_ho.to_helper);
}
