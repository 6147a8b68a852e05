/*
 * tracehunt: the "ftrace ops" listing: every ftrace_ops on
 * ftrace_ops_list with its owner, callback, flags, trampoline, private
 * data (a trace array by name), filter and notrace hashes, and with -v
 * every function of the hashes and the subops of a manager ops.
 */
#include "render/ops_report.h"

/* Owner text; memory of the direct map (kmalloc'ed ops) is "heap". */
char *thf_owner(ulong addr, struct th_owner *o, char *buf, size_t len)
{
	th_owner_of(addr, o);
	if (o->kind == TH_OWN_UNKNOWN && addr >= PAGE_OFFSET &&
	    !IS_VMALLOC_ADDR(addr) && addr < 0xffffffff80000000UL)
		snprintf(buf, len, "heap");
	else
		th_owner_str(o, buf, len);
	return buf;
}

const char *thf_tr_name(ulong addr)
{
	struct th_tr *trs;
	int n, i;

	if (!addr)
		return NULL;
	n = th_trace_arrays(&trs);
	for (i = 0; i < n; i++)
		if (trs[i].addr == addr)
			return trs[i].name[0] ? trs[i].name : "(global)";
	return NULL;
}

static void thf_print_hash(const char *what, const struct thf_hash *h,
			   int verbose, int notrace)
{
	char b[300];
	long i;

	if (thf_hash_empty(h))
		fprintf(fp, "    %-11s %s\n", what, notrace ? "(empty: none)" :
			"(empty: every function)");
	else
		fprintf(fp, "    %-11s %lu function%s%s%s\n", what, h->count,
			h->count == 1 ? "" : "s",
			thf_hash_mod_pending(h) ? " (module filter pending)" : "",
			h->err ? " (damaged hash)" : "");
	if (h->err)
		fprintf(fp, "                tracehunt: %s at %lx\n", h->err,
			h->addr);
	if (!verbose)
		return;
	for (i = 0; i < h->n; i++)
		fprintf(fp, "                %lx  %s\n", thf_hash_ip_sorted(h, i),
			th_ksym_ps(thf_hash_ip_sorted(h, i), b, sizeof(b)));
}

static void thf_print_tramp(struct thf_state *s, const struct thf_ops *op)
{
	struct th_owner o;
	char own[300], sym[300];
	ulong t;

	if (!op->trampoline) {
		fprintf(fp, "    %-11s -\n", "trampoline");
		return;
	}
	t = thf_tramp_func(s, op, NULL);
	if (s->ops_fl_alloc_tramp && (op->flags & s->ops_fl_alloc_tramp)) {
		struct th_vmap *v = th_vmap_of(op->trampoline);
		struct th_sym ks;

		/* Allocated by ftrace itself: module space no module owns,
		 * by design; the core owns it, not a hidden module. */
		fprintf(fp, "    %-11s %lx  size %lu  ftrace trampoline of this "
			"ops", "trampoline", op->trampoline,
			op->trampoline_size);
		if (v)
			fprintf(fp, " (vmap %lx-%lx)", v->start, v->end);
		fputc('\n', fp);
		fprintf(fp, "    %-11s %s\n", "  calls",
			t ? th_ksym_pS(t, sym, sizeof(sym)) :
			"(no call at the trampoline's ftrace_call slot)");
		if (th_ksym_lookup(op->trampoline, &ks))
			fprintf(fp, "    %-11s kallsyms names it %s: a stale "
				"name (freed module init text reused)\n", "",
				th_ksym_pS(op->trampoline, sym, sizeof(sym)));
		return;
	}
	fprintf(fp, "    %-11s %lx  %s  %s\n", "trampoline", op->trampoline,
		th_ksym_pS(op->trampoline, sym, sizeof(sym)),
		thf_owner(op->trampoline, &o, own, sizeof(own)));
}

/* A function graph subop (of fgraph's manager "graph_ops", or flagged
 * FTRACE_OPS_FL_GRAPH) is the "ops" of a struct fgraph_ops: its entry
 * and return handlers are what runs. */
static void thf_print_fgraph(ulong manager, ulong sub,
			     const struct thf_ops *op)
{
	ulong graph = thf_ops_flag("GRAPH"), fn;
	struct th_owner o;
	char sym[300], own[300];

	if (!(graph && (op->flags & graph)) &&
	    !(manager && manager == th_symbol("graph_ops")))
		return;
	if (!thf_fgraph_known())
		return;
	if (thf_fgraph_func(sub, FALSE, &fn))
		fprintf(fp, "entry %s %s  ", th_ksym_pS(fn, sym, sizeof(sym)),
			thf_owner(fn, &o, own, sizeof(own)));
	if (thf_fgraph_func(sub, TRUE, &fn))
		fprintf(fp, "return %s %s  ", th_ksym_pS(fn, sym, sizeof(sym)),
			thf_owner(fn, &o, own, sizeof(own)));
}

