/*
 * tracehunt: what a boot-mapped ("persistent") trace array knows of the
 * boot that wrote its buffer (reserve_mem= and trace_instance=NAME@RESERVE,
 * Documentation/trace/debugging.rst).  The kernel keeps, in a scratch area
 * at the head of the reserved memory (struct trace_scratch), the writing
 * boot's _text and the text address and name of each of its modules
 * (struct trace_mod_entry, sorted by address by setup_trace_scratch());
 * the boot that finds the buffer valid sets TRACE_ARRAY_FL_LAST_BOOT,
 * text_delta (its _text minus the old one) and module_delta (for each
 * entry, how far a module of that name loads from where it was:
 * make_mod_delta(); 0 while none has).  trace_adjust_address() maps an
 * old address with them; th_last_boot_adjust() does the same.
 *
 * struct trace_scratch and trace_mod_entry: Linux kernel commit
 * b65334825fb1 ("tracing: Have persistent trace instances save KASLR
 * offset") and Linux kernel commit fd39e48fe8ed ("tracing: Have
 * persistent trace instances save module addresses") (in v6.15); struct
 * trace_module_delta: Linux kernel commit 35a380ddbc65 ("tracing: Show
 * last module text symbols in the stacktrace") (in v6.15).  The only file
 * that reads them (struct trace_array's members: tracearray.c's offsets).
 */
#include "model/model.h"
#include "model/tracearray.h"
#include "model/last_boot.h"

/* at most this many module entries (the kernel's scratch holds 128) */
#define TH_LB_MAX_MODS	4096

static struct {
	int read;
	long sc_text_addr, sc_nr_entries, sc_entries;
	long me_size, me_mod_addr, me_mod_name, me_name_size;
	long md_delta;
	long fl_last_boot;
	long flags_size;
	/* the kernel's sections (__is_kernel(), is_kernel_core_data(),
	 * is_kernel_rodata()) */
	ulong stext, end, init_begin, init_end, sdata, edata, bss_start,
	      bss_stop, start_rodata, end_rodata;
} lbo;

static void th_lb_off(void)
{
	if (lbo.read)
		return;
	lbo.read = TRUE;
	lbo.sc_text_addr = th_member("trace_scratch", "text_addr");
	lbo.sc_nr_entries = th_member("trace_scratch", "nr_entries");
	lbo.sc_entries = th_member("trace_scratch", "entries");
	lbo.me_size = th_size("trace_mod_entry");
	lbo.me_mod_addr = th_member("trace_mod_entry", "mod_addr");
	lbo.me_mod_name = th_member("trace_mod_entry", "mod_name");
	lbo.me_name_size = th_member_size("trace_mod_entry", "mod_name");
	lbo.md_delta = th_member("trace_module_delta", "delta");
	lbo.fl_last_boot = th_enum("TRACE_ARRAY_FL_LAST_BOOT", -1);
	lbo.flags_size = th_tr_off()->flags >= 0 ?
		th_tr_off()->flags_size : -1;
	lbo.stext = th_symbol("_stext");
	lbo.end = th_symbol("_end");
	lbo.init_begin = th_symbol("__init_begin");
	lbo.init_end = th_symbol("__init_end");
	lbo.sdata = th_symbol("_sdata");
	lbo.edata = th_symbol("_edata");
	lbo.bss_start = th_symbol("__bss_start");
	lbo.bss_stop = th_symbol("__bss_stop");
	lbo.start_rodata = th_symbol("__start_rodata");
	lbo.end_rodata = th_symbol("__end_rodata");
}

static int th_lb_in(ulong a, ulong lo, ulong hi)
{
	return lo && hi && a >= lo && a < hi;
}

/* __is_kernel(A) || is_kernel_core_data(A) || is_kernel_rodata(A) */
static int th_lb_kernel_addr(ulong a)
{
	return th_lb_in(a, lbo.stext, lbo.end) ||
	       th_lb_in(a, lbo.init_begin, lbo.init_end) ||
	       th_lb_in(a, lbo.sdata, lbo.edata) ||
	       th_lb_in(a, lbo.bss_start, lbo.bss_stop) ||
	       th_lb_in(a, lbo.start_rodata, lbo.end_rodata);
}

