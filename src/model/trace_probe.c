/*
 * tracehunt: the model's one reader of struct trace_probe,
 * trace_probe_event, probe_arg and fetch_type (kernel/trace/trace_probe.h):
 * what kprobe (and uprobe) events have in common.
 */
#include "model/trace_probe.h"
#include "model/events.h"

/* Offsets, -1 when absent; filled once. */
static struct {
	int filled;
	long tp_event, tp_list, tp_nr_args, tp_args, tp_call, tp_size;
	long tpe_call, tpe_probes;
	long arg_size, arg_name, arg_comm, arg_offset, arg_count, arg_type;
	long type_name, type_size;
	/* what traceprobe_define_arg_fields() gave trace_define_field():
	 * probe_arg.fmt (an array's "TYPE[N]") since Linux kernel commit
	 * 40b53b771806 ("tracing: probeeevent: Add array type support")
	 * (in v4.20), else the fetch_type's fmttype; its is_signed; and
	 * its print function, print_type_<name> */
	long arg_fmt, type_fmttype, type_is_signed, type_print, type_sz;
	long type_fmt;		/* the print function's format */
} tpr_off;

static void tpr_off_fill(void)
{
	if (tpr_off.filled)
		return;
	tpr_off.filled = 1;
	tpr_off.tp_event = th_member("trace_probe", "event");
	tpr_off.tp_list = th_member("trace_probe", "list");
	tpr_off.tp_nr_args = th_member("trace_probe", "nr_args");
	tpr_off.tp_args = th_member("trace_probe", "args");
	/* Linux kernel commit 60d53e2c3b75 ("tracing/probe: Split
	 * trace_event related data from trace_probe") (v5.4) */
	if (tpr_off.tp_event >= 0)
		tpr_off.tp_call = -1;
	else
		tpr_off.tp_call = th_member("trace_probe", "call");
	tpr_off.tpe_call = th_member("trace_probe_event", "call");
	tpr_off.tpe_probes = th_member("trace_probe_event", "probes");
	tpr_off.arg_size = th_size("probe_arg");
	tpr_off.arg_name = th_member("probe_arg", "name");
	tpr_off.arg_comm = th_member("probe_arg", "comm");
	tpr_off.arg_offset = th_member("probe_arg", "offset");
	tpr_off.arg_count = th_member("probe_arg", "count");
	tpr_off.arg_type = th_member("probe_arg", "type");
	tpr_off.type_name = th_member("fetch_type", "name");
	tpr_off.type_size = th_member("fetch_type", "size");
	tpr_off.tp_size = th_member("trace_probe", "size");
	tpr_off.arg_fmt = th_member("probe_arg", "fmt");
	tpr_off.type_fmttype = th_member("fetch_type", "fmttype");
	tpr_off.type_is_signed = th_member("fetch_type", "is_signed");
	tpr_off.type_print = th_member("fetch_type", "print");
	tpr_off.type_sz = th_size("fetch_type");
	tpr_off.type_fmt = th_member("fetch_type", "fmt");
}

/**
 * th_trace_probe_ok - whether trace_probe and its arguments can be read
 */
int th_trace_probe_ok(void)
{
	tpr_off_fill();
	return tpr_off.tp_nr_args >= 0 && tpr_off.tp_args >= 0 &&
		tpr_off.arg_size > 0 &&
		(tpr_off.tp_event >= 0 ? tpr_off.tpe_call : tpr_off.tp_call) >=
		0;
}

/**
 * th_trace_probe_call - the trace_event_call of a trace_probe
 * @tp: struct trace_probe
 *
 * Returns 0 when unreadable.
 */
ulong th_trace_probe_call(ulong tp)
{
	ulong ev;

	tpr_off_fill();
	if (tpr_off.tp_event >= 0) {
		if (!th_read_ulong(tp + tpr_off.tp_event, &ev,
				   "trace_probe.event"))
			return 0;
		return ev + tpr_off.tpe_call;
	}
	return tp + tpr_off.tp_call;
}

/**
 * th_trace_probe_of_call - the first trace_probe of an event
 * @call: the event's struct trace_event_call, inside a trace_probe_event
 *
 * Returns 0 when the event has none or the dump lacks the types.
 */
