/*
 * tracehunt: the kernel's own symbolization, read from the dump.
 *
 * crash's symbol table comes from the vmlinux file and picks its own names
 * among aliases; tracefs files print what the kernel's kallsyms_lookup()
 * returned.  To reproduce them byte for byte this file replays
 * kallsyms_lookup_buildid() over the dump's own tables: core kernel
 * (model/kallsyms_core.c), then modules through the module address tree
 * (which still holds a module that unlinked itself from the module list),
 * then BPF (model/bpf_prog.c: programs and trampolines, with no module
 * name, as bpf_address_lookup() gives them), then ftrace's saved names of
 * freed module init functions.
 */
#include "model/model.h"
#include "model/bpf.h"
#include "model/kallsyms.h"

/* ------------------------------------------------------------ modules --- */

static int th_is_mapping_symbol(const char *str)
{
	if (str[0] == '.' && str[1] == 'L')
		return TRUE;
	if (str[0] == 'L' && str[1] == '0')
		return TRUE;
	return str[0] == '$' && str[1] && strchr("axtd", str[1]) &&
		(str[2] == '\0' || str[2] == '.');
}

static int th_ks_in_text(const struct th_module *m, ulong addr)
{
	int r;

	for (r = 0; r < m->nregions; r++)
		if (m->region[r].text && addr >= m->region[r].base &&
		    addr < m->region[r].base + m->region[r].size)
			return TRUE;
	return FALSE;
}

/* find_kallsyms_symbol() over the module's own ELF symbol table */
static int th_ks_module(struct th_module *m, ulong addr, struct th_sym *s)
{
	ulong symtab, strtab, nextval = 0, bestval, best = 0;
	long unnamed = 0, unnamed_first = 0, defined = 0;
	unsigned int num, i;
	unsigned char *syms;
	int r;

	if (!th_module_symtab(m->addr, &symtab, &num, &strtab))
		return FALSE;
	if (num == 0 || num > 1000000)
		return FALSE;
	/* At worst, the next value is the end of the module's text */
	for (r = 0; r < m->nregions; r++)
		if (m->region[r].text && addr >= m->region[r].base &&
		    addr < m->region[r].base + m->region[r].size)
			nextval = m->region[r].base + m->region[r].size;
	if (!nextval)
		for (r = 0; r < m->nregions; r++)
			if (m->region[r].text &&
			    m->region[r].init == 0)
				nextval = m->region[r].base +
					m->region[r].size;
	for (r = 0; r < m->nregions; r++) {
		/* within_module_init(): the init text bounds the search */
		if (m->region[r].init && addr >= m->region[r].base &&
		    addr < m->region[r].base + m->region[r].size) {
			int k;
			for (k = 0; k < m->nregions; k++)
				if (m->region[k].init && m->region[k].text)
					nextval = m->region[k].base +
						m->region[k].size;
		}
	}
	syms = (unsigned char *)GETBUF(24UL * num);
	if (!th_read(symtab, syms, 24UL * num, "module symtab")) {
		FREEBUF(syms);
		return FALSE;
	}
	memcpy(&bestval, syms + 8, sizeof(ulong));	/* symtab[0].st_value */
	for (i = 1; i < num; i++) {
		unsigned char *e = syms + 24UL * i;
		unsigned int st_name;
		unsigned short shndx;
		ulong val;
		char nm[4];

		memcpy(&st_name, e, 4);
		memcpy(&shndx, e + 6, 2);
		memcpy(&val, e + 8, 8);
		if (shndx == 0)		/* SHN_UNDEF */
			continue;
		defined++;
		/* STT_FUNC: the module's own code */
		if ((e[4] & 0xf) == 2 && !th_ks_in_text(m, val))
			th_damaged("mod_kallsyms", symtab, "function symbol "
				   "%u at %lx is outside %s's text", i, val,
				   m->name);
		if (!th_read(strtab + st_name, nm, sizeof(nm) - 1,
			     "module strtab"))
			continue;
		nm[3] = '\0';
		/* add_kallsyms() keeps only symbols with a name (st_name
		 * set), each its own string: an empty one is damage */
		if (nm[0] == '\0' && st_name && !unnamed++)
			unnamed_first = i;
		if (nm[0] == '\0' || th_is_mapping_symbol(nm))
			continue;
		if (val <= addr && val > bestval) {
			best = i;
			bestval = val;
		}
		if (val > addr && val < nextval)
			nextval = val;
	}
	/* every module defines symbols (__this_module at least) */
	if (num > 1 && !defined)
		th_damaged("mod_kallsyms", symtab, "none of the %u symbols of "
			   "%s is defined", num, m->name);
	if (unnamed)
		th_damaged("mod_kallsyms", strtab, "%ld symbols of %s have an "
			   "empty name (the first: symbol %ld)", unnamed,
			   m->name, unnamed_first);
	if (best) {
		unsigned int st_name;
		ulong st_size;

		memcpy(&st_name, syms + 24UL * best, 4);
		memcpy(&st_size, syms + 24UL * best + 16, 8);
		/* the module's ELF string table: C identifiers */
		if (!th_read_cstr(strtab + st_name, s->name, sizeof(s->name),
				  "module symbol name") || !th_printable(s->name))
			th_damaged("mod_kallsyms", strtab + st_name, "symbol "
				   "%lu of %s has no readable name", best,
				   m->name);
		/* the compiler's sizes do not overlap: another symbol
		 * starting inside this one moved */
		if (nextval > bestval && nextval - bestval < st_size)
			th_damaged("mod_kallsyms", symtab, "%s at %lx is %lu "
				   "bytes, but a symbol starts at %lx",
				   s->name, bestval, st_size, nextval);
		s->addr = bestval;
		s->size = nextval - bestval;
		s->offset = addr - bestval;
	}
	FREEBUF(syms);
	return best != 0;
}

