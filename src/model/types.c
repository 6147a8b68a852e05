/*
 * tracehunt: the type probes of model.h (th_member(), th_size(),
 * th_enum(), ...): the only code that asks crash for a type, behind a
 * cache; answered from the vmlinux file's BTF when it can (btf_types.h),
 * else by gdb, helped to the compile unit that defines the type.
 */
#include <time.h>
#include "model/model.h"
#include "model/btf_types.h"

/*
 * TRACEHUNT_LOOKUPLOG=FILE: every debuginfo look-up the cache below does
 * not answer, with its time (where a first command's fixed cost goes).
 */
static int th_llog_state;		/* 0 unknown, 1 on, -1 off */
static FILE *th_llog;

static double th_llog_start(void)
{
	struct timespec ts;

	if (!th_llog_state) {
		const char *p = getenv("TRACEHUNT_LOOKUPLOG");

		th_llog = p && *p ? fopen(p, "a") : NULL;
		th_llog_state = th_llog ? 1 : -1;
	}
	if (th_llog_state < 0)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void th_llog_end(double t0, const char *key, long val)
{
	struct timespec ts;

	if (th_llog_state < 0)
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	fprintf(th_llog, "%8.3f ms %s = %ld\n",
		(ts.tv_sec + ts.tv_nsec / 1e9 - t0) * 1e3, key, val);
	fflush(th_llog);
}

static void th_bk_load(void);
static unsigned th_tc_hash(const char *key);

/*
 * TRACEHUNT_BTFCHECK=FILE: each look-up the vmlinux BTF answered
 * (btf_types.h) asked of gdb too, one line each: "=" when they agree,
 * "!" when not, the look-up, the two answers.
 */
static int th_bchk_state;		/* 0 unknown, 1 on, -1 off */
static FILE *th_bchk;

static int th_btfcheck_on(void)
{
	if (!th_bchk_state) {
		const char *p = getenv("TRACEHUNT_BTFCHECK");

		th_bchk = p && *p ? fopen(p, "a") : NULL;
		th_bchk_state = th_bchk ? 1 : -1;
		if (th_bchk)
			th_bk_load();
	}
	return th_bchk_state > 0;
}

static void th_btfcheck_str(const char *key, const char *btf,
			    const char *gdb)
{
	fprintf(th_bchk, "%s %s btf=%s gdb=%s\n", strcmp(btf, gdb) ? "!" : "=",
		key, btf, gdb);
	fflush(th_bchk);
}

static void th_btfcheck(const char *key, long btf, long gdb)
{
	char b[32], g[32];

	snprintf(b, sizeof(b), "%ld", btf);
	snprintf(g, sizeof(g), "%ld", gdb);
	th_btfcheck_str(key, b, g);
}

/*
 * TRACEHUNT_BTFCHECK_KNOWN=FILE: gdb's answers of earlier sessions on the
 * same vmlinux, modules and crash, one "key<TAB>answer" a line (the test
 * harness keeps them: tests/thlib.py): a look-up found there is compared
 * with it instead of asked of gdb again.  The check is the same; gdb's
 * answers were half of a 7.2 session's time.
 */
#define TH_BK_SLOTS 16384
static struct th_bk {
	char *key, *val;
} *th_bk;

static void th_bk_load(void)
{
	const char *p = getenv("TRACEHUNT_BTFCHECK_KNOWN");
	/* (an enum's text takes up to 8 KB: struct th_enum_text) */
	static char line[8192 + 256];
	char *tab, *nl;
	FILE *f;
	int n = 0;

	if (!p || !*p || !(f = fopen(p, "r")))
		return;
	th_bk = calloc(TH_BK_SLOTS, sizeof(*th_bk));
	while (th_bk && n < TH_BK_SLOTS / 2 && fgets(line, sizeof(line), f)) {
		unsigned h;

		if (!(tab = strchr(line, '\t')) || !(nl = strchr(tab, '\n')))
			continue;
		*tab = *nl = '\0';
		for (h = th_tc_hash(line) * 4; th_bk[h % TH_BK_SLOTS].key; h++)
			;
		th_bk[h % TH_BK_SLOTS].key = strdup(line);
		th_bk[h % TH_BK_SLOTS].val = strdup(tab + 1);
		n++;
	}
	fclose(f);
}

static const char *th_bk_find(const char *key)
{
	unsigned h, i;

	if (!th_bk)
		return NULL;
	for (h = th_tc_hash(key) * 4, i = 0; i < TH_BK_SLOTS; h++, i++) {
		struct th_bk *e = &th_bk[h % TH_BK_SLOTS];

		if (!e->key)
			return NULL;
		if (e->key[0] == key[0] && strcmp(e->key, key) == 0)
			return e->val;
	}
	return NULL;
}

/* Whether gdb's answer for KEY is known: then BTF's V is logged against
 * it, and gdb is not asked. */
static int th_btfcheck_known(const char *key, long v)
{
	const char *g = th_bk_find(key);
	char b[32];

	if (!g)
		return FALSE;
	snprintf(b, sizeof(b), "%ld", v);
	th_btfcheck_str(key, b, g);
	return TRUE;
}

/* A small cache: datatype_info() goes through gdb and is slow.  Hashed:
 * the trace printers ask for enumerators once per event. */
struct th_type_cache {
	char key[128];
	long val;
};
#define TH_TYPE_CACHE 2048
#define TH_TC_SLOTS 4096	/* open addressing, 2 x TH_TYPE_CACHE */
static struct th_type_cache th_tc[TH_TYPE_CACHE];
static int th_tc_n;
static short th_tc_slot[TH_TC_SLOTS];	/* index + 1, 0: empty */

static unsigned th_tc_hash(const char *key)
{
	unsigned h = 2166136261u;	/* FNV-1a */

	for (; *key; key++)
		h = (h ^ (unsigned char)*key) * 16777619u;
	return h & (TH_TC_SLOTS - 1);
}

static int th_tc_get(const char *key, long *val)
{
	unsigned h = th_tc_hash(key), i;

	for (i = 0; i < TH_TC_SLOTS && th_tc_slot[h]; i++) {
		struct th_type_cache *e = &th_tc[th_tc_slot[h] - 1];

		if (strcmp(e->key, key) == 0) {
			*val = e->val;
			return TRUE;
		}
		h = (h + 1) & (TH_TC_SLOTS - 1);
	}
	return FALSE;
}

static void th_tc_put(const char *key, long val)
{
	unsigned h = th_tc_hash(key);

	if (th_tc_n >= TH_TYPE_CACHE || strlen(key) >= sizeof(th_tc[0].key))
		return;
	while (th_tc_slot[h])
		h = (h + 1) & (TH_TC_SLOTS - 1);
	strcpy(th_tc[th_tc_n].key, key);
	th_tc[th_tc_n].val = val;
	th_tc_slot[h] = ++th_tc_n;
}

/*
 * gdb (crash 8's gdb 10, without an index) finds a struct tag by scanning
 * the static partial symbols of every compile unit not yet expanded, one
 * by one: 25-60 ms per type or enumerator on a distro vmlinux before the
 * unit that defines it is even read.  Expanded units are searched first.
 * So before the first lookup of a type (or enumerator) defined in a few
 * .c files only, the unit of a function of such a file is expanded by
 * address ("info line *ADDR": an address-map lookup, no name scan); the
 * name is then found there.  A hint only: a function the kernel lacks, or
 * a type that moved, costs the ordinary search, the offsets still come
 * from the debuginfo.  KEY is a struct tag, or an enumerator prefix
 * ending in '*'; FN the functions to try, first existing one used.
 */
static struct th_cu_hint {
	const char *key;
	const char *fn[2];
	int done;
} th_cu_hints[] = {
	/* kernel/trace/ring_buffer.c */
	{ "trace_buffer", { "ring_buffer_read_page" }, 0 },
	{ "ring_buffer", { "ring_buffer_read_page" }, 0 },	/* before v5.6 */
	/*
	 * struct trace_array and the rest of kernel/trace/trace.h's types,
	 * the trace_event*, tracepoint and syscall types: all in the unit
	 * of kernel/trace/trace_syscalls.c (7 ms to expand at load 5),
	 * else trace_nop.c's (4 ms) or their own files'; a first search of
	 * the tag expands trace.c (40 ms) or trace_output.c (15 ms).
	 */
	{ "trace_array", { "ftrace_syscall_enter", "nop_trace_init" }, 0 },
	{ "syscall_trace_enter", { "ftrace_syscall_enter" }, 0 },
	{ "syscall_trace_exit", { "ftrace_syscall_exit" }, 0 },
	{ "syscall_metadata", { "ftrace_syscall_enter" }, 0 },
	{ "tracepoint", { "ftrace_syscall_enter",
			  "tracepoint_probe_register" }, 0 },
	{ "trace_event", { "ftrace_syscall_enter",
			   "register_trace_event" }, 0 },
	/* trace.h's too, used by trace_eprobe.c (v5.15; 7 ms) and
	 * trace_events_filter.c (15 ms; trace_events.c's unit 15-40 ms) */
	{ "ftrace_event_field", { "eprobe_trigger_func",
				  "filter_assign_type" }, 0 },
	/* kernel/trace/trace.c (trace_sched_switch.c since v6.8, with
	 * trace_find_cmdline) */
	{ "saved_cmdlines_buffer", { "trace_find_cmdline" }, 0 },
	/* enum trace_flag_type, emitted in kernel/trace/trace.c (with
	 * tracing_gen_ctx_irq_test since v5.12, trace_find_cmdline's file
	 * before that) */
	{ "TRACE_FLAG_*", { "tracing_gen_ctx_irq_test",
			    "trace_find_cmdline" }, 0 },
	/* enum trace_type (kernel/trace/trace.h): trace_function() in
	 * trace.c uses it */
	{ "TRACE_FN", { "trace_function" }, 0 },
	/* kernel/trace/trace_probe.h: trace_probe.c (v5.4 and later) */
	{ "trace_probe_event", { "trace_probe_init" }, 0 },
	/* kernel/trace/trace_events_user.c (user_event_mm_remove() is
	 * called from kernel/fork.c, so not static) */
	{ "user_event", { "user_event_mm_remove" }, 0 },
	{ "user_event_group", { "user_event_mm_remove" }, 0 },
	{ "user_event_mm", { "user_event_mm_remove" }, 0 },
	{ "user_event_enabler", { "user_event_mm_remove" }, 0 },
};

static int th_cu_hint_match(const char *key, const char *name)
{
	size_t l = strlen(key);

	if (l && key[l - 1] == '*')
		return strncmp(key, name, l - 1) == 0;
	return strcmp(key, name) == 0;
}

static void th_cu_hint(const char *name)
{
	char cmd[64];
	FILE *f;
	ulong addr = 0;
	size_t i, j;

	for (i = 0; i < sizeof(th_cu_hints) / sizeof(th_cu_hints[0]); i++) {
		struct th_cu_hint *h = &th_cu_hints[i];

		if (h->done || !th_cu_hint_match(h->key, name))
			continue;
		h->done = TRUE;
		for (j = 0; j < 2 && h->fn[j] && !addr; j++)
			addr = th_symbol(h->fn[j]);
		if (!addr || !(f = tmpfile()))
			return;
		snprintf(cmd, sizeof(cmd), "info line *0x%lx", addr);
		gdb_pass_through(cmd, f, GNU_RETURN_ON_ERROR);
		fclose(f);
		return;
	}
}

/*
 * Structs the kernel renamed, looked up under their old tag when the dump
 * has no struct of the new one (a probe of the type, not of a version).
 */
static struct th_struct_rename {
	const char *now, *was;
	int state;		/* 0 unprobed, 1 the new tag, 2 the old */
} th_renames[] = {
	/* Linux kernel commit 2425bcb9240f ("tracing: Rename
	 * ftrace_event_{call,class} to trace_event_{call,class}") (v4.2) */
	{ "trace_event_call", "ftrace_event_call", 0 },
	{ "trace_event_class", "ftrace_event_class", 0 },
	/* its parent, "tracing: Rename ftrace_event_file to
	 * trace_event_file" (v4.2) */
	{ "trace_event_file", "ftrace_event_file", 0 },
};

/* STRUCT_SIZE(TAG), from the BTF when it has the tag */
static long th_tag_size(const char *tag)
{
	long v;

	if (th_btf_size(tag, &v))
		return v;
	return STRUCT_SIZE((char *)tag);
}

static const char *th_struct_tag(const char *sname)
{
	size_t i;

	for (i = 0; i < sizeof(th_renames) / sizeof(th_renames[0]); i++) {
		struct th_struct_rename *r = &th_renames[i];

		if (strcmp(r->now, sname))
			continue;
		if (!r->state)
			r->state = th_tag_size(r->now) < 0 &&
				th_tag_size(r->was) >= 0 ? 2 : 1;
		return r->state == 2 ? r->was : r->now;
	}
	return sname;
}

/* MEMBER_OFFSET(), or for a PATH through anonymous members
 * ANON_MEMBER_OFFSET(): -1 when absent. */
static long th_member_gdb(const char *sname, const char *mname, int path)
{
	long v;

	th_cu_hint(sname);
	sname = th_struct_tag(sname);
	v = path ? ANON_MEMBER_OFFSET((char *)sname, (char *)mname) :
		MEMBER_OFFSET((char *)sname, (char *)mname);
	return v < 0 ? -1 : v;
}

/* A member's offset, cached by "struct.member": the vmlinux BTF's, or
 * gdb's (th_member_gdb()). */
static long th_member_at(const char *sname, const char *mname, int path)
{
	char key[160];
	long v;
	double t0;

	snprintf(key, sizeof(key), "%s.%s", sname, mname);
	if (th_tc_get(key, &v))
		return v;
	if (th_btf_member(th_struct_tag(sname), mname, path, &v)) {
		if (th_btfcheck_on() && !th_btfcheck_known(key, v))
			th_btfcheck(key, v, th_member_gdb(sname, mname, path));
	} else {
		t0 = th_llog_start();
		v = th_member_gdb(sname, mname, path);
		th_llog_end(t0, key, v);
	}
	th_tc_put(key, v);
	return v;
}

long th_member(const char *sname, const char *mname)
{
	return th_member_at(sname, mname, 0);
}

/*
 * The offset of a nested member PATH ("a.b.c": members of members, also
 * of anonymous structs and unions, whose types have no name to give
 * th_member()), asked of gdb as &((struct S *)0)->PATH; -1 when absent.
 */
long th_member_path(const char *sname, const char *path)
{
	return th_member_at(sname, path, 1);
}

static long th_size_gdb(const char *sname)
{
	long v;

	th_cu_hint(sname);
	v = STRUCT_SIZE((char *)th_struct_tag(sname));
	return v < 0 ? -1 : v;
}

long th_size(const char *sname)
{
	char key[128];
	long v;
	double t0;

	snprintf(key, sizeof(key), "%s#size", sname);
	if (th_tc_get(key, &v))
		return v;
	if (th_btf_size(th_struct_tag(sname), &v)) {
		if (th_btfcheck_on() && !th_btfcheck_known(key, v))
			th_btfcheck(key, v, th_size_gdb(sname));
	} else {
		t0 = th_llog_start();
		v = th_size_gdb(sname);
		th_llog_end(t0, key, v);
	}
	th_tc_put(key, v);
	return v;
}

long th_array_len(const char *sym)
{
	char key[128];
	long v;
	double t0;

	snprintf(key, sizeof(key), "%s#alen", sym);
	if (th_tc_get(key, &v))
		return v;
	t0 = th_llog_start();
	v = get_array_length((char *)sym, NULL, 0);
	if (v <= 0)
		v = -1;
	th_llog_end(t0, key, v);
	th_tc_put(key, v);
	return v;
}

/*
 * th_var_type - what the variable SYM is, as gdb's symbol table says
 * @sym: its name
 * @length: its size in bytes (0 when gdb gives none)
 *
 * Return: TH_VT_PTR, TH_VT_ARRAY, TH_VT_STRUCT, TH_VT_OTHER (a typedef,
 * a number), or TH_VT_NONE when gdb knows no such variable (cached).
 */
int th_var_type(const char *sym, long *length)
{
	char key[128], lkey[128];
	struct gnu_request req;
	long v, len;
	double t0;

	snprintf(key, sizeof(key), "%s#vtype", sym);
	snprintf(lkey, sizeof(lkey), "%s#vlen", sym);
	if (th_tc_get(key, &v) && th_tc_get(lkey, &len)) {
		*length = len;
		return (int)v;
	}
	t0 = th_llog_start();
	memset(&req, 0, sizeof(req));
	switch (get_symbol_type((char *)sym, NULL, &req)) {
	case TYPE_CODE_PTR:
		v = TH_VT_PTR;
		break;
	case TYPE_CODE_ARRAY:
		v = TH_VT_ARRAY;
		break;
	case TYPE_CODE_STRUCT:
		v = TH_VT_STRUCT;
		break;
	case TYPE_CODE_UNDEF:
		v = TH_VT_NONE;
		break;
	default:
		v = TH_VT_OTHER;
		break;
	}
	len = (long)req.length;
	th_llog_end(t0, key, v);
	th_tc_put(key, v);
	th_tc_put(lkey, len);
	*length = len;
	return (int)v;
}

/* MEMBER_SIZE(): -1 when absent (crash gives 0 for a member its struct
 * lacks; a flexible array's 0 is its size). */
static long th_member_size_gdb(const char *sname, const char *mname)
{
	long v;

	th_cu_hint(sname);
	v = MEMBER_SIZE((char *)th_struct_tag(sname), (char *)mname);
	if (v <= 0 && th_member(sname, mname) < 0)
		v = -1;
	return v < 0 ? -1 : v;
}

long th_member_size(const char *sname, const char *mname)
{
	char key[160];
	long v;
	double t0;

	snprintf(key, sizeof(key), "%s.%s#size", sname, mname);
	if (th_tc_get(key, &v))
		return v;
	if (th_btf_member_size(th_struct_tag(sname), mname, &v)) {
		if (th_btfcheck_on() && !th_btfcheck_known(key, v))
			th_btfcheck(key, v, th_member_size_gdb(sname, mname));
	} else {
		t0 = th_llog_start();
		v = th_member_size_gdb(sname, mname);
		th_llog_end(t0, key, v);
	}
	th_tc_put(key, v);
	return v;
}

static long th_member_ptr_gdb(const char *sname, const char *mname)
{
	if (th_member(sname, mname) < 0)
		return -1;
	th_cu_hint(sname);
	return MEMBER_TYPE((char *)th_struct_tag(sname), (char *)mname) ==
		TYPE_CODE_PTR;
}

int th_member_ptr(const char *sname, const char *mname)
{
	char key[160];
	long v;
	double t0;

	snprintf(key, sizeof(key), "%s.%s#ptr", sname, mname);
	if (th_tc_get(key, &v))
		return v;
	if (th_btf_member_ptr(th_struct_tag(sname), mname, &v)) {
		if (th_btfcheck_on() && !th_btfcheck_known(key, v))
			th_btfcheck(key, v, th_member_ptr_gdb(sname, mname));
	} else {
		t0 = th_llog_start();
		v = th_member_ptr_gdb(sname, mname);
		th_llog_end(t0, key, v);
	}
	th_tc_put(key, v);
	return v;
}

long th_member_any(const char *sname, const char *const *names,
		   const char **found)
{
	long v;

	for (; *names; names++) {
		v = th_member(sname, *names);
		if (v >= 0) {
			if (found)
				*found = *names;
			return v;
		}
	}
	return -1;
}

/*
 * Every enumerator asked of gdb is a symbol search through the whole
 * debuginfo (0.05-0.3 s each on a distro vmlinux; a trace command asks
 * for some thirty).  "ptype/r NAME" costs one such search and prints the
 * whole enum NAME belongs to ("type = enum T {A, B = 4, C}": a value is
 * printed only where it is not the previous one + 1).  Raw (/r): plain
 * ptype canonicalizes the printed tag "enum T" by looking T up as a
 * typedef, a failing search of every compile unit (45 ms, more than the
 * enumerator's own lookup).  The one parser of that output: EACH is
 * called for every enumerator in declaration order.  1 when parsed; -1
 * when gdb knows no NAME at all; 0 when NAME is not an enumerator of an
 * enum gdb printed (or not an identifier).
 */
static int th_enum_parse_gdb(const char *name,
			     void (*each)(const char *ename, long val,
					  void *arg),
			     void *arg)
{
	char cmd[160], *buf, *p, *end;
	FILE *f;
	long n, next = 0;

	th_cu_hint(name);
	f = tmpfile();
	if (!f)
		return FALSE;
	snprintf(cmd, sizeof(cmd), "ptype/r %s", name);
	if (!gdb_pass_through(cmd, f, GNU_RETURN_ON_ERROR)) {
		/* no such symbol: "p NAME" would fail the same way */
		fclose(f);
		return -1;
	}
	n = ftell(f);
	if (n <= 0 || n > (1L << 20) || !(buf = malloc(n + 1))) {
		fclose(f);
		return FALSE;
	}
	rewind(f);
	n = fread(buf, 1, n, f);
	fclose(f);
	buf[n] = '\0';
	p = strstr(buf, "type = enum ");
	if (p)
		p = strchr(p, '{');
	end = p ? strchr(p, '}') : NULL;
	if (!p || !end) {
		free(buf);
		return FALSE;
	}
	*end = '\0';
	for (p++; *p; ) {
		char ename[128];
		size_t l;
		long v = next;

		p += strspn(p, " \t\n,");
		l = strcspn(p, " \t\n,=");
		if (!l || l >= sizeof(ename))
			break;
		memcpy(ename, p, l);
		ename[l] = '\0';
		p += l;
		p += strspn(p, " \t\n");
		if (*p == '=') {
			char *e;

			v = strtol(p + 1, &e, 0);
			if (e == p + 1)
				break;
			p = e;
		}
		next = v + 1;
		each(ename, v, arg);
	}
	free(buf);
	return TRUE;
}

/* th_enum_check(): an enum's enumerators as text, "A=0 B=4 " */
struct th_enum_text {
	char buf[8192];
	size_t len;
};

static void th_enum_text(const char *ename, long v, void *arg)
{
	struct th_enum_text *t = arg;
	int n;

	if (t->len >= sizeof(t->buf))
		return;
	n = snprintf(t->buf + t->len, sizeof(t->buf) - t->len, "%s=%ld ",
		     ename, v);
	t->len += n > 0 ? n : 0;
}

/* TRACEHUNT_BTFCHECK: the enum of NAME as the BTF gave it (R) and as gdb
 * prints it */
static void th_enum_check(const char *name, int r)
{
	static struct th_enum_text b, g;
	char key[140];
	const char *known;
	int rg;

	b.len = g.len = 0;
	b.buf[0] = g.buf[0] = '\0';
	th_btf_enum(name, th_enum_text, &b);
	snprintf(key, sizeof(key), "enum:%s", name);
	/* absent from the BTF: gdb must not know it either (-1); gdb's 0
	 * (a NAME that is no enumerator of the enum it printed) compared
	 * as what it finds */
	if (r < 0)
		snprintf(b.buf, sizeof(b.buf), "(none)");
	if ((known = th_bk_find(key)) != NULL) {
		th_btfcheck_str(key, b.buf, known);
		return;
	}
	rg = th_enum_parse_gdb(name, th_enum_text, &g);
	if (rg < 0)
		snprintf(g.buf, sizeof(g.buf), "(none)");
	else if (!rg)
		snprintf(g.buf, sizeof(g.buf), "(not parsed)");
	th_btfcheck_str(key, b.buf, g.buf);
}

/* whether the last th_enum_parse() was answered by the BTF (not logged) */
static int th_enum_by_btf;

/*
 * The one parser of an enum (see th_enum_parse_gdb()): from the vmlinux
 * BTF when it answers.
 */
static int th_enum_parse(const char *name,
			 void (*each)(const char *ename, long val, void *arg),
			 void *arg)
{
	int r;

	if (strlen(name) > 120 || strspn(name, "abcdefghijklmnopqrstuvwxyz"
					 "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
					 "0123456789_") != strlen(name))
		return FALSE;
	r = th_btf_enum(name, each, arg);
	th_enum_by_btf = r != 0;
	if (!r)
		return th_enum_parse_gdb(name, each, arg);
	if (th_btfcheck_on())
		th_enum_check(name, r);
	return r;
}

/* th_enum_batch(): every enumerator of NAME's enum cached at once */
struct th_enum_want {
	const char *name;
	long *val;
	int found;
};

static void th_enum_cache_one(const char *ename, long v, void *arg)
{
	struct th_enum_want *w = arg;
	char key[134];
	long known;

	snprintf(key, sizeof(key), "enum:%s", ename);
	if (!th_tc_get(key, &v))
		th_tc_put(key, v);
	/* its whole enum is known: th_enum_beside() */
	snprintf(key, sizeof(key), "enumset:%s", ename);
	if (!th_tc_get(key, &known))
		th_tc_put(key, 1);
	if (strcmp(ename, w->name) == 0) {
		*w->val = v;
		w->found = TRUE;
	}
}

/* 1 when found; -1 when gdb knows no NAME at all; 0 when NAME is not an
 * enumerator of a parsed enum (the caller then asks enumerator_value()). */
static int th_enum_batch(const char *name, long *val)
{
	struct th_enum_want w = { name, val, FALSE };
	int r = th_enum_parse(name, th_enum_cache_one, &w);

	return r < 0 ? -1 : w.found;
}

/* th_enum_list(): the enumerators collected in declaration order */
struct th_enum_coll {
	struct th_enumv *out;
	int max, n;
};

static void th_enum_collect(const char *ename, long v, void *arg)
{
	struct th_enum_coll *c = arg;
	size_t l = strlen(ename);

	if (c->n >= c->max || l >= sizeof(c->out[0].name))
		return;
	memcpy(c->out[c->n].name, ename, l + 1);
	c->out[c->n].val = v;
	c->n++;
}

/**
 * th_enum_list - every enumerator of the enum NAME belongs to
 * @name: one enumerator of it
 * @out: name and value of each, in declaration order
 * @max: room in @out
 *
 * Return: how many (0 when gdb cannot print that enum).
 */
int th_enum_list(const char *name, struct th_enumv *out, int max)
{
	struct th_enum_coll c = { out, max, 0 };

	th_enum_parse(name, th_enum_collect, &c);
	return c.n;
}

/* What the cache holds for an enumerator the dump does not have: the
 * caller's default is returned, never cached (callers pass different ones). */
#define TH_ENUM_MISSING ((long)0x7eadbeefcafe1234L)

long th_enum(const char *name, long def)
{
	char key[128];
	long v;
	double t0;

	snprintf(key, sizeof(key), "enum:%s", name);
	if (th_tc_get(key, &v))
		return v == TH_ENUM_MISSING ? def : v;
	t0 = th_llog_start();
	th_enum_by_btf = FALSE;
	switch (th_enum_batch(name, &v)) {
	case 1:
		if (!th_enum_by_btf)
			th_llog_end(t0, key, v);
		return v;
	case -1:
		v = TH_ENUM_MISSING;
		break;
	default:
		if (!enumerator_value((char *)name, &v))
			v = TH_ENUM_MISSING;
	}
	if (!th_enum_by_btf)
		th_llog_end(t0, key, v);
	th_tc_put(key, v);
	return v == TH_ENUM_MISSING ? def : v;
}

/*
 * The enumerator NAME of the enum SIBLING belongs to: when gdb printed
 * that whole enum, a NAME not in it is absent without the search of all
 * the debuginfo a missing symbol costs (20-50 ms on a distro vmlinux).
 * An enumerator added beside SIBLING (the same enum) is what a feature
 * probe of this kind asks for.
 */
long th_enum_beside(const char *name, const char *sibling, long def)
{
	char key[140];
	long v;

	if (th_enum_cached(name, &v))
		return v;
	if (th_enum_exists(sibling)) {
		snprintf(key, sizeof(key), "enumset:%s", sibling);
		if (th_tc_get(key, &v)) {
			if (th_enum_cached(name, &v))
				return v;
			snprintf(key, sizeof(key), "enum:%s", name);
			if (!th_tc_get(key, &v))
				th_tc_put(key, TH_ENUM_MISSING);
			return def;
		}
	}
	return th_enum(name, def);
}

int th_enum_cached(const char *name, long *val)
{
	char key[128];
	long v;

	snprintf(key, sizeof(key), "enum:%s", name);
	if (!th_tc_get(key, &v) || v == TH_ENUM_MISSING)
		return FALSE;
	*val = v;
	return TRUE;
}

int th_enum_exists(const char *name)
{
	const long missing = TH_ENUM_MISSING;

	return th_enum(name, missing) != missing;
}