ulong th_trace_probe_of_call(ulong call)
{
	ulong tpe, first = 0;

	tpr_off_fill();
	/* Before 60d53e2c3b75 (v5.4) the event's call is inside its one
	 * trace_probe (inside trace_kprobe/trace_uprobe since c31ffb3ff633,
	 * v3.14; the kprobe event itself before): a call whose class is the
	 * probe's own embedded class is that probe's. */
	if (tpr_off.tp_event < 0 && tpr_off.tp_call >= 0) {
		long cls = th_member("trace_probe", "class");

		if (cls < 0 ||
		    th_event_call_class(call) != call - tpr_off.tp_call + cls)
			return 0;
		return call - tpr_off.tp_call;
	}
	if (tpr_off.tpe_call < 0 || tpr_off.tpe_probes < 0 ||
	    tpr_off.tp_list < 0 || tpr_off.tp_args < 0 ||
	    tpr_off.arg_size <= 0)
		return 0;
	tpe = call - tpr_off.tpe_call;
	if (!th_read_ulong(tpe + tpr_off.tpe_probes, &first, "tpe.probes"))
		return 0;
	/* trace_probe_unlink() frees the event with its last probe */
	if (first == tpe + tpr_off.tpe_probes) {
		th_damaged("trace_probe_event", tpe, "no probe on its list");
		return 0;
	}
	/* trace_probe_append() links a probe to the event it points to
	 * (trace_probe.event) */
	if (!th_check_ptr("trace_probe_event", tpe, first, TH_M_DATA,
			  "probes.next"))
		return 0;
	if (th_trace_probe_call(first - tpr_off.tp_list) != call) {
		th_damaged("trace_probe", first - tpr_off.tp_list, "its event "
			   "is not the trace_probe_event %lx that lists it",
			   tpe);
		return 0;
	}
	return first - tpr_off.tp_list;
}

/**
 * th_trace_probe_nr_args - the number of fetch arguments
 * @tp: struct trace_probe
 *
 * The count agrees with trace_probe.size, where
 * traceprobe_parse_probe_arg_body() left the end of the last argument (0
 * without any): a count changed by damage prints too few arguments, or
 * reads past the probe's, in every file that lists them.
 *
 * Returns -1 when unreadable or implausible (over 128).
 */
int th_trace_probe_nr_args(ulong tp)
{
	unsigned int nr = 0, off = 0, cnt, sz;
	ulong size, call;
	char ev[128] = "?";

	tpr_off_fill();
	if (!th_read_uint(tp + tpr_off.tp_nr_args, &nr, "trace_probe.nr_args")
	    || nr > 128)
		return -1;
	if (tpr_off.tp_size < 0 ||
	    !th_read_ulong(tp + tpr_off.tp_size, &size, "trace_probe.size"))
		return nr;
	if (nr)
		th_probe_arg_layout(tp, nr - 1, &off, &cnt, &sz);
	if (nr ? off + sz * (cnt ? cnt : 1) == size : size == 0)
		return nr;
	if ((call = th_trace_probe_call(tp)))
		th_event_call_name(call, ev, sizeof(ev));
	th_damaged("trace_probe", tp, "event %s: %u arguments, but its size "
		   "is %lu%s", ev, nr, size, nr ? ", not where the last one "
		   "ends" : "");
	return nr;
}

/* The string a char * member at OFF of argument I points to. */
static int tpr_arg_str(ulong tp, unsigned int i, long off, char *buf,
		       int len, const char *what)
{
	ulong a = tp + tpr_off.tp_args + i * tpr_off.arg_size, p = 0;
	int ok;

	buf[0] = '\0';
	if (!th_read_ulong(a + off, &p, what)) {
		th_damaged("trace_probe", tp, "%s of argument %u cannot be "
			   "read", what, i);
		return -1;
	}
	ok = th_read_cstr(p, buf, len, what);
	/* traceprobe_parse_probe_arg() kstrdup()s both, never empty (a
	 * name is given or made "argN"); printed as the kernel would, with
	 * the warning */
	if (!ok || !buf[0])
		th_damaged("trace_probe", tp, "%s of argument %u at %lx is %s",
			   what, i, p, ok ? "empty" : "unreadable");
	else if (!th_printable(buf))
		th_damaged("trace_probe", tp, "%s at %lx is not text", what, p);
	return ok ? 1 : 0;
}

/**
 * th_probe_arg_name - probe_arg.name
 * @tp: struct trace_probe
 * @i: the argument, below th_trace_probe_nr_args()
 * @buf: the name
 * @len: room in @buf
 *
 * Returns -1 when the pointer is unreadable, 0 when the string is not
 * (@buf may hold a part of it), 1 when read.
 */
int th_probe_arg_name(ulong tp, unsigned int i, char *buf, int len)
{
	tpr_off_fill();
	return tpr_arg_str(tp, i, tpr_off.arg_name, buf, len,
			   "probe_arg.name");
}

