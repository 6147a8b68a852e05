/*
 * tracehunt: ftrace state and settings files, tracers, the summary.
 *
 * Each file is printed the way the kernel's show/read function prints it
 * (kernel/trace/trace.c, ftrace.c, trace_events.c); the function named in
 * each comment is the one reproduced.  Generic reads and the per-CPU and
 * hash helpers are in ftrace_files_util.c.
 */
#include "glue/commands.h"
#include "tracefs/tracefs.h"
#include "tracefs/kprobes.h"
#include "model/ftrace_ops.h"
#include "model/ftrace_files.h"

#define TRACE_SYSTEM_FTRACE	"ftrace"
#define TASK_COMM_LEN		16

/* ------------------------------------------------------------ tracers --- */

/* trace_ok_for_array(): the global array takes every tracer, an instance
 * only those with allow_instances. */
static int ff_tracer_ok(struct th_tr *tr, ulong t)
{
	long o = th_member("tracer", "allow_instances");
	unsigned char allow = 0;

	if (!tr->name[0])
		return TRUE;
	if (o < 0 || !th_read(t + o, &allow, 1, "tracer.allow_instances"))
		return FALSE;
	return allow != 0;
}

/* Every tracer on trace_types, in list order, bounded and cycle-safe. */
int ff_tracers(ulong *out, int max)
{
	ulong head = th_symbol("trace_types"), t = 0, seen;
	long o_next = th_member("tracer", "next");
	int n = 0, i;

	if (!head || o_next < 0 || !th_read_ulong(head, &t, "trace_types"))
		return -1;
	while (t && n < max) {
		if (!th_kptr(t))
			return n;
		for (i = 0; i < n; i++)
			if (out[i] == t)
				return n;
		out[n++] = t;
		if (!th_read_ulong(t + o_next, &seen, "tracer.next"))
			return n;
		t = seen;
	}
	return n;
}

static char *ff_tracer_name(ulong t, char *buf, int len)
{
	ulong np = 0;

	if (!th_read_ulong(t + th_member("tracer", "name"), &np,
			   "tracer.name") || !th_read_cstr(np, buf, len,
							   "tracer.name"))
		snprintf(buf, len, "?%lx", t);
	return buf;
}

/* t_show() over get_tracer_for_array(): the separator after a name depends
 * on the raw t->next, as in the kernel. */
static void ff_available_tracers(struct th_tr *tr)
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

static ulong ff_current_tracer(struct th_tr *tr)
{
	ulong t = 0;

	th_read_ulong(tr->addr + th_member("trace_array", "current_trace"), &t,
		      "trace_array.current_trace");
	return t;
}

/* tracing_set_trace_read() */
static void ff_current_tracer_file(struct th_tr *tr)
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

/* ----------------------------------------------------------- tracing_on --- */

/* rb_simple_read() -> tracer_tracing_is_on() */
static void ff_tracing_on(struct th_tr *tr)
{
	int on = ff_is_on(tr);

	if (on < 0) {
		fprintf(fp, "ftrace cat tracing_on: cannot read the ring buffer "
			"of trace array %lx\n", tr->addr);
		return;
	}
	fprintf(fp, "%d\n", on);
}

/* -------------------------------------------------------- buffer sizes --- */

/* tracing_entries_read() */
static void ff_buffer_size(struct th_tr *tr, int cpu)
{
	int cpus[FF_MAX_CPUS], n, i, expanded = ff_expanded(tr);
	ulong size = 0, e;

	if (cpu >= 0) {
		if (!ff_cpu_entries(tr, cpu, &e)) {
			fprintf(fp, "ftrace cat buffer_size_kb: cannot read "
				"the entries of cpu%d\n", cpu);
			return;
		}
		fprintf(fp, "%lu\n", e >> 10);
		return;
	}
	n = ff_tracing_cpus(cpus, FF_MAX_CPUS);
	for (i = 0; i < n; i++) {
		if (!ff_cpu_entries(tr, cpus[i], &e)) {
			fprintf(fp, "ftrace cat buffer_size_kb: cannot read "
				"the entries of cpu%d\n", cpus[i]);
			return;
		}
		if (!size)
			size = e;
		if (size != e) {
			fprintf(fp, "X\n");
			return;
		}
	}
	if (!expanded)
		fprintf(fp, "%lu (expanded: %lu)\n", size >> 10,
			ff_trace_buf_size() >> 10);
	else
		fprintf(fp, "%lu\n", size >> 10);
}

