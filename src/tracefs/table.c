/*
 * tracehunt: THE table of tracefs files, and "ftrace ls" / "ftrace cat"
 * derived from it.
 *
 * One row per file, in the order "ftrace ls" lists them:
 *   name      the file relative to an array's directory; for a family the
 *             leaf: options/X over the array's option names, per_cpu/cpuN/
 *             NAME over the tracing or the possible CPUs (or the ring
 *             buffer's, for -d), events/SYSTEM/EVENT/NAME over the events
 *             of the catalog (EVENTS) or of the array's event files
 *             (EVENT_FILES), events/SYSTEM/NAME over the array's event
 *             systems (SYSTEMS)
 *   family    TH_FAM_*: one file or which family
 *   scope     TH_SCOPE_TOP: the top-level directory only; TH_SCOPE_ALL:
 *             instances/NAME/ too; TH_SCOPE_KPROBES: a file of debugfs'
 *             kprobes directory, named by its absolute path (listed with
 *             the global array, not written by -d: not a tracefs file)
 *   flags     TH_TF_CAPTURE_LAST: the guest captures it after every other
 *             file (kprobe_profile counts each open of the capture;
 *             saved_cmdlines, where tracing stays on, records each of the
 *             capture's thousands of processes and recycles its slots);
 *             TH_TF_CAPTURE_TOP: only the top-level copy is captured (the
 *             event files: every instance has the same bytes, and
 *             thousands of them)
 *   top_only  what "ftrace cat" says of a top-only file asked for in an
 *             instance, when its wording is not the usual one
 *   missing   NULL when the dump has the file, else the one-line reason
 *             (what "ftrace cat" prints instead); no function: always
 *   print     prints the file as the kernel's show/read function did; no
 *             function: not a file "ftrace ls"/"ftrace cat" know (a file
 *             only "ftrace dump -d" writes)
 *   write     what "ftrace dump -d DIR" writes for it (dump_dir.c)
 *
 * "ftrace ls" lists, for each array, every row of its scope whose files
 * the dump has: a family lists the names its enumeration yields.  "ftrace
 * cat FILE" finds the row whose name or family FILE matches, then says
 * why when the file is not in this directory or not in the dump, else
 * prints it.
 *
 * "ftrace dump -d DIR" (dump_dir.c) writes a trace-cmd-style directory:
 * it iterates this table and, for every row with a write function, writes
 * its file (a family: every member) for the one array it dumps.  So the
 * file set -d writes is the set of rows with a "write" column; the bytes
 * come from the trace.dat text builders (render/trace_dump.h); every
 * other printed row, each file "ftrace ls" lists, is written as "ftrace
 * cat" prints it.  Rows without "print" are files only -d writes
 * ("kallsyms" is trace-cmd's copy of /proc/kallsyms, not a tracefs file);
 * saved_cmdlines is printed by "cat" whole and written by -d as trace-cmd
 * keeps it (the tasks the recorded events name).
 *
 * The guest's capture list derives from the rows that have a "print":
 * scripts/fixture.py reads them from this file.  The syntax it parses:
 * each row is TH_ROW( "name", FAMILY, SCOPE, FLAGS, ... ) -- a string
 * literal and three bare words (FLAGS: 0 or TH_TF_* joined by "|") --
 * and the rows are between "th_tfiles[] = {" and "};".
 */
#include "tracefs/tracefs.h"
#include "model/ftrace_files.h"

#define TH_ROW(name, fam, scope, flags, top_only, missing, print, write) \
	{ name, TH_FAM_##fam, TH_SCOPE_##scope, flags, top_only, missing, \
	  print, write }

/* what "ftrace cat" said of these in an instance, as earlier builds */
#define TH_TOP_NOT_IN_INSTANCES \
	"%s exists only in the top-level tracing directory, not in instances"
#define TH_TOP_TRACING_DIR "%s exists only in the top-level tracing directory"

