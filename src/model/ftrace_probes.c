/*
 * tracehunt: what set_ftrace_filter / set_ftrace_notrace show besides the
 * hash: the pending ":mod:" entries (struct ftrace_mod_load on
 * tr->mod_trace / mod_notrace) and the function probes (struct
 * ftrace_func_probe on tr->func_probes, their ftrace_probe_ops, the
 * ftrace_func_mapper counts, event_probe_data).  Each struct's members
 * are looked up here, in one offset struct filled on first use.
 */
#include "model/model.h"
#include "model/ftrace_files.h"
#include "model/ftrace_ops.h"

static struct th_probe_off {
	int read;
	long mod_list, mod_func, mod_module;		/* ftrace_mod_load */
	long fp_list, fp_probe_ops, fp_ops, fp_data;	/* ftrace_func_probe */
	long pops_func, pops_print;			/* ftrace_probe_ops */
	long map_data;					/* ftrace_func_map */
	long ep_file, ep_count, ep_enable;		/* event_probe_data */
} th_probe_offsets;

static const struct th_probe_off *th_probe_off(void)
{
	struct th_probe_off *o = &th_probe_offsets;

	if (o->read)
		return o;
	o->read = TRUE;
	o->mod_list = th_member("ftrace_mod_load", "list");
	o->mod_func = th_member("ftrace_mod_load", "func");
	o->mod_module = th_member("ftrace_mod_load", "module");
	o->fp_list = th_member("ftrace_func_probe", "list");
	o->fp_probe_ops = th_member("ftrace_func_probe", "probe_ops");
	o->fp_ops = th_member("ftrace_func_probe", "ops");
	o->fp_data = th_member("ftrace_func_probe", "data");
	o->pops_func = th_member("ftrace_probe_ops", "func");
	o->pops_print = th_member("ftrace_probe_ops", "print");
	o->map_data = th_member("ftrace_func_map", "data");
	o->ep_file = th_member("event_probe_data", "file");
	o->ep_count = th_member("event_probe_data", "count");
	o->ep_enable = th_member("event_probe_data", "enable");
	return o;
}

/**
 * th_tr_mod_funcs - tr->mod_trace / mod_notrace: the ":mod:" entries
 * waiting for their module, in list order
 * @tr: the array
 * @notrace: set_ftrace_notrace's
 * @fn: called with each
 * @arg: passed to @fn
 */
void th_tr_mod_funcs(struct th_tr *tr, int notrace,
		     void (*fn)(const struct th_mod_func *, void *), void *arg)
{
	const struct th_probe_off *o = th_probe_off();
	ulong head = th_tr_list(tr->addr, notrace ? TH_TR_MOD_NOTRACE :
				TH_TR_MOD_TRACE), m, p;
	struct th_mod_func mf;
	struct th_walk w;
	long i;

	if (!head || o->mod_list < 0 || o->mod_func < 0 || o->mod_module < 0)
		return;
	th_list_walk(head, 10000, &w);
	for (i = 0; i < w.n; i++) {
		m = w.ent[i] - o->mod_list;
		mf.func[0] = mf.module[0] = '\0';
		if (th_read_ulong(m + o->mod_func, &p, "ftrace_mod_load.func") &&
		    p)
			th_read_cstr(p, mf.func, sizeof(mf.func),
				     "ftrace_mod_load.func");
		if (th_read_ulong(m + o->mod_module, &p,
				  "ftrace_mod_load.module"))
			th_read_cstr(p, mf.module, sizeof(mf.module),
				     "ftrace_mod_load.module");
		fn(&mf, arg);
	}
	th_walk_free(&w);
}

/**
 * th_tr_func_probes - tr->func_probes: the function probes, in list order
 * (a probe whose probe_ops cannot be read is left out)
 * @tr: the array
 * @fn: called with each
 * @arg: passed to @fn
 */
