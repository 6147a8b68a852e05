/*
 * tracehunt: trace arrays (struct trace_array): the global one and every
 * instance, and their fields.  Every member of struct trace_array that
 * tracehunt's tracefs files read is looked up here, in one offset struct
 * filled on first use (array_buffer: model/trace_rb.c's
 * th_array_buffer()).
 */
#include "model/model.h"
#include "model/ftrace_files.h"
#include "model/tracearray.h"
#include "model/trace_opts.h"
#include "model/tracepoints.h"

static struct th_tr *th_trs;
static int th_ntrs = -1;

static struct th_tr_off th_tr_offsets;
static int th_tr_offsets_read;

/**
 * th_tr_off - the offsets of struct trace_array's members (-1: absent)
 */
const struct th_tr_off *th_tr_off(void)
{
	struct th_tr_off *o = &th_tr_offsets;

	if (th_tr_offsets_read)
		return o;
	th_tr_offsets_read = TRUE;
	o->list = th_member("trace_array", "list");
	o->name = th_member("trace_array", "name");
	o->current_trace = th_member("trace_array", "current_trace");
	/* per-instance tracer flags (7.2 and later) */
	o->current_trace_flags = th_member("trace_array",
					   "current_trace_flags");
	o->trace_flags = th_member("trace_array", "trace_flags");
	o->trace_flags_size = th_member_size("trace_array", "trace_flags");
	/* Linux kernel commit 9a38a8856f5f ("tracing: Add a method to pass
	 * in trace_array descriptor to option files") (in v4.2) */
	o->trace_flags_index = th_member("trace_array", "trace_flags_index");
	o->trace_flags_index_size = th_member_size("trace_array",
						"trace_flags_index");
	o->clock_id = th_member("trace_array", "clock_id");
	o->ops = th_member("trace_array", "ops");
	o->events = th_member("trace_array", "events");
	o->mod_events = th_member("trace_array", "mod_events");
	o->mod_trace = th_member("trace_array", "mod_trace");
	o->mod_notrace = th_member("trace_array", "mod_notrace");
	o->func_probes = th_member("trace_array", "func_probes");
	o->tracers = th_member("trace_array", "tracers");
	o->buffer_disabled = th_member("trace_array", "buffer_disabled");
	o->ring_buffer_expanded = th_member("trace_array",
					    "ring_buffer_expanded");
	o->buffer_percent = th_member("trace_array", "buffer_percent");
	/* CONFIG_TRACER_MAX_TRACE (or CONFIG_HWLAT_TRACER) only */
	o->max_latency = th_member("trace_array", "max_latency");
	/* CONFIG_TRACER_SNAPSHOT only */
	o->allocated_snapshot = th_member("trace_array", "allocated_snapshot");
	/* syscall_user_buf_size (v6.19) */
	o->syscall_buf_sz = th_member("trace_array", "syscall_buf_sz");
	/* the events directory: a dentry, an eventfs_inode since v6.6 */
	o->event_dir = th_member("trace_array", "event_dir");
	/* a cpumask_var_t: with CONFIG_CPUMASK_OFFSTACK a pointer (its size
	 * is not struct cpumask's), else struct cpumask[1] */
	o->tracing_cpumask = th_member("trace_array", "tracing_cpumask");
	o->tracing_cpumask_size = th_member_size("trace_array",
					      "tracing_cpumask");
	o->tracing_cpumask_ptr = o->tracing_cpumask >= 0 &&
		o->tracing_cpumask_size == sizeof(ulong) &&
		th_size("cpumask") > (long)sizeof(ulong);
	o->function_pids = th_member("trace_array", "function_pids");
	/* Linux kernel commit b3b1e6ededa4 ("ftrace: Create
	 * set_ftrace_notrace_pid to not trace tasks") (in v5.8) */
	o->function_no_pids = th_member("trace_array", "function_no_pids");
	o->filtered_pids = th_member("trace_array", "filtered_pids");
	/* Linux kernel commit 276836260301 ("tracing: Create
	 * set_event_notrace_pid to not trace tasks") (in v5.8) */
	o->filtered_no_pids = th_member("trace_array", "filtered_no_pids");
	o->err_log = th_member("trace_array", "err_log");
	/* the event system directories (struct trace_subsystem_dir) */
	o->systems = th_member("trace_array", "systems");
	/* the ftrace/print event that trace_marker writes fire triggers on
	 * (v4.17: its events/ftrace/print/trigger file) */
	o->trace_marker_file = th_member("trace_array", "trace_marker_file");
	/* a read-only array: the backup instance of a persistent buffer,
	 * whose events have only format and id (trace_array_is_readonly(),
	 * 7.x) */
	o->flags = th_member("trace_array", "flags");
	o->flags_size = th_member_size("trace_array", "flags");
	/* TRACE_ARRAY_FL_RDONLY: asked by th_tr_readonly() */
	/* boot-mapped arrays: Linux kernel commit e645535a954a ("tracing:
	 * Add option to use memmapped memory for trace boot instance") (in
	 * v6.10) gave range_addr_start, its series text_delta; Linux kernel
	 * commit
	 * b65334825fb1 ("tracing: Have persistent trace instances save KASLR
	 * offset") (in v6.15) the scratch area, and Linux kernel commit
	 * 35a380ddbc65 ("tracing: Show last module text symbols in the
	 * stacktrace") (in v6.15) module_delta */
	o->range_addr_start = th_member("trace_array", "range_addr_start");
	o->text_delta = th_member("trace_array", "text_delta");
	o->module_delta = th_member("trace_array", "module_delta");
	o->scratch = th_member("trace_array", "scratch");
	o->scratch_size = th_member("trace_array", "scratch_size");
	return o;
}

