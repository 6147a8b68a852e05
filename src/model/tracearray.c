/*
 * tracehunt: trace arrays: the global one and every instance.
 */
#include "model/model.h"

static struct th_tr *th_trs;
static int th_ntrs = -1;

int th_trace_arrays(struct th_tr **out)
{
	ulong head = th_symbol("ftrace_trace_arrays");
	ulong global = th_symbol("global_trace");
	long o_list = th_member("trace_array", "list");
	long o_name = th_member("trace_array", "name");
	struct th_walk w;
	long i;
	int cap = 8;

	if (th_ntrs >= 0) {
		*out = th_trs;
		return th_ntrs;
	}
	th_ntrs = 0;
	if (!global) {
		*out = NULL;
		return 0;
	}
	th_trs = calloc(cap, sizeof(*th_trs));
	th_trs[0].addr = global;
	th_trs[0].name[0] = '\0';
	th_ntrs = 1;
	if (head && o_list >= 0 && o_name >= 0) {
		th_list_walk(head, 10000, &w);
		if (w.err)
			th_warn("ftrace_trace_arrays: %s at %lx", w.err, w.bad);
		for (i = 0; i < w.n; i++) {
			ulong tr = w.ent[i] - o_list, np = 0;

			if (tr == global)
				continue;
			if (th_ntrs >= cap) {
				cap *= 2;
				th_trs = realloc(th_trs, cap * sizeof(*th_trs));
			}
			memset(&th_trs[th_ntrs], 0, sizeof(th_trs[0]));
			th_trs[th_ntrs].addr = tr;
			if (!th_read_ulong(tr + o_name, &np, "trace_array.name") ||
			    !th_read_cstr(np, th_trs[th_ntrs].name,
					  sizeof(th_trs[0].name),
					  "trace_array.name") ||
			    !th_trs[th_ntrs].name[0])
				snprintf(th_trs[th_ntrs].name,
					 sizeof(th_trs[0].name), "?%lx", tr);
			th_ntrs++;
		}
		th_walk_free(&w);
	}
	*out = th_trs;
	return th_ntrs;
}

struct th_tr *th_trace_array_by_name(const char *name)
{
	struct th_tr *trs;
	int n = th_trace_arrays(&trs), i;

	for (i = 0; i < n; i++)
		if (strcmp(trs[i].name, name ? name : "") == 0)
			return &trs[i];
	return NULL;
}
