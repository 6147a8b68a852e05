/*
 * tracehunt: the findings of "hooks", shared by its files only: hooks.c
 * (the table, kprobes, ftrace ops, tracepoints, BPF links, the output),
 * hooks_uprobes.c (the uprobes of uprobes_tree), hooks_fprobe.c (fprobe
 * and event probes), hooks_modules.c (the modules off the module list)
 * hooks_hwbp.c (the CPUs' hardware breakpoints), hooks_netfilter.c
 * (the netfilter hooks) and hooks_bpfnet.c (BPF on the network path, and
 * the programs nothing found running).
 */
#ifndef TRACEHUNT_AUDIT_HOOKS_PRIV_H
#define TRACEHUNT_AUDIT_HOOKS_PRIV_H

#include "model/model.h"
#include "model/bpf.h"
#include "model/ftrace_ops.h"

#pragma GCC visibility push(hidden)

enum hk_verdict { HK_OK, HK_NOTE, HK_SUSPICIOUS, HK_HIDDEN, HK_NVERDICT };

struct hk_finding {
	const char *kind;
	ulong target;
	char target_str[320];
	ulong handler;
	char handler_str[192];
	struct th_owner owner;
	char owner_str[192];
	enum hk_verdict verdict;
	char why[1024];
	unsigned char bytes[16];	/* text findings */
	int nbytes;
	int bpf;			/* judged by the BPF it runs */
	/* a "bpf" finding: its link (or program on a perf event without
	 * one), whose holders hooks -j lists */
	const struct th_bpf_link *bpf_link;
	/* a "bpf" finding without a link or perf event: its program */
	const struct th_bpf_prog *bpf_prog;
};

/* A new finding of KIND, zeroed but for its kind. */
struct hk_finding *hk_new(const char *kind);
/* F's handler, its owner and the verdict its owner gives, WHAT naming
 * the handler in the reason. */
void hk_judge(struct hk_finding *f, ulong handler, const char *what);
/* F HIDDEN when the struct at ADDR (WHAT) is in hidden memory. */
void hk_judge_struct(struct hk_finding *f, ulong addr, const char *what);

/* The BPF links and programs of this "hooks" (read once per command). */
long hk_bpf_nlinks(void);
const struct th_bpf_link *hk_bpf_link_nth(long i);
const struct th_bpf_prog *hk_bpf_prog(ulong prog);
/* The helper of P that makes it suspicious, NULL when none. */
const char *hk_bpf_bad_helper(const struct th_bpf_prog *p);
/* "link ID (TYPE)", or the process holding a perf event without one */
char *hk_bpf_via(const struct th_bpf_link *l, char *buf, size_t len);
/* F runs the BPF program at PROG (of id ID) attached through VIA (HOW:
 * "runs"): a note, suspicious when it calls a helper of
 * hk_bpf_bad_helper(); never ok.  The program counts as found running
 * (hk_bpf_prog_nth()'s *SEEN). */
void hk_bpf_judge_via(struct hk_finding *f, ulong prog, unsigned int id,
		      const char *via, const char *how);
/* hk_bpf_judge_via() through the link L */
void hk_bpf_judge(struct hk_finding *f, const struct th_bpf_link *l,
		  const char *how);
/* The programs of this "hooks": the I-th, *SEEN whether a finding runs
 * it so far. */
long hk_bpf_nprogs(void);
const struct th_bpf_prog *hk_bpf_prog_nth(long i, int *seen);
/* The "bpf" finding of the link at LINK, NULL when none. */
struct hk_finding *hk_bpf_link_finding(ulong link);

/* hooks_uprobes.c: a "uprobe" finding per uprobe of uprobes_tree */
void hk_uprobes(void);
/* hooks_modules.c: a "module" finding per module off the module list */
void hk_modules(void);
/* hooks_hwbp.c: a "hw_breakpoint" finding per hardware breakpoint (the
 * same one on several CPUs: one finding) */
void hk_hw_breakpoints(void);
/* hooks_netfilter.c: a "netfilter" finding per function of every
 * netfilter hook point of every network namespace */
void hk_netfilter(void);
/* hooks_bpfnet.c: a "bpf" finding per XDP or tcx program a network
 * device runs without a link, and the TARGET of the links that attach
 * one (xdp, tcx); then a "bpf" finding per program no finding runs
 * (attached where no reader looks, or only loaded) */
void hk_bpf_net(void);
void hk_bpf_unattached(void);
/* F suspicious when PROG, a struct bpf_prog it runs without a link, is
 * no program of prog_idr (said after its why) */
void hk_bpf_not_in_idr(struct hk_finding *f, ulong prog);

/* The findings so far (hk_nth(): valid until the next hk_new()). */
long hk_count(void);
struct hk_finding *hk_nth(long i);

/* hooks_fprobe.c: "fprobe_event" and "eprobe" findings; whether OP is an
 * fprobe event's own ftrace_ops (its finding is the event's); the
 * "ftrace_direct" findings of a direct ops no BPF link explains (TRUE:
 * OP is one, F judged by its trampoline) */
void hk_fprobes(void);
int hk_fprobe_event_ops(const struct thf_ops *op);
int hk_direct_ops(struct hk_finding *f, struct thf_state *s,
		  const struct thf_ops *op);

#pragma GCC visibility pop

#endif
