/*
 * Crash-free decoder of one ring-buffer sub-buffer (struct buffer_data_page):
 * a u64 time stamp, a local_t commit (bytes committed; the two high bits of
 * a 32-bit word are the RB_MISSED_* flags), then the records.  Knows nothing
 * of where the bytes came from: endianness and the size of local_t are
 * parameters.
 */
#ifndef TRACEHUNT_RINGBUF_H
#define TRACEHUNT_RINGBUF_H

#include <stddef.h>
#include <stdint.h>

#define RB_TYPE_DATA_MAX	28
#define RB_TYPE_PADDING		29
#define RB_TYPE_TIME_EXTEND	30
#define RB_TYPE_TIME_STAMP	31

#define RB_MISSED_EVENTS	(1U << 31)
#define RB_MISSED_STORED	(1U << 30)
#define RB_MISSED_MASK		(RB_MISSED_EVENTS | RB_MISSED_STORED)

#define RB_TS_SHIFT		27
#define RB_TS_MSB		(0xf8ULL << 56)

/* What a record is. */
enum rb_kind {
	RB_EV_DATA,		/* type_len 0..28: an event */
	RB_EV_PADDING,		/* null padding: the rest of the page */
	RB_EV_DISCARD,		/* padding with a length: discarded event */
	RB_EV_EXTEND,		/* TIME_EXTEND */
	RB_EV_STAMP,		/* absolute TIME_STAMP */
	RB_EV_BAD,		/* truncated or malformed: decoding stops */
};

struct rb_page {
	const unsigned char *data;	/* data[] of the sub-buffer */
	size_t data_size;		/* capacity of data[] (BUF_PAGE_SIZE) */
	uint64_t time_stamp;		/* page time stamp */
	uint32_t commit;		/* committed bytes, flags masked */
	uint32_t flags;			/* RB_MISSED_* */
	int big_endian;
};

struct rb_event {
	enum rb_kind kind;
	size_t offset;			/* of the record in data[] */
	unsigned type_len;
	uint32_t delta;			/* the 27-bit time_delta */
	uint64_t ts;			/* absolute time of the record */
	const unsigned char *payload;	/* event bytes (DATA, DISCARD) */
	uint32_t len;			/* payload length */
	uint32_t size;			/* whole record (rb_iter_peek_quick(): and
				 * a time extend before it) */
};

struct rb_iter {
	const struct rb_page *pg;
	size_t off;
	uint64_t ts;
	int done;
};

/*
 * Parse the header of a sub-buffer: BUF holds LEN bytes starting at the
 * buffer_data_page; LONG_SIZE is sizeof(local_t) (4 or 8); DATA_OFF the
 * offset of data[]; DATA_SIZE the sub-buffer's data capacity.  A commit
 * larger than the capacity or than the bytes given is clamped and
 * reported by a return of 1; 0 when sane; -1 when LEN is too short.
 */
int rb_page_parse(struct rb_page *pg, const void *buf, size_t len,
		  int long_size, size_t data_off, size_t data_size,
		  int big_endian);

void rb_iter_init(struct rb_iter *it, const struct rb_page *pg);
/* Next record within the committed bytes: 1, 0 at the end. */
int rb_iter_next(struct rb_iter *it, struct rb_event *ev);

/*
 * rb_iter_next() for the record nearly all are, inline: a little-endian
 * data record whose length is its type_len, or a time extend and such a
 * record after it (the time extends of a CPU that was idle for more than
 * 2^27 ns: on many CPUs, one in a few dozen records).
 * rb_iter_peek_quick() decodes the data record into EV without moving
 * IT: 1; 0 (EV unspecified) for anything else, which rb_iter_next() then
 * decodes.  EV's size is then what rb_iter_take() moves IT past, the
 * extend's 8 bytes included; rb_iter_take() moves IT as rb_iter_next()
 * would over the records; rb_iter_next_quick() is the two.
 */
static inline uint32_t rb_le32(const unsigned char *p)
{
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[1] << 8 | p[0];
}

static inline int rb_iter_peek_quick(const struct rb_iter *it,
				     struct rb_event *ev)
{
	const struct rb_page *pg = it->pg;
	const unsigned char *p;
	size_t off = it->off, ext = 0;
	uint64_t ts = it->ts;
	uint32_t hdr;
	unsigned tl;

	if (pg->big_endian || it->done || off + 4 > pg->commit)
		return 0;
	p = pg->data + off;
	hdr = rb_le32(p);
	tl = hdr & 31;
	if (tl == RB_TYPE_TIME_EXTEND) {
		/* rb_iter_next()'s RB_TYPE_TIME_EXTEND, then the record */
		if (off + 8 + 4 > pg->commit)
			return 0;
		ts += ((uint64_t)rb_le32(p + 4) << RB_TS_SHIFT) + (hdr >> 5);
		ext = 8;
		off += 8;
		p += 8;
		hdr = rb_le32(p);
		tl = hdr & 31;
	}
	if (tl == 0 || tl > RB_TYPE_DATA_MAX || off + tl * 4 + 4 > pg->commit)
		return 0;
	ev->kind = RB_EV_DATA;
	ev->offset = off;
	ev->type_len = tl;
	ev->delta = hdr >> 5;
	ev->size = ext + tl * 4 + 4;
	ev->payload = p + 4;
	ev->len = tl * 4;
	ev->ts = ts + ev->delta;
	return 1;
}

static inline void rb_iter_take(struct rb_iter *it, const struct rb_event *ev)
{
	it->ts = ev->ts;
	it->off += ev->size;
}

static inline int rb_iter_next_quick(struct rb_iter *it, struct rb_event *ev)
{
	if (!rb_iter_peek_quick(it, ev))
		return 0;
	rb_iter_take(it, ev);
	return 1;
}

/*
 * The sub-buffer PG (header and data as parsed from its bytes) from its
 * record at offset CUT on, into OUT (OUTLEN bytes, the sub-buffer size):
 * what ring_buffer_read_page() hands the reader of a partly read page.
 * TS is the running time stamp before that record (its time minus its
 * delta); the copy's commit counts the bytes from CUT on, the rest is
 * zeroed, the RB_MISSED_* flags are dropped.  0; -1 on bad arguments.
 */
int rb_page_cut(unsigned char *out, size_t outlen, const struct rb_page *pg,
		int long_size, size_t data_off, size_t cut, uint64_t ts);

/* 5 MSBs of a previous full time stamp onto an absolute one. */
uint64_t rb_fix_abs_ts(uint64_t abs, uint64_t save_ts);

#endif
