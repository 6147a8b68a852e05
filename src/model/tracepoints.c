/*
 * tracehunt: the model's one reader of struct tracepoint: the
 * __tracepoints_ptrs section of the kernel and of every module, and the
 * probe functions on each tracepoint's funcs array.
 */
#include "model/tracepoints.h"

/* Offsets, -1 when absent; filled once. */
static struct {
	int filled;
	long name, funcs, func_size, func, data;
	/*
	 * tracepoint_ptr_t is an int offset from its own slot with
	 * CONFIG_HAVE_ARCH_PREL32_RELOCATIONS since Linux kernel commit
	 * "kernel: tracepoints: add support for relative references"
	 * (in v4.19), a pointer before and on other configurations: the
	 * typedef's size tells which; -1 until known.
	 */
	int prel32;
} tp_off = { .prel32 = -1 };

static void tp_off_fill(void)
{
	if (tp_off.filled)
		return;
	tp_off.filled = 1;
	tp_off.name = th_member("tracepoint", "name");
	tp_off.funcs = th_member("tracepoint", "funcs");
	tp_off.func_size = th_size("tracepoint_func");
	tp_off.func = th_member("tracepoint_func", "func");
	tp_off.data = th_member("tracepoint_func", "data");
}

static ulong tp_deref(ulong slot)
{
	if (tp_off.prel32) {
		int off;

		if (!th_read_int(slot, &off, "tracepoint_ptr_t"))
			return 0;
		return slot + (long)off;
	} else {
		ulong p;

		if (!th_read_ulong(slot, &p, "tracepoint_ptr_t"))
			return 0;
		return p;
	}
}

/* DEFINE_TRACE(name) defines __tracepoint_<name>: in the kernel image,
 * the vmlinux's symbol at TP names it (the name string is in the dump) */
static void tp_name_check(ulong tp, const char *name)
{
	char sym[160];

	snprintf(sym, sizeof(sym), "__tracepoint_%s", name);
	if (th_ksymbol(sym) != tp)
		th_damaged("tracepoint", tp, "named \"%s\", but %s is not "
			   "here", name, sym);
}

/* Unused tracepoints (funcs NULL) whose name is no pointer: counted per
 * tracepoint range, one warning for the range. */
static struct {
	long n;
	ulong first;
} tp_noname;

static void tp_probes(ulong tp, th_tp_probe_fn cb, void *arg)
{
	ulong funcs, fn, np;
	char name[128];
	int i;

	if (tp_off.name < 0 || tp_off.funcs < 0 || tp_off.func_size <= 0 ||
	    tp_off.func < 0)
		return;
	if (!th_read_ulong(tp + tp_off.funcs, &funcs, "tracepoint.funcs"))
		return;
	if (!funcs) {
		/* no probe: only its name can say it is a tracepoint at all
		 * (a zeroed one would just look unused) */
		if (th_tracepoint_name_ptr(tp, &np) && !th_kptr(np) &&
		    !tp_noname.n++)
			tp_noname.first = tp;
		return;
	}
	name[0] = '\0';
	/* DEFINE_TRACE() names every tracepoint with a string constant */
	if (th_tracepoint_name_ptr(tp, &np) &&
	    (!np || !th_read_cstr(np, name, sizeof(name), "tracepoint name") ||
	     !name[0] || !th_printable(name)))
		th_damaged("tracepoint", tp, "name %lx is unreadable", np);
	else if (th_region(tp) == TH_R_IMAGE)
		tp_name_check(tp, name);
	/* allocate_probes() kmallocs the array */
	if (!th_check_ptr("tracepoint", tp, funcs, TH_M(TH_R_DIRECT), "funcs"))
		return;
	for (i = 0; i < 1024; i++) {
		if (!th_read_ulong(funcs + i * tp_off.func_size + tp_off.func,
				   &fn, "tracepoint_func.func") || !fn)
			break;
		/* a probe is a function (tracepoint_probe_register()) */
		th_check_func("tracepoint_func", funcs + i * tp_off.func_size,
			      fn, "func");
		cb(tp, name, fn, arg);
	}
	/* func_remove() of the last probe leaves funcs NULL, never an
	 * empty array */
	if (i == 0)
		th_damaged("tracepoint", tp, "funcs %lx holds no probe", funcs);
}

