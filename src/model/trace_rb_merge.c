/*
 * tracehunt: the CPUs of a ring buffer merged in time order as the
 * kernel's iterator merges them (trace_find_next_entry(): the smallest
 * time stamp, the lowest CPU on ties), through a binary min-heap of the
 * CPUs that have an entry ahead: O(log CPUs) per entry.  A scan of every
 * CPU for each entry cost 30% more per entry on 32 CPUs than on 2.
 *
 * Only the CPU at the top is consumed between two calls (its key may
 * then change either way: one sift-down puts it back); a CPU started
 * again (th_rb_gen moved) rebuilds the heap.
 */
#include "model/trace_rb.h"

unsigned long th_rb_gen;

/* a before b: older, or as old and a lower CPU (the order of rb->cpus);
 * in bit operations, not branches: which child of the heap is older is a
 * coin toss on many CPUs, that a branch mispredicts half the time */
static inline int th_rbm_less(const struct th_rbcpu *a,
			      const struct th_rbcpu *b)
{
	return (a->ev.ts < b->ev.ts) |
	       ((a->ev.ts == b->ev.ts) & ((uintptr_t)a < (uintptr_t)b));
}

static inline int th_rbm_has(struct th_rbcpu *c)
{
	return c->have || (!c->done && th_rb_cpu_peek(c));
}

static void th_rbm_down(struct th_rbcpu **h, int n, int i)
{
	struct th_rbcpu *x = h[i];

	for (;;) {
		int l = 2 * i + 1, m;

		if (l >= n)
			break;
		m = l + (l + 1 < n ? th_rbm_less(h[l + 1], h[l]) : 0);
		if (!th_rbm_less(h[m], x))
			break;
		h[i] = h[m];
		i = m;
	}
	h[i] = x;
}

static int th_rbm_build(struct th_rb *rb)
{
	int i;

	if (!rb->heap)
		rb->heap = malloc((rb->ncpus ? rb->ncpus : 1) *
				  sizeof(*rb->heap));
	if (!rb->heap)
		return FALSE;
	rb->nheap = 0;
	for (i = 0; i < rb->ncpus; i++)
		if (th_rbm_has(&rb->cpus[i]))
			rb->heap[rb->nheap++] = &rb->cpus[i];
	for (i = rb->nheap / 2 - 1; i >= 0; i--)
		th_rbm_down(rb->heap, rb->nheap, i);
	rb->heap_gen = th_rb_gen;
	rb->heap_built = TRUE;
	return TRUE;
}

/* Without memory for the heap: every CPU scanned, as before. */
static struct th_rbcpu *th_rbm_scan(struct th_rb *rb,
				    struct th_rbcpu **second)
{
	struct th_rbcpu *c, *end = rb->cpus + rb->ncpus, *best = NULL;
	struct th_rbcpu *next = NULL;

	for (c = rb->cpus; c < end; c++) {
		if (!th_rbm_has(c))
			continue;
		if (!best || th_rbm_less(c, best)) {
			next = best;
			best = c;
		} else if (!next || th_rbm_less(c, next))
			next = c;
	}
	if (second)
		*second = next;
	return best;
}

struct th_rbcpu *th_rb_next2(struct th_rb *rb, struct th_rbcpu **second)
{
	struct th_rbcpu **h;
	int n;

	if (!rb->heap_built || rb->heap_gen != th_rb_gen) {
		if (!th_rbm_build(rb))
			return th_rbm_scan(rb, second);
	} else if (rb->nheap) {
		/* the top was consumed: its next entry, or none */
		if (!th_rbm_has(rb->heap[0]))
			rb->heap[0] = rb->heap[--rb->nheap];
		if (rb->nheap > 1)
			th_rbm_down(rb->heap, rb->nheap, 0);
	}
	h = rb->heap;
	n = rb->nheap;
	if (second) {
		*second = n < 2 ? NULL : h[n == 2 ? 1 : 2 - th_rbm_less(h[1],
							       h[2])];
		/* its next record is read once the caller is done with the
		 * top's entries: from its sub-buffer, one of as many as
		 * there are CPUs, long out of the first-level cache on many
		 * CPUs; the load starts now */
		if (*second) {
			uintptr_t p = (uintptr_t)(*second)->ev.payload;

			__builtin_prefetch((const void *)p);
			__builtin_prefetch((const void *)(p + 64));
			/* and the iterator a run of its entries starts from */
			__builtin_prefetch(&(*second)->pg);
			__builtin_prefetch(&(*second)->it);
		}
	}
	return n ? h[0] : NULL;
}

struct th_rbcpu *th_rb_next(struct th_rb *rb)
{
	return th_rb_next2(rb, NULL);
}

void th_rb_merge_free(struct th_rb *rb)
{
	free(rb->heap);
	rb->heap = NULL;
	rb->nheap = 0;
	rb->heap_built = FALSE;
}
