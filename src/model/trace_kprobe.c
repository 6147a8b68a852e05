/*
 * tracehunt: the model's one reader of struct trace_kprobe, the trace
 * events built on kprobes (kernel/trace/trace_kprobe.c).  The kprobe
 * inside each is read by model/kprobes.c.
 */
#include "model/trace_kprobe.h"
#include "model/trace_probe.h"
#include "model/kprobes.h"
#include "model/events.h"
#include "model/dyn_event.h"

/* Offsets, -1 when absent; filled once by tk_init(). */
static struct {
	int inited;
	int ok;
	ulong head;		/* probe_list (before v5.0) */
	int dyn;		/* on dyn_event_list (model/dyn_event.c) */
	long tk_list, tk_rp, tk_nhit, tk_symbol, tk_tp;
	int nhit_percpu;
} tk_off;

static int tk_init(void)
{
	/* Before Linux kernel commit c31ffb3ff633 ("tracing/kprobes: Factor
	 * out struct trace_probe") (v3.14) a kprobe event was one struct
	 * trace_probe, with list, rp, nhit, symbol, call and args[] of its
	 * own: its trace_probe is itself (tp at offset 0). */
	const char *tk = th_size("trace_kprobe") < 0 &&
		th_member("trace_probe", "rp") >= 0 ? "trace_probe" :
		"trace_kprobe";

	if (tk_off.inited)
		return tk_off.ok;
	tk_off.inited = 1;
	if (th_dyn_events_ok()) {
		/* Linux kernel commit 6212dd29683e ("tracing/kprobes: Use
		 * dyn_event framework for kprobe events") (v5.0) */
		tk_off.dyn = 1;
		tk_off.tk_list = th_member("trace_kprobe", "devent");
	} else if ((tk_off.head = th_symbol("probe_list"))) {
		tk_off.tk_list = th_member(tk, "list");
	}
	tk_off.tk_rp = th_member(tk, "rp");
	tk_off.tk_nhit = th_member(tk, "nhit");
	/* A plain counter until Linux kernel commit a7636d9ecfa3
	 * ("kprobes: Optimize hot path by using percpu counter to collect
	 * 'nhit' statistics") (in v4.6). */
	tk_off.nhit_percpu = tk_off.tk_nhit >= 0 &&
		th_member_ptr(tk, "nhit") == 1;
	tk_off.tk_symbol = th_member(tk, "symbol");
	tk_off.tk_tp = strcmp(tk, "trace_probe") ? th_member(tk, "tp") : 0;
	/* the event's system and name: model/events.c, the one reader of
	 * struct trace_event_call */
	if ((!tk_off.dyn && !tk_off.head) || tk_off.tk_list < 0 ||
	    tk_off.tk_rp < 0 || tk_off.tk_tp < 0 || !th_trace_probe_ok() ||
	    !th_event_names_ok())
		return 0;
	tk_off.ok = 1;
	return 1;
}

/**
 * th_trace_kprobes_ok - whether the dump has kprobe events and their types
 */
int th_trace_kprobes_ok(void)
{
	return tk_init();
}

/**
 * th_tk_of_probe - the trace_kprobe whose struct trace_probe is at TP
 * @tp: struct trace_probe (th_trace_probe_of_call() of a kprobe event)
 *
 * Return: the struct trace_kprobe, 0 when the dump lacks the types.
 */
ulong th_tk_of_probe(ulong tp)
{
	if (!tk_init() || !tp)
		return 0;
	return tp - tk_off.tk_tp;
}

/**
 * th_tk_names - the system and name of a kprobe event
 * @tk: struct trace_kprobe
 * @group: the system ("" when unreadable)
 * @glen: room in @group
 * @name: the event's name ("" when unreadable)
 * @nlen: room in @name
 *
 * Returns FALSE when the event has no readable name.
 */
int th_tk_names(ulong tk, char *group, size_t glen, char *name, size_t nlen)
{
	ulong call = th_trace_probe_call(tk + tk_off.tk_tp);

	group[0] = name[0] = '\0';
	if (!call)
		return FALSE;
	/* trace_event_name(): call->name for a probe event */
	th_event_call_system(call, group, glen);
	th_event_call_name(call, name, nlen);
	return name[0] != '\0';
}

/*
 * The handlers trace_kprobe.c gives the kprobe of each event it creates
 * (alloc_trace_kprobe(), the same since kprobe events began): a return
 * probe's kretprobe.handler is kretprobe_dispatcher, with no
 * entry_handler, and its kprobe's pre_handler is pre_handler_kretprobe
 * once registered (register_kretprobe()), NULL before; any other probe's
 * pre_handler is kprobe_dispatcher.  The kernel never changes them, so
 * another value is damage: kprobe_events would print a return probe as a
 * plain one (trace_kprobe_is_return() is rp.handler != NULL) and the
 * probe would run code no event asked for.
 */
