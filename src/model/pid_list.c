/*
 * tracehunt: struct trace_pid_list, the pid lists of set_ftrace_pid,
 * set_ftrace_notrace_pid, set_event_pid and set_event_notrace_pid.  Two
 * layouts: a bitmap of pid_max bits (pid_max, pids) before, and since
 * Linux kernel commit 8d6e90983ade ("tracing: Create a sparse bitmask for
 * pid filtering") (in v5.16) a tree: upper[256] -> upper_chunk.data[256]
 * -> lower_chunk.data (16384 bits), a pid being upper1 (8 bits), upper2
 * (8 bits) and lower (14 bits).  The only file that reads them.
 */
#include "model/model.h"
#include "model/pid_list.h"

#define TH_UPPER_SIZE	256
#define TH_LOWER_BITS	14
#define TH_LOWER_LONGS	((1 << TH_LOWER_BITS) / (8 * sizeof(ulong)))
#define TH_PID_MAX_BITS	(1 << 22)	/* PID_MAX_LIMIT on 64 bits */

static struct {
	int read;
	long upper, pid_max, pids;
} plo;

static void th_pid_list_off(void)
{
	if (plo.read)
		return;
	plo.read = TRUE;
	plo.upper = th_member("trace_pid_list", "upper");
	plo.pid_max = th_member("trace_pid_list", "pid_max");
	plo.pids = th_member("trace_pid_list", "pids");
}

/* The set bits of the NLONGS words at WORDS, BASE the pid of bit 0. */
static void th_pid_bits(const ulong *words, ulong nlongs, ulong base,
			void (*fn)(ulong pid, void *), void *arg)
{
	ulong i, b;

	for (i = 0; i < nlongs; i++)
		for (b = 0; words[i] && b < 8 * sizeof(ulong); b++)
			if (words[i] & (1UL << b))
				fn(base + i * 8 * sizeof(ulong) + b, arg);
}

/* The sparse tree: trace_pid_list_first()/_next() in pid order. */
static int th_pid_tree(ulong list, void (*fn)(ulong pid, void *), void *arg)
{
	ulong upper[TH_UPPER_SIZE], mid[TH_UPPER_SIZE];
	ulong lower[TH_LOWER_LONGS];
	int u1, u2;

	if (!th_read(list + plo.upper, upper, sizeof(upper),
		     "trace_pid_list.upper"))
		return FALSE;
	for (u1 = 0; u1 < TH_UPPER_SIZE; u1++) {
		if (!upper[u1])
			continue;
		if (!th_read(upper[u1], mid, sizeof(mid), "upper_chunk.data"))
			return FALSE;
		for (u2 = 0; u2 < TH_UPPER_SIZE; u2++) {
			if (!mid[u2])
				continue;
			if (!th_read(mid[u2], lower, sizeof(lower),
				     "lower_chunk.data"))
				return FALSE;
			th_pid_bits(lower, TH_LOWER_LONGS,
				    ((ulong)u1 << (TH_LOWER_BITS + 8)) |
				    ((ulong)u2 << TH_LOWER_BITS), fn, arg);
		}
	}
	return TRUE;
}

/* The bitmap of pid_max bits. */
static int th_pid_bitmap(ulong list, void (*fn)(ulong pid, void *), void *arg)
{
	ulong pids, nlongs, *words;
	int pid_max;

	if (!th_read_int(list + plo.pid_max, &pid_max,
			 "trace_pid_list.pid_max") ||
	    !th_read_ulong(list + plo.pids, &pids, "trace_pid_list.pids") ||
	    !th_check_count("trace_pid_list", list, pid_max, TH_PID_MAX_BITS,
			    "pid_max"))
		return FALSE;
	nlongs = ((ulong)pid_max + 8 * sizeof(ulong) - 1) / (8 * sizeof(ulong));
	words = malloc(nlongs * sizeof(ulong) + 1);
	if (!words || !th_read(pids, words, nlongs * sizeof(ulong),
			       "trace_pid_list.pids")) {
		free(words);
		return FALSE;
	}
	/* the bits past pid_max are never set */
	th_pid_bits(words, nlongs, 0, fn, arg);
	free(words);
	return TRUE;
}

/**
 * th_pid_list_each - the pids of a struct trace_pid_list, in increasing
 * order (trace_pid_start()/trace_pid_next())
 * @list: the struct trace_pid_list
 * @fn: called with each pid
 * @arg: passed to @fn
 *
 * Return: FALSE when the layout is not known or the list cannot be read
 * (the pids before the failure were given).
 */
int th_pid_list_each(ulong list, void (*fn)(ulong pid, void *), void *arg)
{
	th_pid_list_off();
	if (plo.upper >= 0)
		return th_pid_tree(list, fn, arg);
	if (plo.pid_max >= 0 && plo.pids >= 0)
		return th_pid_bitmap(list, fn, arg);
	return FALSE;
}

/**
 * th_pid_list_known - whether the dump's debuginfo has a pid list layout
 * tracehunt reads
 */
int th_pid_list_known(void)
{
	th_pid_list_off();
	return plo.upper >= 0 || (plo.pid_max >= 0 && plo.pids >= 0);
}

/**
 * th_ftrace_pids_old - set_ftrace_pid before the trace_array pid lists:
 * 3.10's ftrace.c keeps a list ftrace_pids of struct ftrace_pid { list,
 * struct pid *pid }, fpid_show() printing "swapper tasks" for the
 * swapper's (ftrace_swapper_pid, &init_struct_pid) and pid_vnr() of the
 * others (their number at level 0: the dump's reader is in the initial
 * namespace)
 * @fn: called with each pid's number, -1 for the swapper tasks
 * @arg: its argument
 *
 * Return: the pids walked, -1 when the kernel has no such list.
 */
long th_ftrace_pids_old(void (*fn)(long pid, void *), void *arg)
{
	ulong head = th_symbol("ftrace_pids"), swapper;
	long o_pid = th_member("ftrace_pid", "pid");
	long o_list = th_member("ftrace_pid", "list");
	long o_num = th_member("pid", "numbers"), o_nr = th_member("upid", "nr");
	struct th_walk w;
	ulong pid;
	int nr;
	long i;

	if (!head || o_pid < 0 || o_list < 0 || o_num < 0 || o_nr < 0)
		return -1;
	swapper = th_symbol("init_struct_pid");
	th_list_walk(head, 1L << 16, &w);
	for (i = 0; i < w.n; i++) {
		ulong fp_ = w.ent[i] - o_list;

		if (!th_read_ulong(fp_ + o_pid, &pid, "ftrace_pid.pid"))
			continue;
		if (pid == swapper)
			fn(-1, arg);
		else if (th_read_int(pid + o_num + o_nr, &nr, "upid.nr"))
			fn(nr, arg);
	}
	if (w.err)
		th_warn("ftrace_pids: %s at %lx", w.err, w.bad);
	i = w.n;
	th_walk_free(&w);
	return i;
}
