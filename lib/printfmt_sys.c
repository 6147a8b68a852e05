/*
 * printfmt_sys.c - the lines that do not come from a print_fmt: the
 * fallback of every field (pf_fields()) and the syscall events' own
 * output (print_syscall_enter(), print_syscall_exit()).
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stdarg.h>
#include "printfmt_eval.h"

/* Printable bytes of a string field, up to its NUL. */
static void out_cstr(struct out *o, const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n && p[i]; i++)
		pf_put(o, (p[i] >= 0x20 && p[i] < 0x7f) ? (char)p[i] : '.');
}

int pf_fields(const struct pf_field *fields, int nfields,
	      const unsigned char *rec, size_t reclen,
	      const struct pf_ctx *ctx, char *out, size_t outlen)
{
	struct out o = { out, outlen, 0 };
	struct ev e;
	int i, first = 1;

	if (!out || !outlen)
		return 0;
	pf_ev_init(&e, NULL, rec, reclen, ctx, NULL, 0);
	for (i = 0; fields && i < nfields; i++) {
		const struct pf_field *fl = &fields[i];
		const char *t = fl->type ? fl->type : "";
		const unsigned char *p;
		size_t n, j;

		if (!fl->name || !strncmp(fl->name, "common_", 7))
			continue;
		if (!first)
			pf_put(&o, ' ');
		first = 0;
		pf_puts_n(&o, fl->name, strlen(fl->name));
		pf_put(&o, '=');
		if (fl->offset < 0 || fl->size < 0 ||
		    (size_t)fl->offset + fl->size > e.reclen) {
			pf_puts_n(&o, "?", 1);
			continue;
		}
		p = rec + fl->offset;
		n = fl->size;
		if ((has(t, "__data_loc") || has(t, "__rel_loc")) && n == 4) {
			uint64_t w = pf_rd_uint(&e, p, 4);
			size_t off = w & 0xffff, len = (w >> 16) & 0xffff;

			if (has(t, "__rel_loc"))
				off += fl->offset + fl->size;
			if (off > e.reclen || len > e.reclen - off) {
				pf_puts_n(&o, "?", 1);
				continue;
			}
			p = rec + off;
			n = len;
			if (has(t, "char")) {
				out_cstr(&o, p, n);
				continue;
			}
		} else if (strchr(t, '[')) {
			if (has(t, "char")) {
				out_cstr(&o, p, n);
				continue;
			}
		} else if (n == 1 || n == 2 || n == 4 || n == 8) {
			uint64_t v = pf_rd_uint(&e, p, (int)n);

			if (strchr(t, '*'))
				pf_out_printf(&o, 256, "0x%llx",
					      (unsigned long long)v);
			else if (fl->is_signed)
				pf_out_printf(&o, 256, "%lld", (long long)
					   norm(v, (int)n * 8, 1));
			else
				pf_out_printf(&o, 256, "%llu",
					      (unsigned long long)v);
			continue;
		}
		for (j = 0; j < n; j++) {
			pf_put(&o, pf_hexdig[p[j] >> 4]);
			pf_put(&o, pf_hexdig[p[j] & 15]);
		}
	}
	out[o.len] = 0;
	return (int)o.len;
}

/* The syscall arguments: the fields after __syscall_nr, in offset order. */
static int sys_args(const struct pf_field *fields, int nfields, int *idx,
		    int max)
{
	int i, j, n = 0;

	for (i = 0; fields && i < nfields; i++) {
		if (!fields[i].name || !strncmp(fields[i].name, "common_", 7) ||
		    !strcmp(fields[i].name, "__syscall_nr"))
			continue;
		if (n == max)
			break;
		for (j = n; j > 0 && fields[idx[j - 1]].offset >
		     fields[i].offset; j--)
			idx[j] = idx[j - 1];
		idx[j] = i;
		n++;
	}
	return n;
}

/* The x86-64 values of the flags sys_enter_openat_print() names, in the
 * order of its table (include/uapi/asm-generic/fcntl.h; O_TMPFILE is
 * __O_TMPFILE | O_DIRECTORY, first so that it takes O_DIRECTORY with it) */
static const struct {
	uint64_t mask;
	const char *name;
} sys_open_flags[] = {
	{ 0x410000, "O_TMPFILE" }, { 0x1, "O_WRONLY" }, { 0x2, "O_RDWR" },
	{ 0x40, "O_CREAT" }, { 0x80, "O_EXCL" }, { 0x100, "O_NOCTTY" },
	{ 0x200, "O_TRUNC" }, { 0x400, "O_APPEND" }, { 0x800, "O_NONBLOCK" },
	{ 0x1000, "O_DSYNC" }, { 0x4000, "O_DIRECT" },
	{ 0x8000, "O_LARGEFILE" }, { 0x10000, "O_DIRECTORY" },
	{ 0x20000, "O_NOFOLLOW" }, { 0x40000, "O_NOATIME" },
	{ 0x80000, "O_CLOEXEC" },
};
#define SYS_O_ACCMODE	0x3
#define SYS_O_CREAT	0x40
#define SYS_O_TMPFILE	0x410000

