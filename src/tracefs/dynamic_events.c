/*
 * tracehunt: dynamic_events (kernel/trace/trace_dynevent.c): every
 * dyn_event on dyn_event_list, each printed by its kind's show function
 * (dyn_event_seq_show(): ev->ops->show()), through th_dyn_show[]: one row
 * per kind (model/dyn_event.h says what the columns are).
 */
#include "tracefs/tracefs.h"
#include "model/dyn_event.h"
#include "model/trace_kprobe.h"
#include "model/trace_uprobe.h"
#include "model/trace_probe.h"
#include "model/trace_eprobe.h"
#include "model/trace_fprobe.h"
#include "model/synth_event.h"
#include "model/user_event.h"
#include "model/events.h"

/* eprobe_dyn_event_show(): "e:GROUP/NAME SYSTEM.EVENT ARG=COMM..." */
static void th_eprobe_dyn_show(ulong ev)
{
	char group[64], name[128], src[200], arg[128], comm[512];
	ulong tp, call;
	int i, nr;

	if (!th_eprobe_dyn(ev, &tp, src, sizeof(src)))
		th_warn("event probe at %lx: its source event cannot be read",
			ev);
	group[0] = name[0] = '\0';
	if ((call = th_trace_probe_call(tp))) {
		th_event_call_system(call, group, sizeof(group));
		th_event_call_name(call, name, sizeof(name));
	}
	fprintf(fp, "e:%s/%s %s", group, name, src);
	nr = th_trace_probe_nr_args(tp);
	for (i = 0; i < nr; i++) {
		if (th_probe_arg_name(tp, i, arg, sizeof(arg)) < 0) {
			th_warn("event probe %s: argument %d cannot be read",
				name, i);
			continue;
		}
		th_probe_arg_comm(tp, i, comm, sizeof(comm));
		fprintf(fp, " %s=%s", arg, comm);
	}
	fputc('\n', fp);
}

/* trace_uprobe_show(): a uprobe event's line, the same as in
 * uprobe_events (tracefs/uprobe_events.c prints it from its
 * struct trace_uprobe, around the dyn_event) */
static void th_uprobe_ev_show(ulong ev)
{
	ulong tu = th_tu_of_dyn_event(ev);

	if (!tu) {
		th_warn("uprobe event at %lx: struct trace_uprobe cannot be "
			"read", ev);
		return;
	}
	th_uprobe_dyn_show(tu);
}

/* trace_fprobe_show(): "f:GROUP/NAME SYM ARG=COMM...", 't' for a
 * tracepoint probe, "SYM%return" (and before v6.14 the rethook's
 * nr_maxactive after the 'f' when set) for an exit probe */
static void th_fprobe_dyn_show(ulong ev)
{
	struct th_fprobe_ev f;

	if (!th_fprobe_of_dyn(ev, &f))
		th_warn("fprobe event at %lx: struct trace_fprobe cannot be "
			"read whole", ev);
	fputc(f.is_tp ? 't' : 'f', fp);
	if (f.is_return && f.maxactive)
		fprintf(fp, "%d", f.maxactive);
	fprintf(fp, ":%s/%s %s%s", f.group, f.name, f.symbol,
		f.is_return ? "%return" : "");
	th_probe_args_show(f.tp);
	fputc('\n', fp);
}

/* The kinds tracehunt prints. */
static const struct th_dyn_row {
	enum th_dyn_kind kind;
	th_dyn_show_fn show;
	th_dyn_ok_fn ok;
} th_dyn_show[] = {
	{ TH_DYN_KPROBE, th_kprobe_dyn_show, th_trace_kprobes_ok },
	{ TH_DYN_UPROBE, th_uprobe_ev_show, th_trace_uprobes_ok },
	{ TH_DYN_SYNTH, th_synth_dyn_show, th_synth_ok },
	{ TH_DYN_EPROBE, th_eprobe_dyn_show, th_eprobe_ok },
	{ TH_DYN_FPROBE, th_fprobe_dyn_show, th_trace_fprobes_ok },
	{ TH_DYN_USER, th_user_dyn_show, th_user_events_ok },
};

static const struct th_dyn_row *th_dyn_row(enum th_dyn_kind kind)
{
	size_t i;

	for (i = 0; i < sizeof(th_dyn_show) / sizeof(th_dyn_show[0]); i++)
		if (th_dyn_show[i].kind == kind)
			return th_dyn_show[i].ok() ? &th_dyn_show[i] : NULL;
	return NULL;
}

/**
 * th_missing_dynamic_events - without dynamic events, no dynamic_events;
 * with an event tracehunt cannot print, one line saying which (never a
 * part of the file)
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_dynamic_events(struct th_tr *tr,
				      const struct th_tref *ref, char *buf,
				      size_t len)
{
	struct th_dyn_event *v;
	long n, i;

	if (!th_dyn_events_ok()) {
		snprintf(buf, len, "ftrace cat: %s: not available in this "
			 "dump: no dynamic events (dyn_event_list, "
			 "CONFIG_DYNAMIC_EVENTS) or their type", ref->file);
		return buf;
	}
	n = th_dyn_events(&v);
	for (i = 0; i < n; i++)
		if (!th_dyn_row(v[i].kind))
			break;
	if (i < n)
		snprintf(buf, len, "ftrace cat: %s: incomplete: tracehunt does "
			 "not reconstruct yet the line of a %s (dyn_event at "
			 "%lx, ops %lx)", ref->file,
			 th_dyn_kind_name(v[i].kind), v[i].ev, v[i].ops);
	free(v);
	return i < n ? buf : NULL;
}

/**
 * th_cat_dynamic_events - dynamic_events: dyn_event_seq_show() of every
 * dyn_event, in list order
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_dynamic_events(struct th_tr *tr, const struct th_tref *ref)
{
	const struct th_dyn_row *row;
	struct th_dyn_event *v;
	long n, i;

	n = th_dyn_events(&v);
	for (i = 0; i < n; i++)
		if ((row = th_dyn_row(v[i].kind)))
			row->show(v[i].ev);
	free(v);
}
