/*
 * tracehunt: a trace array's printing settings (kernel/trace/trace.c):
 * trace_flags and the names of its bits (trace_options[]), the clock
 * (trace_clocks[]), the current tracer's name and flags, and the CPUs
 * online.  The only file that reads them.
 */
#include "model/trace_opts.h"
#include "model/tracearray.h"
#include "model/ftrace_files.h"
#include "model/vmlinux_file.h"
#include "insn.h"

void th_tr_opts_read(ulong tr, struct th_tr_opts *o)
{
	ulong cur, np = 0, clocks = th_symbol("trace_clocks");
	uint64_t flags;
	int clock = th_tr_clock_id(tr), in_ns = 1;

	memset(o, 0, sizeof(*o));
	th_tr_trace_flags(tr, &flags);
	o->trace_flags = (unsigned int)flags;
	if (clock < 0)
		clock = 0;
	/* trace_clocks[] elements are { func, name, in_ns } */
	if (clocks && clock < 32 &&
	    th_read_int(clocks + clock * 3 * sizeof(ulong) + 2 * sizeof(ulong),
			&in_ns, "trace_clocks[].in_ns")) {
		o->in_ns = in_ns;
		th_trace_clock_check(clock);
	} else
		o->in_ns = 1;
	strcpy(o->tracer, "nop");
	cur = th_tr_current_tracer(tr);
	/* the one reader of tracer.name, which checks it; the header
	 * prints an unreadable name as nothing */
	if (cur && th_tracer_name_at(cur, &np) &&
	    ff_tracer_name(cur, o->tracer, sizeof(o->tracer))[0] == '?')
		o->tracer[0] = '\0';
}

unsigned th_tr_tracer_flags_val(ulong tr, unsigned def)
{
	/* the array's own copy where tracer options are per instance
	 * (trace_array.current_trace_flags), else the tracer's */
	ulong fl = th_tr_current_trace_flags(tr), cur;
	unsigned val = def;

	if (!fl && (cur = th_tr_current_tracer(tr)))
		fl = th_tracer_flags(cur);
	if (fl)
		th_tracer_flags_val(fl, &val);
	return val;
}

/*
 * The names of trace_options[] are string constants of the kernel image,
 * which nothing writes: the name read from the dump must be the vmlinux
 * file's.  A damaged one would make the option it names look unset here
 * (the kernel keeps the bits, not the names).
 */
static void th_opt_name_check(ulong slot, int n, ulong p, const char *name)
{
	size_t len = strlen(name) + 1;
	const unsigned char *f = th_vmlinux_bytes(p, (long)len);

	if (f && memcmp(f, name, len) != 0)
		th_damaged("trace_options", slot, "option %d's name at %lx "
			   "differs from the vmlinux file's \"%.*s\": the "
			   "option it names is not found", n, p,
			   (int)strnlen((const char *)f, len), f);
}

const struct th_core_opts *th_core_opts(void)
{
	static struct th_core_opts o = { .n = -1 };
	const char *tag;
	ulong p;

	if (o.n >= 0) {
		/* a damaged name's warning, again in each command */
		th_damage_replay("trace_options");
		return o.arr ? &o : NULL;
	}
	o.n = 0;
	o.unreadable = -1;
	o.arr = th_symbol("trace_options");
	if (!o.arr)
		return NULL;
	tag = th_damage_tag("trace_options");
	for (; o.n < TH_CORE_OPTS_MAX; o.n++) {
		if (!th_read_ulong(o.arr + o.n * sizeof(ulong), &p,
				   "trace_options[]")) {
			o.unreadable = o.n;
			break;
		}
		if (!p) {
			o.whole = o.n > 0;
			break;
		}
		o.ptr[o.n] = p;
		if (!th_read_cstr(p, o.name[o.n], sizeof(o.name[o.n]),
				  "trace_options[]")) {
			snprintf(o.name[o.n], sizeof(o.name[o.n]), "?");
			continue;
		}
		th_opt_name_check(o.arr + o.n * sizeof(ulong), o.n, p,
				  o.name[o.n]);
	}
	th_damage_tag(tag);
	return &o;
}

/*
 * The bit of a trace option (enum trace_iterator_bits): its index in the
 * kernel's trace_options[] names, which trace.c builds from the same
 * TRACE_FLAGS list as the enum (C(a, b) gives TRACE_ITER_a_BIT there and
 * "b" here).  Read from the dump, it spares a gdb symbol search; gdb is
 * asked for a bit not in this table or not among those names.
 */
long th_trace_iter_bit(const char *bit)
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
		{ "TRACE_ITER_RAW_BIT", "raw" },
		{ "TRACE_ITER_HEX_BIT", "hex" },
		{ "TRACE_ITER_BIN_BIT", "bin" },
		{ "TRACE_ITER_SYM_USEROBJ_BIT", "sym-userobj" },
		{ "TRACE_ITER_FIELDS_BIT", "fields" },
	};
	const struct th_core_opts *o = th_core_opts();
	unsigned i;
	int j;

	for (i = 0; o && i < sizeof(opts) / sizeof(opts[0]); i++) {
		if (strcmp(opts[i].bit, bit) != 0)
			continue;
		for (j = 0; j < o->n; j++)
			if (strcmp(o->name[j], opts[i].opt) == 0)
				return j;
		/* trace_options[] names every bit of the kernel's
		 * TRACE_FLAGS (one C(a, b) gives both): an option it
		 * lacks is a bit the kernel lacks, not asked of gdb (a
		 * missing enumerator is a scan of all the debuginfo) */
		if (o->whole)
			return -1;
		break;
	}
	return th_enum(bit, -1);
}

static int th_cpu_in(int cpu, const int *cpus, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (cpus[i] == cpu)
			return TRUE;
	return FALSE;
}

