/*
 * tracehunt: the netfilter hooks of every network namespace
 * (model/netfilter.c): each family's hook points (net->nf.hooks_ipv4[],
 * hooks_ipv6[], hooks_arp[], hooks_bridge[]) and each device's ingress and
 * egress, the functions every packet through them runs in priority order,
 * and the struct nf_hook_ops each was registered with.
 */
#ifndef TRACEHUNT_MODEL_NETFILTER_H
#define TRACEHUNT_MODEL_NETFILTER_H

#include "model/model.h"

#pragma GCC visibility push(hidden)

#define TH_NF_ENTRIES	1024	/* a hook point's functions (MAX_HOOK_COUNT) */

struct th_nf_hook {
	ulong net;			/* struct net */
	unsigned int inum;		/* its ns.inum (0: unreadable) */
	int init_net;			/* it is init_net */
	const char *family;		/* ipv4 ipv6 arp bridge netdev */
	const char *point;		/* LOCAL_IN ..., ingress, egress */
	char dev[16];			/* netdev: the device's name */
	ulong entries;			/* struct nf_hook_entries */
	int index;			/* the function's place in it */
	ulong hook, priv;		/* nf_hook_entry */
	ulong ops;			/* its orig_ops (0: unreadable) */
	ulong ops_hook;			/* the ops' hook (0: unreadable) */
	int priority;			/* the ops' (valid when ops_hook) */
};

/* FALSE when the dump has no netfilter hooks this reader knows; *WHY
 * then names what it lacks. */
int th_nf_ok(const char **why);
/* Every hook function of every namespace, namespace by namespace, family
 * by family, in the order packets run them; -1 when th_nf_ok() fails.
 * *OUT is malloc'd.  A damaged list or array is said as damage and what
 * was read before it is returned. */
long th_nf_hooks(struct th_nf_hook **out);

#pragma GCC visibility pop

#endif
