/*
 * tracehunt: event triggers: the struct event_trigger_data on an event
 * file's triggers list, the struct event_command each belongs to, an
 * enable trigger's struct enable_trigger_data, and trigger_commands (the
 * registered commands).  Their members are looked up here, in one offset
 * struct filled on first use.
 */
#include "model/model.h"
#include "model/ftrace_files.h"
#include "model/events.h"

static struct th_trigger_off {
	int read;
	long list, count, flags, cmd_ops, filter_str, private_data, paused;
	long name;				/* a named hist trigger's */
	long cmd_list, cmd_name, cmd_type;	/* event_command */
	long en_file, en_enable, en_hist;	/* enable_trigger_data */
	long fl_probe;		/* EVENT_TRIGGER_FL_PROBE, 0: none */
	/* enum event_trigger_type, -1: none */
	long ett_onoff, ett_snapshot, ett_stack, ett_enable, ett_hist,
	     ett_hist_enable, ett_eprobe;
} th_trigger_offsets;

static const struct th_trigger_off *th_trigger_off(void)
{
	struct th_trigger_off *o = &th_trigger_offsets;

	if (o->read)
		return o;
	o->read = TRUE;
	o->list = th_member("event_trigger_data", "list");
	o->count = th_member("event_trigger_data", "count");
	o->flags = th_member("event_trigger_data", "flags");
	o->cmd_ops = th_member("event_trigger_data", "cmd_ops");
	o->filter_str = th_member("event_trigger_data", "filter_str");
	o->private_data = th_member("event_trigger_data", "private_data");
	o->paused = th_member("event_trigger_data", "paused");
	o->name = th_member("event_trigger_data", "name");
	o->cmd_list = th_member("event_command", "list");
	o->cmd_name = th_member("event_command", "name");
	o->cmd_type = th_member("event_command", "trigger_type");
	o->en_file = th_member("enable_trigger_data", "file");
	o->en_enable = th_member("enable_trigger_data", "enable");
	o->en_hist = th_member("enable_trigger_data", "hist");
	/* the eprobes' own triggers (v5.15), which print nothing */
	o->fl_probe = th_enum("EVENT_TRIGGER_FL_PROBE", 0);
	o->ett_onoff = th_enum("ETT_TRACE_ONOFF", -1);
	o->ett_snapshot = th_enum("ETT_SNAPSHOT", -1);
	o->ett_stack = th_enum("ETT_STACKTRACE", -1);
	o->ett_enable = th_enum("ETT_EVENT_ENABLE", -1);
	o->ett_hist = th_enum("ETT_EVENT_HIST", -1);
	o->ett_hist_enable = th_enum("ETT_HIST_ENABLE", -1);
	o->ett_eprobe = th_enum("ETT_EVENT_EPROBE", -1);
	return o;
}

/* What the command of type TYPE prints (event_trigger_print() and the
 * like, one per command). */
static enum th_trigger_kind th_trigger_kind(const struct th_trigger_off *o,
					    long type)
{
	if (type < 0)
		return TH_TRIG_OTHER;
	if (type == o->ett_onoff || type == o->ett_snapshot ||
	    type == o->ett_stack)
		return TH_TRIG_PLAIN;
	if (type == o->ett_enable || type == o->ett_hist_enable)
		return TH_TRIG_ENABLE;
	if (type == o->ett_hist)
		return TH_TRIG_HIST;
	if (type == o->ett_eprobe)
		return TH_TRIG_PROBE;
	return TH_TRIG_OTHER;
}

/* An enable trigger's event and direction (enable_trigger_data). */
static int th_trigger_enable(const struct th_trigger_off *o,
			     struct th_trigger *t, ulong priv)
{
	ulong file, call;
	char b = 0, h = 0;

	if (!priv || o->en_file < 0 || o->en_enable < 0 || o->en_hist < 0 ||
	    !th_read_ulong(priv + o->en_file, &file,
			   "enable_trigger_data.file") ||
	    !th_read(priv + o->en_enable, &b, 1,
		     "enable_trigger_data.enable") ||
	    !th_read(priv + o->en_hist, &h, 1, "enable_trigger_data.hist") ||
	    !(call = th_event_file_call(file)) ||
	    !th_event_call_system(call, t->esystem, sizeof(t->esystem)) ||
	    !th_event_call_name(call, t->ename, sizeof(t->ename)))
		return FALSE;
	t->enable = b != 0;
	t->hist = h != 0;
	return TRUE;
}

