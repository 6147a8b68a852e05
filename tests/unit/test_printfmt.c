/*
 * Unit tests of lib/printfmt.c.
 *
 * 1. Real records: tests/unit/data/printfmt/records-*.txt hold ring-buffer
 *    records read from fixture vmcores, each with the text that followed
 *    "name: " on the SAME event's line of the live trace file; events.txt
 *    holds every event's print_fmt and fields from the same kernel.  Both
 *    are written by scripts/extract-printfmt.py; nothing is typed by hand.
 * 2. Every print_fmt of the kernel is parsed; the ones we cannot compile
 *    must fail with a reason, and the count is printed.
 * 3. Synthetic records for each construct, with the kernel's semantics.
 * 4. Robustness: truncated records, random bytes, truncated print_fmts.
 */
#include <stdlib.h>
#include <stdint.h>
#include "unit.h"
#include "printfmt.h"

#define DATA "tests/unit/data/printfmt/"

/* ASan: fill ALL of malloc()'s memory with garbage, not its first 4 KiB */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "max_malloc_fill_size=16777216:malloc_fill_byte=127";
}

struct event {
	char *system, *name, *fmt;
	struct pf_field *fields;
	int nfields, type;
};

static struct event *events;
static int nevents;

static char *unesc(const char *s)
{
	char *r = malloc(strlen(s) + 1), *q = r;

	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			*q++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s;
		} else {
			*q++ = *s;
		}
	}
	*q = 0;
	return r;
}

/* Split line at tabs into at most max parts (in place). */
static int split(char *line, char **part, int max)
{
	int n = 0;

	line[strcspn(line, "\n")] = 0;
	while (n < max) {
		part[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = 0;
	}
	return n;
}

static int load_events(void)
{
	FILE *f = fopen(DATA "events.txt", "r");
	static char line[65536];
	char *p[8];
	struct event *e = NULL;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		int n = split(line, p, 8);

		if (p[0][0] == 'E' && n >= 4) {
			events = realloc(events, (nevents + 1) *
					 sizeof(*events));
			e = &events[nevents++];
			memset(e, 0, sizeof(*e));
			e->system = unesc(p[1]);
			e->name = unesc(p[2]);
			e->type = atoi(p[3]);
		} else if (p[0][0] == 'P' && n >= 2 && e) {
			e->fmt = unesc(p[1]);
		} else if (p[0][0] == 'F' && n >= 7 && e) {
			struct pf_field *fl;

			e->fields = realloc(e->fields, (e->nfields + 1) *
					    sizeof(*e->fields));
			fl = &e->fields[e->nfields++];
			fl->offset = atoi(p[1]);
			fl->size = atoi(p[2]);
			fl->is_signed = atoi(p[3]);
			fl->name = unesc(p[5]);
			fl->type = unesc(p[6]);
		}
	}
	fclose(f);
	return 0;
}

static struct event *find_event(const char *name)
{
	int i;

	for (i = 0; i < nevents; i++)
		if (!strcmp(events[i].name, name))
			return &events[i];
	return NULL;
}

static int hex2bin(const char *h, unsigned char *out, size_t max)
{
	size_t n = 0;

	while (h[0] && h[1] && n < max) {
		unsigned int b;

		if (sscanf(h, "%2x", &b) != 1)
			return -1;
		out[n++] = (unsigned char)b;
		h += 2;
	}
	return (int)n;
}

/* 1. records paired with the live truth */
static void test_records(const char *file, int *seen)
{
	FILE *f = fopen(file, "r");
	static char line[65536];
	char *p[8], out[4096], err[256];
	unsigned char rec[4096];

	if (!f) {
		fprintf(stderr, "%s: missing (run scripts/extract-printfmt.py)"
			"\n", file);
		CHECK(0);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		struct event *e;
		struct pf_fmt *fmt;
		char *want;
		int n, len;

		if (line[0] != 'R' || split(line, p, 8) < 6)
			continue;
		e = find_event(p[1]);
		CHECK(e != NULL);
		if (!e)
			continue;
		len = hex2bin(p[4], rec, sizeof(rec));
		fmt = pf_parse(e->fmt, e->fields, e->nfields, err, sizeof(err));
		if (!fmt)
			fprintf(stderr, "%s: %s\n", e->name, err);
		CHECK(fmt != NULL);
		want = unesc(p[5]);
		n = pf_format(fmt, rec, len, NULL, out, sizeof(out));
		CHECK(n >= 0);
		if (n < 0 || strcmp(out, want))
			fprintf(stderr, "%s cpu%s %s:\n", e->name, p[2], p[3]);
		CHECK_STR(out, want);
		(*seen)++;
		/* every shorter record fails cleanly or prints */
		for (n = 0; n < len; n += 3)
			(void)pf_format(fmt, rec, n, NULL, out, sizeof(out));
		free(want);
		pf_free(fmt);
	}
	fclose(f);
}

/* 2. every print_fmt of the kernel */
static void test_parse_all(void)
{
	int i, ok = 0, total = 0, j;
	char err[256];

	for (i = 0; i < nevents; i++) {
		struct pf_fmt *fmt;

		if (!events[i].fmt)
			continue;
		total++;
		err[0] = 0;
		fmt = pf_parse(events[i].fmt, events[i].fields,
			       events[i].nfields, err, sizeof(err));
		if (fmt) {
			unsigned char rec[512];
			char out[1024];

			ok++;
			/* random records: must not crash or overrun */
			for (j = 0; j < 8; j++) {
				size_t k, len = rand() % sizeof(rec);

				for (k = 0; k < len; k++)
					rec[k] = (unsigned char)rand();
				(void)pf_format(fmt, rec, len, NULL, out,
						sizeof(out));
				(void)pf_format(fmt, rec, len, NULL, out, 7);
			}
		} else {
			CHECK(err[0] != 0);
			if (getenv("PF_VERBOSE"))
				fprintf(stderr, "%s:%s: %s\n",
					events[i].system, events[i].name, err);
		}
		pf_free(fmt);
	}
	printf("test_printfmt: %d of %d print_fmts of the kernel compile\n",
	       ok, total);
	CHECK(total > 0 && ok * 10 > total * 9);

	/* mutated print_fmts: parse and format, no crash */
	for (i = 0; i < nevents; i++) {
		char *buf;
		size_t len;

		if (!events[i].fmt || !(len = strlen(events[i].fmt)))
			continue;
		buf = strdup(events[i].fmt);
		for (j = 0; j < 4; j++) {
			static const char pool[] = "%()\"{},?:-+*/<>!&|^~0x9 "
				"REC->_a";
			struct pf_fmt *fmt;
			unsigned char rec[256];
			char out[512];
			size_t k;

			buf[rand() % len] = pool[rand() % (sizeof(pool) - 1)];
			fmt = pf_parse(buf, events[i].fields,
				       events[i].nfields, err, sizeof(err));
			for (k = 0; k < sizeof(rec); k++)
				rec[k] = (unsigned char)rand();
			if (fmt)
				(void)pf_format(fmt, rec, rand() % sizeof(rec),
						NULL, out, sizeof(out));
			pf_free(fmt);
		}
		free(buf);
	}

	/* truncated print_fmts: every prefix fails or parses, no crash */
	for (i = 0; i < nevents; i++) {
		size_t len;
		char *buf;

		if (!events[i].fmt || strcmp(events[i].name, "sched_switch"))
			continue;
		len = strlen(events[i].fmt);
		buf = malloc(len + 1);
		for (j = 0; j <= (int)len; j++) {
			struct pf_fmt *fmt;

			memcpy(buf, events[i].fmt, j);
			buf[j] = 0;
			fmt = pf_parse(buf, events[i].fields,
				       events[i].nfields, err, sizeof(err));
			pf_free(fmt);
		}
		free(buf);
	}
}

