/*
 * tracehunt: the model's readers behind the tracefs state files: trace
 * arrays' fields (tracearray.c), tracers and their options (tracer.c),
 * event files and pending module events (event_files.c), ":mod:" filters
 * and function probes (ftrace_probes.c), whether an array records, its
 * buffer sizes and the tracing CPUs (buffer_state.c).  Event names,
 * saved cmdlines and the array_buffer: model/events.h, cmdlines.h,
 * trace_rb.h; ftrace hashes, records and print_rec(): model/ftrace_ops.h,
 * render/ftrace_text.h.
 */
#ifndef TRACEHUNT_FTRACE_FILES_H
#define TRACEHUNT_FTRACE_FILES_H

#include "model/model.h"

#define FF_MAX_TRACERS	64
#define FF_MAX_CPUS	NR_CPUS

/* One tracer option: name and whether its bit is set. */
struct ff_opt {
	char name[64];
	int set;
	unsigned int bit;	/* tracer_opt.bit */
};

/* The pointer at BASE + OFF; 0 when OFF < 0 (no such member) or when
 * unreadable. */
static inline ulong th_ptr_at(ulong base, long off, const char *what)
{
	ulong v = 0;

	if (off < 0 || !th_read_ulong(base + off, &v, what))
		return 0;
	return v;
}

/* ------------------------------------------------------ tracearray.c --- */

ulong th_tr_current_tracer(ulong tr);
ulong th_tr_current_trace_flags(ulong tr);
ulong th_tr_ops(ulong tr);
int th_tr_trace_flags(ulong tr, uint64_t *flags);
int th_tr_clock_id(ulong tr);
/* The list heads of a trace array. */
enum th_tr_list {
	TH_TR_EVENTS,		/* its trace_event_files */
	TH_TR_MOD_EVENTS,	/* event_mod_load: events for modules to come */
	TH_TR_MOD_TRACE,	/* ftrace_mod_load: filter ":mod:" entries */
	TH_TR_MOD_NOTRACE,	/* the same, notrace */
	TH_TR_FUNC_PROBES,	/* ftrace_func_probe: function probes */
	TH_TR_TRACERS,		/* struct tracers: per-array tracer flags */
	TH_TR_ERR_LOG,		/* struct tracing_log_err: error_log */
	TH_TR_SYSTEMS,		/* struct trace_subsystem_dir: events/SYSTEM */
};
ulong th_tr_list(ulong tr, enum th_tr_list list);
/* trace_array_is_readonly() */
int th_tr_readonly(ulong tr);
/* trace_array.trace_marker_file (0: none) */
ulong th_tr_marker_file(ulong tr);
/* trace_array.buffer_percent, .max_latency: FALSE when absent */
int th_tr_buffer_percent(ulong tr, int *val);
int th_tr_max_latency(ulong tr, ulong *val);
/* trace_array.allocated_snapshot, .syscall_buf_sz: FALSE when absent */
int th_tr_allocated_snapshot(ulong tr, int *val);
int th_tr_syscall_buf_sz(ulong tr, unsigned int *val);
/* trace_array.event_dir: the events directory's dentry (an eventfs_inode
 * since v6.6); 0 when none */
ulong th_tr_event_dir(ulong tr);
/* Before v4.4: one static tracing_cpumask for all arrays. */
struct th_cpumask_legacy {
	ulong mask;		/* the bitmap */
	long words;		/* its size in words */
	unsigned int nbits;	/* nr_cpumask_bits: the bits the file shows */
	long file_len;		/* the read returns this many bytes */
};
int th_cpumask_legacy(struct th_cpumask_legacy *l);
/* The first NWORDS words of trace_array.tracing_cpumask. */
int th_tr_cpumask(ulong tr, ulong *words, int nwords);
/* The pid lists of set_ftrace_pid, set_ftrace_notrace_pid,
 * set_event_pid and set_event_notrace_pid. */
enum th_pids { TH_PIDS_FUNCTION, TH_PIDS_FUNCTION_NO, TH_PIDS_EVENT,
	       TH_PIDS_EVENT_NO };
int th_tr_pid_list(ulong tr, enum th_pids which, ulong *list);

/* ---------------------------------------------------------- tracer.c --- */