/* struct ftrace_mod_map and ftrace_mod_func offsets, -1 when absent. */
static struct {
	int filled;
	long map_list, map_funcs, map_mod, map_start, map_end, map_num;
	long func_list, func_name, func_ip, func_size;
} ks_fmod_off;

static void th_ks_fmod_off(void)
{
	if (ks_fmod_off.filled)
		return;
	ks_fmod_off.filled = 1;
	ks_fmod_off.map_list = th_member("ftrace_mod_map", "list");
	ks_fmod_off.map_funcs = th_member("ftrace_mod_map", "funcs");
	ks_fmod_off.map_mod = th_member("ftrace_mod_map", "mod");
	ks_fmod_off.map_start = th_member("ftrace_mod_map", "start_addr");
	ks_fmod_off.map_end = th_member("ftrace_mod_map", "end_addr");
	ks_fmod_off.map_num = th_member("ftrace_mod_map", "num_funcs");
	ks_fmod_off.func_list = th_member("ftrace_mod_func", "list");
	ks_fmod_off.func_name = th_member("ftrace_mod_func", "name");
	ks_fmod_off.func_ip = th_member("ftrace_mod_func", "ip");
	ks_fmod_off.func_size = th_member("ftrace_mod_func", "size");
}

/* The function of one ftrace_mod_map holding ADDR, into S. */
static int th_ks_ftrace_map(ulong map, ulong addr, struct th_sym *s)
{
	struct th_walk funcs;
	int found = FALSE;
	long j;

	ulong lo = 0, hi = ~0UL;
	unsigned int num;

	th_list_walk(map + ks_fmod_off.map_funcs, TH_MAX_LIST, &funcs);
	if (funcs.err)
		th_damaged("ftrace_mod_map", map, "funcs: %s at %lx", funcs.err,
			   funcs.bad);
	/* ftrace_free_mem() saved the functions of [start_addr, end_addr)
	 * and counted them */
	if (ks_fmod_off.map_num >= 0 && !funcs.err &&
	    th_read_uint(map + ks_fmod_off.map_num, &num,
			 "ftrace_mod_map.num_funcs") && num != funcs.n)
		th_damaged("ftrace_mod_map", map, "num_funcs %u, but %ld on "
			   "its list", num, funcs.n);
	if (ks_fmod_off.map_start < 0 || ks_fmod_off.map_end < 0 ||
	    !th_read_ulong(map + ks_fmod_off.map_start, &lo,
			   "ftrace_mod_map.start_addr") ||
	    !th_read_ulong(map + ks_fmod_off.map_end, &hi,
			   "ftrace_mod_map.end_addr")) {
		lo = 0;
		hi = ~0UL;
	}
	for (j = 0; j < funcs.n; j++) {
		ulong f = funcs.ent[j] - ks_fmod_off.func_list, ip, size, np;
		ulong mod;

		if (!th_read_ulong(f + ks_fmod_off.func_ip, &ip,
				   "ftrace_mod_func.ip") ||
		    !th_read_ulong(f + ks_fmod_off.func_size, &size,
				   "ftrace_mod_func.size"))
			continue;
		/* a freed init function was module code, and small */
		/* the size is kallsyms' (to the next symbol or the end of
		 * the section's pages), so only IP must lie in the map */
		if (th_region(ip) != TH_R_MODULE || size > (1UL << 24) ||
		    ip < lo || ip >= hi || ip + size < ip) {
			th_damaged("ftrace_mod_func", f, "ip %lx size %lu "
				   "is no module function", ip, size);
			continue;
		}
		if (addr < ip || addr >= ip + size)
			continue;
		/* kstrdup() of a kallsyms name: never empty */
		s->name[0] = '\0';
		if (!th_read_ulong(f + ks_fmod_off.func_name, &np,
				   "ftrace_mod_func.name") ||
		    !th_read_cstr(np, s->name, sizeof(s->name),
				  "ftrace_mod_func name") ||
		    !s->name[0] || !th_printable(s->name)) {
			th_damaged("ftrace_mod_func", f, "name at %lx is not "
				   "text", np);
			s->name[0] = '\0';
			continue;
		}
		s->addr = ip;
		s->size = size;
		s->offset = addr - ip;
		s->module[0] = '\0';
		/* the map lives as long as its module (ftrace_release_mod()
		 * frees it), and ftrace_mod_address_lookup() names it by
		 * mod->name: a module with a name */
		mod = 0;
		if (!th_read_ulong(map + ks_fmod_off.map_mod, &mod,
				   "ftrace_mod_map.mod") || !th_kptr(mod) ||
		    !th_module_name(mod, s->module, sizeof(s->module)) ||
		    !s->module[0] || !th_printable(s->module)) {
			th_damaged("ftrace_mod_map", map, "mod %lx is no module "
				   "with a name", mod);
			s->module[0] = '\0';
		}
		found = TRUE;
		break;
	}
	th_walk_free(&funcs);
	return found;
}

