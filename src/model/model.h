/*
 * tracehunt: the model: the only layer that reads kernel objects.
 *
 * Everything here is built against crash's defs.h; the byte-level decoders
 * in lib/ know nothing of crash and are declared in their own headers.
 */
#ifndef TRACEHUNT_MODEL_H
#define TRACEHUNT_MODEL_H

#include "defs.h"

#define TH_VERSION "0.1"

/* Bounds for every walk over dump memory: a damaged list ends here. */
#define TH_MAX_LIST	1000000
#define TH_MAX_HLIST	100000

/* ------------------------------------------------------------ core.c --- */

/* Reads that never longjmp out: they return FALSE and stay quiet. */
int th_read(ulong addr, void *buf, long len, const char *what);
int th_read_ulong(ulong addr, ulong *val, const char *what);
int th_read_uint(ulong addr, unsigned int *val, const char *what);
int th_read_int(ulong addr, int *val, const char *what);
int th_read_u64(ulong addr, uint64_t *val, const char *what);
/* NUL-terminated string of at most len-1 bytes; "" and FALSE on failure. */
int th_read_cstr(ulong addr, char *buf, int len, const char *what);
/* The strings the first CODELEN bytes of function FN load, in order
 * (each cut to TH_CODE_STR - 1 bytes, "" when unreadable): their count,
 * -1 without the function or its code. */
#define TH_CODE_STR	200
int th_code_strings(const char *fn, size_t codelen, char (*out)[TH_CODE_STR],
		    int max);
/* qsort()/bsearch() order of ulongs */
int th_ulong_cmp(const void *a, const void *b);
/* The text the char * at ADDR points to; its pointer in *PTR (or NULL). */
int th_read_strp(ulong addr, char *buf, int len, const char *what,
		 ulong *ptr);
/* A copy of one page of dump memory for many small reads from it: a
 * compressed dump's page is then decompressed once, whatever crash's own
 * 16-page cache evicted in between.  Zeroed to start; th_pagecopy_free()
 * drops it. */
struct th_pagecopy {
	ulong at;			/* the page copied, 0: none */
	char *page;
};
/* th_read() of LEN bytes at ADDR, within one page, through PC: the same
 * result and the same read log as th_read(). */
int th_read_via(struct th_pagecopy *pc, ulong addr, void *buf, long len,
		const char *what);
void th_pagecopy_free(struct th_pagecopy *pc);

/* Symbol address, or 0 when the symbol does not exist. */
ulong th_symbol(const char *name);
/* The same among the kernel image's symbols only: no module scan. */
ulong th_ksymbol(const char *name);
/* snprintf(DST, LEN, "%s", SRC) without the formatting machinery
 * (thousands of symbol names); LEN > 0.  The length copied. */
static inline size_t th_strlcpy(char *dst, const char *src, size_t len)
{
	size_t n = strlen(src);

	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return n;
}
/* ----------------------------------------------------------- types.c ---
 * The type probes: the vmlinux BTF's answers (btf_types.h), else gdb's;
 * cached.  TRACEHUNT_LOOKUPLOG=FILE logs each one gdb answered, with its
 * time; TRACEHUNT_NOBTF=1 asks gdb for all. */

/* Offset of MEMBER in STRUCT, -1 when absent (cached). */
long th_member(const char *sname, const char *mname);
/* Offset of a nested member path "a.b" of STRUCT (also through anonymous
 * structs and unions), -1 when absent (cached). */
long th_member_path(const char *sname, const char *path);
/* Size of a struct, -1 when absent (cached). */
long th_size(const char *sname);
/* Elements of the array variable SYM, -1 when unknown (cached). */
long th_array_len(const char *sym);
/* What the variable SYM is (th_var_type()), its size in *LENGTH. */
enum { TH_VT_NONE = -1, TH_VT_PTR, TH_VT_ARRAY, TH_VT_STRUCT, TH_VT_OTHER };
int th_var_type(const char *sym, long *length);
/* Size of a member of a struct (an array's whole size), -1 when absent
 * (cached). */
long th_member_size(const char *sname, const char *mname);
/* 1 when MEMBER of STRUCT is a pointer (MEMBER_TYPE() == TYPE_CODE_PTR:
 * a typedef of one is not), 0 when another type, -1 when absent
 * (cached). */
int th_member_ptr(const char *sname, const char *mname);
/* First existing member of the NULL-terminated list of names, or -1. */
long th_member_any(const char *sname, const char *const *names,
		   const char **found);
/* Value of an enumerator, or DEFAULT when it does not exist. */
long th_enum(const char *name, long def);
long th_enum_beside(const char *name, const char *sibling, long def);
int th_enum_exists(const char *name);
/* NAME's value when already known (an earlier lookup read its whole enum);
 * FALSE without asking gdb otherwise. */
int th_enum_cached(const char *name, long *val);
/* Every enumerator of the enum NAME belongs to, in declaration order (one
 * gdb lookup for the lot): up to MAX into OUT, the count returned (0 when
 * gdb cannot print that enum). */
