/*
 * lib/ringbuf.c on raw sub-buffer bytes: every record type, commit flags,
 * truncated tails.
 */
#include <stdint.h>
#include <stdlib.h>
#include "ringbuf.h"
#include "unit.h"

#define DATA "tests/unit/data/ringbuf/"

static unsigned char page[4096];

static void put32(size_t off, uint32_t v)
{
	page[off] = v;
	page[off + 1] = v >> 8;
	page[off + 2] = v >> 16;
	page[off + 3] = v >> 24;
}

static void put64(size_t off, uint64_t v)
{
	put32(off, (uint32_t)v);
	put32(off + 4, (uint32_t)(v >> 32));
}

/* record header: type_len | delta << 5 (little endian) */
static uint32_t hdr(unsigned type_len, uint32_t delta)
{
	return type_len | delta << 5;
}

static void test_records(void)
{
	struct rb_page pg;
	struct rb_iter it;
	struct rb_event ev;
	size_t d = 16, o = 0;

	memset(page, 0, sizeof(page));
	put64(0, 1000);
	/* 1: small data, 8 bytes, delta 5 */
	put32(d + o, hdr(2, 5)); put32(d + o + 4, 0xaabbccdd); o += 12;
	/* 2: time extend of (1 << 27) + 3 */
	put32(d + o, hdr(RB_TYPE_TIME_EXTEND, 3)); put32(d + o + 4, 1); o += 8;
	/* 3: data with delta 0 after the extend */
	put32(d + o, hdr(1, 0)); o += 8;
	/* 4: discarded event: padding with a length and a delta */
	put32(d + o, hdr(RB_TYPE_PADDING, 7)); put32(d + o + 4, 12); o += 16;
	/* 5: large event: type_len 0, array[0] = 4 + 120 */
	put32(d + o, hdr(0, 2)); put32(d + o + 4, 124); o += 128;
	/* 6: absolute time stamp 5000 */
	put32(d + o, hdr(RB_TYPE_TIME_STAMP, 5000 & ((1 << 27) - 1)));
	put32(d + o + 4, 5000 >> 27); o += 8;
	/* 7: data delta 1 */
	put32(d + o, hdr(1, 1)); o += 8;
	/* 8: null padding to the end */
	put32(d + o, hdr(RB_TYPE_PADDING, 0)); o += 4;
	put64(8, o | RB_MISSED_EVENTS);

	CHECK(rb_page_parse(&pg, page, sizeof(page), 8, 16, 4080, 0) == 0);
	CHECK(pg.commit == o);
	CHECK(pg.flags == RB_MISSED_EVENTS);
	CHECK(pg.time_stamp == 1000);
	rb_iter_init(&it, &pg);

	CHECK(rb_iter_next(&it, &ev) == 1);
	CHECK(ev.kind == RB_EV_DATA && ev.len == 8 && ev.ts == 1005);
	CHECK(ev.payload == pg.data + 4 && ev.payload[0] == 0xdd);
	CHECK(rb_iter_next(&it, &ev) == 1);
	CHECK(ev.kind == RB_EV_EXTEND && ev.ts == 1005 + (1 << 27) + 3);
	CHECK(rb_iter_next(&it, &ev) == 1);
	CHECK(ev.kind == RB_EV_DATA && ev.len == 4 &&
	      ev.ts == 1005 + (1 << 27) + 3);
	CHECK(rb_iter_next(&it, &ev) == 1);
	CHECK(ev.kind == RB_EV_DISCARD && ev.size == 16);
	CHECK(rb_iter_next(&it, &ev) == 1);
	CHECK(ev.kind == RB_EV_DATA && ev.len == 120 && ev.size == 128);
	CHECK(ev.ts == 1005 + (1 << 27) + 3 + 2);
	CHECK(rb_iter_next(&it, &ev) == 1);
	CHECK(ev.kind == RB_EV_STAMP && ev.ts == 5000);
	CHECK(rb_iter_next(&it, &ev) == 1);
	CHECK(ev.kind == RB_EV_DATA && ev.ts == 5001);
	CHECK(rb_iter_next(&it, &ev) == 1);
	CHECK(ev.kind == RB_EV_PADDING);
	CHECK(rb_iter_next(&it, &ev) == 0);

	/* the quick path: record 1, then the extend with record 3, then
	 * nothing it takes (the discarded event) */
	rb_iter_init(&it, &pg);
	CHECK(rb_iter_next_quick(&it, &ev) == 1);
	CHECK(ev.ts == 1005 && ev.size == 12 && it.off == 12);
	CHECK(rb_iter_peek_quick(&it, &ev) == 1);
	CHECK(it.off == 12 && it.ts == 1005);
	CHECK(ev.kind == RB_EV_DATA && ev.len == 4 && ev.offset == 20 &&
	      ev.size == 8 + 8 && ev.delta == 0 &&
	      ev.payload == pg.data + 24 && ev.ts == 1005 + (1 << 27) + 3);
	rb_iter_take(&it, &ev);
	CHECK(it.off == 28 && it.ts == 1005 + (1 << 27) + 3);
	CHECK(rb_iter_next_quick(&it, &ev) == 0 && it.off == 28);
	/* an extend at the end of the committed bytes, or before a record
	 * the quick path does not take: left to rb_iter_next() */
	put64(8, 20 + 4);
	CHECK(rb_page_parse(&pg, page, sizeof(page), 8, 16, 4080, 0) == 0);
	rb_iter_init(&it, &pg);
	CHECK(rb_iter_next_quick(&it, &ev) == 1);
	CHECK(rb_iter_next_quick(&it, &ev) == 0 && it.off == 12);
	put32(d + 20, hdr(0, 0));
	put64(8, o);
	CHECK(rb_page_parse(&pg, page, sizeof(page), 8, 16, 4080, 0) == 0);
	rb_iter_init(&it, &pg);
	CHECK(rb_iter_next_quick(&it, &ev) == 1);
	CHECK(rb_iter_next_quick(&it, &ev) == 0 && it.off == 12);
}

