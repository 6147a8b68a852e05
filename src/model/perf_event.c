/*
 * tracehunt: the model's one reader of struct perf_event, perf_event_attr
 * and hw_perf_event (include/linux/perf_event.h).
 */
#include "model/perf_event.h"

static struct {
	int filled;
	long tp_event, attr, prog, handler, hw;	/* in struct perf_event */
	long type, bp_addr, bp_type, bp_len;	/* in perf_event_attr */
	long target;				/* in hw_perf_event */
} pe;

static void pe_fill(void)
{
	if (pe.filled)
		return;
	pe.filled = 1;
	pe.tp_event = th_member("perf_event", "tp_event");
	pe.attr = th_member("perf_event", "attr");
	/* perf_event.prog, which a trace event's PERF_EVENT_IOC_SET_BPF
	 * sets (besides adding it to the event's trace_event_call.prog_array)
	 * since Linux kernel commit e87c6bc3852b ("bpf: permit multiple bpf
	 * attachments for a single perf event") (in v4.15), and a
	 * bpf_perf_link's attach too */
	pe.prog = th_member("perf_event", "prog");
	pe.handler = th_member("perf_event", "overflow_handler");
	pe.hw = th_member("perf_event", "hw");
	pe.type = th_member("perf_event_attr", "type");
	/* in anonymous unions with config1 and config2 */
	pe.bp_addr = th_member_path("perf_event_attr", "bp_addr");
	pe.bp_type = th_member_path("perf_event_attr", "bp_type");
	pe.bp_len = th_member_path("perf_event_attr", "bp_len");
	/* hw_perf_event.target since Linux kernel commit 50f16a8bf9d7
	 * ("perf: Remove type specific target pointers") (in v4.1); the
	 * breakpoint's own bp_target before */
	pe.target = th_member_path("hw_perf_event", "target");
	if (pe.target < 0)
		pe.target = th_member_path("hw_perf_event", "bp_target");
}

int th_perf_event_tp(ulong ev, ulong *call, unsigned int *type)
{
	pe_fill();
	return pe.tp_event >= 0 && pe.attr >= 0 && pe.type >= 0 &&
	       th_read_ulong(ev + pe.tp_event, call, "perf_event.tp_event") &&
	       th_read_uint(ev + pe.attr + pe.type, type,
			    "perf_event.attr.type");
}

int th_perf_event_has_prog(void)
{
	pe_fill();
	return pe.prog >= 0;
}

int th_perf_event_prog(ulong ev, ulong *prog)
{
	pe_fill();
	return pe.prog >= 0 &&
	       th_read_ulong(ev + pe.prog, prog, "perf_event.prog");
}

int th_perf_bp_ok(const char **why)
{
	pe_fill();
	if (pe.attr < 0 || pe.handler < 0 || pe.bp_addr < 0 ||
	    pe.bp_type < 0 || pe.bp_len < 0) {
		*why = "struct perf_event's attr and overflow_handler";
		return FALSE;
	}
	return TRUE;
}

int th_perf_event_bp(ulong ev, struct th_perf_bp *bp)
{
	uint64_t addr;

	pe_fill();
	memset(bp, 0, sizeof(*bp));
	if (!th_read_uint(ev + pe.attr + pe.bp_type, &bp->type,
			  "perf_event.attr.bp_type") ||
	    !th_read_u64(ev + pe.attr + pe.bp_addr, &addr,
			 "perf_event.attr.bp_addr") ||
	    !th_read_u64(ev + pe.attr + pe.bp_len, &bp->len,
			 "perf_event.attr.bp_len") ||
	    !th_read_ulong(ev + pe.handler, &bp->handler,
			   "perf_event.overflow_handler"))
		return FALSE;
	/* (what the breakpoint runs: code, or the perf event is damaged) */
	if (bp->handler)
		th_check_code("perf_event", ev, bp->handler,
			      "overflow_handler");
	bp->addr = addr;
	if (pe.hw < 0 || pe.target < 0 ||
	    !th_read_ulong(ev + pe.hw + pe.target, &bp->task,
			   "perf_event.hw.target"))
		bp->task = 0;
	return TRUE;
}
