/*
 * tracehunt: "hooks" — every mechanism that diverts kernel control flow,
 * in one table with a verdict per finding:
 *
 *   ok          core kernel or core tracing infrastructure
 *   note        a module on the module list
 *   suspicious  unexplained (code in no known place, text that differs
 *               from the vmlinux on disk without a reason)
 *   HIDDEN      code or data in module space that no listed module covers
 *
 * A BPF program is never ok: every link attaching one, and every perf
 * event holding one without a link, is a "bpf" finding (note;
 * suspicious when the program calls a helper that writes user memory,
 * overrides a return value or sends a signal), and the core
 * machinery it runs through (kprobe_dispatcher, a __bpf_trace_* or
 * perf_* tracepoint probe, the direct ops of its trampoline) is judged
 * by the program it runs.
 */
#include "audit/hooks.h"
#include "audit/hooks_priv.h"
#include "render/json.h"
#include "model/kprobes.h"
#include "model/trace_kprobe.h"
#include "model/tracepoints.h"
#include "model/ftrace_ops.h"
#include "audit/textcheck.h"
#include "model/bpf.h"
#include "model/text_bytes.h"
#include "render/ebpf_report.h"
#include "insn.h"
#include "model/netfilter.h"
#include "model/netdev.h"

static const char *const hk_vname[] = { "ok", "note", "suspicious",
					"HIDDEN" };

static struct hk_finding *hk_f;
static long hk_n, hk_cap;

struct hk_finding *hk_new(const char *kind)
{
	struct hk_finding *f;

	if (hk_n >= hk_cap) {
		hk_cap = hk_cap ? hk_cap * 2 : 256;
		hk_f = realloc(hk_f, hk_cap * sizeof(*hk_f));
	}
	f = &hk_f[hk_n++];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	return f;
}

long hk_count(void)
{
	return hk_n;
}

struct hk_finding *hk_nth(long i)
{
	return &hk_f[i];
}

/* Where the handler of a hook lives decides the default verdict. */
void hk_judge(struct hk_finding *f, ulong handler, const char *what)
{
	struct thf_state *s = thf_load();
	int t;

	f->handler = handler;
	th_ksym_pS_any(handler, f->handler_str, sizeof(f->handler_str));
	if (s && handler && (t = thf_ops_by_tramp(s, handler)) >= 0) {
		/* an ftrace trampoline: judged by the ops that owns it */
		f->owner.kind = TH_OWN_CORE;
		snprintf(f->owner_str, sizeof(f->owner_str),
			 "ftrace trampoline of ops %lx", s->ops[t].addr);
		f->verdict = HK_OK;
		snprintf(f->why, sizeof(f->why), "%s is an ftrace trampoline",
			 what);
		return;
	}
	th_owner_of(handler, &f->owner);
	th_owner_str(&f->owner, f->owner_str, sizeof(f->owner_str));
	switch (f->owner.kind) {
	case TH_OWN_CORE:
		f->verdict = HK_OK;
		snprintf(f->why, sizeof(f->why), "%s is core kernel code",
			 what);
		break;
	case TH_OWN_MODULE:
		f->verdict = HK_NOTE;
		snprintf(f->why, sizeof(f->why), "%s is in module [%s]", what,
			 f->owner.module);
		break;
	case TH_OWN_HIDDEN:
		f->verdict = HK_HIDDEN;
		if (f->owner.module[0])
			snprintf(f->why, sizeof(f->why), "%s is in module %s, "
				 "which is not on the module list", what,
				 f->owner.module);
		else
			snprintf(f->why, sizeof(f->why), "%s is in vmalloc "
				 "memory no listed module covers", what);
		break;
	case TH_OWN_NONE:
		f->verdict = HK_SUSPICIOUS;
		snprintf(f->why, sizeof(f->why), "%s is NULL", what);
		break;
	default:
		f->verdict = HK_SUSPICIOUS;
		snprintf(f->why, sizeof(f->why), "%s is in no kernel text, "
			 "module or vmalloc area", what);
		break;
	}
}

/* A struct that lives in hidden memory makes the hook HIDDEN too. */
void hk_judge_struct(struct hk_finding *f, ulong addr, const char *what)
{
	struct th_owner o;

	th_owner_of(addr, &o);
	if (o.kind == TH_OWN_HIDDEN && f->verdict != HK_HIDDEN) {
		f->verdict = HK_HIDDEN;
		f->owner = o;
		th_owner_str(&o, f->owner_str, sizeof(f->owner_str));
		snprintf(f->why, sizeof(f->why), "%s %lx is in memory no "
			 "listed module covers", what, addr);
	}
}

/* ---------------------------------------------------------------- BPF --- */

/* The BPF links and their programs, read once per "hooks". */
static struct {
	struct th_bpf_link *l;
	long nl;
	struct th_bpf_prog *p;
	long np;
	char *seen;		/* per program: a finding runs it */
} hk_bpf;

