/*
 * tracehunt: types by name in a BTF (btf.h): the named structs, unions
 * and enumerators sorted by name, a member's offset found as gdb finds
 * it, a type's size as gdb gives it, an enumerator's value.  What the
 * model's offset tables ask of the debuginfo, answered without gdb's
 * expansion of a compile unit (core.c).
 */
#include <stdlib.h>
#include <string.h>
#include "btf.h"

/* the most modifiers, array dimensions or anonymous members followed */
#define BT_MAX_DEPTH	64
/* the most names in a member path */
#define BT_MAX_PATH	16

static int bt_is_enum(unsigned kind)
{
	return kind == BT_KIND_ENUM || kind == BT_KIND_ENUM64;
}

static int bt_is_tag(unsigned kind)
{
	return kind == BT_KIND_STRUCT || kind == BT_KIND_UNION;
}

/* a kind of type a C name can denote (bt_names.tags) */
static int bt_is_named(unsigned kind)
{
	return bt_is_tag(kind) || bt_is_enum(kind) || kind == BT_KIND_FWD ||
		kind == BT_KIND_TYPEDEF || kind == BT_KIND_INT ||
		kind == BT_KIND_FLOAT;
}

static uint32_t bt_hash(const char *name)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	return h;
}

/* A table of at least twice N slots: its mask, *SLOT allocated. */
static uint32_t bt_slots(uint32_t n, uint32_t **slot)
{
	uint32_t size = 16;

	while (size < 2 * (uint64_t)n && size < (1u << 30))
		size *= 2;
	/* never full: a look-up ends at an empty slot */
	*slot = size >= 2 * (uint64_t)n ? calloc(size, sizeof(**slot)) : NULL;
	return size - 1;
}

/* Entry I (its NAME) into SLOT: after every entry of the same name put
 * before it (linear probing never moves one), so that a look-up meets
 * them in the order they were put, the ids' */
static void bt_put(uint32_t *slot, uint32_t mask, const char *name,
		   uint32_t i)
{
	uint32_t h = bt_hash(name) & mask;

	while (slot[h])
		h = (h + 1) & mask;
	slot[h] = i + 1;
}

int bt_names_open(struct bt_names *n, const struct bt_btf *b)
{
	uint32_t id, first = b->base ? b->start_id : 1, ntags = 0, nen = 0;
	struct bt_type t;

	memset(n, 0, sizeof(*n));
	/* counted first: one allocation each */
	for (id = first; id < b->nr; id++) {
		if (!bt_type(b, id, &t))
			continue;
		if (bt_is_named(t.kind) && t.name_off)
			ntags++;
		if (bt_is_enum(t.kind))
			nen += t.vlen;
	}
	n->tags = malloc((ntags ? ntags : 1) * sizeof(*n->tags));
	n->enums = malloc((nen ? nen : 1) * sizeof(*n->enums));
	n->tag_mask = bt_slots(ntags, &n->tag_slot);
	n->enum_mask = bt_slots(nen, &n->enum_slot);
	if (!n->tags || !n->enums || !n->tag_slot || !n->enum_slot) {
		bt_names_close(n);
		return -1;
	}
	for (id = first; id < b->nr; id++) {
		const char *name;
		uint32_t i, step;

		if (!bt_type(b, id, &t))
			continue;
		if (bt_is_named(t.kind) && t.name_off && n->ntags < ntags &&
		    (name = bt_name(b, t.name_off)) && *name) {
			bt_put(n->tag_slot, n->tag_mask, name, n->ntags);
			n->tags[n->ntags].name = name;
			n->tags[n->ntags].kind = t.kind;
			n->tags[n->ntags++].id = id;
		}
		if (!bt_is_enum(t.kind))
			continue;
		step = t.kind == BT_KIND_ENUM ? 8 : 12;
		for (i = 0; i < t.vlen && n->nenums < nen; i++) {
			name = bt_name(b, bt_extra_u32(b, &t, i * step));
			if (!name || !*name)
				continue;
			bt_put(n->enum_slot, n->enum_mask, name, n->nenums);
			n->enums[n->nenums].name = name;
			n->enums[n->nenums].id = id;
			n->enums[n->nenums++].i = i;
		}
	}
	return 0;
}

