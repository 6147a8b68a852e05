/*
 * tracehunt: tracing_map_sort_entries() (kernel/trace/tracing_map.c)
 * on raw entries, with the kernel's heapsort (lib/sort.c).  See
 * histsort.h.
 */
#include <stdlib.h>
#include <string.h>
#include "histsort.h"

/* One comparison: the map, its current sort key and whether on a key */
struct hs_ctx {
	const struct hs_map *m;
	struct hs_key key;
};

static void hs_swap(void **base, size_t i, size_t j)
{
	void *t = base[i];

	base[i] = base[j];
	base[j] = t;
}

/* The bottom-up sift of lib/sort.c: element A into the heap [A, N);
 * on equal children the left one until "lib/sort: optimize heapsort
 * for equal elements in sift-down path" (v6.11), the right one since */
static void hs_sift(void **base, size_t a, size_t n,
		    int (*cmp)(const void *, const void *, const void *),
		    const void *priv, int strict)
{
	size_t b, c, d;

	for (b = a; c = 2 * b + 1, (d = c + 1) < n;)
		b = cmp(base[c], base[d], priv) >= strict ? c : d;
	if (d == n)		/* the last leaf, with no sibling */
		b = c;
	while (b != a && cmp(base[a], base[b], priv) >= 0)
		b = (b - 1) / 2;
	c = b;
	while (b != a) {
		b = (b - 1) / 2;
		hs_swap(base, b, c);
	}
}

/*
 * sort_r() of lib/sort.c in index units: the bottom-up heapsort of
 * v5.1; from v6.11 (Kuan-Wei Chiu's series: "optimize heapsort for
 * equal elements in sift-down path", "optimize heapsort with
 * double-pop variation", "optimize heapsort for handling final 2 or 3
 * elements") two elements leave the heap a round, the loop stops at
 * three and the last ones are placed after it.
 */
void hs_heapsort(void **base, size_t num,
		 int (*cmp)(const void *, const void *, const void *),
		 const void *priv, enum hs_algo algo)
{
	size_t n = num, a = num / 2, shift = 0;
	int v611 = algo == HS_HEAP_V6_11;

	if (!a)
		return;
	for (;;) {
		if (a) {
			a -= (size_t)1 << shift;
		} else if (!v611) {
			if (!--n)
				break;
			hs_swap(base, 0, n);
		} else if (n > 3) {
			hs_swap(base, 0, --n);
			shift = cmp(base[1], base[2], priv) <= 0;
			a = (size_t)1 << shift;
			hs_swap(base, a, --n);
		} else {
			break;
		}
		hs_sift(base, a, n, cmp, priv, v611);
	}
	if (!v611)
		return;
	hs_swap(base, 0, --n);
	if (n == 2 && cmp(base[0], base[1], priv) > 0)
		hs_swap(base, 0, 1);
}

static uint64_t hs_le(const unsigned char *p, unsigned int size)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < size; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* tracing_map_cmp_##type and tracing_map_cmp_atomic64: -1, 0, 1 */
static int hs_cmp_num(enum hs_cmp c, const unsigned char *pa,
		      const unsigned char *pb)
{
	static const unsigned char size[] = {
		[HS_CMP_S64] = 8, [HS_CMP_U64] = 8, [HS_CMP_S32] = 4,
		[HS_CMP_U32] = 4, [HS_CMP_S16] = 2, [HS_CMP_U16] = 2,
		[HS_CMP_S8] = 1, [HS_CMP_U8] = 1,
	};
	unsigned int sz = size[c], sh = 64 - 8 * sz;
	uint64_t a = hs_le(pa, sz), b = hs_le(pb, sz);

	if (c == HS_CMP_S64 || c == HS_CMP_S32 || c == HS_CMP_S16 ||
	    c == HS_CMP_S8) {
		int64_t sa = (int64_t)(a << sh) >> sh;
		int64_t sb = (int64_t)(b << sh) >> sh;

		return sa > sb ? 1 : sa < sb ? -1 : 0;
	}
	return a > b ? 1 : a < b ? -1 : 0;
}

/* cmp_entries_key() and cmp_entries_sum() */
static int hs_cmp_entries(const void *A, const void *B, const void *priv)
{
	const struct hs_entry *a = A, *b = B;
	const struct hs_ctx *x = priv;
	unsigned int idx = x->key.idx;
	enum hs_cmp c = x->m->cmp[idx];
	int ret;

	if (x->m->is_key[idx]) {
		const unsigned char *ka = a->key + x->m->offset[idx];
		const unsigned char *kb = b->key + x->m->offset[idx];

		if (c == HS_CMP_NONE)
			ret = 0;
		else if (c == HS_CMP_STRING)
			ret = strcmp((const char *)ka, (const char *)kb);
		else if (c == HS_CMP_SUM)
			ret = hs_cmp_num(HS_CMP_U64, ka, kb);
		else
			ret = hs_cmp_num(c, ka, kb);
	} else {
		uint64_t va = a->sums[idx], vb = b->sums[idx];

		ret = va > vb ? 1 : va < vb ? -1 : 0;
	}
	return x->key.descending ? -ret : ret;
}

/* cmp_entries_dup(): the keys' bytes (memcmp since "tracing: Fix
 * cmp_entries_dup() to respect sort() comparison rules", v6.13, taken
 * by the stable trees) */
static int hs_cmp_dup(const void *A, const void *B, const void *priv)
{
	const struct hs_entry *a = A, *b = B;
	const struct hs_ctx *x = priv;

	return memcmp(a->key, b->key, x->m->key_size);
}

/* sort_secondary() */
static void hs_secondary(struct hs_ctx *x, void **e, size_t n,
			 const struct hs_key *primary,
			 const struct hs_key *secondary, enum hs_algo algo)
{
	size_t i, start = 0, n_sub = 1;

	for (i = 0; i < n - 1; i++) {
		if (hs_cmp_entries(e[i], e[i + 1], x) == 0) {
			n_sub++;
			if (i < n - 2)
				continue;
		}
		if (n_sub < 2) {
			start = i + 1;
			n_sub = 1;
			continue;
		}
		x->key = *secondary;
		hs_heapsort(&e[start], n_sub, hs_cmp_entries, x, algo);
		x->key = *primary;
		start = i + 1;
		n_sub = 1;
	}
}

void hs_sort(const struct hs_map *m, struct hs_entry *e, size_t n,
	     const struct hs_key *keys, unsigned int n_keys,
	     enum hs_algo algo)
{
	struct hs_ctx x = { m, { 0, 0 } };
	struct hs_entry *copy;
	void **p;
	size_t i;

	if (n < 2 || !n_keys || keys[0].idx >= m->n_fields ||
	    (n_keys > 1 && keys[1].idx >= m->n_fields))
		return;
	p = malloc(n * sizeof(*p));
	if (!p)
		return;
	for (i = 0; i < n; i++)
		p[i] = &e[i];
	hs_heapsort(p, n, hs_cmp_dup, &x, algo);	/* detect_dups() */
	x.key = keys[0];
	hs_heapsort(p, n, hs_cmp_entries, &x, algo);
	if (n_keys > 1)
		hs_secondary(&x, p, n, &keys[0], &keys[1], algo);
	copy = malloc(n * sizeof(*copy));
	if (copy) {
		for (i = 0; i < n; i++)
			copy[i] = *(struct hs_entry *)p[i];
		memcpy(e, copy, n * sizeof(*copy));
		free(copy);
	}
	free(p);
}