static void hk_bpf_load(void)
{
	const char *why;

	free(hk_bpf.l);
	free(hk_bpf.p);
	free(hk_bpf.seen);
	memset(&hk_bpf, 0, sizeof(hk_bpf));
	if (!th_bpf_progs_ok(&why) || !th_bpf_links_ok(&why))
		return;
	hk_bpf.np = th_bpf_progs(&hk_bpf.p);
	hk_bpf.nl = th_bpf_links(&hk_bpf.l);
	th_bpf_held_read();
	if (hk_bpf.np < 0)
		hk_bpf.np = 0;
	if (hk_bpf.nl < 0)
		hk_bpf.nl = 0;
	hk_bpf.seen = calloc(hk_bpf.np ? hk_bpf.np : 1, 1);
}

const struct th_bpf_prog *hk_bpf_prog(ulong prog)
{
	long i;

	for (i = 0; i < hk_bpf.np; i++)
		if (hk_bpf.p[i].addr == prog)
			return &hk_bpf.p[i];
	return NULL;
}

long hk_bpf_nlinks(void)
{
	return hk_bpf.nl;
}

const struct th_bpf_link *hk_bpf_link_nth(long i)
{
	return i >= 0 && i < hk_bpf.nl ? &hk_bpf.l[i] : NULL;
}

struct hk_finding *hk_bpf_link_finding(ulong link)
{
	long i;

	for (i = 0; i < hk_n; i++)
		if (hk_f[i].bpf_link && !hk_f[i].bpf_link->no_link &&
		    hk_f[i].bpf_link->addr == link)
			return &hk_f[i];
	return NULL;
}

/* The helper of P that makes it suspicious, NULL when none: it writes
 * user memory, changes what a function returns, or signals a process. */
const char *hk_bpf_bad_helper(const struct th_bpf_prog *p)
{
	static const char *const bad[] = { "bpf_probe_write_user",
		"bpf_override_return", "bpf_send_signal",
		"bpf_send_signal_thread" };
	size_t k;
	int i;

	for (i = 0; p && i < p->nhelpers; i++)
		for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++)
			if (!strcmp(p->helpers[i], bad[k]))
				return bad[k];
	return NULL;
}

/* How L attaches its program: "link ID (TYPE)", or for a program on a
 * perf event without a link the process holding the event. */
char *hk_bpf_via(const struct th_bpf_link *l, char *buf, size_t len)
{
	if (l->no_link)
		snprintf(buf, len, "a perf event without a link held by "
			 "pid %lu %s fd %u", l->held_pid, l->held_comm,
			 l->held_fd);
	else
		snprintf(buf, len, "link %u (%s)", l->id, l->type_str);
	return buf;
}

long hk_bpf_nprogs(void)
{
	return hk_bpf.np;
}

const struct th_bpf_prog *hk_bpf_prog_nth(long i, int *seen)
{
	if (i < 0 || i >= hk_bpf.np)
		return NULL;
	*seen = hk_bpf.seen && hk_bpf.seen[i];
	return &hk_bpf.p[i];
}

void hk_bpf_judge_via(struct hk_finding *f, ulong prog, unsigned int id,
		      const char *via, const char *how)
{
	const struct th_bpf_prog *p = hk_bpf_prog(prog);
	const char *bad = hk_bpf_bad_helper(p);
	char prog_s[160];

	if (p && hk_bpf.seen)
		hk_bpf.seen[p - hk_bpf.p] = 1;
	if (f->verdict == HK_HIDDEN)
		return;
	if (p)
		snprintf(prog_s, sizeof(prog_s), "BPF program %u %s (%s, tag "
			 "%s)", p->id, p->name, p->type_str, p->tag_hex);
	else
		snprintf(prog_s, sizeof(prog_s), "BPF program %u", id);
	if (!f->bpf || bad)
		f->verdict = bad ? HK_SUSPICIOUS : HK_NOTE;
	/* a second program through the same machinery: both named */
	if (f->bpf)
		snprintf(f->why + strlen(f->why),
			 sizeof(f->why) - strlen(f->why), "; and %s through "
			 "%s%s%s", prog_s, via, bad ? "; it calls " : "",
			 bad ? bad : "");
	else
		snprintf(f->why, sizeof(f->why), "%s %s through %s%s%s", how,
			 prog_s, via, bad ? "; it calls " : "", bad ? bad : "");
	f->bpf = 1;
}

/* F runs the program of link L: never ok. */
void hk_bpf_judge(struct hk_finding *f, const struct th_bpf_link *l,
		  const char *how)
{
	char via[128];

	hk_bpf_judge_via(f, l->prog, l->prog_id,
			 hk_bpf_via(l, via, sizeof(via)), how);
}

