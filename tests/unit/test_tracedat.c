/* lib/tracedat.c: byte layout of the trace.dat pieces. */
#include <errno.h>
#include <stdlib.h>
#include "unit.h"
#include "tracedat.h"

struct mem { unsigned char b[256]; size_t n; size_t cap; };

static int mem_write(void *arg, const void *buf, size_t len)
{
	struct mem *m = arg;

	if (m->n + len > m->cap)
		return ENOSPC;
	memcpy(m->b + m->n, buf, len);
	m->n += len;
	return 0;
}

/* A growing buffer, for frames larger than struct mem. */
struct big { unsigned char *b; size_t n, cap; };

static int big_write(void *arg, const void *buf, size_t len)
{
	struct big *m = arg;

	if (m->n + len > m->cap) {
		size_t cap = (m->n + len) * 2;
		unsigned char *nb = realloc(m->b, cap);

		if (!nb)
			return ENOMEM;
		m->b = nb;
		m->cap = cap;
	}
	memcpy(m->b + m->n, buf, len);
	m->n += len;
	return 0;
}

static uint32_t le(const unsigned char *p, int n)
{
	uint32_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/*
 * td_zstd_block() of LEN bytes: trace-cmd's two sizes, then a zstd frame
 * walked as RFC 8878 lays it out (magic, header with the content size,
 * raw blocks, the last one flagged) giving back the input.
 */
static void check_zstd(size_t len)
{
	struct big m = { NULL, 0, 0 };
	unsigned char *in = malloc(len + 1), *out = malloc(len + 1);
	struct td_out o;
	size_t i, p, got = 0, blocks = 0;
	uint32_t h;
	int last = 0;

	for (i = 0; i < len; i++)
		in[i] = (unsigned char)(i * 7 + (i >> 9));
	td_init(&o, big_write, &m, 0);
	CHECK(td_zstd_block(&o, in, len) == m.n && o.err == 0);
	CHECK(le(m.b, 4) == m.n - 8 && le(m.b + 4, 4) == len);
	CHECK(le(m.b + 8, 4) == 0xFD2FB528U);
	CHECK(m.b[12] == 0xA0 && le(m.b + 13, 4) == len);
	for (p = 17; p + 3 <= m.n && !last; blocks++) {
		h = le(m.b + p, 3);
		last = h & 1;
		CHECK(((h >> 1) & 3) == 0);		/* Raw_Block */
		CHECK((h >> 3) <= 128 * 1024 && got + (h >> 3) <= len);
		if ((h >> 3) > 128 * 1024 || got + (h >> 3) > len)
			break;
		memcpy(out + got, m.b + p + 3, h >> 3);
		got += h >> 3;
		p += 3 + (h >> 3);
	}
	CHECK(last && p == m.n && got == len);
	CHECK(memcmp(in, out, len) == 0);
	CHECK(blocks == (len ? (len + 128 * 1024 - 1) / (128 * 1024) : 1));
	free(in);
	free(out);
	free(m.b);
}

int main(void)
{
	struct mem m = { .cap = sizeof(m.b) };
	struct td_out o;
	unsigned char tab[32];
	uint64_t offs[2] = { 0x1000, 0x3000 }, sz[2] = { 0x2000, 0 };
	char esc[32];
	unsigned char sz8[8], opt[128];
	struct td_strings strs = { 0 };
	uint64_t at;
	size_t n;

	td_init(&o, mem_write, &m, 0);
	td_header(&o, 6, 8, 4096);
	CHECK(m.n == 3 + 7 + 2 + 2 + 4);
	CHECK(memcmp(m.b, "\027\010\104tracing6\0\0\10\0\20\0\0", 18) == 0);
	td_named_section(&o, "header_page", "ab", 2);
	CHECK(m.n == 18 + 12 + 8 + 2);
	CHECK(m.b[30] == 2 && m.b[31] == 0);
	td_pad(&o, 64);
	CHECK(o.off == 64 && m.n == 64);
	td_option(&o, TD_OPTION_CPUCOUNT, "\2\0\0\0", 4);
	td_option(&o, TD_OPTION_DONE, NULL, 0);
	CHECK(m.n == 64 + 10 + 2);
	CHECK(m.b[64] == 8 && m.b[66] == 4);
	/* the first error sticks: nothing more is written */
	m.cap = m.n + 3;
	td_u64(&o, 1);
	CHECK(o.err == ENOSPC);
	td_u16(&o, 1);
	CHECK(m.n == 76 && o.off == 76);

	td_cpu_table(0, offs, sz, 2, tab);
	CHECK(tab[1] == 0x10 && tab[9] == 0x20 && tab[17] == 0x30);
	td_cpu_table(1, offs, sz, 2, tab);
	CHECK(tab[6] == 0x10 && tab[14] == 0x20);

	/* version 7: the compression after the page size */
	m.n = 0;
	m.cap = sizeof(m.b);
	td_init(&o, mem_write, &m, 0);
	td_header(&o, 7, 8, 8192);
	CHECK(m.n == 18 + 5 + 1);
	CHECK(memcmp(m.b, "\027\010\104tracing7\0\0\10\0\40\0\0none\0\0",
		     24) == 0);
	/* a section: id, flags, description, size patched afterwards */
	at = td_section(&o, TD_OPTION_KALLSYMS, 5);
	CHECK(at == 24 + 8 && m.n == 24 + 16);
	CHECK(m.b[24] == 19 && m.b[25] == 0 && m.b[26] == 0 && m.b[28] == 5);
	td_sized4(&o, "abc", 3);
	td_section_size(&o, at, sz8);
	CHECK(sz8[0] == 7 && sz8[1] == 0 && sz8[7] == 0);
	td_option_done7(&o, 0x1234);
	CHECK(m.n == 47 + 14);
	CHECK(m.b[47] == 0 && m.b[48] == 0 && m.b[49] == 8 && m.b[53] == 0x34 &&
	      m.b[54] == 0x12);
	td_put_u64(1, 0x0102, sz8);
	CHECK(sz8[6] == 1 && sz8[7] == 2 && sz8[0] == 0);

	/* a compressed section: its flag; the file names the compression */
	m.n = 0;
	td_init(&o, mem_write, &m, 0);
	at = td_section_fl(&o, TD_OPTION_MODULES_FILE, TD_SEC_FL_COMPRESS, 3);
	CHECK(at == 8 && m.b[0] == 25 && m.b[2] == 1 && m.b[4] == 3);
	m.n = 0;
	td_init(&o, mem_write, &m, 0);
	td_header7(&o, 8, 4096, TD_ZSTD_NAME, "");
	CHECK(m.n == 18 + 5 + 1 && memcmp(m.b + 18, "zstd\0\0", 6) == 0);
	check_zstd(0);
	check_zstd(3);
	check_zstd(128 * 1024);
	check_zstd(300000);

	/* BUFFER: offset, name, clock, page size, CPUs (number, offset,
	 * size each) */
	n = td_buffer_option(0, 0x2000, "big", "local", 65536, 2, offs, sz,
			     opt, 10);
	CHECK(n == 8 + 4 + 6 + 4 + 4 + 2 * 20);
	CHECK(td_buffer_option(0, 0x2000, "big", "local", 65536, 2, offs, sz,
			       opt, sizeof(opt)) == n);
	CHECK(opt[1] == 0x20 && memcmp(opt + 8, "big\0local\0", 10) == 0);
	CHECK(opt[18] == 0 && opt[20] == 1);		/* 65536 */
	CHECK(opt[22] == 2);				/* CPUs */
	CHECK(opt[26] == 0 && opt[31] == 0x10);		/* CPU 0 at 0x1000 */
	CHECK(opt[46] == 1 && opt[51] == 0x30);		/* CPU 1 at 0x3000 */
	CHECK(opt[39] == 0x20 && opt[58] == 0);		/* their sizes */
	CHECK(td_buffer_option(0, 0, "", "local", 4096, 0, NULL, NULL, opt,
			       sizeof(opt)) == 8 + 1 + 6 + 8);

	/* strings: an id is the offset; the same string, the same id */
	CHECK(td_string(&strs, "options") == 0);
	CHECK(td_string(&strs, "kallsyms") == 8);
	CHECK(td_string(&strs, "options") == 0);
	CHECK(strs.len == 17 && memcmp(strs.buf + 8, "kallsyms", 9) == 0);
	td_strings_free(&strs);
	CHECK(strs.buf == NULL && strs.len == 0);

	td_printk_escape("a\"b\\c\n", esc, sizeof(esc));
	CHECK_STR(esc, "a\\\"b\\\\c\\n");
	td_printk_escape("abcdef", esc, 4);
	CHECK_STR(esc, "abc");
	return unit_done("tracedat");
}