void th_tr_func_probes(struct th_tr *tr,
		       void (*fn)(const struct th_func_probe *, void *),
		       void *arg)
{
	const struct th_probe_off *o = th_probe_off();
	ulong head = th_tr_list(tr->addr, TH_TR_FUNC_PROBES), pops;
	struct th_func_probe fp;
	struct th_walk w;
	long i;

	if (!head || o->fp_list < 0 || o->fp_probe_ops < 0 || o->fp_ops < 0 ||
	    o->pops_func < 0 || o->pops_print < 0)
		return;
	th_list_walk(head, 10000, &w);
	for (i = 0; i < w.n; i++) {
		fp.probe = w.ent[i] - o->fp_list;
		fp.ops = fp.probe + o->fp_ops;
		if (!th_read_ulong(fp.probe + o->fp_probe_ops, &pops,
				   "ftrace_func_probe.probe_ops") ||
		    !th_read_ulong(pops + o->pops_func, &fp.func,
				   "probe_ops.func") ||
		    !th_read_ulong(pops + o->pops_print, &fp.print,
				   "probe_ops.print"))
			continue;
		fp.data = 0;
		if (o->fp_data >= 0)
			th_read_ulong(fp.probe + o->fp_data, &fp.data,
				      "ftrace_func_probe.data");
		fn(&fp, arg);
	}
	th_walk_free(&w);
}

/**
 * th_ftrace_hash_read - thf_hash_read(), and a warning when a damaged
 * chain ended the read (the entries before it are kept)
 * @addr: the struct ftrace_hash (0: an empty hash)
 * @h: the hash; thf_hash_free() it when this returns TRUE
 *
 * Return: FALSE when the hash cannot be read at all.
 */
int th_ftrace_hash_read(ulong addr, struct thf_hash *h)
{
	if (!thf_hash_read(addr, h)) {
		thf_hash_free(h);
		return FALSE;
	}
	if (h->err)
		th_warn("ftrace_hash %lx bucket %lu: %s at %lx", addr,
			h->bucket, h->err, h->bad);
	return TRUE;
}

/**
 * th_ftrace_hash_read_sym - th_ftrace_hash_read() of the hash a global
 * pointer points to (ftrace_graph_hash, ftrace_graph_notrace_hash)
 * @sym: the pointer's name
 * @h: the hash; thf_hash_free() it when this returns TRUE
 *
 * Return: FALSE when the symbol is absent or the hash unreadable.
 */
int th_ftrace_hash_read_sym(const char *sym, struct thf_hash *h)
{
	ulong addr = th_symbol(sym), hash;

	return addr && th_read_ulong(addr, &hash, sym) &&
	       th_ftrace_hash_read(hash, h);
}

/**
 * th_mapper_value - the value a probe keeps for IP in its
 * ftrace_func_mapper (a hash of ftrace_func_map: entry, data)
 * @mapper: the struct ftrace_func_mapper
 * @ip: the function
 * @value: the data
 *
 * Return: FALSE when IP has none.
 */
int th_mapper_value(ulong mapper, ulong ip, ulong *value)
{
	long o_data = th_probe_off()->map_data;
	struct thf_hash h;
	long i;
	int found = FALSE;

	if (!mapper || o_data < 0 || !th_ftrace_hash_read(mapper, &h))
		return FALSE;
	for (i = 0; i < h.n && !found; i++)
		if (h.e[i].ip == ip)
			found = th_read_ulong(h.e[i].ent + o_data, value,
					      "ftrace_func_map.data");
	thf_hash_free(&h);
	return found;
}

/**
 * th_event_probe_read - event_enable_print()'s struct event_probe_data
 * @edata: its address
 * @ep: what it holds
 *
 * Return: FALSE when the kernel has no such struct or it is unreadable.
 */
int th_event_probe_read(ulong edata, struct th_event_probe *ep)
{
	const struct th_probe_off *o = th_probe_off();
	unsigned char enable = 0;

	if (o->ep_file < 0 || o->ep_count < 0 || o->ep_enable < 0 ||
	    !th_read_ulong(edata + o->ep_file, &ep->file,
			   "event_probe_data.file") ||
	    !th_read_ulong(edata + o->ep_count, (ulong *)&ep->count,
			   "event_probe_data.count") ||
	    !th_read(edata + o->ep_enable, &enable, 1,
		     "event_probe_data.enable"))
		return FALSE;
	ep->enable = enable;
	return TRUE;
}
