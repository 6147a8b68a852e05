/*
 * tracehunt: modules (listed and unlisted), vmalloc areas, and the owner
 * of any kernel address.
 *
 * A module that does list_del(&THIS_MODULE->list) vanishes from the
 * "modules" list that /proc/modules and crash's "mod" read, but stays on
 * the module address tree (mod_tree) the kernel uses for address lookups,
 * and its memory stays a vmalloc area.  Both are read here independently
 * of crash's own module tables, whose layout differs between crash
 * versions.
 */
#include "model/model.h"

static struct th_module *th_mods;
static int th_nmods = -1;

static struct th_vmap *th_vmaps;
static long th_nvmaps = -1;

void th_modules_reset(void)
{
	free(th_mods);
	th_mods = NULL;
	th_nmods = -1;
	free(th_vmaps);
	th_vmaps = NULL;
	th_nvmaps = -1;
}

/* Fill the regions of the struct module at MOD. */
static int th_mod_regions(ulong mod, struct th_module *m)
{
	long o_mem = th_member("module", "mem");
	long o_core = th_member("module", "core_layout");
	long o_init = th_member("module", "init_layout");
	ulong base, text;
	int i;

	m->nregions = 0;
	if (o_mem >= 0) {
		/* Linux kernel commit ac3b43283923 ("module: replace
		 * module_layout with module_memory") (in v6.4). */
		long msz = th_size("module_memory");
		long o_base = th_member("module_memory", "base");
		long o_size = th_member("module_memory", "size");
		long ntypes = th_enum("MOD_MEM_NUM_TYPES", 7);
		long t_text = th_enum("MOD_TEXT", 0);
		long t_itext = th_enum("MOD_INIT_TEXT", 4);
		long t_idata = th_enum("MOD_INIT_DATA", 5);
		long t_irodata = th_enum("MOD_INIT_RODATA", 6);

		if (msz <= 0 || o_base < 0 || o_size < 0)
			return FALSE;
		for (i = 0; i < ntypes && i < 8; i++) {
			unsigned int sz;

			if (!th_read_ulong(mod + o_mem + i * msz + o_base, &base,
					   "module_memory.base") ||
			    !th_read_uint(mod + o_mem + i * msz + o_size, &sz,
					  "module_memory.size"))
				return FALSE;
			if (!base || !sz)
				continue;
			m->region[m->nregions].base = base;
			m->region[m->nregions].size = sz;
			m->region[m->nregions].text = (i == t_text ||
						       i == t_itext);
			m->region[m->nregions].init = (i == t_itext ||
				i == t_idata || i == t_irodata);
			m->nregions++;
		}
		return TRUE;
	}
	if (o_core >= 0 && o_init >= 0) {
		/* struct module_layout since Linux kernel commit 7523e4dc5057
		 * ("module: use a structure to encapsulate layout.") (v4.5) */
		long o_base = th_member("module_layout", "base");
		long o_size = th_member("module_layout", "size");
		long o_text = th_member("module_layout", "text_size");
		long o_lay[2];
		const char *names[] = { "data_layout", NULL };
		long o_data = th_member_any("module", names, NULL);

		o_lay[0] = o_core;
		o_lay[1] = o_init;
		for (i = 0; i < 2; i++) {
			unsigned int sz, tsz;

			if (!th_read_ulong(mod + o_lay[i] + o_base, &base,
					   "module_layout.base") ||
			    !th_read_uint(mod + o_lay[i] + o_size, &sz,
					  "module_layout.size") ||
			    !th_read_uint(mod + o_lay[i] + o_text, &tsz,
					  "module_layout.text_size"))
				return FALSE;
			if (!base || !sz)
				continue;
			text = tsz;
			/* the text part and the rest, as two regions */
			m->region[m->nregions].base = base;
			m->region[m->nregions].size = text;
			m->region[m->nregions].text = 1;
			m->region[m->nregions].init = i;
			m->nregions++;
			if (sz > text) {
				m->region[m->nregions].base = base + text;
				m->region[m->nregions].size = sz - text;
				m->region[m->nregions].text = 0;
				m->region[m->nregions].init = i;
				m->nregions++;
			}
		}
		if (o_data >= 0) {
			unsigned int sz;

			if (th_read_ulong(mod + o_data + o_base, &base,
					  "module_layout.base") &&
			    th_read_uint(mod + o_data + o_size, &sz,
					 "module_layout.size") && base && sz &&
			    m->nregions < 8) {
				m->region[m->nregions].base = base;
				m->region[m->nregions].size = sz;
				m->region[m->nregions].text = 0;
				m->region[m->nregions].init = 0;
				m->nregions++;
			}
		}
		return TRUE;
	}
	/* Before v4.5: module_core/core_size, module_init/init_size */
	{
		long o_mc = th_member("module", "module_core");
		long o_cs = th_member("module", "core_size");
		long o_cts = th_member("module", "core_text_size");
		long o_mi = th_member("module", "module_init");
		long o_is = th_member("module", "init_size");
		long o_its = th_member("module", "init_text_size");
		unsigned int sz, tsz;

		if (o_mc < 0 || o_cs < 0)
			return FALSE;
		if (th_read_ulong(mod + o_mc, &base, "module.module_core") &&
		    th_read_uint(mod + o_cs, &sz, "module.core_size") && base) {
			tsz = sz;
			if (o_cts >= 0)
				th_read_uint(mod + o_cts, &tsz,
					     "module.core_text_size");
			m->region[m->nregions].base = base;
			m->region[m->nregions].size = sz;
			m->region[m->nregions].text = 1;
			m->nregions++;
		}
		if (o_mi >= 0 && o_is >= 0 &&
		    th_read_ulong(mod + o_mi, &base, "module.module_init") &&
		    th_read_uint(mod + o_is, &sz, "module.init_size") &&
		    base && sz) {
			m->region[m->nregions].base = base;
			m->region[m->nregions].size = sz;
			m->region[m->nregions].text = 1;
			m->region[m->nregions].init = 1;
			m->nregions++;
		}
		(void)o_its;
		return TRUE;
	}
}

