/*
 * tracehunt: the kernel's own symbolization, read from the dump.
 *
 * crash's symbol table comes from the vmlinux file and picks its own names
 * among aliases; tracefs files print what the kernel's kallsyms_lookup()
 * returned.  To reproduce them byte for byte this file decodes the dump's
 * compressed kallsyms tables and replays kallsyms_lookup_buildid():
 * core kernel, then modules through the module address tree (which still
 * holds a module that unlinked itself from the module list), then BPF
 * (model/bpf_prog.c: programs and trampolines, with no module name, as
 * bpf_address_lookup() gives them), then ftrace's saved names of freed
 * module init functions.
 */
#include "model/model.h"
#include "model/bpf.h"

struct th_kallsyms {
	int loaded;
	int usable;
	unsigned int num;
	ulong *addr;		/* decoded address per symbol */
	unsigned char *names;	/* kallsyms_names */
	ulong names_len;
	unsigned int *markers;
	unsigned int nmarkers;
	unsigned int *offs;	/* offset of every entry (th_ks_off_of()) */
	int offs_failed;
	char *token_table;
	ulong token_table_len;
	unsigned short token_index[256];
	ulong stext, etext, sinittext, einittext, end_;
};
static struct th_kallsyms ks_tab;

static void *th_slurp(ulong addr, ulong len, const char *what)
{
	char *buf;
	ulong done, n;

	buf = malloc(len ? len : 1);
	if (!buf)
		return NULL;
	for (done = 0; done < len; done += n) {
		n = len - done > 1UL << 20 ? 1UL << 20 : len - done;
		if (!th_read(addr + done, buf + done, n, what)) {
			free(buf);
			return NULL;
		}
	}
	return buf;
}

/* Length of one kallsyms_names entry and the size of its length prefix.
 * Linux kernel commit 73bbb94466fd ("kallsyms: support "big" kernel
 * symbols") (in v6.1) encodes lengths >= 128 in two bytes (ULEB128). */
static unsigned int th_ks_entry_len(const unsigned char *p, int *hdr)
{
	if (p[0] & 0x80) {
		*hdr = 2;
		return (p[0] & 0x7f) | ((unsigned int)p[1] << 7);
	}
	*hdr = 1;
	return p[0];
}

/* The offset of the entry after the one at OFF; ks_tab.names_len past the
 * end (a two-byte length is not read beyond the names). */
static ulong th_ks_next_off(ulong off)
{
	int hdr;

	if (off >= ks_tab.names_len ||
	    ((ks_tab.names[off] & 0x80) && off + 1 >= ks_tab.names_len))
		return ks_tab.names_len;
	off += th_ks_entry_len(ks_tab.names + off, &hdr) + hdr;
	return MIN(off, ks_tab.names_len);
}

/* The offset of entry IDX, walked from its group's marker as the
 * kernel does; ks_tab.names_len past the end. */
static ulong th_ks_off_walk(unsigned int idx)
{
	ulong off = MIN((ulong)ks_tab.markers[idx >> 8], ks_tab.names_len);
	unsigned int i;

	for (i = 0; i < (idx & 0xff); i++)
		off = th_ks_next_off(off);
	return off;
}

/*
 * The offsets of all entries in kallsyms_names, each group of 256 walked
 * from its own marker as the kernel walks it, kept (4 bytes a symbol):
 * the kernel walks 128 entries on average for each name, and a trace
 * names thousands of symbols.  Built once, by the first look-up: the
 * check of the tables (th_ks_check()) at load.
 */
static void th_ks_build_offs(void)
{
	unsigned int i;
	ulong off = 0;

	if (ks_tab.offs || ks_tab.offs_failed)
		return;
	ks_tab.offs = malloc(sizeof(*ks_tab.offs) * (size_t)ks_tab.num);
	if (!ks_tab.offs || ks_tab.names_len > 0xffffffffUL) {
		free(ks_tab.offs);
		ks_tab.offs = NULL;
		ks_tab.offs_failed = 1;
		return;
	}
	for (i = 0; i < ks_tab.num; i++) {
		if (!(i & 0xff))
			off = MIN((ulong)ks_tab.markers[i >> 8],
				  ks_tab.names_len);
		ks_tab.offs[i] = off;
		off = th_ks_next_off(off);
	}
}

