/*
 * tracehunt: the tracefs layer: every file a reader of tracefs or of
 * debugfs' kprobes directory could open, printed from the model the way
 * the kernel's show/read function printed it.
 *
 * ONE table (table.c) has a row per tracefs file; "ftrace ls", "ftrace
 * cat", "ftrace dump -d", the guest's capture list (scripts/fixture.py
 * reads the rows) and the tests derive from it.
 */
#ifndef TRACEHUNT_TRACEFS_H
#define TRACEHUNT_TRACEFS_H

#include "model/model.h"

/* Which directories have the file. */
enum th_scope {
	TH_SCOPE_TOP,		/* the top-level tracing directory only */
	TH_SCOPE_ALL,		/* the top level and every instances/NAME */
	TH_SCOPE_KPROBES,	/* debugfs' kprobes directory: the row's name
				 * is its absolute path */
};

/* The files of a row: one name, or a family of names. */
enum th_family {
	TH_FAM_ONE,		/* NAME itself */
	TH_FAM_OPTIONS,		/* options/X over the array's option names */
	TH_FAM_TRACING_CPUS,	/* per_cpu/cpuN/NAME over the tracing CPUs */
	TH_FAM_POSSIBLE_CPUS,	/* per_cpu/cpuN/NAME over the possible CPUs */
	TH_FAM_EVENTS,		/* events/SYSTEM/EVENT/NAME over the event
				 * catalog (the same in every array) */
	TH_FAM_EVENT_FILES,	/* events/SYSTEM/EVENT/NAME over the array's
				 * event files */
	TH_FAM_SYSTEMS,		/* events/SYSTEM/NAME over the array's event
				 * systems */
	TH_FAM_BUFFER_CPUS,	/* per_cpu/cpuN/NAME over the ring buffer's
				 * CPUs (written by -d) */
};

/* One file of a row, as "ftrace cat" named it or "ftrace ls" lists it. */
struct th_tref {
	const char *file;	/* relative to the array's directory */
	int cpu;		/* the per_cpu families */
	const char *option;	/* TH_FAM_OPTIONS: the option's name */
};

struct th_dump_dir;

/*
 * A row of the table (table.c says what each column means).
 * MISSING: NULL when the dump has FILE for TR, else the one-line reason
 * "ftrace cat" prints (in BUF, or a constant).  PRINT: the file's bytes.
 * WRITE: what "ftrace dump -d" writes for it (an errno value).
 */
struct th_tfile {
	const char *name;
	enum th_family family;
	enum th_scope scope;
	unsigned int flags;
	const char *top_only;	/* what cat says in an instance ("%s": the
				 * file); NULL: the usual wording */
	const char *(*missing)(struct th_tr *tr, const struct th_tref *ref,
			       char *buf, size_t len);
	void (*print)(struct th_tr *tr, const struct th_tref *ref);
	int (*write)(struct th_dump_dir *d, const struct th_tref *ref);
};

/* flags */
#define TH_TF_CAPTURE_LAST	0x1	/* the guest captures it after all
					 * the others (kprobe_profile: its
					 * counts include every open;
					 * saved_cmdlines: the capture's
					 * processes recycle its slots) */
