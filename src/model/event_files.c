/*
 * tracehunt: a trace array's event files (struct trace_event_file on
 * tr->events) with their filters (struct event_filter), its event system
 * directories (struct trace_subsystem_dir on tr->systems, each naming a
 * struct event_subsystem) and its pending module events (struct
 * event_mod_load on tr->mod_events).  Each struct's members are looked
 * up here, in one offset struct filled on first use.
 */
#include "model/model.h"
#include "model/ftrace_files.h"
#include "model/events.h"
#include "nameidx.h"

static struct th_event_file_off {
	int read;
	long list, event_call, flags;		/* trace_event_file */
	long filter, triggers, sm_ref;
	ulong fl_enabled;			/* EVENT_FILE_FL_ENABLED */
	ulong fl_soft_disabled, fl_soft_mode;	/* 0: no such flag */
	long filter_string;			/* event_filter */
	long sd_list, sd_subsystem;		/* trace_subsystem_dir */
	long sub_name, sub_filter;		/* event_subsystem */
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
	o->filter = th_member("trace_event_file", "filter");
	o->triggers = th_member("trace_event_file", "triggers");
	o->fl_soft_disabled = th_enum("EVENT_FILE_FL_SOFT_DISABLED", 0);
	/*
	 * event_enable_read()'s "*": EVENT_FILE_FL_SOFT_MODE (or
	 * SOFT_DISABLED) in the flags; kernels without that flag (gone by
	 * 7.2: the soft mode is only the count) test sm_ref.
	 */
	o->fl_soft_mode = th_enum("EVENT_FILE_FL_SOFT_MODE", 0);
	o->sm_ref = th_member("trace_event_file", "sm_ref");
	o->filter_string = th_member("event_filter", "filter_string");
	o->sd_list = th_member("trace_subsystem_dir", "list");
	o->sd_subsystem = th_member("trace_subsystem_dir", "subsystem");
	o->sub_name = th_member("event_subsystem", "name");
	o->sub_filter = th_member("event_subsystem", "filter");
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

/* ------------------------------------------ an array's event directory --- */

/* What was read of each array (the dump does not change). */
static struct th_evdir {
	ulong tr;
	int nev, nsys;			/* -1: the list could not be walked */
	struct th_evfile *ev;
	struct th_evsystem *sys;
	struct ni_index names;		/* ev by (system, name): made by the
					 * first th_tr_evfile() */
} *th_evdirs;
static int th_nevdirs;

/* One trace_event_file of an array; FALSE when its event's names or its
 * flags cannot be read. */
static int th_evfile_read(const struct th_event_file_off *o, ulong file,
			  struct th_evfile *e)
{
	ulong fl = 0;
	int sm = 0;

	memset(e, 0, sizeof(*e));
	e->file = file;
	if (!th_read_ulong(file + o->event_call, &e->call,
			   "trace_event_file.event_call") || !e->call ||
	    !th_event_call_name(e->call, e->name, sizeof(e->name)) ||
	    !th_event_call_system(e->call, e->system, sizeof(e->system)) ||
	    !th_event_call_enablable(e->call, &e->reg, &e->ignore_enable))
		return FALSE;
	e->state_ok = th_read_ulong(file + o->flags, &fl,
				    "trace_event_file.flags");
	e->enabled = (fl & o->fl_enabled) != 0;
	e->soft_disabled = o->fl_soft_disabled &&
		(fl & o->fl_soft_disabled) != 0;
	if (o->fl_soft_mode)
		e->soft_mode = (fl & (o->fl_soft_mode |
				      o->fl_soft_disabled)) != 0;
	else if (o->sm_ref >= 0 && th_read_int(file + o->sm_ref, &sm,
					       "trace_event_file.sm_ref"))
		e->soft_mode = sm != 0;
	else
		e->state_ok = FALSE;
	return TRUE;
}

/* The entries of the list at HEAD, each LINK bytes into its struct, read
 * by FN into an array of N structs of SIZE bytes; the count, -1 when HEAD
 * or LINK is unknown. */
static int th_evdir_walk(ulong head, long link, size_t size, void **out,
			 int (*fn)(const struct th_event_file_off *, ulong,
				   void *), const char *what)
{
	const struct th_event_file_off *o = th_event_file_off();
	struct th_walk w;
	char *arr;
	long i;
	int n = 0;

	*out = NULL;
	if (!head || link < 0)
		return -1;
	th_list_walk(head, TH_MAX_LIST, &w);
	arr = calloc(w.n ? w.n : 1, size);
	for (i = 0; arr && i < w.n; i++)
		if (fn(o, w.ent[i] - link, arr + n * size))
			n++;
	if (w.err)
		th_warn("%s: %s at %lx", what, w.err, w.bad);
	th_walk_free(&w);
	*out = arr;
	return arr ? n : -1;
}

static int th_evfile_fn(const struct th_event_file_off *o, ulong file,
			void *e)
{
	return th_evfile_read(o, file, e);
}

/* One trace_subsystem_dir: its event_subsystem and that one's name. */
static int th_evsystem_fn(const struct th_event_file_off *o, ulong dir,
			  void *arg)
{
	struct th_evsystem *s = arg;
	ulong np = 0;

	s->dir = dir;
	return o->sd_subsystem >= 0 && o->sub_name >= 0 &&
		th_read_ulong(dir + o->sd_subsystem, &s->subsystem,
			      "trace_subsystem_dir.subsystem") &&
		s->subsystem && th_read_ulong(s->subsystem + o->sub_name, &np,
					      "event_subsystem.name") &&
		np && th_read_cstr(np, s->name, sizeof(s->name),
				   "event_subsystem.name");
}

/* TR's event files and system directories, read on first use. */
static struct th_evdir *th_evdir(struct th_tr *tr)
{
	const struct th_event_file_off *o = th_event_file_off();
	struct th_evdir *d, *grown;
	const char *tag;
	int i;

