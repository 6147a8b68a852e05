/*
 * Crash-free decoder of BTF (include/uapi/linux/btf.h), as much of it as
 * the kernel's print_function_args() uses: the header, the type section
 * indexed by type id, the string section, a function found by name, and
 * the text of a traced call's argument registers.  A split BTF (a
 * module's, on top of vmlinux's) continues its base: its type ids start
 * at the base's count and its string offsets at the base's string
 * section's length, and ids and offsets below those are the base's
 * (btf_type_by_id(), btf_str_by_offset(), kernel/bpf/btf.c).  Knows
 * nothing of where the bytes came from (the kernel's .BTF section or a
 * module's BTF read from a dump, a file, a test's array): either
 * endianness, every read bounded.
 */
#ifndef TRACEHUNT_BTF_H
#define TRACEHUNT_BTF_H

#include <stddef.h>
#include <stdint.h>

#define BT_MAGIC		0xeB9F

/* BTF_KIND_*: the kinds this decoder knows the size of */
enum {
	BT_KIND_UNKN, BT_KIND_INT, BT_KIND_PTR, BT_KIND_ARRAY,
	BT_KIND_STRUCT, BT_KIND_UNION, BT_KIND_ENUM, BT_KIND_FWD,
	BT_KIND_TYPEDEF, BT_KIND_VOLATILE, BT_KIND_CONST, BT_KIND_RESTRICT,
	BT_KIND_FUNC, BT_KIND_FUNC_PROTO, BT_KIND_VAR, BT_KIND_DATASEC,
	BT_KIND_FLOAT, BT_KIND_DECL_TAG, BT_KIND_TYPE_TAG, BT_KIND_ENUM64,
	BT_NR_KINDS
};

/* BTF_INT_SIGNED of an INT's encoding */
#define BT_INT_SIGNED		0x1

struct bt_btf {
	int swap;			/* the other endianness than ours */
	const struct bt_btf *base;	/* a split BTF's base, or NULL */
	uint32_t start_id;		/* its first type id (0: a base's void) */
	uint32_t start_str_off;		/* its first string offset */
	const unsigned char *types;	/* the type section */
	const char *strs;		/* the string section (NUL-ended) */
	uint32_t types_len, strs_len;
	const unsigned char *layout;	/* struct btf_layout per kind, or NULL */
	uint32_t layout_len;
	uint32_t *off;			/* offset of type START_ID + I in types */
	uint32_t nr;			/* type ids 1..nr-1 (the base's too);
					 * 0 is void */
	struct bt_fn {			/* its own FUNCs by name, then id */
		const char *name;
		uint32_t id;
	} *funcs;
	uint32_t nfuncs;
	const char *err;		/* why bt_open() failed */
};

/* One type of the section (struct btf_type and what follows it). */
struct bt_type {
	uint32_t name_off;
	unsigned kind;			/* BTF_INFO_KIND */
	uint32_t vlen;			/* BTF_INFO_VLEN */
	int kflag;
	uint32_t size_type;		/* the union: size or type */
	const unsigned char *extra;	/* the data after struct btf_type */
	uint32_t extra_len;
};

/*
 * Index the BTF of LEN bytes at DATA, which must stay where it is until
 * bt_close(): 0, or -1 with B->err saying why (a bad magic or version, a
 * section outside the data, a string section that does not end with a
 * NUL, a kind of unknown size, a type cut off, no memory).
 */
int bt_open(struct bt_btf *b, const void *data, size_t len);
/*
 * The same of a split BTF on top of BASE (open, and left open until this
 * one is closed): its ids start at BASE->nr, its string offsets at the
 * end of BASE's (and of BASE's bases'); its string section may be empty
 * and need not start with a NUL (btf_parse_str_sec()).  Also refused: a
 * BASE of the other byte order, more types than BTF_MAX_TYPE in all.
 */
int bt_open_split(struct bt_btf *b, const struct bt_btf *base,
		  const void *data, size_t len);
/* bt_open() without the functions' index (bt_open_types(): for look-ups
 * of types by name only, bt_names_open(); bt_find_func() finds none). */
int bt_open_types(struct bt_btf *b, const void *data, size_t len);
void bt_close(struct bt_btf *b);

/* Type ID into *T, the base's when below B's own (btf_type_by_id()): id
 * 0 is void (kind UNKN); FALSE when out of range. */
int bt_type(const struct bt_btf *b, uint32_t id, struct bt_type *t);
/* The string at OFF, in the base's section when below B's own
 * (btf_str_by_offset()); NULL when out of them. */
const char *bt_name(const struct bt_btf *b, uint32_t off);
/* The kernel's btf_type_str() of a kind: "STRUCT", "ENUM64", ... */
const char *bt_kind_str(unsigned kind);
/* u32 at I of T's extra data (0 past its end); B: any BTF of T's chain
 * (they have one byte order). */
uint32_t bt_extra_u32(const struct bt_btf *b, const struct bt_type *t,
		      uint32_t i);
