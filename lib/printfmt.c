/*
 * printfmt.c - interpret a tracepoint's print_fmt as the kernel's compiled
 * trace_raw_output_<event>() would print it.  See printfmt.h.
 *
 * This file parses the expressions and the format; lib/printfmt_lex.c
 * holds the tokens and types, lib/printfmt_eval.c, lib/printfmt_out.c and
 * lib/printfmt_sys.c evaluate and print.
 *
 * pf_parse() tokenizes the print_fmt ("fmt", arg, arg, ...), parses every
 * argument into a typed expression tree (C integer promotions and usual
 * arithmetic conversions are resolved at parse time, as the compiler did)
 * and splits the format into literal text and conversions.  pf_format()
 * evaluates the arguments against one record and prints them with a
 * re-implementation of the kernel's vsnprintf() semantics (lib/vsprintf.c:
 * number(), string(), pointer()), and of the helpers of
 * kernel/trace/trace_output.c (trace_print_flags_seq() and friends).
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stdarg.h>
#include "printfmt_parse.h"
#include "printfmt_eval.h"

static const struct {
	const char *name;
	int id, nargs, rel;	/* nargs < 0: at least -nargs */
} helpers[] = {
	{ "__get_str", F_GET_STR, 1, 0 },
	{ "__get_rel_str", F_GET_STR, 1, 1 },
	{ "__get_dynamic_array", F_GET_DYN, 1, 0 },
	{ "__get_rel_dynamic_array", F_GET_DYN, 1, 1 },
	{ "__get_dynamic_array_len", F_GET_DYN_LEN, 1, 0 },
	{ "__get_rel_dynamic_array_len", F_GET_DYN_LEN, 1, 1 },
	{ "__get_bitmask", F_GET_BITMASK, 1, 0 },
	{ "__get_rel_bitmask", F_GET_BITMASK, 1, 1 },
	{ "__get_cpumask", F_GET_BITMASK, 1, 0 },
	{ "__get_rel_cpumask", F_GET_BITMASK, 1, 1 },
	{ "__get_sockaddr", F_GET_DYN, 1, 0 },
	{ "__get_rel_sockaddr", F_GET_DYN, 1, 1 },
	{ "__print_flags", F_PRINT_FLAGS, -2, 0 },
	{ "__print_flags_u64", F_PRINT_FLAGS_U64, -2, 0 },
	{ "__print_symbolic", F_PRINT_SYM, -1, 0 },
	{ "__print_symbolic_u64", F_PRINT_SYM_U64, -1, 0 },
	{ "__print_hex", F_PRINT_HEX, 2, 0 },
	{ "__print_hex_str", F_PRINT_HEX_STR, 2, 0 },
	{ "__print_array", F_PRINT_ARRAY, 3, 0 },
	{ "__print_dynamic_array", F_PRINT_DYN_ARRAY, 2, 0 },
	{ "__print_ns_to_secs", F_NS_TO_SECS, 1, 0 },
	{ "__print_ns_without_secs", F_NS_WITHOUT_SECS, 1, 0 },
	{ "__builtin_expect", F_EXPECT, 2, 0 },
};


static int parse_expr(struct parser *ps);
static int parse_assign(struct parser *ps);

/* Depth of node n's subtree (a long a+b+c+... chain is deep, too). */
static int setdepth(struct parser *ps, int n)
{
	struct node *N = ps->f->nodes, *nd = &N[n];
	int d = 0;

	if (nd->a >= 0 && N[nd->a].depth > d)
		d = N[nd->a].depth;
	if (nd->b >= 0 && N[nd->b].depth > d)
		d = N[nd->b].depth;
	if (nd->c >= 0 && N[nd->c].depth > d)
		d = N[nd->c].depth;
	nd->depth = d + 1;
	if (nd->depth > 2 * PF_MAX_DEPTH)
		return pf_perr(ps, "expression nested too deep");
	return 0;
}

/* Usual arithmetic conversions of two promoted integer types. */
static struct ty arith(struct ty a, struct ty b)
{
	if (a.bits == b.bits)
		return ty_int(a.bits, a.sgn && b.sgn);
	return a.bits > b.bits ? ty_int(a.bits, a.sgn) : ty_int(b.bits, b.sgn);
}

