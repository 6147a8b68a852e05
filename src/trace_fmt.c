/*
 * tracehunt: one ring-buffer entry printed as the kernel's "trace" file
 * prints it (kernel/trace/trace.c print_trace_fmt, trace_output.c): the
 * context columns, then the event's own text.
 */
#include "trace_priv.h"
#include "bprint.h"
#include "printfmt.h"

/* ------------------------------------------------------ event types --- */

enum th_ekind { TH_EK_UNKNOWN, TH_EK_KPROBE, TH_EK_KRETPROBE,
		TH_EK_SYS_ENTER, TH_EK_SYS_EXIT, TH_EK_TRACEPOINT };

struct th_parg {
	char name[64];
	char type[24];
	unsigned offset, count, size;
};

struct th_tevent {
	unsigned type;
	ulong call;
	enum th_ekind kind;
	char name[96];
	int loaded;
	/* kprobes */
	int nargs;
	struct th_parg *args;
	/* tracepoints: fields in definition order, common_* first */
	int nfields;
	struct th_field {
		char name[64];
		char type[64];
		int offset, size, is_signed;
	} *fields;
	struct pf_fmt *pf;		/* compiled print_fmt, NULL: fallback */
	char pf_err[160];
	int noted;			/* fallback note printed */
};

static struct th_tevent *th_evs;
static int th_nevs = -1;
static int *th_ev_idx;		/* type -> index in th_evs, -1 */

static struct {
	long TRACE_FN, TRACE_PRINT, TRACE_BPRINT, TRACE_BPUTS, TRACE_STACK,
	     TRACE_GRAPH_ENT, TRACE_GRAPH_RET, TRACE_USER_STACK, TRACE_FUNC_REPEATS;
} T;

long th_trace_type(const char *name)
{
	return th_enum(name, -1);
}

static char *th_read_str(ulong p, char *buf, size_t len)
{
	if (!p || !th_read_cstr(p, buf, len, "string"))
		buf[0] = '\0';
	return buf;
}

static void th_events_load(void)
{
	long o_list = th_member("trace_event_call", "list");
	long o_ev = th_member("trace_event_call", "event");
	long o_name = th_member("trace_event_call", "name");
	long o_flags = th_member("trace_event_call", "flags");
	long o_type = th_member("trace_event", "type");
	long o_funcs = th_member("trace_event", "funcs");
	long o_trace = th_member("trace_event_functions", "trace");
	long fl_tp = th_enum("TRACE_EVENT_FL_TRACEPOINT", 0);
	ulong head = th_symbol("ftrace_events");
	ulong s_kp = th_symbol("print_kprobe_event");
	ulong s_krp = th_symbol("print_kretprobe_event");
	ulong s_se = th_symbol("print_syscall_enter");
	ulong s_sx = th_symbol("print_syscall_exit");
	struct th_walk w;
	long i;

	T.TRACE_FN = th_enum("TRACE_FN", -1);
	T.TRACE_PRINT = th_enum("TRACE_PRINT", -1);
	T.TRACE_BPRINT = th_enum("TRACE_BPRINT", -1);
	T.TRACE_BPUTS = th_enum("TRACE_BPUTS", -1);
	T.TRACE_STACK = th_enum("TRACE_STACK", -1);
	T.TRACE_USER_STACK = th_enum("TRACE_USER_STACK", -1);
	T.TRACE_GRAPH_ENT = th_enum("TRACE_GRAPH_ENT", -1);
	T.TRACE_GRAPH_RET = th_enum("TRACE_GRAPH_RET", -1);
	T.TRACE_FUNC_REPEATS = th_enum("TRACE_FUNC_REPEATS", -1);

	th_nevs = 0;
	th_ev_idx = malloc(65536 * sizeof(int));
	memset(th_ev_idx, 0xff, 65536 * sizeof(int));
	if (!head || o_list < 0 || o_ev < 0 || o_type < 0)
		return;
	th_list_walk(head, 100000, &w);
	th_evs = calloc(w.n ? w.n : 1, sizeof(*th_evs));
	for (i = 0; i < w.n; i++) {
		struct th_tevent *e = &th_evs[th_nevs];
		ulong call = w.ent[i] - o_list, funcs = 0, fn = 0, np = 0;
		int type = 0, flags = 0;

		if (!th_read_int(call + o_ev + o_type, &type, "event.type") ||
		    type <= 0 || type > 65535)
			continue;
		e->type = type;
		e->call = call;
		th_read_int(call + o_flags, &flags, "trace_event_call.flags");
		th_read_ulong(call + o_name, &np, "trace_event_call.name");
		if (flags & fl_tp)	/* name is tp->name */
			th_read_ulong(np, &np, "tracepoint.name");
		th_read_str(np, e->name, sizeof(e->name));
		if (o_funcs >= 0 && o_trace >= 0 &&
		    th_read_ulong(call + o_ev + o_funcs, &funcs, "funcs") &&
		    funcs)
			th_read_ulong(funcs + o_trace, &fn, "funcs->trace");
		if (fn && fn == s_kp)
			e->kind = TH_EK_KPROBE;
		else if (fn && fn == s_krp)
			e->kind = TH_EK_KRETPROBE;
		else if (fn && fn == s_se)
			e->kind = TH_EK_SYS_ENTER;
		else if (fn && fn == s_sx)
			e->kind = TH_EK_SYS_EXIT;
		else
			e->kind = TH_EK_TRACEPOINT;
		if (th_ev_idx[type] < 0)
			th_ev_idx[type] = th_nevs;
		th_nevs++;
	}
	th_walk_free(&w);
}

