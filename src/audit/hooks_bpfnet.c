/*
 * tracehunt: BPF on the network path in "hooks", and the programs no
 * finding runs.  A network device runs its XDP programs (one per mode:
 * generic, driver, offload) on every packet it receives and its tcx
 * programs (v6.6) on every packet in and out; netlink and
 * BPF_PROG_ATTACH attach them without a link, so that after its loader
 * exits only the device holds them (model/netdev.c).  Each is a "bpf"
 * finding judged by its program; one attached through a link gives that
 * link's finding its TARGET.  Then every program of prog_idr that no
 * finding runs is a finding of its own: attached where no reader looks
 * (a tc filter, a cgroup, a socket, a struct_ops map, another program's
 * tail calls) or only loaded, it is shown rather than missed.
 */
#include "audit/hooks_priv.h"
#include "model/netdev.h"
#include "render/ebpf_report.h"

/* F's holders after its why: who holds its program P (BY before it),
 * and when no process holds it or its links, that its loader is gone */
static void hb_holders(struct hk_finding *f, const struct th_bpf_prog *p,
		       const char *by)
{
	char ph[384];
	size_t o = strlen(f->why);
	int orphan = FALSE;

	if (!p)
		return;
	th_bpf_held_str(TH_BH_PROG, p->addr, 0, ph, sizeof(ph));
	if (!ph[0])
		return;
	if (!th_bpf_prog_held_by(p, hk_bpf_link_nth(0), hk_bpf_nlinks(),
				 &orphan))
		orphan = FALSE;
	if (o < sizeof(f->why))
		snprintf(f->why + o, sizeof(f->why) - o, "; %sthe program "
			 "held by %s%s", by ? by : "", ph, orphan ? "; no "
			 "process holds it or its links" : "");
}

void hk_bpf_not_in_idr(struct hk_finding *f, ulong prog)
{
	if (hk_bpf_prog(prog) || f->verdict >= HK_SUSPICIOUS)
		return;
	/* a struct bpf_prog that no id names: not loaded through bpf(),
	 * or taken off prog_idr */
	f->verdict = HK_SUSPICIOUS;
	snprintf(f->why + strlen(f->why), sizeof(f->why) - strlen(f->why),
		 "; %lx is no program of prog_idr", prog);
}

/* The program the device runs (model/netdev.c): a finding of its own,
 * or the TARGET of the finding of the link it came with. */
static void hb_attached(const struct th_netdev_prog *d)
{
	const struct th_bpf_prog *p = hk_bpf_prog(d->prog);
	struct hk_finding *f = d->link ? hk_bpf_link_finding(d->link) : NULL;
	char via[192], ns[48];

	if (!d->init_net)
		snprintf(ns, sizeof(ns), " (net namespace %u)", d->inum);
	else
		ns[0] = '\0';
	if (f && !d->written) {
		/* the link's own finding: where it attaches */
		f->target = d->dev;
		snprintf(f->target_str, sizeof(f->target_str), "%s%s",
			 d->where, ns);
		return;
	}
	f = hk_new("bpf");
	f->target = d->dev;
	snprintf(f->target_str, sizeof(f->target_str), "%s%s", d->where, ns);
	f->handler = p ? p->image : d->prog;
	th_ksym_pS_any(f->handler, f->handler_str, sizeof(f->handler_str));
	f->owner.kind = TH_OWN_UNKNOWN;
	if (p)
		snprintf(f->owner_str, sizeof(f->owner_str), "BPF prog %u %s",
			 p->id, p->name);
	else
		snprintf(f->owner_str, sizeof(f->owner_str), "BPF prog ?");
	if (d->link)
		snprintf(via, sizeof(via), "the device %s and a link at %lx "
			 "that link_idr does not hold", d->name, d->link);
	else
		snprintf(via, sizeof(via), "the device %s without a link "
			 "(attached through netlink or BPF_PROG_ATTACH)",
			 d->name);
	hk_bpf_judge_via(f, d->prog, 0, via, "runs");
	f->bpf_prog = p;
	hk_bpf_not_in_idr(f, d->prog);
	if (d->written && f->verdict < HK_SUSPICIOUS) {
		f->verdict = HK_SUSPICIOUS;
		snprintf(f->why + strlen(f->why),
			 sizeof(f->why) - strlen(f->why), "; "
			 "net_device.xdp_prog is not the program its xdp_state "
			 "records (%lx): it was written in place", d->recorded);
	}
	hb_holders(f, p, "the device holds the program; ");
}

void hk_bpf_net(void)
{
	struct th_netdev_prog *d;
	long n = th_netdev_progs(&d), i;

	for (i = 0; i < n; i++)
		hb_attached(&d[i]);
	free(d);
}

void hk_bpf_unattached(void)
{
	long i, n = hk_bpf_nprogs();
	int seen;

	for (i = 0; i < n; i++) {
		const struct th_bpf_prog *p = hk_bpf_prog_nth(i, &seen);
		struct hk_finding *f;

		if (!p || seen)
			continue;
		f = hk_new("bpf");
		f->target = p->addr;
		snprintf(f->target_str, sizeof(f->target_str),
			 "no attachment found (%s program)", p->type_str);
		f->handler = p->image;
		th_ksym_pS_any(f->handler, f->handler_str,
			       sizeof(f->handler_str));
		f->owner.kind = TH_OWN_UNKNOWN;
		snprintf(f->owner_str, sizeof(f->owner_str), "BPF prog %u %s",
			 p->id, p->name);
		hk_bpf_judge_via(f, p->addr, p->id, "no link, perf event, "
				 "device or netfilter hook: attached where no "
				 "reader looks (a tc filter, a cgroup, a "
				 "socket, a struct_ops map, another program's "
				 "tail calls) or only loaded", "holds");
		f->bpf_prog = p;
		hb_holders(f, p, NULL);
	}
}