/* ---- 3. synthetic records -------------------------------------------- */

static unsigned char R[256];

static void put_le(int off, uint64_t v, int size)
{
	int i;

	for (i = 0; i < size; i++)
		R[off + i] = (unsigned char)(v >> (8 * i));
}

static int sym_cb(void *priv, uint64_t addr, int mode, char *buf,
		  size_t len)
{
	(void)priv;
	if (addr == 0xffffffff81000100ULL)
		return snprintf(buf, len, mode == 1 ? "do_thing+0x10/0x80" :
				"do_thing");
	return -1;
}

static int str_cb(void *priv, uint64_t addr, char *buf, size_t len)
{
	(void)priv;
	if (addr == 0xffffffff82000000ULL)
		return snprintf(buf, len, "kernel string");
	return -1;
}

static const struct pf_field SF[] = {
	{ "common_type", "unsigned short", 0, 2, 0 },
	{ "common_flags", "unsigned char", 2, 1, 0 },
	{ "common_preempt_count", "unsigned char", 3, 1, 0 },
	{ "common_pid", "int", 4, 4, 1 },
	{ "i", "int", 8, 4, 1 },
	{ "u", "unsigned int", 12, 4, 0 },
	{ "l", "long", 16, 8, 1 },
	{ "ul", "unsigned long", 24, 8, 0 },
	{ "c", "char", 32, 1, 1 },
	{ "s", "short", 34, 2, 1 },
	{ "comm", "char[16]", 40, 16, 1 },
	{ "str", "__data_loc char[]", 56, 4, 1 },
	{ "arr", "__data_loc u32[]", 60, 4, 0 },
	{ "ptr", "void *", 64, 8, 0 },
	{ "sptr", "const char *", 72, 8, 0 },
	{ "mac", "u8[6]", 80, 6, 0 },
	{ "mask", "__data_loc unsigned long[]", 88, 4, 0 },
	{ "b", "bool", 92, 1, 0 },
	{ "u64", "u64", 96, 8, 0 },
	{ "rel", "__rel_loc char[]", 104, 4, 1 },
};
#define NSF ((int)(sizeof(SF) / sizeof(SF[0])))
#define RLEN 200

static void synth_record(void)
{
	memset(R, 0, sizeof(R));
	put_le(0, 42, 2);
	put_le(4, 1234, 4);
	put_le(8, (uint64_t)-5, 4);
	put_le(12, 0xfffffff0, 4);
	put_le(16, (uint64_t)-100000000000LL, 8);
	put_le(24, 0xdeadbeefcafeULL, 8);
	R[32] = 'Z';
	put_le(34, (uint64_t)-2, 2);
	memcpy(R + 40, "swapper/0", 10);
	/* str at 120, 6 bytes "hello\0"; arr at 128, 3 u32 */
	memcpy(R + 120, "hello", 6);
	put_le(56, 120 | 6 << 16, 4);
	put_le(128, 1, 4);
	put_le(132, 0x20, 4);
	put_le(136, 0xffffffff, 4);
	put_le(60, 128 | 12 << 16, 4);
	put_le(64, 0xffffffff81000100ULL, 8);
	put_le(72, 0xffffffff82000000ULL, 8);
	memcpy(R + 80, "\x00\x1b\x21\xab\xcd\xef", 6);
	/* mask at 144: 16 bytes, bits 0,1,35,64 */
	put_le(144, 0x800000003ULL, 8);
	put_le(152, 1, 8);
	put_le(88, 144 | 16 << 16, 4);
	R[92] = 1;
	put_le(96, 0x8000000000000001ULL, 8);
	/* rel: relative to the end of the field (108): "rel" at 160 */
	memcpy(R + 160, "rel", 4);
	put_le(104, (160 - 108) | 4 << 16, 4);
}

static void expect_fmt(const char *print_fmt, const char *want)
{
	struct pf_ctx ctx = { 0 };
	char err[256], out[1024];
	struct pf_fmt *f;
	int n;

	ctx.sym = sym_cb;
	ctx.read_str = str_cb;
	ctx.flags = PF_CTX_HAVE_PTR_KEY;
	ctx.ptr_key[0] = 0x0706050403020100ULL;
	ctx.ptr_key[1] = 0x0f0e0d0c0b0a0908ULL;
	f = pf_parse(print_fmt, SF, NSF, err, sizeof(err));
	if (!f) {
		fprintf(stderr, "parse %s: %s\n", print_fmt, err);
		CHECK(0);
		return;
	}
	n = pf_format(f, R, RLEN, &ctx, out, sizeof(out));
	if (n < 0)
		fprintf(stderr, "format %s: %s\n", print_fmt, out);
	CHECK_STR(out, want);
	pf_free(f);
}

/* the construct must be refused with a reason containing why */
static void expect_fail(const char *print_fmt, const char *why)
{
	char err[256] = "", out[256];
	struct pf_fmt *f = pf_parse(print_fmt, SF, NSF, err, sizeof(err));
	int n;

	if (f) {
		n = pf_format(f, R, RLEN, NULL, out, sizeof(out));
		CHECK(n < 0);
		if (n >= 0)
			fprintf(stderr, "%s: printed \"%s\"\n", print_fmt,
				out);
		strcpy(err, out);
		pf_free(f);
	}
	if (!strstr(err, why))
		fprintf(stderr, "%s: reason \"%s\" lacks \"%s\"\n", print_fmt,
			err, why);
	CHECK(strstr(err, why) != NULL);
}

