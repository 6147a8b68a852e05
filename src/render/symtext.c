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

/* ---------------------------------------------------------- th_txc --- */

#define TH_TXC_CHUNK	(64 * 1024)

/* E into the first free slot of the index SLOT (N slots) from its hash. */
static void th_txc_link(struct th_txc_ent **slot, unsigned n,
			struct th_txc_ent *e)
{
	unsigned i;

	for (i = e->h & (n - 1); slot[i]; i = (i + 1) & (n - 1))
		;
	slot[i] = e;
}

/* C's index with twice the slots (4096 at first); 0 without memory. */
static int th_txc_grow(struct th_txc *c)
{
	unsigned n = c->slots ? c->slots * 2 : 4096, i;
	struct th_txc_ent **t = calloc(n, sizeof(*t));

	if (!t)
		return 0;
	for (i = 0; i < c->slots; i++)
		if (c->slot[i])
			th_txc_link(t, n, c->slot[i]);
	free(c->slot);
	c->slot = t;
	c->slots = n;
	return 1;
}

const char *th_txc_put(struct th_txc *c, unsigned h, ulong a, ulong b,
		       unsigned mode, const char *text, size_t n)
{
	size_t need = (offsetof(struct th_txc_ent, text) + n + 1 + 7) & ~7UL;
	struct th_txc_ent *e;

	if (c->n >= c->max || n > 0xffff || mode > 0xff)
		return NULL;
	/* at most half full: probes stay short and always end */
	if ((c->n + 1) * 2 > c->slots && !th_txc_grow(c))
		return NULL;
	if (need > c->left) {
		/* chunks are never freed: the texts live for the session;
		 * the slack keeps TH_TXC_SLACK bytes readable after each */
		size_t sz = MAX(need, (size_t)TH_TXC_CHUNK);
		char *k = malloc(sz + TH_TXC_SLACK);

		if (!k)
			return NULL;
		c->free = k;
		c->left = sz;
	}
	e = (struct th_txc_ent *)c->free;
	c->free += need;
	c->left -= need;
	e->a = a;
	e->b = b;
	e->h = h;
	e->len = n;
	e->mode = mode;
	memcpy(e->text, text, n);
	e->text[n] = '\0';
	th_txc_link(c->slot, c->slots, e);
	c->n++;
	return e->text;
}

/*
 * A function trace names the same few thousand addresses millions of
 * times: the text th_ip_sym() and th_ksym_ps() give each one, kept for
 * the session (the dump does not change), up to a fixed number; past it,
 * the text is made anew each time.
 */
#define TH_SYMC_MAX	(1U << 15)	/* entries, at most */
static struct th_txc th_symc = { .max = TH_SYMC_MAX };

static unsigned th_symc_hash(ulong ip, unsigned mode)
{
	return (unsigned)(((ip ^ mode) * 0x9e3779b97f4a7c15UL) >> 32);
}

/* th_sym_cached() of an address not in the cache */
static const char * __attribute__((noinline))
th_sym_miss(ulong ip, unsigned mode, size_t *len, char *tmp)
{
	const char *kept;
	size_t n;

	if (mode & TH_SYMC_PS)
		th_ksym_ps(ip, tmp, 512);
	else
		th_ip_sym(tmp, 512, ip, mode & TH_SYMC_OFFSET,
			  mode & TH_SYMC_ADDR);
	n = strlen(tmp);
	*len = n;
	kept = th_txc_put(&th_symc, th_symc_hash(ip, mode), ip, 0, mode,
			  tmp, n);
	return kept ? kept : tmp;
}

/* The text for IP in MODE (TH_SYMC_*), as a 512-byte buffer holds it;
 * TMP (512 bytes) holds it when it cannot be kept. */
static inline const char *th_sym_cached(ulong ip, unsigned mode,
					size_t *len, char *tmp)
{
	const struct th_txc_ent *e = th_txc_find(&th_symc,
						 th_symc_hash(ip, mode),
						 ip, 0, mode);

	if (e) {
		*len = e->len;
		return e->text;
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
