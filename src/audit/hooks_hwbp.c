/*
 * tracehunt: the "hw_breakpoint" findings of "hooks": one per hardware
 * breakpoint the CPUs hold (model/hw_breakpoint.c), the same breakpoint on
 * several CPUs (register_wide_hw_breakpoint()) one finding that names
 * them.  A breakpoint runs its handler on every access it watches, or
 * before the instruction it is on, without a byte of the kernel's text
 * changed: a module's is a note, a module's that left the module list is
 * HIDDEN; a debugger's or perf's (core handlers) is ok, and names its task.
 */
#include "audit/hooks_priv.h"
#include "model/hw_breakpoint.h"

/* A and B are one breakpoint on two CPUs */
static int hb_same(const struct th_hwbp *a, const struct th_hwbp *b)
{
	return a->addr == b->addr && a->type == b->type &&
	       a->len == b->len && a->handler == b->handler &&
	       a->task == b->task;
}

/* V[0..N)'s CPUs, in order, as "0-3, 8" into BUF */
static void hb_cpus(const struct th_hwbp *v, long n, char *buf, size_t len)
{
	size_t o = 0;
	long k = 0;

	buf[0] = '\0';
	while (k < n && o < len) {
		long e = k;

		while (e + 1 < n && v[e + 1].cpu == v[e].cpu + 1)
			e++;
		o += snprintf(buf + o, len - o, "%s%d", k ? ", " : "",
			      v[k].cpu);
		if (e > k && o < len)
			o += snprintf(buf + o, len - o, "-%d", v[e].cpu);
		k = e + 1;
	}
}

/* ADDR as "%pS" names it without the symbol's size: a variable of a
 * module's data has none in the kernel's terms (find_kallsyms_symbol()
 * bounds a module's symbols by the end of its text) */
static void hb_where(ulong addr, char *buf, size_t len)
{
	char *slash, *end;

	th_ksym_pS_any(addr, buf, len);
	slash = strchr(buf, '/');
	if (!slash)
		return;
	end = strchr(slash, ' ');
	if (end)
		memmove(slash, end, strlen(end) + 1);
	else
		*slash = '\0';
}

void hk_hw_breakpoints(void)
{
	struct th_hwbp *v, *grp = NULL;
	long n = th_hw_breakpoints(&v), i, j, k;
	char *done = NULL, cpus[256], tb[16], where[256];

	if (n > 0) {
		done = calloc(n, 1);
		grp = malloc(n * sizeof(*grp));
	}
	for (i = 0; done && grp && i < n; i++) {
		struct hk_finding *f;
		size_t w;
		long m = 0;

		if (done[i])
			continue;
		/* this breakpoint's CPUs, in CPU order, gathered first */
		for (j = i; j < n; j++)
			if (!done[j] && hb_same(&v[i], &v[j])) {
				done[j] = 1;
				grp[m++] = v[j];
			}
		hb_cpus(grp, m, cpus, sizeof(cpus));
		f = hk_new("hw_breakpoint");
		f->target = v[i].addr;
		hb_where(v[i].addr, where, sizeof(where));
		if (v[i].type == TH_HWBP_X)
			snprintf(f->target_str, sizeof(f->target_str),
				 "%s (execute)", where);
		else
			snprintf(f->target_str, sizeof(f->target_str),
				 "%s (%s, %llu bytes)", where,
				 th_hwbp_type_str(v[i].type, tb, sizeof(tb)),
				 (unsigned long long)v[i].len);
		hk_judge(f, v[i].handler, "the breakpoint's handler");
		w = strlen(f->why);
		if (v[i].task)
			snprintf(f->why + w, sizeof(f->why) - w, "; bound to "
				 "task %lx (pid %d, %s), set on CPU %s",
				 v[i].task, v[i].pid, v[i].comm[0] ?
				 v[i].comm : "?", cpus);
		else
			snprintf(f->why + w, sizeof(f->why) - w, "; on every "
				 "task, set on CPU%s %s (perf event%s", m > 1 ?
				 "s" : "", cpus, m > 1 ? "s" : "");
		w = strlen(f->why);
		if (!v[i].task) {
			for (k = 0; k < m && w < sizeof(f->why); k++)
				w += snprintf(f->why + w, sizeof(f->why) - w,
					      " %lx", grp[k].event);
			if (w < sizeof(f->why))
				snprintf(f->why + w, sizeof(f->why) - w, ")");
		}
	}
	free(grp);
	free(done);
	free(v);
}