/**
 * th_probe_arg_comm - probe_arg.comm, the fetch command as written
 * @tp: struct trace_probe
 * @i: the argument, below th_trace_probe_nr_args()
 * @buf: the command
 * @len: room in @buf
 *
 * Returns as th_probe_arg_name().
 */
int th_probe_arg_comm(ulong tp, unsigned int i, char *buf, int len)
{
	tpr_off_fill();
	return tpr_arg_str(tp, i, tpr_off.arg_comm, buf, len,
			   "probe_arg.comm");
}

/**
 * th_probe_arg_type - the name of the argument's fetch_type ("u32", ...)
 * @tp: struct trace_probe
 * @i: the argument, below th_trace_probe_nr_args()
 * @buf: the name ("" when the argument has no type)
 * @len: room in @buf
 *
 * Returns as th_probe_arg_name(); 0 when the argument has no type.
 */
int th_probe_arg_type(ulong tp, unsigned int i, char *buf, int len)
{
	ulong a, ft = 0, p;

	tpr_off_fill();
	a = tp + tpr_off.tp_args + i * tpr_off.arg_size;
	buf[0] = '\0';
	if (!th_read_ulong(a + tpr_off.arg_type, &ft, "probe_arg.type") ||
	    !ft)
		return 0;
	if (!th_read_ulong(ft + tpr_off.type_name, &p, "fetch_type.name"))
		return -1;
	return th_read_cstr(p, buf, len, "fetch_type.name") ? 1 : 0;
}

/**
 * th_probe_arg_hex - whether the argument's print function prints bare
 * hex: 3.10's u8..u64 print with "%x", "%lx" and "%llx" (their
 * fetch_type.fmt, print_type_format_<type>), later kernels' in decimal
 * ("%u") and the x types with "0x%x"
 * @tp: struct trace_probe
 * @i: the argument, below th_trace_probe_nr_args()
 */
int th_probe_arg_hex(ulong tp, unsigned int i)
{
	ulong a, ft = 0, p = 0;
	char f[8];

	tpr_off_fill();
	if (tpr_off.type_fmt < 0)
		return FALSE;
	a = tp + tpr_off.tp_args + i * tpr_off.arg_size;
	if (!th_read_ulong(a + tpr_off.arg_type, &ft, "probe_arg.type") ||
	    !ft || !th_read_ulong(ft + tpr_off.type_fmt, &p,
				  "fetch_type.fmt") || !p ||
	    !th_read_cstr(p, f, sizeof(f), "fetch_type.fmt"))
		return FALSE;
	return !strcmp(f, "%x") || !strcmp(f, "%lx") || !strcmp(f, "%llx");
}

/**
 * th_probe_arg_layout - where an argument's value is in the record
 * @tp: struct trace_probe
 * @i: the argument, below th_trace_probe_nr_args()
 * @offset: probe_arg.offset
 * @count: probe_arg.count (0 when the member is absent)
 * @size: the fetch_type's size (0 when the argument has no type)
 */
void th_probe_arg_layout(ulong tp, unsigned int i, unsigned int *offset,
			 unsigned int *count, unsigned int *size)
{
	ulong a, ft = 0, sz = 0;

	tpr_off_fill();
	a = tp + tpr_off.tp_args + i * tpr_off.arg_size;
	*count = *size = 0;
	th_read_uint(a + tpr_off.arg_offset, offset, "probe_arg.offset");
	if (tpr_off.arg_count >= 0)
		th_read_uint(a + tpr_off.arg_count, count, "probe_arg.count");
	if (th_read_ulong(a + tpr_off.arg_type, &ft, "probe_arg.type") && ft) {
		th_read_ulong(ft + tpr_off.type_size, &sz, "fetch_type.size");
		*size = sz;
	}
}

/**
 * th_probe_nhit - a kprobe or uprobe event's hits
 * @addr: the event's nhit member
 * @percpu: nhit is a per-CPU pointer (kprobes since a7636d9ecfa3, uprobes
 *          since 10cdb82aa77f), else a plain counter
 * @what: the member's name for read errors
 */
ulong th_probe_nhit(ulong addr, int percpu, const char *what)
{
	ulong nhit = 0, p, v, sum = 0;
	int cpus[NR_CPUS], n, i;

	if (!th_read_ulong(addr, &nhit, what))
		return 0;
	if (!percpu) {
		th_check_events("probe event", addr, nhit, what);
		return nhit;
	}
	n = th_possible_cpus(cpus, NR_CPUS);
	for (i = 0; i < n; i++) {
		p = th_percpu_ptr(nhit, cpus[i]);
		if (th_read_ulong(p, &v, what))
			sum += v;
		else
			th_damaged("probe event", addr, "%s: per-CPU pointer "
				   "%lx unreadable on CPU %d", what, nhit,
				   cpus[i]);
	}
	th_check_events("probe event", addr, sum, what);
	return sum;
}