/* tracing_total_entries_read() */
static void ff_buffer_total_size(struct th_tr *tr)
{
	int cpus[FF_MAX_CPUS], n, i, expanded = ff_expanded(tr);
	ulong size = 0, exp = 0, e;

	n = ff_tracing_cpus(cpus, FF_MAX_CPUS);
	for (i = 0; i < n; i++) {
		if (!ff_cpu_entries(tr, cpus[i], &e)) {
			fprintf(fp, "ftrace cat buffer_total_size_kb: cannot "
				"read the entries of cpu%d\n", cpus[i]);
			return;
		}
		size += e >> 10;
		if (!expanded)
			exp += ff_trace_buf_size() >> 10;
	}
	if (expanded)
		fprintf(fp, "%lu\n", size);
	else
		fprintf(fp, "%lu (expanded: %lu)\n", size, exp);
}

/* ---------------------------------------------------------- trace_clock --- */

/* tracing_clock_show() */
static void ff_trace_clock(struct th_tr *tr)
{
	ulong clocks = th_symbol("trace_clocks"), np;
	long stride, n, i;
	int id = -1;
	char name[64];

	n = ff_array_info("trace_clocks", &stride);
	if (!clocks || n <= 0 || stride < (long)(2 * sizeof(ulong))) {
		fprintf(fp, "ftrace cat trace_clock: no trace_clocks[] in "
			"this dump\n");
		return;
	}
	th_read_int(tr->addr + th_member("trace_array", "clock_id"), &id,
		    "trace_array.clock_id");
	for (i = 0; i < n && i < 64; i++) {
		/* { u64 (*func)(void); const char *name; int in_ns; } */
		if (!th_read_ulong(clocks + i * stride + sizeof(ulong), &np,
				   "trace_clocks.name") ||
		    !th_read_cstr(np, name, sizeof(name), "trace_clocks.name"))
			snprintf(name, sizeof(name), "?");
		fprintf(fp, "%s%s%s%s", i ? " " : "", i == id ? "[" : "",
			name, i == id ? "]" : "");
	}
	fputc('\n', fp);
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
static void ff_trace_options(struct th_tr *tr)
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
static void ff_each_option(struct th_tr *tr,
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

static void ff_option_file(struct th_tr *tr, const char *name)
{
	struct ff_opt_find f = { name, FALSE, 0 };

	ff_each_option(tr, ff_opt_find_fn, &f);
	if (!f.found)
		fprintf(fp, "ftrace cat options/%s: no such option in %s\n",
			name, tr->name[0] ? tr->name : "the global array");
	else
		fprintf(fp, "%d\n", f.val);
}

/* ----------------------------------------------------------- set_event --- */

static char *ff_str_member(ulong base, long off, char *buf, int len)
{
	ulong p = 0;

	buf[0] = '\0';
	if (off < 0 || !th_read_ulong(base + off, &p, "string pointer") || !p)
		return NULL;
	th_read_cstr(p, buf, len, "string");
	return buf;
}

/* s_show() for SET_EVENT_MOD: events to enable when a module loads
 * (tr->mod_events, in kernels that have it). */
static void ff_mod_events(struct th_tr *tr)
{
	long o_head = th_member("trace_array", "mod_events");
	long o_list = th_member("event_mod_load", "list");
	char mod[64], match[128], sys[64], ev[128];
	struct th_walk w;
	ulong m;
	long i;

	if (o_head < 0 || o_list < 0)
		return;
	th_list_walk(tr->addr + o_head, 10000, &w);
	for (i = 0; i < w.n; i++) {
		m = w.ent[i] - o_list;
		ff_str_member(m, th_member("event_mod_load", "module"), mod,
			      sizeof(mod));
		if (ff_str_member(m, th_member("event_mod_load", "match"),
				  match, sizeof(match))) {
			fprintf(fp, "%s:mod:%s\n", match, mod);
			continue;
		}
		if (!ff_str_member(m, th_member("event_mod_load", "system"),
				   sys, sizeof(sys)))
			strcpy(sys, "*");
		if (!ff_str_member(m, th_member("event_mod_load", "event"), ev,
				   sizeof(ev)))
			strcpy(ev, "*");
		fprintf(fp, "%s:%s:mod:%s\n", sys, ev, mod);
	}
	th_walk_free(&w);
}

/* s_next()/t_show() of trace_events.c: enabled event files of TR, then
 * the pending module events. */
static void ff_set_event(struct th_tr *tr)
{
	long o_events = th_member("trace_array", "events");
	long o_list = th_member("trace_event_file", "list");
	long o_call = th_member("trace_event_file", "event_call");
	long o_flags = th_member("trace_event_file", "flags");
	ulong enabled = th_enum("EVENT_FILE_FL_ENABLED", 1);
	ulong file, call, fl;
	char sys[64], name[128];
	struct th_walk w;
	long i;

	if (o_events < 0 || o_list < 0 || o_call < 0 || o_flags < 0) {
		fprintf(fp, "ftrace cat set_event: no trace event files in "
			"this dump\n");
		return;
	}
	th_list_walk(tr->addr + o_events, TH_MAX_LIST, &w);
	for (i = 0; i < w.n; i++) {
		file = w.ent[i] - o_list;
		if (!th_read_ulong(file + o_flags, &fl, "trace_event_file.flags")
		    || !(fl & enabled))
			continue;
		if (!th_read_ulong(file + o_call, &call,
				   "trace_event_file.event_call"))
			continue;
		ff_event_names(call, sys, sizeof(sys), name, sizeof(name));
		if (strcmp(sys, TRACE_SYSTEM_FTRACE) != 0)
			fprintf(fp, "%s:", sys);
		fprintf(fp, "%s\n", name);
	}
	if (w.err)
		th_warn("%s events: %s at %lx", tr->name[0] ? tr->name :
			"global", w.err, w.bad);
	th_walk_free(&w);
	ff_mod_events(tr);
}

/* -------------------------------------------------- ftrace filter hashes --- */

/* tr->mod_trace / mod_notrace (t_mod_show): "func:mod:module" */
static void ff_mod_list(struct th_tr *tr, int notrace)
{
	long o = th_member("trace_array", notrace ? "mod_notrace" :
			   "mod_trace");
	long o_list = th_member("ftrace_mod_load", "list");
	long o_func = th_member("ftrace_mod_load", "func");
	long o_mod = th_member("ftrace_mod_load", "module");
	char func[128], mod[64];
	struct th_walk w;
	ulong m, p;
	long i;

	if (o < 0 || o_list < 0 || o_func < 0 || o_mod < 0)
		return;
	th_list_walk(tr->addr + o, 10000, &w);
	for (i = 0; i < w.n; i++) {
		m = w.ent[i] - o_list;
		func[0] = mod[0] = '\0';
		if (th_read_ulong(m + o_func, &p, "ftrace_mod_load.func") && p)
			th_read_cstr(p, func, sizeof(func), "ftrace_mod_load.func");
		if (th_read_ulong(m + o_mod, &p, "ftrace_mod_load.module"))
			th_read_cstr(p, mod, sizeof(mod), "ftrace_mod_load.module");
		fprintf(fp, "%s:mod:%s\n", func[0] ? func : "*", mod);
	}
	th_walk_free(&w);
}

/* The count a probe keeps for IP in its ftrace_func_mapper (a hash of
 * ftrace_func_map: entry, data); FALSE when IP has none. */
static int ff_mapper_count(ulong mapper, ulong ip, long *count)
{
	long o_data = th_member("ftrace_func_map", "data");
	struct ff_hash h;
	long i;
	int found = FALSE;

	if (!mapper || o_data < 0 || !ff_hash_read(mapper, &h))
		return FALSE;
	for (i = 0; i < h.n && !found; i++)
		if (h.ip[i] == ip)
			found = th_read_ulong(h.ent[i] + o_data, (ulong *)count,
					      "ftrace_func_map.data");
	ff_hash_free(&h);
	return found;
}

/* event_enable_print() of trace_events.c: the mapper's data for IP is a
 * struct event_probe_data. */
static int ff_event_probe(ulong mapper, ulong ip, const char *sym)
{
	long o_file = th_member("event_probe_data", "file");
	long o_count = th_member("event_probe_data", "count");
	long o_enable = th_member("event_probe_data", "enable");
	long o_call = th_member("trace_event_file", "event_call");
	char sys[64], name[128];
	ulong edata, file, call;
	unsigned char enable = 0;
	long count = 0;

	if (o_file < 0 || o_count < 0 || o_enable < 0 ||
	    !ff_mapper_count(mapper, ip, (long *)&edata) ||
	    !th_read_ulong(edata + o_file, &file, "event_probe_data.file") ||
	    !th_read_ulong(edata + o_count, (ulong *)&count,
			   "event_probe_data.count") ||
	    !th_read(edata + o_enable, &enable, 1, "event_probe_data.enable") ||
	    !th_read_ulong(file + o_call, &call, "trace_event_file.event_call"))
		return FALSE;
	ff_event_names(call, sys, sizeof(sys), name, sizeof(name));
	fprintf(fp, "%s:%s:%s:%s", sym, enable ? "enable_event" :
		"disable_event", sys, name);
	if (count == -1)
		fprintf(fp, ":unlimited\n");
	else
		fprintf(fp, ":count=%ld\n", count);
	return TRUE;
}

/* ftrace_probe_print() users of trace_functions.c and their names */
static const char *const ff_probe_printers[][2] = {
	{ "ftrace_traceon_print", "traceon" },
	{ "ftrace_traceoff_print", "traceoff" },
	{ "ftrace_stacktrace_print", "stacktrace" },
	{ "ftrace_dump_print", "dump" },
	{ "ftrace_cpudump_print", "cpudump" },
	{ "ftrace_snapshot_print", "snapshot" },
	{ NULL, NULL },
};

/*
 * Function probes ("func:command" in set_ftrace_filter): t_probe_next()/
 * t_probe_show() over tr->func_probes, each probe's filter hash in bucket
 * order.  A probe without a print callback prints "%ps:%ps"; the
 * ftrace_probe_print() and snapshot ones "%ps:name" and ":count=N" or
 * ":unlimited"; event_enable_print() "%ps:enable_event:sys:event:...".
 * Other printers get a one-line note.
 */
static void ff_func_probes(struct th_tr *tr)
{
	long o_head = th_member("trace_array", "func_probes");
	long o_list = th_member("ftrace_func_probe", "list");
	long o_pops = th_member("ftrace_func_probe", "probe_ops");
	long o_ops = th_member("ftrace_func_probe", "ops");
	long o_data = th_member("ftrace_func_probe", "data");
	long o_func = th_member("ftrace_probe_ops", "func");
	long o_print = th_member("ftrace_probe_ops", "print");
	char a[256], b[256];
	struct th_sym ps;
	struct th_walk w;
	struct ff_hash h;
	ulong probe, pops, func, print, data;
	long i, j, k, count;

	if (o_head < 0 || o_list < 0 || o_pops < 0 || o_ops < 0 ||
	    o_func < 0 || o_print < 0)
		return;
	th_list_walk(tr->addr + o_head, 10000, &w);
	for (i = 0; i < w.n; i++) {
		probe = w.ent[i] - o_list;
		if (!th_read_ulong(probe + o_pops, &pops,
				   "ftrace_func_probe.probe_ops") ||
		    !th_read_ulong(pops + o_func, &func, "probe_ops.func") ||
		    !th_read_ulong(pops + o_print, &print, "probe_ops.print") ||
		    !ff_hash_read(ff_ops_hash(probe + o_ops, FALSE), &h))
			continue;
		data = 0;
		if (o_data >= 0)
			th_read_ulong(probe + o_data, &data,
				      "ftrace_func_probe.data");
		k = -1;
		ps.name[0] = '\0';
		if (print && th_ksym_lookup(print, &ps) && !ps.offset)
			for (k = 0; ff_probe_printers[k][0]; k++)
				if (!strcmp(ps.name, ff_probe_printers[k][0]))
					break;
		for (j = 0; j < h.n; j++) {
			th_ksym_ps(h.ip[j], a, sizeof(a));
			if (!print)
				fprintf(fp, "%s:%s\n", a,
					th_ksym_ps(func, b, sizeof(b)));
			else if (k >= 0 && ff_probe_printers[k][0]) {
				fprintf(fp, "%s:%s", a, ff_probe_printers[k][1]);
				if (ff_mapper_count(data, h.ip[j], &count))
					fprintf(fp, ":count=%ld\n", count);
				else
					fprintf(fp, ":unlimited\n");
			} else if (!strcmp(ps.name, "event_enable_print") &&
				   ff_event_probe(data, h.ip[j], a))
				;
			else
				fprintf(fp, "%s: function probe printed by %s "
					"(not reconstructed)\n", a,
					th_ksym_ps(print, b, sizeof(b)));
		}
		ff_hash_free(&h);
	}
	th_walk_free(&w);
}

/*
 * set_ftrace_filter / set_ftrace_notrace: t_start()/t_func_next()/t_show()
 * of ftrace.c.  With an empty hash one line says so; else the dyn_ftrace
 * records in ftrace_pages order whose ip is in the hash; then the pending
 * ":mod:" entries.
 */
static void ff_ftrace_filter(struct th_tr *tr, int notrace)
{
	long o_ops = th_member("trace_array", "ops");
	ulong ops = 0, hash;
	struct ff_hash h;
	char sym[256];
	ulong *ips;
	long n, i;

	if (o_ops < 0 || !th_read_ulong(tr->addr + o_ops, &ops,
					"trace_array.ops") || !ops) {
		fprintf(fp, "ftrace cat %s: no ftrace_ops for %s (no dynamic "
			"ftrace or no function tracer)\n", notrace ?
			"set_ftrace_notrace" : "set_ftrace_filter",
			tr->name[0] ? tr->name : "the global array");
		return;
	}
	hash = ff_ops_hash(ops, notrace);
	if (!ff_hash_read(hash, &h)) {
		fprintf(fp, "ftrace cat %s: cannot read the hash at %lx\n",
			notrace ? "set_ftrace_notrace" : "set_ftrace_filter",
			hash);
		return;
	}
	if (ff_hash_empty(&h)) {
		fprintf(fp, "%s\n", notrace ? "#### no functions disabled ####" :
			"#### all functions enabled ####");
	} else {
		n = ff_records_in_hash(&h, &ips);
		for (i = 0; i < n; i++)
			fprintf(fp, "%s\n", ff_print_rec(ips[i], sym,
							 sizeof(sym)));
		if (ips)
			FREEBUF(ips);
		if (n < 0)
			fprintf(fp, "ftrace cat: cannot walk ftrace_pages\n");
	}
	ff_hash_free(&h);
	ff_mod_list(tr, notrace);
	if (!notrace)	/* FTRACE_ITER_DO_PROBES: the filter file only */
		ff_func_probes(tr);
}

/* set_graph_function / set_graph_notrace: g_start()/__g_next()/g_show():
 * the hash buckets in bucket order. */
static void ff_graph_filter(int notrace)
{
	const char *sname = notrace ? "ftrace_graph_notrace_hash" :
		"ftrace_graph_hash";
	ulong sym = th_symbol(sname), hash = 0;
	struct ff_hash h;
	char buf[256];
	long i;

	if (!sym) {
		fprintf(fp, "ftrace cat %s: not in this kernel (no %s: built "
			"without the function graph tracer)\n", notrace ?
			"set_graph_notrace" : "set_graph_function", sname);
		return;
	}
	if (!th_read_ulong(sym, &hash, sname) || !ff_hash_read(hash, &h)) {
		fprintf(fp, "ftrace cat %s: cannot read %s\n", notrace ?
			"set_graph_notrace" : "set_graph_function", sname);
		return;
	}
	if (ff_hash_empty(&h))
		fprintf(fp, "%s\n", notrace ? "#### no functions disabled ####" :
			"#### all functions enabled ####");
	else
		for (i = 0; i < h.n && i < (long)h.count; i++)
			fprintf(fp, "%s\n", th_ksym_ps(h.ip[i], buf, sizeof(buf)));
	ff_hash_free(&h);
}

/* ------------------------------------------------------ saved_cmdlines --- */

struct ff_cmdlines {
	ulong s;		/* struct saved_cmdlines_buffer */
	unsigned int num;
	ulong to_pid;		/* unsigned map_cmdline_to_pid[num] */
	ulong comms;		/* char saved_cmdlines[num][TASK_COMM_LEN] */
	ulong pid_map;		/* unsigned map_pid_to_cmdline[] */
	long pid_max;		/* its entries, PID_MAX_DEFAULT + 1 */
};

static int ff_cmdlines_read(struct ff_cmdlines *c, const char *file)
{
	ulong sym = th_symbol("savedcmd");
	long o_to = th_member("saved_cmdlines_buffer", "map_cmdline_to_pid");
	long o_num = th_member("saved_cmdlines_buffer", "cmdline_num");
	long o_cmd = th_member("saved_cmdlines_buffer", "saved_cmdlines");
	long o_map = th_member("saved_cmdlines_buffer", "map_pid_to_cmdline");

	memset(c, 0, sizeof(*c));
	if (!sym || o_to < 0 || o_num < 0 || o_cmd < 0 || o_map < 0) {
		fprintf(fp, "ftrace cat %s: no savedcmd in this dump\n", file);
		return FALSE;
	}
	if (!th_read_ulong(sym, &c->s, "savedcmd") || !c->s ||
	    !th_read_uint(c->s + o_num, &c->num, "cmdline_num") ||
	    !th_read_ulong(c->s + o_to, &c->to_pid, "map_cmdline_to_pid")) {
		fprintf(fp, "ftrace cat %s: cannot read savedcmd\n", file);
		return FALSE;
	}
	/* saved_cmdlines was a pointer to its own allocation; it is a
	 * flexible array at the end of the structure since v6.8 (and in
	 * the 6.1.y stable kernels of the fixtures). */
	if (MEMBER_TYPE("saved_cmdlines_buffer", "saved_cmdlines") ==
	    TYPE_CODE_ARRAY)
		c->comms = c->s + o_cmd;
	else if (!th_read_ulong(c->s + o_cmd, &c->comms, "saved_cmdlines")) {
		fprintf(fp, "ftrace cat %s: cannot read savedcmd\n", file);
		return FALSE;
	}
	c->pid_map = c->s + o_map;
	c->pid_max = MEMBER_SIZE("saved_cmdlines_buffer",
				 "map_pid_to_cmdline") / 4;
	return TRUE;
}

/* __trace_find_cmdline() */
static void ff_find_cmdline(struct ff_cmdlines *c, int pid, char *comm)
{
	unsigned int map = UINT_MAX, tpid = 0;

	if (!pid) {
		strcpy(comm, "<idle>");
		return;
	}
	if (pid < 0 || c->pid_max <= 1) {
		strcpy(comm, "<XXX>");
		return;
	}
	/* PID_MAX_DEFAULT is a power of two: the array has it + 1 entries */
	if (th_read_uint(c->pid_map + ((pid & (c->pid_max - 2)) * 4), &map,
			 "map_pid_to_cmdline") && map != UINT_MAX &&
	    map < c->num &&
	    th_read_uint(c->to_pid + map * 4, &tpid, "map_cmdline_to_pid") &&
	    (int)tpid == pid) {
		if (!th_read(c->comms + map * TASK_COMM_LEN, comm,
			     TASK_COMM_LEN, "saved_cmdlines"))
			strcpy(comm, "<...>");
		comm[TASK_COMM_LEN - 1] = '\0';
		return;
	}
	strcpy(comm, "<...>");
}

/* saved_cmdlines_start()/_next()/_show() */
static void ff_saved_cmdlines(void)
{
	struct ff_cmdlines c;
	unsigned int *pids;
	char comm[TASK_COMM_LEN];
	unsigned int i;

	if (!ff_cmdlines_read(&c, "saved_cmdlines"))
		return;
	if (c.num > 1000000) {
		fprintf(fp, "ftrace cat saved_cmdlines: implausible "
			"cmdline_num %u\n", c.num);
		return;
	}
	pids = (unsigned int *)GETBUF(c.num * 4 + 4);
	if (!th_read(c.to_pid, pids, c.num * 4, "map_cmdline_to_pid")) {
		fprintf(fp, "ftrace cat saved_cmdlines: cannot read "
			"map_cmdline_to_pid at %lx\n", c.to_pid);
		FREEBUF(pids);
		return;
	}
	for (i = 0; i < c.num; i++) {
		if (pids[i] == UINT_MAX)
			continue;
		ff_find_cmdline(&c, (int)pids[i], comm);
		fprintf(fp, "%d %s\n", (int)pids[i], comm);
	}
	FREEBUF(pids);
}

/* tracing_saved_cmdlines_size_read() */
static void ff_saved_cmdlines_size(void)
{
	struct ff_cmdlines c;

	if (ff_cmdlines_read(&c, "saved_cmdlines_size"))
		fprintf(fp, "%u\n", c.num);
}

/* ------------------------------------------------------------- dispatch --- */

/* Files of the global array only. */
static const char *const ff_global_only[] = {
	"set_graph_function", "set_graph_notrace", "saved_cmdlines",
	"saved_cmdlines_size", NULL,
};

static int ff_is_global_only(const char *file)
{
	int i;

	for (i = 0; ff_global_only[i]; i++)
		if (strcmp(file, ff_global_only[i]) == 0)
			return TRUE;
	return FALSE;
}

/* "per_cpu/cpuN/buffer_size_kb" -> N, else -1 */
static int ff_percpu_file(const char *file, const char *leaf)
{
	char *end;
	long cpu;

	if (strncmp(file, "per_cpu/cpu", 11) != 0)
		return -1;
	cpu = strtol(file + 11, &end, 10);
	if (end == file + 11 || *end != '/' || strcmp(end + 1, leaf) != 0)
		return -1;
	return cpu >= 0 && cpu < NR_CPUS ? (int)cpu : -1;
}

int th_cat_files(struct th_tr *tr, const char *file)
{
	int cpu;

	if (ff_is_global_only(file) && tr->name[0]) {
		fprintf(fp, "ftrace cat: instances/%s/%s: the kernel has this "
			"file only in the top-level directory\n", tr->name,
			file);
		return TRUE;
	}
	if (strcmp(file, "available_tracers") == 0)
		ff_available_tracers(tr);
	else if (strcmp(file, "current_tracer") == 0)
		ff_current_tracer_file(tr);
	else if (strcmp(file, "tracing_on") == 0)
		ff_tracing_on(tr);
	else if (strcmp(file, "buffer_size_kb") == 0)
		ff_buffer_size(tr, -1);
	else if (strcmp(file, "buffer_total_size_kb") == 0)
		ff_buffer_total_size(tr);
	else if ((cpu = ff_percpu_file(file, "buffer_size_kb")) >= 0) {
		if (!ff_tracing_cpu(cpu))
			fprintf(fp, "ftrace cat: %s: cpu%d has no trace buffer "
				"(not in tracing_buffer_mask)\n", file, cpu);
		else
			ff_buffer_size(tr, cpu);
	} else if (strcmp(file, "set_ftrace_filter") == 0)
		ff_ftrace_filter(tr, FALSE);
	else if (strcmp(file, "set_ftrace_notrace") == 0)
		ff_ftrace_filter(tr, TRUE);
	else if (strcmp(file, "set_graph_function") == 0)
		ff_graph_filter(FALSE);
	else if (strcmp(file, "set_graph_notrace") == 0)
		ff_graph_filter(TRUE);
	else if (strcmp(file, "set_event") == 0)
		ff_set_event(tr);
	else if (strcmp(file, "trace_clock") == 0)
		ff_trace_clock(tr);
	else if (strcmp(file, "trace_options") == 0)
		ff_trace_options(tr);
	else if (strncmp(file, "options/", 8) == 0)
		ff_option_file(tr, file + 8);
	else if (strcmp(file, "saved_cmdlines") == 0)
		ff_saved_cmdlines();
	else if (strcmp(file, "saved_cmdlines_size") == 0)
		ff_saved_cmdlines_size();
	else
		return FALSE;
	return TRUE;
}

struct ff_ls {
	th_ls_add_fn add;
	void *arg;
};

static int ff_ls_opt(const char *name, int val, void *arg)
{
	struct ff_ls *l = arg;
	char buf[64];

	snprintf(buf, sizeof(buf), "options/%s", name);
	l->add(buf, l->arg);
	return FALSE;
}

void th_ls_files(struct th_tr *tr, th_ls_add_fn add, void *arg)
{
	static const char *const common[] = {
		"available_tracers", "current_tracer", "tracing_on",
		"buffer_size_kb", "buffer_total_size_kb", NULL,
	};
	struct ff_ls l = { add, arg };
	int cpus[FF_MAX_CPUS], n, i;
	ulong ops = 0;
	char buf[64];

	for (i = 0; common[i]; i++)
		add(common[i], arg);
	if (th_read_ulong(tr->addr + th_member("trace_array", "ops"), &ops,
			  "trace_array.ops") && ops) {
		add("set_ftrace_filter", arg);
		add("set_ftrace_notrace", arg);
	}
	if (!tr->name[0] && th_symbol("ftrace_graph_hash"))
		add("set_graph_function", arg);
	if (!tr->name[0] && th_symbol("ftrace_graph_notrace_hash"))
		add("set_graph_notrace", arg);
	add("set_event", arg);
	add("trace_clock", arg);
	add("trace_options", arg);
	if (!tr->name[0] && th_symbol("savedcmd")) {
		add("saved_cmdlines", arg);
		add("saved_cmdlines_size", arg);
	}
	ff_each_option(tr, ff_ls_opt, &l);
	n = ff_tracing_cpus(cpus, FF_MAX_CPUS);
	for (i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "per_cpu/cpu%d/buffer_size_kb",
			 cpus[i]);
		add(buf, arg);
	}
}

/* ------------------------------------------------------ ftrace tracers --- */

void th_ftrace_tracers(int argc, char **argv)
{
	ulong ts[FF_MAX_TRACERS], init = 0;
	struct th_tr *trs;
	struct th_owner own;
	char name[64], sym[256], ostr[256], users[256];
	unsigned char allow = 0;
	int c, verbose = FALSE, n, i, t, ntr;
	long o_allow = th_member("tracer", "allow_instances");

	while ((c = getopt(argc, argv, "v")) != EOF) {
		switch (c) {
		case 'v':
			verbose = TRUE;
			break;
		default:
			argerrs++;
			break;
		}
	}
	if (argerrs)
		cmd_usage(pc->curcmd, SYNOPSIS);
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

/* ------------------------------------------------------- ftrace summary --- */

/* Counts of ops, call sites and kprobes, with the commands behind them. */
static void ff_summary_counts(void)
{
	struct thf_state *st = thf_load();
	struct kp_probe *kp = NULL;
	long i, n, enabled = 0, hidden = 0;

	if (st) {
		for (i = 0; i < st->nrec; i++)
			if (st->fl.enabled && (st->rec[i].flags & st->fl.enabled))
				enabled++;
		fprintf(fp, "\nftrace ops:              %d  (\"ftrace ops\")\n",
			st->nops);
		fprintf(fp, "call sites:              %ld records, %ld enabled  "
			"(\"ftrace sites\", \"ftrace cat enabled_functions\")\n",
			st->nrec, enabled);
		thf_warn_damage(st);
	} else {
		fprintf(fp, "\nftrace ops, call sites:  none readable (\"ftrace "
			"ops\" says why)\n");
	}
	if (th_kprobes_init()) {
		n = th_kprobes_collect(&kp);
		for (i = 0; i < n; i++) {
			struct th_owner o;
			ulong h = kp[i].pre;

			th_owner_of(kp[i].kp, &o);
			if (o.kind != TH_OWN_HIDDEN)
				th_owner_of(h, &o);
			if (o.kind == TH_OWN_HIDDEN)
				hidden++;
		}
		free(kp);
		fprintf(fp, "kprobes:                 %ld, %ld HIDDEN  "
			"(\"kprobes -v\", \"ftrace cat kprobe_events\")\n",
			n, hidden);
	} else {
		fprintf(fp, "kprobes:                 none (%s)\n",
			th_kprobes_missing());
	}
}

void th_ftrace_summary(int argc, char **argv)
{
	struct th_tr *trs;
	char name[64];
	int cpus[FF_MAX_CPUS], ncpu, ntr, t, i, on, expanded;
	ulong e;

	ntr = th_trace_arrays(&trs);
	ncpu = ff_tracing_cpus(cpus, FF_MAX_CPUS);
	if (!ntr) {
		fprintf(fp, "ftrace: no global_trace in this dump\n");
		return;
	}
	fprintf(fp, "%-16s %-8s %-16s %s\n", "INSTANCE", "TRACING",
		"TRACER", "BUFFER_SIZE_KB PER CPU");
	for (t = 0; t < ntr; t++) {
		ulong cur = ff_current_tracer(&trs[t]);

		on = ff_is_on(&trs[t]);
		expanded = ff_expanded(&trs[t]);
		fprintf(fp, "%-16s %-8s %-16s", trs[t].name[0] ? trs[t].name :
			"(global)", on < 0 ? "?" : on ? "on" : "off",
			cur ? ff_tracer_name(cur, name, sizeof(name)) : "?");
		for (i = 0; i < ncpu; i++) {
			if (ff_cpu_entries(&trs[t], cpus[i], &e))
				fprintf(fp, " cpu%d:%lu", cpus[i], e >> 10);
			else
				fprintf(fp, " cpu%d:?", cpus[i]);
		}
		if (!expanded)
			fprintf(fp, " (not expanded)");
		fputc('\n', fp);
	}
	ff_summary_counts();
	fprintf(fp, "ring buffers:            see \"ftrace trace\"\n");
	fprintf(fp, "next: \"ftrace ls\" lists the files \"ftrace cat FILE\" "
		"reconstructs; \"hooks\" lists every diversion\n");
}
