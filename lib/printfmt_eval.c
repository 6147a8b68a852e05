/*
 * printfmt_eval.c - evaluate the expressions of a compiled print_fmt
 * (lib/printfmt.c) against one record: fields, the C operators, and the
 * helpers of kernel/trace/trace_output.c (__print_flags(),
 * __print_symbolic(), __print_hex(), __get_bitmask() ...).
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stdarg.h>
#include "printfmt_eval.h"

int pf_everr(struct ev *e, int code, const char *fmt, ...)
{
	va_list ap;

	if (e->err && e->errlen && !e->err[0]) {
		va_start(ap, fmt);
		vsnprintf(e->err, e->errlen, fmt, ap);
		va_end(ap);
	}
	return -code;
}

/* The bytes of field fi, bounded by the record. */
static int field_bytes(struct ev *e, int fi, const unsigned char **p,
		       size_t *n)
{
	const struct pf_field *fl = &e->f->fields[fi];

	if (fl->offset < 0 || fl->size < 0 ||
	    (size_t)fl->offset + (size_t)fl->size > e->reclen)
		return pf_everr(e, PF_ERANGE, "field %s (offset %d size %d) "
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
		return pf_everr(e, PF_EFIELD, "field %s is not a __data_loc",
			     fl->name);
	w = pf_rd_uint(e, q, 4);
	off = w & 0xffff;
	len = (w >> 16) & 0xffff;
	/* __rel_loc: relative to the end of the field (since v5.18) */
	if (rel || has(fl->type, "__rel_loc"))
		off += fl->offset + fl->size;
	if (off > e->reclen || len > e->reclen - off)
		return pf_everr(e, PF_ERANGE, "dynamic array %s (offset %zu "
			     "len %zu) beyond the record (%zu bytes)",
			     fl->name, off, len, e->reclen);
	*p = e->rec + off;
	*n = len;
	return 0;
}

static int eval_int(struct ev *e, int ni, uint64_t *out)
{
	struct val v;
	int r = pf_eval_fast(e, ni, &v);

	if (r < 0)
		return r;
	if (v.kind != TY_INT) {
		*out = (uint64_t)(uintptr_t)v.p;
		return pf_everr(e, PF_EUNSUP, "an array used as a number");
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
	pf_put(&e->tmp, 0);
}

/**
 * pf_out_printf - printf() into O, through a buffer of ROOM bytes
 * @o: the output
 * @room: what the caller's kernel code formats into (at most 256): the
 *        text is cut at ROOM - 1 bytes
 * @fmt: printf format
 */
void pf_out_printf(struct out *o, int room, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	if (room > (int)sizeof(buf))
		room = sizeof(buf);
	va_start(ap, fmt);
	n = vsnprintf(buf, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		pf_puts_n(o, buf, n < room ? (size_t)n : (size_t)room - 1);
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
		if ((r = pf_eval_fast(e, el, &delim)) < 0)
			return r;
		el = N[el].next;
	}
	for (; el >= 0 && (sym || flags); el = N[el].next) {
		struct val name;
		int m = N[el].a;

		if ((r = eval_int(e, m, &mask)) < 0 ||
		    (r = pf_eval_fast(e, N[m].next, &name)) < 0)
			return r;
		if (name.kind == TY_INT) {
			if (name.v)
				return pf_everr(e, PF_EUNSUP, "flag name is a "
					     "number");
			break;		/* a NULL name ends the array */
		}
		mask = norm(mask, bits, 0);
		if (sym) {
			if (flags != mask)
				continue;
			pf_puts_n(&e->tmp, (const char *)name.p,
			       name.p ? strnlen((const char *)name.p,
						name.n) : 0);
			tmp_str(e, start, v);
			return 0;
		}
		if ((flags & mask) != mask)
			continue;
		flags &= ~mask;
		if (!first && delim.p)
			pf_puts_n(&e->tmp, (const char *)delim.p,
			       strnlen((const char *)delim.p, delim.n));
		first = 0;
		if (name.p)
			pf_puts_n(&e->tmp, (const char *)name.p,
			       strnlen((const char *)name.p, name.n));
	}
	if (sym) {
		pf_out_printf(&e->tmp, 64, "0x%llx", (unsigned long long)flags);
	} else if (flags) {
		if (!first && delim.p)
			pf_puts_n(&e->tmp, (const char *)delim.p,
			       strnlen((const char *)delim.p, delim.n));
		pf_out_printf(&e->tmp, 64, "0x%llx", (unsigned long long)flags);
	}
	tmp_str(e, start, v);
	return 0;
}

const char pf_hexdig[] = "0123456789abcdef";

#define PF_H2(h) #h "0" #h "1" #h "2" #h "3" #h "4" #h "5" #h "6" #h "7" \
	#h "8" #h "9" #h "a" #h "b" #h "c" #h "d" #h "e" #h "f"
const char pf_hexdig2[] = PF_H2(0) PF_H2(1) PF_H2(2) PF_H2(3) PF_H2(4)
	PF_H2(5) PF_H2(6) PF_H2(7) PF_H2(8) PF_H2(9) PF_H2(a) PF_H2(b)
	PF_H2(c) PF_H2(d) PF_H2(e) PF_H2(f);
#undef PF_H2

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
		if ((r = pf_eval(e, nd->a, &buf)) < 0 ||
		    (r = eval_int(e, N[nd->a].next, &cnt)) < 0)
			return r;
		if (buf.kind != TY_BUF)
			return pf_everr(e, PF_EUNSUP, "__print_hex/array of a "
				     "kernel pointer");
		elsz = 1;
		if (nd->op == F_PRINT_ARRAY &&
		    (r = eval_int(e, N[N[nd->a].next].next, &elsz)) < 0)
			return r;
	}
	if (nd->op == F_PRINT_HEX || nd->op == F_PRINT_HEX_STR) {
		int len = (int)cnt;	/* int buf_len */

		if (len > 0 && (size_t)len > buf.n)
			return pf_everr(e, PF_ERANGE, "__print_hex of %d bytes "
				     "from %zu", len, buf.n);
		for (i = 0; len > 0 && i < (size_t)len; i++) {
			if (nd->op == F_PRINT_HEX && i)
				pf_put(&e->tmp, ' ');
			pf_put(&e->tmp, pf_hexdig[buf.p[i] >> 4]);
			pf_put(&e->tmp, pf_hexdig[buf.p[i] & 15]);
		}
		tmp_str(e, start, v);
		return 0;
	}
	/* trace_print_array_seq(p, buf, count, el_size) */
	cnt = norm(cnt, 32, 1);		/* int count */
	if ((int64_t)cnt < 0 || elsz > 0xffffffffULL ||
	    cnt * elsz > buf.n)
		return pf_everr(e, PF_ERANGE, "__print_array of %lld x %llu "
			     "bytes from %zu", (long long)cnt,
			     (unsigned long long)elsz, buf.n);
	total = cnt * elsz;
	pf_put(&e->tmp, '{');
	for (i = 0; i < total;) {
		const char *pre = i ? "," : "";

		switch (elsz) {
		case 1: case 2: case 4: case 8:
			pf_out_printf(&e->tmp, 64, "%s0x%llx", pre,
				      (unsigned long long)
				   pf_rd_uint(e, buf.p + i, (int)elsz));
			i += elsz;
			break;
		default:
			pf_out_printf(&e->tmp, 64, "%sBAD SIZE:%llu 0x%x", pre,
				   (unsigned long long)elsz, buf.p[i]);
			elsz = 1;
			i += 1;
			break;
		}
	}
	pf_put(&e->tmp, '}');
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
			pf_put(&e->tmp, ',');
		first = 0;
		pf_out_printf(&e->tmp, 64, "%0*x", (int)((chunk + 3) / 4), val);
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
			return pf_everr(e, PF_EFIELD, "not a __data_loc");
		v->kind = TY_INT;
		v->v = (pf_rd_uint(e, p, 4) >> 16) & 0xffff;
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
	return pf_everr(e, PF_EUNSUP, "helper %d", nd->op);
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

	if ((rc = pf_eval_fast(e, nd->a, &a)) < 0)
		return rc;
	v->kind = TY_INT;
	if ((op0 == '&' && op1 == '&') || (op0 == '|' && op1 == '|')) {
		int t = truth(&a);

		if (op0 == '&' ? t : !t) {
			if ((rc = pf_eval_fast(e, nd->b, &b)) < 0)
				return rc;
			t = truth(&b);
		}
		v->v = t;
		return 0;
	}
	if ((rc = pf_eval_fast(e, nd->b, &b)) < 0)
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
			return pf_everr(e, PF_EEVAL, "division by zero");
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
		return pf_everr(e, PF_EUNSUP, "operator %c", op0);
	}
	v->v = norm(r, bits, sgn);
	return 0;
}

