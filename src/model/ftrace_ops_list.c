/*
 * tracehunt: the one reader of struct ftrace_ops: one ops and its filter
 * and notrace hashes, the ftrace_ops_list walk, the subops of a manager
 * ops and the struct fgraph_ops around a function graph subop, and the
 * FTRACE_OPS_FL_* names of the dump's enum.
 */
#include "model/ftrace_ops.h"
#include "model/ftrace_files.h"
#include "model/vmlinux_file.h"
#include "model/trace_globals.h"

#define THF_MAX_OPS	4096
#define THF_MAX_SUBOPS	1024
#define THF_MAX_ENUM	64

/* struct ftrace_ops */
struct thf_ops_off {
	long func, flags, next;
	long trampoline, trampoline_size, private_data;
	long func_hash;			/* its struct ftrace_ops_hash * */
	long filter_hash, notrace_hash;	/* before v3.19 */
	long subop_list, list, managed;
};

/* struct ftrace_ops_hash */
struct thf_ops_hash_off {
	long filter_hash, notrace_hash;
	long regex_lock, mutex_wait_list;	/* the hash's mutex */
};

/* struct fgraph_ops */
struct thf_fgraph_off {
	long ops, entryfunc, retfunc;
};

static const struct thf_ops_off *thf_ops_off(void)
{
	static struct thf_ops_off o;
	static int filled;

	if (filled)
		return &o;
	o.func = th_member("ftrace_ops", "func");
	o.flags = th_member("ftrace_ops", "flags");
	o.next = th_member("ftrace_ops", "next");
	/* trampoline (v3.17) and trampoline_size (v3.18) are older than
	 * any kernel this opens: read only when there */
	o.trampoline = th_member("ftrace_ops", "trampoline");
	o.trampoline_size = th_member("ftrace_ops", "trampoline_size");
	o.private_data = th_member("ftrace_ops", "private");
	/* struct ftrace_ops_hash since Linux kernel commit 33b7f99cf003
	 * ("ftrace: Allow ftrace_ops to use the hashes from other ops") (in
	 * v3.19); the hashes were members of the ops before */
	o.func_hash = th_member("ftrace_ops", "func_hash");
	o.filter_hash = o.notrace_hash = -1;
	if (o.func_hash < 0) {
		o.filter_hash = th_member("ftrace_ops", "filter_hash");
		o.notrace_hash = th_member("ftrace_ops", "notrace_hash");
	}
	/* Linux kernel commit 5fccc7552ccb ("ftrace: Add subops logic to
	 * allow one ops to manage many") (in v6.11) added subop_list;
	 * "managed" came with the next one, d9bbfbd14f58 ("ftrace: Allow
	 * subops filtering to be modified") (in v6.11) */
	o.subop_list = th_member("ftrace_ops", "subop_list");
	o.list = th_member("ftrace_ops", "list");
	o.managed = th_member("ftrace_ops", "managed");
	filled = TRUE;
	return &o;
}

static const struct thf_ops_hash_off *thf_ops_hash_off(void)
{
	static struct thf_ops_hash_off o;
	static int filled;

	if (!filled) {
		o.filter_hash = th_member("ftrace_ops_hash", "filter_hash");
		o.notrace_hash = th_member("ftrace_ops_hash", "notrace_hash");
		o.regex_lock = th_member("ftrace_ops_hash", "regex_lock");
		o.mutex_wait_list = th_member("mutex", "wait_list");
		filled = TRUE;
	}
	return &o;
}

/* fgraph_ops.ops: Linux kernel commit c132be2c4fcc ("function_graph:
 * Have the instances use their own ftrace_ops for filtering") (in v6.11) */
static const struct thf_fgraph_off *thf_fgraph_off(void)
{
	static struct thf_fgraph_off o;
	static int filled;

	if (!filled) {
		o.ops = th_member("fgraph_ops", "ops");
		o.entryfunc = th_member("fgraph_ops", "entryfunc");
		o.retfunc = th_member("fgraph_ops", "retfunc");
		filled = TRUE;
	}
	return &o;
}

