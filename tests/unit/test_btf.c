/*
 * Unit tests for lib/btf.c on BTF bytes made here, type by type, in
 * either endianness: the header, the types by id, the functions by name,
 * print_function_args()'s text for each kind of parameter, and split BTF
 * (two modules' on one base) looked up as bpf_find_btf_id() does.
 */
#include <stdint.h>
#include <stdlib.h>
#include "unit.h"
#include "btf.h"

/* a BTF being made: header (24 or 32 bytes), types, strings, layout */
struct mk {
	int swap, hdr_len;
	unsigned char types[4096], strs[1024], layout[256];
	uint32_t tlen, slen, llen, ntypes;
	uint32_t id_base, str_base;	/* a split BTF's: its base's */
};

static void put32(struct mk *m, unsigned char *p, uint32_t v)
{
	if (m->swap)
		v = __builtin_bswap32(v);
	memcpy(p, &v, 4);
}

static uint32_t str(struct mk *m, const char *s)
{
	uint32_t off = m->slen;

	if (!s)
		return 0;
	memcpy(m->strs + m->slen, s, strlen(s) + 1);
	m->slen += strlen(s) + 1;
	return m->str_base + off;
}

static void w(struct mk *m, uint32_t v)
{
	put32(m, m->types + m->tlen, v);
	m->tlen += 4;
}

/* struct btf_type; its id */
static uint32_t type(struct mk *m, const char *name, unsigned kind,
		     uint32_t vlen, int kflag, uint32_t size_type)
{
	w(m, str(m, name));
	w(m, kind << 24 | vlen | (uint32_t)kflag << 31);
	w(m, size_type);
	return m->id_base + ++m->ntypes;
}

static void mk_init(struct mk *m, int swap, int hdr_len)
{
	memset(m, 0, sizeof(*m));
	m->swap = swap;
	m->hdr_len = hdr_len;
	m->slen = 1;		/* "" at 0 */
}

/* A split BTF on top of BASE: ids from BASE->nr, string offsets from the
 * end of BASE's, no "" of its own. */
static void mk_split(struct mk *m, int swap, const struct bt_btf *base)
{
	mk_init(m, swap, 24);
	m->slen = 0;
	m->id_base = base->nr - 1;
	m->str_base = base->start_str_off + base->strs_len;
}

/* the whole BTF, malloc'd; its length in *LEN */
static unsigned char *mk_done(struct mk *m, size_t *len)
{
	size_t n = m->hdr_len + m->tlen + m->slen + m->llen;
	unsigned char *b = calloc(1, n);
	uint16_t magic = BT_MAGIC;

	if (m->swap)
		magic = __builtin_bswap16(magic);
	memcpy(b, &magic, 2);
	b[2] = 1;
	put32(m, b + 4, m->hdr_len);
	put32(m, b + 8, 0);
	put32(m, b + 12, m->tlen);
	put32(m, b + 16, m->tlen);
	put32(m, b + 20, m->slen);
	if (m->hdr_len >= 32) {
		put32(m, b + 24, m->tlen + m->slen);
		put32(m, b + 28, m->llen);
	}
	memcpy(b + m->hdr_len, m->types, m->tlen);
	memcpy(b + m->hdr_len + m->tlen, m->strs, m->slen);
	memcpy(b + m->hdr_len + m->tlen + m->slen, m->layout, m->llen);
	*len = n;
	return b;
}