const struct th_tfile th_tfiles[] = {
	TH_ROW("available_tracers", ONE, ALL, 0,
	       NULL, NULL, th_cat_available_tracers, NULL),
	TH_ROW("current_tracer", ONE, ALL, 0,
	       NULL, NULL, th_cat_current_tracer, NULL),
	TH_ROW("tracing_on", ONE, ALL, 0,
	       NULL, NULL, th_cat_tracing_on, NULL),
	TH_ROW("buffer_size_kb", ONE, ALL, 0,
	       NULL, NULL, th_cat_buffer_size_kb, NULL),
	TH_ROW("buffer_total_size_kb", ONE, ALL, 0,
	       NULL, NULL, th_cat_buffer_total_size_kb, NULL),
	TH_ROW("buffer_subbuf_size_kb", ONE, ALL, 0,
	       NULL, th_missing_subbuf_size, th_cat_buffer_subbuf_size_kb,
	       NULL),
	TH_ROW("last_boot_info", ONE, ALL, 0,
	       NULL, th_missing_last_boot, th_cat_last_boot_info, NULL),
	TH_ROW("set_ftrace_filter", ONE, ALL, 0,
	       NULL, th_missing_tr_ops, th_cat_set_ftrace_filter, NULL),
	TH_ROW("set_ftrace_notrace", ONE, ALL, 0,
	       NULL, th_missing_tr_ops, th_cat_set_ftrace_filter, NULL),
	TH_ROW("set_graph_function", ONE, TOP, 0,
	       NULL, th_missing_graph_hash, th_cat_set_graph, NULL),
	TH_ROW("set_graph_notrace", ONE, TOP, 0,
	       NULL, th_missing_graph_hash, th_cat_set_graph, NULL),
	TH_ROW("set_event", ONE, ALL, 0,
	       NULL, NULL, th_cat_set_event, NULL),
	TH_ROW("trace_clock", ONE, ALL, 0,
	       NULL, NULL, th_cat_trace_clock, NULL),
	TH_ROW("trace_options", ONE, ALL, 0,
	       NULL, NULL, th_cat_trace_options, NULL),
	TH_ROW("saved_cmdlines", ONE, TOP, TH_TF_CAPTURE_LAST,
	       NULL, th_missing_savedcmd, th_cat_saved_cmdlines,
	       th_dump_dir_cmdlines),
	TH_ROW("saved_cmdlines_size", ONE, TOP, 0,
	       NULL, th_missing_savedcmd, th_cat_saved_cmdlines_size, NULL),
	TH_ROW("options/", OPTIONS, ALL, 0,
	       NULL, th_missing_option, th_cat_option, NULL),
	TH_ROW("buffer_size_kb", TRACING_CPUS, ALL, 0,
	       NULL, th_missing_tracing_cpu, th_cat_buffer_size_kb, NULL),
	TH_ROW("stats", TRACING_CPUS, ALL, 0,
	       NULL, th_missing_tracing_cpu, th_cat_stats, NULL),
	TH_ROW("kprobe_events", ONE, TOP, 0,
	       TH_TOP_NOT_IN_INSTANCES, th_missing_kprobe_events,
	       th_cat_kprobe_events, NULL),
	TH_ROW("kprobe_profile", ONE, TOP, TH_TF_CAPTURE_LAST,
	       TH_TOP_NOT_IN_INSTANCES, th_missing_kprobe_events,
	       th_cat_kprobe_events, NULL),
	TH_ROW("dynamic_events", ONE, TOP, 0,
	       TH_TOP_NOT_IN_INSTANCES, th_missing_dynamic_events,
	       th_cat_dynamic_events, NULL),
	TH_ROW("synthetic_events", ONE, TOP, 0,
	       TH_TOP_NOT_IN_INSTANCES, th_missing_synthetic_events,
	       th_cat_synthetic_events, NULL),
	TH_ROW("uprobe_events", ONE, TOP, 0,
	       TH_TOP_NOT_IN_INSTANCES, th_missing_uprobe_events,
	       th_cat_uprobe_events, NULL),
	TH_ROW("uprobe_profile", ONE, TOP, TH_TF_CAPTURE_LAST,
	       TH_TOP_NOT_IN_INSTANCES, th_missing_uprobe_events,
	       th_cat_uprobe_events, NULL),
	TH_ROW("user_events_status", ONE, TOP, 0,
	       TH_TOP_NOT_IN_INSTANCES, th_missing_user_events_status,
	       th_cat_user_events_status, NULL),
	TH_ROW("enabled_functions", ONE, TOP, 0,
	       TH_TOP_TRACING_DIR, th_missing_rec_file, th_cat_rec_file, NULL),
	TH_ROW("touched_functions", ONE, TOP, 0,
	       TH_TOP_TRACING_DIR, th_missing_rec_file, th_cat_rec_file, NULL),
	TH_ROW("trace", ONE, ALL, 0,
	       NULL, NULL, th_cat_trace, NULL),
	TH_ROW("trace", POSSIBLE_CPUS, ALL, 0,
	       NULL, th_missing_possible_cpu, th_cat_trace, NULL),
	TH_ROW("snapshot", ONE, ALL, 0,
	       NULL, th_missing_snapshot, th_cat_snapshot, NULL),
	TH_ROW("snapshot", TRACING_CPUS, ALL, 0,
	       NULL, th_missing_snapshot, th_cat_snapshot, NULL),
	TH_ROW("tracing_cpumask", ONE, ALL, 0,
	       NULL, th_missing_cpumask, th_cat_tracing_cpumask, NULL),
	TH_ROW("tracing_thresh", ONE, TOP, 0,
	       NULL, th_missing_value, th_cat_value, NULL),
	TH_ROW("tracing_max_latency", ONE, ALL, 0,
	       NULL, th_missing_value, th_cat_value, NULL),
	TH_ROW("hwlat_detector/width", ONE, TOP, 0,
	       NULL, th_missing_min_max, th_cat_min_max, NULL),
	TH_ROW("hwlat_detector/window", ONE, TOP, 0,
	       NULL, th_missing_min_max, th_cat_min_max, NULL),
	TH_ROW("hwlat_detector/mode", ONE, TOP, 0,
	       NULL, th_missing_hwlat_mode, th_cat_hwlat_mode, NULL),
	TH_ROW("osnoise/cpus", ONE, TOP, 0,
	       NULL, th_missing_osnoise, th_cat_osnoise_cpus, NULL),
	TH_ROW("osnoise/period_us", ONE, TOP, 0,
	       NULL, th_missing_min_max, th_cat_min_max, NULL),
	TH_ROW("osnoise/runtime_us", ONE, TOP, 0,
	       NULL, th_missing_min_max, th_cat_min_max, NULL),
	TH_ROW("osnoise/stop_tracing_us", ONE, TOP, 0,
	       NULL, th_missing_min_max, th_cat_min_max, NULL),
	TH_ROW("osnoise/stop_tracing_total_us", ONE, TOP, 0,
	       NULL, th_missing_min_max, th_cat_min_max, NULL),
	TH_ROW("osnoise/print_stack", ONE, TOP, 0,
	       NULL, th_missing_min_max, th_cat_min_max, NULL),
	TH_ROW("osnoise/timerlat_period_us", ONE, TOP, 0,
	       NULL, th_missing_min_max, th_cat_min_max, NULL),
	TH_ROW("osnoise/timerlat_align_us", ONE, TOP, 0,
	       NULL, th_missing_min_max, th_cat_min_max, NULL),
	TH_ROW("osnoise/options", ONE, TOP, 0,
	       NULL, th_missing_osnoise, th_cat_osnoise_options, NULL),
	TH_ROW("max_graph_depth", ONE, TOP, 0,
	       NULL, th_missing_value, th_cat_value, NULL),
	TH_ROW("buffer_percent", ONE, ALL, 0,
	       NULL, th_missing_value, th_cat_value, NULL),
	TH_ROW("timestamp_mode", ONE, ALL, 0,
	       NULL, th_missing_value, th_cat_value, NULL),
	TH_ROW("dyn_ftrace_total_info", ONE, TOP, 0,
	       NULL, th_missing_value, th_cat_value, NULL),
	TH_ROW("syscall_user_buf_size", ONE, ALL, 0,
	       NULL, th_missing_value, th_cat_value, NULL),
	TH_ROW("stack_max_size", ONE, TOP, 0,
	       NULL, th_missing_value, th_cat_value, NULL),
	TH_ROW("stack_trace", ONE, TOP, 0,
	       NULL, th_missing_stack_trace, th_cat_stack_trace, NULL),
	TH_ROW("stack_trace_filter", ONE, TOP, 0,
	       NULL, th_missing_stack_trace_filter, th_cat_stack_trace_filter,
	       NULL),
	TH_ROW("set_ftrace_pid", ONE, ALL, 0,
	       NULL, th_missing_pid_file, th_cat_pid_file, NULL),
	TH_ROW("set_ftrace_notrace_pid", ONE, ALL, 0,
	       NULL, th_missing_pid_file, th_cat_pid_file, NULL),
	TH_ROW("set_event_pid", ONE, ALL, 0,
	       NULL, th_missing_pid_file, th_cat_pid_file, NULL),
	TH_ROW("set_event_notrace_pid", ONE, ALL, 0,
	       NULL, th_missing_pid_file, th_cat_pid_file, NULL),
	TH_ROW("saved_tgids", ONE, TOP, 0,
	       NULL, th_missing_saved_tgids, th_cat_saved_tgids, NULL),
	TH_ROW("error_log", ONE, ALL, 0,
	       NULL, th_missing_error_log, th_cat_error_log, NULL),
	TH_ROW("README", ONE, TOP, 0,
	       NULL, th_missing_readme, th_cat_readme, NULL),
	TH_ROW("available_events", ONE, TOP, 0,
	       TH_TOP_TRACING_DIR, th_missing_events, th_cat_available_events,
	       NULL),
	TH_ROW("available_filter_functions", ONE, TOP, 0,
	       TH_TOP_TRACING_DIR, th_missing_rec_file, th_cat_rec_file, NULL),
	TH_ROW("available_filter_functions_addrs", ONE, TOP, 0,
	       TH_TOP_TRACING_DIR, th_missing_rec_file, th_cat_rec_file, NULL),
	TH_ROW("events/header_page", ONE, ALL, 0,
	       NULL, th_missing_events, th_cat_event_header,
	       th_dump_dir_header_page),
	TH_ROW("events/header_event", ONE, ALL, 0,
	       NULL, th_missing_events, th_cat_event_header,
	       th_dump_dir_header_event),
	TH_ROW("format", EVENTS, ALL, TH_TF_CAPTURE_TOP,
	       NULL, th_missing_event, th_cat_event_file, th_dump_dir_format),
	TH_ROW("id", EVENTS, ALL, TH_TF_CAPTURE_TOP,
	       NULL, th_missing_event, th_cat_event_file, NULL),
	TH_ROW("events/enable", ONE, ALL, 0,
	       NULL, th_missing_events_enable, th_cat_events_enable, NULL),
	TH_ROW("show_event_filters", ONE, ALL, 0,
	       NULL, th_missing_show_events, th_cat_show_events, NULL),
	TH_ROW("show_event_triggers", ONE, ALL, 0,
	       NULL, th_missing_show_events, th_cat_show_events, NULL),
	TH_ROW("enable", SYSTEMS, ALL, 0,
	       NULL, th_missing_evsystem, th_cat_evsystem, NULL),
	TH_ROW("filter", SYSTEMS, ALL, 0,
	       NULL, th_missing_evsystem, th_cat_evsystem, NULL),
	TH_ROW("enable", EVENT_FILES, ALL, 0,
	       NULL, th_missing_evfile, th_cat_evfile, NULL),
	TH_ROW("filter", EVENT_FILES, ALL, 0,
	       NULL, th_missing_evfile, th_cat_evfile, NULL),
	TH_ROW("trigger", EVENT_FILES, ALL, 0,
	       NULL, th_missing_evfile, th_cat_evfile, NULL),
	TH_ROW("hist", EVENT_FILES, ALL, 0,
	       NULL, th_missing_evfile, th_cat_hist, NULL),
	TH_ROW("kallsyms", ONE, TOP, 0,
	       NULL, NULL, NULL, th_dump_dir_kallsyms),
	TH_ROW("printk_formats", ONE, TOP, 0,
	       NULL, th_missing_printk_formats, th_cat_printk_formats, NULL),
	TH_ROW("/sys/kernel/debug/kprobes/enabled", ONE, KPROBES, 0,
	       NULL, th_missing_kprobes_enabled, th_cat_kprobes_enabled, NULL),
	TH_ROW("/sys/kernel/debug/kprobes/blacklist", ONE, KPROBES, 0,
	       NULL, th_missing_kprobes_blacklist, th_cat_kprobes_blacklist,
	       NULL),
	TH_ROW("trace_pipe_raw", BUFFER_CPUS, ALL, 0,
	       NULL, NULL, NULL, th_dump_dir_pipe_raw),
	{ NULL },
};

