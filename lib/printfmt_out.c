/*
 * printfmt_out.c - print a compiled print_fmt (lib/printfmt.c) for one
 * record with the kernel's vsnprintf() semantics (lib/vsprintf.c:
 * number(), string(), pointer()); the values come from
 * lib/printfmt_eval.c.
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stdarg.h>
#include "printfmt_eval.h"

/* ---- the kernel's vsnprintf() --------------------------------------- */

struct spec {
	int flags, width, prec, base;
};

/* NUM's digits in BASE into TMP, reversed (at least one); their count.
 * The two common bases by constants: no division instruction. */
static int digits(char *tmp, uint64_t num, int base, int locase)
{
	int i = 0;

	if (base == 10) {
		do {
			tmp[i++] = (char)('0' + num % 10);
			num /= 10;
		} while (num);
	} else if (base == 16) {
		const char *dig = locase ? "0123456789abcdef" :
			"0123456789ABCDEF";

		do {
			tmp[i++] = dig[num & 15];
			num >>= 4;
		} while (num);
	} else {
		do {
			int d = (int)(num % base);

			tmp[i++] = d < 10 ? '0' + d :
				(locase ? 'a' : 'A') + d - 10;
			num /= base;
		} while (num);
	}
	return i;
}

#define PF_D2(d) #d "0" #d "1" #d "2" #d "3" #d "4" #d "5" #d "6" #d "7" \
	#d "8" #d "9"
const char pf_decdig2[] = PF_D2(0) PF_D2(1) PF_D2(2) PF_D2(3) PF_D2(4)
	PF_D2(5) PF_D2(6) PF_D2(7) PF_D2(8) PF_D2(9);
#undef PF_D2

/* lib/vsprintf.c number(): note "%#x" of 0 is "0x0", "%#o" of 0 is "0". */
static void number(struct out *o, uint64_t num, struct spec sp)
{
	char tmp[66], sign = 0;
	int need_pfx = (sp.flags & SPECIAL) && sp.base != 10;
	int is_zero = num == 0, i, fw = sp.width, prec = sp.prec;
	int locase = sp.flags & SMALL;

	if (sp.base == 10 && !(sp.flags & ~(SIGN | SMALL)) && sp.width <= 1 &&
	    sp.prec <= 1 && o->len + 21 < o->cap) {
		/* a plain %d or %u (no padding: a number is one digit or
		 * more), straight into O */
		o->len = pf_dec_at(o->buf + o->len, num, sp.flags & SIGN, 0,
				   -1) - o->buf;
		return;
	}
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
	i = digits(tmp, num, sp.base, locase);
	if (i > prec)
		prec = i;
	fw -= prec;
	if (!(sp.flags & (ZEROPAD | LEFT)))
		while (--fw >= 0)
			pf_put(o, ' ');
	if (sign)
		pf_put(o, sign);
	if (need_pfx) {
		if (sp.base == 16 || !is_zero)
			pf_put(o, '0');
		if (sp.base == 16)
			pf_put(o, locase ? 'x' : 'X');
	}
	if (!(sp.flags & LEFT)) {
		char c = (sp.flags & ZEROPAD) ? '0' : ' ';

		while (--fw >= 0)
			pf_put(o, c);
	}
	while (i <= --prec)
		pf_put(o, '0');
	if (o->len + i < o->cap) {
		/* the digits (reversed in tmp) in one pass when they fit */
		char *q = o->buf + o->len;

		o->len += i;
		while (--i >= 0)
			*q++ = tmp[i];
	} else {
		while (--i >= 0)
			pf_put(o, tmp[i]);
	}
	while (--fw >= 0)
		pf_put(o, ' ');
}

/* string_nocheck() + widen_string() */
static void string_n(struct out *o, const char *s, size_t n, struct spec sp)
{
	/* up to a NUL, N bytes, or a precision's count */
	size_t len = strnlen(s, sp.prec >= 0 && (size_t)sp.prec < n ?
			     (size_t)sp.prec : n);
	if (!(sp.flags & LEFT))
		for (; sp.width > (int)len; sp.width--)
			pf_put(o, ' ');
	pf_puts_n(o, s, len);
	for (; sp.width > (int)len; sp.width--)
		pf_put(o, ' ');
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
		return pf_everr(e, PF_ENEED, "%%p needs the kernel's ptr_key");
	h = pf_siphash_1u64(norm(p, e->lsize, 0), e->ctx->ptr_key);
	if (e->lsize == 64)
		h &= 0xffffffff;
	else
		return pf_everr(e, PF_EUNSUP, "%%p hash of a 32-bit kernel");
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
		pf_puts_n(b, t, strlen(t));
	}
}

