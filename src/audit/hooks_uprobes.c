/*
 * tracehunt: the "uprobe" findings of "hooks": one per uprobe of the
 * kernel's uprobes tree, a breakpoint in every process that maps its file
 * at its offset.  Its consumers are named with their owners: a tracefs
 * uprobe event (uprobe_events), a BPF program (on a perf uprobe or a
 * uprobe_multi link, named with its link), a perf uprobe without a
 * program, or code the handler's address says whose (a module, hidden
 * memory).  A uprobe is never ok: user code is diverted into the kernel
 * whoever asked; note at best, suspicious for a program calling a helper
 * that writes user memory, overrides a return value or sends a signal (or
 * a handler in no known place), HIDDEN for a handler or consumer in
 * memory no listed module covers.
 */
#include "audit/hooks_priv.h"
#include "model/uprobes.h"
#include "model/trace_uprobe.h"

/* What one consumer adds to its uprobe's finding. */
struct hu_who {
	char why[512];			/* "trace event G/N (uprobe_events)" */
	char owner[256];		/* "event G/N", "BPF prog 5 NAME" */
	enum hk_verdict verdict;
	struct th_owner o;		/* a handler's owner (other code) */
};

static void hu_bpf(struct hu_who *w, const struct th_bpf_link *l,
		   const char *via_event)
{
	const struct th_bpf_prog *p = hk_bpf_prog(l->prog);
	const char *bad = hk_bpf_bad_helper(p);
	char via[128];

	hk_bpf_via(l, via, sizeof(via));
	if (p)
		snprintf(w->why, sizeof(w->why), "BPF program %u %s (%s, tag "
			 "%s) through %s%s%s%s%s", p->id, p->name, p->type_str,
			 p->tag_hex, via_event, via_event[0] ? ", " : "", via,
			 bad ? "; it calls " : "", bad ? bad : "");
	else
		snprintf(w->why, sizeof(w->why), "BPF program %u through %s%s%s",
			 l->prog_id, via_event, via_event[0] ? ", " : "", via);
	snprintf(w->owner, sizeof(w->owner), "BPF prog %u %s", l->prog_id,
		 p ? p->name : "");
	w->verdict = bad ? HK_SUSPICIOUS : HK_NOTE;
}

/* A trace_uprobe's consumer: the tracefs event (one of TUS), and the BPF
 * program a perf event of it carries, if any (a perf uprobe of BPF's
 * own is on no list). */
static void hu_trace(struct hu_who *w, const struct th_uconsumer *c,
		     const ulong *tus, long ntu)
{
	char g[64], n[128], ev[256] = "";
	int ret = th_tu_is_ret(c->tu);
	long i;

	for (i = 0; i < ntu; i++)
		if (tus[i] == c->tu) {
			th_tu_names(c->tu, g, sizeof(g), n, sizeof(n));
			snprintf(ev, sizeof(ev), "trace event %s/%s (%s, "
				 "uprobe_events)", g, n,
				 ret ? "uretprobe" : "uprobe");
			break;
		}
	for (i = 0; i < hk_bpf_nlinks(); i++) {
		const struct th_bpf_link *l = hk_bpf_link_nth(i);

		if (l->kind == TH_BL_PERF && l->perf_tu == c->tu) {
			hu_bpf(w, l, ev);
			return;
		}
	}
	if (ev[0]) {
		snprintf(w->why, sizeof(w->why), "%s", ev);
		snprintf(w->owner, sizeof(w->owner), "event %s/%s", g, n);
	} else {
		snprintf(w->why, sizeof(w->why), "a perf %s (perf_event_open) "
			 "carrying no BPF program", ret ? "uretprobe" :
			 "uprobe");
		snprintf(w->owner, sizeof(w->owner), "perf");
	}
	w->verdict = HK_NOTE;
}

/* Code the consumer's handler (else its ret_handler) says whose. */
static void hu_other(struct hu_who *w, const struct th_uconsumer *c)
{
	ulong h = c->handler ? c->handler : c->ret_handler;
	char sym[192], own[160];

	th_owner_of(h, &w->o);
	th_owner_str(&w->o, own, sizeof(own));
	th_ksym_pS(h, sym, sizeof(sym));
	snprintf(w->owner, sizeof(w->owner), "%s", own);
	switch (w->o.kind) {
	case TH_OWN_CORE:
	case TH_OWN_MODULE:
		w->verdict = HK_NOTE;
		snprintf(w->why, sizeof(w->why), "handler %s (%s)", sym, own);
		break;
	case TH_OWN_HIDDEN:
		w->verdict = HK_HIDDEN;
		snprintf(w->why, sizeof(w->why), "handler %s in memory no "
			 "listed module covers (%s)", sym, own);
		break;
	default:
		w->verdict = HK_SUSPICIOUS;
		snprintf(w->why, sizeof(w->why), "handler %s in no kernel "
			 "text, module or vmalloc area", sym);
	}
}