/* ---- the layout the kernel gave the arguments ------------------------ */

/*
 * probe_fetch_types[] (kernel/trace/trace_probe.c): the one table every
 * probe_arg.type points into (find_fetch_type(), also for BTF-typed
 * arguments), ended by an entry without a name.  Its entries, 0 when the
 * dump has no such symbol.
 */
static int tpr_fetch_types(ulong *base)
{
	static int n = -1;
	static ulong b;
	ulong name;

	if (n < 0) {
		n = 0;
		b = th_symbol("probe_fetch_types");
		while (b && tpr_off.type_sz > 0 && n < 64 &&
		       th_read_ulong(b + n * tpr_off.type_sz +
				     tpr_off.type_name, &name,
				     "fetch_type.name") && name)
			n++;
	}
	*base = b;
	return n;
}

/* The field of E named NAME, NULL when it has none. */
static const struct th_event_field *tpr_field(const struct th_event *e,
					      const char *name)
{
	int i;

	for (i = e->nfields_common; i < e->nfields; i++)
		if (strcmp(e->fields[i].name, name) == 0)
			return &e->fields[i];
	return NULL;
}

/* Whether NAME is one of E's arguments'. */
static int tpr_is_arg(const struct th_event *e, const char *name)
{
	int i;

	for (i = 0; i < e->nargs; i++)
		if (strcmp(e->args[i].name, name) == 0)
			return TRUE;
	return FALSE;
}

/* Argument I's fetch_type FT against the table and its print function. */
static int tpr_check_type(ulong tp, const char *ev, unsigned int i,
			  ulong a, ulong ft, const char *tname)
{
	ulong base, pr = 0;
	int n = tpr_fetch_types(&base);
	struct th_sym s;

	if (n && (ft < base || ft >= base + n * tpr_off.type_sz ||
		  (ft - base) % tpr_off.type_sz)) {
		th_damaged("probe_arg", a, "event %s: argument %u's type %lx "
			   "is not an entry of probe_fetch_types[] (%lx, %d "
			   "types)", ev, i, ft, base, n);
		return FALSE;
	}
	if (!tname[0] || !th_printable(tname)) {
		th_damaged("fetch_type", ft, "event %s: argument %u's type "
			   "has no name", ev, i);
		return FALSE;
	}
	/* __ASSIGN_FETCH_TYPE(): .print = print_type_<ptype>, the type's
	 * own name, or "string" for the string types */
	if (tpr_off.type_print >= 0 &&
	    th_read_ulong(ft + tpr_off.type_print, &pr, "fetch_type.print") &&
	    th_ksym_lookup(pr, &s) && !s.offset &&
	    strncmp(s.name, "print_type_", 11) == 0 &&
	    strcmp(s.name + 11, tname) != 0 &&
	    !(strcmp(s.name + 11, "string") == 0 &&
	      (strstr(tname, "string") || strcmp(tname, "symstr") == 0))) {
		th_damaged("fetch_type", ft, "event %s: argument %u's type is "
			   "named %s, but prints with %s", ev, i, tname,
			   s.name);
		return FALSE;
	}
	return TRUE;
}

/*
 * The type the fetch command as written (probe_arg.comm, "%si:x32") asked
 * for, as traceprobe_parse_probe_arg_body() and find_fetch_type() read it:
 * after the first ':', "[N]" an array of N, "bW@O/S" a bitfield stored in
 * uS.  FALSE when it names none (the default type, or one BTF gave).
 */
static int tpr_comm_type(const char *comm, char *name, size_t len,
			 unsigned int *count)
{
	const char *t = strchr(comm, ':'), *br, *sl;
	size_t n;

	*count = 0;
	if (!t || !*++t)
		return FALSE;
	br = strchr(t, '[');
	n = br ? (size_t)(br - t) : strlen(t);
	if (br)
		*count = strtoul(br + 1, NULL, 0);
	if (*t == 'b' && (sl = memchr(t, '/', n))) {
		snprintf(name, len, "u%.*s", (int)(n - (sl + 1 - t)), sl + 1);
		return TRUE;
	}
	snprintf(name, len, "%.*s", (int)n, t);
	return TRUE;
}