static int parse_number(struct parser *ps)
{
	const char *p = ps->tp, *end = ps->tp + ps->tlen;
	uint64_t v = 0;
	int base = 10, u = 0, l = 0, n, d;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	} else if (p[0] == '0') {
		base = 8;
	}
	for (; p < end; p++) {
		d = pf_hexval(*p);
		if (d < 0 || d >= base)
			break;
		v = v * base + d;
	}
	for (; p < end; p++) {
		if (*p == 'u' || *p == 'U')
			u = 1;
		else if (*p == 'l' || *p == 'L')
			l++;
		else
			return pf_perr(ps, "bad number '%.*s'", ps->tlen,
				       ps->tp);
	}
	n = pf_newnode(ps, N_NUM);
	if (n < 0)
		return -1;
	ps->f->nodes[n].v = v;
	/* C11 6.4.4.1: the first type that holds the value */
	if (!l && !u && v <= 0x7fffffffULL)
		ps->f->nodes[n].ty = ty_int(32, 1);
	else if (!l && (u || base != 10) && v <= 0xffffffffULL)
		ps->f->nodes[n].ty = ty_int(32, 0);
	else if (!u && v <= 0x7fffffffffffffffULL)
		ps->f->nodes[n].ty = ty_int(64, 1);
	else
		ps->f->nodes[n].ty = ty_int(64, 0);
	pf_next(ps);
	return n;
}

/* Append node A to the argument chain FIRST..LAST. */
static void chain_arg(struct parser *ps, int *first, int *last, int a)
{
	if (*last >= 0)
		ps->f->nodes[*last].next = a;
	else
		*first = a;
	*last = a;
}

/* The type a helper's call has. */
static int call_type(struct parser *ps, struct node *nd)
{
	switch (nd->op) {
	case F_GET_STR:
	case F_GET_BITMASK:
	case F_PRINT_FLAGS:
	case F_PRINT_FLAGS_U64:
	case F_PRINT_SYM:
	case F_PRINT_SYM_U64:
	case F_PRINT_HEX:
	case F_PRINT_HEX_STR:
	case F_PRINT_ARRAY:
	case F_PRINT_DYN_ARRAY:
		nd->ty = ty_buf(1);
		break;
	case F_GET_DYN: {
		const struct pf_field *fl = &ps->f->fields[nd->field];
		int es = 1;

		/* "__data_loc u32[]": the element's size is not recorded */
		if (has(fl->type, "long"))
			es = ps->lsize / 8;
		else if (has(fl->type, "u16") || has(fl->type, "short"))
			es = 2;
		else if (has(fl->type, "u32") || has(fl->type, "int"))
			es = 4;
		else if (has(fl->type, "u64"))
			es = 8;
		nd->ty = ty_buf(es);
		break;
	}
	case F_GET_DYN_LEN:
		nd->ty = ty_int(32, 0);
		break;
	case F_NS_TO_SECS:
		nd->ty = ty_int(64, 0);
		break;
	case F_NS_WITHOUT_SECS:
		nd->ty = ty_int(32, 0);
		break;
	case F_EXPECT:		/* long __builtin_expect(long, long) */
		nd->ty = ty_int(ps->lsize, 1);
		if (ps->f->nodes[nd->a].ty.kind != TY_INT)
			return pf_perr(ps, "__builtin_expect of a string");
		break;
	}
	return 0;
}

/* __print_flags() and __print_symbolic(): an integer value, then (flags)
 * a delimiter, then { value, "name" } entries. */
