/*
 * tracehunt: "ftrace dump -t FILE": a trace.dat that trace-cmd reads
 * (version 7, or 6 for readers older than trace-cmd 3.0):
 * header_page/header_event as the kernel prints them, every event format
 * (events/SYSTEM/EVENT/format, f_show()), the kallsyms and printk formats
 * the recorded events need (read from the dump, modules included), saved
 * cmdlines, and the per-CPU sub-buffers in the reader's order, streamed
 * page by page into FILE.tmpXXXXXX, renamed to FILE when complete.
 * Version 7 (render/trace_dat7.c) gives every buffer (the array's, and
 * with -a each instance's) a section and a BUFFER option of its own, with
 * its own sub-buffer size (buffer_subbuf_size_kb); version 6
 * (render/trace_dat6.c) has one page size for the file.
 */
#include <errno.h>
#include <signal.h>
#include <unistd.h>
#include <fcntl.h>
#include "render/trace_priv.h"
#include "render/trace_dump.h"
#include "render/trace_dat.h"
#include "nameidx.h"

/* ------------------------------------------------------ event formats --- */

/* The format file (events/SYSTEM/EVENT/format) of every event that has
 * a name, in ftrace_events order. */
struct th_devent {
	struct th_event *ev;
	char system[64];
	struct th_sb fmt;		/* the format file */
};

static struct th_devent *dev;
static int ndev = -1;
static int *dev_idx;			/* type -> index */
static struct ni_index dev_names;	/* (system, name) -> index */

/* f_show() of kernel/trace/trace_events.c */
static void th_dev_field_line(struct th_sb *b,
			      const struct th_event_field *f)
{
	const char *arr = strchr(f->type, '[');

	if (strncmp(f->type, "__data_loc", 10) == 0)
		arr = NULL;
	if (!arr)
		th_sb_printf(b, "\tfield:%s %s;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
			  f->type, f->name, f->offset, f->size, !!f->is_signed);
	/* field->len as it is: a user event's fields never set it
	 * (user_event_add_field() kmallocs them), so whatever the memory
	 * held is what the kernel printed */
	else if (f->has_len && f->len)
		th_sb_printf(b, "\tfield:%.*s %s[%d];\toffset:%u;\tsize:%u;"
			  "\tsigned:%d;\n", (int)(arr - f->type), f->type,
			  f->name, f->len, f->offset, f->size, !!f->is_signed);
	else if (f->has_len)
		th_sb_printf(b, "\tfield:%.*s %s[];\toffset:%u;\tsize:%u;"
			  "\tsigned:%d;\n", (int)(arr - f->type), f->type,
			  f->name, f->offset, f->size, !!f->is_signed);
	else
		th_sb_printf(b, "\tfield:%.*s %s%s;\toffset:%u;\tsize:%u;"
			  "\tsigned:%d;\n", (int)(arr - f->type), f->type,
			  f->name, arr, f->offset, f->size, !!f->is_signed);
}

/* The fields a format file shows: the common ones, then the event's (a
 * syscall exit event's from its class: __syscall_nr and ret). */
static int th_dev_nfields(struct th_event *e)
{
	th_event_fields(e);
	return e->nfields;
}

/* E's format file, f_show() of every field and its print_fmt. */
static void th_dev_format(struct th_devent *d, char *pf, size_t pflen)
{
	struct th_event *e = d->ev;
	int k, nfields = th_dev_nfields(e);
	ulong addr;

	d->fmt.grow = TRUE;
	th_event_print_fmt(e, pf, pflen, &addr);
	th_sb_printf(&d->fmt, "name: %s\nID: %d\nformat:\n", e->name,
		  (int)e->type);
	for (k = 0; k < nfields; k++) {
		if (k && strncmp(e->fields[k].name, "common_", 7) &&
		    !strncmp(e->fields[k - 1].name, "common_", 7))
			th_sb_printf(&d->fmt, "\n");
		th_dev_field_line(&d->fmt, &e->fields[k]);
	}
	if (nfields && !strncmp(e->fields[nfields - 1].name, "common_", 7))
		th_sb_printf(&d->fmt, "\n");
	th_sb_printf(&d->fmt, "\nprint fmt: %s\n", pf);
}

