/*
 * Crash-free pieces of a trace-cmd trace.dat writer (file versions 6 and
 * 7, see trace-cmd.dat.v6(5) and trace-cmd.dat.v7(5)): the file header,
 * sized texts, options, the version 6 flyrecord CPU table, and version 7's
 * section headers, BUFFER option (a page size per buffer) and strings.
 * Output goes through a write callback so the data can be streamed; the
 * first error sticks and every later call is a no-op.
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
/* version 7: sections (and the options naming where they are) */
#define TD_OPTION_STRINGS	15
#define TD_OPTION_HEADER_INFO	16
#define TD_OPTION_FTRACE_EVENTS	17
#define TD_OPTION_EVENT_FORMATS	18
#define TD_OPTION_KALLSYMS	19
#define TD_OPTION_PRINTK	20
#define TD_OPTION_CMDLINES	21
/* trace-cmd 3.4: a boot-mapped instance holding the previous boot's trace
 * ("NAME:" + its last_boot_info) and the modules section (/proc/modules,
 * compressed) its reader maps module addresses with */
#define TD_OPTION_LAST_BOOT_INFO	24
#define TD_OPTION_MODULES_FILE		25

/* A version 7 section's flags: its data is one compressed block. */
#define TD_SEC_FL_COMPRESS	1

void td_init(struct td_out *o, td_write_fn fn, void *arg, int big_endian);
void td_raw(struct td_out *o, const void *buf, size_t len);
void td_u16(struct td_out *o, uint16_t v);
void td_u32(struct td_out *o, uint32_t v);
void td_u64(struct td_out *o, uint64_t v);
void td_str(struct td_out *o, const char *s);	/* with its NUL */
/* Zero bytes up to the next multiple of ALIGN. */
void td_pad(struct td_out *o, uint64_t align);
/* Magic, "tracing", VERSION (6 or 7) as a string, endianness, long size,
 * page size; version 7 goes on with its compression ("none", no version):
 * the u64 offset of the first options section is the caller's to write. */
void td_header(struct td_out *o, int version, int long_size,
	       uint32_t page_size);
/* Version 7's header naming the file's compression ZNAME (a section
 * flagged TD_SEC_FL_COMPRESS is one block of it) and its version ZVER. */
void td_header7(struct td_out *o, int long_size, uint32_t page_size,
		const char *zname, const char *zver);
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

/* Encode V as 8 bytes of the file's byte order into B. */
void td_put_u64(int big_endian, uint64_t v, unsigned char *b);

/*
 * Version 7: a section header, u16 ID, u16 flags (0: not compressed), u32
 * DESC (a string id: td_string()), u64 size left 0.  Returns where the
 * size is; td_section_size() gives its bytes once the section is written.
 */
uint64_t td_section(struct td_out *o, uint16_t id, uint32_t desc);
/* The same with FLAGS (TD_SEC_FL_COMPRESS). */
uint64_t td_section_fl(struct td_out *o, uint16_t id, uint16_t flags,
		       uint32_t desc);
/* The 8 bytes (into B) of the size of the section whose size is at
 * SIZE_AT, everything written since it being the section's. */
void td_section_size(const struct td_out *o, uint64_t size_at,
		     unsigned char *b);
/* Version 7's DONE option ends an options section: u16 0, u32 8, the u64
 * offset of the next options section (0: none). */
void td_option_done7(struct td_out *o, uint64_t next);
/*
 * The data of a version 7 BUFFER option: u64 offset of the buffer's
 * section, NAME ("" the top buffer), CLOCK, u32 PAGE_SIZE, u32 NCPUS, and
 * per CPU its u32 number (0..NCPUS-1), u64 data offset, u64 data size.
 * Written into BUF when it fits in BUFLEN; returns the length it needs.
 */
size_t td_buffer_option(int big_endian, uint64_t section, const char *name,
			const char *clock, uint32_t page_size, int ncpus,
			const uint64_t *offs, const uint64_t *sizes,
			unsigned char *buf, size_t buflen);

/*
 * A compressed block as trace-cmd reads one (tracecmd_uncompress_block()):
 * u32 size of the compressed data, u32 size of the data, then the data as
 * one zstd frame (RFC 8878) of raw blocks: its magic, a frame header
 * giving the content size (one segment, no dictionary, no checksum), and
 * the LEN bytes of IN in blocks of at most 128 KB stored as they are, so
 * any zstd decoder gives them back with no compressor linked in.  LEN
 * must be below 4 GB (else EFBIG).  Returns the bytes written.
 */
#define TD_ZSTD_NAME	"zstd"
uint64_t td_zstd_block(struct td_out *o, const void *in, size_t len);

/* Version 7's strings (section descriptions): a string's id is its
 * offset in the STRINGS section. */
struct td_strings {
	char *buf;
	size_t len, cap;
};
/* STR's id, added when new; TD_NO_STRING when out of memory. */
#define TD_NO_STRING	0xffffffffU
uint32_t td_string(struct td_strings *s, const char *str);
void td_strings_free(struct td_strings *s);

/* Escape STR as the kernel's printk_formats (t_show) does into OUT;
 * returns the length written (truncated at OUTLEN - 1). */
size_t td_printk_escape(const char *str, char *out, size_t outlen);

#endif
