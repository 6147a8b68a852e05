/*
 * lib/bprint.c: trace_printk binary arguments.  The argument bytes are
 * those of the "graph" fixture's bprint records (ftrace trace -r); the
 * expected text is that fixture's live trace.
 */
#include <stdint.h>
#include "bprint.h"
#include "unit.h"

static char *sym(uint64_t addr, char conv, char *buf, size_t len, void *arg)
{
	snprintf(buf, len, conv == 'S' ? "fn+0x%llx/0x10" : "fn",
		 (unsigned long long)(addr & 0xf));
	return buf;
}

int main(void)
{
	/* "%d len=%zu": the 8-byte size_t is aligned to 4 only */
	static const unsigned char a1[] = {
		0x01, 0, 0, 0, 0x00, 0x00, 0x01, 0x00, 0, 0, 0, 0,
	};
	/* "%s and %lx": the string inline, then the long at the next u32 */
	static const unsigned char a2[] = {
		0x61, 0x20, 0x73, 0x74, 0x72, 0x69, 0x6e, 0x67, 0, 0, 0, 0,
		0xef, 0xbe, 0xad, 0xde, 0, 0, 0, 0,
	};
	static const unsigned char a3[] = {
		0x05, 0, 0, 0, 0x41, 0, 0, 0, 'A', 0, 0, 0,
		0x32, 0, 0, 0, 0, 0, 0, 0,
	};
	struct bprint_opts o = { 8, 0, sym, NULL };
	char out[256];

	CHECK(bprint_format("th_printk: read #%d len=%zu\n", a1, sizeof(a1),
			    &o, out, sizeof(out)) > 0);
	CHECK_STR(out, "th_printk: read #1 len=65536\n");
	CHECK(bprint_format("th_printk: %s and %lx\n", a2, sizeof(a2), &o,
			    out, sizeof(out)) > 0);
	CHECK_STR(out, "th_printk: a string and deadbeef\n");
	/* width from '*', a char, %pS through the callback, %% */
	CHECK(bprint_format("[%*d] %c %pS 100%%", a3, sizeof(a3), &o, out,
			    sizeof(out)) > 0);
	CHECK_STR(out, "[   65] A fn+0x2/0x10 100%");
	/* arguments run out: -1, what could be printed is kept */
	CHECK(bprint_format("%d %lld", a1, 4, &o, out, sizeof(out)) == -1);
	CHECK_STR(out, "1 ");
	/* huge widths are clamped, not a gigabyte of padding */
	CHECK(bprint_format("%999999999d|", a1, sizeof(a1), &o, out,
			    sizeof(out)) >= 0);
	CHECK(strlen(out) == sizeof(out) - 1 && out[0] == ' ');
	{
		static const unsigned char big[] = { 0xff, 0xff, 0xff, 0x7f,
						     1, 0, 0, 0 };
		CHECK(bprint_format("%*d", big, sizeof(big), &o, out,
				    sizeof(out)) >= 0);
		CHECK(out[0] == ' ');
	}
	return unit_done("test_bprint");
}
