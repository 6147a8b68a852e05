/*
 * tracehunt: "hooks" — every mechanism that diverts kernel control flow,
 * in one table with a verdict per finding:
 *
 *   ok          core kernel or core tracing infrastructure
 *   note        a module on the module list
 *   suspicious  unexplained (code in no known place, text that differs
 *               from the vmlinux on disk without a reason)
 *   HIDDEN      code or data in module space that no listed module covers
 */
#include "glue/commands.h"
#include "tracefs/tracefs.h"
#include "tracefs/kprobes.h"
#include "tracefs/kprobe_events.h"
#include "model/ftrace_ops.h"
#include "audit/textcheck.h"

enum hk_verdict { HK_OK, HK_NOTE, HK_SUSPICIOUS, HK_HIDDEN, HK_NVERDICT };
static const char *const hk_vname[] = { "ok", "note", "suspicious",
					"HIDDEN" };

struct hk_finding {
	const char *kind;
	ulong target;
	char target_str[320];
	ulong handler;
	char handler_str[192];
	struct th_owner owner;
	char owner_str[192];
	enum hk_verdict verdict;
	char why[512];
	unsigned char bytes[16];	/* text findings */
	int nbytes;
};

static struct hk_finding *hk_f;
static long hk_n, hk_cap;

static struct hk_finding *hk_new(const char *kind)
{
	struct hk_finding *f;

	if (hk_n >= hk_cap) {
		hk_cap = hk_cap ? hk_cap * 2 : 256;
		hk_f = realloc(hk_f, hk_cap * sizeof(*hk_f));
	}
	f = &hk_f[hk_n++];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	return f;
}

/* Where the handler of a hook lives decides the default verdict. */
static void hk_judge(struct hk_finding *f, ulong handler, const char *what)
{
	struct thf_state *s = thf_load();
	int t;

	f->handler = handler;
	th_ksym_pS(handler, f->handler_str, sizeof(f->handler_str));
	if (s && handler && (t = thf_ops_by_tramp(s, handler)) >= 0) {
		/* an ftrace trampoline: judged by the ops that owns it */
		f->owner.kind = TH_OWN_CORE;
		snprintf(f->owner_str, sizeof(f->owner_str),
			 "ftrace trampoline of ops %lx", s->ops[t].addr);
		f->verdict = HK_OK;
		snprintf(f->why, sizeof(f->why), "%s is an ftrace trampoline",
			 what);
		return;
	}
	th_owner_of(handler, &f->owner);
	th_owner_str(&f->owner, f->owner_str, sizeof(f->owner_str));
	switch (f->owner.kind) {
	case TH_OWN_CORE:
		f->verdict = HK_OK;
		snprintf(f->why, sizeof(f->why), "%s is core kernel code", what);
		break;
	case TH_OWN_MODULE:
		f->verdict = HK_NOTE;
		snprintf(f->why, sizeof(f->why), "%s is in module [%s]", what,
			 f->owner.module);
		break;
	case TH_OWN_HIDDEN:
		f->verdict = HK_HIDDEN;
		if (f->owner.module[0])
			snprintf(f->why, sizeof(f->why), "%s is in module %s, "
				 "which is not on the module list", what,
				 f->owner.module);
		else
			snprintf(f->why, sizeof(f->why), "%s is in vmalloc "
				 "memory no listed module covers", what);
		break;
	case TH_OWN_NONE:
		f->verdict = HK_SUSPICIOUS;
		snprintf(f->why, sizeof(f->why), "%s is NULL", what);
		break;
	default:
		f->verdict = HK_SUSPICIOUS;
		snprintf(f->why, sizeof(f->why), "%s is in no kernel text, "
			 "module or vmalloc area", what);
		break;
	}
}

/* A struct that lives in hidden memory makes the hook HIDDEN too. */
static void hk_judge_struct(struct hk_finding *f, ulong addr, const char *what)
{
	struct th_owner o;

	th_owner_of(addr, &o);
	if (o.kind == TH_OWN_HIDDEN && f->verdict != HK_HIDDEN) {
		f->verdict = HK_HIDDEN;
		f->owner = o;
		th_owner_str(&o, f->owner_str, sizeof(f->owner_str));
		snprintf(f->why, sizeof(f->why), "%s %lx is in memory no "
			 "listed module covers", what, addr);
	}
}

/* ------------------------------------------------------------ kprobes --- */

