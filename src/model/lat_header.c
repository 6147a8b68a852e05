/*
 * tracehunt: print_trace_header()'s inputs.  The only file that reads
 * array_buffer.cpu, trace_array_cpu's max-latency fields and the
 * preemption model.
 *
 * The model printed, by kernel:
 * - CONFIG_PREEMPT_* at build time until the accessors of Linux kernel
 *   commit cfe43f478b79 ("preempt/dynamic: Introduce preemption model
 *   accessors") (in v5.19): "server", "desktop", "preempt",
 *   "preempt_rt"; with PREEMPT_DYNAMIC the mode is preempt_dynamic_mode
 *   (none, voluntary, full: the same three words);
 * - preempt_model_str() since Linux kernel commit 8bdc5daaa01e ("sched:
 *   Add a generic function to return the preemption string") (in v6.15):
 *   "PREEMPT(" preempt_modes[preempt_dynamic_mode] ")" with
 *   PREEMPT_DYNAMIC; on PREEMPT_RT (UTS_VERSION says "PREEMPT_RT") with
 *   PREEMPT_DYNAMIC "PREEMPT_{RT,(" mode ")}" ("undef" for a mode < 0).
 * Without PREEMPT_DYNAMIC the model is the build's: PREEMPT is in
 * UTS_VERSION, and NONE and VOLUNTARY differ only in the code might_sleep()
 * compiles to (th_lat_voluntary()).  A model none of that decides
 * (PREEMPT_RT without PREEMPT_DYNAMIC: LAZY or not) leaves model_ok FALSE.
 */
#include "model/lat_header.h"
#include "model/trace_rb.h"
#include "insn.h"

/*
 * Whether FUNC (a core kernel function) calls COND: 1 yes, 0 no, -1 when
 * its code cannot be read or walked (too long for the buffer, an int3 of
 * a kprobe in it, an undecodable byte).
 */
static int th_lat_calls(const char *func, ulong cond)
{
	unsigned char b[512];
	ulong a = th_ksymbol(func);
	struct th_sym s;
	struct insn in;
	ulong o;

	if (!a || !th_ksym_lookup(a, &s) || s.addr != a || !s.size ||
	    s.module[0] || s.size > sizeof(b) ||
	    !th_read(a, b, s.size, "text"))
		return -1;
	for (o = 0; o < s.size; o += in.len) {
		if (!insn_decode(b + o, s.size - o, a + o, &in) ||
		    in.kind == INSN_INT3)
			return -1;
		if (in.kind == INSN_CALL && in.target == cond)
			return 1;
	}
	return 0;
}

/*
 * The build's NONE ("server") or VOLUNTARY ("desktop") model, from code:
 * include/linux/kernel.h defines might_resched() as a call of
 * _cond_resched() under CONFIG_PREEMPT_VOLUNTARY and as nothing under
 * CONFIG_PREEMPT_NONE (PREEMPT_DYNAMIC, which makes it a static call, is
 * decided before this by preempt_dynamic_mode).  mutex_lock(), down_read()
 * and down_write() begin with might_sleep() (might_resched() after the
 * __might_sleep() of DEBUG_ATOMIC_SLEEP) and call nothing else that
 * reschedules: all three call _cond_resched() under VOLUNTARY and none
 * does under NONE.  Anything else (a function absent, as under
 * DEBUG_LOCK_ALLOC, or unreadable, or the three disagreeing) decides
 * nothing.  Only for a kernel with _cond_resched() (!PREEMPTION) and
 * without preempt_schedule() (PREEMPTION); it was renamed
 * __cond_resched() by Linux kernel commit b965f1ddb47d ("preempt/dynamic:
 * Provide cond_resched() and might_resched() static calls") (in v5.12).
 * Debian's 5.10: "desktop", as its live trace printed it.
 */
static const char *th_lat_voluntary(void)
{
	static const char *const funcs[] = { "mutex_lock", "down_read",
					     "down_write" };
	ulong cond = th_ksymbol("_cond_resched");
	int i, r, yes = 0, no = 0;

	if (!cond)
		cond = th_ksymbol("__cond_resched");
	if (!cond || th_ksymbol("preempt_schedule") ||
	    th_ksymbol("__SCT__might_resched"))
		return NULL;
	for (i = 0; i < 3; i++) {
		r = th_lat_calls(funcs[i], cond);
		if (r < 0)
			return NULL;
		r ? yes++ : no++;
	}
	return yes == 3 ? "desktop" : no == 3 ? "server" : NULL;
}

/* A field of the kernel's own init_uts_ns.name (struct new_utsname), as
 * init_utsname() gives it to print_trace_header(): read from the dump. */
static void th_lat_uts(const char *field, char *buf, int len)
{
	ulong ns = th_ksymbol("init_uts_ns");
	long name = th_member("uts_namespace", "name");
	long off = th_member("new_utsname", field);

	buf[0] = '\0';
	if (ns && name >= 0 && off >= 0)
		th_read_cstr(ns + name + off, buf, len, "init_uts_ns");
}

