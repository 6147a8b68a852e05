/*
 * printfmt_int.h - private to printfmt: the compiled form shared by its
 * parser (lib/printfmt.c, lib/printfmt_lex.c) and its printer
 * (lib/printfmt_eval.c, lib/printfmt_out.c, lib/printfmt_sys.c).
 */
#ifndef TRACEHUNT_PRINTFMT_INT_H
#define TRACEHUNT_PRINTFMT_INT_H

#include <stdint.h>
#include <string.h>
#include "printfmt.h"

#define PF_MAX_DEPTH	64	/* expression nesting */
#define PF_MAX_NODES	8192
#define PF_MAX_ARGS	128	/* printf arguments */
#define PF_MAX_CONV	128	/* conversions in the format */
#define PF_TMP_SIZE	4096	/* the kernel's iter->tmp_seq: one page */
#define PF_MAX_WIDTH	4096	/* trace_seq holds one page */
#define PF_PAGE_SIZE	4096ULL

/* Static types of expressions. */
enum { TY_INT, TY_BUF };

struct ty {
	unsigned char kind;	/* TY_INT: integer; TY_BUF: string/array */
	unsigned char bits;	/* TY_INT: 32 or 64 (after promotion) */
	unsigned char sgn;
	unsigned char ptr;	/* TY_INT that was a pointer type */
	unsigned char elsz;	/* TY_BUF: element size (1 for strings) */
};

enum {
	N_NUM, N_STR, N_FIELD, N_UNARY, N_BINARY, N_TERNARY, N_CAST,
	N_CALL, N_LIST, N_INDEX,
};

/* Helpers (N_CALL). */
enum {
	F_GET_STR, F_GET_DYN, F_GET_DYN_LEN, F_GET_BITMASK,
	F_PRINT_FLAGS, F_PRINT_FLAGS_U64, F_PRINT_SYM, F_PRINT_SYM_U64,
	F_PRINT_HEX, F_PRINT_HEX_STR, F_PRINT_ARRAY, F_PRINT_DYN_ARRAY,
	F_NS_TO_SECS, F_NS_WITHOUT_SECS, F_EXPECT,
};

struct node {
	unsigned char kind;
	unsigned char aux;	/* rel flag of helpers */
	short op;		/* operator, helper id */
	struct ty ty;
	int a, b, c;		/* children, -1 if none */
	int next;		/* next argument of a call / list element */
	uint64_t v;		/* N_NUM value; N_STR offset into strs */
	int len;		/* N_STR length */
	int field;		/* N_FIELD, dynamic helpers */
	int depth;		/* of the subtree: bounds eval()'s recursion */
};

/* A printf conversion (or literal text when type == 0). */
struct conv {
	char type;		/* 0 text, 'd','u','x','o','c','s','p','%' */
	unsigned char flags;
	char qual;		/* 0, 'H', 'h', 'l', 'L', 'z', 't' */
	char bare_p;		/* "%p" exactly: "nohash-ptr" turns it to %px */
	char scan_s;		/* a %s trace_check_vprintf() finds: only
				 * digits, '.' and '*' between '%' and 's' */
	short width;		/* -1 none, -2 from argument */
	short prec;		/* -1 none, -2 from argument */
	char ext[8];		/* %p extension ("S", "ISpc", ...) */
	int text, len;		/* literal text: offset into strs */
	/* pf_plan(): a plain %d, %u or %s of a record's field, printed
	 * straight from the record (most of a tracepoint's line) */
	unsigned char fast;	/* PF_FAST_*, 0 for the general path */
	int fnode;		/* its argument, an N_FIELD node */
};

enum { PF_FAST_NONE, PF_FAST_INT, PF_FAST_STR };

/* pf_plan(): the bytes strs holds past its last string, so that
 * do_format() copies a short text in one move of that size */
#define PF_TEXT_SLACK	32
/* pf_plan(): the bytes a PF_OP_STR may write past its string */
#define PF_STR_SLACK	16

/*
 * pf_plan(): the string an argument gives when it depends on nothing but
 * one integer field (sched_switch's prev_state: a ?: of __print_flags()),
 * kept per value of that field's bytes: the bytes its evaluation wrote
 * into the kernel's tmp_seq and where in them (or in the format's
 * literals) the value points.
 */
#define PF_MEMO_BITS	4
#define PF_MEMO_TEXT	48

enum { PF_MEMO_NULL = 1, PF_MEMO_TMP, PF_MEMO_LIT };

