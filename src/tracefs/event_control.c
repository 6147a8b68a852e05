/*
 * tracehunt: the files of the events directory that control events, per
 * trace array: events/enable, events/SYSTEM/enable and filter, and
 * events/SYSTEM/EVENT/enable, filter, trigger and hist, each as its
 * kernel read function printed it (named at each).
 */
#include "tracefs/tracefs.h"
#include "model/ftrace_files.h"
#include "model/dentry.h"

#define TH_FILTER_MAX	16384

/* Whether the kernel has the hist files (CONFIG_HIST_TRIGGERS). */
static int th_have_hist(void)
{
	static int have = -1;

	if (have < 0)
		have = th_symbol("event_hist_fops") != 0;
	return have;
}

/* Whether E's directory in TR has the file LEAF (event_create_dir(), or
 * event_callback() where eventfs makes the files on lookup). */
static int th_evfile_has(struct th_tr *tr, const struct th_evfile *e,
			 const char *leaf)
{
	/* a read-only array's events have only format and id */
	if (th_tr_readonly(tr->addr))
		return FALSE;
	if (strcmp(leaf, "enable") == 0)
		return e->reg && !e->ignore_enable;
	if (strcmp(leaf, "filter") == 0)
		return !e->ignore_enable;
	if (strcmp(leaf, "trigger") == 0)
		/* the ftrace/print event has one for trace_marker writes */
		return !e->ignore_enable ||
			e->file == th_tr_marker_file(tr->addr);
	if (strcmp(leaf, "hist") == 0)
		return th_have_hist();
	return FALSE;
}

/* Counts the hist triggers (and triggers not read) of an event file. */
struct th_trig_scan {
	int hist, unreadable, other, user;
};

static void th_trig_scan(const struct th_trigger *t, void *arg)
{
	struct th_trig_scan *s = arg;

	if (!t) {
		s->unreadable++;
		return;
	}
	if (!t->probe)
		s->user++;
	if (t->kind == TH_TRIG_HIST)
		s->hist++;
	else if (t->kind == TH_TRIG_OTHER)
		s->other++;
}

/**
 * th_missing_evfile - events/SYSTEM/EVENT/{enable,filter,trigger,hist}
 * when the array has no such file or the dump cannot answer it
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_evfile(struct th_tr *tr, const struct th_tref *ref,
			      char *buf, size_t len)
{
	const char *leaf = strrchr(ref->file, '/') + 1;
	const struct th_evfile *ev, *e;
	struct th_trig_scan s = { 0 };
	char sys[64], name[128];

	if (th_tr_evfiles(tr, &ev) < 0)
		snprintf(buf, len, "ftrace cat: %s: the dump's debuginfo lacks "
			 "the trace event files (trace_event_file)", ref->file);
	else if (!th_event_path(ref->file, NULL, sys, sizeof(sys), name,
				sizeof(name)) ||
		 !(e = th_tr_evfile(tr, sys, name)) ||
		 !th_evfile_has(tr, e, leaf))
		snprintf(buf, len, "ftrace cat: %s: no such file in this "
			 "array's events directory", ref->file);
	else if (!e->state_ok)
		snprintf(buf, len, "ftrace cat: %s: the event file at %lx "
			 "cannot be read", ref->file, e->file);
	else if (strcmp(leaf, "trigger") != 0 && strcmp(leaf, "hist") != 0)
		return NULL;
	else if (th_event_triggers(e->file, th_trig_scan, &s) < 0 ||
		 s.unreadable)
		snprintf(buf, len, "ftrace cat: %s: the event's triggers "
			 "cannot be read", ref->file);
	else if (s.other && strcmp(leaf, "trigger") == 0)
		snprintf(buf, len, "ftrace cat: %s: a trigger of a command "
			 "tracehunt does not know", ref->file);
	else
		return NULL;
	return buf;
}

/* event_trigger_print() and event_enable_trigger_print() */
static void th_trigger_print(const struct th_trigger *t, void *arg)
{
	if (!t || t->probe || t->kind == TH_TRIG_PROBE)
		return;	/* eprobe_trigger_print() prints nothing */
	if (t->kind == TH_TRIG_HIST) {
		th_hist_trigger_print(t);
		return;
	}
	if (t->kind == TH_TRIG_ENABLE)
		fprintf(fp, "%s_%s:%s:%s", t->enable ? "enable" : "disable",
			t->hist ? "hist" : "event", t->esystem, t->ename);
	else
		fputs(t->cmd, fp);
	if (t->count == -1)
		fputs(":unlimited", fp);
	else
		fprintf(fp, ":count=%ld", t->count);
	if (t->filter)
		fprintf(fp, " if %s\n", t->filter);
	else
		fputc('\n', fp);
}

/* trigger_show(): the triggers, or when none a user set (only an
 * eprobe's), the commands available (trigger_commands, last first) */
