/*
 * printfmt_out.c - evaluate a compiled print_fmt (lib/printfmt.c) against
 * one record and print it with the kernel's vsnprintf() semantics
 * (lib/vsprintf.c: number(), string(), pointer()) and the helpers of
 * kernel/trace/trace_output.c; the fallback line and the syscall lines.
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stdarg.h>
#include "printfmt_int.h"

/* ---- evaluation ----------------------------------------------------- */

struct val {
	int kind;		/* TY_INT / TY_BUF */
	uint64_t v;		/* TY_INT: value, normalized to its type */
	const unsigned char *p;	/* TY_BUF: bytes (NULL: a null pointer) */
	size_t n;		/* TY_BUF: their count */
	int elsz, sgn;		/* TY_BUF: element size and sign */
};

struct out {
	char *buf;
	size_t cap, len;	/* len: bytes stored */
};

struct ev {
	const struct pf_fmt *f;
	const unsigned char *rec;
	size_t reclen;
	const struct pf_ctx *ctx;
	int big, lsize;
	struct out tmp;		/* the kernel's iter->tmp_seq */
	char *err;
	size_t errlen;
	int depth;
	char tmpbuf[PF_TMP_SIZE];	/* last: ev_init() clears what is above */
};

static int everr(struct ev *e, int code, const char *fmt, ...)
{
	va_list ap;

	if (e->err && e->errlen && !e->err[0]) {
		va_start(ap, fmt);
		vsnprintf(e->err, e->errlen, fmt, ap);
		va_end(ap);
	}
	return -code;
}

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->cap)
		o->buf[o->len++] = c;
}

static void puts_n(struct out *o, const char *s, size_t n)
{
	while (n--)
		put(o, *s++);
}

static uint64_t rd_uint(struct ev *e, const unsigned char *p, int size)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < size && i < 8; i++)
		v |= (uint64_t)p[e->big ? size - 1 - i : i] << (8 * i);
	return v;
}

/* The bytes of field fi, bounded by the record. */
static int field_bytes(struct ev *e, int fi, const unsigned char **p,
		       size_t *n)
{
	const struct pf_field *fl = &e->f->fields[fi];

	if (fl->offset < 0 || fl->size < 0 ||
	    (size_t)fl->offset + (size_t)fl->size > e->reclen)
		return everr(e, PF_ERANGE, "field %s (offset %d size %d) "
			     "beyond the record (%zu bytes)", fl->name,
			     fl->offset, fl->size, e->reclen);
	*p = e->rec + fl->offset;
	*n = fl->size;
	return 0;
}

/* __get_dynamic_array() of field fi: a __data_loc / __rel_loc word. */
static int dyn_bytes(struct ev *e, int fi, int rel, const unsigned char **p,
		     size_t *n)
{
	const struct pf_field *fl = &e->f->fields[fi];
	const unsigned char *q;
	size_t qn, off, len;
	uint64_t w;
	int r;

	if ((r = field_bytes(e, fi, &q, &qn)) < 0)
		return r;
	if (qn != 4)
		return everr(e, PF_EFIELD, "field %s is not a __data_loc",
			     fl->name);
	w = rd_uint(e, q, 4);
	off = w & 0xffff;
	len = (w >> 16) & 0xffff;
	/* __rel_loc: relative to the end of the field (since v5.18) */
	if (rel || has(fl->type, "__rel_loc"))
		off += fl->offset + fl->size;
	if (off > e->reclen || len > e->reclen - off)
		return everr(e, PF_ERANGE, "dynamic array %s (offset %zu "
			     "len %zu) beyond the record (%zu bytes)",
			     fl->name, off, len, e->reclen);
	*p = e->rec + off;
	*n = len;
	return 0;
}

static int eval(struct ev *e, int ni, struct val *v);

static int eval_int(struct ev *e, int ni, uint64_t *out)
{
	struct val v;
	int r = eval(e, ni, &v);

	if (r < 0)
		return r;
	if (v.kind != TY_INT) {
		*out = (uint64_t)(uintptr_t)v.p;
		return everr(e, PF_EUNSUP, "an array used as a number");
	}
	*out = v.v;
	return 0;
}

static size_t tmp_mark(struct ev *e)
{
	return e->tmp.len;
}

/* End a helper's output in tmp: a NUL-terminated string value. */
static void tmp_str(struct ev *e, size_t start, struct val *v)
{
	v->kind = TY_BUF;
	v->p = (const unsigned char *)e->tmp.buf + start;
	v->n = e->tmp.len - start;
	v->elsz = 1;
	v->sgn = 0;
	put(&e->tmp, 0);
}

