/*
 * tracehunt: text integrity of the core kernel, for "hooks".
 *
 * The vmlinux crash was started with is read with libelf (text_vmlinux.c):
 * the .text section, the STT_FUNC symbols inside it, and the kernel's own
 * tables of the sites it rewrites at boot or at run time (text_tables.c).
 * Those tables are read from the file, not the dump: most of them live in
 * init memory that the kernel frees after boot (.altinstructions,
 * .parainstructions, .retpoline_sites, .return_sites, .ibt_endbr_seal,
 * .smp_locks), and the file holds exactly the entries the kernel applied
 * to this text.  Each table is used only when its symbols exist; entry
 * layouts come from the dump's debuginfo.
 *
 * For each function the entry bytes up to the end of its ftrace site are
 * compared; every differing byte must lie in a site of some table whose
 * bytes in memory are a form the kernel writes there (text_sites.c:
 * checked as far as cheaply possible: ftrace sites must be the NOP or a
 * call to the target the record asks for, jump labels a NOP or a jmp to
 * their target, static calls a call/jmp to their key's function ...), or
 * under a registered kprobe.  Whatever is left is reported.  Module text
 * has no file to compare with and is not checked here.
 */
#include "insn.h"
#include "model/kprobes.h"
#include "model/text_bytes.h"
#include "audit/text_priv.h"

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

/**
 * th_text_kind_name - the name of what explained a difference
 * @kind: enum th_text_kind
 */
const char *th_text_kind_name(int kind)
{
	return kind >= 0 && kind < TH_TX_NKINDS ? tx_kind_names[kind] : "?";
}

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
	ulong avail = tx_vml.text + tx_vml.text_size - f->addr;

	memset(&x, 0, sizeof(x));
	x.func = f->addr + r->off;
	x.addr = at + r->off;
	th_ksym_ps(x.func, x.func_name, sizeof(x.func_name));
	x.len = end - f->addr;
	if (avail > 16)
		avail = 16;
	memcpy(x.disk, tx_vml.disk + (f->addr - tx_vml.text), avail);
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
	ulong lo = tx_vml.text + r->off, hi = lo + tx_vml.text_size, g;
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

/* The comparison's start: the dump's text, its ftrace records and
 * kprobes; -1 after one line saying why not. */
static int tx_run_start(struct tx_run *r)
{
	ulong stext = th_symbol("_stext");

	if (!stext)
		stext = th_symbol("_text");
	if (!stext) {
		fprintf(fp, "text: not checked: no _stext in the dump's "
			"symbols\n");
		return -1;
	}
	memset(r, 0, sizeof(*r));
	r->off = stext - tx_vml.stext;
	r->mem = th_text_copy(tx_vml.text + r->off, tx_vml.text_size, &r->bad);
	if (!r->mem) {
		fprintf(fp, "text: not checked: out of memory for %lu bytes "
			"of text\n", tx_vml.text_size);
		return -1;
	}
	tx_dynamic(r);
	return 0;
}

/*
 * The ftrace site of F (+0, or +4 after endbr64) into *FT when it has one;
 * returns the end of the bytes to compare: the site's end, or 5 bytes.
 */
static ulong tx_func_site(struct tx_run *r, const struct tx_func *f,
			  struct tx_site *ft, struct tx_site **ftp)
{
	const unsigned char *d = tx_vml.disk + (f->addr - tx_vml.text);
	ulong site = f->addr, end;
	long ri;

	*ftp = NULL;
	if (f->end - f->addr >= 4 && insn_is_endbr(d, 4) &&
	    tx_rec_find(r, f->addr + 4) >= 0)
		site = f->addr + 4;
	ri = tx_rec_find(r, site);
	end = (ri >= 0 ? site : f->addr) + 5;
	if (end > f->end)
		end = f->end;
	ft->len = 5;
	ft->kind = TH_TX_FTRACE;
	if (ri >= 0) {
		ft->start = site;
		ft->aux = r->rec_idx[ri];
		*ftp = ft;
	} else if ((!r->nrec || (r->fs && r->fs->rec_err)) &&
		   tx_vml.fentry) {
		/* no records to read, or not all of them (a damaged
		 * ftrace_pages list, a records page missing from the
		 * dump): a call __fentry__ in the file may be the NOP */
		if (f->end - f->addr >= 9 && insn_is_endbr(d, 4))
			site = f->addr + 4;
		if (f->end - site < 5 || d[site - f->addr] != 0xe8 ||
		    site + 5 + tx_s32(d + (site - f->addr) + 1) !=
		    tx_vml.fentry)
			return end;
		ft->start = site;
		ft->aux = ~0UL;
		*ftp = ft;
		end = site + 5;
	}
	return end;
}

/*
 * KASLR: the boot code adds the offset to every 32-bit absolute kernel
 * address in the text (arch/x86/boot/compressed relocs); a 4-byte window
 * over A that is the file's value plus the offset is such a relocation.
 * Returns its last byte, or 0.
 */
