/*
 * tracehunt: plausibility of what the dump says (issue 27).
 *
 * Every check that finds a kernel object implausible (a pointer outside the
 * region its type lives in, a count larger than its structure can hold, a
 * cross-check the kernel keeps that fails) reports it through th_damaged():
 * one "tracehunt: warning: <object> at <addr>: <what failed>" line, printed
 * once per command, and a per-command record that damage was seen, so the
 * reports and the audit can say a finding rests on damaged data.  th_warn()
 * (a walk that broke) goes the same way.
 *
 * Also the read log of the damaged-dump campaign (scripts/damage-matrix.py
 * --campaign): with TRACEHUNT_READLOG=FILE every successful th_read() is
 * logged as "ADDR LEN WHAT", each command's reads after a "# LINE" line.
 */
#include <stdarg.h>
#include "model/model.h"
#include "model/handoff.h"

/* ---- regions of the kernel address space --------------------------- */

/* The direct map's end: high_memory when crash knows it, else the largest
 * physical address crash can translate. */
static ulong th_direct_end(void)
{
	if (vt->high_memory > PAGE_OFFSET)
		return vt->high_memory;
	return PAGE_OFFSET + ((ulonglong)vt->max_mapnr << PAGESHIFT());
}

int th_region(ulong addr)
{
	if (!th_kptr(addr))
		return TH_R_NONE;
	if (addr >= __START_KERNEL_map && addr < MODULES_VADDR)
		return is_kernel_text(addr) ? TH_R_TEXT : TH_R_IMAGE;
	if (addr >= MODULES_VADDR && addr <= MODULES_END)
		return TH_R_MODULE;
	if (addr >= PAGE_OFFSET && addr < th_direct_end())
		return TH_R_DIRECT;
	if (VMALLOC_START && addr >= VMALLOC_START && addr <= VMALLOC_END)
		return TH_R_VMALLOC;
	if (VMEMMAP_VADDR && addr >= VMEMMAP_VADDR && addr <= VMEMMAP_END)
		return TH_R_VMEMMAP;
	return TH_R_NONE;
}

const char *th_region_name(int r)
{
	switch (r) {
	case TH_R_TEXT:
		return "kernel text";
	case TH_R_IMAGE:
		return "the kernel image";
	case TH_R_MODULE:
		return "module space";
	case TH_R_DIRECT:
		return "the direct map";
	case TH_R_VMALLOC:
		return "vmalloc space";
	case TH_R_VMEMMAP:
		return "the struct page array";
	}
	return "no kernel region";
}

int th_ptr_in(ulong addr, unsigned mask)
{
	return (mask & (1U << th_region(addr))) != 0;
}

int th_check_ptr(const char *object, ulong where, ulong ptr, unsigned mask,
		 const char *field)
{
	if (th_ptr_in(ptr, mask))
		return TRUE;
	th_damaged(object, where, "%s %lx points into %s", field, ptr,
		   th_region_name(th_region(ptr)));
	return FALSE;
}

int th_code_addr(ulong addr)
{
	struct th_module *m;
	int r;

	switch (th_region(addr)) {
	case TH_R_TEXT:
		return TRUE;
	case TH_R_MODULE:
		/* module text; trampolines and BPF belong to no module */
		if (!(m = th_module_of(addr)))
			return TRUE;
		for (r = 0; r < m->nregions; r++)
			if (addr >= m->region[r].base &&
			    addr - m->region[r].base < m->region[r].size)
				return m->region[r].text;
		return TRUE;
	}
	return FALSE;
}

int th_check_code(const char *object, ulong where, ulong ptr,
		  const char *field)
{
	if (th_code_addr(ptr))
		return TRUE;
	th_damaged(object, where, "%s %lx is not code (%s%s)", field, ptr,
		   th_region(ptr) == TH_R_MODULE ? "module data in " : "",
		   th_region_name(th_region(ptr)));
	return FALSE;
}

/*
 * A function pointer (a handler, a probe, an ops' func) holds the address
 * the compiler gave the function: its symbol's start, where the endbr64 of
 * an IBT kernel is too.  Inside a symbol it is no function pointer the
 * kernel stored; with no symbol (a BPF program crash cannot name, an
 * ftrace trampoline) there is nothing to compare.
 */