/* The offset of entry IDX in kallsyms_names. */
static ulong th_ks_off_of(unsigned int idx)
{
	th_ks_build_offs();
	if (ks_tab.offs && idx < ks_tab.num)
		return ks_tab.offs[idx];
	return th_ks_off_walk(idx);
}

/* Expand entry IDX into BUF; the first character (the type) is dropped. */
static void th_ks_expand(unsigned int idx, char *buf, size_t len,
			 char *type)
{
	ulong off = th_ks_off_of(idx);
	unsigned int n, j;
	size_t o = 0;
	int hdr, first = 1;

	buf[0] = '\0';
	if (type)
		*type = '?';
	if (off >= ks_tab.names_len)
		return;
	n = th_ks_entry_len(ks_tab.names + off, &hdr);
	off += hdr;
	for (j = 0; j < n && off + j < ks_tab.names_len; j++) {
		unsigned short ti = ks_tab.token_index[ks_tab.names[off + j]];
		const char *t;

		if (ti >= ks_tab.token_table_len)
			break;
		for (t = ks_tab.token_table + ti;
		     t < ks_tab.token_table + ks_tab.token_table_len && *t;
		     t++) {
			if (first) {
				if (type)
					*type = *t;
				first = 0;
				continue;
			}
			if (o + 1 < len)
				buf[o++] = *t;
		}
	}
	buf[o] = '\0';
}

/* Where the kallsyms tables are: the kernel image's own symbols (0 when
 * absent). */
struct th_ks_tables {
	ulong num, names, markers, token_table, token_index;
	ulong offsets, relative_base, addresses;
};

static int th_ks_find_tables(struct th_ks_tables *t)
{
	t->num = th_ksymbol("kallsyms_num_syms");
	t->names = th_ksymbol("kallsyms_names");
	t->markers = th_ksymbol("kallsyms_markers");
	t->token_table = th_ksymbol("kallsyms_token_table");
	t->token_index = th_ksymbol("kallsyms_token_index");
	t->offsets = th_ksymbol("kallsyms_offsets");
	t->relative_base = th_ksymbol("kallsyms_relative_base");
	/* absolute addresses: only without CONFIG_KALLSYMS_BASE_RELATIVE */
	t->addresses = t->offsets ? 0 : th_ksymbol("kallsyms_addresses");
	if (!t->num || !t->names || !t->markers || !t->token_table ||
	    !t->token_index || !(t->offsets || t->addresses))
		return 0;
	/* Without kallsyms_relative_base (gone in recent kernels, which
	 * always store u32 offsets from _text), the base is _text. */
	if (t->offsets && !t->relative_base && !th_ksymbol("_text"))
		return 0;
	return 1;
}

/*
 * kallsyms_markers[] has been unsigned long in older kernels and
 * unsigned int in newer ones; tell them apart by the data, not the
 * version: markers[0] is always 0 and markers[1] never is, so the second
 * 32-bit word is 0 only for the unsigned long layout.
 */
static int th_ks_markers(ulong a_markers)
{
	unsigned int i, m1, u;
	ulong v;

	ks_tab.nmarkers = (ks_tab.num + 255) >> 8;
	ks_tab.markers = malloc(sizeof(unsigned int) * ks_tab.nmarkers);
	if (!th_read_uint(a_markers + 4, &m1, "kallsyms_markers"))
		return 0;
	for (i = 0; i < ks_tab.nmarkers; i++) {
		if (m1) {
			if (!th_read_uint(a_markers + 4 * i, &u,
					  "kallsyms_markers"))
				return 0;
			ks_tab.markers[i] = u;
		} else {
			if (!th_read_ulong(a_markers + 8 * i, &v,
					   "kallsyms_markers"))
				return 0;
			ks_tab.markers[i] = v;
		}
	}
	return 1;
}