static void th_lb_why(struct th_last_boot *lb, const char *what)
{
	if (!lb->why[0])
		snprintf(lb->why, sizeof(lb->why), "%s", what);
}

/* The scratch area at SC (SIZE bytes): the old _text and modules. */
static void th_lb_scratch(ulong tr, ulong sc, int size,
			  struct th_last_boot *lb)
{
	ulong n = 0, e;
	long i, cap;

	if (lbo.sc_text_addr < 0 || lbo.sc_nr_entries < 0 ||
	    lbo.sc_entries < 0 || lbo.me_size <= 0 || lbo.me_mod_addr < 0 ||
	    lbo.me_mod_name < 0 || lbo.me_name_size <= 0) {
		th_lb_why(lb, "no struct trace_scratch in the debuginfo");
		return;
	}
	if (!th_read_ulong(sc + lbo.sc_text_addr, &lb->text_addr,
			   "trace_scratch.text_addr") ||
	    !th_read_ulong(sc + lbo.sc_nr_entries, &n,
			   "trace_scratch.nr_entries")) {
		th_lb_why(lb, "its scratch area cannot be read");
		return;
	}
	/* setup_trace_scratch() clears a scratch whose entries overflow it */
	cap = size > lbo.sc_entries ? (size - lbo.sc_entries) / lbo.me_size : 0;
	if ((long)n > cap || n > TH_LB_MAX_MODS) {
		th_damaged("trace_scratch", sc, "nr_entries %lu: room for %ld "
			   "(trace_array %lx)", n, cap, tr);
		n = MIN((long)n, MIN(cap, TH_LB_MAX_MODS));
	}
	lb->mods = calloc(n ? n : 1, sizeof(*lb->mods));
	if (!lb->mods)
		return;
	lb->have_scratch = TRUE;
	for (i = 0; i < (long)n; i++) {
		struct th_lb_mod *m = &lb->mods[i];

		e = sc + lbo.sc_entries + i * lbo.me_size;
		if (!th_read_ulong(e + lbo.me_mod_addr, &m->addr,
				   "trace_mod_entry.mod_addr") ||
		    !th_read_cstr(e + lbo.me_mod_name, m->name,
				  MIN(lbo.me_name_size + 1,
				      (long)sizeof(m->name)),
				  "trace_mod_entry.mod_name")) {
			th_lb_why(lb, "a module entry of its scratch area "
				  "cannot be read");
			break;
		}
	}
	lb->nmods = i;
}

/* module_delta->delta[] of the NMODS entries */
static void th_lb_deltas(ulong tr, struct th_last_boot *lb)
{
	const struct th_tr_off *o = th_tr_off();
	ulong md = 0, v;
	int i;

	if (o->module_delta < 0 || lbo.md_delta < 0 ||
	    !th_read_ulong(tr + o->module_delta, &md,
			   "trace_array.module_delta") || !md)
		return;
	for (i = 0; i < lb->nmods; i++) {
		if (!th_read_ulong(md + lbo.md_delta + i * sizeof(long), &v,
				   "trace_module_delta.delta")) {
			th_lb_why(lb, "its module deltas cannot be read");
			return;
		}
		lb->mods[i].delta = (long)v;
	}
	lb->have_deltas = TRUE;
}

/**
 * th_last_boot_read - which boot the buffer of a trace array holds
 * @tr: the struct trace_array
 * @lb: filled; th_last_boot_free() after
 *
 * Return: @lb->state.
 */
enum th_lb_state th_last_boot_read(ulong tr, struct th_last_boot *lb)
{
	const struct th_tr_off *o = th_tr_off();
	ulong flags = 0, sc = 0, delta = 0;
	unsigned int f32;
	int size = 0;

