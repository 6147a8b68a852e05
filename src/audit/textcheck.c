/*
 * tracehunt: text integrity of the core kernel, for "hooks".
 *
 * The vmlinux crash was started with is read with libelf: the .text
 * section, the STT_FUNC symbols inside it, and the kernel's own tables of
 * the sites it rewrites at boot or at run time.  Those tables are read from
 * the file, not the dump: most of them live in init memory that the kernel
 * frees after boot (.altinstructions, .parainstructions, .retpoline_sites,
 * .return_sites, .ibt_endbr_seal, .smp_locks), and the file holds exactly
 * the entries the kernel applied to this text.  Each table is used only
 * when its symbols exist; entry layouts come from the dump's debuginfo.
 *
 * For each function the entry bytes up to the end of its ftrace site are
 * compared; every differing byte must lie in a site of some table whose
 * bytes in memory are a form the kernel writes there (checked as far as
 * cheaply possible: ftrace sites must be the NOP or a call to the target
 * the record asks for, jump labels a NOP or a jmp to their target, static
 * calls a call/jmp to their key's function ...), or under a registered
 * kprobe.  Whatever is left is reported.  Module text has no file to
 * compare with and is not checked here.
 */
#include <fcntl.h>
#include <unistd.h>
#include <stdarg.h>
#include <libelf.h>
#include <gelf.h>
#include "insn.h"
#include "model/kprobes.h"
#include "model/ftrace_ops.h"
#include "audit/textcheck.h"

#define TX_CHUNK	(1UL << 20)	/* dump text read per readmem */
#define TX_PAGE		4096UL
#define TX_MAX_ENTRIES	(1L << 22)	/* bound on any table's entries */
#define TX_GRAPH_CALL	(~1UL)		/* ftrace site aux: ftrace_graph_call */

static const char *const tx_kind_names[TH_TX_NKINDS] = {
	[TH_TX_FTRACE] = "ftrace",
	[TH_TX_KPROBE] = "kprobe",
	[TH_TX_OPTPROBE] = "optprobe",
	[TH_TX_ALTERNATIVE] = "alternative",
	[TH_TX_PARAVIRT] = "paravirt",
	[TH_TX_RETPOLINE] = "retpoline",
	[TH_TX_RETURN_THUNK] = "return thunk",
	[TH_TX_JUMP_LABEL] = "jump label",
	[TH_TX_STATIC_CALL] = "static call",
	[TH_TX_STATIC_CALL_TRAMP] = "static call trampoline",
	[TH_TX_IBT] = "IBT endbr seal",
	[TH_TX_SMP_LOCK] = "SMP lock prefix",
	[TH_TX_RUNTIME_CONST] = "runtime constant",
	[TH_TX_KASLR_RELOC] = "KASLR relocation",
};

const char *th_text_kind_name(int kind)
{
	return kind >= 0 && kind < TH_TX_NKINDS ? tx_kind_names[kind] : "?";
}

/* A rewritable site, in file (link-time) addresses. */
struct tx_site {
	ulong start;
	ulong aux;		/* per kind: target, key, record index */
	unsigned short len;
	unsigned char kind;
	unsigned char rlen;	/* alternatives: replacement length */
};

struct tx_func {
	ulong addr;		/* file address */
	ulong end;		/* end of the function, clipped at the next */
	const char *name;	/* the file's name (aliases: the first) */
};

/* One ELF file: pc->namelist or pc->namelist_debug. */
struct tx_elf {
	int fd;
	Elf *e;
	Elf_Scn *symtab;
	size_t symstr;
};

/* What the file says; kept for the whole session (same vmlinux). */
static struct {
	int loaded, ok;
	char err[200];
	struct tx_elf f[2];
	int nf;
	ulong text, text_size;	/* .text, file addresses */
	const unsigned char *disk;
	struct tx_func *fn;
	long nfn;
	struct tx_site *site;	/* file-table sites (not ftrace/kprobes) */
	long nsite, cap;
	ulong stext;		/* _stext in the file, for the KASLR offset */
	ulong fentry;		/* __fentry__ in the file */
	long tables[TH_TX_NKINDS];
	/* runtime constants: runtime_ptr_SYM (imm64) and runtime_shift_SYM
	 * (imm8) sections, s32 entries relative to themselves */
	struct {
		const char *sfx;
		ulong start, stop;
		int len;
	} rc[64];
	int nrc;
} T;

/* -------------------------------------------------------------- ELF --- */

static int tx_elf_open(const char *path, struct tx_elf *f)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	f->fd = open(path, O_RDONLY);
	if (f->fd < 0)
		return FALSE;
	f->e = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (!f->e || elf_kind(f->e) != ELF_K_ELF) {
		if (f->e)
			elf_end(f->e);
		close(f->fd);
		return FALSE;
	}
	f->symtab = NULL;
	while ((scn = elf_nextscn(f->e, scn))) {
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB) {
			f->symtab = scn;
			f->symstr = sh.sh_link;
			break;
		}
	}
	return TRUE;
}

/* Bytes of the file at [addr, addr+len) from a PROGBITS section. */
static const unsigned char *tx_file_bytes(ulong addr, ulong len,
					  const char **secname)
{
	int i;

	for (i = 0; i < T.nf; i++) {
		Elf_Scn *scn = NULL;
		GElf_Shdr sh;
		size_t shstr;

		if (elf_getshdrstrndx(T.f[i].e, &shstr))
			continue;
		while ((scn = elf_nextscn(T.f[i].e, scn))) {
			Elf_Data *d;

			if (!gelf_getshdr(scn, &sh) ||
			    sh.sh_type != SHT_PROGBITS ||
			    !(sh.sh_flags & SHF_ALLOC) || addr < sh.sh_addr ||
			    addr + len > sh.sh_addr + sh.sh_size)
				continue;
			d = elf_getdata(scn, NULL);
			if (!d || !d->d_buf || d->d_size != sh.sh_size)
				continue;
			if (secname)
				*secname = elf_strptr(T.f[i].e, shstr,
						      sh.sh_name);
			return (const unsigned char *)d->d_buf +
				(addr - sh.sh_addr);
		}
	}
	return NULL;
}