/**
 * th_trace_arrays - the global trace array, then every instance in
 * ftrace_trace_arrays order
 * @out: set to the arrays (kept for the session)
 *
 * Return: their number.
 */
int th_trace_arrays(struct th_tr **out)
{
	const struct th_tr_off *o = th_tr_off();
	ulong head = th_symbol("ftrace_trace_arrays");
	ulong global = th_symbol("global_trace");
	struct th_walk w;
	long i;
	int cap = 8;

	if (th_ntrs >= 0) {
		*out = th_trs;
		return th_ntrs;
	}
	th_ntrs = 0;
	if (!global) {
		*out = NULL;
		return 0;
	}
	th_trs = calloc(cap, sizeof(*th_trs));
	th_trs[0].addr = global;
	th_trs[0].name[0] = '\0';
	th_ntrs = 1;
	if (head && o->list >= 0 && o->name >= 0) {
		th_list_walk(head, 10000, &w);
		if (w.err)
			th_warn("ftrace_trace_arrays: %s at %lx", w.err, w.bad);
		for (i = 0; i < w.n; i++) {
			ulong tr = w.ent[i] - o->list, np = 0;

			if (tr == global)
				continue;
			if (th_ntrs >= cap) {
				cap *= 2;
				th_trs = realloc(th_trs, cap * sizeof(*th_trs));
			}
			memset(&th_trs[th_ntrs], 0, sizeof(th_trs[0]));
			th_trs[th_ntrs].addr = tr;
			if (!th_read_ulong(tr + o->name, &np, "trace_array.name") ||
			    !th_read_cstr(np, th_trs[th_ntrs].name,
					  sizeof(th_trs[0].name),
					  "trace_array.name") ||
			    !th_trs[th_ntrs].name[0])
				snprintf(th_trs[th_ntrs].name,
					 sizeof(th_trs[0].name), "?%lx", tr);
			th_ntrs++;
		}
		th_walk_free(&w);
	}
	*out = th_trs;
	return th_ntrs;
}

/**
 * th_trace_array_by_name - the array of that name ("" or NULL: global)
 * @name: the instance's name
 */
struct th_tr *th_trace_array_by_name(const char *name)
{
	struct th_tr *trs;
	int n = th_trace_arrays(&trs), i;

	for (i = 0; i < n; i++)
		if (strcmp(trs[i].name, name ? name : "") == 0)
			return &trs[i];
	return NULL;
}