/* ---------------------------------------------------------- "ftrace ls" --- */

struct th_ls_row {
	const struct th_tfile *row;
	th_ls_add_fn add;
	void *arg;
};

static int th_ls_option(const char *name, int val, void *arg)
{
	struct th_ls_row *l = arg;
	char buf[64];

	snprintf(buf, sizeof(buf), "%s%s", l->row->name, name);
	l->add(buf, l->arg);
	return FALSE;
}

/* The per_cpu/cpuN/NAME files of ROW whose CPU the dump has in TR */
static void th_ls_cpus(struct th_tr *tr, const struct th_tfile *row,
		       const int *cpus, int n, th_ls_add_fn add, void *arg)
{
	struct th_tref ref = { NULL, -1, NULL };
	char buf[64], why[256];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "per_cpu/cpu%d/%s", cpus[i],
			 row->name);
		ref.file = buf;
		ref.cpu = cpus[i];
		if (!row->missing || !row->missing(tr, &ref, why, sizeof(why)))
			add(buf, arg);
	}
}

/* The files of ROW in TR that the dump has. */
static void th_ls_row(struct th_tr *tr, const struct th_tfile *row,
		      th_ls_add_fn add, void *arg)
{
	struct th_tref ref = { row->name, -1, NULL };
	struct th_ls_row l = { row, add, arg };
	int cpus[NR_CPUS], n;
	char why[256];

	switch (row->family) {
	case TH_FAM_ONE:
		if (!row->missing || !row->missing(tr, &ref, why, sizeof(why)))
			add(row->name, arg);
		break;
	case TH_FAM_OPTIONS:
		th_each_option(tr, th_ls_option, &l);
		break;
	case TH_FAM_TRACING_CPUS:
		n = ff_tracing_cpus(cpus, FF_MAX_CPUS);
		th_ls_cpus(tr, row, cpus, n, add, arg);
		break;
	case TH_FAM_POSSIBLE_CPUS:
		n = th_possible_cpus(cpus, NR_CPUS);
		th_ls_cpus(tr, row, cpus, n, add, arg);
		break;
	case TH_FAM_EVENTS:	/* the events of the catalog */
		th_ls_events(row->name, add, arg);
		break;
	case TH_FAM_EVENT_FILES:
		th_ls_evfiles(tr, row->name, add, arg);
		break;
	case TH_FAM_SYSTEMS:
		th_ls_evsystems(tr, row->name, add, arg);
		break;
	default:	/* the families only -d writes */
		break;
	}
}

