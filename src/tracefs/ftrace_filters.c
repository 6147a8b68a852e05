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
#include "model/ftrace_files.h"

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

/* The array's ftrace_ops: without one (no dynamic ftrace, or no function
 * tracer) neither filter file exists. */
const char *th_missing_tr_ops(struct th_tr *tr, const struct th_tref *ref,
			      char *buf, size_t len)
{
	if (ff_tr_ops(tr))
		return NULL;
	snprintf(buf, len, "ftrace cat %s: no ftrace_ops for %s (no dynamic "
		 "ftrace or no function tracer)", ref->file,
		 tr->name[0] ? tr->name : "the global array");
	return buf;
}

/*
 * set_ftrace_filter / set_ftrace_notrace: t_start()/t_func_next()/t_show()
 * of ftrace.c.  With an empty hash one line says so; else the dyn_ftrace
 * records in ftrace_pages order whose ip is in the hash; then the pending
 * ":mod:" entries.
 */
void th_cat_set_ftrace_filter(struct th_tr *tr, const struct th_tref *ref)
{
	int notrace = strcmp(ref->file, "set_ftrace_notrace") == 0;
	ulong ops = ff_tr_ops(tr), hash;
	struct ff_hash h;
	char sym[256];
	ulong *ips;
	long n, i;

	if (!ops)
		return;
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
static const char *ff_graph_hash_sym(const struct th_tref *ref)
{
	return strcmp(ref->file, "set_graph_notrace") == 0 ?
		"ftrace_graph_notrace_hash" : "ftrace_graph_hash";
}

/* Without the function graph tracer, no hash and no file. */
const char *th_missing_graph_hash(struct th_tr *tr, const struct th_tref *ref,
				  char *buf, size_t len)
{
	const char *sname = ff_graph_hash_sym(ref);

	if (th_symbol(sname))
		return NULL;
	snprintf(buf, len, "ftrace cat %s: not in this kernel (no %s: built "
		 "without the function graph tracer)", ref->file, sname);
	return buf;
}

void th_cat_set_graph(struct th_tr *tr, const struct th_tref *ref)
{
	const char *sname = ff_graph_hash_sym(ref);
	int notrace = strcmp(ref->file, "set_graph_notrace") == 0;
	ulong sym = th_symbol(sname), hash = 0;
	struct ff_hash h;
	char buf[256];
	long i;

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