static void th_cat_trigger(ulong file, const char *path)
{
	struct th_trig_scan s = { 0 };
	char names[64][32];
	int n;

	th_event_triggers(file, th_trig_scan, &s);
	if (s.user) {
		th_event_triggers(file, th_trigger_print, NULL);
		return;
	}
	n = th_trigger_commands(names, 64);
	if (n < 0) {
		fprintf(fp, "ftrace cat: %s: the trigger commands "
			"(trigger_commands) cannot be read\n", path);
		return;
	}
	fputs("# Available triggers:\n#", fp);
	while (n-- > 0)
		fprintf(fp, " %s", names[n]);
	fputc('\n', fp);
}

/**
 * th_cat_evfile - events/SYSTEM/EVENT/enable: event_enable_read(),
 * filter: event_filter_read(), trigger: trigger_show()
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_evfile(struct th_tr *tr, const struct th_tref *ref)
{
	const char *leaf = strrchr(ref->file, '/') + 1;
	const struct th_evfile *e;
	char sys[64], name[128], *buf;
	int r;

	if (!th_event_path(ref->file, NULL, sys, sizeof(sys), name,
			   sizeof(name)) ||
	    !(e = th_tr_evfile(tr, sys, name)))
		return;
	if (strcmp(leaf, "enable") == 0) {
		fprintf(fp, "%d%s\n", e->enabled && !e->soft_disabled,
			e->soft_mode ? "*" : "");
	} else if (strcmp(leaf, "filter") == 0) {
		/* print_event_filter() */
		if (!(buf = malloc(TH_FILTER_MAX)))
			return;
		r = th_event_file_filter(e->file, buf, TH_FILTER_MAX);
		if (r < 0)
			fprintf(fp, "ftrace cat: %s: the event's filter cannot "
				"be read\n", ref->file);
		else
			fprintf(fp, "%s\n", r ? buf : "none");
		free(buf);
	} else if (strcmp(leaf, "trigger") == 0) {
		th_cat_trigger(e->file, ref->file);
	}
}

struct th_ls_evctl {
	struct th_tr *tr;
	const char *leaf;
	th_ls_add_fn add;
	void *arg;
};

/**
 * th_ls_evfiles - the events/SYSTEM/EVENT/LEAF files of an array
 * @tr: the trace array
 * @leaf: the row's name
 * @add: called with each
 * @arg: passed to @add
 */
void th_ls_evfiles(struct th_tr *tr, const char *leaf, th_ls_add_fn add,
		   void *arg)
{
	const struct th_evfile *ev;
	char path[320];
	int i, n = th_tr_evfiles(tr, &ev);

	for (i = 0; i < n; i++) {
		if (strchr(ev[i].system, '/') || strchr(ev[i].name, '/') ||
		    !ev[i].system[0] || !ev[i].name[0] ||
		    !th_evfile_has(tr, &ev[i], leaf) ||
		    th_tr_evfile(tr, ev[i].system, ev[i].name) != &ev[i])
			continue;
		snprintf(path, sizeof(path), "events/%s/%s/%s", ev[i].system,
			 ev[i].name, leaf);
		add(path, arg);
	}
}

/* --------------------------------------------- events/SYSTEM/{enable,filter} */

/* "events/SYSTEM/LEAF" into SYS. */
static int th_evsys_path(const char *file, char *sys, size_t slen)
{
	const char *s, *l;

	if (strncmp(file, "events/", 7) != 0)
		return FALSE;
	s = file + 7;
	l = strchr(s, '/');
	if (!l || l == s || (size_t)(l - s) >= slen || strchr(l + 1, '/'))
		return FALSE;
	memcpy(sys, s, l - s);
	sys[l - s] = '\0';
	return TRUE;
}

/**
 * th_event_system_match - whether FILE is events/SYSTEM/LEAF
 * @file: the file named
 * @leaf: the row's name
 */
int th_event_system_match(const char *file, const char *leaf)
{
	char sys[64];

	return th_evsys_path(file, sys, sizeof(sys)) &&
		strcmp(strrchr(file, '/') + 1, leaf) == 0;
}

/*
 * The "ftrace" system's directory where it has the file LEAF:
 * event_subsystem_dir() stopped creating them in v5.11 ("the ftrace
 * system is special"); before that (5.10) the file is in the array's tree of
 * dentries, and its inode's i_private is the trace_subsystem_dir its
 * read is given (where the dentries are readable: before eventfs).
 */
static const struct th_evsystem *th_evsys_ftrace(struct th_tr *tr,
						 const struct th_evsystem *s,
						 int n, const char *leaf)
{
	ulong dir = th_tr_event_dir(tr->addr), file, priv;
	char name[16];
	int i;

	if (!th_dentry_ok() || !th_dentry_name(dir, name, sizeof(name)) ||
	    strcmp(name, "events") != 0 ||
	    !(file = th_dentry_child(th_dentry_child(dir, "ftrace"), leaf)) ||
	    !(priv = th_dentry_private(file)))
		return NULL;
	for (i = 0; i < n; i++)
		if (s[i].dir == priv)
			return &s[i];
	return NULL;
}

