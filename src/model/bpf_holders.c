/*
 * tracehunt: which processes hold BPF objects open: every task's file
 * table (task_struct.files -> files_struct.fdt -> fdtable.fd[max_fds]),
 * each file whose f_op is the BPF program, link or map file operations,
 * or perf_fops (a perf event, possibly carrying a program), with the
 * object in its private_data.  What bpftool's "perf show" and the pids of
 * "prog show"/"link show" find through /proc.  The processes are the
 * kernel's own list (init_task.tasks: thread group leaders, as /proc
 * lists them), not crash's task table (which misses tasks on some of
 * these dumps).  The model's one reader of struct file, files_struct and
 * fdtable, and of the task_struct members it needs.
 */
#include "model/bpf.h"

#define BH_MAX_FDS	(1 << 20)	/* fdtable.max_fds bound */
#define BH_MAX_HELD	100000

static struct {
	int filled;
	long files, fdt, max_fds, fd, f_op, priv, tasks, pid, comm;
	ulong init_task;
	ulong fops[TH_BH_NKINDS];
	ulong link_poll;		/* bpf_link_fops_poll (v6.10) */
} bh_off;

static void bh_off_fill(void)
{
	if (bh_off.filled)
		return;
	bh_off.filled = 1;
	bh_off.files = th_member("task_struct", "files");
	bh_off.tasks = th_member("task_struct", "tasks");
	bh_off.pid = th_member("task_struct", "pid");
	bh_off.comm = th_member("task_struct", "comm");
	bh_off.init_task = th_ksymbol("init_task");
	bh_off.fdt = th_member("files_struct", "fdt");
	bh_off.max_fds = th_member("fdtable", "max_fds");
	bh_off.fd = th_member("fdtable", "fd");
	bh_off.f_op = th_member("file", "f_op");
	bh_off.priv = th_member("file", "private_data");
	bh_off.fops[TH_BH_PROG] = th_ksymbol("bpf_prog_fops");
	bh_off.fops[TH_BH_LINK] = th_ksymbol("bpf_link_fops");
	bh_off.fops[TH_BH_MAP] = th_ksymbol("bpf_map_fops");
	bh_off.fops[TH_BH_PERF] = th_ksymbol("perf_fops");
	/* newer kernels give links that can be polled file operations of
	 * their own: found by name where they exist */
	bh_off.link_poll = th_ksymbol("bpf_link_fops_poll");
}

ulong th_file_private(ulong file)
{
	ulong p;

	bh_off_fill();
	if (bh_off.priv < 0 ||
	    !th_read_ulong(file + bh_off.priv, &p, "file.private_data"))
		return 0;
	return p;
}

static int bh_kind(ulong fop)
{
	int k;

	if (!fop)
		return -1;
	if (fop == bh_off.link_poll)
		return TH_BH_LINK;
	for (k = 0; k < TH_BH_NKINDS; k++)
		if (bh_off.fops[k] && fop == bh_off.fops[k])
			return k;
	return -1;
}

struct bh_state {
	struct th_bpf_held *v;
	long n, cap;
};

static int bh_add(struct bh_state *s, const struct th_bpf_held *h)
{
	if (s->n >= BH_MAX_HELD)
		return FALSE;
	if (s->n == s->cap) {
		long cap = s->cap ? s->cap * 2 : 64;
		void *p = realloc(s->v, cap * sizeof(*s->v));

		if (!p)
			return FALSE;
		s->v = p;
		s->cap = cap;
	}
	s->v[s->n++] = *h;
	return TRUE;
}

