/*
 * tracehunt: "kprobes -j": the probes of "kprobes" and everything
 * "kprobes -v" tells about each, as one JSON document (schema:
 * docs/tracehunt-json.schema.json, "kprobes").
 */
#include "render/kprobes_report.h"
#include "render/json.h"
#include "model/trace_kprobe.h"
#include "kplist.h"

static void kpj_flags(const char *key, unsigned int f)
{
	static const struct { unsigned int bit; const char *name; } names[] = {
		{ KPL_FLAG_GONE, "GONE" }, { KPL_FLAG_DISABLED, "DISABLED" },
		{ KPL_FLAG_OPTIMIZED, "OPTIMIZED" },
		{ KPL_FLAG_FTRACE, "FTRACE" },
	};
	size_t i;

	th_json_key(key);
	th_json_arr();
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (f & names[i].bit)
			th_json_str(names[i].name);
	th_json_arr_end();
}

/* "symbol", "offset", "module" as kprobes/list names the address */
static void kpj_where(ulong addr)
{
	struct th_sym s;
	char ps[512];

	if (th_ksym_lookup(addr, &s)) {
		th_json_kstr("symbol", s.name);
		th_json_kuint("offset", s.offset);
		th_json_key("module");
		th_json_str(s.module[0] ? s.module : NULL);
	} else {
		th_json_kstr("symbol", th_kplist_nosym(addr, ps, sizeof(ps)));
		th_json_key("offset");
		th_json_null();
		th_json_key("module");
		th_json_null();
	}
}

static void kpj_kretprobe(struct kp_probe *k)
{
	struct th_kretprobe r;
	const char *where;
	long nfree, total;

	th_json_key("kretprobe");
	if (!th_kretprobe_of(k->kp, &r)) {
		th_json_null();
		return;
	}
	th_json_obj();
	th_json_kaddr("struct", r.addr);
	th_json_key("handler");
	th_json_code(r.handler);
	th_json_key("entry_handler");
	th_json_code(r.entry_handler);
	th_json_kint("maxactive", r.maxactive);
	th_json_kint("nmissed", r.nmissed);
	th_json_kuint("data_size", r.data_size);
	th_json_key("instances");
	where = th_kretprobe_instances(r.addr, r.maxactive, &nfree, &total);
	if (!where || nfree < 0) {
		th_json_null();
	} else {
		th_json_obj();
		th_json_kstr("kept_in", where);
		th_json_kint("free", nfree);
		th_json_kint("total", total);
		th_json_obj_end();
	}
	th_json_obj_end();
}

/* The trace events (kprobe_events) built on K: TKS from the caller. */
static void kpj_events(struct kp_probe *k, ulong *tks, long ntks)
{
	char group[64], name[128];
	long i;

	th_json_key("trace_events");
	th_json_arr();
	for (i = 0; i < ntks; i++) {
		if (th_tk_kprobe(tks[i]) != k->kp)
			continue;
		th_tk_names(tks[i], group, sizeof(group), name, sizeof(name));
		th_json_obj();
		th_json_kstr("group", group);
		th_json_kstr("event", name);
		th_json_kuint("hits", th_tk_nhit(tks[i]));
		th_json_obj_end();
	}
	th_json_arr_end();
}

static void kpj_probe(struct kp_probe *k, ulong *tks, long ntks)
{
	char type = th_kprobe_type(k), name[128], typestr[2] = { type, 0 };
	unsigned int off;
	unsigned char op;
	ulong e = 0;

	th_json_nl();
	th_json_obj();
	th_json_kaddr("address", k->addr);
	th_json_kstr("type", typestr);
	kpj_where(k->addr);
	kpj_flags("flags", k->flags);
	th_json_kaddr("struct", k->kp);
	th_json_key("struct_owner");
	th_json_owner(k->kp);
	th_json_kaddr_or_null("aggregate", k->parent);
	kpj_flags("site_flags", k->parent ? k->pflags : k->flags);
	th_json_kint("bucket", k->bucket);
	th_json_kuint("nmissed", k->nmissed);
	th_json_key("registered_as");
	if (th_kprobe_symbol_name(k->kp, name, sizeof(name), &off)) {
		th_json_obj();
		th_json_kstr("symbol", name);
		th_json_kuint("offset", off);
		th_json_obj_end();
	} else {
		th_json_null();
	}
	th_json_key("saved_opcode");
	if (th_kprobe_opcode(k->kp, &op))
		th_json_int(op);
	else
		th_json_null();
	th_json_key("pre_handler");
	th_json_code(k->pre);
	th_json_key("post_handler");
	th_json_code(k->post);
	th_json_key("fault_handler");
	th_json_code(k->fault);
	if (type == 'r')
		kpj_kretprobe(k);
	th_json_key("jprobe_entry");
	if (type == 'j' && th_jprobe_entry(k->kp, &e))
		th_json_code(e);
	else
		th_json_null();
	kpj_events(k, tks, ntks);
	th_json_obj_end();
}

/**
 * th_kprobes_json - "kprobes -j"
 * @v: the probes, from th_kprobes_collect()
 * @n: how many
 * @want: whether each is selected (NULL: all)
 */
void th_kprobes_json(struct kp_probe *v, long n, const char *want)
{
	ulong *tks = NULL;
	long ntks, i;

	th_json_begin("kprobes");
	ntks = th_trace_kprobes(&tks);
	th_json_key("probes");
	th_json_arr();
	for (i = 0; i < n; i++)
		if (!want || want[i])
			kpj_probe(&v[i], tks, ntks > 0 ? ntks : 0);
	th_json_nl();
	th_json_arr_end();
	free(tks);
	th_json_end();
}
