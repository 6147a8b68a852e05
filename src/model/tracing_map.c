/*
 * tracehunt: the model's one reader of a hist trigger's histogram:
 * struct tracing_map, its tracing_map_array of tracing_map_entry
 * {key, val}, each tracing_map_elt (key, fields[].sum) and the
 * hist_elt_data beside it (comm) -- kernel/trace/tracing_map.[ch],
 * trace_events_hist.c.  The layout is the same from v4.17 to v7.2.
 */
#include "model/tracing_map.h"

/* beyond these, damage: TRACING_MAP_BITS_MAX is 17 (2^18 entries),
 * keys are at most TRACING_MAP_KEYS_MAX stack traces of 16 longs */
#define TH_TMAP_SIZE_MAX	(1U << 18)
#define TH_TMAP_KEY_MAX		4096

static struct th_tmap_off {
	int filled, ok;
	long key_size, map_size, max_elts, elts, map, fields, n_fields,
	     key_idx, n_keys, hits, drops;
	long fld_size, fld_cmp, fld_sum, fld_offset;	/* tracing_map_field */
	long a_shift, a_size_shift, a_mask, a_n_pages, a_pages;
	int a_pages_inline;		/* pages[] in the struct */
	long ent_size, ent_key, ent_val;		/* tracing_map_entry */
	long elt_fields, elt_key, elt_priv;		/* tracing_map_elt */
	long ed_comm;					/* hist_elt_data */
	enum hs_algo algo;
} th_tmap_offsets;

static const struct th_tmap_off *th_tmap_off(void)
{
	struct th_tmap_off *o = &th_tmap_offsets;

	if (o->filled)
		return o;
	o->filled = TRUE;
	o->key_size = th_member("tracing_map", "key_size");
	o->map_size = th_member("tracing_map", "map_size");
	o->max_elts = th_member("tracing_map", "max_elts");
	o->elts = th_member("tracing_map", "elts");
	o->map = th_member("tracing_map", "map");
	o->fields = th_member("tracing_map", "fields");
	o->n_fields = th_member("tracing_map", "n_fields");
	o->key_idx = th_member("tracing_map", "key_idx");
	o->n_keys = th_member("tracing_map", "n_keys");
	o->hits = th_member("tracing_map", "hits");
	o->drops = th_member("tracing_map", "drops");
	o->fld_size = th_size("tracing_map_field");
	o->fld_cmp = th_member("tracing_map_field", "cmp_fn");
	o->fld_sum = th_member("tracing_map_field", "sum");
	o->fld_offset = th_member("tracing_map_field", "offset");
	o->a_shift = th_member("tracing_map_array", "entry_shift");
	o->a_size_shift = th_member("tracing_map_array", "entry_size_shift");
	o->a_mask = th_member("tracing_map_array", "entry_mask");
	o->a_n_pages = th_member("tracing_map_array", "n_pages");
	o->a_pages = th_member("tracing_map_array", "pages");
	/* "void **pages" became the flexible "void *pages[]" at the end
	 * of the struct (kmalloc(struct_size()), seen in 7.2's debuginfo,
	 * the commit not identified here): the member then takes no room */
	o->a_pages_inline = o->a_pages >= 0 &&
		th_size("tracing_map_array") <= o->a_pages;
	o->ent_size = th_size("tracing_map_entry");
	o->ent_key = th_member("tracing_map_entry", "key");
	o->ent_val = th_member("tracing_map_entry", "val");
	o->elt_fields = th_member("tracing_map_elt", "fields");
	o->elt_key = th_member("tracing_map_elt", "key");
	o->elt_priv = th_member("tracing_map_elt", "private_data");
	o->ed_comm = th_member("hist_elt_data", "comm");
	/*
	 * The order of equal sort keys is lib/sort.c's heapsort's, whose
	 * v6.11 rewrite (lib/histsort.c) left no member, symbol or
	 * enumerator behind; the nearest the debuginfo shows is struct
	 * trace_buffer_meta, of the ring buffer's mapping to user space
	 * ("ring-buffer: Introducing ring-buffer mapping functions", v6.10,
	 * the release before): a 6.10 kernel would be taken for a newer
	 * one.  Checked on the fixtures of every kernel of the matrix.
	 */
	o->algo = th_size("trace_buffer_meta") > 0 ? HS_HEAP_V6_11 :
		HS_HEAP_CLASSIC;
	o->ok = o->key_size >= 0 && o->map_size >= 0 && o->max_elts >= 0 &&
		o->map >= 0 && o->fields >= 0 && o->n_fields >= 0 &&
		o->key_idx >= 0 && o->n_keys >= 0 && o->hits >= 0 &&
		o->drops >= 0 && o->fld_size > 0 && o->fld_cmp >= 0 &&
		o->fld_sum >= 0 && o->fld_offset >= 0 && o->a_shift >= 0 &&
		o->a_size_shift >= 0 && o->a_mask >= 0 &&
		o->a_n_pages >= 0 && o->a_pages >= 0 && o->ent_size > 0 &&
		o->ent_key >= 0 && o->ent_val >= 0 && o->elt_fields >= 0 &&
		o->elt_key >= 0;
	return o;
}

