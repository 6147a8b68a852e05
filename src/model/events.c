/*
 * tracehunt: trace events (kernel/trace/trace_events.c): the ftrace_events
 * list of struct trace_event_call, each event's name (trace_event_name()),
 * system, fields, kprobe arguments, syscall metadata and print_fmt, and
 * the types of the kernel's own entries (enum trace_type).  The only file
 * that reads these objects.
 */
#include "model/events.h"
#include "model/trace_probe.h"
#include "model/tracepoints.h"
#include "model/user_event.h"
#include "insn.h"

/* The offsets of every object read here, filled once. */
static struct th_event_off {
	int init;
	/* struct trace_event_call */
	long call_list, call_event, call_name, call_flags, call_class,
	     call_print_fmt, call_data;
	/* struct trace_event, trace_event_functions */
	long event_type, event_funcs, funcs_trace;
	/* struct trace_event_class */
	long class_system, class_fields, class_reg;
	/* struct ftrace_event_field */
	long field_link, field_name, field_type, field_offset, field_size,
	     field_is_signed, field_len, field_filter_type;
	int field_is_signed_bit;
	/* enum filter_type's value of each TH_FT_* (-1: none) */
	long ftypes[TH_FT_CPU + 1];
	/* struct syscall_metadata */
	long meta_nb_args_size;		/* int, u8 since 7.x */
	long meta_name, meta_nb_args, meta_args, meta_types,
	     meta_enter_fields, meta_exit_fields;
	long meta_user_mask, meta_user_mask_size, meta_user_arg_size,
	     meta_user_arg_is_str;
	long ste_args;			/* struct syscall_trace_enter.args */
	long stx_ret;			/* struct syscall_trace_exit.ret */
	/* enum trace_event_flags */
	long fl_tracepoint, fl_custom, fl_ignore_enable;
	/* what funcs->trace is for kprobes and syscalls */
	ulong print_kprobe, print_kretprobe, print_sys_enter, print_sys_exit;
	/* and for uprobes, eprobes and synthetic events */
	ulong print_uprobe, print_eprobe, print_synth, print_user;
} evo;

/* enum filter_type (kernel/trace/trace.h) by name, for TH_FT_* */
static void th_event_ftypes(void)
{
	static const char *const names[] = {
		[TH_FT_OTHER] = "FILTER_OTHER",
		[TH_FT_STATIC_STRING] = "FILTER_STATIC_STRING",
		[TH_FT_DYN_STRING] = "FILTER_DYN_STRING",
		[TH_FT_RDYN_STRING] = "FILTER_RDYN_STRING",
		[TH_FT_PTR_STRING] = "FILTER_PTR_STRING",
		[TH_FT_TRACE_FN] = "FILTER_TRACE_FN",
		[TH_FT_COMM] = "FILTER_COMM",
		[TH_FT_CPU] = "FILTER_CPU",
	};
	int i;

	evo.ftypes[TH_FT_UNKNOWN] = -1;
	for (i = TH_FT_OTHER; i <= TH_FT_CPU; i++)
		evo.ftypes[i] = th_enum(names[i], -1);
}

/* TH_FT_* of the filter_type value V */
static enum th_filter_type th_event_ftype(int v)
{
	int i;

	for (i = TH_FT_OTHER; i <= TH_FT_CPU; i++)
		if (evo.ftypes[i] >= 0 && evo.ftypes[i] == v)
			return i;
	return TH_FT_UNKNOWN;
}

