/*
 * tracehunt: the text check's own types, shared by its files only:
 * text_vmlinux.c (the vmlinux file: .text, its functions, the symbols of
 * the patch tables), text_tables.c (the rewritable sites those tables
 * name), text_sites.c (is a site's memory a form the kernel writes?) and
 * textcheck.c (the dump's text compared function by function).
 */
#ifndef TRACEHUNT_AUDIT_TEXT_PRIV_H
#define TRACEHUNT_AUDIT_TEXT_PRIV_H

#include <libelf.h>
#include <gelf.h>
#include "model/ftrace_ops.h"
#include "model/vmlinux_file.h"
#include "model/text_bytes.h"
#include "audit/textcheck.h"

#define TX_PAGE		TH_TEXT_PAGE	/* textcheck's r->bad: one a page */
#define TX_MAX_ENTRIES	(1L << 22)	/* bound on any table's entries */
#define TX_GRAPH_CALL	(~1UL)		/* ftrace site aux: ftrace_graph_call */

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

/* The symbols of interest, looked up in one pass over .symtab. */
enum {
	S_STEXT, S_TEXT, S_RET, S_RET_END, S_RETPO, S_RETPO_END, S_ALT,
	S_ALT_END, S_PARA, S_PARA_END, S_JT, S_JT_END, S_SC, S_SC_END, S_IBT,
	S_IBT_END, S_SMP, S_SMP_END, S_FENTRY, S_NSYM
};

/* What the file says; kept for the whole session (same vmlinux). */
struct tx_vmlinux {
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
};
extern struct tx_vmlinux tx_vml;

/* One comparison of the dump's text with the file's. */
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

/* text_vmlinux.c */
void tx_load(void);

/* text_tables.c */
void tx_tables(const ulong *val);
int32_t tx_s32(const unsigned char *p);
int tx_site_cmp(const void *a, const void *b);

/* text_sites.c */
int tx_readable(struct tx_run *r, ulong a, ulong len);
const unsigned char *tx_mem(struct tx_run *r, ulong a);
void tx_app(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const struct tx_site *tx_cover(struct tx_run *r, const struct tx_site *ft,
			       ulong a);

#endif
