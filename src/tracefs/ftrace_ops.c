/*
 * tracehunt: "ftrace ops" and "ftrace cat enabled_functions".
 *
 * enabled_functions is t_show() of kernel/trace/ftrace.c over every
 * dyn_ftrace record with FTRACE_FL_ENABLED, with the symbols the kernel's
 * own kallsyms gives (th_ksym_*) and the trampoline targets read from the
 * trampolines' text like arch_ftrace_trampoline_func() does.
 */
#include "model/ftrace_ops.h"
#include "glue/commands.h"
#include "tracefs/tracefs.h"

/* print_rec(): "name" or "name [mod]"; FALSE for an invalid record
 * (FTRACE_MCOUNT_MAX_OFFSET exceeded, or no symbol) */
static int thf_rec_name(struct thf_state *s, ulong ip, char *buf, size_t len)
{
	struct th_sym sym;
	int ok = th_ksym_lookup(ip, &sym);

	if (s->have_max_offset &&
	    (!ok || sym.offset > (ulong)s->max_offset)) {
		snprintf(buf, len, "__ftrace_invalid_address___%lu",
			 ok ? sym.offset : 0UL);
		return FALSE;
	}
	if (!ok)
		snprintf(buf, len, "0x%lx", ip);
	else if (sym.module[0])
		snprintf(buf, len, "%s [%s]", sym.name, sym.module);
	else
		snprintf(buf, len, "%s", sym.name);
	return TRUE;
}

/* ftrace_find_unique_ops(): the one ops tracing IP, or -1 */
static int thf_unique_ops(struct thf_state *s, ulong ip)
{
	int i, found = -1;

	for (i = 0; i < s->nops; i++)
		if (thf_ops_contains(&s->ops[i], ip)) {
			if (found >= 0)
				return -1;
			found = i;
		}
	return found;
}

/*
 * print_subops(): the subops of the manager ops at OPS_ADDR that are
 * enabled and contain the record's ip.  Linux kernel commit "ftrace: Show
 * subops in enabled_functions" (posted April 2025: not in 6.12, in 7.2)
 * added it together with FTRACE_OPS_FL_GRAPH, whose presence tells the
 * two layouts apart.
 */
static void thf_show_subops(ulong ops_addr, ulong ip)
{
	long o_sub = th_member("ftrace_ops", "subop_list");
	long o_list = th_member("ftrace_ops", "list");
	long o_gops = th_member("fgraph_ops", "ops");
	long o_ent = th_member("fgraph_ops", "entryfunc");
	long o_ret = th_member("fgraph_ops", "retfunc");
	ulong fl_graph = thf_ops_flag("GRAPH");
	ulong fl_enabled = thf_ops_flag("ENABLED");
	struct th_walk w;
	struct thf_ops sub;
	char b1[300], b2[300];
	int first = TRUE;
	long i;

	if (!th_enum_exists("FTRACE_OPS_FL_GRAPH") || o_sub < 0 || o_list < 0)
		return;
	th_list_walk(ops_addr + o_sub, 1024, &w);
	for (i = 0; i < w.n; i++) {
		ulong a = w.ent[i] - o_list, ent = 0, ret = 0;

		if (!thf_ops_read(a, &sub) || !(sub.flags & fl_enabled) ||
		    !thf_ops_contains(&sub, ip))
			continue;
		if (first) {
			fputs("\tsubops:", fp);
			first = FALSE;
		}
		if ((sub.flags & fl_graph) && o_gops >= 0 && o_ent >= 0 &&
		    o_ret >= 0) {
			th_read_ulong(a - o_gops + o_ent, &ent,
				      "fgraph_ops.entryfunc");
			th_read_ulong(a - o_gops + o_ret, &ret,
				      "fgraph_ops.retfunc");
			fprintf(fp, " {ent:%s ret:%s}",
				th_ksym_pS(ent, b1, sizeof(b1)),
				th_ksym_pS(ret, b2, sizeof(b2)));
		} else if (sub.trampoline) {
			fprintf(fp, " {%s (%s)}",
				th_ksym_pS(sub.trampoline, b1, sizeof(b1)),
				th_ksym_pS(sub.func, b2, sizeof(b2)));
		} else {
			fprintf(fp, " {%s}", th_ksym_pS(sub.func, b1,
							 sizeof(b1)));
		}
	}
	th_walk_free(&w);
}

