/*
 * tracehunt: the "netfilter" findings of "hooks": one per function a
 * netfilter hook point runs on every packet (model/netfilter.c), in every
 * network namespace, judged by its owner: a module's (nf_conntrack,
 * iptable_filter, a backdoor waiting for its magic packet) is a note, an
 * unlinked module's HIDDEN.  The function an entry calls is copied from
 * the struct nf_hook_ops it was registered with and never changed: one
 * that differs was written in place, which no registration does.
 */
#include "audit/hooks_priv.h"
#include "model/netfilter.h"

void hk_netfilter(void)
{
	struct th_nf_hook *v;
	long n = th_nf_hooks(&v), i;
	char prio[24], ns[48], ops_fn[192];

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
		w = strlen(f->why);
		if (w < sizeof(f->why))
			snprintf(f->why + w, sizeof(f->why) - w,
				 "; entry %d of nf_hook_entries %lx, "
				 "nf_hook_ops %lx", h->index, h->entries,
				 h->ops);
	}
	free(v);
}
