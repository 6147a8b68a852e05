/*
 * tracehunt: the model's one reader of struct trace_fprobe and of the
 * struct fprobe inside it (kernel/trace/trace_fprobe.c, fprobe.c).
 *
 * Two layouts of struct fprobe:
 *   before v6.14  an ftrace_ops of its own ("ops"), on ftrace_ops_list,
 *                 whose filter hash holds the sites; nr_maxactive for
 *                 the rethook of an exit handler
 *   v6.14+        Linux kernel commit 4346ba160409 ("fprobe: Rewrite
 *                 fprobe on function-graph tracer"): no ops of its own, every fprobe
 *                 runs through fprobe_graph_ops (an fgraph_ops) or, for
 *                 entry-only ones, fprobe_ftrace_ops; its sites are the
 *                 fprobe_hlist_node array of "hlist_array"
 * and two ways to tell a tracepoint probe: trace_fprobe.tpoint non-NULL
 * before, trace_fprobe.tprobe since the tracepoint is held through a
 * struct tracepoint_user (trace_fprobe.tuser; 7.2 has it, 6.12 not:
 * feature-probed by the member).
 */
#include "model/trace_fprobe.h"
#include "model/trace_probe.h"
#include "model/events.h"

static struct {
	int filled, ok;
	long devent, fp, symbol, tpoint, tprobe, tp;	/* trace_fprobe */
	long ops, maxactive, entry, exit, hlist;	/* fprobe */
	long hl_size, hl_array;				/* fprobe_hlist */
	long node_size, node_addr;			/* fprobe_hlist_node */
} tfo;

static void th_fprobe_off(void)
{
	if (tfo.filled)
		return;
	tfo.filled = 1;
	tfo.devent = th_member("trace_fprobe", "devent");
	tfo.fp = th_member("trace_fprobe", "fp");
	tfo.symbol = th_member("trace_fprobe", "symbol");
	tfo.tpoint = th_member("trace_fprobe", "tpoint");
	tfo.tprobe = th_member("trace_fprobe", "tprobe");
	tfo.tp = th_member("trace_fprobe", "tp");
	tfo.ops = th_member("fprobe", "ops");
	tfo.maxactive = th_member("fprobe", "nr_maxactive");
	tfo.entry = th_member("fprobe", "entry_handler");
	tfo.exit = th_member("fprobe", "exit_handler");
	tfo.hlist = th_member("fprobe", "hlist_array");
	tfo.hl_size = th_member("fprobe_hlist", "size");
	tfo.hl_array = th_member("fprobe_hlist", "array");
	tfo.node_size = th_size("fprobe_hlist_node");
	tfo.node_addr = th_member("fprobe_hlist_node", "addr");
	tfo.ok = tfo.devent >= 0 && tfo.fp >= 0 && tfo.symbol >= 0 &&
		tfo.tp >= 0 && (tfo.tpoint >= 0 || tfo.tprobe >= 0) &&
		tfo.entry >= 0 && tfo.exit >= 0 && th_trace_probe_ok() &&
		th_event_names_ok();
}

ulong th_fprobe_ops(ulong fp)
{
	th_fprobe_off();
	return tfo.ops >= 0 ? fp + tfo.ops : 0;
}

int th_fprobe_has_exit(ulong fp)
{
	ulong h = 0;

	th_fprobe_off();
	if (tfo.exit < 0 ||
	    !th_read_ulong(fp + tfo.exit, &h, "fprobe.exit_handler"))
		return -1;
	return h != 0;
}

int th_trace_fprobes_ok(void)
{
	th_fprobe_off();
	return tfo.ok;
}

/* The sites of fprobe.hlist_array (v6.14+), at most TH_FPROBE_SITES. */
static void th_fprobe_sites(struct th_fprobe_ev *f)
{
	ulong hl = 0, a;
	int size = 0, i;

	f->nsites = 0;
	if (tfo.hlist < 0 || tfo.hl_size < 0 || tfo.hl_array < 0 ||
	    tfo.node_size <= 0 || tfo.node_addr < 0)
		return;
	if (!th_read_ulong(f->fp + tfo.hlist, &hl, "fprobe.hlist_array") ||
	    !hl || !th_read_int(hl + tfo.hl_size, &size, "fprobe_hlist.size"))
		return;
	if (size < 0)
		size = 0;
	for (i = 0; i < size && i < TH_FPROBE_SITES; i++) {
		if (!th_read_ulong(hl + tfo.hl_array + i * tfo.node_size +
				   tfo.node_addr, &a, "fprobe_hlist_node.addr"))
			break;
		f->sites[f->nsites++] = a;
	}
}

/* Whether the trace_fprobe TF is a tracepoint probe. */
static int th_fprobe_is_tp(ulong tf)
{
	unsigned char b = 0;
	ulong p = 0;

	if (tfo.tprobe >= 0)
		return th_read(tf + tfo.tprobe, &b, 1, "trace_fprobe.tprobe") &&
			b;
	return th_read_ulong(tf + tfo.tpoint, &p, "trace_fprobe.tpoint") &&
		p;
}

int th_fprobe_of_dyn(ulong ev, struct th_fprobe_ev *out)
{
	ulong sym = 0, call;
	int ok;

	memset(out, 0, sizeof(*out));
	strcpy(out->symbol, "unknown");
	if (!th_trace_fprobes_ok())
		return FALSE;
	out->tf = ev - tfo.devent;
	out->tp = out->tf + tfo.tp;
	out->fp = out->tf + tfo.fp;
	out->ops = tfo.ops >= 0 ? out->fp + tfo.ops : 0;
	ok = th_read_ulong(out->fp + tfo.entry, &out->entry,
			   "fprobe.entry_handler") &&
		th_read_ulong(out->fp + tfo.exit, &out->exit,
			      "fprobe.exit_handler") &&
		th_read_ulong(out->tf + tfo.symbol, &sym,
			      "trace_fprobe.symbol");
	out->is_return = out->exit != 0;
	out->is_tp = th_fprobe_is_tp(out->tf);
	if (tfo.maxactive >= 0 &&
	    !th_read_int(out->fp + tfo.maxactive, &out->maxactive,
			 "fprobe.nr_maxactive"))
		out->maxactive = 0;
	if (sym && !th_read_cstr(sym, out->symbol, sizeof(out->symbol),
				 "trace_fprobe.symbol"))
		ok = FALSE;
	if ((call = th_trace_probe_call(out->tp))) {
		th_event_call_system(call, out->group, sizeof(out->group));
		th_event_call_name(call, out->name, sizeof(out->name));
	} else {
		ok = FALSE;
	}
	th_fprobe_sites(out);
	return ok;
}
