/*
 * tracehunt: synthetic_events, and a synthetic event's line of
 * dynamic_events (kernel/trace/trace_events_synth.c).
 */
#include "tracefs/tracefs.h"
#include "model/dyn_event.h"
#include "model/synth_event.h"

/* __synth_event_show(): "NAME\tTYPE FIELD; TYPE FIELD\n" */
static void th_synth_show(ulong se)
{
	char name[128], type[128], field[128];
	const char *t;
	int i, n;

	if (!th_synth_name(se, name, sizeof(name)))
		th_warn("synthetic event at %lx: its name cannot be read", se);
	fprintf(fp, "%s\t", name);
	n = th_synth_nfields(se);
	if (n < 0)
		th_warn("synthetic event %s: its fields cannot be read", name);
	for (i = 0; i < n; i++) {
		if (!th_synth_field(se, i, type, sizeof(type), field,
				    sizeof(field)))
			th_warn("synthetic event %s: field %d cannot be read",
				name, i);
		/* __data_loc belongs in the format, not the description
		 * (since v5.10) */
		t = strstr(type, "__data_loc");
		t = t ? t + sizeof("__data_loc") : type;
		fprintf(fp, "%s %s%s", t, field, i == n - 1 ? "" : "; ");
	}
	fputc('\n', fp);
}

/**
 * th_synth_dyn_show - a synthetic event's line of dynamic_events
 * (synth_event_show(): "s:SYSTEM/" and __synth_event_show())
 * @ev: its struct dyn_event
 */
void th_synth_dyn_show(ulong ev)
{
	ulong se = th_synth_of_dyn_event(ev);
	char sys[64];

	if (!se)
		return;
	th_synth_system(se, sys, sizeof(sys));
	fprintf(fp, "s:%s/", sys);
	th_synth_show(se);
}

/**
 * th_missing_synthetic_events - without synthetic events (or their types
 * in the dump's debuginfo), no synthetic_events
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_synthetic_events(struct th_tr *tr,
					const struct th_tref *ref, char *buf,
					size_t len)
{
	if (!th_symbol("synth_event_ops"))
		snprintf(buf, len, "ftrace cat: %s: this kernel has no "
			 "synthetic events (CONFIG_SYNTH_EVENTS)", ref->file);
	else if (!th_dyn_events_ok() || !th_synth_ok())
		snprintf(buf, len, "ftrace cat: %s: the dump's debuginfo lacks "
			 "the synthetic events' types (dyn_event, "
			 "synth_event, synth_field)", ref->file);
	else
		return NULL;
	return buf;
}

/**
 * th_cat_synthetic_events - synthetic_events: synth_events_seq_show() of
 * every synthetic event on dyn_event_list
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_synthetic_events(struct th_tr *tr, const struct th_tref *ref)
{
	ulong *v;
	long n, i;

	n = th_dyn_events_of(TH_DYN_SYNTH, &v);
	for (i = 0; i < n; i++) {
		ulong se = th_synth_of_dyn_event(v[i]);

		if (se)
			th_synth_show(se);
	}
	free(v);
}
