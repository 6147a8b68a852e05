/*
 * printfmt_ops.c - a format as one list of steps (struct pf_op): the
 * tracepoints whose every conversion is a text, a field printed straight
 * from the record or a kept string (sched_switch, sched_wakeup), printed
 * without do_format()'s general loop (lib/printfmt_out.c).
 */
#include <stdlib.h>
#include <string.h>
#include "printfmt_eval.h"

/* The bits a conversion's va_arg() reads (0: a long's) */
static int conv_bits(const struct conv *c)
{
	switch (c->qual) {
	case 'H':
		return 8;
	case 'h':
		return 16;
	case 'l':
	case 'z':
	case 't':
		return 0;
	case 'L':
		return 64;
	default:
		return 32;
	}
}

/* norm() to BITS with sign SGN as a mask and a sign bit (0 unsigned):
 * ((v & *M) ^ *S) - *S */
static void op_norm(int bits, int sgn, uint64_t *m, uint64_t *s)
{
	*m = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
	*s = sgn && bits > 0 ? 1ULL << ((bits >= 64 ? 64 : bits) - 1) : 0;
}

/*
 * F's conversions as one list of steps (struct pf_op), when each is a
 * text without a NUL, a conversion of pf_plan() or a plain %s of a kept
 * value; else none (do_format() prints it as before).
 */
void pf_plan_ops(struct pf_fmt *f)
{
	struct pf_op *ops = calloc(f->nconv + 1, sizeof(*ops)), *op;
	size_t room = 0;
	int i, bits, ai = 0;

	if (!ops || !f->nfast || !f->text_slack)
		goto none;
	for (i = 0, op = ops; i < f->nconv; i++, op++) {
		const struct conv *c = &f->conv[i];
		const struct node *nd;
		const struct pf_field *fl;

		if (!c->type) {
			if (memchr(f->strs + c->text, 0, c->len) ||
			    c->len > 0xffff)
				goto none;
			op->kind = PF_OP_TEXT;
			op->off = c->text;
			op->len = (unsigned short)c->len;
			room += c->len > PF_TEXT_SLACK ? c->len : PF_TEXT_SLACK;
			continue;
		}
		if (c->type == '%' || ai >= f->nargs)
			goto none;
		if (f->argmemo[ai] && c->type == 's' && !c->fast &&
		    c->width == -1 && c->prec == -1 && !c->flags) {
			op->kind = PF_OP_MEMO;
			op->arg = (unsigned char)ai++;
			continue;
		}
		if (!c->fast || c->fnode != f->args[ai++])
			goto none;
		nd = &f->nodes[c->fnode];
		fl = &f->fields[nd->field];
		op->off = fl->offset;
		if (c->fast == PF_FAST_STR) {
			op->kind = PF_OP_STR;
			f->nops_str++;
			f->ops_str_off += (size_t)fl->offset;
			room += PF_STR_SLACK;
			continue;
		}
		op->kind = PF_OP_INT;
		op->size = (unsigned char)fl->size;
		op->csgn = (c->flags & SIGN) != 0;
		op->zero = (c->flags & ZEROPAD) != 0;
		op->width = (signed char)c->width;
		if (fl->is_signed && !nd->ty.ptr)
			op->s0 = 1ULL << (fl->size * 8 - 1);
		op_norm(nd->ty.bits, nd->ty.sgn, &op->m1, &op->s1);
		bits = conv_bits(c);
		op_norm(bits ? bits : 64, op->csgn, &op->m2[0], &op->s2[0]);
		op_norm(bits ? bits : 32, op->csgn, &op->m2[1], &op->s2[1]);
		room += 21 + (c->width > 0 ? c->width : 0);
	}
	f->ops = ops;
	f->nops = f->nconv;
	f->ops_room = room;
	return;
none:
	free(ops);
	f->nops_str = 0;
	f->ops_str_off = 0;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* A PF_OP_INT's value: what pf_field_int() and conv_value() give */
static inline uint64_t op_value(const struct ev *e, const struct pf_op *op)
{
	const unsigned char *p = e->rec + op->off;
	uint64_t v;
	uint32_t u32;
	uint16_t u16;
	int l = e->lsize == 32;

	switch (op->size) {
	case 1:
		v = p[0];
		break;
	case 2:
		memcpy(&u16, p, 2);
		v = u16;
		break;
	case 4:
		memcpy(&u32, p, 4);
		v = u32;
		break;
	default:
		memcpy(&v, p, 8);
	}
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

enum { PF_OPS_MEMO = 16 };	/* the kept values pf_run_ops() prints */

/*
 * pf_run_ops - the list of steps of pf_plan_ops() at O's end, the kept
 * arguments' values in VALS: the bytes do_format()'s loop prints, with
 * one check of the room.  FALSE, nothing written, when O lacks that
 * room or a kept value is not a plain string outside the record (the
 * loop prints those).
 */
int pf_run_ops(struct ev *e, struct out *o, const struct val *vals)
{
	const struct pf_fmt *f = e->f;
	const struct pf_op *op, *end = f->ops + f->nops;
	/* (a string's bytes: up to the record's end) */
	size_t need = f->ops_room + (size_t)f->nops_str * e->reclen -
		f->ops_str_off;
	size_t ml[PF_OPS_MEMO];
	uintptr_t r0 = (uintptr_t)e->rec;
	int k = 0;
	char *q;

	for (op = f->ops; op < end; op++) {
		const struct val *v;
		uintptr_t a;

		if (op->kind != PF_OP_MEMO)
			continue;
		v = &vals[op->arg];
		a = (uintptr_t)v->p;
		if (k == PF_OPS_MEMO || v->kind != TY_BUF || !v->p ||
		    (a >= r0 && a < r0 + e->reclen))
			return 0;
		ml[k] = strnlen((const char *)v->p, v->n);
		need += ml[k++];
	}
	if (o->len + need + 1 >= o->cap)
		return 0;
	q = o->buf + o->len;
	for (op = f->ops, k = 0; op < end; op++) {
		const char *p;
		size_t n, lim;

		switch (op->kind) {
		case PF_OP_TEXT:
			/* (strs is readable PF_TEXT_SLACK bytes on) */
			if (op->len <= PF_TEXT_SLACK)
				memcpy(q, f->strs + op->off, PF_TEXT_SLACK);
			else
				memcpy(q, f->strs + op->off, op->len);
			q += op->len;
			break;
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
		default:
			memcpy(q, vals[op->arg].p, ml[k]);
			q += ml[k++];
		}
	}
	o->len = (size_t)(q - o->buf);
	return 1;
}
#else
int pf_run_ops(struct ev *e, struct out *o, const struct val *vals)
{
	(void)e, (void)o, (void)vals;
	return 0;
}
#endif

int pf_nul_free(const struct pf_fmt *f)
{
	/* pf_plan_ops() takes no text with a NUL; its integers print digits,
	 * its strings up to their NUL on every path of do_format() */
	return f && f->ops;
}
