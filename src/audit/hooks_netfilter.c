/*
 * tracehunt: the "netfilter" findings of "hooks": one per function a
 * netfilter hook point runs on every packet (model/netfilter.c), in every
 * network namespace, judged by its owner: a module's (nf_conntrack,
 * iptable_filter, a backdoor waiting for its magic packet) is a note, an
 * unlinked module's HIDDEN.  The function an entry calls is copied from
 * the struct nf_hook_ops it was registered with and never changed: one
 * that differs was written in place, which no registration does.
 * A BPF netfilter link (v6.4) registers nf_hook_run_bpf() with its
 * program as the entry's priv: that entry is judged by the program, and
 * the link's "bpf" finding takes the hook point as its TARGET.
 */
#include "audit/hooks_priv.h"
#include "model/netfilter.h"

/* The entry H (finding F) runs the BPF program at its priv. */
static void hk_nf_bpf(struct hk_finding *f, const struct th_nf_hook *h)
{
	const struct th_bpf_link *l = NULL;
	struct hk_finding *lf;
	long i, n = hk_bpf_nlinks();

	for (i = 0; i < n; i++) {
		l = hk_bpf_link_nth(i);
		if (!l->no_link && l->prog == h->priv &&
		    !strcmp(l->type_str, "netfilter"))
			break;
	}
	if (i == n) {
		hk_bpf_judge_via(f, h->priv, 0, "a netfilter hook no link "
				 "of link_idr registered", "runs");
		hk_bpf_not_in_idr(f, h->priv);
		return;
	}
	hk_bpf_judge(f, l, "runs");
	lf = hk_bpf_link_finding(l->addr);
	if (lf) {
		lf->target = h->ops;
		snprintf(lf->target_str, sizeof(lf->target_str),
			 "netfilter %.300s", f->target_str);
	}
}

void hk_netfilter(void)
{
	struct th_nf_hook *v;
	long n = th_nf_hooks(&v), i;
	char prio[24], ns[48], ops_fn[192];
	/* (static in net/netfilter/nf_bpf_link.c: Linux kernel commit
	 * 84601d6ee68a ("bpf: add bpf_link support for BPF_NETFILTER
	 * programs"), in v6.4) */
	ulong run_bpf = n > 0 ? th_symbol("nf_hook_run_bpf") : 0;

	for (i = 0; i < n; i++) {
		const struct th_nf_hook *h = &v[i];
		struct hk_finding *f = hk_new("netfilter");
		size_t w;

		f->target = h->ops;
		if (h->ops_hook)
			snprintf(prio, sizeof(prio), "priority %d",
				 h->priority);
		else
			snprintf(prio, sizeof(prio), "priority ?");
		if (!h->init_net)
			snprintf(ns, sizeof(ns), " (net namespace %u)",
				 h->inum);
		else
			ns[0] = '\0';
		if (h->dev[0])
			snprintf(f->target_str, sizeof(f->target_str),
				 "netdev %s %s %s%s", h->dev, h->point, prio,
				 ns);
		else
			snprintf(f->target_str, sizeof(f->target_str),
				 "%s %s %s%s", h->family, h->point, prio, ns);
		hk_judge(f, h->hook, "the hook function");
		if (h->ops_hook && h->ops_hook != h->hook &&
		    f->verdict < HK_SUSPICIOUS) {
			th_ksym_pS_any(h->ops_hook, ops_fn, sizeof(ops_fn));
			f->verdict = HK_SUSPICIOUS;
			snprintf(f->why, sizeof(f->why), "the hook function "
				 "is not its nf_hook_ops %lx's (%s): the entry "
				 "was written after it was registered",
				 h->ops, ops_fn);
		}
		if (h->ops)
			hk_judge_struct(f, h->ops, "its nf_hook_ops");
		if (run_bpf && h->hook == run_bpf && h->priv)
			hk_nf_bpf(f, h);
		w = strlen(f->why);
		if (w < sizeof(f->why))
			snprintf(f->why + w, sizeof(f->why) - w,
				 "; entry %d of nf_hook_entries %lx, "
				 "nf_hook_ops %lx", h->index, h->entries,
				 h->ops);
	}
	free(v);
}
