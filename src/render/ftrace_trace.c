/*
 * tracehunt: the "trace" files (trace, per_cpu/cpuN/trace, and the same
 * under instances/NAME/) and "ftrace trace": the ring buffers merged
 * across CPUs in time order as the kernel's iterator does
 * (trace_find_next_entry: the smallest time stamp, lowest CPU on ties).
 */
#define _GNU_SOURCE		/* fopencookie */
#include <stdio.h>
#include <stdio_ext.h>
#include "render/trace_priv.h"
#include "render/trace_cmd.h"
#include "model/trace_entries.h"
#include "model/trace_opts.h"
#include "model/lat_header.h"
#include "model/ftrace_files.h"
#include "model/osnoise.h"

static int th_sel_cpu(const struct th_sel *s, int cpu)
{
	if (s->cpu >= 0)
		return cpu == s->cpu;
	if (s->cpumask)
		return cpu < 64 && (s->cpumask & (1UL << cpu));
	return TRUE;
}

static int th_sel_event_name(const struct th_sel *s, const unsigned char *ent)
{
	const struct th_event *e = th_event_by_type(th_ent_type(ent));
	const char *name = e ? e->name : NULL;
	int i;

	for (i = 0; i < s->nevents; i++)
		if (name && strcmp(name, s->events[i]) == 0)
			return TRUE;
	return FALSE;
}

static inline int th_sel_event(const struct th_sel *s,
			       const unsigned char *ent)
{
	return !s->nevents || th_sel_event_name(s, ent);
}

int th_sel_want(const unsigned char *ent, void *arg)
{
	return th_sel_event(arg, ent);
}

/* Start every selected CPU, skipping what predates time_start as
 * tracing_iter_reset() does; the count replaces skipped_entries.  With
 * LAST >= 0 and no event filter, each CPU starts late enough to hold
 * its last LAST entries. */
void th_trace_start(struct th_rb *rb, const struct th_sel *s, long last)
{
	char *started = calloc(rb->ncpus ? rb->ncpus : 1, 1);
	int i, all = TRUE;

	for (i = 0; i < rb->ncpus; i++) {
		struct th_rbcpu *c = &rb->cpus[i];

		if (!th_sel_cpu(s, c->cpu)) {
			c->done = TRUE;
			c->have = FALSE;
			all = FALSE;
			continue;
		}
		if (started)
			started[i] = TRUE;
		if (last >= 0 && !s->nevents)
			th_rb_cpu_start_last(c, last);
		else
			th_rb_cpu_start(c);
		th_rb_cpu_skip_early(rb, c);
	}
	/* the model's cross-checks (time_start needs every CPU: it starts
	 * the others for it) */
	if (all || started)
		th_rb_check_start(rb, all ? NULL : started);
	free(started);
}

/* print_lat_help_header(): with migrate-disable and "/BH-disabled"
 * (TRACE_FLAG_BH_OFF, 5.18) as 6.1 prints it, else as 5.10 does */
static void th_lat_help_header(void)
{
	if (th_lat_migrate() && th_entry_flags()->bh_off) {
		fputs("#                    _------=> CPU#            \n"
		      "#                   / _-----=> irqs-off/BH-disabled\n"
		      "#                  | / _----=> need-resched    \n"
		      "#                  || / _---=> hardirq/softirq \n"
		      "#                  ||| / _--=> preempt-depth   \n"
		      "#                  |||| / _-=> migrate-disable \n"
		      "#                  ||||| /     delay           \n"
		      "#  cmd     pid     |||||| time  |   caller     \n"
		      "#     \\   /        ||||||  \\    |    /       \n", fp);
		return;
	}
	if (th_trace_pid_width() == 5) {
		/* 3.10's, for its "%5d" pids (th_trace_pid_width()) */
		fputs("#                  _------=> CPU#            \n"
		      "#                 / _-----=> irqs-off        \n"
		      "#                | / _----=> need-resched    \n"
		      "#                || / _---=> hardirq/softirq \n"
		      "#                ||| / _--=> preempt-depth   \n"
		      "#                |||| /     delay             \n"
		      "#  cmd     pid   ||||| time  |   caller      \n"
		      "#     \\   /      |||||  \\    |   /           \n",
		      fp);
		return;
	}
	fputs("#                    _------=> CPU#            \n"
	      "#                   / _-----=> irqs-off        \n"
	      "#                  | / _----=> need-resched    \n"
	      "#                  || / _---=> hardirq/softirq \n"
	      "#                  ||| / _--=> preempt-depth   \n"
	      "#                  |||| /     delay            \n"
	      "#  cmd     pid     ||||| time  |   caller      \n"
	      "#     \\   /        |||||  \\    |   /         \n", fp);
}

