/*
 * Fuzz target: lib/btf.c and lib/btf_types.c.  Input: byte 0 (bit 0:
 * 4-byte long, bits 1-3: the number of argument registers, bits 4-5:
 * output size, bit 6: split BTF), byte 1: how many of the BTF's
 * functions to print (up to 64, from the one it selects), then six
 * 8-byte argument registers, then the BTF; split: a little-endian u32 N,
 * then a base BTF of N bytes and a split BTF on top of it (the rest).
 * Every type is read (a split BTF's from id 0: the base's too) and its
 * modifiers skipped; each function chosen is found again by its name, as
 * bpf_find_btf_id() would in the base, then the split BTF, and its
 * arguments printed.  Not split: the types by name too (run_types()).
 */
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "btf.h"

static void check_text(const char *out, size_t olen, size_t n)
{
	if (!olen)
		return;
	/* NUL-terminated within the buffer, its length what was said */
	if (memchr(out, '\0', olen) == NULL)
		__builtin_trap();
	if (n < olen && strlen(out) != n)
		__builtin_trap();
	if (n >= olen && strlen(out) != olen - 1)
		__builtin_trap();
}

/* lib/btf_types.c on B (a base): every named struct and union found
 * again by name, its first member looked up alone and as a path through
 * itself, every type's size, every enumerator found by name. */
static void run_types(const struct bt_btf *b, int ls)
{
	struct bt_names n;
	struct bt_member m;
	struct bt_enumerator_ref ref;
	struct bt_type t;
	uint32_t id, i, found;
	const char *name, *en;
	char path[256];
	int64_t v;

	if (bt_names_open(&n, b) < 0)
		return;
	for (id = 1; id < b->nr; id++) {
		if (!bt_type(b, id, &t))
			__builtin_trap();
		bt_type_size(b, id, ls);
		name = bt_name(b, t.name_off);
		if ((t.kind == BT_KIND_STRUCT || t.kind == BT_KIND_UNION) &&
		    name && *name) {
			if (!bt_find_tags(&n, name, &found, 1))
				__builtin_trap();
			if (t.vlen) {
				const char *mn = bt_name(b,
					bt_extra_u32(b, &t, 0));

				if (mn && *mn && strlen(mn) < 100) {
					bt_member(b, id, mn, &m);
					snprintf(path, sizeof(path), "%s.%s",
						 mn, mn);
					bt_member(b, id, path, &m);
				}
			}
		}
		if (t.kind != BT_KIND_ENUM && t.kind != BT_KIND_ENUM64)
			continue;
		for (i = 0; i < t.vlen && i < 64; i++)
			if (bt_enumerator(b, id, i, &en, &v) != 0 && en &&
			    *en && !bt_find_enumerators(&n, en, &ref, 1))
				__builtin_trap();
	}
	bt_names_close(&n);
}

/* Every type of B and of its bases read; the functions chosen printed. */
static void run(const struct bt_btf *b, const struct bt_btf *const *all,
		size_t nall, const uint8_t *data, size_t size,
		const uint64_t *args, int ls, int max, size_t olen,
		uint32_t count)
{
	struct bt_type t;
	char out[512];
	uint32_t id, i, first;

	for (id = 0; id < b->nr; id++) {
		if (!bt_type(b, id, &t))
			__builtin_trap();
		/* within the data of B or of its base */
		if (t.extra && t.extra + t.extra_len > data + size)
			__builtin_trap();
		bt_name(b, t.name_off);
		bt_skip_modifiers(b, id, &t);
	}
	if (bt_type(b, b->nr, &t))
		__builtin_trap();
	first = b->nfuncs ? args[0] % b->nfuncs : 0;
	for (i = 0; i < count && i < b->nfuncs; i++) {
		const struct bt_fn *f = &b->funcs[(first + i) % b->nfuncs];
		uint32_t found = bt_find_func(b, f->name);
		const struct bt_btf *in = bt_find_func_in(all, nall, f->name);
		size_t n;

		/* the first FUNC of that name: never after this one (a
		 * base's comes first, its ids below B's) */
		if (!found || found > f->id || !in)
			__builtin_trap();
		n = bt_func_args(in, f->name, max > 6 ? NULL : args,
				 max > 6 ? 6 : max, ls, out, olen);
		check_text(out, olen, n);
	}
	bt_func_args(b, "", args, 6, ls, out, sizeof(out));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t outs[] = { 512, 1, 24, 0 };
	uint64_t args[6];
	struct bt_btf base, b;
	const struct bt_btf *all[2] = { &base, &b };
	int ls, max, split;
	size_t olen;
	uint32_t count, blen;

	if (size < 2 + sizeof(args))
		return 0;
	ls = data[0] & 1 ? 4 : 8;
	max = (data[0] >> 1) & 7;
	olen = outs[(data[0] >> 4) & 3];
	split = data[0] & 0x40;
	count = data[1] % 65;
	memcpy(args, data + 2, sizeof(args));
	data += 2 + sizeof(args);
	size -= 2 + sizeof(args);
	if (!split) {
		if (bt_open(&b, data, size) < 0) {
			if (!b.err)
				__builtin_trap();
			return 0;
		}
		run(&b, all + 1, 1, data, size, args, ls, max, olen, count);
		run_types(&b, ls);
		bt_close(&b);
		return 0;
	}
	if (size < 4)
		return 0;
	blen = data[0] | data[1] << 8 | data[2] << 16 | (uint32_t)data[3] << 24;
	data += 4;
	size -= 4;
	if (blen > size || bt_open(&base, data, blen) < 0)
		return 0;
	if (bt_open_split(&b, &base, data + blen, size - blen) < 0) {
		if (!b.err)
			__builtin_trap();
		bt_close(&base);
		return 0;
	}
	if (b.start_id != base.nr || b.nr < b.start_id ||
	    b.start_str_off != base.strs_len)
		__builtin_trap();
	run(&b, all, 2, data, size, args, ls, max, olen, count);
	bt_close(&b);
	bt_close(&base);
	return 0;
}
