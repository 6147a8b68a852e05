/*
 * tracehunt: the model's one reader of struct trace_uprobe, the trace
 * events built on uprobes (kernel/trace/trace_uprobe.c).  Their common
 * part (struct trace_probe) is read by model/trace_probe.c, the consumer
 * inside each by model/uprobes.c.
 */
#include "model/trace_uprobe.h"
#include "model/trace_probe.h"
#include "model/trace_kprobe.h"
#include "model/uprobes.h"
#include "model/events.h"
#include "model/dyn_event.h"

/* Offsets, -1 when absent; filled once by tu_init(). */
static struct {
	int inited;
	int ok;
	ulong head;		/* dyn_event_list or uprobe_list */
	int dyn;		/* entries are struct dyn_event */
	ulong ops;		/* &trace_uprobe_ops */
	long tu_list, tu_consumer, tu_filename, tu_offset, tu_ref_ctr;
	long tu_nhit, tu_tp, tu_path;
	int nhit_percpu;
} tu_off;

static int tu_init(void)
{
	static const char *const nhit[] = { "nhits", "nhit", NULL };
	const char *which = "nhit";

	if (tu_off.inited)
		return tu_off.ok;
	tu_off.inited = 1;
	if ((tu_off.head = th_symbol("dyn_event_list")) &&
	    (tu_off.ops = th_symbol("trace_uprobe_ops"))) {
		/* Linux kernel commit 0597c49c69d5 ("tracing/uprobes: Use
		 * dyn_event framework for uprobe events") (v5.0) */
		tu_off.dyn = 1;
		tu_off.tu_list = th_member("trace_uprobe", "devent");
	} else if ((tu_off.head = th_symbol("uprobe_list"))) {
		tu_off.tu_list = th_member("trace_uprobe", "list");
	}
	tu_off.tu_consumer = th_member("trace_uprobe", "consumer");
	tu_off.tu_filename = th_member("trace_uprobe", "filename");
	tu_off.tu_offset = th_member("trace_uprobe", "offset");
	tu_off.tu_ref_ctr = th_member("trace_uprobe", "ref_ctr_offset");
	/* A plain counter "nhit" until Linux kernel commit 10cdb82aa77f
	 * ("uprobes: turn trace_uprobe's nhit counter to be per-CPU one")
	 * (in v6.12) made it the per-CPU "nhits". */
	tu_off.tu_nhit = th_member_any("trace_uprobe", nhit, &which);
	tu_off.nhit_percpu = tu_off.tu_nhit >= 0 &&
		th_member_ptr("trace_uprobe", which) == 1;
	tu_off.tu_tp = th_member("trace_uprobe", "tp");
	tu_off.tu_path = th_member("trace_uprobe", "path");
	if (!tu_off.head || tu_off.tu_list < 0 || tu_off.tu_consumer < 0 ||
	    tu_off.tu_filename < 0 || tu_off.tu_offset < 0 ||
	    tu_off.tu_tp < 0 || !th_trace_probe_ok() || !th_event_names_ok())
		return 0;
	tu_off.ok = 1;
	return 1;
}

/**
 * th_trace_uprobes_ok - whether the dump has uprobe events and their types
 */
int th_trace_uprobes_ok(void)
{
	return tu_init();
}

/**
 * th_trace_uprobes - every struct trace_uprobe of uprobe_events
 * @out: their addresses in the kernel's order (malloc'd; NULL when the
 *       dump has none)
 *
 * Return: the count, or -1 when the dump has no uprobe events.
 */
long th_trace_uprobes(ulong **out)
{
	struct th_walk w;
	long i, n;

	*out = NULL;
	if (!tu_init())
		return -1;
	if (tu_off.dyn) {
		n = th_dyn_events_of(TH_DYN_UPROBE, out);
		for (i = 0; i < n; i++)
			(*out)[i] -= tu_off.tu_list;
		return n;
	}
	th_list_walk(tu_off.head, TH_MAX_HLIST, &w);
	if (w.err)
		th_warn("uprobe_list: %s at %lx; later probe events are not "
			"shown", w.err, w.bad);
	*out = calloc(w.n ? w.n : 1, sizeof(ulong));
	for (i = 0; *out && i < w.n; i++)
		(*out)[i] = w.ent[i] - tu_off.tu_list;
	n = *out ? w.n : -1;
	th_walk_free(&w);
	return n;
}

ulong th_tu_of_probe(ulong tp)
{
	return tu_init() && tp ? tp - tu_off.tu_tp : 0;
}

ulong th_tu_of_consumer(ulong uc)
{
	return tu_init() && uc ? uc - tu_off.tu_consumer : 0;
}

ulong th_tu_of_dyn_event(ulong ev)
{
	return tu_init() && tu_off.dyn && ev ? ev - tu_off.tu_list : 0;
}

ulong th_tu_dyn_ops(void)
{
	return tu_init() && tu_off.dyn ? tu_off.ops : 0;
}

