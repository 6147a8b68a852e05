/*
 * Crash-free decoder of ring-buffer sub-buffers (kernel/trace/ring_buffer.c
 * record format).  The reader semantics follow rb_iter_peek() and
 * rb_update_read_stamp(): a data record's time is the running stamp plus
 * its delta, TIME_EXTEND adds its 59-bit delta, TIME_STAMP sets the
 * running stamp, padding (null or discarded) adds nothing.
 */
#include <string.h>
#include "ringbuf.h"

static uint32_t rb_get32(const unsigned char *p, int be)
{
	if (be)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		       (uint32_t)p[2] << 8 | p[3];
	return rb_le32(p);
}

static uint64_t rb_get64(const unsigned char *p, int be)
{
	uint64_t lo = rb_get32(p, be), hi = rb_get32(p + 4, be);

	return be ? lo << 32 | hi : hi << 32 | lo;
}

uint64_t rb_fix_abs_ts(uint64_t abs, uint64_t save_ts)
{
	if (save_ts & RB_TS_MSB) {
		abs |= save_ts & RB_TS_MSB;
		if (abs < save_ts)
			abs += 1ULL << 59;
	}
	return abs;
}

int rb_page_parse(struct rb_page *pg, const void *buf, size_t len,
		  int long_size, size_t data_off, size_t data_size,
		  int big_endian)
{
	const unsigned char *p = buf;
	uint64_t commit;
	int ret = 0;

	memset(pg, 0, sizeof(*pg));
	if ((long_size != 4 && long_size != 8) || data_off < 8 + (size_t)long_size ||
	    len < data_off)
		return -1;
	pg->big_endian = big_endian;
	pg->time_stamp = rb_get64(p, big_endian);
	if (long_size == 8)
		commit = rb_get64(p + 8, big_endian);
	else
		commit = rb_get32(p + 8, big_endian);
	/* The flags live in bits 30-31 of the committed index. */
	pg->flags = (uint32_t)commit & RB_MISSED_MASK;
	commit &= ~(uint64_t)RB_MISSED_MASK;
	if (long_size == 8 && commit >> 32) {
		commit = 0;
		ret = 1;
	}
	if (data_size > len - data_off)
		data_size = len - data_off;
	if (commit > data_size) {
		commit = data_size;
		ret = 1;
	}
	pg->data = p + data_off;
	pg->data_size = data_size;
	pg->commit = (uint32_t)commit;
	return ret;
}

void rb_iter_init(struct rb_iter *it, const struct rb_page *pg)
{
	it->pg = pg;
	it->off = 0;
	it->ts = pg->time_stamp;
	it->done = 0;
}

int rb_iter_next(struct rb_iter *it, struct rb_event *ev)
{
	const struct rb_page *pg = it->pg;
	const unsigned char *p;
	size_t left;
	uint32_t hdr, a0 = 0;
	int be = pg->big_endian;

	/* every field is set below (no memset: once per record) */
	ev->payload = NULL;
	ev->len = 0;
	ev->type_len = 0;
	ev->delta = 0;
	if (it->done || it->off >= pg->commit) {
		memset(ev, 0, sizeof(*ev));
		return 0;
	}
	left = pg->commit - it->off;
	p = pg->data + it->off;
	ev->offset = it->off;
	if (left < 4)
		goto bad;
	hdr = rb_get32(p, be);
	if (be) {
		ev->type_len = hdr >> 27;
		ev->delta = hdr & ((1U << 27) - 1);
	} else {
		ev->type_len = hdr & 31;
		ev->delta = hdr >> 5;
	}
	if (left >= 8)
		a0 = rb_get32(p + 4, be);

	switch (ev->type_len) {
	case RB_TYPE_PADDING:
		if (ev->delta == 0) {
			/* null event: nothing more on this page */
			ev->kind = RB_EV_PADDING;
			ev->size = left;
			ev->ts = it->ts;
			it->done = 1;
			it->off = pg->commit;
			return 1;
		}
		if (left < 8 || a0 > left - 4)
			goto bad;
		ev->kind = RB_EV_DISCARD;
		ev->size = a0 + 4;
		ev->payload = p + 4;
		ev->len = a0;
		ev->ts = it->ts;
		break;
	case RB_TYPE_TIME_EXTEND:
		if (left < 8)
			goto bad;
		ev->kind = RB_EV_EXTEND;
		ev->size = 8;
		it->ts += ((uint64_t)a0 << RB_TS_SHIFT) + ev->delta;
		ev->ts = it->ts;
		break;
	case RB_TYPE_TIME_STAMP:
		if (left < 8)
			goto bad;
		ev->kind = RB_EV_STAMP;
		ev->size = 8;
		it->ts = rb_fix_abs_ts(((uint64_t)a0 << RB_TS_SHIFT) +
				       ev->delta, pg->time_stamp);
		ev->ts = it->ts;
		break;
	case 0:
		/* length in array[0], which counts itself */
		if (left < 8 || a0 < 4 || a0 > left - 4)
			goto bad;
		ev->kind = RB_EV_DATA;
		ev->size = a0 + 4;
		ev->payload = p + 8;
		ev->len = a0 - 4;
		ev->ts = it->ts + ev->delta;
		break;
	default:
		if ((size_t)ev->type_len * 4 + 4 > left)
			goto bad;
		ev->kind = RB_EV_DATA;
		ev->size = ev->type_len * 4 + 4;
		ev->payload = p + 4;
		ev->len = ev->type_len * 4;
		ev->ts = it->ts + ev->delta;
		break;
	}
	/* rb_update_read_stamp(): data records move the running stamp */
	if (ev->kind == RB_EV_DATA)
		it->ts += ev->delta;
	it->off += ev->size;
	return 1;
bad:
	ev->kind = RB_EV_BAD;
	ev->size = left;
	ev->ts = it->ts;
	it->done = 1;
	it->off = pg->commit;
	return 1;
}

static void rb_put(unsigned char *p, uint64_t v, int n, int be)
{
	int i;

	for (i = 0; i < n; i++)
		p[be ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

int rb_page_cut(unsigned char *out, size_t outlen, const struct rb_page *pg,
		int long_size, size_t data_off, size_t cut, uint64_t ts)
{
	size_t n;

	if ((long_size != 4 && long_size != 8) ||
	    data_off < 8 + (size_t)long_size || outlen < data_off ||
	    !pg->data || cut > pg->commit)
		return -1;
	n = pg->commit - cut;
	if (n > outlen - data_off)
		return -1;
	memset(out, 0, outlen);
	rb_put(out, ts, 8, pg->big_endian);
	rb_put(out + 8, n, long_size, pg->big_endian);
	memcpy(out + data_off, pg->data + cut, n);
	return 0;
}