int pf_eval(struct ev *e, int ni, struct val *v)
{
	const struct node *nd;
	struct val a;
	int r;

	if (ni < 0 || ni >= e->f->nnodes)
		return pf_everr(e, PF_EEVAL, "bad expression");
	if (++e->depth > 4 * PF_MAX_DEPTH)	/* setdepth() bounds it */
		return pf_everr(e, PF_EEVAL, "expression nested too deep");
	nd = &e->f->nodes[ni];
	if (pf_eval_leaf(e, nd, v)) {
		e->depth--;
		return 0;
	}
	memset(v, 0, sizeof(*v));
	v->kind = TY_INT;
	switch (nd->kind) {
	case N_FIELD: {
		/* a field beyond the record (pf_eval_leaf() took every one
		 * inside it): field_bytes()'s error */
		const unsigned char *p;
		size_t n;

		r = field_bytes(e, nd->field, &p, &n);
		break;
	}
	case N_UNARY:
		if ((r = pf_eval_fast(e, nd->a, &a)) < 0)
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
		if ((r = pf_eval_fast(e, nd->a, &a)) < 0)
			break;
		r = pf_eval_fast(e, truth(&a) ? nd->b : nd->c, v);
		if (r < 0)
			break;
		if (nd->ty.kind == TY_INT && v->kind == TY_INT) {
			v->v = norm(v->v, nd->ty.bits, nd->ty.sgn);
		} else if (nd->ty.kind == TY_BUF && v->kind == TY_INT) {
			if (v->v)
				r = pf_everr(e, PF_EUNSUP, "?: of a string and "
					  "a number");
			v->kind = TY_BUF;	/* a null pointer */
			v->p = NULL;
			v->n = 0;
		} else if (nd->ty.kind == TY_INT && v->kind == TY_BUF) {
			r = pf_everr(e, PF_EUNSUP, "?: of a string and a "
				  "number");
		}
		break;
	case N_CAST:
		if ((r = pf_eval_fast(e, nd->a, v)) < 0 || v->kind == TY_BUF)
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

		if ((r = pf_eval_fast(e, nd->a, &a)) < 0 ||
		    (r = eval_int(e, nd->b, &i)) < 0)
			break;
		if (!a.p || !a.elsz || i >= a.n / a.elsz) {
			r = pf_everr(e, PF_ERANGE,
				     "index %llu out of the array",
				  (unsigned long long)i);
			break;
		}
		v->v = norm(pf_rd_uint(e, a.p + i * a.elsz, a.elsz),
			    a.elsz * 8, a.sgn);
		v->v = norm(v->v, nd->ty.bits, nd->ty.sgn);
		break;
	}
	default:
		r = pf_everr(e, PF_EUNSUP, "a { } list outside __print_flags");
		break;
	}
	e->depth--;
	return r;
}

