/*
 * tracehunt: the kernel's code as the dump holds it (model/text_bytes.c):
 * the only reads of code bytes, for the layers that compare and print
 * them (the text check, hooks, the kprobes report).
 */
#ifndef TRACEHUNT_MODEL_TEXT_BYTES_H
#define TRACEHUNT_MODEL_TEXT_BYTES_H

#include "model/model.h"

#define TH_TEXT_CHUNK	(1UL << 20)	/* text read per readmem */
#define TH_TEXT_PAGE	4096UL		/* th_text_copy()'s bad-page unit */

int th_text_read(ulong addr, void *buf, long len, const char *what);
unsigned char *th_text_copy(ulong start, ulong size, unsigned char **badp);
int th_pv_ops_slot(ulong slot, ulong *val);

#endif