/**
 * th_tu_names - the system and name of a uprobe event
 * @tu: struct trace_uprobe
 * @group: the system ("" when unreadable)
 * @glen: room in @group
 * @name: the event's name ("" when unreadable)
 * @nlen: room in @name
 *
 * Return: FALSE when the event has no readable name.
 */
int th_tu_names(ulong tu, char *group, size_t glen, char *name, size_t nlen)
{
	ulong call = th_trace_probe_call(tu + tu_off.tu_tp);

	group[0] = name[0] = '\0';
	if (!call) {
		th_damaged("trace_uprobe", tu, "its event cannot be read");
		return FALSE;
	}
	th_event_call_system(call, group, glen);
	th_event_call_name(call, name, nlen);
	/* trace_probe_init() refuses an event without group and name */
	if (!group[0] || !name[0])
		th_damaged("trace_uprobe", tu, "its event %lx has no %s", call,
			   name[0] ? "system" : "name");
	return name[0] != '\0';
}

/**
 * th_tu_filename - the file a uprobe event was placed in, as given
 * @tu: struct trace_uprobe
 * @buf: trace_uprobe.filename's text
 * @len: room in @buf
 *
 * Return: FALSE (and @buf "") when unreadable.
 */
int th_tu_filename(ulong tu, char *buf, int len)
{
	ulong p = 0;

	buf[0] = '\0';
	/* __trace_uprobe_create() kstrdup()s the file name it was given */
	if (!th_read_ulong(tu + tu_off.tu_filename, &p,
			   "trace_uprobe.filename") || !p ||
	    !th_read_cstr(p, buf, len, "trace_uprobe.filename") || !buf[0]) {
		th_damaged("trace_uprobe", tu, "filename %lx cannot be read",
			   p);
		buf[0] = '\0';
		return FALSE;
	}
	/* printed as the kernel would, with the warning */
	if (!th_printable(buf))
		th_damaged("trace_uprobe", tu, "filename at %lx is not text", p);
	return TRUE;
}

/* Both offsets lie in the file: uprobe_register() refuses an offset or a
 * ref_ctr_offset past i_size (kernel/events/uprobes.c), and the event's
 * file stays open (trace_uprobe.path) while it exists. */
static void tu_offsets_check(ulong tu, ulong offset, ulong ref_ctr_offset)
{
	uint64_t size;

	if (tu_off.tu_path < 0 || !th_path_size(tu + tu_off.tu_path, &size))
		return;
	if (offset > size)
		th_damaged("trace_uprobe", tu, "offset %#lx is past the end "
			   "of its file (%llu bytes)", offset,
			   (unsigned long long)size);
	if (ref_ctr_offset > size)
		th_damaged("trace_uprobe", tu, "ref_ctr_offset %#lx is past "
			   "the end of its file (%llu bytes)", ref_ctr_offset,
			   (unsigned long long)size);
}

/**
 * th_tu_offsets - where in the file a uprobe event is
 * @tu: struct trace_uprobe
 * @offset: trace_uprobe.offset
 * @ref_ctr_offset: trace_uprobe.ref_ctr_offset (0 before it existed)
 *
 * Return: FALSE when unreadable.
 */
int th_tu_offsets(ulong tu, ulong *offset, ulong *ref_ctr_offset)
{
	*ref_ctr_offset = 0;
	/* absent before the SDT semaphore series of v4.20, Linux kernel
	 * commit 1cc33161a83d ("uprobes: Support SDT markers having
	 * reference count (semaphore)") */
	if (tu_off.tu_ref_ctr >= 0)
		th_read_ulong(tu + tu_off.tu_ref_ctr, ref_ctr_offset,
			      "trace_uprobe.ref_ctr_offset");
	if (!th_read_ulong(tu + tu_off.tu_offset, offset,
			   "trace_uprobe.offset"))
		return FALSE;
	tu_offsets_check(tu, *offset, *ref_ctr_offset);
	return TRUE;
}

/**
 * th_tu_is_ret - is_ret_probe(): whether the event is a uretprobe
 * @tu: struct trace_uprobe
 */
int th_tu_is_ret(ulong tu)
{
	ulong h, rh;

	return th_uconsumer_handlers(tu + tu_off.tu_consumer, &h, &rh) &&
		rh != 0;
}

/**
 * th_tu_nhit - the hits of a uprobe event
 * @tu: struct trace_uprobe
 */
ulong th_tu_nhit(ulong tu)
{
	if (tu_off.tu_nhit < 0)
		return 0;
	return th_probe_nhit(tu + tu_off.tu_nhit, tu_off.nhit_percpu,
			     "trace_uprobe.nhit");
}

/**
 * th_tu_probe - the struct trace_probe inside a trace_uprobe
 * @tu: struct trace_uprobe
 */
ulong th_tu_probe(ulong tu)
{
	return tu + tu_off.tu_tp;
}
