/*
 * Fuzz target: lib/walk.c over a fuzzed memory image.
 * Input: byte 0 (bits 0-1: stop = 0, the first node, the image base or the
 * first word; bit 2: every pointer valid; bit 3: the rbtree walk instead,
 * right and left children at +8 and +16 of each node), byte 1: max
 * nodes, then the image: 8-byte little-endian words at BASE.  The walk
 * starts at the first word.
 */
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include "walk.h"

#define BASE 0xffff888000001000ULL

struct img {
	const uint8_t *p;
	size_t len;
	int all_valid;
};

static int rd(void *ctx, uint64_t addr, uint64_t *val)
{
	const struct img *m = ctx;

	if (addr < BASE || addr - BASE > m->len || m->len - (addr - BASE) < 8)
		return 0;
	memcpy(val, m->p + (addr - BASE), 8);
	return 1;
}

static int valid(void *ctx, uint64_t addr)
{
	const struct img *m = ctx;

	if (m->all_valid)
		return 1;
	/* canonical kernel half, not NULL */
	return addr >= 0xffff800000000000ULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct img m;
	struct lw_result r;
	uint64_t start, stop, v;
	long max, i;

	if (size < 10)
		return 0;
	m.all_valid = data[0] & 4;
	max = data[1];
	m.p = data + 2;
	m.len = size - 2;
	if (!rd(&m, BASE, &start))
		return 0;
	switch (data[0] & 3) {
	case 0: stop = 0; break;
	case 1: stop = start; break;
	case 2: stop = BASE; break;
	default: stop = rd(&m, BASE + 8, &v) ? v : 0; break;
	}
	if (data[0] & 8 ?
	    lw_rb_walk(start, 16, 8, max, rd, valid, &m, &r) :
	    lw_walk(start, stop, max, rd, valid, &m, &r)) {
		lw_free(&r);
		return 0;
	}
	if (r.n < 0 || r.n > (max > 0 ? max : 0) + 1)
		__builtin_trap();
	if (!r.err && r.n && r.ent == NULL)
		__builtin_trap();
	/* No node appears twice. */
	for (i = 0; i < r.n && i < 64; i++) {
		long j;

		for (j = i + 1; j < r.n; j++)
			if (r.ent[i] == r.ent[j])
				__builtin_trap();
	}
	lw_free(&r);
	return 0;
}