/* t_show() with FTRACE_ITER_ENABLED (or _TOUCHED) for one record */
static void thf_show_rec(struct thf_state *s, const struct thf_rec *r)
{
	const struct thf_recfl *f = &s->fl;
	char name[600];
	int i;

	if (!thf_rec_name(s, r->ip, name, sizeof(name))) {
		fprintf(fp, "%s\n", name);
		return;
	}
	fprintf(fp, "%s (%lu)%s%s", name, r->flags & f->ref_mask,
		r->flags & f->regs ? " R" : "  ",
		!f->ipmodify ? "" : r->flags & f->ipmodify ? " I" : "  ");
	if (f->direct)
		fputs(r->flags & f->direct ? " D" : "  ", fp);
	if (f->call_ops)
		fputs(r->flags & f->call_ops ? " O" : "  ", fp);
	if (f->modified)
		fputs(r->flags & f->modified ? " M " : "   ", fp);
	if (f->tramp_en && (r->flags & f->tramp_en)) {
		i = thf_tramp_ops_next(s, r->ip, -1);
		if (i < 0)
			fputs("\ttramp: ERROR!", fp);
		for (; i >= 0; i = thf_tramp_ops_next(s, r->ip, i)) {
			const struct thf_opstr *o = thf_ops_str(s, i);

			if (!o)
				break;
			fprintf(fp, "\ttramp: %s (%s)%s", o->tramp, o->func,
				o->arrow);
			thf_show_subops(s->ops[i].addr, r->ip);
		}
	} else {
		fputs(thf_static_arrow(s, !!(r->flags & f->regs_en)), fp);
	}
	if (f->call_ops_en && (r->flags & f->call_ops_en)) {
		const struct thf_opstr *o;

		i = thf_unique_ops(s, r->ip);
		if (i >= 0 && (o = thf_ops_str(s, i))) {
			fprintf(fp, "\tops: %s (%s)", o->self, o->func);
			thf_show_subops(s->ops[i].addr, r->ip);
		} else
			fputs("\tops: ERROR!", fp);
	}
	if (f->direct && (r->flags & f->direct)) {
		ulong direct = 0;
		char b[300];

		if (thf_hash_has(&s->direct, r->ip, &direct) && direct)
			fprintf(fp, "\n\tdirect-->%s",
				th_ksym_pS(direct, b, sizeof(b)));
	}
	fputc('\n', fp);
}

static void thf_cat_enabled(ulong mask)
{
	struct thf_state *s = thf_load();
	long i;

	if (!s) {
		thf_load_why();
		return;
	}
	for (i = 0; i < s->nrec; i++)
		if (s->rec[i].flags & mask)
			thf_show_rec(s, &s->rec[i]);
	thf_warn_damage(s);
}

/* ftrace_ops' reason for not loading, the line thf_load_why() prints */
static const char *thf_why_line(char *buf, size_t len)
{
	FILE *saved = fp, *mem = fmemopen(buf, len, "w");
	char *nl;

	buf[0] = '\0';
	if (!mem)
		return "ftrace: not loaded";
	fp = mem;
	thf_load_why();
	fp = saved;
	fclose(mem);
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	return buf;
}

/**
 * th_missing_rec_file - enabled_functions needs the dyn_ftrace records;
 * touched_functions also FTRACE_FL_TOUCHED.
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_rec_file(struct th_tr *tr, const struct th_tref *ref,
				char *buf, size_t len)
{
	struct thf_state *s = thf_load();

	if (!s)
		return thf_why_line(buf, len);
	if (strcmp(ref->file, "touched_functions") == 0 && !s->fl.touched)
		return "ftrace cat: touched_functions: this kernel has no "
			"FTRACE_FL_TOUCHED, so no such file";
	return NULL;
}

/**
 * th_cat_rec_file - enabled_functions / touched_functions:
 * ftrace_enabled_show()
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_rec_file(struct th_tr *tr, const struct th_tref *ref)
{
	struct thf_state *s = thf_load();

	if (s)
		thf_cat_enabled(ref->file[0] == 'e' ? s->fl.enabled :
				s->fl.touched);
}

/* ---------------------------------------------------------- ftrace ops --- */

