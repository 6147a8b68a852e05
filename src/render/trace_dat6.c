/*
 * tracehunt: the trace.dat of version 6 (trace-cmd.dat.v6(5)) that
 * "ftrace dump -V 6 -t FILE" writes for readers older than trace-cmd 3.0:
 * the header, the texts (header_page .. cmdlines), the CPU count, the
 * options ("options  ", a BUFFER option per instance), then a "flyrecord"
 * CPU table and its sub-buffers per buffer, each instance's table offset
 * patched into its BUFFER option.  One page size for the whole file.  The
 * texts and sub-buffers are render/trace_dump.c's, the same bytes version
 * 7 holds.
 */
#include <errno.h>
#include <unistd.h>
#include "render/trace_dat.h"

/* One CPU table ("flyrecord" + (offset, size) per CPU) and its data. */
static void th_write_buffer(struct td_out *o, struct th_fdout *fo,
			    struct th_rb *rb, int ncpu, long data_off,
			    size_t page, uint64_t *offs, uint64_t *sizes,
			    unsigned char *tab)
{
	off_t tab_at;
	int i, cpu;

	td_raw(o, "flyrecord", 10);
	tab_at = (off_t)o->off;
	memset(tab, 0, 16 * ncpu);
	td_raw(o, tab, 16 * ncpu);
	for (cpu = 0; cpu < ncpu && !o->err; cpu++) {
		for (i = 0; i < rb->ncpus; i++)
			if (rb->cpus[i].cpu == cpu)
				break;
		td_pad(o, PAGESIZE() > (long)page ? PAGESIZE() : page);
		offs[cpu] = o->off;
		sizes[cpu] = 0;
		if (i < rb->ncpus)
			sizes[cpu] = th_write_cpu(o, &rb->cpus[i],
						  rb->time_start, data_off,
						  page);
	}
	if (!o->err) {
		td_cpu_table(0, offs, sizes, ncpu, tab);
		if (pwrite(fo->fd, tab, 16 * ncpu, tab_at) != 16 * ncpu)
			o->err = errno ? errno : EIO;
	}
}

/* Everything before the first CPU table: header_page .. cmdlines, the
 * CPU count, the options (a BUFFER option per instance, its offset
 * filled in by th_dat_buffers()). */
static void th_dat_sections(struct td_out *o, struct th_dat *d, char *obuf)
{
	struct th_sb b = TH_SB_GROW;
	int k;

	td_header(o, 6, sizeof(long), d->page);
	th_text_header_page(&b, d->data_off, d->rbs[0].cpus[0].pg.data_size);
	td_named_section(o, "header_page", b.buf, b.pos);
	b.pos = 0;
	th_text_header_event(&b);
	td_named_section(o, "header_event", b.buf, b.pos);
	th_write_formats(o, TH_FMT_FTRACE | TH_FMT_SYSTEMS);
	b.pos = 0;
	th_text_kallsyms(&b, &d->refs, NULL);
	td_sized4(o, b.buf ? b.buf : "", b.pos);
	b.pos = 0;
	th_text_printk(&b, &d->refs);
	td_sized4(o, b.buf ? b.buf : "", b.pos);
	b.pos = 0;
	th_text_cmdlines(&b, &d->refs);
	td_sized8(o, b.buf ? b.buf : "", b.pos);
	free(b.buf);
	td_u32(o, d->ncpu);
	td_raw(o, "options  ", 10);
	/* TRACECMD_OPTION_BUFFER: u64 offset of the instance's
	 * "flyrecord" table (filled in below), then its name */
	for (k = 1; k < d->nbuf; k++) {
		size_t nl = strlen(d->trs[k]->name) + 1;

		memset(obuf, 0, 8);
		memcpy(obuf + 8, d->trs[k]->name, nl);
		d->opt_at[k] = o->off + 6;
		td_option(o, TD_OPTION_BUFFER, obuf, 8 + nl);
	}
	td_option(o, TD_OPTION_DONE, NULL, 0);
}

/* Every array's CPU table and sub-buffers; each instance's offset into
 * its BUFFER option. */
static void th_dat_buffers(struct td_out *o, struct th_fdout *fo,
			   struct th_dat *d, uint64_t *offs, uint64_t *sizes,
			   unsigned char *tab)
{
	int i, k;

	th_write_buffer(o, fo, &d->rbs[0], d->ncpu, d->data_off, d->page,
			offs, sizes, tab);
	for (k = 1; k < d->nbuf && !o->err; k++) {
		unsigned char at[8];
		uint64_t where;

		td_pad(o, 8);
		where = o->off;
		th_write_buffer(o, fo, &d->rbs[k], d->ncpu, d->data_off,
				d->page, offs, sizes, tab);
		for (i = 0; i < 8; i++)
			at[i] = (unsigned char)(where >> (8 * i));
		if (!o->err && pwrite(fo->fd, at, 8, d->opt_at[k]) != 8)
			o->err = errno ? errno : EIO;
	}
}

/* The whole version 6 file: texts, options, every buffer. */
void th_dat6_write(struct td_out *o, struct th_fdout *fo, struct th_dat *d)
{
	uint64_t *offs = calloc(d->ncpu, sizeof(*offs));
	uint64_t *sizes = calloc(d->ncpu, sizeof(*sizes));
	unsigned char *tab = calloc(d->ncpu, 16);
	char *obuf = malloc(8 + 64);

	if (!offs || !sizes || !tab || !obuf) {
		o->err = o->err ? o->err : ENOMEM;
	} else {
		th_dat_sections(o, d, obuf);
		th_dat_buffers(o, fo, d, offs, sizes, tab);
	}
	free(offs);
	free(sizes);
	free(tab);
	free(obuf);
}