/* Who holds the link and the program of the "bpf" finding F, after its
 * reason: the processes' fds and the bpffs pins; a program no process
 * holds, directly or through its links, is one its loader left behind
 * (pins or links alone keep it). */
static void hk_bpf_holders(struct hk_finding *f, const struct th_bpf_link *l,
			   const struct th_bpf_prog *p)
{
	char lh[384], ph[384];
	size_t o = strlen(f->why);
	const char *by = NULL;
	int orphan = FALSE;

	if (l->no_link)
		th_bpf_held_str(TH_BH_PERF, 0, l->perf_file, lh, sizeof(lh));
	else
		th_bpf_held_str(TH_BH_LINK, l->addr, 0, lh, sizeof(lh));
	if (!lh[0] || !p)
		return;
	th_bpf_held_str(TH_BH_PROG, p->addr, 0, ph, sizeof(ph));
	by = th_bpf_prog_held_by(p, hk_bpf.l, hk_bpf.nl, &orphan);
	snprintf(f->why + o, sizeof(f->why) - o, "; %s held by %s, the "
		 "program by %s%s%s", l->no_link ? "the perf event" :
		 "the link", lh, ph, by && !strcmp(by, "link") ?
		 ", only by its link" : "", orphan ? "; no process holds "
		 "it or its links: only pins or links keep it" : "");
}

/* hooks -j's "bpf" of F: null, or of a "bpf" finding the program, the
 * link and who holds them (th_bpf_held_fjson()) */
static void hk_bpf_json(const struct hk_finding *f)
{
	const struct th_bpf_link *l = f->bpf_link;
	const struct th_bpf_prog *p = l ? hk_bpf_prog(l->prog) : f->bpf_prog;
	const char *by = NULL;
	int orphan = FALSE;

	fprintf(fp, ", \"bpf\": ");
	if (!l && !p) {
		fprintf(fp, "null");
		return;
	}
	fprintf(fp, "{\"prog_id\": %u, \"link_id\": %u, \"link_held_by\": ",
		l ? l->prog_id : p->id, l ? l->id : 0);
	if (!l)
		/* held by a device, or attached nowhere known: no link, no
		 * perf event */
		fprintf(fp, "{\"processes\": [], \"pins\": []}");
	else if (l->no_link)
		th_bpf_held_fjson(TH_BH_PERF, 0, l->perf_file);
	else
		th_bpf_held_fjson(TH_BH_LINK, l->addr, 0);
	fprintf(fp, ", \"prog_held_by\": ");
	if (p)
		th_bpf_held_fjson(TH_BH_PROG, p->addr, 0);
	else
		fprintf(fp, "null");
	if (p)
		by = th_bpf_prog_held_by(p, hk_bpf.l, hk_bpf.nl, &orphan);
	fprintf(fp, ", \"held_by\": ");
	if (by)
		th_json_fputs(by, strlen(by), fp);
	else
		fprintf(fp, "null");
	fprintf(fp, ", \"no_process\": %s}", !by ? "null" :
		orphan ? "true" : "false");
}

static void hk_bpf_link(const struct th_bpf_link *l)
{
	const struct th_bpf_prog *p = hk_bpf_prog(l->prog);
	struct hk_finding *f = hk_new("bpf");
	char at[320];

	switch (l->kind) {
	case TH_BL_RAW_TP:
		/* a BTF-typed raw tracepoint (tp_btf: a tracing program of
		 * attach type trace_raw_tp) is attached as a raw one */
		f->target = l->tp;
		snprintf(f->target_str, sizeof(f->target_str), "%s %s",
			 p && !strcmp(p->attach_type_str, "trace_raw_tp") ?
			 "tp_btf" : "raw_tracepoint", l->tp_name);
		break;
	case TH_BL_TRACING:
		f->target = l->target;
		snprintf(f->target_str, sizeof(f->target_str), "%s %s",
			 l->attach_type_str,
			 th_ksym_pS(l->target, at, sizeof(at)));
		break;
	case TH_BL_PERF:
		f->target = l->perf_addr;
		if (l->perf_addr)
			snprintf(f->target_str, sizeof(f->target_str), "%s %s",
				 l->perf_type,
				 th_ksym_pS(l->perf_addr, at, sizeof(at)));
		else if (l->perf_tu)
			/* a uprobe: its file and offset */
			th_bpf_attach_str(l, f->target_str,
					  sizeof(f->target_str));
		else
			snprintf(f->target_str, sizeof(f->target_str), "%s %s",
				 l->perf_type[0] ? l->perf_type : "perf_event",
				 l->tp_name);
		break;
	case TH_BL_KPROBE_MULTI:
		f->target = l->multi[0];
		th_bpf_attach_str(l, f->target_str, sizeof(f->target_str));
		break;
	case TH_BL_UPROBE_MULTI:
		f->target = l->multi[0];
		th_bpf_attach_str(l, f->target_str, sizeof(f->target_str));
		break;
	default:
		snprintf(f->target_str, sizeof(f->target_str), "link %u %s",
			 l->id, l->type_str);
	}
	f->handler = p ? p->image : 0;
	th_ksym_pS_any(f->handler, f->handler_str, sizeof(f->handler_str));
	f->owner.kind = TH_OWN_UNKNOWN;
	if (p)
		snprintf(f->owner_str, sizeof(f->owner_str),
			 "BPF prog %u %s", p->id, p->name);
	else
		snprintf(f->owner_str, sizeof(f->owner_str), "BPF prog %u",
			 l->prog_id);
	hk_bpf_judge(f, l, "runs");
	f->bpf_link = l;
	hk_bpf_holders(f, l, p);
}