/* Owner text; memory of the direct map (kmalloc'ed ops) is "heap". */
static char *thf_owner(ulong addr, struct th_owner *o, char *buf, size_t len)
{
	th_owner_of(addr, o);
	if (o->kind == TH_OWN_UNKNOWN && addr >= PAGE_OFFSET &&
	    !IS_VMALLOC_ADDR(addr) && addr < 0xffffffff80000000UL)
		snprintf(buf, len, "heap");
	else
		th_owner_str(o, buf, len);
	return buf;
}

static const char *thf_tr_name(ulong addr)
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
			(h->hflags & 1) ? " (module filter pending)" : "",
			h->err ? " (damaged hash)" : "");
	if (h->err)
		fprintf(fp, "                tracehunt: %s at %lx\n", h->err,
			h->addr);
	if (!verbose)
		return;
	for (i = 0; i < h->n; i++)
		fprintf(fp, "                %lx  %s\n", h->ip[i],
			th_ksym_ps(h->ip[i], b, sizeof(b)));
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
	long o_ops = th_member("fgraph_ops", "ops");
	long o_ent = th_member("fgraph_ops", "entryfunc");
	long o_ret = th_member("fgraph_ops", "retfunc");
	ulong graph = thf_ops_flag("GRAPH"), ent, ret;
	struct th_owner o;
	char sym[300], own[300];

	if (!(graph && (op->flags & graph)) &&
	    !(manager && manager == th_symbol("graph_ops")))
		return;
	if (o_ops < 0 || o_ent < 0 || o_ret < 0)
		return;
	if (th_read_ulong(sub - o_ops + o_ent, &ent, "fgraph_ops.entryfunc"))
		fprintf(fp, "entry %s %s  ", th_ksym_pS(ent, sym, sizeof(sym)),
			thf_owner(ent, &o, own, sizeof(own)));
	if (th_read_ulong(sub - o_ops + o_ret, &ret, "fgraph_ops.retfunc"))
		fprintf(fp, "return %s %s  ", th_ksym_pS(ret, sym, sizeof(sym)),
			thf_owner(ret, &o, own, sizeof(own)));
}

/* Subops of a manager ops (function graph's fgraph_ops since v6.12):
 * ftrace_ops.subop_list of ftrace_ops linked by their "list" */
static void thf_print_subops(struct thf_state *s, const struct thf_ops *op)
{
	long o_sub = th_member("ftrace_ops", "subop_list");
	long o_list = th_member("ftrace_ops", "list");
	long o_managed = th_member("ftrace_ops", "managed");
	struct th_walk w;
	struct thf_ops sub;
	struct th_owner o;
	char own[300], sym[300], fl[512];
	ulong managed = 0;
	long i;

	if (o_managed >= 0 &&
	    th_read_ulong(op->addr + o_managed, &managed, "ftrace_ops.managed") &&
	    managed)
		fprintf(fp, "    %-11s %lx  %s\n", "managed by", managed,
			th_ksym_pS(managed, sym, sizeof(sym)));
	if (o_sub < 0 || o_list < 0)
		return;
	th_list_walk(op->addr + o_sub, 1024, &w);
	if (w.n)
		fprintf(fp, "    %-11s %ld\n", "subops", w.n);
	for (i = 0; i < w.n; i++) {
		ulong a = w.ent[i] - o_list;

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
		th_ksym_pS(op->func, sym, sizeof(sym)), own_f);
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
		thf_print_subops(s, op);
	return hidden;
}

void th_ftrace_ops(int argc, char **argv)
{
	struct thf_state *s;
	int c, verbose = 0, i, hidden = 0;

	while ((c = getopt(argc, argv, "v")) != EOF) {
		switch (c) {
		case 'v':
			verbose = 1;
			break;
		default:
			argerrs++;
			break;
		}
	}
	if (argerrs || optind < argc)
		cmd_usage(pc->curcmd, SYNOPSIS);
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
