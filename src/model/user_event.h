/*
 * tracehunt: user events (kernel/trace/trace_events_user.c, v5.18;
 * usable without CONFIG_BROKEN since Linux kernel commit 88fe1ec75fcb
 * ("tracing: Unbreak user events") (in v6.4)): struct user_event on
 * dyn_event_list and in its group's register_table, and the processes
 * that registered an enable bit (struct user_event_mm and
 * user_event_enabler).  The model's one reader of all three
 * (model/user_event.c); the fields of a user event are read by
 * model/events.c like every event's (th_user_event_fields_head()).
 */
#ifndef TRACEHUNT_MODEL_USER_EVENT_H
#define TRACEHUNT_MODEL_USER_EVENT_H

#include "model/model.h"

/* FALSE when the dump lacks struct user_event (no CONFIG_USER_EVENTS,
 * or its debuginfo), or the event is of the ABI before v6.4 (a status
 * page index in each event; tracehunt reconstructs the later one). */
int th_user_events_ok(void);
/* Why th_user_events_ok() is FALSE, in a few words. */
const char *th_user_events_why(void);
/* The user_event around the struct dyn_event EV (its devent); 0 when
 * !th_user_events_ok(). */
ulong th_user_event_of_dyn(ulong ev);
/* &user->call */
ulong th_user_event_call(ulong user);
/* The head of the fields list of the user event whose trace_event_call
 * is CALL (user_event_get_fields(): call->data's "fields"); 0 when
 * unreadable. */
ulong th_user_event_fields_head(ulong call);
/* EVENT_NAME(): the name it was registered with (reg_name; before
 * v6.9's multi-format events the tracepoint's name) into BUF. */
int th_user_event_name(ulong user, char *buf, size_t len);
/* EVENT_TP_NAME(): the tracepoint's name (NAME.ID for a multi-format
 * event) into BUF. */
int th_user_event_tp_name(ulong user, char *buf, size_t len);
/* user_event.status (EVENT_STATUS_FTRACE 1, _PERF 2, _OTHER 0x80);
 * -1 when unreadable. */
int th_user_event_status(ulong user);
/* The events of init_group's register_table in hash_for_each() order
 * (bucket by bucket, each chain from its head): *out malloc'd; -1 when
 * the table cannot be read. */
long th_user_events_registered(ulong **out);

/* One enable bit a process registered (struct user_event_enabler). */
struct th_user_enabler {
	ulong mm;		/* struct mm_struct */
	ulong user;		/* struct user_event */
	ulong addr;		/* the user address the kernel writes */
	int bit;		/* ENABLE_BIT() */
};
/* Every enabler of every user_event_mm on user_event_mms: *out
 * malloc'd; -1 when unreadable. */
long th_user_enablers(struct th_user_enabler **out);
/* The tasks whose mm is MM (crash's task table): their count, and the
 * lowest pid of them and its comm (COMM of LEN bytes). */
long th_user_mm_task(ulong mm, ulong *pid, char *comm, size_t len);

#endif