void bt_names_close(struct bt_names *n)
{
	free(n->tags);
	free(n->enums);
	free(n->tag_slot);
	free(n->enum_slot);
	memset(n, 0, sizeof(*n));
}

/* The types named NAME of the kinds KEEP() keeps (NULL: all). */
static size_t bt_find_kept(const struct bt_names *n, const char *name,
			   int (*keep)(unsigned kind), struct bt_named *out,
			   uint32_t *ids, size_t max)
{
	uint32_t h, i;
	size_t k = 0;

	if (!n->tag_slot)
		return 0;
	for (h = bt_hash(name) & n->tag_mask; (i = n->tag_slot[h]);
	     h = (h + 1) & n->tag_mask) {
		const struct bt_named *e = &n->tags[i - 1];

		if (strcmp(e->name, name) || (keep && !keep(e->kind)))
			continue;
		if (k < max && out)
			out[k] = *e;
		if (k < max && ids)
			ids[k] = e->id;
		k++;
	}
	return k;
}

size_t bt_find_named(const struct bt_names *n, const char *name,
		     struct bt_named *out, size_t max)
{
	return bt_find_kept(n, name, NULL, out, NULL, max);
}

size_t bt_find_tags(const struct bt_names *n, const char *name,
		    uint32_t *ids, size_t max)
{
	return bt_find_kept(n, name, bt_is_tag, NULL, ids, max);
}

size_t bt_find_enumerators(const struct bt_names *n, const char *name,
			   struct bt_enumerator_ref *out, size_t max)
{
	uint32_t h, i;
	size_t k = 0;

	if (!n->enum_slot)
		return 0;
	for (h = bt_hash(name) & n->enum_mask; (i = n->enum_slot[h]);
	     h = (h + 1) & n->enum_mask)
		if (!strcmp(n->enums[i - 1].name, name) && k++ < max)
			out[k - 1] = n->enums[i - 1];
	return k;
}

/* An INT member of a struct without kflag that is a bitfield: its
 * encoding's offset or width is not the whole int's (BTF_INT_OFFSET,
 * BTF_INT_BITS): the width, else 0. */
static uint32_t bt_int_bitfield(const struct bt_btf *b, uint32_t type)
{
	struct bt_type t;
	uint32_t enc;

	if (!bt_skip_modifiers(b, type, &t) || t.kind != BT_KIND_INT)
		return 0;
	enc = bt_extra_u32(b, &t, 0);
	if (((enc >> 16) & 0xff) || (enc & 0xff) != t.size_type * 8)
		return enc & 0xff;
	return 0;
}

/*
 * NAME (LEN bytes) among the members of composite T: gdb's order, each
 * anonymous member searched in its place (DEPTH: how deep already).
 * 1 and *M (its offset from T's start), 0 not there, -1 broken.
 */
static int bt_member_one(const struct bt_btf *b, const struct bt_type *t,
			 const char *name, size_t len, int depth,
			 struct bt_member *m)
{
	uint32_t i;

