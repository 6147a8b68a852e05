/*
 * tracehunt: the model's one reader of struct module: modules listed and
 * unlisted, their memory regions, and what else a module carries that
 * another reader needs (its symbol table, its tracepoints).
 *
 * A module that does list_del(&THIS_MODULE->list) vanishes from the
 * "modules" list that /proc/modules and crash's "mod" read, but stays on
 * the module address tree (mod_tree) the kernel uses for address lookups,
 * and its memory stays a vmalloc area (model/vmap.c).  Both are read here
 * independently of crash's own module tables, whose layout differs
 * between crash versions.
 */
#include "model/model.h"

/* Offsets, -1 when absent; filled once (mod_off_fill()). */
struct th_module_off {
	long name, list, kallsyms, tracepoints_ptrs, num_tracepoints;
	/* Linux kernel commit ac3b43283923 ("module: replace module_layout
	 * with module_memory") (in v6.4): module.mem[MOD_MEM_NUM_TYPES] */
	long mem, mem_size, mem_base, mem_len;
	long ntypes, t_text, t_itext, t_idata, t_irodata;
	/* struct module_layout since Linux kernel commit 7523e4dc5057
	 * ("module: use a structure to encapsulate layout.") (v4.5) */
	long core_layout, init_layout, data_layout;
	long lay_base, lay_size, lay_text_size, lay_ro_size;
	/* before v4.5 */
	long module_core, core_size, module_init, init_size;
	/* the module address tree */
	long tree_root, latch_tree, tree_node, tree_mod;
	long state, mod_size, name_size;
	/* module.mkobj.kobj.name: mod_sysfs_init() names it mod->name */
	long kobj_name;
	/* struct mod_kallsyms */
	long ks_symtab, ks_num, ks_strtab;
	/* mod_kallsyms.typetab since Linux kernel commit 1c7651f43777
	 * ("kallsyms: store type information in its own array") (in
	 * v5.2); module.core_kallsyms, the table mod->kallsyms points to
	 * once the module's init is done, since v4.6 */
	long ks_typetab, core_kallsyms;
	/* before Linux kernel commit 8244062ef1e5 ("modules: fix
	 * longstanding /proc/kallsyms vs module insertion race.") (in
	 * v4.6): symtab, num_symtab and strtab in struct module itself
	 * (pointing at the core copy once the module's init is done) */
	long m_symtab, m_num, m_strtab;
};

static struct th_module_off mod_off;

/* The regions: module.mem[] (v6.4+), else the layouts or older. */
static void mod_off_regions(struct th_module_off *o)
{
	o->mem = th_member("module", "mem");
	if (o->mem >= 0) {
		o->mem_size = th_size("module_memory");
		o->mem_base = th_member("module_memory", "base");
		o->mem_len = th_member("module_memory", "size");
		o->ntypes = th_enum("MOD_MEM_NUM_TYPES", 7);
		o->t_text = th_enum("MOD_TEXT", 0);
		o->t_itext = th_enum("MOD_INIT_TEXT", 4);
		o->t_idata = th_enum("MOD_INIT_DATA", 5);
		o->t_irodata = th_enum("MOD_INIT_RODATA", 6);
		return;
	}
	o->core_layout = th_member("module", "core_layout");
	o->init_layout = th_member("module", "init_layout");
	/* Linux kernel commit 6ab9942c44b2 ("module: Introduce
	 * data_layout") (in v5.19), until module_memory replaced the
	 * layouts */
	o->data_layout = th_member("module", "data_layout");
	o->lay_base = th_member("module_layout", "base");
	o->lay_size = th_member("module_layout", "size");
	o->lay_text_size = th_member("module_layout", "text_size");
	o->lay_ro_size = th_member("module_layout", "ro_size");
	o->module_core = th_member("module", "module_core");
	o->core_size = th_member("module", "core_size");
	o->module_init = th_member("module", "module_init");
	o->init_size = th_member("module", "init_size");
}