static const struct th_event_off *th_event_off(void)
{
	if (evo.init)
		return &evo;
	evo.init = 1;
	evo.call_list = th_member("trace_event_call", "list");
	evo.call_event = th_member("trace_event_call", "event");
	evo.call_name = th_member("trace_event_call", "name");
	evo.call_flags = th_member("trace_event_call", "flags");
	evo.call_class = th_member("trace_event_call", "class");
	evo.call_print_fmt = th_member("trace_event_call", "print_fmt");
	evo.call_data = th_member("trace_event_call", "data");
	evo.event_type = th_member("trace_event", "type");
	evo.event_funcs = th_member("trace_event", "funcs");
	evo.funcs_trace = th_member("trace_event_functions", "trace");
	evo.class_system = th_member("trace_event_class", "system");
	evo.class_fields = th_member("trace_event_class", "fields");
	evo.class_reg = th_member("trace_event_class", "reg");
	evo.field_link = th_member("ftrace_event_field", "link");
	evo.field_name = th_member("ftrace_event_field", "name");
	evo.field_type = th_member("ftrace_event_field", "type");
	evo.field_offset = th_member("ftrace_event_field", "offset");
	evo.field_size = th_member("ftrace_event_field", "size");
	evo.field_is_signed = th_member("ftrace_event_field", "is_signed");
	/* an array's length, Linux kernel commit b6c7abd1c28a ("tracing:
	 * Fix TASK_COMM_LEN in trace event format file") (in v6.2, 6.1.y) */
	evo.field_len = th_member("ftrace_event_field", "len");
	/* 7.2: "unsigned int is_signed : 1" beside needs_test, in one word
	 * (the commit not identified here): the bitfield shares its offset */
	evo.field_is_signed_bit = evo.field_is_signed >= 0 &&
		th_member("ftrace_event_field", "needs_test") ==
		evo.field_is_signed;
	evo.field_filter_type = th_member("ftrace_event_field",
					  "filter_type");
	th_event_ftypes();
	evo.meta_name = th_member("syscall_metadata", "name");
	evo.meta_nb_args = th_member("syscall_metadata", "nb_args");
	evo.meta_nb_args_size = th_member_size("syscall_metadata", "nb_args");
	evo.meta_args = th_member("syscall_metadata", "args");
	evo.meta_types = th_member("syscall_metadata", "types");
	/* the user data the syscall events record, Linux kernel commit
	 * a544d9a66bdf ("tracing: Have syscall trace events read user space
	 * string") and its series (for v6.19): user_mask (a short),
	 * user_arg_size (s8), and user_arg_is_str, a bit beside a 7-bit
	 * nb_args (011ea0501dae ("tracing: Display some syscall arrays as
	 * strings")) */
	evo.meta_user_mask = th_member("syscall_metadata", "user_mask");
	evo.meta_user_mask_size = th_member_size("syscall_metadata", "user_mask");
	evo.meta_user_arg_size = th_member("syscall_metadata",
					   "user_arg_size");
	evo.meta_user_arg_is_str = th_member("syscall_metadata",
					     "user_arg_is_str");
	evo.ste_args = th_member("syscall_trace_enter", "args");
	evo.stx_ret = th_member("syscall_trace_exit", "ret");
	evo.meta_enter_fields = th_member("syscall_metadata", "enter_fields");
	evo.meta_exit_fields = th_member("syscall_metadata", "exit_fields");
	evo.fl_tracepoint = th_enum("TRACE_EVENT_FL_TRACEPOINT", 0);
	/* Linux kernel commit 3a73333fb370 ("tracing: Add
	 * TRACE_CUSTOM_EVENT() macro") (in v5.18): absent before, 0 */
	evo.fl_custom = th_enum("TRACE_EVENT_FL_CUSTOM", 0);
	evo.fl_ignore_enable = th_enum("TRACE_EVENT_FL_IGNORE_ENABLE", 0);
	/* (printers of kernel/trace/, built into the image: a name the
	 * kernel lacks is not looked for in every module) */
	evo.print_kprobe = th_ksymbol("print_kprobe_event");
	evo.print_kretprobe = th_ksymbol("print_kretprobe_event");
	evo.print_sys_enter = th_ksymbol("print_syscall_enter");
	evo.print_sys_exit = th_ksymbol("print_syscall_exit");
	evo.print_uprobe = th_ksymbol("print_uprobe_event");
	evo.print_eprobe = th_ksymbol("print_eprobe_event");
	evo.print_synth = th_ksymbol("print_synth_event");
	evo.print_user = th_ksymbol("user_event_print_trace");
	return &evo;
}

/* The string at P into BUF ("" when P is NULL or unreadable). */
static int th_event_str(ulong p, char *buf, size_t len, const char *what)
{
	if (!p || !th_read_cstr(p, buf, len, what)) {
		buf[0] = '\0';
		return FALSE;
	}
	return TRUE;
}

/* th_event_str() of the event CALL's name or its system's.  Neither is
 * ever empty, and each is a C name or a command's word: an empty one or
 * one with a control byte is damage (printed as it is, with the
 * warning). */
static int th_event_name_str(ulong call, ulong p, char *buf, size_t len,
			     const char *what)
{
	if (!th_event_str(p, buf, len, what))
		return FALSE;
	if (!buf[0] || !th_printable(buf))
		th_damaged("trace_event_call", call, "%s at %lx is %s", what,
			   p, buf[0] ? "not text" : "empty");
	return TRUE;
}

static int th_event_call_flags(ulong call)
{
	int flags = 0;

	th_read_int(call + th_event_off()->call_flags, &flags,
		    "trace_event_call.flags");
	return flags;
}

