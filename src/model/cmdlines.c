/*
 * tracehunt: the saved command lines (kernel/trace/trace_sched_switch.c
 * and trace.c): *savedcmd, a struct saved_cmdlines_buffer, and
 * __trace_find_cmdline() over it.  The only file that reads them.
 */
#include "model/cmdlines.h"

static struct th_savedcmd th_savedcmd_buf;
static int th_savedcmd_read;

/*
 * The three arrays read whole, once: some 140 KB (PID_MAX_DEFAULT + 1
 * map entries, cmdline_num slots), whatever the trace; a trace of many
 * pids looked each up in the dump, a page read (and on a compressed dump
 * inflated) per miss.  An array that cannot be read whole is read entry
 * by entry as before.
 */
static void *th_savedcmd_read_whole(ulong addr, size_t len, const char *what)
{
	void *p = malloc(len);

	if (p && !th_read(addr, p, len, what)) {
		free(p);
		p = NULL;
	}
	return p;
}

static void th_savedcmd_copy(struct th_savedcmd *c)
{
	if (c->pid_max <= 1 || !c->num || c->num > c->pid_max - 1)
		return;
	c->to_pid_copy = th_savedcmd_read_whole(c->to_pid, c->num *
						sizeof(unsigned int),
						"map_cmdline_to_pid");
	c->pid_map_copy = th_savedcmd_read_whole(c->pid_map, c->pid_max *
						 sizeof(unsigned int),
						 "map_pid_to_cmdline");
	c->comms_copy = th_savedcmd_read_whole(c->comms, (size_t)c->num *
					       TASK_COMM_LEN,
					       "saved_cmdlines");
}

/* trace_save_cmdline() writes both maps together: the slot a pid's entry
 * names holds that pid, whatever became of older pids' entries. */
static void th_savedcmd_cross(const struct th_savedcmd *c)
{
	const unsigned int *to = c->to_pid_copy, *map = c->pid_map_copy;
	unsigned int i, pid;

	if (map) {
		/* an entry names a slot or none (NO_CMDLINE_MAP) */
		for (i = 0; i < (unsigned int)c->pid_max; i++)
			if (map[i] != UINT_MAX && map[i] >= c->num) {
				th_damaged("saved_cmdlines_buffer", c->addr,
					   "map_pid_to_cmdline[%u] is %u, "
					   "beyond cmdline_num %u; printed as "
					   "the kernel would print it", i,
					   map[i], c->num);
				break;
			}
	}
	if (!to || !map)
		return;
	for (i = 0; i < c->num; i++) {
		pid = to[i];
		if (pid == UINT_MAX || !pid)
			continue;
		if (map[pid & (c->pid_max - 2)] != i) {
			th_damaged("saved_cmdlines_buffer", c->addr, "slot %u "
				   "holds pid %u, whose map_pid_to_cmdline "
				   "entry is %u; printed as the kernel would "
				   "print it", i, pid,
				   map[pid & (c->pid_max - 2)]);
			break;
		}
	}
}

/* tracing_resize_saved_cmdlines() keeps cmdline_num within 1 ..
 * PID_MAX_DEFAULT (the map's size less one); the arrays are allocations. */
static void th_savedcmd_check(const struct th_savedcmd *c)
{
	const unsigned mask = TH_M(TH_R_DIRECT) | TH_M(TH_R_VMALLOC) |
		TH_M(TH_R_IMAGE);

	if (c->pid_max > 1)
		th_check_count("saved_cmdlines_buffer", c->addr, c->num,
			       c->pid_max - 1, "cmdline_num");
	th_check_ptr("saved_cmdlines_buffer", c->addr, c->to_pid, mask,
		     "map_cmdline_to_pid");
	th_check_ptr("saved_cmdlines_buffer", c->addr, c->comms, mask,
		     "saved_cmdlines");
	th_savedcmd_cross(c);
}

static void th_savedcmd_load(struct th_savedcmd *c)
{
	ulong sym = th_symbol("savedcmd");
	long o_to = th_member("saved_cmdlines_buffer", "map_cmdline_to_pid");
	long o_num = th_member("saved_cmdlines_buffer", "cmdline_num");
	long o_cmd = th_member("saved_cmdlines_buffer", "saved_cmdlines");
	long o_map = th_member("saved_cmdlines_buffer", "map_pid_to_cmdline");

	memset(c, 0, sizeof(*c));
	c->state = TH_SAVEDCMD_NONE;
	if (!sym || o_to < 0 || o_num < 0 || o_cmd < 0 || o_map < 0)
		return;
	c->state = TH_SAVEDCMD_UNREADABLE;
	/* tracer_alloc_buffers() allocates it at boot */
	if (!th_read_ulong(sym, &c->addr, "savedcmd") || !c->addr ||
	    !th_read_uint(c->addr + o_num, &c->num, "cmdline_num") ||
	    !th_read_ulong(c->addr + o_to, &c->to_pid, "map_cmdline_to_pid")) {
		th_damaged("savedcmd", sym, "%lx cannot be read", c->addr);
		return;
	}
	/* saved_cmdlines was a pointer to its own allocation; it is a
	 * flexible array at the end of the structure since Linux kernel
	 * commit 44dc5c41b5b1 ("tracing: Fix wasted memory in
	 * saved_cmdlines logic") (in v6.8, and in the 6.1.y stable kernels
	 * of the fixtures). */
	if (th_member_ptr("saved_cmdlines_buffer", "saved_cmdlines") == 0)
		c->comms = c->addr + o_cmd;
	else if (!th_read_ulong(c->addr + o_cmd, &c->comms, "saved_cmdlines"))
		return;
	c->pid_map = c->addr + o_map;
	c->pid_max = th_member_size("saved_cmdlines_buffer",
				 "map_pid_to_cmdline") / 4;
	c->state = TH_SAVEDCMD_OK;
	th_savedcmd_copy(c);
	th_savedcmd_check(c);
}

