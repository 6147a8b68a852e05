/*
 * tracehunt: the one reader of the dyn_ftrace records: the ftrace_page
 * list from ftrace_pages_start, each page's records in one read, and the
 * FTRACE_FL_* bits of their flags from the dump's enum.
 */
#include "model/ftrace_ops.h"

#define THF_MAX_PAGES	200000
#define THF_MAX_ENUM	64

/* struct ftrace_page */
struct thf_page_off {
	long next, records, index;
	long order, size;	/* the room: an allocation order, or records */
};

/* struct dyn_ftrace */
struct thf_dynrec_off {
	long ip, flags, size;
};

static const struct thf_page_off *thf_page_off(void)
{
	static struct thf_page_off o;
	static int filled;

	if (!filled) {
		o.next = th_member("ftrace_page", "next");
		o.records = th_member("ftrace_page", "records");
		o.index = th_member("ftrace_page", "index");
		/* older kernels (3.10) keep the room in records (size),
		 * newer ones the order of the page allocation */
		o.order = th_member("ftrace_page", "order");
		o.size = th_member("ftrace_page", "size");
		filled = TRUE;
	}
	return &o;
}

static const struct thf_dynrec_off *thf_dynrec_off(void)
{
	static struct thf_dynrec_off o;
	static int filled;

	if (!filled) {
		o.ip = th_member("dyn_ftrace", "ip");
		o.flags = th_member("dyn_ftrace", "flags");
		o.size = th_size("dyn_ftrace");
		filled = TRUE;
	}
	return &o;
}

static int thf_rec_types_known(void)
{
	const struct thf_page_off *p = thf_page_off();
	const struct thf_dynrec_off *r = thf_dynrec_off();

	return p->next >= 0 && p->records >= 0 && p->index >= 0 &&
		r->ip >= 0 && r->flags >= 0 && r->size > 0;
}

static struct thf_recs thf_recs_all;

/* What stopped the walk (or left records out) and where. */
static void thf_recs_damage(const char *err, ulong bad)
{
	thf_recs_all.err = err;
	thf_recs_all.bad = bad;
}

static void thf_rec_take(const unsigned char *rec)
{
	const struct thf_dynrec_off *o = thf_dynrec_off();
	struct thf_rec *r = &thf_recs_all.rec[thf_recs_all.nrec++];

	memcpy(&r->ip, rec + o->ip, sizeof(ulong));
	memcpy(&r->flags, rec + o->flags, sizeof(ulong));
}

/* Room for INDEX more records; FALSE (damage noted) when out of memory. */
static int thf_recs_room(long index, ulong records, long *cap)
{
	struct thf_recs *a = &thf_recs_all;
	struct thf_rec *more;

	if (a->nrec + index <= *cap)
		return TRUE;
	*cap = (a->nrec + index) * 2;
	more = realloc(a->rec, *cap * sizeof(*a->rec));
	if (!more) {
		free(a->rec);
		a->rec = NULL;
		a->nrec = *cap = 0;
		thf_recs_damage("out of memory for dyn_ftrace records", records);
		return FALSE;
	}
	a->rec = more;
	return TRUE;
}

/*
 * The INDEX records of one page at RECORDS, read at once into BUF; when
 * that fails (e.g. pages left out of a filtered dump) record by record:
 * the records on readable pages are still shown.
 */
static void thf_recs_page(ulong records, int index, unsigned char *buf)
{
	long rsz = thf_dynrec_off()->size, i;

	if (th_read(records, buf, index * rsz, "ftrace_page.records")) {
		for (i = 0; i < index; i++)
			thf_rec_take(buf + i * rsz);
		return;
	}
	if (!thf_recs_all.err)
		thf_recs_damage("unreadable dyn_ftrace records", records);
	for (i = 0; i < index; i++) {
		if (!th_read(records + i * rsz, buf, rsz, "dyn_ftrace")) {
			thf_recs_all.missing++;
			continue;
		}
		thf_rec_take(buf);
	}
}

/* Is PG new (pages are few, hundreds: a linear cycle check is cheap next
 * to the records read for each); FALSE, damage noted, when not. */