/* The types of the tests: ids in comments. */
static void mk_types(struct mk *m)
{
	uint32_t proto;

	type(m, "int", BT_KIND_INT, 0, 0, 4);			/* 1 */
	w(m, BT_INT_SIGNED << 24 | 32);
	type(m, "unsigned int", BT_KIND_INT, 0, 0, 4);		/* 2 */
	w(m, 32);
	type(m, "file", BT_KIND_STRUCT, 0, 0, 200);		/* 3 */
	type(m, NULL, BT_KIND_PTR, 0, 0, 3);			/* 4 */
	type(m, "size_t", BT_KIND_TYPEDEF, 0, 0, 2);		/* 5 */
	type(m, NULL, BT_KIND_CONST, 0, 0, 4);			/* 6 */
	type(m, "mode", BT_KIND_ENUM, 3, 0, 4);			/* 7 */
	w(m, str(m, "M_A")); w(m, 0);
	w(m, str(m, "M_B")); w(m, 2);
	w(m, str(m, "M_NEG")); w(m, (uint32_t)-1);
	type(m, "pair", BT_KIND_STRUCT, 2, 0, 16);		/* 8 */
	w(m, str(m, "x")); w(m, 1); w(m, 0);
	w(m, str(m, "y")); w(m, 1); w(m, 64);
	type(m, NULL, BT_KIND_VOLATILE, 0, 0, 5);		/* 9 */
	type(m, "long", BT_KIND_INT, 0, 0, 8);			/* 10 */
	w(m, BT_INT_SIGNED << 24 | 64);
	/* 11: f(int a, const file *p, size_t n, enum mode m,
	 *	 struct pair s, volatile size_t v, long l) */
	proto = type(m, NULL, BT_KIND_FUNC_PROTO, 7, 0, 1);
	w(m, str(m, "a")); w(m, 1);
	w(m, str(m, "p")); w(m, 6);
	w(m, str(m, "n")); w(m, 5);
	w(m, str(m, "m")); w(m, 7);
	w(m, str(m, "s")); w(m, 8);
	w(m, str(m, "v")); w(m, 9);
	w(m, str(m, "l")); w(m, 10);
	type(m, "f", BT_KIND_FUNC, 0, 0, proto);		/* 12 */
	/* 13: g(struct pair s, int, ...) */
	proto = type(m, NULL, BT_KIND_FUNC_PROTO, 3, 0, 0);
	w(m, str(m, "s")); w(m, 8);
	w(m, 0); w(m, 1);
	w(m, 0); w(m, 0);
	type(m, "g", BT_KIND_FUNC, 0, 0, proto);		/* 14 */
	/* 15: a second "f" (another file's static f): never chosen */
	proto = type(m, NULL, BT_KIND_FUNC_PROTO, 0, 0, 0);
	type(m, "f", BT_KIND_FUNC, 0, 0, proto);		/* 16 */
	/* 17: h(void) */
	type(m, "h", BT_KIND_FUNC, 0, 0, proto);
	/* 18: k(x): a parameter of a type id out of range */
	proto = type(m, NULL, BT_KIND_FUNC_PROTO, 1, 0, 0);
	w(m, str(m, "x")); w(m, 999);
	type(m, "k", BT_KIND_FUNC, 0, 0, proto);		/* 19 */
	/* a variable and a datasec: sizes to skip over */
	type(m, "v", BT_KIND_VAR, 0, 0, 1);			/* 20 */
	w(m, 1);
	type(m, ".data", BT_KIND_DATASEC, 1, 0, 8);		/* 21 */
	w(m, 20); w(m, 0); w(m, 4);
	type(m, "e64", BT_KIND_ENUM64, 1, 0, 8);		/* 22 */
	w(m, str(m, "BIG")); w(m, 1); w(m, 1);
	/* 23: q(e64 e, float d) */
	proto = type(m, NULL, BT_KIND_FUNC_PROTO, 2, 0, 0);
	w(m, str(m, "e")); w(m, 22);
	w(m, str(m, "d")); w(m, 25);
	type(m, "q", BT_KIND_FUNC, 0, 0, proto);		/* 24 */
	type(m, "double", BT_KIND_FLOAT, 0, 0, 8);		/* 25 */
}

static void test_args(int swap, int hdr_len)
{
	static const uint64_t r[6] = {
		(uint64_t)-100, 0xffff888001234500ULL, 4096, 2, 0x11, 0x22,
	};
	static const uint64_t neg[6] = { 5, 0, 0, (uint64_t)-1, 1, 2 };
	struct bt_btf b;
	struct bt_type t;
	struct mk m;
	unsigned char *data;
	char out[256];
	size_t len, n;

	mk_init(&m, swap, hdr_len);
	mk_types(&m);
	data = mk_done(&m, &len);
	CHECK(bt_open(&b, data, len) == 0);
	CHECK(b.swap == swap);
	CHECK(b.nr == 26);
	CHECK(bt_find_func(&b, "f") == 12);
	CHECK(bt_find_func(&b, "g") == 14);
	CHECK(bt_find_func(&b, "nope") == 0);
	CHECK(bt_find_func(&b, "") == 0);
	CHECK(bt_type(&b, 7, &t) && t.kind == BT_KIND_ENUM && t.vlen == 3);
	CHECK_STR(bt_name(&b, t.name_off), "mode");
	CHECK(bt_type(&b, 0, &t) && t.kind == BT_KIND_UNKN);
	CHECK(!bt_type(&b, 26, &t));
	CHECK(bt_skip_modifiers(&b, 9, &t) && t.kind == BT_KIND_INT);
	CHECK(bt_name(&b, 1 << 20) == NULL);

	n = bt_func_args(&b, "f", r, 6, 8, out, sizeof(out));
	CHECK_STR(out, "(a=-100, p=0xffff888001234500, n=0x1000, "
		  "m=2 [M_B], s=(STRUCT)[0x11:0x22], ...)");
	CHECK(n == strlen(out));
	bt_func_args(&b, "f", neg, 6, 8, out, sizeof(out));
	CHECK_STR(out, "(a=5, p=0x0, n=0x0, m=-1 [M_NEG], "
		  "s=(STRUCT)[0x1:0x2], ...)");
	/* a struct cut by the registers' end */
	bt_func_args(&b, "f", r, 5, 8, out, sizeof(out));
	CHECK_STR(out, "(a=-100, p=0xffff888001234500, n=0x1000, "
		  "m=2 [M_B], s=(STRUCT)[0x11:...])");
	bt_func_args(&b, "g", r, 6, 8, out, sizeof(out));
	CHECK_STR(out, "(s=(STRUCT)[0xffffffffffffff9c:0xffff888001234500]"
		  ", =4096, =?0x2)");
	bt_func_args(&b, "h", r, 6, 8, out, sizeof(out));
	CHECK_STR(out, "()");
	bt_func_args(&b, "k", r, 6, 8, out, sizeof(out));
	CHECK_STR(out, "(x=?0xffffffffffffff9c)");
	bt_func_args(&b, "q", r, 6, 8, out, sizeof(out));
	CHECK_STR(out, "(e=(ENUM64)[0xffffffffffffff9c], "
		  "d=(FLOAT)[0xffff888001234500])");
	bt_func_args(&b, "nope", r, 6, 8, out, sizeof(out));
	CHECK_STR(out, "()");
	bt_func_args(&b, "f", NULL, 6, 8, out, sizeof(out));
	CHECK_STR(out, "()");
	/* a 32-bit kernel's registers */
	bt_func_args(&b, "f", r, 4, 4, out, sizeof(out));
	CHECK_STR(out, "(a=-100, p=0x1234500, n=0x1000, m=2 [M_B], ...)");
	/* cut to the buffer, the length all the same */
	n = bt_func_args(&b, "f", r, 6, 8, out, 10);
	CHECK_STR(out, "(a=-100, ");
	CHECK(n > 10);
	bt_close(&b);
	free(data);
}