int th_event_call_name(ulong call, char *name, size_t len)
{
	const struct th_event_off *o = th_event_off();
	int flags = th_event_call_flags(call);
	ulong p = 0;

	name[0] = '\0';
	if (!th_read_ulong(call + o->call_name, &p, "trace_event_call.name"))
		return FALSE;
	/* the same union: call->name, or call->tp for a tracepoint */
	if (!(flags & o->fl_custom) && (flags & o->fl_tracepoint) && p &&
	    !th_tracepoint_name_ptr(p, &p))
		return FALSE;
	return th_event_name_str(call, p, name, len,
				 "trace_event_call.name");
}

int th_event_names_ok(void)
{
	const struct th_event_off *o = th_event_off();

	return o->call_class >= 0 && o->class_system >= 0;
}

/**
 * th_event_call_class - trace_event_call.class (0 when unreadable)
 * @call: struct trace_event_call
 */
ulong th_event_call_class(ulong call)
{
	const struct th_event_off *o = th_event_off();
	ulong class = 0;

	if (o->call_class < 0 ||
	    !th_read_ulong(call + o->call_class, &class, "call.class"))
		return 0;
	return class;
}

/**
 * th_event_field_name - ftrace_event_field.name of the field at FIELD
 * @field: struct ftrace_event_field
 * @buf: the name ("" when unreadable)
 * @len: room in @buf
 */
int th_event_field_name(ulong field, char *buf, size_t len)
{
	const struct th_event_off *o = th_event_off();
	ulong p = 0;

	buf[0] = '\0';
	return o->field_name >= 0 &&
		th_read_ulong(field + o->field_name, &p,
			      "ftrace_event_field.name") && p &&
		th_read_cstr(p, buf, len, "ftrace_event_field.name");
}

int th_event_call_system(ulong call, char *sys, size_t len)
{
	const struct th_event_off *o = th_event_off();
	ulong class = 0, p = 0;

	sys[0] = '\0';
	if (o->call_class < 0 || o->class_system < 0 ||
	    !th_read_ulong(call + o->call_class, &class,
			   "trace_event_call.class") || !class ||
	    !th_read_ulong(class + o->class_system, &p,
			   "trace_event_class.system"))
		return FALSE;
	return th_event_name_str(call, p, sys, len,
				 "trace_event_class.system");
}

/**
 * th_event_call_enablable - what event_create_dir() tests before it
 * creates an event's "enable" and "id" files
 * @call: the struct trace_event_call
 * @reg: set to whether call->class->reg is set
 * @ignore_enable: set to whether TRACE_EVENT_FL_IGNORE_ENABLE is
 *
 * Return: FALSE when the dump lacks them or they cannot be read.
 */
int th_event_call_enablable(ulong call, int *reg, int *ignore_enable)
{
	const struct th_event_off *o = th_event_off();
	ulong class = 0, fn = 0;
	int flags = 0;

	*reg = *ignore_enable = FALSE;
	if (o->call_class < 0 || o->class_reg < 0 || o->call_flags < 0 ||
	    !th_read_ulong(call + o->call_class, &class,
			   "trace_event_call.class") || !class ||
	    !th_read_ulong(class + o->class_reg, &fn,
			   "trace_event_class.reg") ||
	    !th_read_int(call + o->call_flags, &flags,
			 "trace_event_call.flags"))
		return FALSE;
	*reg = fn != 0;
	*ignore_enable = (flags & o->fl_ignore_enable) != 0;
	return TRUE;
}

/*
 * Whether available_events lists the events of TRACE_EVENT_FL_IGNORE_ENABLE
 * too (ftrace:function, whose class has a reg for perf): 3.10's t_next()
 * of trace_events.c tests only call->class->reg; later ones also skip
 * the flag.  No type tells them apart, so t_next() itself (the .next of
 * show_event_seq_ops, available_events' seq_operations) is read for a
 * test of the flag's bit: testb $BIT (f6 /0 ib), testl (f7 /0 id) or bt
 * $N (0f ba /4 ib).  FALSE (the later kernels) when it cannot be read.
 */
