/*
 * tracehunt: "ftrace ops -j": every ftrace_ops on ftrace_ops_list with
 * what "ftrace ops -v" tells of it, one JSON document (schema:
 * docs/tracehunt-json.schema.json, "ftrace ops").
 */
#include "render/ops_report.h"
#include "render/json.h"

/* An owner thf_owner() gave (TEXT "heap": the direct map) as JSON. */
static void opj_owner_is(const struct th_owner *o, const char *text)
{
	th_json_owner_is(o, strcmp(text, "heap") ? NULL : "heap", text);
}

/* The owner of ADDR as the listing names it. */
static void opj_owner(ulong addr)
{
	struct th_owner o;
	char text[300];

	opj_owner_is(&o, thf_owner(addr, &o, text, sizeof(text)));
}

static void opj_flags(ulong flags)
{
	char fl[512], *tok, *save = NULL;

	th_json_kuint("flags", flags);
	th_json_key("flag_names");
	th_json_arr();
	thf_ops_flags_str(flags, fl, sizeof(fl));
	for (tok = strtok_r(fl, "|", &save); tok;
	     tok = strtok_r(NULL, "|", &save))
		th_json_str(tok);
	th_json_arr_end();
}

static void opj_hash(const char *key, const struct thf_hash *h)
{
	char sym[300];
	long i;

	th_json_key(key);
	th_json_obj();
	th_json_kaddr("address", h->addr);
	th_json_kbool("empty", thf_hash_empty(h));
	th_json_kuint("count", h->count);
	th_json_kbool("module_filter_pending", thf_hash_mod_pending(h));
	th_json_key("damaged");
	th_json_str(h->err);
	th_json_key("functions");
	th_json_arr();
	for (i = 0; i < h->n; i++) {
		ulong ip = thf_hash_ip_sorted(h, i);

		th_json_obj();
		th_json_kaddr("address", ip);
		th_json_kstr("symbol", th_ksym_ps(ip, sym, sizeof(sym)));
		th_json_obj_end();
	}
	th_json_arr_end();
	th_json_obj_end();
}

static void opj_tramp(struct thf_state *s, const struct thf_ops *op)
{
	int own = s->ops_fl_alloc_tramp && (op->flags & s->ops_fl_alloc_tramp);
	ulong calls;

	th_json_key("trampoline");
	if (!op->trampoline) {
		th_json_null();
		return;
	}
	th_json_obj();
	th_json_kaddr("address", op->trampoline);
	th_json_kuint("size", op->trampoline_size);
	/* allocated by ftrace for this ops: core-owned module space */
	th_json_kbool("ftrace_allocated", own);
	th_json_key("owner");
	if (own)
		th_json_null();
	else
		opj_owner(op->trampoline);
	th_json_key("calls");
	calls = own ? thf_tramp_func(s, op, NULL) : 0;
	th_json_code(calls);
	th_json_obj_end();
}

static void opj_subops(const struct thf_ops *op)
{
	struct th_walk w;
	struct thf_ops sub;
	ulong managed = thf_ops_managed(op->addr), fn;
	long i;

	th_json_kaddr_or_null("managed_by", managed);
	th_json_key("subops");
	th_json_arr();
	if (thf_subops_walk(op->addr, &w)) {
		for (i = 0; i < w.n; i++) {
			th_json_obj();
			th_json_kaddr("address", w.ent[i]);
			if (thf_ops_read(w.ent[i], &sub)) {
				th_json_key("func");
				th_json_code(sub.func);
				opj_flags(sub.flags);
				if (thf_fgraph_known() &&
				    thf_fgraph_func(w.ent[i], FALSE, &fn)) {
					th_json_key("fgraph_entry");
					th_json_code(fn);
				}
				if (thf_fgraph_known() &&
				    thf_fgraph_func(w.ent[i], TRUE, &fn)) {
					th_json_key("fgraph_return");
					th_json_code(fn);
				}
				opj_hash("filter", &sub.filter);
				thf_ops_release(&sub);
			}
			th_json_obj_end();
		}
		if (w.err)
			th_warn("subop_list of %lx: %s at %lx", op->addr,
				w.err, w.bad);
		th_walk_free(&w);
	}
	th_json_arr_end();
}

/* One ops; TRUE when it or its callback is HIDDEN. */
static int opj_ops(struct thf_state *s, const struct thf_ops *op)
{
	struct th_owner os, of;
	struct th_sym ks;
	char own_s[300], own_f[300], sym[300];
	const char *trn;
	int hidden;

	thf_owner(op->addr, &os, own_s, sizeof(own_s));
	thf_owner(op->func, &of, own_f, sizeof(own_f));
	th_json_nl();
	th_json_obj();
	th_json_kaddr("address", op->addr);
	th_json_key("name");
	th_json_str(th_ksym_lookup(op->addr, &ks) && ks.offset == 0 ?
		    ks.name : NULL);
	th_json_key("owner");
	opj_owner_is(&os, own_s);
	hidden = os.kind == TH_OWN_HIDDEN || of.kind == TH_OWN_HIDDEN;
	th_json_kbool("hidden", hidden);
	th_json_key("func");
	th_json_obj();
	th_json_kaddr("address", op->func);
	th_json_kstr("symbol", th_ksym_pS_any(op->func, sym, sizeof(sym)));
	th_json_key("owner");
	opj_owner_is(&of, own_f);
	th_json_obj_end();
	opj_flags(op->flags);
	opj_tramp(s, op);
	th_json_key("private");
	if (op->private_data) {
		th_json_obj();
		th_json_kaddr("address", op->private_data);
		trn = thf_tr_name(op->private_data);
		th_json_key("trace_array");
		th_json_str(trn);
		th_json_kstr("symbol", th_ksym_pS(op->private_data, sym,
						  sizeof(sym)));
		th_json_obj_end();
	} else {
		th_json_null();
	}
	opj_hash("filter", &op->filter);
	opj_hash("notrace", &op->notrace);
	opj_subops(op);
	th_json_obj_end();
	return hidden;
}

/**
 * thf_report_ops_json - "ftrace ops -j"
 */
void thf_report_ops_json(void)
{
	struct thf_state *s;
	int i, hidden = 0;

	th_json_begin("ftrace ops");
	s = thf_load();
	if (!s) {
		th_json_kstr("error", thf_load_reason());
		th_json_end();
		return;
	}
	th_json_key("ops");
	th_json_arr();
	for (i = 0; i < s->nops; i++)
		hidden += opj_ops(s, &s->ops[i]);
	th_json_nl();
	th_json_arr_end();
	if (s->ops_err)
		th_warn("ftrace_ops_list: %s at %lx", s->ops_err, s->ops_bad);
	th_json_kint("count", s->nops);
	th_json_kint("hidden", hidden);
	th_json_end();
}
