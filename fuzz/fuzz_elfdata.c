/*
 * Fuzz target: lib/elfdata.c over a fuzzed ELF file.
 * Input: bytes 0-7 an address, 8-11 a length (both little-endian), then
 * the file.  Every section is read with ed_section(), then the range is
 * looked up with ed_bytes(): what it returns must lie inside the file and
 * inside the section it names.  The symbol tables are searched for a
 * symbol at the address.
 */
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include "elfdata.h"

static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const unsigned char *p;
	struct ed_section s;
	struct ed_file f;
	uint64_t addr, len;
	size_t n;
	unsigned i;

	if (size < 12)
		return 0;
	addr = le(data, 8);
	len = le(data + 8, 4);
	data += 12;
	size -= 12;
	if (ed_open(&f, data, size))
		return 0;
	for (i = 0; i < f.shnum && i < 4096; i++) {
		if (ed_section(&f, i, &s))
			__builtin_trap();
		n = strlen(s.name);
		(void)n;
		if (s.bytes && (s.bytes < data || s.bytes > data + size ||
				s.size > (uint64_t)(data + size - s.bytes)))
			__builtin_trap();
	}
	p = ed_bytes(&f, addr, len, &s);
	if (p && (p < s.bytes || addr < s.addr || addr - s.addr > s.size ||
		  len > s.size - (addr - s.addr) ||
		  p != s.bytes + (addr - s.addr) ||
		  len > (uint64_t)(data + size - p)))
		__builtin_trap();
	/* the symbol tables: every name read stays inside the file (the
	 * sanitizers see to that); the address picks one */
	{
		uint64_t sz;

		(void)ed_symbol_size(&f, "trace_clocks", addr, &sz);
		(void)ed_symbol_size(&f, "", addr, &sz);
	}
	return 0;
}
