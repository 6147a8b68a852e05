/*
 * printfmt: a crash-free interpreter for the print_fmt of tracepoint events.
 *
 * The kernel compiles every TRACE_EVENT's TP_printk() into a
 * trace_raw_output_<event>() function that prints, after "name: ", the
 * event's text with the kernel's vsnprintf().  The same TP_printk() is kept
 * as text in trace_event_call.print_fmt ("format" file, "print fmt:" line):
 *
 *   "prev_comm=%s prev_pid=%d ...", REC->prev_comm, REC->prev_pid, ...
 *
 * pf_parse() compiles that text once against the event's fields;
 * pf_format() then formats one record exactly as the kernel's "trace" file
 * prints it (the part after "name: ", without the final newline).
 *
 * Usage (per event type, once):
 *
 *	fmt = pf_parse_ctx(call_print_fmt, fields, nfields, &ctx, err, len);
 *	if (!fmt) -> print "name: " + pf_fields(...) and a note with err
 *
 * per record:
 *
 *	n = pf_format(fmt, rec, reclen, &ctx, line, sizeof(line));
 *	if (n < 0) -> "name: " + pf_fields(...), note with line (the reason)
 *	else       -> "name: " + line
 *
 * Events whose trace_event.funcs is not the generated trace_raw_output_*
 * are printed by their own code, not through print_fmt: syscalls (see
 * pf_syscall_enter() below), kprobes, the ftrace internal events.
 *
 * Nothing here knows where the bytes come from: the record is a byte
 * buffer, long size and endianness are parameters, and whatever needs the
 * dump (symbols, kernel strings, the %p hash key) comes through struct
 * pf_ctx.  Every read is bounded by the record length, recursion is bounded,
 * and an unknown construct is an error naming it, never a guess.
 */
#ifndef TRACEHUNT_PRINTFMT_H
#define TRACEHUNT_PRINTFMT_H

#include <stddef.h>
#include <stdint.h>

/* Error codes (returned negated). */
enum {
	PF_ENOMEM = 1,		/* allocation failed */
	PF_ESYNTAX,		/* print_fmt is not the expected C text */
	PF_EUNSUP,		/* a construct or conversion we do not implement */
	PF_EFIELD,		/* REC->x names no field, or a field is bad */
	PF_ERANGE,		/* the record is too short for a field */
	PF_EEVAL,		/* evaluation failed (division by zero, ...) */
	PF_ENEED,		/* needs a pf_ctx callback/key that is missing */
};

/* One field, as struct ftrace_event_field holds it. */
struct pf_field {
	const char *name;
	const char *type;	/* "pid_t", "char[16]", "__data_loc char[]" */
	int offset;		/* from the start of the record (trace_entry) */
	int size;
	int is_signed;
};

/* pf_ctx.flags */
#define PF_CTX_BIG_ENDIAN	0x1	/* record and kernel are big endian */
#define PF_CTX_NO_HASH_PTR	0x2	/* "nohash-ptr": plain %p prints as %px */
#define PF_CTX_HAVE_PTR_KEY	0x4	/* ptr_key holds the kernel's key */
#define PF_CTX_PTR_KEY_UNSET	0x8	/* not_filled_random_ptr_key still on:
					 * %p prints "(____ptrval____)" */
#define PF_CTX_FIRST_S_EMPTY	0x10	/* the first %s (digits, '.' and '*'
					 * between '%' and 's') prints nothing:
					 * trace_check_vprintf() of v5.12..v6.12
					 * scanning the format that
					 * trace_event_format() wrote into the
					 * buffer it scans with (nohash-ptr) */

/*
 * What formatting needs from outside the record.  Every callback may be
 * NULL; a conversion that needs a missing one makes pf_format() fail with
 * -PF_ENEED (so the caller falls back), it never prints a guess.
 */