static void test_synthetic(void)
{
	synth_record();
	/* integers and conversions */
	expect_fmt("\"%d %u %ld %lu\", REC->i, REC->u, REC->l, REC->ul",
		   "-5 4294967280 -100000000000 244837814094590");
	expect_fmt("\"%x %#x %#lx %#lx %#o %#o\", REC->u, REC->u, REC->ul, "
		   "0UL, 8, 0", "fffffff0 0xfffffff0 0xdeadbeefcafe 0x0 010 0");
	expect_fmt("\"[%5d][%-5d][%05d][%+d][% d][%.3d][%5.3d]\", REC->i, "
		   "REC->i, REC->i, 7, 7, 7, 7",
		   "[   -5][-5   ][-0005][+7][ 7][007][  007]");
	expect_fmt("\"%hhx %hx %hu %hd %hhd\", REC->u, REC->u, REC->s, "
		   "REC->s, REC->i", "f0 fff0 65534 -2 -5");
	expect_fmt("\"%llx %lld %llu %zu %zd %X %lX\", REC->u64, REC->l, "
		   "REC->u64, REC->ul, REC->l, 255, REC->ul",
		   "8000000000000001 -100000000000 9223372036854775809 "
		   "244837814094590 -100000000000 FF DEADBEEFCAFE");
	expect_fmt("\"%c%c|%3c|%-3c|%%|%i\", REC->c, 'a', 'b', 'c', 3",
		   "Za|  b|c  |%|3");
	expect_fmt("\"%*d|%-*d|%.*s|%0*x\", 4, 1, 4, 2, 3, REC->comm, 6, 255",
		   "   1|2   |swa|0000ff");
	expect_fmt("\"%d %u\", REC->b, REC->c", "1 90");
	/* vsprintf.c: "%.d" keeps precision -1; number() always prints
	 * one digit (glibc prints "" for "%.0d" of 0); "%Lu" is long long */
	expect_fmt("\"[%.d][%.0d][%Lu]\", 0, 0, REC->u64",
		   "[0][0][9223372036854775809]");
	/* strings */
	expect_fmt("\"%s|%10s|%-10s|%.4s\", REC->comm, __get_str(str), "
		   "__get_str(str), REC->comm",
		   "swapper/0|     hello|hello     |swap");
	expect_fmt("\"%s %s\", __get_rel_str(rel), \"lit\\t\\x41\\101\"",
		   "rel lit\tAA");
	expect_fmt("\"%s\" \" %s\", REC->sptr, (char *)REC->comm",
		   "kernel string swapper/0");
	expect_fmt("\"%s\", 0 ? \"x\" : 0", "(null)");
	{
		/* a char array without its NUL runs on into the next field */
		char err[64], out[128];
		struct pf_fmt *f = pf_parse("\"%s\", REC->mac", SF, NSF, err,
					    sizeof(err));

		R[80] = 'a';
		pf_format(f, R, RLEN, NULL, out, sizeof(out));
		CHECK_STR(out, "a\x1b!\xab\xcd\xef");
		memset(R + 80, 'x', 6);
		R[86] = 'y';
		R[87] = 'z';
		pf_format(f, R, 88, NULL, out, sizeof(out));
		CHECK_STR(out, "xxxxxxyz");
		pf_free(f);
		synth_record();
	}
	{
		/* a 32-bit kernel: long is 32 bits */
		struct pf_ctx c4 = { 0 };
		char err[64], out[128];
		struct pf_fmt *f;

		c4.long_size = 4;
		f = pf_parse_ctx("\"%lx %lu %ld %s %zu\", REC->i, (unsigned long)-1, "
				 "(long)REC->u, __print_flags(-1L, \"|\", { 1, "
				 "\"A\" }), sizeof(long)", SF, NSF, &c4, err,
				 sizeof(err));
		CHECK(f != NULL);
		pf_format(f, R, RLEN, &c4, out, sizeof(out));
		CHECK_STR(out, "fffffffb 4294967295 -16 A|0xfffffffe 4");
		pf_free(f);
	}
	/* expressions */
	expect_fmt("\"%d %d %d %d %d %d\", 7 / 2, -7 / 2, -7 % 3, 1 << 4, "
		   "-16 >> 2, 0x10 >> 4",
		   "3 -3 -1 16 -4 1");
	expect_fmt("\"%d %d %d %d %d %d %d\", 3 < 4, 4 <= 3, REC->u > 5, "
		   "REC->i < 0, REC->i < 0U, !5, ~0",
		   "1 0 1 1 0 0 -1");
	expect_fmt("\"%d %d %d %d\", 1 && 0, 1 || 0, 0 || REC->i, "
		   "(5 & 3) | (8 ^ 1)", "0 1 1 9");
	expect_fmt("\"%s %s %d\", REC->i ? \"yes\" : \"no\", "
		   "REC->u == 0 ? \"zero\" : REC->u > 10 ? \"big\" : \"small\","
		   " REC->b ? 10 : 20", "yes big 10");
	expect_fmt("\"%lu %d %u %d %d\", (unsigned long)REC->i, (u8)REC->u, "
		   "(unsigned char)REC->i, (s8)REC->u, (int)REC->l",
		   "18446744073709551611 240 251 -16 -1215752192");
	expect_fmt("\"%lu %lu %d\", sizeof(u32), sizeof(unsigned long), "
		   "(bool)REC->u", "4 8 1");
	expect_fmt("\"%d\", REC->comm[1]", "119");
	expect_fmt("\"%u %u\", __get_dynamic_array_len(arr), "
		   "__get_dynamic_array_len(str)", "12 6");
	/* helpers */
	expect_fmt("\"%s|%s|%s\", __print_flags(REC->u, \"|\", "
		   "{ 0x10, \"A\" }, { 0x20, \"B\" }, { 0x40, \"C\" }), "
		   "__print_flags(0, \"|\", { 1, \"X\" }), "
		   "__print_flags(3, \",\", { 1, \"X\" })",
		   "A|B|C|0xffffff80||X,0x2");
	expect_fmt("\"%s %s %s\", __print_symbolic(2, { 1, \"one\" }, "
		   "{ 2, \"two\" }), __print_symbolic(9, { 1, \"one\" }), "
		   "__print_symbolic_u64(REC->u64, { 0x8000000000000001ULL, "
		   "\"big\" })", "two 0x9 big");
	expect_fmt("\"%s\", __print_flags_u64(REC->u64, \" \", "
		   "{ 1, \"lo\" })", "lo 0x8000000000000000");
	expect_fmt("\"%s|%s\", __print_hex(__get_str(str), 3), "
		   "__print_hex_str(REC->mac, 6)", "68 65 6c|001b21abcdef");
	expect_fmt("\"%s %s\", __print_array(__get_dynamic_array(arr), "
		   "__get_dynamic_array_len(arr) / 4, 4), "
		   "__print_array(REC->mac, 3, 2)",
		   "{0x1,0x20,0xffffffff} {0x1b00,0xab21,0xefcd}");
	expect_fmt("\"%s\", __print_array(REC->mac, 2, 3)",
		   "{BAD SIZE:3 0x0,0x1b,0x21,0xab,0xcd,0xef}");
	expect_fmt("\"%s\", __get_bitmask(mask)", "00000000,00000001,00000008,00000003");
	/* pointers */
	expect_fmt("\"%pS %ps %pS %px %pK\", REC->ptr, REC->ptr, 0x1234UL, "
		   "REC->ptr, 0", "do_thing+0x10/0x80 do_thing 0x1234 "
		   "ffffffff81000100 0000000000000000");
	expect_fmt("\"%pM %pm %pMR %pI4 %*phD %*ph\", REC->mac, REC->mac, "
		   "REC->mac, REC->mac, 3, REC->mac, 2, REC->mac",
		   "00:1b:21:ab:cd:ef 001b21abcdef ef:cd:ab:21:1b:00 "
		   "0.27.33.171 00-1b-21 00 1b");
	/* IPv6 and sockaddrs (lib/vsprintf.c ip6_compressed_string()) */
	{
		static const struct pf_field nf[] = {
			{ "a6", "__u8[16]", 8, 16, 0 },
			{ "sa", "__u8[28]", 24, 28, 0 },
			{ "m", "__u8[16]", 52, 16, 0 },
		};
		static const unsigned char a6[16] = { 0x20, 0x01, 0x0d, 0xb8,
			0, 0, 0, 0, 0, 0, 0, 0x0f, 0, 0, 0, 1 };
		static const unsigned char m4[16] = { 0, 0, 0, 0, 0, 0, 0, 0,
			0, 0, 0xff, 0xff, 192, 168, 1, 2 };
		char err[256], out[512];
		struct pf_fmt *f;

		memset(R, 0, sizeof(R));
		memcpy(R + 8, a6, 16);
		put_le(24, 10, 2);		/* AF_INET6 */
		R[26] = 0x01;			/* port 443, big endian */
		R[27] = 0xbb;
		memcpy(R + 32, a6, 16);
		put_le(48, 3, 4);		/* scope id */
		memcpy(R + 52, m4, 16);
		f = pf_parse("\"%pI6c|%pI6|%pi6|%pISpc|%pISpsc|%pI6c\", "
			     "REC->a6, REC->a6, REC->a6, REC->sa, REC->sa, REC->m",
			     nf, 3, err, sizeof(err));
		CHECK(f != NULL);
		pf_format(f, R, 80, NULL, out, sizeof(out));
		CHECK_STR(out, "2001:db8::f:0:1|2001:0db8:0000:0000:0000:000f:"
			  "0000:0001|20010db8000000000000000f00000001|"
			  "[2001:db8::f:0:1]:443|[2001:db8::f:0:1]:443%3|"
			  "::ffff:192.168.1.2");
		put_le(24, 2, 2);		/* AF_INET */
		R[28] = 10;
		R[29] = 0;
		R[30] = 0;
		R[31] = 7;
		pf_format(f, R, 80, NULL, out, sizeof(out));
		CHECK(strstr(out, "|10.0.0.7:443|10.0.0.7:443|") != NULL);
		put_le(24, 1, 2);		/* AF_UNIX */
		pf_format(f, R, 80, NULL, out, sizeof(out));
		CHECK(strstr(out, "|(einval)|(einval)|") != NULL);
		pf_free(f);
		synth_record();
	}
	/* %p: NULL and error pointers are not hashed; others are */
	expect_fmt("\"%p %p %20psfoo|\", 0, -22L, REC->ptr",
		   "0000000000000000 ffffffffffffffea             do_thing|");
	{
		/* before the key is filled; and "nohash-ptr" */
		struct pf_ctx c2 = { 0 };
		char err[64], out[128];
		struct pf_fmt *f = pf_parse("\"%p|%p|%-20p|\", REC->ptr, 0, "
					    "REC->ptr", SF, NSF, err,
					    sizeof(err));

		c2.flags = PF_CTX_PTR_KEY_UNSET;
		pf_format(f, R, RLEN, &c2, out, sizeof(out));
		CHECK_STR(out, "(____ptrval____)|0000000000000000|"
			  "(____ptrval____)|");
		c2.flags = PF_CTX_NO_HASH_PTR | PF_CTX_HAVE_PTR_KEY;
		pf_format(f, R, RLEN, &c2, out, sizeof(out));
		/* only a bare "%p" becomes "%px" (trace_event_format()) */
		CHECK(!strncmp(out, "ffffffff81000100|0000000000000000|",
			       34) && strlen(out) == 34 + 21);
		c2.flags = 0;
		CHECK(pf_format(f, R, RLEN, &c2, out, sizeof(out)) ==
		      -PF_ENEED);
		pf_free(f);
	}
	{
		/* nohash-ptr on v5.12..v6.12: trace_check_vprintf() printed
		 * the first "%s" it found ("%-6s" is not one) with an empty
		 * format; the arguments stay in step */
		struct pf_ctx c3 = { 0 };
		char err[64], a[256], b[256], want[256], *bar1, *bar2;
		struct pf_fmt *f = pf_parse("\"<%-6s|%s|%d|%.*s>\", "
					    "REC->comm, REC->comm, REC->i, 3, "
					    "REC->comm", SF, NSF, err,
					    sizeof(err));

		CHECK(f != NULL);
		if (f) {
			CHECK(pf_format(f, R, RLEN, NULL, a, sizeof(a)) > 0);
			c3.flags = PF_CTX_FIRST_S_EMPTY;
			CHECK(pf_format(f, R, RLEN, &c3, b, sizeof(b)) > 0);
			bar1 = strchr(a, '|');
			bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
			CHECK(bar2 != NULL && bar2 > bar1 + 1);
			if (bar2) {
				snprintf(want, sizeof(want), "%.*s%s",
					 (int)(bar1 + 1 - a), a, bar2);
				CHECK_STR(b, want);
			}
			pf_free(f);
		}
	}
	/* kernel siphash_1u64 of a known vector */
	{
		uint64_t key[2] = { 0x0706050403020100ULL,
				    0x0f0e0d0c0b0a0908ULL };

		/* SipHash-2-4 paper vector: 8 bytes 00..07 */
		CHECK(pf_siphash_1u64(0x0706050403020100ULL, key) ==
		      0x93f5f5799a932462ULL);
	}
	/* refused constructs name themselves */
	expect_fail("\"%d\", foo(REC->i)", "foo");
	expect_fail("\"%d\", REC->nope", "nope");
	expect_fail("\"%d\", UNKNOWN_ENUM", "UNKNOWN_ENUM");
	expect_fail("\"%d %d\", REC->i", "conversions");
	expect_fail("\"%d\", REC->i / 0", "division");
	expect_fail("\"%pD\", REC->ptr", "%pD");
	expect_fail("\"%n\", REC->i", "%n");
	expect_fail("\"%d\", (struct foo)REC->i", "struct");
	expect_fail("\"%d\", REC->i,", "end");
	expect_fail("\"%s\", REC->ul", "memory");
	expect_fail("\"%lx\", REC->comm", "array");
	{
		/* deep nesting is refused, not a stack overflow */
		char deep[4096];
		int i, n = 0;

		n += sprintf(deep, "\"%%d\", ");
		for (i = 0; i < 1000; i++)
			deep[n++] = '(';
		deep[n++] = '1';
		for (i = 0; i < 1000; i++)
			deep[n++] = ')';
		deep[n] = 0;
		expect_fail(deep, "deep");
		n = sprintf(deep, "\"%%d\", ");
		for (i = 0; i < 1000; i++)
			deep[n++] = '-';
		deep[n++] = '1';
		deep[n] = 0;
		expect_fail(deep, "deep");
		/* a long flat chain makes a deep tree, too */
		n = sprintf(deep, "\"%%d\", 1");
		for (i = 0; i < 1000; i++)
			n += sprintf(deep + n, "+1");
		expect_fail(deep, "deep");
		n = sprintf(deep, "\"%%d\", 1");
		for (i = 0; i < 100; i++)
			n += sprintf(deep + n, "+1");
		expect_fmt(deep, "101");
	}
	/* the record is too short: an error, not a read past its end */
	{
		char err[256], out[256];
		struct pf_fmt *f = pf_parse("\"%s %d\", __get_str(str), "
					    "REC->u64", SF, NSF, err,
					    sizeof(err));
		int n;

		CHECK(f != NULL);
		n = pf_format(f, R, 100, NULL, out, sizeof(out));
		CHECK(n == -PF_ERANGE);
		n = pf_format(f, R, 125, NULL, out, sizeof(out));
		CHECK(n == -PF_ERANGE);
		n = pf_format(f, R, RLEN, NULL, out, 4);
		CHECK(n == 3 && !strcmp(out, "hel"));
		pf_free(f);
	}
}

