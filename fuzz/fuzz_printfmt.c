/*
 * Fuzz target: lib/printfmt.c, parse and format.
 * Input:
 *   byte 0: bit 0 big endian, bit 1 4-byte long, bit 2 nohash-ptr,
 *           bit 3 a ptr_key, bit 4 no callbacks (ctx NULL),
 *           bits 5-6: 0 pf_format, 1 pf_fields, 2 syscall enter (bits 0,
 *           2, 3 also its verbose, openat and user-data forms), 3 exit
 *           bit 7: 16-byte output buffer instead of 4096
 *   the print_fmt up to a NUL;
 *   the fields up to a NUL: lines "offset\tsize\tsigned\tname\ttype";
 *   the record: the rest.
 * The whole input is also hashed by pf_siphash() (printfmt_siphash.c:
 * the kernel's siphash() of any length).
 */
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "printfmt.h"

#define MAX_FIELDS 64

static int sym(void *priv, uint64_t addr, int with_offset, char *buf,
	       size_t len)
{
	(void)priv;
	if ((addr & 3) == 3)
		return -1;
	if (with_offset)
		return snprintf(buf, len, "fn_%x+0x%x/0x200 [mod]",
				(unsigned)(addr >> 8 & 0xff),
				(unsigned)(addr & 0xff));
	return snprintf(buf, len, "fn_%x", (unsigned)(addr >> 8 & 0xff));
}

static int read_str(void *priv, uint64_t addr, char *buf, size_t len)
{
	static const char s[] = "kernel string from the dump";

	(void)priv;
	if (!len || (addr & 7) == 7)
		return -1;
	snprintf(buf, len, "%s", s + (addr & 7));
	return (int)strlen(buf);
}

static int str_safe(void *priv, uint64_t addr)
{
	(void)priv;
	return !(addr & 0x10);
}

/* Take a NUL-terminated piece of the input (a malloc'd copy). */
static char *take(const uint8_t **data, size_t *size)
{
	const uint8_t *nul = memchr(*data, 0, *size);
	size_t n = nul ? (size_t)(nul - *data) : *size;
	char *s = malloc(n + 1);

	if (!s)
		return NULL;
	memcpy(s, *data, n);
	s[n] = 0;
	*data += nul ? n + 1 : n;
	*size -= nul ? n + 1 : n;
	return s;
}

static int parse_fields(char *text, struct pf_field *f)
{
	char *line, *save = NULL;
	int n = 0;

	for (line = strtok_r(text, "\n", &save); line && n < MAX_FIELDS;
	     line = strtok_r(NULL, "\n", &save)) {
		char *tok[5], *s2 = NULL, *t;
		int k = 0;

		for (t = strtok_r(line, "\t", &s2); t && k < 5;
		     t = strtok_r(NULL, "\t", &s2))
			tok[k++] = t;
		if (k < 5)
			continue;
		f[n].offset = atoi(tok[0]);
		f[n].size = atoi(tok[1]);
		f[n].is_signed = atoi(tok[2]);
		f[n].name = tok[3];
		f[n].type = tok[4];
		n++;
	}
	return n;
}

/*
 * A syscall's metadata from the input: its name the print_fmt, its
 * arguments the fields (offset: the user data mask's bit, size: the size
 * argument, signed: user_arg_is_str of the first), the printer's flags
 * from byte 0 and the first field's size.
 */