struct pf_ctx {
	void *priv;
	unsigned int flags;
	int long_size;		/* sizeof(long) of the kernel: 8 or 4 (0 = 8) */
	int kptr_restrict;	/* the kernel's kptr_restrict, for %pK */
	uint64_t ptr_key[2];	/* siphash key of %p (vsprintf.c ptr_key) */
	/*
	 * Symbols, as kallsyms in the dump gives them: mode 0 for %ps
	 * (sprint_symbol_no_offset: the name alone), 1 for %pS
	 * (sprint_symbol: "func+0x1a/0x80 [mod]"), 2 for %pB
	 * (sprint_backtrace: looks up addr - 1).  Writes a NUL-terminated
	 * string to buf and returns its length; returns -1 when the address
	 * has no symbol (printed then as "0x<addr>", as the kernel does).
	 */
	int (*sym)(void *priv, uint64_t addr, int mode, char *buf,
		   size_t len);
	/*
	 * %s of a kernel pointer held in the record: copies at most len - 1
	 * bytes of the NUL-terminated string at addr, NUL-terminates, returns
	 * the length or -1 when unreadable.
	 */
	int (*read_str)(void *priv, uint64_t addr, char *buf, size_t len);
	/*
	 * Optional: whether the kernel's trace_check_vprintf() (kernels
	 * that have it: feature-probe the symbol) deems the string at addr
	 * safe: kernel rodata
	 * (__start_rodata..__end_rodata), __tracepoint_str, or the core of
	 * the event's module.  When it returns 0 the kernel prints
	 * "(0x<addr>:<str>)[UNSAFE-MEMORY]"; NULL means always safe
	 * (kernels without that check).
	 */
	int (*str_safe)(void *priv, uint64_t addr);
	/*
	 * Optional, used by pf_parse_ctx() only: the value of an identifier
	 * left in a print_fmt (an enum constant that TRACE_DEFINE_ENUM did
	 * not replace, e.g. FAULT_FLAG_WRITE).  Returns 0 and sets *val, or
	 * -1 when unknown (the parse then fails naming it).
	 */
	int (*ident)(void *priv, const char *name, int64_t *val);
};

struct pf_fmt;

/*
 * pf_parse - compile a print_fmt against an event's fields.
 * @print_fmt: the text of trace_event_call.print_fmt
 * @fields, @nfields: the event's fields (common_* included); the strings
 *	are copied, the array need not outlive the call
 * @err, @errlen: on failure, a one-line reason naming the construct
 *
 * Returns the compiled format (free with pf_free()) or NULL.
 */
struct pf_fmt *pf_parse(const char *print_fmt, const struct pf_field *fields,
			int nfields, char *err, size_t errlen);

/*
 * pf_format - format one record as the kernel's trace file prints it.
 * @fmt: from pf_parse()
 * @rec, @reclen: the record payload (starting at struct trace_entry)
 * @ctx: callbacks and parameters (may be NULL: no callbacks, 64-bit LE)
 * @out, @outlen: output, always NUL-terminated when outlen > 0
 *
 * Returns the length written (without the NUL; the text is truncated to
 * outlen - 1) or a negative PF_E* code, in which case out holds a one-line
 * reason instead.
 */
int pf_format(const struct pf_fmt *fmt, const unsigned char *rec,
	      size_t reclen, const struct pf_ctx *ctx, char *out,
	      size_t outlen);

/*
 * pf_nul_free - whether every text pf_format() prints with FMT is free of
 * NUL bytes (its conversions are texts, integers and strings that stop
 * at their NUL: no %c, no %p), so that its length is the text's
 */
int pf_nul_free(const struct pf_fmt *fmt);

/*
 * pf_parse_ctx - pf_parse() that resolves identifiers through ctx->ident
 * and compiles for ctx->long_size (the context is not kept).
 */
struct pf_fmt *pf_parse_ctx(const char *print_fmt,
			    const struct pf_field *fields, int nfields,
			    const struct pf_ctx *ctx, char *err, size_t errlen);

void pf_free(struct pf_fmt *fmt);

/*
 * pf_fields - the fallback line "field=value ..." for the fields after the
 * common_* ones (signed/unsigned decimal for integers, strings for char
 * arrays and __data_loc char[], hex bytes otherwise).  Returns the length.
 */
int pf_fields(const struct pf_field *fields, int nfields,
	      const unsigned char *rec, size_t reclen,
	      const struct pf_ctx *ctx, char *out, size_t outlen);

/*
 * Syscall events (events/syscalls/sys_enter_X, sys_exit_X) are not printed
 * through their print_fmt: kernel/trace/trace_syscalls.c prints, with no
 * "name: " prefix,
 *   enter: "sys_X(arg: val, ...)"     exit: "sys_X -> 0x<ret>"
 * from what struct syscall_metadata says of the event.
 */