int th_events_list_ignored(void)
{
	static int known = -1;
	const struct th_event_off *o = th_event_off();
	ulong ops = th_symbol("show_event_seq_ops"), fn = 0;
	long o_next = th_member("seq_operations", "next");
	unsigned char code[256];
	struct insn in;
	long off;
	unsigned bit = o->fl_ignore_enable, idx;

	if (known >= 0)
		return known;
	known = 0;
	if (!ops || o_next < 0 || !bit || (bit & (bit - 1)) ||
	    !th_read_ulong(ops + o_next, &fn, "show_event_seq_ops.next") ||
	    !th_code_addr(fn) || !th_read(fn, code, sizeof(code), "t_next code"))
		return known;
	for (idx = 0; (1U << idx) != bit; idx++)
		;
	known = 1;
	for (off = 0; off < (long)sizeof(code); off += in.len) {
		const unsigned char *p;

		if (!insn_decode(code + off, sizeof(code) - off, fn + off,
				 &in) || in.kind == INSN_RET)
			break;
		p = code + off + in.len;
		if (in.map == 0 && in.opcode == 0xf6 && p[-1] == bit) {
			known = 0;
			break;
		}
		if (in.map == 0 && in.opcode == 0xf7 && in.len >= 5 &&
		    (uint32_t)(p[-4] | p[-3] << 8 | p[-2] << 16 |
			       (uint32_t)p[-1] << 24) == bit) {
			known = 0;
			break;
		}
		if (in.map == 1 && in.opcode == 0xba && p[-1] == idx) {
			known = 0;
			break;
		}
	}
	return known;
}

/* ------------------------------------------------- enum trace_type --- */

struct th_trace_types th_ttypes;

/*
 * The types of the kernel's own entries (kernel/trace/trace_entries.h):
 * enum trace_type, whose enumerators one "ptype/r" reads at once
 * (th_enum(), after trace.c's compile unit is expanded, which the
 * context columns need anyway).  A buffer of function entries then never
 * walks ftrace_events.  Without that enum in the debuginfo, they come
 * from ftrace_events: the same entries are events of the "ftrace" system
 * registered with their enum trace_type value as event.type
 * (trace_export.c: .event.type = etype).
 */
static const struct {
	const char *type, *event;
} th_ftrace_ents[] = {
	{ "TRACE_FN", "function" },
	{ "TRACE_PRINT", "print" },
	{ "TRACE_BPRINT", "bprint" },
	{ "TRACE_BPUTS", "bputs" },
	{ "TRACE_STACK", "kernel_stack" },
	{ "TRACE_USER_STACK", "user_stack" },
	{ "TRACE_GRAPH_ENT", "funcgraph_entry" },
	{ "TRACE_GRAPH_RET", "funcgraph_exit" },
	{ "TRACE_FUNC_REPEATS", "func_repeats" },
	{ "TRACE_CTX", "context_switch" },
	{ "TRACE_WAKE", "wakeup" },
	{ "TRACE_HWLAT", "hwlat" },
	{ "TRACE_OSNOISE", "osnoise" },
	{ "TRACE_TIMERLAT", "timerlat" },
};
#define TH_NFTRACE_ENTS (sizeof(th_ftrace_ents) / sizeof(th_ftrace_ents[0]))
static long th_ftrace_type[TH_NFTRACE_ENTS];	/* 0: not found */

/* -1: not decided; 1: types from enum trace_type; 0: from ftrace_events */
static int th_types_from_enum = -1;

static struct th_event *th_evs;
static int th_nevs = -1;
static int *th_ev_idx;		/* type -> index in th_evs, -1 */

static void th_events_load(void);

long th_trace_type(const char *name)
{
	unsigned i;

	th_trace_types();
	if (th_types_from_enum)
		return th_enum(name, -1);
	if (th_nevs < 0)
		th_events_load();
	for (i = 0; i < TH_NFTRACE_ENTS; i++)
		if (strcmp(th_ftrace_ents[i].type, name) == 0) {
			if (!th_ftrace_type[i])
				th_ftrace_type[i] = th_enum(name, -1);
			return th_ftrace_type[i];
		}
	return th_enum(name, -1);
}

void th_trace_types_load(void)
{
	if (th_types_from_enum >= 0)
		return;
	th_types_from_enum = th_enum_exists("TRACE_FN");
	/* th_trace_type() walks ftrace_events if need be */
	th_ttypes.fn = th_trace_type("TRACE_FN");
	th_ttypes.print = th_trace_type("TRACE_PRINT");
	th_ttypes.bprint = th_trace_type("TRACE_BPRINT");
	th_ttypes.bputs = th_trace_type("TRACE_BPUTS");
	th_ttypes.stack = th_trace_type("TRACE_STACK");
	th_ttypes.user_stack = th_trace_type("TRACE_USER_STACK");
	th_ttypes.graph_ent = th_trace_type("TRACE_GRAPH_ENT");
	th_ttypes.graph_ret = th_trace_type("TRACE_GRAPH_RET");
	th_ttypes.func_repeats = th_trace_type("TRACE_FUNC_REPEATS");
	th_ttypes.ctx = th_trace_type("TRACE_CTX");
	th_ttypes.wake = th_trace_type("TRACE_WAKE");
	th_ttypes.hwlat = th_trace_type("TRACE_HWLAT");
	th_ttypes.osnoise = th_trace_type("TRACE_OSNOISE");
	th_ttypes.timerlat = th_trace_type("TRACE_TIMERLAT");
	th_ttypes.ready = 1;
}