/* The fallback line and the syscall lines. */
static void test_fallback_syscalls(void)
{
	static const struct pf_sysmeta rd = {
		"sys_read", 3, { "fd", "buf", "count" },
		{ "unsigned int", "char *", "size_t" }, 0, -1, 0 };
	static const struct pf_field ret[] = {
		{ "__syscall_nr", "int", 8, 4, 1 },
		{ "ret", "long", 16, 8, 1 },
	};
	char out[512];

	memset(R, 0, sizeof(R));
	put_le(16, 3, 8);
	put_le(24, 0x7ffc1234, 8);
	put_le(32, 832, 8);
	CHECK(pf_syscall_enter(&rd, R, 40, 16, 0, NULL, out, sizeof(out)) > 0);
	CHECK_STR(out, "sys_read(fd: 3, buf: 7ffc1234, count: 340)");
	pf_syscall_enter(&rd, R, 40, 16, PF_SYS_VERBOSE, NULL, out,
			 sizeof(out));
	CHECK_STR(out, "sys_read(unsigned int fd: 3, char * buf: 7ffc1234, "
		  "size_t count: 340)");
	pf_syscall_enter(&rd, R, 40, 16, PF_SYS_USER, NULL, out, sizeof(out));
	CHECK_STR(out, "sys_read(fd: 3, buf: 0x7ffc1234, count: 0x340)");
	CHECK(pf_syscall_enter(&rd, R, 39, 16, 0, NULL, out, sizeof(out)) ==
	      -PF_ERANGE);
	{
		/* the names' lengths given (render/event_text.c): the same
		 * text; every room cuts it where printing byte by byte
		 * would (the hex digits written two at a time) */
		struct pf_sysmeta rl = rd;
		char want[512], cut[128];
		size_t room;

		rl.name_len = 8;
		rl.arg_len[0] = 2;
		rl.arg_len[1] = 3;
		rl.arg_len[2] = 5;
		put_le(24, 0xfedcba9876543210ULL, 8);
		CHECK(pf_syscall_enter(&rd, R, 40, 16, PF_SYS_USER, NULL, want,
				       sizeof(want)) > 0);
		CHECK_STR(want, "sys_read(fd: 3, buf: 0xfedcba9876543210, "
			  "count: 0x340)");
		for (room = 1; room <= strlen(want) + 1; room++) {
			memset(cut, 'Z', sizeof(cut));
			pf_syscall_enter(&rl, R, 40, 16, PF_SYS_USER, NULL,
					 cut, room);
			CHECK(!strncmp(cut, want, room - 1) &&
			      cut[room - 1] == '\0' && cut[room] == 'Z');
		}
		/* the plain line, written straight when its longest text
		 * fits (16 digits an argument), else byte by byte */
		CHECK(pf_syscall_enter(&rd, R, 40, 16, 0, NULL, want,
				       sizeof(want)) > 0);
		CHECK_STR(want, "sys_read(fd: 3, buf: fedcba9876543210, "
			  "count: 340)");
		for (room = 1; room < sizeof(cut) - 1; room++) {
			memset(cut, 'Z', sizeof(cut));
			pf_syscall_enter(&rl, R, 40, 16, 0, NULL, cut, room);
			CHECK(room > strlen(want) ? !strcmp(cut, want) :
			      !strncmp(cut, want, room - 1) &&
			      cut[room - 1] == '\0');
			CHECK(cut[room] == 'Z');
		}
		put_le(24, 0x7ffc1234, 8);
	}
	{
		/* v6.19: the user string of an argument follows it; openat
		 * by its own printer */
		static const struct pf_sysmeta op = {
			"sys_openat", 4, { "dfd", "filename", "flags", "mode" },
			{ "int", "const char *", "int", "umode_t" },
			1u << 1, -1, 0 };

		memset(R, 0, sizeof(R));
		put_le(16, (uint64_t)-100, 8);
		put_le(24, 0x55d0c0de, 8);
		put_le(32, 0x80241, 8);	/* WRONLY|CREAT|TRUNC|CLOEXEC */
		put_le(40, 0644, 8);
		put_le(48, 52 | 10 << 16, 4);
		memcpy(R + 52, "/etc/motd", 10);
		pf_syscall_enter(&op, R, 62, 16, PF_SYS_USER, NULL, out,
				 sizeof(out));
		CHECK_STR(out, "sys_openat(dfd: 0xffffffffffffff9c, filename: "
			  "0x55d0c0de \"/etc/motd\", flags: 0x80241, mode: "
			  "0x1a4)");
		pf_syscall_enter(&op, R, 62, 16, PF_SYS_USER | PF_SYS_OPENAT,
				 NULL, out, sizeof(out));
		CHECK_STR(out, "sys_openat(dfd: 18446744073709551516, filename: "
			  "1439744222 \"/etc/motd\", flags: O_WRONLY|O_CREAT|"
			  "O_TRUNC|O_CLOEXEC, mode: 0644)");
		/* verbose: the generic line with types */
		pf_syscall_enter(&op, R, 62, 16, PF_SYS_USER | PF_SYS_OPENAT |
				 PF_SYS_VERBOSE, NULL, out, sizeof(out));
		CHECK_STR(out, "sys_openat(int dfd: 0xffffffffffffff9c, "
			  "const char * filename: 0x55d0c0de \"/etc/motd\", "
			  "int flags: 0x80241, umode_t mode: 0x1a4)");
		/* no O_CREAT: no mode; read-only; leftover bits in hex */
		put_le(32, 0, 8);
		pf_syscall_enter(&op, R, 62, 16, PF_SYS_USER | PF_SYS_OPENAT,
				 NULL, out, sizeof(out));
		CHECK_STR(out, "sys_openat(dfd: 18446744073709551516, filename: "
			  "1439744222 \"/etc/motd\", flags: O_RDONLY)");
		put_le(32, 0x90800 | 0x2000000, 8);
		pf_syscall_enter(&op, R, 62, 16, PF_SYS_USER | PF_SYS_OPENAT,
				 NULL, out, sizeof(out));
		CHECK_STR(out, "sys_openat(dfd: 18446744073709551516, filename: "
			  "1439744222 \"/etc/motd\", flags: O_RDONLY|"
			  "O_NONBLOCK|O_DIRECTORY|O_CLOEXEC|0x2000000, mode: "
			  "0644)");
		/* O_TMPFILE takes O_DIRECTORY with it */
		put_le(32, 0x410002, 8);
		pf_syscall_enter(&op, R, 62, 16, PF_SYS_USER | PF_SYS_OPENAT,
				 NULL, out, sizeof(out));
		CHECK_STR(out, "sys_openat(dfd: 18446744073709551516, filename: "
			  "1439744222 \"/etc/motd\", flags: O_TMPFILE|O_RDWR, "
			  "mode: 0644)");
		/* the length word beyond the record */
		CHECK(pf_syscall_enter(&op, R, 50, 16, PF_SYS_USER, NULL, out,
				       sizeof(out)) < 0);
		put_le(48, 52 | 11 << 16, 4);	/* the data beyond it */
		CHECK(pf_syscall_enter(&op, R, 62, 16, PF_SYS_USER, NULL, out,
				       sizeof(out)) < 0);
	}
	{
		/* write(): an array of user data, its size argument; two
		 * user strings (rename) */
		static const struct pf_sysmeta wr = {
			"sys_write", 3, { "fd", "buf", "count" },
			{ "unsigned int", "const char *", "size_t" },
			1u << 1, 2, 0 };
		static const struct pf_sysmeta rn = {
			"sys_rename", 2, { "oldname", "newname" },
			{ "const char *", "const char *" }, 3, -1, 0 };

		memset(R, 0, sizeof(R));
		put_le(16, 1, 8);
		put_le(24, 0x1000, 8);
		put_le(32, 5, 8);
		put_le(40, 44 | 4 << 16, 4);
		memcpy(R + 44, "hi\n\x01", 4);
		pf_syscall_enter(&wr, R, 48, 16, PF_SYS_USER, NULL, out,
				 sizeof(out));
		CHECK_STR(out, "sys_write(fd: 1, buf: 0x1000 (68:69:0a:01, "
			  "...) \"hi..\"..., count: 5)");
		put_le(32, 4, 8);
		pf_syscall_enter(&wr, R, 48, 16, PF_SYS_USER, NULL, out,
				 sizeof(out));
		CHECK_STR(out, "sys_write(fd: 1, buf: 0x1000 (68:69:0a:01) "
			  "\"hi..\", count: 4)");
		memcpy(R + 44, "\x01\x02\x03\x04", 4);
		pf_syscall_enter(&wr, R, 48, 16, PF_SYS_USER, NULL, out,
				 sizeof(out));
		CHECK_STR(out, "sys_write(fd: 1, buf: 0x1000 (01:02:03:04), "
			  "count: 4)");
		memset(R, 0, sizeof(R));
		put_le(16, 0x2000, 8);
		put_le(24, 0x3000, 8);
		put_le(32, 40 | 3 << 16, 4);
		put_le(36, 43 | 3 << 16, 4);
		memcpy(R + 40, "ab\0cd\0", 6);
		pf_syscall_enter(&rn, R, 46, 16, PF_SYS_USER, NULL, out,
				 sizeof(out));
		CHECK_STR(out, "sys_rename(oldname: 0x2000 \"ab\", newname: "
			  "0x3000 \"cd\")");
		memset(R, 0, sizeof(R));
	}
	put_le(16, (uint64_t)-2, 8);
	pf_syscall_exit("sys_read", R, 24, ret, 2, NULL, out, sizeof(out));
	CHECK_STR(out, "sys_read -> 0xfffffffffffffffe");
	synth_record();
	pf_fields(SF, 8, R, RLEN, NULL, out, sizeof(out));
	CHECK_STR(out, "i=-5 u=4294967280 l=-100000000000 ul=244837814094590");
	pf_fields(SF + 10, 2, R, RLEN, NULL, out, sizeof(out));
	CHECK_STR(out, "comm=swapper/0 str=hello");
}

