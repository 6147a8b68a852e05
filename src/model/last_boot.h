/*
 * tracehunt: the boot a boot-mapped ("persistent") trace array's buffer
 * comes from (last_boot.c).
 */
#ifndef TRACEHUNT_LAST_BOOT_H
#define TRACEHUNT_LAST_BOOT_H

#include "model/model.h"

enum th_lb_state {
	TH_LB_NO_FEATURE,	/* the kernel has no boot-mapped arrays */
	TH_LB_NOT_MAPPED,	/* an array of its own pages */
	TH_LB_CURRENT,		/* boot-mapped, this boot's data */
	TH_LB_LAST,		/* boot-mapped, the previous boot's data */
	TH_LB_UNKNOWN,		/* boot-mapped; which boot cannot be read */
};

/* one module of the previous boot (struct trace_mod_entry) */
struct th_lb_mod {
	ulong addr;		/* its text then */
	long delta;		/* module_delta->delta[i]: to its text now */
	char name[64];
};

struct th_last_boot {
	enum th_lb_state state;
	int scratch_layout;	/* the kernel has trace_array.scratch (v6.15) */
	ulong range_start;	/* trace_array.range_addr_start */
	long text_delta;	/* this boot's _text minus the previous one's */
	int have_scratch;	/* the scratch area was read */
	ulong text_addr;	/* the previous boot's _text (scratch) */
	int have_deltas;	/* module_delta was set and read */
	int nmods;
	struct th_lb_mod *mods;	/* in the scratch area's order (sorted) */
	char why[160];		/* TH_LB_UNKNOWN, or what could not be read */
};

/* What TR's buffer holds (its previous boot's state and deltas when
 * TH_LB_LAST); th_last_boot_free() after. */
enum th_lb_state th_last_boot_read(ulong tr, struct th_last_boot *lb);
void th_last_boot_free(struct th_last_boot *lb);
/* trace_adjust_address(): ADDR of the previous boot, where it is now */
ulong th_last_boot_adjust(const struct th_last_boot *lb, ulong addr);

#endif