/* Whether CALL is the "ftrace" system's event NAME, one of ours. */
static void th_ftrace_ent_probe(ulong call, const char *name, int type)
{
	char sys[16];
	unsigned i;

	for (i = 0; i < TH_NFTRACE_ENTS; i++)
		if (strcmp(th_ftrace_ents[i].event, name) == 0)
			break;
	if (i == TH_NFTRACE_ENTS || th_ftrace_type[i] ||
	    !th_event_call_system(call, sys, sizeof(sys)) ||
	    strcmp(sys, "ftrace") != 0)
		return;
	th_ftrace_type[i] = type;
}

/* ------------------------------------------------------ the catalog --- */

enum th_event_kind th_event_call_kind(ulong call)
{
	const struct th_event_off *o = th_event_off();
	ulong funcs = 0, fn = 0;

	if (o->event_funcs >= 0 && o->funcs_trace >= 0 &&
	    th_read_ulong(call + o->call_event + o->event_funcs, &funcs,
			  "funcs") && funcs)
		th_read_ulong(funcs + o->funcs_trace, &fn, "funcs->trace");
	if (fn && fn == o->print_kprobe)
		return TH_EVK_KPROBE;
	if (fn && fn == o->print_kretprobe)
		return TH_EVK_KRETPROBE;
	if (fn && fn == o->print_sys_enter)
		return TH_EVK_SYS_ENTER;
	if (fn && fn == o->print_sys_exit)
		return TH_EVK_SYS_EXIT;
	if (fn && fn == o->print_uprobe)
		return TH_EVK_UPROBE;
	if (fn && fn == o->print_eprobe)
		return TH_EVK_EPROBE;
	if (fn && fn == o->print_synth)
		return TH_EVK_SYNTH;
	if (fn && fn == o->print_user)
		return TH_EVK_USER;
	return TH_EVK_TRACEPOINT;
}

void th_event_named(struct th_event *e)
{
	const struct th_event_off *o = th_event_off();

	if (e->named)
		return;
	e->named = TRUE;
	e->has_name = th_event_call_name(e->call, e->name, sizeof(e->name));
	if (!(th_event_call_flags(e->call) & o->fl_tracepoint))
		th_ftrace_ent_probe(e->call, e->name, e->type);
	e->kind = th_event_call_kind(e->call);
}

/*
 * Every event's type from ftrace_events (a thousand and more: one read
 * each); names and printers are read when an event is first printed or
 * asked for, except for the low types: the kernel's own entries have
 * their enum trace_type values there (below __TRACE_LAST_TYPE, where
 * dynamic types start), and the entry types come from their names.
 */
#define TH_EV_EAGER	64

static void th_events_load(void)
{
	const struct th_event_off *o = th_event_off();
	ulong head = th_symbol("ftrace_events");
	struct th_pagecopy pc = { 0 };
	struct th_walk w;
	long i;

	th_nevs = 0;
	th_ev_idx = malloc(65536 * sizeof(int));
	memset(th_ev_idx, 0xff, 65536 * sizeof(int));
	if (!head || o->call_list < 0 || o->call_event < 0 ||
	    o->event_type < 0)
		return;
	th_list_walk(head, 100000, &w);
	th_evs = calloc(w.n ? w.n : 1, sizeof(*th_evs));
	for (i = 0; i < w.n; i++) {
		struct th_event *e = &th_evs[th_nevs];
		ulong call = w.ent[i] - o->call_list;
		int type = 0;

		/* (the events' own structs lie side by side: one read a page) */
		if (!th_read_via(&pc, call + o->call_event + o->event_type,
				 &type, sizeof(type), "event.type") ||
		    type <= 0 || type > 65535)
			continue;
		e->type = type;
		e->call = call;
		e->idx = th_nevs;
		if (type < TH_EV_EAGER)
			th_event_named(e);
		if (th_ev_idx[type] < 0)
			th_ev_idx[type] = th_nevs;
		th_nevs++;
	}
	th_walk_free(&w);
	th_pagecopy_free(&pc);
}

int th_events(struct th_event **evs)
{
	if (th_nevs < 0)
		th_events_load();
	*evs = th_evs;
	return th_nevs;
}

struct th_event *th_event_by_type(unsigned type)
{
	struct th_event *e;

	if (th_nevs < 0)
		th_events_load();
	if (type > 65535 || th_ev_idx[type] < 0)
		return NULL;
	e = &th_evs[th_ev_idx[type]];
	th_event_named(e);
	return e;
}

