/*
 * tracehunt: "ftrace dump" of a boot-mapped ("persistent") trace array
 * whose buffer holds the PREVIOUS boot's trace (model/last_boot.c): its
 * recorded addresses are that boot's, so the symbols written with it must
 * be too.  Version 7 carries it as trace-cmd 3.4's "record"/"extract" of
 * such an instance does (tracecmd/trace-record.c): a LAST_BOOT_INFO option
 * ("NAME:" and the instance's last_boot_info) and a compressed
 * MODULES_FILE section (/proc/modules), from which libtraceevent 1.9's
 * tep_parse_last_boot_info() and tep_load_modules() take a kernel delta
 * (kallsyms' _text minus last_boot_info's [kernel]) and a delta per
 * module (its /proc/modules address minus its last_boot_info one) and add
 * them to a recorded address before looking its symbol up.  Here every
 * symbol is written at the previous boot's address instead -- moved back
 * by the delta the kernel's trace_adjust_address() applies to the
 * address that names it -- with _text and the modules' addresses moved
 * back the same way, so those deltas are 0: a reader that knows the
 * options (sid's trace-cmd 3.4) and one that does not (bookworm's 3.1.6,
 * KernelShark) name every recorded address as the live "trace" did.
 * Version 6 has no such option: it refuses the array, and "-a" leaves it
 * out with a line saying how to write it alone.
 */
#include "render/trace_dat.h"

/**
 * th_dat_lb_of - the previous boot's state of TR's buffer
 * @tr: the trace array
 *
 * Return: what th_last_boot_read() read (th_dat_lb_put() after) when the
 * buffer holds the previous boot's trace, else NULL: this boot's, not
 * boot-mapped, or which boot wrote it cannot be told (its addresses then
 * written as they are, as "ftrace trace" prints them).
 */
struct th_last_boot *th_dat_lb_of(const struct th_tr *tr)
{
	struct th_last_boot *lb = malloc(sizeof(*lb));

	if (!lb)
		return NULL;
	if (th_last_boot_read(tr->addr, lb) == TH_LB_LAST)
		return lb;
	th_last_boot_free(lb);
	free(lb);
	return NULL;
}

void th_dat_lb_put(struct th_last_boot *lb)
{
	if (!lb)
		return;
	th_last_boot_free(lb);
	free(lb);
}

/**
 * th_dat_lb_map - where a previous boot's address is in this boot
 * @lb: the array's previous boot, NULL for a buffer of this boot
 * @addr: a recorded address
 *
 * Return: trace_adjust_address() of @addr (the function tracer's
 * mapping: text_delta for the kernel, each module's delta), @addr itself
 * without @lb.
 */
ulong th_dat_lb_map(const struct th_last_boot *lb, ulong addr)
{
	return lb ? th_last_boot_adjust(lb, addr) : addr;
}

/**
 * th_dat_lb_unnamed - whether a recorded address this boot has no symbol
 * for gets a kallsyms line of its own, named by its number
 * @lb: the array's previous boot, NULL for a buffer of this boot
 * @addr: the recorded address
 *
 * The kernel prints such an address as its number (seq_print_sym() on
 * trace_adjust_address()'s result): the module that held it then is not
 * loaded now.  libtraceevent bounds a symbol only by the next one, so the
 * symbol of a module that sat below it then would claim it; a line at
 * the address itself, named as the kernel printed it (the number
 * th_dat_lb_map() gives), keeps its number.
 * Only addresses at or above the first module of the previous boot (the
 * kernel's own test in trace_adjust_address()); others, data pointers of
 * "unsigned long" fields among them, stay out.
 *
 * Return: TRUE for a module address of the previous boot.
 */
int th_dat_lb_unnamed(const struct th_last_boot *lb, ulong addr)
{
	return lb && lb->state == TH_LB_LAST && lb->nmods &&
	       addr >= lb->mods[0].addr;
}

/**
 * th_dat_lb_kallsyms_head - the first kallsyms line of a previous boot's
 * array: _text at the previous boot's address (the scratch area's), so
 * that a reader's kernel delta (its _text minus last_boot_info's) is 0
 * @b: the text
 * @lb: the array's previous boot
 */
void th_dat_lb_kallsyms_head(struct th_sb *b, const struct th_last_boot *lb)
{
	if (lb && lb->have_scratch)
		th_sb_printf(b, "%016lx T _text\n", lb->text_addr);
}

/**
 * th_dat_lb_info - last_boot_info as l_show() prints it for an array
 * holding the previous boot's trace: that boot's _text, then each module's
 * text address and name (the scratch area's order)
 * @b: the text
 * @lb: the array's previous boot
 */
