/*
 * tracehunt: what the trace printers follow while printing a trace
 * array's buffer (struct th_tctx): its options and tracer, read once,
 * and the latency columns of an entry (trace_print_lat_fmt()).
 */
#include "render/trace_priv.h"
#include "model/trace_entries.h"
#include "model/trace_opts.h"
#include "model/cmdlines.h"
#include "model/ftrace_files.h"

/* trace_print_lat_fmt(): irqs-off, need-resched, hardirq/softirq,
 * preempt-depth, migrate-disable */
static int th_lat_str_make(const unsigned char *ent, char *out)
{
	static const char hex[] = "0123456789abcdef";
	unsigned flags = ent[2], pc = ent[3];
	char irqs_off, need_resched, hs;
	int nmi, hardirq, softirq, bh_off;
	const struct th_entry_flags *fl = th_entry_flags();

	nmi = flags & fl->nmi;
	hardirq = flags & fl->hardirq;
	softirq = flags & fl->softirq;
	bh_off = fl->bh_off ? flags & fl->bh_off : 0;
	irqs_off = (flags & fl->irqs_off && bh_off) ? 'D' :
		   (flags & fl->irqs_off) ? 'd' :
		   bh_off ? 'b' :
		   (fl->nosupport && (flags & fl->nosupport)) ? 'X' : '.';
	{
		int nr = !!(flags & fl->need_resched);
		int lz = fl->lazy ? !!(flags & fl->lazy) : 0;
		int pr = !!(flags & fl->preempt_resched);

		/* NEED_RESCHED, LAZY, PREEMPT_RESCHED -> column */
		static const char col[8] = {
			'.', 'p', 'l', 'L', 'n', 'N', 'b', 'B',
		};
		need_resched = col[nr << 2 | lz << 1 | pr];
		/* before PREEMPT_RESCHED (3.10): 'N' for NEED_RESCHED */
		if (!fl->preempt_resched && nr)
			need_resched = 'N';
	}
	hs = (nmi && hardirq) ? 'Z' : nmi ? 'z' :
	     (hardirq && softirq) ? 'H' : hardirq ? 'h' :
	     softirq ? 's' : '.';
	out[0] = irqs_off;
	out[1] = need_resched;
	out[2] = hs;
	if (!th_lat_migrate()) {
		/* the whole preempt_count: "%x" of a byte, or '.' */
		if (!pc) {
			out[3] = '.';
			return 4;
		}
		if (pc >> 4) {
			out[3] = hex[pc >> 4];
			out[4] = hex[pc & 0xf];
			return 5;
		}
		out[3] = hex[pc];
		return 4;
	}
	out[3] = (pc & 0xf) ? hex[pc & 0xf] : '.';
	out[4] = (pc & 0xf0) ? hex[pc >> 4] : '.';
	return 5;
}

/*
 * th_lat_str() of ENT into OUT, its length: the few (flags, preempt
 * count) pairs of a trace kept (the flags' bits and the columns they
 * give are the kernel's, the same for the whole dump).
 */
int th_lat_str(const unsigned char *ent, char *out)
{
	static struct {
		uint16_t key;
		uint8_t valid, len;
		char s[5];
	} c[256];
	unsigned key = ent[2] | ent[3] << 8, h = (ent[2] ^ ent[3] * 31) & 255;

	if (!c[h].valid || c[h].key != key) {
		c[h].len = (uint8_t)th_lat_str_make(ent, c[h].s);
		c[h].key = (uint16_t)key;
		c[h].valid = 1;
	}
	memcpy(out, c[h].s, 5);
	return c[h].len;
}

int th_tflag(struct th_tctx *t, const char *bit)
{
	/* Asked several times per entry: the bit numbers in a small cache
	 * found by the name's address first (th_enum() formats a key) */
	static struct {
		const char *name;
		long b;
	} c[32];
	static int n;
	long b;
	int i;

	for (i = 0; i < n; i++)
		if (c[i].name == bit && strcmp(c[i].name, bit) == 0)
			break;
	if (i < n)
		b = c[i].b;
	else {
		b = th_trace_iter_bit(bit);
		if (n < 32) {
			c[n].name = bit;
			c[n].b = b;
			n++;
		}
	}
	return b >= 0 && b < 32 && (t->trace_flags & (1U << b));
}

/* A boot-mapped array whose buffer the previous boot wrote: its
 * addresses are that boot's, mapped to this one's as the kernel's
 * printers do (trace_adjust_address(), and text_delta for
 * function_graph and the events printed by their fields); kept too when
 * which boot wrote it cannot be read. */