/* An ftrace_ops_hash has an unlocked mutex at crash time: its wait_list
 * empty (pointing to itself) or holding a waiter from a task's stack. */
static void thf_ops_hash_check(ulong ops, ulong fh)
{
	const struct thf_ops_hash_off *o = thf_ops_hash_off();
	ulong wl, next;

	if (!th_kptr(fh)) {
		th_damaged("ftrace_ops", ops, "func_hash %lx is no pointer", fh);
		return;
	}
	if (o->regex_lock < 0 || o->mutex_wait_list < 0)
		return;
	wl = fh + o->regex_lock + o->mutex_wait_list;
	if (!th_read_ulong(wl, &next, "ftrace_ops_hash.regex_lock"))
		th_damaged("ftrace_ops", ops, "func_hash %lx cannot be read",
			   fh);
	else if (next != wl &&
		 !th_ptr_in(next, TH_M(TH_R_DIRECT) | TH_M(TH_R_VMALLOC)))
		th_damaged("ftrace_ops", ops, "func_hash %lx: its regex_lock's "
			   "wait_list points to %lx", fh, next);
}

/* The hash pointers of the ops at ADDR: ops->func_hash->filter_hash and
 * ->notrace_hash (ops->filter_hash, ->notrace_hash before v3.19). */
static void thf_ops_hashes(ulong addr, ulong *func_hash, ulong *filter,
			   ulong *notrace)
{
	const struct thf_ops_off *o = thf_ops_off();
	const struct thf_ops_hash_off *fh = thf_ops_hash_off();

	*func_hash = *filter = *notrace = 0;
	if (o->func_hash >= 0) {
		if (th_read_ulong(addr + o->func_hash, func_hash,
				  "ftrace_ops.func_hash") && *func_hash)
			thf_ops_hash_check(addr, *func_hash);
		if (th_kptr(*func_hash) && fh->filter_hash >= 0 &&
		    fh->notrace_hash >= 0) {
			th_read_ulong(*func_hash + fh->filter_hash, filter,
				      "ftrace_ops_hash.filter_hash");
			th_read_ulong(*func_hash + fh->notrace_hash, notrace,
				      "ftrace_ops_hash.notrace_hash");
		}
		return;
	}
	if (o->filter_hash >= 0)
		th_read_ulong(addr + o->filter_hash, filter,
			      "ftrace_ops.filter_hash");
	if (o->notrace_hash >= 0)
		th_read_ulong(addr + o->notrace_hash, notrace,
			      "ftrace_ops.notrace_hash");
}

/**
 * thf_ops_hash - the filter or notrace hash of an ftrace_ops
 * @ops: the struct ftrace_ops
 * @notrace: TRUE for the notrace hash
 *
 * Return: the struct ftrace_hash pointer, 0 when none or unreadable.
 */
ulong thf_ops_hash(ulong ops, int notrace)
{
	ulong fh, filter, nt;

	thf_ops_hashes(ops, &fh, &filter, &nt);
	return notrace ? nt : filter;
}

/**
 * thf_stack_trace_ops - the stack tracer's ftrace_ops (trace_stack.c's
 * static trace_ops, whose filter stack_trace_filter shows)
 *
 * Return: its address, 0 when this kernel has no such ops (no stack tracer
 * or no dynamic ftrace) or when the symbol is not that ops: its func must
 * be stack_trace_call, as the static initializer sets it.
 */
ulong thf_stack_trace_ops(void)
{
	struct syment *sp = kernel_symbol_search("trace_ops");
	ulong call = th_ksymbol("stack_trace_call"), func = 0, first;
	int n;

	if (!sp || !call || thf_ops_off()->func < 0)
		return 0;
	/* 3.10 has other static trace_ops too (trace_functions.c's):
	 * the one whose func is stack_trace_call */
	first = sp->value;
	for (n = 0; sp && n < 16; n++, sp = symbol_search_next("trace_ops",
								 sp)) {
		if (th_read_ulong(sp->value + thf_ops_off()->func, &func,
				  "ftrace_ops.func") && func == call)
			return sp->value;
	}
	th_damaged("ftrace_ops", first, "no trace_ops whose func is "
		   "stack_trace_call");
	return 0;
}