static int call_lists(struct parser *ps, const struct node *nd,
		      const char *name)
{
	/* the first flag/symbol argument: the list entries follow */
	if (nd->op >= F_PRINT_FLAGS && nd->op <= F_PRINT_SYM_U64) {
		int v = nd->a, d, e;

		if (ps->f->nodes[v].ty.kind != TY_INT)
			return pf_perr(ps, "%s: value is not an integer",
				    name);
		e = ps->f->nodes[v].next;
		if (nd->op <= F_PRINT_FLAGS_U64) {
			d = e;
			if (ps->f->nodes[d].ty.kind != TY_BUF)
				return pf_perr(ps, "__print_flags: delimiter");
			e = ps->f->nodes[d].next;
		}
		for (; e >= 0; e = ps->f->nodes[e].next) {
			int m = ps->f->nodes[e].a;

			/* { value, "name" }; { -1, NULL } ends the array */
			if (ps->f->nodes[e].kind != N_LIST || m < 0 ||
			    ps->f->nodes[m].next < 0 ||
			    ps->f->nodes[m].ty.kind != TY_INT)
				return pf_perr(ps,
					       "%s: bad { value, \"name\" }",
					    name);
		}
	}
	return 0;
}

static int parse_call(struct parser *ps, const char *name, int len)
{
	int i, h = -1, n, first = -1, last = -1, nargs = 0;
	struct node *nd;

	for (i = 0; i < (int)(sizeof(helpers) / sizeof(helpers[0])); i++)
		if ((int)strlen(helpers[i].name) == len &&
		    !strncmp(helpers[i].name, name, len))
			h = i;
	if (h < 0)
		return pf_perr(ps, "unknown function %.*s()", len, name);
	n = pf_newnode(ps, N_CALL);
	if (n < 0)
		return -1;
	ps->f->nodes[n].op = helpers[h].id;
	ps->f->nodes[n].aux = helpers[h].rel;
	pf_next(ps);		/* '(' */
	while (!pf_is_p(ps, ")")) {
		int a;

		if (nargs && pf_expect(ps, ","))
			return -1;
		if (helpers[h].id <= F_GET_BITMASK || (nargs == 0 &&
		    helpers[h].id == F_PRINT_DYN_ARRAY)) {
			/* the argument is a field name */
			int fi;

			if (ps->tok != T_ID)
				return pf_perr(ps, "%s: expected a field",
					    helpers[h].name);
			fi = pf_find_field(ps, ps->tp, ps->tlen);
			if (fi < 0)
				return pf_perr(ps, "%s: no field '%.*s'",
					    helpers[h].name, ps->tlen, ps->tp);
			ps->f->nodes[n].field = fi;
			pf_next(ps);
			nargs++;
			continue;
		}
		a = parse_assign(ps);
		if (a < 0)
			return -1;
		chain_arg(ps, &first, &last, a);
		nargs++;
	}
	pf_next(ps);
	if (helpers[h].nargs >= 0 ? nargs != helpers[h].nargs :
	    nargs < -helpers[h].nargs)
		return pf_perr(ps, "%s: %d arguments", helpers[h].name, nargs);
	nd = &ps->f->nodes[n];
	nd->a = first;
	for (i = first; i >= 0; i = ps->f->nodes[i].next)
		if (ps->f->nodes[i].depth + 1 > nd->depth)
			nd->depth = ps->f->nodes[i].depth + 1;
	if (nd->depth > 2 * PF_MAX_DEPTH)
		return pf_perr(ps, "expression nested too deep");
	if (call_type(ps, nd) < 0 || call_lists(ps, nd, helpers[h].name) < 0)
		return -1;
	return n;
}

/* A character constant: an int. */
static int parse_char(struct parser *ps)
{
	const char *p = ps->tp + 1;
	int c = *p++, n;

	if (c == '\\')
		c = pf_unescape(&p);
	n = pf_newnode(ps, N_NUM);
	if (n < 0)
		return -1;
	ps->f->nodes[n].v = (uint64_t)(int64_t)(signed char)c;
	ps->f->nodes[n].ty = ty_int(32, 1);
	pf_next(ps);
	return n;
}

/* A string literal (adjacent ones joined). */
static int parse_str(struct parser *ps)
{
	int len, off, n;

	off = pf_parse_string(ps, &len);
	if (off < 0)
		return -1;
	n = pf_newnode(ps, N_STR);
	if (n < 0)
		return -1;
	ps->f->nodes[n].v = off;
	ps->f->nodes[n].len = len;
	ps->f->nodes[n].ty = ty_buf(1);
	return n;
}