/* kallsyms_names, kallsyms_token_index and kallsyms_token_table. */
static int th_ks_names(const struct th_ks_tables *t)
{
	unsigned int i;

	/* The names run up to the markers in the kernel's layout; bound by
	 * the last marker plus 256 entries of at most 2+255 bytes. */
	ks_tab.names_len = ks_tab.markers[ks_tab.nmarkers - 1] + 256UL * 257;
	ks_tab.names = th_slurp(t->names, ks_tab.names_len, "kallsyms_names");
	if (!ks_tab.names) {
		/* the tail may run past readable memory: retry shorter */
		ks_tab.names_len = ks_tab.markers[ks_tab.nmarkers - 1] +
			256UL * 40;
		ks_tab.names = th_slurp(t->names, ks_tab.names_len,
					"kallsyms_names");
		if (!ks_tab.names)
			return 0;
	}
	if (!th_read(t->token_index, ks_tab.token_index,
		     sizeof(ks_tab.token_index),
		     "kallsyms_token_index"))
		return 0;
	ks_tab.token_table_len = 0;
	for (i = 0; i < 256; i++)
		if (ks_tab.token_index[i] > ks_tab.token_table_len)
			ks_tab.token_table_len = ks_tab.token_index[i];
	ks_tab.token_table_len += 64;
	ks_tab.token_table = th_slurp(t->token_table, ks_tab.token_table_len,
				 "kallsyms_token_table");
	return ks_tab.token_table != NULL;
}

/*
 * Newer kernels have no kallsyms_relative_base: the offsets are
 * place-relative (from the entry's own address), or else relative to
 * _text.  The table is sorted by address, so the decoding that comes out
 * sorted is the right one: TRUE when the place-relative one is.
 */
static int th_ks_place_relative(ulong a_off, const int *offs)
{
	unsigned int i;

	for (i = 0; i < ks_tab.num; i++)
		ks_tab.addr[i] = a_off + 4UL * i + (long)offs[i];
	for (i = 1; i < ks_tab.num; i++)
		if (ks_tab.addr[i] < ks_tab.addr[i - 1])
			return FALSE;
	return TRUE;
}

/* ks_tab.addr[] from kallsyms_offsets (CONFIG_KALLSYMS_BASE_RELATIVE). */
static int th_ks_offsets(const struct th_ks_tables *t)
{
	ulong relbase = 0;
	unsigned int i;
	int *offs, abs_percpu = 0;

	offs = th_slurp(t->offsets, sizeof(int) * (ulong)ks_tab.num,
			"kallsyms_offsets");
	if (!offs)
		return 0;
	if (t->relative_base) {
		if (!th_read_ulong(t->relative_base, &relbase,
				   "kallsyms_relative_base")) {
			free(offs);
			return 0;
		}
	} else {
		if (th_ks_place_relative(t->offsets, offs)) {
			free(offs);
			return 1;
		}
		relbase = th_ksymbol("_text");
	}
	/* CONFIG_KALLSYMS_ABSOLUTE_PERCPU stores non-negative offsets
	 * as absolute values and text as negative offsets from the base;
	 * without it every offset is relative.  A config cannot be read
	 * from the dump; only the absolute-percpu layout has negative
	 * offsets (every text symbol), so their presence tells. */
	for (i = 0; t->relative_base && i < ks_tab.num; i++)
		if (offs[i] < 0) {
			abs_percpu = 1;
			break;
		}
	for (i = 0; i < ks_tab.num; i++) {
		if (abs_percpu)
			ks_tab.addr[i] = offs[i] >= 0 ? (ulong)offs[i] :
				relbase - 1 - offs[i];
		else
			ks_tab.addr[i] = relbase + (unsigned int)offs[i];
	}
	free(offs);
	return 1;
}

/* The kernel's own cross-checks of its tables: each group of 256 names
 * ends where the next group's marker says, and the addresses ascend. */