/* trace_print_flags_seq(s, "|", FLAGS, sys_open_flags) */
static void sys_print_flags(struct out *o, uint64_t flags)
{
	size_t i;
	int first = 1;

	for (i = 0; flags && i < sizeof(sys_open_flags) /
	     sizeof(sys_open_flags[0]); i++) {
		if ((flags & sys_open_flags[i].mask) != sys_open_flags[i].mask)
			continue;
		flags &= ~sys_open_flags[i].mask;
		if (!first)
			pf_put(o, '|');
		first = 0;
		pf_puts_n(o, sys_open_flags[i].name,
			  strlen(sys_open_flags[i].name));
	}
	if (flags) {
		if (!first)
			pf_put(o, '|');
		pf_out_printf(o, 256, "0x%llx", (unsigned long long)flags);
	}
}

/*
 * get_dynamic_len_ptr(): the user data of the next argument that has
 * some: its offset/length word is the *K-th after the arguments.
 */
static int sys_user_data(struct ev *e, const struct pf_sysmeta *m,
			 unsigned args_off, int *k, const unsigned char **p,
			 size_t *len)
{
	size_t w_off = args_off + (size_t)m->nb_args * 8 + 4 * (size_t)*k;
	uint64_t w;
	size_t off;

	(*k)++;
	if (w_off + 4 > e->reclen)
		return -PF_ERANGE;
	w = pf_rd_uint(e, e->rec + w_off, 4);
	off = w & 0xffff;
	*len = (w >> 16) & 0x7fff;	/* (int)w >> 16 of a length < 32 K */
	if (off > e->reclen || *len > e->reclen - off)
		return -PF_ERANGE;
	*p = e->rec + off;
	return 0;
}

/* " \"%.*s\"" */
static void sys_user_str(struct out *o, const unsigned char *p, size_t len)
{
	pf_puts_n(o, " \"", 2);
	pf_puts_n(o, (const char *)p, strnlen((const char *)p, len));
	pf_put(o, '"');
}

static int sys_printable(unsigned char c)
{
	return c >= 0x20 && c < 0x7f;	/* isascii() && isprint() */
}

/*
 * An array of user data: its bytes in hex, ", ..." when the size
 * argument asked for more than was saved, and its printable characters
 * when it has any (the kernel's val is an int).
 */
static void sys_user_array(struct out *o, const unsigned char *p, size_t len,
			   int64_t want)
{
	int printable = 0, cut = (int64_t)len < want;
	size_t x;

	pf_puts_n(o, " (", 2);
	for (x = 0; x < len; x++) {
		printable |= sys_printable(p[x]);
		if (x)
			pf_put(o, ':');
		pf_put(o, pf_hexdig[p[x] >> 4]);
		pf_put(o, pf_hexdig[p[x] & 15]);
	}
	if (cut)
		pf_puts_n(o, ", ...", 5);
	pf_put(o, ')');
	if (!printable)
		return;
	pf_puts_n(o, " \"", 2);
	for (x = 0; x < len; x++)
		pf_put(o, sys_printable(p[x]) ? (char)p[x] : '.');
	if (cut)
		pf_puts_n(o, "\"...", 4);
	else
		pf_put(o, '"');
}

/* sys_enter_openat_print(): dfd and filename in decimal, the file name,
 * the flags by name, the mode in octal when the file may be created */
static int sys_openat(struct ev *e, struct out *o, const struct pf_sysmeta *m,
		      unsigned args_off)
{
	const unsigned char *p;
	int i, k = 0, r, done = 0;
	size_t len;

	for (i = 0; !done && i < m->nb_args; i++) {
		uint64_t v = pf_rd_uint(e, e->rec + args_off + 8 * i, 8);
		int32_t bits = (int32_t)v;

		if (i)
			pf_puts_n(o, ", ", 2);
		if (i == 2) {
			pf_puts_n(o, "flags: ", 7);
			/* no mode unless the file may be created */
			if (!(bits & (SYS_O_CREAT | SYS_O_TMPFILE)))
				done = 1;
			if (!(bits & SYS_O_ACCMODE)) {
				if (!bits) {
					pf_puts_n(o, "O_RDONLY", 8);
					continue;
				}
				pf_puts_n(o, "O_RDONLY|", 9);
			}
			/* an int, sign-extended to unsigned long */
			sys_print_flags(o, (uint64_t)(int64_t)bits);
			continue;
		}
		pf_puts_n(o, m->args[i], strlen(m->args[i]));
		if (i == 3) {
			pf_out_printf(o, 256, ": 0%03o", (unsigned)v);
			continue;
		}
		pf_out_printf(o, 256, ": %llu", (unsigned long long)v);
		if (!(m->user_mask & (1u << i)))
			continue;
		if ((r = sys_user_data(e, m, args_off, &k, &p, &len)) < 0)
			return r;
		sys_user_str(o, p, len);
	}
	return 0;
}

