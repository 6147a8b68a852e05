/*
 * tracehunt: the tracing settings files of issue 22's census: the values
 * (tracing_thresh, tracing_max_latency, max_graph_depth, buffer_percent,
 * timestamp_mode, dyn_ftrace_total_info, stack_max_size), tracing_cpumask,
 * the pid lists (set_ftrace_pid, set_ftrace_notrace_pid, set_event_pid,
 * set_event_notrace_pid), saved_tgids, error_log, stack_trace and README.
 *
 * Each printed the way the kernel's read/show function named in its
 * comment prints it (kernel/trace/trace.c unless said).
 */
#include "tracefs/tracefs.h"
#include "model/ftrace_files.h"
#include "model/trace_globals.h"
#include "model/trace_rb.h"
#include "model/pid_list.h"
#include "model/tgid.h"
#include "model/err_log.h"

#define TH_NSEC_PER_SEC	1000000000ULL

/* ------------------------------------------------------------ values --- */

/* The value files: which variable each shows. */
enum th_vfile { TH_VF_THRESH, TH_VF_MAX_LATENCY, TH_VF_GRAPH_DEPTH,
		TH_VF_BUFFER_PERCENT, TH_VF_TS_MODE, TH_VF_DYN_INFO,
		TH_VF_STACK_MAX, TH_VF_SYSCALL_BUF, TH_VF_NONE };

static enum th_vfile th_vfile_of(const char *file)
{
	static const char *const names[] = {
		[TH_VF_THRESH] = "tracing_thresh",
		[TH_VF_MAX_LATENCY] = "tracing_max_latency",
		[TH_VF_GRAPH_DEPTH] = "max_graph_depth",
		[TH_VF_BUFFER_PERCENT] = "buffer_percent",
		[TH_VF_TS_MODE] = "timestamp_mode",
		[TH_VF_DYN_INFO] = "dyn_ftrace_total_info",
		[TH_VF_STACK_MAX] = "stack_max_size",
		[TH_VF_SYSCALL_BUF] = "syscall_user_buf_size",
	};
	int i;

	for (i = 0; i < TH_VF_NONE; i++)
		if (strcmp(file, names[i]) == 0)
			return i;
	return TH_VF_NONE;
}

/* tracing_nsecs_read(): -1 for (unsigned long)-1, else microseconds */
static void th_print_nsecs(ulong ns)
{
	if (ns == (ulong)-1)
		fprintf(fp, "-1\n");
	else
		fprintf(fp, "%ld\n", (long)(ns / 1000));
}

/* dyn_ftrace_total_info's two lines of times, where the kernel keeps
 * ftrace_update_time and ftrace_total_mod_time (7.2; not 6.12) */
static void th_dyn_info_times(void)
{
	ulong boot, mod;

	if (!th_global_exists(TH_G_FTRACE_UPDATE_TIME) ||
	    !th_global_exists(TH_G_FTRACE_MOD_TIME))
		return;
	if (!th_global(TH_G_FTRACE_UPDATE_TIME, &boot) ||
	    !th_global(TH_G_FTRACE_MOD_TIME, &mod)) {
		fprintf(fp, "ftrace cat: dyn_ftrace_total_info: "
			"ftrace_update_time cannot be read\n");
		return;
	}
	fprintf(fp, "ftrace boot update time = %llu (ns)\n"
		"ftrace module total update time = %llu (ns)\n",
		(unsigned long long)boot, (unsigned long long)mod);
}

/*
 * Read the file's values; FALSE (and WHY) when the kernel has no such
 * file or the dump does not say.
 */
static int th_value_read(struct th_tr *tr, enum th_vfile f, ulong *v,
			 const char **why)
{
	unsigned int u;
	int i;

	*why = "the dump's kernel has no such variable";
	switch (f) {
	case TH_VF_THRESH:
		return th_global(TH_G_TRACING_THRESH, v);
	case TH_VF_MAX_LATENCY:
		*why = "this kernel has no trace_array.max_latency "
			"(no CONFIG_TRACER_MAX_TRACE), so no such file";
		return th_tr_max_latency(tr->addr, v);
	case TH_VF_GRAPH_DEPTH:
		return th_global(TH_G_FGRAPH_MAX_DEPTH, v);
	case TH_VF_BUFFER_PERCENT:
		*why = "this kernel has no trace_array.buffer_percent, so no "
			"such file";
		if (!th_tr_buffer_percent(tr->addr, &i))
			return FALSE;
		*v = (ulong)(long)i;
		return TRUE;
	case TH_VF_TS_MODE:
		*why = "the ring buffer's time_stamp_abs cannot be read";
		if (!th_rb_time_stamp_abs(tr->addr, &i))
			return FALSE;
		*v = i;
		return TRUE;
	case TH_VF_DYN_INFO:
		/* (before its page and group counts: the count alone) */
		v[1] = v[2] = ~0UL;
		return th_global(TH_G_FTRACE_UPDATE_TOT_CNT, &v[0]) &&
			(!th_global_exists(TH_G_FTRACE_PAGES) ||
			 (th_global(TH_G_FTRACE_PAGES, &v[1]) &&
			  th_global(TH_G_FTRACE_GROUPS, &v[2])));
	case TH_VF_STACK_MAX:
		*why = "this kernel has no stack tracer, so no such file";
		return th_global(TH_G_STACK_MAX_SIZE, v);
	case TH_VF_SYSCALL_BUF:
		*why = "this kernel has no trace_array.syscall_buf_sz, so no "
			"such file";
		if (!th_tr_syscall_buf_sz(tr->addr, &u))
			return FALSE;
		*v = u;
		return TRUE;
	default:
		return FALSE;
	}
}