static const struct th_module_off *mod_off_fill(void)
{
	static int filled;
	struct th_module_off *o = &mod_off;

	if (filled)
		return o;
	filled = 1;
	o->name = th_member("module", "name");
	o->list = th_member("module", "list");
	o->kallsyms = th_member("module", "kallsyms");
	o->tracepoints_ptrs = th_member("module", "tracepoints_ptrs");
	o->num_tracepoints = th_member("module", "num_tracepoints");
	o->tree_root = th_member("mod_tree_root", "root");
	o->latch_tree = th_member("latch_tree_root", "tree");
	o->tree_node = th_member("mod_tree_node", "node");
	o->tree_mod = th_member("mod_tree_node", "mod");
	o->state = th_member("module", "state");
	o->mod_size = th_size("module");
	o->name_size = th_member_size("module", "name");
	o->kobj_name = -1;
	if (th_member("module", "mkobj") >= 0 &&
	    th_member("module_kobject", "kobj") >= 0 &&
	    th_member("kobject", "name") >= 0)
		o->kobj_name = th_member("module", "mkobj") +
			th_member("module_kobject", "kobj") +
			th_member("kobject", "name");
	o->ks_symtab = th_member("mod_kallsyms", "symtab");
	o->ks_num = th_member("mod_kallsyms", "num_symtab");
	o->ks_strtab = th_member("mod_kallsyms", "strtab");
	o->ks_typetab = th_member("mod_kallsyms", "typetab");
	o->core_kallsyms = th_member("module", "core_kallsyms");
	if (o->kallsyms < 0) {
		o->m_symtab = th_member("module", "symtab");
		o->m_num = th_member("module", "num_symtab");
		o->m_strtab = th_member("module", "strtab");
	} else {
		o->m_symtab = o->m_num = o->m_strtab = -1;
	}
	mod_off_regions(o);
	return o;
}

static struct th_module *th_mods;
static int th_nmods = -1;

/**
 * th_modules_reset - forget the modules (and vmap areas) read so far
 */
void th_modules_reset(void)
{
	free(th_mods);
	th_mods = NULL;
	th_nmods = -1;
	th_damage_forget("modules");
	th_vmaps_reset();
}

/* One more region of M, when there is room. */
static void mod_region(struct th_module *m, ulong base, ulong size, int text,
		       int init)
{
	if (m->nregions >= 8)
		return;
	m->region[m->nregions].base = base;
	m->region[m->nregions].size = size;
	m->region[m->nregions].text = text;
	m->region[m->nregions].init = init;
	m->nregions++;
}

/* v6.4+: module.mem[], one region per type. */
static int mod_regions_mem(ulong mod, struct th_module *m)
{
	const struct th_module_off *o = &mod_off;
	ulong base, a;
	unsigned int sz;
	int i;

	if (o->mem_size <= 0 || o->mem_base < 0 || o->mem_len < 0)
		return FALSE;
	for (i = 0; i < o->ntypes && i < 8; i++) {
		a = mod + o->mem + i * o->mem_size;
		if (!th_read_ulong(a + o->mem_base, &base,
				   "module_memory.base") ||
		    !th_read_uint(a + o->mem_len, &sz, "module_memory.size"))
			return FALSE;
		/* do_init_module() clears an init type's base and size
		 * together */
		if (!base && sz)
			th_damaged("module", mod, "mem[%d] base NULL, size %u",
				   i, sz);
		if (!base || !sz)
			continue;
		mod_region(m, base, sz, i == o->t_text || i == o->t_itext,
			   i == o->t_itext || i == o->t_idata ||
			   i == o->t_irodata);
	}
	return TRUE;
}

/*
 * layout_sections() lays text, then read-only data, then the rest: text_size
 * <= ro_size <= size.  With CONFIG_STRICT_MODULE_RWX its debug_align()
 * rounds each of them up to a page, so when size and ro_size are whole
 * pages, text_size is too (a text_size cut short would end the module's
 * last function early).
 */
static void mod_layout_check(ulong mod, ulong lay, int init, unsigned int sz,
			     unsigned int tsz)
{
	const struct th_module_off *o = &mod_off;
	unsigned int ro = 0, page = PAGESIZE() - 1;

	if (o->lay_ro_size < 0 ||
	    !th_read_uint(lay + o->lay_ro_size, &ro, "module_layout.ro_size"))
		return;
	if (tsz > ro || ro > sz)
		th_damaged("module", mod, "%s layout: text_size %#x, ro_size "
			   "%#x, size %#x (each part ends after the one before)",
			   init ? "init" : "core", tsz, ro, sz);
	else if (!(sz & page) && !(ro & page) && (tsz & page))
		th_damaged("module", mod, "%s layout: text_size %#x is not a "
			   "whole page, as its ro_size %#x and size %#x are",
			   init ? "init" : "core", tsz, ro, sz);
}