/* The names of event I of the catalog (lib/nameidx.h) */
static void th_dev_names(const void *arg, int i, const char **system,
			 const char **name)
{
	(void)arg;
	*system = dev[i].system;
	*name = dev[i].ev->name;
}

static void th_dev_load(void)
{
	struct th_event *evs;
	int nevs = th_events(&evs), i;
	char *pf = malloc(16384);

	ndev = 0;
	dev_idx = malloc(65536 * sizeof(int));
	if (!dev_idx || !pf) {
		free(pf);
		return;
	}
	memset(dev_idx, 0xff, 65536 * sizeof(int));
	dev = calloc(nevs ? nevs : 1, sizeof(*dev));
	for (i = 0; dev && i < nevs; i++) {
		struct th_devent *d = &dev[ndev];

		th_event_named(&evs[i]);
		if (!evs[i].has_name)
			continue;
		d->ev = &evs[i];
		if (!th_event_call_system(d->ev->call, d->system,
					  sizeof(d->system)))
			d->system[0] = '\0';
		if (!d->system[0])
			strcpy(d->system, "ftrace");
		th_dev_format(d, pf, 16384);
		if (!d->fmt.buf)
			continue;
		if (dev_idx[d->ev->type] < 0)
			dev_idx[d->ev->type] = ndev;
		ndev++;
	}
	free(pf);
	/* (without memory th_event_format_find() scans) */
	ni_build(&dev_names, ndev, th_dev_names, NULL);
}

static struct th_devent *th_dev(unsigned type)
{
	if (ndev < 0)
		th_dev_load();
	if (!dev_idx || type > 65535 || dev_idx[type] < 0)
		return NULL;
	return &dev[dev_idx[type]];
}

/* ------------------------------------------------------- value sets --- */

static int th_set_add(struct th_set *s, ulong v)
{
	size_t i;

	if (!v)
		return FALSE;
	if ((s->n + 1) * 2 > s->cap) {
		struct th_set t = { NULL, 0, s->cap ? s->cap * 2 : 256 };

		t.v = calloc(t.cap, sizeof(ulong));
		if (!t.v)
			return FALSE;
		for (i = 0; i < s->cap; i++)
			if (s->v[i])
				th_set_add(&t, s->v[i]);
		free(s->v);
		*s = t;
	}
	for (i = (v * 0x9e3779b97f4a7c15UL) >> 7 & (s->cap - 1); s->v[i];
	     i = (i + 1) & (s->cap - 1))
		if (s->v[i] == v)
			return FALSE;
	s->v[i] = v;
	s->n++;
	return TRUE;
}

/* The set's values sorted into a new array. */
static ulong *th_set_sorted(struct th_set *s)
{
	ulong *out = malloc((s->n + 1) * sizeof(ulong));
	size_t i, k = 0;

	if (!out)
		return NULL;
	for (i = 0; i < s->cap; i++)
		if (s->v[i])
			out[k++] = s->v[i];
	qsort(out, k, sizeof(ulong), th_ulong_cmp);
	return out;
}

/* --------------------------------------------------------- pre-pass --- */

static void th_refs_event(struct th_refs *r, const unsigned char *ent,
			  uint32_t len)
{
	struct th_devent *e;
	int i, j, pid;

	if (len < 8)
		return;
	pid = th_ent_pid(ent);
	if (pid > 0)
		th_set_add(&r->pids, (ulong)pid);
	e = th_dev(th_ent_type(ent));
	if (!e)
		return;
	for (i = 0; i < th_dev_nfields(e->ev); i++) {
		struct th_event_field *f = &e->ev->fields[i];

		if (!strncmp(f->type, "unsigned long", 13) &&
		    (f->type[13] == '\0' || f->type[13] == '[')) {
			for (j = 0; j * (int)sizeof(ulong) < f->size &&
			     j < 512; j++) {
				ulong v = th_get_ul(ent, len, f->offset +
						    j * sizeof(ulong));

				if (th_kptr(v))
					th_set_add(&r->addrs, v);
			}
		} else if (!strcmp(f->type, "const char *") &&
			   !strcmp(e->system, "ftrace")) {
			ulong v = th_get_ul(ent, len, f->offset);

			if (th_kptr(v))
				th_set_add(&r->strs, v);
		}
	}
}

