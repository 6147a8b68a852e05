/*
 * tracehunt: the text check's reader of the vmlinux file (libelf): the
 * .text section, the STT_FUNC symbols inside it and the symbols that
 * bound the kernel's patch tables, in pc->namelist and, for the symbols of
 * a separate debuginfo file, pc->namelist_debug.  The bytes of .text and
 * of the tables come from model/vmlinux_file.c (lib/elfdata.c), the one
 * reader of the file's initial bytes.
 */
#include <fcntl.h>
#include <unistd.h>
#include "audit/text_priv.h"

struct tx_vmlinux tx_vml;

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

/* .text of the file F: its section index, and its bounds in tx_vml. */
static size_t tx_text_section(struct tx_elf *f)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstr;

	if (elf_getshdrstrndx(f->e, &shstr))
		return 0;
	while ((scn = elf_nextscn(f->e, scn))) {
		const char *nm;

		if (!gelf_getshdr(scn, &sh))
			continue;
		nm = elf_strptr(f->e, shstr, sh.sh_name);
		if (nm && !strcmp(nm, ".text")) {
			tx_vml.text = sh.sh_addr;
			tx_vml.text_size = sh.sh_size;
			return elf_ndxscn(scn);
		}
	}
	return 0;
}

/* __start_runtime_SFX / __stop_runtime_SFX: the bounds of a runtime
 * constants section. */
static void tx_runtime_const(const char *nm, ulong value)
{
	int st = nm[4] == 'a', j;
	const char *sfx = nm + (st ? 16 : 15);

	for (j = 0; j < tx_vml.nrc; j++)
		if (!strcmp(tx_vml.rc[j].sfx, sfx))
			break;
	if (j == tx_vml.nrc && tx_vml.nrc < 64) {
		tx_vml.rc[tx_vml.nrc].sfx = sfx;
		tx_vml.rc[tx_vml.nrc].len = !strncmp(sfx, "ptr_", 4) ? 8 :
			!strncmp(sfx, "shift_", 6) ? 1 : 0;
		tx_vml.nrc++;
	}
	if (j < tx_vml.nrc) {
		if (st)
			tx_vml.rc[j].start = value;
		else
			tx_vml.rc[j].stop = value;
	}
}

/* One function of .text; FALSE when out of memory. */
static int tx_add_func(const GElf_Sym *s, const char *nm, long *cap)
{
	if (tx_vml.nfn >= *cap) {
		*cap = *cap ? *cap * 2 : 65536;
		tx_vml.fn = realloc(tx_vml.fn, *cap * sizeof(*tx_vml.fn));
		if (!tx_vml.fn)
			return FALSE;
	}
	tx_vml.fn[tx_vml.nfn].addr = s->st_value;
	tx_vml.fn[tx_vml.nfn].end = s->st_value + s->st_size;
	tx_vml.fn[tx_vml.nfn++].name = nm;
	return TRUE;
}

/* Sorted, one check per address; each ends at the next function. */
static void tx_funcs_sort(void)
{
	long i, j = 0;

	qsort(tx_vml.fn, tx_vml.nfn, sizeof(*tx_vml.fn), tx_func_cmp);
	for (i = 0; i < tx_vml.nfn; i++) {
		if (j && tx_vml.fn[j - 1].addr == tx_vml.fn[i].addr)
			continue;
		tx_vml.fn[j++] = tx_vml.fn[i];
	}
	tx_vml.nfn = j;
	for (j = 0; j < tx_vml.nfn; j++) {
		ulong next = j + 1 < tx_vml.nfn ? tx_vml.fn[j + 1].addr :
			tx_vml.text + tx_vml.text_size;

		if (tx_vml.fn[j].end <= tx_vml.fn[j].addr ||
		    tx_vml.fn[j].end > next)
			tx_vml.fn[j].end = next;
	}
}

/* The functions of .text, and the symbols of tx_symnames into VAL. */
static int tx_symbols(ulong *val)
{
	struct tx_elf *f = NULL;
	Elf_Data *d;
	GElf_Shdr sh;
	size_t i, n, textndx;
	long cap = 0;
	int k;

	for (k = 0; k < tx_vml.nf && !f; k++)
		if (tx_vml.f[k].symtab)
			f = &tx_vml.f[k];
	if (!f)
		return FALSE;
	/* .text's index in the file that has the symbols */
	textndx = tx_text_section(f);
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
		    s.st_shndx == textndx && s.st_value >= tx_vml.text &&
		    s.st_value < tx_vml.text + tx_vml.text_size &&
		    !tx_add_func(&s, nm, &cap))
			return FALSE;
		if (nm[0] != '_')
			continue;
		if (!strncmp(nm, "__start_runtime_", 16) ||
		    !strncmp(nm, "__stop_runtime_", 15))
			tx_runtime_const(nm, s.st_value);
		for (k = 0; k < S_NSYM; k++)
			if (!val[k] && !strcmp(nm, tx_symnames[k]))
				val[k] = s.st_value;
	}
	tx_funcs_sort();
	return TRUE;
}

/* The vmlinux and its debuginfo file, as ELF; FALSE when neither is. */
static int tx_open_files(void)
{
	const char *path[2];
	int i;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(tx_vml.err, sizeof(tx_vml.err), "libelf: %s",
			 elf_errmsg(-1));
		return FALSE;
	}
	path[0] = pc->namelist;
	path[1] = pc->namelist_debug;
	for (i = 0; i < 2; i++)
		if (path[i] && *path[i] && (!i || strcmp(path[0], path[1])) &&
		    tx_elf_open(path[i], &tx_vml.f[tx_vml.nf]))
			tx_vml.nf++;
	if (!tx_vml.nf) {
		snprintf(tx_vml.err, sizeof(tx_vml.err), "cannot read the "
			 "vmlinux %s as ELF",
			 pc->namelist ? pc->namelist : "(none)");
		return FALSE;
	}
	return TRUE;
}

/**
 * tx_load - read the vmlinux once: tx_vml.ok, or tx_vml.err says why not
 */
void tx_load(void)
{
	ulong val[S_NSYM];

	if (tx_vml.loaded)
		return;
	tx_vml.loaded = 1;
	memset(val, 0, sizeof(val));
	if (!tx_open_files())
		return;
	if (!tx_symbols(val) || !tx_vml.nfn) {
		snprintf(tx_vml.err, sizeof(tx_vml.err), "the vmlinux %s has "
			 "no .text functions in its symbol table",
			 pc->namelist);
		return;
	}
	tx_vml.disk = th_vmlinux_file_bytes(tx_vml.text, tx_vml.text_size);
	if (!tx_vml.disk) {
		snprintf(tx_vml.err, sizeof(tx_vml.err), "the vmlinux %s holds "
			 "no .text bytes (a debuginfo-only file?)",
			 pc->namelist);
		return;
	}
	tx_vml.stext = val[S_STEXT] ? val[S_STEXT] : val[S_TEXT];
	tx_vml.fentry = val[S_FENTRY];
	if (!tx_vml.stext) {
		snprintf(tx_vml.err, sizeof(tx_vml.err), "no _stext in %s",
			 pc->namelist);
		return;
	}
	tx_tables(val);
	qsort(tx_vml.site, tx_vml.nsite, sizeof(*tx_vml.site), tx_site_cmp);
	tx_vml.ok = 1;
}