int th_preempt_rt(void)
{
	static int rt = -1;
	char ver[80];

	if (rt < 0) {
		/* init/Makefile: UTS_VERSION's "PREEMPT_RT" */
		th_lat_uts("version", ver, sizeof(ver));
		rt = strstr(ver, "PREEMPT_RT") != NULL;
	}
	return rt;
}

static void th_lat_model(struct th_lat_hdr *h)
{
	static const char *const old[] = { "server", "desktop", "preempt" };
	ulong dm = th_ksymbol("preempt_dynamic_mode");
	ulong modes = th_ksymbol("preempt_modes"), p = 0;
	const char *built;
	char ver[80];
	int mode = -1, rt;

	/* the build's preemption model, as UTS_VERSION spells it */
	th_lat_uts("version", ver, sizeof(ver));

	h->model_ok = FALSE;
	rt = th_preempt_rt();
	if (rt && !th_ksymbol("preempt_model_str"))
		return;		/* not followed here */
	if (dm && !th_read_int(dm, &mode, "preempt_dynamic_mode"))
		return;
	if (th_ksymbol("preempt_model_str")) {
		char m[32];

		if (!dm || !modes)
			return;
		if (mode < 0)
			strcpy(m, "undef");
		else if (!th_read_ulong(modes + mode * sizeof(ulong), &p,
					"preempt_modes[]") || !p ||
			 !th_read_cstr(p, m, sizeof(m), "preempt_modes[]"))
			return;
		snprintf(h->model, sizeof(h->model), rt ? "PREEMPT_{RT,(%s)}" :
			 "PREEMPT(%s)", m);
		h->model_ok = TRUE;
		return;
	}
	if (dm) {
		strcpy(h->model, mode >= 0 && mode < 3 ? old[mode] : "unknown");
		h->model_ok = TRUE;
	} else if (strstr(ver, " PREEMPT ")) {
		strcpy(h->model, "preempt");
		h->model_ok = TRUE;
	} else if ((built = th_lat_voluntary())) {
		strcpy(h->model, built);
		h->model_ok = TRUE;
	}
}

static struct {
	int init;
	long ab_cpu;
	long saved_latency, comm, pid, uid, nice, policy, rt_priority;
	long critical_start, critical_end;
} lho;

static void th_lat_off(void)
{
	const char *ab = th_size("array_buffer") > 0 ? "array_buffer" :
			 "trace_buffer";

	lho.init = 1;
	lho.ab_cpu = th_member(ab, "cpu");
	lho.saved_latency = th_member("trace_array_cpu", "saved_latency");
	lho.comm = th_member("trace_array_cpu", "comm");
	lho.pid = th_member("trace_array_cpu", "pid");
	lho.uid = th_member("trace_array_cpu", "uid");
	lho.nice = th_member("trace_array_cpu", "nice");
	lho.policy = th_member("trace_array_cpu", "policy");
	lho.rt_priority = th_member("trace_array_cpu", "rt_priority");
	lho.critical_start = th_member("trace_array_cpu", "critical_start");
	lho.critical_end = th_member("trace_array_cpu", "critical_end");
}

int th_lat_header(ulong tr, int max, struct th_lat_hdr *h)
{
	struct th_abuf ab;
	ulong d;
	int ok;

	memset(h, 0, sizeof(*h));
	th_lat_uts("release", h->release, sizeof(h->release));
	th_lat_model(h);
	if (!lho.init)
		th_lat_off();
	if (!th_array_buffer(tr, max, &ab) || !ab.data_ok ||
	    lho.ab_cpu < 0 || lho.saved_latency < 0 || lho.comm < 0 ||
	    lho.pid < 0 || lho.uid < 0 || lho.nice < 0 || lho.policy < 0 ||
	    lho.rt_priority < 0)
		return FALSE;
	if (!th_read_int(ab.addr + lho.ab_cpu, &h->cpu, "array_buffer.cpu"))
		return FALSE;
	d = th_percpu_ptr(ab.data, h->cpu < 0 ? 0 : h->cpu);
	ok = d &&
	     th_read_ulong(d + lho.saved_latency, &h->saved_latency,
			   "trace_array_cpu.saved_latency") &&
	     th_read(d + lho.comm, h->comm, 16, "trace_array_cpu.comm") &&
	     th_read_int(d + lho.pid, &h->pid, "trace_array_cpu.pid") &&
	     th_read_int(d + lho.uid, &h->uid, "trace_array_cpu.uid") &&
	     th_read_ulong(d + lho.nice, (ulong *)&h->nice,
			   "trace_array_cpu.nice") &&
	     th_read_ulong(d + lho.policy, (ulong *)&h->policy,
			   "trace_array_cpu.policy") &&
	     th_read_ulong(d + lho.rt_priority, (ulong *)&h->rt_priority,
			   "trace_array_cpu.rt_priority");
	h->comm[16] = '\0';
	if (ok && lho.critical_start >= 0 && lho.critical_end >= 0)
		ok = th_read_ulong(d + lho.critical_start, &h->critical_start,
				   "trace_array_cpu.critical_start") &&
		     th_read_ulong(d + lho.critical_end, &h->critical_end,
				   "trace_array_cpu.critical_end");
	h->data_ok = ok;
	return TRUE;
}