static void th_refs_scan(struct th_rb *rb, struct th_refs *r)
{
	int i;

	for (i = 0; i < rb->ncpus; i++) {
		struct th_rbcpu *c = &rb->cpus[i];
		long n = 0;

		th_rb_cpu_start(c);
		while (n++ < 100000000L && th_rb_cpu_peek(c)) {
			th_refs_event(r, c->ev.payload, c->ev.len);
			r->events++;
			th_rb_cpu_advance(c);
		}
	}
}

static void th_refs_add_str(ulong fmt, void *arg)
{
	struct th_refs *r = arg;

	th_set_add(&r->strs, fmt);
}

/* The kernel's own bprintk formats. */
static void th_refs_printk_tables(struct th_refs *r)
{
	th_bprintk_fmts(th_refs_add_str, r);
}

/* ------------------------------------------------------------ writer --- */

static int th_fd_write(void *arg, const void *buf, size_t len)
{
	struct th_fdout *f = arg;
	const char *p = buf;

	while (len) {
		ssize_t k = write(f->fd, p, len);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return errno;
		if (k == 0)
			return EIO;
		p += k;
		len -= k;
	}
	return 0;
}

/*
 * is_signed_type(char) of the kernel that wrote the dump: the signedness
 * ftrace's own print event recorded for its "char buf[]" field (unsigned
 * since Linux kernel commit 3bc753c06dd0 ("kbuild: treat char as always
 * unsigned") (in v6.2)); signed when the dump does not say.
 */
static int th_char_signed(void)
{
	struct th_event *evs;
	int n = th_events(&evs), i, k;

	for (i = 0; i < n; i++) {
		th_event_named(&evs[i]);
		if (strcmp(evs[i].name, "print") != 0)
			continue;
		th_event_fields(&evs[i]);
		for (k = 0; k < evs[i].nfields; k++)
			if (strcmp(evs[i].fields[k].name, "buf") == 0 &&
			    strncmp(evs[i].fields[k].type, "char", 4) == 0)
				return !!evs[i].fields[k].is_signed;
	}
	return 1;
}

void th_text_header_page(struct th_sb *b, long data_off,
			 ulong data_size)
{
	long o_commit, o_data, ls = sizeof(long);
	int char_signed = th_char_signed();

	th_rb_bdp_offsets(&o_commit, &o_data);

	th_sb_printf(b, "\tfield: u64 timestamp;\toffset:0;\tsize:8;\t"
		  "signed:0;\n");
	th_sb_printf(b, "\tfield: local_t commit;\toffset:%ld;\tsize:%ld;\t"
		  "signed:1;\n", o_commit, ls);
	if (th_rb_overwrite_is_char())
		th_sb_printf(b, "\tfield: char overwrite;\toffset:%ld;\t"
			  "size:1;\tsigned:%d;\n", o_commit, char_signed);
	else
		th_sb_printf(b, "\tfield: int overwrite;\toffset:%ld;\t"
			  "size:1;\tsigned:1;\n", o_commit);
	th_sb_printf(b, "\tfield: char data;\toffset:%ld;\tsize:%lu;\t"
		  "signed:%d;\n", data_off, data_size, char_signed);
}

