/*
 * tracehunt: "ftrace dump" (render/trace_dump.c), what glue/cmd_trace.c
 * calls once the options are parsed, and the text builders the tracefs
 * layer's "-d DIR" writer shares.
 */
#ifndef TRACEHUNT_TRACE_DUMP_H
#define TRACEHUNT_TRACE_DUMP_H

#include "model/model.h"

#pragma GCC visibility push(hidden)

struct th_dump_opts {
	const char *file;
	const char *inst;
	int force;
	int all;		/* -a: instances as extra buffers */
};

/* "-t FILE": a trace.dat of the array (or of every array with -a). */
void th_dump_trace_dat(struct th_dump_opts *opt);
/* "-d DIR": the tracefs files trace-cmd reads, as a directory. */
void th_dump_dir(struct th_dump_opts *opt, const char *dir);

#pragma GCC visibility pop

#endif