/* ftrace_mod_address_lookup(): names of freed module init functions. */
static int th_ks_ftrace_mod(ulong addr, struct th_sym *s)
{
	ulong head = th_symbol("ftrace_mod_maps");
	struct th_walk maps;
	int found = FALSE;
	long i;

	th_ks_fmod_off();
	if (!head || ks_fmod_off.map_list < 0 || ks_fmod_off.map_funcs < 0 ||
	    ks_fmod_off.func_list < 0 || ks_fmod_off.func_ip < 0)
		return FALSE;
	th_list_walk(head, TH_MAX_HLIST, &maps);
	if (maps.err)
		th_damaged("ftrace_mod_maps", head, "%s at %lx", maps.err,
			   maps.bad);
	for (i = 0; i < maps.n && !found; i++)
		found = th_ks_ftrace_map(maps.ent[i] - ks_fmod_off.map_list,
					 addr, s);
	th_walk_free(&maps);
	return found;
}

static int th_ksym_lookup_uncached(ulong addr, struct th_sym *s)
{
	struct th_module *m;

	memset(s, 0, sizeof(*s));
	if (th_ksym_core(addr, s))
		return TRUE;
	m = th_module_of(addr);
	/* a module found only in its memory: the kernel's lookup could not */
	if (m && m->flags != TH_MOD_MEMORY) {
		snprintf(s->module, sizeof(s->module), "%s", m->name);
		if (th_ks_module(m, addr, s))
			return TRUE;
	}
	if (th_bpf_ksym_lookup(addr, &s->addr, &s->size, s->name,
			       sizeof(s->name))) {
		s->module[0] = '\0';
		s->offset = addr - s->addr;
		return TRUE;
	}
	return th_ks_ftrace_mod(addr, s);
}

/*
 * The ring buffers name the same few thousand functions millions of times
 * ("ftrace cat trace" of a function trace): a direct-mapped cache of
 * lookups, of fixed size.  Like the tables it is built from, it holds for
 * the whole session (one dump).  Its entries are small, the names kept in
 * an arena: a page of memory first touched costs a fault (10 us in a
 * guest), and entries holding a whole struct th_sym (344 bytes) spread a
 * few thousand lookups over a thousand pages.
 */
#define TH_KSYM_CACHE 8192
#define TH_KSYM_CHUNK (64 * 1024)
/* At most this many chunks (4 MB) of names: then the cache starts over.
 * Without a bound, every miss that replaced an entry added its names for
 * the rest of the session ("ftrace sites -a" 100 times grew crash by 68 MB). */
#define TH_KSYM_MAX_CHUNKS 64
static struct th_ksym_cached {
	ulong addr;
	ulong start, size, offset;
	const char *name, *module;	/* NULL: slot unused */
	int found;
} *th_ksym_cache;
static char *th_ksym_chunks;	/* linked through their first word */
static int th_ksym_nchunks;
static char *th_ksym_arena;
static size_t th_ksym_left;

static void th_ksym_flush(void)
{
	while (th_ksym_chunks) {
		char *next = *(char **)th_ksym_chunks;

		free(th_ksym_chunks);
		th_ksym_chunks = next;
	}
	th_ksym_nchunks = 0;
	th_ksym_arena = NULL;
	th_ksym_left = 0;
	if (th_ksym_cache)
		memset(th_ksym_cache, 0,
		       TH_KSYM_CACHE * sizeof(*th_ksym_cache));
}