/* The BPF and perf files of one process's file table. */
static void bh_files(struct bh_state *s, ulong pid, const char *comm,
		     ulong files)
{
	struct th_bpf_held h;
	ulong fdt, fdarr, file, fop;
	unsigned int max, i;

	if (!th_read_ulong(files + bh_off.fdt, &fdt, "files_struct.fdt") ||
	    !th_read_uint(fdt + bh_off.max_fds, &max, "fdtable.max_fds") ||
	    !th_read_ulong(fdt + bh_off.fd, &fdarr, "fdtable.fd"))
		return;
	if (!th_check_count("fdtable", fdt, max, BH_MAX_FDS, "max_fds"))
		return;
	for (i = 0; i < max; i++) {
		if (!th_read_ulong(fdarr + i * sizeof(ulong), &file,
				   "fdtable.fd[]"))
			return;
		if (!file || !th_read_ulong(file + bh_off.f_op, &fop,
					    "file.f_op"))
			continue;
		memset(&h, 0, sizeof(h));
		if ((h.kind = bh_kind(fop)) < 0)
			continue;
		h.file = file;
		h.obj = th_file_private(file);
		h.pid = pid;
		h.fd = i;
		th_strlcpy(h.comm, comm, sizeof(h.comm));
		if (!bh_add(s, &h))
			return;
	}
}

int th_bpf_holders_ok(void)
{
	bh_off_fill();
	return bh_off.files >= 0 && bh_off.fdt >= 0 && bh_off.max_fds >= 0 &&
		bh_off.tasks >= 0 && bh_off.pid >= 0 && bh_off.comm >= 0 &&
		bh_off.init_task &&
		bh_off.fd >= 0 && bh_off.f_op >= 0 && bh_off.priv >= 0 &&
		(bh_off.fops[TH_BH_PROG] || bh_off.fops[TH_BH_LINK]);
}

long th_bpf_holders(struct th_bpf_held **out)
{
	struct bh_state s = { NULL, 0, 0 };
	struct th_walk w;
	char comm[17];
	ulong files, task;
	int pid;
	long i;

	*out = NULL;
	if (!th_bpf_holders_ok())
		return -1;
	th_list_walk(bh_off.init_task + bh_off.tasks, TH_MAX_HLIST, &w);
	if (w.err)
		th_damaged("init_task.tasks", w.bad ? w.bad : bh_off.init_task,
			   "%s", w.err);
	for (i = 0; i < w.n; i++) {
		task = w.ent[i] - bh_off.tasks;
		if (!th_read_int(task + bh_off.pid, &pid, "task_struct.pid") ||
		    !th_read_ulong(task + bh_off.files, &files,
				   "task_struct.files") || !files)
			continue;
		th_read_cstr(task + bh_off.comm, comm, sizeof(comm),
			     "task_struct.comm");
		bh_files(&s, pid, comm, files);
	}
	th_walk_free(&w);
	*out = s.v;
	return s.n;
}

/*
 * find_task_by_vpid() of a thread group leader (the lookup the trace
 * printers do by a tgid): the task of init_task.tasks whose pid is PID,
 * 0 when none.  Here beside the other walk of that list.
 */
int th_task_ident(ulong task, int *pid, char *comm, size_t len)
{
	bh_off_fill();
	*pid = -1;
	comm[0] = '\0';
	if (bh_off.pid < 0 || bh_off.comm < 0 ||
	    !th_read_int(task + bh_off.pid, pid, "task_struct.pid") ||
	    !th_read_cstr(task + bh_off.comm, comm, (int)len,
			  "task_struct.comm")) {
		*pid = -1;
		comm[0] = '\0';
		return FALSE;
	}
	return TRUE;
}

ulong th_task_leader(int pid)
{
	struct th_walk w;
	ulong task, found = 0;
	int p;
	long i;

	bh_off_fill();
	if (bh_off.tasks < 0 || bh_off.pid < 0 || !bh_off.init_task)
		return 0;
	th_list_walk(bh_off.init_task + bh_off.tasks, TH_MAX_HLIST, &w);
	if (w.err)
		th_damaged("init_task.tasks", w.bad ? w.bad : bh_off.init_task,
			   "%s", w.err);
	for (i = 0; i < w.n && !found; i++) {
		task = w.ent[i] - bh_off.tasks;
		if (th_read_int(task + bh_off.pid, &p, "task_struct.pid") &&
		    p == pid)
			found = task;
	}
	th_walk_free(&w);
	return found;
}