int th_check_func(const char *object, ulong where, ulong ptr,
		  const char *field)
{
	struct th_sym s;

	if (!th_check_code(object, where, ptr, field))
		return FALSE;
	if (!th_ksym_lookup(ptr, &s) || !s.offset)
		return TRUE;
	th_damaged(object, where, "%s %lx is inside %s+%#lx%s%s%s, not at a "
		   "function's start", field, ptr, s.name, s.offset,
		   s.module[0] ? " [" : "", s.module, s.module[0] ? "]" : "");
	return FALSE;
}

int th_check_count(const char *object, ulong where, unsigned long val,
		   unsigned long max, const char *field)
{
	if (val <= max)
		return TRUE;
	th_damaged(object, where, "%s %lu exceeds %lu", field, val, max);
	return FALSE;
}

/*
 * th_events_max - the most events of one kind the machine can have
 * counted since boot: one per 10 ns per CPU (a probe hit, even a missed
 * one, costs more), 0 when the uptime is unknown
 */
static unsigned long th_events_max(void)
{
	static unsigned long max = (unsigned long)-1;
	ulong j64 = 0, initial;

	if (max != (unsigned long)-1)
		return max;
	max = 0;
	if (machdep->hz <= 0 || !th_read_ulong(th_symbol("jiffies_64"), &j64,
						"jiffies_64"))
		return max;
	/* INITIAL_JIFFIES: jiffies start five minutes before wrapping */
	initial = (ulong)(unsigned int)(-300 * machdep->hz);
	if (j64 >= initial)
		max = ((j64 - initial) / machdep->hz + 1) *
			(unsigned long)MAX(kt->cpus, 1) * 100000000UL;
	return max;
}

int th_check_events(const char *object, ulong where, unsigned long val,
		    const char *field)
{
	unsigned long max = th_events_max();

	if (!max || val <= max)
		return TRUE;
	th_damaged(object, where, "%s %lu: more than %lu CPUs could count "
		   "since boot", field, val, (unsigned long)kt->cpus);
	return FALSE;
}

int th_printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			if (*s != '\t' && *s != '\n')
				return FALSE;
	return TRUE;
}

/* ---- the warnings: once per command --------------------------------- */

#define TH_DMG_SEEN 64
static ulong th_dmg_cmd = (ulong)-1;	/* pc->cmdgencur of the records */
static unsigned th_dmg_hash[TH_DMG_SEEN];
static int th_dmg_nhash;
static long th_dmg_count;		/* this command's failed checks */
static long th_dmg_serial;		/* every failed check, ever */

/* tags replayed in this command already (the hot lookups replay often) */
#define TH_DMG_REPLAYED 16
static const char *th_replayed[TH_DMG_REPLAYED];
static int th_nreplayed;

static void th_dmg_newcmd(void)
{
	if (th_dmg_cmd == pc->cmdgencur)
		return;
	th_dmg_cmd = pc->cmdgencur;
	th_dmg_nhash = 0;
	th_dmg_count = 0;
	th_nreplayed = 0;
}

