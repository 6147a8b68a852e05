/*
 * tracehunt: kprobe_events and kprobe_profile — the trace events built on
 * kprobes (kernel/trace/trace_kprobe.c).
 */
#include "glue/commands.h"
#include "tracefs/tracefs.h"
#include "tracefs/kprobe_events.h"

static struct {
	int inited;
	int ok;
	ulong head;		/* dyn_event_list or probe_list */
	int dyn;		/* entries are struct dyn_event */
	ulong ops;		/* &trace_kprobe_ops */
	long ev_list, ev_ops;
	long tk_list, tk_rp, tk_nhit, tk_symbol, tk_tp;
	long krp_kp, krp_handler, krp_maxactive;
	long kp_addr, kp_offset, kp_nmissed;
	long tp_event, tp_nr_args, tp_args, arg_size, arg_name, arg_comm;
	long tpe_call, tpe_class, call_class, call_name, class_system;
	long call_flags;
	long fl_tracepoint;
} TK;

static int tk_init(void)
{
	if (TK.inited)
		return TK.ok;
	TK.inited = 1;
	if ((TK.head = th_symbol("dyn_event_list"))) {
		/* Linux kernel commit 6212dd29683e ("tracing/kprobes: Use
		 * dyn_event framework for kprobe events") (v5.0) */
		TK.dyn = 1;
		TK.ops = th_symbol("trace_kprobe_ops");
		TK.ev_list = th_member("dyn_event", "list");
		TK.ev_ops = th_member("dyn_event", "ops");
		TK.tk_list = th_member("trace_kprobe", "devent");
	} else if ((TK.head = th_symbol("probe_list"))) {
		TK.tk_list = th_member("trace_kprobe", "list");
	}
	TK.tk_rp = th_member("trace_kprobe", "rp");
	TK.tk_nhit = th_member("trace_kprobe", "nhit");
	TK.tk_symbol = th_member("trace_kprobe", "symbol");
	TK.tk_tp = th_member("trace_kprobe", "tp");
	TK.krp_kp = th_member("kretprobe", "kp");
	TK.krp_handler = th_member("kretprobe", "handler");
	TK.krp_maxactive = th_member("kretprobe", "maxactive");
	TK.kp_addr = th_member("kprobe", "addr");
	TK.kp_offset = th_member("kprobe", "offset");
	TK.kp_nmissed = th_member("kprobe", "nmissed");
	TK.tp_event = th_member("trace_probe", "event");
	TK.tp_nr_args = th_member("trace_probe", "nr_args");
	TK.tp_args = th_member("trace_probe", "args");
	TK.arg_size = th_size("probe_arg");
	TK.arg_name = th_member("probe_arg", "name");
	TK.arg_comm = th_member("probe_arg", "comm");
	TK.call_class = th_member("trace_event_call", "class");
	TK.call_name = th_member("trace_event_call", "name");
	TK.call_flags = th_member("trace_event_call", "flags");
	TK.class_system = th_member("trace_event_class", "system");
	if (TK.tp_event >= 0) {
		/* Linux kernel commit 60d53e2c3b75 ("tracing/probe: Split
		 * trace_event related data from trace_probe") (v5.4) */
		TK.tpe_call = th_member("trace_probe_event", "call");
	} else {
		TK.tpe_call = th_member("trace_probe", "call");
	}
	TK.fl_tracepoint = th_enum("TRACE_EVENT_FL_TRACEPOINT", 0);
	if (!TK.head || TK.tk_list < 0 || TK.tk_rp < 0 || TK.tk_tp < 0 ||
	    TK.tp_nr_args < 0 || TK.tp_args < 0 || TK.arg_size <= 0 ||
	    TK.tpe_call < 0 || TK.call_class < 0 || TK.class_system < 0)
		return 0;
	TK.ok = 1;
	return 1;
}

/* The trace_event_call of a trace_kprobe. */
static ulong tk_call(ulong tk)
{
	ulong ev;

	if (TK.tp_event >= 0) {
		if (!th_read_ulong(tk + TK.tk_tp + TK.tp_event, &ev,
				   "trace_probe.event"))
			return 0;
		return ev + TK.tpe_call;
	}
	return tk + TK.tk_tp + TK.tpe_call;
}

int th_tk_names(ulong tk, char *group, size_t glen, char *name, size_t nlen)
{
	ulong call = tk_call(tk), class = 0, p = 0;

	group[0] = name[0] = '\0';
	if (!call)
		return FALSE;
	if (th_read_ulong(call + TK.call_class, &class, "trace_event_call.class") &&
	    th_read_ulong(class + TK.class_system, &p, "trace_event_class.system"))
		th_read_cstr(p, group, glen, "event system");
	if (th_read_ulong(call + TK.call_name, &p, "trace_event_call.name"))
		th_read_cstr(p, name, nlen, "event name");
	return name[0] != '\0';
}

