/*
 * tracehunt: the model's one reader of struct user_event,
 * user_event_group, user_event_mm and user_event_enabler
 * (kernel/trace/trace_events_user.c, include/linux/user_events.h).
 */
#include "model/user_event.h"

/* MAX_EVENT_DESC bounds a name (512); max_user_events the events
 * (32768 by default, a sysctl); a process's enablers have no bound of
 * their own: the events' */
#define TH_USER_MAX_EVENTS	65536
#define TH_USER_MAX_BUCKETS	4096
/* ENABLE_VAL_BIT_MASK */
#define TH_USER_BIT_MASK	0x3f

static struct th_user_off {
	int filled, ok;
	const char *why;
	long devent, call, reg_name, tp_name, status, node;
	long g_table, g_buckets;
	ulong init_group;
	ulong mms;			/* &user_event_mms */
	long mm_link, mm_enablers, mm_mm;
	long en_link, en_event, en_addr, en_values;
} th_user_offsets;

static const struct th_user_off *th_user_off(void)
{
	struct th_user_off *o = &th_user_offsets;
	long tsz;

	if (o->filled)
		return o;
	o->filled = TRUE;
	if (!th_symbol("user_event_dops")) {
		o->why = "this kernel has no user events (CONFIG_USER_EVENTS)";
		return o;
	}
	o->devent = th_member("user_event", "devent");
	o->call = th_member("user_event", "call");
	/* the name it was registered with, beside the tracepoint's (NAME.ID
	 * for a multi-format event): Linux kernel commit 64805e4039f1
	 * ("tracing/user_events: Introduce multi-format events") (in v6.9)
	 * and its series; before it both were tracepoint.name */
	o->reg_name = th_member("user_event", "reg_name");
	o->tp_name = th_member_path("user_event", "tracepoint.name");
	o->status = th_member("user_event", "status");
	o->node = th_member("user_event", "node");
	o->g_table = th_member("user_event_group", "register_table");
	tsz = th_member_size("user_event_group", "register_table");
	o->g_buckets = tsz > 0 ? tsz / (long)sizeof(ulong) : -1;
	o->init_group = th_symbol("init_group");
	o->mms = th_symbol("user_event_mms");
	o->mm_link = th_member("user_event_mm", "mms_link");
	o->mm_enablers = th_member("user_event_mm", "enablers");
	o->mm_mm = th_member("user_event_mm", "mm");
	o->en_link = th_member("user_event_enabler", "mm_enablers_link");
	o->en_event = th_member("user_event_enabler", "event");
	o->en_addr = th_member("user_event_enabler", "addr");
	o->en_values = th_member("user_event_enabler", "values");
	if (o->devent < 0 || o->call < 0 || o->tp_name < 0 ||
	    o->status < 0 || o->node < 0 || o->g_table < 0 ||
	    o->g_buckets <= 0 || o->g_buckets > TH_USER_MAX_BUCKETS ||
	    !o->init_group)
		o->why = "the dump's debuginfo lacks the user events' types "
			 "(user_event, user_event_group) or init_group";
	/* Before v6.4 each event had a status page index, printed in
	 * user_events_status, and was printed as a hex dump in the trace:
	 * the ABI Linux kernel commit 88fe1ec75fcb ("tracing: Unbreak user
	 * events") (in v6.4) made usable is the one read here */
	else if (th_member("user_event", "index") >= 0)
		o->why = "its user events are of the ABI before v6.4 (a "
			 "status page index per event, CONFIG_BROKEN)";
	else
		o->ok = TRUE;
	return o;
}

int th_user_events_ok(void)
{
	return th_user_off()->ok;
}

const char *th_user_events_why(void)
{
	const struct th_user_off *o = th_user_off();

	return o->ok ? NULL : o->why;
}

ulong th_user_event_of_dyn(ulong ev)
{
	const struct th_user_off *o = th_user_off();

	return o->ok && ev ? ev - o->devent : 0;
}

ulong th_user_event_call(ulong user)
{
	const struct th_user_off *o = th_user_off();

	return o->ok && user ? user + o->call : 0;
}

ulong th_user_event_fields_head(ulong call)
{
	const struct th_user_off *o = th_user_off();
	long fields = th_member("user_event", "fields");

	/* user_event_get_fields(): call->data is the user_event the call
	 * is embedded in (user_event_parse() sets it so) */
	if (!o->ok || !call || fields < 0)
		return 0;
	return call - o->call + fields;
}

/* The text at the char * at ADDR; damage when it is not text. */
static int th_user_str(ulong user, ulong addr, char *buf, size_t len,
		       const char *what)
{
	ulong p;

	if (!th_read_strp(addr, buf, len, what, &p))
		return FALSE;
	if (!buf[0] || !th_printable(buf)) {
		th_damaged("user_event", user, "%s at %lx is not a name", what,
			   p);
		return FALSE;
	}
	return TRUE;
}

int th_user_event_tp_name(ulong user, char *buf, size_t len)
{
	const struct th_user_off *o = th_user_off();

	buf[0] = '\0';
	return o->ok && th_user_str(user, user + o->tp_name, buf, len,
				    "user_event.tracepoint.name");
}