/* Copies of A and B in the arena (*PA, *PB); 0 when there is no room. */
static int th_ksym_copy(const char *a, const char *b, const char **pa,
			const char **pb)
{
	size_t na = strlen(a) + 1, nb = strlen(b) + 1;

	if (na + nb > TH_KSYM_CHUNK - sizeof(char *))
		return 0;
	if (na + nb > th_ksym_left) {
		char *c;

		if (th_ksym_nchunks >= TH_KSYM_MAX_CHUNKS)
			th_ksym_flush();
		c = malloc(TH_KSYM_CHUNK);
		if (!c)
			return 0;
		*(char **)c = th_ksym_chunks;
		th_ksym_chunks = c;
		th_ksym_nchunks++;
		th_ksym_arena = c + sizeof(char *);
		th_ksym_left = TH_KSYM_CHUNK - sizeof(char *);
	}
	memcpy(th_ksym_arena, a, na);
	*pa = th_ksym_arena;
	memcpy(th_ksym_arena + na, b, nb);
	*pb = th_ksym_arena + na;
	th_ksym_arena += na + nb;
	th_ksym_left -= na + nb;
	return 1;
}

int th_ksym_lookup(ulong addr, struct th_sym *s)
{
	struct th_ksym_cached *e;
	const char *name, *module, *tag;
	int found;

	/* names from damaged tables or modules: the warnings, in every
	 * command that prints a name */
	th_damage_replay("kallsyms");
	th_damage_replay("modules");
	if (!th_ksym_cache)
		th_ksym_cache = calloc(TH_KSYM_CACHE, sizeof(*th_ksym_cache));
	if (!th_ksym_cache)
		return th_ksym_lookup_uncached(addr, s);
	e = &th_ksym_cache[(addr ^ (addr >> 12)) % TH_KSYM_CACHE];
	if (e->name && e->addr == addr) {
		th_strlcpy(s->name, e->name, sizeof(s->name));
		th_strlcpy(s->module, e->module, sizeof(s->module));
		s->addr = e->start;
		s->size = e->size;
		s->offset = e->offset;
		return e->found;
	}
	tag = th_damage_tag("kallsyms");
	found = th_ksym_lookup_uncached(addr, s);
	th_damage_tag(tag);
	if (th_ksym_copy(s->name, s->module, &name, &module)) {
		e->addr = addr;
		e->start = s->addr;
		e->size = s->size;
		e->offset = s->offset;
		e->name = name;
		e->module = module;
		e->found = found;
	}
	return found;
}

char *th_ksym_pS(ulong addr, char *buf, size_t len)
{
	struct th_sym s;

	if (!th_ksym_lookup(addr, &s))
		snprintf(buf, len, "0x%lx", addr);
	else if (s.module[0])
		snprintf(buf, len, "%s+0x%lx/0x%lx [%s]", s.name, s.offset,
			 s.size, s.module);
	else
		snprintf(buf, len, "%s+0x%lx/0x%lx", s.name, s.offset, s.size);
	return buf;
}

/**
 * th_ksym_pS_any - th_ksym_pS(), and where the kernel knew no symbol, the
 * one a module only its memory still holds names (TH_MOD_MEMORY: a module
 * that left the list of a kernel without the module tree)
 * @addr: a kernel address
 * @buf: "name+0xoff/0xsize [mod]", or as th_ksym_pS()
 * @len: room in @buf
 *
 * For the reports that go beyond what the kernel could print (hooks).
 */
char *th_ksym_pS_any(ulong addr, char *buf, size_t len)
{
	struct th_module *m;
	struct th_sym s;

	if (th_ksym_lookup(addr, &s) || !(m = th_module_of(addr)) ||
	    m->flags != TH_MOD_MEMORY)
		return th_ksym_pS(addr, buf, len);
	memset(&s, 0, sizeof(s));
	if (!th_ks_module(m, addr, &s))
		return th_ksym_pS(addr, buf, len);
	snprintf(buf, len, "%s+0x%lx/0x%lx [%s]", s.name, s.offset, s.size,
		 m->name);
	return buf;
}

char *th_ksym_ps(ulong addr, char *buf, size_t len)
{
	struct th_sym s;

	if (!th_ksym_lookup(addr, &s))
		snprintf(buf, len, "0x%lx", addr);
	else if (s.module[0])
		snprintf(buf, len, "%s [%s]", s.name, s.module);
	else
		snprintf(buf, len, "%s", s.name);
	return buf;
}

int th_ksym_name_off(ulong addr, char *buf, size_t len, char *mod,
		     size_t mlen)
{
	struct th_sym s;

	if (mod && mlen)
		mod[0] = '\0';
	if (!th_ksym_lookup(addr, &s)) {
		buf[0] = '\0';
		return FALSE;
	}
	snprintf(buf, len, "%s", s.name);
	if (mod && mlen)
		snprintf(mod, mlen, "%s", s.module);
	return TRUE;
}
