/*
 * tracehunt: the model's one reader of kprobe_blacklist, the functions
 * kprobes refuses to probe (struct kprobe_blacklist_entry): debugfs'
 * kprobes/blacklist.
 */
#include "model/kprobes.h"

/**
 * th_kprobe_blacklist - the entries of kprobe_blacklist (struct
 * kprobe_blacklist_entry), in list order
 * @fn: called with each entry's start and end address
 * @arg: passed to @fn
 *
 * Return: their number, -1 when the dump has no blacklist.
 */
long th_kprobe_blacklist(void (*fn)(ulong start, ulong end, void *arg),
			 void *arg)
{
	static long o_list = -2, o_start, o_end;
	ulong head = th_symbol("kprobe_blacklist"), start, end;
	struct th_walk w;
	long i;

	if (o_list == -2) {
		o_list = th_member("kprobe_blacklist_entry", "list");
		o_start = th_member("kprobe_blacklist_entry", "start_addr");
		o_end = th_member("kprobe_blacklist_entry", "end_addr");
	}
	if (!head || o_list < 0 || o_start < 0 || o_end < 0)
		return -1;
	th_list_walk(head, 1000000, &w);
	for (i = 0; i < w.n; i++) {
		if (!th_read_ulong(w.ent[i] - o_list + o_start, &start,
				   "kprobe_blacklist_entry.start_addr") ||
		    !th_read_ulong(w.ent[i] - o_list + o_end, &end,
				   "kprobe_blacklist_entry.end_addr"))
			start = end = 0;
		fn(start, end, arg);
	}
	if (w.err)
		th_warn("kprobe_blacklist: %s at %lx", w.err, w.bad);
	th_walk_free(&w);
	return i;
}
