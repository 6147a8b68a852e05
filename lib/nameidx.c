/*
 * nameidx.c - an index of items by a pair of names (lib/nameidx.h):
 * open addressing over a power of two at least twice the items, FNV-1a
 * of both names.
 */
#include <stdlib.h>
#include <string.h>
#include "nameidx.h"

static unsigned ni_hash(const char *a, const char *b)
{
	unsigned h = 2166136261u;

	for (; *a; a++)
		h = (h ^ (unsigned char)*a) * 16777619u;
	h = (h ^ 0xffu) * 16777619u;	/* (between the two: "ab","c" is
					 * not "a","bc") */
	for (; *b; b++)
		h = (h ^ (unsigned char)*b) * 16777619u;
	return h;
}

int ni_build(struct ni_index *x, int n, ni_names_fn names, const void *arg)
{
	unsigned size = 16, h;
	const char *a, *b;
	int i;

	x->slot = NULL;
	x->mask = 0;
	x->n = n > 0 ? n : 0;
	if (n < 0)
		return 0;
	while (size < 2u * (unsigned)n && size < (1u << 30))
		size <<= 1;
	if (size < 2u * (unsigned)n ||
	    !(x->slot = calloc(size, sizeof(*x->slot))))
		return 0;
	x->mask = size - 1;
	for (i = 0; i < n; i++) {
		names(arg, i, &a, &b);
		if (!a || !b)
			continue;
		/* (the first of a pair only: a later one is never found) */
		if (ni_find(x, a, b, names, arg) >= 0)
			continue;
		for (h = ni_hash(a, b) & x->mask; x->slot[h];
		     h = (h + 1) & x->mask)
			;
		x->slot[h] = i + 1;
	}
	return 1;
}

int ni_find(const struct ni_index *x, const char *a, const char *b,
	    ni_names_fn names, const void *arg)
{
	const char *ia, *ib;
	unsigned h;
	int i;

	if (!a || !b)
		return -1;
	if (!x->slot) {
		for (i = 0; i < x->n; i++) {
			names(arg, i, &ia, &ib);
			if (ia && ib && strcmp(ia, a) == 0 &&
			    strcmp(ib, b) == 0)
				return i;
		}
		return -1;
	}
	/* (at most half full: an empty slot ends every probe) */
	for (h = ni_hash(a, b) & x->mask; x->slot[h]; h = (h + 1) & x->mask) {
		names(arg, x->slot[h] - 1, &ia, &ib);
		if (strcmp(ia, a) == 0 && strcmp(ib, b) == 0)
			return x->slot[h] - 1;
	}
	return -1;
}

void ni_free(struct ni_index *x)
{
	free(x->slot);
	x->slot = NULL;
	x->mask = 0;
	x->n = 0;
}
