/*
 * tracehunt: the trace.dat of version 7 (trace-cmd.dat.v7(5)) that
 * "ftrace dump -t FILE" writes by default: after the header (its
 * compression "none" and the offset of the options), a section for each
 * text trace-cmd reads (header_page and header_event, the ftrace events'
 * formats, the other events' formats, kallsyms, printk formats, saved
 * cmdlines), a section per buffer holding each CPU's sub-buffers on that
 * buffer's page boundaries, then the options saying where each section
 * is, with one BUFFER option per buffer (its name, clock, page size and
 * CPU data), and the strings the section headers name.  The texts and
 * sub-buffers are render/trace_dump.c's, the same bytes version 6 holds.
 * An instance holding the previous boot's trace (render/trace_dat_lb.c)
 * also gets a compressed modules section and a LAST_BOOT_INFO option.
 */
#include <errno.h>
#include <unistd.h>
#include "render/trace_dat.h"

/* What a version 7 file is being written with: its strings, and the
 * section whose size is still to be filled in. */
struct th_dat7 {
	struct td_out *o;
	struct th_fdout *fo;
	struct td_strings str;
	uint64_t size_at;
};

static void th_dat7_begin(struct th_dat7 *w, uint16_t id, const char *desc)
{
	w->size_at = td_section(w->o, id, td_string(&w->str, desc));
}

/* The section begun last is complete: its size into its header. */
static void th_dat7_end(struct th_dat7 *w)
{
	unsigned char b[8];

	td_section_size(w->o, w->size_at, b);
	if (!w->o->err && pwrite(w->fo->fd, b, 8, (off_t)w->size_at) != 8)
		w->o->err = errno ? errno : EIO;
}

/* Array TR's trace_clock, as its BUFFER option names it. */
static void th_dat7_clock(struct th_tr *tr, char *name, size_t len)
{
	char (*names)[64] = malloc(64 * sizeof(*names));
	int n = names ? th_trace_clocks(names, 64) : -1;
	int id = th_tr_clock_id(tr->addr);

	snprintf(name, len, "%s", n > 0 && id >= 0 && id < n ? names[id] :
		 "local");
	free(names);
}

/* One buffer's section: each CPU's sub-buffers at an offset its page size
 * divides (trace-cmd maps them page by page).  OFFS/SIZES: per CPU. */
static void th_dat7_buffer(struct th_dat7 *w, struct th_dat *d, int k,
			   uint64_t *offs, uint64_t *sizes)
{
	struct th_rb *rb = &d->rbs[k];
	size_t page = th_dat_page(d, k);
	char desc[96];
	int i, cpu;

	snprintf(desc, sizeof(desc), "buffer flyrecord %s",
		 k ? d->trs[k]->name : "");
	th_dat7_begin(w, TD_OPTION_BUFFER, desc);
	for (cpu = 0; cpu < d->ncpu && !w->o->err; cpu++) {
		for (i = 0; i < rb->ncpus; i++)
			if (rb->cpus[i].cpu == cpu)
				break;
		td_pad(w->o, PAGESIZE() > (long)page ? PAGESIZE() : page);
		offs[cpu] = w->o->off;
		sizes[cpu] = 0;
		if (i < rb->ncpus)
			sizes[cpu] = th_write_cpu(w->o, &rb->cpus[i],
						  rb->time_start, d->data_off,
						  page);
	}
	th_dat7_end(w);
}

/* An option whose data is the u64 offset of a section. */
static void th_dat7_at(struct td_out *o, uint16_t id, uint64_t at)
{
	unsigned char b[8];

	td_put_u64(o->big_endian, at, b);
	td_option(o, id, b, 8);
}

/* The texts' sections, their offsets into SEC: header_page and
 * header_event, the ftrace and other events' formats, kallsyms, printk
 * formats, cmdlines, and for a previous boot's trace with its
 * last_boot_info, the modules (SEC[6], else 0). */
