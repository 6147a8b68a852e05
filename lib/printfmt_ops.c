/*
 * printfmt_ops.c - a format as one list of steps (struct pf_op): the
 * tracepoints whose every conversion is a text, a field printed straight
 * from the record or a kept string (sched_switch, sched_wakeup), printed
 * without do_format()'s general loop (lib/printfmt_out.c).
 */
#include <stdlib.h>
#include <string.h>
#include "printfmt_eval.h"

/* norm() to BITS with sign SGN as a mask and a sign bit (0 unsigned):
 * ((v & *M) ^ *S) - *S */
static void op_norm(int bits, int sgn, uint64_t *m, uint64_t *s)
{
	*m = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
	*s = sgn && bits > 0 ? 1ULL << ((bits >= 64 ? 64 : bits) - 1) : 0;
}

/* The step that conversion C takes at OP (its text set): FALSE when none
 * does; AI, the argument it prints, past it */
static int plan_op(struct pf_fmt *f, const struct conv *c, int *ai,
		   struct pf_op *op)
{
	const struct node *nd;
	const struct pf_field *fl;
	int bits;

	if (c->type == '%' || *ai >= f->nargs)
		return 0;
	if (f->argmemo[*ai] && c->type == 's' && !c->fast &&
	    c->width == -1 && c->prec == -1 && !c->flags) {
		if (f->nops_memo == PF_OPS_MEMO)
			return 0;
		op->kind = PF_OP_MEMO;
		op->arg = (unsigned char)(*ai)++;
		f->ops_memo[f->nops_memo++] = (unsigned char)(op - f->ops);
		return 1;
	}
	if (!c->fast || c->fnode != f->args[(*ai)++])
		return 0;
	nd = &f->nodes[c->fnode];
	fl = &f->fields[nd->field];
	op->off = fl->offset;
	if (c->fast == PF_FAST_STR) {
		op->kind = PF_OP_STR;
		f->nops_str++;
		f->ops_str_off += (size_t)fl->offset;
		f->ops_room += PF_STR_SLACK;
		return 1;
	}
	op->kind = PF_OP_INT;
	op->size = (unsigned char)fl->size;
	op->csgn = (c->flags & SIGN) != 0;
	op->zero = (c->flags & ZEROPAD) != 0;
	op->width = (signed char)c->width;
	if (fl->is_signed && !nd->ty.ptr)
		op->s0 = 1ULL << (fl->size * 8 - 1);
	op_norm(nd->ty.bits, nd->ty.sgn, &op->m1, &op->s1);
	bits = pf_conv_bits(c);
	op_norm(bits ? bits : 64, op->csgn, &op->m2[0], &op->s2[0]);
	op_norm(bits ? bits : 32, op->csgn, &op->m2[1], &op->s2[1]);
	f->ops_room += 21 + (c->width > 0 ? c->width : 0);
	return 1;
}

/*
 * F's conversions as one list of steps (struct pf_op), when each is a
 * text without a NUL, a conversion of pf_plan() or a plain %s of a kept
 * value, and the kept ones are all the others; else none (do_format()
 * prints it as before).
 */
