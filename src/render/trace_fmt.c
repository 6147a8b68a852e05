/*
 * tracehunt: one ring-buffer entry printed as the kernel's "trace" file
 * prints it (kernel/trace/trace.c print_trace_fmt, trace_output.c): the
 * context columns, then the event's own text.
 */
#define _GNU_SOURCE		/* fwrite_unlocked */
#include "render/trace_priv.h"
#include "bprint.h"
#include "printfmt.h"

/* What the printers keep of each event of th_events(): its print_fmt
 * compiled, or why it could not be, and whether that was noted. */
struct th_evfmt {
	int loaded;
	struct pf_fmt *pf;		/* NULL: fields shown one by one */
	char pf_err[160];
	int noted;			/* fallback note printed */
};
static struct th_evfmt *th_evfmts;

static struct th_evfmt *th_evfmt(const struct th_event *e)
{
	if (!th_evfmts) {
		struct th_event *v;
		int n = th_events(&v);

		th_evfmts = calloc(n ? n : 1, sizeof(*th_evfmts));
	}
	return &th_evfmts[e->idx];
}

/* ------------------------------------------ print_fmt interpreter --- */

static int th_pf_sym(void *priv, uint64_t addr, int with_offset, char *buf,
		     size_t len)
{
	struct th_sym s;

	if (!th_ksym_lookup(addr, &s))
		return -1;
	if (with_offset)
		th_ksym_pS(addr, buf, len);
	else
		th_ksym_ps(addr, buf, len);
	return strlen(buf);
}

static int th_pf_str(void *priv, uint64_t addr, char *buf, size_t len)
{
	if (!th_read_cstr(addr, buf, len, "%s argument"))
		return -1;
	return strlen(buf);
}

static int th_pf_ident(void *priv, const char *name, int64_t *val)
{
	if (!th_enum_exists(name))
		return -1;
	*val = th_enum(name, 0);
	return 0;
}

static struct pf_ctx th_pfc = {
	.long_size = sizeof(long),
	.sym = th_pf_sym,
	.read_str = th_pf_str,
	.ident = th_pf_ident,
};

static struct pf_field *th_pf_fields(const struct th_event *e)
{
	struct pf_field *pf = calloc(e->nfields + 1, sizeof(*pf));
	int i;

	for (i = 0; i < e->nfields; i++) {
		pf[i].name = e->fields[i].name;
		pf[i].type = e->fields[i].type;
		pf[i].offset = e->fields[i].offset;
		pf[i].size = e->fields[i].size;
		pf[i].is_signed = e->fields[i].is_signed;
	}
	return pf;
}

/* Compile the event's print_fmt once. */
static void th_pf_load(struct th_event *e, struct th_evfmt *f)
{
	struct pf_field *pf;
	ulong p = 0;
	char *text = malloc(32768);
	int r = th_event_print_fmt(e, text, 32768, &p);

	if (r == -1)
		snprintf(f->pf_err, sizeof(f->pf_err), "no print_fmt");
	else if (r < 0)
		snprintf(f->pf_err, sizeof(f->pf_err),
			 "print_fmt unreadable at %lx", p);
	if (r < 0) {
		free(text);
		return;
	}
	pf = th_pf_fields(e);
	f->pf = pf_parse_ctx(text, pf, e->nfields, &th_pfc, f->pf_err,
			     sizeof(f->pf_err));
	free(pf);
	free(text);
}

/* What printing E needs, read once: a kprobe's arguments, else the
 * fields, and a tracepoint's print_fmt compiled. */
static struct th_evfmt *th_event_detail(struct th_event *e)
{
	struct th_evfmt *f = th_evfmt(e);

	if (f->loaded)
		return f;
	f->loaded = TRUE;
	if (e->kind == TH_EVK_KPROBE || e->kind == TH_EVK_KRETPROBE)
		th_event_probe_args(e);
	else {
		th_event_fields(e);
		if (e->kind == TH_EVK_TRACEPOINT)
			th_pf_load(e, f);
	}
	return f;
}

/* ------------------------------------------------------- context --- */


static struct {
	int init;
	long irqs_off, bh_off, nosupport, need_resched, preempt_resched,
	     lazy, hardirq, softirq, nmi;
} F;

/* Whether [A, END) of the kernel's memory holds the string S (N bytes):
 * 1, 0, -1 when none of it could be read; 64 KB chunks that overlap by
 * N so that no occurrence falls between two. */
static int th_mem_has(ulong a, ulong end, const char *s, size_t n, char *buf,
		      size_t chunk)
{
	int read_any = FALSE;

	for (; a < end; a += chunk - n) {
		long len = MIN((ulong)chunk, end - a);

		if (th_read(a, buf, len, "kernel rodata")) {
			read_any = TRUE;
			if (memmem(buf, len, s, n))
				return 1;
		}
		if ((ulong)len < chunk)
			break;
	}
	return read_any ? 0 : -1;
}

/*
 * Whether the kernel's read-only data holds the string S, one of trace.c's
 * own (-1: unreadable).  The strings of one object file are merged into
 * rodata next to each other, more or less: the search starts around
 * trace.c's name of its first option (trace_options[0]), 64 KB and then
 * 1 MB either side (6.1: 2 KB away; 6.12, 7.2: 0.5-0.7 MB), before the
 * whole of __start_rodata..__end_rodata (bounded: at most 256 MB).
 */
static int th_rodata_has(const char *s)
{
	enum { CHUNK = 64 * 1024 };
	static const ulong radius[] = { 64 << 10, 1 << 20 };
	ulong start = th_ksymbol("__start_rodata");
	ulong end = th_ksymbol("__end_rodata");
	ulong opts = th_symbol("trace_options"), anchor = 0;
	size_t n = strlen(s);
	char *buf;
	int r;
	unsigned i;

	if (!start || end <= start || end - start > (256UL << 20) ||
	    n == 0 || n >= CHUNK)
		return -1;
	buf = malloc(CHUNK);
	if (!buf)
		return -1;
	if (opts)
		th_read_ulong(opts, &anchor, "trace_options[0]");
	for (i = 0; anchor >= start && anchor < end &&
		    i < sizeof(radius) / sizeof(radius[0]); i++) {
		ulong lo = anchor - start > radius[i] ? anchor - radius[i] :
			   start;
		ulong hi = end - anchor > radius[i] ? anchor + radius[i] : end;

		if (th_mem_has(lo, hi, s, n, buf, CHUNK) > 0) {
			free(buf);
			return 1;
		}
	}
	r = th_mem_has(start, end, s, n, buf, CHUNK);
	free(buf);
	return r;
}

/*
 * The latency columns end with migrate-disable (preempt_count's high
 * nibble) since Linux kernel commit 54357f0c9149 ("tracing: Add
 * migrate-disabled counter to tracing output.") (in v5.15); before it the
 * whole preempt_count is one column.  That commit added no symbol, type
 * or member of its own, so the kernel's own header text is the probe;
 * when rodata cannot be read, TRACE_FLAG_BH_OFF (v5.18, later) decides.
 */
