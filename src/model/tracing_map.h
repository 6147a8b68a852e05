/*
 * tracehunt: a hist trigger's histogram, its struct tracing_map
 * (kernel/trace/tracing_map.[ch]): the fields, the counters and every
 * element the map array holds, read by model/tracing_map.c alone.
 */
#ifndef TRACEHUNT_MODEL_TRACING_MAP_H
#define TRACEHUNT_MODEL_TRACING_MAP_H

#include "model/model.h"
#include "histsort.h"

/* One element (tracing_map_elt) of a map entry with a key */
struct th_tmap_elt {
	ulong addr;
	unsigned char *key;		/* key_size bytes */
	uint64_t sums[HS_FIELDS_MAX];	/* fields[].sum */
	char comm[17];			/* hist_elt_data.comm, "" */
};

struct th_tmap {
	ulong addr;
	struct hs_map m;		/* fields, cmp_fns, key offsets */
	unsigned int map_size, max_elts;
	uint64_t hits, drops;
	enum hs_algo algo;		/* the kernel's heapsort */
	size_t n;
	struct th_tmap_elt *elts;	/* in map index order */
};

/* The tracing_map at MAP into T (th_tmap_free() after); FALSE when the
 * dump lacks the types or the map cannot be read (said). */
int th_tmap_read(ulong map, struct th_tmap *t);
void th_tmap_free(struct th_tmap *t);

#endif