/**
 * th_missing_value - a value file the dump cannot answer, and why
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_value(struct th_tr *tr, const struct th_tref *ref,
			     char *buf, size_t len)
{
	ulong v[3];
	const char *why;

	if (th_value_read(tr, th_vfile_of(ref->file), v, &why))
		return NULL;
	snprintf(buf, len, "ftrace cat: %s: %s", ref->file, why);
	return buf;
}

/**
 * th_cat_value - tracing_thresh_read(), tracing_max_lat_read() (both
 * tracing_nsecs_read()), graph_depth_read() (trace_functions_graph.c),
 * buffer_percent_read(), tracing_time_stamp_mode_show(),
 * tracing_read_dyn_info(), stack_max_size_read() (trace_stack.c),
 * tracing_syscall_buf_read()
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_value(struct th_tr *tr, const struct th_tref *ref)
{
	enum th_vfile f = th_vfile_of(ref->file);
	const char *why;
	ulong v[3];

	if (!th_value_read(tr, f, v, &why)) {
		fprintf(fp, "ftrace cat: %s: %s\n", ref->file, why);
		return;
	}
	switch (f) {
	case TH_VF_THRESH:
	case TH_VF_MAX_LATENCY:
		th_print_nsecs(v[0]);
		break;
	case TH_VF_GRAPH_DEPTH:
	case TH_VF_BUFFER_PERCENT:
		fprintf(fp, "%d\n", (int)v[0]);
		break;
	case TH_VF_TS_MODE:
		fputs(v[0] ? "delta [absolute]\n" : "[delta] absolute\n", fp);
		break;
	case TH_VF_DYN_INFO:
		if (v[1] == ~0UL) {
			/* 3.10: "%ld " and x86's empty
			 * ftrace_arch_read_dyn_info() */
			fprintf(fp, "%ld \n", (long)v[0]);
			break;
		}
		fprintf(fp, "%ld pages:%ld groups: %ld\n", (long)v[0],
			(long)v[1], (long)v[2]);
		th_dyn_info_times();
		break;
	case TH_VF_STACK_MAX:
		fprintf(fp, "%ld\n", (long)v[0]);
		break;
	case TH_VF_SYSCALL_BUF:
		/* tracing_syscall_buf_read(): "%d\n" */
		fprintf(fp, "%d\n", (int)v[0]);
		break;
	default:
		break;
	}
}

/* ------------------------------------------------------ tracing_cpumask --- */

