/*
 * tracehunt: the tracefs layer: every file a reader of tracefs or of
 * debugfs' kprobes directory could open, printed from the model the way
 * the kernel's show/read function printed it.
 */
#ifndef TRACEHUNT_TRACEFS_H
#define TRACEHUNT_TRACEFS_H

#include "model/model.h"

/*
 * "ftrace cat" dispatch.  FILE is relative to the array's directory
 * ("trace", "per_cpu/cpu0/trace", "options/overwrite").  Each part returns
 * TRUE when FILE is its own, having printed the file or a one-line reason.
 * Each "ls" part calls ADD for every file it can reconstruct for TR.
 */
typedef void (*th_ls_add_fn)(const char *name, void *arg);
void th_ls_append(const char *name, void *arg);
void th_ftrace_cat(int argc, char **argv);
void th_ftrace_ls(int argc, char **argv);

/* ftrace_files.c: state and settings files */
int th_cat_files(struct th_tr *tr, const char *file);
void th_ls_files(struct th_tr *tr, th_ls_add_fn add, void *arg);

/* kprobe_events.c: kprobe_events, kprobe_profile */
int th_cat_kprobe_events(struct th_tr *tr, const char *file);
void th_ls_kprobe_events(struct th_tr *tr, th_ls_add_fn add, void *arg);

/* ftrace_ops.c: enabled_functions */
int th_cat_ops(struct th_tr *tr, const char *file);
void th_ls_ops(struct th_tr *tr, th_ls_add_fn add, void *arg);

/* render/ftrace_trace.c: the trace files */
int th_cat_trace(struct th_tr *tr, const char *file);
void th_ls_trace(struct th_tr *tr, th_ls_add_fn add, void *arg);

#endif