long th_trace_kprobes(ulong **out)
{
	struct th_walk w;
	ulong *v;
	long i, n = 0;

	*out = NULL;
	if (!tk_init())
		return -1;
	th_list_walk(TK.head, TH_MAX_HLIST, &w);
	if (w.err)
		th_warn("%s: %s at %lx; later probe events are not shown",
			TK.dyn ? "dyn_event_list" : "probe_list", w.err, w.bad);
	v = calloc(w.n ? w.n : 1, sizeof(ulong));
	for (i = 0; i < w.n; i++) {
		ulong ev = w.ent[i] - (TK.dyn ? TK.ev_list : 0), ops;

		if (TK.dyn) {
			if (!th_read_ulong(ev + TK.ev_ops, &ops, "dyn_event.ops") ||
			    ops != TK.ops)
				continue;
			v[n++] = ev - TK.tk_list;
		} else {
			v[n++] = w.ent[i] - TK.tk_list;
		}
	}
	th_walk_free(&w);
	*out = v;
	return n;
}

ulong th_tk_kprobe(ulong tk)
{
	return tk + TK.tk_rp + TK.krp_kp;
}

/* trace_kprobe_show() */
static void tk_show(ulong tk)
{
	ulong rp = tk + TK.tk_rp, handler = 0, sym = 0, addr = 0, a;
	int maxactive = 0;
	unsigned int offset = 0, nr = 0, i;
	char group[64], name[128], buf[256], comm[512];

	th_read_ulong(rp + TK.krp_handler, &handler, "kretprobe.handler");
	th_read_int(rp + TK.krp_maxactive, &maxactive, "kretprobe.maxactive");
	fputc(handler ? 'r' : 'p', fp);
	if (handler && maxactive)
		fprintf(fp, "%d", maxactive);
	th_tk_names(tk, group, sizeof(group), name, sizeof(name));
	fprintf(fp, ":%s/%s", group, name);
	th_read_ulong(tk + TK.tk_symbol, &sym, "trace_kprobe.symbol");
	th_read_uint(rp + TK.krp_kp + TK.kp_offset, &offset, "kprobe.offset");
	if (!sym) {
		/* The kernel prints a hashed %p here; the real address is
		 * all a dump can give. */
		th_read_ulong(rp + TK.krp_kp + TK.kp_addr, &addr, "kprobe.addr");
		fprintf(fp, " 0x%lx", addr);
	} else {
		th_read_cstr(sym, buf, sizeof(buf), "trace_kprobe.symbol");
		if (offset)
			fprintf(fp, " %s+%u", buf, offset);
		else
			fprintf(fp, " %s", buf);
	}
	th_read_uint(tk + TK.tk_tp + TK.tp_nr_args, &nr, "trace_probe.nr_args");
	if (nr > 128)
		nr = 0;
	for (i = 0; i < nr; i++) {
		a = tk + TK.tk_tp + TK.tp_args + i * TK.arg_size;
		if (!th_read_ulong(a + TK.arg_name, &sym, "probe_arg.name"))
			continue;
		th_read_cstr(sym, buf, sizeof(buf), "probe_arg.name");
		th_read_ulong(a + TK.arg_comm, &sym, "probe_arg.comm");
		th_read_cstr(sym, comm, sizeof(comm), "probe_arg.comm");
		fprintf(fp, " %s=%s", buf, comm);
	}
	fputc('\n', fp);
}

ulong th_tk_nhit(ulong tk)
{
	ulong nhit = 0, p, v, sum = 0;
	int cpus[NR_CPUS], n, i;

	if (TK.tk_nhit < 0 ||
	    !th_read_ulong(tk + TK.tk_nhit, &nhit, "trace_kprobe.nhit"))
		return 0;
	/* A plain counter until a7636d9ecfa3 ("kprobes: Optimize hot path
	 * by using percpu counter to collect 'nhit' statistics", v4.6). */
	if (MEMBER_TYPE("trace_kprobe", "nhit") != TYPE_CODE_PTR)
		return nhit;
	n = th_possible_cpus(cpus, NR_CPUS);
	for (i = 0; i < n; i++) {
		p = th_percpu_ptr(nhit, cpus[i]);
		if (th_read_ulong(p, &v, "trace_kprobe.nhit"))
			sum += v;
	}
	return sum;
}

/* probes_profile_seq_show() */
static void tk_profile(ulong tk)
{
	char group[64], name[128];
	ulong nmissed = 0;

	th_tk_names(tk, group, sizeof(group), name, sizeof(name));
	th_read_ulong(th_tk_kprobe(tk) + TK.kp_nmissed, &nmissed,
		      "kprobe.nmissed");
	fprintf(fp, "  %-44s %15lu %15lu\n", name, th_tk_nhit(tk), nmissed);
}

/**
 * th_missing_kprobe_events - without kprobe events (CONFIG_KPROBE_EVENTS) or
 * their types, neither kprobe_events nor kprobe_profile.
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_kprobe_events(struct th_tr *tr,
				     const struct th_tref *ref, char *buf,
				     size_t len)
{
	if (tk_init())
		return NULL;
	snprintf(buf, len, "ftrace cat: %s: not available in this dump: no "
		 "kprobe events (CONFIG_KPROBE_EVENTS) or their types",
		 ref->file);
	return buf;
}

/**
 * th_cat_kprobe_events - kprobe_events (probes_seq_show()) or
 * kprobe_profile
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_kprobe_events(struct th_tr *tr, const struct th_tref *ref)
{
	int profile = strcmp(ref->file, "kprobe_profile") == 0;
	ulong *v;
	long n, i;

	n = th_trace_kprobes(&v);
	if (n < 0)
		return;
	for (i = 0; i < n; i++) {
		if (profile)
			tk_profile(v[i]);
		else
			tk_show(v[i]);
	}
	free(v);
}
