/*
 * tracehunt: the findings of "hooks" for fprobe events, event probes and
 * ftrace direct calls that no BPF program makes:
 *
 *   fprobe_event   one per fprobe event ("f:") and tracepoint probe
 *                  ("t:") of dynamic_events: its function (or
 *                  tracepoint), the handler its fprobe runs, the ftrace
 *                  ops it goes through (its own before v6.14, whose
 *                  ftrace_ops finding it replaces; since then the
 *                  fprobe_ftrace_ops or function-graph ops all fprobes
 *                  share), judged by the handler and the event's struct
 *   eprobe         one per event probe ("e:"): the event it is attached
 *                  to (a trigger on it), its trigger function
 *   ftrace_direct  one per site of a direct ops no BPF link explains
 *                  (a module's register_ftrace_direct()): the site and
 *                  the trampoline it calls, judged by the trampoline's
 *                  owner, never ok core (a module's is a note, HIDDEN
 *                  when the module left the module list)
 */
#include "audit/hooks_priv.h"
#include "model/dyn_event.h"
#include "model/trace_fprobe.h"
#include "model/trace_eprobe.h"
#include "model/trace_probe.h"
#include "model/events.h"

/* The fprobe events, read once per "hooks" (hkf_load()). */
static struct th_fprobe_ev *hkf_ev;
static long hkf_n;
static int hkf_loaded;

static void hkf_load(void)
{
	ulong *v = NULL;
	long n, i;

	if (hkf_loaded)
		return;
	hkf_loaded = TRUE;
	free(hkf_ev);
	hkf_ev = NULL;
	hkf_n = 0;
	if (!th_trace_fprobes_ok() ||
	    (n = th_dyn_events_of(TH_DYN_FPROBE, &v)) <= 0) {
		free(v);
		return;
	}
	hkf_ev = calloc(n, sizeof(*hkf_ev));
	if (!hkf_ev) {
		free(v);
		return;
	}
	for (i = 0; i < n; i++)
		if (!th_fprobe_of_dyn(v[i], &hkf_ev[hkf_n++]))
			th_warn("fprobe event at %lx: struct trace_fprobe "
				"cannot be read whole", v[i]);
	free(v);
}

/**
 * hk_fprobe_event_ops - whether OP is the ftrace_ops of an fprobe event's
 * own fprobe (before v6.14): its finding is then that event's
 * @op: an ops of ftrace_ops_list
 */
int hk_fprobe_event_ops(const struct thf_ops *op)
{
	long i;

	hkf_load();
	for (i = 0; i < hkf_n; i++)
		if (hkf_ev[i].ops && hkf_ev[i].ops == op->addr)
			return TRUE;
	return FALSE;
}

/* Whether OP is the function-graph ops (its callback ftrace_graph_func:
 * since v6.14 every fprobe with an exit handler runs through
 * fprobe_graph_ops, a subop of it). */
static int hkf_is_graph(const struct thf_ops *op)
{
	struct th_sym sym;

	return th_ksym_lookup(op->func, &sym) &&
		!strcmp(sym.name, "ftrace_graph_func");
}

/* The shared ops (v6.14+) E goes through: of those hooking its first
 * site, the function-graph one for an exit probe, the others for an
 * entry one (fprobe_ftrace_ops); every one hooking it when none fits. */
static int hkf_shared_ops(const struct th_fprobe_ev *e, struct thf_state *s,
			  const struct thf_ops **out, int max)
{
	int pass, j, n = 0;

	for (pass = 0; pass < 2 && !n; pass++)
		for (j = 0; j < s->nops && n < max; j++)
			if (!thf_hash_empty(&s->ops[j].filter) &&
			    thf_ops_contains(&s->ops[j], e->sites[0]) &&
			    (pass || hkf_is_graph(&s->ops[j]) == e->is_return))
				out[n++] = &s->ops[j];
	return n;
}

/* The ftrace_ops finding of OPS (hk_ftrace()) says E goes through it. */
static void hkf_tell_ops(ulong ops, const struct th_fprobe_ev *e)
{
	long i, n = hk_count();

	for (i = 0; i < n; i++) {
		struct hk_finding *f = hk_nth(i);
		size_t k = strlen(f->why);

		if (strcmp(f->kind, "ftrace_ops") || f->target != ops)
			continue;
		snprintf(f->why + k, sizeof(f->why) - k, "%s %s/%s",
			 strstr(f->why, "; fprobe events") ? "," :
			 "; fprobe events", e->group, e->name);
	}
}