/**
 * th_missing_cpumask - tracing_cpumask needs nr_cpu_ids and the mask
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_cpumask(struct th_tr *tr, const struct th_tref *ref,
			       char *buf, size_t len)
{
	ulong w;

	if (th_ksymbol("nr_cpu_ids") && th_tr_cpumask(tr->addr, &w, 1))
		return NULL;
	snprintf(buf, len, "ftrace cat: %s: the dump does not hold the "
		 "array's tracing_cpumask or nr_cpu_ids", ref->file);
	return buf;
}

/**
 * th_cat_tracing_cpumask - tracing_cpumask_read(): "%*pb\n" over
 * nr_cpu_ids bits (bitmap_string() of lib/vsprintf.c: 32-bit chunks,
 * most significant first, joined by commas, the first one padded to its
 * own width)
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_tracing_cpumask(struct th_tr *tr, const struct th_tref *ref)
{
	ulong words[FF_MAX_CPUS / (8 * sizeof(ulong)) + 1];
	unsigned int nbits = 0;
	int nwords, i, chunksz, first = TRUE;

	struct th_cpumask_legacy l;
	long len = 0;

	memset(words, 0, sizeof(words));
	if (th_cpumask_legacy(&l)) {
		nbits = l.nbits;
		len = l.file_len;
	} else
		nbits = th_nr_cpu_ids();
	if (!nbits || nbits > FF_MAX_CPUS) {
		fprintf(fp, "ftrace cat: %s: nr_cpu_ids cannot be read\n",
			ref->file);
		return;
	}
	nwords = (nbits + 8 * sizeof(ulong) - 1) / (8 * sizeof(ulong));
	if (!th_tr_cpumask(tr->addr, words, nwords)) {
		fprintf(fp, "ftrace cat: %s: the mask cannot be read\n",
			ref->file);
		return;
	}
	chunksz = nbits & 31 ? nbits & 31 : 32;
	for (i = ((nbits + 31) & ~31U) - 32; i >= 0; i -= 32) {
		ulong val = words[i / 64] >> (i % 64);

		val &= chunksz == 32 ? 0xffffffffUL : (1UL << chunksz) - 1;
		len -= fprintf(fp, "%s%0*lx", first ? "" : ",",
			       (chunksz + 3) / 4, val);
		first = FALSE;
		chunksz = 32;
	}
	fputc('\n', fp);
	/* before v4.4 the read returned the whole static mask_str: the
	 * text, its newline, then NULs */
	for (len--; len > 0; len--)
		fputc('\0', fp);
}

/* --------------------------------------------------------- pid lists --- */

static enum th_pids th_pids_of(const char *file)
{
	if (strcmp(file, "set_ftrace_pid") == 0)
		return TH_PIDS_FUNCTION;
	if (strcmp(file, "set_ftrace_notrace_pid") == 0)
		return TH_PIDS_FUNCTION_NO;
	if (strcmp(file, "set_event_pid") == 0)
		return TH_PIDS_EVENT;
	return TH_PIDS_EVENT_NO;
}

/**
 * th_missing_pid_file - a pid file needs its trace_array member and a
 * known struct trace_pid_list
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_pid_file(struct th_tr *tr, const struct th_tref *ref,
				char *buf, size_t len)
{
	ulong list;
	int have = th_tr_pid_list(tr->addr, th_pids_of(ref->file), &list);

	if (!have && strcmp(ref->file, "set_ftrace_pid") == 0 &&
	    tr->addr == th_symbol("global_trace") && th_symbol("ftrace_pids"))
		return NULL;	/* 3.10's one list (th_ftrace_pids_old()) */
	if (!have)
		snprintf(buf, len, "ftrace cat: %s: this kernel has no such "
			 "pid list in struct trace_array, so no such file",
			 ref->file);
	else if (list && !th_pid_list_known())
		snprintf(buf, len, "ftrace cat: %s: the dump's struct "
			 "trace_pid_list has a layout tracehunt does not know",
			 ref->file);
	else
		return NULL;
	return buf;
}

static void th_pid_print(ulong pid, void *arg)
{
	fprintf(fp, "%lu\n", pid);
}

/* fpid_show() of 3.10 */
static void th_pid_print_old(long pid, void *arg)
{
	if (pid < 0)
		fputs("swapper tasks\n", fp);
	else
		fprintf(fp, "%u\n", (unsigned)pid);
}

/**
 * th_cat_pid_file - fpid_show()/fnpid_show() (ftrace.c: "no pid" without
 * a list) and p_show() (trace_events.c: nothing), each pid by
 * trace_pid_show()
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_pid_file(struct th_tr *tr, const struct th_tref *ref)
{
	enum th_pids which = th_pids_of(ref->file);
	ulong list = 0;

	if (!th_tr_pid_list(tr->addr, which, &list) &&
	    which == TH_PIDS_FUNCTION && th_symbol("ftrace_pids")) {
		if (th_ftrace_pids_old(th_pid_print_old, NULL) == 0)
			fputs("no pid\n", fp);
		return;
	}
	if (!list) {
		if (which == TH_PIDS_FUNCTION || which == TH_PIDS_FUNCTION_NO)
			fputs("no pid\n", fp);
		return;
	}
	if (!th_pid_list_each(list, th_pid_print, NULL))
		th_warn("%s: the pid list at %lx could not be read whole",
			ref->file, list);
}

/* -------------------------------------------------------- saved_tgids --- */