static void tp_range(ulong start, ulong stop, th_tp_probe_fn cb, void *arg)
{
	ulong a, step = tp_off.prel32 ? 4 : 8;

	if (!start || stop <= start || (stop - start) / step > 100000)
		return;
	memset(&tp_noname, 0, sizeof(tp_noname));
	for (a = start; a < stop; a += step) {
		ulong tp = tp_deref(a);

		if (th_kptr(tp))
			tp_probes(tp, cb, arg);
	}
	if (tp_noname.n)
		th_damaged("tracepoint", tp_noname.first, "name is not a "
			   "kernel address (so for %ld of the %lu tracepoints "
			   "listed at %lx)", tp_noname.n,
			   (stop - start) / step, start);
}

/**
 * th_tracepoint_name_ptr - tracepoint.name, the pointer
 * @tp: struct tracepoint
 * @name: the address of the name (0 when unreadable)
 *
 * Returns FALSE when unreadable.
 */
int th_tracepoint_name_ptr(ulong tp, ulong *name)
{
	tp_off_fill();
	*name = 0;
	return tp_off.name >= 0 &&
		th_read_ulong(tp + tp_off.name, name, "tracepoint.name");
}

/**
 * th_tracepoint_probes - every probe attached to a tracepoint
 * @cb: called for each (tracepoint, probe function)
 * @arg: passed to @cb
 *
 * The core kernel's tracepoints first, then each module's (listed or
 * only on the module tree).
 */
void th_tracepoint_probes(th_tp_probe_fn cb, void *arg)
{
	ulong start = th_symbol("__start___tracepoints_ptrs");
	ulong stop = th_symbol("__stop___tracepoints_ptrs");
	struct th_module *mods;
	int n, i;

	if (!start || !stop)
		return;
	tp_off_fill();
	if (tp_off.prel32 < 0) {
		long sz = th_size("tracepoint_ptr_t");
		ulong p;

		if (sz > 0)
			tp_off.prel32 = (sz == 4);
		else	/* a typedef crash cannot size: look at the data */
			tp_off.prel32 = !(th_read_ulong(start, &p, "tp ptr") &&
					  th_kptr(p));
	}
	tp_range(start, stop, cb, arg);
	if (!th_module_has_tracepoints())
		return;
	n = th_modules(&mods);
	for (i = 0; i < n; i++) {
		ulong ptrs;
		unsigned int num;

		if (!th_module_tracepoints(mods[i].addr, &ptrs, &num) || !ptrs)
			continue;
		tp_range(ptrs, ptrs + num * (tp_off.prel32 ? 4UL : 8UL), cb,
			 arg);
	}
}

/**
 * th_tracepoint_probe_on - whether the kernel's tracepoint NAME has the
 * probe (FUNC, DATA) registered
 * @name: the tracepoint (its __tracepoint_ symbol in the image)
 * @func: the probe function
 * @data: its data
 *
 * Returns 1 or 0, -1 when unknown (no such tracepoint, unreadable).
 */
int th_tracepoint_probe_on(const char *name, ulong func, ulong data)
{
	char sym[160];
	ulong tp, funcs, fn, d;
	int i;

	tp_off_fill();
	snprintf(sym, sizeof(sym), "__tracepoint_%s", name);
	if (tp_off.funcs < 0 || tp_off.func_size <= 0 || tp_off.func < 0 ||
	    tp_off.data < 0 || !(tp = th_ksymbol(sym)) ||
	    !th_read_ulong(tp + tp_off.funcs, &funcs, "tracepoint.funcs"))
		return -1;
	if (!funcs)
		return 0;
	if (!th_ptr_in(funcs, TH_M(TH_R_DIRECT)))
		return -1;
	for (i = 0; i < 1024; i++) {
		ulong f = funcs + i * tp_off.func_size;

		if (!th_read_ulong(f + tp_off.func, &fn,
				   "tracepoint_func.func"))
			return -1;
		if (!fn)
			return 0;
		if (fn == func && th_read_ulong(f + tp_off.data, &d,
						"tracepoint_func.data") &&
		    d == data)
			return 1;
	}
	return -1;
}