/* The symbols of interest, looked up in one pass over .symtab. */
enum {
	S_STEXT, S_TEXT, S_RET, S_RET_END, S_RETPO, S_RETPO_END, S_ALT,
	S_ALT_END, S_PARA, S_PARA_END, S_JT, S_JT_END, S_SC, S_SC_END, S_IBT,
	S_IBT_END, S_SMP, S_SMP_END, S_FENTRY, S_NSYM
};
static const char *const tx_symnames[S_NSYM] = {
	"_stext", "_text", "__return_sites", "__return_sites_end",
	"__retpoline_sites", "__retpoline_sites_end", "__alt_instructions",
	"__alt_instructions_end", "__parainstructions",
	"__parainstructions_end", "__start___jump_table",
	"__stop___jump_table", "__start_static_call_sites",
	"__stop_static_call_sites", "__ibt_endbr_seal", "__ibt_endbr_seal_end",
	"__smp_locks", "__smp_locks_end", "__fentry__",
};

static int tx_func_cmp(const void *a, const void *b)
{
	const struct tx_func *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* of aliases, the longest size first */
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return 0;
}

static int tx_symbols(ulong *val)
{
	struct tx_elf *f = NULL;
	Elf_Data *d;
	GElf_Shdr sh;
	size_t i, n, textndx = 0;
	long cap = 0;
	int k;

	for (k = 0; k < T.nf && !f; k++)
		if (T.f[k].symtab)
			f = &T.f[k];
	if (!f)
		return FALSE;
	/* .text's index in the file that has the symbols */
	{
		Elf_Scn *scn = NULL;
		size_t shstr;

		if (elf_getshdrstrndx(f->e, &shstr))
			return FALSE;
		while ((scn = elf_nextscn(f->e, scn))) {
			const char *nm;

			if (!gelf_getshdr(scn, &sh))
				continue;
			nm = elf_strptr(f->e, shstr, sh.sh_name);
			if (nm && !strcmp(nm, ".text")) {
				textndx = elf_ndxscn(scn);
				T.text = sh.sh_addr;
				T.text_size = sh.sh_size;
				break;
			}
		}
	}
	if (!textndx || !gelf_getshdr(f->symtab, &sh) || !sh.sh_entsize)
		return FALSE;
	d = elf_getdata(f->symtab, NULL);
	if (!d)
		return FALSE;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 1; i < n; i++) {
		GElf_Sym s;
		const char *nm;

		if (!gelf_getsym(d, i, &s))
			continue;
		nm = elf_strptr(f->e, f->symstr, s.st_name);
		if (!nm)
			continue;
		if (GELF_ST_TYPE(s.st_info) == STT_FUNC &&
		    s.st_shndx == textndx && s.st_value >= T.text &&
		    s.st_value < T.text + T.text_size) {
			if (T.nfn >= cap) {
				cap = cap ? cap * 2 : 65536;
				T.fn = realloc(T.fn, cap * sizeof(*T.fn));
				if (!T.fn)
					return FALSE;
			}
			T.fn[T.nfn].addr = s.st_value;
			T.fn[T.nfn].end = s.st_value + s.st_size;
			T.fn[T.nfn++].name = nm;
		}
		if (nm[0] != '_')
			continue;
		if (!strncmp(nm, "__start_runtime_", 16) ||
		    !strncmp(nm, "__stop_runtime_", 15)) {
			int st = nm[4] == 'a', j;
			const char *sfx = nm + (st ? 16 : 15);

			for (j = 0; j < T.nrc; j++)
				if (!strcmp(T.rc[j].sfx, sfx))
					break;
			if (j == T.nrc && T.nrc < 64) {
				T.rc[T.nrc].sfx = sfx;
				T.rc[T.nrc].len = !strncmp(sfx, "ptr_", 4) ? 8 :
					!strncmp(sfx, "shift_", 6) ? 1 : 0;
				T.nrc++;
			}
			if (j < T.nrc) {
				if (st)
					T.rc[j].start = s.st_value;
				else
					T.rc[j].stop = s.st_value;
			}
		}
		for (k = 0; k < S_NSYM; k++)
			if (!val[k] && !strcmp(nm, tx_symnames[k]))
				val[k] = s.st_value;
	}
	qsort(T.fn, T.nfn, sizeof(*T.fn), tx_func_cmp);
	/* one check per address; each ends at the next function */
	{
		long j = 0;

		for (i = 0; i < (size_t)T.nfn; i++) {
			if (j && T.fn[j - 1].addr == T.fn[i].addr)
				continue;
			T.fn[j++] = T.fn[i];
		}
		T.nfn = j;
		for (j = 0; j < T.nfn; j++) {
			ulong next = j + 1 < T.nfn ? T.fn[j + 1].addr :
				T.text + T.text_size;

			if (T.fn[j].end <= T.fn[j].addr || T.fn[j].end > next)
				T.fn[j].end = next;
		}
	}
	return TRUE;
}

/* ------------------------------------------------------------ tables --- */