/* A node whose value needs no record: a number, or an operator or cast
 * over such nodes (a ?: only when its condition and the branch it takes
 * are). */
static int fold_ready(const struct pf_fmt *f, const struct node *nd)
{
	const struct node *N = f->nodes;

	switch (nd->kind) {
	case N_UNARY:
	case N_CAST:
		return N[nd->a].kind == N_NUM;
	case N_BINARY:
		return N[nd->a].kind == N_NUM && N[nd->b].kind == N_NUM;
	case N_TERNARY:
		if (N[nd->a].kind != N_NUM)
			return 0;
		return N[N[nd->a].v ? nd->b : nd->c].kind == N_NUM;
	default:
		return 0;
	}
}

/**
 * pf_fold - fold the constant integer expressions of a compiled print_fmt
 * @f: the compiled format, its nodes rewritten in place
 * @ctx: the kernel's context (endianness, long size), as for printing
 *
 * The kernel's print_fmts spell masks as expressions: sched_switch's
 * prev_state test is a dozen ORs, shifts and additions of constants,
 * evaluated again for every record.  Each such node becomes the number
 * pf_eval() gives it (so the value is the printer's own, with its
 * width and sign); a node whose evaluation fails (a division by zero)
 * is left for the record's evaluation to report.
 */
void pf_fold(struct pf_fmt *f, const struct pf_ctx *ctx)
{
	struct ev *e = malloc(sizeof(*e));
	struct val v;
	int i, pass, changed = 1;

	if (!e)
		return;		/* slower, not wrong */
	for (pass = 0; changed && pass <= 4 * PF_MAX_DEPTH; pass++) {
		changed = 0;
		for (i = 0; i < f->nnodes; i++) {
			struct node *nd = &f->nodes[i];

			if (nd->ty.kind != TY_INT || !fold_ready(f, nd))
				continue;
			pf_ev_init(e, f, NULL, 0, ctx, NULL, 0);
			if (pf_eval(e, i, &v) < 0 || v.kind != TY_INT)
				continue;
			nd->kind = N_NUM;
			nd->v = v.v;
			nd->a = nd->b = nd->c = -1;
			changed = 1;
		}
	}
	free(e);
}

