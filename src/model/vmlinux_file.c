/*
 * tracehunt: the vmlinux file's initial bytes of the kernel's static
 * objects (issue 27).  Some static objects of the kernel image are never
 * written once the kernel is built: trace_clocks[]'s entries, a tracer's
 * name, callbacks and flags.  What the dump holds there must be what the
 * file crash opened (pc->namelist, and pc->namelist_debug when it is
 * another file) holds, pointers moved by the KASLR offset; lib/elfdata.c
 * finds the file's bytes, this file maps the files and compares.
 */
#include <fcntl.h>
#include <limits.h>
#include <sys/mman.h>
#include <unistd.h>
#include "model/vmlinux_file.h"
#include "elfdata.h"

static struct {
	int tried;
	int n;
	struct ed_file f[2];
} thv;

/* Map PATH and keep it when it is ELF. */
static void thv_map(const char *path)
{
	off_t size;
	void *p;
	int fd;

	if (!path || !*path || thv.n >= 2 || (fd = open(path, O_RDONLY)) < 0)
		return;
	/* (the size by lseek(): fstat() is a symbol of glibc 2.33+ only,
	 * and the extension built here also loads into bullseye's crash) */
	size = lseek(fd, 0, SEEK_END);
	p = size > 0 ? mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0) :
		MAP_FAILED;
	close(fd);
	if (p == MAP_FAILED)
		return;
	if (ed_open(&thv.f[thv.n], p, size) == 0)
		thv.n++;
	else
		munmap(p, size);
}

static void thv_load(void)
{
	if (thv.tried)
		return;
	thv.tried = TRUE;
	thv_map(pc->namelist);
	if (pc->namelist_debug && (!pc->namelist ||
				   strcmp(pc->namelist, pc->namelist_debug)))
		thv_map(pc->namelist_debug);
}

/* The dump's address of the file's ADDR is ADDR + this (KASLR: crash
 * relocates the file's symbols by subtracting kt->relocate). */
static long thv_delta(void)
{
	return -(long)kt->relocate;
}

/* th_vmlinux_bytes(), and the file they come from in *FROM. */
static const unsigned char *thv_bytes(ulong addr, long len,
				      const struct ed_file **from)
{
	struct ed_section s;
	const unsigned char *p;
	int r = th_region(addr), i;

	if (len <= 0 || (r != TH_R_TEXT && r != TH_R_IMAGE))
		return NULL;
	thv_load();
	for (i = 0; i < thv.n; i++) {
		p = ed_bytes(&thv.f[i], addr - thv_delta(), len, &s);
		if (!p)
			continue;
		/* freed after boot: another object may live there now */
		if (!strncmp(s.name, ".init", 5) || !strncmp(s.name, ".exit", 5))
			return NULL;
		*from = &thv.f[i];
		return p;
	}
	return NULL;
}

const unsigned char *th_vmlinux_file_bytes(ulong addr, ulong len)
{
	const unsigned char *p;
	int i;

	thv_load();
	for (i = 0; i < thv.n; i++)
		if ((p = ed_bytes(&thv.f[i], addr, len, NULL)))
			return p;
	return NULL;
}

const unsigned char *th_vmlinux_bytes(ulong addr, long len)
{
	const struct ed_file *from;

	return thv_bytes(addr, len, &from);
}

long th_vmlinux_symbol_size(const char *name)
{
	ulong addr = th_symbol(name);
	uint64_t size;
	int i;

	if (!addr)
		return -1;
	thv_load();
	for (i = 0; i < thv.n; i++)
		if (ed_symbol_size(&thv.f[i], name, addr - thv_delta(),
				   &size) == 0 ||
		    /* a per-CPU variable's value is its offset in the per-CPU
		     * area, which KASLR does not move */
		    (thv_delta() && ed_symbol_size(&thv.f[i], name, addr,
						   &size) == 0))
			return size > (uint64_t)LONG_MAX ? -1 : (long)size;
	return -1;
}

long th_vmlinux_array_len(const char *name, long elem)
{
	long size = th_vmlinux_symbol_size(name);

	if (size > 0 && elem > 0 && size % elem == 0)
		return size / elem;
	return th_array_len(name);
}

const unsigned char *th_vmlinux_section(const char *name, size_t *len)
{
	struct ed_section s;
	unsigned j;
	int i;

	thv_load();
	for (i = 0; i < thv.n; i++)
		for (j = 0; j < thv.f[i].shnum; j++)
			if (ed_section(&thv.f[i], j, &s) == 0 && s.bytes &&
			    s.type == 1 /* SHT_PROGBITS */ &&
			    !strcmp(s.name, name)) {
				*len = s.size;
				return s.bytes;
			}
	return NULL;
}

/* The value of the field F of the object at ADDR in the file (*FILE) and
 * in the dump (*DUMP): FALSE when either cannot be read. */
static int thv_field(const char *object, ulong addr,
		     const struct th_static_field *f, uint64_t *file,
		     uint64_t *dump)
{
	const struct ed_file *from;
	const unsigned char *p;
	union {
		uint8_t u8;
		uint16_t u16;
		uint32_t u32;
		uint64_t u64;
	} v;
	char what[96];

	if (f->off < 0 || (f->size != 1 && f->size != 2 && f->size != 4 &&
			   f->size != 8) ||
	    !(p = thv_bytes(addr + f->off, f->size, &from)))
		return FALSE;
	snprintf(what, sizeof(what), "%s.%s", object, f->name);
	if (!th_read(addr + f->off, &v, f->size, what))
		return FALSE;
	/* the file in its own byte order, the dump in the host's */
	*file = ed_uint(from, p, f->size);
	*dump = f->size == 1 ? v.u8 : f->size == 2 ? v.u16 :
		f->size == 4 ? v.u32 : v.u64;
	return TRUE;
}

int th_static_check(const char *object, ulong addr,
		    const struct th_static_field *fields, int n)
{
	uint64_t file, dump, want;
	int i, bad = 0;

	for (i = 0; i < n; i++) {
		const struct th_static_field *f = &fields[i];

		if (!thv_field(object, addr, f, &file, &dump) ||
		    (f->ptr == TH_STATIC_SET && !file))
			continue;
		want = f->ptr && file ? file + thv_delta() : file;
		if (dump == want)
			continue;
		bad++;
		th_damaged(object, addr, "%s %#llx differs from the vmlinux "
			   "file's initial %#llx, which the kernel never "
			   "changes", f->name, (unsigned long long)dump,
			   (unsigned long long)want);
	}
	return bad;
}