/* { a, b, ... }: the entries of __print_flags() and friends. */
static int parse_list(struct parser *ps)
{
	int first = -1, last = -1, a, n;

	pf_next(ps);
	n = pf_newnode(ps, N_LIST);
	if (n < 0)
		return -1;
	while (!pf_is_p(ps, "}")) {
		if (first >= 0 && pf_expect(ps, ","))
			return -1;
		if (pf_is_p(ps, "}"))
			break;
		a = parse_assign(ps);
		if (a < 0)
			return -1;
		chain_arg(ps, &first, &last, a);
	}
	pf_next(ps);
	ps->f->nodes[n].a = first;
	ps->f->nodes[n].ty = ty_buf(1);
	for (a = first; a >= 0; a = ps->f->nodes[a].next)
		if (ps->f->nodes[a].depth >= ps->f->nodes[n].depth)
			ps->f->nodes[n].depth = ps->f->nodes[a].depth + 1;
	return n;
}

/* ->field, after REC or (REC). */
static int parse_rec_field(struct parser *ps)
{
	int fi, n;

	if (pf_expect(ps, "->"))
		return -1;
	if (ps->tok != T_ID)
		return pf_perr(ps, "REC-> without a field");
	fi = pf_find_field(ps, ps->tp, ps->tlen);
	if (fi < 0)
		return pf_perr(ps, "no field '%.*s'", ps->tlen, ps->tp);
	pf_next(ps);
	n = pf_newnode(ps, N_FIELD);
	if (n < 0)
		return -1;
	ps->f->nodes[n].field = fi;
	if (pf_field_type(ps, fi, &ps->f->nodes[n].ty))
		return -1;
	return n;
}

/* ( expr ), or "(REC)->field" as some ftrace internal events write it. */
static int parse_paren(struct parser *ps)
{
	struct parser peek = *ps;
	int n;

	pf_next(&peek);
	if (pf_is_id(&peek, "REC")) {
		pf_next(&peek);
		if (pf_is_p(&peek, ")")) {
			*ps = peek;
			pf_next(ps);
			return parse_rec_field(ps);
		}
	}
	pf_next(ps);
	n = parse_expr(ps);
	if (n < 0 || pf_expect(ps, ")"))
		return -1;
	return n;
}

/* A helper's call, or an identifier the context knows (an enum's). */
static int parse_ident(struct parser *ps)
{
	const char *name = ps->tp;
	int len = ps->tlen, n;
	char id[128];
	int64_t val;

	pf_next(ps);
	if (pf_is_p(ps, "("))
		return parse_call(ps, name, len);
	if (ps->ctx && ps->ctx->ident && len < 128) {
		memcpy(id, name, len);
		id[len] = 0;
		if (!ps->ctx->ident(ps->ctx->priv, id, &val)) {
			n = pf_newnode(ps, N_NUM);
			if (n < 0)
				return -1;
			ps->f->nodes[n].v = (uint64_t)val;
			ps->f->nodes[n].ty = val == (int32_t)val ?
				ty_int(32, 1) : ty_int(64, 1);
			return n;
		}
	}
	return pf_perr(ps, "unknown identifier '%.*s'", len, name);
}

static int parse_primary(struct parser *ps)
{
	if (ps->failed)
		return -1;
	if (ps->tok == T_NUM)
		return parse_number(ps);
	if (ps->tok == T_CHAR)
		return parse_char(ps);
	if (ps->tok == T_STR)
		return parse_str(ps);
	if (pf_is_p(ps, "{"))
		return parse_list(ps);
	if (pf_is_p(ps, "("))
		return parse_paren(ps);
	if (pf_is_id(ps, "REC")) {
		pf_next(ps);
		return parse_rec_field(ps);
	}
	if (ps->tok == T_ID)
		return parse_ident(ps);
	if (ps->tok == T_END)
		return pf_perr(ps, "unexpected end of print_fmt");
	return pf_perr(ps, "unexpected '%.*s'", ps->tlen, ps->tp);
}

