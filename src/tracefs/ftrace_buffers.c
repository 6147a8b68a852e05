/*
 * tracehunt: the ring-buffer state files: tracing_on, buffer_size_kb
 * (global and per CPU), buffer_total_size_kb, buffer_subbuf_size_kb,
 * per_cpu/cpuN/stats, trace_clock, and the "ftrace" summary.
 *
 * Each file is printed the way the kernel's show/read function prints it
 * (kernel/trace/trace.c); the function named in each comment is the one
 * reproduced.
 */
#include "tracefs/tracefs.h"
#include "tracefs/kprobes.h"
#include "model/user_event.h"
#include "model/ftrace_ops.h"
#include "model/ftrace_files.h"
#include "model/trace_rb.h"
#include "model/last_boot.h"

/* ----------------------------------------------------------- tracing_on --- */

/**
 * th_cat_tracing_on - rb_simple_read() -> tracer_tracing_is_on()
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_tracing_on(struct th_tr *tr, const struct th_tref *ref)
{
	int on = ff_is_on(tr);

	if (on < 0) {
		fprintf(fp, "ftrace cat tracing_on: cannot read the ring buffer "
			"of trace array %lx\n", tr->addr);
		return;
	}
	fprintf(fp, "%d\n", on);
}

/* -------------------------------------------------------- buffer sizes --- */

/* CPU's entries of TR's buffer, or FALSE having said so for FILE */
static int ff_entries(struct th_tr *tr, int cpu, const char *file, ulong *e)
{
	if (ff_cpu_entries(tr, cpu, e))
		return TRUE;
	fprintf(fp, "ftrace cat %s: cannot read the entries of cpu%d\n", file,
		cpu);
	return FALSE;
}

/**
 * th_cat_buffer_size_kb - tracing_entries_read(): REF->cpu's, or -1: all of
 * them
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_buffer_size_kb(struct th_tr *tr, const struct th_tref *ref)
{
	int cpus[FF_MAX_CPUS], n, i, expanded = ff_expanded(tr);
	int cpu = ref->cpu;
	ulong size = 0, e;

	if (cpu >= 0) {
		if (ff_entries(tr, cpu, "buffer_size_kb", &e))
			fprintf(fp, "%lu\n", e >> 10);
		return;
	}
	n = ff_tracing_cpus(cpus, FF_MAX_CPUS);
	for (i = 0; i < n; i++) {
		if (!ff_entries(tr, cpus[i], "buffer_size_kb", &e))
			return;
		if (!size)
			size = e;
		if (size != e) {
			fprintf(fp, "X\n");
			return;
		}
	}
	if (!expanded)
		fprintf(fp, "%lu (expanded: %lu)\n", size >> 10,
			ff_trace_buf_size() >> 10);
	else
		fprintf(fp, "%lu\n", size >> 10);
}

/**
 * th_cat_buffer_total_size_kb - tracing_total_entries_read()
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_buffer_total_size_kb(struct th_tr *tr,
				 const struct th_tref *ref)
{
	int cpus[FF_MAX_CPUS], n, i, expanded = ff_expanded(tr);
	ulong size = 0, exp = 0, e;

	n = ff_tracing_cpus(cpus, FF_MAX_CPUS);
	for (i = 0; i < n; i++) {
		if (!ff_entries(tr, cpus[i], "buffer_total_size_kb", &e))
			return;
		size += e >> 10;
		if (!expanded)
			exp += ff_trace_buf_size() >> 10;
	}
	if (expanded)
		fprintf(fp, "%lu\n", size);
	else
		fprintf(fp, "%lu (expanded: %lu)\n", size, exp);
}

/**
 * th_missing_subbuf_size - buffer_subbuf_size_kb exists where the ring
 * buffer has a sub-buffer order (v6.8), and needs it in the dump
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_subbuf_size(struct th_tr *tr, const struct th_tref *ref,
				   char *buf, size_t len)
{
	ulong kb;

	switch (th_rb_subbuf_kb(tr->addr, &kb)) {
	case TH_RB_SUBBUF_OK:
		return NULL;
	case TH_RB_SUBBUF_NONE:
		snprintf(buf, len, "ftrace cat: %s: this kernel has no "
			 "trace_buffer.subbuf_order (sub-buffers of other "
			 "sizes came in v6.8), so no such file", ref->file);
		break;
	default:
		snprintf(buf, len, "ftrace cat: %s: the ring buffer's "
			 "subbuf_order cannot be read", ref->file);
	}
	return buf;
}

/**
 * th_cat_buffer_subbuf_size_kb - buffer_subbuf_size_read()
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_buffer_subbuf_size_kb(struct th_tr *tr,
				  const struct th_tref *ref)
{
	char why[160];
	ulong kb;

	if (th_rb_subbuf_kb(tr->addr, &kb) == TH_RB_SUBBUF_OK)
		fprintf(fp, "%lu\n", kb);
	else
		fprintf(fp, "%s\n", th_missing_subbuf_size(tr, ref, why,
							    sizeof(why)));
}

/* ------------------------------------------------------- last_boot_info --- */