/* ------------------------------------------------------- the details --- */

/* The fields on the list at HEAD, appended to E's (built head-first: the
 * last entry is the first field). */
static void th_event_field_list(struct th_event *e, ulong head, int *cap)
{
	const struct th_event_off *o = th_event_off();
	struct th_event_field *fields;
	struct th_walk w;
	ulong p;
	long i;
	int ft;

	th_list_walk(head, 1000, &w);
	*cap += w.n + 1;
	fields = realloc(e->fields, *cap * sizeof(*e->fields));
	if (!fields) {
		th_walk_free(&w);
		return;
	}
	e->fields = fields;
	for (i = w.n - 1; i >= 0; i--) {
		struct th_event_field *f = &e->fields[e->nfields++];
		ulong fa = w.ent[i] - o->field_link;

		memset(f, 0, sizeof(*f));
		th_read_ulong(fa + o->field_name, &p, "field.name");
		th_event_str(p, f->name, sizeof(f->name), "field.name");
		th_read_ulong(fa + o->field_type, &p, "field.type");
		th_event_str(p, f->type, sizeof(f->type), "field.type");
		th_read_int(fa + o->field_offset, &f->offset, "field.offset");
		th_read_int(fa + o->field_size, &f->size, "field.size");
		th_read_int(fa + o->field_is_signed, &f->is_signed,
			    "field.is_signed");
		if (o->field_is_signed_bit)	/* bit 0 of that word */
			f->is_signed &= 1;
		f->len = -1;
		if (o->field_len >= 0 &&
		    th_read_int(fa + o->field_len, &f->len, "field.len"))
			f->has_len = TRUE;
		if (o->field_filter_type >= 0 &&
		    th_read_int(fa + o->field_filter_type, &ft,
				"field.filter_type"))
			f->ftype = th_event_ftype(ft);
	}
	th_walk_free(&w);
}

void th_event_fields(struct th_event *e)
{
	const struct th_event_off *o = th_event_off();
	ulong class = 0, heads[2];
	int h, cap = 0;

	if (e->fields_read)
		return;
	e->fields_read = TRUE;
	th_event_named(e);
	if (o->call_class < 0 || o->class_fields < 0 || o->field_link < 0 ||
	    !th_read_ulong(e->call + o->call_class, &class, "call.class") ||
	    !class)
		return;
	/* the common_* fields live in their own list (ftrace_common_fields) */
	heads[0] = th_symbol("ftrace_common_fields");
	heads[1] = class + o->class_fields;
	if (e->kind == TH_EVK_SYS_ENTER || e->kind == TH_EVK_SYS_EXIT) {
		/* syscall events: class->get_fields() gives the metadata's */
		long o_f = e->kind == TH_EVK_SYS_ENTER ? o->meta_enter_fields :
			   o->meta_exit_fields;
		ulong meta = 0;

		e->meta_fields_absent = o_f < 0;
		if (o->call_data >= 0 && o_f >= 0 &&
		    th_read_ulong(e->call + o->call_data, &meta, "call.data") &&
		    meta)
			heads[1] = meta + o_f;
	}
	/* user events: user_event_get_fields(), the user_event's list */
	if (e->kind == TH_EVK_USER)
		heads[1] = th_user_event_fields_head(e->call);
	for (h = 0; h < 2; h++) {
		if (heads[h])
			th_event_field_list(e, heads[h], &cap);
		if (!h)
			e->nfields_common = e->nfields;
	}
}

void th_event_probe_args(struct th_event *e)
{
	ulong tp;
	int i, nargs;

	char tag[40];
	const char *old;

	if (e->args_read) {
		if (e->args_bad)
			th_damage_replay(e->args_tag);
		return;
	}
	e->args_read = TRUE;
	snprintf(tag, sizeof(tag), "probe_args %lx", e->call);
	if (!(e->args_tag = strdup(tag)))
		return;
	old = th_damage_tag(e->args_tag);
	/* the probe's arguments: model/trace_probe.c, their one reader */
	tp = th_trace_probe_of_call(e->call);
	if (!tp || (nargs = th_trace_probe_nr_args(tp)) < 0) {
		th_damage_tag(old);
		e->args_bad = th_damage_kept(e->args_tag);
		return;
	}
	e->args = calloc(nargs ? nargs : 1, sizeof(*e->args));
	for (i = 0; i < nargs; i++) {
		struct th_probe_arg *a = &e->args[i];

		th_probe_arg_name(tp, i, a->name, sizeof(a->name));
		th_probe_arg_layout(tp, i, &a->offset, &a->count, &a->size);
		th_probe_arg_type(tp, i, a->type, sizeof(a->type));
		a->hex = th_probe_arg_hex(tp, i);
	}
	e->nargs = nargs;
	th_trace_probe_check(tp, e);
	th_damage_tag(old);
	e->args_bad = th_damage_kept(e->args_tag);
}