void th_text_header_event(struct th_sb *b)
{
	th_sb_printf(b, "# compressed entry header\n"
		  "\ttype_len    :    5 bits\n"
		  "\ttime_delta  :   27 bits\n"
		  "\tarray       :   32 bits\n\n"
		  "\tpadding     : type == %2d\n"
		  "\ttime_extend : type == %2d\n",
		  RB_TYPE_PADDING, RB_TYPE_TIME_EXTEND);
	if (th_rb_header_has_time_stamp())
		th_sb_printf(b, "\ttime_stamp : type == %2d\n",
			     RB_TYPE_TIME_STAMP);
	th_sb_printf(b, "\tdata max type_len  == %2d\n", RB_TYPE_DATA_MAX);
}

/*
 * The symbols the recorded addresses fall in, each with the one after it
 * (trace-cmd bounds a symbol by the next one).  LB (a previous boot's
 * trace): each looked up where trace_adjust_address() maps the recorded
 * address, and written moved back by that same delta, at the previous
 * boot's address; _text first (th_dat_lb_kallsyms_head()), and a line
 * named by its number for each module address the kernel had no name for
 * (th_dat_lb_unnamed()).
 */
void th_text_kallsyms(struct th_sb *b, struct th_refs *r,
		      const struct th_last_boot *lb)
{
	struct th_set seen = { 0 };
	ulong *a = th_set_sorted(&r->addrs), look, d;
	size_t i;

	th_dat_lb_kallsyms_head(b, lb);
	for (i = 0; a && i < r->addrs.n * 2; i++) {
		struct th_sym s;

		look = th_dat_lb_map(lb, a[i / 2]);
		d = look - a[i / 2];
		if (!th_ksym_lookup(look, &s)) {
			if (!(i & 1) && th_dat_lb_unnamed(lb, a[i / 2]) &&
			    th_set_add(&seen, a[i / 2]))
				th_sb_printf(b, "%016lx t 0x%lx\n", a[i / 2],
					  look);
			continue;
		}
		if ((i & 1) && !s.size)
			continue;
		if ((i & 1) && !th_ksym_lookup(s.addr + s.size, &s)) {
			/*
			 * libtraceevent never matches the last symbol of
			 * its table (it needs the next address as a bound):
			 * mark where this one ends when nothing follows it.
			 */
			struct th_sym e;

			if (th_ksym_lookup(look, &e) &&
			    th_set_add(&seen, e.addr + e.size - d))
				th_sb_printf(b, "%016lx t __tracehunt_end%s%s%s\n",
					  e.addr + e.size - d,
					  e.module[0] ? "\t[" : "", e.module,
					  e.module[0] ? "]" : "");
			continue;
		}
		if (!th_set_add(&seen, s.addr - d))
			continue;
		if (s.module[0])
			th_sb_printf(b, "%016lx t %s\t[%s]\n", s.addr - d,
				  s.name, s.module);
		else
			th_sb_printf(b, "%016lx t %s\n", s.addr - d, s.name);
	}
	free(a);
	free(seen.v);
}

void th_text_printk(struct th_sb *b, struct th_refs *r)
{
	ulong *a = th_set_sorted(&r->strs);
	char *str = malloc(4096), *esc = malloc(16384);
	size_t i;

	for (i = 0; a && str && esc && i < r->strs.n; i++) {
		if (!th_read_cstr(a[i], str, 4096, "printk format"))
			continue;
		td_printk_escape(str, esc, 16384);
		th_sb_printf(b, "0x%lx : \"%s\"\n", a[i], esc);
	}
	free(a);
	free(str);
	free(esc);
}

void th_text_cmdlines(struct th_sb *b, struct th_refs *r)
{
	ulong *a = th_set_sorted(&r->pids);
	char comm[32];
	size_t i;

	for (i = 0; a && i < r->pids.n; i++) {
		th_find_cmdline((int)a[i], comm);
		if (strcmp(comm, "<...>"))
			th_sb_printf(b, "%lu %s\n", a[i], comm);
	}
	free(a);
}

static int th_sys_cmp(const void *a, const void *b)
{
	const struct th_devent *x = *(struct th_devent *const *)a;
	const struct th_devent *y = *(struct th_devent *const *)b;
	int c = strcmp(x->system, y->system);

	return c ? c : (x->ev->type > y->ev->type) -
		       (x->ev->type < y->ev->type);
}

