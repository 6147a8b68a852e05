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

/* The arguments being decoded and the output. */
struct bp_state {
	const unsigned char *args;
	size_t args_len, off;
	int ls, be;
	const struct bprint_opts *opt;
	struct bp_out o;
	char tmp[512];
};

/* One conversion: the printf spec rebuilt, its '*' values. */
struct bp_conv {
	char spec[128];
	int sp;
	int width_star, prec_star, qual;
	int64_t wv, pv;
	char conv;
};

/* Flags, width, precision and qualifier after the '%' at *FMT into C. */
static void bp_spec(const char **fmt, struct bp_conv *c)
{
	const char *f = *fmt;

	c->spec[c->sp++] = '%';
	while (*f && strchr("-+ #0", *f) && c->sp < 40)
		c->spec[c->sp++] = *f++;
	if (*f == '*') {
		c->width_star = 1;
		c->spec[c->sp++] = '*';
		f++;
	} else if (isdigit((unsigned char)*f)) {
		c->sp += snprintf(c->spec + c->sp, 16, "%d", bp_num(&f));
	}
	if (*f == '.') {
		c->spec[c->sp++] = *f++;
		if (*f == '*') {
			c->prec_star = 1;
			c->spec[c->sp++] = '*';
			f++;
		} else {
			c->sp += snprintf(c->spec + c->sp, 16, "%d",
					  bp_num(&f));
		}
	}
	/* qualifiers: hh h l ll z Z t L */
	if (f[0] == 'h' && f[1] == 'h') {
		c->qual = 'H';
		f += 2;
	} else if (f[0] == 'l' && f[1] == 'l') {
		c->qual = 'L';
		f += 2;
	} else if (*f && strchr("hlLzZtq", *f)) {
		c->qual = *f == 'q' ? 'L' : *f;
		f++;
	}
	*fmt = f;
}

/* An inline NUL-terminated string argument; NULL when it overruns. */
static const char *bp_str_arg(struct bp_state *st, size_t *n)
{
	const char *s = (const char *)st->args + st->off;

	if (st->off >= st->args_len)
		return NULL;
	*n = strnlen(s, st->args_len - st->off);
	if (*n == st->args_len - st->off)
		return NULL;
	st->off += *n + 1;
	return s;
}

static int bp_conv_s(struct bp_state *st, struct bp_conv *c)
{
	const char *s;
	size_t n;

	if (!(s = bp_str_arg(st, &n)))
		return -1;
	c->spec[c->sp++] = 's';
	c->spec[c->sp] = '\0';
	if (c->width_star && c->prec_star)
		snprintf(st->tmp, sizeof(st->tmp), c->spec, (int)c->wv,
			 (int)c->pv, s);
	else if (c->width_star || c->prec_star)
		snprintf(st->tmp, sizeof(st->tmp), c->spec,
			 (int)(c->width_star ? c->wv : c->pv), s);
	else
		snprintf(st->tmp, sizeof(st->tmp), c->spec, s);
	bp_put(&st->o, st->tmp, strlen(st->tmp));
	return 0;
}

static int bp_conv_p(struct bp_state *st, const char **fmt)
{
	char ext = **fmt;
	const char *s;
	uint64_t v;
	size_t n;

	if (isalnum((unsigned char)ext) && !strchr("SsxKe", ext)) {
		/* already formatted by vbin_printf */
		if (!(s = bp_str_arg(st, &n)))
			return -1;
		bp_put(&st->o, s, n);
	} else {
		if (bp_arg(st->args, st->args_len, &st->off, st->ls, st->be,
			   &v))
			return -1;
		if ((ext == 'S' || ext == 's') && st->opt->sym)
			st->opt->sym(v, ext, st->tmp, sizeof(st->tmp),
				     st->opt->arg);
		else
			snprintf(st->tmp, sizeof(st->tmp), "%0*llx",
				 st->ls * 2, (unsigned long long)v);
		bp_put(&st->o, st->tmp, strlen(st->tmp));
	}
	while (isalnum((unsigned char)**fmt))
		(*fmt)++;
	return 0;
}

