/*
 * tracehunt: the initial bytes an ELF file gives a range of addresses
 * (elfdata.h).  Every offset and size read from the file is checked
 * against the file's length before it is used: the file may be anything.
 */
#include <string.h>
#include "elfdata.h"

#define ED_EHDR64	64	/* sizeof(Elf64_Ehdr) */
#define ED_EHDR32	52
#define ED_SHDR64	64	/* sizeof(Elf64_Shdr) */
#define ED_SHDR32	40
#define ED_SHT_PROGBITS	1
#define ED_SHT_SYMTAB	2
#define ED_SHT_STRTAB	3
#define ED_SHF_ALLOC	2
#define ED_SHN_XINDEX	0xffff

uint64_t ed_uint(const struct ed_file *f, const unsigned char *p, int size)
{
	uint64_t v = 0;
	uint32_t u;
	int i;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* (the symbol table's scan reads 150,000 of them) */
	if (!f->big && size == 8) {
		memcpy(&v, p, 8);
		return v;
	}
	if (!f->big && size == 4) {
		memcpy(&u, p, 4);
		return u;
	}
#endif
	for (i = 0; i < size; i++)
		v |= (uint64_t)p[f->big ? size - 1 - i : i] << (8 * i);
	return v;
}

/* Is [OFF, OFF + N) inside the file? */
static int ed_inside(const struct ed_file *f, uint64_t off, uint64_t n)
{
	return off <= f->len && n <= f->len - off;
}

/* The raw fields of section header I: 0, or -1 outside the file. */
static int ed_shdr(const struct ed_file *f, unsigned i, uint32_t *name,
		   struct ed_section *s, uint64_t *offset, uint32_t *link)
{
	const unsigned char *p;
	int w = f->is64 ? 8 : 4;

	if (i >= f->shnum)
		return -1;
	p = f->buf + f->shoff + (uint64_t)i * f->shentsize;
	*name = (uint32_t)ed_uint(f, p, 4);
	s->type = (uint32_t)ed_uint(f, p + 4, 4);
	s->flags = ed_uint(f, p + 8, w);
	s->addr = ed_uint(f, p + 8 + w, w);
	*offset = ed_uint(f, p + 8 + 2 * w, w);
	s->size = ed_uint(f, p + 8 + 3 * w, w);
	*link = (uint32_t)ed_uint(f, p + 8 + 4 * w, 4);
	return 0;
}

int ed_open(struct ed_file *f, const unsigned char *buf, size_t len)
{
	struct ed_section s0;
	uint64_t off0;
	uint32_t name0, link0;
	unsigned min;

	memset(f, 0, sizeof(*f));
	if (!buf || len < ED_EHDR32 || memcmp(buf, "\177ELF", 4) ||
	    (buf[4] != 1 && buf[4] != 2) || (buf[5] != 1 && buf[5] != 2))
		return -1;
	f->buf = buf;
	f->len = len;
	f->is64 = buf[4] == 2;
	f->big = buf[5] == 2;
	if (f->is64 && len < ED_EHDR64)
		return -1;
	if (f->is64) {
		f->shoff = ed_uint(f, buf + 0x28, 8);
		f->shentsize = (unsigned)ed_uint(f, buf + 0x3a, 2);
		f->shnum = (unsigned)ed_uint(f, buf + 0x3c, 2);
		f->shstrndx = (unsigned)ed_uint(f, buf + 0x3e, 2);
	} else {
		f->shoff = ed_uint(f, buf + 0x20, 4);
		f->shentsize = (unsigned)ed_uint(f, buf + 0x2e, 2);
		f->shnum = (unsigned)ed_uint(f, buf + 0x30, 2);
		f->shstrndx = (unsigned)ed_uint(f, buf + 0x32, 2);
	}
	min = f->is64 ? ED_SHDR64 : ED_SHDR32;
	if (!f->shoff || f->shentsize < min || !ed_inside(f, f->shoff,
							    f->shentsize))
		goto bad;
	/* more than SHN_LORESERVE sections: section 0 holds the count
	 * (sh_size) and the names' index (sh_link) */
	if (!f->shnum || f->shstrndx == ED_SHN_XINDEX) {
		unsigned n = f->shnum;

		f->shnum = 1;
		ed_shdr(f, 0, &name0, &s0, &off0, &link0);
		if (!n && (s0.size > 0xffffffffULL || !s0.size))
			goto bad;
		f->shnum = n ? n : (unsigned)s0.size;
		if (f->shstrndx == ED_SHN_XINDEX)
			f->shstrndx = link0;
	}
	if (!ed_inside(f, f->shoff, (uint64_t)f->shnum * f->shentsize))
		goto bad;
	return 0;
bad:
	memset(f, 0, sizeof(*f));
	return -1;
}

/* The NUL-terminated name at OFF of the section names, or "". */
static const char *ed_name(const struct ed_file *f, uint32_t off)
{
	struct ed_section t;
	uint64_t toff;
	uint32_t tname, tlink;
	const char *p;

	if (f->shstrndx >= f->shnum ||
	    ed_shdr(f, f->shstrndx, &tname, &t, &toff, &tlink) ||
	    !ed_inside(f, toff, t.size) || off >= t.size)
		return "";
	p = (const char *)f->buf + toff;
	return memchr(p + off, 0, t.size - off) ? p + off : "";
}

int ed_section(const struct ed_file *f, unsigned i, struct ed_section *s)
{
	uint64_t off;
	uint32_t name, link;

	memset(s, 0, sizeof(*s));
	if (!f->buf || i >= f->shnum || ed_shdr(f, i, &name, s, &off, &link))
		return -1;
	s->name = ed_name(f, name);
	if (s->type != 8 /* SHT_NOBITS */ && ed_inside(f, off, s->size))
		s->bytes = f->buf + off;
	return 0;
}

const unsigned char *ed_bytes(const struct ed_file *f, uint64_t addr,
			      uint64_t len, struct ed_section *s)
{
	struct ed_section t;
	uint64_t off;
	uint32_t name, link;
	unsigned i;

	for (i = 1; i < f->shnum; i++) {
		/* the header's fields first, the name of the one that holds
		 * ADDR only */
		if (ed_shdr(f, i, &name, &t, &off, &link) ||
		    t.type != ED_SHT_PROGBITS || !(t.flags & ED_SHF_ALLOC) ||
		    addr < t.addr || len > t.size ||
		    addr - t.addr > t.size - len ||
		    ed_section(f, i, &t) || !t.bytes)
			continue;
		if (s)
			*s = t;
		return t.bytes + (addr - t.addr);
	}
	return NULL;
}

int ed_symbol_size(const struct ed_file *f, const char *name, uint64_t addr,
		   uint64_t *size)
{
	struct ed_section s, t;
	uint64_t off, toff, ent = f->is64 ? 24 : 16, n, i;
	uint32_t nm, link, tnm, tlink;
	size_t nlen = strlen(name);
	int w = f->is64 ? 8 : 4;
	unsigned k;

	if (!f->buf)
		return -1;
	for (k = 1; k < f->shnum; k++) {
		if (ed_shdr(f, k, &nm, &s, &off, &link) ||
		    s.type != ED_SHT_SYMTAB || !ed_inside(f, off, s.size) ||
		    ed_shdr(f, link, &tnm, &t, &toff, &tlink) ||
		    t.type != ED_SHT_STRTAB || !ed_inside(f, toff, t.size))
			continue;
		n = s.size / ent;
		/* Elf64_Sym: name, info, other, shndx, value, size;
		 * Elf32_Sym: name, value, size, info, other, shndx */
		for (i = 1; i < n; i++) {
			const unsigned char *p = f->buf + off + i * ent;
			uint64_t so;

			if (ed_uint(f, p + (f->is64 ? 8 : 4), w) != addr)
				continue;
			so = ed_uint(f, p, 4);
			if (so >= t.size || t.size - so <= nlen ||
			    memcmp(f->buf + toff + so, name, nlen + 1))
				continue;
			*size = ed_uint(f, p + (f->is64 ? 16 : 8), w);
			return 0;
		}
	}
	return -1;
}