static int parse_postfix(struct parser *ps)
{
	int n = parse_primary(ps);

	while (n >= 0 && (pf_is_p(ps, "[") || pf_is_p(ps, "->") || pf_is_p(ps, "."))) {
		int i, m;

		if (!pf_is_p(ps, "["))
			return pf_perr(ps, "member access '%s' on a value",
				    ps->punct);
		pf_next(ps);
		i = parse_expr(ps);
		if (i < 0 || pf_expect(ps, "]"))
			return -1;
		if (ps->f->nodes[n].ty.kind != TY_BUF ||
		    ps->f->nodes[i].ty.kind != TY_INT)
			return pf_perr(ps, "subscript of a non-array");
		m = pf_newnode(ps, N_INDEX);
		if (m < 0)
			return -1;
		ps->f->nodes[m].a = n;
		ps->f->nodes[m].b = i;
		if (setdepth(ps, m) < 0)
			return -1;
		ps->f->nodes[m].ty = ps->f->nodes[n].ty.elsz < 4 ?
			ty_int(32, 1) : ty_int(ps->f->nodes[n].ty.elsz * 8,
					       ps->f->nodes[n].ty.sgn);
		n = m;
	}
	return n;
}

static int parse_unary(struct parser *ps)
{
	int n, a;

	if (++ps->depth > PF_MAX_DEPTH)
		return pf_perr(ps, "expression nested too deep");
	if (pf_is_p(ps, "-") || pf_is_p(ps, "+") || pf_is_p(ps, "~") || pf_is_p(ps, "!")) {
		char op = ps->punct[0];

		pf_next(ps);
		a = parse_unary(ps);
		if (a < 0)
			return -1;
		if (ps->f->nodes[a].ty.kind != TY_INT && op != '!')
			return pf_perr(ps, "'%c' on a string", op);
		n = pf_newnode(ps, N_UNARY);
		if (n < 0)
			return -1;
		ps->f->nodes[n].op = op;
		ps->f->nodes[n].a = a;
		ps->f->nodes[n].ty = op == '!' ? ty_int(32, 1) :
			ty_int(ps->f->nodes[a].ty.bits, ps->f->nodes[a].ty.sgn);
		if (setdepth(ps, n) < 0)
			return -1;
		ps->depth--;
		return n;
	}
	if (pf_is_id(ps, "sizeof")) {
		int sz, sgn, isptr, isbool;

		pf_next(ps);
		if (pf_expect(ps, "(") || !pf_starts_type(ps))
			return pf_perr(ps, "sizeof of an expression");
		if (pf_parse_type(ps, &sz, &sgn, &isptr, &isbool) ||
		    pf_expect(ps, ")"))
			return -1;
		n = pf_newnode(ps, N_NUM);
		if (n < 0)
			return -1;
		ps->f->nodes[n].v = sz;
		ps->f->nodes[n].ty = ty_int(ps->lsize, 0);
		ps->depth--;
		return n;
	}
	if (pf_is_p(ps, "(")) {
		/* a cast? look at the token after '(' */
		struct parser peek = *ps;

		pf_next(&peek);
		if (pf_starts_type(&peek)) {
			int sz, sgn, isptr, isbool;
			struct node *nd;
			struct ty at;

			*ps = peek;
			if (pf_parse_type(ps, &sz, &sgn, &isptr, &isbool) ||
			    pf_expect(ps, ")"))
				return -1;
			a = parse_unary(ps);
			if (a < 0)
				return -1;
			n = pf_newnode(ps, N_CAST);
			if (n < 0)
				return -1;
			nd = &ps->f->nodes[n];
			at = ps->f->nodes[a].ty;
			nd->a = a;
			nd->len = sz;
			nd->aux = (sgn ? 1 : 0) | (isbool ? 2 : 0) |
				(isptr ? 4 : 0);
			if (at.kind == TY_BUF) {
				/* (char *)array, (void *)string: same bytes */
				if (!isptr && sz)
					return pf_perr(ps,
						       "cast of an array to "
						    "an integer");
				nd->ty = at;
			} else if (!sz) {
				return pf_perr(ps, "cast to void");
			} else if (isptr) {
				nd->ty = ty_int(sz * 8, 0);
				nd->ty.ptr = 1;
			} else {
				nd->ty = sz < 4 ? ty_int(32, 1) :
					ty_int(sz * 8, sgn);
			}
			if (setdepth(ps, n) < 0)
				return -1;
			ps->depth--;
			return n;
		}
	}
	n = parse_postfix(ps);
	ps->depth--;
	return n;
}