/**
 * th_tr_current_tracer - trace_array.current_trace (0: unreadable)
 * @tr: the struct trace_array
 */
ulong th_tr_current_tracer(ulong tr)
{
	ulong cur = th_ptr_at(tr, th_tr_off()->current_trace,
			      "trace_array.current_trace"), t[64];
	int n, i;

	/* every array starts with nop_trace (tracer_alloc_buffers(),
	 * trace_array_create()) and only ever gets a registered tracer */
	if (!cur && th_tr_off()->current_trace >= 0 &&
	    th_symbol("nop_trace"))
		th_damaged("trace_array", tr, "no current_trace");
	if (cur && (n = ff_tracers(t, 64)) > 0 && n < 64) {
		for (i = 0; i < n && t[i] != cur; i++)
			;
		if (i == n)
			th_damaged("trace_array", tr, "current_trace %lx is "
				   "no tracer on trace_types", cur);
	}
	return cur;
}

/**
 * th_tr_current_trace_flags - the current tracer's flags kept per array
 * (trace_array.current_trace_flags), 0 where the kernel has none
 * @tr: the struct trace_array
 */
ulong th_tr_current_trace_flags(ulong tr)
{
	return th_ptr_at(tr, th_tr_off()->current_trace_flags,
			 "trace_array.current_trace_flags");
}

/**
 * th_tr_ops - trace_array.ops, 0 when none or unreadable
 * @tr: the struct trace_array
 */
ulong th_tr_ops(ulong tr)
{
	ulong ops;

	/* Before trace_array.ops (591dffdade9f, v3.19) the filter files
	 * were the global array's only, opened on ftrace.c's global_ops */
	if (th_tr_off()->ops < 0)
		return tr == th_symbol("global_trace") ?
			th_symbol("global_ops") : 0;
	ops = th_ptr_at(tr, th_tr_off()->ops, "trace_array.ops");
	/* ftrace_init_global_array_ops(): global_trace.ops = &global_ops */
	if (!ops && th_tr_off()->ops >= 0 && th_symbol("global_ops") &&
	    tr == th_symbol("global_trace"))
		th_damaged("trace_array", tr, "global_trace has no ops");
	return ops;
}

/**
 * th_tr_trace_flags - trace_array.trace_flags (32 or 64 bits)
 * @tr: the struct trace_array
 * @flags: the value, 0 when this returns FALSE
 */
/*
 * The event-fork and function-fork options: set_tracer_flag() registers
 * (and unregisters) PROBE on sched_process_fork with the array as its
 * data (trace_event_follow_fork(), ftrace_pid_follow_fork()).
 */
static void th_tr_fork_check(ulong tr, uint64_t flags, const char *bit,
			     const char *probe)
{
	long b = th_trace_iter_bit(bit);
	ulong fn = b >= 0 && b < 64 ? th_ksymbol(probe) : 0;
	int on;

	if (!fn || (on = th_tracepoint_probe_on("sched_process_fork", fn,
						tr)) < 0 ||
	    on == (int)((flags >> b) & 1))
		return;
	th_damaged("trace_array", tr, "trace_flags %#llx says %s %s, but "
		   "%s is %sregistered on sched_process_fork",
		   (unsigned long long)flags, bit, on ? "off" : "on", probe,
		   on ? "" : "not ");
}

/*
 * What the kernel keeps beside trace_flags: only the bits of enum
 * trace_iterator_bits below TRACE_ITER_LAST_BIT exist, and
 * init_trace_flags_index() gives every array trace_flags_index[i] = i.
 */