/* The length of argument I's name as "%s" through a 256-byte room
 * printed it */
static size_t sys_name_len(const struct pf_sysmeta *m, int i)
{
	size_t n = m->arg_len[i] ? m->arg_len[i] : strlen(m->args[i]);

	return n < 255 ? n : 255;
}

/* argument I's name as "%s" through a 256-byte room printed it */
static void sys_put_name(struct out *o, const struct pf_sysmeta *m, int i)
{
	pf_puts_n(o, m->args[i], sys_name_len(m, i));
}

/* S's text I, the N bytes at T (the text full: -1) */
static int sysline_put(struct pf_sysline *s, size_t *at, int i,
		       const char *t, size_t n)
{
	if (*at + n + PF_SYSLINE_SLACK > sizeof(s->text))
		return -1;
	s->off[i] = (unsigned short)*at;
	s->len[i] = (unsigned short)n;
	memcpy(s->text + *at, t, n);
	*at += n;
	return 0;
}

void pf_sysline_init(struct pf_sysline *s, const struct pf_sysmeta *m,
		     unsigned args_off)
{
	char t[PF_SYSLINE_TEXT];
	size_t at = 0, n = 0, l;
	int i;

	memset(s, 0, sizeof(*s));
	if (!m || !m->name || m->nb_args < 0 || m->nb_args > 6)
		return;
	for (i = 0; i < m->nb_args; i++)
		if (!m->args[i])
			return;
	s->nb_args = m->nb_args;
	s->args_off = args_off;
	s->minrec = args_off + 8 * (size_t)m->nb_args;
	/* "name(", then "%s: " of each name with ", " before all but the
	 * first (cut as sys_put_name() cuts it), and ")": text I ends where
	 * value I goes */
	l = m->name_len ? m->name_len : strlen(m->name);
	if (l + 2 > sizeof(t))		/* "(" and ")" */
		return;
	memcpy(t, m->name, l);
	t[l] = '(';
	n = l + 1;
	for (i = 0; i < m->nb_args; i++) {
		l = sys_name_len(m, i);
		if (n + 2 + l + 2 > sizeof(t))
			return;
		if (i) {
			memcpy(t + n, ", ", 2);
			n += 2;
		}
		memcpy(t + n, m->args[i], l);
		memcpy(t + n + l, ": ", 2);
		if (sysline_put(s, &at, i, t, n + l + 2) < 0)
			return;
		n = 0;
	}
	t[n++] = ')';
	if (sysline_put(s, &at, m->nb_args, t, n) < 0)
		return;
	s->maxlen = at + 16 * (size_t)m->nb_args;
	s->ok = 1;
}

void pf_sysline_init_exit(struct pf_sysline *s, const char *name,
			  size_t name_len, unsigned ret_off)
{
	char t[PF_SYSLINE_TEXT];
	size_t at = 0;

	memset(s, 0, sizeof(*s));
	if (!name || name_len + 6 > sizeof(t))
		return;
	memcpy(t, name, name_len);
	memcpy(t + name_len, " -> 0x", 6);
	if (sysline_put(s, &at, 0, t, name_len + 6) < 0 ||
	    sysline_put(s, &at, 1, "", 0) < 0)
		return;
	s->nb_args = 1;
	s->args_off = ret_off;
	s->minrec = ret_off + 8;
	s->maxlen = at + 16;
	s->ok = 1;
}

/* the text I of S at Q: a fixed copy when short (S's text has the slack) */
static inline char *sysline_text(const struct pf_sysline *s, int i, char *q)
{
	const char *t = s->text + s->off[i];

	if (s->len[i] <= PF_SYSLINE_SLACK)
		memcpy(q, t, PF_SYSLINE_SLACK);
	else
		memcpy(q, t, s->len[i]);
	return q + s->len[i];
}

char *pf_sysline_at(const struct pf_sysline *s, const unsigned char *rec,
		    size_t reclen, int big, unsigned flags, char *out,
		    size_t room)
{
	if (!pf_sysline_fits(s, reclen, flags, room))
		return NULL;
	return pf_sysline_put(s, rec, big, out);
}