static void th_ks_check(const struct th_ks_tables *t)
{
	unsigned int g, i;
	ulong off;

	for (g = 0; g + 1 < ks_tab.nmarkers; g++) {
		/* past the group's last entry, walked from its marker (kept
		 * by th_ks_build_offs(), or walked again without memory) */
		off = th_ks_next_off(th_ks_off_of(g * 256 + 255));
		if (off != ks_tab.markers[g + 1]) {
			th_damaged("kallsyms_names", t->names, "symbols %u-%u "
				   "end at offset %lu, kallsyms_markers says "
				   "%u: symbol names may be wrong", g * 256,
				   g * 256 + 255, off, ks_tab.markers[g + 1]);
			break;
		}
	}
	/* the tokens lie end to end, each NUL-terminated, and
	 * kallsyms_token_index gives where each starts */
	for (i = 0; i + 1 < 256; i++) {
		ulong ti = ks_tab.token_index[i];

		if (ti >= ks_tab.token_table_len ||
		    ks_tab.token_index[i + 1] != ti + 1 +
		    strnlen(ks_tab.token_table + ti,
			    ks_tab.token_table_len - ti)) {
			th_damaged("kallsyms_token_index", t->token_index,
				   "token %u starts at %lu, token %u at %u: "
				   "symbol names may be wrong", i, ti, i + 1,
				   ks_tab.token_index[i + 1]);
			break;
		}
	}
	/* symbol names are ASCII */
	for (off = 0; off < ks_tab.token_table_len &&
	     off <= ks_tab.token_index[255]; off++) {
		unsigned char c = ks_tab.token_table[off];

		if (c && (c < 0x20 || c > 0x7e)) {
			th_damaged("kallsyms_token_table", t->token_table,
				   "byte %#x at offset %lu: symbol names may "
				   "be wrong", c, off);
			break;
		}
	}
	for (i = 1; i < ks_tab.num; i++)
		if (ks_tab.addr[i] < ks_tab.addr[i - 1]) {
			th_damaged("kallsyms_offsets", t->offsets ? t->offsets :
				   t->addresses, "symbol %u's address %lx is "
				   "below the previous one's %lx: symbol "
				   "names may be wrong", i, ks_tab.addr[i],
				   ks_tab.addr[i - 1]);
			break;
		}
}

/*
 * The dump's table against crash's own symbol table, read from the vmlinux
 * file: kallsyms was generated from that link, so a core-kernel text
 * symbol decoded from the dump has the address the vmlinux gives its name
 * (one of them, for a name several static functions share).  A damaged
 * relative base, offset table or name table decodes names or addresses
 * that disagree.  A few text symbols spread over the table are asked;
 * a quarter of them wrong, or half of their names unknown to the vmlinux,
 * is damage (a name crash keeps apart, if any, is not judged).
 */
#define TH_KS_PROBES 32
static void th_ks_vs_vmlinux(const struct th_ks_tables *t)
{
	unsigned int k, i, j, asked = 0, wrong = 0, unknown = 0;
	char name[256], bad[256], type;
	ulong bad_addr = 0, bad_file = 0;
	struct syment *sp;

	bad[0] = '\0';
	for (k = 0; k < TH_KS_PROBES; k++) {
		i = (unsigned int)((ulong)ks_tab.num * k / TH_KS_PROBES);
		/* the first text symbol at or after the probe point */
		for (j = 0; j < 64 && i + j < ks_tab.num; j++) {
			th_ks_expand(i + j, name, sizeof(name), &type);
			if ((type == 't' || type == 'T') && name[0])
				break;
		}
		if (j == 64 || i + j >= ks_tab.num)
			continue;
		i += j;
		asked++;
		if (!(sp = kernel_symbol_search(name))) {
			unknown++;
			continue;
		}
		while (sp && sp->value != ks_tab.addr[i])
			sp = symbol_search_next(name, sp);
		if (sp)
			continue;
		if (!wrong++) {
			th_strlcpy(bad, name, sizeof(bad));
			bad_addr = ks_tab.addr[i];
			bad_file = th_ksymbol(name);
		}
	}
	if (wrong && wrong * 4 >= asked)
		th_damaged("kallsyms", t->num, "%u of %u text symbols decode "
			   "to other addresses than the vmlinux gives them "
			   "(%s at %lx, the vmlinux says %lx): symbol names "
			   "may be wrong", wrong, asked, bad, bad_addr,
			   bad_file);
	else if (asked && unknown * 2 > asked)
		th_damaged("kallsyms", t->num, "%u of %u text symbol names "
			   "are not in the vmlinux: symbol names may be wrong",
			   unknown, asked);
}

