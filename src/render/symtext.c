/*
 * tracehunt: code addresses as the trace printers name them: the
 * kernel's seq_print_ip_sym() and "%ps", each text kept for the session
 * in a bounded cache (a function trace names the same few thousand
 * addresses millions of times).
 */
#include "render/trace_priv.h"

/* trace_seq_print_sym() + kretprobed(): name (+off/size [mod]) */
static void th_sym_plain(ulong ip, int offset, char *buf, size_t len)
{
	static ulong tramp = 1;
	struct th_sym s;

	if (tramp == 1) {
		/*
		 * kretprobed(): is_kretprobe_trampoline().  With
		 * CONFIG_KRETPROBE_ON_RETHOOK (73f9b911faa7 "kprobes: Use
		 * rethook for kretprobe if possible", with f3a112c0c40d for
		 * x86, v5.18) that is arch_rethook_trampoline; before, the
		 * kprobes trampoline (renamed with the __ prefix in v5.15).
		 */
		tramp = th_ksymbol("__kretprobe_trampoline");
		if (!tramp)
			tramp = th_ksymbol("kretprobe_trampoline");
		if (!tramp)
			tramp = th_ksymbol("arch_rethook_trampoline");
	}
	if (tramp && ip == tramp) {
		snprintf(buf, len, "[unknown/kretprobe'd]");
		return;
	}
	if (offset)
		th_ksym_pS(ip, buf, len);
	else if (th_ksym_lookup(ip, &s))
		th_strlcpy(buf, s.name, len);
	else
		buf[0] = '\0';
	if (!buf[0] || (offset && strncmp(buf, "0x", 2) == 0 &&
			!th_ksym_lookup(ip, &s)))
		snprintf(buf, len, "0x%08lx", ip);
}

/* seq_print_ip_sym() */
int th_ip_sym(char *out, size_t len, ulong ip, int sym_offset, int sym_addr)
{
	char name[384];

	if (!ip)
		return snprintf(out, len, "0");
	th_sym_plain(ip, sym_offset, name, sizeof(name));
	if (sym_addr)
		return snprintf(out, len, "%s <%016lx>", name, ip);
	return th_strlcpy(out, name, len);
}

/*
 * A function trace names the same few thousand addresses millions of
 * times: the text th_ip_sym() and th_ksym_ps() give each one, kept for
 * the session (the dump does not change) in an open-addressing table
 * that grows up to a fixed bound; past it, the text is made anew each time.
 */
#define TH_SYMC_MAX	(1U << 15)	/* entries, at most */
#define TH_SYMC_CHUNK	(64 * 1024)

/* One cache line a slot: the address, its mode and the text when short
 * (else a pointer into the arena). */
#define TH_SYMC_INLINE	52
struct th_symc {
	ulong ip;
	unsigned char tag;		/* mode + 1, 0: empty */
	unsigned char pad;
	unsigned short len;
	char in[TH_SYMC_INLINE];	/* the text, or its address */
} __attribute__((aligned(64)));
static struct th_symc *th_symc;
static unsigned th_symc_slots, th_symc_n;
static char *th_symc_arena;
static size_t th_symc_left;

static unsigned th_symc_hash(ulong ip, unsigned mode)
{
	return (unsigned)(((ip ^ mode) * 0x9e3779b97f4a7c15UL) >> 32);
}

static const char *th_symc_text(const struct th_symc *e)
{
	const char *p;

	if (e->len < TH_SYMC_INLINE)
		return e->in;
	memcpy(&p, e->in, sizeof(p));
	return p;
}

/* A copy of S (N bytes, NUL added) in the cache's arena, or NULL. */
static char *th_symc_store(const char *s, size_t n)
{
	char *p;

	if (n + 1 > th_symc_left) {
		th_symc_arena = malloc(TH_SYMC_CHUNK);
		if (!th_symc_arena) {
			th_symc_left = 0;
			return NULL;
		}
		th_symc_left = TH_SYMC_CHUNK;
	}
	p = th_symc_arena;
	memcpy(p, s, n);
	p[n] = '\0';
	th_symc_arena += n + 1;
	th_symc_left -= n + 1;
	return p;
}

