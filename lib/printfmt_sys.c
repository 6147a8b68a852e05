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

/*
 * PF_SYS_DEC10 kernels append the user data of an argument X, saved in
 * the dynamic field "__X_val", right after X's value.
 */
static int sys_user_data(struct ev *e, struct out *o,
			 const struct pf_field *fields, int nfields,
			 const char *arg)
{
	size_t alen = strlen(arg), off, len, j;
	const unsigned char *p;
	uint64_t w;
	int i;

	for (i = 0; i < nfields; i++) {
		const struct pf_field *fl = &fields[i];

		if (!fl->name || strncmp(fl->name, "__", 2) ||
		    strncmp(fl->name + 2, arg, alen) ||
		    strcmp(fl->name + 2 + alen, "_val"))
			continue;
		if (fl->size != 4 || fl->offset < 0 ||
		    (size_t)fl->offset + 4 > e->reclen)
			return -PF_ERANGE;
		w = pf_rd_uint(e, e->rec + fl->offset, 4);
		off = w & 0xffff;
		len = (w >> 16) & 0xffff;
		if (off > e->reclen || len > e->reclen - off)
			return -PF_ERANGE;
		p = e->rec + off;
		if (has(fl->type ? fl->type : "", "char")) {
			/* " \"%.*s\"" */
			pf_puts_n(o, " \"", 2);
			pf_puts_n(o, (const char *)p, strnlen((const char *)p,
							   len));
			pf_put(o, '"');
			return 0;
		}
		/* the bytes; kernels add ", ..." when the array was cut
		 * (user_arg_size, not in the record): not reproduced */
		pf_puts_n(o, " (", 2);
		for (j = 0; j < len; j++)
			pf_out_printf(o, 256, j ? ":%02x" : "%02x", p[j]);
		pf_put(o, ')');
		return 0;
	}
	return 0;
}

int pf_syscall_enter(const char *sysname, const struct pf_field *fields,
		     int nfields, const unsigned char *rec, size_t reclen,
		     const struct pf_ctx *ctx, int style, char *out,
		     size_t outlen)
{
	struct out o = { out, outlen, 0 };
	int idx[16], n, i, k, r;
	struct ev e;

	if (!out || !outlen)
		return -PF_EEVAL;
	if (!sysname)
		sysname = "";
	pf_ev_init(&e, NULL, rec, reclen, ctx, NULL, 0);
	n = sys_args(fields, nfields, idx, 16);
	pf_puts_n(&o, sysname, strlen(sysname));
	pf_put(&o, '(');
	for (i = k = 0; i < n; i++) {
		const struct pf_field *fl = &fields[idx[i]];
		uint64_t v;

		if (has(fl->type ? fl->type : "", "__data_loc"))
			continue;	/* __X_val: printed after X */
		if (fl->offset < 0 || fl->size <= 0 || fl->size > 8 ||
		    (size_t)fl->offset + fl->size > e.reclen) {
			snprintf(out, outlen, "syscall argument %s beyond the "
				 "record", fl->name);
			return -PF_ERANGE;
		}
		v = pf_rd_uint(&e, rec + fl->offset, fl->size);
		if (k++)
			pf_puts_n(&o, ", ", 2);
		pf_puts_n(&o, fl->name, strlen(fl->name));
		if (style != PF_SYS_DEC10) {
			pf_out_printf(&o, 256, ": %llx", (unsigned long long)v);
			continue;
		}
		pf_out_printf(&o, 256, v < 10 ? ": %llu" : ": 0x%llx",
			   (unsigned long long)v);
		r = sys_user_data(&e, &o, fields, nfields, fl->name);
		if (r < 0) {
			snprintf(out, outlen, "__%s_val beyond the record",
				 fl->name);
			return r;
		}
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
