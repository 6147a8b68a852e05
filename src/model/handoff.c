/*
 * tracehunt: a helper thread's calls back to crash's thread (handoff.h).
 * One call at a time: the helper waits for its answer.
 */
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

void th_handoff_reset(void)
{
	th_call.state = 0;
	th_call.fn = NULL;
	th_call.arg = NULL;
	th_ho.stop = FALSE;
	th_ho.serving = FALSE;
}

int th_handoff_call(void (*fn)(void *), void *arg)
{
	unsigned spins = 0;

	if (__atomic_load_n(&th_ho.stop, __ATOMIC_ACQUIRE))
		return FALSE;
	th_call.fn = fn;
	th_call.arg = arg;
	__atomic_store_n(&th_call.state, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&th_call.state, __ATOMIC_ACQUIRE) != 2) {
		if (__atomic_load_n(&th_ho.stop, __ATOMIC_ACQUIRE))
			return FALSE;
		th_spin_wait(&spins);
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
}