	for (i = 0; i < th_nevdirs; i++)
		if (th_evdirs[i].tr == tr->addr) {
			th_damage_replay("event_files");
			return &th_evdirs[i];
		}
	grown = realloc(th_evdirs, (th_nevdirs + 1) * sizeof(*th_evdirs));
	if (!grown)
		return NULL;
	th_evdirs = grown;
	d = &th_evdirs[th_nevdirs++];
	memset(d, 0, sizeof(*d));
	d->tr = tr->addr;
	tag = th_damage_tag("event_files");
	d->nev = o->flags < 0 || o->event_call < 0 ? -1 :
		th_evdir_walk(th_tr_list(tr->addr, TH_TR_EVENTS), o->list,
			      sizeof(*d->ev), (void **)&d->ev, th_evfile_fn,
			      "trace_array.events");
	d->nsys = th_evdir_walk(th_tr_list(tr->addr, TH_TR_SYSTEMS),
				o->sd_list, sizeof(*d->sys), (void **)&d->sys,
				th_evsystem_fn, "trace_array.systems");
	th_damage_tag(tag);
	return d;
}

/**
 * th_tr_evfiles - the event files of an array (tr->events, in list order)
 * with what their enable files show
 * @tr: the array
 * @out: set to them (kept for the session)
 *
 * Return: their number, -1 when the kernel's layout is not known.
 */
int th_tr_evfiles(struct th_tr *tr, const struct th_evfile **out)
{
	struct th_evdir *d = th_evdir(tr);

	*out = d ? d->ev : NULL;
	return d ? d->nev : -1;
}

/* The names of event file I of ARG (a struct th_evfile array) */
static void th_evfile_names(const void *arg, int i, const char **system,
			    const char **name)
{
	const struct th_evfile *ev = arg;

	*system = ev[i].system;
	*name = ev[i].name;
}

/**
 * th_tr_evfile - the event file of SYSTEM/NAME in an array
 * @tr: the array
 * @system: the event's system
 * @name: the event's name
 *
 * Return: the first of that name (the one its directory shows), NULL
 * when none.
 */
const struct th_evfile *th_tr_evfile(struct th_tr *tr, const char *system,
				     const char *name)
{
	struct th_evdir *d = th_evdir(tr);
	int i;

	if (!d || d->nev <= 0)
		return NULL;
	/* (an options dump's command looks one up among 1,500) */
	if (!d->names.slot)
		ni_build(&d->names, d->nev, th_evfile_names, d->ev);
	i = ni_find(&d->names, system, name, th_evfile_names, d->ev);
	return i >= 0 ? &d->ev[i] : NULL;
}

/**
 * th_tr_evsystems - the event system directories of an array
 * (tr->systems, in list order)
 * @tr: the array
 * @out: set to them (kept for the session)
 *
 * Return: their number, -1 when the kernel's layout is not known.
 */
int th_tr_evsystems(struct th_tr *tr, const struct th_evsystem **out)
{
	struct th_evdir *d = th_evdir(tr);

	*out = d ? d->sys : NULL;
	return d ? d->nsys : -1;
}

/* The filter_string of the struct event_filter whose pointer is at AT. */
static int th_filter_string(ulong at, char *buf, size_t len)
{
	const struct th_event_file_off *o = th_event_file_off();
	ulong filter = 0, str = 0;

	buf[0] = '\0';
	if (o->filter_string < 0 || !th_read_ulong(at, &filter,
						   "event filter pointer"))
		return -1;
	if (!filter)
		return 0;
	if (!th_read_ulong(filter + o->filter_string, &str,
			   "event_filter.filter_string"))
		return -1;
	if (!str)
		return 0;
	return th_read_cstr(str, buf, len, "event_filter.filter_string") ?
		1 : -1;
}

/**
 * th_event_file_filter - trace_event_file.filter's filter_string
 * @file: the struct trace_event_file
 * @buf: the string
 * @len: room in @buf
 *
 * Return: 1 with the string, 0 when the file has no filter string, -1
 * when it cannot be read.
 */
int th_event_file_filter(ulong file, char *buf, size_t len)
{
	long off = th_event_file_off()->filter;

	buf[0] = '\0';
	return off < 0 ? -1 : th_filter_string(file + off, buf, len);
}

/**
 * th_subsystem_filter - event_subsystem.filter's filter_string
 * @subsystem: the struct event_subsystem
 * @buf: the string
 * @len: room in @buf
 *
 * Return: 1 with the string, 0 when none, -1 when it cannot be read.
 */
int th_subsystem_filter(ulong subsystem, char *buf, size_t len)
{
	long off = th_event_file_off()->sub_filter;

	buf[0] = '\0';
	return off < 0 ? -1 : th_filter_string(subsystem + off, buf, len);
}

/**
 * th_event_file_triggers - the address of trace_event_file.triggers (a
 * list of struct event_trigger_data)
 * @file: the struct trace_event_file
 *
 * Return: 0 when the kernel has no triggers.
 */
ulong th_event_file_triggers(ulong file)
{
	long off = th_event_file_off()->triggers;

	return off < 0 ? 0 : file + off;
}
