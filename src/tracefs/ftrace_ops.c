/*
 * tracehunt: "ftrace cat enabled_functions", "touched_functions" and
 * "available_filter_functions".
 *
 * enabled_functions is t_show() of kernel/trace/ftrace.c over every
 * dyn_ftrace record with FTRACE_FL_ENABLED, with the symbols the kernel's
 * own kallsyms gives (th_ksym_*) and the trampoline targets read from the
 * trampolines' text like arch_ftrace_trampoline_func() does.
 */
#include "render/ftrace_text.h"
#include "tracefs/tracefs.h"

/* One subop in print_subops(): a graph one by its fgraph_ops handlers */
static void thf_show_subop(ulong addr, const struct thf_ops *sub,
			   ulong fl_graph)
{
	char b1[300], b2[300];
	ulong ent, ret;

	if ((sub->flags & fl_graph) && thf_fgraph_known()) {
		thf_fgraph_func(addr, FALSE, &ent);
		thf_fgraph_func(addr, TRUE, &ret);
		fprintf(fp, " {ent:%s ret:%s}", th_ksym_pS(ent, b1, sizeof(b1)),
			th_ksym_pS(ret, b2, sizeof(b2)));
	} else if (sub->trampoline) {
		fprintf(fp, " {%s (%s)}",
			th_ksym_pS(sub->trampoline, b1, sizeof(b1)),
			th_ksym_pS(sub->func, b2, sizeof(b2)));
	} else {
		fprintf(fp, " {%s}", th_ksym_pS(sub->func, b1, sizeof(b1)));
	}
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
	ulong fl_graph = thf_ops_flag("GRAPH");
	ulong fl_enabled = thf_ops_flag("ENABLED");
	struct th_walk w;
	struct thf_ops sub;
	int first = TRUE;
	long i;

	if (!fl_graph || !thf_subops_walk(ops_addr, &w))
		return;
	for (i = 0; i < w.n; i++) {
		if (thf_ops_read(w.ent[i], &sub) && (sub.flags & fl_enabled) &&
		    thf_ops_contains(&sub, ip)) {
			if (first) {
				fputs("\tsubops:", fp);
				first = FALSE;
			}
			thf_show_subop(w.ent[i], &sub, fl_graph);
		}
		thf_ops_release(&sub);
	}
	th_walk_free(&w);
}

/* t_show() with FTRACE_ITER_ENABLED (or _TOUCHED) for one record */
static void thf_show_rec(struct thf_state *s, const struct thf_rec *r)
{
	const struct thf_recfl *f = &s->fl;
	char name[600];
	int i;

	if (!thf_print_rec(r->ip, THF_REC_ENABLED, name, sizeof(name))) {
		fprintf(fp, "%s\n", name);
		return;
	}
	if (!f->tramp) {
		/* Before FTRACE_FL_TRAMP (79922b8009c0, v3.17) t_show() printed
		 * the count and " R" only, with nothing for a record without
		 * REGS; RHEL 7's backport of IPMODIFY (f8b8be8a310a) added
		 * " I", with one space for each flag a record lacks.  No
		 * trampoline, no "->" target. */
		const char *pad = f->ipmodify ? " " : "";

		fprintf(fp, "%s (%lu)%s%s\n", name, r->flags & f->ref_mask,
			r->flags & f->regs ? " R" : pad,
			!f->ipmodify ? "" : r->flags & f->ipmodify ? " I" :
			pad);
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

		/* bit 0: a jmp to the trampoline (thf_expected_target()) */
		if (thf_hash_has(&s->direct, r->ip, &direct) && direct)
			fprintf(fp, "\n\tdirect%s-->%s",
				direct & 1 ? "(jmp)" : "",
				th_ksym_pS(direct & ~1UL, b, sizeof(b)));
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

/* available_filter_functions: t_show() without FTRACE_ITER_ENABLED,
 * every record of every page: print_rec() and a newline; with ADDRS
 * (available_filter_functions_addrs, FTRACE_ITER_ADDRS) the record's ip
 * first */
static void thf_cat_available(int addrs)
{
	struct thf_state *s = thf_load();
	char name[600];
	long i;

	for (i = 0; s && i < s->nrec; i++) {
		thf_print_rec(s->rec[i].ip, THF_REC_ENABLED, name, sizeof(name));
		if (addrs)
			fprintf(fp, "%lx %s\n", s->rec[i].ip, name);
		else
			fprintf(fp, "%s\n", name);
	}
	if (s)
		thf_warn_damage(s);
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

	if (!s) {
		/* the line thf_load_why() prints */
		snprintf(buf, len, "ftrace: %s", thf_load_reason());
		return buf;
	}
	if (strcmp(ref->file, "touched_functions") == 0 && !s->fl.touched)
		return "ftrace cat: touched_functions: this kernel has no "
			"FTRACE_FL_TOUCHED, so no such file";
	/* a file of v6.5 and later: ftrace_avail_addrs_open() */
	if (strcmp(ref->file, "available_filter_functions_addrs") == 0 &&
	    !th_symbol("ftrace_avail_addrs_open"))
		return "ftrace cat: available_filter_functions_addrs: this "
			"kernel has no such file";
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

	if (!s)
		return;
	if (ref->file[0] == 'a')
		thf_cat_available(strcmp(ref->file,
					 "available_filter_functions") != 0);
	else
		thf_cat_enabled(ref->file[0] == 'e' ? s->fl.enabled :
				s->fl.touched);
}
