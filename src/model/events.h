/*
 * tracehunt: the model's one reader of trace events (events.c): the
 * ftrace_events catalog, trace_event_name(), an event's fields, its
 * kprobe arguments or syscall metadata, its print_fmt, and the types of
 * the kernel's own entries (enum trace_type).
 */
#ifndef TRACEHUNT_EVENTS_H
#define TRACEHUNT_EVENTS_H

#include "model/model.h"

#pragma GCC visibility push(hidden)

/* -------------------------------------------------- trace_event_call --- */

/* trace_event_name() of the trace_event_call at CALL into NAME (LEN
 * bytes): call->name, or call->tp->name for a TRACEPOINT event that is
 * not CUSTOM.  "" and FALSE when there is none or it cannot be read. */
int th_event_call_name(ulong call, char *name, size_t len);
/* call->class->system into SYS ("" and FALSE when unreadable). */
/* trace_event_call.class, 0 when unreadable */
ulong th_event_call_class(ulong call);
int th_event_call_system(ulong call, char *sys, size_t len);
/* ftrace_event_field.name of the field at FIELD into BUF; FALSE ("")
 * when unreadable. */
int th_event_field_name(ulong field, char *buf, size_t len);
/* FALSE when the dump lacks trace_event_call.class or its system. */
int th_event_names_ok(void);
/* Whether CALL's class has a reg() and whether its flags have
 * TRACE_EVENT_FL_IGNORE_ENABLE (event_create_dir()); FALSE: unknown. */
int th_event_call_enablable(ulong call, int *reg, int *ignore_enable);
/* available_events lists TRACE_EVENT_FL_IGNORE_ENABLE events too (3.10) */
int th_events_list_ignored(void);

/* What prints an event (its funcs->trace). */
enum th_event_kind { TH_EVK_TRACEPOINT, TH_EVK_KPROBE, TH_EVK_KRETPROBE,
		     TH_EVK_SYS_ENTER, TH_EVK_SYS_EXIT, TH_EVK_UPROBE,
		     TH_EVK_EPROBE, TH_EVK_SYNTH, TH_EVK_USER };

/* The kind of the event whose trace_event_call is at CALL (by its
 * funcs->trace); TH_EVK_TRACEPOINT when none of the others. */
enum th_event_kind th_event_call_kind(ulong call);

/* What a field's filter_type (enum filter_type's FILTER_*) says it is
 * (print_event_fields() prints by it); TH_FT_UNKNOWN: another value, or
 * none could be read. */
enum th_filter_type { TH_FT_UNKNOWN, TH_FT_OTHER, TH_FT_STATIC_STRING,
		      TH_FT_DYN_STRING, TH_FT_RDYN_STRING, TH_FT_PTR_STRING,
		      TH_FT_TRACE_FN, TH_FT_COMM, TH_FT_CPU };

/* struct ftrace_event_field */
struct th_event_field {
	char name[64];
	char type[64];
	int offset, size, is_signed;
	int len;		/* an array's length (field->len) */
	int has_len;		/* FALSE: no such member (before v6.3) */
	enum th_filter_type ftype;
};

/* struct probe_arg with its fetch_type's name and size */
struct th_probe_arg {
	char name[64];
	char type[24];
	unsigned offset, count, size;
	int hex;			/* printed as bare hex (3.10's u types) */
};

/* One event of the ftrace_events list. */
struct th_event {
	unsigned type;			/* event.type */
	ulong call;			/* struct trace_event_call */
	int idx;			/* its index in th_events() */
	/* th_event_named(): name and kind */
	int named;
	int has_name;			/* the name could be read */
	char name[96];
	enum th_event_kind kind;
	/* th_event_fields(): common_* first, in definition order */
	int fields_read, nfields;
	struct th_event_field *fields;
	int nfields_common;		/* of them, ftrace_common_fields' */
	/* a syscall event whose struct syscall_metadata has no list of
	 * its kind (no exit_fields): its class's fields follow the common */
	int meta_fields_absent;
	/* th_event_probe_args(): the first probe of a kprobe event */
	int args_read, nargs;
	struct th_probe_arg *args;
	/* their layout failed a check: the warnings, kept under this tag */
	int args_bad;
	char *args_tag;
	/* th_event_syscall(): read once */
	int sys_read;
	struct th_syscall_meta *sys;
};

/* The catalog in ftrace_events order (read once; names of the low types,
 * where the kernel's own entries are, read at once); its count. */
int th_events(struct th_event **evs);
/* The first event of TYPE, named; NULL when there is none. */
struct th_event *th_event_by_type(unsigned type);
/* Read E's name and kind when not yet read. */
void th_event_named(struct th_event *e);
/* E's fields: ftrace_common_fields, then the class's (a syscall event's
 * from its metadata), each list walked backward as f_next() does. */
void th_event_fields(struct th_event *e);
/* A kprobe event's arguments (those of the first trace_probe), checked
 * against the layout the kernel gave them once; the warnings again in
 * each command that calls it after that. */
void th_event_probe_args(struct th_event *e);
/* E's print_fmt into BUF: 0, or -1 when it has none, -2 when it cannot be
 * read (*ADDR: where it is). */
int th_event_print_fmt(const struct th_event *e, char *buf, size_t len,
		       ulong *addr);

/* A syscall event's struct syscall_metadata. */
struct th_syscall_meta {
	char name[64];
	int nb_args;
	char args[6][64];
	char types[6][64];
	/* the kernel records user data after the arguments (it has
	 * user_mask): which arguments', the argument giving an array's
	 * length (-1: strings), whether that array prints as a string */
	int has_user;
	unsigned user_mask;
	int user_arg_size, user_arg_is_str;
	/* sys_openat printed by sys_enter_openat_print(): its print_fmt is
	 * the one that function's commit gave it */
	int openat_by_name;
	unsigned args_off;	/* struct syscall_trace_enter.args */
	unsigned ret_off;	/* struct syscall_trace_exit.ret */
};
/* E's metadata, read once; NULL when E has none that can be read. */
const struct th_syscall_meta *th_event_syscall(struct th_event *e);

/* get_syscall_name(NR) into BUF ("" when none); FALSE when unreadable. */
int th_syscall_name(uint64_t nr, char *buf, size_t len);

/* The value of an enumerator a print_fmt names (TRACE_DEFINE_ENUM);
 * FALSE when the debuginfo has none of that name. */
int th_event_enum(const char *name, int64_t *val);

/* The kernel's own trace_printk() formats: the core section's and the
 * modules' kept on trace_bprintk_fmt_list; ADD gets each address. */
void th_bprintk_fmts(void (*add)(ulong fmt, void *arg), void *arg);
/* Every format printk_formats lists, in its order. */
void th_printk_formats_each(void (*fn)(ulong fmt, void *arg), void *arg);

/* ------------------------------------------------- enum trace_type --- */

/* The types of the kernel's own entries (kernel/trace/trace_entries.h),
 * -1 when unknown. */
struct th_trace_types {
	int ready;
	long fn, print, bprint, bputs, stack, user_stack, graph_ent, graph_ret,
	     func_repeats;
	/* the latency tracers' entries */
	long ctx, wake, hwlat, osnoise, timerlat;
};
extern struct th_trace_types th_ttypes;
void th_trace_types_load(void);
/* th_ttypes, read on first use. */
static inline const struct th_trace_types *th_trace_types(void)
{
	if (!th_ttypes.ready)
		th_trace_types_load();
	return &th_ttypes;
}
/* One enumerator of enum trace_type by name ("TRACE_FN"), -1 if none. */
long th_trace_type(const char *name);

#pragma GCC visibility pop

#endif
