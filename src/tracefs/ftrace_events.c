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

	ff_event_names(call, sys, sizeof(sys), name, sizeof(name));
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

struct ff_cmdlines {
	ulong s;		/* struct saved_cmdlines_buffer */
	unsigned int num;
	ulong to_pid;		/* unsigned map_cmdline_to_pid[num] */
	ulong comms;		/* char saved_cmdlines[num][TASK_COMM_LEN] */
	ulong pid_map;		/* unsigned map_pid_to_cmdline[] */
	long pid_max;		/* its entries, PID_MAX_DEFAULT + 1 */
};

static int ff_cmdlines_read(struct ff_cmdlines *c, const char *file)
{
	ulong sym = th_symbol("savedcmd");
	long o_to = th_member("saved_cmdlines_buffer", "map_cmdline_to_pid");
	long o_num = th_member("saved_cmdlines_buffer", "cmdline_num");
	long o_cmd = th_member("saved_cmdlines_buffer", "saved_cmdlines");
	long o_map = th_member("saved_cmdlines_buffer", "map_pid_to_cmdline");

	memset(c, 0, sizeof(*c));
	if (!sym || o_to < 0 || o_num < 0 || o_cmd < 0 || o_map < 0) {
		fprintf(fp, "ftrace cat %s: no savedcmd in this dump\n", file);
		return FALSE;
	}
	if (!th_read_ulong(sym, &c->s, "savedcmd") || !c->s ||
	    !th_read_uint(c->s + o_num, &c->num, "cmdline_num") ||
	    !th_read_ulong(c->s + o_to, &c->to_pid, "map_cmdline_to_pid")) {
		fprintf(fp, "ftrace cat %s: cannot read savedcmd\n", file);
		return FALSE;
	}
	/* saved_cmdlines was a pointer to its own allocation; it is a
	 * flexible array at the end of the structure since v6.8 (and in
	 * the 6.1.y stable kernels of the fixtures). */
	if (MEMBER_TYPE("saved_cmdlines_buffer", "saved_cmdlines") ==
	    TYPE_CODE_ARRAY)
		c->comms = c->s + o_cmd;
	else if (!th_read_ulong(c->s + o_cmd, &c->comms, "saved_cmdlines")) {
		fprintf(fp, "ftrace cat %s: cannot read savedcmd\n", file);
		return FALSE;
	}
	c->pid_map = c->s + o_map;
	c->pid_max = MEMBER_SIZE("saved_cmdlines_buffer",
				 "map_pid_to_cmdline") / 4;
	return TRUE;
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

/* __trace_find_cmdline() */
static void ff_find_cmdline(struct ff_cmdlines *c, int pid, char *comm)
{
	unsigned int map = UINT_MAX, tpid = 0;

	if (!pid) {
		strcpy(comm, "<idle>");
		return;
	}
	if (pid < 0 || c->pid_max <= 1) {
		strcpy(comm, "<XXX>");
		return;
	}
	/* PID_MAX_DEFAULT is a power of two: the array has it + 1 entries */
	if (th_read_uint(c->pid_map + ((pid & (c->pid_max - 2)) * 4), &map,
			 "map_pid_to_cmdline") && map != UINT_MAX &&
	    map < c->num &&
	    th_read_uint(c->to_pid + map * 4, &tpid, "map_cmdline_to_pid") &&
	    (int)tpid == pid) {
		if (!th_read(c->comms + map * TASK_COMM_LEN, comm,
			     TASK_COMM_LEN, "saved_cmdlines"))
			strcpy(comm, "<...>");
		comm[TASK_COMM_LEN - 1] = '\0';
		return;
	}
	strcpy(comm, "<...>");
}

/**
 * th_cat_saved_cmdlines - saved_cmdlines_start()/_next()/_show()
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_saved_cmdlines(struct th_tr *tr, const struct th_tref *ref)
{
	struct ff_cmdlines c;
	unsigned int *pids;
	char comm[TASK_COMM_LEN];
	unsigned int i;

	if (!ff_cmdlines_read(&c, "saved_cmdlines"))
		return;
	if (c.num > 1000000) {
		fprintf(fp, "ftrace cat saved_cmdlines: implausible "
			"cmdline_num %u\n", c.num);
		return;
	}
	pids = (unsigned int *)GETBUF(c.num * 4 + 4);
	if (!th_read(c.to_pid, pids, c.num * 4, "map_cmdline_to_pid")) {
		fprintf(fp, "ftrace cat saved_cmdlines: cannot read "
			"map_cmdline_to_pid at %lx\n", c.to_pid);
		FREEBUF(pids);
		return;
	}
	for (i = 0; i < c.num; i++) {
		if (pids[i] == UINT_MAX)
			continue;
		ff_find_cmdline(&c, (int)pids[i], comm);
		fprintf(fp, "%d %s\n", (int)pids[i], comm);
	}
	FREEBUF(pids);
}

/**
 * th_cat_saved_cmdlines_size - tracing_saved_cmdlines_size_read()
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_saved_cmdlines_size(struct th_tr *tr,
				const struct th_tref *ref)
{
	struct ff_cmdlines c;

	if (ff_cmdlines_read(&c, "saved_cmdlines_size"))
		fprintf(fp, "%u\n", c.num);
}