struct pf_memo_ent {
	uint64_t key;
	unsigned char where;	/* PF_MEMO_*, 0 unused */
	unsigned char tag;	/* the evaluation's byte order and long size */
	unsigned short n;	/* bytes written into tmp, its NUL included */
	unsigned short off;	/* PF_MEMO_TMP: the value at tmp + off */
	const unsigned char *lit;	/* PF_MEMO_LIT: the value */
	size_t vn;		/* the value's string length */
	char text[PF_MEMO_TEXT];
};

struct pf_memo {
	int field;		/* the field read, -1 for none */
	struct pf_memo_ent ent[1 << PF_MEMO_BITS];	/* by the key's
							 * hash */
};

#define ZEROPAD	1
#define SIGN	2
#define PLUS	4
#define SPACE	8
#define LEFT	16
#define SMALL	32
#define SPECIAL	64

/*
 * pf_plan(): a format whose every conversion is a text, one printed
 * straight from the record (conv.fast) or a plain %s of a kept value
 * (argmemo), as one list of steps that do_format() runs without its
 * checks when the line has the room (sched_switch, sched_wakeup): each
 * step a text, then a value.
 */
enum { PF_OP_TEXT = 1, PF_OP_INT, PF_OP_STR, PF_OP_MEMO };
#define PF_OPS_MEMO	16	/* the kept values of a list, at most */

struct pf_op {
	unsigned char kind;	/* PF_OP_*: PF_OP_TEXT, the text alone */
	unsigned char size;	/* PF_OP_INT: the field's bytes: 1, 2, 4, 8 */
	unsigned char csgn;	/* %d: printed with a sign */
	unsigned char zero;	/* the 0 flag */
	signed char width;	/* -1 none, else 0 to 20 */
	unsigned char arg;	/* PF_OP_MEMO: the argument */
	unsigned short tlen;	/* the text before the value: its bytes */
	int toff;		/* and offset in strs */
	int off;		/* the field's offset */
	/* PF_OP_INT's value, as norm() of each step gives it: the field
	 * read with its sign (s0, its sign bit or 0), then in the
	 * argument's type (m1 its mask, s1 its sign bit or 0), then as
	 * va_arg() reads it ([0] with 64-bit longs, [1] with 32-bit) */
	uint64_t s0, m1, s1, m2[2], s2[2];
};

struct pf_fmt {
	struct pf_field *fields;
	int nfields;
	struct node *nodes;
	int nnodes, cap;
	char *strs;		/* string literals and format text */
	size_t nstrs, strcap;
	struct conv conv[PF_MAX_CONV];
	int nconv;
	int args[PF_MAX_ARGS];
	int nargs;
	unsigned char argfast[PF_MAX_ARGS];	/* its conversion is fast */
	int nfast;
	/* the arguments that are not: do_format() evaluates these alone
	 * when the record holds the fast ones */
	unsigned char slowarg[PF_MAX_ARGS];
	int nslow;
	size_t fast_minlen;	/* a record this long holds every fast field */
	int text_slack;		/* strs readable PF_TEXT_SLACK bytes on */
	unsigned char argmemo[PF_MAX_ARGS];	/* 1 + its index in memo */
	struct pf_memo *memo;	/* written while formatting */
	int nmemo;
	struct pf_op *ops;	/* NULL: no list of steps */
	int nops, nops_str;	/* nops_str: of PF_OP_STR */
	unsigned char ops_memo[PF_OPS_MEMO];	/* the PF_OP_MEMO steps */
	int nops_memo;
	size_t ops_str_off;	/* the sum of their fields' offsets */
	size_t ops_room;	/* the steps' bytes but PF_OP_STR's and
				 * PF_OP_MEMO's, with the moves' slack */
};

static inline uint64_t norm(uint64_t v, int bits, int sgn)
{
	if (bits >= 64)
		return v;
	v &= (1ULL << bits) - 1;
	if (sgn && bits > 0 && (v >> (bits - 1)) & 1)
		v |= ~0ULL << bits;
	return v;
}

/* The bits of the integer a conversion's va_arg() reads (0: a long's) */
static inline int pf_conv_bits(const struct conv *c)
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

/* Whether a field of SIZE bytes is one of C's integers, read in one load
 * (pf_field_int()) and kept whole in a uint64_t */
static inline int pf_int_size(int size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

static inline struct ty ty_int(int bits, int sgn)
{
	struct ty t = { TY_INT, (unsigned char)bits, (unsigned char)sgn, 0, 0 };

	return t;
}

static inline struct ty ty_buf(int elsz)
{
	struct ty t = { TY_BUF, 64, 0, 0, (unsigned char)elsz };

	return t;
}

static inline int has(const char *s, const char *what)
{
	return strstr(s, what) != NULL;
}

#endif