struct pf_sysmeta {
	const char *name;		/* "sys_read" */
	int nb_args;			/* 0..6 */
	const char *args[6];		/* the arguments' names */
	const char *types[6];		/* their types (PF_SYS_VERBOSE) */
	/* PF_SYS_USER kernels: the arguments whose user data the record
	 * holds (bit I: argument I), the argument holding the length of
	 * that data when it is an array (-1: strings), and whether such an
	 * array is printed as a string */
	unsigned user_mask;
	int user_arg_size, user_arg_is_str;
	/* strlen() of name and of each args[i] when known, else 0 (then
	 * pf_syscall_enter() measures them itself) */
	unsigned name_len, arg_len[6];
};
/* pf_syscall_enter()'s flags: what the kernel's print_syscall_enter() does */
enum {
	/* values below 10 "%lu", others "0x%lx", each argument's user data
	 * after it (Linux kernel commit a544d9a66bdf ("tracing: Have syscall
	 * trace events read user space string") and its series, for v6.19);
	 * without it every value "%lx" */
	PF_SYS_USER = 1,
	/* sys_openat printed by sys_enter_openat_print() (commit
	 * 64b627c8da9a ("tracing: Add parsing of flags to the
	 * sys_enter_openat trace event"), the same series): decimal values,
	 * flags by name, mode in octal only when the file may be created */
	PF_SYS_OPENAT = 2,
	/* the "verbose" trace option: each value preceded by its type (and
	 * sys_openat printed as any other) */
	PF_SYS_VERBOSE = 4,
};
/*
 * pf_syscall_enter - print_syscall_enter() of the record REC (RECLEN
 * bytes; struct syscall_trace_enter: its args[] at ARGS_OFF, the user
 * data's offset/length words after them)
 * Returns the length or a negative PF_E* code (reason in out).  The text
 * holds no NUL before its end (a user string is cut at its first one):
 * its length is strlen(out).
 */
int pf_syscall_enter(const struct pf_sysmeta *m, const unsigned char *rec,
		     size_t reclen, unsigned args_off, unsigned flags,
		     const struct pf_ctx *ctx, char *out, size_t outlen);

/*
 * pf_sysline - one system call's enter line in its common form (no user
 * data, no types, no openat printer: the flags 0) compiled once, the
 * text between its values: "sys_read(fd: ", ", buf: ", ", count: ", ")".
 * pf_sysline_at() prints what pf_syscall_enter() prints, straight into
 * a room it checks once.
 */
#define PF_SYSLINE_TEXT	512
#define PF_SYSLINE_SLACK 32	/* bytes pf_sysline_at() may write past */
struct pf_sysline {
	int ok;			/* 0: pf_syscall_enter() prints it */
	int nb_args;
	unsigned args_off;
	size_t minrec;		/* a record this long holds the values */
	size_t maxlen;		/* the longest line */
	unsigned short off[7], len[7];	/* the texts around the values */
	char text[PF_SYSLINE_TEXT];
};
/* S for M (its names cut as pf_syscall_enter() cuts them), the values
 * at ARGS_OFF of a record; S->ok 0 when M needs pf_syscall_enter() */
void pf_sysline_init(struct pf_sysline *s, const struct pf_sysmeta *m,
		     unsigned args_off);
/* S for print_syscall_exit()'s "%s -> 0x%lx" of NAME (NAME_LEN bytes)
 * and the 8-byte value at RET_OFF */
void pf_sysline_init_exit(struct pf_sysline *s, const char *name,
			  size_t name_len, unsigned ret_off);
/* Whether pf_sysline_at() prints the line of a record of RECLEN bytes
 * under FLAGS into ROOM bytes */
static inline int pf_sysline_fits(const struct pf_sysline *s, size_t reclen,
				  unsigned flags, size_t room)
{
	return s->ok && !flags && reclen >= s->minrec &&
	       room >= s->maxlen + PF_SYSLINE_SLACK;
}
/*
 * The line of REC (RECLEN bytes, big-endian values with BIG) at OUT, which
 * has ROOM bytes; its end, no NUL written.  NULL, nothing printed, when
 * pf_syscall_enter() must print it: FLAGS not 0, a record too short, a
 * room shorter than S->maxlen + PF_SYSLINE_SLACK.
 */
char *pf_sysline_at(const struct pf_sysline *s, const unsigned char *rec,
		    size_t reclen, int big, unsigned flags, char *out,
		    size_t room);
/* pf_sysline_at() of a record pf_sysline_fits() said it prints */
char *pf_sysline_put(const struct pf_sysline *s, const unsigned char *rec,
		     int big, char *out);
int pf_syscall_exit(const char *sysname, const unsigned char *rec,
		    size_t reclen, const struct pf_field *fields, int nfields,
		    const struct pf_ctx *ctx, char *out, size_t outlen);

/* SipHash-2-4 of one u64, as the kernel's siphash_1u64() (the %p hash). */
uint64_t pf_siphash_1u64(uint64_t first, const uint64_t key[2]);
/* SipHash-2-4 of LEN bytes at DATA, as the kernel's siphash()
 * (printfmt_siphash.c). */
uint64_t pf_siphash(const void *data, size_t len, const uint64_t key[2]);

#endif
