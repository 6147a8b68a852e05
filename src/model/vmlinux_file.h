/*
 * tracehunt: the vmlinux file's initial bytes of the kernel's static
 * objects (model/vmlinux_file.c over lib/elfdata.c), and the check of a
 * static object's fields the kernel never writes against them.
 */
#ifndef TRACEHUNT_MODEL_VMLINUX_FILE_H
#define TRACEHUNT_MODEL_VMLINUX_FILE_H

#include "model/model.h"

/* The vmlinux file's bytes of its (link-time) addresses [ADDR, ADDR +
 * LEN), in any allocated PROGBITS section (init sections too: the text
 * check reads the patch tables there), or NULL. */
const unsigned char *th_vmlinux_file_bytes(ulong addr, ulong len);

/* The vmlinux file's bytes of the kernel image's addresses [ADDR, ADDR +
 * LEN) (dump addresses: the KASLR offset is taken off), or NULL: no file
 * bytes there (a debuginfo-only file, an init section, not the image). */
const unsigned char *th_vmlinux_bytes(ulong addr, long len);
/* The size the vmlinux file's symbol table gives the kernel symbol NAME
 * (the one at its dump address, KASLR taken off), or -1 (no symbol
 * table, no such symbol). */
long th_vmlinux_symbol_size(const char *name);

/* The length of the kernel's array NAME of elements of ELEM bytes: its
 * size in the file's symbol table over ELEM, else gdb's (th_array_len(),
 * which expands the unit that defines it: 20-40 ms); -1 when unknown. */
long th_vmlinux_array_len(const char *name, long elem);
/* The bytes of the vmlinux file's PROGBITS section NAME (".BTF"), its
 * length in *LEN; NULL when no file crash opened has it with its bytes
 * (a debuginfo-only file's are NOBITS). */
const unsigned char *th_vmlinux_section(const char *name, size_t *len);

/* One field of a static object the kernel never writes once it is built
 * (a constant of its initializer). */
struct th_static_field {
	const char *name;	/* for the warning */
	long off;		/* in the object; < 0: the kernel has none */
	int size;		/* 1, 2, 4 or 8 */
	int ptr;		/* 1: an address the KASLR relocation moved;
				 * TH_STATIC_SET: the same, and the kernel may
				 * set it where the initializer left NULL */
};

#define TH_STATIC_SET	2

/* Each field of the object at ADDR (vmlinux's own) that differs from the
 * file's initial bytes is a th_damaged(OBJECT, ADDR) warning; their
 * number (0 when the file gives nothing to compare). */
int th_static_check(const char *object, ulong addr,
		    const struct th_static_field *fields, int n);

#endif