static struct th_module *th_mod_find_struct(ulong mod)
{
	int i;

	for (i = 0; i < th_nmods; i++)
		if (th_mods[i].addr == mod)
			return &th_mods[i];
	return NULL;
}

static void th_mod_add(ulong mod, unsigned flag, int *cap)
{
	struct th_module *m = th_mod_find_struct(mod);
	long o_name = th_member("module", "name");

	if (m) {
		m->flags |= flag;
		return;
	}
	if (th_nmods >= *cap) {
		*cap = *cap ? *cap * 2 : 64;
		th_mods = realloc(th_mods, sizeof(*th_mods) * *cap);
	}
	m = &th_mods[th_nmods];
	memset(m, 0, sizeof(*m));
	m->addr = mod;
	m->flags = flag;
	if (o_name < 0 || !th_read_cstr(mod + o_name, m->name, sizeof(m->name),
					"module.name"))
		strcpy(m->name, "?");
	th_mod_regions(mod, m);
	th_nmods++;
}

/* In-order walk of the first tree of the latch tree root at ROOT. */
static void th_mod_tree(int *cap)
{
	ulong tree = th_symbol("mod_tree");
	long o_root = th_member("mod_tree_root", "root");
	long o_ltree = th_member("latch_tree_root", "tree");
	long o_node = th_member("mod_tree_node", "node");
	long o_mod = th_member("mod_tree_node", "mod");
	long o_left = th_member("rb_node", "rb_left");
	long o_right = th_member("rb_node", "rb_right");
	ulong stack[128], cur, rb_root;
	int sp = 0;
	long visited = 0;

	if (!tree || o_root < 0 || o_ltree < 0 || o_node < 0 || o_mod < 0 ||
	    o_left < 0 || o_right < 0)
		return;
	if (!th_read_ulong(tree + o_root + o_ltree, &rb_root,
			   "mod_tree.root.tree[0]"))
		return;
	cur = rb_root;
	/* Iterative in-order traversal; the depth and count are bounded. */
	while ((cur || sp) && visited < 100000) {
		while (cur) {
			if (!th_kptr(cur) || sp >= 128) {
				th_warn("mod_tree: bad node %lx", cur);
				return;
			}
			stack[sp++] = cur;
			if (!th_read_ulong(cur + o_left, &cur, "rb_node.rb_left"))
				return;
		}
		cur = stack[--sp];
		{
			/* latch_tree_node.node[0] is at offset 0 */
			ulong mtn = cur - o_node, mod;

			if (th_read_ulong(mtn + o_mod, &mod, "mod_tree_node.mod") &&
			    th_kptr(mod))
				th_mod_add(mod, TH_MOD_TREE, cap);
		}
		visited++;
		if (!th_read_ulong(cur + o_right, &cur, "rb_node.rb_right"))
			return;
	}
}