/* trace_empty() of a fresh iterator on RB's CPU CPU (-1: every CPU):
 * 3.10's ring_buffer_iter_empty() asks only whether each iterator is at
 * its commit, whatever the pages between hold; the later one has no
 * entries there */
static int th_trace_empty(struct th_rb *rb, int cpu)
{
	ulong entries, total;
	int i;

	if (th_rb_iter_empty_is_old()) {
		for (i = 0; i < rb->ncpus; i++)
			if ((cpu < 0 || rb->cpus[i].cpu == cpu) &&
			    th_rb_cpu_iter_empty_old(&rb->cpus[i]) != 1)
				return FALSE;
		return TRUE;
	}
	th_rb_totals(rb, cpu, &entries, &total);
	return !entries;
}

/* print_trace_header(): atop a trace in latency format, when the buffer
 * is not empty (trace_empty(): on 3.10 a per-CPU file that prints no
 * entry has the header too when its fresh iterator is not at its commit,
 * as rhel7-lat's second CPU shows) */
static void th_lat_trace_header(struct th_tctx *t, struct th_rb *rb)
{
	struct th_lat_hdr h;
	ulong entries, total;
	char s1[512];

	if (th_trace_empty(rb, t->cpu_file))
		return;
	th_rb_totals(rb, -1, &entries, &total);
	th_lat_header(t->tr, t->max, &h);
	fprintf(fp, "# %s latency trace v1.1.5 on %s\n", t->tracer,
		h.release);
	fprintf(fp, "# ------------------------------------------------------"
		"--------------\n");
	fprintf(fp, "# latency: %lu us, #%lu/%lu, CPU#%d | (M:%s VP:0, KP:0, "
		"SP:0 HP:0 #P:%d)\n", h.saved_latency / 1000, entries,
		total, h.cpu, h.model_ok ? h.model : "?", th_online_cpus());
	fprintf(fp, "#    -----------------\n");
	fprintf(fp, "#    | task: %.16s-%d (uid:%d nice:%ld policy:%ld "
		"rt_prio:%ld)\n", h.comm, h.pid, h.uid, h.nice, h.policy,
		h.rt_priority);
	fprintf(fp, "#    -----------------\n");
	if (h.critical_start) {
		th_ip_sym(s1, sizeof(s1), h.critical_start,
			  t->sym_flags & 1, t->sym_flags & 2);
		fprintf(fp, "#  => started at: %s\n", s1);
		th_ip_sym(s1, sizeof(s1), h.critical_end,
			  t->sym_flags & 1, t->sym_flags & 2);
		fprintf(fp, "#  => ended at:   %s\n#\n", s1);
	}
	fprintf(fp, "#\n");
	if (!h.model_ok)
		fprintf(fp, "# tracehunt: M:? is the preemption model, which "
			"this dump does not record (built in)\n");
	if (!th_tflag(t, "TRACE_ITER_VERBOSE_BIT"))
		th_lat_help_header();
}

/* print_osnoise_headers() and print_timerlat_headers(), the osnoise and
 * timerlat tracers' print_header (trace_osnoise.c, seq_puts(): "%%" is
 * two characters), each with columns of its own on PREEMPT_RT (lines
 * longer than 80 columns, as the kernel prints them) */
