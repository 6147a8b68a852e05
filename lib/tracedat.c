/*
 * Crash-free pieces of a trace.dat writer.  Layout as trace-cmd's
 * trace-input.c reads it: magic "\027\010\104tracing", version string,
 * endianness byte, long size byte, u32 page size; then, version 6, the
 * sized sections, the CPU count, "options  " with its options, and
 * "flyrecord" with one (offset, size) pair per CPU; version 7, the
 * compression ("none", "", or "zstd" when a section is compressed), the
 * offset of the first options section, and sections each under a header
 * (id, flags, description, size): the same texts, one section per buffer,
 * options naming where each is, strings.  A compressed section holds one
 * zstd frame of raw (stored) blocks: nothing is squeezed, so no
 * compression library is needed, and every reader of trace-cmd 3 decodes
 * it (bookworm's 3.1.6 knows zstd only, sid's 3.4 zstd and zlib).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "tracedat.h"

void td_init(struct td_out *o, td_write_fn fn, void *arg, int big_endian)
{
	memset(o, 0, sizeof(*o));
	o->write = fn;
	o->arg = arg;
	o->big_endian = big_endian;
}

void td_raw(struct td_out *o, const void *buf, size_t len)
{
	if (o->err || !len)
		return;
	o->err = o->write(o->arg, buf, len);
	if (!o->err)
		o->off += len;
}

static void td_put(int be, uint64_t v, int n, unsigned char *b)
{
	int i;

	for (i = 0; i < n; i++)
		b[be ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

static void td_int(struct td_out *o, uint64_t v, int n)
{
	unsigned char b[8];

	td_put(o->big_endian, v, n, b);
	td_raw(o, b, n);
}

void td_u16(struct td_out *o, uint16_t v) { td_int(o, v, 2); }
void td_u32(struct td_out *o, uint32_t v) { td_int(o, v, 4); }
void td_u64(struct td_out *o, uint64_t v) { td_int(o, v, 8); }

void td_str(struct td_out *o, const char *s)
{
	td_raw(o, s, strlen(s) + 1);
}

void td_pad(struct td_out *o, uint64_t align)
{
	static const unsigned char zero[512];
	uint64_t n;

	if (!align)
		return;
	n = (align - o->off % align) % align;
	while (n && !o->err) {
		size_t k = n > sizeof(zero) ? sizeof(zero) : n;

		td_raw(o, zero, k);
		n -= k;
	}
}

static void td_header_head(struct td_out *o, const char *version,
			   int long_size, uint32_t page_size)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44 };
	unsigned char b[2];

	td_raw(o, magic, sizeof(magic));
	td_raw(o, "tracing", 7);
	td_str(o, version);
	b[0] = o->big_endian ? 1 : 0;
	b[1] = (unsigned char)long_size;
	td_raw(o, b, 2);
	td_u32(o, page_size);
}

void td_header(struct td_out *o, int version, int long_size,
	       uint32_t page_size)
{
	if (version >= 7) {
		td_header7(o, long_size, page_size, "none", "");
		return;
	}
	td_header_head(o, "6", long_size, page_size);
}

void td_header7(struct td_out *o, int long_size, uint32_t page_size,
		const char *zname, const char *zver)
{
	td_header_head(o, "7", long_size, page_size);
	td_str(o, zname);
	td_str(o, zver);
}

void td_named_section(struct td_out *o, const char *name, const char *text,
		      size_t len)
{
	td_str(o, name);
	td_u64(o, len);
	td_raw(o, text, len);
}

void td_sized8(struct td_out *o, const char *text, size_t len)
{
	td_u64(o, len);
	td_raw(o, text, len);
}

void td_sized4(struct td_out *o, const char *text, size_t len)
{
	td_u32(o, (uint32_t)len);
	td_raw(o, text, len);
}

void td_option(struct td_out *o, uint16_t id, const void *data, uint32_t len)
{
	td_u16(o, id);
	if (id == TD_OPTION_DONE)
		return;
	td_u32(o, len);
	td_raw(o, data, len);
}

void td_cpu_table(int big_endian, const uint64_t *offs, const uint64_t *sizes,
		  int ncpus, unsigned char *buf)
{
	int i;

	for (i = 0; i < ncpus; i++) {
		td_put(big_endian, offs[i], 8, buf + 16 * i);
		td_put(big_endian, sizes[i], 8, buf + 16 * i + 8);
	}
}

void td_put_u64(int big_endian, uint64_t v, unsigned char *b)
{
	td_put(big_endian, v, 8, b);
}

uint64_t td_section(struct td_out *o, uint16_t id, uint32_t desc)
{
	return td_section_fl(o, id, 0, desc);
}

uint64_t td_section_fl(struct td_out *o, uint16_t id, uint16_t flags,
		       uint32_t desc)
{
	uint64_t at;

	td_u16(o, id);
	td_u16(o, flags);
	td_u32(o, desc);
	at = o->off;
	td_u64(o, 0);
	return at;
}

/* RFC 8878: frames begin with 0xFD2FB528 (little-endian); a block
 * holds at most 128 KB */