/**
 * th_trace_probe_check - the arguments as the kernel laid them out
 * @tp: struct trace_probe (th_trace_probe_of_call() of @e)
 * @e: its event, th_event_probe_args() read
 *
 * traceprobe_parse_probe_arg_body() gives each argument, in order, the
 * offset the ones before it filled (its type's size times its count) and
 * the probe that size; traceprobe_define_arg_fields() then defined one
 * field of the event per argument, from the same values, after the
 * event's own head.  Each type is an entry of probe_fetch_types[].  A
 * failed check is reported (th_damaged()), naming the event.
 *
 * Returns the number of failed checks.
 */
int th_trace_probe_check(ulong tp, struct th_event *e)
{
	unsigned int i, want = 0, hdr = 0;
	int bad = 0;

	tpr_off_fill();
	th_event_fields(e);
	/* the head: what the fields that are no argument's fill */
	for (i = 0; i < (unsigned)e->nfields; i++)
		if (i < (unsigned)e->nfields_common ||
		    !tpr_is_arg(e, e->fields[i].name))
			if (e->fields[i].offset + e->fields[i].size > (int)hdr)
				hdr = e->fields[i].offset + e->fields[i].size;
	for (i = 0; i < (unsigned)e->nargs; i++) {
		const struct th_probe_arg *pa = &e->args[i];
		const struct th_event_field *f = tpr_field(e, pa->name);
		ulong a = tp + tpr_off.tp_args + i * tpr_off.arg_size, ft = 0;
		ulong p = 0, sgn = 0;
		unsigned int n = pa->count ? pa->count : 1, cnt;
		char fmt[64] = "", comm[256], want_type[32];

		if (!th_read_ulong(a + tpr_off.arg_type, &ft,
				   "probe_arg.type") || !ft) {
			th_damaged("probe_arg", a, "event %s: argument %u (%s) "
				   "has no type", e->name, i, pa->name);
			bad++;
			continue;
		}
		if (!tpr_check_type(tp, e->name, i, a, ft, pa->type))
			bad++;
		/* the type the command asked for */
		if (th_probe_arg_comm(tp, i, comm, sizeof(comm)) == 1 &&
		    tpr_comm_type(comm, want_type, sizeof(want_type), &cnt) &&
		    (strcmp(want_type, pa->type) != 0 || cnt != pa->count)) {
			th_damaged("probe_arg", a, "event %s: argument %u (%s) "
				   "is %s[%u], but its command \"%s\" asks for "
				   "%s[%u]", e->name, i, pa->name, pa->type,
				   pa->count, comm, want_type, cnt);
			bad++;
		}
		if (pa->offset != want) {
			th_damaged("probe_arg", a, "event %s: argument %u (%s) "
				   "at offset %u, but the arguments before it "
				   "end at %u", e->name, i, pa->name, pa->offset,
				   want);
			bad++;
		}
		want = pa->offset + pa->size * n;
		/* the field defined from it */
		if (!f) {
			th_damaged("probe_arg", a, "event %s: argument %u (%s) "
				   "has no field of its name", e->name, i,
				   pa->name);
			bad++;
			continue;
		}
		if (tpr_off.arg_fmt >= 0 &&
		    th_read_ulong(a + tpr_off.arg_fmt, &p, "probe_arg.fmt") &&
		    p)
			th_read_cstr(p, fmt, sizeof(fmt), "probe_arg.fmt");
		else if (tpr_off.type_fmttype >= 0 &&
			 th_read_ulong(ft + tpr_off.type_fmttype, &p,
				       "fetch_type.fmttype"))
			th_read_cstr(p, fmt, sizeof(fmt), "fetch_type.fmttype");
		if (tpr_off.type_is_signed >= 0)
			th_read(ft + tpr_off.type_is_signed, &sgn, 1,
				"fetch_type.is_signed");
		if ((unsigned)f->offset != hdr + pa->offset ||
		    (unsigned)f->size != pa->size * n ||
		    (fmt[0] && strcmp(f->type, fmt) != 0) ||
		    (tpr_off.type_is_signed >= 0 &&
		     !f->is_signed != !(sgn & 0xff))) {
			th_damaged("probe_arg", a, "event %s: argument %u (%s): "
				   "%s at %u, %u bytes%s, but its field: %s at "
				   "%d, %d bytes%s", e->name, i, pa->name,
				   fmt[0] ? fmt : pa->type, hdr + pa->offset,
				   pa->size * n, sgn & 0xff ? ", signed" : "",
				   f->type, f->offset, f->size,
				   f->is_signed ? ", signed" : "");
			bad++;
		}
	}
	/* the probe's size against where the last argument ends: checked
	 * by th_trace_probe_nr_args(), which every reader of the count
	 * goes through */
	return bad;
}