static void hk_kprobes(void)
{
	struct kp_probe *v = NULL;
	ulong *tks = NULL;
	long n, i, j, ntk;

	if (!th_kprobes_init())
		return;
	n = th_kprobes_collect(&v);
	ntk = th_trace_kprobes(&tks);
	for (i = 0; i < n; i++) {
		char type = th_kprobe_type(&v[i]);
		struct hk_finding *f = hk_new(type == 'r' ? "kretprobe" :
					      type == 'j' ? "jprobe" : "kprobe");
		ulong h = v[i].pre;
		char ev[256] = "";

		f->target = v[i].addr;
		th_ksym_pS(v[i].addr, f->target_str, sizeof(f->target_str));
		if (type == 'r') {
			long o = th_member("kretprobe", "handler");
			long k = th_member("kretprobe", "kp");

			if (o >= 0 && k >= 0)
				th_read_ulong(v[i].kp - k + o, &h,
					      "kretprobe.handler");
		} else if (type == 'j') {
			/* The pre handler of a jprobe is always the core's
			 * setjmp_pre_handler: the probe's code is jprobe.entry. */
			long o = th_member("jprobe", "entry");
			long k = th_member("jprobe", "kp");

			if (o >= 0 && k >= 0)
				th_read_ulong(v[i].kp - k + o, &h,
					      "jprobe.entry");
		}
		for (j = 0; j < ntk; j++)
			if (th_tk_kprobe(tks[j]) == v[i].kp) {
				char g[64], nm[128];

				th_tk_names(tks[j], g, sizeof(g), nm, sizeof(nm));
				snprintf(ev, sizeof(ev), "trace event %s/%s", g,
					 nm);
			}
		hk_judge(f, h, type == 'r' ? "the return handler" :
			 type == 'j' ? "the jprobe entry" : "the pre handler");
		if (ev[0] && f->verdict == HK_OK)
			snprintf(f->why, sizeof(f->why), "%s (kprobe_events)",
				 ev);
		if (v[i].post) {
			struct th_owner o;
			th_owner_of(v[i].post, &o);
			if (o.kind == TH_OWN_HIDDEN)
				hk_judge(f, v[i].post, "the post handler");
		}
		if (type == 'r') {
			long o = th_member("kretprobe", "entry_handler");
			long k = th_member("kretprobe", "kp");
			ulong eh = 0;
			struct th_owner ow;

			if (o >= 0 && k >= 0 &&
			    th_read_ulong(v[i].kp - k + o, &eh,
					  "kretprobe.entry_handler") && eh) {
				th_owner_of(eh, &ow);
				if (ow.kind == TH_OWN_HIDDEN)
					hk_judge(f, eh, "the entry handler");
			}
		}
		hk_judge_struct(f, v[i].kp, "struct kprobe");
	}
	free(v);
	free(tks);
}

/* --------------------------------------------------------- ftrace ops --- */

static void hk_ftrace(void)
{
	struct thf_state *s = thf_load();
	char flags[160];
	int i;
	long r, nsites;

	if (!s)
		return;
	for (i = 0; i < s->nops; i++) {
		struct thf_ops *op = &s->ops[i];
		struct hk_finding *f = hk_new("ftrace_ops");

		f->target = op->addr;
		nsites = 0;
		for (r = 0; r < s->nrec; r++)
			if (!thf_hash_empty(&op->filter) &&
			    thf_ops_contains(op, s->rec[r].ip))
				nsites++;
		thf_ops_flags_str(op->flags, flags, sizeof(flags));
		if (thf_hash_empty(&op->filter))
			snprintf(f->target_str, sizeof(f->target_str),
				 "ops %lx: all functions", op->addr);
		else
			snprintf(f->target_str, sizeof(f->target_str),
				 "ops %lx: %ld functions", op->addr, nsites);
		hk_judge(f, op->func, "the ops callback");
		hk_judge_struct(f, op->addr, "struct ftrace_ops");
		snprintf(f->why + strlen(f->why), sizeof(f->why) - strlen(f->why),
			 "; flags %s", flags);
		if (f->verdict == HK_OK || thf_hash_empty(&op->filter))
			continue;
		/* the sites a module's or a hidden ops patches, one by one */
		for (r = 0; r < s->nrec; r++) {
			struct hk_finding *g;

			if (!thf_ops_contains(op, s->rec[r].ip))
				continue;
			g = hk_new("ftrace_site");
			g->target = s->rec[r].ip;
			th_ksym_pS(s->rec[r].ip, g->target_str,
				   sizeof(g->target_str));
			hk_judge(g, op->func, "the ops callback");
			hk_judge_struct(g, op->addr, "struct ftrace_ops");
			snprintf(g->why + strlen(g->why),
				 sizeof(g->why) - strlen(g->why),
				 "; site hooked by ops %lx", op->addr);
		}
	}
	thf_warn_damage(s);
}

