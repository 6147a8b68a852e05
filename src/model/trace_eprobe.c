/*
 * tracehunt: an event probe's source event: trace_eprobe.event_system and
 * .event_name, around the trace_probe its event holds (Linux kernel
 * commit 7491e2c44278 ("tracing: Add a probe that attaches to trace
 * events") (in v5.15)).  The only file that reads struct trace_eprobe.
 */
#include "model/trace_eprobe.h"
#include "model/trace_probe.h"

static struct {
	int filled;
	long tp, sys, name, devent;
} epo;

static void th_eprobe_off(void)
{
	if (epo.filled)
		return;
	epo.filled = 1;
	epo.tp = th_member("trace_eprobe", "tp");
	epo.sys = th_member("trace_eprobe", "event_system");
	epo.name = th_member("trace_eprobe", "event_name");
	epo.devent = th_member("trace_eprobe", "devent");
}

/* "SYSTEM.EVENT" of the trace_eprobe at EP. */
static int th_eprobe_event(ulong ep, char *buf, size_t len)
{
	ulong ps = 0, pn = 0;
	char sys[64], name[128];

	if (!th_read_ulong(ep + epo.sys, &ps, "trace_eprobe.event_system") ||
	    !th_read_ulong(ep + epo.name, &pn, "trace_eprobe.event_name") ||
	    !ps || !pn ||
	    !th_read_cstr(ps, sys, sizeof(sys), "event_system") ||
	    !th_read_cstr(pn, name, sizeof(name), "event_name"))
		return FALSE;
	snprintf(buf, len, "%s.%s", sys, name);
	return TRUE;
}

int th_eprobe_source(ulong call, char *buf, size_t len)
{
	ulong tp;

	buf[0] = '\0';
	th_eprobe_off();
	if (epo.tp < 0 || epo.sys < 0 || epo.name < 0)
		return FALSE;
	tp = th_trace_probe_of_call(call);
	if (!tp)
		return FALSE;
	return th_eprobe_event(tp - epo.tp, buf, len);
}

int th_eprobe_ok(void)
{
	th_eprobe_off();
	return epo.tp >= 0 && epo.sys >= 0 && epo.name >= 0 &&
		epo.devent >= 0 && th_trace_probe_ok();
}

int th_eprobe_dyn(ulong ev, ulong *tp, char *buf, size_t len)
{
	buf[0] = '\0';
	*tp = 0;
	if (!th_eprobe_ok())
		return FALSE;
	*tp = ev - epo.devent + epo.tp;
	return th_eprobe_event(ev - epo.devent, buf, len);
}
