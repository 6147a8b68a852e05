/*
 * tracehunt: an entry's text after the context columns, as the kernel's
 * funcs->trace prints it (trace_output.c): the kernel's own entries
 * (function, print, bprint, bputs, stack), kprobes with their arguments,
 * syscalls, and tracepoints through their print_fmt.
 */
#include "render/trace_priv.h"
#include "model/handoff.h"
#include "model/trace_entries.h"
#include "model/ptr_key.h"
#include "model/trace_opts.h"
#include "model/vma.h"
#include "model/path.h"
#include "model/trace_eprobe.h"
#include "model/user_event.h"
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

/* th_pf_sym() of a helper thread, made on crash's thread */
struct th_pf_sym_call {
	uint64_t addr;
	int with_offset, ret;
	char *buf;
	size_t len;
};

static int th_pf_sym(void *priv, uint64_t addr, int with_offset, char *buf,
		     size_t len);

static void th_pf_sym_served(void *arg)
{
	struct th_pf_sym_call *c = arg;

	c->ret = th_pf_sym(NULL, c->addr, c->with_offset, c->buf, c->len);
}

static int th_pf_sym(void *priv, uint64_t addr, int with_offset, char *buf,
		     size_t len)
{
	struct th_sym s;

	if (th_on_helper()) {
		struct th_pf_sym_call c = { addr, with_offset, -1, buf, len };

		return th_handoff_call(th_pf_sym_served, &c) ? c.ret : -1;
	}

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
	return th_event_enum(name, val) ? 0 : -1;
}

struct pf_ctx th_pfc = {
	.long_size = sizeof(long),
	.sym = th_pf_sym,
	.read_str = th_pf_str,
	.ident = th_pf_ident,
};

/* crash reads dumps of its own byte order only: the records are in the
 * host's (lib/printfmt decodes either) */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define TH_PF_ENDIAN	PF_CTX_BIG_ENDIAN
#else
#define TH_PF_ENDIAN	0
#endif

/* How "%p" prints: hashed with the kernel's ptr_key (read once), as
 * "(____ptrval____)" before it was filled, raw with no_hash_pointers or
 * without the hash-ptr option. */
static unsigned th_pf_ptr_flags(struct th_tctx *t)
{
	const struct th_ptr_key *k = th_ptr_key();

	if (!t->f_hash_ptr || k->state == TH_PTRKEY_NOHASH)
		return PF_CTX_NO_HASH_PTR;
	if (k->state == TH_PTRKEY_UNFILLED)
		return PF_CTX_PTR_KEY_UNSET;
	if (k->state != TH_PTRKEY_FILLED)
		return 0;
	th_pfc.ptr_key[0] = k->key[0];
	th_pfc.ptr_key[1] = k->key[1];
	return PF_CTX_HAVE_PTR_KEY;
}

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

/*
 * A synthetic event's print_fmt (set_synth_event_print_fmt(), for tools)
 * joins its "name=fmt" pairs with ", "; print_synth_event() prints them
 * with the same formats joined by a space.  Field names hold no ", ".
 */
static void th_synth_fmt(char *text)
{
	char *p = strchr(text, '"'), *w;

	if (!p)
		return;
	for (w = ++p; *p && *p != '"'; p++) {
		if (*p == '\\' && p[1]) {
			*w++ = *p++;
			*w++ = *p;
			continue;
		}
		if (p[0] == ',' && p[1] == ' ')
			p++;
		*w++ = *p;
	}
	memmove(w, p, strlen(p) + 1);
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
	if (e->kind == TH_EVK_SYNTH)
		th_synth_fmt(text);
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

	if (f->loaded) {
		/* a probe's arguments that failed a check: the warnings in
		 * each command that prints its records */
		if (e->args_bad)
			th_event_probe_args(e);
		return f;
	}
	f->loaded = TRUE;
	if (e->kind == TH_EVK_KPROBE || e->kind == TH_EVK_KRETPROBE ||
	    e->kind == TH_EVK_UPROBE || e->kind == TH_EVK_EPROBE)
		th_event_probe_args(e);
	else {
		th_event_fields(e);
		if (e->kind == TH_EVK_TRACEPOINT || e->kind == TH_EVK_SYNTH)
			th_pf_load(e, f);
	}
	return f;
}

