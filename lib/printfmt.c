/*
 * printfmt.c - interpret a tracepoint's print_fmt as the kernel's compiled
 * trace_raw_output_<event>() would print it.  See printfmt.h.
 *
 * This file is the parser; lib/printfmt_out.c evaluates and prints.
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
#include "printfmt_int.h"

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

/* ---- small helpers -------------------------------------------------- */

static void seterr(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

static int is_id0(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_dig(int c)
{
	return c >= '0' && c <= '9';
}

static int is_alnum(int c)
{
	return is_id0(c) || is_dig(c);
}

static int hexval(int c)
{
	if (is_dig(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* ---- the parser ----------------------------------------------------- */

enum { T_END, T_NUM, T_STR, T_CHAR, T_ID, T_PUNCT };

struct parser {
	struct pf_fmt *f;
	const char *s, *p;	/* text, position */
	int tok;		/* current token */
	const char *tp;		/* its text */
	int tlen;
	char punct[4];
	int depth;
	int lsize;		/* bits of long: 64 (the compiled kernel's) */
	const struct pf_ctx *ctx;
	char *err;
	size_t errlen;
	int failed;
};

static int perr(struct parser *ps, const char *fmt, ...)
{
	va_list ap;

	if (!ps->failed && ps->err && ps->errlen) {
		va_start(ap, fmt);
		vsnprintf(ps->err, ps->errlen, fmt, ap);
		va_end(ap);
	}
	ps->failed = 1;
	return -1;
}

static void next(struct parser *ps)
{
	static const char *const two[] = {
		"->", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", NULL
	};
	const char *p = ps->p;
	int i;

	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	ps->tp = p;
	if (!*p) {
		ps->tok = T_END;
		ps->tlen = 0;
		ps->p = p;
		return;
	}
	if (is_id0(*p)) {
		while (is_alnum(*p))
			p++;
		ps->tok = T_ID;
	} else if (is_dig(*p)) {
		while (is_alnum(*p))
			p++;
		ps->tok = T_NUM;
	} else if (*p == '"' || *p == '\'') {
		char q = *p++;

		while (*p && *p != q) {
			if (*p == '\\' && p[1])
				p++;
			p++;
		}
		if (*p != q) {
			perr(ps, "unterminated literal");
			ps->tok = T_END;
			ps->tlen = 0;
			ps->p = p;
			return;
		}
		p++;
		ps->tok = q == '"' ? T_STR : T_CHAR;
	} else {
		ps->tok = T_PUNCT;
		p++;
		for (i = 0; two[i]; i++)
			if (ps->tp[0] == two[i][0] && ps->tp[1] == two[i][1]) {
				p++;
				break;
			}
	}
	ps->tlen = (int)(p - ps->tp);
	if (ps->tok == T_PUNCT) {
		memcpy(ps->punct, ps->tp, ps->tlen);
		ps->punct[ps->tlen] = 0;
	}
	ps->p = p;
}

static int is_p(struct parser *ps, const char *s)
{
	return ps->tok == T_PUNCT && !strcmp(ps->punct, s);
}

static int is_id(struct parser *ps, const char *s)
{
	return ps->tok == T_ID && (int)strlen(s) == ps->tlen &&
		!strncmp(ps->tp, s, ps->tlen);
}

static int expect(struct parser *ps, const char *s)
{
	if (!is_p(ps, s))
		return perr(ps, "expected '%s' at \"%.20s\"", s, ps->tp);
	next(ps);
	return 0;
}

static int newnode(struct parser *ps, int kind)
{
	struct pf_fmt *f = ps->f;
	struct node *n;

	if (f->nnodes >= PF_MAX_NODES)
		return perr(ps, "expression too large");
	if (f->nnodes == f->cap) {
		int cap = f->cap ? f->cap * 2 : 64;
		struct node *nn = realloc(f->nodes, cap * sizeof(*nn));

		if (!nn)
			return perr(ps, "out of memory");
		f->nodes = nn;
		f->cap = cap;
	}
	n = &f->nodes[f->nnodes];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->a = n->b = n->c = n->next = n->field = -1;
	return f->nnodes++;
}

static int addstr(struct parser *ps, const char *s, size_t len)
{
	struct pf_fmt *f = ps->f;
	size_t off = f->nstrs;

	if (f->nstrs + len + 1 > f->strcap) {
		size_t cap = (f->strcap + len + 1) * 2;
		char *ns = realloc(f->strs, cap);

		if (!ns)
			return perr(ps, "out of memory");
		f->strs = ns;
		f->strcap = cap;
	}
	memcpy(f->strs + off, s, len);
	f->strs[off + len] = 0;
	f->nstrs += len + 1;
	return (int)off;
}

/* Decode one escape of a C literal at *pp (after the backslash). */
static int unescape(const char **pp)
{
	const char *p = *pp;
	int c = *p++, v, i;

	switch (c) {
	case 'n': c = '\n'; break;
	case 't': c = '\t'; break;
	case 'r': c = '\r'; break;
	case 'a': c = '\a'; break;
	case 'b': c = '\b'; break;
	case 'f': c = '\f'; break;
	case 'v': c = '\v'; break;
	case 'e': c = 27; break;
	case 'x':
		for (v = 0, i = 0; i < 2 && hexval(*p) >= 0; i++)
			v = v * 16 + hexval(*p++);
		c = v;
		break;
	default:
		if (c >= '0' && c <= '7') {
			v = c - '0';
			for (i = 0; i < 2 && *p >= '0' && *p <= '7'; i++)
				v = v * 8 + (*p++ - '0');
			c = v & 0xff;
		}
		break;
	}
	*pp = p;
	return c;
}

/* String literal(s) at the current token (adjacent ones concatenate). */
static int parse_string(struct parser *ps, int *lenp)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int off;

	while (ps->tok == T_STR) {
		const char *p = ps->tp + 1, *end = ps->tp + ps->tlen - 1;

		while (p < end) {
			int c = *p++;

			if (c == '\\' && p < end)
				c = unescape(&p);
			if (len + 2 > cap) {
				char *nb;

				cap = cap ? cap * 2 : 64;
				nb = realloc(buf, cap);
				if (!nb) {
					free(buf);
					return perr(ps, "out of memory");
				}
				buf = nb;
			}
			buf[len++] = (char)c;
		}
		next(ps);
	}
	off = addstr(ps, buf ? buf : "", len);
	free(buf);
	*lenp = (int)len;
	return off;
}

static int find_field(struct parser *ps, const char *name, int len)
{
	int i;

	for (i = 0; i < ps->f->nfields; i++)
		if ((int)strlen(ps->f->fields[i].name) == len &&
		    !strncmp(ps->f->fields[i].name, name, len))
			return i;
	return -1;
}

/* Element count of "type[N]"; 0 when not a fixed array. */
static int array_len(const char *type)
{
	const char *b = strrchr(type, '[');
	long n;

	char *end;

	if (!b)
		return 0;
	/* "[N]", "[30+1]", "[32 + 2]" */
	for (n = 0, b++;;) {
		long t;

		while (*b == ' ')
			b++;
		if (!is_dig(*b))
			return 0;
		t = strtol(b, &end, 10);
		if (t < 0 || t > 65536)
			return 0;
		n += t;
		b = end;
		while (*b == ' ')
			b++;
		if (*b == ']')
			break;
		if (*b++ != '+')
			return 0;
	}
	return n > 0 && n < 65536 ? (int)n : 0;
}

/* Static type of REC->field. */
static int field_type(struct parser *ps, int fi, struct ty *t)
{
	const struct pf_field *fl = &ps->f->fields[fi];
	int n;

	if (has(fl->type, "__data_loc") || has(fl->type, "__rel_loc")) {
		*t = ty_int(32, 0);
		return 0;
	}
	if (strchr(fl->type, '[')) {
		n = array_len(fl->type);
		if (!n) {
			/* char[TASK_COMM_LEN] (a macro), char[] */
			n = fl->size ? fl->size : 1;
		}
		if (fl->size < 0 || fl->size % n)
			return perr(ps, "field %s: bad array %s", fl->name,
				    fl->type);
		*t = ty_buf(fl->size / n ? fl->size / n : 1);
		t->sgn = fl->is_signed != 0;
		return 0;
	}
	if (fl->size != 1 && fl->size != 2 && fl->size != 4 && fl->size != 8)
		return perr(ps, "field %s: size %d of %s", fl->name, fl->size,
			    fl->type);
	if (strchr(fl->type, '*')) {
		*t = ty_int(fl->size * 8, 0);
		t->ptr = 1;
		return 0;
	}
	if (fl->size < 4)
		*t = ty_int(32, 1);	/* promoted to int */
	else
		*t = ty_int(fl->size * 8, fl->is_signed != 0);
	return 0;
}

/*
 * A type name in a cast or sizeof: returns its size in bytes, 0 when the
 * tokens are not a type.  Sets *t to the promoted type.
 */
static const struct {
	const char *name;
	int size, sgn;
} typedefs[] = {
	{ "u8", 1, 0 }, { "u16", 2, 0 }, { "u32", 4, 0 }, { "u64", 8, 0 },
	{ "s8", 1, 1 }, { "s16", 2, 1 }, { "s32", 4, 1 }, { "s64", 8, 1 },
	{ "__u8", 1, 0 }, { "__u16", 2, 0 }, { "__u32", 4, 0 },
	{ "__u64", 8, 0 }, { "__s8", 1, 1 }, { "__s16", 2, 1 },
	{ "__s32", 4, 1 }, { "__s64", 8, 1 }, { "uint8_t", 1, 0 },
	{ "uint16_t", 2, 0 }, { "uint32_t", 4, 0 }, { "uint64_t", 8, 0 },
	{ "int8_t", 1, 1 }, { "int16_t", 2, 1 }, { "int32_t", 4, 1 },
	{ "int64_t", 8, 1 }, { "gfp_t", 4, 0 }, { "pid_t", 4, 1 },
	{ "bool", 1, 0 }, { "_Bool", 1, 0 }, { "__le16", 2, 0 },
	{ "__le32", 4, 0 }, { "__le64", 8, 0 }, { "__be16", 2, 0 },
	{ "__be32", 4, 0 }, { "__be64", 8, 0 }, { "dev_t", 4, 0 },
	{ "uid_t", 4, 0 }, { "gid_t", 4, 0 }, { "sector_t", 8, 0 },
	{ "blkcnt_t", 8, 0 }, { "ino_t", 8, 0 }, { "loff_t", 8, 1 },
	{ "umode_t", 2, 0 }, { "fmode_t", 4, 0 }, { "xfs_ino_t", 8, 0 },
	{ NULL, 0, 0 }
};

static int lookup_typedef(struct parser *ps, int *sgn)
{
	int i, L = ps->lsize / 8;

	if (is_id(ps, "size_t") || is_id(ps, "uintptr_t") ||
	    is_id(ps, "phys_addr_t") || is_id(ps, "dma_addr_t") ||
	    is_id(ps, "resource_size_t")) {
		*sgn = 0;
		return L;
	}
	if (is_id(ps, "ssize_t") || is_id(ps, "ptrdiff_t") ||
	    is_id(ps, "intptr_t") || is_id(ps, "time64_t")) {
		*sgn = 1;
		return L;
	}
	for (i = 0; typedefs[i].name; i++)
		if (is_id(ps, typedefs[i].name)) {
			*sgn = typedefs[i].sgn;
			return typedefs[i].size;
		}
	return 0;
}

/* Is the token after '(' the start of a type name? */
static int starts_type(struct parser *ps)
{
	int sgn;
	static const char *const kw[] = {
		"unsigned", "signed", "int", "long", "short", "char", "void",
		"const", "volatile", "struct", "union", "enum", NULL
	};
	int i;

	if (ps->tok != T_ID)
		return 0;
	for (i = 0; kw[i]; i++)
		if (is_id(ps, kw[i]))
			return 1;
	return lookup_typedef(ps, &sgn) > 0;
}

/*
 * Parse a type name (without the parentheses): *size in bytes (0 for
 * void), *sgn, *isptr, *isbool.
 */
static int parse_type(struct parser *ps, int *size, int *sgn, int *isptr,
		      int *isbool)
{
	int sz = 0, longs = 0, agg = 0, is_void = 0, is_char = 0;
	int is_short = 0, seen = 0;

	*isbool = *isptr = 0;
	*sgn = 1;
	while (ps->tok == T_ID) {
		int s2;

		if (is_id(ps, "const") || is_id(ps, "volatile")) {
		} else if (is_id(ps, "unsigned")) {
			*sgn = 0;
		} else if (is_id(ps, "signed")) {
			*sgn = 1;
		} else if (is_id(ps, "int")) {
		} else if (is_id(ps, "long")) {
			longs++;
		} else if (is_id(ps, "short")) {
			is_short = 1;
		} else if (is_id(ps, "char")) {
			is_char = 1;
		} else if (is_id(ps, "void")) {
			is_void = 1;
		} else if (is_id(ps, "struct") || is_id(ps, "union") ||
			   is_id(ps, "enum")) {
			agg = is_id(ps, "enum") ? 2 : 1;
			next(ps);
			if (ps->tok != T_ID)
				return perr(ps, "bad type name");
		} else if (!seen && (s2 = lookup_typedef(ps, sgn)) > 0) {
			sz = s2;
			if (is_id(ps, "bool") || is_id(ps, "_Bool"))
				*isbool = 1;
		} else {
			return perr(ps, "unknown type '%.*s'", ps->tlen,
				    ps->tp);
		}
		seen = 1;
		next(ps);
	}
	while (is_p(ps, "*")) {
		*isptr = 1;
		next(ps);
		while (is_id(ps, "const") || is_id(ps, "volatile"))
			next(ps);
	}
	if (*isptr) {
		*size = ps->lsize / 8;
		*sgn = *isbool = 0;
		return 0;
	}
	if (agg == 1)
		return perr(ps, "cast to a struct");
	if (is_void) {
		*size = 0;
		return 0;
	}
	if (agg == 2)
		sz = 4;
	if (!sz) {
		if (is_char)
			sz = 1;
		else if (is_short)
			sz = 2;
		else if (longs >= 2)
			sz = 8;
		else if (longs == 1)
			sz = ps->lsize / 8;
		else
			sz = 4;
	}
	*size = sz;
	return 0;
}

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
		return perr(ps, "expression nested too deep");
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
		d = hexval(*p);
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
			return perr(ps, "bad number '%.*s'", ps->tlen, ps->tp);
	}
	n = newnode(ps, N_NUM);
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
	next(ps);
	return n;
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
		return perr(ps, "unknown function %.*s()", len, name);
	n = newnode(ps, N_CALL);
	if (n < 0)
		return -1;
	ps->f->nodes[n].op = helpers[h].id;
	ps->f->nodes[n].aux = helpers[h].rel;
	next(ps);		/* '(' */
	while (!is_p(ps, ")")) {
		int a;

		if (nargs && expect(ps, ","))
			return -1;
		if (helpers[h].id <= F_GET_BITMASK || (nargs == 0 &&
		    helpers[h].id == F_PRINT_DYN_ARRAY)) {
			/* the argument is a field name */
			int fi;

			if (ps->tok != T_ID)
				return perr(ps, "%s: expected a field",
					    helpers[h].name);
			fi = find_field(ps, ps->tp, ps->tlen);
			if (fi < 0)
				return perr(ps, "%s: no field '%.*s'",
					    helpers[h].name, ps->tlen, ps->tp);
			ps->f->nodes[n].field = fi;
			next(ps);
			nargs++;
			continue;
		}
		a = parse_assign(ps);
		if (a < 0)
			return -1;
		if (last >= 0)
			ps->f->nodes[last].next = a;
		else
			first = a;
		last = a;
		nargs++;
	}
	next(ps);
	if (helpers[h].nargs >= 0 ? nargs != helpers[h].nargs :
	    nargs < -helpers[h].nargs)
		return perr(ps, "%s: %d arguments", helpers[h].name, nargs);
	nd = &ps->f->nodes[n];
	nd->a = first;
	for (i = first; i >= 0; i = ps->f->nodes[i].next)
		if (ps->f->nodes[i].depth + 1 > nd->depth)
			nd->depth = ps->f->nodes[i].depth + 1;
	if (nd->depth > 2 * PF_MAX_DEPTH)
		return perr(ps, "expression nested too deep");
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
		if (ps->f->nodes[first].ty.kind != TY_INT)
			return perr(ps, "__builtin_expect of a string");
		break;
	}
	/* the first flag/symbol argument: the list entries follow */
	if (nd->op >= F_PRINT_FLAGS && nd->op <= F_PRINT_SYM_U64) {
		int v = first, d, e;

		if (ps->f->nodes[v].ty.kind != TY_INT)
			return perr(ps, "%s: value is not an integer",
				    helpers[h].name);
		e = ps->f->nodes[v].next;
		if (nd->op <= F_PRINT_FLAGS_U64) {
			d = e;
			if (ps->f->nodes[d].ty.kind != TY_BUF)
				return perr(ps, "__print_flags: delimiter");
			e = ps->f->nodes[d].next;
		}
		for (; e >= 0; e = ps->f->nodes[e].next) {
			int m = ps->f->nodes[e].a;

			/* { value, "name" }; { -1, NULL } ends the array */
			if (ps->f->nodes[e].kind != N_LIST || m < 0 ||
			    ps->f->nodes[m].next < 0 ||
			    ps->f->nodes[m].ty.kind != TY_INT)
				return perr(ps, "%s: bad { value, \"name\" }",
					    helpers[h].name);
		}
	}
	return n;
}

static int parse_primary(struct parser *ps)
{
	int n;

	if (ps->failed)
		return -1;
	if (ps->tok == T_NUM)
		return parse_number(ps);
	if (ps->tok == T_CHAR) {
		const char *p = ps->tp + 1;
		int c = *p++;

		if (c == '\\')
			c = unescape(&p);
		n = newnode(ps, N_NUM);
		if (n < 0)
			return -1;
		ps->f->nodes[n].v = (uint64_t)(int64_t)(signed char)c;
		ps->f->nodes[n].ty = ty_int(32, 1);
		next(ps);
		return n;
	}
	if (ps->tok == T_STR) {
		int len, off;

		off = parse_string(ps, &len);
		if (off < 0)
			return -1;
		n = newnode(ps, N_STR);
		if (n < 0)
			return -1;
		ps->f->nodes[n].v = off;
		ps->f->nodes[n].len = len;
		ps->f->nodes[n].ty = ty_buf(1);
		return n;
	}
	if (is_p(ps, "{")) {
		int first = -1, last = -1, a;

		next(ps);
		n = newnode(ps, N_LIST);
		if (n < 0)
			return -1;
		while (!is_p(ps, "}")) {
			if (first >= 0 && expect(ps, ","))
				return -1;
			if (is_p(ps, "}"))
				break;
			a = parse_assign(ps);
			if (a < 0)
				return -1;
			if (last >= 0)
				ps->f->nodes[last].next = a;
			else
				first = a;
			last = a;
		}
		next(ps);
		ps->f->nodes[n].a = first;
		ps->f->nodes[n].ty = ty_buf(1);
		for (a = first; a >= 0; a = ps->f->nodes[a].next)
			if (ps->f->nodes[a].depth >= ps->f->nodes[n].depth)
				ps->f->nodes[n].depth =
					ps->f->nodes[a].depth + 1;
		return n;
	}
	if (is_p(ps, "(")) {
		struct parser peek = *ps;

		/* "(REC)->field", as some ftrace internal events write it */
		next(&peek);
		if (is_id(&peek, "REC")) {
			next(&peek);
			if (is_p(&peek, ")")) {
				*ps = peek;
				next(ps);
				goto rec;
			}
		}
		next(ps);
		n = parse_expr(ps);
		if (n < 0 || expect(ps, ")"))
			return -1;
		return n;
	}
	if (is_id(ps, "REC")) {
		int fi;

		next(ps);
rec:
		if (expect(ps, "->"))
			return -1;
		if (ps->tok != T_ID)
			return perr(ps, "REC-> without a field");
		fi = find_field(ps, ps->tp, ps->tlen);
		if (fi < 0)
			return perr(ps, "no field '%.*s'", ps->tlen, ps->tp);
		next(ps);
		n = newnode(ps, N_FIELD);
		if (n < 0)
			return -1;
		ps->f->nodes[n].field = fi;
		if (field_type(ps, fi, &ps->f->nodes[n].ty))
			return -1;
		return n;
	}
	if (ps->tok == T_ID) {
		const char *name = ps->tp;
		int len = ps->tlen;

		next(ps);
		if (is_p(ps, "("))
			return parse_call(ps, name, len);
		if (ps->ctx && ps->ctx->ident && len < 128) {
			char id[128];
			int64_t val;

			memcpy(id, name, len);
			id[len] = 0;
			if (!ps->ctx->ident(ps->ctx->priv, id, &val)) {
				n = newnode(ps, N_NUM);
				if (n < 0)
					return -1;
				ps->f->nodes[n].v = (uint64_t)val;
				ps->f->nodes[n].ty = val == (int32_t)val ?
					ty_int(32, 1) : ty_int(64, 1);
				return n;
			}
		}
		return perr(ps, "unknown identifier '%.*s'", len, name);
	}
	if (ps->tok == T_END)
		return perr(ps, "unexpected end of print_fmt");
	return perr(ps, "unexpected '%.*s'", ps->tlen, ps->tp);
}

static int parse_postfix(struct parser *ps)
{
	int n = parse_primary(ps);

	while (n >= 0 && (is_p(ps, "[") || is_p(ps, "->") || is_p(ps, "."))) {
		int i, m;

		if (!is_p(ps, "["))
			return perr(ps, "member access '%s' on a value",
				    ps->punct);
		next(ps);
		i = parse_expr(ps);
		if (i < 0 || expect(ps, "]"))
			return -1;
		if (ps->f->nodes[n].ty.kind != TY_BUF ||
		    ps->f->nodes[i].ty.kind != TY_INT)
			return perr(ps, "subscript of a non-array");
		m = newnode(ps, N_INDEX);
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
		return perr(ps, "expression nested too deep");
	if (is_p(ps, "-") || is_p(ps, "+") || is_p(ps, "~") || is_p(ps, "!")) {
		char op = ps->punct[0];

		next(ps);
		a = parse_unary(ps);
		if (a < 0)
			return -1;
		if (ps->f->nodes[a].ty.kind != TY_INT && op != '!')
			return perr(ps, "'%c' on a string", op);
		n = newnode(ps, N_UNARY);
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
	if (is_id(ps, "sizeof")) {
		int sz, sgn, isptr, isbool;

		next(ps);
		if (expect(ps, "(") || !starts_type(ps))
			return perr(ps, "sizeof of an expression");
		if (parse_type(ps, &sz, &sgn, &isptr, &isbool) ||
		    expect(ps, ")"))
			return -1;
		n = newnode(ps, N_NUM);
		if (n < 0)
			return -1;
		ps->f->nodes[n].v = sz;
		ps->f->nodes[n].ty = ty_int(ps->lsize, 0);
		ps->depth--;
		return n;
	}
	if (is_p(ps, "(")) {
		/* a cast? look at the token after '(' */
		struct parser peek = *ps;

		next(&peek);
		if (starts_type(&peek)) {
			int sz, sgn, isptr, isbool;
			struct node *nd;
			struct ty at;

			*ps = peek;
			if (parse_type(ps, &sz, &sgn, &isptr, &isbool) ||
			    expect(ps, ")"))
				return -1;
			a = parse_unary(ps);
			if (a < 0)
				return -1;
			n = newnode(ps, N_CAST);
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
					return perr(ps, "cast of an array to "
						    "an integer");
				nd->ty = at;
			} else if (!sz) {
				return perr(ps, "cast to void");
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
		next(ps);
		if (++ps->depth > PF_MAX_DEPTH)
			return perr(ps, "expression nested too deep");
		r = parse_binary(ps, p + 1);
		ps->depth--;
		if (r < 0)
			return -1;
		lt = ps->f->nodes[l].ty;
		rt = ps->f->nodes[r].ty;
		n = newnode(ps, N_BINARY);
		if (n < 0)
			return -1;
		ps->f->nodes[n].a = l;
		ps->f->nodes[n].b = r;
		ps->f->nodes[n].op = (short)(op[0] | op[1] << 8);
		if (!strcmp(op, "&&") || !strcmp(op, "||")) {
			ps->f->nodes[n].ty = ty_int(32, 1);
		} else if (lt.kind != TY_INT || rt.kind != TY_INT) {
			return perr(ps, "'%s' on a string or array", op);
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

	if (c < 0 || !is_p(ps, "?"))
		return c;
	next(ps);
	if (++ps->depth > PF_MAX_DEPTH)
		return perr(ps, "expression nested too deep");
	a = parse_expr(ps);
	if (a < 0 || expect(ps, ":"))
		return -1;
	b = parse_cond(ps);
	ps->depth--;
	if (b < 0)
		return -1;
	n = newnode(ps, N_TERNARY);
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

	if (n >= 0 && is_p(ps, ","))
		return perr(ps, "comma operator");
	return n;
}

/* Split the format text into literal runs and conversions. */
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
			if (f->nconv >= PF_MAX_CONV)
				return perr(ps, "too many conversions");
			c = &f->conv[f->nconv++];
			memset(c, 0, sizeof(*c));
			c->text = (int)(lit - f->strs);
			c->len = (int)(p - lit);
		}
		if (p == end)
			break;
		if (f->nconv >= PF_MAX_CONV)
			return perr(ps, "too many conversions");
		c = &f->conv[f->nconv++];
		memset(c, 0, sizeof(*c));
		c->width = c->prec = -1;
		start = p++;
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
			nargs++;
			p++;
		} else if (p < end && is_dig(*p)) {
			int w = 0;

			while (p < end && is_dig(*p))
				w = w < 100000 ? w * 10 + (*p++ - '0') :
					(p++, w);
			c->width = (short)(w > PF_MAX_WIDTH ? PF_MAX_WIDTH : w);
		}
		if (p < end && *p == '.') {
			p++;
			if (p < end && *p == '*') {
				c->prec = -2;
				nargs++;
				p++;
			} else if (p < end && is_dig(*p)) {
				/* a '.' without digits leaves it at -1 */
				int w = 0;

				while (p < end && is_dig(*p))
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
		if (p >= end)
			return perr(ps, "format ends inside a conversion");
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
			break;
		case 'p': {
			int i = 0;

			c->type = 'p';
			c->bare_p = (p == start + 1);
			while (p + 1 < end && is_alnum(p[1])) {
				/* vsnprintf() skips every alnum after %p */
				if (i < (int)sizeof(c->ext) - 1)
					c->ext[i++] = p[1];
				p++;
			}
			if (c->bare_p && i)
				c->bare_p = 0;
			break;
		}
		default:
			return perr(ps, "unsupported conversion '%%%c'", *p);
		}
		if (c->type == 'L' || c->type == 'H') {
		}
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
		seterr(err, errlen, "no print_fmt");
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (!f || !(f->fields = calloc(nfields + 1, sizeof(*fields)))) {
		free(f);
		seterr(err, errlen, "out of memory");
		return NULL;
	}
	for (i = 0; i < nfields; i++) {
		f->fields[i] = fields[i];
		f->fields[i].name = strdup(fields[i].name ? fields[i].name : "");
		f->fields[i].type = strdup(fields[i].type ? fields[i].type : "");
		f->nfields++;
		if (!f->fields[i].name || !f->fields[i].type) {
			pf_free(f);
			seterr(err, errlen, "out of memory");
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
	next(&ps);
	if (ps.tok != T_STR) {
		perr(&ps, "print_fmt does not start with a string");
		goto fail;
	}
	foff = parse_string(&ps, &flen);
	if (foff < 0)
		goto fail;
	want = parse_format(&ps, f->strs + foff, flen);
	if (want < 0)
		goto fail;
	/* conv[].text offsets were taken against strs: stable from here */
	while (!ps.failed && is_p(&ps, ",")) {
		int a;

		next(&ps);
		if (f->nargs >= PF_MAX_ARGS) {
			perr(&ps, "too many arguments");
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
		perr(&ps, "unexpected '%.*s' after the arguments", ps.tlen,
		     ps.tp);
		goto fail;
	}
	if (want != f->nargs) {
		perr(&ps, "%d conversions for %d arguments", want, f->nargs);
		goto fail;
	}
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
	free(f);
}

