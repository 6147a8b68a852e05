/*
 * tracehunt: the entries of the kernel's tables of the code it patches
 * (model/patch_tables.c): struct alt_instr, paravirt_patch_site,
 * jump_entry and static_call_site as the debuginfo lays them out, decoded
 * from bytes copied out of the vmlinux file; and static_call_key.func in
 * the dump.
 */
#ifndef TRACEHUNT_MODEL_PATCH_TABLES_H
#define TRACEHUNT_MODEL_PATCH_TABLES_H

#include "model/model.h"

enum th_patch_table {
	TH_PATCH_ALT,		/* .altinstructions: struct alt_instr */
	TH_PATCH_PARAVIRT,	/* .parainstructions (gone in v6.8) */
	TH_PATCH_JUMP,		/* __jump_table: struct jump_entry */
	TH_PATCH_STATIC_CALL,	/* .static_call_sites */
	TH_PATCH_NTABLES
};

/* One entry, in file (link-time) addresses. */
struct th_patch_entry {
	ulong site;		/* the patched instruction */
	int len;		/* bytes patched; -1: the instruction's own */
	ulong aux;		/* alternative: its replacement; jump label:
				 * its target; static call: its key */
	int rlen;		/* alternative: the replacement's length */
};

/* Size of one entry of TABLE; -1 when the debuginfo has no usable layout
 * for it. */
long th_patch_entry_size(enum th_patch_table table);
/* Decode the entry E (th_patch_entry_size() bytes) that the file holds
 * at address BASE. */
void th_patch_entry(enum th_patch_table table, const unsigned char *e,
		    ulong base, struct th_patch_entry *out);
/* static_call_key.func of the key at KEY (a dump address); FALSE when
 * unreadable or the member is absent. */
int th_static_call_func(ulong key, ulong *func);
void th_static_call_null_went(ulong key, ulong at, ulong target, int tramp);

#endif