/* The tracing_map_cmp_fn_t at FN, by its symbol */
static enum hs_cmp th_tmap_cmp(ulong fn)
{
	static const struct { const char *name; enum hs_cmp c; } cmps[] = {
		{ "tracing_map_cmp_atomic64", HS_CMP_SUM },
		{ "tracing_map_cmp_string", HS_CMP_STRING },
		{ "tracing_map_cmp_s64", HS_CMP_S64 },
		{ "tracing_map_cmp_u64", HS_CMP_U64 },
		{ "tracing_map_cmp_s32", HS_CMP_S32 },
		{ "tracing_map_cmp_u32", HS_CMP_U32 },
		{ "tracing_map_cmp_s16", HS_CMP_S16 },
		{ "tracing_map_cmp_u16", HS_CMP_U16 },
		{ "tracing_map_cmp_s8", HS_CMP_S8 },
		{ "tracing_map_cmp_u8", HS_CMP_U8 },
	};
	struct th_sym s;
	size_t i;

	if (!fn || !th_ksym_lookup(fn, &s) || s.offset)
		return HS_CMP_NONE;
	for (i = 0; i < sizeof(cmps) / sizeof(cmps[0]); i++)
		if (strcmp(s.name, cmps[i].name) == 0)
			return cmps[i].c;
	return HS_CMP_NONE;
}

/* The map's counts and fields */
static int th_tmap_head(const struct th_tmap_off *o, ulong map,
			struct th_tmap *t)
{
	unsigned int i, n_keys = 0;
	int idx;
	ulong fn = 0;

	if (!th_read_uint(map + o->key_size, &t->m.key_size, "map.key_size") ||
	    !th_read_uint(map + o->map_size, &t->map_size, "map.map_size") ||
	    !th_read_uint(map + o->max_elts, &t->max_elts, "map.max_elts") ||
	    !th_read_uint(map + o->n_fields, &t->m.n_fields, "map.n_fields") ||
	    !th_read_uint(map + o->n_keys, &n_keys, "map.n_keys") ||
	    !th_read_u64(map + o->hits, &t->hits, "map.hits") ||
	    !th_read_u64(map + o->drops, &t->drops, "map.drops"))
		return FALSE;
	if (t->m.key_size > TH_TMAP_KEY_MAX || !t->m.key_size ||
	    t->map_size > TH_TMAP_SIZE_MAX || t->m.n_fields > HS_FIELDS_MAX ||
	    n_keys > t->m.n_fields) {
		th_damaged("tracing_map", map, "key_size %u, map_size %u, "
			   "n_fields %u, n_keys %u out of range",
			   t->m.key_size, t->map_size, t->m.n_fields, n_keys);
		return FALSE;
	}
	for (i = 0; i < t->m.n_fields; i++) {
		ulong f = map + o->fields + i * o->fld_size;

		if (!th_read_ulong(f + o->fld_cmp, &fn, "map.fields[].cmp_fn") ||
		    !th_read_uint(f + o->fld_offset, &t->m.offset[i],
				  "map.fields[].offset"))
			return FALSE;
		t->m.cmp[i] = th_tmap_cmp(fn);
	}
	for (i = 0; i < n_keys; i++) {
		if (!th_read_int(map + o->key_idx + i * sizeof(int), &idx,
				 "map.key_idx[]"))
			return FALSE;
		if (idx >= 0 && (unsigned int)idx < t->m.n_fields) {
			t->m.is_key[idx] = TRUE;
			if (t->m.offset[idx] >= t->m.key_size)
				t->m.offset[idx] = 0;
		}
	}
	return TRUE;
}

