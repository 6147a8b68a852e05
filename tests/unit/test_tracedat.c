/* lib/tracedat.c: byte layout of the trace.dat pieces. */
#include <errno.h>
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

int main(void)
{
	struct mem m = { .cap = sizeof(m.b) };
	struct td_out o;
	unsigned char tab[32];
	uint64_t offs[2] = { 0x1000, 0x3000 }, sz[2] = { 0x2000, 0 };
	char esc[32];

	td_init(&o, mem_write, &m, 0);
	td_header(&o, 8, 4096);
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

	td_printk_escape("a\"b\\c\n", esc, sizeof(esc));
	CHECK_STR(esc, "a\\\"b\\\\c\\n");
	td_printk_escape("abcdef", esc, 4);
	CHECK_STR(esc, "abc");
	return unit_done("tracedat");
}
