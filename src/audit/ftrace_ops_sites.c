/*
 * tracehunt: "ftrace sites": the instruction actually at every dyn_ftrace
 * call site, decoded and checked against what the record says.
 *
 * A record with FTRACE_FL_ENABLED must hold "call X" where X is what
 * ftrace_get_addr_curr() computes (a direct target, the trampoline of the
 * one ops tracing it, ftrace_regs_caller or ftrace_caller); any other
 * record must hold the 5-byte NOP.  Anything else is a mismatch: bytes
 * changed behind ftrace's back, or a record that lies.
 */
#include "audit/ftrace_ops_sites.h"
#include "model/bpf.h"
#include "render/ftrace_text.h"
#include "render/json.h"
#include "insn.h"

#define SITE_BYTES	5	/* MCOUNT_INSN_SIZE on x86 */

struct site_count {
	long records, enabled, patched, mismatches, unreadable, shown;
	long unknown;
	long endbr;
};

/* What a call or jmp target is, in ftrace's terms; TRUE when it is one of
 * ftrace's own (a caller, a trampoline, a direct target). */
static int site_role(struct thf_state *s, const struct thf_rec *r, ulong t,
		     char *buf, size_t len)
{
	const struct thf_opstr *os;
	char b[300], b2[300];
	ulong d = 0;
	int i;

	if (t && t == s->ftrace_caller) {
		snprintf(buf, len, "ftrace_caller%s", thf_static_arrow(s, 0));
		return TRUE;
	}
	if (t && t == s->ftrace_regs_caller) {
		snprintf(buf, len, "ftrace_regs_caller%s",
			 thf_static_arrow(s, 1));
		return TRUE;
	}
	if ((i = thf_ops_by_tramp(s, t)) >= 0 && (os = thf_ops_str(s, i))) {
		const struct thf_ops *op = &s->ops[i];

		if (t != op->trampoline) {
			snprintf(buf, len, "inside the trampoline %s of ops "
				 "%lx (+0x%lx)", os->tramp, op->addr,
				 t - op->trampoline);
			return FALSE;
		}
		/* The trampoline calls the ops' func, or a helper in front
		 * of it: ftrace_ops_assist_func for an ops that is not
		 * recursion safe before Linux kernel commit a25d036d939a
		 * ("ftrace: Reverse what the RECURSION flag means in the
		 * ftrace_ops") (in v5.11).  Name the func then, as
		 * enabled_functions does. */
		if (strncmp(os->arrow, " ->", 3) == 0 &&
		    strcmp(os->arrow + 3, os->func) != 0)
			snprintf(buf, len, "tramp: %s (ops %lx: %s)%s",
				 os->tramp, op->addr, os->func, os->arrow);
		else
			snprintf(buf, len, "tramp: %s (ops %lx)%s", os->tramp,
				 op->addr, os->arrow);
		return TRUE;
	}
	if (thf_hash_has(&s->direct, r->ip, &d) && d && (d & ~1UL) == t) {
		snprintf(buf, len, "direct%s-->%s", d & 1 ? "(jmp)" : "",
			 th_ksym_pS(t, b, sizeof(b)));
		return TRUE;
	}
	{
		struct th_owner o;

		th_owner_of(t, &o);
		snprintf(buf, len, "%s, %s", th_ksym_pS(t, b, sizeof(b)),
			 th_owner_str(&o, b2, sizeof(b2)));
	}
	return FALSE;
}

static void site_flags(struct thf_state *s, const struct thf_rec *r,
		       char *buf, size_t len)
{
	const struct thf_recfl *f = &s->fl;

	snprintf(buf, len, "(%lu)%s%s%s%s%s%s%s", r->flags & f->ref_mask,
		 r->flags & f->enabled ? " E" : "",
		 r->flags & f->regs ? " R" : "",
		 f->ipmodify && (r->flags & f->ipmodify) ? " I" : "",
		 f->tramp_en && (r->flags & f->tramp_en) ? " T" : "",
		 f->direct_en && (r->flags & f->direct_en) ? " D" : "",
		 f->call_ops_en && (r->flags & f->call_ops_en) ? " O" : "",
		 f->disabled && (r->flags & f->disabled) ? " X" : "");
}

