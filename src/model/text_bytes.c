/*
 * tracehunt: the model's one reader of the kernel's code as the dump
 * holds it: the bytes at a probed or hooked address, the whole of .text
 * for the text check, and a paravirt pv_ops slot that a patched call
 * names.  The layers above compare and print these bytes; they never
 * read the dump themselves (tests/test_layout.py).
 */
#include "model/text_bytes.h"

/**
 * th_text_read - LEN bytes of code at ADDR
 * @addr: a kernel text address
 * @buf: where to copy them
 * @len: how many
 * @what: what they are, for the read log ("probed instruction", ...)
 *
 * FALSE, quietly, when the dump does not hold them all.
 */
int th_text_read(ulong addr, void *buf, long len, const char *what)
{
	return th_read(addr, buf, len, what);
}

/**
 * th_text_copy - the dump's copy of SIZE bytes of text from START
 * @start: the first byte (the running kernel's address)
 * @size: how many
 * @badp: set to one byte per TH_TEXT_PAGE of the copy, 1 where that page
 *	could not be read (and was left as malloc() gave it)
 *
 * Read TH_TEXT_CHUNK bytes at a time, a page at a time only where a chunk
 * fails.  NULL without memory; the caller frees both.
 */
unsigned char *th_text_copy(ulong start, ulong size, unsigned char **badp)
{
	unsigned char *buf = malloc(size ? size : 1), *bad;
	ulong npg = (size + TH_TEXT_PAGE - 1) / TH_TEXT_PAGE, off, o;

	bad = calloc(npg ? npg : 1, 1);
	if (!buf || !bad) {
		free(buf);
		free(bad);
		return NULL;
	}
	for (off = 0; off < size; off += TH_TEXT_CHUNK) {
		ulong len = size - off < TH_TEXT_CHUNK ? size - off :
			TH_TEXT_CHUNK;

		if (th_read(start + off, buf + off, len, "kernel text"))
			continue;
		for (o = off; o < off + len; o += TH_TEXT_PAGE) {
			ulong l = off + len - o < TH_TEXT_PAGE ? off + len - o :
				TH_TEXT_PAGE;

			if (!th_read(start + o, buf + o, l, "kernel text"))
				bad[o / TH_TEXT_PAGE] = 1;
		}
	}
	*badp = bad;
	return buf;
}

/**
 * th_pv_ops_slot - the function pointer a paravirt call goes through
 * @slot: the slot's address (an entry of pv_ops, found from the
 *	instruction "call *disp32(%rip)" in the vmlinux file)
 * @val: its value in the dump
 */
int th_pv_ops_slot(ulong slot, ulong *val)
{
	return th_read_ulong(slot, val, "pv_ops slot");
}