/* The sites of E: its fprobe_hlist (v6.14+), else its own ops' filter;
 * into SITES (at most MAX), the ops they go through named into VIA. */
static int hkf_sites(const struct th_fprobe_ev *e, ulong *sites, int max,
		     char *via, size_t len)
{
	struct thf_state *s = thf_load();
	const struct thf_ops *sh[4];
	char sym[128];
	int n = 0, i, j, nsh;
	long r;
	size_t k;

	via[0] = '\0';
	for (i = 0; i < e->nsites && n < max; i++)
		sites[n++] = e->sites[i];
	for (j = 0; s && e->ops && j < s->nops; j++) {
		const struct thf_ops *op = &s->ops[j];

		if (op->addr != e->ops)
			continue;
		for (r = 0; r < s->nrec && n < max; r++)
			if (!thf_hash_empty(&op->filter) &&
			    thf_ops_contains(op, s->rec[r].ip))
				sites[n++] = s->rec[r].ip;
		snprintf(via, len, "its own ftrace_ops %lx", op->addr);
	}
	nsh = s && !e->ops && e->nsites ? hkf_shared_ops(e, s, sh, 4) : 0;
	for (j = 0; j < nsh; j++) {
		th_ksym_ps(sh[j]->addr, sym, sizeof(sym));
		k = strlen(via);
		snprintf(via + k, len - k, "%sftrace_ops %lx (%s%s, shared "
			 "by every fprobe)", k ? " and " : "", sh[j]->addr, sym,
			 hkf_is_graph(sh[j]) ? ": fgraph, fprobe_graph_ops" :
			 "");
		hkf_tell_ops(sh[j]->addr, e);
	}
	if (!via[0])
		snprintf(via, len, e->ops ? "its own ftrace_ops %lx, not on "
			 "ftrace_ops_list" : "no ftrace_ops: its fprobe is not "
			 "registered", e->ops);
	return n;
}

static void hkf_event(const struct th_fprobe_ev *e)
{
	struct hk_finding *f = hk_new("fprobe_event");
	char via[320], what[160];
	ulong sites[TH_FPROBE_SITES];
	int n = hkf_sites(e, sites, TH_FPROBE_SITES, via, sizeof(via));

	f->target = n ? sites[0] : 0;
	if (e->is_tp)
		snprintf(f->target_str, sizeof(f->target_str),
			 "tracepoint %s", e->symbol);
	else if (n)
		th_ksym_pS(sites[0], f->target_str, sizeof(f->target_str));
	else
		snprintf(f->target_str, sizeof(f->target_str), "%s",
			 e->symbol);
	snprintf(what, sizeof(what), "the %s handler",
		 e->is_return ? "exit" : "entry");
	hk_judge(f, e->is_return ? e->exit : e->entry, what);
	hk_judge_struct(f, e->tf, "struct trace_fprobe");
	snprintf(f->why + strlen(f->why), sizeof(f->why) - strlen(f->why),
		 "; %s event %s/%s on %s%s (dynamic_events), %d site%s "
		 "through %s", e->is_tp ? "tracepoint probe" : "fprobe",
		 e->group, e->name, e->symbol, e->is_return ? "%return" : "",
		 n, n == 1 ? "" : "s", via);
}

/* A tracepoint probe's stub on its tracepoint (__probestub_NAME, the
 * probe trace_fprobe registers): the "tracepoint" finding names it. */
static void hkf_tracepoint_stub(const struct th_fprobe_ev *e)
{
	struct th_sym s;
	char stub[160];
	long i, n = hk_count();

	snprintf(stub, sizeof(stub), "__probestub_%s", e->symbol);
	for (i = 0; i < n; i++) {
		struct hk_finding *f = hk_nth(i);

		if (strcmp(f->kind, "tracepoint") ||
		    strcmp(f->target_str, e->symbol) ||
		    !th_ksym_lookup(f->handler, &s) || strcmp(s.name, stub))
			continue;
		snprintf(f->why + strlen(f->why),
			 sizeof(f->why) - strlen(f->why),
			 "; the stub of tracepoint probe %s/%s "
			 "(dynamic_events)", e->group, e->name);
	}
}