static const char th_osnoise_hdr_rt[] =
	"#                                _-------=> irqs-off\n"
	"#                               / _------=> need-resched\n"
	"#                              | / _-----=> need-resched-lazy\n"
	"#                              || / _----=> hardirq/softirq\n"
	"#                              ||| / _---=> preempt-depth\n"
	"#                              |||| / _--=> preempt-lazy-depth\n"
	"#                              ||||| / _-=> migrate-disable\n"
	"#                              |||||| /                                               MAX\n"
	"#                              ||||| /                                             SINGLE      Interference counters:\n"
	"#                              |||||||               RUNTIME      NOISE  %% OF CPU  NOISE    +-----------------------------+\n"
	"#           TASK-PID      CPU# |||||||   TIMESTAMP    IN US       IN US  AVAILABLE  IN US     HW    NMI    IRQ   SIRQ THREAD\n"
	"#              | |         |   |||||||      |           |             |    |            |      |      |      |      |      |\n";
static const char th_osnoise_hdr[] =
	"#                                _-----=> irqs-off\n"
	"#                               / _----=> need-resched\n"
	"#                              | / _---=> hardirq/softirq\n"
	"#                              || / _--=> preempt-depth\n"
	"#                              ||| / _-=> migrate-disable                         MAX\n"
	"#                              |||| /     delay                                   SINGLE      Interference counters:\n"
	"#                              |||||               RUNTIME      NOISE  %% OF CPU  NOISE    +-----------------------------+\n"
	"#           TASK-PID      CPU# |||||   TIMESTAMP    IN US       IN US  AVAILABLE  IN US     HW    NMI    IRQ   SIRQ THREAD\n"
	"#              | |         |   |||||      |           |             |    |            |      |      |      |      |      |\n";
static const char th_timerlat_hdr_rt[] =
	"#                                _-------=> irqs-off\n"
	"#                               / _------=> need-resched\n"
	"#                              | / _-----=> need-resched-lazy\n"
	"#                              || / _----=> hardirq/softirq\n"
	"#                              ||| / _---=> preempt-depth\n"
	"#                              |||| / _--=> preempt-lazy-depth\n"
	"#                              ||||| / _-=> migrate-disable\n"
	"#                              |||||| /\n"
	"#                              |||||||             ACTIVATION\n"
	"#           TASK-PID      CPU# |||||||   TIMESTAMP    ID            CONTEXT                LATENCY\n"
	"#              | |         |   |||||||      |         |                  |                       |\n";
static const char th_timerlat_hdr[] =
	"#                                _-----=> irqs-off\n"
	"#                               / _----=> need-resched\n"
	"#                              | / _---=> hardirq/softirq\n"
	"#                              || / _--=> preempt-depth\n"
	"#                              ||| / _-=> migrate-disable\n"
	"#                              |||| /     delay\n"
	"#                              |||||            ACTIVATION\n"
	"#           TASK-PID      CPU# |||||   TIMESTAMP   ID            CONTEXT                 LATENCY\n"
	"#              | |         |   |||||      |         |                  |                       |\n";

/* The osnoise or timerlat tracer's header; FALSE for another tracer. */
static int th_osnoise_header(struct th_tctx *t)
{
	int osnoise = strcmp(t->tracer, "osnoise") == 0;
	int rt = th_preempt_rt();

	if (!osnoise && strcmp(t->tracer, "timerlat") != 0)
		return FALSE;
	if (osnoise && th_osnoise_tainted() == 1)
		fputs("# osnoise is tainted!\n", fp);
	if (osnoise)
		fputs(rt ? th_osnoise_hdr_rt : th_osnoise_hdr, fp);
	else
		fputs(rt ? th_timerlat_hdr_rt : th_timerlat_hdr, fp);
	return TRUE;
}

