/*
 * tracehunt: the dynamic events (kernel/trace/trace_dynevent.c): every
 * struct dyn_event on dyn_event_list, its kind told by its ops pointer
 * (Linux kernel commit 5448d44c3855 ("tracing: Add unified dynamic event
 * framework") (in v5.0)).  The model's one reader of struct dyn_event
 * (model/dyn_event.c); each kind's own struct (trace_kprobe,
 * trace_uprobe, synth_event, trace_eprobe, trace_fprobe) is read by its
 * own reader, from the dyn_event embedded in it (its "devent").
 *
 * The dynamic_events file (tracefs/dynamic_events.c) prints each event
 * through th_dyn_show[], one row per kind:
 *
 *	{ enum th_dyn_kind kind, th_dyn_show_fn show, th_dyn_ok_fn ok }
 *
 *   show	void show(ulong ev): prints the event's line (with its '\n')
 *		through fp, as the kind's dyn_event_operations.show() did;
 *		EV is the struct dyn_event (the kind's "devent" member:
 *		container_of() is the kind's reader's business)
 *   ok		int ok(void): TRUE when the dump has what show needs (the
 *		kind's types); FALSE makes the file "incomplete"
 *
 * e.g. the uprobe row: { TH_DYN_UPROBE, th_uprobe_ev_show,
 * th_trace_uprobes_ok } (tracefs/dynamic_events.c).  An event
 * of a kind without a row, or whose row is not ok, makes "ftrace cat
 * dynamic_events" say in one line that the file is incomplete: never a
 * partial file.
 */
#ifndef TRACEHUNT_MODEL_DYN_EVENT_H
#define TRACEHUNT_MODEL_DYN_EVENT_H

#include "model/model.h"

/* The kinds, by the dyn_event_operations each registers. */
enum th_dyn_kind {
	TH_DYN_KPROBE,		/* trace_kprobe_ops: p:/r: */
	TH_DYN_UPROBE,		/* trace_uprobe_ops: p:/r: on a file */
	TH_DYN_SYNTH,		/* synth_event_ops: s: */
	TH_DYN_EPROBE,		/* eprobe_dyn_event_ops: e: (v5.15) */
	TH_DYN_FPROBE,		/* trace_fprobe_ops: f:/t: (v6.5) */
	TH_DYN_USER,		/* user_event_dops: u: (v5.18) */
	TH_DYN_OTHER,		/* ops tracehunt does not know */
	TH_DYN_NKINDS,
};

typedef void (*th_dyn_show_fn)(ulong ev);
typedef int (*th_dyn_ok_fn)(void);

/* One struct dyn_event of dyn_event_list. */
struct th_dyn_event {
	ulong ev;		/* struct dyn_event */
	ulong ops;		/* dyn_event.ops */
	enum th_dyn_kind kind;
};

/* FALSE when the kernel has no dyn_event_list (before v5.0, or without
 * dynamic events) or the dump lacks struct dyn_event. */
int th_dyn_events_ok(void);
/* Every dyn_event in list order (a damaged list: the events before the
 * damage, with a warning); -1 when !th_dyn_events_ok().  *out is
 * malloc'd (NULL when none). */
long th_dyn_events(struct th_dyn_event **out);
/* The same, only the dyn_event addresses of KIND. */
long th_dyn_events_of(enum th_dyn_kind kind, ulong **out);
/* What the kernel calls a kind ("kprobe", "synthetic event", ...). */
const char *th_dyn_kind_name(enum th_dyn_kind kind);

#endif
