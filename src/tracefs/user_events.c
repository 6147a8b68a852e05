/*
 * tracehunt: user events (kernel/trace/trace_events_user.c):
 * user_events_status (user_seq_show()) and a user event's line of
 * dynamic_events (user_event_show()).  Their events' format, id and
 * trace lines are every event's (tracefs/event_dir.c,
 * render/event_text.c: print_event_fields()).
 */
#include "tracefs/tracefs.h"
#include "model/user_event.h"
#include "model/events.h"

/* The catalog's event whose trace_event_call is CALL, with its fields;
 * NULL when none. */
static struct th_event *th_user_catalog_event(ulong call)
{
	struct th_event *evs;
	int n, i;

	n = th_events(&evs);
	for (i = 0; i < n; i++)
		if (evs[i].call == call) {
			th_event_fields(&evs[i]);
			return &evs[i];
		}
	return NULL;
}

/**
 * th_user_dyn_show - user_event_show(): "u:NAME TYPE NAME; TYPE NAME..."
 * (a struct's size after its name), the fields in the order they were
 * given
 * @ev: the user event's struct dyn_event
 */
void th_user_dyn_show(ulong ev)
{
	ulong user = th_user_event_of_dyn(ev);
	struct th_event *e;
	char name[512];
	int i;

	if (!th_user_event_name(user, name, sizeof(name)))
		th_warn("user event at %lx: its name cannot be read", user);
	fprintf(fp, "u:%s", name);
	e = th_user_catalog_event(th_user_event_call(user));
	if (!e)
		th_warn("user event %s: its trace_event_call %lx is not on "
			"ftrace_events", name, th_user_event_call(user));
	for (i = e ? e->nfields_common : 0; e && i < e->nfields; i++) {
		const struct th_event_field *f = &e->fields[i];

		fprintf(fp, "%s%s %s", i == e->nfields_common ? " " : "; ",
			f->type, f->name);
		if (strncmp(f->type, "struct ", 7) == 0)
			fprintf(fp, " %d", f->size);
	}
	fputc('\n', fp);
}

/**
 * th_missing_user_events_status - without user events (or their types in
 * the dump's debuginfo), no user_events_status
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_user_events_status(struct th_tr *tr,
					  const struct th_tref *ref,
					  char *buf, size_t len)
{
	if (th_user_events_ok())
		return NULL;
	snprintf(buf, len, "ftrace cat: %s: %s", ref->file,
		 th_user_events_why());
	return buf;
}

/**
 * th_cat_user_events_status - user_events_status: user_seq_show() of
 * init_group (the group of the initial user namespace, whose tracefs
 * the file is): each registered event's tracepoint name, " # Used by"
 * and what has it enabled, then the counts
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_user_events_status(struct th_tr *tr, const struct th_tref *ref)
{
	char name[512];
	int active = 0, busy = 0, status;
	ulong *v;
	long n, i;

	n = th_user_events_registered(&v);
	if (n < 0) {
		th_warn("user_events_status: init_group's register_table "
			"cannot be read");
		return;
	}
	for (i = 0; i < n; i++) {
		th_user_event_tp_name(v[i], name, sizeof(name));
		status = th_user_event_status(v[i]);
		fprintf(fp, "%s", name);
		if (status > 0) {
			fprintf(fp, " # Used by%s%s%s",
				status & 0x01 ? " ftrace" : "",
				status & 0x02 ? " perf" : "",
				status & 0x80 ? " other" : "");
			busy++;
		}
		fputc('\n', fp);
		active++;
	}
	free(v);
	fprintf(fp, "\nActive: %d\nBusy: %d\n", active, busy);
}