/*
 * Whether node NI's value depends on nothing but the integer field
 * *FIELD (set to it; -1 while none is seen): numbers, strings, operators,
 * and the helpers that compute from their arguments alone.  BUDGET
 * bounds the nodes visited.
 */
static int pure_on_field(const struct pf_fmt *f, int ni, int *field,
			 int *budget)
{
	const struct node *nd;
	const struct pf_field *fl;
	int c;

	if (ni < 0)
		return 1;
	if (ni >= f->nnodes || --*budget < 0)
		return 0;
	nd = &f->nodes[ni];
	switch (nd->kind) {
	case N_NUM:
	case N_STR:
		return 1;
	case N_FIELD:
		if (nd->field < 0 || nd->field >= f->nfields)
			return 0;
		fl = &f->fields[nd->field];
		if (nd->ty.kind != TY_INT || fl->offset < 0 ||
		    !pf_int_size(fl->size) ||
		    (*field >= 0 && *field != nd->field))
			return 0;
		*field = nd->field;
		return 1;
	case N_CALL:
		if (nd->op != F_PRINT_FLAGS && nd->op != F_PRINT_FLAGS_U64 &&
		    nd->op != F_PRINT_SYM && nd->op != F_PRINT_SYM_U64 &&
		    nd->op != F_NS_TO_SECS && nd->op != F_NS_WITHOUT_SECS &&
		    nd->op != F_EXPECT)
			return 0;
		/* its arguments, a chain from a, as a list's */
		/* fall through */
	case N_LIST:
		for (c = nd->a; c >= 0; c = f->nodes[c].next)
			if (c >= f->nnodes || !pure_on_field(f, c, field, budget))
				return 0;
		return 1;
	case N_UNARY:
	case N_BINARY:
	case N_TERNARY:
	case N_CAST:
		return pure_on_field(f, nd->a, field, budget) &&
		       pure_on_field(f, nd->b, field, budget) &&
		       pure_on_field(f, nd->c, field, budget);
	default:
		return 0;
	}
}

/* A %s's argument A that depends on one integer field at most: its
 * strings kept per value (pf_memo_eval()). */
static void plan_memo(struct pf_fmt *f, int a)
{
	int field = -1, budget = 4 * PF_MAX_DEPTH;
	struct pf_memo *m;

	if (f->nodes[f->args[a]].ty.kind != TY_BUF || f->nmemo >= 255 ||
	    !pure_on_field(f, f->args[a], &field, &budget))
		return;
	m = realloc(f->memo, (f->nmemo + 1) * sizeof(*m));
	if (!m)
		return;		/* slower, not wrong */
	f->memo = m;
	m += f->nmemo;
	memset(m, 0, sizeof(*m));
	m->field = field;
	f->argmemo[a] = (unsigned char)++f->nmemo;
}

/*
 * pf_memo_eval - pf_eval() of argument A, through its kept strings
 * @e: the record's evaluation
 * @a: an argument pf_plan() gave a memo (f->argmemo[a])
 * @v: its value
 *
 * A value kept for the field's bytes is written into tmp as its
 * evaluation wrote it (so every later argument sees the same tmp), when
 * tmp has the room the evaluation had (pf_memo_hit()); else the argument
 * is evaluated, and kept when it was not cut short.  A kept value's
 * count is its string's length (what a %s prints of it).
 */
