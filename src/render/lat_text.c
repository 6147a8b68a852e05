/*
 * tracehunt: the text of the latency tracers' own entries after the
 * context columns, as their funcs->trace prints it (trace_output.c):
 * trace_ctx_print() and trace_wake_print() (the wakeup tracers),
 * trace_hwlat_print(), trace_osnoise_print(), trace_timerlat_print().
 */
#include "render/trace_priv.h"
#include "model/trace_entries.h"
#include "model/trace_opts.h"

/* Bounded reads of the entry's members (0 for a member it lacks). */
static uint64_t th_lt_u64(const struct th_tctx *t, long off)
{
	uint64_t v = 0;

	if (off >= 0 && (uint64_t)off + 8 <= t->len)
		memcpy(&v, t->ent + off, 8);
	return v;
}

static uint32_t th_lt_u32(const struct th_tctx *t, long off)
{
	uint32_t v = 0;

	if (off >= 0 && (uint64_t)off + 4 <= t->len)
		memcpy(&v, t->ent + off, 4);
	return v;
}

static unsigned char th_lt_u8(const struct th_tctx *t, long off)
{
	return off >= 0 && (uint64_t)off < t->len ? t->ent[off] : 0;
}

/* task_index_to_char(), or 3.10's task_state_char() (th_task_states()):
 * a letter past the kernel's table is its '?' */
static char th_state_char(unsigned v)
{
	const struct th_task_states *st = th_task_states();
	unsigned i = v;

	if (st->by_bit)
		i = v ? (unsigned)__builtin_ctz(v) + 1 : 0;
	return i < (unsigned)st->n ? st->chars[i] : '?';
}

/* trace_ctxwake_print() with DELIM ("==>" or "  +") */
static void th_ctxwake(struct th_tctx *t, struct th_sb *b, const char *delim)
{
	const struct th_lat_entries *o = th_lat_entries();
	int next_pid = (int)th_lt_u32(t, o->ctx_next_pid);
	int w = th_trace_pid_width();	/* 3.10: "%5d" */
	char comm[32];

	th_find_cmdline(next_pid, comm);
	th_sb_printf(b, " %*d:%3d:%c %s [%03d] %*d:%3d:%c %s\n",
		     w, (int)th_lt_u32(t, o->ctx_prev_pid),
		     th_lt_u8(t, o->ctx_prev_prio),
		     th_state_char(th_lt_u8(t, o->ctx_prev_state)), delim,
		     (int)th_lt_u32(t, o->ctx_next_cpu), w, next_pid,
		     th_lt_u8(t, o->ctx_next_prio),
		     th_state_char(th_lt_u8(t, o->ctx_next_state)), comm);
}

/* trace_hwlat_print(): "ts:%ptSp" is "%lld.%09ld" of the timespec64;
 * nmi-total only where sched_clock() is NMI-safe (x86: no
 * CONFIG_GENERIC_SCHED_CLOCK) */
static void th_hwlat(struct th_tctx *t, struct th_sb *b)
{
	const struct th_lat_entries *o = th_lat_entries();
	unsigned nmi = th_lt_u32(t, o->hw_nmi_count);

	th_sb_printf(b, "#%-5u inner/outer(us): %4llu/%-5llu ts:%lld.%09ld",
		     th_lt_u32(t, o->hw_seqnum),
		     (unsigned long long)th_lt_u64(t, o->hw_duration),
		     (unsigned long long)th_lt_u64(t, o->hw_outer),
		     (long long)th_lt_u64(t, o->hw_ts_sec),
		     (long)th_lt_u64(t, o->hw_ts_nsec));
	if (o->hw_count >= 0)
		th_sb_printf(b, " count:%d", (int)th_lt_u32(t, o->hw_count));
	if (nmi) {
		if (!th_symbol("sched_clock_register"))
			th_sb_printf(b, " nmi-total:%llu", (unsigned long long)
				     th_lt_u64(t, o->hw_nmi_total));
		th_sb_printf(b, " nmi-count:%u", nmi);
	}
	th_sb_printf(b, "\n");
}

/* trace_osnoise_print(): the available share of the CPU to five
 * decimals, from runtime and noise as do_div() computes it */
static void th_osnoise(struct th_tctx *t, struct th_sb *b)
{
	const struct th_lat_entries *o = th_lat_entries();
	uint64_t runtime = th_lt_u64(t, o->os_runtime);
	uint64_t noise = th_lt_u64(t, o->os_noise), ratio = 0, dec = 0;

	if (runtime) {
		ratio = (runtime - noise) * 10000000 / runtime;
		dec = ratio % 100000;
		ratio /= 100000;
	}
	th_sb_printf(b, "%llu %10llu %3llu.%05llu %7llu",
		     (unsigned long long)runtime, (unsigned long long)noise,
		     (unsigned long long)ratio, (unsigned long long)dec,
		     (unsigned long long)th_lt_u64(t, o->os_max_sample));
	th_sb_printf(b, " %6u %6u %6u %6u %6u\n", th_lt_u32(t, o->os_hw),
		     th_lt_u32(t, o->os_nmi), th_lt_u32(t, o->os_irq),
		     th_lt_u32(t, o->os_softirq), th_lt_u32(t, o->os_thread));
}

/* trace_timerlat_print() */
static void th_timerlat(struct th_tctx *t, struct th_sb *b)
{
	const struct th_lat_entries *o = th_lat_entries();
	char ctx[32];

	if (!th_timerlat_context((int)th_lt_u32(t, o->tl_context), ctx,
				 sizeof(ctx)))
		snprintf(ctx, sizeof(ctx), "?%d",
			 (int)th_lt_u32(t, o->tl_context));
	th_sb_printf(b, "#%-5u context %6s timer_latency %9llu ns\n",
		     th_lt_u32(t, o->tl_seqnum), ctx,
		     (unsigned long long)th_lt_u64(t, o->tl_latency));
}

/**
 * th_lat_entry_text - the text of T's entry of TYPE when it is one of the
 * latency tracers' entries
 * @t: the entry
 * @type: its type
 * @b: where its text goes
 *
 * Return: FALSE when TYPE is none of them.
 */
int th_lat_entry_text(struct th_tctx *t, unsigned type, struct th_sb *b)
{
	const struct th_trace_types *tt = th_trace_types();

	if ((long)type == tt->ctx)
		th_ctxwake(t, b, "==>");
	else if ((long)type == tt->wake)
		th_ctxwake(t, b, "  +");
	else if ((long)type == tt->hwlat)
		th_hwlat(t, b);
	else if ((long)type == tt->osnoise)
		th_osnoise(t, b);
	else if ((long)type == tt->timerlat)
		th_timerlat(t, b);
	else
		return FALSE;
	return TRUE;
}
