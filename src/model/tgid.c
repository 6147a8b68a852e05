/*
 * tracehunt: trace_find_tgid(): tgid_map[pid], an int array the kernel
 * allocates when record-tgid is first set.  Its bound: tgid_map_max
 * (pid_max) since Linux kernel commit 4030a6e6a6a4 ("tracing: Resize
 * tgid_map to pid_max, not PID_MAX_DEFAULT") (in v5.14, in 5.10 stable
 * too), PID_MAX_DEFAULT before.  The only file that reads them.
 */
#include "model/tgid.h"

#define TH_PID_MAX_DEFAULT	0x8000
#define TH_PID_MAX_LIMIT	(1UL << 22)	/* on 64 bits */

static struct {
	int done;
	ulong map;
	ulong max;
} th_tgid;

static void th_tgid_load(void)
{
	ulong sym = th_ksymbol("tgid_map"), msym;

	th_tgid.done = TRUE;
	if (!sym || !th_read_ulong(sym, &th_tgid.map, "tgid_map"))
		return;
	msym = th_ksymbol("tgid_map_max");
	if (!msym)
		th_tgid.max = TH_PID_MAX_DEFAULT;
	else if (!th_read_ulong(msym, &th_tgid.max, "tgid_map_max"))
		th_tgid.map = 0;
}

int th_find_tgid(int pid)
{
	int tgid;

	if (!th_tgid.done)
		th_tgid_load();
	if (!th_tgid.map || pid < 0 || (ulong)pid > th_tgid.max)
		return 0;
	if (!th_read_int(th_tgid.map + (ulong)pid * sizeof(int), &tgid,
			 "tgid_map[]"))
		return 0;
	return tgid;
}

/**
 * th_tgid_each - every pid whose tgid_map entry is set, in pid order
 * (saved_tgids_start()/_next(): pids 0 to the map's bound)
 * @fn: called with the pid and its tgid
 * @arg: passed to @fn
 *
 * Return: FALSE when the map cannot be read; TRUE with nothing given when
 * the kernel never allocated it (record-tgid never set).
 */
int th_tgid_each(void (*fn)(int pid, int tgid, void *), void *arg)
{
	int *map;
	ulong pid;

	if (!th_tgid.done)
		th_tgid_load();
	if (!th_tgid.map)
		return TRUE;
	if (!th_check_count("tgid_map", th_tgid.map, th_tgid.max,
			    TH_PID_MAX_LIMIT, "tgid_map_max"))
		return FALSE;
	map = malloc((th_tgid.max + 1) * sizeof(int));
	if (!map || !th_read(th_tgid.map, map, (th_tgid.max + 1) * sizeof(int),
			     "tgid_map[]")) {
		free(map);
		return FALSE;
	}
	for (pid = 0; pid <= th_tgid.max; pid++)
		if (map[pid])
			fn((int)pid, map[pid], arg);
	free(map);
	return TRUE;
}

/**
 * th_tgid_known - whether the kernel has a tgid_map
 */
int th_tgid_known(void)
{
	return th_ksymbol("tgid_map") != 0;
}