static void th_tr_flags_check(ulong tr, uint64_t flags)
{
	const struct th_tr_off *o = th_tr_off();
	long last = th_trace_iter_bit("TRACE_ITER_LAST_BIT");
	long ow = th_trace_iter_bit("TRACE_ITER_OVERWRITE_BIT");
	unsigned char idx[64];
	long i, n;
	int rb;

	if (last > 0 && last < 64 && (flags >> last))
		th_damaged("trace_array", tr, "trace_flags %#llx: bits beyond "
			   "the %ld trace options", (unsigned long long)flags,
			   last);
	/* allocate_trace_buffer() and set_tracer_flag() keep the ring
	 * buffer's RB_FL_OVERWRITE equal to the overwrite option */
	if (ow >= 0 && ow < 64 && (rb = ff_rb_overwrite(tr)) >= 0 &&
	    rb != (int)((flags >> ow) & 1))
		th_damaged("trace_array", tr, "trace_flags %#llx says "
			   "overwrite %s, its ring buffer says %s",
			   (unsigned long long)flags, rb ? "off" : "on",
			   rb ? "on" : "off");
	th_tr_fork_check(tr, flags, "TRACE_ITER_EVENT_FORK_BIT",
			 "event_filter_pid_sched_process_fork");
	th_tr_fork_check(tr, flags, "TRACE_ITER_FUNC_FORK_BIT",
			 "ftrace_pid_follow_sched_process_fork");
	if (o->trace_flags_index < 0 || o->trace_flags_index_size <= 0)
		return;
	n = MIN(o->trace_flags_index_size, (long)sizeof(idx));
	if (!th_read(tr + o->trace_flags_index, idx, n,
		     "trace_array.trace_flags_index"))
		return;
	for (i = 0; i < n; i++)
		if (idx[i] != i) {
			th_damaged("trace_array", tr, "trace_flags_index[%ld] "
				   "is %u: its trace_flags may be damaged too",
				   i, idx[i]);
			break;
		}
}

int th_tr_trace_flags(ulong tr, uint64_t *flags)
{
	const struct th_tr_off *o = th_tr_off();
	unsigned int v32;

	*flags = 0;
	if (o->trace_flags < 0) {
		ulong g = th_symbol("trace_flags"), v;

		/* one global set of flags for every array before Linux
		 * kernel commit 983f938ae69 ("tracing: Move trace_flags
		 * from global to a trace_array field", v4.5) */
		if (!g || !th_read_ulong(g, &v, "trace_flags"))
			return FALSE;
		*flags = v;
		return TRUE;
	}
	if (o->trace_flags_size == 8) {
		if (!th_read_u64(tr + o->trace_flags, flags,
				 "trace_array.trace_flags"))
			return FALSE;
	} else {
		if (!th_read_uint(tr + o->trace_flags, &v32,
				  "trace_array.trace_flags"))
			return FALSE;
		*flags = v32;
	}
	th_tr_flags_check(tr, *flags);
	return TRUE;
}

/**
 * th_tr_clock_id - trace_array.clock_id, -1 when unreadable
 * @tr: the struct trace_array
 */
int th_tr_clock_id(ulong tr)
{
	int id = -1;

	if (th_tr_off()->clock_id >= 0)
		th_read_int(tr + th_tr_off()->clock_id, &id,
			    "trace_array.clock_id");
	return id;
}

/**
 * th_tr_list - the address of one of the array's list heads, 0 when the
 * kernel has no such list
 * @tr: the struct trace_array
 * @list: which
 */
ulong th_tr_list(ulong tr, enum th_tr_list list)
{
	const struct th_tr_off *o = th_tr_off();
	long off[] = {
		[TH_TR_EVENTS] = o->events,
		[TH_TR_MOD_EVENTS] = o->mod_events,
		[TH_TR_MOD_TRACE] = o->mod_trace,
		[TH_TR_MOD_NOTRACE] = o->mod_notrace,
		[TH_TR_FUNC_PROBES] = o->func_probes,
		[TH_TR_TRACERS] = o->tracers,
		[TH_TR_ERR_LOG] = o->err_log,
		[TH_TR_SYSTEMS] = o->systems,
	};

	return off[list] >= 0 ? tr + off[list] : 0;
}

/**
 * th_tr_marker_file - trace_array.trace_marker_file: the ftrace/print
 * event file that has a "trigger" file though its event cannot be enabled
 * @tr: the struct trace_array
 *
 * Return: the struct trace_event_file, 0 when none or unreadable.
 */