static const struct {
	const char *op;
	int prec;
} binops[] = {
	{ "*", 10 }, { "/", 10 }, { "%", 10 }, { "+", 9 }, { "-", 9 },
	{ "<<", 8 }, { ">>", 8 }, { "<", 7 }, { ">", 7 }, { "<=", 7 },
	{ ">=", 7 }, { "==", 6 }, { "!=", 6 }, { "&", 5 }, { "^", 4 },
	{ "|", 3 }, { "&&", 2 }, { "||", 1 }, { NULL, 0 }
};

static int binprec(struct parser *ps)
{
	int i;

	if (ps->tok != T_PUNCT)
		return 0;
	for (i = 0; binops[i].op; i++)
		if (!strcmp(ps->punct, binops[i].op))
			return binops[i].prec;
	return 0;
}

static int parse_binary(struct parser *ps, int minprec)
{
	int l = parse_unary(ps), p;

	while (l >= 0 && (p = binprec(ps)) >= minprec && p > 0) {
		char op[3];
		int r, n;
		struct ty lt, rt;

		strcpy(op, ps->punct);
		pf_next(ps);
		if (++ps->depth > PF_MAX_DEPTH)
			return pf_perr(ps, "expression nested too deep");
		r = parse_binary(ps, p + 1);
		ps->depth--;
		if (r < 0)
			return -1;
		lt = ps->f->nodes[l].ty;
		rt = ps->f->nodes[r].ty;
		n = pf_newnode(ps, N_BINARY);
		if (n < 0)
			return -1;
		ps->f->nodes[n].a = l;
		ps->f->nodes[n].b = r;
		ps->f->nodes[n].op = (short)(op[0] | op[1] << 8);
		if (!strcmp(op, "&&") || !strcmp(op, "||")) {
			ps->f->nodes[n].ty = ty_int(32, 1);
		} else if (lt.kind != TY_INT || rt.kind != TY_INT) {
			return pf_perr(ps, "'%s' on a string or array", op);
		} else if (!strcmp(op, "<<") || !strcmp(op, ">>")) {
			ps->f->nodes[n].ty = ty_int(lt.bits, lt.sgn);
		} else if (strchr("<>=!", op[0])) {
			ps->f->nodes[n].ty = ty_int(32, 1);
			/* the comparison itself is done in this type */
			ps->f->nodes[n].c = -1;
			ps->f->nodes[n].len = arith(lt, rt).bits |
				arith(lt, rt).sgn << 8;
		} else {
			ps->f->nodes[n].ty = arith(lt, rt);
		}
		if (setdepth(ps, n) < 0)
			return -1;
		l = n;
	}
	return l;
}

static int parse_cond(struct parser *ps)
{
	int c = parse_binary(ps, 1), a, b, n;
	struct ty ta, tb;

	if (c < 0 || !pf_is_p(ps, "?"))
		return c;
	pf_next(ps);
	if (++ps->depth > PF_MAX_DEPTH)
		return pf_perr(ps, "expression nested too deep");
	a = parse_expr(ps);
	if (a < 0 || pf_expect(ps, ":"))
		return -1;
	b = parse_cond(ps);
	ps->depth--;
	if (b < 0)
		return -1;
	n = pf_newnode(ps, N_TERNARY);
	if (n < 0)
		return -1;
	ps->f->nodes[n].a = c;
	ps->f->nodes[n].b = a;
	ps->f->nodes[n].c = b;
	if (setdepth(ps, n) < 0)
		return -1;
	ta = ps->f->nodes[a].ty;
	tb = ps->f->nodes[b].ty;
	if (ta.kind == TY_INT && tb.kind == TY_INT)
		ps->f->nodes[n].ty = arith(ta, tb);
	else if (ta.kind == TY_BUF)
		ps->f->nodes[n].ty = ta;
	else
		ps->f->nodes[n].ty = tb;
	return n;
}

static int parse_assign(struct parser *ps)
{
	return parse_cond(ps);
}

static int parse_expr(struct parser *ps)
{
	int n = parse_assign(ps);

	if (n >= 0 && pf_is_p(ps, ","))
		return pf_perr(ps, "comma operator");
	return n;
}