/* The element at ELT into E */
static int th_tmap_elt(const struct th_tmap_off *o, const struct th_tmap *t,
		       ulong elt, struct th_tmap_elt *e)
{
	ulong fields = 0, key = 0, priv = 0, comm = 0;
	unsigned int i;

	e->addr = elt;
	if (!th_read_ulong(elt + o->elt_fields, &fields, "elt.fields") ||
	    !th_read_ulong(elt + o->elt_key, &key, "elt.key") ||
	    !fields || !key || !(e->key = calloc(1, t->m.key_size + 1)) ||
	    !th_read(key, e->key, t->m.key_size, "elt.key[]"))
		return FALSE;
	for (i = 0; i < t->m.n_fields; i++)
		if (!t->m.is_key[i] &&
		    !th_read_u64(fields + i * o->fld_size + o->fld_sum,
				 &e->sums[i], "elt.fields[].sum"))
			return FALSE;
	if (o->elt_priv >= 0 && o->ed_comm >= 0 &&
	    th_read_ulong(elt + o->elt_priv, &priv, "elt.private_data") &&
	    priv && th_read_ulong(priv + o->ed_comm, &comm, "elt_data.comm") &&
	    comm)
		th_read_cstr(comm, e->comm, sizeof(e->comm), "elt_data.comm");
	return TRUE;
}

/* Each entry of the map array with a key and an element, in index order
 * (tracing_map_sort_entries()) */
static int th_tmap_entries(const struct th_tmap_off *o, ulong arr,
			   struct th_tmap *t)
{
	unsigned int shift = 0, size_shift = 0, mask = 0, n_pages = 0, idx;
	ulong pages = 0, page = 0, val = 0;
	unsigned int key = 0;

	if (!th_read_uint(arr + o->a_shift, &shift, "map_array.entry_shift") ||
	    !th_read_uint(arr + o->a_size_shift, &size_shift,
			  "map_array.entry_size_shift") ||
	    !th_read_uint(arr + o->a_mask, &mask, "map_array.entry_mask") ||
	    !th_read_uint(arr + o->a_n_pages, &n_pages, "map_array.n_pages"))
		return FALSE;
	if (o->a_pages_inline)
		pages = arr + o->a_pages;
	else if (!th_read_ulong(arr + o->a_pages, &pages, "map_array.pages"))
		return FALSE;
	if (shift > 20 || size_shift > 12 || !pages || n_pages > 4096)
		return FALSE;
	t->elts = calloc(t->max_elts ? t->max_elts : 1, sizeof(*t->elts));
	if (!t->elts)
		return FALSE;
	for (idx = 0; idx < t->map_size; idx++) {
		ulong ent;

		if ((idx >> shift) >= n_pages)
			return FALSE;
		if (!th_read_ulong(pages + (idx >> shift) * sizeof(ulong),
				   &page, "map_array.pages[]") || !page)
			return FALSE;
		ent = page + ((ulong)(idx & mask) << size_shift);
		if (!th_read_uint(ent + o->ent_key, &key, "map_entry.key") ||
		    !th_read_ulong(ent + o->ent_val, &val, "map_entry.val"))
			return FALSE;
		if (!key || !val)
			continue;
		if (t->n >= t->max_elts) {
			th_damaged("tracing_map", t->addr, "more entries than "
				   "its max_elts %u", t->max_elts);
			return FALSE;
		}
		if (!th_tmap_elt(o, t, val, &t->elts[t->n]))
			return FALSE;
		t->n++;
	}
	return TRUE;
}

/**
 * th_tmap_read - a hist trigger's tracing_map and its elements
 * @map: struct tracing_map (hist_trigger_data.map)
 * @t: filled; th_tmap_free() after
 */
int th_tmap_read(ulong map, struct th_tmap *t)
{
	const struct th_tmap_off *o = th_tmap_off();
	ulong arr = 0;

	memset(t, 0, sizeof(*t));
	t->addr = map;
	t->algo = o->algo;
	if (!o->ok || !map || !th_tmap_head(o, map, t) ||
	    t->max_elts > TH_TMAP_SIZE_MAX ||
	    !th_read_ulong(map + o->map, &arr, "map.map") || !arr ||
	    !th_tmap_entries(o, arr, t)) {
		th_tmap_free(t);
		return FALSE;
	}
	return TRUE;
}

void th_tmap_free(struct th_tmap *t)
{
	size_t i;

	if (t->elts)
		for (i = 0; i < t->max_elts && i <= t->n; i++)
			free(t->elts[i].key);
	free(t->elts);
	t->elts = NULL;
	t->n = 0;
}