/* print_event_info() and the help header of trace_default_header() */
static void th_trace_header(struct th_tctx *t, struct th_rb *rb)
{
	static const char space[] = "            ";
	int tgid = th_tflag(t, "TRACE_ITER_RECORD_TGID_BIT");
	int prec = tgid ? 12 : 2;
	ulong entries, total;

	fprintf(fp, "# tracer: %s\n#\n", t->tracer);
	if (th_osnoise_header(t))
		return;
	if (t->graph) {
		th_graph_header(t);
		return;
	}
	if (!th_tflag(t, "TRACE_ITER_CONTEXT_INFO_BIT"))
		return;
	if (t->f_lat_fmt) {
		th_lat_trace_header(t, rb);
		return;
	}
	if (th_tflag(t, "TRACE_ITER_VERBOSE_BIT"))
		return;
	th_rb_totals(rb, -1, &entries, &total);
	fprintf(fp, "# entries-in-buffer/entries-written: %lu/%lu   #P:%d\n",
		entries, total, th_online_cpus());
	fprintf(fp, "#\n");
	if (th_trace_pid_width() == 5 && !tgid) {
		/* 3.10's print_func_help_header_irq() and
		 * print_func_help_header(), for its "%16s-%-5d [%03d] " */
		if (th_tflag(t, "TRACE_ITER_IRQ_INFO_BIT"))
			fputs("#                              _-----=> irqs-off\n"
			      "#                             / _----=> "
			      "need-resched\n"
			      "#                            | / _---=> "
			      "hardirq/softirq\n"
			      "#                            || / _--=> "
			      "preempt-depth\n"
			      "#                            ||| /     delay\n"
			      "#           TASK-PID   CPU#  ||||    TIMESTAMP  "
			      "FUNCTION\n"
			      "#              | |       |   ||||       |         "
			      "|\n", fp);
		else
			fputs("#           TASK-PID   CPU#      TIMESTAMP  "
			      "FUNCTION\n"
			      "#              | |       |          |         "
			      "|\n", fp);
		return;
	}
	if (th_tflag(t, "TRACE_ITER_IRQ_INFO_BIT")) {
		/* "/BH-disabled" came with TRACE_FLAG_BH_OFF: Linux kernel
		 * commit 289e7b0f7eb4 ("tracing: Account bottom half disabled
		 * sections.") (in v5.18) */
		int bh = th_entry_flags()->bh_off != 0;
		int mig = th_lat_migrate();

		fprintf(fp, "#                            %.*s  _-----=> "
			"irqs-off%s\n", prec, space, bh ? "/BH-disabled" : "");
		fprintf(fp, "#                            %.*s / _----=> "
			"need-resched\n", prec, space);
		fprintf(fp, "#                            %.*s| / _---=> "
			"hardirq/softirq\n", prec, space);
		fprintf(fp, "#                            %.*s|| / _--=> "
			"preempt-depth\n", prec, space);
		if (mig)
			fprintf(fp, "#                            %.*s||| / _-=> "
				"migrate-disable\n", prec, space);
		fprintf(fp, "#                            %.*s%s /     "
			"delay\n", prec, space, mig ? "||||" : "|||");
		fprintf(fp, "#           TASK-PID  %.*s CPU#  %s  TIMESTAMP"
			"  FUNCTION\n", prec, "     TGID   ",
			mig ? "|||||" : "|||| ");
		fprintf(fp, "#              | |    %.*s   |   %s     |    "
			"     |\n", prec, "       |    ",
			mig ? "|||||" : "|||| ");
	} else {
		fprintf(fp, "#           TASK-PID    %s CPU#     TIMESTAMP  "
			"FUNCTION\n", tgid ? "   TGID     " : "");
		fprintf(fp, "#              | |      %s   |         |         "
			"|\n", tgid ? "     |      " : "");
	}
}

/*
 * crash's fp is unbuffered when the output is redirected ("> file",
 * "| cmd"): one write(2) per fprintf, several per entry.  While the entries
 * are printed, fp is a fully buffered stream that writes into the original
 * one, th_ob_sink (where th_ob_flush() writes the entries' lines directly,
 * fp flushed first).  An interrupted command (SIGINT, error) gets fp back through
 * pc->cmd_cleanup, which crash's restore_sanity() calls after closing the
 * redirection: the unwritten rest is dropped then, not flushed.
 */
static ssize_t th_out_write(void *orig, const char *buf, size_t n)
{
	return fwrite(buf, 1, n, (FILE *)orig);
}