static int bp_conv_c(struct bp_state *st, struct bp_conv *c)
{
	uint64_t v;

	if (bp_arg(st->args, st->args_len, &st->off, 1, st->be, &v))
		return -1;
	c->spec[c->sp++] = 'c';
	c->spec[c->sp] = '\0';
	if (c->width_star)
		snprintf(st->tmp, sizeof(st->tmp), c->spec, (int)c->wv,
			 (int)(unsigned char)v);
	else
		snprintf(st->tmp, sizeof(st->tmp), c->spec,
			 (int)(unsigned char)v);
	bp_put(&st->o, st->tmp, strlen(st->tmp));
	return 0;
}

static int bp_conv_int(struct bp_state *st, struct bp_conv *c)
{
	int sgn = c->conv == 'd' || c->conv == 'i', size;
	long long sv;
	uint64_t v;

	switch (c->qual) {
	case 'L': size = 8; break;
	case 'l': case 'z': case 'Z': case 't': size = st->ls; break;
	case 'H': size = 1; break;
	case 'h': size = 2; break;
	default: size = 4; break;
	}
	if (bp_arg(st->args, st->args_len, &st->off, size, st->be, &v))
		return -1;
	if (sgn) {
		sv = size == 8 ? (int64_t)v : size == 4 ?
		     (int32_t)v : size == 2 ? (int16_t)v :
		     (int8_t)v;
		v = (uint64_t)sv;
	}
	c->spec[c->sp++] = 'l';
	c->spec[c->sp++] = 'l';
	c->spec[c->sp++] = c->conv == 'i' ? 'd' : c->conv;
	c->spec[c->sp] = '\0';
	if (c->width_star && c->prec_star)
		snprintf(st->tmp, sizeof(st->tmp), c->spec, (int)c->wv,
			 (int)c->pv, (unsigned long long)v);
	else if (c->width_star || c->prec_star)
		snprintf(st->tmp, sizeof(st->tmp), c->spec,
			 (int)(c->width_star ? c->wv : c->pv),
			 (unsigned long long)v);
	else
		snprintf(st->tmp, sizeof(st->tmp), c->spec,
			 (unsigned long long)v);
	bp_put(&st->o, st->tmp, strlen(st->tmp));
	return 0;
}

/* The '*' width and precision arguments of C. */
static int bp_stars(struct bp_state *st, struct bp_conv *c)
{
	uint64_t v;

	if (c->width_star) {
		if (bp_arg(st->args, st->args_len, &st->off, 4, st->be, &v))
			return -1;
		c->wv = bp_clamp((int32_t)v);
	}
	if (c->prec_star) {
		if (bp_arg(st->args, st->args_len, &st->off, 4, st->be, &v))
			return -1;
		c->pv = bp_clamp((int32_t)v);
	}
	return 0;
}

/* The conversion at *FMT (its '%' at START). */
static int bp_convert(struct bp_state *st, struct bp_conv *c,
		      const char **fmt, const char *start)
{
	switch (c->conv) {
	case 's':
		return bp_conv_s(st, c);
	case 'p':
		return bp_conv_p(st, fmt);
	case 'c':
		return bp_conv_c(st, c);
	case 'd': case 'i': case 'u': case 'x': case 'X': case 'o':
		return bp_conv_int(st, c);
	default:
		/* unknown conversion: print it as it stands */
		bp_put(&st->o, start, *fmt - start);
		return 0;
	}
}

int bprint_format(const char *fmt, const unsigned char *args, size_t args_len,
		  const struct bprint_opts *opt, char *out, size_t out_len)
{
	struct bp_state st;
	struct bp_conv c;

	memset(&st, 0, sizeof(st));
	st.args = args;
	st.args_len = args_len;
	st.ls = opt->long_size;
	st.be = opt->big_endian;
	st.opt = opt;
	st.o.buf = out;
	st.o.len = out_len;
	if (out_len)
		out[0] = '\0';
	while (*fmt) {
		const char *start = fmt;

		if (*fmt != '%') {
			const char *e = strchr(fmt, '%');
			size_t n = e ? (size_t)(e - fmt) : strlen(fmt);

			bp_put(&st.o, fmt, n);
			fmt += n;
			continue;
		}
		fmt++;
		if (*fmt == '%') {
			bp_put(&st.o, "%", 1);
			fmt++;
			continue;
		}
		memset(&c, 0, sizeof(c));
		bp_spec(&fmt, &c);
		c.conv = *fmt;
		if (!c.conv)
			break;
		fmt++;
		if (bp_stars(&st, &c) || bp_convert(&st, &c, &fmt, start))
			return -1;
	}
	return (int)st.o.pos;
}