static int thf_recs_page_new(ulong pg, ulong **seen, long *scap)
{
	struct thf_recs *a = &thf_recs_all;
	long k;

	if (!th_kptr(pg)) {
		thf_recs_damage("invalid ftrace_page pointer", pg);
		return FALSE;
	}
	for (k = 0; k < a->npages; k++)
		if ((*seen)[k] == pg)
			break;
	if (k < a->npages || a->npages >= THF_MAX_PAGES) {
		thf_recs_damage(k < a->npages ? "cycle in ftrace_pages" :
				"too many ftrace_pages", pg);
		return FALSE;
	}
	if (a->npages >= *scap) {
		ulong *more;

		*scap = *scap ? *scap * 2 : 256;
		more = realloc(*seen, *scap * sizeof(ulong));
		if (!more) {
			thf_recs_damage("out of memory for ftrace_pages", pg);
			return FALSE;
		}
		*seen = more;
	}
	(*seen)[a->npages++] = pg;
	return TRUE;
}

/* The records a page can hold (ftrace_allocate_records()), -1 unknown. */
static long thf_page_room(ulong pg)
{
	const struct thf_page_off *o = thf_page_off();
	int v;

	if (o->order >= 0 && th_read_int(pg + o->order, &v,
					  "ftrace_page.order"))
		return v >= 0 && v < 20 ?
			(long)((PAGESIZE() << v) / thf_dynrec_off()->size) : 0;
	if (o->size >= 0 && th_read_int(pg + o->size, &v, "ftrace_page.size"))
		return v >= 0 ? v : 0;
	return -1;
}

/* Is the page PG plausible before its records are read: records in the
 * direct map or vmalloc space, index within the page's room. */
static int thf_page_plausible(ulong pg, ulong records, int index)
{
	long room;

	if (!index)
		return TRUE;
	if (!th_check_ptr("ftrace_page", pg, records, TH_M(TH_R_DIRECT) |
			  TH_M(TH_R_VMALLOC), "records"))
		return FALSE;
	room = thf_page_room(pg);
	if (room >= 0 && index > room) {
		th_damaged("ftrace_page", pg, "index %d exceeds the %ld "
			   "records the page holds", index, room);
		return FALSE;
	}
	return TRUE;
}

/* The records of a page, from FIRST on, are call sites in ascending order
 * (ftrace_process_locs() sorts them): else they are dropped. */
static int thf_page_sorted(ulong pg, ulong records, long first)
{
	struct thf_recs *a = &thf_recs_all;
	ulong prev = 0;
	long i;

	for (i = first; i < a->nrec; i++) {
		ulong ip = a->rec[i].ip;

		/* ftrace_process_locs() skips a NULL __mcount_loc entry
		 * and nothing zeroes a record's ip later: an ip 0 is
		 * damage too (a zeroed page of records) */
		if (!th_ptr_in(ip, TH_M_CODE) || ip < prev) {
			th_damaged("ftrace_page", pg, "records at %lx: ip %lx "
				   "is %s; the page's %ld records are not "
				   "used", records, ip,
				   !th_ptr_in(ip, TH_M_CODE) ? "not code" :
				   "out of order",
				   a->nrec - first);
			a->missing += a->nrec - first;
			a->nrec = first;
			if (!a->err)
				thf_recs_damage("ftrace_page records not in "
						"order", pg);
			return FALSE;
		}
		prev = ip;
	}
	return TRUE;
}

/* The kernel counts the ftrace_page structs it allocated. */
static void thf_recs_count_check(void)
{
	ulong groups = th_symbol("ftrace_number_of_groups");
	ulong tot = th_symbol("ftrace_update_tot_cnt");
	ulong n;

	if (groups && !thf_recs_all.err &&
	    th_read_ulong(groups, &n, "ftrace_number_of_groups") &&
	    n != (ulong)thf_recs_all.npages)
		th_damaged("ftrace_pages", th_symbol("ftrace_pages_start"),
			   "%ld pages on the list, the kernel counts %lu "
			   "(ftrace_number_of_groups)", thf_recs_all.npages, n);
	/* ftrace_update_code() adds each new page's records to it,
	 * ftrace_release_mod() and ftrace_free_mem() take them away */
	if (tot && !thf_recs_all.err && !thf_recs_all.stopped &&
	    th_read_ulong(tot, &n, "ftrace_update_tot_cnt") &&
	    n != (ulong)(thf_recs_all.nrec + thf_recs_all.missing)) {
		thf_recs_all.count_differs = TRUE;
		th_damaged("ftrace_pages", th_symbol("ftrace_pages_start"),
			   "%ld records on the pages, the kernel counts %lu "
			   "(ftrace_update_tot_cnt)",
			   thf_recs_all.nrec + thf_recs_all.missing, n);
	}
}