static void th_out_end(void *interrupted)
{
	FILE *b = fp;

	/* (a helper thread writes nothing itself: stopped before fp goes) */
	th_helper_abort();
	if (!th_ob_sink)
		return;
	fp = th_ob_sink;
	th_ob_sink = NULL;
	pc->cmd_cleanup = NULL;
	pc->cmd_cleanup_arg = NULL;
	if (interrupted) {
		th_ob_reset();
		__fpurge(b);
	}
	fclose(b);
}

int th_out_guarded(void)
{
	return th_ob_sink && pc->cmd_cleanup == th_out_end;
}

static void th_out_begin(void)
{
	cookie_io_functions_t io = { .write = th_out_write };
	FILE *b;

	if (th_ob_sink || pc->cmd_cleanup)
		return;
	b = fopencookie(fp, "w", io);
	if (!b)
		return;
	setvbuf(b, NULL, _IOFBF, 1 << 16);
	th_ob_sink = fp;		/* the original stream */
	fp = b;
	pc->cmd_cleanup = th_out_end;
	pc->cmd_cleanup_arg = (void *)1;
}

/*
 * "The last LAST entries": how many of the entries selected by S come
 * before them (a first pass counts them, in the graph printer's units
 * for function_graph); RB restarted for the printing pass.
 */
static long th_trace_skip(struct th_tctx *t, struct th_rb *rb,
			  const struct th_sel *s, long last)
{
	struct th_rbcpu *c;
	long n = 0, skip;
	int i;

	if (t->graph) {
		n = th_graph_count(rb, th_sel_want, (void *)s);
		skip = n > last ? n - last : 0;
		th_trace_start(rb, s, last);
		return skip;
	}
	while ((c = th_rb_next(rb)) != NULL) {
		if (th_sel_event(s, c->ev.payload))
			n++;
		th_rb_cpu_advance(c);
	}
	skip = n > last ? n - last : 0;
	th_trace_start(rb, s, last);
	/* a CPU started late was printed before what is counted here: no
	 * "buffer started" line of its own in the window */
	for (i = 0; i < rb->ncpus; i++)
		if (rb->cpus[i].late && rb->cpus[i].cpu < 64) {
			t->started |= 1UL << rb->cpus[i].cpu;
			if (!t->idx)
				t->idx = 1;
		}
	return skip;
}

/*
 * In latency format a line shows the gap to the entry printed after it
 * (trace_find_next_entry()): each entry waits, copied, for the next one.
 */
struct th_lat_pend {
	int have, cpu;
	uint64_t ts;
	uint32_t len;
	size_t cap;
	unsigned char *buf;
};

/* Print the entry waiting in P, the next one at NEXT_TS. */
static void th_lat_flush(struct th_tctx *t, struct th_lat_pend *p,
			 uint64_t next_ts)
{
	if (!p->have)
		return;
	p->have = FALSE;
	t->cpu = p->cpu;
	t->ts = p->ts;
	t->ent = p->buf;
	t->len = p->len;
	t->next_ts = next_ts;
	th_print_entry(t);
}

/* The entry of C to print: printed (in latency format, the one waiting
 * before it; it waits in its place) */
static void th_trace_emit(struct th_tctx *t, struct th_lat_pend *p,
			  struct th_rbcpu *c)
{
	if (!t->f_lat_fmt) {
		t->cpu = c->cpu;
		t->ts = c->ev.ts;
		t->ent = c->ev.payload;
		t->len = c->ev.len;
		th_print_entry(t);
		return;
	}
	th_lat_flush(t, p, c->ev.ts);
	if (p->cap < c->ev.len) {
		unsigned char *b = realloc(p->buf, c->ev.len);

		if (!b)
			return;
		p->buf = b;
		p->cap = c->ev.len;
	}
	memcpy(p->buf, c->ev.payload, c->ev.len);
	p->len = c->ev.len;
	p->cpu = c->cpu;
	p->ts = c->ev.ts;
	p->have = TRUE;
}

/*
 * "ftrace trace" of a boot-mapped array that holds the previous boot's
 * trace: a line says so, with what its addresses are mapped by (the
 * kernel's text_delta and each module's delta, trace_adjust_address()).
 */