/* Whether OP hooks the function at FN: its ftrace site is FN, or on IBT
 * kernels FN+4, behind the endbr64 the function starts with (where
 * ftrace_location() puts it). */
static int hk_ops_hooks_fn(const struct thf_ops *op, ulong fn)
{
	unsigned char b[4];

	if (!fn)
		return FALSE;
	if (thf_ops_contains(op, fn))
		return TRUE;
	return th_text_read(fn, b, sizeof(b), "function text") &&
		insn_is_endbr(b, sizeof(b)) && thf_ops_contains(op, fn + 4);
}

/* Whether OP is the fprobe of the kprobe_multi link L: the ftrace_ops in
 * its fprobe (before v6.14), or since then one of the ftrace_ops every
 * fprobe shares (fprobe_ftrace_entry()'s, fprobe_graph_ops's) hooking one
 * of L's functions. */
static int hk_bpf_fprobe_ops(const struct th_bpf_link *l,
			     const struct thf_ops *op)
{
	struct th_sym s;
	unsigned int i;

	if (l->fprobe_ops)
		return op->addr == l->fprobe_ops;
	if (!((th_ksym_lookup(op->func, &s) && !strncmp(s.name, "fprobe", 6))
	      || (th_ksym_lookup(op->addr, &s) &&
		  !strcmp(s.name, "fprobe_graph_ops"))))
		return FALSE;
	for (i = 0; i < l->multi_cnt && i < TH_BPF_MULTI; i++)
		if (hk_ops_hooks_fn(op, l->multi[i]))
			return TRUE;
	return FALSE;
}

/* The core findings BPF runs through: a kprobe of a perf link (by address
 * and kind), a raw tracepoint's __bpf_trace_* probe, a syscall or other
 * tracepoint's perf probe (by the event's name), the direct ops of a
 * trampoline (by the traced function), the fprobe of a kprobe_multi link
 * (its ftrace_ops). */
static int hk_bpf_runs(const struct hk_finding *f, const struct th_bpf_link *l,
		       const struct thf_ops *op)
{
	struct th_sym s;
	size_t n;

	switch (l->kind) {
	case TH_BL_RAW_TP:
		return !strcmp(f->kind, "tracepoint") && f->handler == l->tp_probe;
	case TH_BL_TRACING:
		return op && hk_ops_hooks_fn(op, l->target) &&
			(op->flags & thf_ops_flag("DIRECT"));
	case TH_BL_KPROBE_MULTI:
		return op && hk_bpf_fprobe_ops(l, op);
	case TH_BL_PERF:
		break;
	default:
		return FALSE;
	}
	if (l->perf_addr)
		return f->target == l->perf_addr && !strcmp(f->kind, l->perf_type);
	if (strcmp(f->kind, "tracepoint") || !l->tp_name[0] ||
	    !th_ksym_lookup(f->handler, &s))
		return FALSE;
	/* sys_enter_NAME runs through sys_enter's perf_syscall_enter */
	n = strlen(f->target_str);
	if (!strncmp(l->tp_name, "sys_", 4) && n > 4 &&
	    !strncmp(l->tp_name, f->target_str, n) && l->tp_name[n] == '_')
		return !strncmp(s.name, "perf_syscall_", 13);
	return !strcmp(f->target_str, l->tp_name) &&
		!strncmp(s.name, "perf_trace_", 11);
}

/* Whether F runs a BPF program (then judged by it). */
static int hk_bpf_rejudge(struct hk_finding *f, const struct thf_ops *op)
{
	int found = FALSE;
	long i;

	for (i = 0; i < hk_bpf.nl; i++)
		if (hk_bpf_runs(f, &hk_bpf.l[i], op)) {
			hk_bpf_judge(f, &hk_bpf.l[i], "runs");
			found = TRUE;
		}
	return found;
}