/*
 * pf_plan()'s conversions, printed straight from the record, against the
 * general path: "REC->x + 0" has the same value in the same type (the
 * field promoted to int or wider, added to an int 0) but is an operator,
 * which the plan leaves to pf_eval().  Every field size and sign, the
 * conversions and widths the plan takes and some it does not, values at
 * each type's edges, and every room of the output buffer (a number is cut
 * where the room ends, as number() cuts it).
 */
static void test_fast_conversions(void)
{
	static const char *const fields[] = {
		"i", "u", "l", "ul", "c", "s", "b", "u64", "common_type",
		"common_flags",
	};
	static const char *const convs[] = {
		"%d", "%u", "%ld", "%lu", "%lld", "%llu", "%hd", "%hu", "%hhd",
		"%hhu", "%zu", "%03d", "%5d", "%020d", "%20u", "%021d", "%-5d",
		"%+d", "%x", "%1d", "%0d",
	};
	static const uint64_t vals[] = {
		0, 1, 9, 10, 99, 100, 127, 128, 255, 256, 32767, 32768, 65535,
		0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ULL,
		0x7fffffffffffffffULL, 0x8000000000000000ULL, ~0ULL,
		(uint64_t)-5, (uint64_t)-100000000000LL, 999999999999999999ULL,
	};
	struct pf_ctx ctx = { 0 };
	char fmt[2][128], err[256], out[2][96];
	size_t fi, ci, vi;
	int room, n[2], k;

	for (fi = 0; fi < sizeof(fields) / sizeof(fields[0]); fi++)
		for (ci = 0; ci < sizeof(convs) / sizeof(convs[0]); ci++) {
			struct pf_fmt *f[2];

			snprintf(fmt[0], sizeof(fmt[0]),
				 "\"a=%s; %s\", REC->%s, REC->comm", convs[ci],
				 "%s", fields[fi]);
			snprintf(fmt[1], sizeof(fmt[1]),
				 "\"a=%s; %s\", REC->%s + 0, (char *)REC->comm",
				 convs[ci], "%s", fields[fi]);
			f[0] = pf_parse(fmt[0], SF, NSF, err, sizeof(err));
			f[1] = pf_parse(fmt[1], SF, NSF, err, sizeof(err));
			CHECK(f[0] && f[1]);
			if (!f[0] || !f[1]) {
				pf_free(f[0]);
				pf_free(f[1]);
				continue;
			}
			for (vi = 0; vi < sizeof(vals) / sizeof(vals[0]); vi++) {
				const struct pf_field *fl = NULL;
				int j;

				synth_record();
				for (j = 0; j < NSF; j++)
					if (!strcmp(SF[j].name, fields[fi]))
						fl = &SF[j];
				put_le(fl->offset, vals[vi], fl->size);
				for (room = 1; room <= (int)sizeof(out[0]);
				     room++) {
					for (k = 0; k < 2; k++)
						n[k] = pf_format(f[k], R, RLEN,
								 &ctx, out[k],
								 room);
					CHECK(n[0] == n[1]);
					CHECK_STR(out[0], out[1]);
				}
			}
			pf_free(f[0]);
			pf_free(f[1]);
		}
	/* a %s of an array without its NUL reads on to the record's end */
	{
		struct pf_fmt *f = pf_parse("\"[%s]\", REC->comm", SF, NSF,
					    err, sizeof(err));

		CHECK(f != NULL);
		synth_record();
		memset(R + 40, 'x', RLEN - 40);
		R[RLEN - 1] = 'y';
		n[0] = pf_format(f, R, RLEN, &ctx, out[0], sizeof(out[0]));
		CHECK(n[0] == (int)sizeof(out[0]) - 1);
		/* a record that ends inside the field: the general path's
		 * error, not a read past it */
		n[0] = pf_format(f, R, 50, &ctx, out[0], sizeof(out[0]));
		CHECK(n[0] < 0);
		pf_free(f);
	}
}