static void test_truncated(void)
{
	struct rb_page pg;
	struct rb_iter it;
	struct rb_event ev;

	memset(page, 0, sizeof(page));
	/* a type_len 0 record claiming more than was committed */
	put32(16, hdr(0, 0));
	put32(20, 400);
	put64(8, 40);
	CHECK(rb_page_parse(&pg, page, sizeof(page), 8, 16, 4080, 0) == 0);
	rb_iter_init(&it, &pg);
	CHECK(rb_iter_next(&it, &ev) == 1 && ev.kind == RB_EV_BAD);
	CHECK(rb_iter_next(&it, &ev) == 0);

	/* commit beyond the sub-buffer: clamped, reported */
	put64(8, 9999);
	CHECK(rb_page_parse(&pg, page, sizeof(page), 8, 16, 4080, 0) == 1);
	CHECK(pg.commit == 4080);
	/* too short for a header */
	CHECK(rb_page_parse(&pg, page, 8, 8, 16, 4080, 0) == -1);
	/* 4-byte local_t and a data record cut by the commit */
	memset(page, 0, sizeof(page));
	put32(8, 6);
	put32(12, hdr(3, 1));
	CHECK(rb_page_parse(&pg, page, 64, 4, 12, 52, 0) == 0);
	rb_iter_init(&it, &pg);
	CHECK(rb_iter_next(&it, &ev) == 1 && ev.kind == RB_EV_BAD);
}

static void test_abs_msb(void)
{
	uint64_t save = (1ULL << 60) | 100;

	CHECK(rb_fix_abs_ts(200, save) == ((1ULL << 60) | 200));
	/* wrapped low part: the MSBs moved on */
	CHECK(rb_fix_abs_ts(50, save) == ((1ULL << 60) + (1ULL << 59) + 50));
	CHECK(rb_fix_abs_ts(50, 100) == 50);
}

static void test_big_endian(void)
{
	struct rb_page pg;
	struct rb_iter it;
	struct rb_event ev;

	memset(page, 0, sizeof(page));
	page[7] = 10;			/* time stamp 10 */
	page[15] = 8;			/* commit 8 */
	page[16] = (1 << 3);		/* type_len 1, delta 4 */
	page[19] = 4;
	CHECK(rb_page_parse(&pg, page, 64, 8, 16, 48, 1) == 0);
	rb_iter_init(&it, &pg);
	CHECK(rb_iter_next(&it, &ev) == 1);
	CHECK(ev.kind == RB_EV_DATA && ev.type_len == 1 && ev.ts == 14);
}

static int unhex(const char *h, unsigned char *out, size_t max)
{
	size_t n = 0;

	while (h[0] && h[1] && n < max) {
		unsigned v;

		if (sscanf(h, "%2x", &v) != 1)
			break;
		out[n++] = v;
		h += 2;
	}
	return n;
}

/* The data records of PG from offset FROM on: time, offset of payload. */
static size_t data_records(const struct rb_page *pg, size_t from,
			   uint64_t *ts, const unsigned char **pay,
			   uint32_t *len, size_t max)
{
	struct rb_iter it;
	struct rb_event ev;
	size_t n = 0;

	rb_iter_init(&it, pg);
	while (n < max && rb_iter_next(&it, &ev)) {
		if (ev.kind != RB_EV_DATA || ev.offset < from)
			continue;
		ts[n] = ev.ts;
		pay[n] = ev.payload;
		len[n] = ev.len;
		n++;
	}
	return n;
}