static void hk_bpf_findings(void)
{
	long i;

	for (i = 0; i < hk_n; i++)
		if (strcmp(hk_f[i].kind, "ftrace_ops"))
			hk_bpf_rejudge(&hk_f[i], NULL);
	for (i = 0; i < hk_bpf.nl; i++)
		hk_bpf_link(&hk_bpf.l[i]);
}

/* ------------------------------------------------------------ kprobes --- */

/* The trace event built on the kprobe KP, "" when none. */
static void hk_kprobe_event(ulong kp, const ulong *tks, long ntk, char *ev,
			    size_t len)
{
	char g[64], nm[128];
	long j;

	for (j = 0; j < ntk; j++)
		if (th_tk_kprobe(tks[j]) == kp) {
			th_tk_names(tks[j], g, sizeof(g), nm, sizeof(nm));
			snprintf(ev, len, "trace event %s/%s", g, nm);
		}
}

static void hk_kprobe(struct kp_probe *k, const ulong *tks, long ntk)
{
	char type = th_kprobe_type(k);
	struct hk_finding *f = hk_new(type == 'r' ? "kretprobe" :
				      type == 'j' ? "jprobe" : "kprobe");
	struct th_kretprobe r;
	struct th_owner o;
	int krp = type == 'r' && th_kretprobe_of(k->kp, &r);
	ulong h = k->pre;
	char ev[256] = "";
	const char *what = type == 'r' ? "the return handler" :
			   type == 'j' ? "the jprobe entry" : "the pre handler";

	f->target = k->addr;
	th_ksym_pS_any(k->addr, f->target_str, sizeof(f->target_str));
	if (krp && !r.handler && r.entry_handler) {
		/* legal: the kernel calls each handler only if set, and
		 * this kretprobe's code is its entry handler */
		h = r.entry_handler;
		what = "the entry handler (no return handler)";
	} else if (krp)
		h = r.handler;
	else if (type == 'j')
		/* The pre handler of a jprobe is always the core's
		 * setjmp_pre_handler: the probe's code is jprobe.entry. */
		th_jprobe_entry(k->kp, &h);
	hk_kprobe_event(k->kp, tks, ntk, ev, sizeof(ev));
	hk_judge(f, h, what);
	if (ev[0] && f->verdict == HK_OK)
		snprintf(f->why, sizeof(f->why), "%s (kprobe_events)", ev);
	if (k->post) {
		th_owner_of(k->post, &o);
		if (o.kind == TH_OWN_HIDDEN)
			hk_judge(f, k->post, "the post handler");
	}
	if (krp && r.entry_handler) {
		th_owner_of(r.entry_handler, &o);
		if (o.kind == TH_OWN_HIDDEN)
			hk_judge(f, r.entry_handler, "the entry handler");
	}
	hk_judge_struct(f, k->kp, "struct kprobe");
}

static void hk_kprobes(void)
{
	struct kp_probe *v = NULL;
	ulong *tks = NULL;
	long n, i, ntk;

	if (!th_kprobes_init())
		return;
	n = th_kprobes_collect(&v);
	ntk = th_trace_kprobes(&tks);
	for (i = 0; i < n; i++)
		hk_kprobe(&v[i], tks, ntk);
	free(v);
	free(tks);
}

/* --------------------------------------------------------- ftrace ops --- */

static void hk_ftrace(void)
{
	struct thf_state *s = thf_load();
	char flags[160];
	int i;
	long r, nsites;

	if (!s)
		return;
	for (i = 0; i < s->nops; i++) {
		struct thf_ops *op = &s->ops[i];
		struct hk_finding *f;

		/* an fprobe event's own ops: its fprobe_event finding */
		if (hk_fprobe_event_ops(op))
			continue;
		f = hk_new("ftrace_ops");

		f->target = op->addr;
		nsites = 0;
		for (r = 0; r < s->nrec; r++)
			if (!thf_hash_empty(&op->filter) &&
			    thf_ops_contains(op, s->rec[r].ip))
				nsites++;
		thf_ops_flags_str(op->flags, flags, sizeof(flags));
		if (thf_hash_empty(&op->filter))
			snprintf(f->target_str, sizeof(f->target_str),
				 "ops %lx: all functions", op->addr);
		else
			snprintf(f->target_str, sizeof(f->target_str),
				 "ops %lx: %ld functions", op->addr, nsites);
		hk_judge(f, op->func, "the ops callback");
		hk_judge_struct(f, op->addr, "struct ftrace_ops");
		snprintf(f->why + strlen(f->why),
			 sizeof(f->why) - strlen(f->why),
			 "; flags %s", flags);
		/* a trampoline's direct ops: its sites are the "bpf"
		 * findings of the tracing links */
		if (hk_bpf_rejudge(f, op) || hk_direct_ops(f, s, op) ||
		    f->verdict == HK_OK || thf_hash_empty(&op->filter))
			continue;
		/* the sites a module's or a hidden ops patches, one by one */
		for (r = 0; r < s->nrec; r++) {
			struct hk_finding *g;

			if (!thf_ops_contains(op, s->rec[r].ip))
				continue;
			g = hk_new("ftrace_site");
			g->target = s->rec[r].ip;
			th_ksym_pS_any(s->rec[r].ip, g->target_str,
				       sizeof(g->target_str));
			hk_judge(g, op->func, "the ops callback");
			hk_judge_struct(g, op->addr, "struct ftrace_ops");
			snprintf(g->why + strlen(g->why),
				 sizeof(g->why) - strlen(g->why),
				 "; site hooked by ops %lx", op->addr);
		}
	}
	thf_warn_damage(s);
}