/*
 * pf_plan()'s kept strings (a %s whose argument depends on one integer
 * field: sched_switch's prev_state) against a format compiled afresh for
 * each record, whose every argument is evaluated.  Values drawn from a few
 * so that most are kept ones; one format of 120 such %s whose names fill
 * the kernel's tmp_seq past its page, so a kept string meets a tmp too
 * full for it (evaluated then, and cut as the evaluation cuts it), at
 * offsets that move with the first argument's length.
 */
static void test_memo(void)
{
	static const char *const masks =
		"((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | "
		"0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1)"
		" - 1)";
	static const uint64_t lv[] = {
		0, 1, 2, 0x80, 0x100, 0x101, 0x3, 0x1000, 0x7f, 0x300,
	};
	char *fmt[4], err[256], out[2][6000];
	struct pf_ctx ctx = { 0 };
	size_t k, len;
	int i, r, n[2], room;

	fmt[0] = malloc(2048);
	snprintf(fmt[0], 2048, "\"prev_state=%%s%%s ==> next\", (REC->l & %s) "
		 "? __print_flags(REC->l & %s, \"|\", { 0x00000001, \"S\" }, "
		 "{ 0x00000002, \"D\" }, { 0x00000004, \"T\" }, { 0x00000008, "
		 "\"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, { "
		 "0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", REC->l & "
		 "(%s + 1) ? \"+\" : \"\"", masks, masks, masks);
	fmt[1] = strdup("\"%s|%s|%s|%s\", REC->u ? __print_symbolic(REC->u, "
			"{ 1, \"one\" }, { 2, \"two\" }) : \"none\", REC->b ? "
			"\"+\" : \"\", (REC->c > 0) ? \"pos\" : (char *)0, "
			"__print_flags(REC->u64, \"/\", { 1, \"a\" }, { 2, "
			"\"b\" })");
	/* 120 arguments, each ~41 bytes of tmp */
	len = 64 + 120 * 120;
	fmt[2] = malloc(len);
	k = (size_t)snprintf(fmt[2], len, "\"");
	for (i = 0; i < 120; i++)
		k += (size_t)snprintf(fmt[2] + k, len - k, "%%s");
	k += (size_t)snprintf(fmt[2] + k, len - k, "\"");
	for (i = 0; i < 120; i++)
		k += (size_t)snprintf(fmt[2] + k, len - k, ", __print_symbolic("
				      "REC->%s, { 0, \"%s\" }, { 1, \"x\" }, "
				      "{ 2, \"%s\" })", i ? "s" : "i",
				      "0123456789abcdef0123456789abcdef01234567",
				      i % 7 ? "z" : "0123456789abcdefghij");
	/* a string the plan does not keep: another field inside it */
	fmt[3] = strdup("\"%s\", REC->i ? __print_symbolic(REC->u, { 1, "
			"\"one\" }) : \"zero\"");
	for (k = 0; k < 4; k++) {
		struct pf_fmt *f = pf_parse(fmt[k], SF, NSF, err, sizeof(err));

		CHECK(f != NULL);
		if (!f) {
			fprintf(stderr, "parse %s: %s\n", fmt[k], err);
			continue;
		}
		for (r = 0; r < 400; r++) {
			struct pf_fmt *g = pf_parse(fmt[k], SF, NSF, err,
						    sizeof(err));

			synth_record();
			put_le(16, lv[rand() % 10], 8);
			put_le(12, (uint64_t)(rand() % 4), 4);
			R[92] = (unsigned char)(rand() % 2);
			R[32] = (unsigned char)(rand() % 3 - 1);
			put_le(96, (uint64_t)(rand() % 5), 8);
			put_le(8, (uint64_t)(rand() % 4), 4);
			put_le(34, (uint64_t)(rand() % 3), 2);
			if (r == 1) {
				/* every name the long one */
				put_le(8, 0, 4);
				put_le(34, 0, 2);
			}
			room = r % 3 ? (int)sizeof(out[0]) : 1 + rand() % 200;
			n[0] = pf_format(f, R, RLEN, &ctx, out[0], room);
			n[1] = g ? pf_format(g, R, RLEN, &ctx, out[1], room) :
				-1;
			CHECK(g != NULL && n[0] == n[1]);
			CHECK_STR(out[0], out[1]);
			if (k == 2 && r == 1)
				/* the tmp_seq's page is full: text cut */
				CHECK(n[0] > 3900 && n[0] < 120 * 40);
			pf_free(g);
		}
		pf_free(f);
	}
	for (k = 0; k < 4; k++)
		free(fmt[k]);
}