/**
 * th_missing_saved_tgids - saved_tgids needs tgid_map
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_saved_tgids(struct th_tr *tr, const struct th_tref *ref,
				   char *buf, size_t len)
{
	if (th_tgid_known())
		return NULL;
	return "ftrace cat: saved_tgids: the dump's kernel has no tgid_map";
}

static void th_tgid_print(int pid, int tgid, void *arg)
{
	fprintf(fp, "%d %d\n", pid, tgid);
}

/**
 * th_cat_saved_tgids - saved_tgids_show() over tgid_map
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_saved_tgids(struct th_tr *tr, const struct th_tref *ref)
{
	if (!th_tgid_each(th_tgid_print, NULL))
		th_warn("saved_tgids: tgid_map cannot be read");
}

/* ---------------------------------------------------------- error_log --- */

/**
 * th_missing_error_log - error_log needs the array's err_log list and the
 * layout of its entries
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_error_log(struct th_tr *tr, const struct th_tref *ref,
				 char *buf, size_t len)
{
	if (th_tr_list(tr->addr, TH_TR_ERR_LOG) && th_err_log_known())
		return NULL;
	return "ftrace cat: error_log: the dump's debuginfo lacks "
		"trace_array.err_log or struct tracing_log_err";
}

/* The length of CMD_PREFIX, "  Command: " (tracing_err_log_show_pos()) */
#define TH_CMD_PREFIX_LEN	11

static void th_err_print(const struct th_err_entry *e, void *arg)
{
	unsigned i;

	fprintf(fp, "[%5llu.%06u] %s%s%s",
		(unsigned long long)(e->ts / TH_NSEC_PER_SEC),
		(unsigned)(e->ts % TH_NSEC_PER_SEC) / 1000, e->loc, e->text,
		e->cmd);
	for (i = 0; i < TH_CMD_PREFIX_LEN + e->pos; i++)
		fputc(' ', fp);
	fputs("^\n", fp);
}

/**
 * th_cat_error_log - tracing_err_log_seq_show() of every entry
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_error_log(struct th_tr *tr, const struct th_tref *ref)
{
	if (!th_err_log_each(tr, th_err_print, NULL))
		th_warn("%s: an entry of the error log cannot be read",
			ref->file);
}

/* -------------------------------------------------------- stack_trace --- */

/**
 * th_missing_stack_trace - stack_trace needs the stack tracer
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_stack_trace(struct th_tr *tr, const struct th_tref *ref,
				   char *buf, size_t len)
{
	if (th_stack_max_exists() &&
	    th_global_exists(TH_G_STACK_TRACER_ENABLED) &&
	    th_global_exists(TH_G_STACK_MAX_SIZE))
		return NULL;
	return "ftrace cat: stack_trace: this kernel has no stack tracer, so "
		"no such file";
}

/**
 * th_cat_stack_trace - t_show() of kernel/trace/trace_stack.c
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_stack_trace(struct th_tr *tr, const struct th_tref *ref)
{
	struct th_stack_max s;
	ulong enabled = 0, max = 0;
	char sym[600];
	unsigned i;
	int size;

	if (!th_stack_max_read(&s) ||
	    !th_global(TH_G_STACK_TRACER_ENABLED, &enabled) ||
	    !th_global(TH_G_STACK_MAX_SIZE, &max)) {
		fprintf(fp, "ftrace cat: stack_trace: the stack tracer's "
			"maximum cannot be read\n");
		return;
	}
	fprintf(fp, "        Depth    Size   Location    (%d entries)\n"
		"        -----    ----   --------\n", s.header_nr);
	if (!enabled && !max)
		fputs("#\n"
		      "#  Stack tracer disabled\n"
		      "#\n"
		      "# To enable the stack tracer, either add 'stacktrace' "
		      "to the\n"
		      "# kernel command line\n"
		      "# or 'echo 1 > /proc/sys/kernel/stack_tracer_enabled'\n"
		      "#\n", fp);
	for (i = 0; i < s.nr; i++) {
		size = i + 1 == s.nr ? s.index[i] :
			s.index[i] - s.index[i + 1];
		fprintf(fp, "%3ld) %8d   %5d   %s\n", (long)i, s.index[i],
			size, th_ksym_pS(s.addr[i], sym, sizeof(sym)));
	}
	th_stack_max_free(&s);
}

/* ------------------------------------------------------------- README --- */

/**
 * th_missing_readme - README is readme_msg
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_readme(struct th_tr *tr, const struct th_tref *ref,
			      char *buf, size_t len)
{
	if (th_ksymbol("readme_msg"))
		return NULL;
	return "ftrace cat: README: the dump's kernel has no readme_msg";
}

/**
 * th_cat_readme - tracing_readme_read(): readme_msg as it is
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_readme(struct th_tr *tr, const struct th_tref *ref)
{
	size_t len;
	char *text = th_readme(&len);

	if (!text) {
		fprintf(fp, "ftrace cat: README: readme_msg cannot be read\n");
		return;
	}
	fwrite(text, 1, len, fp);
	free(text);
}