int th_event_print_fmt(const struct th_event *e, char *buf, size_t len,
		       ulong *addr)
{
	const struct th_event_off *o = th_event_off();
	ulong p = 0;

	buf[0] = '\0';
	*addr = 0;
	if (o->call_print_fmt < 0 ||
	    !th_read_ulong(e->call + o->call_print_fmt, &p, "print_fmt") || !p)
		return -1;
	*addr = p;
	return th_read_cstr(p, buf, len, "print_fmt") ? 0 : -2;
}

/* The NAMES[] (args or types) of a syscall's metadata into OUT. */
static void th_event_sys_strs(ulong names, int n, char out[][64])
{
	ulong ap;
	int i;

	for (i = 0; i < n && i < 6; i++) {
		ap = 0;
		if (names)
			th_read_ulong(names + i * sizeof(ulong), &ap,
				      "meta.args[]");
		th_event_str(ap, out[i], sizeof(out[i]), "string");
	}
}

/* The user-data fields of the metadata at META into M. */
static void th_event_sys_user(const struct th_event_off *o, ulong meta,
			      struct th_syscall_meta *m)
{
	unsigned char b = 0;
	signed char sz = -1;
	short mask = 0;

	m->has_user = o->meta_user_mask >= 0;
	m->user_arg_size = -1;
	if (!m->has_user)
		return;
	if (o->meta_user_mask_size == 2) {
		th_read(meta + o->meta_user_mask, &mask, 2, "meta.user_mask");
		m->user_mask = (unsigned short)mask;
	} else
		th_read_uint(meta + o->meta_user_mask, &m->user_mask,
			     "meta.user_mask");
	if (o->meta_user_arg_size >= 0 &&
	    th_read(meta + o->meta_user_arg_size, &sz, 1,
		    "meta.user_arg_size"))
		m->user_arg_size = sz;
	/* the bit above nb_args's 7 in their byte */
	if (o->meta_user_arg_is_str >= 0 &&
	    th_read(meta + o->meta_user_arg_is_str, &b, 1,
		    "meta.user_arg_is_str"))
		m->user_arg_is_str = o->meta_user_arg_is_str ==
				     o->meta_nb_args ? b >> 7 : b & 1;
}

const struct th_syscall_meta *th_event_syscall(struct th_event *e)
{
	const struct th_event_off *o = th_event_off();
	struct th_syscall_meta *m;
	ulong meta = 0, np = 0, argv = 0, typev = 0, pa;
	char *pf;

	if (e->sys_read)
		return e->sys;
	e->sys_read = TRUE;
	if (o->call_data < 0 ||
	    !th_read_ulong(e->call + o->call_data, &meta, "call.data") ||
	    !meta || !th_read_ulong(meta + o->meta_name, &np, "meta.name"))
		return NULL;
	m = calloc(1, sizeof(*m));
	th_event_str(np, m->name, sizeof(m->name), "string");
	if (o->meta_nb_args_size == 1) {
		/* a u8 (7.x): "u8 nb_args:7" beside user_arg_is_str in one
		 * byte (see th_event_off()) */
		unsigned char nb = 0;

		th_read(meta + o->meta_nb_args, &nb, 1, "meta.nb_args");
		m->nb_args = o->meta_user_arg_is_str == o->meta_nb_args ?
			     nb & 0x7f : nb;
	} else
		th_read_int(meta + o->meta_nb_args, &m->nb_args,
			    "meta.nb_args");
	th_read_ulong(meta + o->meta_args, &argv, "meta.args");
	th_event_sys_strs(argv, m->nb_args, m->args);
	if (o->meta_types >= 0)
		th_read_ulong(meta + o->meta_types, &typev, "meta.types");
	th_event_sys_strs(typev, m->nb_args, m->types);
	th_event_sys_user(o, meta, m);
	/* syscall_trace_enter and syscall_trace_exit: an 8-byte
	 * trace_entry and an int before args[] and ret since the structs
	 * exist (v2.6.31): 16 when the debuginfo lacks them */
	m->args_off = o->ste_args > 0 ? o->ste_args : 16;
	m->ret_off = o->stx_ret > 0 ? o->stx_ret : 16;
	pf = malloc(4096);
	m->openat_by_name = m->has_user &&
		th_event_print_fmt(e, pf, 4096, &pa) == 0 &&
		strstr(pf, "flags: %s%s") != NULL;
	free(pf);
	e->sys = m;
	return m;
}

