/*
 * tracehunt: the model's one reader of struct btf (btf_vmlinux.h): the
 * modules' BTF as the kernel keeps it, each a split BTF on top of the
 * vmlinux one, found where bpf_find_btf_id() (kernel/bpf/btf.c) looks:
 * the BTF objects of btf_idr in id order, those btf_is_module() takes;
 * and the id of a BTF object for the BPF listings.
 */
#include "model/btf_vmlinux.h"
#include "model/xarray.h"

/* the most BTF objects read from btf_idr (modules, programs' BTF) */
#define TH_BTF_IDR_MAX	65536
/* the most a module's BTF is believed to hold (7.2's largest: ~1 MB) */
#define TH_BTF_MOD_MAX	(64UL << 20)
#define TH_BTF_CHUNK	(1UL << 20)

/* struct btf (kernel/bpf/btf.c): kernel_btf, name, base_btf, start_id and
 * start_str_off since the modules' BTF (v5.11: btf_module_notify()). */
static struct th_btf_off {
	int filled;
	ulong idr, vmlinux;		/* btf_idr, btf_vmlinux */
	long data, data_size, id, kernel_btf, name, name_size, base_btf,
	     start_id, start_str_off;
} th_btf_o;

static const struct th_btf_off *th_btf_off(void)
{
	struct th_btf_off *o = &th_btf_o;

	if (o->filled)
		return o;
	o->filled = TRUE;
	o->idr = th_ksymbol("btf_idr");
	o->vmlinux = th_ksymbol("btf_vmlinux");
	o->data = th_member("btf", "data");
	o->data_size = th_member("btf", "data_size");
	o->id = th_member("btf", "id");
	o->kernel_btf = th_member("btf", "kernel_btf");
	o->name = th_member("btf", "name");
	o->name_size = o->name >= 0 ? th_member_size("btf", "name") : -1;
	o->base_btf = th_member("btf", "base_btf");
	o->start_id = th_member("btf", "start_id");
	o->start_str_off = th_member("btf", "start_str_off");
	return o;
}

unsigned int th_bpf_btf_id(ulong btf)
{
	const struct th_btf_off *o = th_btf_off();
	unsigned int id;

	if (o->id < 0 || !th_read_uint(btf + o->id, &id, "btf.id"))
		return 0;
	return id;
}

/* One module's BTF: its bytes (kept while the index points into them). */
struct th_mod_btf {
	struct bt_btf btf;
	unsigned char *data;
};

static struct {
	int read;
	struct th_mod_btf *mods;
	const struct bt_btf **btfs;	/* vmlinux's, then the modules' */
	int n;				/* entries of btfs */
} th_mbtf;

/* What of struct btf the dump lacks for the modules' BTF, or NULL. */
static const char *th_btf_mod_missing(const struct th_btf_off *o)
{
	if (!o->idr)
		return "no btf_idr";
	if (o->kernel_btf < 0 || o->start_id < 0 || o->start_str_off < 0 ||
	    o->base_btf < 0)
		return "no struct btf of split BTF in the debuginfo";
	if (o->data < 0 || o->data_size < 0 || o->name < 0 ||
	    o->name_size <= 0)
		return "struct btf has no data, data_size or name";
	return NULL;
}

/* The BTF object at ADDR read into *M when btf_is_module() takes it:
 * TRUE when it is a module's and was read, FALSE (with a warning when it
 * should have been) when not. */
static int th_btf_mod_read(ulong addr, ulong index, const struct bt_btf *base,
			   struct th_mod_btf *m)
{
	const struct th_btf_off *o = th_btf_off();
	char name[64];
	unsigned char kernel_btf;
	unsigned int size, start_id, start_str, id;
	ulong data, base_btf, vml, at;