#define TH_TF_CAPTURE_TOP	0x2	/* the guest captures the top-level
					 * copy only (events/SYSTEM/EVENT/FILE: an
					 * instance's are the same bytes) */

extern const struct th_tfile th_tfiles[];

typedef void (*th_ls_add_fn)(const char *name, void *arg);
/* Every file of TR the dump has, in the table's order: ADD(name, ARG). */
void th_tracefs_ls(struct th_tr *tr, th_ls_add_fn add, void *arg);
/* The files of ROW in TR that the dump has (ftrace ls of one row). */
void th_tracefs_row_files(struct th_tr *tr, const struct th_tfile *row,
			  th_ls_add_fn add, void *arg);
/* REF for FILE, one of ROW's; FALSE when it is not. */
int th_tracefs_ref(const struct th_tfile *row, const char *file,
		   struct th_tref *ref);
/* "ftrace cat PATH", FILE being PATH relative to TR's directory. */
void th_tracefs_cat(struct th_tr *tr, const char *path, const char *file);

/* The option names of TR (options/): FN(name, value, ARG) returns TRUE
 * to stop. */
void th_each_option(struct th_tr *tr,
		    int (*fn)(const char *, int, void *), void *arg);

/* ----------------------------------------- the rows' functions, by file */

/* ftrace_tracers.c */
void th_cat_available_tracers(struct th_tr *tr, const struct th_tref *ref);
void th_cat_current_tracer(struct th_tr *tr, const struct th_tref *ref);
void th_cat_trace_options(struct th_tr *tr, const struct th_tref *ref);
const char *th_missing_option(struct th_tr *tr, const struct th_tref *ref,
			      char *buf, size_t len);
void th_cat_option(struct th_tr *tr, const struct th_tref *ref);
void th_ftrace_tracers_print(int verbose);

/* ftrace_buffers.c */
void th_cat_tracing_on(struct th_tr *tr, const struct th_tref *ref);
void th_cat_buffer_size_kb(struct th_tr *tr, const struct th_tref *ref);
void th_cat_buffer_total_size_kb(struct th_tr *tr, const struct th_tref *ref);
void th_cat_buffer_subbuf_size_kb(struct th_tr *tr, const struct th_tref *ref);
void th_cat_last_boot_info(struct th_tr *tr, const struct th_tref *ref);
const char *th_missing_last_boot(struct th_tr *tr, const struct th_tref *ref,
				 char *buf, size_t len);
const char *th_missing_subbuf_size(struct th_tr *tr, const struct th_tref *ref,
				   char *buf, size_t len);
const char *th_missing_tracing_cpu(struct th_tr *tr, const struct th_tref *ref,
				   char *buf, size_t len);
void th_cat_trace_clock(struct th_tr *tr, const struct th_tref *ref);
void th_cat_stats(struct th_tr *tr, const struct th_tref *ref);
void th_ftrace_summary_print(void);
/* The counts of the summary (ftrace ops, call sites, kprobes). */
struct th_summary_counts {
	int have_ftrace, have_kprobes;
	int ops;
	long records, enabled;
	long kprobes, kprobes_hidden;
};
void th_summary_counts(struct th_summary_counts *c);

/* ftrace_json.c: "ftrace -j" and "ftrace tracers -j" */
void th_ftrace_summary_json(void);
void th_ftrace_tracers_json(void);

/* ftrace_filters.c */
const char *th_missing_tr_ops(struct th_tr *tr, const struct th_tref *ref,
			      char *buf, size_t len);
void th_cat_set_ftrace_filter(struct th_tr *tr, const struct th_tref *ref);
const char *th_missing_stack_trace_filter(struct th_tr *tr,
					  const struct th_tref *ref,
					  char *buf, size_t len);
void th_cat_stack_trace_filter(struct th_tr *tr, const struct th_tref *ref);
const char *th_missing_graph_hash(struct th_tr *tr, const struct th_tref *ref,
				  char *buf, size_t len);
void th_cat_set_graph(struct th_tr *tr, const struct th_tref *ref);

/* ftrace_events.c */
void th_cat_set_event(struct th_tr *tr, const struct th_tref *ref);
const char *th_missing_savedcmd(struct th_tr *tr, const struct th_tref *ref,
				char *buf, size_t len);
void th_cat_saved_cmdlines(struct th_tr *tr, const struct th_tref *ref);
void th_cat_saved_cmdlines_size(struct th_tr *tr, const struct th_tref *ref);

/* kprobe_events.c: kprobe_events, kprobe_profile */
const char *th_missing_kprobe_events(struct th_tr *tr,
				     const struct th_tref *ref, char *buf,
				     size_t len);
void th_cat_kprobe_events(struct th_tr *tr, const struct th_tref *ref);
/* a kprobe's line of dynamic_events (trace_kprobe_show()) */
void th_kprobe_dyn_show(ulong ev);

/* dynamic_events.c: dynamic_events through th_dyn_show[] */
const char *th_missing_dynamic_events(struct th_tr *tr,
				      const struct th_tref *ref, char *buf,
				      size_t len);
void th_cat_dynamic_events(struct th_tr *tr, const struct th_tref *ref);

/* synthetic_events.c: synthetic_events, a synthetic event's line of
 * dynamic_events */
const char *th_missing_synthetic_events(struct th_tr *tr,
					const struct th_tref *ref, char *buf,
					size_t len);
void th_cat_synthetic_events(struct th_tr *tr, const struct th_tref *ref);
void th_synth_dyn_show(ulong ev);

/* user_events.c: user_events_status, a user event's line of
 * dynamic_events */
const char *th_missing_user_events_status(struct th_tr *tr,
					  const struct th_tref *ref,
					  char *buf, size_t len);
void th_cat_user_events_status(struct th_tr *tr, const struct th_tref *ref);
void th_user_dyn_show(ulong ev);

/* A probe event's " NAME=COMM" fetch arguments (the struct trace_probe
 * at TP), as its line in the *probe_events files ends. */
void th_probe_args_show(ulong tp);

/* uprobe_events.c: uprobe_events, uprobe_profile; one uprobe event's
 * line (its dynamic_events line, the same as its uprobe_events one) */
const char *th_missing_uprobe_events(struct th_tr *tr,
				     const struct th_tref *ref, char *buf,
				     size_t len);
void th_cat_uprobe_events(struct th_tr *tr, const struct th_tref *ref);
void th_uprobe_dyn_show(ulong tu);

/* ftrace_ops.c: enabled_functions, touched_functions */
const char *th_missing_rec_file(struct th_tr *tr, const struct th_tref *ref,
				char *buf, size_t len);
void th_cat_rec_file(struct th_tr *tr, const struct th_tref *ref);

/* render/ftrace_trace.c: the trace files */
const char *th_missing_possible_cpu(struct th_tr *tr,
				    const struct th_tref *ref, char *buf,
				    size_t len);
void th_cat_trace(struct th_tr *tr, const struct th_tref *ref);
/* trace_files.c: snapshot, per_cpu/cpuN/snapshot */
const char *th_missing_snapshot(struct th_tr *tr, const struct th_tref *ref,
				char *buf, size_t len);
void th_cat_snapshot(struct th_tr *tr, const struct th_tref *ref);

/* trace_settings.c: values, cpumask, pid lists, saved_tgids, error_log,
 * stack_trace, README */
const char *th_missing_value(struct th_tr *tr, const struct th_tref *ref,
			     char *buf, size_t len);
void th_cat_value(struct th_tr *tr, const struct th_tref *ref);
const char *th_missing_cpumask(struct th_tr *tr, const struct th_tref *ref,
			       char *buf, size_t len);
void th_cat_tracing_cpumask(struct th_tr *tr, const struct th_tref *ref);
const char *th_missing_pid_file(struct th_tr *tr, const struct th_tref *ref,
				char *buf, size_t len);
void th_cat_pid_file(struct th_tr *tr, const struct th_tref *ref);
const char *th_missing_saved_tgids(struct th_tr *tr, const struct th_tref *ref,
				   char *buf, size_t len);
void th_cat_saved_tgids(struct th_tr *tr, const struct th_tref *ref);
const char *th_missing_error_log(struct th_tr *tr, const struct th_tref *ref,
				 char *buf, size_t len);
void th_cat_error_log(struct th_tr *tr, const struct th_tref *ref);
const char *th_missing_stack_trace(struct th_tr *tr, const struct th_tref *ref,
				   char *buf, size_t len);
void th_cat_stack_trace(struct th_tr *tr, const struct th_tref *ref);
/* latency_files.c: hwlat_detector/ and osnoise/ */
const char *th_missing_min_max(struct th_tr *tr, const struct th_tref *ref,
			       char *buf, size_t len);
void th_cat_min_max(struct th_tr *tr, const struct th_tref *ref);
const char *th_missing_hwlat_mode(struct th_tr *tr, const struct th_tref *ref,
				  char *buf, size_t len);
void th_cat_hwlat_mode(struct th_tr *tr, const struct th_tref *ref);
const char *th_missing_osnoise(struct th_tr *tr, const struct th_tref *ref,
			       char *buf, size_t len);
void th_cat_osnoise_options(struct th_tr *tr, const struct th_tref *ref);
void th_cat_osnoise_cpus(struct th_tr *tr, const struct th_tref *ref);
const char *th_missing_readme(struct th_tr *tr, const struct th_tref *ref,
			      char *buf, size_t len);
void th_cat_readme(struct th_tr *tr, const struct th_tref *ref);

/* event_dir.c: available_events, events/header_*, events/S/E/format|id,
 * printk_formats */
const char *th_missing_events(struct th_tr *tr, const struct th_tref *ref,
			      char *buf, size_t len);
void th_cat_available_events(struct th_tr *tr, const struct th_tref *ref);
void th_cat_event_header(struct th_tr *tr, const struct th_tref *ref);
const char *th_missing_event(struct th_tr *tr, const struct th_tref *ref,
			     char *buf, size_t len);
void th_cat_event_file(struct th_tr *tr, const struct th_tref *ref);
int th_event_file_match(const char *file, const char *leaf);
/* "events/SYSTEM/EVENT/LEAF" (LEAF NULL: any) into SYS and NAME */
int th_event_path(const char *file, const char *leaf, char *sys,
		  size_t slen, char *name, size_t nlen);
void th_ls_events(const char *leaf, th_ls_add_fn add, void *arg);
const char *th_missing_printk_formats(struct th_tr *tr,
				      const struct th_tref *ref, char *buf,
				      size_t len);
void th_cat_printk_formats(struct th_tr *tr, const struct th_tref *ref);

/* event_control.c: events/enable, events/S/{enable,filter},
 * events/S/E/{enable,filter,trigger,hist}, per array */
const char *th_missing_evfile(struct th_tr *tr, const struct th_tref *ref,
			      char *buf, size_t len);
void th_cat_evfile(struct th_tr *tr, const struct th_tref *ref);
void th_ls_evfiles(struct th_tr *tr, const char *leaf, th_ls_add_fn add,
		   void *arg);
int th_event_system_match(const char *file, const char *leaf);
const char *th_missing_evsystem(struct th_tr *tr, const struct th_tref *ref,
				char *buf, size_t len);
void th_cat_evsystem(struct th_tr *tr, const struct th_tref *ref);
void th_ls_evsystems(struct th_tr *tr, const char *leaf, th_ls_add_fn add,
		     void *arg);
const char *th_missing_events_enable(struct th_tr *tr,
				     const struct th_tref *ref, char *buf,
				     size_t len);
void th_cat_events_enable(struct th_tr *tr, const struct th_tref *ref);
/* hist_trigger.c: event_hist_trigger_print(); events/S/E/hist */
struct th_trigger;
void th_hist_trigger_print(const struct th_trigger *t);
void th_cat_hist(struct th_tr *tr, const struct th_tref *ref);
/* show_event_filters, show_event_triggers (v7.0) */
const char *th_missing_show_events(struct th_tr *tr, const struct th_tref *ref,
				   char *buf, size_t len);
void th_cat_show_events(struct th_tr *tr, const struct th_tref *ref);

/* kprobes.c: debugfs' kprobes/enabled, kprobes/blacklist */
const char *th_missing_kprobes_enabled(struct th_tr *tr,
				       const struct th_tref *ref, char *buf,
				       size_t len);
void th_cat_kprobes_enabled(struct th_tr *tr, const struct th_tref *ref);
const char *th_missing_kprobes_blacklist(struct th_tr *tr,
					 const struct th_tref *ref, char *buf,
					 size_t len);
void th_cat_kprobes_blacklist(struct th_tr *tr, const struct th_tref *ref);

/* dump_dir.c: "ftrace dump -d DIR" */
void th_dump_dir(const char *inst, int all, const char *dir, int force);
int th_dump_dir_header_page(struct th_dump_dir *d, const struct th_tref *ref);
int th_dump_dir_header_event(struct th_dump_dir *d, const struct th_tref *ref);
int th_dump_dir_format(struct th_dump_dir *d, const struct th_tref *ref);
int th_dump_dir_kallsyms(struct th_dump_dir *d, const struct th_tref *ref);
int th_dump_dir_cmdlines(struct th_dump_dir *d, const struct th_tref *ref);
int th_dump_dir_pipe_raw(struct th_dump_dir *d, const struct th_tref *ref);

#endif