void th_write_formats(struct td_out *o, int parts)
{
	struct th_devent **v;
	int i, j, nftrace = 0, nsys = 0;

	if (ndev < 0)
		th_dev_load();
	v = malloc((ndev + 1) * sizeof(*v));
	if (!v) {
		o->err = o->err ? o->err : ENOMEM;
		return;
	}
	for (i = 0; i < ndev; i++)
		v[i] = &dev[i];
	qsort(v, ndev, sizeof(*v), th_sys_cmp);
	for (i = 0; i < ndev; i++)
		if (!strcmp(v[i]->system, "ftrace"))
			nftrace++;
		else if (!i || strcmp(v[i]->system, v[i - 1]->system))
			nsys++;
	if (parts & TH_FMT_FTRACE) {
		td_u32(o, nftrace);
		for (i = 0; i < ndev; i++)
			if (!strcmp(v[i]->system, "ftrace"))
				td_sized8(o, v[i]->fmt.buf, v[i]->fmt.pos);
	}
	if (!(parts & TH_FMT_SYSTEMS)) {
		free(v);
		return;
	}
	td_u32(o, nsys);
	for (i = 0; i < ndev; i = j) {
		for (j = i + 1; j < ndev && !strcmp(v[j]->system,
						    v[i]->system); j++)
			;
		if (!strcmp(v[i]->system, "ftrace"))
			continue;
		td_str(o, v[i]->system);
		td_u32(o, j - i);
		for (; i < j; i++)
			td_sized8(o, v[i]->fmt.buf, v[i]->fmt.pos);
	}
	free(v);
}

/*
 * One CPU's sub-buffers in the iterator's order, each cut at its commit
 * (bytes past it zeroed).  Only what "trace" shows goes out: the entries a
 * trace_pipe reader consumed from the reader page (before its read
 * offset) and those older than the buffer's time_start (tracing_iter_reset)
 * are cut from the first sub-buffer written, as ring_buffer_read_page()
 * does for a partly read page: the records from the first shown event on,
 * under a time stamp that gives that event its own time.  Sub-buffers
 * holding no shown event are left out.  Returns the bytes written.
 */
uint64_t th_write_cpu(struct td_out *o, struct th_rbcpu *c,
		      uint64_t time_start, long data_off, size_t page)
{
	unsigned char *pg = malloc(page);
	uint64_t start = o->off;
	ulong last = 0;
	long n = 0;
	int first = TRUE;

	if (!pg) {
		o->err = o->err ? o->err : ENOMEM;
		return 0;
	}
	th_rb_cpu_start(c);
	while (th_rb_cpu_peek(c) && c->ev.ts < time_start &&
	       n++ < 100000000L)
		th_rb_cpu_advance(c);
	n = 0;
	while (!o->err && n < 100000000L && th_rb_cpu_peek(c)) {
		if (c->bpage != last) {
			size_t used = data_off + c->pg.commit;
			size_t cut = first ? c->ev.offset : 0;

			if (!cut || rb_page_cut(pg, page, &c->pg,
						sizeof(long), data_off, cut,
						c->ev.ts - c->ev.delta) < 0) {
				memset(pg, 0, page);
				memcpy(pg, c->buf, used < page ? used : page);
			}
			td_raw(o, pg, page);
			last = c->bpage;
			first = FALSE;
		}
		th_rb_cpu_advance(c);
		n++;
	}
	free(pg);
	return o->off - start;
}

/* The arrays OPT names opened, one sub-buffer size, their events
 * scanned; FALSE (said why) when there is nothing to write. */