const struct th_savedcmd *th_savedcmd(void)
{
	const char *tag;

	if (!th_savedcmd_read) {
		th_savedcmd_read = TRUE;
		tag = th_damage_tag("cmdlines");
		th_savedcmd_load(&th_savedcmd_buf);
		th_damage_tag(tag);
	} else {
		th_damage_replay("cmdlines");
	}
	return &th_savedcmd_buf;
}

void th_savedcmd_rewarn(void)
{
	if (th_savedcmd_read)
		th_damage_replay("cmdlines");
}

/* map_cmdline_to_pid[SLOT] (SLOT < cmdline_num) */
static int th_savedcmd_pid(const struct th_savedcmd *c, unsigned int slot,
			   unsigned int *pid)
{
	if (c->to_pid_copy) {
		*pid = c->to_pid_copy[slot];
		return TRUE;
	}
	return th_read_uint(c->to_pid + slot * 4, pid, "map_cmdline_to_pid");
}

unsigned int *th_savedcmd_slots(const struct th_savedcmd *c)
{
	size_t len = (size_t)c->num * sizeof(unsigned int);
	unsigned int *p = malloc(len + sizeof(unsigned int));

	if (!p)
		return NULL;
	if (c->to_pid_copy)
		memcpy(p, c->to_pid_copy, len);
	else if (!th_read(c->to_pid, p, len, "map_cmdline_to_pid")) {
		free(p);
		return NULL;
	}
	return p;
}

void th_savedcmd_find(const struct th_savedcmd *c, int pid, char *comm)
{
	unsigned int map = UINT_MAX, tpid = 0;

	if (!pid) {
		strcpy(comm, "<idle>");
		return;
	}
	if (pid < 0 || (c->state == TH_SAVEDCMD_OK && c->pid_max <= 1)) {
		strcpy(comm, "<XXX>");
		return;
	}
	/*
	 * Newer kernels mask the pid into the map; older ones gave pids
	 * above PID_MAX_DEFAULT no name.  Masking and checking the reverse
	 * map gives the same answer for both.  PID_MAX_DEFAULT is a power
	 * of two: the array has it + 1 entries.
	 */
	if (c->state != TH_SAVEDCMD_OK)
		map = UINT_MAX;
	else if (c->pid_map_copy)
		map = c->pid_map_copy[pid & (c->pid_max - 2)];
	else if (!th_read_uint(c->pid_map + ((pid & (c->pid_max - 2)) * 4),
			       &map, "map_pid_to_cmdline"))
		map = UINT_MAX;
	if (map != UINT_MAX && map >= c->num && !c->pid_map_copy)
		/* the kernel prints "<...>" too: faithful, and warned (a
		 * map read whole was checked at once: th_savedcmd_cross()) */
		th_damaged("saved_cmdlines_buffer", c->addr, "a "
			   "map_pid_to_cmdline entry exceeds cmdline_num %u; "
			   "printed as the kernel would print it", c->num);
	if (map != UINT_MAX && map < c->num &&
	    th_savedcmd_pid(c, map, &tpid) && (int)tpid == pid) {
		if (c->comms_copy)
			memcpy(comm, c->comms_copy + (size_t)map *
			       TASK_COMM_LEN, TASK_COMM_LEN);
		else if (!th_read(c->comms + map * TASK_COMM_LEN, comm,
				  TASK_COMM_LEN, "saved_cmdlines"))
			strcpy(comm, "<...>");
		comm[TASK_COMM_LEN - 1] = '\0';
		return;
	}
	strcpy(comm, "<...>");
}

/* A direct-mapped cache of the answers (fixed size; the dump does not
 * change under it). */
#define TH_CMDLINE_CACHE 1024
static struct {
	int pid, valid;
	char comm[TASK_COMM_LEN];
} th_cmdline_cache[TH_CMDLINE_CACHE];

void th_find_cmdline(int pid, char *comm)
{
	unsigned h = (unsigned)pid % TH_CMDLINE_CACHE;

	if (!th_cmdline_cache[h].valid || th_cmdline_cache[h].pid != pid) {
		/* (TASK_COMM_LEN bytes) */
		th_savedcmd_find(th_savedcmd(), pid, th_cmdline_cache[h].comm);
		th_cmdline_cache[h].pid = pid;
		th_cmdline_cache[h].valid = TRUE;
	}
	strcpy(comm, th_cmdline_cache[h].comm);
}