static unsigned th_dmg_fnv(const char *s)
{
	unsigned h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* Warnings of readers whose result is cached for the session: replayed
 * in every later command that uses it (th_damage_replay()). */
#define TH_DMG_KEPT 64
static struct {
	const char *tag;
	char line[256];
} th_kept[TH_DMG_KEPT];
static int th_nkept;
static const char *th_dmg_tag;

const char *th_damage_tag(const char *tag)
{
	const char *old = th_dmg_tag;

	th_dmg_tag = tag;
	return old;
}

static void th_dmg_emit(const char *line);
/* Where the warnings go instead of fp (th_warn_to(): a -j document). */
static void (*th_warn_fn)(const char *msg, void *arg);
static void *th_warn_arg;

void th_damage_replay(const char *tag)
{
	const char *old = th_dmg_tag;
	int i;

	if (!th_nkept)
		return;
	th_dmg_newcmd();
	for (i = 0; i < th_nreplayed; i++)
		if (th_replayed[i] == tag || strcmp(th_replayed[i], tag) == 0)
			return;
	if (th_nreplayed < TH_DMG_REPLAYED)
		th_replayed[th_nreplayed++] = tag;
	th_dmg_tag = NULL;
	for (i = 0; i < th_nkept; i++)
		if (strcmp(th_kept[i].tag, tag) == 0)
			th_dmg_emit(th_kept[i].line);
	th_dmg_tag = old;
}

void th_damage_forget(const char *tag)
{
	int i, j;

	for (i = j = 0; i < th_nkept; i++)
		if (strcmp(th_kept[i].tag, tag) != 0)
			th_kept[j++] = th_kept[i];
	th_nkept = j;
}

int th_damage_kept(const char *tag)
{
	int i;

	for (i = 0; i < th_nkept; i++)
		if (strcmp(th_kept[i].tag, tag) == 0)
			return TRUE;
	return FALSE;
}

static void th_dmg_keep(const char *line)
{
	int i;

	for (i = 0; i < th_nkept; i++)
		if (strcmp(th_kept[i].tag, th_dmg_tag) == 0 &&
		    strcmp(th_kept[i].line, line) == 0)
			return;
	if (th_nkept < TH_DMG_KEPT) {
		th_kept[th_nkept].tag = th_dmg_tag;
		th_strlcpy(th_kept[th_nkept++].line, line,
			   sizeof(th_kept[0].line));
	}
}

static void th_dmg_emit_served(void *line)
{
	th_dmg_emit(line);
}

/* Print LINE as a warning unless this command printed it already: on
 * crash's thread, after the lines a helper thread was given before it
 * (where the lines of one thread would have it). */
static void th_dmg_emit(const char *line)
{
	unsigned h = th_dmg_fnv(line);
	int i;

	if (th_on_helper()) {
		th_handoff_call(th_dmg_emit_served, (void *)line);
		return;
	}
	th_handoff_quiesce();

	if (th_dmg_tag)
		th_dmg_keep(line);
	th_dmg_newcmd();
	th_dmg_count++;
	th_dmg_serial++;
	/* (th_dmg_nhash is TH_DMG_SEEN + 1 once "more damage" is said) */
	for (i = 0; i < th_dmg_nhash && i < TH_DMG_SEEN; i++)
		if (th_dmg_hash[i] == h)
			return;
	if (th_dmg_nhash < TH_DMG_SEEN)
		th_dmg_hash[th_dmg_nhash++] = h;
	else if (th_dmg_nhash == TH_DMG_SEEN) {
		char more[96];

		th_dmg_nhash++;
		snprintf(more, sizeof(more), "more damage; only the first %d "
			 "warnings are printed", TH_DMG_SEEN);
		if (th_warn_fn)
			th_warn_fn(more, th_warn_arg);
		else
			fprintf(fp, TH_WARN_PREFIX "%s\n", more);
		return;
	} else
		return;
	if (th_warn_fn) {
		th_warn_fn(line, th_warn_arg);
		return;
	}
	fprintf(fp, TH_WARN_PREFIX "%s\n", line);
}

void th_warn_to(void (*fn)(const char *msg, void *arg), void *arg)
{
	th_warn_fn = fn;
	th_warn_arg = arg;
}

void th_warn(const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	th_dmg_emit(line);
}

void th_damaged(const char *object, ulong addr, const char *fmt, ...)
{
	char what[400], line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(line, sizeof(line), "%s at %lx: %s", object, addr, what);
	th_dmg_emit(line);
}

long th_damage_seen(void)
{
	th_dmg_newcmd();
	return th_dmg_count;
}

long th_damage_serial(void)
{
	return th_dmg_serial;
}

/* ---- the read log of the campaign ----------------------------------- */

static FILE *th_rlog;
static int th_rlog_state;		/* 0 unknown, 1 on, -1 off */
static ulong th_rlog_cmd = (ulong)-1;

void th_readlog(ulong addr, long len, const char *what)
{
	if (!th_rlog_state) {
		const char *p = getenv("TRACEHUNT_READLOG");

		th_rlog = p && *p ? fopen(p, "a") : NULL;
		th_rlog_state = th_rlog ? 1 : -1;
	}
	if (th_rlog_state < 0)
		return;
	if (th_rlog_cmd != pc->cmdgencur) {
		th_rlog_cmd = pc->cmdgencur;
		fflush(th_rlog);
		fprintf(th_rlog, "# %s\n", pc->orig_line);
	}
	fprintf(th_rlog, "%lx %ld %s\n", addr, len, what ? what : "?");
}
