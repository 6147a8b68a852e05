/*
 * tracehunt: dynamic ftrace as the dump holds it, one reader per object:
 *   ftrace_hash.c     struct ftrace_hash and its ftrace_func_entry
 *   ftrace_records.c  the dyn_ftrace records (ftrace_pages) and their flags
 *   ftrace_ops_list.c struct ftrace_ops, ftrace_ops_list, subops, fgraph_ops
 *   dynftrace.c       the whole state once per dump, and the x86 call
 *                     targets the kernel computes from it
 * Used by "ftrace ops", enabled_functions, the filter files, "ftrace
 * sites", hooks and the text check.
 */
#ifndef TRACEHUNT_FTRACE_OPS_H
#define TRACEHUNT_FTRACE_OPS_H

#include "model/model.h"

/* ------------------------------------------------------ ftrace_hash.c --- */

/* One struct ftrace_func_entry of a hash. */
struct thf_hent {
	ulong ip;
	ulong ent;		/* the struct ftrace_func_entry */
	ulong direct;		/* entry->direct (0 when the kernel has none) */
};

/* A struct ftrace_hash read whole. */
struct thf_hash {
	ulong addr;		/* 0: no hash (NULL pointer) */
	ulong size_bits;
	ulong count;		/* hash->count as the kernel holds it */
	ulong hflags;		/* hash->flags (0 when the member is absent) */
	long n;			/* entries read */
	struct thf_hent *e;	/* bucket by bucket, each chain in order: the
				 * order the kernel's own listings walk */
	long *by_ip;		/* indexes into e[] by ascending ip */
	const char *err;	/* damage met while reading, or NULL */
	ulong bad;		/* ... the pointer it was met at */
	ulong bucket;		/* ... the bucket whose chain it ended */
};

/* set_graph_function's ftrace_graph_funcs[] (before v4.11) as a hash in
 * array order; FALSE without it. */
int thf_graph_funcs_read(struct thf_hash *h);
/*
 * Read the struct ftrace_hash at ADDR (0: no hash, read as empty).  FALSE
 * when the hash itself cannot be read (its header or bucket array, h->err
 * says why); TRUE otherwise, h->err set when a damaged chain ended the
 * read (the entries before it are kept).  thf_hash_free() frees it.
 */
int thf_hash_read(ulong addr, struct thf_hash *h);
void thf_hash_free(struct thf_hash *h);
/* ftrace_lookup_ip(): IP in H; its entry's direct into *DIRECT if asked */
int thf_hash_has(const struct thf_hash *h, ulong ip, ulong *direct);
/* ftrace_hash_empty(), FTRACE_HASH_FL_MOD counted (a pending ":mod:") */
int thf_hash_empty(const struct thf_hash *h);
int thf_hash_mod_pending(const struct thf_hash *h);
/* The ip of the I-th entry by ascending ip. */
static inline ulong thf_hash_ip_sorted(const struct thf_hash *h, long i)
{
	return h->e[h->by_ip[i]].ip;
}
/*
 * t_func_next() of set_ftrace_filter: the ips of the dyn_ftrace records
 * (ftrace_pages order) that are in H, into *IPS (malloc'ed, free() it, or
 * NULL); -1 when the records cannot be walked at all.
 */
long thf_hash_records(const struct thf_hash *h, ulong **ips);

/* --------------------------------------------------- ftrace_records.c --- */

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

/* Every dyn_ftrace record, walked once per dump. */
struct thf_recs {
	struct thf_rec *rec;
	long nrec;
	long npages;
	const char *err;	/* damage met walking ftrace_pages */
	ulong bad;
	long missing;		/* records of unreadable pages, skipped */
	int stopped;		/* the walk stopped at bad */
	int walked;		/* FALSE: no ftrace_pages_start or no types */
	int count_differs;	/* ftrace_update_tot_cnt counts otherwise */
};
const struct thf_recs *thf_records(void);
/* 1 when IP is a record's ip, 0 when not, -1 when the records are not all
 * known. */
