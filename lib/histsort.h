/*
 * tracehunt: the order a hist file lists its entries in:
 * tracing_map_sort_entries() (kernel/trace/tracing_map.c) over the
 * kernel's heapsort (lib/sort.c), on the raw bytes of the entries.
 * Crash-free, so the sort (whose order on equal keys is the heapsort's
 * own, not a stable one) is unit-tested.
 */
#ifndef TRACEHUNT_HISTSORT_H
#define TRACEHUNT_HISTSORT_H

#include <stddef.h>
#include <stdint.h>

/* The tracing_map_cmp_fn_t of a field (tracing_map.c) */
enum hs_cmp {
	HS_CMP_NONE, HS_CMP_SUM, HS_CMP_STRING,
	HS_CMP_S64, HS_CMP_U64, HS_CMP_S32, HS_CMP_U32,
	HS_CMP_S16, HS_CMP_U16, HS_CMP_S8, HS_CMP_U8,
};

/* lib/sort.c's heapsort, as each kernel has it */
enum hs_algo {
	HS_HEAP_CLASSIC,	/* the bottom-up heapsort (v5.1 to v6.10) */
	HS_HEAP_V6_11,		/* the series of v6.11: a strict compare in
				 * the sift-down, two elements out a round,
				 * the last two or three placed at the end */
};

#define HS_FIELDS_MAX	32

/* The map's fields, as the sort needs them */
struct hs_map {
	unsigned int key_size;
	unsigned int n_fields;
	enum hs_cmp cmp[HS_FIELDS_MAX];
	unsigned int offset[HS_FIELDS_MAX];	/* of key fields in the key */
	int is_key[HS_FIELDS_MAX];
};

/* One tracing_map_sort_entry */
struct hs_entry {
	const unsigned char *key;		/* key_size bytes */
	const uint64_t *sums;			/* n_fields */
	void *priv;
};

struct hs_key {
	unsigned int idx;
	int descending;
};

/* Sort E (N entries, in map index order) as tracing_map_sort_entries()
 * with KEYS (N_KEYS >= 1) and ALGO. */
void hs_sort(const struct hs_map *m, struct hs_entry *e, size_t n,
	     const struct hs_key *keys, unsigned int n_keys,
	     enum hs_algo algo);

/* The heapsort alone, on an array of N pointers (exposed for tests) */
void hs_heapsort(void **base, size_t n,
		 int (*cmp)(const void *, const void *, const void *),
		 const void *priv, enum hs_algo algo);

#endif