/* -------------------------------------------------------- tracepoints --- */

/*
 * tracepoint_ptr_t is an int offset from its own slot with
 * CONFIG_HAVE_ARCH_PREL32_RELOCATIONS (since v4.19), a pointer before and
 * on other configurations: the typedef's size tells which.
 */
static int hk_tp_prel32 = -1;

static ulong hk_tp_deref(ulong slot)
{
	if (hk_tp_prel32) {
		int off;

		if (!th_read_int(slot, &off, "tracepoint_ptr_t"))
			return 0;
		return slot + (long)off;
	} else {
		ulong p;

		if (!th_read_ulong(slot, &p, "tracepoint_ptr_t"))
			return 0;
		return p;
	}
}

static void hk_tracepoint(ulong tp)
{
	long o_name = th_member("tracepoint", "name");
	long o_funcs = th_member("tracepoint", "funcs");
	long fsz = th_size("tracepoint_func");
	long o_func = th_member("tracepoint_func", "func");
	ulong funcs, fn, np;
	char name[128];
	int i;

	if (o_name < 0 || o_funcs < 0 || fsz <= 0 || o_func < 0)
		return;
	if (!th_read_ulong(tp + o_funcs, &funcs, "tracepoint.funcs") || !funcs)
		return;
	name[0] = '\0';
	if (th_read_ulong(tp + o_name, &np, "tracepoint.name"))
		th_read_cstr(np, name, sizeof(name), "tracepoint name");
	for (i = 0; i < 1024; i++) {
		struct hk_finding *f;

		if (!th_read_ulong(funcs + i * fsz + o_func, &fn,
				   "tracepoint_func.func") || !fn)
			break;
		f = hk_new("tracepoint");
		f->target = tp;
		snprintf(f->target_str, sizeof(f->target_str), "%s",
			 name[0] ? name : "?");
		hk_judge(f, fn, "the probe");
	}
}

static void hk_tp_range(ulong start, ulong stop)
{
	ulong a, step = hk_tp_prel32 ? 4 : 8;

	if (!start || stop <= start || (stop - start) / step > 100000)
		return;
	for (a = start; a < stop; a += step) {
		ulong tp = hk_tp_deref(a);

		if (th_kptr(tp))
			hk_tracepoint(tp);
	}
}

static void hk_tracepoints(void)
{
	ulong start = th_symbol("__start___tracepoints_ptrs");
	ulong stop = th_symbol("__stop___tracepoints_ptrs");
	struct th_module *mods;
	long o_ptrs = th_member("module", "tracepoints_ptrs");
	long o_num = th_member("module", "num_tracepoints");
	int n, i;

	if (!start || !stop)
		return;
	if (hk_tp_prel32 < 0) {
		long sz = th_size("tracepoint_ptr_t");
		ulong p;

		if (sz > 0)
			hk_tp_prel32 = (sz == 4);
		else	/* a typedef crash cannot size: look at the data */
			hk_tp_prel32 = !(th_read_ulong(start, &p, "tp ptr") &&
					 th_kptr(p));
	}
	hk_tp_range(start, stop);
	if (o_ptrs < 0 || o_num < 0)
		return;
	n = th_modules(&mods);
	for (i = 0; i < n; i++) {
		ulong ptrs;
		unsigned int num;

		if (!th_read_ulong(mods[i].addr + o_ptrs, &ptrs,
				   "module.tracepoints_ptrs") ||
		    !th_read_uint(mods[i].addr + o_num, &num,
				  "module.num_tracepoints") || !ptrs)
			continue;
		hk_tp_range(ptrs, ptrs + num * (hk_tp_prel32 ? 4UL : 8UL));
	}
}

/* --------------------------------------------------------------- text --- */

static void hk_text_cb(const struct th_text_finding *t, void *arg)
{
	struct hk_finding *f = hk_new("text");

	f->target = t->addr;
	snprintf(f->target_str, sizeof(f->target_str), "%s+0x%lx",
		 t->func_name, t->addr - t->func);
	f->handler = 0;
	snprintf(f->handler_str, sizeof(f->handler_str), "%s", t->decoded_mem);
	f->owner.kind = TH_OWN_CORE;
	snprintf(f->owner_str, sizeof(f->owner_str), "core");
	f->verdict = HK_SUSPICIOUS;
	snprintf(f->why, sizeof(f->why), "%s (on disk: %s)", t->why,
		 t->decoded_disk);
	f->nbytes = t->len < 16 ? t->len : 16;
	memcpy(f->bytes, t->mem, f->nbytes);
}