/**
 * th_missing_last_boot - last_boot_info exists in a boot-mapped array
 * (init_tracer_tracefs(): tr->range_addr_start set); tracehunt prints the
 * form of v6.15 (the scratch area's _text and modules)
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_last_boot(struct th_tr *tr, const struct th_tref *ref,
				 char *buf, size_t len)
{
	struct th_last_boot lb;
	enum th_lb_state st = th_last_boot_read(tr->addr, &lb);
	int layout = lb.scratch_layout;

	th_last_boot_free(&lb);
	if (st == TH_LB_NO_FEATURE)
		snprintf(buf, len, "ftrace cat: %s: this kernel has no "
			 "boot-mapped trace arrays (trace_array."
			 "range_addr_start came in v6.10), so no such file",
			 ref->file);
	else if (st == TH_LB_NOT_MAPPED)
		snprintf(buf, len, "ftrace cat: %s: only a boot-mapped "
			 "instance (trace_instance=NAME@...) has this file",
			 ref->file);
	else if (!layout)
		snprintf(buf, len, "ftrace cat: %s: this kernel keeps no "
			 "trace_array.scratch: its last_boot_info (before "
			 "v6.15) is not reconstructed", ref->file);
	else
		return NULL;
	return buf;
}

/**
 * th_cat_last_boot_info - l_show() of last_boot_info: the previous boot's
 * _text and modules while the array holds its trace, else "# Current"
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_last_boot_info(struct th_tr *tr, const struct th_tref *ref)
{
	struct th_last_boot lb;
	char why[200];
	int i;

	if (th_missing_last_boot(tr, ref, why, sizeof(why))) {
		fprintf(fp, "%s\n", why);
		return;
	}
	switch (th_last_boot_read(tr->addr, &lb)) {
	case TH_LB_LAST:
		if (lb.have_scratch) {
			fprintf(fp, "%lx\t[kernel]\n", lb.text_addr);
			for (i = 0; i < lb.nmods; i++)
				fprintf(fp, "%lx\t%s\n", lb.mods[i].addr,
					lb.mods[i].name);
		} else if (lb.why[0])
			fprintf(fp, "ftrace cat: %s: %s\n", ref->file, lb.why);
		else
			fprintf(fp, "# Current\n");
		if (lb.have_scratch && lb.why[0])
			fprintf(fp, "ftrace cat: %s: %s\n", ref->file, lb.why);
		break;
	case TH_LB_CURRENT:
		fprintf(fp, "# Current\n");
		break;
	default:
		fprintf(fp, "ftrace cat: %s: %s\n", ref->file,
			lb.why[0] ? lb.why : "which boot wrote the buffer "
			"cannot be read");
	}
	th_last_boot_free(&lb);
}

/**
 * th_missing_tracing_cpu - per_cpu/cpuN/buffer_size_kb exists for the CPUs of
 * tracing_buffer_mask
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_tracing_cpu(struct th_tr *tr, const struct th_tref *ref,
				   char *buf, size_t len)
{
	if (ff_tracing_cpu(ref->cpu))
		return NULL;
	snprintf(buf, len, "ftrace cat: %s: cpu%d has no trace buffer (not in "
		 "tracing_buffer_mask)", ref->file, ref->cpu);
	return buf;
}

/* --------------------------------------------------- per_cpu/cpuN/stats --- */

/* TS, in the array's clock, as tracing_stats_read() prints it: seconds
 * with microseconds for a clock counting nanoseconds (ns2usecs() rounds),
 * the raw count for the others (counter, x86-tsc). */
static void th_stats_ts(const char *label, uint64_t ts, int in_ns)
{
	if (in_ns) {
		ts = (ts + 500) / 1000;
		fprintf(fp, "%s: %5llu.%06lu\n", label,
			(unsigned long long)(ts / 1000000),
			(unsigned long)(ts % 1000000));
	} else {
		fprintf(fp, "%s: %llu\n", label, (unsigned long long)ts);
	}
}

