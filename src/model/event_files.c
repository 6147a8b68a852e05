/*
 * tracehunt: a trace array's event files (struct trace_event_file on
 * tr->events) and its pending module events (struct event_mod_load on
 * tr->mod_events).  Each struct's members are looked up here, in one
 * offset struct filled on first use.
 */
#include "model/model.h"
#include "model/ftrace_files.h"

static struct th_event_file_off {
	int read;
	long list, event_call, flags;		/* trace_event_file */
	ulong fl_enabled;			/* EVENT_FILE_FL_ENABLED */
	long mod_list, mod_module, mod_match, mod_system, mod_event;
} th_event_file_offsets;

static const struct th_event_file_off *th_event_file_off(void)
{
	struct th_event_file_off *o = &th_event_file_offsets;

	if (o->read)
		return o;
	o->read = TRUE;
	o->list = th_member("trace_event_file", "list");
	o->event_call = th_member("trace_event_file", "event_call");
	o->flags = th_member("trace_event_file", "flags");
	o->fl_enabled = th_enum("EVENT_FILE_FL_ENABLED", 1);
	/* struct event_mod_load: set_event's ":mod:" entries */
	o->mod_list = th_member("event_mod_load", "list");
	o->mod_module = th_member("event_mod_load", "module");
	o->mod_match = th_member("event_mod_load", "match");
	o->mod_system = th_member("event_mod_load", "system");
	o->mod_event = th_member("event_mod_load", "event");
	return o;
}

/**
 * th_event_file_call - trace_event_file.event_call
 * @file: the struct trace_event_file
 *
 * Return: the struct trace_event_call, 0 when unreadable.
 */
ulong th_event_file_call(ulong file)
{
	return th_ptr_at(file, th_event_file_off()->event_call,
			 "trace_event_file.event_call");
}

/**
 * th_tr_enabled_events - s_next() of trace_events.c: the enabled event
 * files of an array
 * @tr: the array
 * @fn: called with the trace_event_call of each, in list order
 * @arg: passed to @fn
 *
 * Return: FALSE when the kernel has no trace event files (or their types).
 */
int th_tr_enabled_events(struct th_tr *tr, void (*fn)(ulong call, void *),
			 void *arg)
{
	return th_tr_event_files(tr, TRUE, fn, arg);
}

/**
 * th_tr_event_files - the event files of an array (tr->events), in list
 * order: every one, or the enabled ones
 * @tr: the array
 * @enabled: only those with EVENT_FILE_FL_ENABLED
 * @fn: called with the trace_event_call of each
 * @arg: passed to @fn
 *
 * Return: FALSE when the kernel has no trace event files (or their types).
 */
int th_tr_event_files(struct th_tr *tr, int enabled,
		      void (*fn)(ulong call, void *), void *arg)
{
	const struct th_event_file_off *o = th_event_file_off();
	ulong head = th_tr_list(tr->addr, TH_TR_EVENTS), file, call, fl;
	struct th_walk w;
	long i;

	if (!head || o->list < 0 || o->event_call < 0 || o->flags < 0)
		return FALSE;
	th_list_walk(head, TH_MAX_LIST, &w);
	for (i = 0; i < w.n; i++) {
		file = w.ent[i] - o->list;
		if (enabled && (!th_read_ulong(file + o->flags, &fl,
					       "trace_event_file.flags") ||
				!(fl & o->fl_enabled)))
			continue;
		if (!th_read_ulong(file + o->event_call, &call,
				   "trace_event_file.event_call"))
			continue;
		fn(call, arg);
	}
	if (w.err)
		th_warn("%s events: %s at %lx", tr->name[0] ? tr->name :
			"global", w.err, w.bad);
	th_walk_free(&w);
	return TRUE;
}

/* The string a char * member at OFF of BASE points to; FALSE (and "")
 * when absent, NULL or unreadable. */
static int th_str_member(ulong base, long off, char *buf, int len)
{
	ulong p = 0;

	buf[0] = '\0';
	if (off < 0 || !th_read_ulong(base + off, &p, "string pointer") || !p)
		return FALSE;
	th_read_cstr(p, buf, len, "string");
	return TRUE;
}

/**
 * th_tr_mod_events - the events to enable when a module loads
 * (tr->mod_events, in kernels that have it), in list order
 * @tr: the array
 * @fn: called with each
 * @arg: passed to @fn
 */
void th_tr_mod_events(struct th_tr *tr,
		      void (*fn)(const struct th_mod_event *, void *),
		      void *arg)
{
	const struct th_event_file_off *o = th_event_file_off();
	ulong head = th_tr_list(tr->addr, TH_TR_MOD_EVENTS), m;
	struct th_mod_event ev;
	struct th_walk w;
	long i;

	if (!head || o->mod_list < 0)
		return;
	th_list_walk(head, 10000, &w);
	for (i = 0; i < w.n; i++) {
		m = w.ent[i] - o->mod_list;
		th_str_member(m, o->mod_module, ev.module, sizeof(ev.module));
		ev.has_match = th_str_member(m, o->mod_match, ev.match,
					     sizeof(ev.match));
		ev.has_system = th_str_member(m, o->mod_system, ev.system,
					      sizeof(ev.system));
		ev.has_event = th_str_member(m, o->mod_event, ev.event,
					     sizeof(ev.event));
		fn(&ev, arg);
	}
	th_walk_free(&w);
}