/* -------------------------------------------------------- tracepoints --- */

static void hk_tracepoint_probe(ulong tp, const char *name, ulong fn,
				void *arg)
{
	struct hk_finding *f = hk_new("tracepoint");

	f->target = tp;
	snprintf(f->target_str, sizeof(f->target_str), "%s",
		 name[0] ? name : "?");
	hk_judge(f, fn, "the probe");
}

/* --------------------------------------------------------------- text --- */

static void hk_text_cb(const struct th_text_finding *t, void *arg)
{
	struct hk_finding *f = hk_new("text");

	f->target = t->addr;
	snprintf(f->target_str, sizeof(f->target_str), "%s+0x%lx",
		 t->func_name, t->addr - t->func);
	f->handler = 0;
	snprintf(f->handler_str, sizeof(f->handler_str), "%s", t->decoded_mem);
	f->owner.kind = TH_OWN_CORE;
	snprintf(f->owner_str, sizeof(f->owner_str), "core");
	f->verdict = HK_SUSPICIOUS;
	snprintf(f->why, sizeof(f->why), "%s (on disk: %s)", t->why,
		 t->decoded_disk);
	f->nbytes = t->len < 16 ? t->len : 16;
	memcpy(f->bytes, t->mem, f->nbytes);
}

/* ------------------------------------------------------------ missing --- */

/*
 * The hook mechanisms this kernel does not have at all, for one line of
 * output: on a kernel without kprobes or ftrace an empty table must not
 * read as "checked, nothing found".  Each is named by the symbol the
 * vmlinux lacks and the option that defines it.
 */
static void hk_missing(char *buf, size_t len)
{
	static const struct {
		const char *what, *sym, *config;
	} m[] = {
		{ "kprobes", "kprobe_table", "CONFIG_KPROBES" },
		{ "ftrace", "ftrace_ops_list", "CONFIG_FUNCTION_TRACER" },
		{ "tracepoints", "__start___tracepoints_ptrs",
		  "CONFIG_TRACEPOINTS" },
		{ "hardware breakpoints", "bp_per_reg",
		  "CONFIG_HAVE_HW_BREAKPOINT" },
		{ "netfilter hooks", "nf_hook_slow", "CONFIG_NETFILTER" },
	};
	const char *why;
	size_t n = 0, i;

	buf[0] = '\0';
	for (i = 0; i < sizeof(m) / sizeof(m[0]) && n < len; i++)
		if (!th_symbol(m[i].sym))
			n += snprintf(buf + n, len - n, "%s%s (no %s: kernel "
				      "built without %s)", n ? ", " : "",
				      m[i].what, m[i].sym, m[i].config);
	/* there, but in a form no reader here knows */
	if (n < len && th_symbol("nf_hook_slow") && !th_nf_ok(&why))
		n += snprintf(buf + n, len - n, "%snetfilter hooks (no %s)",
			      n ? ", " : "", why);
	if (n < len && th_netdev_missing(&why))
		snprintf(buf + n, len - n, "%s%s", n ? ", " : "", why);
}

/* --------------------------------------------------------------- output --- */

/* a JSON string: the one escaping of every -j document (render/json.c) */
static void hk_json_str(const char *s)
{
	th_json_fputs(s, strlen(s), fp);
}

/* hooks -j: what the walks printed (a damaged dump's "tracehunt: warning:"
 * lines) goes into summary.warnings, so the output stays one JSON document */
#define HK_NWARN 32
static char hk_warn[HK_NWARN][256];
static int hk_nwarn;

/* Take the lines in crash's tmpfile: warnings to hk_warn, the first other
 * line to NOTE (when NOTE is given; else every line is a warning). */
static void hk_take_tmpfile(char *note, size_t notesz)
{
	const size_t plen = strlen(TH_WARN_PREFIX);
	char line[256];
	int warned;

	rewind(pc->tmpfile);
	while (fgets(line, sizeof(line), pc->tmpfile)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0])
			continue;
		warned = !strncmp(line, TH_WARN_PREFIX, plen);
		if (note && !note[0] && !warned)
			snprintf(note, notesz, "%s", line);
		else if (hk_nwarn < HK_NWARN)
			/* without the prefix, as every -j document's
			 * warnings (render/json.c) */
			snprintf(hk_warn[hk_nwarn++], sizeof(hk_warn[0]), "%s",
				 warned ? line + plen : line);
	}
}

