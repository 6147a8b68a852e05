/*
 * tracehunt: the model's one reader of the netfilter hooks
 * (net/netfilter/core.c): net_namespace_list, each struct net's netns_nf
 * and devices, and each hook point's struct nf_hook_entries (the functions
 * a packet runs, then the struct nf_hook_ops each came from).
 */
#include "model/netfilter.h"

/* the hook points of the uapi: NF_INET_PRE_ROUTING .. NF_INET_POST_ROUTING
 * (the bridge's NF_BR_* alike) and NF_ARP_IN .. NF_ARP_FORWARD */
static const char *const nf_inet_points[] = {
	"PRE_ROUTING", "LOCAL_IN", "FORWARD", "LOCAL_OUT", "POST_ROUTING",
};
static const char *const nf_arp_points[] = { "IN", "OUT", "FORWARD" };

static const struct {
	const char *name, *member;
	const char *const *points;
	int npoints;
} nf_fams[] = {
	{ "ipv4", "hooks_ipv4", nf_inet_points, 5 },
	{ "ipv6", "hooks_ipv6", nf_inet_points, 5 },
	{ "arp", "hooks_arp", nf_arp_points, 3 },
	{ "bridge", "hooks_bridge", nf_inet_points, 5 },
};
#define NF_NFAMS	(int)(sizeof(nf_fams) / sizeof(nf_fams[0]))

static struct {
	int filled;
	ulong ns_list;			/* net_namespace_list */
	ulong init_net;
	long net_list, net_inum, net_nf, net_devs;	/* in struct net */
	long fam[NF_NFAMS], nfam[NF_NFAMS];	/* in struct netns_nf */
	long ent_num, ent_hooks, ent_size;	/* nf_hook_entries, _entry */
	long e_hook, e_priv;
	long ops_hook, ops_prio;		/* in struct nf_hook_ops */
	long dev_list, dev_name, dev_in, dev_out;	/* in net_device */
} nf;

static void nf_fill(void)
{
	int f;

	if (nf.filled)
		return;
	nf.filled = 1;
	nf.ns_list = th_symbol("net_namespace_list");
	nf.init_net = th_symbol("init_net");
	nf.net_list = th_member("net", "list");
	nf.net_inum = th_member_path("net", "ns.inum");
	nf.net_nf = th_member("net", "nf");
	nf.net_devs = th_member("net", "dev_base_head");
	/* an array of struct nf_hook_entries per family since Linux kernel
	 * commit 960632ece694 ("netfilter: convert hook list to an array")
	 * (in v4.16); lists of nf_hook_ops (nf_hooks[][], net->nf.hooks[][])
	 * before, which this reader does not read */
	for (f = 0; f < NF_NFAMS; f++) {
		long size = th_member_size("netns_nf", nf_fams[f].member);

		nf.fam[f] = th_member("netns_nf", nf_fams[f].member);
		nf.nfam[f] = size > 0 ? size / (long)sizeof(ulong) : 0;
		if (nf.nfam[f] > nf_fams[f].npoints)
			nf.nfam[f] = nf_fams[f].npoints;
	}
	nf.ent_num = th_member("nf_hook_entries", "num_hook_entries");
	nf.ent_hooks = th_member("nf_hook_entries", "hooks");
	nf.ent_size = th_size("nf_hook_entry");
	nf.e_hook = th_member("nf_hook_entry", "hook");
	nf.e_priv = th_member("nf_hook_entry", "priv");
	nf.ops_hook = th_member("nf_hook_ops", "hook");
	nf.ops_prio = th_member("nf_hook_ops", "priority");
	nf.dev_list = th_member("net_device", "dev_list");
	nf.dev_name = th_member("net_device", "name");
	nf.dev_in = th_member("net_device", "nf_hooks_ingress");
	/* the egress hook: Linux kernel commit 42df6e1d221d ("netfilter:
	 * Introduce egress hook") (in v5.16) */
	nf.dev_out = th_member("net_device", "nf_hooks_egress");
}

int th_nf_ok(const char **why)
{
	nf_fill();
	if (th_size("netns_nf") <= 0) {
		*why = "struct netns_nf (a kernel built without "
		       "CONFIG_NETFILTER)";
		return FALSE;
	}
	if (nf.fam[0] < 0 || nf.ent_num < 0 || nf.ent_hooks < 0 ||
	    nf.ent_size <= 0 || nf.e_hook < 0 || nf.e_priv < 0) {
		*why = "netns_nf.hooks_ipv4[] (the hook lists before v4.16 "
		       "are not read)";
		return FALSE;
	}
	if (!nf.ns_list || nf.net_list < 0 || nf.net_nf < 0) {
		*why = "net_namespace_list";
		return FALSE;
	}
	return TRUE;
}

struct nf_state {
	struct th_nf_hook *v;
	long n, cap;
	/* the hook point being read */
	ulong net;
	unsigned int inum;
	const char *family, *point, *dev;
};

static struct th_nf_hook *nf_add(struct nf_state *s)
{
	struct th_nf_hook *h;