ulong th_tr_marker_file(ulong tr)
{
	return th_ptr_at(tr, th_tr_off()->trace_marker_file,
			 "trace_array.trace_marker_file");
}

/**
 * th_tr_readonly - trace_array_is_readonly()
 * @tr: the struct trace_array
 *
 * Return: TRUE for a read-only array (FALSE where the kernel has none).
 */
int th_tr_readonly(ulong tr)
{
	const struct th_tr_off *o = th_tr_off();
	static long rdonly = -1;
	ulong fl = 0;

	/* only a boot-mapped array's backup copy is read-only: a kernel
	 * without them (no range_addr_start, before v6.10) has none, and
	 * the enumerator is not looked up (a search of all the debuginfo) */
	if (o->flags < 0 || o->range_addr_start < 0)
		return FALSE;
	if (rdonly < 0)
		rdonly = th_enum_beside("TRACE_ARRAY_FL_RDONLY",
					"TRACE_ARRAY_FL_GLOBAL", 0);
	if (!rdonly)
		return FALSE;
	if (o->flags_size == sizeof(int)) {
		unsigned int f32 = 0;

		th_read_uint(tr + o->flags, &f32, "trace_array.flags");
		fl = f32;
	} else {
		th_read_ulong(tr + o->flags, &fl, "trace_array.flags");
	}
	return (fl & rdonly) != 0;
}

/**
 * th_tr_buffer_percent - trace_array.buffer_percent
 * @tr: the struct trace_array
 * @val: its value
 *
 * Return: FALSE when the kernel has none or it cannot be read.
 */
int th_tr_buffer_percent(ulong tr, int *val)
{
	long off = th_tr_off()->buffer_percent;

	return off >= 0 && th_read_int(tr + off, val,
				       "trace_array.buffer_percent");
}

/**
 * th_tr_max_latency - trace_array.max_latency (nanoseconds)
 * @tr: the struct trace_array
 * @val: its value
 *
 * Return: FALSE when the kernel has none or it cannot be read.
 */
int th_tr_max_latency(ulong tr, ulong *val)
{
	long off = th_tr_off()->max_latency;
	ulong g;

	/* one global tracing_max_latency before it moved into struct
	 * trace_array (v4.1) */
	if (off < 0)
		return tr == th_symbol("global_trace") &&
			(g = th_symbol("tracing_max_latency")) &&
			th_read_ulong(g, val, "tracing_max_latency");
	return th_read_ulong(tr + off, val, "trace_array.max_latency");
}

/**
 * th_tr_allocated_snapshot - trace_array.allocated_snapshot
 * @tr: the struct trace_array
 * @val: its value
 *
 * Return: FALSE when the kernel has none or it cannot be read.
 */
int th_tr_allocated_snapshot(ulong tr, int *val)
{
	long off = th_tr_off()->allocated_snapshot;
	unsigned char v = 0;

	if (off < 0 || !th_read(tr + off, &v, 1,
				"trace_array.allocated_snapshot"))
		return FALSE;
	*val = v != 0;
	return TRUE;
}

/**
 * th_tr_event_dir - trace_array.event_dir (0: none or unreadable)
 * @tr: the struct trace_array
 */
ulong th_tr_event_dir(ulong tr)
{
	long off = th_tr_off()->event_dir;
	ulong v = 0;

	if (off < 0 || !th_read_ulong(tr + off, &v, "trace_array.event_dir"))
		return 0;
	return v;
}

/**
 * th_tr_syscall_buf_sz - trace_array.syscall_buf_sz
 * @tr: the struct trace_array
 * @val: its value
 *
 * Return: FALSE when the kernel has none or it cannot be read.
 */
int th_tr_syscall_buf_sz(ulong tr, unsigned int *val)
{
	long off = th_tr_off()->syscall_buf_sz;

	return off >= 0 && th_read_uint(tr + off, val,
					"trace_array.syscall_buf_sz");
}

