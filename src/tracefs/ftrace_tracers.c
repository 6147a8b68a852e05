/*
 * tracehunt: the tracer files: available_tracers, current_tracer,
 * trace_options and options/, and "ftrace tracers".
 *
 * Each file is printed the way the kernel's show/read function prints it
 * (kernel/trace/trace.c); the function named in each comment is the one
 * reproduced.
 */
#include "tracefs/tracefs.h"
#include "model/ftrace_files.h"

/**
 * th_cat_available_tracers - t_show() over get_tracer_for_array(): the
 * separator after a name depends on the raw t->next, as in the kernel.
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_available_tracers(struct th_tr *tr, const struct th_tref *ref)
{
	ulong ts[FF_MAX_TRACERS];
	char name[64];
	int n = ff_tracers(ts, FF_MAX_TRACERS), i;

	if (n < 0) {
		fprintf(fp, "ftrace cat available_tracers: no trace_types in "
			"this dump\n");
		return;
	}
	for (i = 0; i < n; i++) {
		if (!ff_tracer_ok(tr, ts[i]))
			continue;
		fputs(ff_tracer_name(ts[i], name, sizeof(name)), fp);
		fputc(th_tracer_next(ts[i]) ? ' ' : '\n', fp);
	}
}

/**
 * th_cat_current_tracer - tracing_set_trace_read()
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_current_tracer(struct th_tr *tr, const struct th_tref *ref)
{
	char name[64];
	ulong t = th_tr_current_tracer(tr->addr);

	if (!t) {
		fprintf(fp, "ftrace cat current_tracer: cannot read "
			"trace_array.current_trace at %lx\n", tr->addr);
		return;
	}
	fprintf(fp, "%s\n", ff_tracer_name(t, name, sizeof(name)));
}

/* ------------------------------------------------------------- options --- */

/**
 * th_cat_trace_options - tracing_trace_options_show()
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_trace_options(struct th_tr *tr, const struct th_tref *ref)
{
	char names[64][32];
	struct ff_opt o[64];
	uint64_t flags;
	int n, i;

	n = th_core_options(names, 64);
	if (n < 0 || !th_tr_trace_flags(tr->addr, &flags)) {
		fprintf(fp, "ftrace cat trace_options: no trace_options[] or "
			"trace_array.trace_flags in this dump\n");
		return;
	}
	for (i = 0; i < n; i++)
		fprintf(fp, "%s%s\n", flags & (1ULL << i) ? "" : "no",
			names[i]);
	n = th_tracer_opts(th_cur_tracer_flags(tr), o, 64);
	for (i = 0; i < n; i++)
		fprintf(fp, "%s%s\n", o[i].set ? "" : "no", o[i].name);
}

/*
 * Tracer options kept per trace array (7.2): each tracer_flags on the
 * array's list of struct tracers.  Calls FN for each option and returns
 * TRUE when the layout exists (whether or not FN stopped), FALSE to use
 * the global tracer list.
 */
static int ff_tracers_list(struct th_tr *tr,
			   int (*fn)(const char *, int, void *), void *arg)
{
	ulong tflags[FF_MAX_TRACERS];
	struct ff_opt o[64];
	int nt = th_tr_tracers_flags(tr, tflags, FF_MAX_TRACERS), n, i, k;

	if (nt < 0)
		return FALSE;
	for (i = 0; i < nt; i++) {
		n = th_tracer_opts(tflags[i], o, 64);
		for (k = 0; k < n; k++)
			if (fn(o[k].name, o[k].set, arg))
				return TRUE;
	}
	return TRUE;
}

/**
 * th_each_option - the files of options/: core flags
 * (trace_options_core_read), all of them in the global array and all but
 * TOP_LEVEL_TRACE_FLAGS in an instance; then each tracer's options
 * (trace_options_read) for the tracers allowed in the array, a
 * tracer_flags shared by two tracers only once
 * @tr: the trace array
 * @fn: called with each name and value; it returns TRUE to stop
 * @arg: passed to @fn
 */