/* v4.5 to v6.3: core_layout, init_layout (and data_layout). */
static int mod_regions_layout(ulong mod, struct th_module *m)
{
	const struct th_module_off *o = &mod_off;
	long lay[2] = { o->core_layout, o->init_layout };
	unsigned int sz, tsz;
	ulong base;
	int i;

	for (i = 0; i < 2; i++) {
		if (!th_read_ulong(mod + lay[i] + o->lay_base, &base,
				   "module_layout.base") ||
		    !th_read_uint(mod + lay[i] + o->lay_size, &sz,
				  "module_layout.size") ||
		    !th_read_uint(mod + lay[i] + o->lay_text_size, &tsz,
				  "module_layout.text_size"))
			return FALSE;
		/* do_init_module() clears an init layout's base and size
		 * together; a core layout always has both */
		if (!base && sz)
			th_damaged("module", mod, "%s layout base NULL, size "
				   "%u", i ? "init" : "core", sz);
		if (!base || !sz)
			continue;
		/* module_alloc() returns whole pages (vmalloc) */
		if (base & (PAGESIZE() - 1)) {
			th_damaged("module", mod, "layout base %lx is not "
				   "page-aligned (module_alloc() memory)",
				   base);
			continue;
		}
		mod_layout_check(mod, mod + lay[i], i, sz, tsz);
		/* the text part and the rest, as two regions */
		mod_region(m, base, tsz, 1, i);
		if (sz > tsz)
			mod_region(m, base + tsz, sz - tsz, 0, i);
	}
	if (o->data_layout >= 0 &&
	    th_read_ulong(mod + o->data_layout + o->lay_base, &base,
			  "module_layout.base") &&
	    th_read_uint(mod + o->data_layout + o->lay_size, &sz,
			 "module_layout.size") && base && sz)
		mod_region(m, base, sz, 0, 0);
	return TRUE;
}

/* Before v4.5: module_core/core_size, module_init/init_size. */
static int mod_regions_old(ulong mod, struct th_module *m)
{
	const struct th_module_off *o = &mod_off;
	unsigned int sz;
	ulong base;

	if (o->module_core < 0 || o->core_size < 0)
		return FALSE;
	if (th_read_ulong(mod + o->module_core, &base, "module.module_core") &&
	    th_read_uint(mod + o->core_size, &sz, "module.core_size") && base)
		mod_region(m, base, sz, 1, 0);
	if (o->module_init >= 0 && o->init_size >= 0 &&
	    th_read_ulong(mod + o->module_init, &base, "module.module_init") &&
	    th_read_uint(mod + o->init_size, &sz, "module.init_size") &&
	    base && sz)
		mod_region(m, base, sz, 1, 1);
	return TRUE;
}

/* Fill the regions of the struct module at MOD. */
static int mod_regions(ulong mod, struct th_module *m)
{
	const struct th_module_off *o = &mod_off;

	m->nregions = 0;
	if (o->mem >= 0)
		return mod_regions_mem(mod, m);
	if (o->core_layout >= 0 && o->init_layout >= 0)
		return mod_regions_layout(mod, m);
	return mod_regions_old(mod, m);
}

/* A module's memory lies in module space and fits in it: a region that
 * does not is dropped (it would make any address the module's). */
static void mod_regions_check(struct th_module *m)
{
	int r, k = 0;

	for (r = 0; r < m->nregions; r++) {
		ulong b = m->region[r].base, sz = m->region[r].size;

		if (!sz)
			continue;
		if (th_region(b) != TH_R_MODULE ||
		    th_region(b + sz - 1) != TH_R_MODULE || b + sz < b) {
			th_damaged("module", m->addr, "%s region %lx size %lu "
				   "is not in module space", m->name, b, sz);
			continue;
		}
		m->region[k++] = m->region[r];
	}
	m->nregions = k;
}

static struct th_module *mod_find_struct(ulong mod)
{
	int i;

	for (i = 0; i < th_nmods; i++)
		if (th_mods[i].addr == mod)
			return &th_mods[i];
	return NULL;
}

/* mod_sysfs_init() gives the module's kobject the module's name (a
 * kmalloc'ed copy): two copies that differ are damage to one of them.
 * A kobject not yet named (an unformed module) has no copy to compare. */
