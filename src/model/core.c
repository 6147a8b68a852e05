/*
 * tracehunt: safe reads and bounded list walks (the type probes:
 * types.c).
 */
#include <stdarg.h>
#include "model/model.h"
#include "model/handoff.h"
#include "walk.h"
#include "insn.h"

/*
 * A few pages of dump memory copied for one command's small reads (a
 * struct's fields read one by one, the events' names and formats, list
 * nodes side by side): one read of the dump a page instead of one a
 * field; on an ELF dump each is a seek and a read system call, on a
 * compressed one a look-up of crash's cache.  The least recently used
 * page goes first; all go when the next command starts (crash on a live
 * kernel: its memory moves between commands).  The bytes are the dump's
 * either way, and the read log still has every read.
 */
#define TH_RC_N		16
#define TH_RC_SMALL	512	/* longer reads go to the dump directly */
static struct {
	ulong at;		/* the page, 0: none */
	char *page;
	unsigned long used;
} th_rc[TH_RC_N];
static ulong th_rc_cmd = (ulong)-1;
static unsigned long th_rc_clock;

/* The copy of the dump's PAGE, or NULL when it cannot be read whole. */
static const char *th_rc_page(ulong page)
{
	int i, old = 0;

	if (th_rc_cmd != pc->cmdgencur) {
		th_rc_cmd = pc->cmdgencur;
		for (i = 0; i < TH_RC_N; i++)
			th_rc[i].at = 0;
	}
	for (i = 0; i < TH_RC_N; i++) {
		if (th_rc[i].at == page) {
			th_rc[i].used = ++th_rc_clock;
			return th_rc[i].page;
		}
		if (th_rc[i].used < th_rc[old].used)
			old = i;
	}
	th_rc[old].at = 0;
	if (!th_rc[old].page && !(th_rc[old].page = malloc(PAGESIZE())))
		return NULL;
	if (!readmem(page, KVADDR, th_rc[old].page, PAGESIZE(), "page",
		     RETURN_ON_ERROR | QUIET))
		return NULL;
	th_rc[old].at = page;
	th_rc[old].used = ++th_rc_clock;
	return th_rc[old].page;
}

/* th_read() of the helper thread, made on crash's thread */
struct th_read_call {
	ulong addr;
	void *buf;
	long len;
	const char *what;
	int ok;
};

static void th_read_served(void *arg)
{
	struct th_read_call *r = arg;

	r->ok = th_read(r->addr, r->buf, r->len, r->what);
}

int th_read(ulong addr, void *buf, long len, const char *what)
{
	ulong page = addr & ~((ulong)PAGESIZE() - 1);
	const char *p;

	if (!addr || len < 0)
		return FALSE;
	if (th_on_helper()) {
		struct th_read_call r = { addr, buf, len, what, FALSE };

		return th_handoff_call(th_read_served, &r) && r.ok;
	}
	if (len <= TH_RC_SMALL && (addr + len - 1) / PAGESIZE() ==
	    addr / PAGESIZE() && (p = th_rc_page(page))) {
		memcpy(buf, p + (addr - page), len);
		th_readlog(addr, len, what);
		return TRUE;
	}
	/* (a page that cannot be read whole: the bytes asked for alone) */
	if (!readmem(addr, KVADDR, buf, len, (char *)what,
		     RETURN_ON_ERROR | QUIET))
		return FALSE;
	th_readlog(addr, len, what);
	return TRUE;
}

int th_read_via(struct th_pagecopy *pc, ulong addr, void *buf, long len,
		const char *what)
{
	ulong page = addr & ~((ulong)PAGESIZE() - 1);

	if (!addr || len < 0 || (addr + len - 1) / PAGESIZE() !=
	    addr / PAGESIZE() || th_on_helper())
		return th_read(addr, buf, len, what);
	if (pc->at != page) {
		pc->at = 0;
		if (!pc->page && !(pc->page = malloc(PAGESIZE())))
			return th_read(addr, buf, len, what);
		/* a page that cannot be read whole: as th_read() would */
		if (!readmem(page, KVADDR, pc->page, PAGESIZE(), (char *)what,
			     RETURN_ON_ERROR | QUIET))
			return th_read(addr, buf, len, what);
		pc->at = page;
	}
	memcpy(buf, pc->page + (addr - page), len);
	th_readlog(addr, len, what);
	return TRUE;
}

void th_pagecopy_free(struct th_pagecopy *pc)
{
	free(pc->page);
	pc->page = NULL;
	pc->at = 0;
}

int th_read_ulong(ulong addr, ulong *val, const char *what)
{
	*val = 0;
	return th_read(addr, val, sizeof(*val), what);
}

int th_read_uint(ulong addr, unsigned int *val, const char *what)
{
	*val = 0;
	return th_read(addr, val, sizeof(*val), what);
}

int th_read_int(ulong addr, int *val, const char *what)
{
	*val = 0;
	return th_read(addr, val, sizeof(*val), what);
}

