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

/* Descend from CUR along left children, pushing each node on STACK: 0,
 * or the error that ends the walk (R->bad set), or -1 when out of
 * memory. */
static int lw_rb_left(uint64_t cur, long left_off, lw_read_fn rd,
		      lw_valid_fn valid, void *ctx, struct lw_set *seen,
		      uint64_t *stack, int *sp, struct lw_result *r)
{
	int added;

	while (cur) {
		if (!valid(ctx, cur)) {
			r->err = "invalid pointer";
			break;
		}
		added = lw_set_add(seen, cur);
		if (added < 0)
			return -1;
		if (!added) {
			r->err = "cycle";
			break;
		}
		if (*sp >= LW_RB_MAX_DEPTH) {
			r->err = "too deep";
			break;
		}
		stack[(*sp)++] = cur;
		if (!rd(ctx, cur + left_off, &cur)) {
			r->err = "unreadable entry";
			cur = stack[*sp - 1];
			break;
		}
	}
	if (r->err)
		r->bad = cur;
	return 0;
}

int lw_rb_walk(uint64_t root, long left_off, long right_off, long max,
	       lw_read_fn rd, lw_valid_fn valid, void *ctx,
	       struct lw_result *r)
{
	struct lw_set seen = { NULL, 0, 0 };
	uint64_t stack[LW_RB_MAX_DEPTH], cur = root;
	long cap = 0;
	int sp = 0, ret = 0;

	memset(r, 0, sizeof(*r));
	for (;;) {
		if (lw_rb_left(cur, left_off, rd, valid, ctx, &seen, stack,
			       &sp, r) < 0) {
			ret = -1;
			break;
		}
		if (r->err || !sp)
			break;
		cur = stack[--sp];
		if (r->n >= max) {
			r->err = "too many entries";
			r->bad = cur;
			break;
		}
		if (lw_push(r, &cap, cur) < 0) {
			ret = -1;
			break;
		}
		if (!rd(ctx, cur + right_off, &cur)) {
			r->err = "unreadable entry";
			r->bad = r->ent[r->n - 1];
			break;
		}
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