/* The first module's types on top of mk_types(): ids from 26. */
static void mk_module1(struct mk *m, uint32_t base_a)
{
	uint32_t proto;

	type(m, "color", BT_KIND_ENUM, 2, 0, 4);		/* 26 */
	w(m, str(m, "RED")); w(m, 1);
	w(m, str(m, "BLUE")); w(m, (uint32_t)-3);
	type(m, "mpair", BT_KIND_STRUCT, 0, 0, 16);		/* 27 */
	type(m, NULL, BT_KIND_CONST, 0, 0, 5);			/* 28 */
	/* 29: mf(int a, const size_t n, enum color c, struct mpair s,
	 *	  enum mode m): "a" is the base's string */
	proto = type(m, NULL, BT_KIND_FUNC_PROTO, 5, 0, 1);
	w(m, base_a); w(m, 1);
	w(m, str(m, "n")); w(m, 28);
	w(m, str(m, "c")); w(m, 26);
	w(m, str(m, "s")); w(m, 27);
	w(m, str(m, "m")); w(m, 7);
	type(m, "mf", BT_KIND_FUNC, 0, 0, proto);		/* 30 */
	/* 31: a module's own "f": the base's is found first */
	proto = type(m, NULL, BT_KIND_FUNC_PROTO, 1, 0, 0);
	w(m, str(m, "own")); w(m, 1);
	type(m, "f", BT_KIND_FUNC, 0, 0, proto);		/* 32 */
	/* 33: mk(x): a type id past the split's last */
	proto = type(m, NULL, BT_KIND_FUNC_PROTO, 1, 0, 0);
	w(m, str(m, "x")); w(m, 35);
	type(m, "mk", BT_KIND_FUNC, 0, 0, proto);		/* 34 */
}

/* A second module: another "mf" (a static function of the same name)
 * and one of its own. */
static void mk_module2(struct mk *m)
{
	uint32_t proto;

	proto = type(m, NULL, BT_KIND_FUNC_PROTO, 1, 0, 0);	/* 26 */
	w(m, str(m, "p")); w(m, 4);
	type(m, "mf", BT_KIND_FUNC, 0, 0, proto);		/* 27 */
	type(m, "only2", BT_KIND_FUNC, 0, 0, proto);		/* 28 */
}

/* deep(void *q, int n): the types of three BTFs */
static void proto_of_split(struct mk *m)
{
	uint32_t proto = type(m, NULL, BT_KIND_FUNC_PROTO, 2, 0, 0);

	w(m, str(m, "q")); w(m, 26);
	w(m, str(m, "n")); w(m, 1);
	type(m, "deep", BT_KIND_FUNC, 0, 0, proto);
}

