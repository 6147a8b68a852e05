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

/* t_show() over get_tracer_for_array(): the separator after a name depends
 * on the raw t->next, as in the kernel. */
void th_cat_available_tracers(struct th_tr *tr, const struct th_tref *ref)
{
	ulong ts[FF_MAX_TRACERS], next;
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
		th_read_ulong(ts[i] + th_member("tracer", "next"), &next,
			      "tracer.next");
		fputc(next ? ' ' : '\n', fp);
	}
}

/* tracing_set_trace_read() */
void th_cat_current_tracer(struct th_tr *tr, const struct th_tref *ref)
{
	char name[64];
	ulong t = ff_current_tracer(tr);

	if (!t) {
		fprintf(fp, "ftrace cat current_tracer: cannot read "
			"trace_array.current_trace at %lx\n", tr->addr);
		return;
	}
	fprintf(fp, "%s\n", ff_tracer_name(t, name, sizeof(name)));
}

/* ------------------------------------------------------------- options --- */

/* The core flag names: trace_options[], NULL-terminated. */
static int ff_core_options(char names[][32], int max)
{
	ulong arr = th_symbol("trace_options"), p;
	int n;

	if (!arr)
		return -1;
	for (n = 0; n < max; n++) {
		if (!th_read_ulong(arr + n * sizeof(ulong), &p,
				   "trace_options[]")) {
			th_warn("trace_options[%d]: unreadable at %lx; the "
				"core options from it on are not shown", n,
				arr + n * sizeof(ulong));
			break;
		}
		if (!p)
			break;
		if (!th_read_cstr(p, names[n], 32, "trace_options[]"))
			snprintf(names[n], 32, "?");
	}
	return n;
}

static int ff_trace_flags(struct th_tr *tr, uint64_t *flags)
{
	long o = th_member("trace_array", "trace_flags");
	long sz = MEMBER_SIZE("trace_array", "trace_flags");
	unsigned int v32;

	*flags = 0;
	if (o < 0)
		return FALSE;
	if (sz == 8)
		return th_read_u64(tr->addr + o, flags, "trace_array.trace_flags");
	if (!th_read_uint(tr->addr + o, &v32, "trace_array.trace_flags"))
		return FALSE;
	*flags = v32;
	return TRUE;
}

/* Bit of TRACE_ITER_<name> by its _BIT enumerator (6.1 and later), else by
 * the older mask enumerator; 0 when the kernel has neither. */
static uint64_t ff_iter_bit(const char *name)
{
	char e[64];
	long v;

	snprintf(e, sizeof(e), "TRACE_ITER_%s_BIT", name);
	if (th_enum_exists(e))
		return 1ULL << th_enum(e, 0);
	snprintf(e, sizeof(e), "TRACE_ITER_%s", name);
	v = th_enum(e, 0);
	return v > 0 ? (uint64_t)v : 0;
}

/* TOP_LEVEL_TRACE_FLAGS: core options only the global array has. */
static uint64_t ff_top_level_flags(void)
{
	return ff_iter_bit("PRINTK") | ff_iter_bit("PRINTK_MSGONLY") |
	       ff_iter_bit("RECORD_CMD") | ff_iter_bit("PROF_TEXT_OFFSET");
}

/* The tracer_flags of TR's current tracer: per instance where the kernel
 * keeps them per instance (trace_array.current_trace_flags), else the
 * tracer's own. */
static ulong ff_cur_tracer_flags(struct th_tr *tr)
{
	long o = th_member("trace_array", "current_trace_flags");
	ulong f = 0, t;

	if (o >= 0 && th_read_ulong(tr->addr + o, &f,
				    "trace_array.current_trace_flags") && f)
		return f;
	t = ff_current_tracer(tr);
	if (!t)
		return 0;
	th_read_ulong(t + th_member("tracer", "flags"), &f, "tracer.flags");
	return f;
}

/* A tracer_flags' opts[] (a NULL name ends it) with their values. */
static int ff_tracer_opts(ulong tflags, struct ff_opt *o, int max)
{
	long o_val = th_member("tracer_flags", "val");
	long o_opts = th_member("tracer_flags", "opts");
	long o_name = th_member("tracer_opt", "name");
	long o_bit = th_member("tracer_opt", "bit");
	long sz = th_size("tracer_opt");
	unsigned int val = 0, bit;
	ulong opts = 0, np;
	int n;

	if (!tflags || o_val < 0 || o_opts < 0 || o_name < 0 || o_bit < 0 ||
	    sz <= 0)
		return 0;
	if (!th_read_uint(tflags + o_val, &val, "tracer_flags.val") ||
	    !th_read_ulong(tflags + o_opts, &opts, "tracer_flags.opts") ||
	    !opts)
		return 0;
	for (n = 0; n < max; n++) {
		if (!th_read_ulong(opts + n * sz + o_name, &np,
				   "tracer_opt.name") || !np)
			break;
		if (!th_read_uint(opts + n * sz + o_bit, &bit, "tracer_opt.bit"))
			break;
		th_read_cstr(np, o[n].name, sizeof(o[n].name), "tracer_opt.name");
		o[n].set = (val & bit) != 0;
	}
	return n;
}