/*
 * num_online_cpus() as the live kernel saw it.  A panic takes the other
 * CPUs offline (stop_this_cpu) but leaves them active, so the active
 * mask is counted first; the online mask when there is none.
 */
int th_online_cpus(void)
{
	/* the bitmaps themselves: cpu_active_bits and cpu_online_bits
	 * (static, behind the const pointers cpu_active_mask and
	 * cpu_online_mask) before the masks became the struct cpumasks
	 * __cpu_*_mask (v4.5) */
	static const char *const masks[] = { "__cpu_active_mask",
					     "__cpu_online_mask",
					     "cpu_active_bits",
					     "cpu_online_bits", NULL };
	ulong bits[16];
	int possible[NR_CPUS], np = th_possible_cpus(possible, NR_CPUS);
	long len = th_size("cpumask");
	int i, n = 0, b;

	/* a small NR_CPUS: the words after the mask are other variables */
	if (len <= 0 || len > (long)sizeof(bits))
		len = sizeof(bits);
	memset(bits, 0, sizeof(bits));
	for (i = 0; masks[i]; i++) {
		ulong m = th_symbol(masks[i]);

		if (!m || !th_read(m, bits, len, masks[i]))
			continue;
		for (b = 0; b < (int)(len * 8); b++)
			if (bits[b / 64] & (1UL << (b % 64))) {
				n++;
				/* active and online CPUs are possible ones */
				if (!th_cpu_in(b, possible, np))
					th_damaged(masks[i], m, "CPU %d is set "
						   "but not possible", b);
			}
		if (n)
			return n;
	}
	return get_cpus_online();
}


/*
 * The width of the pid column, "%16s-%-Nd": 5 in 3.10's
 * trace_print_context() ("%16s-%-5d [%03d] "), 7 in the kernels since the
 * column grew for PID_MAX_LIMIT (5.10 has it).  No member or symbol tells
 * them apart, so the kernel's own format string is read, as the one
 * trace_print_context() loads; 7 when it cannot be found.
 */
int th_trace_pid_width(void)
{
	static int width = -1;
	char str[48][TH_CODE_STR];
	int i, n;

	if (width >= 0)
		return width;
	width = 7;
	n = th_code_strings("trace_print_context", 768, str, 48);
	for (i = 0; i < n; i++) {
		if (strncmp(str[i], "%16s-%-", 7) != 0)
			continue;
		if (str[i][7] >= '1' && str[i][7] <= '9' && str[i][8] == 'd')
			width = str[i][7] - '0';
		break;
	}
	return width;
}

/*
 * Whether print_graph_comment() prints a trace_puts() entry (TRACE_BPUTS)
 * as its message alone: kernels whose comment has the case call
 * trace_print_bputs_msg_only(); 3.10's falls to the event's own output,
 * "ip: message".  Told by whether the graph printer's code calls it
 * (print_graph_comment, or print_graph_function_flags where it is
 * inlined); TRUE when that code cannot be read.
 */
int th_graph_bputs_msg_only(void)
{
	static int known = -1;
	static const char *const fns[] = { "print_graph_comment",
					   "print_graph_function_flags", NULL };
	ulong target = th_symbol("trace_print_bputs_msg_only");
	unsigned char *code;
	struct syment *sp, *nx;
	struct insn in;
	long len, off;
	int i;

	if (known >= 0)
		return known;
	known = 1;
	if (!target)
		return known;
	for (i = 0; fns[i]; i++) {
		if (!(sp = kernel_symbol_search((char *)fns[i])))
			continue;
		nx = next_symbol(NULL, sp);
		len = nx && nx->value > sp->value ? (long)(nx->value - sp->value)
			: 4096;
		if (len > 16384)
			len = 16384;
		if (!(code = malloc(len)))
			return known;
		if (!th_read(sp->value, code, len, "graph printer code")) {
			free(code);
			return known;
		}
		known = 0;
		for (off = 0; off < len; off += in.len) {
			if (!insn_decode(code + off, len - off,
					 sp->value + off, &in))
				break;
			if ((in.kind == INSN_CALL || in.kind == INSN_JMP) &&
			    in.target == target) {
				known = 1;
				break;
			}
		}
		free(code);
		if (known)
			return known;
	}
	return known;
}

/*
 * Whether the kernel printed a trace event's TP_printk() through
 * trace_check_vprintf(), whose scan of the format runs in iter->fmt, the
 * buffer trace_event_format() writes the nohash-ptr copy of the format
 * into: the first "%s" it finds then prints with an empty format (its
 * text lost).  From Linux kernel commit 9a6944fee68e ("tracing: Add a
 * verifier to check string pointers for trace events") (in v5.12) to
 * commit afd2627f727b ("tracing: Check "%s" dereference via the field
 * and not the TP_printk format") (in v6.13), which removed it.
 */
int th_trace_fmt_scan_in_place(void)
{
	static int have = -1;

	if (have < 0)
		have = th_ksymbol("trace_check_vprintf") != 0 &&
		       th_ksymbol("trace_event_format") != 0;
	return have;
}

/*
 * Whether print_fields() ("fields", events of a boot-mapped array) is the
 * one of the v6.15 series that brought trace_adjust_address(): "tracing:
 * Show function names when possible when listing fields" (a long field
 * through %pS, "0x%llx" before) and "tracing: Adjust addresses for
 * printing out fields" (a string-pointer field printed with the address
 * of the field in the reader's copy of the entry, the pointer before);
 * the first is Linux kernel commit 531ee10b430e (a 4-byte caller_offs or
 * parent_offs field also by its symbol since).
 */
int th_fields_v615(void)
{
	static int have = -1;

	if (have < 0)
		have = th_ksymbol("trace_adjust_address") != 0;
	return have;
}