/* The system directory SYS of TR where it has the file LEAF (every one
 * but "ftrace", see above). */
static const struct th_evsystem *th_evsys(struct th_tr *tr, const char *sys,
					  const char *leaf)
{
	const struct th_evsystem *s;
	int i, n = th_tr_evsystems(tr, &s);

	if (th_tr_readonly(tr->addr))
		return NULL;
	if (strcmp(sys, "ftrace") == 0)
		return th_evsys_ftrace(tr, s, n, leaf);
	for (i = 0; i < n; i++)
		if (strcmp(s[i].name, sys) == 0)
			return &s[i];
	return NULL;
}

/**
 * th_missing_evsystem - events/SYSTEM/enable and filter when the array
 * has no such system directory (or the dump cannot say)
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_evsystem(struct th_tr *tr, const struct th_tref *ref,
				char *buf, size_t len)
{
	const struct th_evsystem *s;
	const struct th_evfile *ev;
	char sys[64];

	if (th_tr_evsystems(tr, &s) < 0 || th_tr_evfiles(tr, &ev) < 0)
		snprintf(buf, len, "ftrace cat: %s: the dump's debuginfo lacks "
			 "the event system directories (trace_subsystem_dir, "
			 "trace_event_file)", ref->file);
	else if (!th_evsys_path(ref->file, sys, sizeof(sys)) ||
		 !th_evsys(tr, sys, strrchr(ref->file, '/') + 1))
		snprintf(buf, len, "ftrace cat: %s: no such file in this "
			 "array's events directory", ref->file);
	else
		return NULL;
	return buf;
}

/* trace_events_enabled() (system_enable_read() before 6.x): '0' every
 * event of SYS (NULL: of all systems) off, '1' all on, 'X' both, '?' no
 * event */
static void th_systems_enable(struct th_tr *tr, const char *sys)
{
	const struct th_evfile *ev;
	int i, set = 0, n = th_tr_evfiles(tr, &ev);

	for (i = 0; i < n && set != 3; i++) {
		if (ev[i].ignore_enable || !ev[i].reg ||
		    (sys && strcmp(ev[i].system, sys) != 0))
			continue;
		set |= 1 << (ev[i].enabled != 0);
	}
	fprintf(fp, "%c\n", "?01X"[set]);
}

/**
 * th_cat_evsystem - events/SYSTEM/enable: system_enable_read(), filter:
 * print_subsystem_event_filter()
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_evsystem(struct th_tr *tr, const struct th_tref *ref)
{
	const struct th_evsystem *s;
	char sys[64], *buf;
	int r;

	if (!th_evsys_path(ref->file, sys, sizeof(sys)) ||
	    !(s = th_evsys(tr, sys, strrchr(ref->file, '/') + 1)))
		return;
	if (strcmp(strrchr(ref->file, '/') + 1, "enable") == 0) {
		th_systems_enable(tr, sys);
		return;
	}
	if (!(buf = malloc(TH_FILTER_MAX)))
		return;
	r = th_subsystem_filter(s->subsystem, buf, TH_FILTER_MAX);
	if (r < 0)
		fprintf(fp, "ftrace cat: %s: the system's filter cannot be "
			"read\n", ref->file);
	else if (r)
		fprintf(fp, "%s\n", buf);
	else	/* DEFAULT_SYS_FILTER_MESSAGE */
		fputs("### global filter ###\n"
		      "# Use this to set filters for multiple events.\n"
		      "# Only events with the given fields will be affected.\n"
		      "# If no events are modified, an error message will be "
		      "displayed here\n", fp);
	free(buf);
}

/**
 * th_ls_evsystems - the events/SYSTEM/LEAF files of an array
 * @tr: the trace array
 * @leaf: the row's name
 * @add: called with each
 * @arg: passed to @add
 */
void th_ls_evsystems(struct th_tr *tr, const char *leaf, th_ls_add_fn add,
		     void *arg)
{
	const struct th_evsystem *s;
	char path[160];
	int i, n = th_tr_evsystems(tr, &s);

	for (i = 0; i < n; i++) {
		if (!s[i].name[0] || strchr(s[i].name, '/') ||
		    th_evsys(tr, s[i].name, leaf) != &s[i])
			continue;
		snprintf(path, sizeof(path), "events/%s/%s", s[i].name, leaf);
		add(path, arg);
	}
}

/* ------------------------------------ show_event_filters, show_event_triggers */

/* Whether the kernel has LEAF (show_event_filters: t_show_filters(),
 * show_event_triggers: t_show_triggers(), v7.0) */
