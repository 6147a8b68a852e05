/*
 * tracehunt: the model's one reader of the network namespaces and their
 * devices: net_namespace_list, each struct net's list of devices, each
 * struct net_device's name, netfilter hook points, XDP programs
 * and tcx entries, and a tcx entry's struct bpf_mprog_entry.
 */
#include "model/netdev.h"

#define TH_TCX_MAX	64	/* a tcx entry's programs (BPF_MPROG_MAX) */

static const char *const nd_xdp_mode_name[TH_XDP_MODES] = {
	"generic", "driver", "offload",
};

static struct {
	int filled;
	ulong ns_list;			/* net_namespace_list */
	ulong init_net;
	long net_list, net_inum, net_devs;	/* in struct net */
	long dev_list, dev_name;		/* in struct net_device */
	long dev_nf_in, dev_nf_out;
	long dev_xdp_prog, dev_xdp_state, xdp_nstate, ent_size;
	long ent_prog, ent_link;	/* in struct bpf_xdp_entity */
	long dev_tcx_in, dev_tcx_out;
	long mp_fp, mp_parent, mp_fp_size, mp_cp_size;	/* bpf_mprog_entry */
	long bd_cp;				/* in bpf_mprog_bundle */
	long fp_prog, cp_link;
} nd;

static void nd_fill(void)
{
	long size;

	if (nd.filled)
		return;
	nd.filled = 1;
	nd.ns_list = th_symbol("net_namespace_list");
	nd.init_net = th_symbol("init_net");
	nd.net_list = th_member("net", "list");
	nd.net_inum = th_member_path("net", "ns.inum");
	nd.net_devs = th_member("net", "dev_base_head");
	nd.dev_list = th_member("net_device", "dev_list");
	nd.dev_name = th_member("net_device", "name");
	nd.dev_nf_in = th_member("net_device", "nf_hooks_ingress");
	/* the egress hook: Linux kernel commit 42df6e1d221d ("netfilter:
	 * Introduce egress hook") (in v5.16) */
	nd.dev_nf_out = th_member("net_device", "nf_hooks_egress");
	/* generic XDP as it runs */
	nd.dev_xdp_prog = th_member("net_device", "xdp_prog");
	/* every mode's program and link: Linux kernel commit 7f0a838254bd
	 * ("bpf, xdp: Maintain info on attached XDP BPF programs in
	 * net_device") (in v5.9) */
	nd.dev_xdp_state = th_member("net_device", "xdp_state");
	nd.ent_size = th_size("bpf_xdp_entity");
	nd.ent_prog = th_member("bpf_xdp_entity", "prog");
	nd.ent_link = th_member("bpf_xdp_entity", "link");
	size = th_member_size("net_device", "xdp_state");
	nd.xdp_nstate = nd.ent_size > 0 && size > 0 ? size / nd.ent_size : 0;
	if (nd.xdp_nstate > TH_XDP_MODES)
		nd.xdp_nstate = TH_XDP_MODES;
	/* tcx: Linux kernel commit e420bed02507 ("bpf: Add fd-based tcx
	 * multi-prog infra with link support") (in v6.6) */
	nd.dev_tcx_in = th_member("net_device", "tcx_ingress");
	nd.dev_tcx_out = th_member("net_device", "tcx_egress");
	/* the programs in the entry packets run, their links in the bundle
	 * of the entry's two copies (Linux kernel commit 053c8e1f235d
	 * ("bpf: Add generic attach/detach/query API for multi-progs"), in
	 * v6.6) */
	nd.mp_fp = th_member("bpf_mprog_entry", "fp_items");
	nd.mp_parent = th_member("bpf_mprog_entry", "parent");
	nd.bd_cp = th_member("bpf_mprog_bundle", "cp_items");
	nd.mp_fp_size = th_size("bpf_mprog_fp");
	nd.mp_cp_size = th_size("bpf_mprog_cp");
	nd.fp_prog = th_member("bpf_mprog_fp", "prog");
	nd.cp_link = th_member("bpf_mprog_cp", "link");
}

int th_netns_ok(const char **why)
{
	nd_fill();
	if (!nd.ns_list || nd.net_list < 0) {
		*why = "net_namespace_list";
		return FALSE;
	}
	return TRUE;
}

