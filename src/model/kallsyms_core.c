/*
 * tracehunt: the core kernel's kallsyms tables, read from the dump
 * (model/kallsyms.c replays kallsyms_lookup_buildid() over them, then the
 * modules, BPF and ftrace's saved names).  The compressed names, their
 * markers and token tables and the addresses are decoded as the kernel
 * decodes them, and checked against each other and the vmlinux file.
 */
#include "model/model.h"
#include "model/kallsyms.h"
#include "model/vmlinux_file.h"

/* How a symbol's address is stored (th_ks_addr()). */
enum th_ks_how {
	TH_KS_ABSOLUTE,		/* kallsyms_addresses[] */
	TH_KS_RELATIVE,		/* base + (u32)offset */
	TH_KS_ABS_PERCPU,	/* >= 0: absolute, else base - 1 - offset */
	TH_KS_PLACE,		/* the offset's own address + offset */
};

/*
 * The tables are the vmlinux file's own bytes (mapped) wherever the dump
 * holds the same bytes, else copies of the dump's, and the addresses are
 * decoded on use: a first command touches no fresh memory for them (each
 * fresh page is a page fault, about 20 us under some hypervisors, and the
 * copies were 2.5 MB for 6.1's 94k symbols).
 */
struct th_kallsyms {
	int loaded;
	int usable;
	unsigned int num;
	enum th_ks_how how;
	const int *offsets;	/* kallsyms_offsets */
	const ulong *abs;	/* kallsyms_addresses */
	ulong offsets_addr, base;
	const unsigned char *names;	/* kallsyms_names */
	ulong names_len;
	unsigned int *markers;
	unsigned int nmarkers;
	unsigned int *offs;	/* offset of every entry (th_ks_off_of()) */
	int offs_failed;
	const char *token_table;
	ulong token_table_len;
	/* where each table's bytes in the dump first differ from the
	 * vmlinux file's (th_ks_table()); -1: the same, or no file */
	long names_diff, token_diff, offsets_diff, abs_diff;
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

/*
 * The LEN bytes of the kernel's table at ADDR: the vmlinux file's when
 * the dump's are the same bytes (compared through one buffer), else a
 * copy of the dump's, with the offset of the first byte that differs
 * from the file's in *DIFF (-1: no file to compare with); NULL when the
 * dump's cannot be read.
 */
#define TH_KS_CHUNK	(64UL << 10)
static const void *th_ks_table(ulong addr, ulong len, const char *what,
			       long *diff)
{
	const unsigned char *f = th_vmlinux_bytes(addr, (long)len);
	static unsigned char *buf;
	ulong done, n, i;

	*diff = -1;
	if (f && (buf || (buf = malloc(TH_KS_CHUNK)))) {
		for (done = 0; done < len; done += n) {
			n = MIN(len - done, TH_KS_CHUNK);
			if (!th_read(addr + done, buf, n, what))
				return NULL;
			if (!memcmp(buf, f + done, n))
				continue;
			for (i = 0; buf[i] == f[done + i]; i++)
				;
			*diff = (long)(done + i);
			break;
		}
		if (done >= len)
			return f;
	}
	return th_slurp(addr, len, what);
}

/* The address of symbol I. */
static inline ulong th_ks_addr(unsigned int i)
{
	int o;

	if (ks_tab.how == TH_KS_ABSOLUTE)
		return ks_tab.abs[i];
	o = ks_tab.offsets[i];
	switch (ks_tab.how) {
	case TH_KS_PLACE:
		return ks_tab.offsets_addr + 4UL * i + (long)o;
	case TH_KS_ABS_PERCPU:
		return o >= 0 ? (ulong)o : ks_tab.base - 1 - o;
	default:
		return ks_tab.base + (unsigned int)o;
	}
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
	ks_tab.names = th_ks_table(t->names, ks_tab.names_len,
				   "kallsyms_names", &ks_tab.names_diff);
	if (!ks_tab.names) {
		/* the tail may run past readable memory: retry shorter */
		ks_tab.names_len = ks_tab.markers[ks_tab.nmarkers - 1] +
			256UL * 40;
		ks_tab.names = th_ks_table(t->names, ks_tab.names_len,
					   "kallsyms_names",
					   &ks_tab.names_diff);
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
	ks_tab.token_table = th_ks_table(t->token_table,
					 ks_tab.token_table_len,
					 "kallsyms_token_table",
					 &ks_tab.token_diff);
	return ks_tab.token_table != NULL;
}

/* The first symbol whose address is below the one before it; ks_tab.num
 * when they ascend, as the kernel's sorted table does. */
static unsigned int th_ks_first_descent(void)
{
	unsigned int i;

	for (i = 1; i < ks_tab.num; i++)
		if (th_ks_addr(i) < th_ks_addr(i - 1))
			return i;
	return ks_tab.num;
}

/* kallsyms_offsets (CONFIG_KALLSYMS_BASE_RELATIVE) and how to read them. */
static int th_ks_offsets(const struct th_ks_tables *t)
{
	unsigned int i;

	ks_tab.offsets = th_ks_table(t->offsets,
				     sizeof(int) * (ulong)ks_tab.num,
				     "kallsyms_offsets", &ks_tab.offsets_diff);
	if (!ks_tab.offsets)
		return 0;
	ks_tab.offsets_addr = t->offsets;
	if (!t->relative_base) {
		/* Newer kernels have no kallsyms_relative_base: the offsets
		 * are place-relative (from the entry's own address), or else
		 * relative to _text.  The table is sorted by address, so the
		 * decoding that comes out sorted is the right one. */
		ks_tab.how = TH_KS_PLACE;
		if (th_ks_first_descent() == ks_tab.num)
			return 1;
		ks_tab.how = TH_KS_RELATIVE;
		ks_tab.base = th_ksymbol("_text");
		return 1;
	}
	if (!th_read_ulong(t->relative_base, &ks_tab.base,
			   "kallsyms_relative_base"))
		return 0;
	/* CONFIG_KALLSYMS_ABSOLUTE_PERCPU stores non-negative offsets
	 * as absolute values and text as negative offsets from the base;
	 * without it every offset is relative.  A config cannot be read
	 * from the dump; only the absolute-percpu layout has negative
	 * offsets (every text symbol), so their presence tells. */
	ks_tab.how = TH_KS_RELATIVE;
	for (i = 0; i < ks_tab.num; i++)
		if (ks_tab.offsets[i] < 0) {
			ks_tab.how = TH_KS_ABS_PERCPU;
			break;
		}
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
	i = th_ks_first_descent();
	if (i < ks_tab.num)
		th_damaged("kallsyms_offsets", t->offsets ? t->offsets :
			   t->addresses, "symbol %u's address %lx is below the "
			   "previous one's %lx: symbol names may be wrong", i,
			   th_ks_addr(i), th_ks_addr(i - 1));
}

/*
 * The tables are constants of the kernel image: a byte of a table that
 * differs from the vmlinux file's is damage (one read past a table's end
 * may be another object's, and is not judged).  kallsyms_addresses[] is
 * judged only where KASLR left the kernel where it was linked: its
 * entries are relocated.
 */
static void th_ks_vs_file(const struct th_ks_tables *t)
{
	ulong names_end = th_ks_next_off(th_ks_off_of(ks_tab.num - 1));
	ulong ti = ks_tab.token_index[255], tokens_end = ti;

	if (ti < ks_tab.token_table_len)
		tokens_end += strnlen(ks_tab.token_table + ti,
				      ks_tab.token_table_len - ti) + 1;
	if (ks_tab.names_diff >= 0 && (ulong)ks_tab.names_diff < names_end)
		th_damaged("kallsyms_names", t->names, "byte %ld differs from "
			   "the vmlinux file's: symbol names may be wrong",
			   ks_tab.names_diff);
	if (ks_tab.token_diff >= 0 && (ulong)ks_tab.token_diff < tokens_end)
		th_damaged("kallsyms_token_table", t->token_table, "byte %ld "
			   "differs from the vmlinux file's: symbol names may "
			   "be wrong", ks_tab.token_diff);
	if (ks_tab.offsets_diff >= 0)
		th_damaged("kallsyms_offsets", t->offsets, "symbol %ld's "
			   "offset differs from the vmlinux file's: symbol "
			   "names may be wrong", ks_tab.offsets_diff / 4);
	if (ks_tab.abs_diff >= 0 && !kt->relocate)
		th_damaged("kallsyms_addresses", t->addresses, "symbol %ld's "
			   "address differs from the vmlinux file's: symbol "
			   "names may be wrong", ks_tab.abs_diff / 8);
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
		while (sp && sp->value != th_ks_addr(i))
			sp = symbol_search_next(name, sp);
		if (sp)
			continue;
		if (!wrong++) {
			th_strlcpy(bad, name, sizeof(bad));
			bad_addr = th_ks_addr(i);
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

	ks_tab.names_diff = ks_tab.token_diff = -1;
	ks_tab.offsets_diff = ks_tab.abs_diff = -1;
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
	if (t.offsets) {
		if (!th_ks_offsets(&t))
			return 0;
	} else {
		ks_tab.how = TH_KS_ABSOLUTE;
		ks_tab.abs = th_ks_table(t.addresses,
					 sizeof(ulong) * (ulong)ks_tab.num,
					 "kallsyms_addresses",
					 &ks_tab.abs_diff);
		if (!ks_tab.abs)
			return 0;
	}
	th_ks_check(&t);
	th_ks_vs_file(&t);
	th_ks_vs_vmlinux(&t);
	/* the table covers the kernel's text: its last symbol is not below
	 * _etext (a kallsyms_num_syms too small names everything wrong) */
	if (ks_tab.etext && th_ks_addr(ks_tab.num - 1) < ks_tab.etext)
		th_damaged("kallsyms_num_syms", t.num, "%u symbols end at %lx, "
			   "below _etext %lx: symbol names may be wrong",
			   ks_tab.num, th_ks_addr(ks_tab.num - 1),
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
		if (th_ks_addr(mid) <= addr)
			low = mid;
		else
			high = mid;
	}
	while (low && th_ks_addr(low - 1) == th_ks_addr(low))
		--low;
	start = th_ks_addr(low);
	for (i = low + 1; i < ks_tab.num; i++)
		if (th_ks_addr(i) > start) {
			end = th_ks_addr(i);
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

int th_ksym_core(ulong addr, struct th_sym *s)
{
	return th_ks_load() && th_is_ksym_addr(addr) && th_ks_core(addr, s);
}
