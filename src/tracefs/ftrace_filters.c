/*
 * tracehunt: the function filter files: set_ftrace_filter (with its
 * ":mod:" entries and function probes), set_ftrace_notrace,
 * set_graph_function, set_graph_notrace.
 *
 * Each file is printed the way the kernel's seq_file functions print it
 * (kernel/trace/ftrace.c); the function named in each comment is the one
 * reproduced.
 */
#include "tracefs/tracefs.h"
#include "model/trace_entries.h"
#include "model/ftrace_files.h"
#include "model/events.h"
#include "render/ftrace_text.h"

/* -------------------------------------------------- ftrace filter hashes --- */

/* t_mod_show(): "func:mod:module" */
static void ff_mod_func(const struct th_mod_func *mf, void *arg)
{
	fprintf(fp, "%s:mod:%s\n", mf->func[0] ? mf->func : "*", mf->module);
}

/* event_enable_print() of trace_events.c: the mapper's data for IP is a
 * struct event_probe_data. */
static int ff_event_probe(ulong mapper, ulong ip, const char *sym)
{
	struct th_event_probe ep;
	char sys[64], name[128];
	ulong edata, call;

	if (!th_mapper_value(mapper, ip, &edata) ||
	    !th_event_probe_read(edata, &ep) ||
	    !(call = th_event_file_call(ep.file)))
		return FALSE;
	th_event_call_system(call, sys, sizeof(sys));
	th_event_call_name(call, name, sizeof(name));
	fprintf(fp, "%s:%s:%s:%s", sym, ep.enable ? "enable_event" :
		"disable_event", sys, name);
	if (ep.count == -1)
		fprintf(fp, ":unlimited\n");
	else
		fprintf(fp, ":count=%ld\n", ep.count);
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
static void ff_func_probe(const struct th_func_probe *probe, void *arg)
{
	char a[256], b[256];
	struct th_sym ps;
	struct thf_hash h;
	ulong count, ip;
	long j, k;

	if (!th_ftrace_hash_read(thf_ops_hash(probe->ops, FALSE), &h))
		return;
	k = -1;
	ps.name[0] = '\0';
	if (probe->print && th_ksym_lookup(probe->print, &ps) && !ps.offset)
		for (k = 0; ff_probe_printers[k][0]; k++)
			if (!strcmp(ps.name, ff_probe_printers[k][0]))
				break;
	for (j = 0; j < h.n; j++) {
		ip = h.e[j].ip;
		th_ksym_ps(ip, a, sizeof(a));
		if (!probe->print)
			fprintf(fp, "%s:%s\n", a,
				th_ksym_ps(probe->func, b, sizeof(b)));
		else if (k >= 0 && ff_probe_printers[k][0]) {
			fprintf(fp, "%s:%s", a, ff_probe_printers[k][1]);
			if (th_mapper_value(probe->data, ip, &count))
				fprintf(fp, ":count=%ld\n", (long)count);
			else
				fprintf(fp, ":unlimited\n");
		} else if (!strcmp(ps.name, "event_enable_print") &&
			   ff_event_probe(probe->data, ip, a))
			;
		else
			fprintf(fp, "%s: function probe printed by %s "
				"(not reconstructed)\n", a,
				th_ksym_ps(probe->print, b, sizeof(b)));
	}
	thf_hash_free(&h);
}

/**
 * th_missing_tr_ops - the array's ftrace_ops: without one (no dynamic ftrace,
 * or no function tracer) neither filter file exists.
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_tr_ops(struct th_tr *tr, const struct th_tref *ref,
			      char *buf, size_t len)
{
	if (th_tr_ops(tr->addr))
		return NULL;
	snprintf(buf, len, "ftrace cat %s: no ftrace_ops for %s (no dynamic "
		 "ftrace or no function tracer)", ref->file,
		 tr->name[0] ? tr->name : "the global array");
	return buf;
}

/* The records in OPS' filter (NOTRACE: notrace) hash, t_show()'s lines,
 * or its one line for an empty hash; FALSE when the hash is unreadable
 * (said). */
static int ff_print_ops_hash(ulong ops, int notrace, const char *file)
{
	ulong hash = thf_ops_hash(ops, notrace);
	struct thf_hash h;
	char sym[256];
	ulong *ips;
	long n, i;

	if (!th_ftrace_hash_read(hash, &h)) {
		fprintf(fp, "ftrace cat %s: cannot read the hash at %lx\n",
			file, hash);
		return FALSE;
	}
	if (thf_hash_empty(&h)) {
		/* t_start() says so for notrace only where the kernel has
		 * the line (3.10's prints nothing) */
		if (!notrace)
			fprintf(fp, "#### all functions enabled ####\n");
		else if (th_notrace_says_none())
			fprintf(fp, "#### no functions disabled ####\n");
	} else {
		n = thf_hash_records(&h, &ips);
		for (i = 0; i < n; i++) {
			thf_print_rec(ips[i], THF_REC_FILTER, sym, sizeof(sym));
			fprintf(fp, "%s\n", sym);
		}
		free(ips);
		if (n < 0)
			fprintf(fp, "ftrace cat: cannot walk ftrace_pages\n");
	}
	thf_hash_free(&h);
	return TRUE;
}

/**
 * th_cat_set_ftrace_filter - set_ftrace_filter / set_ftrace_notrace:
 * t_start()/t_func_next()/t_show() of ftrace.c.  With an empty hash one line
 * says so; else the dyn_ftrace records in ftrace_pages order whose ip is in
 * the hash; then the pending ":mod:" entries.
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_set_ftrace_filter(struct th_tr *tr, const struct th_tref *ref)
{
	int notrace = strcmp(ref->file, "set_ftrace_notrace") == 0;
	ulong ops = th_tr_ops(tr->addr);

	if (!ops || !ff_print_ops_hash(ops, notrace, ref->file))
		return;
	th_tr_mod_funcs(tr, notrace, ff_mod_func, NULL);
	if (!notrace)	/* FTRACE_ITER_DO_PROBES: the filter file only */
		th_tr_func_probes(tr, ff_func_probe, NULL);
}