static void mod_name_check(ulong mod, const char *name)
{
	long o = mod_off_fill()->kobj_name;
	char kname[sizeof(((struct th_module *)0)->name)];
	ulong np;

	if (o < 0 || !th_read_ulong(mod + o, &np, "module.mkobj.kobj.name") ||
	    !th_kptr(np) || !th_read_cstr(np, kname, sizeof(kname),
					  "module kobject name"))
		return;
	if (strcmp(kname, name))
		th_damaged("module", mod, "name \"%s\", but its kobject "
			   "(/sys/module) is named \"%s\"", name,
			   th_printable(kname) ? kname : "(not text)");
}

static void mod_add(ulong mod, unsigned flag, int *cap)
{
	struct th_module *m = mod_find_struct(mod);

	if (m) {
		m->flags |= flag;
		return;
	}
	/* a struct module is in the module's own memory */
	if (th_region(mod) != TH_R_MODULE) {
		th_damaged("module", mod, "struct module in %s (on the module "
			   "%s)", th_region_name(th_region(mod)),
			   flag == TH_MOD_LISTED ? "list" : "tree");
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
	if (!th_module_name(mod, m->name, sizeof(m->name)))
		strcpy(m->name, "?");
	if (!th_printable(m->name)) {
		th_damaged("module", mod, "name is not text");
		strcpy(m->name, "?");
	} else {
		mod_name_check(mod, m->name);
	}
	mod_regions(mod, m);
	mod_regions_check(m);
	th_nmods++;
}

/* One node of the module tree: a mod_tree_node in its module's struct
 * module (module.core_layout.mtn, module.mem[].mtn), naming that module. */
static void mod_tree_node(ulong node, int *cap)
{
	const struct th_module_off *o = &mod_off;
	ulong mtn = node - o->tree_node, mod;

	if (!th_read_ulong(mtn + o->tree_mod, &mod, "mod_tree_node.mod"))
		return;
	if (th_region(mod) != TH_R_MODULE ||
	    (o->mod_size > 0 && (mtn < mod || mtn - mod >= o->mod_size))) {
		th_damaged("mod_tree_node", mtn, "mod %lx: not the struct "
			   "module that holds the node", mod);
		return;
	}
	mod_add(mod, TH_MOD_TREE, cap);
}

/* In-order walk of the first tree of the latch tree root at mod_tree;
 * its nodes are in struct modules (module space). */
static void mod_tree_walk(int *cap)
{
	const struct th_module_off *o = &mod_off;
	ulong tree = th_symbol("mod_tree");
	struct th_walk w;
	long i;

	if (!tree || o->tree_root < 0 || o->latch_tree < 0 ||
	    o->tree_node < 0 || o->tree_mod < 0)
		return;
	th_rb_walk(tree + o->tree_root + o->latch_tree, TH_M(TH_R_MODULE),
		   100000, &w);
	for (i = 0; i < w.n; i++)
		mod_tree_node(w.ent[i], cap);
	if (w.err && !strcmp(w.err, "unreadable rb_root"))
		th_damaged("mod_tree", tree, "root unreadable");
	else if (w.err && !strcmp(w.err, "unreadable entry"))
		th_damaged("mod_tree", tree, "node %lx unreadable", w.bad);
	else if (w.err)
		th_damaged("mod_tree", tree, "bad node %lx (%s)", w.bad, w.err);
	th_walk_free(&w);
}

/*
 * complete_formation() puts every module on the address tree before it
 * leaves MODULE_STATE_UNFORMED, and free_module() takes it off the tree
 * only after the list: a formed module on the list is on the tree.
 */
static void mod_tree_check(void)
{
	const struct th_module_off *o = &mod_off;
	long unformed = th_enum("MODULE_STATE_UNFORMED", -1);
	int i, state;

	if (!th_symbol("mod_tree") || o->tree_root < 0 ||
	    o->latch_tree < 0 || o->tree_mod < 0 || o->state < 0 ||
	    unformed < 0)
		return;
	for (i = 0; i < th_nmods; i++) {
		struct th_module *m = &th_mods[i];

		if (m->flags != TH_MOD_LISTED ||
		    !th_read_int(m->addr + o->state, &state,
				 "module.state") || state == unformed)
			continue;
		th_damaged("mod_tree", th_symbol("mod_tree"), "module %s "
			   "(%lx, on the module list) is not on the tree",
			   m->name, m->addr);
	}
}

/*
 * Before the module tree (Linux kernel commit 93c2e105f6bc ("module:
 * Optimize __module_address() using a latched RB-tree") (in v4.2)) the
 * kernel finds a module only on its list: one that left the list is known
 * to nothing but its memory.  Its struct module is a section of its core
 * image (move_module() copies .gnu.linkonce.this_module there), and its
 * module_core points back at the image's start: such a struct, in a
 * module-space vmap area no module found so far covers, is that module.
 */
#define MOD_SCAN_MAX	(64UL << 20)	/* bound on one area read */

static int mod_covered(ulong start, ulong end)
{
	int i, r;

	for (i = 0; i < th_nmods; i++)
		for (r = 0; r < th_mods[i].nregions; r++)
			if (th_mods[i].region[r].base < end &&
			    th_mods[i].region[r].base +
			    th_mods[i].region[r].size > start)
				return TRUE;
	return FALSE;
}

/* Whether the struct module at offset X of area B (SIZE bytes from
 * START) is the module whose core image the area is. */
static int mod_memory_is(const unsigned char *b, ulong x, ulong size,
			 ulong start)
{
	const struct th_module_off *o = &mod_off;
	const char *name = (const char *)b + x + o->name;
	unsigned int csz;
	ulong core;
	int state;

	memcpy(&core, b + x + o->module_core, sizeof(core));
	memcpy(&csz, b + x + o->core_size, sizeof(csz));
	memcpy(&state, b + x + o->state, sizeof(state));
	/* MODULE_STATE_LIVE, COMING, GOING, UNFORMED */
	return core == start && csz && csz <= size &&
	       x + o->mod_size <= csz && state >= 0 && state <= 3 &&
	       name[0] && memchr(name, 0, o->name_size) &&
	       th_printable(name);
}

static void mod_memory_scan(int *cap)
{
	const struct th_module_off *o = &mod_off;
	struct th_vmap *v;
	long n = th_vmaps_all(&v), i;
	unsigned char *b;
	ulong x, size;

	if (th_symbol("mod_tree") || o->module_core < 0 || o->core_size < 0 ||
	    o->state < 0 || o->name < 0 || o->name_size <= 0 ||
	    o->mod_size <= 0)
		return;
	for (i = 0; i < n; i++) {
		size = v[i].end - v[i].start;
		if (th_region(v[i].start) != TH_R_MODULE ||
		    size < (ulong)o->mod_size || size > MOD_SCAN_MAX ||
		    mod_covered(v[i].start, v[i].end) || !(b = malloc(size)))
			continue;
		/* the pages that can be read: an area ends in an unmapped
		 * guard page (before VM_NO_GUARD areas) */
		for (x = 0; x < size && th_read(v[i].start + x, b + x,
						PAGESIZE(), "module memory");
		     x += PAGESIZE())
			;
		size = x;
		for (x = 0; x + o->mod_size <= size; x += 8)
			if (mod_memory_is(b, x, size, v[i].start)) {
				mod_add(v[i].start + x, TH_MOD_MEMORY, cap);
				break;
			}
		free(b);
	}
}

/**
 * th_modules - every module the dump knows
 * @mods: the modules, listed or only on the address tree (kept here)
 *
 * Returns their count.
 */
int th_modules(struct th_module **mods)
{
	const struct th_module_off *o = mod_off_fill();
	struct th_walk w;
	ulong head;
	int cap = 0;
	long i;

	const char *tag;

	if (th_nmods >= 0) {
		th_damage_replay("modules");
		*mods = th_mods;
		return th_nmods;
	}
	tag = th_damage_tag("modules");
	th_nmods = 0;
	head = th_symbol("modules");
	if (head && o->list >= 0) {
		th_list_walk(head, 100000, &w);
		if (w.err)
			th_warn("module list: %s at %lx", w.err, w.bad);
		for (i = 0; i < w.n; i++)
			mod_add(w.ent[i] - o->list, TH_MOD_LISTED, &cap);
		th_walk_free(&w);
	}
	mod_tree_walk(&cap);
	mod_tree_check();
	mod_memory_scan(&cap);
	th_damage_tag(tag);
	*mods = th_mods;
	return th_nmods;
}

/**
 * th_module_of - the module whose memory holds an address
 * @addr: a kernel address
 *
 * Returns NULL when no module (listed or not) covers @addr.
 */
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
 * th_module_listed - whether a module of NAME is on the kernel's module
 * list (loaded in the dump's boot, as /proc/modules shows it)
 * @name: the module's name
 */
int th_module_listed(const char *name)
{
	struct th_module *m;
	int n = th_modules(&m), i;

	for (i = 0; i < n; i++)
		if ((m[i].flags & TH_MOD_LISTED) && strcmp(m[i].name, name) == 0)
			return TRUE;
	return FALSE;
}

/**
 * th_module_name - module.name
 * @mod: struct module
 * @buf: the name ("" when unreadable)
 * @len: room in @buf
 *
 * Returns FALSE when unreadable.
 */
int th_module_name(ulong mod, char *buf, int len)
{
	const struct th_module_off *o = mod_off_fill();

	buf[0] = '\0';
	return o->name >= 0 && th_read_cstr(mod + o->name, buf, len,
					    "module.name");
}

/* The module's kallsyms live in its own memory (add_kallsyms() copies
 * them into the core data): the symbol table fits in the region that
 * holds it, and the strings are in the module too. */
static int mod_symtab_plausible(ulong mod, ulong ks, ulong symtab,
				unsigned int num, ulong strtab)
{
	struct th_module *m = th_module_of(symtab);
	const char *obj = "mod_kallsyms";
	unsigned char sym0[24];
	int r, i;

	/* add_kallsyms() always keeps symbol 0, the ELF null symbol */
	if (!num) {
		th_damaged(obj, ks, "num_symtab 0");
		return FALSE;
	}
	if (!th_read(symtab, sym0, sizeof(sym0), "mod_kallsyms.symtab[0]")) {
		th_damaged(obj, ks, "symtab %lx cannot be read", symtab);
		return FALSE;
	}
	for (i = 0; i < (int)sizeof(sym0); i++)
		if (sym0[i]) {
			th_damaged(obj, ks, "symtab %lx does not start with "
				   "the null symbol", symtab);
			return FALSE;
		}
	if (!m || m->addr != mod || th_module_of(strtab) != m) {
		th_damaged(obj, ks, "symtab %lx or strtab %lx is not in the "
			   "memory of its module", symtab, strtab);
		return FALSE;
	}
	for (r = 0; r < m->nregions; r++)
		if (symtab >= m->region[r].base &&
		    symtab < m->region[r].base + m->region[r].size &&
		    24UL * num > m->region[r].base + m->region[r].size -
		    symtab) {
			th_damaged(obj, ks, "num_symtab %u does not fit in "
				   "module %s", num, m->name);
			return FALSE;
		}
	return TRUE;
}

/* 5.10's add_kallsyms() strlcpy()'d at most KSYM_NAME_LEN - 1 (127)
 * bytes of a name and went on past its whole length (layout_symtab()
 * counted all of it), leaving NULs; later kernels copy the whole name. */
#define TH_KSYM_NAME_SHORTEST 127
/* a module's kept names: a few KB to a few hundred KB */
#define TH_MOD_STRTAB_MAX (16UL << 20)

/* The first break of the name chain, and how many there are. */
struct mod_chain {
	unsigned int nbad, sym;		/* the first: symbol SYM ... */
	ulong prev_off, prev_end, off;	/* ... starts at OFF, the name before
					 * it at PREV_OFF ended at PREV_END */
};

static void mod_chain_break(struct mod_chain *c, unsigned int i, ulong prev,
			    ulong end, ulong off)
{
	if (!c->nbad++) {
		c->sym = i;
		c->prev_off = prev;
		c->prev_end = end;
		c->off = off;
	}
}

/* Whether STR[FROM, TO) are all NUL. */
static int mod_nuls(const char *str, ulong from, ulong to)
{
	for (; from < to; from++)
		if (str[from])
			return FALSE;
	return TRUE;
}

/*
 * The names of the symbols a module keeps once its init is done
 * (core_kallsyms) are copied by add_kallsyms() one after another, symbol 0's
 * empty name at 0 and each next name right after the previous one's NUL;
 * layout_symtab() sized the string table to exactly their lengths, right
 * after the symbol table and right before typetab (5.10's kernel/module.c,
 * 6.1 to 7.x's kernel/module/kallsyms.c).  A name whose NUL came early or
 * late, or an st_name moved, breaks the chain: nothing else in the dump
 * keeps another copy of a module's names.
 */
static int mod_strtab_check(const char *name, ulong symtab,
			    unsigned int num, ulong strtab, ulong typetab)
{
	const char *obj = "mod_kallsyms";
	struct mod_chain c = { 0 };
	unsigned char *syms;
	ulong size, next = 0, prev = 0, plen = 0;
	unsigned int i, st_name;
	char *str;

	if (symtab + 24UL * num != strtab) {
		th_damaged(obj, symtab, "module %s: its %u symbols end at %lx, "
			   "but its strtab is at %lx (layout_symtab() puts the "
			   "names right after the symbols)", name, num,
			   symtab + 24UL * num, strtab);
		return FALSE;
	}
	if (typetab <= strtab || typetab - strtab > TH_MOD_STRTAB_MAX) {
		th_damaged(obj, strtab, "module %s: typetab %lx does not follow "
			   "its strtab %lx (layout_symtab() puts it right after "
			   "the names)", name, typetab, strtab);
		return FALSE;
	}
	size = typetab - strtab;
	syms = malloc(24UL * num);
	str = malloc(size);
	if (!syms || !str ||
	    !th_read(symtab, syms, 24UL * num, "module symtab") ||
	    !th_read(strtab, str, size, "module strtab")) {
		free(syms);
		free(str);
		return TRUE;
	}
	for (i = 0; i < num; i++) {
		memcpy(&st_name, syms + 24UL * i, 4);
		if (st_name != next && !(st_name > next && st_name <= size &&
					 plen >= TH_KSYM_NAME_SHORTEST &&
					 mod_nuls(str, next, st_name)))
			mod_chain_break(&c, i, prev, next, st_name);
		if (st_name >= size) {
			/* no name of it to measure: the table is done */
			if (!c.nbad || c.sym != i)
				mod_chain_break(&c, i, prev, next, st_name);
			break;
		}
		plen = strnlen(str + st_name, size - st_name);
		prev = st_name;
		next = st_name + plen + 1;
	}
	/* the last name ends the table */
	if (i == num && next != size &&
	    !(next < size && plen >= TH_KSYM_NAME_SHORTEST &&
	      mod_nuls(str, next, size)))
		mod_chain_break(&c, num, prev, next, size);
	if (c.nbad) {
		char nm[48] = "";

		if (c.prev_off < size)
			snprintf(nm, sizeof(nm), "%.*s",
				 (int)MIN(40UL, size - c.prev_off),
				 str + c.prev_off);
		if (!th_printable(nm))
			nm[0] = '\0';
		if (!c.sym)
			th_damaged(obj, strtab, "module %s: symbol 0's name "
				   "starts at strtab+%#lx, not at 0 "
				   "(add_kallsyms() packs the names from 0; "
				   "breaks: %u)", name, c.off, c.nbad);
		else if (c.sym < num)
			th_damaged(obj, strtab + c.prev_off, "module %s: the "
				   "name of symbol %u (\"%s\") ends at strtab"
				   "+%#lx, but symbol %u's starts at +%#lx "
				   "(add_kallsyms() packs them: a name was cut, "
				   "overrun or moved; breaks: %u)", name,
				   c.sym - 1, nm, c.prev_end, c.sym, c.off,
				   c.nbad);
		else
			th_damaged(obj, strtab + c.prev_off, "module %s: the "
				   "last name (\"%s\") ends at strtab+%#lx, but "
				   "typetab starts at +%#lx (add_kallsyms() "
				   "packs the names: one was cut, overrun or "
				   "moved; breaks: %u)", name, nm,
				   c.prev_end, c.off, c.nbad);
	}
	free(syms);
	free(str);
	return !c.nbad;
}

/* Each module's kept names, checked once a session; the warnings are
 * kept with the modules', replayed in each command that uses modules. */
static struct {
	ulong mod, symtab, strtab;
	unsigned int num;
	int bad;
} mod_names_done[256];
static int mod_names_ndone;

static void mod_strtab_once(ulong mod, ulong symtab, unsigned int num,
			    ulong strtab, ulong typetab)
{
	struct th_module *m = th_module_of(symtab);
	const char *tag;
	int i, ok;

	for (i = 0; i < mod_names_ndone; i++)
		if (mod_names_done[i].mod == mod &&
		    mod_names_done[i].symtab == symtab &&
		    mod_names_done[i].strtab == strtab &&
		    mod_names_done[i].num == num)
			return;
	tag = th_damage_tag("modules");
	ok = mod_strtab_check(m ? m->name : "?", symtab, num, strtab,
			      typetab);
	th_damage_tag(tag);
	if (mod_names_ndone < (int)(sizeof(mod_names_done) /
				    sizeof(mod_names_done[0]))) {
		i = mod_names_ndone++;
		mod_names_done[i].mod = mod;
		mod_names_done[i].symtab = symtab;
		mod_names_done[i].strtab = strtab;
		mod_names_done[i].num = num;
		mod_names_done[i].bad = !ok;
	}
}

/**
 * th_module_names_damaged - whether a module's symbol names failed a check
 * @addr: an address in the module
 *
 * The module's kept names are checked (once) if they were not yet.
 */
int th_module_names_damaged(ulong addr)
{
	struct th_module *m = th_module_of(addr);
	unsigned int num;
	ulong symtab, strtab;
	int i;

	if (!m)
		return FALSE;
	if (!th_module_symtab(m->addr, &symtab, &num, &strtab))
		return TRUE;
	for (i = 0; i < mod_names_ndone; i++)
		if (mod_names_done[i].mod == m->addr &&
		    mod_names_done[i].symtab == symtab &&
		    mod_names_done[i].strtab == strtab &&
		    mod_names_done[i].num == num)
			return mod_names_done[i].bad;
	return FALSE;
}

/**
 * th_module_symtab - a module's own ELF symbol table (module.kallsyms,
 * before v4.6 struct module's own symtab members)
 * @mod: struct module
 * @symtab: mod_kallsyms.symtab, Elf64_Sym[@num]
 * @num: mod_kallsyms.num_symtab
 * @strtab: mod_kallsyms.strtab
 *
 * Returns FALSE when unreadable.
 */
int th_module_symtab(ulong mod, ulong *symtab, unsigned int *num,
		     ulong *strtab)
{
	const struct th_module_off *o = mod_off_fill();
	ulong ks, typetab;

	if (o->kallsyms < 0 && o->m_symtab >= 0 && o->m_num >= 0 &&
	    o->m_strtab >= 0)
		return th_read_ulong(mod + o->m_symtab, symtab,
				     "module.symtab") &&
			th_read_uint(mod + o->m_num, num, "module.num_symtab") &&
			th_read_ulong(mod + o->m_strtab, strtab,
				      "module.strtab");
	if (o->kallsyms < 0 || o->ks_symtab < 0 || o->ks_num < 0 ||
	    o->ks_strtab < 0)
		return FALSE;
	if (!th_read_ulong(mod + o->kallsyms, &ks, "module.kallsyms"))
		return FALSE;
	/* a live module always has its kallsyms (add_kallsyms()) */
	if (!th_read_ulong(ks + o->ks_symtab, symtab,
			   "mod_kallsyms.symtab") ||
	    !th_read_uint(ks + o->ks_num, num, "mod_kallsyms.num_symtab") ||
	    !th_read_ulong(ks + o->ks_strtab, strtab, "mod_kallsyms.strtab")) {
		th_damaged("module", mod, "kallsyms %lx cannot be read", ks);
		return FALSE;
	}
	if (!mod_symtab_plausible(mod, ks, *symtab, *num, *strtab))
		return FALSE;
	/* once the init is done, the packed copy add_kallsyms() made */
	if (o->core_kallsyms >= 0 && o->ks_typetab >= 0 &&
	    ks == mod + o->core_kallsyms &&
	    th_read_ulong(ks + o->ks_typetab, &typetab,
			  "mod_kallsyms.typetab"))
		mod_strtab_once(mod, *symtab, *num, *strtab, typetab);
	return TRUE;
}

/**
 * th_module_has_tracepoints - whether struct module lists its tracepoints
 */
int th_module_has_tracepoints(void)
{
	const struct th_module_off *o = mod_off_fill();

	return o->tracepoints_ptrs >= 0 && o->num_tracepoints >= 0;
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
	const struct th_module_off *o = mod_off_fill();

	if (!th_module_has_tracepoints())
		return FALSE;
	return th_read_ulong(mod + o->tracepoints_ptrs, ptrs,
			     "module.tracepoints_ptrs") &&
		th_read_uint(mod + o->num_tracepoints, num,
			     "module.num_tracepoints");
}