static ulong tx_kaslr_reloc(struct tx_run *r, const struct tx_func *f,
			    ulong a)
{
	const unsigned char *d = tx_vml.disk + (f->addr - tx_vml.text);
	const unsigned char *m = tx_mem(r, f->addr);
	unsigned int dv, mv;
	ulong w;

	for (w = a > f->addr + 3 ? a - 3 : f->addr;
	     /* the window may run past the compared bytes: a disp32
	      * starting at the last one (sid: hrtimer_run_queues.cold+0x4) */
	     w <= a && tx_readable(r, w, 4); w++) {
		memcpy(&dv, d + (w - f->addr), 4);
		memcpy(&mv, m + (w - f->addr), 4);
		if (mv == (unsigned int)(dv + r->off))
			return w + 3;
	}
	return 0;
}

/*
 * Explain every differing byte of F in [f->addr, END): *FIRST gets the
 * kind that explained the first.  Returns FALSE at the first byte nothing
 * explains, *AT then being where the finding is.
 */
static int tx_explain(struct tx_run *r, const struct tx_func *f,
		      const struct tx_site *ftp, ulong end, ulong *at,
		      int *first)
{
	const unsigned char *d = tx_vml.disk + (f->addr - tx_vml.text);
	const unsigned char *m = tx_mem(r, f->addr);
	const struct tx_site *s;
	ulong a, last;

	*first = -1;
	r->why[0] = '\0';
	r->why_at = 0;
	for (a = f->addr; a < end; a++) {
		if (d[a - f->addr] == m[a - f->addr])
			continue;
		s = tx_cover(r, ftp, a);
		if (!s && r->off && (last = tx_kaslr_reloc(r, f, a))) {
			if (*first < 0)
				*first = TH_TX_KASLR_RELOC;
			a = last;
			continue;
		}
		if (!s) {
			/* a site that does not hold what it may: the finding
			 * is at the site's instruction, not at its first
			 * differing byte (a jump label's e9 stays e9) */
			if (r->why[0] && r->why_at && r->why_at <= a &&
			    r->why_at >= f->addr)
				a = r->why_at;
			*at = a;
			return FALSE;
		}
		if (*first < 0)
			*first = s->kind;
		a = s->start + s->len - 1;
	}
	return TRUE;
}

/* Compare one function, counting it in ST; CB gets it if unexplained. */
static void tx_check_func(struct tx_run *r, const struct tx_func *f,
			  struct th_text_stats *st, th_text_cb cb, void *arg)
{
	struct tx_site ft, *ftp;
	ulong end, at;
	int first;

	st->functions++;
	end = tx_func_site(r, f, &ft, &ftp);
	if (!tx_readable(r, f->addr, end - f->addr)) {
		st->unreadable++;
		return;
	}
	st->compared++;
	if (!memcmp(tx_vml.disk + (f->addr - tx_vml.text), tx_mem(r, f->addr),
		    end - f->addr))
		return;
	st->differing++;
	if (!tx_explain(r, f, ftp, end, &at, &first)) {
		st->unexplained++;
		if (cb)
			tx_report(r, f, at, end, cb, arg);
		return;
	}
	st->explained_kind[first]++;
	if (first == TH_TX_FTRACE)
		st->explained_ftrace++;
	else if (first == TH_TX_KPROBE || first == TH_TX_OPTPROBE)
		st->explained_kprobe++;
	else
		st->explained_other++;
}

/**
 * th_text_check - compare the core kernel's text with the vmlinux file
 * @cb: gets every unexplained difference, one per function
 * @arg: passed to @cb
 * @st: the counts
 *
 * Returns 0, or -1 after printing one line when the vmlinux or the
 * dump's text cannot be read.
 */
int th_text_check(th_text_cb cb, void *arg, struct th_text_stats *st)
{
	struct tx_run r;
	long i;

	memset(st, 0, sizeof(*st));
	tx_load();
	if (!tx_vml.ok) {
		fprintf(fp, "text: not checked: %s\n", tx_vml.err);
		return -1;
	}
	if (tx_run_start(&r) < 0)
		return -1;
	memcpy(st->sites, tx_vml.tables, sizeof(st->sites));
	st->sites[TH_TX_FTRACE] = r.nrec;
	for (i = 0; i < r.ndyn; i++)
		if (r.dyn[i].aux != TX_GRAPH_CALL)	/* not a record */
			st->sites[r.dyn[i].kind]++;
	for (i = 0; i < tx_vml.nfn; i++)
		tx_check_func(&r, &tx_vml.fn[i], st, cb, arg);
	free(r.mem);
	free(r.bad);
	free(r.rec_ip);
	free(r.rec_idx);
	free(r.dyn);
	return 0;
}
