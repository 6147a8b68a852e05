/*
 * tracehunt: "ftrace trace" (render/ftrace_trace.c), what glue/cmd_trace.c
 * calls once the options are parsed.
 */
#ifndef TRACEHUNT_TRACE_CMD_H
#define TRACEHUNT_TRACE_CMD_H

#include "model/model.h"

#pragma GCC visibility push(hidden)

/* Which entries: of one CPU or a set of them, of some events. */
struct th_sel {
	int cpu;		/* -1: every CPU */
	char **events;		/* -e names, NULL-terminated */
	int nevents;
	unsigned long cpumask;	/* -c, 0: all */
	int snapshot;		/* the snapshot (max) buffer: the snapshot
				 * files */
};

/* The entries of TR's buffer selected by S, as the "trace" file prints
 * them (its header when HEADER): all of them, or the last LAST when
 * LAST >= 0. */
void th_trace_print(struct th_tr *tr, const struct th_sel *s, int header,
		    long last);
/* "ftrace trace -r": the raw records, at most MAX (< 0: all) a CPU. */
void th_trace_raw(struct th_tr *tr, const struct th_sel *s, long max);
/* "ftrace trace -R": every sub-buffer read, not decoded (the floor of
 * the decoding path, for "make bench"). */
void th_trace_read_all(struct th_tr *tr, const struct th_sel *s);
/* "ftrace trace -j": the same entries as JSON lines (render/trace_json.c) */
void th_trace_json(struct th_tr *tr, const struct th_sel *s, long last);

struct th_rb;
/* For the printers (render/ftrace_trace.c): start every CPU S selects
 * (each late enough for its LAST entries when LAST >= 0 and no event
 * filter), and whether the entry ENT is one of S's events (ARG: S). */
void th_trace_start(struct th_rb *rb, const struct th_sel *s, long last);
int th_sel_want(const unsigned char *ent, void *arg);

#pragma GCC visibility pop

#endif