/**
 * th_tracefs_ls - every file of a trace array the dump has
 * @tr: the array
 * @add: called with each file's name (relative to the array's directory)
 * @arg: passed to @add
 */
void th_tracefs_ls(struct th_tr *tr, th_ls_add_fn add, void *arg)
{
	const struct th_tfile *row;

	for (row = th_tfiles; row->name; row++)
		if (row->print && (row->scope == TH_SCOPE_ALL || !tr->name[0]))
			th_ls_row(tr, row, add, arg);
}

/**
 * th_tracefs_row_files - the files of one row in TR that the dump has (a
 * debugfs row: none, not being a file of a tracefs directory)
 * @tr: the array
 * @row: the row
 * @add: called with each file's name
 * @arg: passed to @add
 */
void th_tracefs_row_files(struct th_tr *tr, const struct th_tfile *row,
			  th_ls_add_fn add, void *arg)
{
	if (row->scope == TH_SCOPE_ALL ||
	    (row->scope == TH_SCOPE_TOP && !tr->name[0]))
		th_ls_row(tr, row, add, arg);
}

/* --------------------------------------------------------- "ftrace cat" --- */

/*
 * "per_cpu/cpuN/LEAF" -> N.  The tracing-CPU files took only numbers a
 * CPU can have (0 to NR_CPUS - 1; any other is "not a file"), the trace
 * files any number ("no CPU N"): both kept.
 */
