/*
 * tracehunt: safe reads, type probes and bounded list walks.
 */
#include <stdarg.h>
#include "th.h"

int th_read(ulong addr, void *buf, long len, const char *what)
{
	if (!addr || len < 0)
		return FALSE;
	return readmem(addr, KVADDR, buf, len, (char *)what,
		       RETURN_ON_ERROR | QUIET);
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

ulong th_symbol(const char *name)
{
	struct syment *sp = symbol_search((char *)name);

	return sp ? sp->value : 0;
}

/* A small cache: datatype_info() goes through gdb and is slow. */
struct th_type_cache {
	char key[128];
	long val;
};
#define TH_TYPE_CACHE 512
static struct th_type_cache th_tc[TH_TYPE_CACHE];
static int th_tc_n;

static int th_tc_get(const char *key, long *val)
{
	int i;

	for (i = 0; i < th_tc_n; i++)
		if (strcmp(th_tc[i].key, key) == 0) {
			*val = th_tc[i].val;
			return TRUE;
		}
	return FALSE;
}

static void th_tc_put(const char *key, long val)
{
	if (th_tc_n >= TH_TYPE_CACHE || strlen(key) >= sizeof(th_tc[0].key))
		return;
	strcpy(th_tc[th_tc_n].key, key);
	th_tc[th_tc_n].val = val;
	th_tc_n++;
}

long th_member(const char *sname, const char *mname)
{
	char key[128];
	long v;

	snprintf(key, sizeof(key), "%s.%s", sname, mname);
	if (th_tc_get(key, &v))
		return v;
	v = MEMBER_OFFSET((char *)sname, (char *)mname);
	if (v < 0)
		v = -1;
	th_tc_put(key, v);
	return v;
}

long th_size(const char *sname)
{
	char key[128];
	long v;

	snprintf(key, sizeof(key), "%s#size", sname);
	if (th_tc_get(key, &v))
		return v;
	v = STRUCT_SIZE((char *)sname);
	if (v < 0)
		v = -1;
	th_tc_put(key, v);
	return v;
}

long th_member_any(const char *sname, const char *const *names,
		   const char **found)
{
	long v;

	for (; *names; names++) {
		v = th_member(sname, *names);
		if (v >= 0) {
			if (found)
				*found = *names;
			return v;
		}
	}
	return -1;
}

long th_enum(const char *name, long def)
{
	char key[128];
	long v;

	snprintf(key, sizeof(key), "enum:%s", name);
	if (th_tc_get(key, &v))
		return v;
	if (!enumerator_value((char *)name, &v))
		v = def;
	th_tc_put(key, v);
	return v;
}

int th_enum_exists(const char *name)
{
	const long missing = (long)0x7eadbeefcafe1234L;

	return th_enum(name, missing) != missing;
}

int th_kptr(ulong addr)
{
	/* x86_64 kernel half, canonical */
	return addr >= 0xffff800000000000UL;
}

void th_warn(const char *fmt, ...)
{
	va_list ap;

	fprintf(fp, "tracehunt: warning: ");
	va_start(ap, fmt);
	vfprintf(fp, fmt, ap);
	va_end(ap);
	fprintf(fp, "\n");
}

/*
 * Visited-pointer set for cycle detection: open addressing over GETBUF
 * memory (crash's own hq_* queue is global and may already be open).
 */
struct th_set {
	ulong *slot;
	long cap;
	long n;
};

static void th_set_init(struct th_set *s)
{
	s->cap = 256;
	s->n = 0;
	s->slot = (ulong *)GETBUF(s->cap * sizeof(ulong));
	memset(s->slot, 0, s->cap * sizeof(ulong));
}

static int th_set_add(struct th_set *s, ulong v);

static void th_set_grow(struct th_set *s)
{
	struct th_set o = *s;
	long i;

	s->cap *= 2;
	s->n = 0;
	s->slot = (ulong *)GETBUF(s->cap * sizeof(ulong));
	memset(s->slot, 0, s->cap * sizeof(ulong));
	for (i = 0; i < o.cap; i++)
		if (o.slot[i])
			th_set_add(s, o.slot[i]);
	FREEBUF(o.slot);
}

/* FALSE when V was already present. V must be non-zero. */
static int th_set_add(struct th_set *s, ulong v)
{
	ulong h;

	if (s->n * 2 >= s->cap)
		th_set_grow(s);
	h = (v * 0x9e3779b97f4a7c15UL) >> 20;
	for (;;) {
		h &= s->cap - 1;
		if (s->slot[h] == v)
			return FALSE;
		if (!s->slot[h]) {
			s->slot[h] = v;
			s->n++;
			return TRUE;
		}
		h++;
	}
}

static void th_walk_add(struct th_walk *w, long *cap, ulong ent)
{
	if (w->n >= *cap) {
		long ncap = *cap ? *cap * 2 : 64;
		ulong *n = (ulong *)GETBUF(ncap * sizeof(ulong));

		if (w->n)
			memcpy(n, w->ent, w->n * sizeof(ulong));
		if (w->ent)
			FREEBUF(w->ent);
		w->ent = n;
		*cap = ncap;
	}
	w->ent[w->n++] = ent;
}

static void th_walk(ulong start, ulong stop, long max, struct th_walk *w)
{
	struct th_set seen;
	long cap = 0;
	ulong cur = start, next;

	w->ent = NULL;
	w->n = 0;
	w->err = NULL;
	w->bad = 0;
	th_set_init(&seen);
	if (stop)
		th_set_add(&seen, stop);
	while (cur != stop) {
		if (!th_kptr(cur)) {
			w->err = "invalid pointer";
			w->bad = cur;
			break;
		}
		if (!th_set_add(&seen, cur)) {
			w->err = "cycle";
			w->bad = cur;
			break;
		}
		if (w->n >= max) {
			w->err = "too many entries";
			w->bad = cur;
			break;
		}
		if (!th_read_ulong(cur, &next, "list entry")) {
			w->err = "unreadable entry";
			w->bad = cur;
			break;
		}
		th_walk_add(w, &cap, cur);
		cur = next;
	}
	FREEBUF(seen.slot);
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

void th_walk_free(struct th_walk *w)
{
	if (w->ent)
		FREEBUF(w->ent);
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
	int n = 0, i;

	if (!mask) {
		ulong p = th_symbol("cpu_possible_mask");

		if (!p || !th_read_ulong(p, &mask, "cpu_possible_mask"))
			mask = 0;
	}
	if (!mask || !th_read(mask, bits, sizeof(bits), "cpu_possible_mask")) {
		for (i = 0; i < kt->cpus && n < max; i++)
			cpus[n++] = i;
		return n;
	}
	for (i = 0; i < (int)(sizeof(bits) * 8) && n < max; i++)
		if (bits[i / 64] & (1UL << (i % 64)))
			cpus[n++] = i;
	return n;
}

ulong th_percpu_ptr(ulong ptr, int cpu)
{
	if (cpu < 0 || cpu >= NR_CPUS)
		return 0;
	return ptr + kt->__per_cpu_offset[cpu];
}