static struct th_tevent *th_event(unsigned type)
{
	if (th_nevs < 0)
		th_events_load();
	if (type > 65535 || th_ev_idx[type] < 0)
		return NULL;
	return &th_evs[th_ev_idx[type]];
}

const char *th_event_name(unsigned type)
{
	struct th_tevent *e = th_event(type);

	return e ? e->name : NULL;
}

/* The kprobe's arguments: the first probe on its trace_probe_event. */
static void th_kprobe_load(struct th_tevent *e)
{
	long o_call = th_member("trace_probe_event", "call");
	long o_probes = th_member("trace_probe_event", "probes");
	long o_tplist = th_member("trace_probe", "list");
	long o_nargs = th_member("trace_probe", "nr_args");
	long o_args = th_member("trace_probe", "args");
	long sz_arg = th_size("probe_arg");
	long o_an = th_member("probe_arg", "name");
	long o_ao = th_member("probe_arg", "offset");
	long o_ac = th_member("probe_arg", "count");
	long o_at = th_member("probe_arg", "type");
	long o_ftn = th_member("fetch_type", "name");
	long o_fts = th_member("fetch_type", "size");
	ulong tpe, first = 0, tp, p;
	unsigned nargs = 0;
	int i;

	if (o_call < 0 || o_probes < 0 || o_tplist < 0 || o_args < 0 ||
	    sz_arg <= 0)
		return;
	tpe = e->call - o_call;
	if (!th_read_ulong(tpe + o_probes, &first, "tpe.probes") ||
	    first == tpe + o_probes)
		return;
	tp = first - o_tplist;
	if (!th_read_uint(tp + o_nargs, &nargs, "trace_probe.nr_args") ||
	    nargs > 128)
		return;
	e->args = calloc(nargs ? nargs : 1, sizeof(*e->args));
	for (i = 0; i < (int)nargs; i++) {
		struct th_parg *a = &e->args[i];
		ulong ap = tp + o_args + i * sz_arg, ft = 0;

		th_read_ulong(ap + o_an, &p, "probe_arg.name");
		th_read_str(p, a->name, sizeof(a->name));
		th_read_uint(ap + o_ao, &a->offset, "probe_arg.offset");
		if (o_ac >= 0)
			th_read_uint(ap + o_ac, &a->count, "probe_arg.count");
		th_read_ulong(ap + o_at, &ft, "probe_arg.type");
		if (ft) {
			ulong sz = 0;

			th_read_ulong(ft + o_ftn, &p, "fetch_type.name");
			th_read_str(p, a->type, sizeof(a->type));
			th_read_ulong(ft + o_fts, &sz, "fetch_type.size");
			a->size = sz;
		}
	}
	e->nargs = nargs;
}