char *pf_sysline_put(const struct pf_sysline *s, const unsigned char *rec,
		     int big, char *out)
{
	const unsigned char *a;
	char *q;
	int i;

	q = sysline_text(s, 0, out);
	a = rec + s->args_off;
	for (i = 0; i < s->nb_args; i++, a += 8) {
		uint64_t v;

		memcpy(&v, a, 8);
		if (big != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__))
			v = __builtin_bswap64(v);
		q = pf_hex_at(q, v);
		q = sysline_text(s, i + 1, q);
	}
	return q;
}

int pf_syscall_enter(const struct pf_sysmeta *m, const unsigned char *rec,
		     size_t reclen, unsigned args_off, unsigned flags,
		     const struct pf_ctx *ctx, char *out, size_t outlen)
{
	struct out o = { out, outlen, 0 };
	const unsigned char *p;
	int i, k = 0, r = 0;
	size_t len;
	struct ev e;

	if (!out || !outlen)
		return -PF_EEVAL;
	if (!m || m->nb_args < 0 || m->nb_args > 6 ||
	    args_off + (size_t)(m->nb_args > 0 ? m->nb_args : 0) * 8 >
	    reclen) {
		snprintf(out, outlen, "syscall arguments beyond the record");
		return -PF_ERANGE;
	}
	for (i = 0; i < m->nb_args; i++)
		if (!m->args[i] || ((flags & PF_SYS_VERBOSE) && !m->types[i])) {
			snprintf(out, outlen, "syscall argument %d unnamed",
				 i);
			return -PF_EEVAL;
		}
	pf_ev_init(&e, NULL, rec, reclen, ctx, NULL, 0);
	if (m->name)
		pf_puts_n(&o, m->name,
			  m->name_len ? m->name_len : strlen(m->name));
	pf_put(&o, '(');
	if ((flags & (PF_SYS_OPENAT | PF_SYS_VERBOSE)) == PF_SYS_OPENAT) {
		r = sys_openat(&e, &o, m, args_off);
		goto end;
	}
	for (i = 0; i < m->nb_args; i++) {
		uint64_t v = pf_rd_uint(&e, rec + args_off + 8 * i, 8);

		if (!(flags & PF_SYS_USER)) {
			/* "%s: %lx%s", the ", " after all but the last
			 * (each %s cut at 255 bytes, as pf_out_printf()'s
			 * room cut it: a name is shorter) */
			if (flags & PF_SYS_VERBOSE)
				pf_out_printf(&o, 256, "%s ", m->types[i]);
			sys_put_name(&o, m, i);
			pf_puts_n(&o, ": ", 2);
			pf_put_hex(&o, v, 0);
			if (i != m->nb_args - 1)
				pf_puts_n(&o, ", ", 2);
			continue;
		}
		if (i)
			pf_puts_n(&o, ", ", 2);
		if (flags & PF_SYS_VERBOSE)
			pf_out_printf(&o, 256, "%s ", m->types[i]);
		sys_put_name(&o, m, i);
		pf_puts_n(&o, ": ", 2);
		if (v < 10)
			pf_put_udec(&o, v);
		else
			pf_put_hex(&o, v, 1);
		if (!(m->user_mask & (1u << i)))
			continue;
		if ((r = sys_user_data(&e, m, args_off, &k, &p, &len)) < 0)
			break;
		if (m->user_arg_size < 0 || m->user_arg_is_str) {
			sys_user_str(&o, p, len);
			continue;
		}
		if (m->user_arg_size >= m->nb_args) {
			r = -PF_ERANGE;
			break;
		}
		sys_user_array(&o, p, len, (int32_t)pf_rd_uint(&e, rec +
			       args_off + 8 * m->user_arg_size, 8));
	}
end:
	if (r < 0) {
		snprintf(out, outlen, "syscall user data beyond the record");
		return r;
	}
	pf_put(&o, ')');
	out[o.len] = 0;
	return (int)o.len;
}

int pf_syscall_exit(const char *sysname, const unsigned char *rec,
		    size_t reclen, const struct pf_field *fields, int nfields,
		    const struct pf_ctx *ctx, char *out, size_t outlen)
{
	struct out o = { out, outlen, 0 };
	int idx[2], n;
	struct ev e;
	const struct pf_field *fl;

	if (!out || !outlen)
		return -PF_EEVAL;
	pf_ev_init(&e, NULL, rec, reclen, ctx, NULL, 0);
	n = sys_args(fields, nfields, idx, 1);
	if (n != 1 || (fl = &fields[idx[0]])->size <= 0 || fl->size > 8 ||
	    fl->offset < 0 || (size_t)fl->offset + fl->size > e.reclen) {
		snprintf(out, outlen, "no syscall return value in the record");
		return -PF_ERANGE;
	}
	pf_puts_n(&o, sysname, strlen(sysname));
	pf_out_printf(&o, 256, " -> 0x%llx", (unsigned long long)
		   pf_rd_uint(&e, rec + fl->offset, fl->size));
	out[o.len] = 0;
	return (int)o.len;
}