/* No pages at all: the kernel's image had __mcount_loc entries, so
 * ftrace_init() gave them pages unless it disabled ftrace. */
static void thf_recs_none_check(ulong pg)
{
	ulong a = th_symbol("__start_mcount_loc");
	ulong b = th_symbol("__stop_mcount_loc");
	ulong dis = th_symbol("ftrace_disabled");
	int off = 0;

	if (pg || !a || b <= a || !dis ||
	    !th_read_int(dis, &off, "ftrace_disabled") || off)
		return;
	th_damaged("ftrace_pages_start", th_symbol("ftrace_pages_start"),
		   "no ftrace_page for the image's %lu call sites",
		   (b - a) / sizeof(ulong));
}

/* The ftrace_page list from PG, bounded and cycle-safe. */
static void thf_recs_walk(ulong pg)
{
	const struct thf_page_off *o = thf_page_off();
	long rsz = thf_dynrec_off()->size;
	ulong *seen = NULL;
	long cap = 0, scap = 0, bufsz = 0;
	unsigned char *buf = NULL;

	while (pg) {
		ulong records, next;
		int index;

		if (!thf_recs_page_new(pg, &seen, &scap))
			break;
		if (!th_read_ulong(pg + o->records, &records,
				   "ftrace_page.records") ||
		    !th_read_int(pg + o->index, &index, "ftrace_page.index") ||
		    !th_read_ulong(pg + o->next, &next, "ftrace_page.next")) {
			thf_recs_damage("unreadable ftrace_page", pg);
			break;
		}
		/* an order-N allocation holds at most a few thousand */
		if (index < 0 || index > (1 << 20) ||
		    (index && !th_kptr(records))) {
			thf_recs_damage("implausible ftrace_page", pg);
			break;
		}
		if (!thf_page_plausible(pg, records, index)) {
			thf_recs_all.missing += index > 0 ? index : 0;
			/* records left out: the text audit must not take
			 * their call sites for unrecorded calls */
			if (!thf_recs_all.err)
				thf_recs_damage("implausible ftrace_page", pg);
			index = 0;
		}
		if (index) {
			long first = thf_recs_all.nrec;

			if (index * rsz > bufsz) {
				bufsz = index * rsz;
				free(buf);
				buf = malloc(bufsz);
			}
			if (!buf) {
				thf_recs_damage("out of memory for dyn_ftrace "
						"records", records);
				break;
			}
			if (!thf_recs_room(index, records, &cap))
				break;
			thf_recs_page(records, index, buf);
			thf_page_sorted(pg, records, first);
		}
		pg = next;
	}
	thf_recs_all.stopped = pg != 0;
	free(buf);
	free(seen);
}

/**
 * thf_records - every dyn_ftrace record, in ftrace_pages order
 *
 * Walked once per dump.  Records of unreadable pages are left out and
 * counted; the walk stops at a damaged page (err, bad, stopped).
 *
 * Return: the records; ->walked is FALSE when the kernel has no
 * ftrace_pages_start (or its types), or it cannot be read.
 */
const struct thf_recs *thf_records(void)
{
	static int done;
	const char *tag;
	ulong start, pg;

	if (done) {
		th_damage_replay("ftrace_records");
		return &thf_recs_all;
	}
	done = TRUE;
	start = th_symbol("ftrace_pages_start");
	if (!start)
		return &thf_recs_all;
	if (!thf_rec_types_known()) {
		thf_recs_damage("struct ftrace_page/dyn_ftrace not in debuginfo",
				0);
		return &thf_recs_all;
	}
	if (!th_read_ulong(start, &pg, "ftrace_pages_start")) {
		thf_recs_damage("unreadable ftrace_pages_start", start);
		return &thf_recs_all;
	}
	thf_recs_all.walked = TRUE;
	tag = th_damage_tag("ftrace_records");
	thf_recs_walk(pg);
	thf_recs_count_check();
	thf_recs_none_check(pg);
	th_damage_tag(tag);
	return &thf_recs_all;
}

/**
 * thf_rec_known - whether an address is the ip of a dyn_ftrace record
 * @ip: the address
 *
 * Return: 1 or 0; -1 when the records were not all read (a damaged or
 * missing page), or cannot be looked up.
 */