/* ------------------------------------------------------------ missing --- */

/*
 * The hook mechanisms this kernel does not have at all, for one line of
 * output: on a kernel without kprobes or ftrace an empty table must not
 * read as "checked, nothing found".  Each is named by the symbol the
 * vmlinux lacks and the option that defines it.
 */
static void hk_missing(char *buf, size_t len)
{
	static const struct {
		const char *what, *sym, *config;
	} m[] = {
		{ "kprobes", "kprobe_table", "CONFIG_KPROBES" },
		{ "ftrace", "ftrace_ops_list", "CONFIG_FUNCTION_TRACER" },
		{ "tracepoints", "__start___tracepoints_ptrs",
		  "CONFIG_TRACEPOINTS" },
	};
	size_t n = 0, i;

	buf[0] = '\0';
	for (i = 0; i < sizeof(m) / sizeof(m[0]) && n < len; i++)
		if (!th_symbol(m[i].sym))
			n += snprintf(buf + n, len - n, "%s%s (no %s: kernel "
				      "built without %s)", n ? ", " : "",
				      m[i].what, m[i].sym, m[i].config);
}

/* --------------------------------------------------------------- output --- */

static void hk_json_str(const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(fp, "\\u%04x", c);
		else
			fputc(c, fp);
	}
	fputc('"', fp);
}

/* hooks -j: what the walks printed (a damaged dump's "tracehunt: warning:"
 * lines) goes into summary.warnings, so the output stays one JSON document */
#define HK_NWARN 32
static char hk_warn[HK_NWARN][256];
static int hk_nwarn;

/* Take the lines in crash's tmpfile: warnings to hk_warn, the first other
 * line to NOTE (when NOTE is given; else every line is a warning). */
static void hk_take_tmpfile(char *note, size_t notesz)
{
	char line[256];

	rewind(pc->tmpfile);
	while (fgets(line, sizeof(line), pc->tmpfile)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0])
			continue;
		if (note && !note[0] && strncmp(line, "tracehunt: warning: ", 20))
			snprintf(note, notesz, "%s", line);
		else if (hk_nwarn < HK_NWARN)
			snprintf(hk_warn[hk_nwarn++], sizeof(hk_warn[0]), "%s",
				 line);
	}
}

static void hk_print_json(long *count, struct th_text_stats *ts, int text_ok,
			  const char *text_note, const char *missing)
{
	long i;
	int k;

	fprintf(fp, "{\"tracehunt\": \"%s\", \"findings\": [", TH_VERSION);
	for (i = 0; i < hk_n; i++) {
		struct hk_finding *f = &hk_f[i];

		fprintf(fp, "%s\n  {\"kind\": ", i ? "," : "");
		hk_json_str(f->kind);
		fprintf(fp, ", \"target\": ");
		hk_json_str(f->target_str);
		fprintf(fp, ", \"target_addr\": \"0x%lx\", \"handler\": ",
			f->target);
		hk_json_str(f->handler_str);
		fprintf(fp, ", \"handler_addr\": \"0x%lx\", \"owner\": ",
			f->handler);
		hk_json_str(f->owner_str);
		fprintf(fp, ", \"owner_module\": ");
		if (f->owner.module[0])
			hk_json_str(f->owner.module);
		else
			fprintf(fp, "null");
		fprintf(fp, ", \"vmap\": ");
		if (f->owner.kind == TH_OWN_HIDDEN && f->owner.have_vmap)
			fprintf(fp, "{\"start\": \"0x%lx\", \"end\": \"0x%lx\", "
				"\"caller\": \"0x%lx\"}", f->owner.vmap.start,
				f->owner.vmap.end, f->owner.vmap.caller);
		else
			fprintf(fp, "null");
		fprintf(fp, ", \"verdict\": ");
		hk_json_str(hk_vname[f->verdict]);
		fprintf(fp, ", \"why\": ");
		hk_json_str(f->why);
		fprintf(fp, ", \"bytes\": ");
		if (f->nbytes) {
			fputc('"', fp);
			for (k = 0; k < f->nbytes; k++)
				fprintf(fp, "%02x", f->bytes[k]);
			fputc('"', fp);
		} else {
			fprintf(fp, "null");
		}
		fputc('}', fp);
	}
	fprintf(fp, "\n], \"summary\": {");
	for (k = 0; k < HK_NVERDICT; k++)
		fprintf(fp, "%s\"%s\": %ld", k ? ", " : "", hk_vname[k],
			count[k]);
	fprintf(fp, ", \"total\": %ld, \"text_functions_checked\": %ld, "
		"\"text_checked\": %s, \"text_note\": ", hk_n,
		text_ok ? ts->compared : 0, text_ok ? "true" : "false");
	if (text_note[0])
		hk_json_str(text_note);
	else
		fprintf(fp, "null");
	fprintf(fp, ", \"not_checked\": ");
	if (missing[0])
		hk_json_str(missing);
	else
		fprintf(fp, "null");
	fprintf(fp, ", \"warnings\": [");
	for (k = 0; k < hk_nwarn; k++) {
		fprintf(fp, "%s", k ? ", " : "");
		hk_json_str(hk_warn[k]);
	}
	fprintf(fp, "]}}\n");
}