int th_lat_migrate(void)
{
	static int v = -1;

	if (v < 0) {
		v = th_rodata_has("_-=> migrate-disable");
		if (v < 0)
			v = th_enum("TRACE_FLAG_BH_OFF", 0) != 0;
	}
	return v;
}

/* trace_print_lat_fmt(): irqs-off, need-resched, hardirq/softirq,
 * preempt-depth, migrate-disable */
int th_lat_str(const unsigned char *ent, char *out)
{
	static const char hex[] = "0123456789abcdef";
	unsigned flags = ent[2], pc = ent[3];
	char irqs_off, need_resched, hs;
	int nmi, hardirq, softirq, bh_off;

	if (!F.init) {
		F.init = 1;
		F.irqs_off = th_enum("TRACE_FLAG_IRQS_OFF", 0x01);
		/* BH_OFF is absent from older kernels: 0 disables it */
		F.bh_off = th_enum("TRACE_FLAG_BH_OFF", 0);
		/*
		 * TRACE_FLAG_NEED_RESCHED_LAZY took over the bit of
		 * TRACE_FLAG_IRQS_NOSUPPORT (v6.13: "tracing: Replace
		 * TRACE_FLAG_IRQS_NOSUPPORT with its config option" and
		 * "tracing: Record task flag NEED_RESCHED_LAZY."): with it,
		 * the need-resched column has eight values.
		 */
		if (th_enum_cached("TRACE_FLAG_NEED_RESCHED_LAZY", &F.lazy))
			;
		else if (th_enum_cached("TRACE_FLAG_IRQS_NOSUPPORT",
					&F.nosupport))
			/* the enum, read whole with IRQS_OFF, holds the
			 * older flag at that bit: no LAZY (a lookup of a
			 * name the debuginfo lacks searches all of it) */
			F.lazy = 0;
		else
			F.lazy = th_enum("TRACE_FLAG_NEED_RESCHED_LAZY", 0);
		F.nosupport = F.lazy ? 0 :
			      th_enum("TRACE_FLAG_IRQS_NOSUPPORT", 0x02);
		F.need_resched = th_enum("TRACE_FLAG_NEED_RESCHED", 0x04);
		F.hardirq = th_enum("TRACE_FLAG_HARDIRQ", 0x08);
		F.softirq = th_enum("TRACE_FLAG_SOFTIRQ", 0x10);
		F.preempt_resched = th_enum("TRACE_FLAG_PREEMPT_RESCHED", 0x20);
		F.nmi = th_enum("TRACE_FLAG_NMI", 0x40);
	}
	nmi = flags & F.nmi;
	hardirq = flags & F.hardirq;
	softirq = flags & F.softirq;
	bh_off = F.bh_off ? flags & F.bh_off : 0;
	irqs_off = (flags & F.irqs_off && bh_off) ? 'D' :
		   (flags & F.irqs_off) ? 'd' :
		   bh_off ? 'b' :
		   (F.nosupport && (flags & F.nosupport)) ? 'X' : '.';
	{
		int nr = !!(flags & F.need_resched);
		int lz = F.lazy ? !!(flags & F.lazy) : 0;
		int pr = !!(flags & F.preempt_resched);

		/* NEED_RESCHED, LAZY, PREEMPT_RESCHED -> column */
		static const char col[8] = {
			'.', 'p', 'l', 'L', 'n', 'N', 'b', 'B',
		};
		need_resched = col[nr << 2 | lz << 1 | pr];
	}
	hs = (nmi && hardirq) ? 'Z' : nmi ? 'z' :
	     (hardirq && softirq) ? 'H' : hardirq ? 'h' :
	     softirq ? 's' : '.';
	out[0] = irqs_off;
	out[1] = need_resched;
	out[2] = hs;
	if (!th_lat_migrate()) {
		/* the whole preempt_count: "%x" of a byte, or '.' */
		if (!pc) {
			out[3] = '.';
			return 4;
		}
		if (pc >> 4) {
			out[3] = hex[pc >> 4];
			out[4] = hex[pc & 0xf];
			return 5;
		}
		out[3] = hex[pc];
		return 4;
	}
	out[3] = (pc & 0xf) ? hex[pc & 0xf] : '.';
	out[4] = (pc & 0xf0) ? hex[pc >> 4] : '.';
	return 5;
}

void th_print_lat_fmt(const unsigned char *ent)
{
	char s[8];

	fwrite_unlocked(s, 1, th_lat_str(ent, s), fp);
}

/*
 * The bit of a trace option (enum trace_iterator_bits): its index in the
 * kernel's trace_options[] names, which trace.c builds from the same
 * TRACE_FLAGS list as the enum (C(a, b) gives TRACE_ITER_a_BIT there and
 * "b" here).  Read from the dump, it spares a gdb symbol search; gdb is
 * asked for a bit not in this table or not among those names.
 */
static long th_iter_bit(const char *bit)
{
	static const struct {
		const char *bit, *opt;
	} opts[] = {
		{ "TRACE_ITER_PRINT_PARENT_BIT", "print-parent" },
		{ "TRACE_ITER_SYM_OFFSET_BIT", "sym-offset" },
		{ "TRACE_ITER_SYM_ADDR_BIT", "sym-addr" },
		{ "TRACE_ITER_VERBOSE_BIT", "verbose" },
		{ "TRACE_ITER_PRINTK_BIT", "trace_printk" },
		{ "TRACE_ITER_ANNOTATE_BIT", "annotate" },
		{ "TRACE_ITER_PRINTK_MSGONLY_BIT", "printk-msg-only" },
		{ "TRACE_ITER_CONTEXT_INFO_BIT", "context-info" },
		{ "TRACE_ITER_LATENCY_FMT_BIT", "latency-format" },
		{ "TRACE_ITER_RECORD_TGID_BIT", "record-tgid" },
		{ "TRACE_ITER_IRQ_INFO_BIT", "irq-info" },
		{ "TRACE_ITER_HASH_PTR_BIT", "hash-ptr" },
	};
	static char names[64][32];
	static int n = -1;
	unsigned i;
	int j;

	if (n < 0) {
		ulong arr = th_symbol("trace_options"), p;

		for (n = 0; arr && n < 64; n++) {
			if (!th_read_ulong(arr + n * sizeof(ulong), &p,
					   "trace_options[]") || !p ||
			    !th_read_cstr(p, names[n], sizeof(names[n]),
					  "trace_options[]"))
				break;
		}
	}
	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		if (strcmp(opts[i].bit, bit) != 0)
			continue;
		for (j = 0; j < n; j++)
			if (strcmp(names[j], opts[i].opt) == 0)
				return j;
		break;
	}
	return th_enum(bit, -1);
}

