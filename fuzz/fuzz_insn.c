/*
 * Fuzz target: lib/insn.c.  Input: code bytes; byte 0 also picks the
 * address the code lives at (so rel8/rel32 targets wrap around).
 */
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include "insn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t addr, refs[8];
	struct insn in;
	size_t off = 0;
	int len;

	if (size < 1)
		return 0;
	addr = data[0] & 1 ? 0xffffffff81000000ULL :
	       data[0] & 2 ? 0xfffffffffffffff0ULL : 0;
	data++;
	size--;
	insn_nop_run(data, size, 64);
	insn_is_endbr(data, size);
	if (insn_data_refs(data, size, addr, refs, 8) > 8)
		__builtin_trap();
	while (off < size) {
		len = insn_decode(data + off, size - off, addr + off, &in);
		if (len < 0 || len > INSN_MAX_LEN || (size_t)len > size - off)
			__builtin_trap();
		if (memchr(in.text, 0, sizeof(in.text)) == NULL)
			__builtin_trap();
		off += len ? (size_t)len : 1;
	}
	return 0;
}