void th_dat_lb_info(struct th_sb *b, const struct th_last_boot *lb)
{
	int i;

	th_sb_printf(b, "%lx\t[kernel]\n", lb->text_addr);
	for (i = 0; i < lb->nmods; i++)
		th_sb_printf(b, "%lx\t%s\n", lb->mods[i].addr,
			     lb->mods[i].name);
}

/* The previous boot's text address of module NAME (the scratch entry of
 * that name; with module deltas, the one whose delta maps it to BASE, as
 * make_mod_delta() gave it), or BASE when it had none. */
static ulong th_dat_lb_mod_then(const struct th_last_boot *lb,
				const char *name, ulong base)
{
	ulong then = base;
	int i, found = FALSE;

	for (i = 0; i < lb->nmods; i++) {
		const struct th_lb_mod *m = &lb->mods[i];

		if (strcmp(m->name, name) != 0)
			continue;
		if (lb->have_deltas && m->addr + m->delta == base)
			return m->addr;
		if (!found)
			then = m->addr;
		found = TRUE;
	}
	return then;
}

/**
 * th_dat_lb_modules - /proc/modules of this boot (m_show(): name, size,
 * use count, dependencies, state, text address), each module that the
 * previous boot had too at its address then, so that a reader's module
 * delta is 0 (the symbols being written at that boot's addresses); its
 * use count and dependencies are not reconstructed ("0 -"): trace-cmd
 * reads the name and the address only.
 * @b: the text
 * @lb: the array's previous boot
 */
void th_dat_lb_modules(struct th_sb *b, const struct th_last_boot *lb)
{
	struct th_module *mods;
	int n = th_modules(&mods), i, r;

	for (i = 0; i < n; i++) {
		const struct th_module *m = &mods[i];
		ulong size = 0, text = 0;

		if (!(m->flags & TH_MOD_LISTED))
			continue;
		for (r = 0; r < m->nregions; r++) {
			if (m->region[r].init)
				continue;
			size += m->region[r].size;
			if (!text && m->region[r].text)
				text = m->region[r].base;
		}
		if (!text)
			continue;
		th_sb_printf(b, "%s %lu 0 - Live 0x%016lx\n", m->name, size,
			     th_dat_lb_mod_then(lb, m->name, text));
	}
}

/**
 * th_dat_lb_refuse - an array the file cannot carry: a previous boot's
 * trace in a version 6 file (no option says whose addresses it holds)
 * @tr: the array
 * @version: of the file
 * @lb: its previous boot, or NULL
 *
 * Return: TRUE when refused (said in one line).
 */
int th_dat_lb_refuse(const struct th_tr *tr, int version,
		     const struct th_last_boot *lb)
{
	if (!lb || version >= 7)
		return FALSE;
	fprintf(fp, "ftrace dump: %s%s holds the previous boot's trace: a "
		"trace.dat of version 6 cannot carry that boot's addresses "
		"(version 7, the default, can)\n", tr->name[0] ? "instance " :
		"", tr->name[0] ? tr->name : "the global buffer");
	return TRUE;
}

/**
 * th_dat_lb_left_out - "-a": an array holding the previous boot's trace
 * is not one of the file's buffers (one file has one set of symbols): a
 * line says so and how to write it alone
 * @tr: the array
 * @file: the file being written
 */
void th_dat_lb_left_out(const struct th_tr *tr, const char *file)
{
	fprintf(fp, "ftrace dump: %s%s holds the previous boot's trace: left "
		"out of %s (its addresses are that boot's; write it alone: "
		"ftrace dump -t FILE -i %s)\n", tr->name[0] ? "instance " : "",
		tr->name[0] ? tr->name : "the global buffer", file,
		tr->name[0] ? tr->name : "\"\"");
}

/**
 * th_dat_lb_said - the line after a version 7 file of a previous boot's
 * trace: what it carries for that
 * @file: the file written
 * @tr: its array
 * @lb: the array's previous boot
 */
void th_dat_lb_said(const char *file, const struct th_tr *tr,
		    const struct th_last_boot *lb)
{
	fprintf(fp, "ftrace dump: %s: %s%s holds the previous boot's trace: "
		"kallsyms at that boot's addresses (kernel %c%#lx, each module "
		"by its delta)%s\n", file, tr->name[0] ? "instance " : "",
		tr->name[0] ? tr->name : "the global buffer",
		lb->text_delta < 0 ? '-' : '+', lb->text_delta < 0 ?
		-(ulong)lb->text_delta : (ulong)lb->text_delta,
		lb->have_scratch ? ", its last_boot_info (LAST_BOOT_INFO) and "
		"modules (MODULES_FILE)" : "; its last_boot_info cannot be "
		"read: no LAST_BOOT_INFO");
}