/* Every tracer on trace_types, in list order; -1 without it. */
int ff_tracers(ulong *out, int max);
/* trace_ok_for_array() */
int ff_tracer_ok(struct th_tr *tr, ulong t);
/* tracer.name, or "?ADDR" */
char *ff_tracer_name(ulong t, char *buf, int len);
/* tracer.next / .flags / .init (0: none or unreadable) */
ulong th_tracer_next(ulong t);
ulong th_tracer_flags(ulong t);
int th_tracer_name_at(ulong t, ulong *np);
void th_tracer_flags_val(ulong tflags, unsigned int *val);
ulong th_tracer_init(ulong t);
/* tracer.use_max_tr: 1, 0 (or no such member), -1 unreadable */
int th_tracer_uses_max_tr(ulong t);
/* tracer.print_max: 1, 0 (or no such member), -1 unreadable */
int th_tracer_prints_max(ulong t);
/* tracer.allow_instances */
int th_tracer_allows_instances(ulong t);
/* A tracer_flags' opts[] (a NULL name ends it) with their values. */
int th_tracer_opts(ulong tflags, struct ff_opt *o, int max);
/* The tracer_flags of TR's current tracer: per instance where the kernel
 * keeps them, else the tracer's own. */
ulong th_cur_tracer_flags(struct th_tr *tr);
/* The tracer_flags on TR's list of struct tracers (per-array options,
 * 7.2), each entry's or its tracer's own; -1 when the kernel has no
 * such list. */
int th_tr_tracers_flags(struct th_tr *tr, ulong *tflags, int max);
/* The core option names, trace_options[]: their number, -1 without it. */
int th_core_options(char names[][32], int max);
/* TOP_LEVEL_TRACE_FLAGS: core options only the global array has. */
uint64_t th_top_level_flags(void);
/* trace_clocks[]' names: their number, -1 without it. */
int th_trace_clocks(char names[][64], int max);
/* trace_clocks[ID].in_ns: 1, 0, -1 when unknown */
int th_trace_clock_in_ns(int id);
/* trace_clocks[ID] (-1: every entry) against the vmlinux file's initial
 * bytes: a th_damaged() warning for each field that differs */
void th_trace_clock_check(int id);

/* ----------------------------------------------------- event_files.c --- */

/* The trace_event_call of each enabled trace_event_file of TR, in list
 * order; FALSE when the kernel's layout is not known. */
int th_tr_enabled_events(struct th_tr *tr, void (*fn)(ulong call, void *),
			 void *arg);
/* The same over every event file of TR (ENABLED: the enabled ones). */
int th_tr_event_files(struct th_tr *tr, int enabled,
		      void (*fn)(ulong call, void *), void *arg);
/* trace_event_file.event_call, 0 when unreadable */
ulong th_event_file_call(ulong file);
/* An event_mod_load: what to enable when MODULE loads. */
struct th_mod_event {
	char module[64];
	char match[128];
	char system[64];
	char event[128];
	int has_match;		/* else given as system and event */
	int has_system;		/* else every system */
	int has_event;		/* else every event */
};
void th_tr_mod_events(struct th_tr *tr,
		      void (*fn)(const struct th_mod_event *, void *),
		      void *arg);

/* One event file of an array: its event and what its "enable" shows. */
struct th_evfile {
	ulong file;		/* struct trace_event_file */
	ulong call;		/* its trace_event_call */
	char system[64];
	char name[128];
	int reg, ignore_enable;	/* th_event_call_enablable() */
	int state_ok;		/* the flags (and soft-mode count) were read */
	int enabled;		/* EVENT_FILE_FL_ENABLED */
	int soft_disabled;	/* EVENT_FILE_FL_SOFT_DISABLED */
	int soft_mode;		/* in soft mode (a trigger's enable_event,
				 * a hist trigger, an eprobe on it) */
};
/* TR's event files (read once for the session); -1 when the layout is
 * not known. */
int th_tr_evfiles(struct th_tr *tr, const struct th_evfile **out);
/* The first event file of SYSTEM/NAME in TR, NULL when none. */
const struct th_evfile *th_tr_evfile(struct th_tr *tr, const char *system,
				     const char *name);
/* One events/SYSTEM directory of an array. */
struct th_evsystem {
	ulong dir;		/* struct trace_subsystem_dir */
	ulong subsystem;	/* its struct event_subsystem */
	char name[64];
};
int th_tr_evsystems(struct th_tr *tr, const struct th_evsystem **out);
/* The filter string of an event file, of an event system: 1 with it in
 * BUF, 0 when none, -1 when unreadable. */