/*
 * thf_ops_initialized - FLAGS carry FTRACE_OPS_FL_INITIALIZED (set by
 * ftrace_ops_init() on every registered ops); TRUE on a kernel without
 * the flag, where nothing can be told
 */
static int thf_ops_initialized(ulong flags)
{
	ulong bit = thf_ops_flag("INITIALIZED");

	return !bit || (flags & bit);
}

static void thf_ops_flags_check(ulong addr, ulong flags);

/* Ops vmlinux defines whose private the kernel never sets: kprobes' two
 * (kernel/kprobes.c hands them only to ftrace_set_filter_ip() and
 * register_ftrace_function()) and the list's end. */
static const char *const thf_no_private[] = {
	"kprobe_ftrace_ops", "kprobe_ipmodify_ops", "ftrace_list_end", NULL
};

/*
 * ftrace_ops.private against what the kernel keeps there: a trace array's
 * ops points at that array (ftrace_init_global_array_ops(): global_ops;
 * ftrace_allocate_ftrace_ops(): an instance's), the ops above none, and no
 * ops at a field of its own.
 */
static void thf_ops_private_check(ulong addr, ulong priv)
{
	long size = th_size("ftrace_ops");
	struct th_tr *trs;
	int i, n;

	if (priv && size > 0 && priv >= addr && priv < addr + size) {
		th_damaged("ftrace_ops", addr, "private %lx points into the "
			   "ops itself", priv);
		return;
	}
	for (i = 0; thf_no_private[i]; i++)
		if (addr == th_symbol(thf_no_private[i])) {
			if (priv)
				th_damaged("ftrace_ops", addr, "private %lx, "
					   "but the kernel never sets %s's",
					   priv, thf_no_private[i]);
			return;
		}
	n = th_trace_arrays(&trs);
	for (i = 0; i < n; i++)
		if (th_tr_ops(trs[i].addr) == addr && priv != trs[i].addr) {
			th_damaged("ftrace_ops", addr, "private %lx, but it is "
				   "the ops of trace_array %lx", priv,
				   trs[i].addr);
			return;
		}
}

/*
 * An ops of the kernel image keeps its initializer's func (the file's),
 * except a trace array's (ftrace_init_array_ops() gives global_ops the
 * tracer's function) and one filtered by pid (__register_ftrace_function()
 * swaps in ftrace_pid_func()); a NULL initializer (a function graph subop)
 * is not compared.
 */
static void thf_ops_static_check(ulong addr, ulong flags)
{
	const struct th_static_field f[] = {
		{ "func", thf_ops_off()->func, sizeof(ulong), TH_STATIC_SET },
	};
	ulong pid = thf_ops_flag("PID");
	struct th_tr *trs;
	int i, n;

	/* (crash's is_kernel_text() takes 7.2's kprobe_ftrace_ops for text) */
	if ((th_region(addr) != TH_R_IMAGE && th_region(addr) != TH_R_TEXT) ||
	    (pid && (flags & pid)))
		return;
	n = th_trace_arrays(&trs);
	for (i = 0; i < n; i++)
		if (th_tr_ops(trs[i].addr) == addr)
			return;
	th_static_check("ftrace_ops", addr, f, 1);
}

/* Is FUNC perf's ftrace callback (a perf_event's ftrace_ops)? */
static int thf_ops_perf(ulong func)
{
	static ulong perf_func = 1;

	if (perf_func == 1)
		perf_func = th_symbol("perf_ftrace_function_call");
	return perf_func && func == perf_func;
}