static int th_match_cpu(const struct th_tfile *row, const char *file,
			int *cpu)
{
	char *end;
	long n;

	if (strncmp(file, "per_cpu/cpu", 11) != 0)
		return FALSE;
	n = strtol(file + 11, &end, 10);
	if (end == file + 11 || *end != '/' || strcmp(end + 1, row->name) != 0)
		return FALSE;
	if (row->family == TH_FAM_TRACING_CPUS && (n < 0 || n >= NR_CPUS))
		return FALSE;
	*cpu = (int)n;
	return TRUE;
}

/* Whether FILE is one of ROW's files; REF then names it. */
static int th_match(const struct th_tfile *row, const char *file,
		    struct th_tref *ref)
{
	size_t len = strlen(row->name);

	ref->file = file;
	ref->cpu = -1;
	ref->option = NULL;
	switch (row->family) {
	case TH_FAM_ONE:
		return strcmp(file, row->name) == 0;
	case TH_FAM_OPTIONS:
		if (strncmp(file, row->name, len) != 0)
			return FALSE;
		ref->option = file + len;
		return TRUE;
	case TH_FAM_TRACING_CPUS:
	case TH_FAM_POSSIBLE_CPUS:
		return th_match_cpu(row, file, &ref->cpu);
	case TH_FAM_EVENTS:
	case TH_FAM_EVENT_FILES:
		return th_event_file_match(file, row->name);
	case TH_FAM_SYSTEMS:
		return th_event_system_match(file, row->name);
	default:
		return FALSE;
	}
}