/**
 * th_cat_stats - tracing_stats_read(): one CPU's ring-buffer counters.
 * "now ts" is the clock when the file is read: a dump has no such
 * reading, and it prints the time stamp of the CPU's last event
 * (write_stamp) instead
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_stats(struct th_tr *tr, const struct th_tref *ref)
{
	struct th_rb_stats st;
	char err[256];
	int in_ns = th_trace_clock_in_ns(th_tr_clock_id(tr->addr));

	if (in_ns < 0) {
		fprintf(fp, "ftrace cat: %s: the array's trace clock "
			"(trace_clocks[]) cannot be read\n", ref->file);
		return;
	}
	if (!th_rb_cpu_stats(tr->addr, ref->cpu, &st, err, sizeof(err))) {
		fprintf(fp, "ftrace cat: %s: %s\n", ref->file, err);
		return;
	}
	fprintf(fp, "entries: %ld\n", (long)st.entries);
	fprintf(fp, "overrun: %ld\n", (long)st.overrun);
	fprintf(fp, "commit overrun: %ld\n", (long)st.commit_overrun);
	fprintf(fp, "bytes: %ld\n", (long)st.bytes);
	th_stats_ts("oldest event ts", st.oldest_ts, in_ns);
	th_stats_ts("now ts", st.have_last ? st.last_ts : 0, in_ns);
	fprintf(fp, "dropped events: %ld\n", (long)st.dropped);
	fprintf(fp, "read events: %ld\n", (long)st.read);
}

/* ---------------------------------------------------------- trace_clock --- */

/**
 * th_cat_trace_clock - tracing_clock_show()
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_trace_clock(struct th_tr *tr, const struct th_tref *ref)
{
	char names[64][64];
	int n = th_trace_clocks(names, 64), id, i;

	if (n < 0) {
		fprintf(fp, "ftrace cat trace_clock: no trace_clocks[] in "
			"this dump\n");
		return;
	}
	id = th_tr_clock_id(tr->addr);
	for (i = 0; i < n; i++)
		fprintf(fp, "%s%s%s%s", i ? " " : "", i == id ? "[" : "",
			names[i], i == id ? "]" : "");
	fputc('\n', fp);
}

/* ------------------------------------------------------- ftrace summary --- */

/**
 * th_summary_counts - the counts the "ftrace" summary gives: ops, call
 * sites (enabled ones) and kprobes (HIDDEN ones)
 * @c: filled; c->have_ftrace / c->have_kprobes FALSE when none readable
 */
void th_summary_counts(struct th_summary_counts *c)
{
	struct thf_state *st = thf_load();
	struct kp_probe *kp = NULL;
	long i;

	memset(c, 0, sizeof(*c));
	if (st) {
		c->have_ftrace = TRUE;
		c->ops = st->nops;
		c->records = st->nrec;
		for (i = 0; i < st->nrec; i++)
			if (st->fl.enabled && (st->rec[i].flags & st->fl.enabled))
				c->enabled++;
		thf_warn_damage(st);
	}
	if (!th_kprobes_init())
		return;
	c->have_kprobes = TRUE;
	c->kprobes = th_kprobes_collect(&kp);
	for (i = 0; i < c->kprobes; i++) {
		struct th_owner o;

		th_owner_of(kp[i].kp, &o);
		if (o.kind != TH_OWN_HIDDEN)
			th_owner_of(kp[i].pre, &o);
		if (o.kind == TH_OWN_HIDDEN)
			c->kprobes_hidden++;
	}
	free(kp);
}

/*
 * User events: not hooks (the kernel's own probe writes what a process
 * hands it, no control flow moves), but whatever a process registered can
 * put entries of its own making into the trace: how many, and how many
 * something traces (user_events_status' Active and Busy), on a kernel
 * that has them.
 */
/*
 * Who registered them: per process (user_event_mm), its enable bits (the
 * word in its memory the kernel sets while the event is traced) and
 * their events, as "  pid PID (COMM): N enable bits: EVENT@ADDR:BIT ...".
 */
static void ff_summary_user_enablers(void)
{
	struct th_user_enabler *en;
	char comm[32], name[128];
	long n, i, j, k, nt;
	ulong pid;

	n = th_user_enablers(&en);
	if (n < 0) {
		fprintf(fp, "  enable bits:           not readable "
			"(user_event_mms)\n");
		return;
	}
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && en[j].mm == en[i].mm; j++)
			;
		nt = th_user_mm_task(en[i].mm, &pid, comm, sizeof(comm));
		if (nt)
			fprintf(fp, "  pid %lu (%s):", pid, comm);
		else
			fprintf(fp, "  mm %lx (no task):", en[i].mm);
		fprintf(fp, " %ld enable bit%s:", j - i, j - i == 1 ? "" : "s");
		for (k = i; k < j; k++) {
			th_user_event_tp_name(en[k].user, name, sizeof(name));
			fprintf(fp, " %s@%lx:%d", name, en[k].addr, en[k].bit);
		}
		fputc('\n', fp);
	}
	free(en);
}