static void th_dat7_texts(struct th_dat7 *w, struct th_dat *d, uint64_t *sec)
{
	struct td_out *o = w->o;
	struct th_sb b = TH_SB_GROW;

	sec[0] = o->off;
	th_dat7_begin(w, TD_OPTION_HEADER_INFO, "headers");
	th_text_header_page(&b, d->data_off, d->rbs[0].cpus[0].pg.data_size);
	td_named_section(o, "header_page", b.buf, b.pos);
	b.pos = 0;
	th_text_header_event(&b);
	td_named_section(o, "header_event", b.buf, b.pos);
	th_dat7_end(w);
	sec[1] = o->off;
	th_dat7_begin(w, TD_OPTION_FTRACE_EVENTS, "ftrace events");
	th_write_formats(o, TH_FMT_FTRACE);
	th_dat7_end(w);
	sec[2] = o->off;
	th_dat7_begin(w, TD_OPTION_EVENT_FORMATS, "events format");
	th_write_formats(o, TH_FMT_SYSTEMS);
	th_dat7_end(w);
	sec[3] = o->off;
	th_dat7_begin(w, TD_OPTION_KALLSYMS, "kallsyms");
	b.pos = 0;
	th_text_kallsyms(&b, &d->refs, d->lb);
	td_sized4(o, b.buf ? b.buf : "", b.pos);
	th_dat7_end(w);
	sec[4] = o->off;
	th_dat7_begin(w, TD_OPTION_PRINTK, "printk");
	b.pos = 0;
	th_text_printk(&b, &d->refs);
	td_sized4(o, b.buf ? b.buf : "", b.pos);
	th_dat7_end(w);
	sec[5] = o->off;
	th_dat7_begin(w, TD_OPTION_CMDLINES, "command lines");
	b.pos = 0;
	th_text_cmdlines(&b, &d->refs);
	td_sized8(o, b.buf ? b.buf : "", b.pos);
	th_dat7_end(w);
	sec[6] = 0;
	if (d->lb && d->lb->have_scratch) {
		/* one compressed block (trace-cmd's read_modules()), the
		 * text with its NUL: the reader takes it as a string */
		sec[6] = o->off;
		w->size_at = td_section_fl(o, TD_OPTION_MODULES_FILE,
					   TD_SEC_FL_COMPRESS,
					   td_string(&w->str, "modules"));
		b.pos = 0;
		th_dat_lb_modules(&b, d->lb);
		td_zstd_block(o, b.buf ? b.buf : "", b.buf ? b.pos + 1 : 1);
		th_dat7_end(w);
	}
	free(b.buf);
}

/* Buffer K's BUFFER option: its section, name ("" the top one), clock,
 * page size and each CPU's data. */
static void th_dat7_buffer_opt(struct td_out *o, struct th_dat *d, int k,
			       uint64_t section, const uint64_t *offs,
			       const uint64_t *sizes)
{
	const char *name = k ? d->trs[k]->name : "";
	unsigned char *ob;
	char clock[64];
	size_t need;

	th_dat7_clock(d->trs[k], clock, sizeof(clock));
	need = td_buffer_option(o->big_endian, section, name, clock,
				th_dat_page(d, k), d->ncpu, offs, sizes,
				NULL, 0);
	ob = malloc(need);
	if (!ob) {
		o->err = o->err ? o->err : ENOMEM;
		return;
	}
	td_buffer_option(o->big_endian, section, name, clock,
			 th_dat_page(d, k), d->ncpu, offs, sizes, ob, need);
	td_option(o, TD_OPTION_BUFFER, ob, need);
	free(ob);
}

/* A previous boot's trace: where its modules are, and LAST_BOOT_INFO:
 * "NAME:" and its last_boot_info, with the NUL (trace-record.c's). */
static void th_dat7_lb_opts(struct td_out *o, struct th_dat *d,
			    uint64_t modules)
{
	struct th_sb b = TH_SB_GROW;

	if (!modules)
		return;
	th_dat7_at(o, TD_OPTION_MODULES_FILE, modules);
	th_sb_printf(&b, "%s:", d->trs[0]->name);
	th_dat_lb_info(&b, d->lb);
	if (!b.buf)
		o->err = o->err ? o->err : ENOMEM;
	else
		td_option(o, TD_OPTION_LAST_BOOT_INFO, b.buf, b.pos + 1);
	free(b.buf);
}