/* Fields of a tracepoint (class->fields, a list built head-first). */
static void th_fields_load(struct th_tevent *e)
{
	long o_class = th_member("trace_event_call", "class");
	long o_fields = th_member("trace_event_class", "fields");
	long o_link = th_member("ftrace_event_field", "link");
	long o_name = th_member("ftrace_event_field", "name");
	long o_type = th_member("ftrace_event_field", "type");
	long o_off = th_member("ftrace_event_field", "offset");
	long o_size = th_member("ftrace_event_field", "size");
	long o_sign = th_member("ftrace_event_field", "is_signed");
	ulong class = 0, p, heads[2];
	struct th_walk w;
	long i;
	int h, cap = 0;

	if (o_class < 0 || o_fields < 0 || o_link < 0 ||
	    !th_read_ulong(e->call + o_class, &class, "call.class") || !class)
		return;
	/* the common_* fields live in their own list (ftrace_common_fields) */
	heads[0] = th_symbol("ftrace_common_fields");
	heads[1] = class + o_fields;
	if (e->kind == TH_EK_SYS_ENTER || e->kind == TH_EK_SYS_EXIT) {
		/* syscall events: class->get_fields() gives the metadata's */
		long o_data = th_member("trace_event_call", "data");
		long o_f = th_member("syscall_metadata",
				     e->kind == TH_EK_SYS_ENTER ?
				     "enter_fields" : "exit_fields");
		ulong meta = 0;

		if (o_data >= 0 && o_f >= 0 &&
		    th_read_ulong(e->call + o_data, &meta, "call.data") && meta)
			heads[1] = meta + o_f;
	}
	for (h = 0; h < 2; h++) {
		if (!heads[h])
			continue;
		th_list_walk(heads[h], 1000, &w);
		e->fields = realloc(e->fields, (cap += w.n + 1) *
				    sizeof(*e->fields));
		/* built head-first: the last entry is the first field */
		for (i = w.n - 1; i >= 0; i--) {
			struct th_field *f = &e->fields[e->nfields++];
			ulong fp_ = w.ent[i] - o_link;

			memset(f, 0, sizeof(*f));
			th_read_ulong(fp_ + o_name, &p, "field.name");
			th_read_str(p, f->name, sizeof(f->name));
			th_read_ulong(fp_ + o_type, &p, "field.type");
			th_read_str(p, f->type, sizeof(f->type));
			th_read_int(fp_ + o_off, &f->offset, "field.offset");
			th_read_int(fp_ + o_size, &f->size, "field.size");
			th_read_int(fp_ + o_sign, &f->is_signed,
				    "field.is_signed");
		}
		th_walk_free(&w);
	}
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

static struct pf_field *th_pf_fields(struct th_tevent *e)
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
static void th_pf_load(struct th_tevent *e)
{
	long o_pf = th_member("trace_event_call", "print_fmt");
	struct pf_field *pf;
	ulong p = 0;
	char *text;

	if (o_pf < 0 || !th_read_ulong(e->call + o_pf, &p, "print_fmt") ||
	    !p) {
		snprintf(e->pf_err, sizeof(e->pf_err), "no print_fmt");
		return;
	}
	text = malloc(32768);
	if (!th_read_cstr(p, text, 32768, "print_fmt")) {
		snprintf(e->pf_err, sizeof(e->pf_err),
			 "print_fmt unreadable at %lx", p);
		free(text);
		return;
	}
	pf = th_pf_fields(e);
	e->pf = pf_parse_ctx(text, pf, e->nfields, &th_pfc, e->pf_err,
			     sizeof(e->pf_err));
	free(pf);
	free(text);
}

static void th_event_detail(struct th_tevent *e)
{
	if (e->loaded)
		return;
	e->loaded = TRUE;
	if (e->kind == TH_EK_KPROBE || e->kind == TH_EK_KRETPROBE)
		th_kprobe_load(e);
	else {
		th_fields_load(e);
		if (e->kind == TH_EK_TRACEPOINT)
			th_pf_load(e);
	}
}

/* ------------------------------------------------------- cmdlines --- */

static struct {
	int init;
	ulong savedcmd;
	long o_map_pid, o_map_cmd, o_num, o_cmds;
	int cmds_is_ptr;
	unsigned pid_max;
} C;

/* __trace_find_cmdline() */
static void th_find_cmdline_read(int pid, char *comm)
{
	unsigned map = 0, tpid;
	ulong m2p = 0, cmds;

	if (!pid) {
		strcpy(comm, "<idle>");
		return;
	}
	if (pid < 0) {
		strcpy(comm, "<XXX>");
		return;
	}
	if (!C.init) {
		ulong p = th_symbol("savedcmd");
		long sz;

		C.init = 1;
		if (p)
			th_read_ulong(p, &C.savedcmd, "savedcmd");
		C.o_map_pid = th_member("saved_cmdlines_buffer",
					"map_pid_to_cmdline");
		C.o_map_cmd = th_member("saved_cmdlines_buffer",
					"map_cmdline_to_pid");
		C.o_cmds = th_member("saved_cmdlines_buffer", "saved_cmdlines");
		C.cmds_is_ptr = MEMBER_TYPE("saved_cmdlines_buffer",
					    "saved_cmdlines") == TYPE_CODE_PTR;
		sz = MEMBER_SIZE("saved_cmdlines_buffer", "map_pid_to_cmdline");
		C.pid_max = sz > 4 ? sz / 4 - 1 : 32768;
	}
	strcpy(comm, "<...>");
	if (!C.savedcmd || C.o_map_pid < 0 || C.o_map_cmd < 0 || C.o_cmds < 0)
		return;
	/*
	 * Newer kernels mask the pid into the map; older ones gave pids
	 * above PID_MAX_DEFAULT no name.  Masking and checking the reverse
	 * map gives the same answer for both.
	 */
	tpid = pid & (C.pid_max - 1);
	if (!th_read_uint(C.savedcmd + C.o_map_pid + tpid * 4, &map,
			  "map_pid_to_cmdline") || map == (unsigned)-1)
		return;
	if (!th_read_ulong(C.savedcmd + C.o_map_cmd, &m2p,
			   "map_cmdline_to_pid") ||
	    !th_read_uint(m2p + map * 4, &tpid, "map_cmdline_to_pid[]") ||
	    (int)tpid != pid)
		return;
	if (C.cmds_is_ptr) {
		if (!th_read_ulong(C.savedcmd + C.o_cmds, &cmds,
				   "saved_cmdlines"))
			return;
	} else
		cmds = C.savedcmd + C.o_cmds;
	if (!th_read_cstr(cmds + map * 16, comm, 16, "saved_cmdlines[]"))
		strcpy(comm, "<...>");
}

/* The same few pids name millions of entries: a direct-mapped cache of
 * the answers (fixed size; the dump does not change under it). */
#define TH_CMDLINE_CACHE 1024
static struct {
	int pid, valid;
	char comm[16];
} th_cmdline_cache[TH_CMDLINE_CACHE];

void th_find_cmdline(int pid, char *comm)
{
	unsigned h = (unsigned)pid % TH_CMDLINE_CACHE;

	if (!th_cmdline_cache[h].valid || th_cmdline_cache[h].pid != pid) {
		char c[32];

		th_find_cmdline_read(pid, c);
		snprintf(th_cmdline_cache[h].comm,
			 sizeof(th_cmdline_cache[h].comm), "%s", c);
		th_cmdline_cache[h].pid = pid;
		th_cmdline_cache[h].valid = TRUE;
	}
	strcpy(comm, th_cmdline_cache[h].comm);
}

/* ------------------------------------------------------- context --- */

unsigned th_ent_type(const unsigned char *ent)
{
	return ent[0] | ent[1] << 8;
}

int th_ent_pid(const unsigned char *ent)
{
	int pid;

	memcpy(&pid, ent + 4, 4);
	return pid;
}

static struct {
	int init;
	long irqs_off, bh_off, nosupport, need_resched, preempt_resched,
	     lazy, hardirq, softirq, nmi;
} F;

/* Whether the kernel's read-only data holds the string S (bounded scan
 * of __start_rodata..__end_rodata in 64 KB chunks; -1: unreadable). */
static int th_rodata_has(const char *s)
{
	enum { CHUNK = 64 * 1024 };
	ulong start = th_symbol("__start_rodata");
	ulong end = th_symbol("__end_rodata");
	size_t n = strlen(s);
	char *buf;
	ulong a;
	int found = 0, read_any = FALSE;

	if (!start || end <= start || end - start > (256UL << 20) ||
	    n == 0 || n >= CHUNK)
		return -1;
	buf = malloc(CHUNK);
	if (!buf)
		return -1;
	for (a = start; a < end && !found; a += CHUNK - n) {
		long len = MIN((ulong)CHUNK, end - a);

		if (!th_read(a, buf, len, "kernel rodata"))
			continue;
		read_any = TRUE;
		if (memmem(buf, len, s, n))
			found = 1;
		if (len < CHUNK)
			break;
	}
	free(buf);
	return found ? 1 : read_any ? 0 : -1;
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
void th_print_lat_fmt(const unsigned char *ent)
{
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
	fprintf(fp, "%c%c%c", irqs_off, need_resched, hs);
	if (!th_lat_migrate()) {
		if (pc)
			fprintf(fp, "%x", pc);
		else
			fputc('.', fp);
		return;
	}
	if (pc & 0xf)
		fprintf(fp, "%x", pc & 0xf);
	else
		fputc('.', fp);
	if (pc & 0xf0)
		fprintf(fp, "%x", pc >> 4);
	else
		fputc('.', fp);
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
		b = th_enum(bit, -1);
		if (n < 32) {
			c[n].name = bit;
			c[n].b = b;
			n++;
		}
	}
	return b >= 0 && b < 32 && (t->trace_flags & (1U << b));
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
		tramp = th_symbol("__kretprobe_trampoline");
		if (!tramp)
			tramp = th_symbol("kretprobe_trampoline");
	}
	if (tramp && ip == tramp) {
		snprintf(buf, len, "[unknown/kretprobe'd]");
		return;
	}
	if (offset)
		th_ksym_pS(ip, buf, len);
	else if (th_ksym_lookup(ip, &s))
		snprintf(buf, len, "%s", s.name);
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
	return snprintf(out, len, "%s", name);
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

static void th_print_kprobe(struct th_tctx *t, struct th_tevent *e,
			    struct th_sb *b, int sym_flags)
{
	const unsigned char *ent = t->ent, *data;
	char s1[512];
	int i;
	unsigned hdr;

	th_event_detail(e);
	th_sb_printf(b, "%s: (", e->name);
	if (e->kind == TH_EK_KPROBE) {
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
		struct th_parg *a = &e->args[i];
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

static void th_print_syscall(struct th_tctx *t, struct th_tevent *e,
			     struct th_sb *b)
{
	long o_data = th_member("trace_event_call", "data");
	long o_name = th_member("syscall_metadata", "name");
	long o_nb = th_member("syscall_metadata", "nb_args");
	long o_args = th_member("syscall_metadata", "args");
	ulong meta = 0, np = 0, argv = 0, ap;
	char name[64], an[64];
	int nb = 0, i;

	if (o_data < 0 || !th_read_ulong(e->call + o_data, &meta, "call.data") ||
	    !meta || !th_read_ulong(meta + o_name, &np, "meta.name")) {
		th_sb_printf(b, "%s: (no syscall metadata)\n", e->name);
		return;
	}
	th_read_str(np, name, sizeof(name));
	if (e->kind == TH_EK_SYS_EXIT) {
		th_sb_printf(b, "%s -> 0x%lx\n", name,
			     th_get_ul(t->ent, t->len, 16));
		return;
	}
	th_read_int(meta + o_nb, &nb, "meta.nb_args");
	th_read_ulong(meta + o_args, &argv, "meta.args");
	th_sb_printf(b, "%s(", name);
	for (i = 0; i < nb && i < 6; i++) {
		ap = 0;
		th_read_ulong(argv + i * sizeof(ulong), &ap, "meta.args[]");
		th_read_str(ap, an, sizeof(an));
		th_sb_printf(b, "%s: %lx%s", an,
			     th_get_ul(t->ent, t->len, 16 + i * sizeof(ulong)),
			     i == nb - 1 ? "" : ", ");
	}
	th_sb_printf(b, ")\n");
}

/*
 * A tracepoint: "name: " and its print_fmt as trace_raw_output_*() prints
 * it; when the interpreter cannot, its fields one by one and a note.
 */
static void th_print_tracepoint(struct th_tctx *t, struct th_tevent *e,
				struct th_sb *b)
{
	char *out = malloc(8192);
	struct pf_field *pf;
	int n = -1;

	th_event_detail(e);
	th_sb_printf(b, "%s: ", e->name);
	th_pfc.flags = th_tflag(t, "TRACE_ITER_HASH_PTR_BIT") ? 0 :
		       PF_CTX_NO_HASH_PTR;
	if (e->pf) {
		n = pf_format(e->pf, t->ent, t->len, &th_pfc, out, 8192);
		if (n >= 0) {
			th_sb_printf(b, "%s\n", out);
			free(out);
			return;
		}
		snprintf(e->pf_err, sizeof(e->pf_err), "%s", out);
	}
	pf = th_pf_fields(e);
	pf_fields(pf, e->nfields, t->ent, t->len, &th_pfc, out, 8192);
	free(pf);
	th_sb_printf(b, "%s\n", out);
	if (!e->noted) {
		e->noted = TRUE;
		t->notes++;
		th_sb_printf(b, "# tracehunt: %s: print_fmt not interpreted "
			     "(%s): fields shown as name=value\n", e->name,
			     e->pf_err);
	}
	free(out);
}

void th_event_text(struct th_tctx *t, char *buf, size_t len)
{
	struct th_sb b = { buf, len, 0 };
	const unsigned char *ent = t->ent;
	unsigned type = th_ent_type(ent);
	int sym_flags = 0;
	struct th_tevent *e;
	char s1[512];

	buf[0] = '\0';
	if (th_nevs < 0)
		th_events_load();
	/* TRACE_ITER_SYM_MASK: print-parent, sym-offset, sym-addr */
	if (th_tflag(t, "TRACE_ITER_PRINT_PARENT_BIT"))
		sym_flags |= 4;
	if (th_tflag(t, "TRACE_ITER_SYM_OFFSET_BIT"))
		sym_flags |= 1;
	if (th_tflag(t, "TRACE_ITER_SYM_ADDR_BIT"))
		sym_flags |= 2;

	if (type == T.TRACE_FN) {
		ulong ip = th_get_ul(ent, t->len, 8);
		ulong parent = th_get_ul(ent, t->len, 8 + sizeof(ulong));

		th_ip_sym(s1, sizeof(s1), ip, sym_flags & 1, sym_flags & 2);
		th_sb_printf(&b, "%s", s1);
		if ((sym_flags & 4) && parent) {
			th_ip_sym(s1, sizeof(s1), parent, sym_flags & 1,
				  sym_flags & 2);
			th_sb_printf(&b, " <-%s", s1);
		}
		th_sb_printf(&b, "\n");
	} else if (type == T.TRACE_PRINT) {
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
	} else if (type == T.TRACE_BPRINT) {
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
	} else if (type == T.TRACE_BPUTS) {
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
	} else if (type == T.TRACE_STACK) {
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
	} else if ((e = th_event(type)) != NULL) {
		switch (e->kind) {
		case TH_EK_KPROBE:
		case TH_EK_KRETPROBE:
			th_print_kprobe(t, e, &b, sym_flags);
			break;
		case TH_EK_SYS_ENTER:
		case TH_EK_SYS_EXIT:
			th_print_syscall(t, e, &b);
			break;
		default:
			th_print_tracepoint(t, e, &b);
			break;
		}
	} else
		th_sb_printf(&b, "Unknown type %u\n", type);
}

/* print_trace_fmt() with trace_print_context() */
void th_print_entry(struct th_tctx *t)
{
	char comm[32], *text;
	int pid = th_ent_pid(t->ent);
	unsigned type = th_ent_type(t->ent);

	t->idx++;
	/* print_trace_line(): printk-msg-only prints the bare message */
	if ((type == T.TRACE_BPUTS || type == T.TRACE_BPRINT ||
	     type == T.TRACE_PRINT) && th_tflag(t, "TRACE_ITER_PRINTK_BIT") &&
	    th_tflag(t, "TRACE_ITER_PRINTK_MSGONLY_BIT")) {
		text = malloc(8192);
		t->msg_only = TRUE;
		th_event_text(t, text, 8192);
		t->msg_only = FALSE;
		fputs(text, fp);
		free(text);
		return;
	}
	/* test_cpu_buff_start() */
	if (t->annotate && t->cpu < 64 && !(t->started & (1UL << t->cpu))) {
		t->started |= 1UL << t->cpu;
		if (t->idx > 1)
			fprintf(fp, "##### CPU %u buffer started ####\n",
				t->cpu);
	}
	if (th_tflag(t, "TRACE_ITER_CONTEXT_INFO_BIT")) {
		th_find_cmdline(pid, comm);
		fprintf(fp, "%16s-%-7d ", comm, pid);
		fprintf(fp, "[%03d] ", t->cpu);
		if (th_tflag(t, "TRACE_ITER_IRQ_INFO_BIT"))
			th_print_lat_fmt(t->ent);
		if (t->in_ns) {
			unsigned long long us = (t->ts + 500) / 1000;

			fprintf(fp, " %5llu.%06llu", us / 1000000,
				us % 1000000);
		} else
			fprintf(fp, " %12llu", (unsigned long long)t->ts);
		fprintf(fp, ": ");
	}
	text = malloc(8192);
	th_event_text(t, text, 8192);
	fputs(text, fp);
	free(text);
}