static void test_split(int swap)
{
	static const uint64_t r[6] = {
		(uint64_t)-7, 4096, (uint64_t)-3, 0x11, 0x22, 2,
	};
	struct bt_btf base, m1, m2, other;
	const struct bt_btf *all[3] = { &base, &m1, &m2 };
	struct bt_type t;
	struct mk mb, mm1, mm2;
	unsigned char *db, *d1, *d2;
	size_t lb, l1, l2;
	char out[256];
	uint32_t base_a;

	mk_init(&mb, swap, 24);
	mk_types(&mb);
	db = mk_done(&mb, &lb);
	CHECK(bt_open(&base, db, lb) == 0);
	/* the offset of the base's "a" (f's first parameter's name) */
	CHECK(bt_type(&base, 11, &t));
	base_a = bt_extra_u32(&base, &t, 0);
	CHECK_STR(bt_name(&base, base_a), "a");

	mk_split(&mm1, swap, &base);
	mk_module1(&mm1, base_a);
	d1 = mk_done(&mm1, &l1);
	CHECK(bt_open_split(&m1, &base, d1, l1) == 0);
	CHECK(m1.start_id == 26 && m1.nr == 35);
	CHECK(m1.start_str_off == base.strs_len);
	mk_split(&mm2, swap, &base);
	mk_module2(&mm2);
	d2 = mk_done(&mm2, &l2);
	CHECK(bt_open_split(&m2, &base, d2, l2) == 0);
	CHECK(m2.start_id == 26 && m2.nr == 29);

	/* ids and names below the split's are the base's */
	CHECK(bt_type(&m1, 7, &t) && t.kind == BT_KIND_ENUM);
	CHECK_STR(bt_name(&m1, t.name_off), "mode");
	CHECK(bt_type(&m1, 0, &t) && t.kind == BT_KIND_UNKN);
	CHECK(bt_type(&m1, 26, &t) && t.kind == BT_KIND_ENUM);
	CHECK_STR(bt_name(&m1, t.name_off), "color");
	CHECK(bt_name(&base, t.name_off) == NULL);
	CHECK(!bt_type(&m1, 35, &t));
	CHECK(bt_type(&m2, 26, &t) && t.kind == BT_KIND_FUNC_PROTO);
	CHECK(bt_skip_modifiers(&m1, 28, &t) && t.kind == BT_KIND_INT);
	CHECK(bt_name(&m1, m1.start_str_off + mm1.slen) == NULL);

	/* the base first, then each BTF in its order */
	CHECK(bt_find_func(&m1, "f") == 12);
	CHECK(bt_find_func(&m1, "mf") == 30);
	CHECK(bt_find_func(&m2, "mf") == 27);
	CHECK(bt_find_func(&base, "mf") == 0);
	CHECK(bt_find_func_in(all, 3, "f") == &base);
	CHECK(bt_find_func_in(all, 3, "mf") == &m1);
	CHECK(bt_find_func_in(all, 3, "only2") == &m2);
	CHECK(bt_find_func_in(all, 3, "nope") == NULL);
	CHECK(bt_find_func_in(all, 0, "f") == NULL);

	bt_func_args(&m1, "mf", r, 6, 8, out, sizeof(out));
	CHECK_STR(out, "(a=-7, n=0x1000, c=-3 [BLUE], "
		  "s=(STRUCT)[0x11:0x22], m=2 [M_B])");
	bt_func_args(&m2, "mf", r, 6, 8, out, sizeof(out));
	CHECK_STR(out, "(p=0xfffffffffffffff9)");
	bt_func_args(&m1, "f", r, 2, 8, out, sizeof(out));
	CHECK_STR(out, "(a=-7, p=0x1000, ...)");
	bt_func_args(&m1, "mk", r, 6, 8, out, sizeof(out));
	CHECK_STR(out, "(x=?0xfffffffffffffff9)");
	bt_func_args(&m1, "only2", r, 6, 8, out, sizeof(out));
	CHECK_STR(out, "()");

	/* refused: a base of the other byte order, no final NUL; taken: an
	 * empty string section (names all the base's) */
	mm2.swap = !swap;
	free(d2);
	d2 = mk_done(&mm2, &l2);
	CHECK(bt_open_split(&other, &base, d2, l2) < 0);
	CHECK_STR(other.err, "a split BTF of another byte order than its "
		  "base");
	mm2.swap = swap;
	free(d2);
	d2 = mk_done(&mm2, &l2);
	d2[l2 - 1] = 'x';
	CHECK(bt_open_split(&other, &base, d2, l2) < 0);
	CHECK_STR(other.err, "a string section not made of C strings");
	free(d2);
	mk_split(&mm2, swap, &base);
	type(&mm2, NULL, BT_KIND_PTR, 0, 0, 26);		/* 26 */
	d2 = mk_done(&mm2, &l2);
	CHECK(mm2.slen == 0);
	CHECK(bt_open_split(&other, &base, d2, l2) == 0);
	CHECK(bt_skip_modifiers(&other, 26, &t) && t.kind == BT_KIND_PTR);
	CHECK(other.nfuncs == 0 && bt_find_func(&other, "g") == 14);
	/* a split of a split: ids and offsets go on */
	{
		struct bt_btf s2;
		struct mk ms;
		unsigned char *ds;
		size_t ls;

		mk_split(&ms, swap, &other);
		CHECK(ms.id_base == 26);
		proto_of_split(&ms);
		ds = mk_done(&ms, &ls);
		CHECK(bt_open_split(&s2, &other, ds, ls) == 0);
		CHECK(s2.start_id == 27);
		bt_func_args(&s2, "deep", r, 6, 8, out, sizeof(out));
		CHECK_STR(out, "(q=0xfffffffffffffff9, n=4096)");
		bt_close(&s2);
		free(ds);
	}
	bt_close(&other);
	{
		struct bt_btf closed = { 0 };

		CHECK(bt_open_split(&other, &closed, d1, l1) < 0);
	}
	bt_close(&m2);
	bt_close(&m1);
	bt_close(&base);
	free(d2);
	free(d1);
	free(db);
}

