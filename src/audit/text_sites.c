/*
 * tracehunt: the text check's judgement of one rewritable site: are the
 * bytes the dump holds there a form the kernel writes (the ftrace NOP or
 * a call to the target its record asks for, a jump label's NOP or jmp to
 * its target, a static call to its key's function, an alternative's
 * original or replacement ...)?  When not, tx_run.why says why.
 */
#include <stdarg.h>
#include "insn.h"
#include "model/patch_tables.h"
#include "model/bpf.h"
#include "audit/text_priv.h"

/**
 * tx_readable - whether the dump's copy of [A, A+LEN) was read
 * @r: the comparison
 * @a: file address
 * @len: bytes
 */
int tx_readable(struct tx_run *r, ulong a, ulong len)
{
	ulong o;

	if (a < tx_vml.text || a + len > tx_vml.text + tx_vml.text_size)
		return FALSE;
	for (o = (a - tx_vml.text) / TX_PAGE;
	     o <= (a + len - 1 - tx_vml.text) / TX_PAGE;
	     o++)
		if (r->bad[o])
			return FALSE;
	return TRUE;
}

/**
 * tx_mem - the dump's copy of the text at a file address
 * @r: the comparison
 * @a: file address inside .text
 */
const unsigned char *tx_mem(struct tx_run *r, ulong a)
{
	return r->mem + (a - tx_vml.text);
}

static ulong tx_avail(ulong a)
{
	ulong n = tx_vml.text + tx_vml.text_size - a;

	return n < 15 ? n : 15;
}

/**
 * tx_app - append to BUF (of LEN bytes) as much as fits
 * @buf: a string
 * @len: room in @buf
 * @fmt: printf format
 */
void tx_app(char *buf, size_t len, const char *fmt, ...)
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
			if (mi.kind != si.kind ||
			    mi.target != si.target + r->off)
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
	const unsigned char *d = tx_vml.disk + (s->start - tx_vml.text);
	struct insn mi;
	ulong slot, v;

	if (s->len < 6 || d[0] != 0xff || d[1] != 0x15 ||
	    !insn_decode(m, s->len, a, &mi) || mi.kind != INSN_CALL)
		return FALSE;
	slot = s->start + 6 + tx_s32(d + 2) + r->off;
	if (!th_pv_ops_slot(slot, &v) || v != mi.target)
		return FALSE;
	return insn_nop_run(m + mi.len, s->len - mi.len, s->len - mi.len) ==
		s->len - mi.len;
}

/* An ftrace site: the NOP, or a call to what its record asks for. */
static int tx_ftrace_ok(struct tx_run *r, const struct tx_site *s,
			const unsigned char *m, const struct insn *in)
{
	const struct thf_rec *rec;
	const char *ew = "";
	ulong expect;
	char w[120];
	int k;

	if (s->aux == TX_GRAPH_CALL) {
		/* ftrace_enable_ftrace_graph_caller() and its disable
		 * write a jmp to ftrace_graph_caller or ftrace_stub */
		if (in->kind == INSN_JMP &&
		    (in->target == th_symbol("ftrace_graph_caller") ||
		     in->target == th_symbol("ftrace_stub")))
			return TRUE;
		tx_why(r, "ftrace_graph_call holds %s, not a jmp to "
		       "ftrace_graph_caller or ftrace_stub", in->text);
		return FALSE;
	}
	if (insn_nop_run(m, s->len, s->len) == s->len)
		return TRUE;
	if (s->aux == ~0UL) {
		/* no record: a call to one of ftrace's own callers
		 * or trampolines */
		if (r->fs && in->kind == INSN_CALL &&
		    (in->target == r->fs->ftrace_caller ||
		     in->target == r->fs->ftrace_regs_caller ||
		     ((k = thf_ops_by_tramp(r->fs, in->target)) >= 0 &&
		      r->fs->ops[k].trampoline == in->target)))
			return TRUE;
		tx_why(r, "ftrace site (its record unreadable) holds "
		       "%s, not the ftrace NOP or an ftrace caller", in->text);
		return FALSE;
	}
	rec = &r->fs->rec[s->aux];
	if (in->kind != INSN_CALL && in->kind != INSN_JMP) {
		tx_why(r, "ftrace site holds "
		       "%s: neither the ftrace NOP nor a call", in->text);
		return FALSE;
	}
	expect = thf_expected_target(r->fs, rec, &ew);
	if ((rec->flags & r->fs->fl.enabled) && in->target == expect)
		return TRUE;
	/* the XDP dispatcher's function poked to jump to its image, its
	 * record disabled (model/bpf_dispatcher.c: before the dispatchers
	 * became static calls) */
	if (in->kind == INSN_JMP && !(rec->flags & r->fs->fl.enabled) &&
	    th_bpf_dispatcher_jump(s->start + r->off, in->target))
		return TRUE;
	tx_where(in->target, w, sizeof(w));
	if (rec->flags & r->fs->fl.enabled)
		tx_why(r, "ftrace site %s %s; the record expects %s %lx",
		       in->kind == INSN_CALL ? "calls" : "jumps to", w, ew,
		       expect);
	else
		tx_why(r, "ftrace site %s %s but its record is not enabled",
		       in->kind == INSN_CALL ? "calls" : "jumps to", w);
	return FALSE;
}

/* A static call site or trampoline: a call/jmp to its key's function, a
 * RET or a NOP. */
