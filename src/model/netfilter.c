/*
 * tracehunt: the model's one reader of the netfilter hooks
 * (net/netfilter/core.c): each struct net's netns_nf, and each hook
 * point's struct nf_hook_entries (the functions a packet runs, then the
 * struct nf_hook_ops each came from); the namespaces and their devices
 * come from model/netdev.c.
 */
#include "model/netfilter.h"
#include "model/netdev.h"

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
	long net_nf;				/* in struct net */
	long fam[NF_NFAMS], nfam[NF_NFAMS];	/* in struct netns_nf */
	long ent_num, ent_hooks, ent_size;	/* nf_hook_entries, _entry */
	long e_hook, e_priv;
	long ops_hook, ops_prio;		/* in struct nf_hook_ops */
} nf;

static void nf_fill(void)
{
	int f;

	if (nf.filled)
		return;
	nf.filled = 1;
	nf.net_nf = th_member("net", "nf");
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
	if (nf.net_nf < 0) {
		*why = "net.nf";
		return FALSE;
	}
	return th_netns_ok(why);
}

struct nf_state {
	struct th_nf_hook *v;
	long n, cap;
	/* the hook point being read */
	const struct th_netns *ns;
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
	h->net = s->ns->net;
	h->inum = s->ns->inum;
	h->init_net = s->ns->init_net;
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

/* The ingress and egress hooks of the namespace's devices. */
static void nf_devices(struct nf_state *s)
{
	struct th_netdev *d;
	long i, n = th_netdevs(s->ns->net, &d);

	for (i = 0; i < n; i++) {
		s->family = "netdev";
		s->dev = d[i].name;
		if (d[i].nf_ingress) {
			s->point = "ingress";
			nf_point(s, d[i].nf_ingress);
		}
		if (d[i].nf_egress) {
			s->point = "egress";
			nf_point(s, d[i].nf_egress);
		}
	}
	s->dev = NULL;
	free(d);
}

long th_nf_hooks(struct th_nf_hook **out)
{
	struct nf_state s;
	struct th_netns *ns;
	const char *why;
	long i, n;
	int f, p;

	*out = NULL;
	if (!th_nf_ok(&why))
		return -1;
	memset(&s, 0, sizeof(s));
	n = th_netns_list(&ns);
	for (i = 0; i < n; i++) {
		ulong net = ns[i].net;

		s.ns = &ns[i];
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
		nf_devices(&s);
	}
	free(ns);
	*out = s.v;
	return s.n;
}