/* Headers and sections that are not BTF, or not whole. */
static void test_bad(void)
{
	struct bt_btf b;
	struct mk m;
	unsigned char *data;
	size_t len;

	mk_init(&m, 0, 24);
	mk_types(&m);
	data = mk_done(&m, &len);
	CHECK(bt_open(&b, data, 10) < 0);
	/* the type section cut in a type */
	CHECK(bt_open(&b, data, len - m.slen - 3) < 0);
	data[0] ^= 1;
	CHECK(bt_open(&b, data, len) < 0);
	CHECK_STR(b.err, "no BTF magic");
	data[0] ^= 1;
	data[2] = 2;
	CHECK(bt_open(&b, data, len) < 0);
	data[2] = 1;
	/* the string section without its last NUL */
	data[len - 1] = 'x';
	CHECK(bt_open(&b, data, len) < 0);
	data[len - 1] = '\0';
	CHECK(bt_open(&b, data, len) == 0);
	bt_close(&b);
	free(data);

	/* a kind of unknown size: refused without a layout section, sized
	 * by it with one */
	mk_init(&m, 0, 32);
	type(&m, "x", 40, 2, 0, 0);
	w(&m, 0); w(&m, 0); w(&m, 0);
	w(&m, 0); w(&m, 0);
	type(&m, "fn", BT_KIND_FUNC, 0, 0, 0);
	memset(m.layout, 0, sizeof(m.layout));
	m.layout[40 * 4] = 4;		/* info_sz */
	m.layout[40 * 4 + 1] = 8;	/* elem_sz */
	m.llen = 41 * 4;
	data = mk_done(&m, &len);
	CHECK(bt_open(&b, data, len) == 0);
	CHECK(bt_find_func(&b, "fn") == 2);
	bt_close(&b);
	free(data);
	m.llen = 0;
	data = mk_done(&m, &len);
	CHECK(bt_open(&b, data, len) < 0);
	free(data);
}

/*
 * A BTF cut from the sid kernel's own by fuzz/mkseeds.py (the functions
 * of the funcargs scenario and their parameters' types), and lines of
 * the live "trace" of that scenario's boot: their registers printed
 * again.
 */
#define REAL "tests/unit/data/btf/funcargs-7.2.13+deb14-amd64.btf"

static void test_real(void)
{
	static const struct {
		const char *fn;
		uint64_t r[6];
		const char *live;
	} c[] = {
		{ "task_work_add", { 0xffff8880046bb480ULL, 0xffff888004deb208ULL,
		  1 }, "(task=0xffff8880046bb480, work=0xffff888004deb208, "
		  "notify=1 [TWA_RESUME])" },
		{ "do_mmap", { 0xffff888004debe40ULL, 0x400000, 0x1000, 0x1,
		  0x100002, 0 }, "(file=0xffff888004debe40, addr=0x400000, "
		  "len=0x1000, prot=0x1, flags=0x100002, vm_flags=0x0, ...)" },
		{ "vm_normal_page", { 0xffff8880059e2240ULL, 0x5ea000,
		  0x84000000031fd825ULL }, "(vma=0xffff8880059e2240, "
		  "addr=0x5ea000, pte=(STRUCT)[0x84000000031fd825])" },
		{ "do_sys_openat2", { 4294967196ULL, 0x8a0aa48,
		  0xffffc90000013ce0ULL }, "(dfd=4294967196, filename=0x8a0aa48"
		  ", how=0xffffc90000013ce0)" },
		{ "security_file_permission", { 0xffff888004deb180ULL, 2 },
		  "(file=0xffff888004deb180, mask=2)" },
		{ "vfs_statx", { 4294967196ULL, 0xffff888004de6300ULL, 2048,
		  0xffffc90000013aa8ULL, 0x7ff }, "(dfd=4294967196, "
		  "filename=0xffff888004de6300, flags=2048, "
		  "stat=0xffffc90000013aa8, request_mask=0x7ff)" },
	};
	static unsigned char data[65536];
	struct bt_btf b;
	char out[512];
	size_t len, i;
	FILE *f = fopen(REAL, "rb");

	CHECK(f != NULL);
	if (!f)
		return;
	len = fread(data, 1, sizeof(data), f);
	fclose(f);
	CHECK(bt_open(&b, data, len) == 0);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		bt_func_args(&b, c[i].fn, c[i].r, 6, 8, out, sizeof(out));
		CHECK_STR(out, c[i].live);
	}
	bt_close(&b);
}

