/*
 * Crash-free reader of trace_printk's binary arguments: the words that
 * vbin_printf() packed for FMT, printed as bstr_printf() does.
 */
#ifndef TRACEHUNT_BPRINT_H
#define TRACEHUNT_BPRINT_H

#include <stddef.h>
#include <stdint.h>

/* %pS, %ps, %pB ... of a code address: write into BUF, return BUF. */
typedef char *(*bprint_sym_fn)(uint64_t addr, char conv, char *buf,
			       size_t len, void *arg);

struct bprint_opts {
	int long_size;		/* 4 or 8 */
	int big_endian;
	bprint_sym_fn sym;	/* NULL: addresses printed as 0x%lx */
	void *arg;
};

/*
 * Format FMT with the packed ARGS (ARGS_LEN bytes) into OUT (always
 * NUL-terminated).  Returns the length written, or -1 when the arguments
 * ran out (what could be printed is in OUT).
 */
int bprint_format(const char *fmt, const unsigned char *args, size_t args_len,
		  const struct bprint_opts *o, char *out, size_t out_len);

#endif