/*
 * A perf event's ops keeps a CPU number in private, no pointer:
 * perf_ftrace_function_register() stores nr_cpu_ids, TRACE_REG_PERF_ADD
 * the CPU the event was added on, TRACE_REG_PERF_DEL nr_cpu_ids again
 * (kernel/trace/trace_event_perf.c), and perf_ftrace_function_call()
 * compares it with smp_processor_id().
 */
static void thf_perf_private_check(ulong addr, ulong priv)
{
	unsigned int nr_cpu_ids = th_nr_cpu_ids();

	if (!nr_cpu_ids)
		nr_cpu_ids = MAX(kt->cpus, 1);
	if (priv > nr_cpu_ids)
		th_damaged("ftrace_ops", addr, "private %lx of a perf event's "
			   "ops is neither a CPU nor nr_cpu_ids (%u)", priv,
			   nr_cpu_ids);
}

/* x86's create_trampoline() stores the ops' address in the last word of
 * the trampoline it allocates (ALLOC_TRAMP), where ftrace_caller's copy
 * loads it from: one that holds another value is no trampoline of this
 * ops (its trampoline or trampoline_size damaged) */
static void thf_tramp_ops_check(ulong addr, const struct thf_ops *op)
{
	ulong back;

	if (!op->trampoline || op->trampoline_size < sizeof(ulong) ||
	    !(op->flags & thf_ops_flag("ALLOC_TRAMP")) ||
	    !th_read_ulong(op->trampoline + op->trampoline_size -
			   sizeof(ulong), &back, "ftrace trampoline's ops"))
		return;
	if (back != addr)
		th_damaged("ftrace_ops", addr, "trampoline %lx (size %lu) "
			   "ends with %lx, not this ops: create_trampoline() "
			   "stores its ops there", op->trampoline,
			   op->trampoline_size, back);
}

/**
 * thf_ops_read - one struct ftrace_ops and its hashes
 * @addr: the ops
 * @op: filled; thf_ops_release() frees its hashes
 *
 * Return: FALSE when its func or flags cannot be read.
 */
int thf_ops_read(ulong addr, struct thf_ops *op)
{
	const struct thf_ops_off *o = thf_ops_off();
	ulong filter, notrace;

	memset(op, 0, sizeof(*op));
	op->addr = addr;
	if (!th_read_ulong(addr + o->func, &op->func, "ftrace_ops.func") ||
	    !th_read_ulong(addr + o->flags, &op->flags, "ftrace_ops.flags"))
		return FALSE;
	op->readable = TRUE;
	thf_ops_flags_check(addr, op->flags);
	/* a subop of function graph's manager ops has no func of its own
	 * (v6.12+: its fgraph_ops' entry/return run): NULL is no damage on
	 * an ops ftrace_ops_init() marked INITIALIZED; a zeroed ops is */
	if (op->func || !thf_ops_initialized(op->flags))
		th_check_func("ftrace_ops", addr, op->func, "func");
	thf_ops_static_check(addr, op->flags);
	if (o->trampoline >= 0 &&
	    th_read_ulong(addr + o->trampoline, &op->trampoline,
			  "ftrace_ops.trampoline") && op->trampoline)
		th_check_code("ftrace_ops", addr, op->trampoline,
			      "trampoline");
	/* arch_ftrace_update_trampoline() allocates a few hundred bytes */
	if (o->trampoline_size >= 0 &&
	    th_read_ulong(addr + o->trampoline_size, &op->trampoline_size,
			  "ftrace_ops.trampoline_size"))
		th_check_count("ftrace_ops", addr, op->trampoline_size,
			       1UL << 20, "trampoline_size");
	/* an ENABLED ops that create_trampoline() gave one (it sets
	 * ALLOC_TRAMP) keeps it until it is unregistered, when the flag stays
	 * but the ops is off the list */
	if (!op->trampoline && o->trampoline >= 0 &&
	    (op->flags & thf_ops_flag("ALLOC_TRAMP")) &&
	    (op->flags & thf_ops_flag("ENABLED")))
		th_damaged("ftrace_ops", addr, "enabled with an allocated "
			   "trampoline (ALLOC_TRAMP), but trampoline is NULL");
	/* arch_ftrace_update_trampoline() records the size it allocated */
	if (op->trampoline && !op->trampoline_size && o->trampoline_size >= 0
	    && (op->flags & thf_ops_flag("ALLOC_TRAMP")))
		th_damaged("ftrace_ops", addr, "trampoline %lx of size 0",
			   op->trampoline);
	thf_tramp_ops_check(addr, op);
	if (o->private_data >= 0 &&
	    th_read_ulong(addr + o->private_data, &op->private_data,
			  "ftrace_ops.private")) {
		if (thf_ops_perf(op->func))
			thf_perf_private_check(addr, op->private_data);
		else if (!op->private_data ||
			 th_check_ptr("ftrace_ops", addr, op->private_data,
				      TH_M_DATA | TH_M_CODE, "private"))
			thf_ops_private_check(addr, op->private_data);
	}
	thf_ops_hashes(addr, &op->func_hash, &filter, &notrace);
	thf_hash_read(filter, &op->filter);
	thf_hash_read(notrace, &op->notrace);
	return TRUE;
}