int thf_rec_known(ulong ip);
/* The FTRACE_FL_* bits; FALSE when FTRACE_FL_ENABLED is unknown. */
int thf_recfl_load(struct thf_recfl *f);

/* -------------------------------------------------- ftrace_ops_list.c --- */

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

/* One struct ftrace_ops and its hashes (thf_ops_release() frees them). */
int thf_ops_read(ulong addr, struct thf_ops *op);
void thf_ops_release(struct thf_ops *op);
/* The filter (NOTRACE: notrace) hash pointer of the ftrace_ops at OPS, as
 * ops->func_hash->filter_hash reads (0 when none or unreadable). */
ulong thf_ops_hash(ulong ops, int notrace);
/* The stack tracer's ops (stack_trace_filter), 0 when none. */
ulong thf_stack_trace_ops(void);
/* hash_contains_ip() over an ops' filter and notrace hashes */
int thf_ops_contains(const struct thf_ops *op, ulong ip);
/* FTRACE_OPS_FL_<NAME> from the dump's enum, 0 when absent */
ulong thf_ops_flag(const char *name);
/* FTRACE_OPS_FL_* names of FLAGS into BUF ("ENABLED|DYNAMIC|0x100000") */
char *thf_ops_flags_str(ulong flags, char *buf, size_t len);
/*
 * The subops of a manager ops (ftrace_ops.subop_list, v6.11+): the
 * addresses of their struct ftrace_ops into W (bounded, cycle-safe;
 * th_walk_free() it).  FALSE, W empty, when the kernel has no subops.
 */
int thf_subops_walk(ulong manager, struct th_walk *w);
/* ftrace_ops.managed: the manager of a subop, 0 when none */
ulong thf_ops_managed(ulong ops);
/* The struct fgraph_ops whose "ops" is the ftrace_ops at SUB: is the type
 * known, and its entryfunc (RET: retfunc) into *FN (FALSE, 0: unread). */
int thf_fgraph_known(void);
int thf_fgraph_func(ulong sub, int ret, ulong *fn);

/* ------------------------------------------------------- dynftrace.c --- */

struct thf_state {
	int loaded;
	const char *why;	/* why there is nothing: one line, or NULL */
	struct thf_recfl fl;
	const struct thf_recs *recs;	/* thf_records() */
	struct thf_rec *rec;	/* recs->rec */
	long nrec;		/* recs->nrec */
	const char *rec_err;	/* recs->err: damage met walking ftrace_pages */
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
const char *thf_load_reason(void);
void thf_warn_recs(struct thf_state *s);
void thf_warn_damage(struct thf_state *s);
/* do_for_each_ftrace_op(): the ops list into S (ftrace_ops_list.c) */
void thf_ops_walk(struct thf_state *s);

/* ftrace_find_tramp_ops_any()/_next(): index of the next ops after FROM
 * (-1 to start) that has a trampoline and traces IP, or -1. */
int thf_tramp_ops_next(struct thf_state *s, ulong ip, int from);
/* The ops whose trampoline covers ADDR, or -1. */
int thf_ops_by_tramp(struct thf_state *s, ulong addr);
/* ftrace_find_unique_ops(): the one ops tracing IP, or -1 */
int thf_unique_ops(struct thf_state *s, ulong ip);
/* arch_ftrace_trampoline_func(): what the trampoline (or the static
 * caller for this record) calls; 0 when nothing. */
ulong thf_tramp_func(struct thf_state *s, const struct thf_ops *op,
		     const struct thf_rec *r);
/* ftrace_get_addr_curr(): where the record's call should go; *why says
 * what the address is ("ftrace_regs_caller", "trampoline", "direct"). */
ulong thf_expected_target(struct thf_state *s, const struct thf_rec *r,
			  const char **why);
/* Text of the dump: one page cached, for call-site reads */
int thf_text_read(ulong addr, unsigned char *buf, int len);

#endif