	if (depth > BT_MAX_DEPTH)
		return -1;
	for (i = 0; i < t->vlen; i++) {
		uint32_t noff = bt_extra_u32(b, t, i * 12);
		uint32_t type = bt_extra_u32(b, t, i * 12 + 4);
		uint32_t off = bt_extra_u32(b, t, i * 12 + 8);
		uint32_t bits = 0;
		const char *mn = bt_name(b, noff);

		if (!mn)
			return -1;
		if (t->kflag) {
			bits = off >> 24;
			off &= 0xffffff;
		}
		if (!*mn) {
			struct bt_type in;
			int r;

			if (!bt_skip_modifiers(b, type, &in))
				return -1;
			if (in.kind != BT_KIND_STRUCT &&
			    in.kind != BT_KIND_UNION)
				continue;
			r = bt_member_one(b, &in, name, len, depth + 1, m);
			if (r > 0)
				m->bit_off += off;
			if (r)
				return r;
			continue;
		}
		if (strlen(mn) != len || memcmp(mn, name, len))
			continue;
		m->bit_off = off;
		m->bitfield = t->kflag ? bits : bt_int_bitfield(b, type);
		m->type = type;
		return 1;
	}
	return 0;
}

int bt_member(const struct bt_btf *b, uint32_t id, const char *path,
	      struct bt_member *m)
{
	uint64_t at = 0;
	int n;

	memset(m, 0, sizeof(*m));
	for (n = 0; n < BT_MAX_PATH; n++) {
		size_t len = strcspn(path, ".");
		struct bt_type t;
		int r;

		if (!len || !bt_skip_modifiers(b, id, &t) ||
		    (t.kind != BT_KIND_STRUCT && t.kind != BT_KIND_UNION))
			return -1;
		r = bt_member_one(b, &t, path, len, 0, m);
		if (r <= 0)
			return r;
		at += m->bit_off;
		m->bit_off = at;
		if (!path[len])
			return 1;
		if (m->bitfield)
			return -1;	/* a bitfield has no members */
		path += len + 1;
		id = m->type;
	}
	return -1;
}

int64_t bt_type_size(const struct bt_btf *b, uint32_t id, int ptr_size)
{
	uint64_t mult = 1;
	int n;

	for (n = 0; n < BT_MAX_DEPTH; n++) {
		struct bt_type t;
		uint32_t nelems;

		if (!bt_skip_modifiers(b, id, &t))
			return -1;
		switch (t.kind) {
		case BT_KIND_INT:
		case BT_KIND_STRUCT:
		case BT_KIND_UNION:
		case BT_KIND_ENUM:
		case BT_KIND_ENUM64:
		case BT_KIND_FLOAT:
			if (mult && t.size_type > INT64_MAX / mult)
				return -1;
			return (int64_t)(mult * t.size_type);
		case BT_KIND_PTR:
			return (int64_t)(mult * (uint64_t)ptr_size);
		case BT_KIND_ARRAY:
			nelems = bt_extra_u32(b, &t, 8);
			/* gdb's length of an array of arrays: the product,
			 * bounded so that it cannot overflow */
			if (nelems && mult > (uint64_t)INT32_MAX * INT32_MAX /
			    nelems)
				return -1;
			mult *= nelems;
			id = bt_extra_u32(b, &t, 0);
			continue;
		default:
			return -1;
		}
	}
	return -1;
}

int bt_enumerator(const struct bt_btf *b, uint32_t id, uint32_t i,
		  const char **name, int64_t *val)
{
	struct bt_type t;

	if (!bt_type(b, id, &t) || !bt_is_enum(t.kind) || i >= t.vlen)
		return 0;
	if (t.kind == BT_KIND_ENUM) {
		uint32_t v = bt_extra_u32(b, &t, i * 8 + 4);

		*name = bt_name(b, bt_extra_u32(b, &t, i * 8));
		if (t.size_type > 4 || (!t.kflag && (v >> 31)))
			return -1;
		*val = t.kflag ? (int64_t)(int32_t)v : (int64_t)v;
	} else {
		uint64_t v = bt_extra_u32(b, &t, i * 12 + 4) |
			(uint64_t)bt_extra_u32(b, &t, i * 12 + 8) << 32;

		*name = bt_name(b, bt_extra_u32(b, &t, i * 12));
		if (!t.kflag && v > INT64_MAX)
			return -1;
		*val = (int64_t)v;
	}
	return *name ? 1 : -1;
}