/* ------------------------------------------------------- printers --- */

static char *th_bp_sym(uint64_t addr, char conv, char *buf, size_t len,
		       void *arg)
{
	if (conv == 'S')
		return th_ksym_pS(addr, buf, len);
	return th_ksym_ps(addr, buf, len);
}

/* trace_probe_print_args(): the fetch arguments at ENT + HDR, then the
 * end of the line. */
static void th_print_probe_args(struct th_tctx *t, struct th_event *e,
				struct th_sb *b, unsigned hdr)
{
	const unsigned char *ent = t->ent, *data;
	char s1[512];
	int i;

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
			/* symstr prints as a string: quoted */
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
			} else if (a->hex) {
				th_sb_printf(b, "%llx", (unsigned long long)v);
			} else {
				th_sb_printf(b, "%llu", (unsigned long long)v);
			}
			if (a->count)
				th_sb_printf(b, "%c", j == n - 1 ? '}' : ',');
		}
	}
	th_sb_printf(b, "\n");
}


static void th_print_kprobe(struct th_tctx *t, struct th_event *e,
			    struct th_sb *b, int sym_flags)
{
	const unsigned char *ent = t->ent;
	char s1[512];
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
	th_print_probe_args(t, e, b, hdr);
}

/* Whether the uprobe event E is a return probe: its fields are
 * __probe_func and __probe_ret_ip (uprobe_event_define_fields()). */
static int th_uprobe_is_ret(struct th_event *e)
{
	int i;

	th_event_fields(e);
	for (i = 0; i < e->nfields; i++)
		if (strcmp(e->fields[i].name, "__probe_ret_ip") == 0)
			return TRUE;
	return FALSE;
}

/* print_uprobe_event(): "(0x%lx)", or "(0x%lx <- 0x%lx)" of vaddr[1]
 * and vaddr[0] for a return probe */
static void th_print_uprobe(struct th_tctx *t, struct th_event *e,
			    struct th_sb *b)
{
	th_event_detail(e);
	if (th_uprobe_is_ret(e)) {
		th_sb_printf(b, "%s: (0x%lx <- 0x%lx)", e->name,
			     th_get_ul(t->ent, t->len, 8 + sizeof(ulong)),
			     th_get_ul(t->ent, t->len, 8));
		th_print_probe_args(t, e, b, 8 + 2 * sizeof(ulong));
	} else {
		th_sb_printf(b, "%s: (0x%lx)", e->name,
			     th_get_ul(t->ent, t->len, 8));
		th_print_probe_args(t, e, b, 8 + sizeof(ulong));
	}
}

/* print_eprobe_event(): "(SYSTEM.EVENT)" of the event probed */
static void th_print_eprobe(struct th_tctx *t, struct th_event *e,
			    struct th_sb *b)
{
	char src[192];

	th_event_detail(e);
	if (!th_eprobe_source(e->call, src, sizeof(src)))
		snprintf(src, sizeof(src), "?");
	th_sb_printf(b, "%s: (%s)", e->name, src);
	th_print_probe_args(t, e, b, 8);
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