static int tx_static_call_ok(struct tx_run *r, const struct tx_site *s,
			     const struct insn *in)
{
	ulong key = s->aux + r->off, v;
	char w[120];

	if (s->kind == TH_TX_STATIC_CALL_TRAMP) {
		char nm[160];

		snprintf(nm, sizeof(nm), "__SCK__%s",
			 tx_vml.fn[s->aux].name + 7);
		key = th_symbol(nm);
	}
	if (in->kind == INSN_RET || in->kind == INSN_NOP)
		return TRUE;
	if (in->kind != INSN_CALL && in->kind != INSN_JMP) {
		tx_why(r, "static call site holds %s", in->text);
		return FALSE;
	}
	/* without a readable key, the jmp/call form is all we can check */
	if (!th_static_call_func(key, &v))
		return TRUE;
	/* a RET form may be a jmp to the return thunk */
	if (in->target == v || (!v && th_symbol("__x86_return_thunk") ==
				in->target))
		return TRUE;
	if (!v)
		th_static_call_null_went(key, s->start + r->off, in->target,
					 s->kind == TH_TX_STATIC_CALL_TRAMP);
	tx_where(in->target, w, sizeof(w));
	tx_why(r, "static call site goes to %s; its key says %lx", w, v);
	return FALSE;
}

/*
 * The replacement copied as it is, then NOPs: apply_alternatives() before
 * it relocated jumps (3.10 fixes up a 5-byte call only) copied a
 * replacement written for the original's place, like clear_page's
 * "jmp clear_page_c" (a byte of jmp and a byte of displacement counted
 * from clear_page).  Taken only when each branch of it, from the site,
 * lands at the start of a function, as such a hand-made one does.
 */
static int tx_verbatim(const unsigned char *m, int mlen, ulong a,
		       const unsigned char *repl, int rlen)
{
	struct insn in;
	struct th_sym sym;
	int o, any = FALSE;

	if (!repl || rlen <= 0 || rlen > mlen || memcmp(m, repl, rlen))
		return FALSE;
	for (o = 0; o < rlen; o += in.len) {
		if (!insn_decode(m + o, rlen - o, a + o, &in))
			return FALSE;
		if (in.kind == INSN_CALL || in.kind == INSN_JMP) {
			if (!th_ksym_lookup(in.target, &sym) || sym.offset)
				return FALSE;
			any = TRUE;
		}
	}
	return any && insn_nop_run(m + rlen, mlen - rlen, mlen - rlen) ==
		mlen - rlen;
}

/* An alternative: its original or its replacement, as applied. */
static int tx_alternative_ok(struct tx_run *r, const struct tx_site *s,
			     const unsigned char *m, ulong a)
{
	const unsigned char *repl = th_vmlinux_file_bytes(s->aux, s->rlen);

	if (tx_same_shape(r, m, s->len, a, tx_vml.disk +
			  (s->start - tx_vml.text), s->len, s->start, 0) ||
	    (repl && tx_same_shape(r, m, s->len, a, repl, s->rlen, s->aux,
				   0)) || tx_direct_call(r, s, m, a) ||
	    tx_verbatim(m, s->len, a, repl, s->rlen))
		return TRUE;
	/*
	 * Nested alternatives (ALTERNATIVE_2 as two nested ALTERNATIVEs)
	 * can record a replacement length shorter than what the
	 * kernel applied (6.12: 0 for "mov %rdi,%rax" of pte_val()):
	 * the replacement's instructions as far as the site reaches,
	 * then padding.
	 */
	repl = s->rlen < s->len ? th_vmlinux_file_bytes(s->aux, s->len) :
		NULL;
	if (repl && tx_same_shape(r, m, s->len, a, repl, s->len, s->aux, 1))
		return TRUE;
	tx_why(r, "alternative at %lx holds neither its original nor "
	       "its replacement", a);
	return FALSE;
}

/* Is the memory at site S (file addresses) a form the kernel writes? */
static int tx_site_ok(struct tx_run *r, const struct tx_site *s)
{
	const unsigned char *m = tx_mem(r, s->start);
	ulong a = s->start + r->off;
	struct insn in;

	if (!tx_readable(r, s->start, s->len))
		return FALSE;
	insn_decode(m, tx_avail(s->start), a, &in);
	switch (s->kind) {
	case TH_TX_FTRACE:
		return tx_ftrace_ok(r, s, m, &in);
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
	case TH_TX_STATIC_CALL_TRAMP:
		return tx_static_call_ok(r, s, &in);
	case TH_TX_RETURN_THUNK:
		/* ret; int3 padding, or a jmp to the chosen thunk */
		if (m[0] == 0xc3 || in.kind == INSN_JMP)
			return TRUE;
		tx_why(r, "return site holds %s", in.text);
		return FALSE;
	case TH_TX_ALTERNATIVE:
		return tx_alternative_ok(r, s, m, a);
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

/**
 * tx_cover - a site covering a differing byte whose memory is fine
 * @r: the comparison (r->why: why a covering site was not fine)
 * @ft: the function's ftrace site, or NULL
 * @a: file address of the byte
 *
 * The ftrace site first, then kprobes, then the file's tables; NULL when
 * none covers @a with bytes the kernel writes.
 */
const struct tx_site *tx_cover(struct tx_run *r,
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
	return tx_cover_in(r, tx_vml.site, tx_vml.nsite, a);
}
