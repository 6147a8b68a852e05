/*
 * printfmt_eval.h - private to the evaluation and printing half of
 * printfmt: lib/printfmt_eval.c (expressions), lib/printfmt_out.c (the
 * kernel's vsnprintf()) and lib/printfmt_sys.c (fallback and syscall
 * lines).
 */
#ifndef TRACEHUNT_PRINTFMT_EVAL_H
#define TRACEHUNT_PRINTFMT_EVAL_H

#include <stddef.h>
#include "printfmt_int.h"

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
	char tmpbuf[PF_TMP_SIZE];	/* last: pf_ev_init() clears what is above */
};

extern const char pf_hexdig[];	/* "0123456789abcdef" */
extern const char pf_hexdig2[];	/* "000102".."ff": a byte's two digits */
extern const char pf_decdig2[];	/* "00".."99": two decimal digits */

/* Set E's error text (the first one wins); returns -CODE. */
int pf_everr(struct ev *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* printf() into O through a buffer of ROOM (<= 256) bytes. */
void pf_out_printf(struct out *o, int room, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Evaluate node NI into V; 0 or a negative PF_E* code. */
int pf_eval(struct ev *e, int ni, struct val *v);
/* Fold F's constant integer expressions into numbers. */
void pf_fold(struct pf_fmt *f, const struct pf_ctx *ctx);
void pf_plan(struct pf_fmt *f);
/* pf_eval() of argument A, which pf_plan() gave a memo */
int pf_memo_eval(struct ev *e, int a, struct val *v);
/* Ready E for one record REC of RECLEN bytes. */
void pf_ev_init(struct ev *e, const struct pf_fmt *f,
		const unsigned char *rec, size_t reclen,
		const struct pf_ctx *ctx, char *err, size_t errlen);

static inline void pf_put(struct out *o, char c)
{
	if (o->len + 1 < o->cap)
		o->buf[o->len++] = c;
}

/* pf_put() of each of the N bytes of S: as many as fit, in one copy */
static inline void pf_puts_n(struct out *o, const char *s, size_t n)
{
	size_t room = o->len + 1 < o->cap ? o->cap - 1 - o->len : 0;

	if (n > room)
		n = room;
	if (n) {
		memcpy(o->buf + o->len, s, n);
		o->len += n;
	}
}

/* "%llx" of V at Q, its end: the digits two at a time (Q has room for
 * 16) */
static inline char *pf_hex_at(char *q, uint64_t v)
{
	int nd = v ? (67 - __builtin_clzll(v)) / 4 : 1;
	char *p = q + nd;

	for (q = p; nd >= 2; nd -= 2, v >>= 8) {
		p -= 2;
		memcpy(p, pf_hexdig2 + (v & 0xff) * 2, 2);
	}
	if (nd)
		*--p = pf_hexdig[v & 15];
	return q;
}

/* "%llx" (PREFIX "0x" with HEX0X) and "%llu" of V, without printf:
 * straight into O when they fit */
static inline void pf_put_hex(struct out *o, uint64_t v, int hex0x)
{
	char d[18];
	int n;

	if (o->len + 18 < o->cap) {
		char *q = o->buf + o->len;

		if (hex0x) {
			*q++ = '0';
			*q++ = 'x';
		}
		o->len = pf_hex_at(q, v) - o->buf;
		return;
	}
	/* near O's end: cut as pf_puts_n() cuts */
	n = sizeof(d);
	do {
		d[--n] = pf_hexdig[v & 15];
		v >>= 4;
	} while (v);
	if (hex0x) {
		d[--n] = 'x';
		d[--n] = '0';
	}
	pf_puts_n(o, d + n, sizeof(d) - n);
}

static inline void pf_put_udec(struct out *o, uint64_t v)
{
	char d[20];
	int n = sizeof(d);

	do {
		d[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	pf_puts_n(o, d + n, sizeof(d) - n);
}

static inline uint64_t pf_rd_uint(const struct ev *e,
				  const unsigned char *p, int size)
{
	uint64_t v = 0;
	int i;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* a little-endian record on a little-endian host: one load */
	if (!e->big && size > 0) {
		uint32_t u32;
		uint16_t u16;

		switch (size) {	/* (C's sizes without a call) */
		case 1:
			return p[0];
		case 2:
			memcpy(&u16, p, 2);
			return u16;
		case 4:
			memcpy(&u32, p, 4);
			return u32;
		case 8:
			memcpy(&v, p, 8);
			return v;
		}
		memcpy(&v, p, size < 8 ? (size_t)size : 8);
		return v;
	}
#endif
	for (i = 0; i < size && i < 8; i++)
		v |= (uint64_t)p[e->big ? size - 1 - i : i] << (8 * i);
	return v;
}

/* The integer field FL at P of the record, as the node ND reads it: with
 * the field's sign (a pointer's is none), then in ND's type */
static inline uint64_t pf_field_int(struct ev *e, const struct pf_field *fl,
				    const struct node *nd,
				    const unsigned char *p)
{
	int sgn = fl->is_signed && !nd->ty.ptr;
	uint64_t v;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* the sizes of C's integers: one load, with its sign (what norm()
	 * of the field's width gives) */
	if (!e->big) {
		uint32_t u32;
		uint16_t u16;

		switch (fl->size) {
		case 1:
			v = sgn ? (uint64_t)(int64_t)(int8_t)p[0] : p[0];
			return norm(v, nd->ty.bits, nd->ty.sgn);
		case 2:
			memcpy(&u16, p, 2);
			v = sgn ? (uint64_t)(int64_t)(int16_t)u16 : u16;
			return norm(v, nd->ty.bits, nd->ty.sgn);
		case 4:
			memcpy(&u32, p, 4);
			v = sgn ? (uint64_t)(int64_t)(int32_t)u32 : u32;
			return norm(v, nd->ty.bits, nd->ty.sgn);
		case 8:
			memcpy(&v, p, 8);
			return norm(v, nd->ty.bits, nd->ty.sgn);
		}
	}
#endif
	v = norm(pf_rd_uint(e, p, fl->size), fl->size * 8, sgn);
	return norm(v, nd->ty.bits, nd->ty.sgn);
}

/*
 * A leaf ND into V: a number, a string, or a record's field inside the
 * record (most of a print_fmt's arguments and operands).  FALSE, V
 * untouched, for any other node and for a field beyond the record
 * (pf_eval() says its error).
 */
static inline int pf_eval_leaf(struct ev *e, const struct node *nd,
			       struct val *v)
{
	const struct pf_field *fl;
	const unsigned char *p;

	switch (nd->kind) {
	case N_NUM:
		memset(v, 0, sizeof(*v));
		v->kind = TY_INT;
		v->v = norm(nd->v, nd->ty.bits, nd->ty.sgn);
		return 1;
	case N_STR:
		memset(v, 0, sizeof(*v));
		v->kind = TY_BUF;
		v->p = (const unsigned char *)e->f->strs + nd->v;
		v->n = nd->len;
		v->elsz = 1;
		return 1;
	case N_FIELD:
		fl = &e->f->fields[nd->field];
		if (fl->offset < 0 || fl->size < 0 ||
		    (size_t)fl->offset + (size_t)fl->size > e->reclen)
			return 0;
		p = e->rec + fl->offset;
		memset(v, 0, sizeof(*v));
		if (nd->ty.kind == TY_BUF) {
			v->kind = TY_BUF;
			v->p = p;
			v->n = fl->size;
			v->elsz = nd->ty.elsz;
			v->sgn = nd->ty.sgn;
			return 1;
		}
		v->kind = TY_INT;
		v->v = pf_field_int(e, fl, nd, p);
		return 1;
	default:
		return 0;
	}
}

/* pf_eval() of node NI, a leaf inline (without a call) */
static inline int pf_eval_fast(struct ev *e, int ni, struct val *v)
{
	if (ni >= 0 && ni < e->f->nnodes &&
	    pf_eval_leaf(e, &e->f->nodes[ni], v))
		return 0;
	return pf_eval(e, ni, v);
}

/* NUM's decimal digits at the end of T[20]; where they start. */
static inline int pf_dec_digits(char *t, uint64_t num)
{
	int n = 20;

	for (; num >= 100; num /= 100) {
		n -= 2;
		memcpy(t + n, pf_decdig2 + 2 * (num % 100), 2);
	}
	if (num >= 10) {
		n -= 2;
		memcpy(t + n, pf_decdig2 + 2 * num, 2);
	} else {
		t[--n] = (char)('0' + num);
	}
	return n;
}

/* NUM in decimal at Q, as number() prints a %d (SGN) or %u with the
 * flags ZEROPAD and a WIDTH of 20 or less at most (-1: none); the end.
 * Q has 21 + WIDTH bytes of room. */
static inline char *pf_dec_at(char *q, uint64_t num, int sgn, int zero,
			      int width)
{
	/* the digits end at t + 20; the bytes after them make a short
	 * number's copy one fixed move */
	char t[36];
	int n, neg = sgn && (int64_t)num < 0, pad;

	n = pf_dec_digits(t, neg ? 0 - num : num);
	pad = width - (20 - n) - neg;
	if (!zero)
		for (; pad > 0; pad--)
			*q++ = ' ';
	if (neg)
		*q++ = '-';
	for (; pad > 0; pad--)
		*q++ = '0';
	/* (Q has room for 21 bytes) */
	if (n >= 4)
		memcpy(q, t + n, 16);
	else
		memcpy(q, t + n, 20 - n);
	return q + 20 - n;
}

/* The tag of a value kept (pf_memo_eval()) for E: its byte order and
 * long size */
static inline unsigned pf_memo_tag(const struct ev *e)
{
	return (unsigned)e->big | (unsigned)e->lsize << 1;
}

/* M's key in E's record: FALSE when its field is beyond the record */
static inline int pf_memo_key(struct ev *e, const struct pf_memo *m,
			      uint64_t *key)
{
	const struct pf_field *fl;

	*key = 0;
	if (m->field < 0)
		return 1;
	fl = &e->f->fields[m->field];
	if (!e->rec || e->reclen < (size_t)fl->offset + fl->size)
		return 0;
	*key = pf_rd_uint(e, e->rec + fl->offset, fl->size);
	return 1;
}

/* M's slot for KEY: one a key (the field's few values, a task's states) */
static inline struct pf_memo_ent *pf_memo_slot(struct pf_memo *m,
					       uint64_t key)
{
	return &m->ent[(key * 0x9e3779b97f4a7c15ULL) >> (64 - PF_MEMO_BITS)];
}

/* The value kept in X for KEY into V, written into E's tmp as its
 * evaluation wrote it; FALSE, nothing done, when X does not hold it or
 * tmp lacks the room the evaluation had */
static inline int pf_memo_hit(struct ev *e, const struct pf_memo_ent *x,
			      uint64_t key, struct val *v)
{
	size_t start = e->tmp.len;

	if (x->key != key || !x->where || x->tag != pf_memo_tag(e) ||
	    start + x->n + 1 >= e->tmp.cap)
		return 0;
	/* (in one move of the whole text when tmp has the room) */
	if (start + PF_MEMO_TEXT < e->tmp.cap)
		memcpy(e->tmp.buf + start, x->text, PF_MEMO_TEXT);
	else
		memcpy(e->tmp.buf + start, x->text, x->n);
	e->tmp.len = start + x->n;
	v->kind = TY_BUF;
	v->v = 0;
	v->elsz = 1;
	v->sgn = 0;
	v->n = x->vn;
	v->p = x->where == PF_MEMO_TMP ?
		(const unsigned char *)e->tmp.buf + start + x->off :
		x->where == PF_MEMO_LIT ? x->lit : NULL;
	return 1;
}

/* lib/printfmt_ops.c: F's list of steps, when it has one (pf_plan()) */
void pf_plan_ops(struct pf_fmt *f);
/* the steps at O's end, after the kept arguments' evaluation into VALS:
 * 1; 0, nothing written, VALS evaluated, when do_format()'s loop prints
 * the line; or an evaluation's negative PF_E* code */
int pf_run_ops(struct ev *e, struct out *o, struct val *vals);

#endif