void th_each_option(struct th_tr *tr,
		    int (*fn)(const char *, int, void *), void *arg)
{
	ulong ts[FF_MAX_TRACERS], done[FF_MAX_TRACERS], tf;
	char names[64][32];
	struct ff_opt o[64];
	uint64_t flags = 0, top = tr->name[0] ? th_top_level_flags() : 0;
	int n, i, j, k, nt, nd = 0;

	n = th_core_options(names, 64);
	if (n > 0 && th_tr_trace_flags(tr->addr, &flags))
		for (i = 0; i < n; i++)
			if (!(top & (1ULL << i)) &&
			    fn(names[i], (flags >> i) & 1, arg))
				return;
	if (ff_tracers_list(tr, fn, arg))
		return;
	nt = ff_tracers(ts, FF_MAX_TRACERS);
	for (j = 0; j < nt; j++) {
		if (!ff_tracer_ok(tr, ts[j]))
			continue;
		tf = th_tracer_flags(ts[j]);
		for (k = 0; k < nd; k++)
			if (done[k] == tf)
				break;
		if (!tf || k < nd)
			continue;
		done[nd++] = tf;
		/* per-instance flags of the current tracer, where kept */
		if (ts[j] == th_tr_current_tracer(tr->addr))
			tf = th_cur_tracer_flags(tr);
		n = th_tracer_opts(tf, o, 64);
		for (i = 0; i < n; i++)
			if (fn(o[i].name, o[i].set, arg))
				return;
	}
}

struct ff_opt_find {
	const char *name;
	int found, val;
};

static int ff_opt_find_fn(const char *name, int val, void *arg)
{
	struct ff_opt_find *f = arg;

	if (strcmp(name, f->name) != 0)
		return FALSE;
	f->found = TRUE;
	f->val = val;
	return TRUE;
}

/**
 * th_missing_option - options/X exists for the array's option names
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_option(struct th_tr *tr, const struct th_tref *ref,
			      char *buf, size_t len)
{
	struct ff_opt_find f = { ref->option, FALSE, 0 };

	th_each_option(tr, ff_opt_find_fn, &f);
	if (f.found)
		return NULL;
	snprintf(buf, len, "ftrace cat options/%s: no such option in %s",
		 ref->option, tr->name[0] ? tr->name : "the global array");
	return buf;
}

/**
 * th_cat_option - trace_options_core_read() / trace_options_read()
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_option(struct th_tr *tr, const struct th_tref *ref)
{
	struct ff_opt_find f = { ref->option, FALSE, 0 };

	th_each_option(tr, ff_opt_find_fn, &f);
	if (f.found)
		fprintf(fp, "%d\n", f.val);
}

/* ------------------------------------------------------ ftrace tracers --- */

/**
 * th_ftrace_tracers_print - "ftrace tracers [-v]": every tracer, whether
 * instances may use it, and the arrays it is current in.
 * @verbose: also the struct, its init function and its owner
 */
void th_ftrace_tracers_print(int verbose)
{
	ulong ts[FF_MAX_TRACERS], init = 0;
	struct th_tr *trs;
	struct th_owner own;
	char name[64], sym[256], ostr[256], users[256];
	int n, i, t, ntr, allow;

	n = ff_tracers(ts, FF_MAX_TRACERS);
	if (n < 0) {
		fprintf(fp, "ftrace tracers: no trace_types in this dump\n");
		return;
	}
	ntr = th_trace_arrays(&trs);
	if (verbose)
		fprintf(fp, "%-16s %-9s %-16s  %-32s %-10s %s\n", "TRACER",
			"INSTANCES", "STRUCT", "INIT", "OWNER", "CURRENT IN");
	else
		fprintf(fp, "%-16s %-9s %s\n", "TRACER", "INSTANCES",
			"CURRENT IN");
	for (i = 0; i < n; i++) {
		users[0] = '\0';
		for (t = 0; t < ntr; t++) {
			if (th_tr_current_tracer(trs[t].addr) != ts[i])
				continue;
			if (strlen(users) + strlen(trs[t].name) + 10 >=
			    sizeof(users))
				break;
			if (users[0])
				strcat(users, ",");
			strcat(users, trs[t].name[0] ? trs[t].name : "global");
		}
		allow = th_tracer_allows_instances(ts[i]);
		ff_tracer_name(ts[i], name, sizeof(name));
		if (!verbose) {
			fprintf(fp, "%-16s %-9s %s\n", name, allow ? "yes" : "no",
				users[0] ? users : "-");
			continue;
		}
		init = th_tracer_init(ts[i]);
		if (init)
			th_ksym_pS(init, sym, sizeof(sym));
		else
			strcpy(sym, "-");
		th_owner_of(init ? init : ts[i], &own);
		th_owner_str(&own, ostr, sizeof(ostr));
		fprintf(fp, "%-16s %-9s %016lx  %-32s %-10s %s\n", name,
			allow ? "yes" : "no", ts[i], sym, ostr,
			users[0] ? users : "-");
	}
}