int th_modules(struct th_module **mods)
{
	ulong head;
	long o_list;
	struct th_walk w;
	int cap = 0;
	long i;

	if (th_nmods >= 0) {
		*mods = th_mods;
		return th_nmods;
	}
	th_nmods = 0;
	head = th_symbol("modules");
	o_list = th_member("module", "list");
	if (head && o_list >= 0) {
		th_list_walk(head, 100000, &w);
		if (w.err)
			th_warn("module list: %s at %lx", w.err, w.bad);
		for (i = 0; i < w.n; i++)
			th_mod_add(w.ent[i] - o_list, TH_MOD_LISTED, &cap);
		th_walk_free(&w);
	}
	th_mod_tree(&cap);
	*mods = th_mods;
	return th_nmods;
}

struct th_module *th_module_of(ulong addr)
{
	struct th_module *mods;
	int n = th_modules(&mods), i, r;

	for (i = 0; i < n; i++)
		for (r = 0; r < mods[i].nregions; r++)
			if (addr >= mods[i].region[r].base &&
			    addr < mods[i].region[r].base +
			    mods[i].region[r].size)
				return &mods[i];
	return NULL;
}

/**
 * th_module_has_tracepoints - whether struct module lists its tracepoints
 */
int th_module_has_tracepoints(void)
{
	return th_member("module", "tracepoints_ptrs") >= 0 &&
		th_member("module", "num_tracepoints") >= 0;
}

/**
 * th_module_tracepoints - the tracepoints section of a module
 * @mod: struct module
 * @ptrs: module.tracepoints_ptrs
 * @num: module.num_tracepoints
 *
 * Returns FALSE when unreadable (or struct module has no such members).
 */
int th_module_tracepoints(ulong mod, ulong *ptrs, unsigned int *num)
{
	long o_ptrs = th_member("module", "tracepoints_ptrs");
	long o_num = th_member("module", "num_tracepoints");

	if (o_ptrs < 0 || o_num < 0)
		return FALSE;
	return th_read_ulong(mod + o_ptrs, ptrs, "module.tracepoints_ptrs") &&
		th_read_uint(mod + o_num, num, "module.num_tracepoints");
}

/* ------------------------------------------------------------- vmalloc --- */