static void hkf_eprobes(void)
{
	ulong *v = NULL, tp, call, trig = th_symbol("eprobe_trigger_func");
	char src[200], g[64], nm[128];
	long n, i;

	if (!th_eprobe_ok() || (n = th_dyn_events_of(TH_DYN_EPROBE, &v)) <= 0) {
		free(v);
		return;
	}
	for (i = 0; i < n; i++) {
		struct hk_finding *f = hk_new("eprobe");

		g[0] = nm[0] = '\0';
		th_eprobe_dyn(v[i], &tp, src, sizeof(src));
		if ((call = th_trace_probe_call(tp))) {
			th_event_call_system(call, g, sizeof(g));
			th_event_call_name(call, nm, sizeof(nm));
		}
		/* the source event by its name (its trace_event_call is
		 * the eprobe's business: target_addr 0) */
		snprintf(f->target_str, sizeof(f->target_str), "event %s",
			 src[0] ? src : "?");
		if (trig) {
			hk_judge(f, trig, "the trigger function");
		} else {
			f->owner.kind = TH_OWN_CORE;
			snprintf(f->owner_str, sizeof(f->owner_str), "core");
			snprintf(f->why, sizeof(f->why), "no eprobe_trigger_func "
				 "in this kernel's symbols");
		}
		hk_judge_struct(f, v[i], "struct trace_eprobe");
		snprintf(f->why + strlen(f->why),
			 sizeof(f->why) - strlen(f->why),
			 "; event probe %s/%s on %s (dynamic_events)", g, nm,
			 src[0] ? src : "an unreadable event");
	}
	free(v);
}

/**
 * hk_fprobes - the fprobe_event findings, and the eprobe ones
 */
void hk_fprobes(void)
{
	long i;

	hkf_load();
	for (i = 0; i < hkf_n; i++) {
		hkf_event(&hkf_ev[i]);
		if (hkf_ev[i].is_tp)
			hkf_tracepoint_stub(&hkf_ev[i]);
	}
	hkf_eprobes();
	free(hkf_ev);
	hkf_ev = NULL;
	hkf_n = 0;
	hkf_loaded = FALSE;
}

/* A direct call is never ok: code the kernel calls with no ftrace_ops
 * callback in between, whoever registered it. */
static void hkf_not_core(struct hk_finding *f)
{
	if (f->verdict != HK_OK)
		return;
	f->verdict = HK_NOTE;
	snprintf(f->why + strlen(f->why), sizeof(f->why) - strlen(f->why),
		 " (a direct call no BPF link explains)");
}

/**
 * hk_direct_ops - the direct calls of a DIRECT ops no BPF link explains:
 * an "ftrace_direct" finding per site, the trampoline its direct_functions
 * entry calls; the ops' finding F judged by its first trampoline instead of
 * call_direct_funcs (core)
 * @f: the ops' ftrace_ops finding
 * @s: the ftrace state
 * @op: the ops
 *
 * Return: TRUE when OP is a direct ops (its sites are then done).
 */
int hk_direct_ops(struct hk_finding *f, struct thf_state *s,
		  const struct thf_ops *op)
{
	ulong fl = thf_ops_flag("DIRECT"), tramp, first = 0;
	char flags[sizeof(f->why)];
	long r;

	if (!fl || !(op->flags & fl) || !s->have_direct ||
	    thf_hash_empty(&op->filter))
		return FALSE;
	for (r = 0; r < s->nrec && !first; r++)
		if (thf_ops_contains(op, s->rec[r].ip) &&
		    thf_hash_has(&s->direct, s->rec[r].ip, &tramp))
			first = tramp & ~1UL;
	if (!first)
		return FALSE;
	/* F is judged before hk_new() may move the findings */
	snprintf(flags, sizeof(flags), "%s", strstr(f->why, "; flags ") ?
		 strstr(f->why, "; flags ") : "");
	hk_judge(f, first, "the direct trampoline");
	hk_judge_struct(f, op->addr, "struct ftrace_ops");
	hkf_not_core(f);
	snprintf(f->why + strlen(f->why), sizeof(f->why) - strlen(f->why),
		 "%s", flags);
	for (r = 0; r < s->nrec; r++) {
		struct hk_finding *g;

		tramp = 0;
		if (!thf_ops_contains(op, s->rec[r].ip) ||
		    !thf_hash_has(&s->direct, s->rec[r].ip, &tramp) || !tramp)
			continue;
		g = hk_new("ftrace_direct");
		g->target = s->rec[r].ip;
		th_ksym_pS(s->rec[r].ip, g->target_str, sizeof(g->target_str));
		/* bit 0 of the address: a jmp, not a call */
		hk_judge(g, tramp & ~1UL, "the direct trampoline");
		hk_judge_struct(g, op->addr, "struct ftrace_ops");
		hkf_not_core(g);
		snprintf(g->why + strlen(g->why),
			 sizeof(g->why) - strlen(g->why), "; a direct call "
			 "(register_ftrace_direct) of ops %lx", op->addr);
	}
	return TRUE;
}