	if (s->n >= s->cap) {
		long cap = s->cap ? s->cap * 2 : 64;
		void *p = realloc(s->v, cap * sizeof(*s->v));

		if (!p)
			return NULL;
		s->v = p;
		s->cap = cap;
	}
	h = &s->v[s->n++];
	memset(h, 0, sizeof(*h));
	h->net = s->net;
	h->inum = s->inum;
	h->init_net = s->net == nf.init_net;
	h->family = s->family;
	h->point = s->point;
	if (s->dev)
		th_strlcpy(h->dev, s->dev, sizeof(h->dev));
	return h;
}

/* The hook point whose struct nf_hook_entries pointer is at WHERE. */
static void nf_point(struct nf_state *s, ulong where)
{
	unsigned char *hooks = NULL;
	ulong e, *ops = NULL;
	uint16_t num;
	int i;

	if (!th_read_ulong(where, &e, "nf_hook_entries pointer") || !e)
		return;
	if (!th_check_ptr("netfilter hook point", where, e, TH_M_DATA,
			  "nf_hook_entries"))
		return;
	if (!th_read(e + nf.ent_num, &num, sizeof(num),
		     "nf_hook_entries.num_hook_entries")) {
		th_damaged("nf_hook_entries", e, "cannot be read");
		return;
	}
	if (!th_check_count("nf_hook_entries", e, num, TH_NF_ENTRIES,
			    "num_hook_entries") || !num)
		return;
	hooks = malloc(num * nf.ent_size);
	ops = calloc(num, sizeof(ulong));
	if (!hooks || !ops)
		goto out;
	if (!th_read(e + nf.ent_hooks, hooks, num * nf.ent_size,
		     "nf_hook_entries.hooks")) {
		th_damaged("nf_hook_entries", e, "its %u hooks cannot be read",
			   num);
		goto out;
	}
	/* then orig_ops[num] (nf_hook_entries_get_hook_ops()) */
	if (!th_read(e + nf.ent_hooks + num * nf.ent_size, ops,
		     num * sizeof(ulong), "nf_hook_entries orig_ops"))
		memset(ops, 0, num * sizeof(ulong));
	for (i = 0; i < num; i++) {
		struct th_nf_hook *h = nf_add(s);

		if (!h)
			break;
		h->entries = e;
		h->index = i;
		memcpy(&h->hook, hooks + i * nf.ent_size + nf.e_hook,
		       sizeof(ulong));
		memcpy(&h->priv, hooks + i * nf.ent_size + nf.e_priv,
		       sizeof(ulong));
		h->ops = ops[i];
		if (h->ops && nf.ops_hook >= 0 && nf.ops_prio >= 0 &&
		    th_check_ptr("nf_hook_entries", e, h->ops, TH_M_DATA,
				 "orig_ops") &&
		    (!th_read_ulong(h->ops + nf.ops_hook, &h->ops_hook,
				    "nf_hook_ops.hook") ||
		     !th_read_int(h->ops + nf.ops_prio, &h->priority,
				  "nf_hook_ops.priority")))
			h->ops_hook = 0;
	}
out:
	free(hooks);
	free(ops);
}

/* The ingress and egress hooks of NET's devices. */
static void nf_devices(struct nf_state *s, ulong net)
{
	struct th_walk w;
	char name[16];
	long i;

	if (nf.net_devs < 0 || nf.dev_list < 0 || nf.dev_name < 0 ||
	    (nf.dev_in < 0 && nf.dev_out < 0))
		return;
	th_list_walk(net + nf.net_devs, TH_NF_DEVS, &w);
	if (w.err)
		th_damaged("net.dev_base_head", w.bad ? w.bad : net, "%s",
			   w.err);
	for (i = 0; i < w.n; i++) {
		ulong dev = w.ent[i] - nf.dev_list;

		if (!th_read_cstr(dev + nf.dev_name, name, sizeof(name),
				  "net_device.name"))
			snprintf(name, sizeof(name), "?");
		s->family = "netdev";
		s->dev = name;
		if (nf.dev_in >= 0) {
			s->point = "ingress";
			nf_point(s, dev + nf.dev_in);
		}
		if (nf.dev_out >= 0) {
			s->point = "egress";
			nf_point(s, dev + nf.dev_out);
		}
	}
	s->dev = NULL;
	th_walk_free(&w);
}

long th_nf_hooks(struct th_nf_hook **out)
{
	struct nf_state s;
	struct th_walk w;
	const char *why;
	long i;
	int f, p;

	*out = NULL;
	if (!th_nf_ok(&why))
		return -1;
	memset(&s, 0, sizeof(s));
	th_list_walk(nf.ns_list, TH_NF_NETS, &w);
	if (w.err)
		th_damaged("net_namespace_list", w.bad ? w.bad : nf.ns_list,
			   "%s", w.err);
	for (i = 0; i < w.n; i++) {
		ulong net = w.ent[i] - nf.net_list;

		s.net = net;
		if (nf.net_inum < 0 ||
		    !th_read_uint(net + nf.net_inum, &s.inum, "net.ns.inum"))
			s.inum = 0;
		for (f = 0; f < NF_NFAMS; f++) {
			if (nf.fam[f] < 0)
				continue;
			s.family = nf_fams[f].name;
			for (p = 0; p < nf.nfam[f]; p++) {
				s.point = nf_fams[f].points[p];
				nf_point(&s, net + nf.net_nf + nf.fam[f] +
					 p * sizeof(ulong));
			}
		}
		nf_devices(&s, net);
	}
	th_walk_free(&w);
	*out = s.v;
	return s.n;
}