static int th_dat_open(struct th_dump_opts *opt, struct th_dat *d)
{
	struct th_tr *all = NULL, *left[TH_DUMP_MAXBUF];
	char err[256];
	long o_commit;
	int i, k, nleft = 0;

	th_rb_bdp_offsets(&o_commit, &d->data_off);
	if (opt->all) {
		int n = th_trace_arrays(&all);
		struct th_last_boot *lb;

		/* (the global array is never boot-mapped: trace_instance=
		 * makes instances) */
		for (i = 0; i < n && d->nbuf < TH_DUMP_MAXBUF; i++) {
			if (i && (lb = th_dat_lb_of(&all[i])) != NULL) {
				th_dat_lb_put(lb);
				if (nleft < TH_DUMP_MAXBUF)
					left[nleft++] = &all[i];
				continue;
			}
			d->trs[d->nbuf++] = &all[i];
		}
	} else {
		d->trs[0] = th_trace_array_by_name(opt->inst ? opt->inst : "");
		if (!d->trs[0]) {
			fprintf(fp, "ftrace dump: no trace instance \"%s\"\n",
				opt->inst);
			return FALSE;
		}
		d->nbuf = 1;
		d->lb = th_dat_lb_of(d->trs[0]);
		if (th_dat_lb_refuse(d->trs[0], d->version, d->lb))
			return FALSE;
	}
	if (!opt->force && access(opt->file, F_OK) == 0) {
		fprintf(fp, "ftrace dump: %s exists (use -f to replace it)\n",
			opt->file);
		return FALSE;
	}
	for (i = 0; i < nleft; i++)
		th_dat_lb_left_out(left[i], opt->file);
	for (d->nopen = 0; d->nopen < d->nbuf; d->nopen++) {
		struct th_tr *tr = d->trs[d->nopen];

		if (!th_rb_open(tr->addr, FALSE, &d->rbs[d->nopen], err,
				sizeof(err))) {
			fprintf(fp, "ftrace dump: %s%s%s\n",
				tr->name[0] ? tr->name : "",
				tr->name[0] ? ": " : "", err);
			return FALSE;
		}
	}
	if (d->data_off < 0)
		d->data_off = 16;
	d->page = th_dat_page(d, 0);
	for (k = 0; k < d->nbuf; k++) {
		struct th_rb *rb = &d->rbs[k];

		if (d->version < 7 && th_dat_page(d, k) != d->page) {
			fprintf(fp, "ftrace dump: instance %s has another "
				"sub-buffer size: not in one trace.dat of "
				"version 6 (version 7, the default, gives "
				"each buffer its own)\n", d->trs[k]->name);
			return FALSE;
		}
		for (i = 0; i < rb->ncpus; i++)
			if (rb->cpus[i].cpu + 1 > d->ncpu)
				d->ncpu = rb->cpus[i].cpu + 1;
		th_refs_scan(rb, &d->refs);
		if (!k)
			d->nevents = d->refs.events;
	}
	th_refs_printk_tables(&d->refs);
	return TRUE;
}

