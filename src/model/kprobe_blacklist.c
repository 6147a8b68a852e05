/*
 * tracehunt: the model's one reader of kprobe_blacklist, the functions
 * kprobes refuses to probe (struct kprobe_blacklist_entry): debugfs'
 * kprobes/blacklist; and what report_probe()'s code says of a
 * kprobes/list line.
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

/* Whether report_probe() prints a probe at an address kallsyms_lookup()
 * has no symbol for (a module that unlinked itself) as 3.10's does, "%p
 * %s  %p ": the address again, 16 hex digits; the later one prints it
 * with "%pS", "0x" and the address where there is no symbol.  Told by the
 * format strings the code loads (report_probe(), or show_kprobe_addr()
 * where it was inlined). */
static int th_kplist_nosym_bare(void)
{
	static int known = -1;
	char str[16][TH_CODE_STR];
	int i, n;

	if (known >= 0)
		return known;
	known = 0;
	n = th_code_strings("report_probe", 512, str, 16);
	if (n <= 0)
		n = th_code_strings("show_kprobe_addr", 1024, str, 16);
	for (i = 0; i < n; i++)
		if (strcmp(str[i], "%p  %s  %p ") == 0)
			known = 1;
	return known;
}

/**
 * th_kplist_nosym - what kprobes/list prints in place of "sym+0xoff  mod"
 * for a probe at ADDR, which has no symbol
 * @addr: the probe's address
 * @buf: the text
 * @len: room in @buf
 *
 * Return: @buf.
 */
char *th_kplist_nosym(ulong addr, char *buf, size_t len)
{
	if (th_kplist_nosym_bare())
		snprintf(buf, len, "%016lx", addr);
	else
		th_ksym_pS(addr, buf, len);
	return buf;
}