/*
 * rb_page_cut() at each data record of a fixture's sub-buffer: the copy
 * decodes to the same records from that one on, with the same times
 * (what trace.dat gets for a partly consumed page).
 */
static void check_cuts(const struct rb_page *pg, unsigned long data_off,
		       unsigned long data_size)
{
	enum { MAX = 1024 };
	static unsigned char cut[65536];
	static uint64_t ta[MAX], tb[MAX];
	static const unsigned char *pa[MAX], *pb[MAX];
	static uint32_t la[MAX], lb[MAX];
	size_t outlen = data_off + data_size, na, nb, i;
	struct rb_iter it;
	struct rb_event ev;
	struct rb_page cp;

	if (outlen > sizeof(cut))
		return;
	rb_iter_init(&it, pg);
	while (rb_iter_next(&it, &ev)) {
		if (ev.kind != RB_EV_DATA)
			continue;
		CHECK(rb_page_cut(cut, outlen, pg, 8, data_off, ev.offset,
				  ev.ts - ev.delta) == 0);
		CHECK(rb_page_parse(&cp, cut, outlen, 8, data_off, data_size,
				    0) == 0);
		CHECK(cp.commit == pg->commit - ev.offset);
		na = data_records(pg, ev.offset, ta, pa, la, MAX);
		nb = data_records(&cp, 0, tb, pb, lb, MAX);
		CHECK(na == nb && na > 0);
		for (i = 0; i < na && i < nb; i++)
			CHECK(ta[i] == tb[i] && la[i] == lb[i] &&
			      memcmp(pa[i], pb[i], la[i]) == 0);
	}
	/* bad arguments */
	CHECK(rb_page_cut(cut, outlen, pg, 8, data_off, pg->commit + 1, 0) < 0);
	CHECK(rb_page_cut(cut, 8, pg, 8, data_off, 0, 0) < 0);
}

/*
 * Sub-buffers saved from a fixture (scripts/extract-ringbuf.py) decoded
 * in the iterator's order: every data record's time stamp, as the trace
 * file prints it, and its pid equal the live per-CPU trace lines.
 */
static void test_fixture(const char *name)
{
	char path[256], *line = NULL, ts[32];
	size_t cap = 0, nt = 0, ne = 0, i;
	unsigned long data_off = 16, data_size = 4080;
	struct { char ts[32]; int pid; } *want = NULL, *got = NULL;
	static unsigned char buf[65536];
	FILE *f;

	snprintf(path, sizeof(path), DATA "%s", name);
	f = fopen(path, "r");
	CHECK(f != NULL);
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		if (line[0] == 'G') {
			sscanf(line, "G %lu %lu", &data_off, &data_size);
		} else if (line[0] == 'T') {
			want = realloc(want, (nt + 1) * sizeof(*want));
			sscanf(line, "T %31s %d", want[nt].ts, &want[nt].pid);
			nt++;
		} else if (line[0] == 'P') {
			struct rb_page pg;
			struct rb_iter it;
			struct rb_event ev;
			unsigned long skip;
			char *h = strchr(line + 2, ' ');
			int n;

			skip = strtoul(line + 2, NULL, 10);
			n = unhex(h + 1, buf, sizeof(buf));
			CHECK(rb_page_parse(&pg, buf, n, 8, data_off, data_size,
					    0) >= 0);
			check_cuts(&pg, data_off, data_size);
			rb_iter_init(&it, &pg);
			while (rb_iter_next(&it, &ev)) {
				unsigned long long us = (ev.ts + 500) / 1000;
				int pid;

				CHECK(ev.kind != RB_EV_BAD);
				if (ev.kind != RB_EV_DATA || ev.offset < skip)
					continue;
				got = realloc(got, (ne + 1) * sizeof(*got));
				snprintf(ts, sizeof(ts), "%llu.%06llu",
					 us / 1000000, us % 1000000);
				strcpy(got[ne].ts, ts);
				memcpy(&pid, ev.payload + 4, 4);
				got[ne].pid = pid;
				ne++;
			}
		}
	}
	fclose(f);
	free(line);
	CHECK(nt > 0 && ne == nt);
	for (i = 0; i < nt && i < ne; i++) {
		CHECK_STR(got[i].ts, want[i].ts);
		CHECK(got[i].pid == want[i].pid);
	}
	free(want);
	free(got);
}

int main(void)
{
	test_fixture("events-cpu1.txt");
	test_fixture("wrap-cpu0.txt");
	test_records();
	test_truncated();
	test_abs_msb();
	test_big_endian();
	return unit_done("test_ringbuf");
}