/**
 * th_missing_stack_trace_filter - stack_trace_filter needs the stack
 * tracer's ops (CONFIG_STACK_TRACER with dynamic ftrace)
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_stack_trace_filter(struct th_tr *tr,
					  const struct th_tref *ref,
					  char *buf, size_t len)
{
	if (thf_stack_trace_ops())
		return NULL;
	return "ftrace cat: stack_trace_filter: this kernel has no stack "
		"tracer ops (trace_ops calling stack_trace_call), so no such "
		"file";
}

/**
 * th_cat_stack_trace_filter - stack_trace_filter: trace_stack.c opens it
 * with ftrace_regex_open(&trace_ops, FTRACE_ITER_FILTER): the ops' filter
 * hash as set_ftrace_filter prints one, with no array behind it (no
 * ":mod:" entries, no function probes)
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_stack_trace_filter(struct th_tr *tr, const struct th_tref *ref)
{
	ulong ops = thf_stack_trace_ops();

	if (ops)
		ff_print_ops_hash(ops, FALSE, ref->file);
}

/* The hash of set_graph_function or set_graph_notrace */
static const char *ff_graph_hash_sym(const struct th_tref *ref)
{
	return strcmp(ref->file, "set_graph_notrace") == 0 ?
		"ftrace_graph_notrace_hash" : "ftrace_graph_hash";
}

/**
 * th_missing_graph_hash - without the function graph tracer, no hash and no
 * file.
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_graph_hash(struct th_tr *tr, const struct th_tref *ref,
				  char *buf, size_t len)
{
	const char *sname = ff_graph_hash_sym(ref);

	if (th_symbol(sname))
		return NULL;
	/* set_graph_function before the hash (v4.11): an array */
	if (strcmp(ref->file, "set_graph_function") == 0 &&
	    th_symbol("ftrace_graph_funcs"))
		return NULL;
	snprintf(buf, len, "ftrace cat %s: not in this kernel (no %s: built "
		 "without the function graph tracer)", ref->file, sname);
	return buf;
}

/**
 * th_cat_set_graph - set_graph_function / set_graph_notrace:
 * g_start()/__g_next()/g_show(): the hash buckets in bucket order
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_set_graph(struct th_tr *tr, const struct th_tref *ref)
{
	const char *sname = ff_graph_hash_sym(ref);
	int notrace = strcmp(ref->file, "set_graph_notrace") == 0;
	struct thf_hash h;
	char buf[256];
	long i;

	if (!th_symbol(sname) && !notrace) {
		if (!thf_graph_funcs_read(&h)) {
			fprintf(fp, "ftrace cat set_graph_function: cannot "
				"read ftrace_graph_funcs[]\n");
			return;
		}
	} else if (!th_ftrace_hash_read_sym(sname, &h)) {
		fprintf(fp, "ftrace cat %s: cannot read %s\n", notrace ?
			"set_graph_notrace" : "set_graph_function", sname);
		return;
	}
	if (thf_hash_empty(&h))
		fprintf(fp, "%s\n", notrace ? "#### no functions disabled ####" :
			"#### all functions enabled ####");
	else
		for (i = 0; i < h.n && i < (long)h.count; i++)
			fprintf(fp, "%s\n", th_ksym_ps(h.e[i].ip, buf,
							 sizeof(buf)));
	thf_hash_free(&h);
}