/**
 * thf_ops_release - free the hashes thf_ops_read() read
 * @op: the ops
 */
void thf_ops_release(struct thf_ops *op)
{
	thf_hash_free(&op->filter);
	thf_hash_free(&op->notrace);
}

/**
 * thf_ops_contains - hash_contains_ip(): the ops' filter (empty: every
 * function) has IP and its notrace hash has not
 * @op: the ops
 * @ip: a record's address
 */
int thf_ops_contains(const struct thf_ops *op, ulong ip)
{
	return (thf_hash_empty(&op->filter) ||
		thf_hash_has(&op->filter, ip, NULL)) &&
	       (thf_hash_empty(&op->notrace) ||
		!thf_hash_has(&op->notrace, ip, NULL));
}

/* Is OP new on the list, and is there room; FALSE (damage noted) if not */
static int thf_ops_walk_new(struct thf_state *s, ulong op, int *cap)
{
	int i;

	if (!th_kptr(op)) {
		s->ops_err = "invalid pointer";
		s->ops_bad = op;
		return FALSE;
	}
	for (i = 0; i < s->nops; i++)
		if (s->ops[i].addr == op)
			break;
	if (i < s->nops || s->nops >= THF_MAX_OPS) {
		s->ops_err = i < s->nops ? "cycle" : "too many entries";
		s->ops_bad = op;
		return FALSE;
	}
	if (s->nops >= *cap) {
		struct thf_ops *more;

		*cap = *cap ? *cap * 2 : 16;
		more = realloc(s->ops, *cap * sizeof(*s->ops));
		if (!more) {
			s->ops_err = "out of memory";
			s->ops_bad = op;
			return FALSE;
		}
		s->ops = more;
	}
	return TRUE;
}

/**
 * thf_ops_walk - do_for_each_ftrace_op(): ftrace_ops_list to
 * &ftrace_list_end, every ops read into S (bounded, cycle-safe)
 * @s: the state; s->ops_err and s->ops_bad say what stopped the walk
 */
void thf_ops_walk(struct thf_state *s)
{
	const struct thf_ops_off *o = thf_ops_off();
	ulong head = th_symbol("ftrace_ops_list"), op = 0, next;
	int cap = 0;

	s->list_end = th_symbol("ftrace_list_end");
	if (!head || o->next < 0 || o->func < 0 || o->flags < 0) {
		s->ops_err = "no ftrace_ops_list or struct ftrace_ops";
		return;
	}
	if (!th_read_ulong(head, &op, "ftrace_ops_list")) {
		s->ops_err = "unreadable ftrace_ops_list";
		s->ops_bad = head;
		return;
	}
	while (op && op != s->list_end) {
		if (!thf_ops_walk_new(s, op, &cap))
			break;
		if (!thf_ops_read(op, &s->ops[s->nops]) ||
		    !th_read_ulong(op + o->next, &next, "ftrace_ops.next")) {
			s->ops_err = "unreadable ftrace_ops";
			s->ops_bad = op;
			break;
		}
		s->nops++;
		op = next;
	}
	/* the list always ends at &ftrace_list_end, never in NULL */
	if (!op && s->list_end && !s->ops_err)
		th_damaged("ftrace_ops_list", head, "the list ends in NULL "
			   "after %d ops, not at ftrace_list_end", s->nops);
}

