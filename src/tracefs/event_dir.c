/*
 * tracehunt: the files of the events directory and their lists:
 * available_events, events/header_page, events/header_event,
 * events/SYSTEM/EVENT/format and id, and printk_formats.
 *
 * The format files are the trace.dat writer's (render/trace_dump.c): one
 * renderer for "ftrace cat", "ftrace dump -t" and "ftrace dump -d".
 */
#include "tracefs/tracefs.h"
#include "model/ftrace_files.h"
#include "model/events.h"
#include "render/trace_dump.h"
#include "tracedat.h"

/* ---------------------------------------------------- available_events --- */

/**
 * th_missing_events - the files that need the trace event catalog
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_events(struct th_tr *tr, const struct th_tref *ref,
			      char *buf, size_t len)
{
	struct th_event *evs;

	if (th_event_names_ok() && th_tr_list(tr->addr, TH_TR_EVENTS) &&
	    th_events(&evs) > 0)
		return NULL;
	snprintf(buf, len, "ftrace cat: %s: the dump's debuginfo lacks the "
		 "trace events (trace_event_call, trace_array.events)",
		 ref->file);
	return buf;
}

static void th_avail_event(ulong call, void *arg)
{
	char sys[128], name[128];
	int reg, ignore;

	/* t_next(): the events whose enable file exists */
	if (!th_event_call_enablable(call, &reg, &ignore) || !reg ||
	    (ignore && !th_events_list_ignored()))
		return;
	if (!th_event_call_system(call, sys, sizeof(sys)) ||
	    !th_event_call_name(call, name, sizeof(name)))
		return;
	/* t_show(): no "SYSTEM:" for events without a TRACE_SYSTEM */
	if (strcmp(sys, "TRACE_SYSTEM") != 0)
		fprintf(fp, "%s:", sys);
	fprintf(fp, "%s\n", name);
}

/**
 * th_cat_available_events - t_show() of trace_events.c over the array's
 * event files (tr->events, in list order)
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_available_events(struct th_tr *tr, const struct th_tref *ref)
{
	if (!th_tr_event_files(tr, FALSE, th_avail_event, NULL))
		fprintf(fp, "ftrace cat: %s: the array's event files cannot "
			"be read\n", ref->file);
}

/* --------------------------------------------------- events/header_* --- */

/**
 * th_cat_event_header - events/header_page: show_header_page_file(), and
 * events/header_event: show_header_event_file()
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_event_header(struct th_tr *tr, const struct th_tref *ref)
{
	struct th_sb b = TH_SB_GROW;
	char err[256];

	if (!th_event_header_text(tr, strstr(ref->file, "header_page") != NULL,
				  &b, err, sizeof(err)))
		fprintf(fp, "ftrace cat: %s: %s\n", ref->file, err);
	else if (b.buf)
		fwrite(b.buf, 1, b.pos, fp);
	free(b.buf);
}

/* ------------------------------------------ events/SYSTEM/EVENT/FILE --- */

/**
 * th_event_path - "events/SYSTEM/EVENT/LEAF" into SYS and NAME
 * @file: the file named
 * @leaf: the last component it must have, NULL for any (with no '/')
 * @sys: room for the system
 * @slen: its size
 * @name: room for the event
 * @nlen: its size
 *
 * Return: FALSE when FILE is not of that shape.
 */
int th_event_path(const char *file, const char *leaf, char *sys,
		  size_t slen, char *name, size_t nlen)
{
	const char *s, *n, *l;

	if (strncmp(file, "events/", 7) != 0)
		return FALSE;
	s = file + 7;
	n = strchr(s, '/');
	if (!n || n == s || (size_t)(n - s) >= slen)
		return FALSE;
	l = strchr(n + 1, '/');
	if (!l || l == n + 1 || (size_t)(l - n - 1) >= nlen ||
	    (leaf ? strcmp(l + 1, leaf) != 0 : strchr(l + 1, '/') != NULL))
		return FALSE;
	memcpy(sys, s, n - s);
	sys[n - s] = '\0';
	memcpy(name, n + 1, l - n - 1);
	name[l - n - 1] = '\0';
	return TRUE;
}

/**
 * th_event_file_match - whether FILE is events/SYSTEM/EVENT/LEAF
 * @file: the file named
 * @leaf: the row's name
 */
int th_event_file_match(const char *file, const char *leaf)
{
	char sys[128], name[128];

	return th_event_path(file, leaf, sys, sizeof(sys), name, sizeof(name));
}