static void tmp_printf(struct ev *e, const char *fmt, ...)
{
	char buf[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		puts_n(&e->tmp, buf, n < (int)sizeof(buf) ? (size_t)n :
		       sizeof(buf) - 1);
}

/* trace_print_flags_seq() / trace_print_symbols_seq() */
static int do_flags(struct ev *e, const struct node *nd, struct val *v)
{
	const struct node *N = e->f->nodes;
	int sym = nd->op == F_PRINT_SYM || nd->op == F_PRINT_SYM_U64;
	int u64 = nd->op == F_PRINT_FLAGS_U64 || nd->op == F_PRINT_SYM_U64;
	int bits = u64 ? 64 : e->lsize, first = 1, r, el;
	size_t start = tmp_mark(e);
	struct val delim = { 0 };
	uint64_t flags, mask;

	if ((r = eval_int(e, nd->a, &flags)) < 0)
		return r;
	flags = norm(flags, bits, 0);
	el = N[nd->a].next;
	if (!sym) {
		if ((r = eval(e, el, &delim)) < 0)
			return r;
		el = N[el].next;
	}
	for (; el >= 0 && (sym || flags); el = N[el].next) {
		struct val name;
		int m = N[el].a;

		if ((r = eval_int(e, m, &mask)) < 0 ||
		    (r = eval(e, N[m].next, &name)) < 0)
			return r;
		if (name.kind == TY_INT) {
			if (name.v)
				return everr(e, PF_EUNSUP, "flag name is a "
					     "number");
			break;		/* a NULL name ends the array */
		}
		mask = norm(mask, bits, 0);
		if (sym) {
			if (flags != mask)
				continue;
			puts_n(&e->tmp, (const char *)name.p,
			       name.p ? strnlen((const char *)name.p,
						name.n) : 0);
			tmp_str(e, start, v);
			return 0;
		}
		if ((flags & mask) != mask)
			continue;
		flags &= ~mask;
		if (!first && delim.p)
			puts_n(&e->tmp, (const char *)delim.p,
			       strnlen((const char *)delim.p, delim.n));
		first = 0;
		if (name.p)
			puts_n(&e->tmp, (const char *)name.p,
			       strnlen((const char *)name.p, name.n));
	}
	if (sym) {
		tmp_printf(e, "0x%llx", (unsigned long long)flags);
	} else if (flags) {
		if (!first && delim.p)
			puts_n(&e->tmp, (const char *)delim.p,
			       strnlen((const char *)delim.p, delim.n));
		tmp_printf(e, "0x%llx", (unsigned long long)flags);
	}
	tmp_str(e, start, v);
	return 0;
}

static const char hexdig[] = "0123456789abcdef";

/* trace_print_hex_seq(), trace_print_array_seq() */
static int do_hex_array(struct ev *e, const struct node *nd, struct val *v)
{
	const struct node *N = e->f->nodes;
	size_t start = tmp_mark(e), i;
	struct val buf;
	uint64_t cnt, elsz, total;
	int r;

	if (nd->op == F_PRINT_DYN_ARRAY) {
		if ((r = dyn_bytes(e, nd->field, 0, &buf.p, &buf.n)) < 0 ||
		    (r = eval_int(e, nd->a, &elsz)) < 0)
			return r;
		cnt = elsz ? buf.n / elsz : 0;
	} else {
		if ((r = eval(e, nd->a, &buf)) < 0 ||
		    (r = eval_int(e, N[nd->a].next, &cnt)) < 0)
			return r;
		if (buf.kind != TY_BUF)
			return everr(e, PF_EUNSUP, "__print_hex/array of a "
				     "kernel pointer");
		elsz = 1;
		if (nd->op == F_PRINT_ARRAY &&
		    (r = eval_int(e, N[N[nd->a].next].next, &elsz)) < 0)
			return r;
	}
	if (nd->op == F_PRINT_HEX || nd->op == F_PRINT_HEX_STR) {
		int len = (int)cnt;	/* int buf_len */

		if (len > 0 && (size_t)len > buf.n)
			return everr(e, PF_ERANGE, "__print_hex of %d bytes "
				     "from %zu", len, buf.n);
		for (i = 0; len > 0 && i < (size_t)len; i++) {
			if (nd->op == F_PRINT_HEX && i)
				put(&e->tmp, ' ');
			put(&e->tmp, hexdig[buf.p[i] >> 4]);
			put(&e->tmp, hexdig[buf.p[i] & 15]);
		}
		tmp_str(e, start, v);
		return 0;
	}
	/* trace_print_array_seq(p, buf, count, el_size) */
	cnt = norm(cnt, 32, 1);		/* int count */
	if ((int64_t)cnt < 0 || elsz > 0xffffffffULL ||
	    cnt * elsz > buf.n)
		return everr(e, PF_ERANGE, "__print_array of %lld x %llu "
			     "bytes from %zu", (long long)cnt,
			     (unsigned long long)elsz, buf.n);
	total = cnt * elsz;
	put(&e->tmp, '{');
	for (i = 0; i < total;) {
		const char *pre = i ? "," : "";

		switch (elsz) {
		case 1: case 2: case 4: case 8:
			tmp_printf(e, "%s0x%llx", pre, (unsigned long long)
				   rd_uint(e, buf.p + i, (int)elsz));
			i += elsz;
			break;
		default:
			tmp_printf(e, "%sBAD SIZE:%llu 0x%x", pre,
				   (unsigned long long)elsz, buf.p[i]);
			elsz = 1;
			i += 1;
			break;
		}
	}
	put(&e->tmp, '}');
	tmp_str(e, start, v);
	return 0;
}

/* trace_print_bitmask_seq(): "%*pb" of the dynamic array's bits. */
static int do_bitmask(struct ev *e, const struct node *nd, struct val *v)
{
	size_t start = tmp_mark(e), nbits, chunk, i;
	const unsigned char *p;
	size_t n;
	int r, first = 1;

	if ((r = dyn_bytes(e, nd->field, nd->aux, &p, &n)) < 0)
		return r;
	nbits = n * 8;
	chunk = nbits % 32 ? nbits % 32 : 32;
	for (i = (nbits + 31) / 32 * 32; nbits && i >= 32; ) {
		uint32_t val = 0;
		size_t bit, w;

		i -= 32;
		/* bits i .. i+chunk-1 of an array of unsigned long */
		for (bit = 0; bit < chunk; bit++) {
			size_t b = i + bit, L = e->lsize / 8;
			size_t byte = b / 8;

			w = byte / L;
			byte = e->big ? w * L + (L - 1 - byte % L) : byte;
			if (byte < n && (p[byte] >> (b % 8)) & 1)
				val |= 1U << bit;
		}
		if (!first)
			put(&e->tmp, ',');
		first = 0;
		tmp_printf(e, "%0*x", (int)((chunk + 3) / 4), val);
		chunk = 32;
	}
	tmp_str(e, start, v);
	return 0;
}

static int eval_call(struct ev *e, const struct node *nd, struct val *v)
{
	const struct node *N = e->f->nodes;
	const struct pf_field *fl;
	uint64_t x;
	int r;

	switch (nd->op) {
	case F_GET_STR:
	case F_GET_DYN:
		if ((r = dyn_bytes(e, nd->field, nd->aux, &v->p, &v->n)) < 0)
			return r;
		v->kind = TY_BUF;
		v->elsz = nd->ty.elsz;
		fl = &e->f->fields[nd->field];
		v->sgn = fl->is_signed;
		return 0;
	case F_GET_DYN_LEN: {
		const unsigned char *p;
		size_t n;

		if ((r = field_bytes(e, nd->field, &p, &n)) < 0)
			return r;
		if (n != 4)
			return everr(e, PF_EFIELD, "not a __data_loc");
		v->kind = TY_INT;
		v->v = (rd_uint(e, p, 4) >> 16) & 0xffff;
		return 0;
	}
	case F_GET_BITMASK:
		return do_bitmask(e, nd, v);
	case F_PRINT_FLAGS:
	case F_PRINT_FLAGS_U64:
	case F_PRINT_SYM:
	case F_PRINT_SYM_U64:
		return do_flags(e, nd, v);
	case F_PRINT_HEX:
	case F_PRINT_HEX_STR:
	case F_PRINT_ARRAY:
	case F_PRINT_DYN_ARRAY:
		return do_hex_array(e, nd, v);
	case F_NS_TO_SECS:
	case F_NS_WITHOUT_SECS:
		if ((r = eval_int(e, nd->a, &x)) < 0)
			return r;
		v->kind = TY_INT;
		v->v = nd->op == F_NS_TO_SECS ? x / 1000000000ULL :
			x % 1000000000ULL;
		return 0;
	case F_EXPECT:
		if ((r = eval_int(e, nd->a, &x)) < 0)
			return r;
		(void)N;
		v->kind = TY_INT;
		v->v = x;
		return 0;
	}
	return everr(e, PF_EUNSUP, "helper %d", nd->op);
}

static int truth(const struct val *v)
{
	return v->kind == TY_INT ? v->v != 0 : v->p != NULL;
}

static int eval_binary(struct ev *e, const struct node *nd, struct val *v)
{
	const struct node *N = e->f->nodes;
	char op0 = nd->op & 0xff, op1 = nd->op >> 8;
	struct val a, b;
	uint64_t x, y, r = 0;
	int rc, bits, sgn, cmp = 0;

	if ((rc = eval(e, nd->a, &a)) < 0)
		return rc;
	v->kind = TY_INT;
	if ((op0 == '&' && op1 == '&') || (op0 == '|' && op1 == '|')) {
		int t = truth(&a);

		if (op0 == '&' ? t : !t) {
			if ((rc = eval(e, nd->b, &b)) < 0)
				return rc;
			t = truth(&b);
		}
		v->v = t;
		return 0;
	}
	if ((rc = eval(e, nd->b, &b)) < 0)
		return rc;
	x = a.v;
	y = b.v;
	if ((op0 == '<' || op0 == '>') && op1 != op0) {
		cmp = 1;
	} else if ((op0 == '=' || op0 == '!') && op1 == '=') {
		cmp = 1;
	}
	if (cmp) {
		int cbits = nd->len & 0xff, csgn = nd->len >> 8;

		x = norm(x, cbits, csgn);
		y = norm(y, cbits, csgn);
#define CMP(o) (csgn ? (int64_t)x o (int64_t)y : x o y)
		if (op0 == '<')
			r = op1 == '=' ? CMP(<=) : CMP(<);
		else if (op0 == '>')
			r = op1 == '=' ? CMP(>=) : CMP(>);
		else if (op0 == '=')
			r = x == y;
		else
			r = x != y;
#undef CMP
		v->v = r;
		return 0;
	}
	bits = nd->ty.bits;
	sgn = nd->ty.sgn;
	x = norm(x, bits, sgn);
	if (op0 == '<' || op0 == '>') {
		/* x86 masks the count; C leaves it undefined */
		unsigned int c = (unsigned int)(y & (bits - 1));

		if (op0 == '<')
			r = x << c;
		else if (sgn)
			r = (uint64_t)((int64_t)x >> c);
		else
			r = norm(x, bits, 0) >> c;
		v->v = norm(r, bits, sgn);
		return 0;
	}
	y = norm(y, bits, sgn);
	switch (op0) {
	case '+': r = x + y; break;
	case '-': r = x - y; break;
	case '*': r = x * y; break;
	case '&': r = x & y; break;
	case '|': r = x | y; break;
	case '^': r = x ^ y; break;
	case '/':
	case '%':
		if (!norm(y, bits, sgn))
			return everr(e, PF_EEVAL, "division by zero");
		if (sgn) {
			int64_t sx = (int64_t)x, sy = (int64_t)y;

			if (sy == -1)	/* INT_MIN / -1 overflows */
				r = op0 == '/' ? (uint64_t)0 - x : 0;
			else
				r = (uint64_t)(op0 == '/' ? sx / sy : sx % sy);
		} else {
			x = norm(x, bits, 0);
			y = norm(y, bits, 0);
			r = op0 == '/' ? x / y : x % y;
		}
		break;
	default:
		(void)N;
		return everr(e, PF_EUNSUP, "operator %c", op0);
	}
	v->v = norm(r, bits, sgn);
	return 0;
}

static int eval(struct ev *e, int ni, struct val *v)
{
	const struct node *nd;
	struct val a;
	int r;

	if (ni < 0 || ni >= e->f->nnodes)
		return everr(e, PF_EEVAL, "bad expression");
	if (++e->depth > 4 * PF_MAX_DEPTH)	/* setdepth() bounds it */
		return everr(e, PF_EEVAL, "expression nested too deep");
	nd = &e->f->nodes[ni];
	memset(v, 0, sizeof(*v));
	v->kind = TY_INT;
	switch (nd->kind) {
	case N_NUM:
		v->v = norm(nd->v, nd->ty.bits, nd->ty.sgn);
		r = 0;
		break;
	case N_STR:
		v->kind = TY_BUF;
		v->p = (const unsigned char *)e->f->strs + nd->v;
		v->n = nd->len;
		v->elsz = 1;
		r = 0;
		break;
	case N_FIELD: {
		const struct pf_field *fl = &e->f->fields[nd->field];
		const unsigned char *p;
		size_t n;

		if ((r = field_bytes(e, nd->field, &p, &n)) < 0)
			break;
		if (nd->ty.kind == TY_BUF) {
			v->kind = TY_BUF;
			v->p = p;
			v->n = n;
			v->elsz = nd->ty.elsz;
			v->sgn = nd->ty.sgn;
			break;
		}
		v->v = norm(rd_uint(e, p, (int)n), (int)n * 8,
			    fl->is_signed && !nd->ty.ptr);
		v->v = norm(v->v, nd->ty.bits, nd->ty.sgn);
		break;
	}
	case N_UNARY:
		if ((r = eval(e, nd->a, &a)) < 0)
			break;
		if (nd->op == '!')
			v->v = !truth(&a);
		else if (nd->op == '-')
			v->v = norm(0 - a.v, nd->ty.bits, nd->ty.sgn);
		else if (nd->op == '~')
			v->v = norm(~a.v, nd->ty.bits, nd->ty.sgn);
		else
			v->v = norm(a.v, nd->ty.bits, nd->ty.sgn);
		break;
	case N_BINARY:
		r = eval_binary(e, nd, v);
		break;
	case N_TERNARY:
		if ((r = eval(e, nd->a, &a)) < 0)
			break;
		r = eval(e, truth(&a) ? nd->b : nd->c, v);
		if (r < 0)
			break;
		if (nd->ty.kind == TY_INT && v->kind == TY_INT) {
			v->v = norm(v->v, nd->ty.bits, nd->ty.sgn);
		} else if (nd->ty.kind == TY_BUF && v->kind == TY_INT) {
			if (v->v)
				r = everr(e, PF_EUNSUP, "?: of a string and "
					  "a number");
			v->kind = TY_BUF;	/* a null pointer */
			v->p = NULL;
			v->n = 0;
		} else if (nd->ty.kind == TY_INT && v->kind == TY_BUF) {
			r = everr(e, PF_EUNSUP, "?: of a string and a "
				  "number");
		}
		break;
	case N_CAST:
		if ((r = eval(e, nd->a, v)) < 0 || v->kind == TY_BUF)
			break;
		if (nd->aux & 2)		/* (bool) */
			v->v = v->v != 0;
		else
			v->v = norm(v->v, nd->len * 8, nd->aux & 1);
		v->v = norm(v->v, nd->ty.bits, nd->ty.sgn);
		break;
	case N_CALL:
		r = eval_call(e, nd, v);
		if (r >= 0 && v->kind == TY_INT)
			v->v = norm(v->v, nd->ty.bits, nd->ty.sgn);
		break;
	case N_INDEX: {
		uint64_t i;

		if ((r = eval(e, nd->a, &a)) < 0 ||
		    (r = eval_int(e, nd->b, &i)) < 0)
			break;
		if (!a.p || !a.elsz || i >= a.n / a.elsz) {
			r = everr(e, PF_ERANGE, "index %llu out of the array",
				  (unsigned long long)i);
			break;
		}
		v->v = norm(rd_uint(e, a.p + i * a.elsz, a.elsz),
			    a.elsz * 8, a.sgn);
		v->v = norm(v->v, nd->ty.bits, nd->ty.sgn);
		break;
	}
	default:
		r = everr(e, PF_EUNSUP, "a { } list outside __print_flags");
		break;
	}
	e->depth--;
	return r;
}

/* ---- the kernel's vsnprintf() --------------------------------------- */

struct spec {
	int flags, width, prec, base;
};

/* lib/vsprintf.c number(): note "%#x" of 0 is "0x0", "%#o" of 0 is "0". */
static void number(struct out *o, uint64_t num, struct spec sp)
{
	char tmp[66], sign = 0;
	int need_pfx = (sp.flags & SPECIAL) && sp.base != 10;
	int is_zero = num == 0, i = 0, fw = sp.width, prec = sp.prec;
	int locase = sp.flags & SMALL;

	if (sp.flags & LEFT)
		sp.flags &= ~ZEROPAD;
	if (sp.flags & SIGN) {
		if ((int64_t)num < 0) {
			sign = '-';
			num = 0 - num;
			fw--;
		} else if (sp.flags & PLUS) {
			sign = '+';
			fw--;
		} else if (sp.flags & SPACE) {
			sign = ' ';
			fw--;
		}
	}
	if (need_pfx) {
		if (sp.base == 16)
			fw -= 2;
		else if (!is_zero)
			fw--;
	}
	do {
		int d = (int)(num % sp.base);

		tmp[i++] = d < 10 ? '0' + d : (locase ? 'a' : 'A') + d - 10;
		num /= sp.base;
	} while (num);
	if (i > prec)
		prec = i;
	fw -= prec;
	if (!(sp.flags & (ZEROPAD | LEFT)))
		while (--fw >= 0)
			put(o, ' ');
	if (sign)
		put(o, sign);
	if (need_pfx) {
		if (sp.base == 16 || !is_zero)
			put(o, '0');
		if (sp.base == 16)
			put(o, locase ? 'x' : 'X');
	}
	if (!(sp.flags & LEFT)) {
		char c = (sp.flags & ZEROPAD) ? '0' : ' ';

		while (--fw >= 0)
			put(o, c);
	}
	while (i <= --prec)
		put(o, '0');
	while (--i >= 0)
		put(o, tmp[i]);
	while (--fw >= 0)
		put(o, ' ');
}

/* string_nocheck() + widen_string() */
static void string_n(struct out *o, const char *s, size_t n, struct spec sp)
{
	size_t len = 0;
	int lim = sp.prec;

	while (lim-- && len < n && s[len])
		len++;
	if (!(sp.flags & LEFT))
		for (; sp.width > (int)len; sp.width--)
			put(o, ' ');
	puts_n(o, s, len);
	for (; sp.width > (int)len; sp.width--)
		put(o, ' ');
}

static void string_z(struct out *o, const char *s, struct spec sp)
{
	string_n(o, s, (size_t)-1, sp);
}

/* error_string(): "(null)", "(efault)", ... */
static void error_string(struct out *o, const char *s, struct spec sp)
{
	if (sp.prec == -1)
		sp.prec = 2 * 8;
	string_z(o, s, sp);
}

static int is_err_or_null(uint64_t p, int lsize)
{
	p = norm(p, lsize, 0);
	return !p || p >= norm((uint64_t)-4095, lsize, 0);
}

/* pointer_string() */
static void pointer_string(struct out *o, uint64_t p, struct spec sp,
			   int lsize)
{
	sp.base = 16;
	sp.flags |= SMALL;
	if (sp.width == -1) {
		sp.width = 2 * (lsize / 8);
		sp.flags |= ZEROPAD;
	}
	number(o, norm(p, lsize, 0), sp);
}

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND do {							\
	v0 += v1; v1 = ROTL(v1, 13); v1 ^= v0; v0 = ROTL(v0, 32);	\
	v2 += v3; v3 = ROTL(v3, 16); v3 ^= v2;				\
	v0 += v3; v3 = ROTL(v3, 21); v3 ^= v0;				\
	v2 += v1; v1 = ROTL(v1, 17); v1 ^= v2; v2 = ROTL(v2, 32);	\
} while (0)

uint64_t pf_siphash_1u64(uint64_t first, const uint64_t key[2])
{
	uint64_t v0 = 0x736f6d6570736575ULL, v1 = 0x646f72616e646f6dULL;
	uint64_t v2 = 0x6c7967656e657261ULL, v3 = 0x7465646279746573ULL;
	uint64_t b = 8ULL << 56;

	v3 ^= key[1];
	v2 ^= key[0];
	v1 ^= key[1];
	v0 ^= key[0];
	v3 ^= first;
	SIPROUND;
	SIPROUND;
	v0 ^= first;
	v3 ^= b;
	SIPROUND;
	SIPROUND;
	v0 ^= b;
	v2 ^= 0xff;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	return (v0 ^ v1) ^ (v2 ^ v3);
}

/* ptr_to_id(): the hashed "%p" */
static int ptr_to_id(struct ev *e, struct out *o, uint64_t p, struct spec sp)
{
	uint64_t h;

	if (is_err_or_null(p, e->lsize)) {
		pointer_string(o, p, sp, e->lsize);
		return 0;
	}
	if (e->ctx && (e->ctx->flags & PF_CTX_PTR_KEY_UNSET)) {
		sp.width = 2 * (e->lsize / 8);
		error_string(o, e->lsize == 64 ? "(____ptrval____)" :
			     "(ptrval)", sp);
		return 0;
	}
	if (!(e->ctx && e->ctx->flags & PF_CTX_HAVE_PTR_KEY))
		return everr(e, PF_ENEED, "%%p needs the kernel's ptr_key");
	h = pf_siphash_1u64(norm(p, e->lsize, 0), e->ctx->ptr_key);
	if (e->lsize == 64)
		h &= 0xffffffff;
	else
		return everr(e, PF_EUNSUP, "%%p hash of a 32-bit kernel");
	pointer_string(o, h, sp, e->lsize);
	return 0;
}

static void ip4_string(struct out *b, const unsigned char *p, int lead0)
{
	int i;

	for (i = 0; i < 4; i++) {
		char t[8];

		snprintf(t, sizeof(t), lead0 ? "%s%03u" : "%s%u",
			 i ? "." : "", p[i]);
		puts_n(b, t, strlen(t));
	}
}

static void hex_byte(struct out *b, unsigned char c)
{
	put(b, hexdig[c >> 4]);
	put(b, hexdig[c & 15]);
}

/* ip6_string(): "%pI6" all eight words with leading zeros, "%pi6" no ':' */
static void ip6_string(struct out *b, const unsigned char *a, int colons)
{
	int i;

	for (i = 0; i < 8; i++) {
		hex_byte(b, a[2 * i]);
		hex_byte(b, a[2 * i + 1]);
		if (colons && i != 7)
			put(b, ':');
	}
}

/* ip6_compressed_string(): "%pI6c", RFC 5952 as lib/vsprintf.c does it */
static void ip6_compressed(struct out *b, const unsigned char *a)
{
	int i, j, range, longest = 1, colonpos = -1, needcolon = 0;
	unsigned char zerolength[8] = { 0 };
	int v4mapped = !memcmp(a, "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12);
	/* ipv6_addr_is_isatap(): s6_addr32[2] | 0x02000000 == 0x02005efe */
	int isatap = (a[8] | 0x02) == 0x02 && a[9] == 0 && a[10] == 0x5e &&
		a[11] == 0xfe;
	int use4 = v4mapped || isatap;

	range = use4 ? 6 : 8;
	for (i = 0; i < range; i++)
		for (j = i; j < range; j++) {
			if (a[2 * j] || a[2 * j + 1])
				break;
			zerolength[i]++;
		}
	for (i = 0; i < range; i++)
		if (zerolength[i] > longest) {
			longest = zerolength[i];
			colonpos = i;
		}
	if (longest == 1)
		colonpos = -1;
	for (i = 0; i < range; i++) {
		unsigned char hi = a[2 * i], lo = a[2 * i + 1];

		if (i == colonpos) {
			if (needcolon || i == 0)
				put(b, ':');
			put(b, ':');
			needcolon = 0;
			i += longest - 1;
			continue;
		}
		if (needcolon)
			put(b, ':');
		if (hi) {
			if (hi > 0x0f)
				hex_byte(b, hi);
			else
				put(b, hexdig[hi]);
			hex_byte(b, lo);
		} else if (lo > 0x0f) {
			hex_byte(b, lo);
		} else {
			put(b, hexdig[lo]);
		}
		needcolon = 1;
	}
	if (use4) {
		if (needcolon)
			put(b, ':');
		ip4_string(b, a + 12, 0);
	}
}

/*
 * ip4_addr_string_sa() / ip6_addr_string_sa(): "%pIS[pfsc]".  Returns 1
 * for an unknown family (the kernel prints "(einval)").
 */
static int ip_sockaddr(struct ev *e, struct out *b, const char *ext,
		       const unsigned char *p, size_t n, struct spec sp)
{
	int have_p = 0, have_s = 0, have_f = 0, have_c = 0, i;
	unsigned int family;

	if (n < 2)
		return everr(e, PF_ERANGE, "%%p%s of %zu bytes", ext, n);
	for (i = 2; ext[i]; i++) {
		have_p |= ext[i] == 'p';
		have_s |= ext[i] == 's';
		have_f |= ext[i] == 'f';
		have_c |= ext[i] == 'c';
	}
	family = (unsigned int)rd_uint(e, p, 2);	/* host order */
	if (family == 2 && n >= 8) {			/* AF_INET */
		if (ext[0] == 'i')
			ip4_string(b, p + 4, 1);
		else
			ip4_string(b, p + 4, 0);
		if (have_p) {
			put(b, ':');
			number(b, (unsigned int)p[2] << 8 | p[3], sp);
		}
		return 0;
	}
	if (family == 10 && n >= 28) {			/* AF_INET6 */
		if (have_p || have_s || have_f)
			put(b, '[');
		if (ext[0] == 'I' && have_c)
			ip6_compressed(b, p + 8);
		else
			ip6_string(b, p + 8, ext[0] == 'I');
		if (have_p || have_s || have_f)
			put(b, ']');
		if (have_p) {
			put(b, ':');
			number(b, (unsigned int)p[2] << 8 | p[3], sp);
		}
		if (have_f) {
			put(b, '/');
			/* IPV6_FLOWINFO_MASK: htonl(0x0fffffff) */
			number(b, ((uint64_t)p[4] << 24 | (uint64_t)p[5] << 16 |
				   p[6] << 8 | p[7]) & 0x0fffffff, sp);
		}
		if (have_s) {
			put(b, '%');
			number(b, rd_uint(e, p + 24, 4), sp);
		}
		return 0;
	}
	if (family != 2 && family != 10)
		return 1;		/* "(einval)" */
	return everr(e, PF_ERANGE, "%%p%s of %zu bytes", ext, n);
}

/* %pM %pm %pI4 %pi4 %pI6 %pI6c %pIS %pU %ph: from bytes in the record */
static int pointer_bytes(struct ev *e, struct out *o, const char *ext,
			 const struct val *v, struct spec sp)
{
	char buf[128];
	struct out b = { buf, sizeof(buf), 0 };
	const unsigned char *p = v->p;
	int i;

	if (!p) {
		error_string(o, "(null)", sp);
		return 0;
	}
	if ((ext[0] == 'M' || ext[0] == 'm') && v->n >= 6) {
		int rev = ext[1] == 'R';
		char sep = ext[0] == 'M' ? (ext[1] == 'F' ? '-' : ':') : 0;

		for (i = 0; i < 6; i++) {
			int j = rev ? 5 - i : i;

			if (i && sep)
				put(&b, sep);
			put(&b, hexdig[p[j] >> 4]);
			put(&b, hexdig[p[j] & 15]);
		}
	} else if ((ext[0] == 'I' || ext[0] == 'i') && ext[1] == '4' &&
		   (!ext[2] || ext[2] == 'n') && v->n >= 4) {
		ip4_string(&b, p, ext[0] == 'i');
	} else if ((ext[0] == 'I' || ext[0] == 'i') && ext[1] == '6' &&
		   v->n >= 16) {
		if (ext[0] == 'I' && ext[2] == 'c')
			ip6_compressed(&b, p);
		else
			ip6_string(&b, p, ext[0] == 'I');
	} else if ((ext[0] == 'I' || ext[0] == 'i') && ext[1] == 'S') {
		int r = ip_sockaddr(e, &b, ext, p, v->n, sp);

		if (r < 0)
			return r;
		if (r > 0) {
			error_string(o, "(einval)", sp);
			return 0;
		}
	} else if (ext[0] == 'U' && v->n >= 16) {
		static const int be[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
					    10, 11, 12, 13, 14, 15 };
		static const int le[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9,
					    10, 11, 12, 13, 14, 15 };
		const int *idx = (ext[1] == 'l' || ext[1] == 'L') ? le : be;
		int upper = ext[1] == 'B' || ext[1] == 'L';

		for (i = 0; i < 16; i++) {
			char h = hexdig[p[idx[i]] >> 4], l = hexdig[p[idx[i]] & 15];

			if (upper) {
				h = h >= 'a' ? h - 32 : h;
				l = l >= 'a' ? l - 32 : l;
			}
			put(&b, h);
			put(&b, l);
			if (i == 3 || i == 5 || i == 7 || i == 9)
				put(&b, '-');
		}
	} else if (ext[0] == 'h' && (!ext[1] || (strchr("CDN", ext[1]) &&
						 !ext[2]))) {
		/* hex_string(): the count is the field width, at most 64 */
		char sep = ext[1] == 'C' ? ':' : ext[1] == 'D' ? '-' :
			ext[1] == 'N' ? 0 : ' ';
		int n = sp.width;

		if (n == 0)
			return 0;
		if (n < 0)
			n = 1;
		if (n > 64)
			n = 64;
		if ((size_t)n > v->n)
			return everr(e, PF_ERANGE, "%%*ph of %d bytes from "
				     "%zu", n, v->n);
		for (i = 0; i < n; i++) {
			put(o, hexdig[p[i] >> 4]);
			put(o, hexdig[p[i] & 15]);
			if (sep && i < n - 1)
				put(o, sep);
		}
		return 0;
	} else {
		return everr(e, PF_EUNSUP, "unsupported conversion %%p%s",
			     ext);
	}
	string_n(o, buf, b.len, sp);
	return 0;
}

/* One %p conversion. */
static int pointer(struct ev *e, struct out *o, const struct conv *c,
		   const struct val *v, struct spec sp)
{
	const struct pf_ctx *ctx = e->ctx;
	const char *ext = c->ext;
	char sym[512];
	uint64_t p = v->v;
	int n;

	if (v->kind == TY_BUF && ext[0] && strchr("MmIiUh", ext[0]))
		return pointer_bytes(e, o, ext, v, sp);
	if (v->kind == TY_BUF)
		return everr(e, PF_EUNSUP, "%%p%s of the record's own address",
			     ext);
	switch (ext[0]) {
	case 'S':
	case 's':
	case 'B':
		/* symbol_string(): 'b' wants a build id; the rest of the
		 * alnum run after %p is skipped by vsnprintf() */
		if (ext[1] == 'b' || (ext[1] == 'R' && ext[2] == 'b'))
			return everr(e, PF_EUNSUP, "%%p%s (build id)", ext);
		if (!ctx || !ctx->sym)
			return everr(e, PF_ENEED, "%%p%s needs symbols", ext);
		n = ctx->sym(ctx->priv, norm(p, e->lsize, 0),
			     ext[0] == 'S' ? 1 : ext[0] == 'B' ? 2 : 0,
			     sym, sizeof(sym));
		if (n < 0)	/* __sprint_symbol() without a symbol */
			snprintf(sym, sizeof(sym), "0x%llx",
				 (unsigned long long)norm(p, e->lsize, 0));
		sym[sizeof(sym) - 1] = 0;
		string_z(o, sym, sp);
		return 0;
	case 'x':
		pointer_string(o, p, sp, e->lsize);
		return 0;
	case 'K':
		if (!ctx || ctx->kptr_restrict == 0)
			return ptr_to_id(e, o, p, sp);
		pointer_string(o, ctx->kptr_restrict == 1 ? p : 0, sp,
			       e->lsize);
		return 0;
	case 0:
		if (c->bare_p && ctx && (ctx->flags & PF_CTX_NO_HASH_PTR)) {
			pointer_string(o, p, sp, e->lsize);
			return 0;
		}
		return ptr_to_id(e, o, p, sp);
	}
	return everr(e, PF_EUNSUP, "unsupported conversion %%p%s", ext);
}

/* %s of a value. */
static int string_arg(struct ev *e, struct out *o, const struct val *v,
		      struct spec sp)
{
	const struct pf_ctx *ctx = e->ctx;
	char buf[4096];
	uint64_t p = norm(v->v, e->lsize, 0);
	int n;

	if (v->kind == TY_BUF) {
		uintptr_t a = (uintptr_t)v->p, r0 = (uintptr_t)e->rec;
		size_t n = v->n;

		if (!v->p) {
			error_string(o, "(null)", sp);
			return 0;
		}
		/* the kernel reads on past a field that lacks its NUL: to
		 * the end of the record at least */
		if (e->rec && a >= r0 && a < r0 + e->reclen)
			n = r0 + e->reclen - a;
		string_n(o, (const char *)v->p, n, sp);
		return 0;
	}
	/* check_pointer() */
	if (!p) {
		error_string(o, "(null)", sp);
		return 0;
	}
	if (p < PF_PAGE_SIZE || is_err_or_null(p, e->lsize)) {
		error_string(o, "(efault)", sp);
		return 0;
	}
	if (!ctx || !ctx->read_str)
		return everr(e, PF_ENEED, "%%s of a kernel pointer needs "
			     "memory");
	n = ctx->read_str(ctx->priv, p, buf, sizeof(buf));
	if (ctx->str_safe && !ctx->str_safe(ctx->priv, p)) {
		/* trace_check_vprintf() */
		char t[32];

		snprintf(t, sizeof(t), "(0x%016llx", (unsigned long long)p);
		puts_n(o, t, strlen(t));
		if (n >= 0) {
			put(o, ':');
			puts_n(o, buf, strnlen(buf, sizeof(buf)));
		}
		put(o, ')');
		string_z(o, "[UNSAFE-MEMORY]", sp);
		return 0;
	}
	if (n < 0)
		return everr(e, PF_ENEED, "%%s: kernel string at 0x%llx "
			     "unreadable", (unsigned long long)p);
	buf[sizeof(buf) - 1] = 0;
	string_z(o, buf, sp);
	return 0;
}

/* The integer as va_arg() of the conversion's type reads it. */
static uint64_t conv_value(const struct conv *c, uint64_t v, int lsize)
{
	int sgn = (c->flags & SIGN) != 0;

	switch (c->qual) {
	case 'H':
		return norm(v, 8, sgn);
	case 'h':
		return norm(v, 16, sgn);
	case 'l':
	case 'z':
	case 't':
		return norm(v, lsize, sgn);
	case 'L':
		return v;
	default:
		return norm(v, 32, sgn);
	}
}

static int do_format(struct ev *e, struct out *o)
{
	const struct pf_fmt *f = e->f;
	struct val vals[PF_MAX_ARGS];
	int i, r, ai = 0;

	/* the compiled code evaluates every argument before printing */
	for (i = 0; i < f->nargs; i++)
		if ((r = eval(e, f->args[i], &vals[i])) < 0)
			return r;
	for (i = 0; i < f->nconv; i++) {
		const struct conv *c = &f->conv[i];
		struct spec sp = { c->flags, c->width, c->prec, 10 };
		const struct val *v;

		if (!c->type) {
			puts_n(o, f->strs + c->text, c->len);
			continue;
		}
		if (c->type == '%') {
			put(o, '%');
			continue;
		}
		if ((c->width == -2 || c->prec == -2) && ai + 2 > f->nargs)
			return everr(e, PF_ESYNTAX, "too few arguments");
		if (c->width == -2) {
			int64_t w;

			if (vals[ai].kind != TY_INT)
				return everr(e, PF_EUNSUP, "'*' of a string");
			w = (int64_t)norm(vals[ai++].v, 32, 1);
			if (w < 0) {
				sp.flags |= LEFT;
				w = -w;
			}
			sp.width = (int)(w > PF_MAX_WIDTH ? PF_MAX_WIDTH : w);
		}
		if (c->prec == -2) {
			int64_t p;

			if (vals[ai].kind != TY_INT)
				return everr(e, PF_EUNSUP, "'*' of a string");
			p = (int64_t)norm(vals[ai++].v, 32, 1);
			sp.prec = p < 0 ? 0 : p > 32767 ? 32767 : (int)p;
		}
		if (ai >= f->nargs)
			return everr(e, PF_ESYNTAX, "too few arguments");
		v = &vals[ai++];
		switch (c->type) {
		case 'c':
			if (v->kind != TY_INT)
				return everr(e, PF_EUNSUP, "%%c of a string");
			if (!(sp.flags & LEFT))
				while (--sp.width > 0)
					put(o, ' ');
			put(o, (char)v->v);
			while (--sp.width > 0)
				put(o, ' ');
			break;
		case 's':
			if ((r = string_arg(e, o, v, sp)) < 0)
				return r;
			break;
		case 'p':
			if ((r = pointer(e, o, c, v, sp)) < 0)
				return r;
			break;
		default:
			if (v->kind != TY_INT)
				return everr(e, PF_EUNSUP, "%%%c of a string "
					     "or array", c->type);
			sp.base = c->type == 'x' ? 16 : c->type == 'o' ? 8 :
				10;
			if (c->type == 'x' && !(c->flags & SMALL))
				sp.flags &= ~SMALL;
			number(o, conv_value(c, v->v, e->lsize), sp);
			break;
		}
	}
	return 0;
}

static void ev_init(struct ev *e, const struct pf_fmt *f,
		    const unsigned char *rec, size_t reclen,
		    const struct pf_ctx *ctx, char *err, size_t errlen)
{
	memset(e, 0, offsetof(struct ev, tmpbuf));
	e->f = f;
	e->rec = rec;
	e->reclen = rec ? reclen : 0;
	e->ctx = ctx;
	e->big = ctx && (ctx->flags & PF_CTX_BIG_ENDIAN);
	e->lsize = ctx && ctx->long_size == 4 ? 32 : 64;
	e->tmp.buf = e->tmpbuf;
	e->tmp.cap = sizeof(e->tmpbuf);
	e->err = err;
	e->errlen = errlen;
	e->depth = 0;
}

int pf_format(const struct pf_fmt *f, const unsigned char *rec,
	      size_t reclen, const struct pf_ctx *ctx, char *out,
	      size_t outlen)
{
	char err[256] = "";
	struct out o = { out, outlen, 0 };
	struct ev *e;
	int r;

	if (!out || !outlen)
		return -PF_EEVAL;
	out[0] = 0;
	if (!f) {
		snprintf(out, outlen, "no compiled format");
		return -PF_ESYNTAX;
	}
	e = malloc(sizeof(*e));
	if (!e) {
		snprintf(out, outlen, "out of memory");
		return -PF_ENOMEM;
	}
	ev_init(e, f, rec, reclen, ctx, err, sizeof(err));
	r = do_format(e, &o);
	free(e);
	if (r < 0) {
		snprintf(out, outlen, "%s", err[0] ? err : "format failed");
		return r;
	}
	out[o.len] = 0;
	return (int)o.len;
}

/* ---- fallbacks and syscalls ----------------------------------------- */

static void out_printf(struct out *o, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		puts_n(o, buf, n < (int)sizeof(buf) ? (size_t)n :
		       sizeof(buf) - 1);
}

/* Printable bytes of a string field, up to its NUL. */
static void out_cstr(struct out *o, const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n && p[i]; i++)
		put(o, (p[i] >= 0x20 && p[i] < 0x7f) ? (char)p[i] : '.');
}

int pf_fields(const struct pf_field *fields, int nfields,
	      const unsigned char *rec, size_t reclen,
	      const struct pf_ctx *ctx, char *out, size_t outlen)
{
	struct out o = { out, outlen, 0 };
	struct ev e;
	int i, first = 1;

	if (!out || !outlen)
		return 0;
	ev_init(&e, NULL, rec, reclen, ctx, NULL, 0);
	for (i = 0; fields && i < nfields; i++) {
		const struct pf_field *fl = &fields[i];
		const char *t = fl->type ? fl->type : "";
		const unsigned char *p;
		size_t n, j;

		if (!fl->name || !strncmp(fl->name, "common_", 7))
			continue;
		if (!first)
			put(&o, ' ');
		first = 0;
		puts_n(&o, fl->name, strlen(fl->name));
		put(&o, '=');
		if (fl->offset < 0 || fl->size < 0 ||
		    (size_t)fl->offset + fl->size > e.reclen) {
			puts_n(&o, "?", 1);
			continue;
		}
		p = rec + fl->offset;
		n = fl->size;
		if ((has(t, "__data_loc") || has(t, "__rel_loc")) && n == 4) {
			uint64_t w = rd_uint(&e, p, 4);
			size_t off = w & 0xffff, len = (w >> 16) & 0xffff;

			if (has(t, "__rel_loc"))
				off += fl->offset + fl->size;
			if (off > e.reclen || len > e.reclen - off) {
				puts_n(&o, "?", 1);
				continue;
			}
			p = rec + off;
			n = len;
			if (has(t, "char")) {
				out_cstr(&o, p, n);
				continue;
			}
		} else if (strchr(t, '[')) {
			if (has(t, "char")) {
				out_cstr(&o, p, n);
				continue;
			}
		} else if (n == 1 || n == 2 || n == 4 || n == 8) {
			uint64_t v = rd_uint(&e, p, (int)n);

			if (strchr(t, '*'))
				out_printf(&o, "0x%llx", (unsigned long long)v);
			else if (fl->is_signed)
				out_printf(&o, "%lld", (long long)
					   norm(v, (int)n * 8, 1));
			else
				out_printf(&o, "%llu", (unsigned long long)v);
			continue;
		}
		for (j = 0; j < n; j++) {
			put(&o, hexdig[p[j] >> 4]);
			put(&o, hexdig[p[j] & 15]);
		}
	}
	out[o.len] = 0;
	return (int)o.len;
}

/* The syscall arguments: the fields after __syscall_nr, in offset order. */
static int sys_args(const struct pf_field *fields, int nfields, int *idx,
		    int max)
{
	int i, j, n = 0;

	for (i = 0; fields && i < nfields; i++) {
		if (!fields[i].name || !strncmp(fields[i].name, "common_", 7) ||
		    !strcmp(fields[i].name, "__syscall_nr"))
			continue;
		if (n == max)
			break;
		for (j = n; j > 0 && fields[idx[j - 1]].offset >
		     fields[i].offset; j--)
			idx[j] = idx[j - 1];
		idx[j] = i;
		n++;
	}
	return n;
}

/*
 * PF_SYS_DEC10 kernels append the user data of an argument X, saved in
 * the dynamic field "__X_val", right after X's value.
 */
static int sys_user_data(struct ev *e, struct out *o,
			 const struct pf_field *fields, int nfields,
			 const char *arg)
{
	size_t alen = strlen(arg), off, len, j;
	const unsigned char *p;
	uint64_t w;
	int i;

	for (i = 0; i < nfields; i++) {
		const struct pf_field *fl = &fields[i];

		if (!fl->name || strncmp(fl->name, "__", 2) ||
		    strncmp(fl->name + 2, arg, alen) ||
		    strcmp(fl->name + 2 + alen, "_val"))
			continue;
		if (fl->size != 4 || fl->offset < 0 ||
		    (size_t)fl->offset + 4 > e->reclen)
			return -PF_ERANGE;
		w = rd_uint(e, e->rec + fl->offset, 4);
		off = w & 0xffff;
		len = (w >> 16) & 0xffff;
		if (off > e->reclen || len > e->reclen - off)
			return -PF_ERANGE;
		p = e->rec + off;
		if (has(fl->type ? fl->type : "", "char")) {
			/* " \"%.*s\"" */
			puts_n(o, " \"", 2);
			puts_n(o, (const char *)p, strnlen((const char *)p,
							   len));
			put(o, '"');
			return 0;
		}
		/* the bytes; kernels add ", ..." when the array was cut
		 * (user_arg_size, not in the record): not reproduced */
		puts_n(o, " (", 2);
		for (j = 0; j < len; j++)
			out_printf(o, j ? ":%02x" : "%02x", p[j]);
		put(o, ')');
		return 0;
	}
	return 0;
}

int pf_syscall_enter(const char *sysname, const struct pf_field *fields,
		     int nfields, const unsigned char *rec, size_t reclen,
		     const struct pf_ctx *ctx, int style, char *out,
		     size_t outlen)
{
	struct out o = { out, outlen, 0 };
	int idx[16], n, i, k, r;
	struct ev e;

	if (!out || !outlen)
		return -PF_EEVAL;
	if (!sysname)
		sysname = "";
	ev_init(&e, NULL, rec, reclen, ctx, NULL, 0);
	n = sys_args(fields, nfields, idx, 16);
	puts_n(&o, sysname, strlen(sysname));
	put(&o, '(');
	for (i = k = 0; i < n; i++) {
		const struct pf_field *fl = &fields[idx[i]];
		uint64_t v;

		if (has(fl->type ? fl->type : "", "__data_loc"))
			continue;	/* __X_val: printed after X */
		if (fl->offset < 0 || fl->size <= 0 || fl->size > 8 ||
		    (size_t)fl->offset + fl->size > e.reclen) {
			snprintf(out, outlen, "syscall argument %s beyond the "
				 "record", fl->name);
			return -PF_ERANGE;
		}
		v = rd_uint(&e, rec + fl->offset, fl->size);
		if (k++)
			puts_n(&o, ", ", 2);
		puts_n(&o, fl->name, strlen(fl->name));
		if (style != PF_SYS_DEC10) {
			out_printf(&o, ": %llx", (unsigned long long)v);
			continue;
		}
		out_printf(&o, v < 10 ? ": %llu" : ": 0x%llx",
			   (unsigned long long)v);
		r = sys_user_data(&e, &o, fields, nfields, fl->name);
		if (r < 0) {
			snprintf(out, outlen, "__%s_val beyond the record",
				 fl->name);
			return r;
		}
	}
	put(&o, ')');
	out[o.len] = 0;
	return (int)o.len;
}

int pf_syscall_exit(const char *sysname, const unsigned char *rec,
		    size_t reclen, const struct pf_field *fields, int nfields,
		    const struct pf_ctx *ctx, char *out, size_t outlen)
{
	struct out o = { out, outlen, 0 };
	int idx[2], n;
	struct ev e;
	const struct pf_field *fl;

	if (!out || !outlen)
		return -PF_EEVAL;
	ev_init(&e, NULL, rec, reclen, ctx, NULL, 0);
	n = sys_args(fields, nfields, idx, 1);
	if (n != 1 || (fl = &fields[idx[0]])->size <= 0 || fl->size > 8 ||
	    fl->offset < 0 || (size_t)fl->offset + fl->size > e.reclen) {
		snprintf(out, outlen, "no syscall return value in the record");
		return -PF_ERANGE;
	}
	puts_n(&o, sysname, strlen(sysname));
	out_printf(&o, " -> 0x%llx", (unsigned long long)
		   rd_uint(&e, rec + fl->offset, fl->size));
	out[o.len] = 0;
	return (int)o.len;
}
