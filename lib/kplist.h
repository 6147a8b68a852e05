/*
 * tracehunt: one line of /sys/kernel/debug/kprobes/list, as
 * report_probe() in kernel/kprobes.c prints it.  Crash-free, so the
 * formatting (and the jprobe path no reachable kernel has) is unit-tested.
 */
#ifndef TRACEHUNT_KPLIST_H
#define TRACEHUNT_KPLIST_H

#include <stddef.h>
#include <stdint.h>

/* include/linux/kprobes.h: #defines, absent from debuginfo; unchanged
 * since KPROBE_FLAG_FTRACE was added in v3.5. */
#define KPL_FLAG_GONE		1
#define KPL_FLAG_DISABLED	2
#define KPL_FLAG_OPTIMIZED	4
#define KPL_FLAG_FTRACE		8

struct kpl_probe {
	uint64_t addr;		/* p->addr */
	uint64_t pre_handler;
	unsigned int flags;	/* the probe's own flags */
	unsigned int site_flags;	/* the aggregate's (== flags if none) */
};

/* The addresses that tell the types apart (0 when the kernel lacks one). */
struct kpl_syms {
	uint64_t pre_handler_kretprobe;
	uint64_t setjmp_pre_handler;	/* jprobes (API disabled in v4.15) */
};

/* 'r' kretprobe, 'j' jprobe, else 'k' */
char kpl_type(const struct kpl_probe *p, const struct kpl_syms *s);

/*
 * Format the line into OUT.  SYM/OFF/MOD are kallsyms_lookup()'s answer
 * (SYM NULL when it found nothing; then PS is the %pS text); MOD is NULL
 * or "" for the core kernel.  Returns the length, or -1 when OUT is too
 * small.
 */
int kpl_format(const struct kpl_probe *p, char type, const char *sym,
	       unsigned long off, const char *mod, const char *ps,
	       char *out, size_t len);

#endif
