/*
 * printfmt_lex.c - the tokens of a print_fmt and the C types it names:
 * the lexer, string literals and escapes, REC->field lookups, and type
 * names in casts and sizeof.  The expressions are lib/printfmt.c's.
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stdarg.h>
#include "printfmt_parse.h"

void pf_seterr(char *err, size_t len, const char *fmt, ...)
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

int pf_is_dig(int c)
{
	return c >= '0' && c <= '9';
}

int pf_is_alnum(int c)
{
	return is_id0(c) || pf_is_dig(c);
}

int pf_hexval(int c)
{
	if (pf_is_dig(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int pf_perr(struct parser *ps, const char *fmt, ...)
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

void pf_next(struct parser *ps)
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
		while (pf_is_alnum(*p))
			p++;
		ps->tok = T_ID;
	} else if (pf_is_dig(*p)) {
		while (pf_is_alnum(*p))
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
			pf_perr(ps, "unterminated literal");
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

int pf_is_p(struct parser *ps, const char *s)
{
	return ps->tok == T_PUNCT && !strcmp(ps->punct, s);
}

int pf_is_id(struct parser *ps, const char *s)
{
	return ps->tok == T_ID && (int)strlen(s) == ps->tlen &&
		!strncmp(ps->tp, s, ps->tlen);
}

int pf_expect(struct parser *ps, const char *s)
{
	if (!pf_is_p(ps, s))
		return pf_perr(ps, "expected '%s' at \"%.20s\"", s, ps->tp);
	pf_next(ps);
	return 0;
}

int pf_newnode(struct parser *ps, int kind)
{
	struct pf_fmt *f = ps->f;
	struct node *n;

	if (f->nnodes >= PF_MAX_NODES)
		return pf_perr(ps, "expression too large");
	if (f->nnodes == f->cap) {
		int cap = f->cap ? f->cap * 2 : 64;
		struct node *nn = realloc(f->nodes, cap * sizeof(*nn));

		if (!nn)
			return pf_perr(ps, "out of memory");
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
			return pf_perr(ps, "out of memory");
		f->strs = ns;
		f->strcap = cap;
	}
	memcpy(f->strs + off, s, len);
	f->strs[off + len] = 0;
	f->nstrs += len + 1;
	return (int)off;
}

/* Decode one escape of a C literal at *pp (after the backslash). */
int pf_unescape(const char **pp)
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
		for (v = 0, i = 0; i < 2 && pf_hexval(*p) >= 0; i++)
			v = v * 16 + pf_hexval(*p++);
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
int pf_parse_string(struct parser *ps, int *lenp)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int off;

	while (ps->tok == T_STR) {
		const char *p = ps->tp + 1, *end = ps->tp + ps->tlen - 1;

		while (p < end) {
			int c = *p++;

			if (c == '\\' && p < end)
				c = pf_unescape(&p);
			if (len + 2 > cap) {
				char *nb;

				cap = cap ? cap * 2 : 64;
				nb = realloc(buf, cap);
				if (!nb) {
					free(buf);
					return pf_perr(ps, "out of memory");
				}
				buf = nb;
			}
			buf[len++] = (char)c;
		}
		pf_next(ps);
	}
	off = addstr(ps, buf ? buf : "", len);
	free(buf);
	*lenp = (int)len;
	return off;
}

int pf_find_field(struct parser *ps, const char *name, int len)
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
		if (!pf_is_dig(*b))
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
int pf_field_type(struct parser *ps, int fi, struct ty *t)
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
			return pf_perr(ps, "field %s: bad array %s", fl->name,
				    fl->type);
		*t = ty_buf(fl->size / n ? fl->size / n : 1);
		t->sgn = fl->is_signed != 0;
		return 0;
	}
	if (fl->size != 1 && fl->size != 2 && fl->size != 4 && fl->size != 8)
		return pf_perr(ps, "field %s: size %d of %s", fl->name,
			       fl->size,
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

	if (pf_is_id(ps, "size_t") || pf_is_id(ps, "uintptr_t") ||
	    pf_is_id(ps, "phys_addr_t") || pf_is_id(ps, "dma_addr_t") ||
	    pf_is_id(ps, "resource_size_t")) {
		*sgn = 0;
		return L;
	}
	if (pf_is_id(ps, "ssize_t") || pf_is_id(ps, "ptrdiff_t") ||
	    pf_is_id(ps, "intptr_t") || pf_is_id(ps, "time64_t")) {
		*sgn = 1;
		return L;
	}
	for (i = 0; typedefs[i].name; i++)
		if (pf_is_id(ps, typedefs[i].name)) {
			*sgn = typedefs[i].sgn;
			return typedefs[i].size;
		}
	return 0;
}

/* Is the token after '(' the start of a type name? */
int pf_starts_type(struct parser *ps)
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
		if (pf_is_id(ps, kw[i]))
			return 1;
	return lookup_typedef(ps, &sgn) > 0;
}

/*
 * Parse a type name (without the parentheses): *size in bytes (0 for
 * void), *sgn, *isptr, *isbool.
 */
int pf_parse_type(struct parser *ps, int *size, int *sgn, int *isptr,
		      int *isbool)
{
	int sz = 0, longs = 0, agg = 0, is_void = 0, is_char = 0;
	int is_short = 0, seen = 0;

	*isbool = *isptr = 0;
	*sgn = 1;
	while (ps->tok == T_ID) {
		int s2;

		if (pf_is_id(ps, "const") || pf_is_id(ps, "volatile")) {
		} else if (pf_is_id(ps, "unsigned")) {
			*sgn = 0;
		} else if (pf_is_id(ps, "signed")) {
			*sgn = 1;
		} else if (pf_is_id(ps, "int")) {
		} else if (pf_is_id(ps, "long")) {
			longs++;
		} else if (pf_is_id(ps, "short")) {
			is_short = 1;
		} else if (pf_is_id(ps, "char")) {
			is_char = 1;
		} else if (pf_is_id(ps, "void")) {
			is_void = 1;
		} else if (pf_is_id(ps, "struct") || pf_is_id(ps, "union") ||
			   pf_is_id(ps, "enum")) {
			agg = pf_is_id(ps, "enum") ? 2 : 1;
			pf_next(ps);
			if (ps->tok != T_ID)
				return pf_perr(ps, "bad type name");
		} else if (!seen && (s2 = lookup_typedef(ps, sgn)) > 0) {
			sz = s2;
			if (pf_is_id(ps, "bool") || pf_is_id(ps, "_Bool"))
				*isbool = 1;
		} else {
			return pf_perr(ps, "unknown type '%.*s'", ps->tlen,
				    ps->tp);
		}
		seen = 1;
		pf_next(ps);
	}
	while (pf_is_p(ps, "*")) {
		*isptr = 1;
		pf_next(ps);
		while (pf_is_id(ps, "const") || pf_is_id(ps, "volatile"))
			pf_next(ps);
	}
	if (*isptr) {
		*size = ps->lsize / 8;
		*sgn = *isbool = 0;
		return 0;
	}
	if (agg == 1)
		return pf_perr(ps, "cast to a struct");
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
