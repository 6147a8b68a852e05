/*
 * tracehunt: the event files: set_event (with the pending module
 * events), saved_cmdlines, saved_cmdlines_size.
 *
 * Each file is printed the way the kernel's show/read function prints it
 * (kernel/trace/trace_events.c, trace.c); the function named in each
 * comment is the one reproduced.
 */
#include "tracefs/tracefs.h"
#include "model/ftrace_files.h"
#include "model/events.h"
#include "model/cmdlines.h"

#define TRACE_SYSTEM_FTRACE	"ftrace"
#define TASK_COMM_LEN		16

/* ----------------------------------------------------------- set_event --- */

/* s_show() for SET_EVENT_MOD: an event to enable when a module loads */
static void ff_mod_event(const struct th_mod_event *ev, void *arg)
{
	if (ev->has_match)
		fprintf(fp, "%s:mod:%s\n", ev->match, ev->module);
	else
		fprintf(fp, "%s:%s:mod:%s\n", ev->has_system ? ev->system : "*",
			ev->has_event ? ev->event : "*", ev->module);
}

/* t_show(): "system:event", or "event" for the ftrace system */
static void ff_event_line(ulong call, void *arg)
{
	char sys[64], name[128];

	th_event_call_system(call, sys, sizeof(sys));
	th_event_call_name(call, name, sizeof(name));
	if (strcmp(sys, TRACE_SYSTEM_FTRACE) != 0)
		fprintf(fp, "%s:", sys);
	fprintf(fp, "%s\n", name);
}

/**
 * th_cat_set_event - s_next()/t_show() of trace_events.c: enabled event
 * files of TR, then the pending module events.
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_set_event(struct th_tr *tr, const struct th_tref *ref)
{
	if (!th_tr_enabled_events(tr, ff_event_line, NULL)) {
		fprintf(fp, "ftrace cat set_event: no trace event files in "
			"this dump\n");
		return;
	}
	th_tr_mod_events(tr, ff_mod_event, NULL);
}

/* ------------------------------------------------------ saved_cmdlines --- */

/* The saved cmdlines, or FALSE having said why not. */
static const struct th_savedcmd *ff_savedcmd(const char *file)
{
	const struct th_savedcmd *c = th_savedcmd();

	if (c->state == TH_SAVEDCMD_NONE)
		fprintf(fp, "ftrace cat %s: no savedcmd in this dump\n", file);
	else if (c->state == TH_SAVEDCMD_UNREADABLE)
		fprintf(fp, "ftrace cat %s: cannot read savedcmd\n", file);
	return c->state == TH_SAVEDCMD_OK ? c : NULL;
}

/**
 * th_missing_savedcmd - savedcmd: the buffer of saved_cmdlines and
 * saved_cmdlines_size
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_savedcmd(struct th_tr *tr, const struct th_tref *ref,
				char *buf, size_t len)
{
	if (th_symbol("savedcmd"))
		return NULL;
	snprintf(buf, len, "ftrace cat %s: no savedcmd in this dump",
		 ref->file);
	return buf;
}

/**
 * th_cat_saved_cmdlines - saved_cmdlines_start()/_next()/_show()
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_saved_cmdlines(struct th_tr *tr, const struct th_tref *ref)
{
	const struct th_savedcmd *c = ff_savedcmd("saved_cmdlines");
	unsigned int *pids;
	char comm[TASK_COMM_LEN];
	unsigned int i;

	if (!c)
		return;
	if (c->num > 1000000) {
		fprintf(fp, "ftrace cat saved_cmdlines: implausible "
			"cmdline_num %u\n", c->num);
		return;
	}
	if (!(pids = th_savedcmd_slots(c))) {
		fprintf(fp, "ftrace cat saved_cmdlines: cannot read "
			"map_cmdline_to_pid at %lx\n", c->to_pid);
		return;
	}
	for (i = 0; i < c->num; i++) {
		if (pids[i] == UINT_MAX)
			continue;
		th_savedcmd_find(c, (int)pids[i], comm);
		/* the kernel prints what it holds: so do we, warned once */
		if (!th_printable(comm))
			th_damaged("saved_cmdlines_buffer", c->addr, "a saved "
				   "comm is not text; printed as the kernel "
				   "would print it");
		fprintf(fp, "%d %s\n", (int)pids[i], comm);
	}
	free(pids);
}

/**
 * th_cat_saved_cmdlines_size - tracing_saved_cmdlines_size_read()
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_saved_cmdlines_size(struct th_tr *tr,
				const struct th_tref *ref)
{
	const struct th_savedcmd *c = ff_savedcmd("saved_cmdlines_size");

	if (c)
		fprintf(fp, "%u\n", c->num);
}
