/* tracehunt: kprobes walk shared by kprobes.c and hooks.c */
#ifndef TRACEHUNT_KPROBES_H
#define TRACEHUNT_KPROBES_H

struct kp_probe {
	ulong kp;		/* struct kprobe */
	ulong parent;		/* aggregate kprobe, or 0 */
	ulong addr;
	ulong pre, post, fault;
	unsigned int flags, pflags;	/* own flags, the site's flags */
	ulong nmissed;
	int bucket;
};

int th_kprobes_init(void);
/* What the dump lacks when th_kprobes_init() fails. */
const char *th_kprobes_missing(void);
/* Every probe of kprobe_table, aggregate children expanded, in the order
 * kprobes/list prints them; *out is malloc'd. */
long th_kprobes_collect(struct kp_probe **out);
/* 'k', 'r' or 'j' */
char th_kprobe_type(struct kp_probe *k);

#endif
