/*
 * tracehunt: the model's one reader of struct dyn_event and
 * dyn_event_list (kernel/trace/trace_dynevent.h): which dynamic events
 * exist, in the kernel's order, and the kind of each (its ops).
 */
#include "model/dyn_event.h"

/* The ops symbol of each kind (static in its file, in kallsyms). */
static const char *const th_dyn_ops_sym[TH_DYN_NKINDS] = {
	[TH_DYN_KPROBE] = "trace_kprobe_ops",
	[TH_DYN_UPROBE] = "trace_uprobe_ops",
	[TH_DYN_SYNTH] = "synth_event_ops",
	[TH_DYN_EPROBE] = "eprobe_dyn_event_ops",
	[TH_DYN_FPROBE] = "trace_fprobe_ops",
	[TH_DYN_USER] = "user_event_dops",
};

static const char *const th_dyn_names[TH_DYN_NKINDS] = {
	[TH_DYN_KPROBE] = "kprobe",
	[TH_DYN_UPROBE] = "uprobe",
	[TH_DYN_SYNTH] = "synthetic event",
	[TH_DYN_EPROBE] = "event probe",
	[TH_DYN_FPROBE] = "fprobe",
	[TH_DYN_USER] = "user event",
	[TH_DYN_OTHER] = "dynamic event of unknown ops",
};

/* Offsets and symbols, filled once. */
static struct th_dyn_off {
	int filled, ok;
	ulong head;			/* &dyn_event_list */
	long list, ops;			/* dyn_event.list, .ops */
	ulong kind_ops[TH_DYN_NKINDS];	/* 0: the kernel has no such kind */
} th_dyn_offsets;

static const struct th_dyn_off *th_dyn_off(void)
{
	struct th_dyn_off *o = &th_dyn_offsets;
	int k;

	if (o->filled)
		return o;
	o->filled = TRUE;
	o->head = th_symbol("dyn_event_list");
	o->list = th_member("dyn_event", "list");
	o->ops = th_member("dyn_event", "ops");
	for (k = 0; k < TH_DYN_NKINDS; k++)
		o->kind_ops[k] = th_dyn_ops_sym[k] ?
			th_symbol(th_dyn_ops_sym[k]) : 0;
	o->ok = o->head && o->list >= 0 && o->ops >= 0;
	return o;
}

/**
 * th_dyn_events_ok - whether the dump has dyn_event_list and its type
 */
int th_dyn_events_ok(void)
{
	return th_dyn_off()->ok;
}

/**
 * th_dyn_kind_name - what a kind of dynamic event is called
 * @kind: the kind
 */
const char *th_dyn_kind_name(enum th_dyn_kind kind)
{
	if (kind < 0 || kind >= TH_DYN_NKINDS || !th_dyn_names[kind])
		return "dynamic event";
	return th_dyn_names[kind];
}

static enum th_dyn_kind th_dyn_kind_of(const struct th_dyn_off *o, ulong ops)
{
	int k;

	for (k = 0; k < TH_DYN_OTHER; k++)
		if (ops && o->kind_ops[k] == ops)
			return k;
	return TH_DYN_OTHER;
}

/* An event's ops is one dyn_event_register() put on dyn_event_ops_list
 * (every kind registers its ops at boot, before it can create events). */
static int th_dyn_ops_registered(ulong ops)
{
	ulong head = th_symbol("dyn_event_ops_list");
	long lst = th_member("dyn_event_operations", "list");
	struct th_walk w;
	long i;
	int found = FALSE;

	if (!head || lst < 0)
		return TRUE;
	th_list_walk(head, 64, &w);
	for (i = 0; i < w.n && !found; i++)
		found = w.ent[i] - lst == ops;
	if (w.err && !found)
		found = TRUE;	/* the list's own damage: nothing to compare */
	th_walk_free(&w);
	return found;
}

/**
 * th_dyn_events - every struct dyn_event of dyn_event_list, in list order
 * @out: their addresses, ops and kinds (malloc'd; NULL when none)
 *
 * A list damaged on the way gives the events before the damage, and a
 * warning.  An event whose ops cannot be read is of kind TH_DYN_OTHER.
 *
 * Return: the count, -1 when the dump has no dynamic events.
 */
long th_dyn_events(struct th_dyn_event **out)
{
	const struct th_dyn_off *o = th_dyn_off();
	struct th_dyn_event *v;
	struct th_walk w;
	long i;

	*out = NULL;
	if (!o->ok)
		return -1;
	th_list_walk(o->head, TH_MAX_HLIST, &w);
	if (w.err)
		th_warn("dyn_event_list: %s at %lx; later dynamic events are "
			"not shown", w.err, w.bad);
	v = calloc(w.n ? w.n : 1, sizeof(*v));
	if (!v) {
		th_walk_free(&w);
		return -1;
	}
	for (i = 0; i < w.n; i++) {
		v[i].ev = w.ent[i] - o->list;
		if (!th_read_ulong(v[i].ev + o->ops, &v[i].ops,
				   "dyn_event.ops"))
			v[i].ops = 0;
		v[i].kind = th_dyn_kind_of(o, v[i].ops);
		if (v[i].kind == TH_DYN_OTHER &&
		    !th_dyn_ops_registered(v[i].ops))
			th_damaged("dyn_event", v[i].ev, "ops %lx is no "
				   "registered dyn_event_operations", v[i].ops);
	}
	th_walk_free(&w);
	*out = v;
	return i;
}

/**
 * th_dyn_events_of - the dyn_events of one kind, in list order
 * @kind: the kind
 * @out: their struct dyn_event addresses (malloc'd; NULL when none)
 *
 * Return: the count, -1 when the dump has no dynamic events.
 */
long th_dyn_events_of(enum th_dyn_kind kind, ulong **out)
{
	struct th_dyn_event *all;
	long n = th_dyn_events(&all), i, m = 0;
	ulong *v;

	*out = NULL;
	if (n < 0)
		return -1;
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v) {
		free(all);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (all[i].kind == kind)
			v[m++] = all[i].ev;
	free(all);
	*out = v;
	return m;
}