/* Whether CALL has an "id" file (event_create_dir()). */
static int th_event_has_id(ulong call, unsigned type)
{
	int reg, ignore;

	return type && th_event_call_enablable(call, &reg, &ignore) && reg;
}

/**
 * th_missing_event - an event file the dump's catalog does not have
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_event(struct th_tr *tr, const struct th_tref *ref,
			     char *buf, size_t len)
{
	char sys[128], name[128];
	const char *leaf = strrchr(ref->file, '/') + 1;
	const char *text;
	struct th_event *e;
	unsigned type;
	size_t n;

	th_event_path(ref->file, leaf, sys, sizeof(sys), name, sizeof(name));
	text = th_event_format_find(sys, name, &n, &type);
	if (!text)
		snprintf(buf, len, "ftrace cat: %s: no event %s/%s in the "
			 "dump's trace event catalog (or its format could not "
			 "be read)", ref->file, sys, name);
	else if (strcmp(leaf, "id") == 0 && (!(e = th_event_by_type(type)) ||
					     !th_event_has_id(e->call, type)))
		snprintf(buf, len, "ftrace cat: %s: the event has no id file "
			 "(its class has no reg(): it cannot be enabled)",
			 ref->file);
	else
		return NULL;
	return buf;
}

/**
 * th_cat_event_file - events/SYSTEM/EVENT/format: f_show() (the
 * trace.dat writer's text), and id: event_id_read()
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_event_file(struct th_tr *tr, const struct th_tref *ref)
{
	char sys[128], name[128];
	const char *leaf = strrchr(ref->file, '/') + 1;
	const char *text;
	unsigned type;
	size_t n;

	th_event_path(ref->file, leaf, sys, sizeof(sys), name, sizeof(name));
	text = th_event_format_find(sys, name, &n, &type);
	if (!text)
		return;
	if (strcmp(leaf, "id") == 0)
		fprintf(fp, "%d\n", (int)type);
	else
		fwrite(text, 1, n, fp);
}

struct th_ls_ev {
	const char *leaf;
	th_ls_add_fn add;
	void *arg;
};

static void th_ls_event(const char *sys, const char *name, ulong call,
			void *arg)
{
	struct th_ls_ev *l = arg;
	struct th_event *e;
	char path[320];
	size_t n;
	unsigned type;

	if (strchr(sys, '/') || strchr(name, '/') || !sys[0] || !name[0])
		return;
	if (strcmp(l->leaf, "id") == 0) {
		/* the first event of that name: the one cat prints */
		if (!th_event_format_find(sys, name, &n, &type) ||
		    !(e = th_event_by_type(type)) || e->call != call ||
		    !th_event_has_id(call, type))
			return;
	}
	snprintf(path, sizeof(path), "events/%s/%s/%s", sys, name, l->leaf);
	l->add(path, l->arg);
}

/**
 * th_ls_events - the events/SYSTEM/EVENT/LEAF files of the catalog
 * @leaf: the row's name
 * @add: called with each
 * @arg: passed to @add
 */
void th_ls_events(const char *leaf, th_ls_add_fn add, void *arg)
{
	struct th_ls_ev l = { leaf, add, arg };

	th_event_format_each(th_ls_event, &l);
}

/* ------------------------------------------------------ printk_formats --- */

/**
 * th_missing_printk_formats - printk_formats lists the kernel's sections
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_printk_formats(struct th_tr *tr,
				      const struct th_tref *ref, char *buf,
				      size_t len)
{
	if (th_symbol("__start___trace_bprintk_fmt") &&
	    th_symbol("trace_bprintk_fmt_list"))
		return NULL;
	return "ftrace cat: printk_formats: the dump's kernel has no "
		"trace_printk format tables";
}

static void th_printk_format(ulong fmt, void *arg)
{
	char *str = arg, *esc = str + 4096;

	if (!th_read_cstr(fmt, str, 4096, "printk format"))
		str[0] = '\0';
	td_printk_escape(str, esc, 16384);
	fprintf(fp, "0x%lx : \"%s\"\n", fmt, esc);
}

/**
 * th_cat_printk_formats - t_show() of kernel/trace/trace_printk.c over
 * every format
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_printk_formats(struct th_tr *tr, const struct th_tref *ref)
{
	char *buf = malloc(4096 + 16384);

	if (!buf)
		return;
	th_printk_formats_each(th_printk_format, buf);
	free(buf);
}