struct th_enumv {
	char name[64];
	long val;
};
int th_enum_list(const char *name, struct th_enumv *out, int max);

/* Kernel-pointer sanity: canonical, kernel half, non-NULL. */
int th_kptr(ulong addr);

/*
 * Bounded, cycle-safe walk of a kernel list_head.  HEAD is the address of
 * the list_head that anchors the list.  Returns the number of entries
 * (addresses of the list_head members, not the containing structs) stored
 * in *out (GETBUF'd, caller FREEBUFs), or -1 with *why set when the list is
 * damaged; entries read before the damage are still returned in that case
 * through *n_partial.
 */
struct th_walk {
	ulong *ent;
	long n;
	const char *err;	/* NULL when the walk ended at the head */
	ulong bad;		/* the pointer that broke the walk */
};
void th_list_walk(ulong head, long max, struct th_walk *w);
void th_hlist_walk(ulong first, long max, struct th_walk *w);
/* NULL-terminated chain whose next pointer is at NEXT_OFF in each node;
 * entries are the node addresses. */
void th_chain_walk(ulong first, long next_off, long max, struct th_walk *w);
/* In-order walk of the rbtree whose struct rb_root is at ROOT (an
 * rb_root_cached's rb_root member too): the entries are the rb_node
 * addresses, smallest first; damage ends the walk as above, and so does
 * a node outside the regions of MASK (TH_M(TH_R_*), below; 0: any kernel
 * pointer). */
void th_rb_walk(ulong root, unsigned mask, long max, struct th_walk *w);
void th_walk_free(struct th_walk *w);

/* for_each_possible_cpu(): fills CPUS, returns the count. */
int th_possible_cpus(int *cpus, int max);
/* per_cpu_ptr(PTR, CPU) */
ulong th_percpu_ptr(ulong ptr, int cpu);

/* ------------------------------------------------------- plausible.c --- */

/* What begins each warning in the text (not in a -j document's list). */
#define TH_WARN_PREFIX "tracehunt: warning: "
/* Print a one-line "tracehunt: warning: " line through fp (once per
 * command) and record that this command saw damage. */
void th_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Send th_warn()'s messages (without the "tracehunt: warning: " prefix)
 * to FN instead of fp; FN NULL: print them again.  Commands start with
 * th_warn_to(NULL, NULL), so that an interrupted one leaves nothing. */
void th_warn_to(void (*fn)(const char *msg, void *arg), void *arg);
/* The one report of a failed plausibility check: "tracehunt: warning:
 * OBJECT at ADDR: WHAT", once per command, recorded as th_warn(). */
void th_damaged(const char *object, ulong addr, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Failed checks (and walk warnings) in the current command so far. */
long th_damage_seen(void);
/* Failed checks in the whole session: a finding whose reading moved it
 * rests on damaged data. */
long th_damage_serial(void);

/* A reader whose result is cached for the session names itself (returns
 * the previous tag) while it reads; its warnings are kept, and
 * th_damage_replay(TAG) prints them again in each later command that uses
 * the cached result.  th_damage_forget(TAG) when the cache is dropped. */
const char *th_damage_tag(const char *tag);
void th_damage_replay(const char *tag);
void th_damage_forget(const char *tag);
/* Whether a warning is kept under TAG. */
int th_damage_kept(const char *tag);

/* Kernel address-space regions (x86_64), from crash's machdep/vt. */
enum {
	TH_R_NONE,	/* user, non-canonical, a hole */
	TH_R_TEXT,	/* the kernel image's text */
	TH_R_IMAGE,	/* the rest of the kernel image: data, rodata */
	TH_R_MODULE,	/* module space: modules, BPF, trampolines */
	TH_R_DIRECT,	/* the direct map: kmalloc, pages, per-cpu */
	TH_R_VMALLOC,	/* vmalloc space */
	TH_R_VMEMMAP,	/* the struct page array */
};
#define TH_M(r)		(1U << (r))
/* where heap objects (kmalloc, vmalloc, static data) may live */
#define TH_M_DATA	(TH_M(TH_R_IMAGE) | TH_M(TH_R_MODULE) | \
			 TH_M(TH_R_DIRECT) | TH_M(TH_R_VMALLOC))
/* where code may live */
#define TH_M_CODE	(TH_M(TH_R_TEXT) | TH_M(TH_R_MODULE))
int th_region(ulong addr);
const char *th_region_name(int region);
int th_ptr_in(ulong addr, unsigned mask);
/* FALSE (and th_damaged(OBJECT, WHERE, ...)) when PTR, the FIELD of the
 * object, is outside the regions of MASK. */
int th_check_ptr(const char *object, ulong where, ulong ptr, unsigned mask,
		 const char *field);
/* Kernel text, module text, or module space no module holds (ftrace and
 * BPF trampolines). */
int th_code_addr(ulong addr);
/* FALSE (and th_damaged()) when PTR, the object's FIELD, is not code. */
int th_check_code(const char *object, ulong where, ulong ptr,
		  const char *field);
/* th_check_code(), and a function pointer's value is a function's start:
 * FALSE (and th_damaged()) when PTR lies inside a symbol. */