static void hex_byte(struct out *b, unsigned char c)
{
	pf_put(b, pf_hexdig[c >> 4]);
	pf_put(b, pf_hexdig[c & 15]);
}

/* ip6_string(): "%pI6" all eight words with leading zeros, "%pi6" no ':' */
static void ip6_string(struct out *b, const unsigned char *a, int colons)
{
	int i;

	for (i = 0; i < 8; i++) {
		hex_byte(b, a[2 * i]);
		hex_byte(b, a[2 * i + 1]);
		if (colons && i != 7)
			pf_put(b, ':');
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
				pf_put(b, ':');
			pf_put(b, ':');
			needcolon = 0;
			i += longest - 1;
			continue;
		}
		if (needcolon)
			pf_put(b, ':');
		if (hi) {
			if (hi > 0x0f)
				hex_byte(b, hi);
			else
				pf_put(b, pf_hexdig[hi]);
			hex_byte(b, lo);
		} else if (lo > 0x0f) {
			hex_byte(b, lo);
		} else {
			pf_put(b, pf_hexdig[lo]);
		}
		needcolon = 1;
	}
	if (use4) {
		if (needcolon)
			pf_put(b, ':');
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
		return pf_everr(e, PF_ERANGE, "%%p%s of %zu bytes", ext, n);
	for (i = 2; ext[i]; i++) {
		have_p |= ext[i] == 'p';
		have_s |= ext[i] == 's';
		have_f |= ext[i] == 'f';
		have_c |= ext[i] == 'c';
	}
	family = (unsigned int)pf_rd_uint(e, p, 2);	/* host order */
	if (family == 2 && n >= 8) {			/* AF_INET */
		if (ext[0] == 'i')
			ip4_string(b, p + 4, 1);
		else
			ip4_string(b, p + 4, 0);
		if (have_p) {
			pf_put(b, ':');
			number(b, (unsigned int)p[2] << 8 | p[3], sp);
		}
		return 0;
	}
	if (family == 10 && n >= 28) {			/* AF_INET6 */
		if (have_p || have_s || have_f)
			pf_put(b, '[');
		if (ext[0] == 'I' && have_c)
			ip6_compressed(b, p + 8);
		else
			ip6_string(b, p + 8, ext[0] == 'I');
		if (have_p || have_s || have_f)
			pf_put(b, ']');
		if (have_p) {
			pf_put(b, ':');
			number(b, (unsigned int)p[2] << 8 | p[3], sp);
		}
		if (have_f) {
			pf_put(b, '/');
			/* IPV6_FLOWINFO_MASK: htonl(0x0fffffff) */
			number(b, ((uint64_t)p[4] << 24 | (uint64_t)p[5] << 16 |
				   p[6] << 8 | p[7]) & 0x0fffffff, sp);
		}
		if (have_s) {
			pf_put(b, '%');
			number(b, pf_rd_uint(e, p + 24, 4), sp);
		}
		return 0;
	}
	if (family != 2 && family != 10)
		return 1;		/* "(einval)" */
	return pf_everr(e, PF_ERANGE, "%%p%s of %zu bytes", ext, n);
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
				pf_put(&b, sep);
			pf_put(&b, pf_hexdig[p[j] >> 4]);
			pf_put(&b, pf_hexdig[p[j] & 15]);
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
			char h = pf_hexdig[p[idx[i]] >> 4], l = pf_hexdig[p[idx[i]] & 15];

			if (upper) {
				h = h >= 'a' ? h - 32 : h;
				l = l >= 'a' ? l - 32 : l;
			}
			pf_put(&b, h);
			pf_put(&b, l);
			if (i == 3 || i == 5 || i == 7 || i == 9)
				pf_put(&b, '-');
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
			return pf_everr(e, PF_ERANGE, "%%*ph of %d bytes from "
				     "%zu", n, v->n);
		for (i = 0; i < n; i++) {
			pf_put(o, pf_hexdig[p[i] >> 4]);
			pf_put(o, pf_hexdig[p[i] & 15]);
			if (sep && i < n - 1)
				pf_put(o, sep);
		}
		return 0;
	} else {
		return pf_everr(e, PF_EUNSUP, "unsupported conversion %%p%s",
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
		return pf_everr(e, PF_EUNSUP,
				"%%p%s of the record's own address",
			     ext);
	switch (ext[0]) {
	case 'S':
	case 's':
	case 'B':
		/* symbol_string(): 'b' wants a build id; the rest of the
		 * alnum run after %p is skipped by vsnprintf() */
		if (ext[1] == 'b' || (ext[1] == 'R' && ext[2] == 'b'))
			return pf_everr(e, PF_EUNSUP, "%%p%s (build id)", ext);
		if (!ctx || !ctx->sym)
			return pf_everr(e, PF_ENEED, "%%p%s needs symbols",
					ext);
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
	return pf_everr(e, PF_EUNSUP, "unsupported conversion %%p%s", ext);
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

		/* a plain %s of a string outside the record (a helper's, a
		 * literal): string_n() without its spec */
		if (v->p && sp.width == -1 && sp.prec == -1 && !sp.flags &&
		    !(e->rec && a >= r0 && a < r0 + e->reclen)) {
			pf_puts_n(o, (const char *)v->p,
				  strnlen((const char *)v->p, n));
			return 0;
		}
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
		return pf_everr(e, PF_ENEED, "%%s of a kernel pointer needs "
			     "memory");
	n = ctx->read_str(ctx->priv, p, buf, sizeof(buf));
	if (ctx->str_safe && !ctx->str_safe(ctx->priv, p)) {
		/* trace_check_vprintf() */
		char t[32];

		snprintf(t, sizeof(t), "(0x%016llx", (unsigned long long)p);
		pf_puts_n(o, t, strlen(t));
		if (n >= 0) {
			pf_put(o, ':');
			pf_puts_n(o, buf, strnlen(buf, sizeof(buf)));
		}
		pf_put(o, ')');
		string_z(o, "[UNSAFE-MEMORY]", sp);
		return 0;
	}
	if (n < 0)
		return pf_everr(e, PF_ENEED, "%%s: kernel string at 0x%llx "
			     "unreadable", (unsigned long long)p);
	buf[sizeof(buf) - 1] = 0;
	string_z(o, buf, sp);
	return 0;
}

/* The integer as va_arg() of the conversion's type reads it. */
static inline uint64_t conv_value(const struct conv *c, uint64_t v,
				  int lsize)
{
	int bits = pf_conv_bits(c);

	return norm(v, bits ? bits : lsize, (c->flags & SIGN) != 0);
}

/* A conversion of pf_plan(), from the record: as pf_eval_leaf(),
 * conv_value() and number() or string_arg() would print it. */
static void fast_conv(struct ev *e, struct out *o, const struct conv *c)
{
	const struct node *nd = &e->f->nodes[c->fnode];
	const struct pf_field *fl = &e->f->fields[nd->field];
	const unsigned char *p = e->rec + fl->offset;
	uint64_t v;

	if (c->fast == PF_FAST_STR) {
		pf_puts_n(o, (const char *)p,
			  strnlen((const char *)p, e->reclen - fl->offset));
		return;
	}
	v = conv_value(c, pf_field_int(e, fl, nd, p), e->lsize);
	if (o->len + 21 + (c->width > 0 ? c->width : 0) < o->cap) {
		o->len = pf_dec_at(o->buf + o->len, v, c->flags & SIGN,
				   c->flags & ZEROPAD, c->width) - o->buf;
	} else {
		struct spec sp = { c->flags, c->width, -1, 10 };

		number(o, v, sp);
	}
}

/* Text conversion C of F: a short one in one move, when O has room */
static inline void put_text(struct out *o, const struct pf_fmt *f,
			    const struct conv *c)
{
	if (f->text_slack && c->len <= PF_TEXT_SLACK &&
	    o->len + PF_TEXT_SLACK < o->cap) {
		memcpy(o->buf + o->len, f->strs + c->text, PF_TEXT_SLACK);
		o->len += c->len;
	} else
		pf_puts_n(o, f->strs + c->text, c->len);
}

static int do_format(struct ev *e, struct out *o)
{
	const struct pf_fmt *f = e->f;
	struct val vals[PF_MAX_ARGS];
	struct out sink = { NULL, 0, 0 };
	int i, k, r, ai = 0;
	int blank_s = e->ctx && (e->ctx->flags & PF_CTX_FIRST_S_EMPTY);
	/* pf_plan()'s conversions: their fields are inside the record, so
	 * evaluating them first could not fail */
	int fast = f->nfast && !blank_s && e->reclen >= f->fast_minlen;

	/* the compiled code evaluates every argument before printing (the
	 * fast ones when printed); the list of steps, its kept ones */
	if (fast && f->ops && !e->big) {
		if ((r = pf_run_ops(e, o, vals)) != 0)
			return r < 0 ? r : 0;
	} else
		for (k = 0; k < (fast ? f->nslow : f->nargs); k++) {
			i = fast ? f->slowarg[k] : k;
			r = f->argmemo[i] ? pf_memo_eval(e, i, &vals[i]) :
				pf_eval_fast(e, f->args[i], &vals[i]);
			if (r < 0)
				return r;
		}
	for (i = 0; i < f->nconv; i++) {
		const struct conv *c = &f->conv[i];
		struct spec sp;
		struct out *oc = o;
		const struct val *v;

		if (!c->type) {
			put_text(o, f, c);
			continue;
		}
		if (fast && c->fast) {
			ai++;
			fast_conv(e, o, c);
			continue;
		}
		sp.flags = c->flags;
		sp.width = c->width;
		sp.prec = c->prec;
		sp.base = 10;
		if (c->type == '%') {
			pf_put(o, '%');
			continue;
		}
		if ((c->width == -2 || c->prec == -2) && ai + 2 > f->nargs)
			return pf_everr(e, PF_ESYNTAX, "too few arguments");
		if (c->width == -2) {
			int64_t w;

			if (vals[ai].kind != TY_INT)
				return pf_everr(e, PF_EUNSUP,
						"'*' of a string");
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
				return pf_everr(e, PF_EUNSUP,
						"'*' of a string");
			p = (int64_t)norm(vals[ai++].v, 32, 1);
			sp.prec = p < 0 ? 0 : p > 32767 ? 32767 : (int)p;
		}
		if (ai >= f->nargs)
			return pf_everr(e, PF_ESYNTAX, "too few arguments");
		v = &vals[ai++];
		switch (c->type) {
		case 'c':
			if (v->kind != TY_INT)
				return pf_everr(e, PF_EUNSUP,
						"%%c of a string");
			if (!(sp.flags & LEFT))
				while (--sp.width > 0)
					pf_put(o, ' ');
			pf_put(o, (char)v->v);
			while (--sp.width > 0)
				pf_put(o, ' ');
			break;
		case 's':
			/* the first %s the kernel's scan finds printed with
			 * an empty format: its text goes nowhere */
			if (c->scan_s && blank_s) {
				blank_s = 0;
				oc = &sink;
			}
			if ((r = string_arg(e, oc, v, sp)) < 0)
				return r;
			break;
		case 'p':
			if ((r = pointer(e, o, c, v, sp)) < 0)
				return r;
			break;
		default:
			if (v->kind != TY_INT)
				return pf_everr(e, PF_EUNSUP,
						"%%%c of a string "
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

void pf_ev_init(struct ev *e, const struct pf_fmt *f,
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
	char err[256];
	struct out o = { out, outlen, 0 };
	struct ev e;	/* on the stack: a call per record */
	int r;

	if (!out || !outlen)
		return -PF_EEVAL;
	out[0] = 0;
	if (!f) {
		snprintf(out, outlen, "no compiled format");
		return -PF_ESYNTAX;
	}
	err[0] = 0;
	pf_ev_init(&e, f, rec, reclen, ctx, err, sizeof(err));
	r = do_format(&e, &o);
	if (r < 0) {
		snprintf(out, outlen, "%s", err[0] ? err : "format failed");
		return r;
	}
	out[o.len] = 0;
	return (int)o.len;
}