#define TD_ZSTD_MAGIC		0xFD2FB528U
#define TD_ZSTD_BLOCK_MAX	(128 * 1024)

uint64_t td_zstd_block(struct td_out *o, const void *in, size_t len)
{
	const unsigned char *p = in;
	uint64_t start = o->off, nblocks, frame;
	unsigned char b[9];
	size_t k;

	if (o->err)
		return 0;
	if ((uint64_t)len >= 0xffffffffULL - 64) {
		o->err = EFBIG;
		return 0;
	}
	nblocks = len ? (len + TD_ZSTD_BLOCK_MAX - 1) / TD_ZSTD_BLOCK_MAX : 1;
	/* magic 4, frame header descriptor 1, content size 4, 3 per block */
	frame = 9 + 3 * nblocks + len;
	if (frame > 0xffffffffULL) {
		o->err = EFBIG;
		return 0;
	}
	td_u32(o, (uint32_t)frame);
	td_u32(o, (uint32_t)len);
	td_put(0, TD_ZSTD_MAGIC, 4, b);
	/* Frame_Content_Size_flag 2 (4 bytes), Single_Segment_flag: no
	 * window descriptor, the window being the content */
	b[4] = 2 << 6 | 1 << 5;
	td_put(0, len, 4, b + 5);
	td_raw(o, b, 9);
	do {
		k = len > TD_ZSTD_BLOCK_MAX ? TD_ZSTD_BLOCK_MAX : len;
		/* Last_Block, Block_Type 0 (Raw_Block), Block_Size */
		td_put(0, (uint64_t)k << 3 | (k == len), 3, b);
		td_raw(o, b, 3);
		td_raw(o, p, k);
		p += k;
		len -= k;
	} while (len && !o->err);
	return o->off - start;
}

void td_section_size(const struct td_out *o, uint64_t size_at,
		     unsigned char *b)
{
	uint64_t n = o->off >= size_at + 8 ? o->off - size_at - 8 : 0;

	td_put(o->big_endian, n, 8, b);
}

void td_option_done7(struct td_out *o, uint64_t next)
{
	td_u16(o, TD_OPTION_DONE);
	td_u32(o, 8);
	td_u64(o, next);
}

size_t td_buffer_option(int big_endian, uint64_t section, const char *name,
			const char *clock, uint32_t page_size, int ncpus,
			const uint64_t *offs, const uint64_t *sizes,
			unsigned char *buf, size_t buflen)
{
	size_t nl = strlen(name) + 1, cl = strlen(clock) + 1, n, p;
	int i;

	if (ncpus < 0)
		ncpus = 0;
	n = 8 + nl + cl + 4 + 4 + (size_t)ncpus * 20;
	if (n > buflen)
		return n;
	td_put(big_endian, section, 8, buf);
	memcpy(buf + 8, name, nl);
	memcpy(buf + 8 + nl, clock, cl);
	p = 8 + nl + cl;
	td_put(big_endian, page_size, 4, buf + p);
	td_put(big_endian, (uint32_t)ncpus, 4, buf + p + 4);
	p += 8;
	for (i = 0; i < ncpus; i++, p += 20) {
		td_put(big_endian, (uint32_t)i, 4, buf + p);
		td_put(big_endian, offs[i], 8, buf + p + 4);
		td_put(big_endian, sizes[i], 8, buf + p + 12);
	}
	return n;
}

uint32_t td_string(struct td_strings *s, const char *str)
{
	size_t k = strlen(str) + 1, at;

	for (at = 0; at < s->len; at += strlen(s->buf + at) + 1)
		if (strcmp(s->buf + at, str) == 0)
			return (uint32_t)at;
	if (s->len + k > s->cap) {
		size_t cap = (s->len + k) * 2 + 64;
		char *nb = realloc(s->buf, cap);

		if (!nb)
			return TD_NO_STRING;
		s->buf = nb;
		s->cap = cap;
	}
	memcpy(s->buf + s->len, str, k);
	at = s->len;
	s->len += k;
	return (uint32_t)at;
}

void td_strings_free(struct td_strings *s)
{
	free(s->buf);
	memset(s, 0, sizeof(*s));
}

size_t td_printk_escape(const char *str, char *out, size_t outlen)
{
	size_t n = 0;

	if (!outlen)
		return 0;
	for (; *str; str++) {
		const char *rep = NULL;
		char one[2] = { *str, 0 };
		size_t k;

		switch (*str) {
		case '\n': rep = "\\n"; break;
		case '\t': rep = "\\t"; break;
		case '\\': rep = "\\\\"; break;
		case '"': rep = "\\\""; break;
		default: rep = one; break;
		}
		k = strlen(rep);
		if (n + k >= outlen)
			break;
		memcpy(out + n, rep, k);
		n += k;
	}
	out[n] = '\0';
	return n;
}