static void tx_add(ulong start, int len, int kind, ulong aux)
{
	struct tx_site *s;

	if (len <= 0 || start < T.text || start >= T.text + T.text_size)
		return;
	if (T.nsite >= T.cap) {
		T.cap = T.cap ? T.cap * 2 : 65536;
		T.site = realloc(T.site, T.cap * sizeof(*T.site));
		if (!T.site) {
			T.nsite = T.cap = 0;
			return;
		}
	}
	s = &T.site[T.nsite++];
	s->start = start;
	s->len = len;
	s->kind = kind;
	s->aux = aux;
	T.tables[kind]++;
}

/* Length of the instruction at file address A (DEF when unknown). */
static int tx_disk_len(ulong a, int def)
{
	struct insn in;
	ulong avail;

	if (a < T.text || a >= T.text + T.text_size)
		return def;
	avail = T.text + T.text_size - a;
	if (!insn_decode(T.disk + (a - T.text), avail < 15 ? avail : 15, a,
			 &in))
		return def;
	return in.len;
}

/* The table between symbols A and B, or NULL (and *n = 0). */
static const unsigned char *tx_table(const ulong *val, int a, int b,
				     long esz, long *n)
{
	const unsigned char *p;

	*n = 0;
	if (!val[a] || !val[b] || val[b] < val[a] || esz <= 0)
		return NULL;
	if (val[b] == val[a])
		return NULL;
	p = tx_file_bytes(val[a], val[b] - val[a], NULL);
	if (!p)
		return NULL;
	*n = (val[b] - val[a]) / esz;
	if (*n > TX_MAX_ENTRIES)
		*n = TX_MAX_ENTRIES;
	return p;
}

static int32_t tx_s32(const unsigned char *p)
{
	int32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* Tables of s32 offsets relative to each entry, LEN bytes at each site
 * (0: the length of the instruction there). */
static void tx_rel32_table(const ulong *val, int a, int b, int kind,
			   int len)
{
	const unsigned char *p;
	long n, i;

	p = tx_table(val, a, b, 4, &n);
	for (i = 0; p && i < n; i++) {
		ulong site = val[a] + i * 4 + tx_s32(p + i * 4);

		tx_add(site, len ? len : tx_disk_len(site, 5), kind, 0);
	}
}

static long tx_msize(const char *s, const char *m)
{
	if (th_member(s, m) < 0)
		return -1;
	return MEMBER_SIZE((char *)s, (char *)m);
}

static void tx_tables(const ulong *val)
{
	const unsigned char *p;
	long n, i, esz, o1, o2, o3, o4;

	/*
	 * return thunks, retpolines, IBT, SMP locks: s32 entries relative to
	 * themselves, each table used when its symbols exist (older kernels
	 * have no .return_sites, .retpoline_sites or .ibt_endbr_seal)
	 */
	tx_rel32_table(val, S_RET, S_RET_END, TH_TX_RETURN_THUNK, 0);
	tx_rel32_table(val, S_RETPO, S_RETPO_END, TH_TX_RETPOLINE, 0);
	tx_rel32_table(val, S_IBT, S_IBT_END, TH_TX_IBT, 4);
	tx_rel32_table(val, S_SMP, S_SMP_END, TH_TX_SMP_LOCK, 1);
	for (i = 0; i < T.nrc; i++) {
		ulong rv[2] = { T.rc[i].start, T.rc[i].stop };

		if (T.rc[i].len)
			tx_rel32_table(rv, 0, 1, TH_TX_RUNTIME_CONST,
				       T.rc[i].len);
	}

	/* struct alt_instr: instr_offset, repl_offset (s32, relative),
	 * instrlen (the whole patched length, padding included) and
	 * replacementlen, from the debuginfo */
	esz = th_size("alt_instr");
	o1 = th_member("alt_instr", "instr_offset");
	o2 = th_member("alt_instr", "instrlen");
	o3 = th_member("alt_instr", "repl_offset");
	o4 = th_member("alt_instr", "replacementlen");
	p = tx_table(val, S_ALT, S_ALT_END, esz, &n);
	if (o1 >= 0 && o2 >= 0 && o3 >= 0 && o4 >= 0 && o2 < esz && o4 < esz)
		for (i = 0; p && i < n; i++) {
			const unsigned char *e = p + i * esz;
			ulong base = val[S_ALT] + i * esz;

			tx_add(base + o1 + tx_s32(e + o1), e[o2],
			       TH_TX_ALTERNATIVE, base + o3 + tx_s32(e + o3));
			if (T.nsite && T.site[T.nsite - 1].kind ==
			    TH_TX_ALTERNATIVE)
				T.site[T.nsite - 1].rlen = e[o4];
		}

	/* struct paravirt_patch_site: instr (absolute), len (u8); gone since
	 * paravirt patching moved into alternatives (v6.8) */
	esz = th_size("paravirt_patch_site");
	o1 = th_member("paravirt_patch_site", "instr");
	o2 = th_member("paravirt_patch_site", "len");
	p = tx_table(val, S_PARA, S_PARA_END, esz, &n);
	if (o1 >= 0 && o2 >= 0 && o1 + 8 <= esz && o2 < esz)
		for (i = 0; p && i < n; i++) {
			const unsigned char *e = p + i * esz;
			ulong a;

			memcpy(&a, e + o1, 8);
			tx_add(a, e[o2], TH_TX_PARAVIRT, 0);
		}

	/* struct jump_entry: code and target s32 relative to themselves
	 * (CONFIG_HAVE_ARCH_JUMP_LABEL_RELATIVE) or absolute, told by the
	 * member's size; the site's length is that of the instruction in the
	 * file (2 or 5 bytes) */
	esz = th_size("jump_entry");
	o1 = th_member("jump_entry", "code");
	o2 = th_member("jump_entry", "target");
	p = tx_table(val, S_JT, S_JT_END, esz, &n);
	if (o1 >= 0 && o2 >= 0) {
		long csz = tx_msize("jump_entry", "code");

		for (i = 0; p && i < n; i++) {
			const unsigned char *e = p + i * esz;
			ulong base = val[S_JT] + i * esz, code, target;

			if (csz == 4) {
				code = base + o1 + tx_s32(e + o1);
				target = base + o2 + tx_s32(e + o2);
			} else {
				memcpy(&code, e + o1, 8);
				memcpy(&target, e + o2, 8);
			}
			tx_add(code, tx_disk_len(code, 5), TH_TX_JUMP_LABEL,
			       target);
		}
	}

	/* struct static_call_site: addr and key relative s32; the key's low
	 * bits are flags (STATIC_CALL_SITE_TAIL/INIT) */
	esz = th_size("static_call_site");
	o1 = th_member("static_call_site", "addr");
	o2 = th_member("static_call_site", "key");
	p = tx_table(val, S_SC, S_SC_END, esz, &n);
	if (o1 >= 0 && o2 >= 0)
		for (i = 0; p && i < n; i++) {
			const unsigned char *e = p + i * esz;
			ulong base = val[S_SC] + i * esz;

			tx_add(base + o1 + tx_s32(e + o1), 5,
			       TH_TX_STATIC_CALL,
			       (base + o2 + tx_s32(e + o2)) & ~3UL);
		}

	/* static call trampolines: __SCT__NAME, rewritten in place; the key
	 * is __SCK__NAME */
	for (i = 0; i < T.nfn; i++)
		if (!strncmp(T.fn[i].name, "__SCT__", 7))
			tx_add(T.fn[i].addr, 5, TH_TX_STATIC_CALL_TRAMP, i);
}

static int tx_site_cmp(const void *a, const void *b)
{
	const struct tx_site *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (int)x->kind - (int)y->kind;
}

static void tx_load(void)
{
	ulong val[S_NSYM];
	const char *path[2];
	int i;

	if (T.loaded)
		return;
	T.loaded = 1;
	memset(val, 0, sizeof(val));
	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(T.err, sizeof(T.err), "libelf: %s", elf_errmsg(-1));
		return;
	}
	path[0] = pc->namelist;
	path[1] = pc->namelist_debug;
	for (i = 0; i < 2; i++)
		if (path[i] && *path[i] && (!i || strcmp(path[0], path[1])) &&
		    tx_elf_open(path[i], &T.f[T.nf]))
			T.nf++;
	if (!T.nf) {
		snprintf(T.err, sizeof(T.err), "cannot read the vmlinux %s as "
			 "ELF", pc->namelist ? pc->namelist : "(none)");
		return;
	}
	if (!tx_symbols(val) || !T.nfn) {
		snprintf(T.err, sizeof(T.err), "the vmlinux %s has no .text "
			 "functions in its symbol table", pc->namelist);
		return;
	}
	T.disk = tx_file_bytes(T.text, T.text_size, NULL);
	if (!T.disk) {
		snprintf(T.err, sizeof(T.err), "the vmlinux %s holds no .text "
			 "bytes (a debuginfo-only file?)", pc->namelist);
		return;
	}
	T.stext = val[S_STEXT] ? val[S_STEXT] : val[S_TEXT];
	T.fentry = val[S_FENTRY];
	if (!T.stext) {
		snprintf(T.err, sizeof(T.err), "no _stext in %s",
			 pc->namelist);
		return;
	}
	tx_tables(val);
	qsort(T.site, T.nsite, sizeof(*T.site), tx_site_cmp);
	T.ok = 1;
}