	memset(lb, 0, sizeof(*lb));
	if (o->range_addr_start < 0)
		return lb->state = TH_LB_NO_FEATURE;
	if (!th_read_ulong(tr + o->range_addr_start, &lb->range_start,
			   "trace_array.range_addr_start")) {
		th_lb_why(lb, "its range_addr_start cannot be read");
		return lb->state = TH_LB_UNKNOWN;
	}
	if (!lb->range_start)
		return lb->state = TH_LB_NOT_MAPPED;
	/* (the types asked for only now: a name the debuginfo lacks costs
	 * gdb a scan: docs/HACKING.md, Testing) */
	th_lb_off();
	lb->scratch_layout = o->scratch >= 0 && o->scratch_size >= 0 &&
		lbo.sc_entries >= 0;
	if (lbo.fl_last_boot <= 0 || o->flags < 0 ||
	    (lbo.flags_size != 4 && lbo.flags_size != 8)) {
		th_lb_why(lb, "this kernel has no TRACE_ARRAY_FL_LAST_BOOT");
		return lb->state = TH_LB_UNKNOWN;
	}
	if (lbo.flags_size == 4 ? !th_read_uint(tr + o->flags, &f32,
						"trace_array.flags") :
	    !th_read_ulong(tr + o->flags, &flags, "trace_array.flags")) {
		th_lb_why(lb, "its flags cannot be read");
		return lb->state = TH_LB_UNKNOWN;
	}
	if (lbo.flags_size == 4)
		flags = f32;
	if (!(flags & lbo.fl_last_boot))
		return lb->state = TH_LB_CURRENT;
	lb->state = TH_LB_LAST;
	if (o->text_delta >= 0 &&
	    th_read_ulong(tr + o->text_delta, &delta, "trace_array.text_delta"))
		lb->text_delta = (long)delta;
	if (o->scratch >= 0 && o->scratch_size >= 0 &&
	    th_read_ulong(tr + o->scratch, &sc, "trace_array.scratch") && sc &&
	    th_read_int(tr + o->scratch_size, &size,
			"trace_array.scratch_size"))
		th_lb_scratch(tr, sc, size, lb);
	if (lb->have_scratch)
		th_lb_deltas(tr, lb);
	return lb->state;
}

void th_last_boot_free(struct th_last_boot *lb)
{
	free(lb->mods);
	lb->mods = NULL;
	lb->nmods = 0;
}

/* cmp_mod_entry() of ADDR and the entries I and I + 1 */
static int th_lb_cmp(const struct th_last_boot *lb, ulong addr, int i)
{
	if (addr < lb->mods[i].addr)
		return -1;
	return addr >= lb->mods[i + 1].addr;
}

/**
 * th_last_boot_adjust - trace_adjust_address(): where an address the
 * previous boot recorded is in this boot
 * @lb: the array's th_last_boot_read()
 * @addr: the address in the buffer
 *
 * An address below the first module's: moved by text_delta when it then
 * falls in the kernel's image, else kept.  A module's: moved by that
 * module's delta, the module found by the kernel's binary search over
 * all entries but the last (__inline_bsearch() with cmp_mod_entry()),
 * whose quirks are kept: an address at or above the last module's is
 * the last's only when above it, one not found takes entry 0's delta.
 */
ulong th_last_boot_adjust(const struct th_last_boot *lb, ulong addr)
{
	ulong raddr;
	int n = lb->nmods, lo = 0, num, piv, idx = 0, r;

	if (lb->state != TH_LB_LAST)
		return addr;
	if (!lb->have_deltas || !n || lb->mods[0].addr > addr) {
		raddr = addr + lb->text_delta;
		return th_lb_kernel_addr(raddr) ? raddr : addr;
	}
	if (n == 1 || lb->mods[n - 1].addr < addr) {
		idx = n - 1;
	} else {
		for (num = n - 1; num > 0; num >>= 1) {
			piv = lo + (num >> 1);
			r = th_lb_cmp(lb, addr, piv);
			if (r == 0) {
				idx = piv;
				break;
			}
			if (r > 0) {
				lo = piv + 1;
				num--;
			}
		}
	}
	return addr + lb->mods[idx].delta;
}