/* Keep the text TMP (N bytes, NUL-terminated) in a cache slot's IN of
 * INL bytes: there when it fits, else a copy in the arena whose address
 * IN holds.  Where the text is kept; NULL when there is no memory. */
const char *th_slot_keep(char *in, size_t inl, const char *tmp, size_t n)
{
	char *p;

	if (n < inl) {
		memcpy(in, tmp, n + 1);
		return in;
	}
	p = th_symc_store(tmp, n);
	if (p)
		memcpy(in, &p, sizeof(p));
	return p;
}

void *th_table_grow(void *tab, unsigned *slots, size_t esz,
		    int (*slot_hash)(const void *slot, unsigned *h))
{
	unsigned n = *slots ? *slots * 2 : 4096, i, h;
	char *t = aligned_alloc(esz, n * esz), *old = tab;

	if (!t)
		return NULL;
	memset(t, 0, n * esz);
	for (i = 0; i < *slots; i++) {
		if (!slot_hash(old + i * esz, &h))
			continue;
		while (slot_hash(t + (h & (n - 1)) * esz, NULL))
			h++;
		memcpy(t + (h & (n - 1)) * esz, old + i * esz, esz);
	}
	free(old);
	*slots = n;
	return t;
}

/* th_table_grow() of the names' table (at most 2 x TH_SYMC_MAX slots) */
static int th_symc_slot(const void *slot, unsigned *h)
{
	const struct th_symc *e = slot;

	if (e->tag && h)
		*h = th_symc_hash(e->ip, e->tag - 1);
	return e->tag != 0;
}

static int th_symc_grow(void)
{
	struct th_symc *t = th_table_grow(th_symc, &th_symc_slots,
					  sizeof(*th_symc), th_symc_slot);

	if (t)
		th_symc = t;
	return t != NULL;
}

/* th_sym_cached() of an address not in the cache */
static const char * __attribute__((noinline))
th_sym_miss(ulong ip, unsigned mode, size_t *len, char *tmp)
{
	unsigned h, m, tag = mode + 1;
	struct th_symc *e;
	size_t n;

	if (mode & TH_SYMC_PS)
		th_ksym_ps(ip, tmp, 512);
	else
		th_ip_sym(tmp, 512, ip, mode & TH_SYMC_OFFSET,
			  mode & TH_SYMC_ADDR);
	n = strlen(tmp);
	*len = n;
	if (th_symc_n >= TH_SYMC_MAX)
		return tmp;
	/* at most half full: probes stay short and always end */
	if ((th_symc_n + 1) * 2 > th_symc_slots && !th_symc_grow())
		return tmp;
	m = th_symc_slots - 1;
	for (h = th_symc_hash(ip, mode) & m; th_symc[h].tag; h = (h + 1) & m)
		;
	e = &th_symc[h];
	if (!th_slot_keep(e->in, TH_SYMC_INLINE, tmp, n))
		return tmp;
	e->len = n;
	e->ip = ip;
	e->tag = tag;
	th_symc_n++;
	return th_symc_text(e);
}

/* The text for IP in MODE (TH_SYMC_*), as a 512-byte buffer holds it;
 * TMP (512 bytes) holds it when it cannot be kept. */
static inline const char *th_sym_cached(ulong ip, unsigned mode,
					size_t *len, char *tmp)
{
	unsigned h, m = th_symc_slots - 1, tag = mode + 1;

	if (th_symc_slots) {
		for (h = th_symc_hash(ip, mode) & m; th_symc[h].tag;
		     h = (h + 1) & m)
			if (th_symc[h].ip == ip && th_symc[h].tag == tag) {
				*len = th_symc[h].len;
				return th_symc_text(&th_symc[h]);
			}
	}
	return th_sym_miss(ip, mode, len, tmp);
}

const char *th_sym_text(ulong ip, unsigned mode, size_t *len, char *tmp)
{
	return th_sym_cached(ip, mode, len, tmp);
}

const char *th_ksym_ps_cached(ulong addr, size_t *len)
{
	static char tmp[512];

	return th_sym_cached(addr, TH_SYMC_PS, len, tmp);
}
