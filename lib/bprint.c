/*
 * Crash-free trace_printk argument decoding: lib/vsprintf.c vbin_printf()
 * stores each argument aligned to its size (at most 4), strings inline
 * with their NUL, "%p" with an alphanumeric extension other than S s x K e already
 * formatted as a string; bstr_printf() reads them back in that order.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "bprint.h"

struct bp_out {
	char *buf;
	size_t len, pos;
};

static void bp_put(struct bp_out *o, const char *s, size_t n)
{
	while (n--) {
		if (o->pos + 1 < o->len)
			o->buf[o->pos] = *s;
		o->pos++;
		s++;
	}
	if (o->len)
		o->buf[o->pos + 1 < o->len ? o->pos : o->len - 1] = '\0';
}

static uint64_t bp_get(const unsigned char *p, int size, int be)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < size; i++)
		v |= (uint64_t)p[be ? size - 1 - i : i] << (8 * i);
	return v;
}

/* save_arg(type): align to the size (8-byte values only to 4: they are
 * stored as two u32 words), read SIZE bytes. */
static int bp_arg(const unsigned char *args, size_t len, size_t *off,
		  int size, int be, uint64_t *v)
{
	size_t al = size == 8 ? 4 : size;
	size_t o = (*off + al - 1) & ~(al - 1);

	if (o + size > len)
		return -1;
	*v = bp_get(args + o, size, be);
	*off = o + size;
	return 0;
}

/*
 * Widths and precisions are clamped to BP_WIDTH_MAX: the output is bounded
 * anyway, and what is visible of a wider field is the same (the kernel
 * clamps too, to 2^23 - 1 and 2^15 - 1).
 */
#define BP_WIDTH_MAX	4096

static int bp_clamp(int64_t v)
{
	if (v > BP_WIDTH_MAX)
		return BP_WIDTH_MAX;
	if (v < -BP_WIDTH_MAX)
		return -BP_WIDTH_MAX;
	return (int)v;
}

static int bp_num(const char **fmt)
{
	int64_t v = 0;

	while (isdigit((unsigned char)**fmt)) {
		if (v <= BP_WIDTH_MAX)
			v = v * 10 + (**fmt - '0');
		(*fmt)++;
	}
	return bp_clamp(v);
}

