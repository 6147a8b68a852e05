/*
 * tracehunt: an index of a list of items by a pair of names (an event's
 * system and name): the first item of each pair in one probe, where a
 * scan of every item took two strcmp() an item (th_tr_evfile(),
 * th_event_format_find(): a command of an options dump looked one event
 * up among 1,500 twice).  Crash-free, unit-tested.
 */
#ifndef TRACEHUNT_NAMEIDX_H
#define TRACEHUNT_NAMEIDX_H

/* The names of item I of ARG */
typedef void (*ni_names_fn)(const void *arg, int i, const char **a,
			    const char **b);

struct ni_index {
	int *slot;		/* 1 + an item, 0 empty; NULL: not built */
	unsigned mask;
	int n;			/* the items */
};

/*
 * ni_build - index N items of ARG, whose names NAMES gives
 *
 * Return: FALSE without memory (X then has no slots: ni_find() scans).
 */
int ni_build(struct ni_index *x, int n, ni_names_fn names, const void *arg);

/*
 * ni_find - the first item (in ARG's order) named A and B: by the index,
 * or by a scan of X's items when ni_build() had no memory for it
 *
 * Return: its index; -1 when none is.
 */
int ni_find(const struct ni_index *x, const char *a, const char *b,
	    ni_names_fn names, const void *arg);

void ni_free(struct ni_index *x);

#endif