/* One checked record, as a line shows it. */
struct site_line {
	const char *verdict;
	char sym[400], fl[64], role[1000], why[400], hex[20];
	struct insn in;
	ulong target;		/* the call's or jmp's, 0 when none */
	ulong expect;		/* where the record says it should call */
};

static void site_print(const struct thf_rec *r, const struct site_line *l)
{
	fprintf(fp, "%-8s  %lx  %s  %s  %s  %s%s%s%s%s\n", l->verdict, r->ip,
		l->sym, l->fl, l->hex, l->in.text, l->role[0] ? "  " : "",
		l->role, l->why[0] ? "  -- " : "", l->why);
}

static void site_json(struct thf_state *s, const struct thf_rec *r,
		      const struct site_line *l)
{
	th_json_nl();
	th_json_obj();
	th_json_kstr("verdict", l->verdict);
	th_json_kaddr("ip", r->ip);
	th_json_kstr("symbol", l->sym);
	th_json_kuint("refcount", r->flags & s->fl.ref_mask);
	th_json_kuint("flags", r->flags);
	th_json_kstr("flag_letters", l->fl);
	th_json_key("bytes");
	th_json_str(strcmp(l->hex, "-") ? l->hex : NULL);
	th_json_kstr("instruction", l->in.text);
	th_json_key("target");
	th_json_code(l->target);
	th_json_key("role");
	th_json_str(l->role[0] ? l->role : NULL);
	th_json_key("expected");
	th_json_code(l->expect);
	th_json_key("why");
	th_json_str(l->why[0] ? l->why : NULL);
	th_json_obj_end();
}

/* Check one record; print it when it is to be shown. */
/* A jmp at the site: ok when it is the direct trampoline the record
 * jumps to (direct(jmp)); else a detour.  Whether it is bad. */
static int site_jmp(struct thf_state *s, const struct thf_rec *r,
		    struct site_line *l, int enabled, struct site_count *c,
		    ulong *expect)
{
	const char *exp_why = "";

	l->target = l->in.target;
	site_role(s, r, l->in.target, l->role, sizeof(l->role));
	*expect = thf_expected_target(s, r, &exp_why);
	if (enabled && l->in.target == *expect &&
	    !strcmp(exp_why, "direct(jmp)")) {
		c->patched++;
		return 0;
	}
	*expect = 0;
	if (!enabled && th_bpf_dispatcher_jump(r->ip, l->in.target)) {
		/* bpf_dispatcher_update()'s poke, its record disabled
		 * (model/bpf_dispatcher.c) */
		char b[300];

		snprintf(l->role, sizeof(l->role), "dispatcher-->%s",
			 th_ksym_pS(l->in.target, b, sizeof(b)));
		snprintf(l->why, sizeof(l->why), "the XDP BPF dispatcher's "
			 "jump to its image");
		return 0;
	}
	snprintf(l->why, sizeof(l->why), "a jmp at an ftrace site (optprobe "
		 "or detour)");
	return 1;
}