/**
 * thf_tramp_ops_next - ftrace_find_tramp_ops_any()/_next()
 * @s: the state
 * @ip: a record's address
 * @from: the index to continue after, -1 to start
 *
 * Return: the index of the next ops with a trampoline tracing @ip, or -1.
 */
int thf_tramp_ops_next(struct thf_state *s, ulong ip, int from)
{
	int i;

	for (i = from + 1; i < s->nops; i++)
		if (s->ops[i].trampoline && thf_ops_contains(&s->ops[i], ip))
			return i;
	return -1;
}

/**
 * thf_ops_by_tramp - the ops whose trampoline covers an address
 * @s: the state
 * @addr: the address
 *
 * Return: the ops' index, or -1.
 */
int thf_ops_by_tramp(struct thf_state *s, ulong addr)
{
	int i;

	for (i = 0; i < s->nops; i++) {
		ulong t = s->ops[i].trampoline;
		ulong sz = s->ops[i].trampoline_size ?
			s->ops[i].trampoline_size : 1;

		if (t && addr >= t && addr < t + sz)
			return i;
	}
	return -1;
}

/**
 * thf_unique_ops - ftrace_find_unique_ops(): the one ops tracing IP
 * @s: the state
 * @ip: a record's address
 *
 * Return: its index, or -1 when none or more than one.
 */
int thf_unique_ops(struct thf_state *s, ulong ip)
{
	int i, found = -1;

	for (i = 0; i < s->nops; i++)
		if (thf_ops_contains(&s->ops[i], ip)) {
			if (found >= 0)
				return -1;
			found = i;
		}
	return found;
}

/* ------------------------------------------------ subops and fgraph --- */

/**
 * thf_subops_walk - the subops of a manager ops
 * @manager: the manager struct ftrace_ops
 * @w: the subops' struct ftrace_ops addresses (th_walk_free() it); its
 *     err and bad say where a damaged list ended
 *
 * Return: FALSE (@w empty) when the kernel has no subops.
 */
int thf_subops_walk(ulong manager, struct th_walk *w)
{
	const struct thf_ops_off *o = thf_ops_off();
	long i;

	memset(w, 0, sizeof(*w));
	if (o->subop_list < 0 || o->list < 0)
		return FALSE;
	th_list_walk(manager + o->subop_list, THF_MAX_SUBOPS, w);
	for (i = 0; i < w->n; i++)
		w->ent[i] -= o->list;
	return TRUE;
}

/**
 * thf_ops_managed - the manager of a subop (ftrace_ops.managed)
 * @ops: the struct ftrace_ops
 *
 * Return: the manager ops, 0 when none, unreadable or not in the kernel.
 */
ulong thf_ops_managed(ulong ops)
{
	const struct thf_ops_off *o = thf_ops_off();
	ulong managed = 0;

	if (o->managed < 0 ||
	    !th_read_ulong(ops + o->managed, &managed, "ftrace_ops.managed"))
		return 0;
	return managed;
}

/**
 * thf_fgraph_known - does the kernel have struct fgraph_ops with its own
 * ftrace_ops, entryfunc and retfunc
 */
int thf_fgraph_known(void)
{
	const struct thf_fgraph_off *o = thf_fgraph_off();

	return o->ops >= 0 && o->entryfunc >= 0 && o->retfunc >= 0;
}