int th_event_file_filter(ulong file, char *buf, size_t len);
int th_subsystem_filter(ulong subsystem, char *buf, size_t len);
/* &trace_event_file.triggers, 0 when the kernel has none */
ulong th_event_file_triggers(ulong file);

/* -------------------------------------------------- event_triggers.c --- */

/* What a trigger's print function prints. */
enum th_trigger_kind {
	TH_TRIG_PLAIN,		/* event_trigger_print(): traceon, traceoff,
				 * snapshot, stacktrace */
	TH_TRIG_ENABLE,		/* event_enable_trigger_print() */
	TH_TRIG_HIST,		/* event_hist_trigger_print() */
	TH_TRIG_PROBE,		/* an eprobe's: nothing */
	TH_TRIG_OTHER,		/* a command tracehunt does not know */
};
/* One struct event_trigger_data. */
struct th_trigger {
	ulong data;
	char cmd[32];			/* its event_command's name */
	enum th_trigger_kind kind;
	int probe;			/* EVENT_TRIGGER_FL_PROBE */
	long count;			/* -1: unlimited */
	const char *filter;		/* NULL: none */
	int paused;
	ulong private_data;		/* event_trigger_data.private_data */
	char name[64];			/* a named hist trigger's name, or "" */
	/* TH_TRIG_ENABLE: enable_trigger_data */
	int enable, hist;
	char esystem[64], ename[128];
	char filter_buf[4096];
};
/* FILE's triggers, in list order (NULL: unreadable); -1 when the kernel's
 * layout is not known. */
int th_event_triggers(ulong file, void (*fn)(const struct th_trigger *,
					      void *), void *arg);
/* The names of trigger_commands in list order; -1 when unknown. */
int th_trigger_commands(char names[][32], int max);

/* --------------------------------------------------- ftrace_probes.c --- */

/* An ftrace_mod_load: "func:mod:module" (func "" for every function). */
struct th_mod_func {
	char func[128];
	char module[64];
};
void th_tr_mod_funcs(struct th_tr *tr, int notrace,
		     void (*fn)(const struct th_mod_func *, void *), void *arg);
/* An ftrace_func_probe. */
struct th_func_probe {
	ulong probe;		/* struct ftrace_func_probe */
	ulong ops;		/* its embedded ftrace_ops */
	ulong func;		/* probe_ops->func */
	ulong print;		/* probe_ops->print */
	ulong data;		/* its mapper (0: none) */
};
void th_tr_func_probes(struct th_tr *tr,
		       void (*fn)(const struct th_func_probe *, void *),
		       void *arg);
struct thf_hash;
/* thf_hash_read() that warns of a damaged chain (as the state files did) */
int th_ftrace_hash_read(ulong addr, struct thf_hash *h);
/* The same for the hash the global pointer SYM points to */
int th_ftrace_hash_read_sym(const char *sym, struct thf_hash *h);
/* The value a probe's ftrace_func_mapper keeps for IP; FALSE: none. */
int th_mapper_value(ulong mapper, ulong ip, ulong *value);
/* event_enable_print()'s struct event_probe_data */
struct th_event_probe {
	ulong file;		/* struct trace_event_file */
	long count;
	int enable;
};
int th_event_probe_read(ulong edata, struct th_event_probe *ep);

/* ---------------------------------------------------- buffer_state.c --- */

/* tracer_tracing_is_on(): 1, 0, or -1 when unreadable. */
int ff_is_on(struct th_tr *tr);
/* ring_buffer_expanded (global, or per array where the kernel keeps it). */
int ff_expanded(struct th_tr *tr);
/* RB_FL_OVERWRITE of TR's ring buffer: 1, 0, or -1 when unknown. */
int ff_rb_overwrite(ulong tr);
ulong ff_trace_buf_size(void);
/* per_cpu_ptr(tr->array_buffer.data, cpu)->entries */
int ff_cpu_entries(struct th_tr *tr, int cpu, ulong *entries);
/* for_each_tracing_cpu(): the CPUs of tracing_buffer_mask */
int ff_tracing_cpus(int *cpus, int max);
int ff_tracing_cpu(int cpu);

/* The pointer variable SYM's value; FALSE when absent or unreadable. */
/* Elements of a global array and the size of one, or -1. */
long ff_array_info(const char *sym, long *stride);

#endif