/* Subops of a manager ops (function graph's fgraph_ops since v6.12):
 * ftrace_ops.subop_list of ftrace_ops linked by their "list" */
static void thf_print_subops(const struct thf_ops *op)
{
	ulong managed = thf_ops_managed(op->addr);
	struct th_walk w;
	struct thf_ops sub;
	struct th_owner o;
	char own[300], sym[300], fl[512];
	long i;

	if (managed)
		fprintf(fp, "    %-11s %lx  %s\n", "managed by", managed,
			th_ksym_pS(managed, sym, sizeof(sym)));
	if (!thf_subops_walk(op->addr, &w))
		return;
	if (w.n)
		fprintf(fp, "    %-11s %ld\n", "subops", w.n);
	for (i = 0; i < w.n; i++) {
		ulong a = w.ent[i];

		if (!thf_ops_read(a, &sub)) {
			fprintf(fp, "      %lx  (unreadable)\n", a);
			continue;
		}
		fprintf(fp, "      %lx  func %s  %s  flags %s  ", a,
			th_ksym_pS(sub.func, sym, sizeof(sym)),
			thf_owner(sub.func, &o, own, sizeof(own)),
			thf_ops_flags_str(sub.flags, fl, sizeof(fl)));
		thf_print_fgraph(op->addr, a, &sub);
		if (thf_hash_empty(&sub.filter))
			fprintf(fp, "filter: every function\n");
		else
			fprintf(fp, "filter: %lu functions\n", sub.filter.count);
		thf_ops_release(&sub);
	}
	if (w.err)
		th_warn("subop_list of %lx: %s at %lx", op->addr, w.err, w.bad);
	th_walk_free(&w);
}

static int thf_print_ops(struct thf_state *s, int idx, int verbose)
{
	const struct thf_ops *op = &s->ops[idx];
	struct th_owner os, of;
	char own_s[300], own_f[300], sym[300], fl[512], name[260];
	struct th_sym ks;
	const char *trn;
	int hidden;

	thf_owner(op->addr, &os, own_s, sizeof(own_s));
	thf_owner(op->func, &of, own_f, sizeof(own_f));
	hidden = os.kind == TH_OWN_HIDDEN || of.kind == TH_OWN_HIDDEN;
	/* the ops' own name when it is a variable (kallsyms has data
	 * symbols with CONFIG_KALLSYMS_ALL, modules always) */
	if (th_ksym_lookup(op->addr, &ks) && ks.offset == 0)
		snprintf(name, sizeof(name), " %s", ks.name);
	else
		name[0] = '\0';
	fprintf(fp, "%lx  ftrace_ops%s  %s%s\n", op->addr, name, own_s,
		hidden && os.kind != TH_OWN_HIDDEN ? "  (callback HIDDEN)" : "");
	fprintf(fp, "    %-11s %lx  %s  %s\n", "func", op->func,
		th_ksym_pS_any(op->func, sym, sizeof(sym)), own_f);
	fprintf(fp, "    %-11s 0x%lx  %s\n", "flags", op->flags,
		thf_ops_flags_str(op->flags, fl, sizeof(fl)));
	thf_print_tramp(s, op);
	if ((trn = thf_tr_name(op->private_data)))
		fprintf(fp, "    %-11s %lx  trace_array %s\n", "private",
			op->private_data, trn);
	else if (op->private_data)
		fprintf(fp, "    %-11s %lx  %s\n", "private", op->private_data,
			th_ksym_pS(op->private_data, sym, sizeof(sym)));
	thf_print_hash("filter", &op->filter, verbose, FALSE);
	thf_print_hash("notrace", &op->notrace, verbose, TRUE);
	if (verbose)
		thf_print_subops(op);
	return hidden;
}

/**
 * thf_report_ops - the "ftrace ops" listing
 * @verbose: -v: the hashes' functions and the subops too
 */
void thf_report_ops(int verbose)
{
	struct thf_state *s;
	int i, hidden = 0;

	s = thf_load();
	if (!s) {
		thf_load_why();
		return;
	}
	for (i = 0; i < s->nops; i++) {
		if (i)
			fputc('\n', fp);
		hidden += thf_print_ops(s, i, verbose);
	}
	if (s->ops_err)
		th_warn("ftrace_ops_list: %s at %lx", s->ops_err, s->ops_bad);
	fprintf(fp, "%s%d ftrace_ops on ftrace_ops_list", s->nops ? "\n" : "",
		s->nops);
	if (hidden)
		fprintf(fp, ", %d HIDDEN (no listed module covers the ops or "
			"its callback)", hidden);
	fputc('\n', fp);
}
