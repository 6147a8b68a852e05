/*
 * tracehunt: text integrity of the core kernel (textcheck.c), for "hooks".
 *
 * Each core-kernel function's entry, up to the end of its ftrace site, is
 * compared with the vmlinux crash was started with; every difference the
 * kernel's own patching tables explain (ftrace, alternatives, paravirt,
 * retpolines, return thunks, jump labels, static calls, IBT sealing, SMP
 * locks) or a registered kprobe explains is counted, the rest reported.
 */
#ifndef TRACEHUNT_TEXTCHECK_H
#define TRACEHUNT_TEXTCHECK_H

#include "model/model.h"

struct th_text_finding {
	ulong addr;		/* first differing byte */
	ulong func;		/* function start */
	char func_name[128];	/* as the kernel names it: th_ksym_ps() */
	int len;		/* bytes shown (from FUNC) */
	unsigned char disk[16], mem[16];
	char decoded_disk[96], decoded_mem[96];	/* lib/insn.h */
	char why[160];		/* one line */
};

/* What explained a difference (th_text_kind_name() names them). */
enum th_text_kind {
	TH_TX_FTRACE, TH_TX_KPROBE, TH_TX_OPTPROBE, TH_TX_ALTERNATIVE,
	TH_TX_PARAVIRT, TH_TX_RETPOLINE, TH_TX_RETURN_THUNK, TH_TX_JUMP_LABEL,
	TH_TX_STATIC_CALL, TH_TX_STATIC_CALL_TRAMP, TH_TX_IBT, TH_TX_SMP_LOCK,
	TH_TX_RUNTIME_CONST, TH_TX_KASLR_RELOC, TH_TX_NKINDS
};

struct th_text_stats {
	long functions;		/* distinct core function addresses */
	long compared;		/* ... whose entry was read from the dump */
	long differing;		/* ... that differ from the file */
	long explained_ftrace, explained_kprobe, explained_other;
	long unexplained, unreadable;
	/* per kind, by the first difference of each explained function */
	long explained_kind[TH_TX_NKINDS];
	long sites[TH_TX_NKINDS];	/* table entries inside core .text */
};

typedef void (*th_text_cb)(const struct th_text_finding *f, void *arg);

/*
 * Compare each core-kernel function's entry bytes up to the end of its
 * ftrace site (function+0, or +4 after endbr64, and 5 bytes; for functions
 * without a dyn_ftrace record, the first 5 bytes) in the dump with the
 * vmlinux crash was started with (pc->namelist, and pc->namelist_debug
 * for the symbols of a separate debuginfo file), explaining every
 * legitimate rewrite.  CB gets every UNEXPLAINED difference, one per
 * function.  Returns 0, or -1 after printing one clear line when the
 * vmlinux can't be read.
 */
int th_text_check(th_text_cb cb, void *arg, struct th_text_stats *st);
const char *th_text_kind_name(int kind);

#endif
