/* Unit tests for lib/elfdata.c on ELF files built here, byte by byte. */
#include <stdint.h>
#include <stdlib.h>
#include "unit.h"
#include "elfdata.h"

static unsigned char img[2048];
static int big, is64;

static void put(size_t off, uint64_t v, int size)
{
	int i;

	for (i = 0; i < size; i++)
		img[off + (big ? size - 1 - i : i)] = (unsigned char)(v >> (8 * i));
}

static const char names[] = "\0.data\0.bss\0.shstrtab\0.rodata";

/* One section header I at 0x200 + I * entsize. */
static void shdr(int i, uint32_t name, uint32_t type, uint64_t flags,
		 uint64_t addr, uint64_t off, uint64_t size)
{
	size_t p = 0x200 + (size_t)i * (is64 ? 64 : 40);
	int w = is64 ? 8 : 4;

	put(p, name, 4);
	put(p + 4, type, 4);
	put(p + 8, flags, w);
	put(p + 8 + w, addr, w);
	put(p + 8 + 2 * w, off, w);
	put(p + 8 + 3 * w, size, w);
}

/* An ELF file of 5 sections: NULL, .data (0x1000, 16 bytes 0x10..0x1f at
 * 0x100), .bss (NOBITS at 0x2000), .shstrtab, .rodata (not allocated). */
static void build(int b, int w64)
{
	int i;

	memset(img, 0, sizeof(img));
	big = b;
	is64 = w64;
	memcpy(img, "\177ELF", 4);
	img[4] = w64 ? 2 : 1;
	img[5] = b ? 2 : 1;
	img[6] = 1;
	if (w64) {
		put(0x28, 0x200, 8);
		put(0x3a, 64, 2);
		put(0x3c, 5, 2);
		put(0x3e, 3, 2);
	} else {
		put(0x20, 0x200, 4);
		put(0x2e, 40, 2);
		put(0x30, 5, 2);
		put(0x32, 3, 2);
	}
	for (i = 0; i < 16; i++)
		img[0x100 + i] = (unsigned char)(0x10 + i);
	memcpy(img + 0x180, names, sizeof(names));
	shdr(1, 1, 1, 3, 0x1000, 0x100, 16);
	shdr(2, 7, 8, 3, 0x2000, 0x110, 16);
	shdr(3, 12, 3, 0, 0, 0x180, sizeof(names));
	shdr(4, 22, 1, 0, 0x3000, 0x100, 16);
}

static void one_layout(int b, int w64)
{
	struct ed_file f;
	struct ed_section s;
	const unsigned char *p;

	build(b, w64);
	CHECK(ed_open(&f, img, sizeof(img)) == 0);
	CHECK(f.shnum == 5 && f.is64 == w64 && f.big == b);
	p = ed_bytes(&f, 0x1004, 8, &s);
	CHECK(p && p[0] == 0x14 && p[7] == 0x1b);
	CHECK_STR(s.name, ".data");
	CHECK(s.addr == 0x1000 && s.size == 16);
	CHECK(ed_uint(&f, p, 2) == (b ? 0x1415U : 0x1514U));
	/* the whole section, and one byte past it */
	CHECK(ed_bytes(&f, 0x1000, 16, NULL) == img + 0x100);
	CHECK(ed_bytes(&f, 0x1001, 16, NULL) == NULL);
	CHECK(ed_bytes(&f, 0xfff, 2, NULL) == NULL);
	CHECK(ed_bytes(&f, 0x1000, 0, NULL) == img + 0x100);
	CHECK(ed_bytes(&f, 0x1010, 0, NULL) == img + 0x110);
	CHECK(ed_bytes(&f, 0x1011, 0, NULL) == NULL);
	/* NOBITS and unallocated sections give no bytes */
	CHECK(ed_bytes(&f, 0x2000, 4, NULL) == NULL);
	CHECK(ed_bytes(&f, 0x3000, 4, NULL) == NULL);
	CHECK(ed_section(&f, 2, &s) == 0 && !s.bytes);
	CHECK_STR(s.name, ".bss");
	CHECK(ed_section(&f, 5, &s) == -1);
	/* no overflow on a range at the top of the address space */
	CHECK(ed_bytes(&f, UINT64_MAX - 1, 4, NULL) == NULL);
}

/* build()'s file with two more sections: .symtab (5) at 0x600, its names
 * in .strtab (6) at 0x700: "tc" at 0x1000 (24 bytes) and at 0x1008 (8:
 * a static of another unit), "fn" at 0x1000 (16). */
