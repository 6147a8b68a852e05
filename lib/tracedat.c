/*
 * Crash-free pieces of a trace.dat (version 6) writer.  Layout as
 * trace-cmd's trace-input.c reads it: magic "\027\010\104tracing",
 * version string, endianness byte, long size byte, u32 page size, then
 * the sized sections, the CPU count, "options  " with its options, and
 * "flyrecord" with one (offset, size) pair per CPU.
 */
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

void td_header(struct td_out *o, int long_size, uint32_t page_size)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44 };
	unsigned char b[2];

	td_raw(o, magic, sizeof(magic));
	td_raw(o, "tracing", 7);
	td_str(o, "6");
	b[0] = o->big_endian ? 1 : 0;
	b[1] = (unsigned char)long_size;
	td_raw(o, b, 2);
	td_u32(o, page_size);
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
