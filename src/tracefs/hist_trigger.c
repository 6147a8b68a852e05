/*
 * tracehunt: a hist trigger's line in events/SYSTEM/EVENT/trigger and
 * show_event_triggers: event_hist_trigger_print()
 * (kernel/trace/trace_events_hist.c), from model/hist_trigger.c.
 */
#include "tracefs/tracefs.h"
#include "model/ftrace_files.h"
#include "model/hist_trigger.h"
#include "render/hist_text.h"

#define FL(f, x)	((f)->flags & (f)->fl[TH_HFL_##x])

/* get_hist_field_flags() */
static const char *th_hist_flags_str(const struct th_hist_field *f)
{
	static const struct { int fl; const char *s; } names[] = {
		{ TH_HFL_HEX, "hex" }, { TH_HFL_SYM, "sym" },
		{ TH_HFL_SYM_OFFSET, "sym-offset" },
		{ TH_HFL_EXECNAME, "execname" }, { TH_HFL_SYSCALL, "syscall" },
		{ TH_HFL_LOG2, "log2" }, { TH_HFL_BUCKET, "buckets" },
		{ TH_HFL_TIMESTAMP_USECS, "usecs" },
		{ TH_HFL_PERCENT, "percent" }, { TH_HFL_GRAPH, "graph" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (f->flags & f->fl[names[i].fl])
			return names[i].s;
	return NULL;
}

/* hist_field_print() of the hist_field at ADDR; FALSE when unreadable */
static int th_hist_field_print(ulong addr)
{
	struct th_hist_field f;
	const char *s;

	if (!th_hist_field_read(addr, &f))
		return FALSE;
	if (f.var_name[0])
		fprintf(fp, "%s=", f.var_name);
	if (FL(&f, CPU) && f.fl[TH_HFL_COMM]) {
		/* with common_comm keys (HIST_FIELD_FL_COMM) the chain
		 * became "if (CPU) common_cpu; if (COMM) common_comm; else
		 * if (CONST) ...; else if (name) name": a cpu key that
		 * names the generic "cpu" field prints both */
		fputs("common_cpu", fp);
		fputs(f.name, fp);
	} else if (FL(&f, CPU)) {
		/* "common_cpu" whatever the key was named, since the
		 * rename that came before constants (v5.16) */
		fputs(f.fl[TH_HFL_CONST] ? "common_cpu" : "cpu", fp);
	} else if (FL(&f, COMM)) {
		fputs("common_comm", fp);
	} else if (FL(&f, CONST)) {
		fprintf(fp, "%llu", f.constant);
	} else {
		if (FL(&f, VAR_REF) || FL(&f, ALIAS))
			fputc('$', fp);
		fputs(f.name, fp);
	}
	if (f.flags && !FL(&f, VAR_REF) && !FL(&f, EXPR) &&
	    (s = th_hist_flags_str(&f)))
		fprintf(fp, ".%s", s);
	if (f.buckets)
		fprintf(fp, "=%ld", (long)f.buckets);
	return TRUE;
}

/* Whether the hist_field at ADDR has the flag (FALSE when unreadable) */
static int th_hist_fl(ulong addr, enum th_hist_fl which)
{
	struct th_hist_field f;

	return th_hist_field_read(addr, &f) && (f.flags & f.fl[which]);
}

/* "keys=...:vals=...[:VARS]" */
static int th_hist_keys_vals(const struct th_hist *h)
{
	unsigned int i, n = 0;
	int ok = TRUE, have_var = FALSE, shown = FALSE;

	fputs("keys=", fp);
	for (i = h->n_vals; i < h->n_fields; i++) {
		if (i > h->n_vals)
			fputc(',', fp);
		if (th_hist_fl(h->fields[i], TH_HFL_STACKTRACE))
			fputs(h->common_stacktrace ? "common_stacktrace" :
			      "stacktrace", fp);
		else
			ok &= th_hist_field_print(h->fields[i]);
	}
	fputs(":vals=", fp);
	for (i = 0; i < h->n_vals; i++) {
		if (th_hist_fl(h->fields[i], TH_HFL_VAR)) {
			have_var = TRUE;
			continue;
		}
		if (i == 0) {		/* HITCOUNT_IDX */
			if (h->no_hitcount)
				continue;
			fputs("hitcount", fp);
		} else {
			if (shown)
				fputc(',', fp);
			ok &= th_hist_field_print(h->fields[i]);
		}
		shown = TRUE;
	}
	if (!have_var)
		return ok;
	fputc(':', fp);
	for (i = 0; i < h->n_vals; i++) {
		if (!th_hist_fl(h->fields[i], TH_HFL_VAR))
			continue;
		if (n++)
			fputc(',', fp);
		ok &= th_hist_field_print(h->fields[i]);
	}
	return ok;
}

/* ":sort=..." */
static int th_hist_sort(const struct th_hist *h)
{
	unsigned int i, idx, first_key_idx = h->n_vals - h->n_vars;
	int ok = TRUE;

	fputs(":sort=", fp);
	for (i = 0; i < h->n_sort_keys; i++) {
		idx = h->sort[i].idx;
		if (i > 0)
			fputc(',', fp);
		if (idx == 0) {
			fputs("hitcount", fp);
		} else {
			if (idx >= first_key_idx)
				idx += h->n_vars;
			if (idx >= h->n_fields)
				ok = FALSE;
			else
				ok &= th_hist_field_print(h->fields[idx]);
		}
		if (h->sort[i].descending)
			fputs(".descending", fp);
	}
	return ok;
}

/* print_actions_spec(): print_onmatch_spec(), print_track_data_spec()
 * with print_action_spec() */
static int th_hist_actions(const struct th_hist *h)
{
	struct th_hist_action *a = malloc(sizeof(*a));
	unsigned int i, j;
	char var[64];
	int ok = a != NULL;

	for (i = 0; ok && i < h->n_actions; i++) {
		if (!th_hist_action_read(h->actions[i], a)) {
			ok = FALSE;
			break;
		}
		if (a->handler == TH_HH_ONMATCH)
			fprintf(fp, ":onmatch(%s.%s).%s(", a->match_system,
				a->match_event, a->action_name);
		else if (a->handler == TH_HH_ONMAX ||
			 a->handler == TH_HH_ONCHANGE)
			fprintf(fp, ":%s(%s).%s(", a->handler == TH_HH_ONMAX ?
				"onmax" : "onchange", a->var_str,
				a->action_name);
		else
			continue;
		if (a->action == TH_HA_SAVE) {
			for (j = 0; j < h->n_save_vars; j++) {
				ok &= th_hist_save_var_name(h->save_vars[j],
							    var, sizeof(var));
				fprintf(fp, "%s%s", var,
					j < h->n_save_vars - 1 ? "," : "");
			}
		} else if (a->action == TH_HA_TRACE) {
			if (a->use_trace_keyword)
				fputs(a->synth_event_name, fp);
			for (j = 0; j < a->n_params; j++)
				fprintf(fp, "%s%s", j || a->use_trace_keyword ?
					"," : "", a->params[j]);
		}
		fputc(')', fp);
	}
	free(a);
	return ok;
}

/**
 * th_hist_trigger_print - event_hist_trigger_print() of a hist trigger
 * @t: the trigger
 */
void th_hist_trigger_print(const struct th_trigger *t)
{
	struct th_hist *h = malloc(sizeof(*h));
	int ok;

	if (!h || !th_hist_read(t->private_data, h)) {
		th_warn("hist trigger at %lx: its hist_trigger_data at %lx "
			"cannot be read", t->data, t->private_data);
		free(h);
		return;
	}
	fputs("hist:", fp);
	if (t->name[0])
		fprintf(fp, "%s:", t->name);
	ok = th_hist_keys_vals(h);
	ok &= th_hist_sort(h);
	fprintf(fp, ":size=%u", 1U << h->map_bits);
	if (h->enable_timestamps)
		fprintf(fp, ":clock=%s", h->clock);
	if (h->no_hitcount)
		fputs(":nohitcount", fp);
	ok &= th_hist_actions(h);
	if (t->filter)
		fprintf(fp, " if %s", t->filter);
	fputs(t->paused ? " [paused]\n" : " [active]\n", fp);
	if (!ok)
		th_warn("hist trigger at %lx: a field or action of its "
			"hist_trigger_data at %lx cannot be read", t->data,
			t->private_data);
	free(h);
}

/* hist_trigger_show() of each hist trigger, N counting them */
static void th_hist_show(const struct th_trigger *t, void *arg)
{
	int *n = arg;
	struct th_hist *h;

	if (!t || t->kind != TH_TRIG_HIST)
		return;
	if ((*n)++ > 0)
		fputs("\n\n", fp);
	fputs("# event histogram\n#\n# trigger info: ", fp);
	th_hist_trigger_print(t);
	fputs("#\n\n", fp);
	h = malloc(sizeof(*h));
	if (!h || !th_hist_read(t->private_data, h) ||
	    !th_hist_entries_print(h))
		th_warn("hist trigger at %lx: its histogram (tracing_map) "
			"cannot be read", t->data);
	free(h);
}

/**
 * th_cat_hist - events/SYSTEM/EVENT/hist: hist_show()
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_hist(struct th_tr *tr, const struct th_tref *ref)
{
	const struct th_evfile *e;
	char sys[64], name[128];
	int n = 0;

	if (!th_event_path(ref->file, NULL, sys, sizeof(sys), name,
			   sizeof(name)) ||
	    !(e = th_tr_evfile(tr, sys, name)))
		return;
	th_event_triggers(e->file, th_hist_show, &n);
}