int th_tflag(struct th_tctx *t, const char *bit)
{
	/* Asked several times per entry: the bit numbers in a small cache
	 * found by the name's address first (th_enum() formats a key) */
	static struct {
		const char *name;
		long b;
	} c[32];
	static int n;
	long b;
	int i;

	for (i = 0; i < n; i++)
		if (c[i].name == bit && strcmp(c[i].name, bit) == 0)
			break;
	if (i < n)
		b = c[i].b;
	else {
		b = th_iter_bit(bit);
		if (n < 32) {
			c[n].name = bit;
			c[n].b = b;
			n++;
		}
	}
	return b >= 0 && b < 32 && (t->trace_flags & (1U << b));
}

static char *th_read_str(ulong p, char *buf, size_t len)
{
	if (!p || !th_read_cstr(p, buf, len, "string"))
		buf[0] = '\0';
	return buf;
}

int th_tctx_init(struct th_tctx *t, ulong tr)
{
	long o_flags = th_member("trace_array", "trace_flags");
	long o_clock = th_member("trace_array", "clock_id");
	long o_cur = th_member("trace_array", "current_trace");
	ulong cur = 0, np = 0, clocks = th_symbol("trace_clocks");
	int clock = 0, in_ns = 1;

	memset(t, 0, sizeof(*t));
	t->tr = tr;
	t->cpu_file = -1;
	if (o_flags >= 0)
		th_read_uint(tr + o_flags, &t->trace_flags, "trace_flags");
	if (o_clock >= 0)
		th_read_int(tr + o_clock, &clock, "clock_id");
	/* trace_clocks[] elements are { func, name, in_ns } */
	if (clocks && clock >= 0 && clock < 32 &&
	    th_read_int(clocks + clock * 3 * sizeof(ulong) + 2 * sizeof(ulong),
			&in_ns, "trace_clocks[].in_ns"))
		t->in_ns = in_ns;
	else
		t->in_ns = 1;
	strcpy(t->tracer_name, "nop");
	if (o_cur >= 0 && th_read_ulong(tr + o_cur, &cur, "current_trace") &&
	    cur && th_read_ulong(cur + th_member("tracer", "name"), &np,
				 "tracer.name"))
		th_read_str(np, t->tracer_name, sizeof(t->tracer_name));
	t->tracer = t->tracer_name;
	t->graph = strcmp(t->tracer_name, "function_graph") == 0;
	/* the bits every entry asks for, once */
	t->f_context = th_tflag(t, "TRACE_ITER_CONTEXT_INFO_BIT");
	t->f_irq = th_tflag(t, "TRACE_ITER_IRQ_INFO_BIT");
	t->f_printk_msgonly = th_tflag(t, "TRACE_ITER_PRINTK_BIT") &&
			      th_tflag(t, "TRACE_ITER_PRINTK_MSGONLY_BIT");
	t->f_hash_ptr = th_tflag(t, "TRACE_ITER_HASH_PTR_BIT");
	t->f_lat_fmt = th_tflag(t, "TRACE_ITER_LATENCY_FMT_BIT");
	/* TRACE_ITER_SYM_MASK: print-parent, sym-offset, sym-addr */
	t->sym_flags = (th_tflag(t, "TRACE_ITER_PRINT_PARENT_BIT") ? 4 : 0) |
		       (th_tflag(t, "TRACE_ITER_SYM_OFFSET_BIT") ? 1 : 0) |
		       (th_tflag(t, "TRACE_ITER_SYM_ADDR_BIT") ? 2 : 0);
	return TRUE;
}

void th_tctx_done(struct th_tctx *t)
{
	free(t->graph_state);
	t->graph_state = NULL;
}

/* trace_seq_print_sym() + kretprobed(): name (+off/size [mod]) */
void th_sym_plain(ulong ip, int offset, char *buf, size_t len)
{
	static ulong tramp = 1;
	struct th_sym s;

	if (tramp == 1) {
		/*
		 * kretprobed(): is_kretprobe_trampoline().  With
		 * CONFIG_KRETPROBE_ON_RETHOOK (73f9b911faa7 "kprobes: Use
		 * rethook for kretprobe if possible", with f3a112c0c40d for
		 * x86, v5.18) that is arch_rethook_trampoline; before, the
		 * kprobes trampoline (renamed with the __ prefix in v5.15).
		 */
		tramp = th_ksymbol("__kretprobe_trampoline");
		if (!tramp)
			tramp = th_ksymbol("kretprobe_trampoline");
		if (!tramp)
			tramp = th_ksymbol("arch_rethook_trampoline");
	}
	if (tramp && ip == tramp) {
		snprintf(buf, len, "[unknown/kretprobe'd]");
		return;
	}
	if (offset)
		th_ksym_pS(ip, buf, len);
	else if (th_ksym_lookup(ip, &s))
		th_strlcpy(buf, s.name, len);
	else
		buf[0] = '\0';
	if (!buf[0] || (offset && strncmp(buf, "0x", 2) == 0 &&
			!th_ksym_lookup(ip, &s)))
		snprintf(buf, len, "0x%08lx", ip);
}

/* seq_print_ip_sym() */
static int th_ip_sym(char *out, size_t len, ulong ip, int sym_offset,
		     int sym_addr)
{
	char name[384];

	if (!ip)
		return snprintf(out, len, "0");
	th_sym_plain(ip, sym_offset, name, sizeof(name));
	if (sym_addr)
		return snprintf(out, len, "%s <%016lx>", name, ip);
	return th_strlcpy(out, name, len);
}

/*
 * A function trace names the same few thousand addresses millions of
 * times: the text th_ip_sym() and th_ksym_ps() give each one, kept for
 * the session (the dump does not change) in an open-addressing table
 * that grows up to a fixed bound; past it, the text is made anew each time.
 */
#define TH_SYMC_MAX	(1U << 15)	/* entries, at most */
#define TH_SYMC_CHUNK	(64 * 1024)

enum { TH_SYMC_OFFSET = 1, TH_SYMC_ADDR = 2, TH_SYMC_PS = 4 };

/* One cache line a slot: the address, its mode and the text when short
 * (else a pointer into the arena). */
#define TH_SYMC_INLINE	52
struct th_symc {
	ulong ip;
	unsigned char tag;		/* mode + 1, 0: empty */
	unsigned char pad;
	unsigned short len;
	char in[TH_SYMC_INLINE];	/* the text, or its address */
} __attribute__((aligned(64)));
static struct th_symc *th_symc;
static unsigned th_symc_slots, th_symc_n;
static char *th_symc_arena;
static size_t th_symc_left;

static unsigned th_symc_hash(ulong ip, unsigned mode)
{
	return (unsigned)(((ip ^ mode) * 0x9e3779b97f4a7c15UL) >> 32);
}

static const char *th_symc_text(const struct th_symc *e)
{
	const char *p;

	if (e->len < TH_SYMC_INLINE)
		return e->in;
	memcpy(&p, e->in, sizeof(p));
	return p;
}