/* ---------------------------------------------------------- the dump --- */

/* The dump's copy of .text, read a megabyte at a time; pages that cannot
 * be read are marked in BAD (one byte per page). */
static unsigned char *tx_read_text(ulong start, ulong size,
				   unsigned char **badp)
{
	unsigned char *buf = malloc(size), *bad;
	ulong npg = (size + TX_PAGE - 1) / TX_PAGE, off, o;

	bad = calloc(npg ? npg : 1, 1);
	if (!buf || !bad) {
		free(buf);
		free(bad);
		return NULL;
	}
	for (off = 0; off < size; off += TX_CHUNK) {
		ulong len = size - off < TX_CHUNK ? size - off : TX_CHUNK;

		if (th_read(start + off, buf + off, len, "kernel text"))
			continue;
		for (o = off; o < off + len; o += TX_PAGE) {
			ulong l = off + len - o < TX_PAGE ? off + len - o :
				TX_PAGE;

			if (!th_read(start + o, buf + o, l, "kernel text"))
				bad[o / TX_PAGE] = 1;
		}
	}
	*badp = bad;
	return buf;
}

/* ---------------------------------------------------- the comparison --- */

struct tx_run {
	ulong off;		/* dump address - file address */
	unsigned char *mem;	/* dump copy of .text */
	unsigned char *bad;
	struct thf_state *fs;
	ulong *rec_ip;		/* core ftrace records, file addresses */
	long *rec_idx;		/* index into fs->rec */
	long nrec;
	struct tx_site *dyn;	/* kprobe sites, file addresses */
	long ndyn;
	char why[160];		/* why the last site did not explain */
	ulong why_at;		/* ... and where that site starts */
};

static int tx_ul_cmp(const void *a, const void *b)
{
	ulong x = *(const ulong *)a, y = *(const ulong *)b;

	return x < y ? -1 : x > y;
}

