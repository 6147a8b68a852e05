/*
 * tracehunt: what render/trace_dump.c (the texts, the sub-buffers),
 * render/trace_dat6.c (version 6) and render/trace_dat7.c (version 7) share
 * of a trace.dat being written.
 */
#ifndef TRACEHUNT_TRACE_DAT_H
#define TRACEHUNT_TRACE_DAT_H

#include "render/trace_priv.h"
#include "model/ftrace_files.h"
#include "tracedat.h"

#define TH_DUMP_MAXBUF	64

struct th_set {
	ulong *v;
	size_t n, cap;		/* open addressing, cap a power of two */
};

/* What the recorded events refer to: pids (cmdlines), code addresses
 * (kallsyms), format strings (printk formats). */
struct th_refs {
	struct th_set pids, addrs, strs;
	long events;
};

/* The file being written (its data through td_out, patches by pwrite). */
struct th_fdout {
	int fd;
};

/* A trace.dat being written: its arrays, their buffers, what they need. */
struct th_dat {
	struct th_tr *trs[TH_DUMP_MAXBUF];
	struct th_rb rbs[TH_DUMP_MAXBUF];
	uint64_t opt_at[TH_DUMP_MAXBUF];	/* where each BUFFER option's
						 * offset goes (version 6) */
	int nbuf, nopen, ncpu;
	int version;			/* of the file: 6 or 7 */
	long data_off;
	size_t page;			/* the first buffer's sub-buffer */
	struct th_refs refs;
	long nevents;
	/* the one buffer holds the previous boot's trace (trace_dat_lb.c),
	 * else NULL */
	struct th_last_boot *lb;
};

/* Buffer K's sub-buffer, header and data (trace-cmd's "page size"). */
static inline size_t th_dat_page(const struct th_dat *d, int k)
{
	return d->data_off + d->rbs[k].cpus[0].pg.data_size;
}

/* The texts trace.dat carries, as the kernel prints them. */
void th_text_header_page(struct th_sb *b, long data_off, ulong data_size);
void th_text_header_event(struct th_sb *b);
/* LB: the array holds the previous boot's trace (symbols at that boot's
 * addresses), else NULL. */
void th_text_kallsyms(struct th_sb *b, struct th_refs *r,
		      const struct th_last_boot *lb);
void th_text_printk(struct th_sb *b, struct th_refs *r);
void th_text_cmdlines(struct th_sb *b, struct th_refs *r);

/* What th_write_formats() writes: the ftrace events' formats (a u32
 * count, each format sized), the other systems' (a u32 count of systems,
 * each named, with its count and formats); version 6 has both in a row,
 * version 7 each in a section of its own. */
#define TH_FMT_FTRACE	1
#define TH_FMT_SYSTEMS	2
void th_write_formats(struct td_out *o, int parts);

/* One CPU's sub-buffers as "trace" shows them; the bytes written. */
uint64_t th_write_cpu(struct td_out *o, struct th_rbcpu *c,
		      uint64_t time_start, long data_off, size_t page);

/* The whole version 6 file (render/trace_dat6.c). */
void th_dat6_write(struct td_out *o, struct th_fdout *fo, struct th_dat *d);
/* The whole version 7 file (render/trace_dat7.c). */
void th_dat7_write(struct td_out *o, struct th_fdout *fo, struct th_dat *d);
/* "sub-buffer N bytes", or each buffer's when they differ. */
void th_dat_page_text(const struct th_dat *d, char *buf, size_t len);

/* A previous boot's trace (render/trace_dat_lb.c). */
struct th_last_boot *th_dat_lb_of(const struct th_tr *tr);
void th_dat_lb_put(struct th_last_boot *lb);
ulong th_dat_lb_map(const struct th_last_boot *lb, ulong addr);
int th_dat_lb_unnamed(const struct th_last_boot *lb, ulong addr);
void th_dat_lb_kallsyms_head(struct th_sb *b, const struct th_last_boot *lb);
void th_dat_lb_info(struct th_sb *b, const struct th_last_boot *lb);
void th_dat_lb_modules(struct th_sb *b, const struct th_last_boot *lb);
int th_dat_lb_refuse(const struct th_tr *tr, int version,
		     const struct th_last_boot *lb);
void th_dat_lb_left_out(const struct th_tr *tr, const char *file);
void th_dat_lb_said(const char *file, const struct th_tr *tr,
		    const struct th_last_boot *lb);

#endif