static int sys_enter(const char *name, const struct pf_field *f, int nf,
		     const unsigned char *rec, size_t reclen,
		     const struct pf_ctx *cp, int flags, char *out,
		     size_t outlen)
{
	struct pf_sysmeta m;
	int i, r;

	memset(&m, 0, sizeof(m));
	m.name = name;
	m.nb_args = nf < 7 ? nf : 6 + (nf & 1);	/* 7: refused */
	m.user_arg_size = -1;
	for (i = 0; i < nf && i < 6; i++) {
		m.args[i] = f[i].name;
		m.types[i] = f[i].type;
		if (f[i].offset & 1)
			m.user_mask |= 1u << i;
		if (f[i].offset & 2)
			m.user_arg_size = f[i].size % 8;
	}
	if (nf)
		m.user_arg_is_str = f[0].is_signed;
	r = pf_syscall_enter(&m, rec, reclen, nf ? f[0].size & 0xff : 16,
			     ((flags & 0x8) ? PF_SYS_USER : 0) |
			     ((flags & 0x4) ? PF_SYS_OPENAT : 0) |
			     ((flags & 0x1) ? PF_SYS_VERBOSE : 0),
			     cp, out, outlen);
	/* the text holds no NUL (render/event_text.c relies on it) */
	if (r >= 0 && strlen(out) != (size_t)r)
		__builtin_trap();
	{
		/* the compiled line: pf_syscall_enter()'s, or nothing */
		static struct pf_sysline sl;
		static char line[4096 + PF_SYSLINE_SLACK];
		unsigned fl = ((flags & 0x8) ? PF_SYS_USER : 0) |
			((flags & 0x4) ? PF_SYS_OPENAT : 0) |
			((flags & 0x1) ? PF_SYS_VERBOSE : 0);
		char *q;

		pf_sysline_init(&sl, &m, nf ? f[0].size & 0xff : 16);
		q = pf_sysline_at(&sl, rec, reclen, cp && (cp->flags &
			PF_CTX_BIG_ENDIAN), fl, line, outlen);
		if (q && (r < 0 || q - line != r || memcmp(line, out, r)))
			__builtin_trap();
	}
	return r;
}

/* pf_siphash()'s result, kept so that the call stays */
static volatile uint64_t siphash_sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pf_field fields[MAX_FIELDS];
	struct pf_ctx ctx, *cp = &ctx;
	struct pf_fmt *fmt;
	char *pfmt, *ftext, *out, err[128];
	unsigned char *rec;
	size_t outlen, reclen;
	int flags, nf, n = 0;

	if (size < 1)
		return 0;
	flags = data[0];
	data++;
	size--;
	pfmt = take(&data, &size);
	ftext = take(&data, &size);
	reclen = size;
	rec = malloc(reclen ? reclen : 1);
	outlen = flags & 0x80 ? 16 : 4096;
	out = malloc(outlen);
	if (!pfmt || !ftext || !rec || !out)
		goto done;
	memcpy(rec, data, reclen);
	nf = parse_fields(ftext, fields);

	memset(&ctx, 0, sizeof(ctx));
	ctx.flags = (flags & 1 ? PF_CTX_BIG_ENDIAN : 0) |
		    (flags & 4 ? PF_CTX_NO_HASH_PTR : 0) |
		    (flags & 8 ? PF_CTX_HAVE_PTR_KEY : 0);
	ctx.long_size = flags & 2 ? 4 : 8;
	ctx.kptr_restrict = flags & 1;
	ctx.ptr_key[0] = 0x0123456789abcdefULL;
	ctx.ptr_key[1] = 0xfedcba9876543210ULL;
	siphash_sink = pf_siphash(data, size, ctx.ptr_key);
	ctx.sym = sym;
	ctx.read_str = read_str;
	ctx.str_safe = str_safe;
	if (flags & 0x10)
		cp = NULL;

	switch ((flags >> 5) & 3) {
	case 0:
		fmt = pf_parse(pfmt, fields, nf, err, sizeof(err));
		if (!fmt) {
			if (!memchr(err, 0, sizeof(err)))
				__builtin_trap();
			n = -1;
			break;
		}
		n = pf_format(fmt, rec, reclen, cp, out, outlen);
		{
			/* again: the strings pf_plan() keeps, as evaluated */
			char *again = malloc(outlen);
			size_t m = strnlen(out, outlen);

			if (again && (pf_format(fmt, rec, reclen, cp, again,
						outlen) != n ||
				      memcmp(again, out, m < outlen ? m + 1 :
					     m)))
				__builtin_trap();
			free(again);
		}
		pf_free(fmt);
		break;
	case 1:
		n = pf_fields(fields, nf, rec, reclen, cp, out, outlen);
		break;
	case 2:
		n = sys_enter(pfmt, fields, nf, rec, reclen, cp, flags, out,
			      outlen);
		break;
	case 3:
		n = pf_syscall_exit(pfmt, rec, reclen, fields, nf, cp, out,
				    outlen);
		break;
	}
	if (n >= 0 && !memchr(out, 0, outlen))
		__builtin_trap();
done:
	free(pfmt);
	free(ftext);
	free(rec);
	free(out);
	return 0;
}