/*
 * A small base and the two modules' split BTFs on it, cut by
 * fuzz/mkseeds.py from the funcargs scenario's boot (the modules' BTF as
 * the kernel kept it, relocated on vmlinux's), and lines of that boot's
 * live "trace": their registers printed again, each function looked up
 * as bpf_find_btf_id() does (vmlinux's BTF, then th_fa1's, th_fa2's).
 */
#define REAL_DIR "tests/unit/data/btf/funcargs-"
#define REAL_REL "-7.2.13+deb14-amd64.btf"

static size_t read_real(const char *which, unsigned char *data, size_t max)
{
	char path[256];
	size_t len;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s%s", REAL_DIR, which, REAL_REL);
	f = fopen(path, "rb");
	CHECK(f != NULL);
	if (!f)
		return 0;
	len = fread(data, 1, max, f);
	fclose(f);
	return len;
}

static void test_real_split(void)
{
	static const struct {
		const char *fn;
		uint64_t r[6];
		const char *live;
	} c[] = {
		{ "th_fa_mixed", { 0xffffffffULL, 1, 0xffffffffc0201040ULL, 2, 1,
		  (uint64_t)-1 }, "(s=4294967295, u=0x1, p=0xffffffffc0201040, "
		  "c=2 [TH_FA_GREEN], pr=(STRUCT)[0x1:0xffffffffffffffff], ...)" },
		{ "th_fa_enums", { 0xfffffffdULL, 3, 1 }, "(c=4294967293, "
		  "t=3 [PIDTYPE_SID], l=1)" },
		{ "th_fa_enums", { 1, 1, (uint64_t)-1 }, "(c=1 [TH_FA_RED], "
		  "t=1 [PIDTYPE_TGID], l=-1)" },
		{ "th_fa_many", { 1, (uint64_t)-2, 3, (uint64_t)-4, 5,
		  (uint64_t)-6 }, "(a1=1, a2=-2, a3=3, a4=-4, a5=5, a6=-6, ...)" },
		{ "th_fa_small", { 1, 0xc8, 0xfffffed4ULL, 1ULL << 40 },
		  "(b=0x1, c=0xc8, h=4294966996, q=0x10000000000)" },
		{ "th_fa_void", { 0 }, "()" },
		{ "th_fa_outer", { 1 }, "(n=1)" },
		{ "th_fa_run_set", { 0xffff88800577be10ULL,
		  0xffffffffc0203080ULL }, "(val=0xffff88800577be10, "
		  "kp=0xffffffffc0203080)" },
		/* th_fa2's calls: th_fa1's prototype, vmlinux's */
		{ "th_fa_same", { 0xffffffffc0205020ULL, (uint64_t)-5 },
		  "(x=-1071624160)" },
		{ "cmdline_proc_show", { 7, 0x10 }, "(m=0x7, v=0x10)" },
		{ "th_fa2_big", { 0xffff88800577be10ULL, 3, 0xffffffffc0207060ULL,
		  0, 6 }, "(t=(STRUCT)[0xffff88800577be10:0x3:0xffffffffc0207060]"
		  ", s=0x0, n=6)" },
	};
	static unsigned char db[65536], d1[65536], d2[65536];
	struct bt_btf base, m1, m2;
	const struct bt_btf *all[3] = { &base, &m1, &m2 };
	const struct bt_btf *rev[3] = { &base, &m2, &m1 };
	const struct bt_btf *in;
	char out[512];
	size_t lb, l1, l2, i;

	lb = read_real("base", db, sizeof(db));
	l1 = read_real("th_fa1", d1, sizeof(d1));
	l2 = read_real("th_fa2", d2, sizeof(d2));
	CHECK(bt_open(&base, db, lb) == 0);
	CHECK(bt_open_split(&m1, &base, d1, l1) == 0);
	CHECK(bt_open_split(&m2, &base, d2, l2) == 0);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		in = bt_find_func_in(all, 3, c[i].fn);
		CHECK(in != NULL);
		if (!in)
			continue;
		bt_func_args(in, c[i].fn, c[i].r, 6, 8, out, sizeof(out));
		CHECK_STR(out, c[i].live);
	}
	CHECK(bt_find_func_in(all, 3, "cmdline_proc_show") == &base);
	CHECK(bt_find_func_in(all, 3, "th_fa2_big") == &m2);
	/* th_fa2 first: its own th_fa_same */
	in = bt_find_func_in(rev, 3, "th_fa_same");
	CHECK(in == &m2);
	bt_func_args(in, "th_fa_same", c[8].r, 6, 8, out, sizeof(out));
	CHECK_STR(out, "(p=0xffffffffc0205020, y=-5)");
	bt_close(&m2);
	bt_close(&m1);
	bt_close(&base);
}

/*
 * Types by name (lib/btf_types.c): tags and enumerators found by name,
 * members found as gdb finds them (through anonymous members, along a
 * path), sizes as gdb's TYPE_LENGTH, values BTF cannot tell refused.
 */