int th_user_event_name(ulong user, char *buf, size_t len)
{
	const struct th_user_off *o = th_user_off();

	if (!o->ok) {
		buf[0] = '\0';
		return FALSE;
	}
	if (o->reg_name < 0)
		return th_user_event_tp_name(user, buf, len);
	return th_user_str(user, user + o->reg_name, buf, len,
			   "user_event.reg_name");
}

int th_user_event_status(ulong user)
{
	const struct th_user_off *o = th_user_off();
	unsigned char s = 0;

	if (!o->ok || !th_read(user + o->status, &s, 1, "user_event.status"))
		return -1;
	/* EVENT_STATUS_FTRACE | _PERF | _OTHER: nothing else is set */
	if (s & ~0x83)
		th_damaged("user_event", user, "status %#x has bits no probe "
			   "sets", s);
	return s;
}

long th_user_events_registered(ulong **out)
{
	const struct th_user_off *o = th_user_off();
	ulong group = 0, first, *v = NULL, *nv;
	long n = 0, cap = 0, b, i;
	struct th_walk w;

	*out = NULL;
	if (!o->ok || !th_read_ulong(o->init_group, &group, "init_group") ||
	    !group)
		return -1;
	if (!th_check_ptr("init_group", o->init_group, group, TH_M_DATA,
			  "value"))
		return -1;
	for (b = 0; b < o->g_buckets; b++) {
		ulong head = group + o->g_table + b * sizeof(ulong);

		if (!th_read_ulong(head, &first, "register_table[]"))
			continue;
		if (!first)
			continue;
		th_hlist_walk(first, TH_USER_MAX_EVENTS, &w);
		if (w.err)
			th_damaged("user_event_group", group, "register_table "
				   "bucket %ld: %s", b, w.err);
		for (i = 0; i < w.n && n < TH_USER_MAX_EVENTS; i++) {
			if (n == cap) {
				cap = cap ? 2 * cap : 16;
				nv = realloc(v, cap * sizeof(*v));
				if (!nv)
					break;
				v = nv;
			}
			v[n++] = w.ent[i] - o->node;
		}
		th_walk_free(&w);
	}
	*out = v;
	return n;
}

long th_user_enablers(struct th_user_enabler **out)
{
	const struct th_user_off *o = th_user_off();
	struct th_user_enabler *v = NULL, *nv;
	struct th_walk mw, ew;
	long n = 0, cap = 0, i, j;

	*out = NULL;
	if (!o->ok || !o->mms || o->mm_link < 0 || o->mm_enablers < 0 ||
	    o->mm_mm < 0 || o->en_link < 0 || o->en_event < 0 ||
	    o->en_addr < 0 || o->en_values < 0)
		return -1;
	th_list_walk(o->mms, TH_USER_MAX_EVENTS, &mw);
	if (mw.err)
		th_damaged("user_event_mms", o->mms, "%s", mw.err);
	for (i = 0; i < mw.n; i++) {
		ulong um = mw.ent[i] - o->mm_link, mm = 0;

		th_read_ulong(um + o->mm_mm, &mm, "user_event_mm.mm");
		th_list_walk(um + o->mm_enablers, TH_USER_MAX_EVENTS, &ew);
		if (ew.err)
			th_damaged("user_event_mm", um, "enablers: %s",
				   ew.err);
		for (j = 0; j < ew.n && n < TH_USER_MAX_EVENTS; j++) {
			ulong en = ew.ent[j] - o->en_link, values = 0;
			struct th_user_enabler *e;

			if (n == cap) {
				cap = cap ? 2 * cap : 16;
				nv = realloc(v, cap * sizeof(*v));
				if (!nv)
					break;
				v = nv;
			}
			e = &v[n++];
			memset(e, 0, sizeof(*e));
			e->mm = mm;
			th_read_ulong(en + o->en_event, &e->user,
				      "user_event_enabler.event");
			th_read_ulong(en + o->en_addr, &e->addr,
				      "user_event_enabler.addr");
			th_read_ulong(en + o->en_values, &values,
				      "user_event_enabler.values");
			e->bit = values & TH_USER_BIT_MASK;
		}
		th_walk_free(&ew);
	}
	th_walk_free(&mw);
	*out = v;
	return n;
}

long th_user_mm_task(ulong mm, ulong *pid, char *comm, size_t len)
{
	struct task_context *tc = FIRST_CONTEXT();
	ulong i;
	long n = 0;

	*pid = 0;
	comm[0] = '\0';
	if (!tc || !mm)
		return 0;
	/* crash's task table: each task's mm (threads share their
	 * process's); the lowest pid, the thread group's leader */
	for (i = 0; i < RUNNING_TASKS(); i++, tc++) {
		if (tc->mm_struct != mm)
			continue;
		if (!n++ || tc->pid < *pid) {
			*pid = tc->pid;
			th_strlcpy(comm, tc->comm, len);
		}
	}
	return n;
}