static void hu_consumer(struct hu_who *w, const struct th_uconsumer *c,
			const ulong *tus, long ntu)
{
	long i;

	memset(w, 0, sizeof(*w));
	if (c->kind == TH_UC_TRACE && c->tu) {
		hu_trace(w, c, tus, ntu);
		return;
	}
	if (c->kind == TH_UC_MULTI)
		for (i = 0; i < hk_bpf_nlinks(); i++)
			if (hk_bpf_link_nth(i)->addr == c->link && c->link) {
				hu_bpf(w, hk_bpf_link_nth(i), "");
				return;
			}
	hu_other(w, c);
}

/* Append TEXT to BUF (LEN bytes) after SEP when BUF is not empty; what
 * does not fit is cut. */
static void hu_cat(char *buf, size_t len, const char *sep, const char *text)
{
	size_t o = strlen(buf);

	if (o && o + 1 < len)
		o += th_strlcpy(buf + o, sep, len - o);
	if (o + 1 < len)
		th_strlcpy(buf + o, text, len - o);
}

static void hu_uprobe(const struct th_uprobe *u, const ulong *tus, long ntu)
{
	struct hk_finding *f = hk_new("uprobe");
	const struct th_uconsumer *c0 = u->nuc ? &u->uc[0] : NULL;
	struct hu_who w;
	char head[128];
	int i;

	f->target = u->offset;
	if (u->path_ok)
		snprintf(f->target_str, sizeof(f->target_str), "%.280s:%#llx",
			 u->path, (unsigned long long)u->offset);
	else
		snprintf(f->target_str, sizeof(f->target_str), "inode %lx "
			 "(%.240s):%#llx", u->inode, u->path[0] ? u->path : "?",
			 (unsigned long long)u->offset);
	if (u->ref_ctr_offset)
		hu_cat(f->target_str, sizeof(f->target_str), "", "(ref_ctr)");
	f->handler = c0 ? (c0->handler ? c0->handler : c0->ret_handler) : 0;
	th_ksym_pS_any(f->handler, f->handler_str, sizeof(f->handler_str));
	f->owner.kind = TH_OWN_UNKNOWN;
	f->verdict = HK_NOTE;
	snprintf(f->why, sizeof(f->why), "uprobe %lx on %s, %d consumer%s",
		 u->addr, u->sid[0] ? u->sid : "?", u->nuc,
		 u->nuc == 1 ? "" : "s");
	if (u->ref_ctr_offset) {
		snprintf(head, sizeof(head), ", reference counter at %#llx",
			 (unsigned long long)u->ref_ctr_offset);
		hu_cat(f->why, sizeof(f->why), "", head);
	}
	for (i = 0; i < u->nuc; i++) {
		hu_consumer(&w, &u->uc[i], tus, ntu);
		snprintf(head, sizeof(head), "%s%d. ", i ? "; " : ": ", i + 1);
		hu_cat(f->why, sizeof(f->why), "", head);
		hu_cat(f->why, sizeof(f->why), "", w.why);
		hu_cat(f->owner_str, sizeof(f->owner_str), ", ", w.owner);
		/* the owner of a handler found by its address: the first
		 * such, or the one that made the verdict worse */
		if (w.o.kind != TH_OWN_NONE &&
		    (f->owner.kind == TH_OWN_UNKNOWN || w.verdict > f->verdict))
			f->owner = w.o;
		if (w.verdict > f->verdict)
			f->verdict = w.verdict;
		hk_judge_struct(f, u->uc[i].addr, "struct uprobe_consumer");
	}
	if (u->err)
		hu_cat(f->why, sizeof(f->why), "; ", u->err);
	if (!f->owner_str[0])
		snprintf(f->owner_str, sizeof(f->owner_str), "no consumer");
}

/**
 * hk_uprobes - a "uprobe" finding per uprobe of uprobes_tree
 */
void hk_uprobes(void)
{
	struct th_uprobe *v;
	ulong *tus = NULL;
	long n, ntu, i;

	n = th_uprobes(&v);
	if (n <= 0) {
		free(v);
		return;
	}
	ntu = th_trace_uprobes(&tus);
	for (i = 0; i < n; i++)
		hu_uprobe(&v[i], tus, ntu);
	free(tus);
	free(v);
}
