/*
 * Fuzz target: lib/bprint.c.  Input: byte 0 (bit 0: big endian, bit 1:
 * 4-byte long, bit 2: a symbol callback, bits 3-4: output size), then the
 * trace_printk format up to a NUL, then the packed arguments.
 */
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bprint.h"

static char *sym(uint64_t addr, char conv, char *buf, size_t len, void *arg)
{
	(void)arg;
	if (addr & 1)
		snprintf(buf, len, "%lx", (unsigned long)addr);
	else
		snprintf(buf, len, "func_%c+0x%x/0x100", conv,
			 (unsigned)(addr & 0xff));
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t outs[] = { 4096, 1, 16, 0 };
	struct bprint_opts o = { 0 };
	const uint8_t *nul;
	char *fmt, *out;
	size_t flen, olen;
	int n;

	if (size < 1)
		return 0;
	o.big_endian = data[0] & 1;
	o.long_size = data[0] & 2 ? 4 : 8;
	o.sym = data[0] & 4 ? sym : NULL;
	olen = outs[(data[0] >> 3) & 3];
	data++;
	size--;
	nul = memchr(data, 0, size);
	flen = nul ? (size_t)(nul - data) : size;
	fmt = malloc(flen + 1);
	out = malloc(olen ? olen : 1);
	if (!fmt || !out)
		goto done;
	memcpy(fmt, data, flen);
	fmt[flen] = 0;
	data += nul ? flen + 1 : flen;
	size -= nul ? flen + 1 : flen;
	n = bprint_format(fmt, data, size, &o, out, olen);
	if (olen && (memchr(out, 0, olen) == NULL || n < -1))
		__builtin_trap();
done:
	free(fmt);
	free(out);
	return 0;
}
