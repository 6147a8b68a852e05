/*
 * tracehunt: the network namespaces and their devices (model/netdev.c):
 * net_namespace_list, each struct net's devices, and what a device runs
 * on every packet besides the stack: its netfilter ingress and egress
 * hook points, its XDP programs and its tcx programs.
 */
#ifndef TRACEHUNT_MODEL_NETDEV_H
#define TRACEHUNT_MODEL_NETDEV_H

#include "model/model.h"

#pragma GCC visibility push(hidden)

#define TH_NETNS_MAX	4096	/* network namespaces, at most */
#define TH_NETDEV_MAX	65536	/* devices of a namespace, at most */

/* enum bpf_xdp_mode's order: generic (skb), driver, offload */
enum { TH_XDP_GENERIC, TH_XDP_DRIVER, TH_XDP_OFFLOAD, TH_XDP_MODES };

struct th_netns {
	ulong net;			/* struct net */
	unsigned int inum;		/* its ns.inum (0: unreadable) */
	int init_net;			/* it is init_net */
};

struct th_netdev {
	ulong dev;			/* struct net_device */
	char name[16];
	/* where its netfilter hook points' nf_hook_entries pointers are (0:
	 * the kernel has no such hook) */
	ulong nf_ingress, nf_egress;
	/* its XDP programs by mode, and the link each came with (0: none,
	 * attached through netlink or BPF_PROG_ATTACH) */
	ulong xdp_prog[TH_XDP_MODES], xdp_link[TH_XDP_MODES];
	/* generic XDP as it runs (net_device.xdp_prog); xdp_state's
	 * bookkeeping above (v5.9) should name the same program */
	ulong xdp_running;
	/* its tcx ingress and egress struct bpf_mprog_entry (v6.6), 0: none */
	ulong tcx[2];
};

/* FALSE when the dump has no namespace list this reader knows; *WHY
 * then names what it lacks. */
int th_netns_ok(const char **why);
/* Every network namespace; -1 when th_netns_ok() fails.  *OUT is
 * malloc'd.  A damaged list is said as damage and what was read before
 * it is returned. */
long th_netns_list(struct th_netns **out);
/* The devices of the namespace NET; *OUT is malloc'd. */
long th_netdevs(ulong net, struct th_netdev **out);
/* A BPF program a network device runs on its packets: XDP (one per
 * mode) or tcx, in every namespace. */
struct th_netdev_prog {
	ulong prog;			/* struct bpf_prog */
	ulong link;			/* the link it came with, 0: none */
	ulong dev;			/* struct net_device */
	char name[16];			/* the device's */
	unsigned int inum;		/* its namespace's ns.inum */
	int init_net;
	/* "xdp DEV (generic|driver|offload)", "tcx DEV ingress|egress",
	 * "... (I of N)" when a tcx entry runs several */
	char where[64];
	/* generic XDP as it runs (net_device.xdp_prog) while xdp_state
	 * records another program, RECORDED: written in place */
	int written;
	ulong recorded;
};
/* Every program every device runs; -1 when th_netns_ok() fails.  *OUT
 * is malloc'd. */
long th_netdev_progs(struct th_netdev_prog **out);

/* TRUE when the kernel runs device programs this reader cannot find;
 * *WHY then names them and why. */
int th_netdev_missing(const char **why);

#pragma GCC visibility pop

#endif