/**
 * th_cpumask_legacy - the one tracing_cpumask of every array before Linux
 * kernel commit ccfe9e42e451 ("tracing: Make tracing_cpumask available
 * for all instances", v4.4): trace.c's static cpumask_var_t (the bitmap
 * itself, or with CONFIG_CPUMASK_OFFSTACK a pointer to it), printed by
 * cpumask_scnprintf() over nr_cpumask_bits (NR_CPUS, or nr_cpu_ids with
 * CPUMASK_OFFSTACK) and read back as the whole of mask_str[NR_CPUS + 1]
 * @l: filled
 *
 * Return: FALSE when this kernel has no such mask, or it is unreadable.
 */
int th_cpumask_legacy(struct th_cpumask_legacy *l)
{
	ulong sym = th_symbol("tracing_cpumask");
	long str = th_array_len("mask_str"), csize = th_size("cpumask");
	unsigned int ids = 0;

	memset(l, 0, sizeof(*l));
	if (!sym || str < 2 || csize <= 0 || th_tr_off()->tracing_cpumask >= 0)
		return FALSE;
	l->file_len = str;
	l->words = csize / sizeof(ulong);
	/* alloc_cpumask_var() is a function with CONFIG_CPUMASK_OFFSTACK
	 * (lib/cpumask.c), an inline without it: then cpumask_var_t is
	 * struct cpumask[1], a typedef that hides the array from its size */
	if (!th_symbol("alloc_cpumask_var")) {
		l->mask = sym;
		l->nbits = str - 1;
	} else {
		if (!th_read_ulong(sym, &l->mask, "tracing_cpumask") ||
		    !th_read_uint(th_symbol("nr_cpu_ids"), &ids, "nr_cpu_ids"))
			return FALSE;
		l->nbits = ids;
	}
	if (!l->nbits || (long)l->nbits > csize * 8) {
		th_damaged("tracing_cpumask", sym, "%u bits, but a struct "
			   "cpumask holds %ld", l->nbits, csize * 8);
		return FALSE;
	}
	return TRUE;
}

/**
 * th_tr_cpumask - the words of trace_array.tracing_cpumask
 * @tr: the struct trace_array
 * @words: filled with the first @nwords words of the bitmap
 * @nwords: how many
 *
 * Return: FALSE when the kernel has none or it cannot be read.
 */
int th_tr_cpumask(ulong tr, ulong *words, int nwords)
{
	const struct th_tr_off *o = th_tr_off();
	ulong mask = tr + o->tracing_cpumask;

	if (o->tracing_cpumask < 0) {
		struct th_cpumask_legacy l;

		if (!th_cpumask_legacy(&l))
			return FALSE;
		if (l.words < nwords)
			nwords = l.words;
		return th_read(l.mask, words, nwords * sizeof(ulong),
			       "tracing_cpumask");
	}
	if (o->tracing_cpumask_ptr &&
	    !th_read_ulong(mask, &mask, "trace_array.tracing_cpumask"))
		return FALSE;
	if (!o->tracing_cpumask_ptr && o->tracing_cpumask_size > 0 &&
	    o->tracing_cpumask_size / (long)sizeof(ulong) < nwords)
		nwords = o->tracing_cpumask_size / sizeof(ulong);
	return th_read(mask, words, nwords * sizeof(ulong),
		       "trace_array.tracing_cpumask");
}

/**
 * th_tr_pid_list - one of the array's pid lists (struct trace_pid_list *)
 * @tr: the struct trace_array
 * @which: TH_PIDS_*
 * @list: the pointer (0: no list)
 *
 * Return: FALSE when the kernel has no such member or it cannot be read.
 */
int th_tr_pid_list(ulong tr, enum th_pids which, ulong *list)
{
	const struct th_tr_off *o = th_tr_off();
	long off[] = {
		[TH_PIDS_FUNCTION] = o->function_pids,
		[TH_PIDS_FUNCTION_NO] = o->function_no_pids,
		[TH_PIDS_EVENT] = o->filtered_pids,
		[TH_PIDS_EVENT_NO] = o->filtered_no_pids,
	};

	*list = 0;
	return off[which] >= 0 && th_read_ulong(tr + off[which], list,
						"trace_array pid list");
}