static void th_last_boot_note(const struct th_tr *tr, const struct th_tctx *t)
{
	const struct th_last_boot *lb = t->lb;
	int i;

	if (lb->state != TH_LB_LAST) {
		fprintf(fp, "# tracehunt: %s%s is boot-mapped, but whether it "
			"holds the previous boot's trace cannot be told (%s): "
			"its addresses printed as they are\n",
			tr->name[0] ? "instance " : "",
			tr->name[0] ? tr->name : "trace", lb->why);
		return;
	}
	fprintf(fp, "# tracehunt: %s%s holds the previous boot's trace",
		tr->name[0] ? "instance " : "", tr->name[0] ? tr->name : "trace");
	if (lb->have_scratch)
		fprintf(fp, " (kernel text then at %lx)", lb->text_addr);
	fprintf(fp, "; its addresses mapped as trace_adjust_address() does: "
		"kernel %c%#lx", lb->text_delta < 0 ? '-' : '+',
		lb->text_delta < 0 ? -(ulong)lb->text_delta :
		(ulong)lb->text_delta);
	for (i = 0; i < lb->nmods; i++) {
		const struct th_lb_mod *m = &lb->mods[i];

		if (!lb->have_deltas)
			fprintf(fp, ", %s (no module deltas: kept)", m->name);
		else if (m->delta || th_module_listed(m->name))
			fprintf(fp, ", %s %c%#lx", m->name,
				m->delta < 0 ? '-' : '+', m->delta < 0 ?
				-(ulong)m->delta : (ulong)m->delta);
		else
			fprintf(fp, ", %s (not loaded now: kept)", m->name);
	}
	fprintf(fp, "\n");
	if (lb->why[0])
		fprintf(fp, "# tracehunt: %s\n", lb->why);
}

static void th_snapshot_help(struct th_tr *tr, int cpu_file);

/* A snapshot file whose CPUs are empty (trace_empty()): its header and
 * the snapshot help, RB closed; FALSE otherwise. */
static int th_snapshot_empty(struct th_tr *tr, struct th_rb *rb, int cpu)
{
	struct th_tctx t;

	if (!th_trace_empty(rb, cpu))
		return FALSE;
	th_tctx_init(&t, tr->addr);
	fprintf(fp, "# tracer: %s\n#\n", t.tracer);
	th_snapshot_help(tr, cpu);
	th_tctx_done(&t);
	th_rb_close(rb);
	return TRUE;
}

/* print_snapshot_help(): an empty snapshot file (s_show() with
 * trace_empty()), after "# tracer: NAME\n#\n" */
static void th_snapshot_help(struct th_tr *tr, int cpu_file)
{
	int alloc = FALSE;

	th_tr_allocated_snapshot(tr->addr, &alloc);
	fputs(alloc ? "#\n# * Snapshot is allocated *\n#\n" :
	      "#\n# * Snapshot is freed *\n#\n", fp);
	fputs("# Snapshot commands:\n", fp);
	if (cpu_file < 0) {	/* show_snapshot_main_help() */
		fputs("# echo 0 > snapshot : Clears and frees snapshot "
		      "buffer\n"
		      "# echo 1 > snapshot : Allocates snapshot buffer, if "
		      "not already allocated.\n"
		      "#                      Takes a snapshot of the main "
		      "buffer.\n"
		      "# echo 2 > snapshot : Clears snapshot buffer (but does "
		      "not allocate or free)\n", fp);
	} else {		/* show_snapshot_percpu_help() */
		fputs("# echo 0 > snapshot : Invalid for per_cpu snapshot "
		      "file.\n", fp);
		/* CONFIG_RING_BUFFER_ALLOW_SWAP: ring_buffer_swap_cpu() */
		if (th_symbol("ring_buffer_swap_cpu"))
			fputs("# echo 1 > snapshot : Allocates snapshot "
			      "buffer, if not already allocated.\n"
			      "#                      Takes a snapshot of the "
			      "main buffer for this cpu.\n", fp);
		else
			fputs("# echo 1 > snapshot : Not supported with this "
			      "kernel.\n"
			      "#                     Must use main snapshot "
			      "file to allocate.\n", fp);
		fputs("# echo 2 > snapshot : Clears this cpu's snapshot "
		      "buffer (but does not allocate)\n", fp);
	}
	fputs("#                      (Doesn't have to be '2' works with any "
	      "number that\n"
	      "#                       is not a '0' or '1')\n", fp);
}