static int th_vmap_cmp(const void *a, const void *b)
{
	const struct th_vmap *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static void th_vmap_collect_list(ulong head, long o_list, long *cap)
{
	long o_start = th_member("vmap_area", "va_start");
	long o_end = th_member("vmap_area", "va_end");
	long o_vm = th_member("vmap_area", "vm");
	long o_caller = th_member("vm_struct", "caller");
	struct th_walk w;
	long i;

	th_list_walk(head, TH_MAX_LIST, &w);
	if (w.err)
		th_warn("vmap area list: %s at %lx", w.err, w.bad);
	for (i = 0; i < w.n; i++) {
		ulong va = w.ent[i] - o_list;
		struct th_vmap v;

		memset(&v, 0, sizeof(v));
		if (!th_read_ulong(va + o_start, &v.start, "vmap_area.va_start") ||
		    !th_read_ulong(va + o_end, &v.end, "vmap_area.va_end"))
			continue;
		if (o_vm >= 0 && th_read_ulong(va + o_vm, &v.vm, "vmap_area.vm") &&
		    th_kptr(v.vm) && o_caller >= 0)
			th_read_ulong(v.vm + o_caller, &v.caller,
				      "vm_struct.caller");
		if (th_nvmaps >= *cap) {
			*cap = *cap ? *cap * 2 : 1024;
			th_vmaps = realloc(th_vmaps, sizeof(*th_vmaps) * *cap);
		}
		th_vmaps[th_nvmaps++] = v;
	}
	th_walk_free(&w);
}

static void th_vmap_load(void)
{
	long cap = 0;
	long o_list = th_member("vmap_area", "list");
	ulong head;

	th_nvmaps = 0;
	if ((head = th_symbol("vmap_area_list")) && o_list >= 0) {
		th_vmap_collect_list(head, o_list, &cap);
	} else if (th_symbol("vmap_nodes") && o_list >= 0) {
		/* Linux kernel commit d093602919ad ("mm: vmalloc: remove
		 * global vmap_area_root rb-tree") (in v6.9): busy areas live
		 * in per-node lists. */
		ulong nodes;
		unsigned int nr, i;
		long nsz = th_size("vmap_node");
		long o_busy = th_member("vmap_node", "busy");
		long o_head = th_member("rb_list", "head");

		if (nsz > 0 && o_busy >= 0 && o_head >= 0 &&
		    th_read_ulong(th_symbol("vmap_nodes"), &nodes, "vmap_nodes") &&
		    th_read_uint(th_symbol("nr_vmap_nodes"), &nr,
				 "nr_vmap_nodes") && nr < 4096)
			for (i = 0; i < nr; i++)
				th_vmap_collect_list(nodes + i * nsz + o_busy +
						     o_head, o_list, &cap);
	}
	if (th_nvmaps)
		qsort(th_vmaps, th_nvmaps, sizeof(*th_vmaps), th_vmap_cmp);
}

struct th_vmap *th_vmap_of(ulong addr)
{
	long lo = 0, hi, mid;

	if (th_nvmaps < 0)
		th_vmap_load();
	hi = th_nvmaps - 1;
	while (lo <= hi) {
		mid = (lo + hi) / 2;
		if (addr < th_vmaps[mid].start)
			hi = mid - 1;
		else if (addr >= th_vmaps[mid].end)
			lo = mid + 1;
		else
			return &th_vmaps[mid];
	}
	return NULL;
}

/* -------------------------------------------------------------- owners --- */

void th_owner_of(ulong addr, struct th_owner *o)
{
	struct th_module *m;
	struct th_vmap *v;

	memset(o, 0, sizeof(*o));
	if (!addr) {
		o->kind = TH_OWN_NONE;
		return;
	}
	/* crash's is_kernel_text() also answers for module text */
	if (th_symbol("_text") && addr >= th_symbol("_text") &&
	    addr < th_symbol("_end")) {
		o->kind = TH_OWN_CORE;
		return;
	}
	m = th_module_of(addr);
	if (m && (m->flags & TH_MOD_LISTED)) {
		o->kind = TH_OWN_MODULE;
		snprintf(o->module, sizeof(o->module), "%s", m->name);
		return;
	}
	v = th_vmap_of(addr);
	if (m) {
		o->kind = TH_OWN_HIDDEN;
		snprintf(o->module, sizeof(o->module), "%s", m->name);
	} else if (v || IS_VMALLOC_ADDR(addr)) {
		o->kind = TH_OWN_HIDDEN;
	} else {
		o->kind = TH_OWN_UNKNOWN;
		return;
	}
	if (v) {
		o->vmap = *v;
		o->have_vmap = 1;
	}
}

char *th_owner_str(const struct th_owner *o, char *buf, size_t len)
{
	char caller[160];

	switch (o->kind) {
	case TH_OWN_NONE:
		snprintf(buf, len, "-");
		break;
	case TH_OWN_CORE:
		snprintf(buf, len, "core");
		break;
	case TH_OWN_MODULE:
		snprintf(buf, len, "[%s]", o->module);
		break;
	case TH_OWN_UNKNOWN:
		snprintf(buf, len, "unknown");
		break;
	case TH_OWN_HIDDEN:
		if (o->have_vmap) {
			if (o->vmap.caller)
				th_ksym_ps(o->vmap.caller, caller, sizeof(caller));
			else
				strcpy(caller, "-");
			snprintf(buf, len, "HIDDEN%s%s%s (vmap %lx-%lx %lu %s)",
				 o->module[0] ? " [" : "", o->module,
				 o->module[0] ? "]" : "", o->vmap.start,
				 o->vmap.end, o->vmap.end - o->vmap.start,
				 caller);
		} else {
			snprintf(buf, len, "HIDDEN%s%s%s (no vmap area)",
				 o->module[0] ? " [" : "", o->module,
				 o->module[0] ? "]" : "");
		}
		break;
	}
	return buf;
}