/* One event_trigger_data into T; FALSE when it cannot be read. */
static int th_trigger_read(const struct th_trigger_off *o, ulong data,
			   struct th_trigger *t)
{
	ulong cmd = 0, np = 0, fs = 0, priv = 0;
	int flags = 0, type = -1;
	char paused = 0;

	memset(t, 0, sizeof(*t));
	t->data = data;
	if (!th_read_ulong(data + o->count, (ulong *)&t->count,
			   "event_trigger_data.count") ||
	    !th_read_ulong(data + o->cmd_ops, &cmd,
			   "event_trigger_data.cmd_ops") || !cmd ||
	    !th_read_ulong(cmd + o->cmd_name, &np, "event_command.name") ||
	    !np || !th_read_cstr(np, t->cmd, sizeof(t->cmd),
				 "event_command.name") ||
	    !th_read_int(cmd + o->cmd_type, &type,
			 "event_command.trigger_type"))
		return FALSE;
	if (o->flags >= 0 && o->fl_probe &&
	    th_read_int(data + o->flags, &flags, "event_trigger_data.flags"))
		t->probe = (flags & o->fl_probe) != 0;
	t->kind = th_trigger_kind(o, type);
	if (o->paused >= 0 && th_read(data + o->paused, &paused, 1,
				      "event_trigger_data.paused"))
		t->paused = paused != 0;
	if (o->filter_str >= 0 &&
	    th_read_ulong(data + o->filter_str, &fs,
			  "event_trigger_data.filter_str") && fs) {
		t->filter = th_read_cstr(fs, t->filter_buf,
					 sizeof(t->filter_buf),
					 "event_trigger_data.filter_str") ?
			t->filter_buf : NULL;
		if (!t->filter)
			return FALSE;
	}
	if (!th_read_ulong(data + o->private_data, &priv,
			   "event_trigger_data.private_data"))
		return FALSE;
	t->private_data = priv;
	if (t->kind == TH_TRIG_ENABLE && !th_trigger_enable(o, t, priv))
		return FALSE;
	if (t->kind == TH_TRIG_HIST && o->name >= 0 &&
	    th_read_ulong(data + o->name, &np, "event_trigger_data.name") &&
	    np && !th_read_cstr(np, t->name, sizeof(t->name),
				"event_trigger_data.name"))
		return FALSE;
	return TRUE;
}

/**
 * th_event_triggers - the triggers of an event file, in list order
 * @file: the struct trace_event_file
 * @fn: called with each (a NULL trigger: one that could not be read)
 * @arg: passed to @fn
 *
 * Return: their number, -1 when the kernel's layout is not known.
 */
int th_event_triggers(ulong file, void (*fn)(const struct th_trigger *,
					      void *), void *arg)
{
	const struct th_trigger_off *o = th_trigger_off();
	ulong head = th_event_file_triggers(file);
	struct th_trigger *t;
	struct th_walk w;
	long i;

	if (!head || o->list < 0 || o->count < 0 || o->cmd_ops < 0 ||
	    o->cmd_name < 0 || o->cmd_type < 0 || o->private_data < 0)
		return -1;
	t = malloc(sizeof(*t));
	if (!t)
		return -1;
	th_list_walk(head, 100000, &w);
	for (i = 0; i < w.n; i++)
		fn(th_trigger_read(o, w.ent[i] - o->list, t) ? t : NULL, arg);
	if (w.err)
		th_warn("event triggers at %lx: %s at %lx", head, w.err, w.bad);
	th_walk_free(&w);
	free(t);
	return (int)i;
}

/**
 * th_trigger_commands - the names of the registered trigger commands
 * (trigger_commands, in list order)
 * @names: filled
 * @max: room in @names
 *
 * Return: their number, -1 when the kernel has none or they cannot be
 * read.
 */
int th_trigger_commands(char names[][32], int max)
{
	const struct th_trigger_off *o = th_trigger_off();
	ulong head = th_symbol("trigger_commands"), np;
	struct th_walk w;
	long i;
	int n = 0;

	if (!head || o->cmd_list < 0 || o->cmd_name < 0)
		return -1;
	th_list_walk(head, 1000, &w);
	for (i = 0; i < w.n && n < max; i++) {
		if (!th_read_ulong(w.ent[i] - o->cmd_list + o->cmd_name, &np,
				   "event_command.name") || !np ||
		    !th_read_cstr(np, names[n], 32, "event_command.name")) {
			n = -1;
			break;
		}
		n++;
	}
	if (w.err) {
		th_warn("trigger_commands: %s at %lx", w.err, w.bad);
		n = -1;
	}
	th_walk_free(&w);
	return n;
}