/*
 * Print the entries of TR's buffer selected by S: all of them, or the
 * last LAST when LAST >= 0 (a first pass counts them).
 */
/*
 * The entries of RB's CPUs merged in time order, those S selects printed
 * as T prints them (after the first SKIP; LAST: "the last N" asked, -1
 * for the whole file); PEND holds a latency line's entry.
 */
static void th_trace_merged(struct th_tctx *t, struct th_rb *rb,
			    const struct th_sel *s, struct th_lat_pend *pend,
			    long skip, long last)
{
	struct th_rbcpu *c, *end = rb->cpus + rb->ncpus, *limc;
	uint64_t lim;
	/* no event filter: function and system call entries run by run
	 * once the entries to skip are behind */
	int fast = !s->nevents && !t->f_lat_fmt;
	/* the lines made on a helper thread: crash's thread reads, merges
	 * and finds the runs with its own copy of the options (the
	 * helper's T changes as it prints) */
	int helper = fast && !skip && last < 0 && th_helper_start(t, rb);
	struct th_tctx tc = *t;

	for (;;) {
		/* the CPU with the oldest entry, and the one with
		 * the next oldest among the others: C's entries come
		 * next while they are older than that one (on a tie,
		 * the lower CPU first, as th_rb_next() picks) */
		c = th_rb_next2(rb, &limc);
		if (!limc)
			limc = end;
		if (!c)
			break;
		lim = limc == end ? ~0ULL : limc->ev.ts;
		if (fast && !helper && limc != end)
			th_context_prefetch(limc->cpu);
		do {
			if (helper) {
				int r = th_helper_run(&tc, c, lim, c < limc);

				if (r == TH_HELPER_LEAVE) {
					th_helper_end(rb);
					helper = FALSE;
				} else if (r)
					;	/* handed over */
				else if (c->ev.len >= 8 &&
					 th_sel_event(s, c->ev.payload)) {
					/* printed here, after the helper's
					 * lines */
					th_helper_drain();
					th_trace_emit(t, pend, c);
					tc = *t;
					if (th_helper_wasteful()) {
						th_helper_end(rb);
						helper = FALSE;
					}
				}
			} else if (fast && !skip &&
			    th_print_run(t, c, lim, c < limc))
				;	/* printed, with what follows */
			else if (c->ev.len >= 8 &&
				 th_sel_event(s, c->ev.payload)) {
				if (skip > 0) {
					/* as "cat trace" saw it: its
					 * CPU started, its index
					 * counted (test_cpu_buff_start
					 * annotates only what follows) */
					skip--;
					t->idx++;
					if (c->cpu < 64)
						t->started |=
						    1UL << c->cpu;
				} else
					th_trace_emit(t, pend, c);
			}
			th_rb_cpu_advance(c);
		} while (th_rb_cpu_peek(c) &&
			 (c->ev.ts < lim ||
			  (c->ev.ts == lim && c < limc)));
	}
	if (helper)
		th_helper_end(rb);
}