static void tk_check_handlers(ulong tk)
{
	static ulong kd = 1, krd, prk;
	struct th_kretprobe r;
	ulong kp = th_tk_kprobe(tk), pre;

	if (kd == 1) {
		kd = th_symbol("kprobe_dispatcher");
		krd = th_symbol("kretprobe_dispatcher");
		prk = th_symbol("pre_handler_kretprobe");
	}
	if (!kd || !krd || !prk || !th_kretprobe_of(kp, &r))
		return;
	pre = th_kprobe_pre_handler(kp);
	if (r.handler ? r.handler != krd || r.entry_handler ||
	    (pre && pre != prk) : pre != kd)
		th_damaged("trace_kprobe", tk, "its kprobe's handlers (pre "
			   "%lx, return %lx, entry %lx) are not the ones "
			   "trace_kprobe.c gives a %s probe: kprobe_events "
			   "and the probe's owner rest on damaged data", pre,
			   r.handler, r.entry_handler,
			   r.handler ? "return" : "plain");
}

/**
 * th_trace_kprobes - every struct trace_kprobe in the kernel's order
 * @out: their addresses (malloc'd; NULL when the dump has none)
 *
 * Returns the count, or -1 when the dump has no kprobe events.
 */
long th_trace_kprobes(ulong **out)
{
	struct th_walk w;
	ulong *v;
	long i, n;

	*out = NULL;
	if (!tk_init())
		return -1;
	if (tk_off.dyn) {
		n = th_dyn_events_of(TH_DYN_KPROBE, out);
		for (i = 0; i < n; i++) {
			(*out)[i] -= tk_off.tk_list;
			tk_check_handlers((*out)[i]);
		}
		return n;
	}
	th_list_walk(tk_off.head, TH_MAX_HLIST, &w);
	if (w.err)
		th_warn("probe_list: %s at %lx; later probe events are not "
			"shown", w.err, w.bad);
	v = calloc(w.n ? w.n : 1, sizeof(ulong));
	for (i = 0; v && i < w.n; i++) {
		v[i] = w.ent[i] - tk_off.tk_list;
		tk_check_handlers(v[i]);
	}
	n = w.n;
	th_walk_free(&w);
	*out = v;
	return v ? n : -1;
}

/**
 * th_tk_of_dyn_event - the trace_kprobe around a kprobe's dyn_event
 * @ev: struct dyn_event of kind TH_DYN_KPROBE
 *
 * Return: the struct trace_kprobe, 0 when the dump lacks the types.
 */
ulong th_tk_of_dyn_event(ulong ev)
{
	if (!tk_init() || !tk_off.dyn)
		return 0;
	return ev - tk_off.tk_list;
}

/**
 * th_tk_kprobe - the struct kprobe inside a trace_kprobe
 * @tk: struct trace_kprobe
 */
ulong th_tk_kprobe(ulong tk)
{
	return th_kretprobe_kprobe(tk + tk_off.tk_rp);
}

/**
 * th_tk_shows_maxactive - whether kprobe_events prints a kretprobe's
 * maxactive ("r4:...")
 *
 * Linux kernel commit 696ced4fb1d7 ("tracing/kprobes: expose maxactive
 * for kretprobe in kprobe_events") (v4.12) added it, and the
 * "r[maxactive]" of the tracing README (readme_msg) with it.
 */
int th_tk_shows_maxactive(void)
{
	static int shows = -1;
	static char readme[16384];
	ulong p;

	if (shows >= 0)
		return shows;
	shows = 1;
	if (!(p = th_symbol("readme_msg")))
		return shows;
	th_read_cstr(p, readme, sizeof(readme), "readme_msg");
	if (strlen(readme) > 100)
		shows = strstr(readme, "r[maxactive]") != NULL;
	return shows;
}

/**
 * th_tk_nhit - the hits of a kprobe event
 * @tk: struct trace_kprobe
 */
ulong th_tk_nhit(ulong tk)
{
	if (tk_off.tk_nhit < 0)
		return 0;
	return th_probe_nhit(tk + tk_off.tk_nhit, tk_off.nhit_percpu,
			     "trace_kprobe.nhit");
}

/**
 * th_tk_symbol - the symbol a kprobe event was placed on
 * @tk: struct trace_kprobe
 * @buf: trace_kprobe.symbol's text
 * @len: room in @buf
 *
 * Returns FALSE (and @buf "") when the probe was placed by address.
 */
int th_tk_symbol(ulong tk, char *buf, int len)
{
	ulong sym = 0;

	buf[0] = '\0';
	th_read_ulong(tk + tk_off.tk_symbol, &sym, "trace_kprobe.symbol");
	if (!sym)
		return FALSE;
	th_read_cstr(sym, buf, len, "trace_kprobe.symbol");
	/* printed as the kernel would, with the warning (the kernel keeps
	 * a copy of the symbol the command named, never an empty one) */
	if (!buf[0] || !th_printable(buf))
		th_damaged("trace_kprobe", tk, "symbol at %lx is %s", sym,
			   buf[0] ? "not text" : "empty");
	return TRUE;
}

/**
 * th_tk_probe - the struct trace_probe inside a trace_kprobe
 * @tk: struct trace_kprobe
 */
ulong th_tk_probe(ulong tk)
{
	return tk + tk_off.tk_tp;
}
