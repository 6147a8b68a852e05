/*
 * tracehunt: "ftrace dump" (render/trace_dump.c): the trace.dat writer
 * that glue/cmd_dump.c calls once the options are parsed, and the texts of
 * the trace-cmd directory that tracefs/dump_dir.c writes for "-d DIR".
 */
#ifndef TRACEHUNT_TRACE_DUMP_H
#define TRACEHUNT_TRACE_DUMP_H

#include "render/trace_priv.h"

struct th_dump_opts {
	const char *file;
	const char *inst;
	int force;
	int all;		/* -a: instances as extra buffers */
	int version;		/* -V: trace.dat version 6 or 7 (0: 7) */
};

/* "-t FILE": a trace.dat of the array (or of every array with -a). */
void th_dump_trace_dat(struct th_dump_opts *opt);

int th_write_all(int fd, const void *buf, size_t len);

/* An array's ring buffer and what its events reference. */
struct th_refs;
struct th_dump_src {
	struct th_rb rb;
	struct th_refs *refs;
	long data_off;		/* buffer_data_page.data */
	/* its buffer holds the previous boot's trace: the kallsyms at that
	 * boot's addresses (render/trace_dat_lb.c), else NULL */
	struct th_last_boot *lb;
};

enum th_dump_what {
	TH_DUMP_HEADER_PAGE,	/* events/header_page */
	TH_DUMP_HEADER_EVENT,	/* events/header_event */
	TH_DUMP_KALLSYMS,	/* the symbols the events need */
	TH_DUMP_PRINTK,		/* printk_formats they need */
	TH_DUMP_CMDLINES,	/* saved_cmdlines of the tasks they name */
};

int th_dump_src_open(struct th_tr *tr, struct th_dump_src *s, char *err,
		     size_t elen);
void th_dump_src_close(struct th_dump_src *s);
long th_dump_src_events(const struct th_dump_src *s);
void th_dump_text(const struct th_dump_src *s, enum th_dump_what what,
		  struct th_sb *b);
int th_dump_nformats(void);
/* events/header_page (PAGE) or header_event of TR into B; FALSE + ERR. */
int th_event_header_text(struct th_tr *tr, int page, struct th_sb *b,
			 char *err, size_t elen);
/* The format of events/SYSTEM/NAME (*TYPE: its id); NULL: none. */
const char *th_event_format_find(const char *system, const char *name,
				 size_t *len, unsigned *type);
/* Every event with a format: FN(system, name, call, ARG). */
void th_event_format_each(void (*fn)(const char *system, const char *name,
				     ulong call, void *arg), void *arg);
const char *th_dump_format(int i, const char **system, const char **name,
			   size_t *len);
int th_dump_pipe_raw(struct th_dump_src *s, int i, int fd);

#endif
