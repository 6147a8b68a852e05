/*
 * tracehunt: what the kernel's iterator and the trace header count of a
 * ring buffer read by trace_rb.c: the entries before time_start it skips
 * (tracing_iter_reset()), get_total_entries() and the overruns.
 */
#include "model/trace_rb.h"

/**
 * th_rb_cpu_skip_early - skip C's events older than RB's time_start, as
 * tracing_iter_reset() does; their number in c->skipped
 * @rb: the ring buffer
 * @c: one of its CPUs, started
 */
void th_rb_cpu_skip_early(struct th_rb *rb, struct th_rbcpu *c)
{
	c->skipped = 0;
	while (th_rb_cpu_peek(c) && c->ev.ts < rb->time_start) {
		c->skipped++;
		th_rb_cpu_advance(c);
	}
}

/**
 * th_rb_check_time_start - time_start against the events, after
 * th_rb_cpu_skip_early() on every CPU of RB
 * @rb: the ring buffer
 *
 * tracing_reset_online_cpus() empties the buffers before it sets
 * time_start: only a racing write can predate it, never all.  Returns
 * FALSE (with the warning) when time_start is after every event.
 */
int th_rb_check_time_start(struct th_rb *rb)
{
	long skipped = 0;
	int i, left = FALSE;

	for (i = 0; i < rb->ncpus; i++) {
		skipped += rb->cpus[i].skipped;
		left |= th_rb_cpu_peek(&rb->cpus[i]);
	}
	if (skipped && !left) {
		th_damaged("array_buffer", rb->array_buffer, "time_start %llu "
			   "is after all %ld events",
			   (unsigned long long)rb->time_start, skipped);
		return FALSE;
	}
	return TRUE;
}

/* get_total_entries_cpu(), summed over RB's CPUs (CPU < 0) or of one */
void th_rb_totals(struct th_rb *rb, int cpu, ulong *entries, ulong *total)
{
	int i;

	*entries = *total = 0;
	for (i = 0; i < rb->ncpus; i++) {
		struct th_rbcpu *c = &rb->cpus[i];
		ulong count;

		if (cpu >= 0 && c->cpu != cpu)
			continue;
		count = c->entries - (c->overrun + c->read);
		if (c->skipped) {
			count -= c->skipped;
			*total += count;
		} else
			*total += count + c->overrun;
		*entries += count;
	}
}

long th_rb_overruns(struct th_rb *rb)
{
	long n = 0;
	int i;

	for (i = 0; i < rb->ncpus; i++)
		n += rb->cpus[i].overrun;
	return n;
}

/*
 * What the counters of C say its buffer holds (rb_num_of_entries()) against
 * what its committed pages gave so far: the events skipped before
 * time_start and the one ahead.  rb_commit() counts an event in entries
 * before rb_end_commit() moves the commit over it, and an overwritten page
 * goes to overrun only as the head moves past it: the pages from the head
 * to the commit never hold more than the counters say, but while a writer
 * moves the head (no RB_PAGE_HEAD flag: the cached head_page, maybe
 * behind) they may.
 */
static void th_rb_check_counts(struct th_rbcpu *c)
{
	ulong n, seen;

	if (c->cpu_unreadable || c->head_cached ||
	    c->overrun + c->read < c->overrun ||
	    c->entries < c->overrun + c->read)
		return;		/* th_rb_cpu_plausible() judged those */
	n = c->entries - (c->overrun + c->read);
	seen = c->skipped + (th_rb_cpu_peek(c) ? 1 : 0);
	if (n >= seen)
		return;
	th_damaged("ring_buffer_per_cpu", c->cpu_buffer, "entries %lu - "
		   "overrun %lu - read %lu: %lu in the buffer, but its "
		   "committed pages hold %s%lu", c->entries, c->overrun,
		   c->read, n, c->late || c->have ? "at least " : "", seen);
}

void th_rb_check_start(struct th_rb *rb, const char *started)
{
	ulong *skipped = NULL;
	int i;

	/* the others are started for the checks (the header counts every
	 * CPU), their skipped counts kept: get_total_entries() reads
	 * trace_array_cpu.skipped_entries of every CPU */
	if (started && !(skipped = calloc(rb->ncpus, sizeof(*skipped))))
		started = NULL;
	for (i = 0; i < rb->ncpus; i++) {
		struct th_rbcpu *c = &rb->cpus[i];

		if (skipped && !started[i]) {
			skipped[i] = c->skipped;
			th_rb_cpu_start(c);
			th_rb_cpu_skip_early(rb, c);
		}
		th_rb_check_counts(c);
	}
	th_rb_check_time_start(rb);
	for (i = 0; skipped && i < rb->ncpus; i++) {
		struct th_rbcpu *c = &rb->cpus[i];

		if (started[i])
			continue;
		c->skipped = skipped[i];
		c->done = TRUE;
		c->have = FALSE;
	}
	free(skipped);
}