void th_trace_print(struct th_tr *tr, const struct th_sel *s, int header,
		    long last)
{
	struct th_tctx t;
	struct th_rb rb;
	struct th_lat_pend pend = { 0 };
	char err[256];
	long skip = 0;
	int i, max;

	/* __tracing_open(): the snapshot files, and the trace files of a
	 * tracer with print_max, read the max buffer */
	max = s->snapshot || th_tr_prints_max(tr->addr);
	if (!th_rb_open(tr->addr, max, &rb, err, sizeof(err))) {
		fprintf(fp, "ftrace: %s%s%s: %s\n", tr->name[0] ? "instance " :
			"", tr->name, tr->name[0] ? "" : "trace", err);
		return;
	}
	if (header && s->snapshot && th_snapshot_empty(tr, &rb, s->cpu))
		return;
	th_out_begin();
	th_ob_reset();
	th_tctx_init(&t, tr->addr);
	t.max = max;
	t.cpu_file = s->cpu;
	t.time_start = rb.time_start;
	t.annotate = th_rb_overruns(&rb) > 0 &&
		     th_tflag(&t, "TRACE_ITER_ANNOTATE_BIT");
	th_trace_start(&rb, s, header ? -1 : last);
	if (header)
		th_trace_header(&t, &rb);
	else if (t.lb)
		th_last_boot_note(tr, &t);
	if (last >= 0)
		skip = th_trace_skip(&t, &rb, s, last);
	if (t.graph) {
		th_graph_check_opts(tr);
		th_graph_print(&t, &rb, th_sel_want, (void *)s, skip);
	} else
		th_trace_merged(&t, &rb, s, &pend, skip, last);
	th_lat_flush(&t, &pend, pend.ts);
	free(pend.buf);
	th_ob_flush();
	for (i = 0; i < rb.ncpus; i++) {
		if (rb.cpus[i].cpu_unreadable && th_sel_cpu(s, rb.cpus[i].cpu))
			fprintf(fp, "# tracehunt: CPU %d: cannot read its "
				"ring_buffer_per_cpu %lx (not in the dump): no "
				"entries of this CPU\n", rb.cpus[i].cpu,
				rb.cpus[i].cpu_buffer);
		if (rb.cpus[i].bad)
			fprintf(fp, "# tracehunt: CPU %d: %ld malformed or "
				"unreadable records/sub-buffers skipped\n",
				rb.cpus[i].cpu, rb.cpus[i].bad);
		if (rb.cpus[i].uncommitted)
			fprintf(fp, "# tracehunt: CPU %d: %lu bytes reserved "
				"but never committed (an event being written "
				"at the crash) dropped\n", rb.cpus[i].cpu,
				rb.cpus[i].uncommitted);
	}
	th_out_end(NULL);
	th_tctx_done(&t);
	th_rb_close(&rb);
}

/**
 * th_trace_file - the trace file of an array, or per_cpu/cpuN/trace
 * @tr: the trace array
 * @cpu: the CPU of per_cpu/cpuN/trace, or -1 for "trace"
 */
void th_trace_file(struct th_tr *tr, int cpu)
{
	struct th_sel s;

	memset(&s, 0, sizeof(s));
	s.cpu = cpu;
	th_trace_print(tr, &s, TRUE, -1);
}

/* "ftrace trace -R": every selected CPU's sub-buffers read, not decoded. */
void th_trace_read_all(struct th_tr *tr, const struct th_sel *s)
{
	struct th_rb rb;
	char err[256];
	ulong nsub, nbytes, tsub = 0, tbytes = 0;
	int i;

	if (!th_rb_open(tr->addr, FALSE, &rb, err, sizeof(err))) {
		fprintf(fp, "ftrace trace: %s\n", err);
		return;
	}
	for (i = 0; i < rb.ncpus; i++) {
		if (!th_sel_cpu(s, rb.cpus[i].cpu))
			continue;
		th_rb_cpu_read_all(&rb.cpus[i], &nsub, &nbytes);
		fprintf(fp, "CPU %d: %lu sub-buffers read, %lu bytes "
			"committed\n", rb.cpus[i].cpu, nsub, nbytes);
		tsub += nsub;
		tbytes += nbytes;
	}
	fprintf(fp, "total: %lu sub-buffers read, %lu bytes committed\n",
		tsub, tbytes);
	th_rb_close(&rb);
}

/* "ftrace trace -r": the raw records of every selected CPU. */
void th_trace_raw(struct th_tr *tr, const struct th_sel *s, long max)
{
	struct th_rb rb;
	char err[256];
	int i;

	if (!th_rb_open(tr->addr, FALSE, &rb, err, sizeof(err))) {
		fprintf(fp, "ftrace trace: %s\n", err);
		return;
	}
	for (i = 0; i < rb.ncpus; i++)
		if (th_sel_cpu(s, rb.cpus[i].cpu))
			th_rb_cpu_raw(&rb.cpus[i], max);
	th_rb_close(&rb);
}