static long tx_rec_find(struct tx_run *r, ulong ip)
{
	long lo = 0, hi = r->nrec - 1;

	while (lo <= hi) {
		long mid = (lo + hi) / 2;

		if (r->rec_ip[mid] == ip)
			return mid;
		if (r->rec_ip[mid] < ip)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

static int tx_readable(struct tx_run *r, ulong a, ulong len)
{
	ulong o;

	if (a < T.text || a + len > T.text + T.text_size)
		return FALSE;
	for (o = (a - T.text) / TX_PAGE; o <= (a + len - 1 - T.text) / TX_PAGE;
	     o++)
		if (r->bad[o])
			return FALSE;
	return TRUE;
}

static const unsigned char *tx_mem(struct tx_run *r, ulong a)
{
	return r->mem + (a - T.text);
}

static ulong tx_avail(ulong a)
{
	ulong n = T.text + T.text_size - a;

	return n < 15 ? n : 15;
}

/* Append to BUF (of LEN bytes) as much as fits. */
static void tx_app(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void tx_app(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

/* Why the site being checked does not explain a difference. */
static void tx_why(struct tx_run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void tx_why(struct tx_run *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
}

/* "X (owner)" for a dump address */
static void tx_where(ulong t, char *buf, size_t len)
{
	char s[200], o[200];
	struct th_owner ow;

	th_owner_of(t, &ow);
	snprintf(buf, len, "%.56s, %.56s", th_ksym_ps(t, s, sizeof(s)),
		 th_owner_str(&ow, o, sizeof(o)));
}

/*
 * Does the memory M (MLEN bytes, at dump address MA) hold the code SRC
 * (SLEN bytes, at file address SA) as apply_alternatives() leaves it:
 * the same instructions (same length and opcode byte; calls and jumps to
 * the same place, a jmp possibly shortened), NOPs anywhere merged and
 * moved to the end?
 */
static int tx_same_shape(struct tx_run *r, const unsigned char *m, int mlen,
			 ulong ma, const unsigned char *src, int slen, ulong sa,
			 int prefix)
{
	int mo = 0, so = 0, end_jmp = 0;
	struct insn mi, si;

	while (so < slen) {
		if (!insn_decode(src + so, slen - so, sa + so, &si)) {
			if (prefix && so)
				break;
			return FALSE;
		}
		if (si.kind == INSN_NOP) {
			so += si.len;
			continue;
		}
		for (;;) {
			if (mo >= mlen && prefix && so)
				return TRUE;
			if (mo >= mlen || !insn_decode(m + mo, mlen - mo,
						       ma + mo, &mi))
				return FALSE;
			if (mi.kind != INSN_NOP)
				break;
			mo += mi.len;
		}
		if ((si.kind == INSN_CALL || si.kind == INSN_JMP) &&
		    si.opcode != 0xff) {
			if (mi.kind != si.kind || mi.target != si.target + r->off)
				return FALSE;
		} else if (mi.len != si.len || m[mo] != src[so]) {
			return FALSE;
		}
		end_jmp = mi.kind == INSN_JMP || mi.kind == INSN_RET;
		mo += mi.len;
		so += si.len;
	}
	if (mo == mlen || insn_nop_run(m + mo, mlen - mo, mlen - mo) ==
	    mlen - mo)
		return TRUE;
	/* after a jmp (shortened from rel32 to rel8): int3 padding */
	while (end_jmp && mo < mlen && m[mo] == 0xcc)
		mo++;
	return mo == mlen;
}

/*
 * An indirect call through a pointer (call *disp32(%rip): a paravirt
 * pv_ops slot) that apply_alternatives() turned into a direct call to the
 * pointer's value (ALT_FLAG_DIRECT_CALL, the paravirt calls since they
 * moved into alternatives): the slot is read from the dump.
 */
static int tx_direct_call(struct tx_run *r, const struct tx_site *s,
			  const unsigned char *m, ulong a)
{
	const unsigned char *d = T.disk + (s->start - T.text);
	struct insn mi;
	ulong slot, v;

	if (s->len < 6 || d[0] != 0xff || d[1] != 0x15 ||
	    !insn_decode(m, s->len, a, &mi) || mi.kind != INSN_CALL)
		return FALSE;
	slot = s->start + 6 + tx_s32(d + 2) + r->off;
	if (!th_read_ulong(slot, &v, "pv_ops slot") || v != mi.target)
		return FALSE;
	return insn_nop_run(m + mi.len, s->len - mi.len, s->len - mi.len) ==
		s->len - mi.len;
}

/* Is the memory at site S (file addresses) a form the kernel writes? */
static int tx_site_ok(struct tx_run *r, const struct tx_site *s)
{
	const unsigned char *m = tx_mem(r, s->start);
	ulong a = s->start + r->off, v;
	struct insn in;
	char w[120];

	if (!tx_readable(r, s->start, s->len))
		return FALSE;
	insn_decode(m, tx_avail(s->start), a, &in);
	switch (s->kind) {
	case TH_TX_FTRACE: {
		const struct thf_rec *rec;
		const char *ew = "";
		ulong expect;

		if (s->aux == TX_GRAPH_CALL) {
			/* ftrace_enable_ftrace_graph_caller() and its disable
			 * write a jmp to ftrace_graph_caller or ftrace_stub */
			if (in.kind == INSN_JMP &&
			    (in.target == th_symbol("ftrace_graph_caller") ||
			     in.target == th_symbol("ftrace_stub")))
				return TRUE;
			tx_why(r, "ftrace_graph_call holds %s, not a jmp to "
			       "ftrace_graph_caller or ftrace_stub", in.text);
			return FALSE;
		}
		if (insn_nop_run(m, s->len, s->len) == s->len)
			return TRUE;
		if (s->aux == ~0UL) {
			int k;

			/* no record: a call to one of ftrace's own callers
			 * or trampolines */
			if (r->fs && in.kind == INSN_CALL &&
			    (in.target == r->fs->ftrace_caller ||
			     in.target == r->fs->ftrace_regs_caller ||
			     ((k = thf_ops_by_tramp(r->fs, in.target)) >= 0 &&
			      r->fs->ops[k].trampoline == in.target)))
				return TRUE;
			tx_why(r, "ftrace site (its record unreadable) holds "
			       "%s, not the ftrace NOP or an ftrace caller",
			       in.text);
			return FALSE;
		}
		rec = &r->fs->rec[s->aux];
		if (in.kind == INSN_CALL || in.kind == INSN_JMP) {
			expect = thf_expected_target(r->fs, rec, &ew);
			if ((rec->flags & r->fs->fl.enabled) &&
			    in.target == expect)
				return TRUE;
			tx_where(in.target, w, sizeof(w));
			if (rec->flags & r->fs->fl.enabled)
				tx_why(r, "ftrace site "
					 "%s %s; the record expects %s %lx",
					 in.kind == INSN_CALL ? "calls" :
					 "jumps to", w, ew, expect);
			else
				tx_why(r, "ftrace site "
					 "%s %s but its record is not enabled",
					 in.kind == INSN_CALL ? "calls" :
					 "jumps to", w);
		} else {
			tx_why(r, "ftrace site holds "
				 "%s: neither the ftrace NOP nor a call",
				 in.text);
		}
		return FALSE;
	}
	case TH_TX_KPROBE:
		return m[0] == 0xcc;
	case TH_TX_OPTPROBE:
		return m[0] == 0xe9;
	case TH_TX_JUMP_LABEL:
		if (insn_nop_run(m, s->len, s->len) == s->len)
			return TRUE;
		if (in.kind == INSN_JMP && in.len == s->len &&
		    in.target == s->aux + r->off)
			return TRUE;
		tx_why(r, "jump label site holds %s, "
			 "not a NOP or a jmp to its target %lx", in.text,
			 s->aux + r->off);
		return FALSE;
	case TH_TX_STATIC_CALL:
	case TH_TX_STATIC_CALL_TRAMP: {
		ulong key = s->aux + r->off;
		long of = th_member("static_call_key", "func");

		if (s->kind == TH_TX_STATIC_CALL_TRAMP) {
			char nm[160];

			snprintf(nm, sizeof(nm), "__SCK__%s",
				 T.fn[s->aux].name + 7);
			key = th_symbol(nm);
		}
		if (in.kind == INSN_RET || in.kind == INSN_NOP)
			return TRUE;
		if (in.kind != INSN_CALL && in.kind != INSN_JMP) {
			tx_why(r, "static call site "
				 "holds %s", in.text);
			return FALSE;
		}
		/* without a readable key, the jmp/call form is all we can
		 * check */
		if (!key || of < 0 || !th_read_ulong(key + of, &v,
						     "static_call_key.func"))
			return TRUE;
		/* a RET form may be a jmp to the return thunk */
		if (in.target == v || (!v && th_symbol("__x86_return_thunk") ==
				       in.target))
			return TRUE;
		tx_where(in.target, w, sizeof(w));
		tx_why(r, "static call site goes to %s; "
			 "its key says %lx", w, v);
		return FALSE;
	}
	case TH_TX_RETURN_THUNK:
		/* ret; int3 padding, or a jmp to the chosen thunk */
		if (m[0] == 0xc3 || in.kind == INSN_JMP)
			return TRUE;
		tx_why(r, "return site holds %s",
			 in.text);
		return FALSE;
	case TH_TX_ALTERNATIVE: {
		const unsigned char *repl = tx_file_bytes(s->aux, s->rlen, NULL);

		if (tx_same_shape(r, m, s->len, a, T.disk +
				  (s->start - T.text), s->len, s->start, 0) ||
		    (repl && tx_same_shape(r, m, s->len, a, repl, s->rlen,
					   s->aux, 0)) || tx_direct_call(r, s, m, a))
			return TRUE;
		/*
		 * Nested alternatives (ALTERNATIVE_2 as two nested ALTERNATIVEs)
		 * can record a replacement length shorter than what the
		 * kernel applied (6.12: 0 for "mov %rdi,%rax" of pte_val()):
		 * the replacement's instructions as far as the site reaches,
		 * then padding.
		 */
		repl = s->rlen < s->len ? tx_file_bytes(s->aux, s->len, NULL) :
			NULL;
		if (repl && tx_same_shape(r, m, s->len, a, repl, s->len, s->aux,
					  1))
			return TRUE;
		tx_why(r, "alternative at %lx holds neither its original nor "
		       "its replacement", a);
		return FALSE;
	}
	case TH_TX_IBT:
		return insn_is_endbr(m, 4);
	case TH_TX_SMP_LOCK:
		return m[0] == 0xf0 || m[0] == 0x3e;
	default:
		/* paravirt, retpolines: any replacement */
		return TRUE;
	}
}

/* A site of kind K covering file address A whose bytes are fine, or NULL;
 * a failing site leaves its reason in r->why. */
static const struct tx_site *tx_cover_in(struct tx_run *r,
					  const struct tx_site *v, long n,
					  ulong a)
{
	long lo = 0, hi = n - 1, i;

	/* last site starting at or before A */
	while (lo <= hi) {
		long mid = (lo + hi) / 2;

		if (v[mid].start <= a)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	for (i = hi; i >= 0 && v[i].start + 256 > a; i--) {
		if (a >= v[i].start + v[i].len)
			continue;
		if (tx_site_ok(r, &v[i]))
			return &v[i];
		r->why_at = v[i].start;
	}
	return NULL;
}

static const struct tx_site *tx_cover(struct tx_run *r,
				      const struct tx_site *ft, ulong a)
{
	const struct tx_site *s;

	if (ft && a >= ft->start && a < ft->start + ft->len) {
		if (tx_site_ok(r, ft))
			return ft;
		r->why_at = ft->start;
	}
	if ((s = tx_cover_in(r, r->dyn, r->ndyn, a)))
		return s;
	return tx_cover_in(r, T.site, T.nsite, a);
}

/* Decode the instructions at P that start in [0, LEN) into BUF. */
static void tx_decode(const unsigned char *p, int avail, int len, ulong a,
		      char *buf, size_t blen)
{
	size_t used = 0;
	int o = 0;

	buf[0] = '\0';
	while (o < len && used + 1 < blen) {
		struct insn in;
		char t[160], s[100];

		if (!insn_decode(p + o, avail - o, a + o, &in)) {
			snprintf(t, sizeof(t), "(bad)");
			in.len = avail;
		} else if (in.kind == INSN_CALL || in.kind == INSN_JMP) {
			snprintf(t, sizeof(t), "%s <%s>", in.text,
				 th_ksym_ps(in.target, s, sizeof(s)));
		} else {
			snprintf(t, sizeof(t), "%s", in.text);
		}
		tx_app(buf, blen, "%s%s", o ? "; " : "", t);
		used = strlen(buf);
		o += in.len;
	}
}

static void tx_report(struct tx_run *r, const struct tx_func *f, ulong at,
		      ulong end, th_text_cb cb, void *arg)
{
	struct th_text_finding x;
	ulong avail = T.text + T.text_size - f->addr;

	memset(&x, 0, sizeof(x));
	x.func = f->addr + r->off;
	x.addr = at + r->off;
	th_ksym_ps(x.func, x.func_name, sizeof(x.func_name));
	x.len = end - f->addr;
	if (avail > 16)
		avail = 16;
	memcpy(x.disk, T.disk + (f->addr - T.text), avail);
	if (tx_readable(r, f->addr, avail))
		memcpy(x.mem, tx_mem(r, f->addr), avail);
	tx_decode(x.disk, avail, x.len, x.func, x.decoded_disk,
		  sizeof(x.decoded_disk));
	tx_decode(x.mem, avail, x.len, x.func, x.decoded_mem,
		  sizeof(x.decoded_mem));
	if (r->why[0])
		tx_app(x.why, sizeof(x.why), "+0x%lx: %s", at - f->addr,
		       r->why);
	else
		tx_app(x.why, sizeof(x.why), "+0x%lx differs from the vmlinux "
			 "on disk and no ftrace record, kprobe or patch table "
			 "explains it", at - f->addr);
	cb(&x, arg);
}

/* Core ftrace records and kprobes, in file addresses. */
static void tx_dynamic(struct tx_run *r)
{
	struct kp_probe *kp = NULL;
	ulong lo = T.text + r->off, hi = lo + T.text_size, g;
	long i, n;

	r->fs = thf_load();
	if (r->fs && r->fs->nrec) {
		ulong *pair = malloc(r->fs->nrec * 2 * sizeof(ulong));

		r->rec_ip = malloc(r->fs->nrec * sizeof(ulong));
		r->rec_idx = malloc(r->fs->nrec * sizeof(long));
		for (i = 0; pair && r->rec_ip && r->rec_idx &&
		     i < r->fs->nrec; i++)
			if (r->fs->rec[i].ip >= lo && r->fs->rec[i].ip < hi) {
				pair[2 * r->nrec] = r->fs->rec[i].ip - r->off;
				pair[2 * r->nrec++ + 1] = i;
			}
		qsort(pair, r->nrec, 2 * sizeof(ulong), tx_ul_cmp);
		for (i = 0; i < r->nrec; i++) {
			r->rec_ip[i] = pair[2 * i];
			r->rec_idx[i] = pair[2 * i + 1];
		}
		free(pair);
	}
	n = th_kprobes_init() ? th_kprobes_collect(&kp) : 0;
	r->dyn = calloc(n > 0 ? n + 1 : 1, sizeof(*r->dyn));
	/*
	 * Before Linux kernel commit 0c0593b45c9b ("x86/ftrace: Make function
	 * graph use ftrace directly") (in v5.16) the function graph tracer is
	 * switched on by rewriting the jmp at ftrace_graph_call, which is the
	 * first instruction of ftrace_epilogue (5.10): the symbol exists only
	 * in those kernels.
	 */
	g = th_symbol("ftrace_graph_call");
	if (r->dyn && g >= lo && g < hi) {
		struct tx_site *s = &r->dyn[r->ndyn++];

		s->start = g - r->off;
		s->aux = TX_GRAPH_CALL;
		s->kind = TH_TX_FTRACE;
		s->len = 5;
	}
	for (i = 0; r->dyn && i < n; i++) {
		ulong a = kp[i].addr;
		struct tx_site *s;

		if (a < lo || a >= hi || (kp[i].pflags & 8 /* FTRACE */))
			continue;
		s = &r->dyn[r->ndyn++];
		s->start = a - r->off;
		s->aux = kp[i].kp;
		if (tx_readable(r, s->start, 1) &&
		    tx_mem(r, s->start)[0] == 0xe9) {
			s->kind = TH_TX_OPTPROBE;
			s->len = 5;
		} else {
			s->kind = TH_TX_KPROBE;
			s->len = 1;
		}
	}
	qsort(r->dyn, r->ndyn, sizeof(*r->dyn), tx_site_cmp);
	free(kp);
}

int th_text_check(th_text_cb cb, void *arg, struct th_text_stats *st)
{
	struct tx_run r;
	ulong stext;
	long i;

	memset(st, 0, sizeof(*st));
	tx_load();
	if (!T.ok) {
		fprintf(fp, "text: not checked: %s\n", T.err);
		return -1;
	}
	stext = th_symbol("_stext");
	if (!stext)
		stext = th_symbol("_text");
	if (!stext) {
		fprintf(fp, "text: not checked: no _stext in the dump's "
			"symbols\n");
		return -1;
	}
	memset(&r, 0, sizeof(r));
	r.off = stext - T.stext;
	r.mem = tx_read_text(T.text + r.off, T.text_size, &r.bad);
	if (!r.mem) {
		fprintf(fp, "text: not checked: out of memory for %lu bytes "
			"of text\n", T.text_size);
		return -1;
	}
	tx_dynamic(&r);
	memcpy(st->sites, T.tables, sizeof(st->sites));
	st->sites[TH_TX_FTRACE] = r.nrec;
	for (i = 0; i < r.ndyn; i++)
		if (r.dyn[i].aux != TX_GRAPH_CALL)	/* not a record */
			st->sites[r.dyn[i].kind]++;

	for (i = 0; i < T.nfn; i++) {
		const struct tx_func *f = &T.fn[i];
		const unsigned char *d = T.disk + (f->addr - T.text);
		struct tx_site ft, *ftp = NULL;
		ulong site = f->addr, end, a;
		int first = -1, bad = 0;
		long ri;

		st->functions++;
		/* the ftrace site: +0, or +4 after endbr64 */
		if (f->end - f->addr >= 4 && insn_is_endbr(d, 4) &&
		    tx_rec_find(&r, f->addr + 4) >= 0)
			site = f->addr + 4;
		ri = tx_rec_find(&r, site);
		end = (ri >= 0 ? site : f->addr) + 5;
		if (end > f->end)
			end = f->end;
		if (ri >= 0) {
			ft.start = site;
			ft.len = 5;
			ft.kind = TH_TX_FTRACE;
			ft.aux = r.rec_idx[ri];
			ftp = &ft;
		} else if ((!r.nrec || (r.fs && r.fs->rec_err)) &&
			   T.fentry) {
			/* no records to read, or not all of them (a damaged
			 * ftrace_pages list, a records page missing from the
			 * dump): a call __fentry__ in the file may be the
			 * NOP */
			if (f->end - f->addr >= 9 && insn_is_endbr(d, 4))
				site = f->addr + 4;
			if (f->end - site < 5 || d[site - f->addr] != 0xe8 ||
			    site + 5 + tx_s32(d + (site - f->addr) + 1) !=
			    T.fentry)
				goto compare;
			ft.start = site;
			ft.len = 5;
			ft.kind = TH_TX_FTRACE;
			ft.aux = ~0UL;
			ftp = &ft;
			end = site + 5;
		}
compare:
		if (!tx_readable(&r, f->addr, end - f->addr)) {
			st->unreadable++;
			continue;
		}
		st->compared++;
		if (!memcmp(d, tx_mem(&r, f->addr), end - f->addr))
			continue;
		st->differing++;
		r.why[0] = '\0';
		r.why_at = 0;
		for (a = f->addr; a < end; a++) {
			const struct tx_site *s;

			if (d[a - f->addr] == tx_mem(&r, f->addr)[a - f->addr])
				continue;
			s = tx_cover(&r, ftp, a);
			if (!s && r.off) {
				/* KASLR: the boot code adds the offset to every
				 * 32-bit absolute kernel address in the text
				 * (arch/x86/boot/compressed relocs); a 4-byte
				 * window that is the file's value plus the
				 * offset is such a relocation. */
				ulong w;
				int found = 0;

				for (w = a > f->addr + 3 ? a - 3 : f->addr;
				     /* the window may run past the compared
				      * bytes: a disp32 starting at the last
				      * one (sid: hrtimer_run_queues.cold+0x4) */
				     w <= a && tx_readable(&r, w, 4); w++) {
					unsigned int dv, mv;

					memcpy(&dv, d + (w - f->addr), 4);
					memcpy(&mv, tx_mem(&r, f->addr) +
					       (w - f->addr), 4);
					if (mv == (unsigned int)(dv + r.off)) {
						found = 1;
						break;
					}
				}
				if (found) {
					if (first < 0)
						first = TH_TX_KASLR_RELOC;
					a = w + 3;
					continue;
				}
			}
			if (!s) {
				bad = 1;
				break;
			}
			if (first < 0)
				first = s->kind;
			a = s->start + s->len - 1;
		}
		if (bad) {
			st->unexplained++;
			/* a site that does not hold what it may: the finding
			 * is at the site's instruction, not at its first
			 * differing byte (a jump label's e9 stays e9) */
			if (r.why[0] && r.why_at && r.why_at <= a &&
			    r.why_at >= f->addr)
				a = r.why_at;
			if (cb)
				tx_report(&r, f, a, end, cb, arg);
			continue;
		}
		st->explained_kind[first]++;
		if (first == TH_TX_FTRACE)
			st->explained_ftrace++;
		else if (first == TH_TX_KPROBE || first == TH_TX_OPTPROBE)
			st->explained_kprobe++;
		else
			st->explained_other++;
	}
	free(r.mem);
	free(r.bad);
	free(r.rec_ip);
	free(r.rec_idx);
	free(r.dyn);
	return 0;
}