/* Split the format text into literal runs and conversions. */
/* Flags, width, precision and length qualifier of the conversion C, from
 * *PP (just after the '%'); *NARGS counts the '*' arguments. */
static void conv_modifiers(struct conv *c, const char **pp, const char *end,
			   int *nargs)
{
	const char *p = *pp;
	int w;

	for (;; p++) {
		if (p < end && *p == '-')
			c->flags |= LEFT;
		else if (p < end && *p == '+')
			c->flags |= PLUS;
		else if (p < end && *p == ' ')
			c->flags |= SPACE;
		else if (p < end && *p == '#')
			c->flags |= SPECIAL;
		else if (p < end && *p == '0')
			c->flags |= ZEROPAD;
		else
			break;
	}
	if (p < end && *p == '*') {
		c->width = -2;
		(*nargs)++;
		p++;
	} else if (p < end && pf_is_dig(*p)) {
		w = 0;
		while (p < end && pf_is_dig(*p))
			w = w < 100000 ? w * 10 + (*p++ - '0') :
				(p++, w);
		c->width = (short)(w > PF_MAX_WIDTH ? PF_MAX_WIDTH : w);
	}
	if (p < end && *p == '.') {
		p++;
		if (p < end && *p == '*') {
			c->prec = -2;
			(*nargs)++;
			p++;
		} else if (p < end && pf_is_dig(*p)) {
			/* a '.' without digits leaves it at -1 */
			w = 0;
			while (p < end && pf_is_dig(*p))
				w = w < 100000 ? w * 10 +
					(*p++ - '0') : (p++, w);
			c->prec = (short)(w > 32767 ? 32767 : w);
		}
	}
	if (p < end && (*p == 'h' || *p == 'l' || *p == 'L' ||
			*p == 'z' || *p == 'Z' || *p == 't')) {
		c->qual = *p++;
		if (c->qual == 'Z')
			c->qual = 'z';
		/* format_decode(): only "ll" and "hh" double */
		if (p < end && *p == c->qual &&
		    (c->qual == 'l' || c->qual == 'h')) {
			c->qual = c->qual == 'l' ? 'L' : 'H';
			p++;
		}
	}
	*pp = p;
}

/* The conversion character at *PP (START: its '%'); *PP ends on its
 * last character. */
static int conv_type(struct parser *ps, struct conv *c, const char **pp,
		     const char *end, const char *start)
{
	const char *p = *pp;
	int i = 0;

	switch (*p) {
	case 'd': case 'i':
		c->type = 'd';
		c->flags |= SIGN;
		break;
	case 'u':
		c->type = 'u';
		break;
	case 'x':
		c->flags |= SMALL;
		/* fallthrough */
	case 'X':
		c->type = 'x';
		break;
	case 'o':
		c->type = 'o';
		break;
	case 'c':
	case 's':
	case '%':
		c->type = *p;
		if (*p == 's') {
			const char *q;

			c->scan_s = 1;
			for (q = start + 1; q < p; q++)
				if (!pf_is_dig(*q) && *q != '.' && *q != '*')
					c->scan_s = 0;
		}
		break;
	case 'p':
		c->type = 'p';
		c->bare_p = (p == start + 1);
		while (p + 1 < end && pf_is_alnum(p[1])) {
			/* vsnprintf() skips every alnum after %p */
			if (i < (int)sizeof(c->ext) - 1)
				c->ext[i++] = p[1];
			p++;
		}
		if (c->bare_p && i)
			c->bare_p = 0;
		break;
	default:
		return pf_perr(ps, "unsupported conversion '%%%c'", *p);
	}
	*pp = p;
	return 0;
}

/* A new entry of the format's conversions, cleared; NULL when full. */
static struct conv *conv_new(struct parser *ps)
{
	struct pf_fmt *f = ps->f;
	struct conv *c;

	if (f->nconv >= PF_MAX_CONV) {
		pf_perr(ps, "too many conversions");
		return NULL;
	}
	c = &f->conv[f->nconv++];
	memset(c, 0, sizeof(*c));
	return c;
}