int th_check_func(const char *object, ulong where, ulong ptr,
		  const char *field);
/* FALSE (and th_damaged()) when VAL, the object's FIELD, is above MAX. */
int th_check_count(const char *object, ulong where, unsigned long val,
		   unsigned long max, const char *field);
/* a counter of events since boot (hits, misses): at most one per 10 ns
 * per CPU of the uptime */
int th_check_events(const char *object, ulong where, unsigned long val,
		    const char *field);
/* Only printable ASCII (and tab/newline) in S. */
int th_printable(const char *s);
/* The campaign's read log (TRACEHUNT_READLOG): called by th_read(). */
void th_readlog(ulong addr, long len, const char *what);

/* -------------------------------------------------------- kallsyms.c --- */

/*
 * The kernel's own symbolization, from the dump: the core kallsyms tables,
 * then every module on the kernel's module tree (including modules that
 * unlinked themselves from the module list), then ftrace's saved names of
 * freed module init functions.  Formats like the kernel's %pS / %ps.
 */
struct th_sym {
	char name[256];
	char module[64];	/* "" for the core kernel */
	ulong addr;		/* start of the symbol */
	ulong size;
	ulong offset;
};
int th_ksym_lookup(ulong addr, struct th_sym *s);
/* "%pS": name+0xoff/0xsize [mod], or 0x%lx when unknown. */
char *th_ksym_pS(ulong addr, char *buf, size_t len);
/* The same, and where the kernel knew none, a name from a module only
 * its memory holds (TH_MOD_MEMORY): for hooks. */
char *th_ksym_pS_any(ulong addr, char *buf, size_t len);
/* "%ps": name [mod] (no offset), or 0x%lx when unknown. */
char *th_ksym_ps(ulong addr, char *buf, size_t len);
/* kprobes/list style: name+0xoff, module in *mod (may be ""). */
int th_ksym_name_off(ulong addr, char *buf, size_t len, char *mod, size_t mlen);

/* ------------------------------------------- modules.c, vmap.c, owner.c --- */

#define TH_MOD_LISTED	0x1	/* on the kernel's "modules" list */
#define TH_MOD_TREE	0x2	/* on the module address tree */
/* found only in module memory: before the module tree (v4.2) the kernel
 * itself has no way to a module that left the list (modules.c) */
#define TH_MOD_MEMORY	0x4

struct th_module {
	ulong addr;		/* struct module */
	char name[64];
	unsigned flags;
	int nregions;
	struct {
		ulong base;
		ulong size;
		int text;	/* executable region */
		int init;
	} region[8];
};

/* All modules the dump knows: listed, on the address tree, or (before
 * the tree) found in module memory no listed module covers. */
int th_modules(struct th_module **mods);
struct th_module *th_module_of(ulong addr);
/* A module of NAME is on the module list (loaded in this boot). */
int th_module_listed(const char *name);
/* module.tracepoints_ptrs/num_tracepoints: whether struct module has
 * them, and one module's (FALSE when unreadable). */
int th_module_has_tracepoints(void);
int th_module_tracepoints(ulong mod, ulong *ptrs, unsigned int *num);
/* module.name; FALSE ("") when unreadable */
int th_module_name(ulong mod, char *buf, int len);
/* The module's own ELF symbol table (mod_kallsyms); FALSE when
 * unreadable. */
int th_module_symtab(ulong mod, ulong *symtab, unsigned int *num,
		     ulong *strtab);
/* Whether the names of the module holding ADDR failed a check (a name
 * cut or moved in its packed string table); FALSE for no module. */
int th_module_names_damaged(ulong addr);

/* vmalloc/module-space areas */
struct th_vmap {
	ulong start, end;	/* [start, end) */
	ulong caller;
	ulong vm;
};
struct th_vmap *th_vmap_of(ulong addr);
long th_vmaps_all(struct th_vmap **v);
void th_vmaps_reset(void);

/* Who owns the code or data at an address. */
enum th_owner_kind { TH_OWN_NONE, TH_OWN_CORE, TH_OWN_MODULE, TH_OWN_HIDDEN,
		     TH_OWN_UNKNOWN };
struct th_owner {
	enum th_owner_kind kind;
	char module[64];	/* for MODULE, and HIDDEN when the tree knows it */
	struct th_vmap vmap;	/* for HIDDEN */
	int have_vmap;
	int damaged;		/* what it rests on failed a check */
};
void th_owner_of(ulong addr, struct th_owner *o);
/* "core", "[mod]", "HIDDEN (vmap START-END SIZE caller SYM)" ... */
char *th_owner_str(const struct th_owner *o, char *buf, size_t len);

/* Forget cached per-dump state (modules, vmap areas). */
void th_modules_reset(void);

/* ------------------------------------------------------ tracearray.c --- */

/* A trace array: the global one (name "") or an instance. */
struct th_tr {
	ulong addr;		/* struct trace_array */
	char name[64];
};
/* Global first, then the instances in ftrace_trace_arrays order. */
int th_trace_arrays(struct th_tr **out);
struct th_tr *th_trace_array_by_name(const char *name);


#endif