/*
 * The whole version 7 file: header, the texts' sections, every buffer's
 * section, then the options (where each section is; a BUFFER option per
 * buffer: the first is the top one, named ""), the strings, and the
 * options' offset into the header.  A previous boot's trace names zstd
 * as the file's compression: its modules section is one block of it.
 */
void th_dat7_write(struct td_out *o, struct th_fdout *fo, struct th_dat *d)
{
	static const uint16_t ids[] = { TD_OPTION_HEADER_INFO,
		TD_OPTION_FTRACE_EVENTS, TD_OPTION_EVENT_FORMATS,
		TD_OPTION_KALLSYMS, TD_OPTION_PRINTK, TD_OPTION_CMDLINES };
	struct th_dat7 w = { o, fo, { 0 }, 0 };
	uint64_t sec[7], *bufsec, *offs, *sizes, opt_at, options;
	unsigned char at[8];
	int k, i;

	bufsec = calloc(d->nbuf, sizeof(*bufsec));
	offs = calloc((size_t)d->nbuf * d->ncpu, sizeof(*offs));
	sizes = calloc((size_t)d->nbuf * d->ncpu, sizeof(*sizes));
	if (!bufsec || !offs || !sizes) {
		o->err = o->err ? o->err : ENOMEM;
		goto out;
	}
	if (d->lb && d->lb->have_scratch)
		td_header7(o, sizeof(long), d->page, TD_ZSTD_NAME, "");
	else
		td_header(o, 7, sizeof(long), d->page);
	opt_at = o->off;
	td_u64(o, 0);
	th_dat7_texts(&w, d, sec);

	for (k = 0; k < d->nbuf && !o->err; k++) {
		bufsec[k] = o->off;
		th_dat7_buffer(&w, d, k, offs + (size_t)k * d->ncpu,
			       sizes + (size_t)k * d->ncpu);
	}

	options = o->off;
	th_dat7_begin(&w, TD_OPTION_DONE, "options");
	for (i = 0; i < 6; i++)
		th_dat7_at(o, ids[i], sec[i]);
	td_put_u64(o->big_endian, d->ncpu, at);
	td_option(o, TD_OPTION_CPUCOUNT, at + (o->big_endian ? 4 : 0), 4);
	for (k = 0; k < d->nbuf && !o->err; k++)
		th_dat7_buffer_opt(o, d, k, bufsec[k],
				   offs + (size_t)k * d->ncpu,
				   sizes + (size_t)k * d->ncpu);
	th_dat7_lb_opts(o, d, sec[6]);
	td_option_done7(o, 0);
	th_dat7_end(&w);

	/* the strings last: every description is in by now ("strings"
	 * too, asked for first) */
	w.size_at = td_section(o, TD_OPTION_STRINGS,
			       td_string(&w.str, "strings"));
	td_raw(o, w.str.buf, w.str.len);
	th_dat7_end(&w);

	td_put_u64(o->big_endian, options, at);
	if (!o->err && pwrite(fo->fd, at, 8, (off_t)opt_at) != 8)
		o->err = errno ? errno : EIO;
out:
	free(bufsec);
	free(offs);
	free(sizes);
	td_strings_free(&w.str);
}

/* "sub-buffer N bytes", or each buffer's when they differ */
void th_dat_page_text(const struct th_dat *d, char *buf, size_t len)
{
	size_t n;
	int k, same = TRUE;

	for (k = 1; k < d->nbuf; k++)
		same &= th_dat_page(d, k) == d->page;
	if (same) {
		snprintf(buf, len, "sub-buffer %zu bytes", d->page);
		return;
	}
	n = snprintf(buf, len, "sub-buffers");
	for (k = 0; k < d->nbuf && n < len; k++)
		n += snprintf(buf + n, len - n, "%s%zu", k ? "/" : " ",
			      th_dat_page(d, k));
	if (n < len)
		snprintf(buf + n, len - n, " bytes");
}