/* A copy of S (N bytes, NUL added) in the cache's arena, or NULL. */
static char *th_symc_store(const char *s, size_t n)
{
	char *p;

	if (n + 1 > th_symc_left) {
		th_symc_arena = malloc(TH_SYMC_CHUNK);
		if (!th_symc_arena) {
			th_symc_left = 0;
			return NULL;
		}
		th_symc_left = TH_SYMC_CHUNK;
	}
	p = th_symc_arena;
	memcpy(p, s, n);
	p[n] = '\0';
	th_symc_arena += n + 1;
	th_symc_left -= n + 1;
	return p;
}

/* Keep the text TMP (N bytes, NUL-terminated) in a cache slot's IN of
 * INL bytes: there when it fits, else a copy in the arena whose address
 * IN holds.  Where the text is kept; NULL when there is no memory. */
static const char *th_slot_keep(char *in, size_t inl, const char *tmp,
				size_t n)
{
	char *p;

	if (n < inl) {
		memcpy(in, tmp, n + 1);
		return in;
	}
	p = th_symc_store(tmp, n);
	if (p)
		memcpy(in, &p, sizeof(p));
	return p;
}

/* Twice the slots (at most 2 x TH_SYMC_MAX), the entries moved over;
 * FALSE when there is no memory (the old table stays). */
static int th_symc_grow(void)
{
	unsigned slots = th_symc_slots ? th_symc_slots * 2 : 4096, i, h;
	struct th_symc *t = aligned_alloc(64, slots * sizeof(*t));

	if (!t)
		return FALSE;
	memset(t, 0, slots * sizeof(*t));
	for (i = 0; i < th_symc_slots; i++) {
		if (!th_symc[i].tag)
			continue;
		h = th_symc_hash(th_symc[i].ip, th_symc[i].tag - 1);
		while (t[h & (slots - 1)].tag)
			h++;
		t[h & (slots - 1)] = th_symc[i];
	}
	free(th_symc);
	th_symc = t;
	th_symc_slots = slots;
	return TRUE;
}

static int th_ip_sym(char *out, size_t len, ulong ip, int sym_offset,
		     int sym_addr);

/* th_sym_cached() of an address not in the cache */
static const char * __attribute__((noinline))
th_sym_miss(ulong ip, unsigned mode, size_t *len, char *tmp)
{
	unsigned h, m, tag = mode + 1;
	struct th_symc *e;
	size_t n;

	if (mode & TH_SYMC_PS)
		th_ksym_ps(ip, tmp, 512);
	else
		th_ip_sym(tmp, 512, ip, mode & TH_SYMC_OFFSET,
			  mode & TH_SYMC_ADDR);
	n = strlen(tmp);
	*len = n;
	if (th_symc_n >= TH_SYMC_MAX)
		return tmp;
	/* at most half full: probes stay short and always end */
	if ((th_symc_n + 1) * 2 > th_symc_slots && !th_symc_grow())
		return tmp;
	m = th_symc_slots - 1;
	for (h = th_symc_hash(ip, mode) & m; th_symc[h].tag; h = (h + 1) & m)
		;
	e = &th_symc[h];
	if (!th_slot_keep(e->in, TH_SYMC_INLINE, tmp, n))
		return tmp;
	e->len = n;
	e->ip = ip;
	e->tag = tag;
	th_symc_n++;
	return th_symc_text(e);
}

/* The text for IP in MODE (TH_SYMC_*), as a 512-byte buffer holds it;
 * TMP (512 bytes) holds it when it cannot be kept. */
static inline const char *th_sym_cached(ulong ip, unsigned mode,
					size_t *len, char *tmp)
{
	unsigned h, m = th_symc_slots - 1, tag = mode + 1;

	if (th_symc_slots) {
		for (h = th_symc_hash(ip, mode) & m; th_symc[h].tag;
		     h = (h + 1) & m)
			if (th_symc[h].ip == ip && th_symc[h].tag == tag) {
				*len = th_symc[h].len;
				return th_symc_text(&th_symc[h]);
			}
	}
	return th_sym_miss(ip, mode, len, tmp);
}

const char *th_ksym_ps_cached(ulong addr, size_t *len)
{
	static char tmp[512];

	return th_sym_cached(addr, TH_SYMC_PS, len, tmp);
}

/* ------------------------------------------------------- printers --- */

struct th_sb {
	char *buf;
	size_t len, pos;
};