static void site_check(struct thf_state *s, const struct thf_rec *r,
		       int show_all, struct site_count *c, int json)
{
	unsigned char b[SITE_BYTES], pre[4];
	struct site_line line, *l = &line;
	const char *exp_why = "", *verdict = "ok";
	int enabled = !!(r->flags & s->fl.enabled), bad = 0, show = show_all;
	struct th_sym ks;
	ulong expect = 0;

	c->records++;
	if (enabled)
		c->enabled++;
	if (thf_text_read(r->ip - 4, pre, 4) && insn_is_endbr(pre, 4))
		c->endbr++;
	l->role[0] = l->why[0] = '\0';
	l->target = 0;
	if (!thf_text_read(r->ip, b, SITE_BYTES)) {
		c->unreadable++;
		verdict = "UNREADABLE";
		snprintf(l->in.text, sizeof(l->in.text), "-");
		strcpy(l->hex, "-");
		snprintf(l->why, sizeof(l->why),
			 "the site's text is not in the dump");
		show = TRUE;
		goto print;
	}
	snprintf(l->hex, sizeof(l->hex), "%02x %02x %02x %02x %02x", b[0],
		 b[1], b[2], b[3], b[4]);
	if (insn_nop_run(b, SITE_BYTES, SITE_BYTES) == SITE_BYTES) {
		snprintf(l->in.text, sizeof(l->in.text), "nop");
		if (enabled) {
			bad = 1;
			snprintf(l->why, sizeof(l->why), "the record is "
				 "enabled (refcount %lu) but the site is a NOP",
				 r->flags & s->fl.ref_mask);
		}
	} else {
		insn_decode(b, SITE_BYTES, r->ip, &l->in);
		show = TRUE;
		switch (l->in.kind) {
		case INSN_CALL:
			c->patched++;
			l->target = l->in.target;
			site_role(s, r, l->in.target, l->role, sizeof(l->role));
			expect = thf_expected_target(s, r, &exp_why);
			if (!enabled) {
				bad = 1;
				snprintf(l->why, sizeof(l->why), "the record "
					 "is not enabled but the site calls out");
			} else if (l->in.target != expect && s->ops_err &&
				   (r->flags & s->fl.tramp_en) &&
				   strcmp(exp_why, "trampoline") != 0) {
				/* its ops may be the one the damaged list
				 * lost: not known to be wrong */
				c->unknown++;
				verdict = "UNKNOWN";
				snprintf(l->why, sizeof(l->why), "the record "
					 "uses an ops trampoline and ftrace_ops_list "
					 "is damaged (%s at %lx)", s->ops_err,
					 s->ops_bad);
			} else if (l->in.target != expect) {
				char e[300];

				bad = 1;
				snprintf(l->why, sizeof(l->why), "the record "
					 "says %s %s", exp_why,
					 th_ksym_pS(expect, e, sizeof(e)));
			}
			break;
		case INSN_JMP:
			bad = site_jmp(s, r, l, enabled, c, &expect);
			break;
		case INSN_INT3:
			bad = 1;
			snprintf(l->why, sizeof(l->why), "int3 at an ftrace "
				 "site (kprobe without ftrace, or text_poke "
				 "caught mid-way)");
			break;
		default:
			bad = 1;
			snprintf(l->why, sizeof(l->why), "neither the ftrace "
				 "NOP nor a call");
			break;
		}
	}
	if (bad) {
		c->mismatches++;
		verdict = "MISMATCH";
		show = TRUE;
		/* what ftrace says was read from data that failed checks */
		if (th_damage_seen() && strlen(l->why) + 32 < sizeof(l->why))
			strcat(l->why, " [rests on damaged data]");
	}
print:
	if (!show)
		return;
	c->shown++;
	if (th_ksym_lookup(r->ip, &ks)) {
		if (ks.module[0])
			snprintf(l->sym, sizeof(l->sym), "%s+0x%lx [%s]",
				 ks.name, ks.offset, ks.module);
		else
			snprintf(l->sym, sizeof(l->sym), "%s+0x%lx",
				 ks.name, ks.offset);
	} else {
		/* as enabled_functions' "%ps" names it (a module that
		 * unlinked itself: no symbol) */
		snprintf(l->sym, sizeof(l->sym), "0x%lx", r->ip);
	}
	site_flags(s, r, l->fl, sizeof(l->fl));
	l->verdict = verdict;
	l->expect = expect;
	if (json)
		site_json(s, r, l);
	else
		site_print(r, l);
}

static void site_totals_json(const struct site_count *c)
{
	th_json_key("totals");
	th_json_obj();
	th_json_kint("records", c->records);
	th_json_kint("enabled", c->enabled);
	th_json_kint("patched", c->patched);
	th_json_kint("mismatches", c->mismatches);
	th_json_kint("unreadable", c->unreadable);
	th_json_kint("unknown", c->unknown);
	th_json_kint("after_endbr64", c->endbr);
	th_json_kint("shown", c->shown);
	th_json_obj_end();
}

static int site_selected(struct thf_state *s, const struct thf_rec *r,
			 struct site_opts *o)
{
	int i;

	if (o->module) {
		struct th_module *m = th_module_of(r->ip);

		if (!m || strcmp(m->name, o->module) != 0)
			return FALSE;
	}
	if (!o->nsyms && !o->nnames)
		return TRUE;
	for (i = 0; i < o->nsyms; i++)
		if (r->ip >= o->sym[i] &&
		    r->ip <= o->sym[i] + (ulong)s->max_offset) {
			o->symhits[i]++;
			return TRUE;
		}
	if (o->nnames) {
		struct th_sym ks;

		/* names crash does not know (a hidden module's): compare
		 * with the kernel's own symbol of every record */
		if (th_ksym_lookup(r->ip, &ks) &&
		    ks.offset <= (ulong)s->max_offset)
			for (i = 0; i < o->nnames; i++)
				if (strcmp(ks.name, o->symname[i]) == 0) {
					o->namehits[i]++;
					return TRUE;
				}
	}
	return FALSE;
}