long th_netns_list(struct th_netns **out)
{
	struct th_netns *v;
	struct th_walk w;
	const char *why;
	long i;

	*out = NULL;
	if (!th_netns_ok(&why))
		return -1;
	th_list_walk(nd.ns_list, TH_NETNS_MAX, &w);
	if (w.err)
		th_damaged("net_namespace_list", w.bad ? w.bad : nd.ns_list,
			   "%s", w.err);
	v = calloc(w.n ? w.n : 1, sizeof(*v));
	if (!v) {
		th_walk_free(&w);
		return 0;
	}
	for (i = 0; i < w.n; i++) {
		v[i].net = w.ent[i] - nd.net_list;
		v[i].init_net = v[i].net == nd.init_net;
		if (nd.net_inum < 0 ||
		    !th_read_uint(v[i].net + nd.net_inum, &v[i].inum,
				  "net.ns.inum"))
			v[i].inum = 0;
	}
	th_walk_free(&w);
	*out = v;
	return i;
}

/* Whether the kernel has XDP's per-mode bookkeeping (v5.9) */
static int nd_has_xdp_state(void)
{
	nd_fill();
	return nd.dev_xdp_state >= 0 && nd.xdp_nstate > 0 &&
	       nd.ent_prog >= 0 && nd.ent_link >= 0;
}

/* and tcx (v6.6): what nd_device() can fill */
static int nd_has_tcx(void)
{
	nd_fill();
	return nd.dev_tcx_in >= 0 && nd.mp_fp >= 0 && nd.mp_parent >= 0 &&
	       nd.bd_cp >= 0 &&
	       nd.mp_fp_size > 0 && nd.mp_cp_size > 0 && nd.fp_prog >= 0 &&
	       nd.cp_link >= 0;
}

int th_netdev_missing(const char **why)
{
	nd_fill();
	if (nd.dev_xdp_prog >= 0 && !nd_has_xdp_state()) {
		/* before v5.9 a driver kept its own */
		*why = "driver and offload XDP programs (no "
		       "net_device.xdp_state: the drivers hold them)";
		return TRUE;
	}
	return FALSE;
}

/* *P = the pointer at DEV + OFF (0 when the kernel has no such member or
 * it cannot be read) */
static void nd_ptr(ulong dev, long off, ulong *p, const char *what)
{
	*p = 0;
	if (off >= 0 && !th_read_ulong(dev + off, p, what))
		*p = 0;
}

static void nd_device(struct th_netdev *d, ulong dev)
{
	int m;

	memset(d, 0, sizeof(*d));
	d->dev = dev;
	if (!th_read_cstr(dev + nd.dev_name, d->name, sizeof(d->name),
			  "net_device.name"))
		snprintf(d->name, sizeof(d->name), "?");
	d->nf_ingress = nd.dev_nf_in >= 0 ? dev + nd.dev_nf_in : 0;
	d->nf_egress = nd.dev_nf_out >= 0 ? dev + nd.dev_nf_out : 0;
	nd_ptr(dev, nd.dev_xdp_prog, &d->xdp_running, "net_device.xdp_prog");
	if (nd_has_xdp_state())
		for (m = 0; m < nd.xdp_nstate; m++) {
			ulong e = dev + nd.dev_xdp_state + m * nd.ent_size;

			nd_ptr(e, nd.ent_prog, &d->xdp_prog[m],
			       "bpf_xdp_entity.prog");
			nd_ptr(e, nd.ent_link, &d->xdp_link[m],
			       "bpf_xdp_entity.link");
		}
	else
		/* before v5.9 the generic program is all a dump tells */
		d->xdp_prog[TH_XDP_GENERIC] = d->xdp_running;
	if (nd_has_tcx()) {
		nd_ptr(dev, nd.dev_tcx_in, &d->tcx[0], "net_device.tcx_ingress");
		nd_ptr(dev, nd.dev_tcx_out, &d->tcx[1], "net_device.tcx_egress");
	}
}

long th_netdevs(ulong net, struct th_netdev **out)
{
	struct th_netdev *v;
	struct th_walk w;
	long i;

	*out = NULL;
	nd_fill();
	if (nd.net_devs < 0 || nd.dev_list < 0 || nd.dev_name < 0)
		return 0;
	th_list_walk(net + nd.net_devs, TH_NETDEV_MAX, &w);
	if (w.err)
		th_damaged("net.dev_base_head", w.bad ? w.bad : net, "%s",
			   w.err);
	v = calloc(w.n ? w.n : 1, sizeof(*v));
	if (!v) {
		th_walk_free(&w);
		return 0;
	}
	for (i = 0; i < w.n; i++)
		nd_device(&v[i], w.ent[i] - nd.dev_list);
	th_walk_free(&w);
	*out = v;
	return i;
}

/* The programs of the tcx struct bpf_mprog_entry ENTRY in the order
 * packets run them, with the link each came with (0: attached without
 * one), at most MAX; their number, -1 when ENTRY cannot be read. */