static void hk_print_json(long *count, struct th_text_stats *ts, int text_ok,
			  const char *text_note, const char *missing)
{
	long i;
	int k;

	/* "schema" and "command" as every -j document (render/json.h) */
	fprintf(fp, "{\"schema\": %d, \"tracehunt\": \"%s\", \"command\": "
		"\"hooks\", \"findings\": [", TH_JSON_SCHEMA, TH_VERSION);
	for (i = 0; i < hk_n; i++) {
		struct hk_finding *f = &hk_f[i];

		fprintf(fp, "%s\n  {\"kind\": ", i ? "," : "");
		hk_json_str(f->kind);
		fprintf(fp, ", \"target\": ");
		hk_json_str(f->target_str);
		fprintf(fp, ", \"target_addr\": \"0x%lx\", \"handler\": ",
			f->target);
		hk_json_str(f->handler_str);
		fprintf(fp, ", \"handler_addr\": \"0x%lx\", \"owner\": ",
			f->handler);
		hk_json_str(f->owner_str);
		fprintf(fp, ", \"owner_module\": ");
		if (f->owner.module[0])
			hk_json_str(f->owner.module);
		else
			fprintf(fp, "null");
		fprintf(fp, ", \"vmap\": ");
		if (f->owner.kind == TH_OWN_HIDDEN && f->owner.have_vmap)
			fprintf(fp,
				"{\"start\": \"0x%lx\", \"end\": \"0x%lx\", "
				"\"caller\": \"0x%lx\"}", f->owner.vmap.start,
				f->owner.vmap.end, f->owner.vmap.caller);
		else
			fprintf(fp, "null");
		fprintf(fp, ", \"verdict\": ");
		hk_json_str(hk_vname[f->verdict]);
		fprintf(fp, ", \"why\": ");
		hk_json_str(f->why);
		fprintf(fp, ", \"bytes\": ");
		if (f->nbytes) {
			fputc('"', fp);
			for (k = 0; k < f->nbytes; k++)
				fprintf(fp, "%02x", f->bytes[k]);
			fputc('"', fp);
		} else {
			fprintf(fp, "null");
		}
		hk_bpf_json(f);
		fputc('}', fp);
	}
	fprintf(fp, "\n], \"summary\": {");
	for (k = 0; k < HK_NVERDICT; k++)
		fprintf(fp, "%s\"%s\": %ld", k ? ", " : "", hk_vname[k],
			count[k]);
	fprintf(fp, ", \"total\": %ld, \"text_functions_checked\": %ld, "
		"\"text_checked\": %s, \"text_note\": ", hk_n,
		text_ok ? ts->compared : 0, text_ok ? "true" : "false");
	if (text_note[0])
		hk_json_str(text_note);
	else
		fprintf(fp, "null");
	fprintf(fp, ", \"not_checked\": ");
	if (missing[0])
		hk_json_str(missing);
	else
		fprintf(fp, "null");
	/* the warnings in the summary, and where every -j document has
	 * them: at the top */
	for (i = 0; i < 2; i++) {
		fprintf(fp, "%s\"warnings\": [", i ? "}, " : ", ");
		for (k = 0; k < hk_nwarn; k++) {
			fprintf(fp, "%s", k ? ", " : "");
			hk_json_str(hk_warn[k]);
		}
		fputc(']', fp);
	}
	fprintf(fp, "}\n");
}

static const char hk_dmg_mark[] = " [rests on damaged data]";

/* A finding named from a module's symbol table that failed a check (a
 * name cut or moved: model/modules.c) says so, whatever its verdict. */
static void hk_mark_names(void)
{
	long i;

	for (i = 0; i < hk_n; i++) {
		struct hk_finding *f = &hk_f[i];

		if (!(f->handler && th_module_names_damaged(f->handler)) &&
		    !(f->target && th_module_names_damaged(f->target)))
			continue;
		if (!strstr(f->owner_str, hk_dmg_mark) &&
		    strlen(f->owner_str) + sizeof(hk_dmg_mark) <=
		    sizeof(f->owner_str))
			strcat(f->owner_str, hk_dmg_mark);
		if (strlen(f->why) + 96 < sizeof(f->why))
			strcat(f->why, "; named from a module symbol table "
			       "that failed a check (warnings)");
	}
}