	th_sb_put(b, e->name, strlen(e->name));
	th_sb_put(b, ": ", 2);
	th_pfc.flags = TH_PF_ENDIAN | th_pf_ptr_flags(t);
	/* (a synthetic event prints by itself) */
	if (t->first_s_empty && e->kind != TH_EVK_SYNTH)
		th_pfc.flags |= PF_CTX_FIRST_S_EMPTY;
	if (f->pf) {
		n = pf_format(f->pf, t->ent, t->len, &th_pfc, out, 8192);
		if (n >= 0) {
			/* "%s\n": the text up to a NUL it may hold */
			th_sb_put(b, out, strlen(out));
			th_sb_put(b, "\n", 1);
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

struct th_typeslot th_typeslots[TH_TYPE_SLOTS];

/* C for E, a tracepoint's event (C zeroed): when its print_fmt compiled */
static void th_tpc_fill(struct th_tpc *c, struct th_event *e)
{
	struct th_evfmt *f = th_event_detail(e);

	if (!f->pf)
		return;
	c->e = e;
	c->f = f;
	c->name_len = strlen(e->name);
	c->nul_free = pf_nul_free(f->pf);
}

struct th_typeslot_call {
	struct th_typeslot *s;
	unsigned type;
};

static void th_typeslot_served(void *arg)
{
	struct th_typeslot_call *c = arg;

	th_typeslot_fill(c->s, c->type);
}

/* (a helper thread's miss is filled on crash's thread; crash's thread
 * replaces a slot of another type only once the helper is done with
 * what it was given, which may need it) */
void __attribute__((noinline)) th_typeslot_fill(struct th_typeslot *s,
						unsigned type)
{
	struct th_event *e;

	if (th_on_helper()) {
		struct th_typeslot_call c = { s, type };

		if (!th_handoff_call(th_typeslot_served, &c)) {
			/* stopped: an empty slot of this type */
			memset(s, 0, sizeof(*s));
			s->type = type;
		}
		return;
	}
	if (s->type)
		th_handoff_quiesce();

	memset(s, 0, sizeof(*s));
	s->type = type;
	/* th_event_text()'s ways to th_print_syscall() and
	 * th_print_tracepoint(), the kernel's own types first */
	if (th_type_is_core(type) || !(e = th_event_by_type(type)))
		return;
	if (e->kind == TH_EVK_SYS_ENTER || e->kind == TH_EVK_SYS_EXIT)
		th_sysc_fill(&s->sc, e);
	else if (e->kind == TH_EVK_TRACEPOINT || e->kind == TH_EVK_SYNTH)
		th_tpc_fill(&s->tp, e);
}

/*
 * th_tracepoint_text_at - T's entry as th_event_text() prints it, when it
 * is a tracepoint's whose print_fmt compiled, written at P
 * @t: the entry, with neither the "fields" option nor the previous
 *     boot's addresses (which the caller checks)
 * @c: its type's slot (th_tpc_of())
 * @p: where the text goes, TH_TEXT bytes of room
 *
 * Return: the end of the text (no NUL written), or NULL, nothing kept,
 * when th_print_tracepoint() prints it (an error, a text that may have
 * been cut).
 */
char *th_tracepoint_text_at(struct th_tctx *t, const struct th_tpc *c,
			    char *p)
{
	enum { OUT = 8192 };		/* th_print_tracepoint()'s out */
	size_t room;
	char *q;
	int n;

	/* the room left after "name: " with the newline's byte */
	if (!c->e || c->name_len + 2 + 1 + 2 > TH_TEXT)
		return NULL;
	room = TH_TEXT - c->name_len - 2 - 1;
	if (room > OUT)
		room = OUT;
	memcpy(p, c->e->name, c->name_len);
	q = p + c->name_len;
	*q++ = ':';
	*q++ = ' ';
	th_pfc.flags = TH_PF_ENDIAN | th_pf_ptr_flags(t);
	if (t->first_s_empty && c->e->kind != TH_EVK_SYNTH)
		th_pfc.flags |= PF_CTX_FIRST_S_EMPTY;
	n = pf_format(c->f->pf, t->ent, t->len, &th_pfc, q, room);
	/* (a text that fills the room may have been cut) */
	if (n < 0 || (size_t)n + 1 >= room)
		return NULL;
	/* "%s\n": the text up to a NUL it may hold */
	q += c->nul_free ? (size_t)n : strnlen(q, n);
	*q++ = '\n';
	return q;
}

/* The mm of the process TGID as trace_user_stack_print() finds it for
 * sym-userobj (find_task_by_vpid(), get_task_mm()): the last one kept */
static ulong th_userobj_mm(int tgid)
{
	static int last_tgid = -1;
	static ulong last_mm;

	if (tgid != last_tgid) {
		last_tgid = tgid;
		last_mm = th_task_mm(th_task_leader(tgid));
	}
	return last_mm;
}

/* seq_print_user_ip() of IP in MM (0: none): "PATH[+0xOFF]" of the file
 * its vma maps, and " <%016lx>" with sym-addr or without a file */
static void th_user_ip(struct th_tctx *t, struct th_sb *b, ulong mm,
		       ulong ip)
{
	struct th_vma v;
	char path[TH_PATH_MAX];
	int ok = TRUE, file = FALSE;

	if (mm && th_find_vma(mm, ip, &v) && v.file) {
		file = TRUE;
		ok = th_file_path(v.file, path, sizeof(path));
		if (ok)
			th_sb_printf(b, "%s[+0x%lx]", path, ip - v.start);
	}
	if (ok && ((t->sym_flags & 2) || !file))
		th_sb_printf(b, " <%016lx>", ip);
}

/* trace_user_stack_print(): " => " and seq_print_user_ip() per caller up
 * to the first 0; with sym-userobj through the process's mappings */
static void th_print_user_stack(struct th_tctx *t, struct th_sb *b)
{
	long o = th_userstack_caller_off(), to = th_userstack_tgid_off();
	unsigned off, tgid = 0;
	ulong mm = 0;

	th_sb_printf(b, "<user stack trace>\n");
	if (t->f_userobj && to >= 0 && (uint32_t)to + 4 <= t->len) {
		memcpy(&tgid, t->ent + to, 4);
		mm = th_userobj_mm((int)tgid);
	}
	for (off = o > 0 ? o : 16; off + sizeof(ulong) <= t->len;
	     off += sizeof(ulong)) {
		ulong ip = th_get_ul(t->ent, t->len, off);

		if (!ip)
			break;
		th_sb_printf(b, " => ");
		th_user_ip(t, b, mm, ip);
		th_sb_printf(b, "\n");
	}
}

/* TRACE_RAW_DATA (trace_marker_raw), -1 when the kernel has none */
long th_raw_data_type(void)
{
	static long type = -2;

	if (type == -2)
		type = th_trace_type("TRACE_RAW_DATA");
	return type;
}

/* trace_raw_data(): "# %x buf:" and " %02x" of every byte of the entry
 * after buf's offset */
static void th_print_raw_data(struct th_tctx *t, struct th_sb *b)
{
	long io = th_raw_data_off(0), bo = th_raw_data_off(1);
	unsigned id = 0;
	uint32_t i;

	if (io < 0 || bo < 0 || (uint32_t)bo > t->len ||
	    (uint32_t)io + 4 > t->len) {
		th_sb_printf(b, "(raw_data entry layout unknown)\n");
		return;
	}
	memcpy(&id, t->ent + io, 4);
	th_sb_printf(b, "# %x buf:", id);
	for (i = bo; i < t->len; i++)
		th_sb_printf(b, " %02x", t->ent[i]);
	th_sb_printf(b, "\n");
}

/* A bprint entry's message: its arguments through the format it points
 * at (trace_bprint_print()). */
static void th_bprint_text(struct th_tctx *t, struct th_sb *b)
{
	unsigned off = 8 + 2 * sizeof(ulong);
	ulong fmtp = th_get_ul(t->ent, t->len, 8 + sizeof(ulong));
	struct bprint_opts o = { sizeof(ulong), 0, th_bp_sym, NULL };
	char fmt[1024], *out;

	if (!th_read_cstr(fmtp, fmt, sizeof(fmt), "bprint fmt")) {
		th_sb_printf(b, "(bprint format %lx unreadable)\n", fmtp);
		th_damaged("bprint event", fmtp, "its format cannot be read");
		return;
	}
	/* trace_printk() takes the bprint path only with arguments, so its
	 * format has a conversion; the kernel would print an empty one as
	 * it is */
	if (!fmt[0])
		th_damaged("bprint event", fmtp, "its format is an empty "
			   "string");
	out = malloc(4096);
	if (!out)
		return;
	bprint_format(fmt, t->ent + off, t->len > off ? t->len - off : 0, &o,
		      out, 4096);
	th_sb_printf(b, "%s", out);
	free(out);
}

/* The kernel's isprint() (lib/ctype.c: Latin-1 above 0xa0 too) and
 * isascii() */
static int th_kisprint(unsigned char c)
{
	return (c >= 0x20 && c <= 0x7e) || c >= 0xa0;
}

static int th_kisascii(unsigned char c)
{
	return c <= 0x7f;
}

/* print_array(): the bytes of a __data_loc (REL: __rel_loc, relative to
 * the end of the field F) array at OFF of T's entry */
static void th_fields_array(struct th_tctx *t, const struct th_event_field *f,
			    int rel, struct th_sb *b)
{
	unsigned int loc = 0, off, len, i;

	memcpy(&loc, t->ent + f->offset, 4);
	off = (loc & 0xffff) + (rel ? f->offset + 4 : 0);
	len = loc >> 16;
	if (off + len > t->len) {
		th_sb_printf(b, "<OVERFLOW>");
		return;
	}
	for (i = 0; i < len; i++)
		th_sb_printf(b, "%s%02x", i ? "," : "", t->ent[off + i]);
}

/* print_fields(): a __data_loc or __rel_loc string */
static void th_fields_dyn_string(struct th_tctx *t,
				 const struct th_event_field *f, int rel,
				 struct th_sb *b)
{
	unsigned int loc = 0, off, len, i;
	const char *str;

	memcpy(&loc, t->ent + f->offset, 4);
	off = (loc & 0xffff) + (rel ? f->offset + 4 : 0);
	len = loc >> 16;
	if (off + len > t->len) {
		th_sb_printf(b, "<OVERFLOW>");
		return;
	}
	str = (const char *)t->ent + off;
	for (i = 0; i < len; i++)
		if (str[i] && !(th_kisascii(str[i]) && th_kisprint(str[i])))
			break;
	if (i == len) {
		th_sb_printf(b, "%.*s", (int)len, str);
		return;
	}
	for (i = 0; i < len; i++)
		th_sb_printf(b, "%c", th_kisascii(str[i]) &&
			     th_kisprint(str[i]) ? str[i] : '.');
	th_sb_printf(b, " (");
	/* (a char: one above 0x7f prints as a negative int) */
	for (i = 0; i < len; i++)
		th_sb_printf(b, "%s%02x", i ? ":" : "", (signed char)str[i]);
	th_sb_printf(b, ")");
}

/* print_fields(): a FILTER_OTHER or FILTER_CPU field of SIZE bytes at P */
static void th_fields_other(struct th_tctx *t, const struct th_event_field *f,
			    struct th_sb *b)
{
	const unsigned char *p = t->ent + f->offset;
	unsigned short u16;
	unsigned int u32;
	unsigned long long u64;
	char s1[512];

	switch (f->size) {
	case 1:
		if (th_kisprint(p[0]))
			th_sb_printf(b, "'%c'", p[0]);
		th_sb_printf(b, "(%d)", p[0]);
		break;
	case 2:
		memcpy(&u16, p, 2);
		th_sb_printf(b, "0x%x (%d)", u16, u16);
		break;
	case 4:
		if (strstr(f->type, "__data_loc")) {
			th_fields_array(t, f, FALSE, b);
			break;
		}
		if (strstr(f->type, "__rel_loc")) {
			th_fields_array(t, f, TRUE, b);
			break;
		}
		memcpy(&u32, p, 4);
		/* offsets from _stext (later than the probe's commit) */
		if (th_fields_v615() && (!strcmp(f->name, "caller_offs") ||
					!strcmp(f->name, "parent_offs")))
			th_sb_printf(b, "%s ", th_ksym_pS(th_adjust(t, u32 +
					th_symbol("_stext")), s1, sizeof(s1)));
		th_sb_printf(b, "0x%x (%d)", u32, (int)u32);
		break;
	case 8:
		memcpy(&u64, p, 8);
		if (!th_fields_v615()) {
			th_sb_printf(b, "0x%llx (%lld)", u64, (long long)u64);
			break;
		}
		u64 = th_adjust(t, (ulong)u64);
		th_sb_printf(b, "%s (%lld)", th_ksym_pS((ulong)u64, s1,
							 sizeof(s1)),
			     (long long)u64);
		break;
	default:
		th_sb_printf(b, "<INVALID-SIZE>");
	}
}

/* print_fields(): one field, after its " NAME=" */
static void th_fields_one(struct th_tctx *t, const struct th_event_field *f,
			  struct th_sb *b)
{
	const char *p = (const char *)t->ent + f->offset;
	char s1[512];
	ulong v;

	switch (f->ftype) {
	case TH_FT_COMM:
	case TH_FT_STATIC_STRING:
		th_sb_printf(b, "%.*s", f->size, p);
		break;
	case TH_FT_DYN_STRING:
	case TH_FT_RDYN_STRING:
		th_fields_dyn_string(t, f, f->ftype == TH_FT_RDYN_STRING, b);
		break;
	case TH_FT_PTR_STRING:
		if (th_fields_v615()) {
			/* "(0x%px:%s)" of the field's place in the kernel's
			 * own copy of the entry: an address the dump does
			 * not keep */
			th_sb_printf(b, "(tracehunt: a string pointer, printed "
				     "with the address of the kernel's copy of "
				     "the entry)");
			break;
		}
		/* before v6.15: "(0x%px)" of the pointer, with ":%s" of the
		 * string when strncpy_from_kernel_nofault() could read it
		 * (not a user address; into iter->fmt, 128 bytes) */
		memcpy(&v, p, sizeof(v));
		/* (x86-64: copy_from_kernel_nofault_allowed() refuses the
		 * user half and the non-canonical hole) */
		if (v >= 0xffff800000000000UL &&
		    th_read_cstr(v, s1, 128, "string field"))
			th_sb_printf(b, "(0x%016lx:%s)", v, s1);
		else
			th_sb_printf(b, "(0x%016lx)", v);
		break;
	case TH_FT_TRACE_FN:
		memcpy(&v, p, sizeof(v));
		th_sb_printf(b, "%s", th_ksym_pS(th_adjust(t, v), s1,
						 sizeof(s1)));
		break;
	case TH_FT_CPU:
	case TH_FT_OTHER:
		th_fields_other(t, f, b);
		break;
	default:
		th_sb_printf(b, "<INVALID-TYPE>");
	}
}

/*
 * print_trace_fmt(): while an array holds a previous boot's trace and
 * the kernel's text moved since (text_delta), an event of a type above
 * __TRACE_LAST_TYPE but the syscalls' is printed by its fields
 * (print_event_fields(): its print_fmt may name what moved): the
 * class's fields (not the common ones), each " NAME=" and its value.
 */
static int th_by_fields(struct th_tctx *t, struct th_event *e,
			unsigned type, struct th_sb *b)
{
	long last;
	int i;

	/* a user event: user_event_print_trace() is print_event_fields()
	 * (Linux kernel commit 4bec284cc0b9 ("tracing/user_events: Use
	 * print_format_fields() for trace output") (in v6.4); before it a
	 * hex dump, of the ABI model/user_event.c does not read) */
	if (e->kind == TH_EVK_USER && !th_user_events_ok()) {
		th_sb_printf(b, "(tracehunt: a user event: %s)\n",
			     th_user_events_why());
		return TRUE;
	}
	if (e->kind == TH_EVK_USER)
		goto by_fields;
	/* print_trace_fmt(): every event by its fields with the option
	 * "fields"; those of a trace event (not a syscall's) where the
	 * array has a text delta */
	if ((!t->f_fields && (!t->text_delta || e->kind == TH_EVK_SYS_ENTER ||
			      e->kind == TH_EVK_SYS_EXIT)) ||
	    (last = th_trace_type("__TRACE_LAST_TYPE")) < 0 ||
	    (long)type <= last)
		return FALSE;
by_fields:
	th_event_fields(e);
	th_sb_printf(b, "%s:", e->name);
	if (e->nfields <= e->nfields_common) {
		th_sb_printf(b, "No fields found\n");
		return TRUE;
	}
	for (i = e->nfields_common; i < e->nfields; i++) {
		const struct th_event_field *f = &e->fields[i];

		th_sb_printf(b, " %s=", f->name);
		if (f->offset < 0 || f->size < 0 ||
		    (unsigned)(f->offset + f->size) > t->len)
			th_sb_printf(b, "<OVERFLOW>");
		else
			th_fields_one(t, f, b);
	}
	th_sb_printf(b, "\n");
	return TRUE;
}

void th_event_text(struct th_tctx *t, char *buf, size_t len)
{
	struct th_sb b = { buf, len, 0, FALSE };
	const unsigned char *ent = t->ent;
	unsigned type = th_ent_type(ent);
	int sym_flags = 0;
	struct th_event *e = NULL;
	char s1[512];

	buf[0] = '\0';
	th_trace_types();
	sym_flags = t->sym_flags;

	if (type == th_ttypes.fn) {
		/* print_fn_trace() */
		ulong ip = th_adjust(t, th_get_ul(ent, t->len, 8));
		ulong parent = th_adjust(t, th_get_ul(ent, t->len,
						      8 + sizeof(ulong)));
		unsigned mode = sym_flags & 3;	/* TH_SYMC_OFFSET, _ADDR */
		const char *s;
		size_t l;

		s = th_sym_text(ip, mode, &l, s1);
		th_sb_put(&b, s, l);
		/* print_fn_trace(): the arguments when the entry holds them */
		if (t->len >= t->fn_args_len) {
			char args[512];
			size_t n = th_fn_args_text(ip, ent, t->len, FALSE, args,
						   sizeof(args));

			th_sb_put(&b, args, n);
		}
		if ((sym_flags & 4) && parent) {
			th_sb_put(&b, " <-", 3);
			s = th_sym_text(parent, mode, &l, s1);
			th_sb_put(&b, s, l);
		}
		th_sb_put(&b, "\n", 1);
	} else if (type == th_ttypes.print) {
		unsigned off = 8 + sizeof(ulong);
		int max = t->len > off ? t->len - off : 0;
		const char *s = (const char *)ent + off;

		/* trace_print_print(): its ip mapped */
		th_ip_sym(s1, sizeof(s1),
			  th_adjust(t, th_get_ul(ent, t->len, 8)),
			  sym_flags & 1, sym_flags & 2);
		if (t->msg_only)
			th_sb_printf(&b, "%.*s", (int)strnlen(s, max), s);
		else
			th_sb_printf(&b, "%s: %.*s", s1, (int)strnlen(s, max),
				     s);
	} else if (type == th_ttypes.bprint) {
		th_ip_sym(s1, sizeof(s1), th_get_ul(ent, t->len, 8),
			  sym_flags & 1, sym_flags & 2);
		if (!t->msg_only)
			th_sb_printf(&b, "%s: ", s1);
		th_bprint_text(t, &b);
	} else if (type == th_ttypes.bputs) {
		ulong str = th_get_ul(ent, t->len, 8 + sizeof(ulong));
		char *s = malloc(4096);

		th_ip_sym(s1, sizeof(s1), th_get_ul(ent, t->len, 8),
			  sym_flags & 1, sym_flags & 2);
		if (!th_read_cstr(str, s, 4096, "bputs str"))
			snprintf(s, 4096, "(bputs string %lx unreadable)\n",
				 str);
		if (t->msg_only && (!t->graph || th_graph_bputs_msg_only()))
			th_sb_printf(&b, "%s", s);
		else
			th_sb_printf(&b, "%s: %s", s1, s);
		free(s);
	} else if (type == th_ttypes.stack) {
		/* trace_stack_print(): callers up to ULONG_MAX or the end */
		long o = th_stack_caller_off();
		unsigned off;

		th_sb_printf(&b, "<stack trace>\n");
		for (off = o > 0 ? o : 16; off + sizeof(ulong) <= t->len;
		     off += sizeof(ulong)) {
			ulong ip = th_get_ul(ent, t->len, off);

			if (!ip || ip == ~0UL)
				break;
			th_ip_sym(s1, sizeof(s1), th_adjust(t, ip),
				  sym_flags & 1, sym_flags & 2);
			th_sb_printf(&b, " => %s\n", s1);
		}
	} else if (type == th_ttypes.user_stack) {
		th_print_user_stack(t, &b);
	} else if ((long)type == th_raw_data_type()) {
		th_print_raw_data(t, &b);
	} else if (th_lat_entry_text(t, type, &b)) {
		;	/* render/lat_text.c */
	} else if ((e = th_event_by_type(type)) != NULL &&
		   !th_by_fields(t, e, type, &b)) {
		switch (e->kind) {
		case TH_EVK_KPROBE:
		case TH_EVK_KRETPROBE:
			th_print_kprobe(t, e, &b, sym_flags);
			break;
		case TH_EVK_UPROBE:
			th_print_uprobe(t, e, &b);
			break;
		case TH_EVK_EPROBE:
			th_print_eprobe(t, e, &b);
			break;
		case TH_EVK_SYS_ENTER:
		case TH_EVK_SYS_EXIT:
			th_print_syscall(t, e, &b);
			break;
		default:	/* TRACEPOINT, SYNTH */
			th_print_tracepoint(t, e, &b);
			break;
		}
	} else if (!e)
		th_sb_printf(&b, "Unknown type %u\n", type);
}