int pf_memo_eval(struct ev *e, int a, struct val *v)
{
	const struct pf_fmt *f = e->f;
	struct pf_memo *m = &f->memo[f->argmemo[a] - 1];
	struct pf_memo_ent *x;
	size_t start = e->tmp.len, n;
	uint64_t key;
	int r;

	if (!pf_memo_key(e, m, &key))
		return pf_eval_fast(e, f->args[a], v);
	x = pf_memo_slot(m, key);
	if (pf_memo_hit(e, x, key, v))
		return 0;
	if ((r = pf_eval_fast(e, f->args[a], v)) < 0)
		return r;
	n = e->tmp.len - start;
	/* kept: a string, not cut short, short enough */
	if (v->kind != TY_BUF || v->elsz != 1 || v->sgn ||
	    e->tmp.len + 1 >= e->tmp.cap || n > PF_MEMO_TEXT)
		return 0;
	if (!v->p)
		x->where = PF_MEMO_NULL;
	else if (v->p >= (const unsigned char *)e->tmp.buf + start &&
		 v->p < (const unsigned char *)e->tmp.buf + e->tmp.len) {
		x->where = PF_MEMO_TMP;
		x->off = (unsigned short)(v->p - (const unsigned char *)
					  e->tmp.buf - start);
	} else if (v->p >= (const unsigned char *)f->strs &&
		   v->p < (const unsigned char *)f->strs + f->nstrs) {
		x->where = PF_MEMO_LIT;
		x->lit = v->p;
	} else
		return 0;
	x->key = key;
	x->tag = (unsigned char)pf_memo_tag(e);
	x->n = (unsigned short)n;
	/* (what a %s of it prints, outside the record: the same bytes as
	 * the count it had) */
	x->vn = v->p ? strnlen((const char *)v->p, v->n) : v->n;
	memcpy(x->text, e->tmp.buf + start, n);
	return 0;
}

/**
 * pf_plan - mark the conversions do_format() prints straight from the
 * record, and the arguments it takes from their kept values
 * @f: the compiled format, after pf_fold()
 *
 * A %d or %u (a width up to 20, zero-padded or not) or a plain %s whose
 * argument is a field (REC->pid, REC->comm) of a size it reads in one
 * load.  The values are the ones pf_eval() would give: the field read with
 * its sign, then in the argument's type, then as the conversion's
 * va_arg() reads it.  Any other %s whose argument depends on one integer
 * field at most (plan_memo()).  And the format's texts, PF_TEXT_SLACK
 * bytes readable past each.
 */
void pf_plan(struct pf_fmt *f)
{
	int i, ai = 0;

	if (f->strs && f->strcap < f->nstrs + PF_TEXT_SLACK) {
		char *s = realloc(f->strs, f->nstrs + PF_TEXT_SLACK);

		if (s) {
			f->strs = s;
			f->strcap = f->nstrs + PF_TEXT_SLACK;
		}
	}
	if (f->strs && f->strcap >= f->nstrs + PF_TEXT_SLACK) {
		memset(f->strs + f->nstrs, 0, f->strcap - f->nstrs);
		f->text_slack = 1;
	}

	for (i = 0; i < f->nconv; i++) {
		struct conv *c = &f->conv[i];
		const struct pf_field *fl;
		const struct node *nd;
		int a;

		if (!c->type || c->type == '%')
			continue;
		ai += (c->width == -2) + (c->prec == -2);
		a = ai++;
		if (a >= f->nargs)
			continue;
		if (c->prec != -1 || !strchr("dus", c->type) ||
		    (c->type == 's' ? c->width != -1 || c->flags :
		     c->width < -1 || c->width > 20 ||
		     (c->flags & ~(SIGN | ZEROPAD))))
			goto memo;
		nd = &f->nodes[f->args[a]];
		if (nd->kind != N_FIELD)
			goto memo;
		fl = &f->fields[nd->field];
		if (fl->offset < 0 || fl->size <= 0 ||
		    (c->type != 's' && !pf_int_size(fl->size)))
			goto memo;
		if (c->type == 's' ? nd->ty.kind != TY_BUF || nd->ty.elsz != 1 :
		    nd->ty.kind != TY_INT || nd->ty.ptr)
			goto memo;
		c->fast = c->type == 's' ? PF_FAST_STR : PF_FAST_INT;
		c->fnode = f->args[a];
		f->argfast[a] = 1;
		f->nfast++;
		if ((size_t)fl->offset + (size_t)fl->size > f->fast_minlen)
			f->fast_minlen = (size_t)fl->offset + (size_t)fl->size;
		continue;
memo:
		if (c->type == 's')
			plan_memo(f, a);
	}
	for (i = 0; i < f->nargs; i++)
		if (!f->argfast[i])
			f->slowarg[f->nslow++] = (unsigned char)i;
	pf_plan_ops(f);
}