	if (!th_read(addr + o->kernel_btf, &kernel_btf, 1, "btf.kernel_btf") ||
	    !th_read_cstr(addr + o->name, name,
			  MIN((long)sizeof(name), o->name_size + 1),
			  "btf.name")) {
		th_damaged("btf", addr, "unreadable BTF object on btf_idr");
		return FALSE;
	}
	/* btf_alloc_id(): its id is its slot */
	if (o->id >= 0 && th_read_uint(addr + o->id, &id, "btf.id") &&
	    id != index)
		th_damaged("btf", addr, "id %u in btf_idr slot %lu", id, index);
	/* btf_is_module(): a kernel BTF not named "vmlinux" */
	if (!kernel_btf || !strcmp(name, "vmlinux"))
		return FALSE;
	if (!name[0] || !th_printable(name)) {
		th_damaged("btf", addr, "a kernel BTF on btf_idr whose name is "
			   "no module's");
		return FALSE;
	}
	if (!th_read_ulong(addr + o->data, &data, "btf.data") ||
	    !th_read_uint(addr + o->data_size, &size, "btf.data_size") ||
	    !th_read_ulong(addr + o->base_btf, &base_btf, "btf.base_btf") ||
	    !th_read_uint(addr + o->start_id, &start_id, "btf.start_id") ||
	    !th_read_uint(addr + o->start_str_off, &start_str,
			  "btf.start_str_off")) {
		th_damaged("btf", addr, "module %s: unreadable BTF object",
			   name);
		return FALSE;
	}
	/* btf_parse_module() (and btf_relocate()'s btf_set_base_btf()): the
	 * vmlinux BTF is its base, its ids and strings follow that one's */
	if (start_id != base->nr || start_str != base->strs_len ||
	    (o->vmlinux && th_read_ulong(o->vmlinux, &vml, "btf_vmlinux") &&
	     base_btf != vml)) {
		th_damaged("btf", addr, "module %s: start_id %u, start_str_off "
			   "%u, base_btf %lx: not a split BTF of the vmlinux "
			   "BTF (%u types, %u bytes of strings)", name,
			   start_id, start_str, base_btf, base->nr,
			   base->strs_len);
		return FALSE;
	}
	if (!th_check_ptr("btf", addr, data, TH_M_DATA, "data"))
		return FALSE;
	if (!size || size > TH_BTF_MOD_MAX) {
		th_damaged("btf", addr, "module %s: data_size %u", name, size);
		return FALSE;
	}
	m->data = malloc(size);
	if (!m->data)
		return FALSE;
	for (at = 0; at < size; at += TH_BTF_CHUNK) {
		if (!th_read(data + at, m->data + at,
			     MIN(TH_BTF_CHUNK, size - at), "btf.data")) {
			th_warn("the BTF of module %s cannot be read at %lx: "
				"its functions' arguments print as \"()\"",
				name, data + at);
			goto drop;
		}
	}
	if (bt_open_split(&m->btf, base, m->data, size) < 0) {
		th_damaged("btf", addr, "module %s: its BTF not decoded: %s",
			   name, m->btf.err);
		goto drop;
	}
	return TRUE;
drop:
	free(m->data);
	m->data = NULL;
	return FALSE;
}

static void th_btf_mods_load(const struct bt_btf *base)
{
	const struct th_btf_off *o = th_btf_off();
	struct th_xa_walk w;
	const char *why;
	long i;

	th_mbtf.btfs = calloc(1, sizeof(*th_mbtf.btfs));
	if (!th_mbtf.btfs)
		return;
	th_mbtf.btfs[th_mbtf.n++] = base;
	if ((why = th_btf_mod_missing(o)) || !th_xa_ok(&why)) {
		th_warn("the modules' BTF is not read (%s): their functions' "
			"arguments print as \"()\"", why);
		return;
	}
	th_idr_walk(o->idr, TH_BTF_IDR_MAX, &w);
	if (w.err)
		th_damaged("btf_idr", w.bad ? w.bad : o->idr, "%s", w.err);
	th_mbtf.mods = calloc(w.n ? w.n : 1, sizeof(*th_mbtf.mods));
	th_mbtf.btfs = realloc(th_mbtf.btfs, (w.n + 1) * sizeof(*th_mbtf.btfs));
	if (!th_mbtf.mods || !th_mbtf.btfs) {
		th_xa_free(&w);
		return;
	}
	/* bpf_find_btf_id(): idr_for_each_entry(), ids ascending */
	for (i = 0; i < w.n; i++) {
		struct th_mod_btf *m = &th_mbtf.mods[th_mbtf.n - 1];

		if (!th_check_ptr("btf_idr", o->idr, w.ent[i].entry, TH_M_DATA,
				  "entry") ||
		    !th_btf_mod_read(w.ent[i].entry, w.ent[i].index, base, m))
			continue;
		th_mbtf.btfs[th_mbtf.n++] = &m->btf;
	}
	th_xa_free(&w);
}

const struct bt_btf *const *th_btf_all(int *n)
{
	const struct bt_btf *base = th_btf_vmlinux();
	const char *tag;

	*n = 0;
	if (!base)
		return NULL;	/* th_btf_vmlinux() said why */
	if (!th_mbtf.read) {
		th_mbtf.read = TRUE;
		tag = th_damage_tag("btf_modules");
		th_btf_mods_load(base);
		th_damage_tag(tag);
	} else
		th_damage_replay("btf_modules");
	*n = th_mbtf.btfs ? th_mbtf.n : 0;
	return th_mbtf.btfs;
}
