/*
 * tracehunt: bounded, cycle-safe walks of linked lists in memory that may
 * be damaged.  Knows nothing of crash: memory is read through a callback,
 * so the walk can be unit-tested on constructed memory.
 */
#ifndef TRACEHUNT_WALK_H
#define TRACEHUNT_WALK_H

#include <stdint.h>

/* Read the pointer stored at ADDR into *VAL; return 0 on failure. */
typedef int (*lw_read_fn)(void *ctx, uint64_t addr, uint64_t *val);
/* Is ADDR a plausible pointer (canonical, right half)? */
typedef int (*lw_valid_fn)(void *ctx, uint64_t addr);

struct lw_result {
	uint64_t *ent;		/* addresses of the list nodes, in order */
	long n;
	const char *err;	/* NULL when the walk reached STOP */
	uint64_t bad;		/* the pointer that ended a damaged walk */
};

/*
 * Follow next pointers (at offset 0 of each node) from START until STOP
 * (the list head for a circular list_head, 0 for an hlist), at most MAX
 * nodes.  A cycle, an invalid or unreadable pointer, or too many nodes end
 * the walk with ERR set; the nodes read before are kept.  ent is malloc'd;
 * free it with lw_free().  Returns 0, or -1 when out of memory.
 */
int lw_walk(uint64_t start, uint64_t stop, long max, lw_read_fn rd,
	    lw_valid_fn valid, void *ctx, struct lw_result *r);
/* The same with the next pointer at NEXT_OFF inside each node. */
int lw_walk_at(uint64_t start, uint64_t stop, long next_off, long max,
	       lw_read_fn rd, lw_valid_fn valid, void *ctx,
	       struct lw_result *r);
/*
 * In-order walk of a binary tree (a kernel rbtree) from the node ROOT (0:
 * an empty tree), each node's child pointers at LEFT_OFF and RIGHT_OFF,
 * at most MAX nodes: ent holds the nodes in order.  A node reached twice
 * (a cycle), an invalid or unreadable pointer, a path deeper than
 * LW_RB_MAX_DEPTH (an rbtree of 2^63 nodes is not as deep) or more than
 * MAX nodes end the walk with ERR set; the nodes listed before are kept.
 * Returns 0, or -1 when out of memory.
 */
#define LW_RB_MAX_DEPTH	128
int lw_rb_walk(uint64_t root, long left_off, long right_off, long max,
	       lw_read_fn rd, lw_valid_fn valid, void *ctx,
	       struct lw_result *r);
void lw_free(struct lw_result *r);

#endif
