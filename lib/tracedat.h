/*
 * Crash-free pieces of a trace-cmd trace.dat writer (file version 6, see
 * trace-cmd.dat(5)): the file header, sized sections, options and the
 * flyrecord CPU table.  Output goes through a write callback so the data
 * can be streamed; the first error sticks and every later call is a no-op.
 */
#ifndef TRACEHUNT_TRACEDAT_H
#define TRACEHUNT_TRACEDAT_H

#include <stddef.h>
#include <stdint.h>

/* Returns 0 on success, an errno value on failure. */
typedef int (*td_write_fn)(void *arg, const void *buf, size_t len);

struct td_out {
	td_write_fn write;
	void *arg;
	uint64_t off;		/* bytes written so far */
	int err;		/* first error (errno value), 0 */
	int big_endian;		/* of the traced machine */
};

#define TD_OPTION_DONE		0
#define TD_OPTION_CPUSTAT	2
#define TD_OPTION_BUFFER	3
#define TD_OPTION_TRACECLOCK	4
#define TD_OPTION_UNAME		5
#define TD_OPTION_CPUCOUNT	8
#define TD_OPTION_VERSION	9

void td_init(struct td_out *o, td_write_fn fn, void *arg, int big_endian);
void td_raw(struct td_out *o, const void *buf, size_t len);
void td_u16(struct td_out *o, uint16_t v);
void td_u32(struct td_out *o, uint32_t v);
void td_u64(struct td_out *o, uint64_t v);
void td_str(struct td_out *o, const char *s);	/* with its NUL */
/* Zero bytes up to the next multiple of ALIGN. */
void td_pad(struct td_out *o, uint64_t align);
/* Magic, "tracing", version "6", endianness, long size, page size. */
void td_header(struct td_out *o, int long_size, uint32_t page_size);
/* "header_page"/"header_event": name, u64 size, text. */
void td_named_section(struct td_out *o, const char *name, const char *text,
		      size_t len);
/* A u64 size then the text (one event format, the cmdlines). */
void td_sized8(struct td_out *o, const char *text, size_t len);
/* A u32 size then the text (kallsyms, printk formats). */
void td_sized4(struct td_out *o, const char *text, size_t len);
/* One option: u16 id, u32 size, data. */
void td_option(struct td_out *o, uint16_t id, const void *data, uint32_t len);
/* Encode the flyrecord CPU table (u64 offset, u64 size per CPU) into
 * BUF (16 * ncpus bytes) in the file's byte order. */
void td_cpu_table(int big_endian, const uint64_t *offs, const uint64_t *sizes,
		  int ncpus, unsigned char *buf);

/* Escape STR as the kernel's printk_formats (t_show) does into OUT;
 * returns the length written (truncated at OUTLEN - 1). */
size_t td_printk_escape(const char *str, char *out, size_t outlen);

#endif