static void symtab_layout(int b, int w64)
{
	static const char str[] = "\0tc\0fn\0tcx";
	int ent = w64 ? 24 : 16, w = w64 ? 8 : 4;
	size_t sh5 = 0x200 + 5 * (w64 ? 64 : 40);
	size_t sh6 = 0x200 + 6 * (w64 ? 64 : 40);
	struct ed_file f;
	uint64_t size = 0;
	const struct { uint32_t name; uint64_t value, size; } sym[] = {
		{ 0, 0, 0 }, { 1, 0x1000, 24 }, { 1, 0x1008, 8 },
		{ 4, 0x1000, 16 }, { 7, 0x1010, 4 },
	};
	unsigned i;

	build(b, w64);
	put(w64 ? 0x3c : 0x30, 7, 2);
	shdr(5, 0, 2, 0, 0, 0x600, sizeof(sym) / sizeof(sym[0]) * ent);
	put(sh5 + 8 + 4 * w, 6, 4);	/* sh_link: .strtab */
	shdr(6, 0, 3, 0, 0, 0x700, sizeof(str));
	memcpy(img + 0x700, str, sizeof(str));
	for (i = 0; i < sizeof(sym) / sizeof(sym[0]); i++) {
		size_t p = 0x600 + i * ent;

		put(p, sym[i].name, 4);
		put(p + (w64 ? 8 : 4), sym[i].value, w);
		put(p + (w64 ? 16 : 8), sym[i].size, w);
	}
	CHECK(ed_open(&f, img, sizeof(img)) == 0 && f.shnum == 7);
	CHECK(ed_symbol_size(&f, "tc", 0x1000, &size) == 0 && size == 24);
	CHECK(ed_symbol_size(&f, "tc", 0x1008, &size) == 0 && size == 8);
	CHECK(ed_symbol_size(&f, "fn", 0x1000, &size) == 0 && size == 16);
	/* a name that only begins alike, an address no symbol has */
	CHECK(ed_symbol_size(&f, "tcx", 0x1000, &size) == -1);
	CHECK(ed_symbol_size(&f, "t", 0x1000, &size) == -1);
	CHECK(ed_symbol_size(&f, "tc", 0x1004, &size) == -1);
	CHECK(ed_symbol_size(&f, "tcx", 0x1010, &size) == 0 && size == 4);
	/* a symbol table reaching past the file, a name past the names, a
	 * link to a section that holds no names: nothing, no read outside */
	shdr(5, 0, 2, 0, 0, sizeof(img) - 8, 5 * ent);
	put(sh5 + 8 + 4 * w, 6, 4);
	CHECK(ed_symbol_size(&f, "tc", 0x1000, &size) == -1);
	shdr(5, 0, 2, 0, 0, 0x600, 5 * ent);
	put(sh5 + 8 + 4 * w, 1, 4);
	CHECK(ed_symbol_size(&f, "tc", 0x1000, &size) == -1);
	put(sh5 + 8 + 4 * w, 6, 4);
	put(0x600 + ent, 500, 4);
	CHECK(ed_symbol_size(&f, "tc", 0x1000, &size) == -1);
	put(sh5 + 8 + 4 * w, 9, 4);
	CHECK(ed_symbol_size(&f, "fn", 0x1000, &size) == -1);
	(void)sh6;
}

int main(void)
{
	struct ed_file f;
	struct ed_section s;

	one_layout(0, 1);
	one_layout(1, 1);
	one_layout(0, 0);
	one_layout(1, 0);
	symtab_layout(0, 1);
	symtab_layout(1, 1);
	symtab_layout(0, 0);
	symtab_layout(1, 0);

	/* not ELF, truncated, section headers outside the file */
	build(0, 1);
	CHECK(ed_open(&f, img, 40) == -1);
	img[0] = 'X';
	CHECK(ed_open(&f, img, sizeof(img)) == -1);
	build(0, 1);
	img[4] = 3;
	CHECK(ed_open(&f, img, sizeof(img)) == -1);
	build(0, 1);
	put(0x28, sizeof(img) - 64, 8);
	CHECK(ed_open(&f, img, sizeof(img)) == -1);
	build(0, 1);
	put(0x3a, 8, 2);
	CHECK(ed_open(&f, img, sizeof(img)) == -1);
	/* a section whose bytes lie past the end: no bytes */
	build(0, 1);
	shdr(1, 1, 1, 3, 0x1000, sizeof(img) - 8, 16);
	CHECK(ed_open(&f, img, sizeof(img)) == 0);
	CHECK(ed_bytes(&f, 0x1000, 4, NULL) == NULL);
	/* a name offset past the names, or names without a NUL */
	build(0, 1);
	shdr(1, 500, 1, 3, 0x1000, 0x100, 16);
	CHECK(ed_open(&f, img, sizeof(img)) == 0);
	CHECK(ed_section(&f, 1, &s) == 0);
	CHECK_STR(s.name, "");
	build(0, 1);
	shdr(3, 12, 3, 0, 0, 0x181, 5);
	CHECK(ed_open(&f, img, sizeof(img)) == 0 &&
	      ed_section(&f, 1, &s) == 0);
	CHECK_STR(s.name, "");
	/* extended numbering: the count in section 0's sh_size, the names'
	 * index in its sh_link */
	build(0, 1);
	put(0x3c, 0, 2);
	put(0x3e, 0xffff, 2);
	shdr(0, 0, 0, 0, 0, 0, 5);
	put(0x200 + 0x28, 3, 4);
	CHECK(ed_open(&f, img, sizeof(img)) == 0 && f.shnum == 5 &&
	      f.shstrndx == 3);
	CHECK(ed_bytes(&f, 0x1008, 8, &s) == img + 0x108);
	CHECK_STR(s.name, ".data");
	return unit_done("elfdata");
}