int thf_rec_known(ulong ip)
{
	static ulong *sorted;
	static long n = -1;
	const struct thf_recs *r = thf_records();
	long i;

	if (!r->walked || r->stopped || r->missing)
		return -1;
	if (n < 0) {
		sorted = r->nrec ? malloc(r->nrec * sizeof(ulong)) : NULL;
		if (r->nrec && !sorted)
			return -1;
		for (i = 0; i < r->nrec; i++)
			sorted[i] = r->rec[i].ip;
		if (sorted)
			qsort(sorted, r->nrec, sizeof(ulong), th_ulong_cmp);
		n = r->nrec;
	}
	return n && bsearch(&ip, sorted, n, sizeof(ulong),
			    th_ulong_cmp) != NULL;
}

/* ------------------------------------------------------------- flags --- */

static const struct {
	const char *name;
	size_t off;
} thf_recfl_names[] = {
	{ "FTRACE_FL_ENABLED", offsetof(struct thf_recfl, enabled) },
	{ "FTRACE_FL_REGS", offsetof(struct thf_recfl, regs) },
	{ "FTRACE_FL_REGS_EN", offsetof(struct thf_recfl, regs_en) },
	{ "FTRACE_FL_TRAMP", offsetof(struct thf_recfl, tramp) },
	{ "FTRACE_FL_TRAMP_EN", offsetof(struct thf_recfl, tramp_en) },
	{ "FTRACE_FL_IPMODIFY", offsetof(struct thf_recfl, ipmodify) },
	{ "FTRACE_FL_DISABLED", offsetof(struct thf_recfl, disabled) },
	{ "FTRACE_FL_DIRECT", offsetof(struct thf_recfl, direct) },
	{ "FTRACE_FL_DIRECT_EN", offsetof(struct thf_recfl, direct_en) },
	{ "FTRACE_FL_CALL_OPS", offsetof(struct thf_recfl, call_ops) },
	{ "FTRACE_FL_CALL_OPS_EN", offsetof(struct thf_recfl, call_ops_en) },
	{ "FTRACE_FL_TOUCHED", offsetof(struct thf_recfl, touched) },
	{ "FTRACE_FL_MODIFIED", offsetof(struct thf_recfl, modified) },
};
#define THF_NRECFL (sizeof(thf_recfl_names) / sizeof(thf_recfl_names[0]))

static ulong *thf_recfl_slot(struct thf_recfl *f, size_t i)
{
	return (ulong *)((char *)f + thf_recfl_names[i].off);
}

/**
 * thf_recfl_load - the FTRACE_FL_* bits of dyn_ftrace.flags
 * @f: filled from the dump's enum (one gdb lookup for the lot; one per
 *     name when gdb cannot print the enum); a bit the kernel lacks is 0
 *
 * The flags are 32-bit: (1UL << 31) may print as a negative value.
 *
 * Return: FALSE when FTRACE_FL_ENABLED is not known.
 */
int thf_recfl_load(struct thf_recfl *f)
{
	struct th_enumv all[THF_MAX_ENUM];
	int nall = th_enum_list("FTRACE_FL_ENABLED", all, THF_MAX_ENUM), k;
	ulong lowest = 0, bit;
	size_t i;

	memset(f, 0, sizeof(*f));
	for (k = 0; k < nall; k++)
		all[k].val = (long)((ulong)all[k].val & 0xffffffffUL);
	for (i = 0; i < THF_NRECFL; i++) {
		bit = 0;
		if (nall) {
			for (k = 0; k < nall; k++)
				if (strcmp(all[k].name,
					   thf_recfl_names[i].name) == 0)
					bit = all[k].val;
		} else {
			bit = (ulong)th_enum(thf_recfl_names[i].name, 0) &
				0xffffffffUL;
		}
		if (!bit || (bit & (bit - 1)))
			continue;
		*thf_recfl_slot(f, i) = bit;
	}
	/* FTRACE_REF_MAX_SHIFT is the lowest bit of the enum in every
	 * version: the reference count lives below every flag */
	for (k = 0; k < nall; k++)
		if (all[k].val && (!lowest || (ulong)all[k].val < lowest))
			lowest = all[k].val;
	for (i = 0; !nall && i < THF_NRECFL; i++) {
		bit = *thf_recfl_slot(f, i);
		if (bit && (!lowest || bit < lowest))
			lowest = bit;
	}
	if (!f->enabled)
		return FALSE;
	f->ref_mask = lowest - 1;
	return TRUE;
}