/*
 * The list of steps (lib/printfmt_ops.c: a sched_switch-like format of
 * texts, integers and strings from the record and kept strings) against
 * the general loop: the same format with one argument written
 * "REC->x + 0", which no step prints, compiled afresh for each record
 * (its kept strings evaluated).  Records whose values are drawn from a
 * few (kept strings found again), a comm without its NUL (read on to the
 * record's end), every room from 1 byte (nothing written past it), a long
 * text, pf_nul_free().
 */
static void test_ops(void)
{
	static const char *const masks =
		"((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | "
		"0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1)"
		" - 1)";
	static const uint64_t lv[] = { 0, 1, 2, 0x80, 0x100, 0x101, 0x3 };
	static const char *const tail[] = {
		"", " a text longer than the thirty-two bytes moved at once",
	};
	char fmt[2][2048], err[256], out[2][1200];
	struct pf_ctx ctx = { 0 };
	int r, t, k, n[2], room;

	for (t = 0; t < 2; t++) {
		struct pf_fmt *f;

		for (k = 0; k < 2; k++)
			snprintf(fmt[k], sizeof(fmt[k]), "\"comm=%%s pid=%%d "
				 "prio=%%03d state=%%s%%s%s ==> s=%%hd u=%%u "
				 "b=%%u c=%%d\", REC->comm, REC->i, REC->s, "
				 "(REC->l & %s) ? __print_flags(REC->l & %s, "
				 "\"|\", { 0x00000001, \"S\" }, { 0x00000002, "
				 "\"D\" }, { 0x00000080, \"I\" }) : \"R\", "
				 "REC->l & (%s + 1) ? \"+\" : \"\", REC->s, "
				 "REC->u%s, REC->b, REC->c", tail[t], masks,
				 masks, masks, k ? " + 0" : "");
		f = pf_parse(fmt[0], SF, NSF, err, sizeof(err));
		CHECK(f != NULL && pf_nul_free(f));
		if (!f) {
			fprintf(stderr, "parse %s: %s\n", fmt[0], err);
			continue;
		}
		for (r = 0; r < 300; r++) {
			struct pf_fmt *g = pf_parse(fmt[1], SF, NSF, err,
						    sizeof(err));

			CHECK(g != NULL && !pf_nul_free(g));
			synth_record();
			put_le(16, lv[rand() % 7], 8);
			put_le(8, (uint64_t)(rand() % 3) * 1000 - 1000, 4);
			put_le(12, (uint64_t)rand(), 4);
			put_le(34, (uint64_t)(rand() % 5) * 30000, 2);
			R[32] = (unsigned char)(rand() % 3 - 1);
			R[92] = (unsigned char)(rand() % 2);
			if (r % 10 == 3)
				memset(R + 40, 'x', 16);
			if (r % 10 == 4)
				memset(R + 40, 'y', RLEN - 40);
			for (room = 1; room <= (int)sizeof(out[0]);
			     room += r < 20 ? 1 : 97) {
				size_t j;

				/* and not a byte past the room */
				memset(out[0], 0x5a, sizeof(out[0]));
				n[0] = pf_format(f, R, RLEN, &ctx, out[0], room);
				n[1] = g ? pf_format(g, R, RLEN, &ctx, out[1],
						     room) : -1;
				CHECK(n[0] == n[1]);
				CHECK_STR(out[0], out[1]);
				for (j = room; j < sizeof(out[0]); j++)
					if (out[0][j] != 0x5a)
						break;
				CHECK(j == sizeof(out[0]));
			}
			pf_free(g);
		}
		pf_free(f);
	}
}

