/*
 * th_rt: the real-time task of the latency scenario (busybox has no chrt).
 *
 *   th_rt fifo PRIO LOOPS SLEEP_US
 *   th_rt dl RUNTIME_US PERIOD_US LOOPS
 *
 * Takes SCHED_FIFO at PRIO (or SCHED_DEADLINE with RUNTIME_US of every
 * PERIOD_US), then sleeps SLEEP_US (or the rest of its period) LOOPS
 * times: each timer wakeup is one the wakeup tracers time, from the
 * wakeup to the switch to this task.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE	6
#endif

struct th_sched_attr {		/* include/uapi/linux/sched/types.h */
	uint32_t size, sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
};

static void th_sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void th_spin(long n)
{
	volatile long i;

	for (i = 0; i < n; i++)
		;
}

int main(int argc, char **argv)
{
	long loops, us, i;

	if (argc == 5 && strcmp(argv[1], "fifo") == 0) {
		struct sched_param sp = { .sched_priority = atoi(argv[2]) };

		loops = atol(argv[3]);
		us = atol(argv[4]);
		if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
			perror("th_rt: sched_setscheduler");
			return 1;
		}
	} else if (argc == 5 && strcmp(argv[1], "dl") == 0) {
		struct th_sched_attr a;

		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.sched_policy = SCHED_DEADLINE;
		a.sched_runtime = atol(argv[2]) * 1000ULL;
		a.sched_period = a.sched_deadline = atol(argv[3]) * 1000ULL;
		loops = atol(argv[4]);
		us = 0;
		if (syscall(SYS_sched_setattr, 0, &a, 0)) {
			perror("th_rt: sched_setattr");
			return 1;
		}
	} else {
		fprintf(stderr, "usage: th_rt fifo PRIO LOOPS SLEEP_US | "
			"th_rt dl RUNTIME_US PERIOD_US LOOPS\n");
		return 2;
	}
	for (i = 0; i < loops; i++) {
		th_spin(20000);
		if (us)
			th_sleep_us(us);
		else
			sched_yield();	/* SCHED_DEADLINE: wait for the next period */
	}
	return 0;
}
