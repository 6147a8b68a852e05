/*
 * tracehunt: kprobe_events and kprobe_profile — the trace events built on
 * kprobes (kernel/trace/trace_kprobe.c).
 */
#include "tracefs/tracefs.h"
#include "model/kprobes.h"
#include "model/trace_kprobe.h"
#include "model/trace_probe.h"
#include "model/ptr_key.h"
#include "printfmt.h"

/* " 0x%p" of a kprobe on a raw address (trace_kprobe_show()): hashed with
 * the kernel's ptr_key as ptr_to_id() does ("(____ptrval____)" before
 * the key was filled); the address itself with no_hash_pointers, or when
 * the dump does not hold the key. */
static void tk_show_addr(ulong addr)
{
	const struct th_ptr_key *k = th_ptr_key();

	if (k->state == TH_PTRKEY_FILLED && addr)
		fprintf(fp, " 0x%016llx", (unsigned long long)
			(pf_siphash_1u64(addr, k->key) & 0xffffffff));
	else if (k->state == TH_PTRKEY_UNFILLED && addr)
		fprintf(fp, " 0x(____ptrval____)");
	else
		fprintf(fp, " 0x%016lx", addr);
}

/**
 * th_probe_args_show - a probe event's fetch arguments as its line in
 * kprobe_events, uprobe_events and dynamic_events ends: " NAME=COMM"
 * each, the command as it was written (trace_kprobe_show(),
 * trace_uprobe_show())
 * @tp: the event's struct trace_probe
 */
void th_probe_args_show(ulong tp)
{
	char name[256], comm[512];
	int nr = th_trace_probe_nr_args(tp), i;

	for (i = 0; i < nr; i++) {
		if (th_probe_arg_name(tp, i, name, sizeof(name)) < 0)
			continue;
		th_probe_arg_comm(tp, i, comm, sizeof(comm));
		fprintf(fp, " %s=%s", name, comm);
	}
}

/* trace_kprobe_show() */
static void tk_show(ulong tk)
{
	struct th_kretprobe rp;
	ulong kp = th_tk_kprobe(tk);
	unsigned int offset;
	char group[64], name[128], buf[256];

	th_kretprobe_of(kp, &rp);
	fputc(rp.handler ? 'r' : 'p', fp);
	if (rp.handler && rp.maxactive && th_tk_shows_maxactive())
		fprintf(fp, "%d", rp.maxactive);
	th_tk_names(tk, group, sizeof(group), name, sizeof(name));
	fprintf(fp, ":%s/%s", group, name);
	offset = th_kprobe_offset(kp);
	if (!th_tk_symbol(tk, buf, sizeof(buf))) {
		tk_show_addr(th_kprobe_addr(kp));
	} else {
		if (offset)
			fprintf(fp, " %s+%u", buf, offset);
		else
			fprintf(fp, " %s", buf);
	}
	th_probe_args_show(th_tk_probe(tk));
	fputc('\n', fp);
}

/**
 * th_kprobe_dyn_show - a kprobe event's line of dynamic_events: the same
 * trace_kprobe_show() as kprobe_events'
 * @ev: its struct dyn_event
 */
void th_kprobe_dyn_show(ulong ev)
{
	ulong tk = th_tk_of_dyn_event(ev);

	if (tk)
		tk_show(tk);
}

/* probes_profile_seq_show() */
static void tk_profile(ulong tk)
{
	char group[64], name[128];

	th_tk_names(tk, group, sizeof(group), name, sizeof(name));
	fprintf(fp, "  %-44s %15lu %15lu\n", name, th_tk_nhit(tk),
		th_kprobe_nmissed(th_tk_kprobe(tk)));
}

/**
 * th_missing_kprobe_events - without kprobe events (CONFIG_KPROBE_EVENTS) or
 * their types, neither kprobe_events nor kprobe_profile.
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_kprobe_events(struct th_tr *tr,
				     const struct th_tref *ref, char *buf,
				     size_t len)
{
	if (th_trace_kprobes_ok())
		return NULL;
	snprintf(buf, len, "ftrace cat: %s: not available in this dump: no "
		 "kprobe events (CONFIG_KPROBE_EVENTS) or their types",
		 ref->file);
	return buf;
}

/**
 * th_cat_kprobe_events - kprobe_events (probes_seq_show()) or
 * kprobe_profile
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_kprobe_events(struct th_tr *tr, const struct th_tref *ref)
{
	int profile = strcmp(ref->file, "kprobe_profile") == 0;
	ulong *v;
	long n, i;

	n = th_trace_kprobes(&v);
	if (n < 0)
		return;
	for (i = 0; i < n; i++) {
		if (profile)
			tk_profile(v[i]);
		else
			tk_show(v[i]);
	}
	free(v);
}
