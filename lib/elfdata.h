/*
 * tracehunt: the initial bytes an ELF file (a vmlinux) gives a range of
 * addresses: the allocated PROGBITS section holding the range, and the
 * bytes of the file there; and the size of a symbol.  Knows nothing of
 * crash or libelf: it reads the ELF and section headers from the bytes it
 * is given (32- or 64-bit, either byte order, as the header says), so it
 * is unit-tested and fuzzed on constructed files.
 */
#ifndef TRACEHUNT_ELFDATA_H
#define TRACEHUNT_ELFDATA_H

#include <stddef.h>
#include <stdint.h>

/* What ed_open() found in the file. */
struct ed_file {
	const unsigned char *buf;	/* the whole file */
	size_t len;
	int is64, big;			/* ELFCLASS64, ELFDATA2MSB */
	uint64_t shoff;			/* the section headers */
	unsigned shentsize, shnum, shstrndx;
};

/* A section as ed_section() reports it. */
struct ed_section {
	const char *name;		/* "" when the file names none */
	uint64_t addr, size;		/* sh_addr, sh_size */
	uint64_t flags;			/* sh_flags (SHF_WRITE 1, SHF_ALLOC 2) */
	uint32_t type;			/* sh_type (SHT_PROGBITS 1) */
	const unsigned char *bytes;	/* the file's bytes of it, or NULL
					 * (SHT_NOBITS, outside the file) */
};

/*
 * Check that BUF (LEN bytes, kept by the caller while F is used) is an ELF
 * file whose section headers lie inside it.  Returns 0, or -1 with nothing
 * usable in F.
 */
int ed_open(struct ed_file *f, const unsigned char *buf, size_t len);

/* Section I (0 .. shnum - 1) into *S; 0, or -1 when it cannot be read. */
int ed_section(const struct ed_file *f, unsigned i, struct ed_section *s);

/*
 * The file's bytes of the addresses [ADDR, ADDR + LEN): the allocated
 * PROGBITS section holding all of them, *S when S is not NULL.  Returns a
 * pointer into the caller's buffer, or NULL when no such section holds the
 * whole range (a debuginfo-only file has NOBITS sections instead).  An
 * empty range is in a section from its start to its end, inclusive.
 */
const unsigned char *ed_bytes(const struct ed_file *f, uint64_t addr,
			      uint64_t len, struct ed_section *s);

/*
 * The size (st_size) of the symbol NAME whose value is ADDR in the file's
 * symbol tables (SHT_SYMTAB, their names in the string table sh_link
 * names): 0 and *SIZE, or -1 when no such symbol is there (a stripped
 * file).  The value picks among static symbols of the same name.
 */
int ed_symbol_size(const struct ed_file *f, const char *name, uint64_t addr,
		   uint64_t *size);

/* An unsigned integer of SIZE bytes (1, 2, 4 or 8) in the file's byte
 * order, from P. */
uint64_t ed_uint(const struct ed_file *f, const unsigned char *p, int size);

#endif
