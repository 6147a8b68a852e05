/*
 * tracehunt: the kprobes of the dump (model/kprobes.c): struct kprobe,
 * kretprobe and jprobe, the kprobe_table hash with its aggregates, and the
 * free instances of a kretprobe wherever the kernel keeps them.
 */
#ifndef TRACEHUNT_MODEL_KPROBES_H
#define TRACEHUNT_MODEL_KPROBES_H

#include "model/model.h"

struct kp_probe {
	ulong kp;		/* struct kprobe */
	ulong parent;		/* aggregate kprobe, or 0 */
	ulong addr;
	ulong pre, post, fault;
	unsigned int flags, pflags;	/* own flags, the site's flags */
	ulong nmissed;
	int bucket;
};

/* FALSE when the dump has no kprobe_table or no struct kprobe. */
int th_kprobes_init(void);
/* What the dump lacks when th_kprobes_init() fails. */
const char *th_kprobes_missing(void);
/* Every probe of kprobe_table, aggregate children expanded, in the order
 * kprobes/list prints them; *out is malloc'd. */
long th_kprobes_collect(struct kp_probe **out);
/* kprobes_all_disarmed: 1, 0, -1 when unknown */
int th_kprobes_all_disarmed(void);
/* What kprobes/list prints for a probe at ADDR without a symbol: "%pS"
 * of it, or 3.10's bare "%p" (report_probe()'s own format, read) */
char *th_kplist_nosym(ulong addr, char *buf, size_t len);
/* kprobe_blacklist's entries in list order; -1 when the dump has none */
long th_kprobe_blacklist(void (*fn)(ulong start, ulong end, void *arg),
			 void *arg);
/* 'k', 'r' or 'j' */
char th_kprobe_type(struct kp_probe *k);

/* kprobe.symbol_name (and kprobe.offset) of a probe registered by name:
 * FALSE when it was registered by address or the dump cannot tell. */
int th_kprobe_symbol_name(ulong kp, char *name, int len, unsigned int *off);
/* kprobe.opcode, the instruction byte a breakpoint replaced: FALSE when
 * the architecture's kprobe has no opcode. */
int th_kprobe_opcode(ulong kp, unsigned char *op);
/* kprobe.addr, kprobe.offset, kprobe.nmissed (0 when unreadable) */
ulong th_kprobe_addr(ulong kp);
unsigned int th_kprobe_offset(ulong kp);
ulong th_kprobe_nmissed(ulong kp);
/* kprobe.pre_handler, 0 when unreadable */
ulong th_kprobe_pre_handler(ulong kp);

/* The struct kretprobe around the struct kprobe KP. */
struct th_kretprobe {
	ulong addr;		/* struct kretprobe */
	ulong handler;
	ulong entry_handler;	/* 0 before v2.6.25 */
	int maxactive;
	int nmissed;
	ulong data_size;
};
/* FALSE when the dump has no struct kretprobe. */
int th_kretprobe_of(ulong kp, struct th_kretprobe *r);
/* The struct kprobe inside the struct kretprobe at KRP. */
ulong th_kretprobe_kprobe(ulong krp);
/*
 * Free kretprobe instances of the kretprobe at KRP: returns where the
 * kernel keeps them ("rethook pool", "objpool", "freelist",
 * "free_instances"), or NULL when it keeps none the dump can show; *NFREE
 * is -1 when that place is unreadable; *TOTAL is MAXACTIVE unless the
 * pool knows better.
 */
const char *th_kretprobe_instances(ulong krp, int maxactive, long *nfree,
				   long *total);
/* jprobe.entry of the jprobe around KP: FALSE when there is no jprobe. */
int th_jprobe_entry(ulong kp, ulong *entry);

#endif