void th_dump_trace_dat(struct th_dump_opts *opt)
{
	struct th_dat *d = calloc(1, sizeof(*d));
	struct th_fdout fo;
	struct td_out o;
	char *tmp = NULL;
	int k;

	if (!d) {
		fprintf(fp, "ftrace dump: out of memory\n");
		return;
	}
	d->version = opt->version ? opt->version : 7;
	if (!th_dat_open(opt, d))
		goto out;
	tmp = malloc(strlen(opt->file) + 16);
	if (!tmp) {
		fprintf(fp, "ftrace dump: out of memory\n");
		goto out;
	}
	sprintf(tmp, "%s.tmpXXXXXX", opt->file);
	fo.fd = mkstemp(tmp);
	if (fo.fd < 0) {
		fprintf(fp, "ftrace dump: cannot create %s: %s\n", tmp,
			strerror(errno));
		goto out;
	}
	fchmod(fo.fd, 0644);
	td_init(&o, th_fd_write, &fo, 0);
	if (d->version >= 7)
		th_dat7_write(&o, &fo, d);
	else
		th_dat6_write(&o, &fo, d);
	if (!o.err && fsync(fo.fd) < 0)
		o.err = errno;
	if (close(fo.fd) < 0 && !o.err)
		o.err = errno;
	if (!o.err && rename(tmp, opt->file) < 0)
		o.err = errno;
	if (o.err) {
		unlink(tmp);
		fprintf(fp, "ftrace dump: writing %s failed: %s\n", opt->file,
			strerror(o.err));
	} else if (d->version < 7) {
		fprintf(fp, "ftrace dump: %s: %d CPUs, %ld events, "
			"%d buffer%s, sub-buffer %zu bytes, %lu bytes\n",
			opt->file, d->ncpu, d->nevents, d->nbuf,
			d->nbuf > 1 ? "s" : "", d->page, (ulong)o.off);
	} else {
		char pages[160];

		th_dat_page_text(d, pages, sizeof(pages));
		fprintf(fp, "ftrace dump: %s: trace.dat version 7, %d CPUs, "
			"%ld events, %d buffer%s, %s, %lu bytes\n",
			opt->file, d->ncpu, d->nevents, d->nbuf,
			d->nbuf > 1 ? "s" : "", pages, (ulong)o.off);
		if (d->lb)
			th_dat_lb_said(opt->file, d->trs[0], d->lb);
	}
out:
	free(tmp);
	free(d->refs.pids.v);
	free(d->refs.addrs.v);
	free(d->refs.strs.v);
	for (k = 0; k < d->nopen; k++)
		th_rb_close(&d->rbs[k]);
	th_dat_lb_put(d->lb);
	free(d);
}

/* --------------------------------------- the trace-cmd directory's texts --- */

/**
 * th_write_all - write LEN bytes of BUF to FD, whatever write() splits
 * @fd: where
 * @buf: what
 * @len: how much
 *
 * Return: 0, or an errno value.
 */
int th_write_all(int fd, const void *buf, size_t len)
{
	struct th_fdout f = { fd };

	return th_fd_write(&f, buf, len);
}

/**
 * th_dump_src_open - an array's ring buffer and what its events reference,
 * for the texts of a trace-cmd directory
 * @tr: the trace array
 * @s: filled
 * @err: the reason when it fails
 * @elen: its size
 *
 * Return: TRUE, or FALSE with ERR set.
 */
int th_dump_src_open(struct th_tr *tr, struct th_dump_src *s, char *err,
		     size_t elen)
{
	long o_commit;

	memset(s, 0, sizeof(*s));
	if (!th_rb_open(tr->addr, FALSE, &s->rb, err, elen))
		return FALSE;
	th_rb_bdp_offsets(&o_commit, &s->data_off);
	s->refs = calloc(1, sizeof(*s->refs));
	if (s->refs) {
		th_refs_scan(&s->rb, s->refs);
		th_refs_printk_tables(s->refs);
	}
	s->lb = th_dat_lb_of(tr);
	return TRUE;
}

/**
 * th_dump_src_close - what th_dump_src_open() took
 * @s: the source
 */
void th_dump_src_close(struct th_dump_src *s)
{
	if (s->refs) {
		free(s->refs->pids.v);
		free(s->refs->addrs.v);
		free(s->refs->strs.v);
		free(s->refs);
	}
	th_dat_lb_put(s->lb);
	s->lb = NULL;
	th_rb_close(&s->rb);
}

/**
 * th_dump_src_events - the events of the source's ring buffer
 * @s: the source
 */
long th_dump_src_events(const struct th_dump_src *s)
{
	return s->refs ? s->refs->events : 0;
}

/**
 * th_dump_text - one text file of a trace-cmd directory, appended to B
 * @s: the source
 * @what: which one
 * @b: the text
 */
void th_dump_text(const struct th_dump_src *s, enum th_dump_what what,
		  struct th_sb *b)
{
	switch (what) {
	case TH_DUMP_HEADER_PAGE:
		th_text_header_page(b, s->data_off, s->rb.cpus[0].pg.data_size);
		break;
	case TH_DUMP_HEADER_EVENT:
		th_text_header_event(b);
		break;
	case TH_DUMP_KALLSYMS:
		if (s->refs)
			th_text_kallsyms(b, s->refs, s->lb);
		break;
	case TH_DUMP_PRINTK:
		if (s->refs)
			th_text_printk(b, s->refs);
		break;
	case TH_DUMP_CMDLINES:
		if (s->refs)
			th_text_cmdlines(b, s->refs);
		break;
	}
}