/**
 * th_tracefs_ref - the file FILE of ROW as its functions take it
 * @row: the row
 * @file: a name th_tracefs_row_files() gave
 * @ref: filled
 *
 * Return: FALSE when FILE is not one of the row's.
 */
int th_tracefs_ref(const struct th_tfile *row, const char *file,
		   struct th_tref *ref)
{
	return th_match(row, file, ref);
}

static void th_ls_append(const char *name, void *arg)
{
	char *buf = arg;
	size_t len = strlen(buf);

	if (len + strlen(name) + 2 < 4096) {
		buf[len] = ' ';
		strcpy(buf + len + 1, name);
	}
}

/* ROW's file REF in TR: why not, or its bytes. */
static void th_cat_row(struct th_tr *tr, const struct th_tfile *row,
		       const struct th_tref *ref, const char *path)
{
	const char *why;
	char buf[512];

	if (row->scope != TH_SCOPE_ALL && tr->name[0]) {
		fprintf(fp, "ftrace cat: ");
		if (row->top_only)
			fprintf(fp, row->top_only, ref->file);
		else
			fprintf(fp, "%s: the kernel has this file only in the "
				"top-level directory", path);
		fputc('\n', fp);
		return;
	}
	why = row->missing ? row->missing(tr, ref, buf, sizeof(buf)) : NULL;
	if (why)
		fprintf(fp, "%s\n", why);
	else
		row->print(tr, ref);
}

/**
 * th_tracefs_cat - "ftrace cat PATH": the file, or one line saying why not
 * @tr: the array PATH is in
 * @path: what the user named
 * @file: PATH relative to @tr's directory
 */
void th_tracefs_cat(struct th_tr *tr, const char *path, const char *file)
{
	const struct th_tfile *row;
	struct th_tref ref;
	char *line;

	for (row = th_tfiles; row->name; row++) {
		if (row->print && th_match(row, file, &ref)) {
			th_cat_row(tr, row, &ref, path);
			return;
		}
	}
	fprintf(fp, "ftrace cat: %s: not a file tracehunt can reconstruct; "
		"available:", path);
	/* one line: the files of this array */
	line = GETBUF(4096);
	line[0] = '\0';
	th_tracefs_ls(tr, th_ls_append, line);
	fprintf(fp, "%s\n", line);
	FREEBUF(line);
}
