/*
 * tracehunt: the sites the kernel rewrites at boot or at run time, from
 * its own tables in the vmlinux file: return thunks, retpolines, IBT
 * seals, SMP lock prefixes, runtime constants, alternatives, paravirt
 * calls, jump labels, static calls and their trampolines.  Each table is
 * used only when its symbols exist; entry layouts come from the dump's
 * debuginfo (model/patch_tables.h).
 */
#include "insn.h"
#include "model/patch_tables.h"
#include "audit/text_priv.h"

/* ------------------------------------------------------------ tables --- */

static void tx_add(ulong start, int len, int kind, ulong aux)
{
	struct tx_site *s;

	if (len <= 0 || start < tx_vml.text ||
	    start >= tx_vml.text + tx_vml.text_size)
		return;
	if (tx_vml.nsite >= tx_vml.cap) {
		tx_vml.cap = tx_vml.cap ? tx_vml.cap * 2 : 65536;
		tx_vml.site = realloc(tx_vml.site,
				      tx_vml.cap * sizeof(*tx_vml.site));
		if (!tx_vml.site) {
			tx_vml.nsite = tx_vml.cap = 0;
			return;
		}
	}
	s = &tx_vml.site[tx_vml.nsite++];
	s->start = start;
	s->len = len;
	s->kind = kind;
	s->aux = aux;
	tx_vml.tables[kind]++;
}

/* Length of the instruction at file address A (DEF when unknown). */
static int tx_disk_len(ulong a, int def)
{
	struct insn in;
	ulong avail;

	if (a < tx_vml.text || a >= tx_vml.text + tx_vml.text_size)
		return def;
	avail = tx_vml.text + tx_vml.text_size - a;
	if (!insn_decode(tx_vml.disk + (a - tx_vml.text),
			 avail < 15 ? avail : 15, a, &in))
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
	p = th_vmlinux_file_bytes(val[a], val[b] - val[a]);
	if (!p)
		return NULL;
	*n = (val[b] - val[a]) / esz;
	if (*n > TX_MAX_ENTRIES)
		*n = TX_MAX_ENTRIES;
	return p;
}

/**
 * tx_s32 - the little-endian s32 at P
 * @p: four bytes
 */
int32_t tx_s32(const unsigned char *p)
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

/* The entries of a patch table between the symbols A and B. */
static void tx_patch_table(const ulong *val, int a, int b,
			   enum th_patch_table table, int kind)
{
	long esz = th_patch_entry_size(table), n, i;
	const unsigned char *p = tx_table(val, a, b, esz, &n);
	struct th_patch_entry pe;

	for (i = 0; p && i < n; i++) {
		th_patch_entry(table, p + i * esz, val[a] + i * esz, &pe);
		tx_add(pe.site, pe.len >= 0 ? pe.len : tx_disk_len(pe.site, 5),
		       kind, pe.aux);
		if (table == TH_PATCH_ALT && tx_vml.nsite &&
		    tx_vml.site[tx_vml.nsite - 1].kind == TH_TX_ALTERNATIVE)
			tx_vml.site[tx_vml.nsite - 1].rlen = pe.rlen;
	}
}

/**
 * tx_tables - every rewritable site the file's tables name
 * @val: the values of the symbols of tx_symnames (S_*)
 */
void tx_tables(const ulong *val)
{
	long i;

	/*
	 * return thunks, retpolines, IBT, SMP locks: s32 entries relative to
	 * themselves, each table used when its symbols exist (older kernels
	 * have no .return_sites, .retpoline_sites or .ibt_endbr_seal)
	 */
	tx_rel32_table(val, S_RET, S_RET_END, TH_TX_RETURN_THUNK, 0);
	tx_rel32_table(val, S_RETPO, S_RETPO_END, TH_TX_RETPOLINE, 0);
	tx_rel32_table(val, S_IBT, S_IBT_END, TH_TX_IBT, 4);
	tx_rel32_table(val, S_SMP, S_SMP_END, TH_TX_SMP_LOCK, 1);
	for (i = 0; i < tx_vml.nrc; i++) {
		ulong rv[2] = { tx_vml.rc[i].start, tx_vml.rc[i].stop };

		if (tx_vml.rc[i].len)
			tx_rel32_table(rv, 0, 1, TH_TX_RUNTIME_CONST,
				       tx_vml.rc[i].len);
	}
	tx_patch_table(val, S_ALT, S_ALT_END, TH_PATCH_ALT, TH_TX_ALTERNATIVE);
	/* gone since paravirt patching moved into alternatives (v6.8) */
	tx_patch_table(val, S_PARA, S_PARA_END, TH_PATCH_PARAVIRT,
		       TH_TX_PARAVIRT);
	/* a jump label site's length is that of the instruction in the
	 * file (2 or 5 bytes) */
	tx_patch_table(val, S_JT, S_JT_END, TH_PATCH_JUMP, TH_TX_JUMP_LABEL);
	tx_patch_table(val, S_SC, S_SC_END, TH_PATCH_STATIC_CALL,
		       TH_TX_STATIC_CALL);
	/* static call trampolines: __SCT__NAME, rewritten in place; the key
	 * is __SCK__NAME */
	for (i = 0; i < tx_vml.nfn; i++)
		if (!strncmp(tx_vml.fn[i].name, "__SCT__", 7))
			tx_add(tx_vml.fn[i].addr, 5, TH_TX_STATIC_CALL_TRAMP,
			       i);
}

/**
 * tx_site_cmp - qsort() order of sites: by address, then kind
 * @a: struct tx_site
 * @b: struct tx_site
 */
int tx_site_cmp(const void *a, const void *b)
{
	const struct tx_site *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (int)x->kind - (int)y->kind;
}
