/*
 * Fuzz target: lib/ringbuf.c, one sub-buffer.
 * Input: byte 0 selects the layout (bit 0: big endian, bit 1: 4-byte
 * local_t, bits 2-3: data capacity = all the bytes given, 4080, 16 or 0);
 * the rest is the buffer_data_page.
 * Differential: rb_iter_next_quick() (the inline fast path for plain data
 * records, a time extend before one taken with it), falling back to
 * rb_iter_next(), yields exactly the records of rb_iter_next() alone,
 * less the time extends it took.
 */
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include "ringbuf.h"

static int same(const struct rb_event *a, const struct rb_event *b)
{
	return a->kind == b->kind && a->offset == b->offset &&
	       a->type_len == b->type_len && a->delta == b->delta &&
	       a->ts == b->ts && a->payload == b->payload &&
	       a->len == b->len && a->size == b->size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t caps[] = { (size_t)-1, 4080, 16, 0 };
	struct rb_page pg;
	struct rb_iter it, qit;
	struct rb_event ev, qev;
	volatile unsigned sum = 0;
	int ls, be, n = 0;
	size_t off, cap, i;

	if (size < 1)
		return 0;
	be = data[0] & 1;
	ls = data[0] & 2 ? 4 : 8;
	off = 8 + ls;
	cap = caps[(data[0] >> 2) & 3];
	data++;
	size--;
	if (cap == (size_t)-1)
		cap = size > off ? size - off : 0;
	if (rb_page_parse(&pg, data, size, ls, off, cap, be) < 0)
		return 0;
	(void)sum;
	rb_iter_init(&it, &pg);
	rb_iter_init(&qit, &pg);
	for (;;) {
		int r, q, quick;

		memset(&ev, 0, sizeof(ev));
		memset(&qev, 0, sizeof(qev));
		r = rb_iter_next(&it, &ev);
		quick = rb_iter_next_quick(&qit, &qev);
		q = quick ? 1 : rb_iter_next(&qit, &qev);
		/* the quick path takes a time extend with the data record
		 * after it: that record, the extend's 8 bytes in its size */
		if (quick && r == 1 && ev.kind == RB_EV_EXTEND) {
			r = rb_iter_next(&it, &ev);
			if (r != 1 || ev.kind != RB_EV_DATA ||
			    qev.size != ev.size + 8)
				__builtin_trap();
			qev.size = ev.size;
		}
		if (q != r || (r == 1 && !same(&ev, &qev)) ||
		    qit.off != it.off || qit.ts != it.ts ||
		    qit.done != it.done)
			__builtin_trap();
		if (r != 1)
			break;
		/* Every record is within the committed bytes ... */
		if (ev.offset > pg.commit || ev.size > pg.commit - ev.offset)
			__builtin_trap();
		/* ... and its payload can be read whole. */
		if (ev.payload)
			for (i = 0; i < ev.len; i++)
				sum += ev.payload[i];
		/* Every record advances: at most one per 4 bytes. */
		if (++n > (int)(pg.commit / 4) + 1)
			__builtin_trap();
		rb_fix_abs_ts(ev.ts, pg.time_stamp);
	}
	return 0;
}