/**
 * th_syscall_name - get_syscall_name(): syscalls_metadata[NR]->name
 * @nr: the syscall number
 * @buf: the name, "" when the kernel has none for @nr
 * @len: room in @buf
 *
 * NR_syscalls (a #define) is the length of sys_call_table.  FALSE when
 * unreadable.
 */
int th_syscall_name(uint64_t nr, char *buf, size_t len)
{
	const struct th_event_off *o = th_event_off();
	ulong table = 0, meta = 0, np = 0, sct = th_ksymbol("sys_call_table");
	struct th_sym s;

	buf[0] = '\0';
	if (!sct || !th_ksym_lookup(sct, &s) || nr >= s.size / sizeof(ulong))
		return TRUE;
	if (!th_ksymbol("syscalls_metadata") ||
	    !th_read_ulong(th_ksymbol("syscalls_metadata"), &table,
			   "syscalls_metadata"))
		return FALSE;
	if (!table)
		return TRUE;
	if (!th_read_ulong(table + nr * sizeof(ulong), &meta,
			   "syscalls_metadata[]"))
		return FALSE;
	if (!meta)
		return TRUE;
	if (!th_read_ulong(meta + o->meta_name, &np, "meta.name"))
		return FALSE;
	th_event_str(np, buf, len, "string");
	return TRUE;
}

int th_event_enum(const char *name, int64_t *val)
{
	if (!th_enum_exists(name))
		return FALSE;
	*val = th_enum(name, 0);
	return TRUE;
}

/* ------------------------------------------------ trace_printk formats --- */

void th_bprintk_fmts(void (*add)(ulong fmt, void *arg), void *arg)
{
	ulong start = th_symbol("__start___trace_bprintk_fmt");
	ulong stop = th_symbol("__stop___trace_bprintk_fmt");
	ulong head = th_symbol("trace_bprintk_fmt_list");
	long o_list = th_member("trace_bprintk_fmt", "list");
	long o_fmt = th_member("trace_bprintk_fmt", "fmt");
	ulong p, v;
	struct th_walk w;
	long i;

	if (start && stop > start && stop - start < (1UL << 24))
		for (p = start; p < stop; p += sizeof(ulong))
			if (th_read_ulong(p, &v, "bprintk fmt") && th_kptr(v))
				add(v, arg);
	if (head && o_list >= 0 && o_fmt >= 0) {
		th_list_walk(head, 100000, &w);
		for (i = 0; i < w.n; i++)
			if (th_read_ulong(w.ent[i] - o_list + o_fmt, &v,
					  "trace_bprintk_fmt.fmt") &&
			    th_kptr(v))
				add(v, arg);
		th_walk_free(&w);
	}
}

/**
 * th_printk_formats_each - the formats printk_formats lists, in its order
 * (find_next() of kernel/trace/trace_printk.c): the core's
 * __trace_bprintk_fmt section, its __tracepoint_str section, then the
 * modules' formats on trace_bprintk_fmt_list
 * @fn: called with the address of each format (the value of the
 * section's pointer)
 * @arg: passed to @fn
 */
void th_printk_formats_each(void (*fn)(ulong fmt, void *arg), void *arg)
{
	static const char *const sect[][2] = {
		{ "__start___trace_bprintk_fmt", "__stop___trace_bprintk_fmt" },
		{ "__start___tracepoint_str", "__stop___tracepoint_str" },
	};
	ulong head = th_symbol("trace_bprintk_fmt_list");
	long o_list = th_member("trace_bprintk_fmt", "list");
	long o_fmt = th_member("trace_bprintk_fmt", "fmt");
	ulong p, v, start, stop;
	struct th_walk w;
	unsigned k;
	long i;

	for (k = 0; k < 2; k++) {
		start = th_symbol(sect[k][0]);
		stop = th_symbol(sect[k][1]);
		if (!start || stop <= start || stop - start >= (1UL << 24))
			continue;
		for (p = start; p < stop; p += sizeof(ulong))
			/* t_show() prints nothing for a NULL entry */
			if (th_read_ulong(p, &v, "printk format") && v)
				fn(v, arg);
	}
	if (head && o_list >= 0 && o_fmt >= 0) {
		th_list_walk(head, 100000, &w);
		for (i = 0; i < w.n; i++)
			if (th_read_ulong(w.ent[i] - o_list + o_fmt, &v,
					  "trace_bprintk_fmt.fmt") && v)
				fn(v, arg);
		th_walk_free(&w);
	}
}