/* The type ID refers to with its modifiers (typedef, volatile, const,
 * restrict, type tag) skipped: FALSE when a type in the chain is out of
 * range (or the chain does not end). */
int bt_skip_modifiers(const struct bt_btf *b, uint32_t id, struct bt_type *t);

/* The id of the first FUNC named NAME, the base's first
 * (btf_find_by_name_kind()), or 0. */
uint32_t bt_find_func(const struct bt_btf *b, const char *name);
/*
 * bpf_find_btf_id() of a FUNC: the first of the N BTFs (vmlinux's, then
 * the modules' in the order of btf_idr) whose bt_find_func() finds NAME,
 * NULL when none does.
 */
const struct bt_btf *bt_find_func_in(const struct bt_btf *const *btfs,
				     size_t n, const char *name);

/*
 * print_function_args() (kernel/trace/trace_output.c) of the function
 * NAME into OUT (LEN bytes, always NUL-terminated): "(" then each of its
 * parameters as "name=value" from the argument registers ARGS (MAX_ARGS
 * of them, FTRACE_REGS_MAX_ARGS; NULL: none recorded), "..." past them,
 * then ")".  A function the BTF (and its bases) lacks gives "()".
 * LONG_SIZE (4 or 8)
 * is the traced kernel's.  The length of the text (as snprintf: what
 * did not fit included).
 */
size_t bt_func_args(const struct bt_btf *b, const char *name,
		    const uint64_t *args, int max_args, int long_size,
		    char *out, size_t len);

/*
 * Types by name (lib/btf_types.c), for the debuginfo look-ups gdb is slow
 * at: the named types a C name can denote (STRUCT, UNION, ENUM, ENUM64,
 * FWD, TYPEDEF, INT, FLOAT) and every enumerator of one BTF (not its
 * bases'), in id order, each in a hash table by name.  Open until
 * bt_names_close(); B must stay open as long.
 */
struct bt_named {
	const char *name;
	uint32_t id;
	unsigned kind;
};

struct bt_enumerator_ref {
	const char *name;
	uint32_t id;			/* the ENUM or ENUM64 */
	uint32_t i;			/* its index there */
};

struct bt_names {
	struct bt_named *tags;
	uint32_t ntags;
	struct bt_enumerator_ref *enums;
	uint32_t nenums;
	/* open addressing: index + 1 of an entry, 0 empty; mask + 1 slots */
	uint32_t *tag_slot, tag_mask;
	uint32_t *enum_slot, enum_mask;
};

/* 0, or -1 when out of memory. */
int bt_names_open(struct bt_names *n, const struct bt_btf *b);
void bt_names_close(struct bt_names *n);
/* The types named NAME: how many there are, the first MAX of them (ids
 * ascending) into OUT. */
size_t bt_find_named(const struct bt_names *n, const char *name,
		     struct bt_named *out, size_t max);
/* The same of the STRUCTs and UNIONs only (never a FWD): their ids. */
size_t bt_find_tags(const struct bt_names *n, const char *name,
		    uint32_t *ids, size_t max);
/* The same of the enumerators named NAME. */
size_t bt_find_enumerators(const struct bt_names *n, const char *name,
			   struct bt_enumerator_ref *out, size_t max);

/* Where bt_member() found a member. */
struct bt_member {
	uint64_t bit_off;		/* from the start of the outer type */
	uint32_t bitfield;		/* its width in bits, 0: not one */
	uint32_t type;			/* its type id */
};

/*
 * The member PATH ("a", or "a.b.c" through the members' types) of the
 * STRUCT or UNION ID (modifiers skipped), each name looked for as gdb
 * does (crash's get_member_data(), gdb's search_struct_field()): the
 * members in order, an anonymous member's own members in its place.
 * 1 and *M; 0 when there is no such member; -1 when the path goes
 * through a type that is not a STRUCT or UNION, or the BTF is broken.
 */
int bt_member(const struct bt_btf *b, uint32_t id, const char *path,
	      struct bt_member *m);
/* gdb's TYPE_LENGTH of type ID (modifiers skipped, an array's elements
 * times their size, a pointer PTR_SIZE): -1 for a type of no size
 * (void, a function, a FWD) or a broken one. */
int64_t bt_type_size(const struct bt_btf *b, uint32_t id, int ptr_size);
/*
 * Enumerator I of the ENUM or ENUM64 ID: its name and value.  1; 0 when
 * I is out of range; -1 when the value cannot be told for certain: a
 * 32-bit ENUM's value with bit 31 set and no sign flag (pahole before
 * 1.24 set none: -1 or 4294967295?), an ENUM of 8 bytes (a 64-bit enum
 * cut to 32 bits by --skip_encoding_btf_enum64), an unsigned ENUM64
 * value above INT64_MAX.
 */
int bt_enumerator(const struct bt_btf *b, uint32_t id, uint32_t i,
		  const char **name, int64_t *val);

#endif