static void th_sb_printf(struct th_sb *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void th_sb_printf(struct th_sb *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->pos >= b->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->buf + b->pos, b->len - b->pos, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->pos += n;
	if (b->pos >= b->len)
		b->pos = b->len - 1;
}

/* th_sb_printf(b, "%s", s) for the N bytes of S (no NUL among them) */
static void th_sb_put(struct th_sb *b, const char *s, size_t n)
{
	size_t room;

	if (b->pos >= b->len)
		return;
	room = b->len - 1 - b->pos;
	if (n > room)
		n = room;
	memcpy(b->buf + b->pos, s, n);
	b->pos += n;
	b->buf[b->pos] = '\0';
}

static ulong th_get_ul(const unsigned char *ent, uint32_t len, unsigned off)
{
	ulong v = 0;

	if (off + sizeof(ulong) <= len)
		memcpy(&v, ent + off, sizeof(ulong));
	return v;
}

static char *th_bp_sym(uint64_t addr, char conv, char *buf, size_t len,
		       void *arg)
{
	if (conv == 'S')
		return th_ksym_pS(addr, buf, len);
	return th_ksym_ps(addr, buf, len);
}

static void th_print_kprobe(struct th_tctx *t, struct th_event *e,
			    struct th_sb *b, int sym_flags)
{
	const unsigned char *ent = t->ent, *data;
	char s1[512];
	int i;
	unsigned hdr;

	th_event_detail(e);
	th_sb_printf(b, "%s: (", e->name);
	if (e->kind == TH_EVK_KPROBE) {
		th_ip_sym(s1, sizeof(s1), th_get_ul(ent, t->len, 8), 1,
			  sym_flags & 2);
		th_sb_printf(b, "%s)", s1);
		hdr = 8 + sizeof(ulong);
	} else {
		/* kretprobe_trace_entry_head: func, ret_ip */
		th_ip_sym(s1, sizeof(s1), th_get_ul(ent, t->len, 16), 1,
			  sym_flags & 2);
		th_sb_printf(b, "%s <- ", s1);
		th_ip_sym(s1, sizeof(s1), th_get_ul(ent, t->len, 8), 0,
			  sym_flags & 2);
		th_sb_printf(b, "%s)", s1);
		hdr = 8 + 2 * sizeof(ulong);
	}
	data = ent + hdr;
	for (i = 0; i < e->nargs; i++) {
		struct th_probe_arg *a = &e->args[i];
		unsigned j, n = a->count ? a->count : 1;
		const unsigned char *p = data + a->offset;

		th_sb_printf(b, " %s=", a->name);
		if (a->count)
			th_sb_printf(b, "{");
		for (j = 0; j < n; j++, p += a->size) {
			const char *ty = a->type;
			uint64_t v = 0;
			unsigned sz = a->size > 8 ? 8 : a->size;

			if (p + (sz ? sz : 4) > ent + t->len) {
				th_sb_printf(b, "(truncated)");
				break;
			}
			memcpy(&v, p, sz);
			if (!strcmp(ty, "string") || !strcmp(ty, "ustring") ||
			    !strcmp(ty, "symstr")) {
				uint32_t loc;
				unsigned off, l;

				memcpy(&loc, p, 4);
				off = loc & 0xffff;
				l = loc >> 16;
				if (!l)
					th_sb_printf(b, "(fault)");
				else if (off + l > t->len)
					th_sb_printf(b, "(truncated)");
				else if (!strcmp(ty, "symstr"))
					th_sb_printf(b, "%.*s", (int)l,
						     ent + off);
				else
					th_sb_printf(b, "\"%.*s\"", (int)l,
						     ent + off);
			} else if (!strcmp(ty, "symbol")) {
				th_sb_printf(b, "%s",
					     th_ksym_pS(v, s1, sizeof(s1)));
			} else if (ty[0] == 'x') {
				th_sb_printf(b, "0x%llx", (unsigned long long)v);
			} else if (ty[0] == 's') {
				int64_t sv = sz == 1 ? (int8_t)v : sz == 2 ?
					     (int16_t)v : sz == 4 ? (int32_t)v :
					     (int64_t)v;
				th_sb_printf(b, "%lld", (long long)sv);
			} else if (!strcmp(ty, "char")) {
				th_sb_printf(b, "'%c'", (int)(v & 0xff));
			} else {
				th_sb_printf(b, "%llu", (unsigned long long)v);
			}
			if (a->count)
				th_sb_printf(b, "%c", j == n - 1 ? '}' : ',');
		}
	}
	th_sb_printf(b, "\n");
}

static void th_print_syscall(struct th_tctx *t, struct th_event *e,
			     struct th_sb *b)
{
	struct th_syscall_meta m;
	int i;

	if (!th_event_syscall(e, &m)) {
		th_sb_printf(b, "%s: (no syscall metadata)\n", e->name);
		return;
	}
	if (e->kind == TH_EVK_SYS_EXIT) {
		th_sb_printf(b, "%s -> 0x%lx\n", m.name,
			     th_get_ul(t->ent, t->len, 16));
		return;
	}
	th_sb_printf(b, "%s(", m.name);
	for (i = 0; i < m.nb_args && i < 6; i++)
		th_sb_printf(b, "%s: %lx%s", m.args[i],
			     th_get_ul(t->ent, t->len, 16 + i * sizeof(ulong)),
			     i == m.nb_args - 1 ? "" : ", ");
	th_sb_printf(b, ")\n");
}

/*
 * A tracepoint: "name: " and its print_fmt as trace_raw_output_*() prints
 * it; when the interpreter cannot, its fields one by one and a note.
 */
static void th_print_tracepoint(struct th_tctx *t, struct th_event *e,
				struct th_sb *b)
{
	static char out[8192];
	struct th_evfmt *f = th_event_detail(e);
	struct pf_field *pf;
	int n = -1;

	th_sb_printf(b, "%s: ", e->name);
	th_pfc.flags = t->f_hash_ptr ? 0 : PF_CTX_NO_HASH_PTR;
	if (f->pf) {
		n = pf_format(f->pf, t->ent, t->len, &th_pfc, out, 8192);
		if (n >= 0) {
			th_sb_printf(b, "%s\n", out);
			return;
		}
		snprintf(f->pf_err, sizeof(f->pf_err), "%.*s",
			 (int)sizeof(f->pf_err) - 1, out);
	}
	pf = th_pf_fields(e);
	pf_fields(pf, e->nfields, t->ent, t->len, &th_pfc, out, 8192);
	free(pf);
	th_sb_printf(b, "%s\n", out);
	if (!f->noted) {
		f->noted = TRUE;
		t->notes++;
		th_sb_printf(b, "# tracehunt: %s: print_fmt not interpreted "
			     "(%s): fields shown as name=value\n", e->name,
			     f->pf_err);
	}
}

void th_event_text(struct th_tctx *t, char *buf, size_t len)
{
	struct th_sb b = { buf, len, 0 };
	const unsigned char *ent = t->ent;
	unsigned type = th_ent_type(ent);
	int sym_flags = 0;
	struct th_event *e;
	char s1[512];

	buf[0] = '\0';
	th_trace_types();
	sym_flags = t->sym_flags;

	if (type == th_ttypes.fn) {
		ulong ip = th_get_ul(ent, t->len, 8);
		ulong parent = th_get_ul(ent, t->len, 8 + sizeof(ulong));
		unsigned mode = sym_flags & 3;	/* TH_SYMC_OFFSET, _ADDR */
		const char *s;
		size_t l;

		s = th_sym_cached(ip, mode, &l, s1);
		th_sb_put(&b, s, l);
		if ((sym_flags & 4) && parent) {
			th_sb_put(&b, " <-", 3);
			s = th_sym_cached(parent, mode, &l, s1);
			th_sb_put(&b, s, l);
		}
		th_sb_put(&b, "\n", 1);
	} else if (type == th_ttypes.print) {
		unsigned off = 8 + sizeof(ulong);
		int max = t->len > off ? t->len - off : 0;
		const char *s = (const char *)ent + off;

		th_ip_sym(s1, sizeof(s1), th_get_ul(ent, t->len, 8),
			  sym_flags & 1, sym_flags & 2);
		if (t->msg_only)
			th_sb_printf(&b, "%.*s", (int)strnlen(s, max), s);
		else
			th_sb_printf(&b, "%s: %.*s", s1, (int)strnlen(s, max),
				     s);
	} else if (type == th_ttypes.bprint) {
		unsigned off = 8 + 2 * sizeof(ulong);
		ulong fmtp = th_get_ul(ent, t->len, 8 + sizeof(ulong));
		struct bprint_opts o = { sizeof(ulong), 0, th_bp_sym, NULL };
		char fmt[1024], *out = malloc(4096);

		th_ip_sym(s1, sizeof(s1), th_get_ul(ent, t->len, 8),
			  sym_flags & 1, sym_flags & 2);
		if (!t->msg_only)
			th_sb_printf(&b, "%s: ", s1);
		if (!th_read_cstr(fmtp, fmt, sizeof(fmt), "bprint fmt"))
			th_sb_printf(&b, "(bprint format %lx unreadable)\n",
				     fmtp);
		else {
			bprint_format(fmt, ent + off,
				      t->len > off ? t->len - off : 0, &o,
				      out, 4096);
			th_sb_printf(&b, "%s", out);
		}
		free(out);
	} else if (type == th_ttypes.bputs) {
		ulong str = th_get_ul(ent, t->len, 8 + sizeof(ulong));
		char *s = malloc(4096);

		th_ip_sym(s1, sizeof(s1), th_get_ul(ent, t->len, 8),
			  sym_flags & 1, sym_flags & 2);
		if (!th_read_cstr(str, s, 4096, "bputs str"))
			snprintf(s, 4096, "(bputs string %lx unreadable)\n",
				 str);
		if (t->msg_only)
			th_sb_printf(&b, "%s", s);
		else
			th_sb_printf(&b, "%s: %s", s1, s);
		free(s);
	} else if (type == th_ttypes.stack) {
		/* trace_stack_print(): callers up to ULONG_MAX or the end */
		long o = th_member("stack_entry", "caller");
		unsigned off;

		th_sb_printf(&b, "<stack trace>\n");
		for (off = o > 0 ? o : 16; off + sizeof(ulong) <= t->len;
		     off += sizeof(ulong)) {
			ulong ip = th_get_ul(ent, t->len, off);

			if (!ip || ip == ~0UL)
				break;
			th_ip_sym(s1, sizeof(s1), ip, sym_flags & 1,
				  sym_flags & 2);
			th_sb_printf(&b, " => %s\n", s1);
		}
	} else if ((e = th_event_by_type(type)) != NULL) {
		switch (e->kind) {
		case TH_EVK_KPROBE:
		case TH_EVK_KRETPROBE:
			th_print_kprobe(t, e, &b, sym_flags);
			break;
		case TH_EVK_SYS_ENTER:
		case TH_EVK_SYS_EXIT:
			th_print_syscall(t, e, &b);
			break;
		default:
			th_print_tracepoint(t, e, &b);
			break;
		}
	} else
		th_sb_printf(&b, "Unknown type %u\n", type);
}

struct th_ob th_ob;
FILE *th_ob_sink;

void th_ob_flush(void)
{
	if (!th_ob.n)
		return;
	if (th_ob_sink) {
		/* past fp's own buffer (whatever it holds goes first):
		 * the lines are copied once less */
		fflush_unlocked(fp);
		fwrite_unlocked(th_ob.b, 1, th_ob.n, th_ob_sink);
	} else
		fwrite_unlocked(th_ob.b, 1, th_ob.n, fp);
	th_ob.n = 0;
}

void th_ob_reset(void)
{
	th_ob.n = 0;
}

void th_ob_put(const char *s, size_t n)
{
	if (n > TH_OB_SIZE - th_ob.n) {
		th_ob_flush();
		if (n > TH_OB_SIZE) {
			fwrite_unlocked(s, 1, n, fp);
			return;
		}
	}
	memcpy(th_ob.b + th_ob.n, s, n);
	th_ob.n += n;
}

static const char th_digits2[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

/* "000".."999", four bytes each: the microseconds of a time stamp in two
 * pieces (th_context_cols()). */
static char th_digits3[4000];

static void th_digits3_init(void)
{
	int i;

	for (i = 0; i < 1000; i++) {
		th_digits3[i * 4] = '0' + i / 100;
		memcpy(th_digits3 + i * 4 + 1, th_digits2 + i % 100 * 2, 2);
	}
}

char *th_put_udec(char *p, unsigned long long v, int width, char pad)
{
	char d[24], *q = d + sizeof(d);
	int n;

	while (v >= 100) {
		q -= 2;
		memcpy(q, th_digits2 + (v % 100) * 2, 2);
		v /= 100;
	}
	if (v >= 10) {
		q -= 2;
		memcpy(q, th_digits2 + v * 2, 2);
	} else
		*--q = '0' + v;
	n = d + sizeof(d) - q;
	for (; width > n; width--)
		*p++ = pad;
	memcpy(p, q, n);
	return p + n;
}

/* "%16s-%-7d " of the pid's saved comm: a direct-mapped cache (the same
 * few pids name millions of entries; the dump does not change). */
#define TH_PIDCOL_CACHE 1024
static struct {
	int pid, valid, len;
	char s[40];
} th_pidcol[TH_PIDCOL_CACHE];

static const char *th_pid_column(int pid, int *len)
{
	unsigned h = (unsigned)pid % TH_PIDCOL_CACHE;

	if (!th_pidcol[h].valid || th_pidcol[h].pid != pid) {
		char comm[32];
		int n;

		th_find_cmdline(pid, comm);
		n = snprintf(th_pidcol[h].s, sizeof(th_pidcol[h].s),
			     "%16s-%-7d ", comm, pid);
		if (n < 0 || n >= (int)sizeof(th_pidcol[h].s)) {
			/* cannot happen: comm is at most 15 bytes */
			*len = 0;
			return "";
		}
		th_pidcol[h].len = n;
		th_pidcol[h].pid = pid;
		th_pidcol[h].valid = TRUE;
	}
	*len = th_pidcol[h].len;
	return th_pidcol[h].s;
}

/*
 * The columns before the time stamp ("comm-pid [cpu] flags") depend on
 * the pid, the CPU and two bytes of the entry, which stay the same for
 * long runs of a CPU's entries and then mostly come back (interrupts off
 * and on, preemption counts): the last few of each CPU are kept.
 */
#define TH_PREFIX_WAYS	4
struct th_prefix {
	/* flags | pc << 8 | pid << 16 | irq-info << 48 | 1 << 49 | cpu << 50:
	 * one compare an entry (th_context_at()); 0: unused */
	uint64_t key;
	int len;
	char s[64];
};
static struct th_prefix_set {
	unsigned last, next;		/* the way hit last; replaced next */
	struct th_prefix w[TH_PREFIX_WAYS];
} th_prefix[64];

static void th_prefix_make(struct th_tctx *t, struct th_prefix *x, int pid,
			   uint64_t key)
{
	const char *col;
	char *p = x->s;
	int n;

	col = th_pid_column(pid, &n);
	memcpy(p, col, n);
	p += n;
	/* "[%03d] " */
	*p++ = '[';
	if (t->cpu >= 0 && t->cpu < 1000) {
		*p++ = '0' + t->cpu / 100;
		memcpy(p, th_digits2 + t->cpu % 100 * 2, 2);
		p += 2;
	} else
		p += snprintf(p, 16, "%03d", t->cpu);
	*p++ = ']';
	*p++ = ' ';
	if (t->f_irq)
		p += th_lat_str(t->ent, p);
	x->len = p - x->s;
	x->key = key;
}

/* The prefix of PID and KEY on T's CPU: another kept way, or made anew
 * in place of the oldest one. */
static struct th_prefix * __attribute__((noinline))
th_prefix_find(struct th_tctx *t, struct th_prefix_set *ps, int pid,
	       uint64_t key)
{
	struct th_prefix *x;
	unsigned i;

	for (i = 0; i < TH_PREFIX_WAYS; i++) {
		x = &ps->w[i];
		if (x->key == key) {
			ps->last = i;
			return x;
		}
	}
	i = ps->next;
	ps->next = (i + 1) % TH_PREFIX_WAYS;
	ps->last = i;
	x = &ps->w[i];
	th_prefix_make(t, x, pid, key);
	return x;
}

/*
 * The context columns of trace_print_context() into P, their end: of the
 * entry ENT at TS on CPU, with the irq-info bit F_IRQ and a clock that
 * counts nanoseconds (IN_NS).  T's entry fields are set from these when a
 * prefix is made anew.  Values, not T's fields, so that a caller's loop
 * keeps them in registers across the stores into th_ob.
 */
static inline __attribute__((always_inline)) char *
th_context_at(struct th_tctx *t, char *p, const unsigned char *ent,
	      uint64_t ts, int cpu, int f_irq, int in_ns)
{
	/* the seconds of the last time stamp, formatted */
	static unsigned long long last_sec = ~0ULL;
	static char sec[24];
	static int sec_len;
	uint64_t key;
	struct th_prefix_set *ps = &th_prefix[cpu & 63];
	struct th_prefix *x = &ps->w[ps->last];

	/* the entry's flags, preempt count and pid (bytes 2-7) */
	memcpy(&key, ent, sizeof(key));
	key = key >> 16 | (uint64_t)f_irq << 48 | 1ULL << 49 |
	      (uint64_t)(unsigned)cpu << 50;
	if (x->key != key) {
		t->ent = ent;
		t->ts = ts;
		x = th_prefix_find(t, ps, th_ent_pid(ent), key);
	}
	if (x->len <= 48)
		memcpy(p, x->s, 48);
	else
		memcpy(p, x->s, x->len);
	p += x->len;
	if (in_ns) {
		/* " %5llu.%06llu" of the time in microseconds, rounded */
		unsigned long long us = (ts + 500) / 1000;
		unsigned long long s = us / 1000000;
		unsigned u = us % 1000000;

		if (s != last_sec) {
			sec[0] = ' ';
			sec_len = th_put_udec(sec + 1, s, 5, ' ') - sec;
			sec[sec_len++] = '.';
			last_sec = s;
		}
		if (sec_len <= 16)
			memcpy(p, sec, 16);
		else
			memcpy(p, sec, sec_len);
		p += sec_len;
		if (!th_digits3[0])
			th_digits3_init();
		/* four bytes each, the fourth overwritten next */
		memcpy(p, th_digits3 + u / 1000 * 4, 4);
		memcpy(p + 3, th_digits3 + u % 1000 * 4, 4);
		p += 6;
	} else {
		*p++ = ' ';
		p = th_put_udec(p, ts, 12, ' ');
	}
	*p++ = ':';
	*p++ = ' ';
	return p;
}

/* The context columns of T's entry into P; their end. */
static inline __attribute__((always_inline)) char *
th_context_cols(struct th_tctx *t, char *p)
{
	return th_context_at(t, p, t->ent, t->ts, t->cpu, t->f_irq, t->in_ns);
}

enum { TH_CTX = 128, TH_TEXT = 8192 };
static void th_print_other(struct th_tctx *t, unsigned type);

/*
 * The function tracer's text after the context columns, "ip <-parent\n",
 * is the same for a few thousand (ip, parent) pairs among millions of
 * entries: kept whole for the session, keyed by the pair and the
 * sym-offset/sym-addr/print-parent bits, one lookup and one copy an
 * entry.  Two cache lines a slot, the second read only for a text of
 * more than 44 bytes; a longer one than the slot holds lives in an arena.
 */
#define TH_FNC_MAX	(1U << 14)	/* entries, at most */
#define TH_FNC_INLINE	108
struct th_fnc {
	ulong ip, parent;
	unsigned short len;
	unsigned char tag;		/* mode + 1, 0: empty */
	unsigned char pad;
	char in[TH_FNC_INLINE];		/* the text, or its address */
} __attribute__((aligned(128)));
static struct th_fnc *th_fnc;
static unsigned th_fnc_slots, th_fnc_n;

static inline unsigned th_fnc_hash(ulong ip, ulong parent, unsigned mode)
{
	return (unsigned)(((ip ^ (parent * 0xff51afd7ed558ccdUL) ^ mode) *
			   0x9e3779b97f4a7c15UL) >> 32);
}

/* th_symc_grow() of the pairs' table (at most 2 x TH_FNC_MAX slots) */
static int th_fnc_grow(void)
{
	unsigned slots = th_fnc_slots ? th_fnc_slots * 2 : 4096, i, h;
	struct th_fnc *t = aligned_alloc(128, slots * sizeof(*t));

	if (!t)
		return FALSE;
	memset(t, 0, slots * sizeof(*t));
	for (i = 0; i < th_fnc_slots; i++) {
		struct th_fnc *e = &th_fnc[i];

		if (!e->tag)
			continue;
		h = th_fnc_hash(e->ip, e->parent, e->tag - 1);
		while (t[h & (slots - 1)].tag)
			h++;
		t[h & (slots - 1)] = *e;
	}
	free(th_fnc);
	th_fnc = t;
	th_fnc_slots = slots;
	return TRUE;
}

/* th_fnc_text() of a pair not in the cache: made from the names'
 * own cache, kept when there is room.  TMP holds 1040 bytes. */
static const char * __attribute__((noinline))
th_fnc_miss(ulong ip, ulong parent, unsigned mode, size_t *len, char *tmp)
{
	static char t1[512];
	struct th_fnc *e;
	const char *s;
	size_t l, n;
	unsigned h, m;

	s = th_sym_cached(ip, mode & 3, &l, t1);
	memcpy(tmp, s, l);
	n = l;
	if ((mode & 4) && parent) {
		memcpy(tmp + n, " <-", 3);
		s = th_sym_cached(parent, mode & 3, &l, t1);
		memcpy(tmp + n + 3, s, l);
		n += 3 + l;
	}
	tmp[n++] = '\n';
	tmp[n] = '\0';
	*len = n;
	if (th_fnc_n >= TH_FNC_MAX ||
	    ((th_fnc_n + 1) * 2 > th_fnc_slots && !th_fnc_grow()))
		return tmp;
	m = th_fnc_slots - 1;
	for (h = th_fnc_hash(ip, parent, mode) & m; th_fnc[h].tag;
	     h = (h + 1) & m)
		;
	e = &th_fnc[h];
	s = th_slot_keep(e->in, TH_FNC_INLINE, tmp, n);
	if (!s)
		return tmp;
	e->ip = ip;
	e->parent = parent;
	e->len = n;
	e->tag = mode + 1;
	th_fnc_n++;
	return s;
}

/* The text of (IP, PARENT) in MODE (sym_flags), its length in *LEN.  A
 * text of at most 96 bytes is followed by readable bytes up to 96. */
static inline const char *th_fnc_text(ulong ip, ulong parent, unsigned mode,
				      size_t *len, char *tmp)
{
	unsigned h, m = th_fnc_slots - 1, tag = mode + 1;

	if (th_fnc_slots) {
		for (h = th_fnc_hash(ip, parent, mode) & m; th_fnc[h].tag;
		     h = (h + 1) & m) {
			const struct th_fnc *e = &th_fnc[h];

			if (e->ip == ip && e->parent == parent &&
			    e->tag == tag) {
				const char *p;

				*len = e->len;
				if (e->len < TH_FNC_INLINE)
					return e->in;
				memcpy(&p, e->in, sizeof(p));
				return p;
			}
		}
	}
	return th_fnc_miss(ip, parent, mode, len, tmp);
}

/* The function tracer's line of T's entry (trace_fn_trace() after the
 * context columns), as th_print_other() makes it through
 * th_event_text(): two names of at most 511 bytes fit in TH_TEXT. */
static inline __attribute__((always_inline)) char *
th_fn_text_at(char *p, const unsigned char *ent, unsigned mode)
{
	static char tmp[1040];
	ulong ip, parent;
	const char *s;
	size_t l;

	memcpy(&ip, ent + 8, sizeof(ulong));
	memcpy(&parent, ent + 8 + sizeof(ulong), sizeof(ulong));
	s = th_fnc_text(ip, parent, mode, &l, tmp);
	/* a fixed copy when short (see th_fnc_text()) */
	if (l <= 64)
		memcpy(p, s, 64);
	else if (l <= 96)
		memcpy(p, s, 96);
	else
		memcpy(p, s, l);
	return p + l;
}

static inline __attribute__((always_inline)) void
th_fn_line(struct th_tctx *t)
{
	char *p = th_context_cols(t, th_ob_reserve(TH_CTX + TH_TEXT));

	th_ob_commit(th_fn_text_at(p, t->ent, t->sym_flags & 7));
}

/* Whether th_print_entry() prints T's entry (of TYPE) by th_fn_line(). */
static inline int th_fn_fast(const struct th_tctx *t, unsigned type)
{
	return type == th_ttypes.fn && t->f_context &&
	       t->len >= 8 + 2 * sizeof(ulong) &&
	       (!t->annotate ||
		(t->cpu < 64 && (t->started & (1UL << t->cpu))));
}

/* print_trace_fmt() with trace_print_context(): each line assembled in
 * place in th_ob */
void th_print_entry(struct th_tctx *t)
{
	unsigned type = th_ent_type(t->ent);

	t->idx++;
	if (th_fn_fast(t, type)) {
		th_fn_line(t);
		return;
	}
	th_print_other(t, type);
}

/*
 * th_print_entry() of C's current entry and of the entries after it in
 * its sub-buffer, read straight from the sub-buffer, while each is a
 * plain data record (rb_iter_next_quick()) of the function tracer that
 * th_print_entry() would print by th_fn_line(), older than LIM (as old:
 * while TIE).  That is most of a function trace, without a pass through
 * th_rb_cpu_peek() and the merge of the CPUs for every entry.  FALSE,
 * nothing done, when C's current entry is not such an entry; else it is
 * consumed (c->have cleared) and the first record not taken is left for
 * th_rb_cpu_peek().
 */
int th_print_fn_run(struct th_tctx *t, struct th_rbcpu *c, uint64_t lim,
		    int tie)
{
	enum { LINE = TH_CTX + TH_TEXT };
	/* copies of the iterator and its page, which the stores into
	 * th_ob cannot alias: kept in registers */
	struct rb_page pg = *c->it.pg;
	struct rb_iter it = c->it;
	struct rb_event ev;
	const unsigned char *ent = c->ev.payload;
	uint64_t ts = c->ev.ts;
	uint32_t len = c->ev.len;
	unsigned fn = th_ttypes.fn, mode = t->sym_flags & 7;
	int cpu = c->cpu, f_irq = t->f_irq, in_ns = t->in_ns;
	char *out, *end = th_ob.b + TH_OB_SIZE;
	long n = 0;

	t->cpu = cpu;
	t->ts = ts;
	t->ent = ent;
	t->len = len;
	if (!th_fn_fast(t, th_ent_type(ent)))
		return FALSE;
	c->have = FALSE;
	it.pg = &pg;
	out = th_ob_reserve(LINE);
	for (;;) {
		n++;
		if (end - out < LINE) {
			th_ob_commit(out);
			out = th_ob_reserve(LINE);
		}
		out = th_context_at(t, out, ent, ts, cpu, f_irq, in_ns);
		out = th_fn_text_at(out, ent, mode);
		/* the next record, taken only if it is another such entry
		 * (th_fn_fast() holds for the same CPU and type) */
		if (!rb_iter_peek_quick(&it, &ev) ||
		    ev.len < 8 + 2 * sizeof(ulong) ||
		    th_ent_type(ev.payload) != fn ||
		    ev.ts > lim || (ev.ts == lim && !tie))
			break;
		rb_iter_take(&it, &ev);
		ent = ev.payload;
		ts = ev.ts;
		len = ev.len;
	}
	th_ob_commit(out);
	t->idx += n;
	t->ts = ts;
	t->ent = ent;
	t->len = len;
	c->it.off = it.off;
	c->it.ts = it.ts;
	return TRUE;
}

/* th_print_entry() of everything but the function tracer's entries, out
 * of its way: the function tracer's line is most of a big buffer, and
 * made with fewer registers to save alone. */
static void __attribute__((noinline))
th_print_other(struct th_tctx *t, unsigned type)
{
	char *p, *line;

	th_trace_types();	/* th_ttypes below */
	/* print_trace_line(): printk-msg-only prints the bare message */
	if ((type == th_ttypes.bputs || type == th_ttypes.bprint ||
	     type == th_ttypes.print) && t->f_printk_msgonly) {
		line = th_ob_reserve(TH_TEXT);
		t->msg_only = TRUE;
		th_event_text(t, line, TH_TEXT);
		t->msg_only = FALSE;
		th_ob_commit(line + strlen(line));
		return;
	}
	/* test_cpu_buff_start() */
	if (t->annotate && t->cpu < 64 && !(t->started & (1UL << t->cpu))) {
		t->started |= 1UL << t->cpu;
		if (t->idx > 1) {
			line = th_ob_reserve(64);
			th_ob_commit(line + sprintf(line, "##### CPU %u buffer "
						    "started ####\n", t->cpu));
		}
	}
	p = th_ob_reserve(TH_CTX + TH_TEXT);
	if (t->f_context)
		p = th_context_cols(t, p);
	th_event_text(t, p, TH_TEXT);
	/* fputs() of the text: up to its first NUL */
	th_ob_commit(p + strlen(p));
}
