/*
 * tracehunt: uprobe_events and uprobe_profile — the trace events built on
 * uprobes (kernel/trace/trace_uprobe.c).
 */
#include "tracefs/tracefs.h"
#include "model/trace_uprobe.h"

/**
 * th_uprobe_dyn_show - one uprobe event's line, as trace_uprobe_show()
 * prints it in uprobe_events and dynamic_events: "p:GROUP/EVENT
 * FILE:0x%016lx", "(0x%lx)" of a reference counter, the fetch arguments
 * @tu: struct trace_uprobe
 */
void th_uprobe_dyn_show(ulong tu)
{
	char group[64], name[128], file[512];
	ulong offset = 0, ref = 0;

	th_tu_names(tu, group, sizeof(group), name, sizeof(name));
	th_tu_filename(tu, file, sizeof(file));
	th_tu_offsets(tu, &offset, &ref);
	fprintf(fp, "%c:%s/%s %s:0x%0*lx", th_tu_is_ret(tu) ? 'r' : 'p',
		group, name, file, (int)(sizeof(void *) * 2), offset);
	if (ref)
		fprintf(fp, "(0x%lx)", ref);
	th_probe_args_show(th_tu_probe(tu));
	fputc('\n', fp);
}

/* probes_profile_seq_show() */
static void tu_profile(ulong tu)
{
	char group[64], name[128], file[512];

	th_tu_names(tu, group, sizeof(group), name, sizeof(name));
	th_tu_filename(tu, file, sizeof(file));
	fprintf(fp, "  %s %-44s %15lu\n", file, name, th_tu_nhit(tu));
}

/**
 * th_missing_uprobe_events - without uprobe events (CONFIG_UPROBE_EVENTS)
 * or their types, neither uprobe_events nor uprobe_profile.
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_uprobe_events(struct th_tr *tr,
				     const struct th_tref *ref, char *buf,
				     size_t len)
{
	if (th_trace_uprobes_ok())
		return NULL;
	snprintf(buf, len, "ftrace cat: %s: not available in this dump: no "
		 "uprobe events (CONFIG_UPROBE_EVENTS) or their types",
		 ref->file);
	return buf;
}

/**
 * th_cat_uprobe_events - uprobe_events (probes_seq_show()) or
 * uprobe_profile
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_uprobe_events(struct th_tr *tr, const struct th_tref *ref)
{
	int profile = strcmp(ref->file, "uprobe_profile") == 0;
	ulong *v;
	long n, i;

	n = th_trace_uprobes(&v);
	if (n < 0)
		return;
	for (i = 0; i < n; i++) {
		if (profile)
			tu_profile(v[i]);
		else
			th_uprobe_dyn_show(v[i]);
	}
	free(v);
}