int bprint_format(const char *fmt, const unsigned char *args, size_t args_len,
		  const struct bprint_opts *opt, char *out, size_t out_len)
{
	struct bp_out o = { out, out_len, 0 };
	size_t off = 0;
	int ls = opt->long_size, be = opt->big_endian;
	char spec[128], tmp[512];
	uint64_t v;

	if (out_len)
		out[0] = '\0';
	while (*fmt) {
		const char *start = fmt;
		int width_star = 0, prec_star = 0, sp = 0;
		int qual = 0, size;
		int64_t wv = 0, pv = 0;
		char conv;

		if (*fmt != '%') {
			const char *e = strchr(fmt, '%');
			size_t n = e ? (size_t)(e - fmt) : strlen(fmt);

			bp_put(&o, fmt, n);
			fmt += n;
			continue;
		}
		fmt++;
		if (*fmt == '%') {
			bp_put(&o, "%", 1);
			fmt++;
			continue;
		}
		spec[sp++] = '%';
		while (*fmt && strchr("-+ #0", *fmt) && sp < 40)
			spec[sp++] = *fmt++;
		if (*fmt == '*') {
			width_star = 1;
			spec[sp++] = '*';
			fmt++;
		} else if (isdigit((unsigned char)*fmt)) {
			sp += snprintf(spec + sp, 16, "%d", bp_num(&fmt));
		}
		if (*fmt == '.') {
			spec[sp++] = *fmt++;
			if (*fmt == '*') {
				prec_star = 1;
				spec[sp++] = '*';
				fmt++;
			} else {
				sp += snprintf(spec + sp, 16, "%d", bp_num(&fmt));
			}
		}
		/* qualifiers: hh h l ll z Z t L */
		if (fmt[0] == 'h' && fmt[1] == 'h') {
			qual = 'H';
			fmt += 2;
		} else if (fmt[0] == 'l' && fmt[1] == 'l') {
			qual = 'L';
			fmt += 2;
		} else if (*fmt && strchr("hlLzZtq", *fmt)) {
			qual = *fmt == 'q' ? 'L' : *fmt;
			fmt++;
		}
		conv = *fmt;
		if (!conv)
			break;
		fmt++;
		if (width_star && bp_arg(args, args_len, &off, 4, be, &v) == 0)
			wv = bp_clamp((int32_t)v);
		else if (width_star)
			return -1;
		if (prec_star && bp_arg(args, args_len, &off, 4, be, &v) == 0)
			pv = bp_clamp((int32_t)v);
		else if (prec_star)
			return -1;

		switch (conv) {
		case 's': {
			const char *s = (const char *)args + off;
			size_t n;

			if (off >= args_len)
				return -1;
			n = strnlen(s, args_len - off);
			if (n == args_len - off)
				return -1;
			off += n + 1;
			spec[sp++] = 's';
			spec[sp] = '\0';
			if (width_star && prec_star)
				snprintf(tmp, sizeof(tmp), spec, (int)wv,
					 (int)pv, s);
			else if (width_star || prec_star)
				snprintf(tmp, sizeof(tmp), spec,
					 (int)(width_star ? wv : pv), s);
			else
				snprintf(tmp, sizeof(tmp), spec, s);
			bp_put(&o, tmp, strlen(tmp));
			break;
		}
		case 'p': {
			char ext = *fmt;

			if (isalnum((unsigned char)ext) &&
			    !strchr("SsxKe", ext)) {
				/* already formatted by vbin_printf */
				const char *s = (const char *)args + off;
				size_t n;

				if (off >= args_len)
					return -1;
				n = strnlen(s, args_len - off);
				if (n == args_len - off)
					return -1;
				off += n + 1;
				bp_put(&o, s, n);
			} else {
				if (bp_arg(args, args_len, &off, ls, be, &v))
					return -1;
				if ((ext == 'S' || ext == 's') && opt->sym) {
					opt->sym(v, ext, tmp, sizeof(tmp),
						 opt->arg);
				} else
					snprintf(tmp, sizeof(tmp), "%0*llx",
						 ls * 2, (unsigned long long)v);
				bp_put(&o, tmp, strlen(tmp));
			}
			while (isalnum((unsigned char)*fmt))
				fmt++;
			break;
		}
		case 'c':
			if (bp_arg(args, args_len, &off, 1, be, &v))
				return -1;
			spec[sp++] = 'c';
			spec[sp] = '\0';
			if (width_star)
				snprintf(tmp, sizeof(tmp), spec, (int)wv,
					 (int)(unsigned char)v);
			else
				snprintf(tmp, sizeof(tmp), spec,
					 (int)(unsigned char)v);
			bp_put(&o, tmp, strlen(tmp));
			break;
		case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': {
			int sgn = conv == 'd' || conv == 'i';
			long long sv;

			switch (qual) {
			case 'L': size = 8; break;
			case 'l': case 'z': case 'Z': case 't': size = ls; break;
			case 'H': size = 1; break;
			case 'h': size = 2; break;
			default: size = 4; break;
			}
			if (bp_arg(args, args_len, &off, size, be, &v))
				return -1;
			if (sgn) {
				sv = size == 8 ? (int64_t)v : size == 4 ?
				     (int32_t)v : size == 2 ? (int16_t)v :
				     (int8_t)v;
				v = (uint64_t)sv;
			}
			spec[sp++] = 'l';
			spec[sp++] = 'l';
			spec[sp++] = conv == 'i' ? 'd' : conv;
			spec[sp] = '\0';
			if (width_star && prec_star)
				snprintf(tmp, sizeof(tmp), spec, (int)wv,
					 (int)pv, (unsigned long long)v);
			else if (width_star || prec_star)
				snprintf(tmp, sizeof(tmp), spec,
					 (int)(width_star ? wv : pv),
					 (unsigned long long)v);
			else
				snprintf(tmp, sizeof(tmp), spec,
					 (unsigned long long)v);
			bp_put(&o, tmp, strlen(tmp));
			break;
		}
		default:
			/* unknown conversion: print it as it stands */
			bp_put(&o, start, fmt - start);
			break;
		}
	}
	return (int)o.pos;
}