static int th_have_show_file(const char *leaf)
{
	return th_symbol(strcmp(leaf, "show_event_filters") == 0 ?
			 "t_show_filters" : "t_show_triggers") != 0;
}

/**
 * th_missing_show_events - show_event_filters and show_event_triggers
 * where the kernel has them and the dump can say
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_show_events(struct th_tr *tr, const struct th_tref *ref,
				   char *buf, size_t len)
{
	const struct th_evfile *ev;
	struct th_trig_scan s = { 0 };
	int i, n;

	if (!th_have_show_file(ref->file)) {
		snprintf(buf, len, "ftrace cat: %s: this kernel has no such "
			 "file", ref->file);
		return buf;
	}
	n = th_tr_evfiles(tr, &ev);
	if (n < 0) {
		snprintf(buf, len, "ftrace cat: %s: the dump's debuginfo lacks "
			 "the trace event files (trace_event_file)", ref->file);
		return buf;
	}
	if (strcmp(ref->file, "show_event_triggers") != 0)
		return NULL;
	for (i = 0; i < n; i++) {
		if (ev[i].ignore_enable)
			continue;
		if (th_event_triggers(ev[i].file, th_trig_scan, &s) < 0 ||
		    s.unreadable) {
			snprintf(buf, len, "ftrace cat: %s: the triggers of "
				 "%s:%s cannot be read", ref->file,
				 ev[i].system, ev[i].name);
			return buf;
		}
	}
	if (s.other) {
		snprintf(buf, len, "ftrace cat: %s: a trigger of a command "
			 "tracehunt does not know", ref->file);
		return buf;
	}
	return NULL;
}

/* "SYSTEM:EVENT" and what separates it from the filter or trigger: as
 * merged, spaces to column 32 (at least one: get_call_len()); as first
 * posted, a tab */
static void th_show_event_name(const struct th_evfile *e)
{
	static int pad = -1;
	int len = (int)(strlen(e->system) + strlen(e->name) + 1);

	if (pad < 0)
		pad = th_symbol("get_call_len") != 0;
	fprintf(fp, "%s:%s", e->system, e->name);
	if (pad)
		fprintf(fp, "%*s", len >= 32 ? 1 : 32 - len, "");
	else
		fputc('\t', fp);
}

/* t_show_triggers(): the event's name and the trigger's print() (an
 * eprobe's prints nothing, not even the newline) */
static void th_show_trigger(const struct th_trigger *t, void *arg)
{
	const struct th_evfile *e = arg;

	th_show_event_name(e);
	if (t && !t->probe && t->kind != TH_TRIG_PROBE)
		th_trigger_print(t, NULL);
}

/**
 * th_cat_show_events - show_event_filters (t_show_filters()) and
 * show_event_triggers (t_show_triggers()) over the array's event files
 * that t_next() visits (not those of TRACE_EVENT_FL_IGNORE_ENABLE)
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_show_events(struct th_tr *tr, const struct th_tref *ref)
{
	int triggers = strcmp(ref->file, "show_event_triggers") == 0;
	const struct th_evfile *ev;
	char *buf;
	int i, n = th_tr_evfiles(tr, &ev), r;

	if (!(buf = malloc(TH_FILTER_MAX)))
		return;
	for (i = 0; i < n; i++) {
		if (ev[i].ignore_enable)
			continue;
		if (triggers) {
			th_event_triggers(ev[i].file, th_show_trigger,
					  (void *)&ev[i]);
			continue;
		}
		r = th_event_file_filter(ev[i].file, buf, TH_FILTER_MAX);
		if (r < 0)
			th_warn("%s:%s: the event's filter cannot be read",
				ev[i].system, ev[i].name);
		else if (r) {
			th_show_event_name(&ev[i]);
			fprintf(fp, "%s\n", buf);
		}
	}
	free(buf);
}

/* ------------------------------------------------------- events/enable --- */

/**
 * th_missing_events_enable - events/enable when the dump cannot say
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_events_enable(struct th_tr *tr,
				     const struct th_tref *ref, char *buf,
				     size_t len)
{
	const struct th_evfile *ev;

	if (th_tr_readonly(tr->addr))
		snprintf(buf, len, "ftrace cat: %s: a read-only array has no "
			 "such file", ref->file);
	else if (th_tr_evfiles(tr, &ev) >= 0)
		return NULL;
	else
		snprintf(buf, len, "ftrace cat: %s: the dump's debuginfo "
			 "lacks the trace event files (trace_event_file)",
			 ref->file);
	return buf;
}

/**
 * th_cat_events_enable - events/enable: system_enable_read() of no system
 * (every event of the array)
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_events_enable(struct th_tr *tr, const struct th_tref *ref)
{
	th_systems_enable(tr, NULL);
}
