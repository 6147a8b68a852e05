/*
 * tracehunt: tracers in the model: the trace_types list, a tracer's name,
 * flags and whether instances may use it.
 */
#include "model/model.h"
#include "model/ftrace_files.h"


/* trace_ok_for_array(): the global array takes every tracer, an instance
 * only those with allow_instances. */
int ff_tracer_ok(struct th_tr *tr, ulong t)
{
	long o = th_member("tracer", "allow_instances");
	unsigned char allow = 0;

	if (!tr->name[0])
		return TRUE;
	if (o < 0 || !th_read(t + o, &allow, 1, "tracer.allow_instances"))
		return FALSE;
	return allow != 0;
}

/* Every tracer on trace_types, in list order, bounded and cycle-safe. */
int ff_tracers(ulong *out, int max)
{
	ulong head = th_symbol("trace_types"), t = 0, seen;
	long o_next = th_member("tracer", "next");
	int n = 0, i;

	if (!head || o_next < 0 || !th_read_ulong(head, &t, "trace_types"))
		return -1;
	while (t && n < max) {
		if (!th_kptr(t))
			return n;
		for (i = 0; i < n; i++)
			if (out[i] == t)
				return n;
		out[n++] = t;
		if (!th_read_ulong(t + o_next, &seen, "tracer.next"))
			return n;
		t = seen;
	}
	return n;
}

char *ff_tracer_name(ulong t, char *buf, int len)
{
	ulong np = 0;

	if (!th_read_ulong(t + th_member("tracer", "name"), &np,
			   "tracer.name") || !th_read_cstr(np, buf, len,
							   "tracer.name"))
		snprintf(buf, len, "?%lx", t);
	return buf;
}


ulong ff_current_tracer(struct th_tr *tr)
{
	ulong t = 0;

	th_read_ulong(tr->addr + th_member("trace_array", "current_trace"), &t,
		      "trace_array.current_trace");
	return t;
}