static void ff_summary_user_events(void)
{
	ulong *v;
	long n, i, busy = 0;

	if (!th_symbol("user_event_dops"))
		return;
	if (!th_user_events_ok()) {
		fprintf(fp, "user events:             not readable (%s)\n",
			th_user_events_why());
		return;
	}
	n = th_user_events_registered(&v);
	if (n < 0) {
		fprintf(fp, "user events:             not readable (init_group's "
			"register_table)\n");
		return;
	}
	for (i = 0; i < n; i++)
		if (th_user_event_status(v[i]) > 0)
			busy++;
	free(v);
	fprintf(fp, "user events:             %ld, %ld in use  (\"ftrace cat "
		"user_events_status\", \"ftrace cat dynamic_events\")\n", n,
		busy);
	ff_summary_user_enablers();
}

/* Counts of ops, call sites and kprobes, with the commands behind them. */
static void ff_summary_counts(void)
{
	struct th_summary_counts c;

	th_summary_counts(&c);
	if (c.have_ftrace) {
		fprintf(fp, "\nftrace ops:              %d  (\"ftrace ops\")\n",
			c.ops);
		fprintf(fp, "call sites:              %ld records, %ld enabled  "
			"(\"ftrace sites\", \"ftrace cat enabled_functions\")\n",
			c.records, c.enabled);
	} else {
		fprintf(fp, "\nftrace ops, call sites:  none readable (\"ftrace "
			"ops\" says why)\n");
	}
	if (c.have_kprobes)
		fprintf(fp, "kprobes:                 %ld, %ld HIDDEN  "
			"(\"kprobes -v\", \"ftrace cat kprobe_events\")\n",
			c.kprobes, c.kprobes_hidden);
	else
		fprintf(fp, "kprobes:                 none (%s)\n",
			th_kprobes_missing());
	ff_summary_user_events();
}

/* A boot-mapped array's buffer from the previous boot: said on its row */
static void th_summary_last_boot(struct th_tr *tr)
{
	struct th_last_boot lb;

	switch (th_last_boot_read(tr->addr, &lb)) {
	case TH_LB_LAST:
		fprintf(fp, " (boot-mapped: the previous boot's trace)");
		break;
	case TH_LB_UNKNOWN:
		fprintf(fp, " (boot-mapped: which boot's trace cannot be "
			"told)");
		break;
	default:
		break;
	}
	th_last_boot_free(&lb);
}

/**
 * th_ftrace_summary_print - "ftrace": every trace array's state, the
 * counts of ops, call sites and kprobes, and where to look next.
 */
void th_ftrace_summary_print(void)
{
	struct th_tr *trs;
	char name[64];
	int cpus[FF_MAX_CPUS], ncpu, ntr, t, i, on, expanded;
	ulong e;

	ntr = th_trace_arrays(&trs);
	ncpu = ff_tracing_cpus(cpus, FF_MAX_CPUS);
	if (!ntr) {
		fprintf(fp, "ftrace: no global_trace in this dump\n");
		return;
	}
	fprintf(fp, "%-16s %-8s %-16s %s\n", "INSTANCE", "TRACING",
		"TRACER", "BUFFER_SIZE_KB PER CPU");
	for (t = 0; t < ntr; t++) {
		ulong cur = th_tr_current_tracer(trs[t].addr);

		on = ff_is_on(&trs[t]);
		expanded = ff_expanded(&trs[t]);
		fprintf(fp, "%-16s %-8s %-16s", trs[t].name[0] ? trs[t].name :
			"(global)", on < 0 ? "?" : on ? "on" : "off",
			cur ? ff_tracer_name(cur, name, sizeof(name)) : "?");
		for (i = 0; i < ncpu; i++) {
			if (ff_cpu_entries(&trs[t], cpus[i], &e))
				fprintf(fp, " cpu%d:%lu", cpus[i], e >> 10);
			else
				fprintf(fp, " cpu%d:?", cpus[i]);
		}
		if (!expanded)
			fprintf(fp, " (not expanded)");
		th_summary_last_boot(&trs[t]);
		fputc('\n', fp);
	}
	ff_summary_counts();
	fprintf(fp, "ring buffers:            see \"ftrace trace\"\n");
	fprintf(fp, "next: \"ftrace ls\" lists the files \"ftrace cat FILE\" "
		"reconstructs; \"hooks\" lists every diversion\n");
}