int th_read_u64(ulong addr, uint64_t *val, const char *what)
{
	*val = 0;
	return th_read(addr, val, sizeof(*val), what);
}

int th_ulong_cmp(const void *a, const void *b)
{
	ulong x = *(const ulong *)a, y = *(const ulong *)b;

	return x < y ? -1 : x > y;
}

int th_read_cstr(ulong addr, char *buf, int len, const char *what)
{
	int i, n;

	if (len <= 0)
		return FALSE;
	buf[0] = '\0';
	if (!addr)
		return FALSE;
	/* Read in chunks that never cross a page, so a string that ends just
	 * before an unreadable page is still read. */
	for (i = 0; i < len - 1; i += n) {
		ulong a = addr + i;
		n = PAGESIZE() - (a & (PAGESIZE() - 1));
		if (n > len - 1 - i)
			n = len - 1 - i;
		if (!th_read(a, buf + i, n, what)) {
			buf[i] = '\0';
			return i > 0 && memchr(buf, '\0', i) != NULL;
		}
		if (memchr(buf + i, '\0', n))
			return TRUE;
	}
	buf[len - 1] = '\0';
	return TRUE;
}

/**
 * th_code_strings - the strings a kernel function's code loads: where no
 * type, member or symbol tells two forms of the kernel's output apart,
 * its own format strings do
 * @fn: the function's name
 * @codelen: how many bytes of its code to walk (insn_data_refs())
 * @out: each string's first TH_CODE_STR - 1 bytes, in the order the code
 *       loads them; "" for one that cannot be read
 * @max: room in @out
 *
 * Return: how many, -1 when the kernel has no @fn or its code cannot be
 * read.
 */
int th_code_strings(const char *fn, size_t codelen, char (*out)[TH_CODE_STR],
		    int max)
{
	ulong addr = th_symbol(fn);
	uint64_t refs[48];
	unsigned char *code;
	int i, n;

	if (!addr || !(code = malloc(codelen)))
		return -1;
	if (!th_read(addr, code, codelen, "function code")) {
		free(code);
		return -1;
	}
	n = insn_data_refs(code, codelen, addr, refs,
			   max < 48 ? max : 48);
	free(code);
	for (i = 0; i < n; i++)
		th_read_cstr(refs[i], out[i], TH_CODE_STR, "format string");
	return n;
}

/* The text the char * at ADDR points to (its pointer in *PTR when PTR is
 * given): FALSE when the pointer or the text cannot be read, or is NULL. */
int th_read_strp(ulong addr, char *buf, int len, const char *what,
		 ulong *ptr)
{
	ulong p = 0;

	if (len > 0)
		buf[0] = '\0';
	if (ptr)
		*ptr = 0;
	if (!th_read_ulong(addr, &p, what) || !p)
		return FALSE;
	if (ptr)
		*ptr = p;
	return th_read_cstr(p, buf, len, what);
}

/* th_symbol() or th_ksymbol() of the helper thread, on crash's thread */
struct th_sym_call {
	const char *name;
	int kernel_only;
	ulong value;
};

static void th_symbol_served(void *arg)
{
	struct th_sym_call *c = arg;

	c->value = c->kernel_only ? th_ksymbol(c->name) : th_symbol(c->name);
}

static ulong th_symbol_handoff(const char *name, int kernel_only)
{
	struct th_sym_call c = { name, kernel_only, 0 };

	return th_handoff_call(th_symbol_served, &c) ? c.value : 0;
}

ulong th_symbol(const char *name)
{
	struct syment *sp;

	if (th_on_helper())
		return th_symbol_handoff(name, FALSE);
	sp = symbol_search((char *)name);
	return sp ? sp->value : 0;
}

/* symbol_search() of a name the kernel itself may not have costs a
 * linear scan of every module's symbols (0.4 ms on a small dump); a
 * name only the kernel image can hold is asked of its hash alone. */
ulong th_ksymbol(const char *name)
{
	struct syment *sp;

	if (th_on_helper())
		return th_symbol_handoff(name, TRUE);
	sp = kernel_symbol_search((char *)name);
	return sp ? sp->value : 0;
}

int th_kptr(ulong addr)
{
	/* x86_64 kernel half, canonical */
	return addr >= 0xffff800000000000UL;
}

static int th_walk_read(void *ctx, uint64_t addr, uint64_t *val)
{
	ulong v;

	if (!th_read_ulong(addr, &v, "list entry"))
		return 0;
	*val = v;
	return 1;
}

/* The same through CTX, the walk's page copy: nodes in one page, as the
 * static objects of a kind often are (the events of ftrace_events: 1,300
 * on 6.1), cost one read of the dump. */
static int th_walk_read_via(void *ctx, uint64_t addr, uint64_t *val)
{
	ulong v = 0;

	if (!th_read_via(ctx, addr, &v, sizeof(v), "list entry"))
		return 0;
	*val = v;
	return 1;
}

static int th_walk_valid(void *ctx, uint64_t addr)
{
	return th_kptr(addr);
}

