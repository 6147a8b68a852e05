/*
 * tracehunt: dynamic ftrace as the dump holds it (dynftrace.c), shared by
 * "ftrace ops", "ftrace cat enabled_functions" (ftrace_ops.c) and
 * "ftrace sites" (ftrace_ops_sites.c).  Private to those files.
 */
#ifndef TRACEHUNT_FTRACE_OPS_H
#define TRACEHUNT_FTRACE_OPS_H

#include "model/model.h"

/* A struct ftrace_hash read whole: its ips sorted, for lookups. */
struct thf_hash {
	ulong addr;		/* 0: no hash (NULL pointer) */
	ulong size_bits;
	ulong count;		/* hash->count as the kernel holds it */
	ulong hflags;		/* hash->flags (0 when the member is absent) */
	long n;			/* entries read */
	ulong *ip;		/* sorted */
	ulong *direct;		/* entry->direct, parallel to ip, or NULL */
	const char *err;	/* damage met while reading, or NULL */
};

struct thf_ops {
	ulong addr;
	ulong func;
	ulong flags;
	ulong trampoline;
	ulong trampoline_size;
	ulong private_data;
	ulong func_hash;	/* struct ftrace_ops_hash *, 0 before v3.19 */
	struct thf_hash filter;
	struct thf_hash notrace;
	int readable;
};

struct thf_rec {
	ulong ip;
	ulong flags;
};

/* FTRACE_FL_* bits of dyn_ftrace.flags, from the dump's enum (0: absent) */
struct thf_recfl {
	ulong enabled, regs, regs_en, tramp, tramp_en, ipmodify, disabled;
	ulong direct, direct_en, call_ops, call_ops_en, touched, modified;
	ulong ref_mask;		/* ftrace_rec_count(): the bits below all */
};

struct thf_state {
	int loaded;
	const char *why;	/* why there is nothing: one line, or NULL */
	struct thf_recfl fl;
	struct thf_rec *rec;
	long nrec;
	long npages;
	const char *rec_err;	/* damage met walking ftrace_pages */
	ulong rec_bad;
	long rec_missing;	/* records of unreadable pages, skipped */
	int rec_stopped;	/* the walk stopped at rec_bad */
	struct thf_ops *ops;
	int nops;
	const char *ops_err;	/* damage met walking ftrace_ops_list */
	ulong ops_bad;
	ulong list_end;		/* &ftrace_list_end */
	struct thf_hash direct;	/* direct_functions */
	int have_direct;
	/* x86 call targets */
	ulong ftrace_caller, ftrace_regs_caller;
	ulong call_off, regs_call_off;	/* ftrace_call - ftrace_caller, ... */
	ulong graph_caller;	/* FTRACE_GRAPH_ADDR when a symbol (old) */
	ulong prepare_ftrace_return;
	ulong ops_fl_alloc_tramp, ops_fl_save_regs;
	int max_offset;		/* FTRACE_MCOUNT_MAX_OFFSET: 4 on IBT kernels */
	int have_max_offset;	/* print_rec() of v6.0+ */
};

/* Load everything once per dump; NULL when dynamic ftrace is not there,
 * and thf_load_why() prints the one-line reason. */
struct thf_state *thf_load(void);
void thf_load_why(void);
void thf_warn_recs(struct thf_state *s);
void thf_warn_damage(struct thf_state *s);
/* One struct ftrace_ops and its hashes (thf_ops_release() frees them). */
int thf_ops_read(ulong addr, struct thf_ops *op);
void thf_ops_release(struct thf_ops *op);

int thf_hash_has(const struct thf_hash *h, ulong ip, ulong *direct);
int thf_hash_empty(const struct thf_hash *h);
/* hash_contains_ip() over an ops' filter and notrace hashes */
int thf_ops_contains(const struct thf_ops *op, ulong ip);
/* ftrace_find_tramp_ops_any()/_next(): index of the next ops after FROM
 * (-1 to start) that has a trampoline and traces IP, or -1. */
int thf_tramp_ops_next(struct thf_state *s, ulong ip, int from);
/* The ops whose trampoline covers ADDR, or -1. */
int thf_ops_by_tramp(struct thf_state *s, ulong addr);
/* arch_ftrace_trampoline_func(): what the trampoline (or the static
 * caller for this record) calls; 0 when nothing. */
ulong thf_tramp_func(struct thf_state *s, const struct thf_ops *op,
		     const struct thf_rec *r);
/* ftrace_get_addr_curr(): where the record's call should go; *why says
 * what the address is ("ftrace_regs_caller", "trampoline", "direct"). */
ulong thf_expected_target(struct thf_state *s, const struct thf_rec *r,
			  const char **why);
/* %pS texts of an ops, computed once: trampoline, func, the ops itself,
 * and " ->X" (what the trampoline calls) or "" */
struct thf_opstr {
	int done;
	char tramp[320];
	char func[320];
	char self[320];
	char arrow[320];
};
const struct thf_opstr *thf_ops_str(struct thf_state *s, int i);
/* " ->X": what ftrace_caller (or ftrace_regs_caller) calls, or "" */
const char *thf_static_arrow(struct thf_state *s, int regs_en);
/* FTRACE_OPS_FL_<NAME> from the dump's enum, 0 when absent */
ulong thf_ops_flag(const char *name);
/* FTRACE_OPS_FL_* names of FLAGS into BUF ("ENABLED|DYNAMIC|0x100000") */
char *thf_ops_flags_str(ulong flags, char *buf, size_t len);
/* Text of the dump: one page cached, for call-site reads */
int thf_text_read(ulong addr, unsigned char *buf, int len);

#endif