/* -m MODULE names a module the dump knows (listed, on the tree, or found
 * in module memory) */
static int site_module_known(const char *name)
{
	struct th_module *mods;
	int n = th_modules(&mods), i;

	for (i = 0; i < n; i++)
		if (strcmp(mods[i].name, name) == 0)
			return TRUE;
	return FALSE;
}

/* The arguments that matched no record. */
static void site_unmatched(const struct site_opts *o)
{
	char msg[400];
	int i;

	if (o->json) {
		th_json_key("unmatched");
		th_json_arr();
	}
	for (i = 0; i < o->nsyms + o->nnames; i++) {
		if (i < o->nsyms && !o->symhits[i])
			snprintf(msg, sizeof(msg), "%s: no dyn_ftrace record "
				 "at %lx: not traceable by ftrace",
				 o->symarg[i], o->sym[i]);
		else if (i >= o->nsyms && !o->namehits[i - o->nsyms])
			snprintf(msg, sizeof(msg), "%s: no such symbol with "
				 "a dyn_ftrace record: not traceable by "
				 "ftrace", o->symname[i - o->nsyms]);
		else
			continue;
		if (o->json)
			th_json_str(msg);
		else
			fprintf(fp, "ftrace sites: %s\n", msg);
	}
	if (o->json)
		th_json_arr_end();
}

/**
 * th_sites_begin - what "ftrace sites" needs before its arguments
 * @o: the options (-m is checked here)
 *
 * Return: the state, or NULL when there is nothing to check (a line says
 * why).
 */
struct thf_state *th_sites_begin(const struct site_opts *o)
{
	struct thf_state *s = thf_load();
	char msg[200];

	if (o->json)
		th_json_begin("ftrace sites");
	if (!s) {
		if (!o->json)
			thf_load_why();
		snprintf(msg, sizeof(msg), "ftrace: %s", thf_load_reason());
	} else if (o->module && !site_module_known(o->module)) {
		snprintf(msg, sizeof(msg), "ftrace sites: no module \"%s\" "
			 "(listed or on the module tree)", o->module);
		if (!o->json)
			fprintf(fp, "%s\n", msg);
	} else {
		return s;
	}
	if (o->json) {
		th_json_kstr("error", msg);
		th_json_end();
	}
	return NULL;
}

/**
 * th_sites_report - "ftrace sites": every selected call site checked
 * @s: th_sites_begin()'s state
 * @o: the selection (glue/cmd_ops.c parses it); its hit counts are kept
 */
void th_sites_report(struct thf_state *s, struct site_opts *o)
{
	struct site_count c;
	long k;

	memset(&c, 0, sizeof(c));
	if (o->json) {
		th_json_key("sites");
		th_json_arr();
	}
	for (k = 0; k < s->nrec; k++)
		if (site_selected(s, &s->rec[k], o))
			site_check(s, &s->rec[k],
				   o->all || o->nsyms || o->nnames, &c,
				   o->json);
	if (o->json) {
		th_json_nl();
		th_json_arr_end();
	}
	site_unmatched(o);
	thf_warn_damage(s);
	if (o->json) {
		site_totals_json(&c);
		th_json_end();
		return;
	}
	fprintf(fp, "%ld records, %ld enabled, %ld patched, %ld mismatches",
		c.records, c.enabled, c.patched, c.mismatches);
	if (c.unreadable)
		fprintf(fp, ", %ld unreadable", c.unreadable);
	if (c.unknown)
		fprintf(fp, ", %ld unknown", c.unknown);
	if (c.endbr)
		fprintf(fp, "; %ld site%s at function+4 after endbr64",
			c.endbr, c.endbr == 1 ? "" : "s");
	else
		fprintf(fp, "; sites at function+0 (no endbr64)");
	fprintf(fp, "%s\n", th_damage_seen() ? "; these counts rest on "
		"damaged data (the warnings)" : "");
}