/**
 * thf_fgraph_func - a handler of the struct fgraph_ops around an ops
 * @sub: the struct ftrace_ops that is the fgraph_ops' member "ops"
 * @ret: TRUE for retfunc, FALSE for entryfunc
 * @fn: the handler, 0 when unread
 *
 * Return: FALSE when unreadable or the type is not known.
 */
int thf_fgraph_func(ulong sub, int ret, ulong *fn)
{
	const struct thf_fgraph_off *o = thf_fgraph_off();

	*fn = 0;
	if (!thf_fgraph_known())
		return FALSE;
	if (ret)
		return th_read_ulong(sub - o->ops + o->retfunc, fn,
				     "fgraph_ops.retfunc");
	return th_read_ulong(sub - o->ops + o->entryfunc, fn,
			     "fgraph_ops.entryfunc");
}

/* ------------------------------------------------------------- flags --- */

static struct th_enumv thf_opsfl[THF_MAX_ENUM];
static int thf_nopsfl = -1;
static ulong thf_opsfl_known;		/* every enumerator's bit */

/* One gdb lookup for the whole (anonymous, 32-bit) enum, once. */
static void thf_opsfl_load(void)
{
	int i;

	if (thf_nopsfl >= 0)
		return;
	thf_nopsfl = th_enum_list("FTRACE_OPS_FL_ENABLED", thf_opsfl,
				  THF_MAX_ENUM);
	for (i = 0; i < thf_nopsfl; i++) {
		thf_opsfl[i].val = (long)((ulong)thf_opsfl[i].val &
					  0xffffffffUL);
		thf_opsfl_known |= (ulong)thf_opsfl[i].val;
	}
}

/**
 * thf_ops_flag - FTRACE_OPS_FL_<NAME> as the dump defines it
 * @name: the name without the prefix ("ENABLED")
 *
 * Return: the bit, 0 when the kernel has no such flag.
 */
ulong thf_ops_flag(const char *name)
{
	char full[80];
	int i;

	thf_opsfl_load();
	snprintf(full, sizeof(full), "FTRACE_OPS_FL_%s", name);
	for (i = 0; i < thf_nopsfl; i++)
		if (strcmp(thf_opsfl[i].name, full) == 0)
			return thf_opsfl[i].val;
	/* gdb could not list the enum: ask for the one name */
	if (thf_nopsfl == 0)
		return (ulong)th_enum(full, 0);
	return 0;
}

/* Every bit of an ops' flags is one of the FTRACE_OPS_FL_* enumerators
 * (the enum as this kernel's debuginfo has it). */
static void thf_ops_flags_check(ulong addr, ulong flags)
{
	thf_opsfl_load();
	if (thf_nopsfl > 0 && (flags & ~thf_opsfl_known))
		th_damaged("ftrace_ops", addr, "flags %lx: bits %lx are no "
			   "FTRACE_OPS_FL_ flag", flags,
			   flags & ~thf_opsfl_known);
}

/**
 * thf_ops_flags_str - the FTRACE_OPS_FL_* names of flags
 * @flags: ftrace_ops.flags
 * @buf: "ENABLED|DYNAMIC|0x100000", "-" for none
 * @len: its size
 *
 * Return: @buf.
 */
char *thf_ops_flags_str(ulong flags, char *buf, size_t len)
{
	ulong rest = flags;
	size_t n = 0;
	int i;

	buf[0] = '\0';
	thf_ops_flag("ENABLED");	/* loads the table */
	for (i = 0; i < thf_nopsfl; i++) {
		ulong bit = thf_opsfl[i].val;

		if (!bit || (bit & (bit - 1)) || !(rest & bit))
			continue;
		rest &= ~bit;
		n += snprintf(buf + n, n < len ? len - n : 0, "%s%s",
			      n ? "|" : "", thf_opsfl[i].name + 14);
	}
	if (rest)
		n += snprintf(buf + n, n < len ? len - n : 0, "%s0x%lx",
			      n ? "|" : "", rest);
	if (!n)
		snprintf(buf, len, "-");
	return buf;
}