static void th_walk(ulong start, ulong stop, long max, struct th_walk *w)
{
	struct th_pagecopy pc = { 0 };
	struct lw_result r;

	if (lw_walk(start, stop, max, th_walk_read_via, th_walk_valid, &pc,
		    &r) < 0 && !r.err)
		r.err = "out of memory";
	th_pagecopy_free(&pc);
	w->ent = (ulong *)r.ent;
	w->n = r.n;
	w->err = r.err;
	w->bad = r.bad;
}

void th_list_walk(ulong head, long max, struct th_walk *w)
{
	ulong first;

	if (!th_read_ulong(head, &first, "list head")) {
		w->ent = NULL;
		w->n = 0;
		w->err = "unreadable list head";
		w->bad = head;
		return;
	}
	th_walk(first, head, max, w);
}

void th_hlist_walk(ulong first, long max, struct th_walk *w)
{
	th_walk(first, 0, max, w);
}

void th_chain_walk(ulong first, long next_off, long max, struct th_walk *w)
{
	struct th_pagecopy pc = { 0 };
	struct lw_result r;

	if (lw_walk_at(first, 0, next_off, max, th_walk_read_via,
		       th_walk_valid, &pc, &r) < 0 && !r.err)
		r.err = "out of memory";
	th_pagecopy_free(&pc);
	w->ent = (ulong *)r.ent;
	w->n = r.n;
	w->err = r.err;
	w->bad = r.bad;
}

/* a node of a tree whose nodes lie in the regions of *ctx */
static int th_walk_valid_in(void *ctx, uint64_t addr)
{
	return th_kptr(addr) && th_ptr_in(addr, *(unsigned *)ctx);
}

/**
 * th_rb_walk - in-order walk of a kernel rbtree
 * @root: the struct rb_root
 * @mask: the regions its nodes may lie in (TH_M(TH_R_*)), 0: anywhere
 * @max: at most this many nodes
 * @w: the rb_node addresses in order, or where the walk broke
 */
void th_rb_walk(ulong root, unsigned mask, long max, struct th_walk *w)
{
	static long node = -2, left, right;
	struct lw_result r;
	ulong first;

	if (node == -2) {
		node = th_member("rb_root", "rb_node");
		left = th_member("rb_node", "rb_left");
		right = th_member("rb_node", "rb_right");
	}
	memset(w, 0, sizeof(*w));
	if (node < 0 || left < 0 || right < 0) {
		w->err = "no struct rb_node in the debuginfo";
		return;
	}
	if (!th_read_ulong(root + node, &first, "rb_root.rb_node")) {
		w->err = "unreadable rb_root";
		w->bad = root;
		return;
	}
	if (lw_rb_walk(first, left, right, max, th_walk_read,
		       mask ? th_walk_valid_in : th_walk_valid, &mask,
		       &r) < 0 && !r.err)
		r.err = "out of memory";
	w->ent = (ulong *)r.ent;
	w->n = r.n;
	w->err = r.err;
	w->bad = r.bad;
}

void th_walk_free(struct th_walk *w)
{
	free(w->ent);
	w->ent = NULL;
	w->n = 0;
}

/*
 * Possible CPUs, as for_each_possible_cpu() walks them: the bits of
 * __cpu_possible_mask; older kernels only have cpu_possible_mask, a
 * pointer to the bitmap.
 */
int th_possible_cpus(int *cpus, int max)
{
	ulong mask = th_symbol("__cpu_possible_mask"), bits[16];
	long msize = th_size("cpumask");
	int n = 0, i, nbits = sizeof(bits) * 8;

	if (!mask) {
		ulong p = th_symbol("cpu_possible_mask");

		if (!p || !th_read_ulong(p, &mask, "cpu_possible_mask"))
			mask = 0;
	}
	/* a struct cpumask of the kernel's NR_CPUS bits (2 on a small
	 * kernel: the words after it are other variables) */
	if (msize > 0 && msize < (long)sizeof(bits))
		nbits = msize * 8;
	memset(bits, 0, sizeof(bits));
	if (!mask || !th_read(mask, bits, nbits / 8, "cpu_possible_mask")) {
		for (i = 0; i < kt->cpus && n < max; i++)
			cpus[n++] = i;
		return n;
	}
	for (i = 0; i < nbits && n < max; i++)
		if (bits[i / 64] & (1UL << (i % 64)))
			cpus[n++] = i;
	if (!n && max > 0) {
		/* the CPU that crashed was possible: the CPUs crash knows */
		th_damaged("cpu_possible_mask", mask, "no CPU; the %d CPUs "
			   "crash knows are used", kt->cpus);
		for (i = 0; i < kt->cpus && n < max; i++)
			cpus[n++] = i;
	}
	return n;
}

ulong th_percpu_ptr(ulong ptr, int cpu)
{
	if (cpu < 0 || cpu >= NR_CPUS)
		return 0;
	return ptr + kt->__per_cpu_offset[cpu];
}