static int th_ks_load_tables(void);

static int th_ks_load(void)
{
	const char *tag;

	if (ks_tab.loaded) {
		th_damage_replay("kallsyms");
		return ks_tab.usable;
	}
	ks_tab.loaded = 1;
	tag = th_damage_tag("kallsyms");
	if (th_ks_load_tables() == 0)
		th_damaged("kallsyms", th_ksymbol("kallsyms_num_syms"), "the "
			   "kernel's symbol tables do not decode (%u symbols): "
			   "names are raw addresses", ks_tab.num);
	th_damage_tag(tag);
	return ks_tab.usable;
}

/* 1 loaded, 0 the tables are there but do not decode, -1 no tables. */
static int th_ks_load_tables(void)
{
	struct th_ks_tables t;

	if (!th_ks_find_tables(&t))
		return -1;
	if (!th_read_uint(t.num, &ks_tab.num,
			  "kallsyms_num_syms") || !ks_tab.num ||
	    ks_tab.num > 10000000)
		return 0;
	ks_tab.stext = th_ksymbol("_stext");
	ks_tab.etext = th_ksymbol("_etext");
	ks_tab.sinittext = th_ksymbol("_sinittext");
	ks_tab.einittext = th_ksymbol("_einittext");
	ks_tab.end_ = th_ksymbol("_end");
	if (!th_ks_markers(t.markers) || !th_ks_names(&t))
		return 0;
	ks_tab.addr = malloc(sizeof(ulong) * ks_tab.num);
	if (!ks_tab.addr)
		return 0;
	if (t.offsets) {
		if (!th_ks_offsets(&t))
			return 0;
	} else {
		ulong *a = th_slurp(t.addresses,
				    sizeof(ulong) * (ulong)ks_tab.num,
				    "kallsyms_addresses");
		if (!a)
			return 0;
		memcpy(ks_tab.addr, a, sizeof(ulong) * ks_tab.num);
		free(a);
	}
	th_ks_check(&t);
	th_ks_vs_vmlinux(&t);
	/* the table covers the kernel's text: its last symbol is not below
	 * _etext (a kallsyms_num_syms too small names everything wrong) */
	if (ks_tab.etext && ks_tab.addr[ks_tab.num - 1] < ks_tab.etext)
		th_damaged("kallsyms_num_syms", t.num, "%u symbols end at %lx, "
			   "below _etext %lx: symbol names may be wrong",
			   ks_tab.num, ks_tab.addr[ks_tab.num - 1],
			   ks_tab.etext);
	ks_tab.usable = 1;
	return 1;
}

static int th_is_ksym_addr(ulong addr)
{
	/* CONFIG_KALLSYMS_ALL: all of the image, _stext to _end */
	if (ks_tab.stext && ks_tab.end_)
		return addr >= ks_tab.stext && addr <= ks_tab.end_;
	return 0;
}

/* get_symbol_pos() */
static int th_ks_core(ulong addr, struct th_sym *s)
{
	unsigned long low = 0, high = ks_tab.num, mid, start, end = 0;
	unsigned int i;

	while (high - low > 1) {
		mid = low + (high - low) / 2;
		if (ks_tab.addr[mid] <= addr)
			low = mid;
		else
			high = mid;
	}
	while (low && ks_tab.addr[low - 1] == ks_tab.addr[low])
		--low;
	start = ks_tab.addr[low];
	for (i = low + 1; i < ks_tab.num; i++)
		if (ks_tab.addr[i] > start) {
			end = ks_tab.addr[i];
			break;
		}
	if (!end) {
		if (ks_tab.sinittext && addr >= ks_tab.sinittext &&
		    addr < ks_tab.einittext)
			end = ks_tab.einittext;
		else
			end = ks_tab.end_;
	}
	th_ks_expand(low, s->name, sizeof(s->name), NULL);
	s->module[0] = '\0';
	s->addr = start;
	s->size = end - start;
	s->offset = addr - start;
	return TRUE;
}

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
	if (th_ks_load() && th_is_ksym_addr(addr))
		return th_ks_core(addr, s);
	m = th_module_of(addr);
	if (m) {
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
