/*
 * tracehunt: bounded, cycle-safe list walks (see walk.h).
 */
#include <stdlib.h>
#include <string.h>
#include "walk.h"

/* Visited-pointer set: open addressing, grows at half load. */
struct lw_set {
	uint64_t *slot;
	long cap;
	long n;
};

static int lw_set_add(struct lw_set *s, uint64_t v);

static int lw_set_grow(struct lw_set *s)
{
	struct lw_set o = *s;
	long i;

	s->cap = o.cap ? o.cap * 2 : 256;
	s->n = 0;
	s->slot = calloc(s->cap, sizeof(uint64_t));
	if (!s->slot) {
		*s = o;
		return -1;
	}
	for (i = 0; i < o.cap; i++)
		if (o.slot[i])
			lw_set_add(s, o.slot[i]);
	free(o.slot);
	return 0;
}

/* 1 when added, 0 when already present, -1 when out of memory.
 * V must be non-zero. */
static int lw_set_add(struct lw_set *s, uint64_t v)
{
	uint64_t h;

	if ((s->n + 1) * 2 > s->cap && lw_set_grow(s) < 0)
		return -1;
	h = (v * 0x9e3779b97f4a7c15ULL) >> 17;
	for (;;) {
		h &= s->cap - 1;
		if (s->slot[h] == v)
			return 0;
		if (!s->slot[h]) {
			s->slot[h] = v;
			s->n++;
			return 1;
		}
		h++;
	}
}

static int lw_push(struct lw_result *r, long *cap, uint64_t v)
{
	if (r->n >= *cap) {
		long ncap = *cap ? *cap * 2 : 64;
		uint64_t *n = realloc(r->ent, ncap * sizeof(uint64_t));

		if (!n)
			return -1;
		r->ent = n;
		*cap = ncap;
	}
	r->ent[r->n++] = v;
	return 0;
}

int lw_walk(uint64_t start, uint64_t stop, long max, lw_read_fn rd,
	    lw_valid_fn valid, void *ctx, struct lw_result *r)
{
	return lw_walk_at(start, stop, 0, max, rd, valid, ctx, r);
}

int lw_walk_at(uint64_t start, uint64_t stop, long next_off, long max,
	       lw_read_fn rd, lw_valid_fn valid, void *ctx,
	       struct lw_result *r)
{
	struct lw_set seen = { NULL, 0, 0 };
	uint64_t cur = start, next;
	long cap = 0;
	int ret = 0, added;

	memset(r, 0, sizeof(*r));
	if (stop && lw_set_add(&seen, stop) < 0)
		return -1;
	while (cur != stop) {
		if (!cur || !valid(ctx, cur)) {
			r->err = "invalid pointer";
			r->bad = cur;
			break;
		}
		added = lw_set_add(&seen, cur);
		if (added < 0) {
			ret = -1;
			break;
		}
		if (!added) {
			r->err = "cycle";
			r->bad = cur;
			break;
		}
		if (r->n >= max) {
			r->err = "too many entries";
			r->bad = cur;
			break;
		}
		if (!rd(ctx, cur + next_off, &next)) {
			r->err = "unreadable entry";
			r->bad = cur;
			break;
		}
		if (lw_push(r, &cap, cur) < 0) {
			ret = -1;
			break;
		}
		cur = next;
	}
	free(seen.slot);
	return ret;
}

void lw_free(struct lw_result *r)
{
	free(r->ent);
	r->ent = NULL;
	r->n = 0;
}