void pf_plan_ops(struct pf_fmt *f)
{
	int i, ai = 0, text = 0;
	struct pf_op *op;

	f->ops = calloc(f->nconv + 1, sizeof(*f->ops));
	if (!f->ops || !f->nfast || !f->text_slack)
		goto none;
	for (i = 0, op = f->ops; i < f->nconv; i++) {
		const struct conv *c = &f->conv[i];

		if (c->type) {
			if (!plan_op(f, c, &ai, op++))
				goto none;
			text = 0;
			continue;
		}
		/* a text: the next step's, or one alone after a text */
		if (text)
			op++->kind = PF_OP_TEXT;
		if (memchr(f->strs + c->text, 0, c->len) || c->len > 0xffff)
			goto none;
		op->toff = c->text;
		op->tlen = (unsigned short)c->len;
		text = 1;
	}
	if (text)
		op++->kind = PF_OP_TEXT;
	if (f->nops_memo != f->nslow)
		goto none;
	f->nops = (int)(op - f->ops);
	/* each step's text in one move of PF_TEXT_SLACK bytes, or its own */
	for (op = f->ops; op < f->ops + f->nops; op++)
		f->ops_room += op->tlen > PF_TEXT_SLACK ? op->tlen :
			PF_TEXT_SLACK;
	return;
none:
	free(f->ops);
	f->ops = NULL;
	f->nops = f->nops_str = f->nops_memo = 0;
	f->ops_str_off = f->ops_room = 0;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* A PF_OP_INT's value: what pf_field_int() and conv_value() give */
static inline uint64_t op_value(const struct ev *e, const struct pf_op *op)
{
	uint64_t v = pf_rd_uint(e, e->rec + op->off, op->size);
	int l = e->lsize == 32;

	v = (v ^ op->s0) - op->s0;
	v = ((v & op->m1) ^ op->s1) - op->s1;
	return ((v & op->m2[l]) ^ op->s2[l]) - op->s2[l];
}

/* The length of the string at P, LIM bytes at most: strnlen() in
 * words of 8 bytes (a field's short string without a call) */
static inline size_t op_strlen(const unsigned char *p, size_t lim)
{
	const uint64_t ones = 0x0101010101010101ULL;
	size_t n = 0;
	uint64_t w, z;

	for (; n + 8 <= lim; n += 8) {
		memcpy(&w, p + n, 8);
		/* (the lowest byte it flags is a zero byte) */
		z = (w - ones) & ~w & (ones << 7);
		if (z)
			return n + ((size_t)__builtin_ctzll(z) >> 3);
	}
	while (n < lim && p[n])
		n++;
	return n;
}

/*
 * pf_run_ops - the list of steps of pf_plan_ops() at O's end, after the
 * kept arguments' evaluation into VALS (in their order, as do_format()
 * evaluates them): the bytes do_format()'s loop prints, with one check
 * of the room.  0, nothing written, when O lacks that room or a kept
 * value is not a plain string outside the record (the loop prints
 * those, from VALS); a negative PF_E* code when an evaluation failed.
 */
int pf_run_ops(struct ev *e, struct out *o, struct val *vals)
{
	const struct pf_fmt *f = e->f;
	const struct pf_op *op, *end = f->ops + f->nops;
	/* (a string's bytes: up to the record's end) */
	size_t need = f->ops_room + (size_t)f->nops_str * e->reclen -
		f->ops_str_off;
	uintptr_t r0 = (uintptr_t)e->rec;
	int k, r, ok = 1;
	char *q;

	for (k = 0; k < f->nops_memo; k++) {
		int a = f->ops[f->ops_memo[k]].arg;
		struct pf_memo *m = &f->memo[f->argmemo[a] - 1];
		struct val *v = &vals[a];
		uint64_t key;

		/* a kept value's count is its length (pf_memo_eval()) */
		if (!pf_memo_key(e, m, &key) ||
		    !pf_memo_hit(e, pf_memo_slot(m, key), key, v)) {
			if ((r = pf_memo_eval(e, a, v)) < 0)
				return r;
			if (v->kind == TY_BUF && v->p)
				v->n = strnlen((const char *)v->p, v->n);
		}
		if (v->kind != TY_BUF || !v->p ||
		    ((uintptr_t)v->p >= r0 && (uintptr_t)v->p < r0 + e->reclen))
			ok = 0;
		need += v->n;
	}
	if (!ok || o->len + need + 1 >= o->cap)
		return 0;
	q = o->buf + o->len;
	for (op = f->ops; op < end; op++) {
		const char *p;
		size_t n, lim;

		/* (strs is readable PF_TEXT_SLACK bytes on) */
		if (op->tlen <= PF_TEXT_SLACK)
			memcpy(q, f->strs + op->toff, PF_TEXT_SLACK);
		else
			memcpy(q, f->strs + op->toff, op->tlen);
		q += op->tlen;
		switch (op->kind) {
		case PF_OP_INT:
			q = pf_dec_at(q, op_value(e, op), op->csgn,
				      op->zero, op->width);
			break;
		case PF_OP_STR:
			p = (const char *)e->rec + op->off;
			lim = e->reclen - (size_t)op->off;
			n = op_strlen((const unsigned char *)p, lim);
			/* (a short one in one move: the room has the slack) */
			if (n <= PF_STR_SLACK && lim >= PF_STR_SLACK)
				memcpy(q, p, PF_STR_SLACK);
			else
				memcpy(q, p, n);
			q += n;
			break;
		case PF_OP_MEMO:
			memcpy(q, vals[op->arg].p, vals[op->arg].n);
			q += vals[op->arg].n;
			break;
		}
	}
	o->len = (size_t)(q - o->buf);
	return 1;
}
#else
/* (a big-endian host: the kept arguments evaluated, the loop prints) */
int pf_run_ops(struct ev *e, struct out *o, struct val *vals)
{
	const struct pf_fmt *f = e->f;
	int k, a, r;

	(void)o;
	for (k = 0; k < f->nops_memo; k++) {
		a = f->ops[f->ops_memo[k]].arg;
		if ((r = pf_memo_eval(e, a, &vals[a])) < 0)
			return r;
	}
	return 0;
}
#endif

int pf_nul_free(const struct pf_fmt *f)
{
	/* pf_plan_ops() takes no text with a NUL; its integers print digits,
	 * its strings up to their NUL on every path of do_format() */
	return f && f->ops;
}