/* Every finding: the hooks, then the text check (*TEXT_OK when it ran). */
static void hk_collect(int json, struct th_text_stats *ts, int *text_ok,
		       char *text_note, size_t notesz)
{
	free(hk_f);
	hk_f = NULL;
	hk_n = hk_cap = 0;
	hk_nwarn = 0;
	/* keep the JSON clean: warnings and a "not checked" line go into it */
	if (json)
		open_tmpfile();
	hk_bpf_load();
	hk_kprobes();
	hk_ftrace();
	th_tracepoint_probes(hk_tracepoint_probe, NULL);
	hk_bpf_findings();
	hk_uprobes();
	hk_fprobes();
	hk_modules();
	hk_hw_breakpoints();
	hk_netfilter();
	hk_bpf_net();
	hk_bpf_unattached();
	/* (any warning it gives goes where the walks' went) */
	hk_mark_names();
	if (json) {
		hk_take_tmpfile(NULL, 0);
		close_tmpfile();
	}
	memset(ts, 0, sizeof(*ts));
	text_note[0] = '\0';
	if (json) {
		open_tmpfile();
		*text_ok = th_text_check(hk_text_cb, NULL, ts) == 0;
		hk_take_tmpfile(text_note, notesz);
		close_tmpfile();
	} else {
		*text_ok = th_text_check(hk_text_cb, NULL, ts) == 0;
	}
}

/* A HIDDEN or suspicious verdict reached while the dump failed
 * plausibility checks (the warnings) says it may rest on damaged data. */
static void hk_mark_damaged(void)
{
	const char *mark = hk_dmg_mark;
	long i;

	if (!th_damage_seen())
		return;
	for (i = 0; i < hk_n; i++) {
		struct hk_finding *f = &hk_f[i];

		if (f->verdict != HK_HIDDEN && f->verdict != HK_SUSPICIOUS)
			continue;
		if (!strstr(f->owner_str, mark) &&
		    strlen(f->owner_str) + sizeof(hk_dmg_mark) <=
		    sizeof(f->owner_str))
			strcat(f->owner_str, mark);
		if (strlen(f->why) + 64 < sizeof(f->why))
			strcat(f->why, "; the dump failed plausibility checks "
			       "(warnings)");
	}
}

/* The table, the text check's summary and the counts. */
static void hk_print_table(int verbose, long *count,
			   struct th_text_stats *ts, int text_ok,
			   const char *missing)
{
	long i;
	int k;

	fprintf(fp, "%-10s  %-11s  %-36s  %-40s  %s\n", "VERDICT", "KIND",
		"TARGET", "HANDLER", "OWNER");
	for (i = 0; i < hk_n; i++) {
		struct hk_finding *f = &hk_f[i];

		fprintf(fp, "%-10s  %-11s  %-36s  %-40s  %s\n",
			hk_vname[f->verdict], f->kind, f->target_str,
			f->handler_str, f->owner_str);
		if (verbose) {
			fprintf(fp, "            why: %s\n", f->why);
			if (f->nbytes) {
				fprintf(fp, "            bytes:");
				for (k = 0; k < f->nbytes; k++)
					fprintf(fp, " %02x", f->bytes[k]);
				fprintf(fp, "\n");
			}
		}
	}
	if (text_ok) {
		fprintf(fp, "text: %ld core functions compared with the "
			"vmlinux on disk; module text has no file to compare "
			"with and is checked through its ftrace records and "
			"kprobes only\n", ts->compared);
		if (verbose) {
			fprintf(fp,
				"text: %ld differ from the file, explained by",
				ts->differing);
			for (k = 0; k < TH_TX_NKINDS; k++)
				if (ts->explained_kind[k])
					fprintf(fp, " %s %ld",
						th_text_kind_name(k),
						ts->explained_kind[k]);
			fprintf(fp, "; %ld unexplained\n", ts->unexplained);
		}
	}
	if (missing[0])
		fprintf(fp, "hooks: not in this kernel, not checked: %s\n",
			missing);
	fprintf(fp, "hooks: %ld findings: ok %ld, note %ld, suspicious %ld, "
		"HIDDEN %ld\n", hk_n, count[HK_OK], count[HK_NOTE],
		count[HK_SUSPICIOUS], count[HK_HIDDEN]);
}

/**
 * th_hooks - the "hooks" command once its options are read
 * @verbose: -v, why each verdict, and the text check's explanations
 * @json: -j, one JSON document
 */
void th_hooks(int verbose, int json)
{
	char text_note[256], missing[512];
	long i, count[HK_NVERDICT] = { 0 };
	struct th_text_stats ts;
	int text_ok;

	hk_collect(json, &ts, &text_ok, text_note, sizeof(text_note));
	hk_mark_damaged();
	for (i = 0; i < hk_n; i++)
		count[hk_f[i].verdict]++;
	hk_missing(missing, sizeof(missing));
	if (json)
		hk_print_json(count, &ts, text_ok, text_note, missing);
	else
		hk_print_table(verbose, count, &ts, text_ok, missing);
}