/* tracing_trace_options_show() */
void th_cat_trace_options(struct th_tr *tr, const struct th_tref *ref)
{
	char names[64][32];
	struct ff_opt o[64];
	uint64_t flags;
	int n, i;

	n = ff_core_options(names, 64);
	if (n < 0 || !ff_trace_flags(tr, &flags)) {
		fprintf(fp, "ftrace cat trace_options: no trace_options[] or "
			"trace_array.trace_flags in this dump\n");
		return;
	}
	for (i = 0; i < n; i++)
		fprintf(fp, "%s%s\n", flags & (1ULL << i) ? "" : "no",
			names[i]);
	n = ff_tracer_opts(ff_cur_tracer_flags(tr), o, 64);
	for (i = 0; i < n; i++)
		fprintf(fp, "%s%s\n", o[i].set ? "" : "no", o[i].name);
}

/*
 * Tracer options kept per trace array: a list of struct tracers (tracer,
 * its flags for this array) at trace_array.tracers, where a tracer's own
 * tracer_flags may be NULL (7.2; struct tracers appeared with the
 * per-instance tracer options).  Calls FN for each option and returns
 * TRUE when the layout exists (whether or not FN stopped), FALSE to use
 * the global tracer list.  *STOP tells whether FN asked to stop.
 */
static int ff_tracers_list(struct th_tr *tr,
			   int (*fn)(const char *, int, void *), void *arg,
			   int *stop)
{
	long o_head = th_member("trace_array", "tracers");
	long o_list = th_member("tracers", "list");
	long o_fl = th_member("tracers", "flags");
	long o_t = th_member("tracers", "tracer");
	struct ff_opt o[64];
	struct th_walk w;
	ulong tf;
	long i;
	int n, k;

	*stop = FALSE;
	if (o_head < 0 || o_list < 0 || o_fl < 0 || th_size("tracers") <= 0)
		return FALSE;
	th_list_walk(tr->addr + o_head, FF_MAX_TRACERS, &w);
	for (i = 0; i < w.n && !*stop; i++) {
		ulong e = w.ent[i] - o_list;

		ulong t = 0;

		tf = 0;
		if (!th_read_ulong(e + o_fl, &tf, "tracers.flags"))
			continue;
		/* no per-array copy: the tracer's own flags */
		if (!tf && o_t >= 0 &&
		    th_read_ulong(e + o_t, &t, "tracers.tracer") && t)
			th_read_ulong(t + th_member("tracer", "flags"), &tf,
				      "tracer.flags");
		if (!tf)
			continue;
		n = ff_tracer_opts(tf, o, 64);
		for (k = 0; k < n; k++)
			if (fn(o[k].name, o[k].set, arg)) {
				*stop = TRUE;
				break;
			}
	}
	th_walk_free(&w);
	return TRUE;
}

/*
 * The files of options/: core flags (trace_options_core_read), all of them
 * in the global array and all but TOP_LEVEL_TRACE_FLAGS in an instance;
 * then each tracer's options (trace_options_read) for the tracers allowed
 * in the array, a tracer_flags shared by two tracers only once.  FN is
 * called with each name and value; it returns TRUE to stop.
 */
void th_each_option(struct th_tr *tr,
		    int (*fn)(const char *, int, void *), void *arg)
{
	ulong ts[FF_MAX_TRACERS], done[FF_MAX_TRACERS], tf;
	char names[64][32];
	struct ff_opt o[64];
	uint64_t flags = 0, top = tr->name[0] ? ff_top_level_flags() : 0;
	int n, i, j, k, nt, nd = 0, stop;

	n = ff_core_options(names, 64);
	if (n > 0 && ff_trace_flags(tr, &flags))
		for (i = 0; i < n; i++)
			if (!(top & (1ULL << i)) &&
			    fn(names[i], (flags >> i) & 1, arg))
				return;
	if (ff_tracers_list(tr, fn, arg, &stop))
		return;
	nt = ff_tracers(ts, FF_MAX_TRACERS);
	for (j = 0; j < nt; j++) {
		if (!ff_tracer_ok(tr, ts[j]))
			continue;
		tf = 0;
		th_read_ulong(ts[j] + th_member("tracer", "flags"), &tf,
			      "tracer.flags");
		for (k = 0; k < nd; k++)
			if (done[k] == tf)
				break;
		if (!tf || k < nd)
			continue;
		done[nd++] = tf;
		/* per-instance flags of the current tracer, where kept */
		if (ts[j] == ff_current_tracer(tr))
			tf = ff_cur_tracer_flags(tr);
		n = ff_tracer_opts(tf, o, 64);
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

/* trace_options_core_read() / trace_options_read() */
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
	unsigned char allow = 0;
	int n, i, t, ntr;
	long o_allow = th_member("tracer", "allow_instances");

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
			if (ff_current_tracer(&trs[t]) != ts[i])
				continue;
			if (strlen(users) + strlen(trs[t].name) + 10 >=
			    sizeof(users))
				break;
			if (users[0])
				strcat(users, ",");
			strcat(users, trs[t].name[0] ? trs[t].name : "global");
		}
		allow = 0;
		if (o_allow >= 0)
			th_read(ts[i] + o_allow, &allow, 1,
				"tracer.allow_instances");
		ff_tracer_name(ts[i], name, sizeof(name));
		if (!verbose) {
			fprintf(fp, "%-16s %-9s %s\n", name, allow ? "yes" : "no",
				users[0] ? users : "-");
			continue;
		}
		init = 0;
		th_read_ulong(ts[i] + th_member("tracer", "init"), &init,
			      "tracer.init");
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
