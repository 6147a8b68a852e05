/*
 * tracehunt: the kernel's uprobes (model/uprobes.c): every struct uprobe
 * of uprobes_tree (an inode and an offset in it: a breakpoint in every
 * process mapping that file) with its consumers, and who each consumer
 * is: a trace_uprobe (a tracefs uprobe event, or one perf made for a
 * perf or BPF uprobe), a BPF uprobe_multi link, or other code.
 */
#ifndef TRACEHUNT_MODEL_UPROBES_H
#define TRACEHUNT_MODEL_UPROBES_H

#include "model/model.h"
#include "model/path.h"

#pragma GCC visibility push(hidden)

#define TH_UPROBES_MAX		100000	/* nodes of uprobes_tree */
#define TH_UPROBE_CONSUMERS	64	/* consumers read per uprobe */

enum th_uc_kind {
	TH_UC_OTHER,		/* a handler of no kind below */
	TH_UC_TRACE,		/* uprobe_dispatcher: a struct trace_uprobe */
	TH_UC_MULTI,		/* a bpf_uprobe of a uprobe_multi link */
};

struct th_uconsumer {
	ulong addr;			/* struct uprobe_consumer */
	ulong handler, ret_handler, filter;
	enum th_uc_kind kind;
	ulong tu;			/* TRACE: its struct trace_uprobe */
	ulong link;			/* MULTI: its struct bpf_link */
};

struct th_uprobe {
	ulong addr;			/* struct uprobe */
	ulong inode;
	char path[TH_PATH_MAX];		/* the inode's, "" when unknown */
	char sid[32];			/* its super_block.s_id */
	int path_ok;
	uint64_t offset, ref_ctr_offset;
	int nuc;			/* consumers read */
	struct th_uconsumer uc[TH_UPROBE_CONSUMERS];
	const char *err;		/* what could not be read, or NULL */
};

/* FALSE when the dump has no uprobes tree or not its types; *WHY then
 * names what it lacks. */
int th_uprobes_ok(const char **why);
/* Every uprobe of uprobes_tree in the tree's order (inode, then offset);
 * -1 when th_uprobes_ok() fails.  *out is malloc'd.  A damaged tree or
 * consumer chain is reported (th_damaged) and what was read before the
 * damage is returned. */
long th_uprobes(struct th_uprobe **out);
/* uprobe_consumer.handler and .ret_handler of the consumer at UC; FALSE
 * when unreadable. */
int th_uconsumer_handlers(ulong uc, ulong *handler, ulong *ret_handler);

#pragma GCC visibility pop

#endif
