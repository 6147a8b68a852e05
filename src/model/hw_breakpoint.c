/*
 * tracehunt: the model's one reader of the CPUs' hardware breakpoints
 * (arch/x86/kernel/hw_breakpoint.c, kernel/events/hw_breakpoint.c):
 * bp_per_reg[], per CPU, the perf event each debug register holds
 * (arch_install_hw_breakpoint() fills a free slot, uninstall empties it);
 * each event read by model/perf_event.c.  The kernel clears the
 * debug registers themselves on a kdump (machine_kexec()'s
 * hw_breakpoint_disable()), not this bookkeeping.
 */
#include "model/hw_breakpoint.h"
#include "model/vma.h"
#include "model/perf_event.h"
#include "model/vmlinux_file.h"

static struct {
	int filled;
	ulong per_reg;			/* bp_per_reg: a per-CPU array */
	long nslots;			/* HBP_NUM */
} hb;

static void hb_fill(void)
{
	if (hb.filled)
		return;
	hb.filled = 1;
	hb.per_reg = th_symbol("bp_per_reg");
	/* HBP_NUM pointers: the vmlinux file's symbol size says how many
	 * without asking gdb (3 ms); its type where the file has none */
	hb.nslots = hb.per_reg ? th_vmlinux_array_len("bp_per_reg",
						      sizeof(ulong)) : -1;
	if (hb.nslots > TH_HWBP_SLOTS)
		hb.nslots = TH_HWBP_SLOTS;
}

int th_hwbp_ok(const char **why)
{
	hb_fill();
	if (!hb.per_reg) {
		*why = "bp_per_reg (a kernel without x86's hardware "
		       "breakpoints)";
		return FALSE;
	}
	if (hb.nslots <= 0) {
		*why = "the size of bp_per_reg[]";
		return FALSE;
	}
	return th_perf_bp_ok(why);
}

const char *th_hwbp_type_str(unsigned type, char *buf, size_t len)
{
	switch (type) {
	case TH_HWBP_R:
		return "read";
	case TH_HWBP_W:
		return "write";
	case TH_HWBP_R | TH_HWBP_W:
		return "read/write";
	case TH_HWBP_X:
		return "execute";
	}
	snprintf(buf, len, "type %u", type);
	return buf;
}

/* The event in CPU's debug register SLOT (at WHERE) into *B; FALSE when
 * it cannot be read (said as damage). */
static int hb_read(ulong ev, ulong where, int cpu, int slot,
		   struct th_hwbp *b)
{
	struct th_perf_bp bp;

	memset(b, 0, sizeof(*b));
	b->cpu = cpu;
	b->slot = slot;
	b->event = ev;
	b->pid = -1;
	if (!th_check_ptr("bp_per_reg", where, ev, TH_M(TH_R_DIRECT) |
			  TH_M(TH_R_VMALLOC), "perf_event"))
		return FALSE;
	if (!th_perf_event_bp(ev, &bp)) {
		th_damaged("perf_event", ev, "the breakpoint of CPU %d's "
			   "debug register %d cannot be read", cpu, slot);
		return FALSE;
	}
	b->addr = bp.addr;
	b->type = bp.type;
	b->len = bp.len;
	b->handler = bp.handler;
	b->task = bp.task;
	if (b->task)
		th_task_ident(b->task, &b->pid, b->comm, sizeof(b->comm));
	return TRUE;
}

long th_hw_breakpoints(struct th_hwbp **out)
{
	const char *why;
	int *cpus, ncpus, i, s;
	long n = 0;
	struct th_hwbp *v;

	*out = NULL;
	if (!th_hwbp_ok(&why))
		return -1;
	cpus = malloc(NR_CPUS * sizeof(*cpus));
	if (!cpus)
		return -1;
	ncpus = th_possible_cpus(cpus, NR_CPUS);
	v = malloc((size_t)(ncpus > 0 ? ncpus : 1) * hb.nslots * sizeof(*v));
	if (!v) {
		free(cpus);
		return -1;
	}
	for (i = 0; i < ncpus; i++) {
		ulong regs = th_percpu_ptr(hb.per_reg, cpus[i]);
		ulong ev[TH_HWBP_SLOTS];

		if (!regs || !th_read(regs, ev, hb.nslots * sizeof(ulong),
				      "bp_per_reg")) {
			th_damaged("bp_per_reg", regs, "CPU %d's debug "
				   "registers cannot be read", cpus[i]);
			continue;
		}
		for (s = 0; s < hb.nslots; s++)
			if (ev[s] && hb_read(ev[s], regs + s * sizeof(ulong),
					     cpus[i], s, &v[n]))
				n++;
	}
	free(cpus);
	*out = v;
	return n;
}