/**
 * th_event_header_text - events/header_page (PAGE) or events/header_event
 * of TR, the texts ring_buffer_print_page_header() and
 * ring_buffer_print_entry_header() give (the ones trace.dat carries)
 * @tr: the trace array
 * @page: header_page, else header_event
 * @b: the text
 * @err: why not
 * @elen: its size
 *
 * Return: FALSE with ERR set when TR's ring buffer cannot be read.
 */
int th_event_header_text(struct th_tr *tr, int page, struct th_sb *b,
			 char *err, size_t elen)
{
	long o_commit, data_off;
	struct th_rb rb;

	if (!page) {
		th_text_header_event(b);
		return TRUE;
	}
	if (!th_rb_open(tr->addr, FALSE, &rb, err, elen))
		return FALSE;
	if (rb.ncpus < 1) {
		snprintf(err, elen, "the ring buffer has no CPU buffer");
		th_rb_close(&rb);
		return FALSE;
	}
	th_rb_bdp_offsets(&o_commit, &data_off);
	th_text_header_page(b, data_off, rb.cpus[0].pg.data_size);
	th_rb_close(&rb);
	return TRUE;
}

/**
 * th_event_format_find - the format file of events/SYSTEM/NAME
 * @system: the event's system
 * @name: its name
 * @len: the format's length
 * @type: the event's type (its id)
 *
 * Return: the text, NULL when no event of the catalog has those names.
 */
const char *th_event_format_find(const char *system, const char *name,
				 size_t *len, unsigned *type)
{
	int i;

	if (ndev < 0)
		th_dev_load();
	i = ni_find(&dev_names, system, name, th_dev_names, NULL);
	if (i < 0)
		return NULL;
	*len = dev[i].fmt.pos;
	*type = dev[i].ev->type;
	return dev[i].fmt.buf;
}

/**
 * th_event_format_each - every event format, in ftrace_events order
 * @fn: called with each event's system, name and trace_event_call
 * @arg: passed to @fn
 */
void th_event_format_each(void (*fn)(const char *system, const char *name,
				     ulong call, void *arg), void *arg)
{
	int i;

	if (ndev < 0)
		th_dev_load();
	for (i = 0; i < ndev; i++)
		fn(dev[i].system, dev[i].ev->name, dev[i].ev->call, arg);
}

/**
 * th_dump_nformats - the number of event formats loaded (-1: none read)
 */
int th_dump_nformats(void)
{
	return ndev;
}

/**
 * th_dump_format - the format file of event I (0 <= I < th_dump_nformats())
 * @i: the event
 * @system: its system
 * @name: its name
 * @len: the format's length
 *
 * Return: the text of events/SYSTEM/NAME/format.
 */
const char *th_dump_format(int i, const char **system, const char **name,
			   size_t *len)
{
	*system = dev[i].system;
	*name = dev[i].ev->name;
	*len = dev[i].fmt.pos;
	return dev[i].fmt.buf;
}

/**
 * th_dump_pipe_raw - per_cpu/cpuN/trace_pipe_raw of the buffer's CPU I:
 * its sub-buffers as "ftrace dump -t" writes them
 * @s: the source
 * @i: the index of the CPU in s->rb.cpus
 * @fd: where
 *
 * Return: 0, or an errno value.
 */
int th_dump_pipe_raw(struct th_dump_src *s, int i, int fd)
{
	struct th_fdout f = { fd };
	struct td_out o;

	td_init(&o, th_fd_write, &f, 0);
	th_write_cpu(&o, &s->rb.cpus[i], s->rb.time_start, s->data_off,
		     s->data_off + s->rb.cpus[i].pg.data_size);
	return o.err;
}