/*
 * pf_sysline_at() against pf_syscall_enter() and pf_syscall_exit(): the
 * same line for any count of arguments, names of any length (past 255
 * bytes, past the compiled text's room), values at every width; NULL,
 * nothing written, where it must leave the line to them.
 */
static void test_sysline(void)
{
	static const char *const names[] = {
		"fd", "buf", "count", "", "a_rather_long_argument_name", NULL,
	};
	static const struct pf_field ret[] = {
		{ "__syscall_nr", "int", 8, 4, 1 },
		{ "ret", "long", 16, 8, 1 },
	};
	char big[300], huge[600], out[2][4096], nm[64];
	struct pf_sysline sl;
	struct pf_sysmeta m;
	int r, i, done = 0;
	char *q;

	memset(big, 'n', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	memset(huge, 'h', sizeof(huge) - 1);
	huge[sizeof(huge) - 1] = 0;
	for (r = 0; r < 3000; r++) {
		memset(&m, 0, sizeof(m));
		snprintf(nm, sizeof(nm), "sys_%.*s", rand() % 20,
			 "abcdefghijklmnopqrstuvwxyz");
		m.name = r % 97 == 5 ? huge : nm;
		m.nb_args = rand() % 7;
		for (i = 0; i < m.nb_args; i++) {
			int k = rand() % 8;

			m.args[i] = k < 5 ? names[k] : k == 5 ? big :
				names[rand() % 3];
			if (rand() % 2)
				m.arg_len[i] = (unsigned)strlen(m.args[i]);
		}
		if (rand() % 2)
			m.name_len = (unsigned)strlen(m.name);
		memset(R, 0, sizeof(R));
		for (i = 0; i < 8; i++)
			put_le(16 + 8 * i, rand() % 3 ? (uint64_t)rand() <<
			       (rand() % 40) : i % 2 ? ~0ULL : 0, 8);
		pf_sysline_init(&sl, &m, 16);
		memset(out, 0, sizeof(out));
		q = pf_sysline_at(&sl, R, 16 + 8 * m.nb_args, 0, 0, out[0],
				  r % 5 ? sizeof(out[0]) : (size_t)(rand() %
								    300));
		if (!q) {
			CHECK(out[0][0] == 0);
			continue;
		}
		done++;
		*q = 0;
		CHECK(pf_syscall_enter(&m, R, 16 + 8 * m.nb_args, 16, 0, NULL,
				       out[1], sizeof(out[1])) ==
		      (int)(q - out[0]));
		CHECK_STR(out[0], out[1]);
		/* what pf_syscall_enter() prints in any other form */
		CHECK(!pf_sysline_at(&sl, R, 16 + 8 * m.nb_args, 0,
				     PF_SYS_USER, out[0], sizeof(out[0])));
		CHECK(m.nb_args == 0 ||
		      !pf_sysline_at(&sl, R, 16 + 8 * m.nb_args - 1, 0, 0,
				     out[0], sizeof(out[0])));
		/* the exit line */
		pf_sysline_init_exit(&sl, m.name, strlen(m.name), 16);
		memset(out, 0, sizeof(out));
		q = pf_sysline_at(&sl, R, 24, 0, 0, out[0], sizeof(out[0]));
		CHECK(q != NULL || m.name == huge);
		if (q) {
			*q = 0;
			pf_syscall_exit(m.name, R, 24, ret, 2, NULL, out[1],
					sizeof(out[1]));
			CHECK_STR(out[0], out[1]);
		}
	}
	/* most lines compiled */
	CHECK(done > 2000);
	/* names at the compiled text's end (fuzz/regress/printfmt/
	 * ubsan-sysline-name-511-no-args) */
	for (r = 2 * 490; r < 2 * 520; r++) {
		memset(&m, 0, sizeof(m));
		huge[r / 2] = 0;
		m.name = huge;
		m.nb_args = r % 2;
		m.args[0] = "fd";
		pf_sysline_init(&sl, &m, 16);
		q = pf_sysline_at(&sl, R, 24, 0, 0, out[0], sizeof(out[0]));
		if (q) {
			*q = 0;
			pf_syscall_enter(&m, R, 24, 16, 0, NULL, out[1],
					 sizeof(out[1]));
			CHECK_STR(out[0], out[1]);
		}
		huge[r / 2] = 'h';
	}
	/* a big-endian record's values */
	memset(&m, 0, sizeof(m));
	m.name = "sys_read";
	m.nb_args = 1;
	m.args[0] = "fd";
	pf_sysline_init(&sl, &m, 16);
	memset(R, 0, sizeof(R));
	R[23] = 0x12;
	q = pf_sysline_at(&sl, R, 24, 1, 0, out[0], sizeof(out[0]));
	CHECK(q != NULL);
	if (q) {
		*q = 0;
		CHECK_STR(out[0], "sys_read(fd: 12)");
	}
	/* the hex digits against printf's, every length (pf_hex_at() has
	 * no loop over them: a slip would show on one length only) */
	for (r = 0; r < 64 * 4 + 2000; r++) {
		uint64_t v = r < 256 ? (1ULL << (r % 64)) - (r / 64 % 2) +
			(r / 128 ? (uint64_t)rand() % (1ULL << (r % 64)) :
			 0) : (uint64_t)rand() << 33 ^ (uint64_t)rand() >>
			(rand() % 31) << (rand() % 33);

		put_le(16, v, 8);
		q = pf_sysline_at(&sl, R, 24, 0, 0, out[0], sizeof(out[0]));
		CHECK(q != NULL);
		if (!q)
			continue;
		*q = 0;
		snprintf(out[1], sizeof(out[1]), "sys_read(fd: %llx)",
			 (unsigned long long)v);
		CHECK_STR(out[0], out[1]);
	}
}

int main(void)
{
	int seen = 0;

	srand(1);
	if (load_events() < 0) {
		fprintf(stderr, DATA "events.txt missing\n");
		CHECK(0);
	} else {
		test_records(DATA "records-wrap.txt", &seen);
		test_records(DATA "records-graph-inst1.txt", &seen);
		printf("test_printfmt: %d live trace lines reproduced from "
		       "their records\n", seen);
		CHECK(seen > 0);
		test_parse_all();
	}
	test_synthetic();
	test_fast_conversions();
	test_memo();
	test_ops();
	test_fallback_syscalls();
	test_sysline();
	return unit_done("test_printfmt");
}