void cmd_hooks(void)
{
	int c, verbose = 0, json = 0, k, text_ok;
	char text_note[256], missing[512];
	long i, count[HK_NVERDICT] = { 0 };
	struct th_text_stats ts;

	while ((c = getopt(argcnt, args, "vj")) != EOF) {
		switch (c) {
		case 'v':
			verbose = 1;
			break;
		case 'j':
			json = 1;
			break;
		default:
			argerrs++;
			break;
		}
	}
	if (argerrs || args[optind])
		cmd_usage(pc->curcmd, SYNOPSIS);
	free(hk_f);
	hk_f = NULL;
	hk_n = hk_cap = 0;
	hk_nwarn = 0;
	/* keep the JSON clean: warnings and a "not checked" line go into it */
	if (json)
		open_tmpfile();
	hk_kprobes();
	hk_ftrace();
	hk_tracepoints();
	if (json) {
		hk_take_tmpfile(NULL, 0);
		close_tmpfile();
	}
	memset(&ts, 0, sizeof(ts));
	text_note[0] = '\0';
	if (json) {
		open_tmpfile();
		text_ok = th_text_check(hk_text_cb, NULL, &ts) == 0;
		hk_take_tmpfile(text_note, sizeof(text_note));
		close_tmpfile();
	} else {
		text_ok = th_text_check(hk_text_cb, NULL, &ts) == 0;
	}
	for (i = 0; i < hk_n; i++)
		count[hk_f[i].verdict]++;
	hk_missing(missing, sizeof(missing));
	if (json) {
		hk_print_json(count, &ts, text_ok, text_note, missing);
		return;
	}
	fprintf(fp, "%-10s  %-11s  %-36s  %-40s  %s\n", "VERDICT", "KIND",
		"TARGET", "HANDLER", "OWNER");
	for (i = 0; i < hk_n; i++) {
		struct hk_finding *f = &hk_f[i];

		fprintf(fp, "%-10s  %-11s  %-36s  %-40s  %s\n",
			hk_vname[f->verdict], f->kind, f->target_str,
			f->handler_str, f->owner_str);
		if (verbose) {
			fprintf(fp, "            why: %s\n", f->why);
			if (f->nbytes) {
				fprintf(fp, "            bytes:");
				for (k = 0; k < f->nbytes; k++)
					fprintf(fp, " %02x", f->bytes[k]);
				fprintf(fp, "\n");
			}
		}
	}
	if (text_ok) {
		fprintf(fp, "text: %ld core functions compared with the "
			"vmlinux on disk; module text has no file to compare "
			"with and is checked through its ftrace records and "
			"kprobes only\n", ts.compared);
		if (verbose) {
			fprintf(fp, "text: %ld differ from the file, explained by",
				ts.differing);
			for (k = 0; k < TH_TX_NKINDS; k++)
				if (ts.explained_kind[k])
					fprintf(fp, " %s %ld", th_text_kind_name(k),
						ts.explained_kind[k]);
			fprintf(fp, "; %ld unexplained\n", ts.unexplained);
		}
	}
	if (missing[0])
		fprintf(fp, "hooks: not in this kernel, not checked: %s\n",
			missing);
	fprintf(fp, "hooks: %ld findings: ok %ld, note %ld, suspicious %ld, "
		"HIDDEN %ld\n", hk_n, count[HK_OK], count[HK_NOTE],
		count[HK_SUSPICIOUS], count[HK_HIDDEN]);
}