static void th_tctx_last_boot(struct th_tctx *t)
{
	struct th_last_boot *lb = malloc(sizeof(*lb));

	if (!lb)
		return;
	switch (th_last_boot_read(t->tr, lb)) {
	case TH_LB_LAST:
		t->text_delta = lb->text_delta;
		/* fall through */
	case TH_LB_UNKNOWN:	/* (for "ftrace trace" to say so) */
		t->lb = lb;
		return;
	default:
		break;
	}
	th_last_boot_free(lb);
	free(lb);
}

/*
 * Whether TR's trace files show its max (snapshot) buffer: its current
 * tracer is a latency tracer with print_max (wakeup*, irqsoff*), as
 * __tracing_open() chooses iter->array_buffer.
 */
int th_tr_prints_max(ulong tr)
{
	return th_tracer_prints_max(th_tr_current_tracer(tr)) == 1;
}

int th_tctx_init(struct th_tctx *t, ulong tr)
{
	struct th_tr_opts o;

	memset(t, 0, sizeof(*t));
	t->tr = tr;
	t->cpu_file = -1;
	th_tr_opts_read(tr, &o);
	t->trace_flags = o.trace_flags;
	t->in_ns = o.in_ns;
	strcpy(t->tracer_name, o.tracer);
	t->tracer = t->tracer_name;
	t->graph = strcmp(t->tracer_name, "function_graph") == 0;
	/* the bits every entry asks for, once */
	t->f_context = th_tflag(t, "TRACE_ITER_CONTEXT_INFO_BIT");
	t->f_irq = th_tflag(t, "TRACE_ITER_IRQ_INFO_BIT");
	t->f_printk_msgonly = th_tflag(t, "TRACE_ITER_PRINTK_BIT") &&
			      th_tflag(t, "TRACE_ITER_PRINTK_MSGONLY_BIT");
	/* a kernel without the hash-ptr option (5.10) printed an event's
	 * %p as the address itself (the bullseye options fixture) */
	t->f_hash_ptr = th_tflag(t, "TRACE_ITER_HASH_PTR_BIT");
	/* trace_event_printf() of a TP_printk() with nohash-ptr, where
	 * trace_check_vprintf() scanned the copy trace_event_format() made
	 * in its own buffer */
	t->first_s_empty = !t->f_hash_ptr &&
			   th_trace_iter_bit("TRACE_ITER_HASH_PTR_BIT") >= 0 &&
			   th_trace_fmt_scan_in_place();
	t->f_lat_fmt = th_tflag(t, "TRACE_ITER_LATENCY_FMT_BIT");
	t->f_tgid = th_tflag(t, "TRACE_ITER_RECORD_TGID_BIT");
	t->f_bin = th_tflag(t, "TRACE_ITER_BIN_BIT");
	t->f_hex = th_tflag(t, "TRACE_ITER_HEX_BIT");
	t->f_raw = th_tflag(t, "TRACE_ITER_RAW_BIT");
	t->f_verbose = th_tflag(t, "TRACE_ITER_VERBOSE_BIT");
	t->f_userobj = th_tflag(t, "TRACE_ITER_SYM_USEROBJ_BIT");
	/* "fields" (print_event_fields()): Linux kernel commit 80a76994b2d8
	 * ("tracing: Add "fields" option to show raw trace event fields")
	 * (in v6.3) */
	t->f_fields = th_tflag(t, "TRACE_ITER_FIELDS_BIT");
	/* TRACE_ITER_SYM_MASK: print-parent, sym-offset, sym-addr */
	t->sym_flags = (th_tflag(t, "TRACE_ITER_PRINT_PARENT_BIT") ? 4 : 0) |
		       (th_tflag(t, "TRACE_ITER_SYM_OFFSET_BIT") ? 1 : 0) |
		       (th_tflag(t, "TRACE_ITER_SYM_ADDR_BIT") ? 2 : 0);
	t->fn_args_len = th_fn_args_min(FALSE);
	th_tctx_last_boot(t);
	/* the task names of this trace may come from earlier commands'
	 * caches: their damage is said again */
	th_savedcmd_rewarn();
	return TRUE;
}

void th_tctx_done(struct th_tctx *t)
{
	if (t->lb) {
		th_last_boot_free(t->lb);
		free(t->lb);
		t->lb = NULL;
	}
	free(t->graph_state);
	t->graph_state = NULL;
}