static void test_types(int swap)
{
	struct mk m;
	struct bt_btf b;
	struct bt_names n;
	struct bt_member mb;
	struct bt_enumerator_ref refs[4];
	uint32_t ids[4];
	const char *en;
	int64_t v;
	unsigned char *data;
	size_t len;

	mk_init(&m, swap, 24);
	type(&m, "int", BT_KIND_INT, 0, 0, 4);			/* 1 */
	w(&m, BT_INT_SIGNED << 24 | 32);
	type(&m, "unsigned int", BT_KIND_INT, 0, 0, 4);		/* 2 */
	w(&m, 32);
	type(&m, "long", BT_KIND_INT, 0, 0, 8);			/* 3 */
	w(&m, BT_INT_SIGNED << 24 | 64);
	type(&m, "inner", BT_KIND_STRUCT, 2, 0, 8);		/* 4 */
	w(&m, str(&m, "a")); w(&m, 1); w(&m, 0);
	w(&m, str(&m, "b")); w(&m, 1); w(&m, 32);
	type(&m, NULL, BT_KIND_PTR, 0, 0, 4);			/* 5 */
	type(&m, NULL, BT_KIND_ARRAY, 0, 0, 0);			/* 6: int[4] */
	w(&m, 1); w(&m, 1); w(&m, 4);
	type(&m, NULL, BT_KIND_CONST, 0, 0, 5);			/* 7 */
	type(&m, "ip_t", BT_KIND_TYPEDEF, 0, 0, 5);		/* 8 */
	type(&m, NULL, BT_KIND_UNION, 2, 0, 8);			/* 9 */
	w(&m, str(&m, "u1")); w(&m, 3); w(&m, 0);
	w(&m, str(&m, "u2")); w(&m, 5); w(&m, 0);
	/* 10: kflag: a bitfield's width in the offset's top byte */
	type(&m, "outer", BT_KIND_STRUCT, 7, 1, 64);
	w(&m, str(&m, "x")); w(&m, 1); w(&m, 0);
	w(&m, 0); w(&m, 9); w(&m, 64);
	w(&m, str(&m, "arr")); w(&m, 6); w(&m, 128);
	w(&m, str(&m, "p")); w(&m, 7); w(&m, 256);
	w(&m, str(&m, "t")); w(&m, 8); w(&m, 320);
	w(&m, str(&m, "in")); w(&m, 4); w(&m, 384);
	w(&m, str(&m, "bf")); w(&m, 1); w(&m, 3u << 24 | 448);
	type(&m, "outer", BT_KIND_STRUCT, 1, 0, 4);		/* 11 */
	w(&m, str(&m, "x")); w(&m, 1); w(&m, 0);
	type(&m, "fwdonly", BT_KIND_FWD, 0, 0, 0);		/* 12 */
	type(&m, "e", BT_KIND_ENUM, 3, 0, 4);			/* 13 */
	w(&m, str(&m, "A")); w(&m, 0);
	w(&m, str(&m, "B")); w(&m, 5);
	w(&m, str(&m, "BIG")); w(&m, 0x80000000u);
	type(&m, "s", BT_KIND_ENUM, 1, 1, 4);			/* 14 */
	w(&m, str(&m, "NEG")); w(&m, (uint32_t)-1);
	type(&m, "e64", BT_KIND_ENUM64, 2, 0, 8);		/* 15 */
	w(&m, str(&m, "L")); w(&m, 0); w(&m, 1u << 8);
	w(&m, str(&m, "H")); w(&m, 0xffffffffu); w(&m, 0xffffffffu);
	type(&m, "cut", BT_KIND_ENUM, 1, 0, 8);			/* 16 */
	w(&m, str(&m, "CUT")); w(&m, 1);
	/* 17: no kflag: a bitfield is an INT of fewer bits (18) */
	type(&m, "old", BT_KIND_STRUCT, 2, 0, 8);
	w(&m, str(&m, "f")); w(&m, 18); w(&m, 33);
	w(&m, str(&m, "g")); w(&m, 1); w(&m, 32);
	type(&m, "int", BT_KIND_INT, 0, 0, 4);			/* 18 */
	w(&m, 3);
	type(&m, "B2", BT_KIND_ENUM, 1, 0, 4);			/* 19 */
	w(&m, str(&m, "B")); w(&m, 6);
	data = mk_done(&m, &len);
	CHECK(bt_open_types(&b, data, len) == 0);
	CHECK(b.nr == 20 && b.nfuncs == 0);
	CHECK(bt_names_open(&n, &b) == 0);

	/* tags: every STRUCT and UNION of the name, ids ascending */
	CHECK(bt_find_tags(&n, "outer", ids, 4) == 2);
	CHECK(ids[0] == 10 && ids[1] == 11);
	CHECK(bt_find_tags(&n, "outer", ids, 1) == 2);
	CHECK(bt_find_tags(&n, "inner", ids, 4) == 1 && ids[0] == 4);
	CHECK(bt_find_tags(&n, "fwdonly", ids, 4) == 0);
	CHECK(bt_find_tags(&n, "int", ids, 4) == 0);
	CHECK(bt_find_tags(&n, "nope", ids, 4) == 0);
	/* every named type a C name can denote */
	{
		struct bt_named nm[4];

		CHECK(bt_find_named(&n, "int", nm, 4) == 2);
		CHECK(nm[0].id == 1 && nm[1].id == 18 &&
		      nm[1].kind == BT_KIND_INT);
		CHECK(bt_find_named(&n, "ip_t", nm, 4) == 1 &&
		      nm[0].kind == BT_KIND_TYPEDEF && nm[0].id == 8);
		CHECK(bt_find_named(&n, "fwdonly", nm, 4) == 1 &&
		      nm[0].kind == BT_KIND_FWD);
		CHECK(bt_find_named(&n, "e", nm, 4) == 1 &&
		      nm[0].kind == BT_KIND_ENUM);
		CHECK(bt_find_named(&n, "outer", nm, 1) == 2 &&
		      nm[0].id == 10);
		CHECK(bt_find_named(&n, "nope", nm, 4) == 0);
		CHECK(bt_find_named(&n, "A", nm, 4) == 0);
	}

	/* members: in an anonymous union, along a path, a bitfield */
	CHECK(bt_member(&b, 10, "x", &mb) == 1 && mb.bit_off == 0);
	CHECK(bt_member(&b, 10, "u1", &mb) == 1 && mb.bit_off == 64 &&
	      mb.type == 3);
	CHECK(bt_member(&b, 10, "u2", &mb) == 1 && mb.bit_off == 64 &&
	      mb.type == 5);
	CHECK(bt_member(&b, 10, "arr", &mb) == 1 && mb.bit_off == 128 &&
	      bt_type_size(&b, mb.type, 8) == 16);
	CHECK(bt_member(&b, 10, "in.b", &mb) == 1 && mb.bit_off == 384 + 32);
	CHECK(bt_member(&b, 10, "in.c", &mb) == 0);
	CHECK(bt_member(&b, 10, "nope", &mb) == 0);
	CHECK(bt_member(&b, 10, "x.y", &mb) == -1);
	CHECK(bt_member(&b, 10, "in.", &mb) == -1);
	CHECK(bt_member(&b, 10, "bf", &mb) == 1 && mb.bitfield == 3 &&
	      mb.bit_off == 448);
	CHECK(bt_member(&b, 17, "f", &mb) == 1 && mb.bitfield == 3 &&
	      mb.bit_off == 33);
	CHECK(bt_member(&b, 17, "g", &mb) == 1 && mb.bitfield == 0);
	CHECK(bt_member(&b, 3, "x", &mb) == -1);
	CHECK(bt_member(&b, 99, "x", &mb) == -1);

	/* sizes: modifiers and typedefs skipped, a pointer's given */
	CHECK(bt_type_size(&b, 5, 8) == 8 && bt_type_size(&b, 5, 4) == 4);
	CHECK(bt_type_size(&b, 7, 8) == 8 && bt_type_size(&b, 8, 8) == 8);
	CHECK(bt_type_size(&b, 9, 8) == 8 && bt_type_size(&b, 10, 8) == 64);
	CHECK(bt_type_size(&b, 13, 8) == 4 && bt_type_size(&b, 15, 8) == 8);
	CHECK(bt_type_size(&b, 0, 8) == -1 && bt_type_size(&b, 12, 8) == -1);
	CHECK(bt_type_size(&b, 99, 8) == -1);

	/* enumerators: each enum holding the name, values told or refused */
	CHECK(bt_find_enumerators(&n, "B", refs, 4) == 2);
	CHECK(refs[0].id == 13 && refs[0].i == 1 && refs[1].id == 19);
	CHECK(bt_find_enumerators(&n, "nope", refs, 4) == 0);
	CHECK(bt_enumerator(&b, 13, 1, &en, &v) == 1 && v == 5);
	CHECK_STR(en, "B");
	CHECK(bt_enumerator(&b, 13, 2, &en, &v) == -1);
	CHECK(bt_enumerator(&b, 13, 3, &en, &v) == 0);
	CHECK(bt_enumerator(&b, 14, 0, &en, &v) == 1 && v == -1);
	CHECK(bt_enumerator(&b, 15, 0, &en, &v) == 1 &&
	      v == (int64_t)1 << 40);
	CHECK(bt_enumerator(&b, 15, 1, &en, &v) == -1);
	CHECK(bt_enumerator(&b, 16, 0, &en, &v) == -1);
	CHECK(bt_enumerator(&b, 10, 0, &en, &v) == 0);

	bt_names_close(&n);
	bt_close(&b);
	free(data);
}

int main(void)
{
	test_real();
	test_real_split();
	test_args(0, 24);
	test_args(1, 24);
	test_args(0, 32);
	test_bad();
	test_split(0);
	test_split(1);
	test_types(0);
	test_types(1);
	return unit_done("btf");
}
