/*
 * printfmt_parse.h - private to the parsing half of printfmt:
 * lib/printfmt_lex.c (tokens, literals, fields, type names) and
 * lib/printfmt.c (expressions and the format).
 */
#ifndef TRACEHUNT_PRINTFMT_PARSE_H
#define TRACEHUNT_PRINTFMT_PARSE_H

#include <stddef.h>
#include "printfmt_int.h"

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

/* Consume the punctuation or word S, or fail naming it. */
int pf_expect(struct parser *ps, const char *s);
/* The type of field FI as an expression of it has. */
int pf_field_type(struct parser *ps, int fi, struct ty *t);
/* The index of the field NAME (LEN bytes), or -1. */
int pf_find_field(struct parser *ps, const char *name, int len);
/* Value of a hex digit, -1 when C is none. */
int pf_hexval(int c);
/* Character classes of C identifiers and numbers. */
int pf_is_alnum(int c);
int pf_is_dig(int c);
/* Is the current token the punctuation / the word S? */
int pf_is_id(struct parser *ps, const char *s);
int pf_is_p(struct parser *ps, const char *s);
/* A new node of KIND: its index, or -1 (error set). */
int pf_newnode(struct parser *ps, int kind);
/* Read the next token. */
void pf_next(struct parser *ps);
/* A string literal (adjacent ones joined): its offset in strs. */
int pf_parse_string(struct parser *ps, int *lenp);
/* A type name in a cast or sizeof (see printfmt_lex.c). */
int pf_parse_type(struct parser *ps, int *size, int *sgn, int *isptr,
		  int *isbool);
/* Record the first error; returns -1. */
int pf_perr(struct parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* snprintf() into ERR when there is one. */
void pf_seterr(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Does a type name start at the current token? */
int pf_starts_type(struct parser *ps);
/* One character of a C escape sequence at *PP. */
int pf_unescape(const char **pp);

#endif