static int parse_format(struct parser *ps, const char *s, int len)
{
	struct pf_fmt *f = ps->f;
	const char *p = s, *end = s + len, *lit = s;
	int nargs = 0;

	while (p <= end) {
		struct conv *c;
		const char *start;

		if (p < end && *p != '%') {
			p++;
			continue;
		}
		if (p > lit) {
			if (!(c = conv_new(ps)))
				return -1;
			c->text = (int)(lit - f->strs);
			c->len = (int)(p - lit);
		}
		if (p == end)
			break;
		if (!(c = conv_new(ps)))
			return -1;
		c->width = c->prec = -1;
		start = p++;
		conv_modifiers(c, &p, end, &nargs);
		if (p >= end)
			return pf_perr(ps, "format ends inside a conversion");
		if (conv_type(ps, c, &p, end, start) < 0)
			return -1;
		p++;
		lit = p;
		if (c->type != '%')
			nargs++;
	}
	return nargs;
}

struct pf_fmt *pf_parse(const char *print_fmt, const struct pf_field *fields,
			int nfields, char *err, size_t errlen)
{
	return pf_parse_ctx(print_fmt, fields, nfields, NULL, err, errlen);
}

struct pf_fmt *pf_parse_ctx(const char *print_fmt,
			    const struct pf_field *fields, int nfields,
			    const struct pf_ctx *ctx, char *err, size_t errlen)
{
	struct parser ps;
	struct pf_fmt *f;
	int i, flen, foff, want;

	if (err && errlen)
		err[0] = 0;
	if (!print_fmt || nfields < 0 || (nfields && !fields)) {
		pf_seterr(err, errlen, "no print_fmt");
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (!f || !(f->fields = calloc(nfields + 1, sizeof(*fields)))) {
		free(f);
		pf_seterr(err, errlen, "out of memory");
		return NULL;
	}
	for (i = 0; i < nfields; i++) {
		f->fields[i] = fields[i];
		f->fields[i].name = strdup(fields[i].name ? fields[i].name : "");
		f->fields[i].type = strdup(fields[i].type ? fields[i].type : "");
		f->nfields++;
		if (!f->fields[i].name || !f->fields[i].type) {
			pf_free(f);
			pf_seterr(err, errlen, "out of memory");
			return NULL;
		}
	}
	memset(&ps, 0, sizeof(ps));
	ps.f = f;
	ps.s = ps.p = print_fmt;
	ps.err = err;
	ps.errlen = errlen;
	ps.lsize = ctx && ctx->long_size == 4 ? 32 : 64;
	ps.ctx = ctx;
	pf_next(&ps);
	if (ps.tok != T_STR) {
		pf_perr(&ps, "print_fmt does not start with a string");
		goto fail;
	}
	foff = pf_parse_string(&ps, &flen);
	if (foff < 0)
		goto fail;
	want = parse_format(&ps, f->strs + foff, flen);
	if (want < 0)
		goto fail;
	/* conv[].text offsets were taken against strs: stable from here */
	while (!ps.failed && pf_is_p(&ps, ",")) {
		int a;

		pf_next(&ps);
		if (f->nargs >= PF_MAX_ARGS) {
			pf_perr(&ps, "too many arguments");
			goto fail;
		}
		a = parse_assign(&ps);
		if (a < 0)
			goto fail;
		f->args[f->nargs++] = a;
	}
	if (ps.failed)
		goto fail;
	if (ps.tok != T_END) {
		pf_perr(&ps, "unexpected '%.*s' after the arguments", ps.tlen,
		     ps.tp);
		goto fail;
	}
	if (want != f->nargs) {
		pf_perr(&ps, "%d conversions for %d arguments", want, f->nargs);
		goto fail;
	}
	pf_fold(f, ctx);
	pf_plan(f);
	return f;
fail:
	pf_free(f);
	return NULL;
}

void pf_free(struct pf_fmt *f)
{
	int i;

	if (!f)
		return;
	for (i = 0; i < f->nfields; i++) {
		free((char *)f->fields[i].name);
		free((char *)f->fields[i].type);
	}
	free(f->fields);
	free(f->nodes);
	free(f->strs);
	free(f->memo);
	free(f->ops);
	free(f);
}

