/*
 * tracehunt: a crash-free BTF decoder (btf.h): the header and its
 * sections, an index of the types by id, the functions sorted by name,
 * split BTF on top of a base, and print_function_args()'s text.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "btf.h"

/* BTF_MAX_TYPE: the most type ids a BTF may have */
#define BT_MAX_TYPE	0x000fffff
/* the most modifiers followed in a row (a verified BTF has no cycle) */
#define BT_MAX_CHAIN	64

static uint32_t bt_u32(int swap, const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

/* Bytes after struct btf_type for KIND with VLEN elements, or -1 when the
 * kind's size is unknown (neither ours nor in the layout section). */
static long bt_extra_size(const struct bt_btf *b, unsigned kind,
			  uint32_t vlen)
{
	switch (kind) {
	case BT_KIND_INT:
	case BT_KIND_VAR:
	case BT_KIND_DECL_TAG:
		return 4;
	case BT_KIND_ARRAY:
		return 12;
	case BT_KIND_STRUCT:
	case BT_KIND_UNION:
	case BT_KIND_DATASEC:
	case BT_KIND_ENUM64:
		return 12L * vlen;
	case BT_KIND_ENUM:
	case BT_KIND_FUNC_PROTO:
		return 8L * vlen;
	case BT_KIND_UNKN:
	case BT_KIND_PTR:
	case BT_KIND_FWD:
	case BT_KIND_TYPEDEF:
	case BT_KIND_VOLATILE:
	case BT_KIND_CONST:
	case BT_KIND_RESTRICT:
	case BT_KIND_FUNC:
	case BT_KIND_FLOAT:
	case BT_KIND_TYPE_TAG:
		return 0;
	}
	/* a newer kind: struct btf_layout { u8 info_sz, elem_sz; u16 } */
	if (b->layout && (uint64_t)kind * 4 + 4 <= b->layout_len) {
		const unsigned char *l = b->layout + kind * 4;

		return l[0] + (long)l[1] * vlen;
	}
	return -1;
}

static int bt_fn_cmp(const void *x, const void *y)
{
	const struct bt_fn *a = x, *c = y;
	int r = strcmp(a->name, c->name);

	if (r)
		return r;
	return a->id < c->id ? -1 : a->id > c->id;
}

/* The layout section of B or of the nearest of its bases that has one. */
static const struct bt_btf *bt_layout_of(const struct bt_btf *b)
{
	while (!b->layout && b->base)
		b = b->base;
	return b;
}

/* The type section indexed: B->off, B->nr, and with FUNCS B->funcs; -1
 * with B->err.  A base's entry 0 is void; a split BTF's is its first
 * type. */
static int bt_index(struct bt_btf *b, int funcs)
{
	const struct bt_btf *lay = bt_layout_of(b);
	uint32_t pos = 0, cap = 1024, nf = 0, n = 0;

	b->off = malloc(cap * sizeof(*b->off));
	if (!b->off)
		return b->err = "no memory", -1;
	if (!b->base)
		b->off[n++] = 0;	/* void */
	while (pos < b->types_len) {
		uint32_t info;
		long extra;

		if (b->types_len - pos < 12)
			return b->err = "a type is cut off", -1;
		if ((uint64_t)b->start_id + n > BT_MAX_TYPE)
			return b->err = "too many types", -1;
		info = bt_u32(b->swap, b->types + pos + 4);
		extra = bt_extra_size(lay, (info >> 24) & 0x7f,
				      info & 0xffffff);
		if (extra < 0)
			return b->err = "a type of a kind of unknown size", -1;
		if ((uint64_t)extra > b->types_len - pos - 12)
			return b->err = "a type is cut off", -1;
		if (n == cap) {
			uint32_t *o = realloc(b->off, 2 * cap * sizeof(*o));

			if (!o)
				return b->err = "no memory", -1;
			b->off = o;
			cap *= 2;
		}
		b->off[n++] = pos;
		if (((info >> 24) & 0x7f) == BT_KIND_FUNC)
			nf++;
		pos += 12 + extra;
	}
	b->nr = b->start_id + n;
	if (!funcs)
		return 0;
	b->funcs = malloc((nf ? nf : 1) * sizeof(*b->funcs));
	if (!b->funcs)
		return b->err = "no memory", -1;
	for (uint32_t id = b->base ? b->start_id : 1; id < b->nr; id++) {
		struct bt_type t;
		const char *name;

		bt_type(b, id, &t);
		if (t.kind != BT_KIND_FUNC || !(name = bt_name(b, t.name_off)))
			continue;
		b->funcs[b->nfuncs].name = name;
		b->funcs[b->nfuncs++].id = id;
	}
	qsort(b->funcs, b->nfuncs, sizeof(*b->funcs), bt_fn_cmp);
	return 0;
}

/* The header of LEN bytes at P into B: its byte order and sections;
 * -1 with B->err. */
static int bt_header(struct bt_btf *b, const unsigned char *p, size_t len)
{
	uint32_t hdr_len, type_off, str_off, lay_off = 0, lay_len = 0;
	uint16_t magic;

	if (!p || len < 24)
		return b->err = "shorter than a BTF header", -1;
	memcpy(&magic, p, 2);
	if (magic == BT_MAGIC)
		b->swap = 0;
	else if (__builtin_bswap16(magic) == BT_MAGIC)
		b->swap = 1;
	else
		return b->err = "no BTF magic", -1;
	if (p[2] != 1)
		return b->err = "not BTF version 1", -1;
	hdr_len = bt_u32(b->swap, p + 4);
	if (hdr_len < 24 || hdr_len > len)
		return b->err = "a header length outside the data", -1;
	type_off = bt_u32(b->swap, p + 8);
	b->types_len = bt_u32(b->swap, p + 12);
	str_off = bt_u32(b->swap, p + 16);
	b->strs_len = bt_u32(b->swap, p + 20);
	if (hdr_len >= 32) {
		lay_off = bt_u32(b->swap, p + 24);
		lay_len = bt_u32(b->swap, p + 28);
	}
	/* offsets are from the end of the header */
	len -= hdr_len;
	p += hdr_len;
	if (type_off > len || b->types_len > len - type_off ||
	    str_off > len || b->strs_len > len - str_off ||
	    lay_off > len || lay_len > len - lay_off)
		return b->err = "a section outside the data", -1;
	b->types = p + type_off;
	b->strs = (const char *)p + str_off;
	if (lay_len) {
		b->layout = p + lay_off;
		b->layout_len = lay_len;
	}
	return 0;
}

static int bt_open_as(struct bt_btf *b, const struct bt_btf *base,
		      const void *data, size_t len, int funcs)
{
	const char *err;

	memset(b, 0, sizeof(*b));
	if (base && !base->nr)
		return b->err = "a base that is not open", -1;
	if (bt_header(b, data, len) < 0)
		goto fail;
	/* a base's string section starts with "" at 0; a split BTF's may
	 * be empty (its names all the base's) */
	if (b->strs_len ? b->strs[b->strs_len - 1] != '\0' ||
			  (!base && b->strs[0] != '\0') : !base) {
		b->err = "a string section not made of C strings";
		goto fail;
	}
	if (base) {
		if (base->swap != b->swap) {
			b->err = "a split BTF of another byte order than its "
				 "base";
			goto fail;
		}
		if ((uint64_t)base->start_str_off + base->strs_len >
		    UINT32_MAX) {
			b->err = "a base of too many strings";
			goto fail;
		}
		b->base = base;
		b->start_id = base->nr;
		b->start_str_off = base->start_str_off + base->strs_len;
	}
	if (bt_index(b, funcs) < 0)
		goto fail;
	return 0;
fail:
	err = b->err;
	bt_close(b);
	b->err = err;
	return -1;
}

int bt_open_split(struct bt_btf *b, const struct bt_btf *base,
		  const void *data, size_t len)
{
	return bt_open_as(b, base, data, len, 1);
}

int bt_open(struct bt_btf *b, const void *data, size_t len)
{
	return bt_open_as(b, NULL, data, len, 1);
}

int bt_open_types(struct bt_btf *b, const void *data, size_t len)
{
	return bt_open_as(b, NULL, data, len, 0);
}

void bt_close(struct bt_btf *b)
{
	free(b->off);
	free(b->funcs);
	memset(b, 0, sizeof(*b));
}

int bt_type(const struct bt_btf *b, uint32_t id, struct bt_type *t)
{
	const unsigned char *p;
	uint32_t info;
	long extra;

	memset(t, 0, sizeof(*t));
	/* the base's ids are below ours */
	while (id < b->start_id && b->base)
		b = b->base;
	if (id == 0 && !b->base)
		return 1;	/* btf_void */
	if (id >= b->nr || !b->off)
		return 0;
	p = b->types + b->off[id - b->start_id];
	t->name_off = bt_u32(b->swap, p);
	info = bt_u32(b->swap, p + 4);
	t->kind = (info >> 24) & 0x7f;
	t->vlen = info & 0xffffff;
	t->kflag = info >> 31;
	t->size_type = bt_u32(b->swap, p + 8);
	/* checked by bt_index() */
	extra = bt_extra_size(bt_layout_of(b), t->kind, t->vlen);
	t->extra = p + 12;
	t->extra_len = extra > 0 ? extra : 0;
	return 1;
}

const char *bt_name(const struct bt_btf *b, uint32_t off)
{
	/* the base's strings are below ours */
	while (off < b->start_str_off && b->base)
		b = b->base;
	off -= b->start_str_off;
	/* the section ends with a NUL (bt_open()) */
	return off < b->strs_len ? b->strs + off : NULL;
}

const char *bt_kind_str(unsigned kind)
{
	static const char *const str[BT_NR_KINDS] = {
		"UNKNOWN", "INT", "PTR", "ARRAY", "STRUCT", "UNION", "ENUM",
		"FWD", "TYPEDEF", "VOLATILE", "CONST", "RESTRICT", "FUNC",
		"FUNC_PROTO", "VAR", "DATASEC", "FLOAT", "DECL_TAG",
		"TYPE_TAG", "ENUM64",
	};

	/* the kernel's table ends at its own last kind: "(null)" past it */
	return kind < BT_NR_KINDS ? str[kind] : "(null)";
}

uint32_t bt_extra_u32(const struct bt_btf *b, const struct bt_type *t,
		      uint32_t i)
{
	if ((uint64_t)i + 4 > t->extra_len)
		return 0;
	return bt_u32(b->swap, t->extra + i);
}

int bt_skip_modifiers(const struct bt_btf *b, uint32_t id, struct bt_type *t)
{
	int n;

	for (n = 0; n < BT_MAX_CHAIN; n++) {
		if (!bt_type(b, id, t))
			return 0;
		switch (t->kind) {
		case BT_KIND_TYPEDEF:
		case BT_KIND_VOLATILE:
		case BT_KIND_CONST:
		case BT_KIND_RESTRICT:
		case BT_KIND_TYPE_TAG:
			id = t->size_type;
			continue;
		}
		return 1;
	}
	return 0;
}

uint32_t bt_find_func(const struct bt_btf *b, const char *name)
{
	uint32_t lo = 0, hi = b->nfuncs, id;

	/* btf_find_by_name_kind(): the base first */
	if (b->base && (id = bt_find_func(b->base, name)))
		return id;
	/* the first of the names not below NAME: the lowest id of NAME */
	while (lo < hi) {
		uint32_t m = lo + (hi - lo) / 2;

		if (strcmp(b->funcs[m].name, name) < 0)
			lo = m + 1;
		else
			hi = m;
	}
	if (lo < b->nfuncs && strcmp(b->funcs[lo].name, name) == 0)
		return b->funcs[lo].id;
	return 0;
}

const struct bt_btf *bt_find_func_in(const struct bt_btf *const *btfs,
				     size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (btfs[i] && bt_find_func(btfs[i], name))
			return btfs[i];
	return NULL;
}

/* The text being made: snprintf's rules, the length counted past LEN. */
struct bt_out {
	char *buf;
	size_t len, pos;
};

static void __attribute__((format(printf, 2, 3)))
bt_printf(struct bt_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->pos < o->len ? o->buf + o->pos : NULL,
		      o->pos < o->len ? o->len - o->pos : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->pos += n;
}

/* An argument register as the kernel's unsigned long and long. */
static uint64_t bt_ul(uint64_t v, int long_size)
{
	return long_size == 4 ? (uint32_t)v : v;
}

static long long bt_l(uint64_t v, int long_size)
{
	return long_size == 4 ? (long long)(int32_t)v : (long long)v;
}

/* The value of an argument of the enum T: "%ld", then " [NAME]" of the
 * first enumerator equal to it (its s32 value as an unsigned long). */
static void bt_enum_arg(const struct bt_btf *b, const struct bt_type *t,
			uint64_t arg, int ls, struct bt_out *o)
{
	uint32_t i;

	bt_printf(o, "%lld", bt_l(arg, ls));
	for (i = 0; i < t->vlen; i++) {
		int32_t val = (int32_t)bt_extra_u32(b, t, i * 8 + 4);
		const char *n;

		if (bt_ul(arg, ls) != bt_ul((uint64_t)(int64_t)val, ls))
			continue;
		n = bt_name(b, bt_extra_u32(b, t, i * 8));
		bt_printf(o, " [%s]", n ? n : "(null)");
		break;
	}
}

size_t bt_func_args(const struct bt_btf *b, const char *name,
		    const uint64_t *args, int max_args, int long_size,
		    char *out, size_t len)
{
	struct bt_out o = { out, len, 0 };
	struct bt_type fn, proto, t;
	uint32_t p, nr, x;
	int a;

	if (len)
		out[0] = '\0';
	bt_printf(&o, "(");
	if (!args || !b || !b->nr)
		goto out;
	if (!bt_type(b, bt_find_func(b, name), &fn) ||
	    fn.kind != BT_KIND_FUNC ||
	    !bt_type(b, fn.size_type, &proto) ||
	    proto.kind != BT_KIND_FUNC_PROTO)
		goto out;
	nr = proto.vlen;
	for (a = 0, p = 0; p < nr; a++, p++) {
		const char *pname;
		uint64_t arg;

		if (p)
			bt_printf(&o, ", ");
		/* only the registers the architecture saves */
		if (a >= max_args) {
			bt_printf(&o, "...");
			break;
		}
		arg = bt_ul(args[a], long_size);
		pname = bt_name(b, bt_extra_u32(b, &proto, p * 8));
		if (pname)
			bt_printf(&o, "%s=", pname);
		if (!bt_skip_modifiers(b, bt_extra_u32(b, &proto, p * 8 + 4),
				       &t))
			t.kind = BT_KIND_UNKN;
		switch (t.kind) {
		case BT_KIND_UNKN:
			/* '?', then the value all the same */
			bt_printf(&o, "?");
			/* fall through */
		case BT_KIND_PTR:
			bt_printf(&o, "0x%llx", (unsigned long long)arg);
			break;
		case BT_KIND_INT:
			/* BTF_INT_ENCODING: signed as %ld, else hex */
			if ((bt_extra_u32(b, &t, 0) >> 24 & 0x0f) &
			    BT_INT_SIGNED)
				bt_printf(&o, "%lld", bt_l(arg, long_size));
			else
				bt_printf(&o, "0x%llx",
					  (unsigned long long)arg);
			break;
		case BT_KIND_ENUM:
			bt_enum_arg(b, &t, arg, long_size, &o);
			break;
		default:
			/* a struct or the like: its registers in a row */
			bt_printf(&o, "(%s)[0x%llx", bt_kind_str(t.kind),
				  (unsigned long long)arg);
			for (x = long_size; x < t.size_type; x += long_size) {
				bt_printf(&o, ":");
				if (++a >= max_args) {
					bt_printf(&o, "...]");
					goto out;
				}
				bt_printf(&o, "0x%llx", (unsigned long long)
					  bt_ul(args[a], long_size));
			}
			bt_printf(&o, "]");
			break;
		}
	}
out:
	bt_printf(&o, ")");
	return o.pos;
}