static int nd_tcx_progs(ulong entry, ulong *progs, ulong *links, int max)
{
	unsigned char *fp, *cp;
	ulong bundle;
	int n = -1;

	if (!nd_has_tcx() || !entry)
		return -1;
	if (max > TH_TCX_MAX)
		max = TH_TCX_MAX;
	fp = malloc(max * nd.mp_fp_size);
	cp = malloc(max * nd.mp_cp_size);
	if (!fp || !cp)
		goto out;
	if (!th_read(entry + nd.mp_fp, fp, max * nd.mp_fp_size,
		     "bpf_mprog_entry.fp_items") ||
	    !th_read_ulong(entry + nd.mp_parent, &bundle,
			   "bpf_mprog_entry.parent")) {
		th_damaged("bpf_mprog_entry", entry, "cannot be read");
		goto out;
	}
	if (!bundle || !th_read(bundle + nd.bd_cp, cp, max * nd.mp_cp_size,
				"bpf_mprog_bundle.cp_items"))
		/* the programs are known, their links not */
		memset(cp, 0, max * nd.mp_cp_size);
	/* bpf_mprog_total(): the programs up to the first empty slot */
	for (n = 0; n < max; n++) {
		memcpy(&progs[n], fp + n * nd.mp_fp_size + nd.fp_prog,
		       sizeof(ulong));
		if (!progs[n])
			break;
		memcpy(&links[n], cp + n * nd.mp_cp_size + nd.cp_link,
		       sizeof(ulong));
	}
out:
	free(fp);
	free(cp);
	return n;
}

struct nd_progs {
	struct th_netdev_prog *v;
	long n, cap;
};

static struct th_netdev_prog *nd_prog_add(struct nd_progs *s,
					  const struct th_netns *ns,
					  const struct th_netdev *d,
					  ulong prog, ulong link)
{
	struct th_netdev_prog *p;

	if (s->n >= s->cap) {
		long cap = s->cap ? s->cap * 2 : 16;
		void *v = realloc(s->v, cap * sizeof(*s->v));

		if (!v)
			return NULL;
		s->v = v;
		s->cap = cap;
	}
	p = &s->v[s->n++];
	memset(p, 0, sizeof(*p));
	p->prog = prog;
	p->link = link;
	p->dev = d->dev;
	memcpy(p->name, d->name, sizeof(p->name));
	p->inum = ns->inum;
	p->init_net = ns->init_net;
	return p;
}

static void nd_dev_progs(struct nd_progs *s, const struct th_netns *ns,
			 const struct th_netdev *d)
{
	static const char *const dir[2] = { "ingress", "egress" };
	ulong progs[TH_TCX_MAX], links[TH_TCX_MAX];
	struct th_netdev_prog *p;
	int m, k, i, n;

	for (m = 0; m < TH_XDP_MODES; m++)
		if (d->xdp_prog[m] &&
		    (p = nd_prog_add(s, ns, d, d->xdp_prog[m], d->xdp_link[m])))
			snprintf(p->where, sizeof(p->where), "xdp %s (%s)",
				 d->name, nd_xdp_mode_name[m]);
	/* generic XDP runs net_device.xdp_prog: one that is not the program
	 * xdp_state records was written in place */
	if (d->xdp_running && d->xdp_running != d->xdp_prog[TH_XDP_GENERIC] &&
	    (p = nd_prog_add(s, ns, d, d->xdp_running, 0))) {
		snprintf(p->where, sizeof(p->where), "xdp %s (generic, as it "
			 "runs)", d->name);
		p->written = TRUE;
		p->recorded = d->xdp_prog[TH_XDP_GENERIC];
	}
	for (k = 0; k < 2; k++) {
		if (!d->tcx[k])
			continue;
		n = nd_tcx_progs(d->tcx[k], progs, links, TH_TCX_MAX);
		for (i = 0; i < n; i++) {
			if (!(p = nd_prog_add(s, ns, d, progs[i], links[i])))
				break;
			if (n > 1)
				snprintf(p->where, sizeof(p->where), "tcx %s %s "
					 "(%d of %d)", d->name, dir[k], i + 1,
					 n);
			else
				snprintf(p->where, sizeof(p->where), "tcx %s %s",
					 d->name, dir[k]);
		}
	}
}

long th_netdev_progs(struct th_netdev_prog **out)
{
	struct nd_progs s;
	struct th_netns *ns;
	struct th_netdev *d;
	long n, i, nd_, j;

	*out = NULL;
	memset(&s, 0, sizeof(s));
	n = th_netns_list(&ns);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		nd_ = th_netdevs(ns[i].net, &d);
		for (j = 0; j < nd_; j++)
			nd_dev_progs(&s, &ns[i], &d[j]);
		free(d);
	}
	free(ns);
	*out = s.v;
	return s.n;
}
