/*
 * tracehunt: the one reader of struct ftrace_hash and its struct
 * ftrace_func_entry chains: ops filter and notrace hashes,
 * direct_functions, the graph filter hashes, function probe mappers.
 *
 * A hash is read in bulk (its bucket array in one read, each entry in
 * one), kept in the kernel's bucket order, with an index by ip for
 * lookups.
 */
#include "model/ftrace_ops.h"

#define THF_MAX_HASH_BITS 24

/* FTRACE_HASH_FL_MOD: a #define (bit 0 of hash->flags since it exists),
 * not in debuginfo */
#define THF_HASH_FL_MOD	1UL

/* struct ftrace_hash */
struct thf_hash_off {
	long size_bits, buckets, count;
	long flags;
};

/* struct ftrace_func_entry */
struct thf_entry_off {
	long hlist, ip;
	long direct;
	long size;
};

static const struct thf_hash_off *thf_hash_off(void)
{
	static struct thf_hash_off o;
	static int filled;

	if (!filled) {
		o.size_bits = th_member("ftrace_hash", "size_bits");
		o.buckets = th_member("ftrace_hash", "buckets");
		o.count = th_member("ftrace_hash", "count");
		/* Linux kernel commit 8c08f0d5c6fb ("ftrace: Have cached
		 * module filters be an active filter") (in v4.13) added
		 * hash->flags: read when there */
		o.flags = th_member("ftrace_hash", "flags");
		filled = TRUE;
	}
	return &o;
}

static const struct thf_entry_off *thf_entry_off(void)
{
	static struct thf_entry_off o;
	static int filled;

	if (!filled) {
		o.hlist = th_member("ftrace_func_entry", "hlist");
		o.ip = th_member("ftrace_func_entry", "ip");
		/* Linux kernel commit 763e34e74bb7 ("ftrace: Add
		 * register_ftrace_direct()") (in v5.5) added entry->direct:
		 * 0 before */
		o.direct = th_member("ftrace_func_entry", "direct");
		o.size = th_size("ftrace_func_entry");
		filled = TRUE;
	}
	return &o;
}

/* Both types known well enough to read a hash (an entry in one read). */
static int thf_hash_types_known(void)
{
	const struct thf_hash_off *h = thf_hash_off();
	const struct thf_entry_off *e = thf_entry_off();

	return h->size_bits >= 0 && h->buckets >= 0 && h->count >= 0 &&
		e->ip >= 0 && e->hlist >= 0 && e->size > 0 && e->size <= 64;
}

static int thf_hent_add(struct thf_hash *h, long *cap, ulong ip, ulong ent,
			ulong direct)
{
	if (h->n >= *cap) {
		long ncap = *cap ? *cap * 2 : 64;
		struct thf_hent *e = realloc(h->e, ncap * sizeof(*e));

		if (!e)
			return FALSE;
		h->e = e;
		*cap = ncap;
	}
	h->e[h->n].ip = ip;
	h->e[h->n].ent = ent;
	h->e[h->n].direct = direct;
	h->n++;
	return TRUE;
}

/*
 * Every chain of the bucket array HEADS, bounded by the hash's own count:
 * a chain longer than the whole count is damaged or a cycle, and the
 * damage ends the read with h->err set.
 */
static void thf_hash_chains(struct thf_hash *h, const ulong *heads, ulong nb)
{
	const struct thf_entry_off *o = thf_entry_off();
	ulong limit = h->count + 16, b;
	unsigned char ent[64];
	long cap = 0;

	for (b = 0; b < nb && !h->err; b++) {
		ulong node = heads[b], steps = 0;

		while (node) {
			ulong next, ip, direct = 0;
			const char *err = NULL;

			if (!th_kptr(node) || ++steps > limit ||
			    (ulong)h->n >= limit)
				err = "damaged ftrace_hash chain";
			else if (!th_read(node - o->hlist, ent, o->size,
					  "ftrace_func_entry"))
				err = "unreadable ftrace_func_entry";
			if (err) {
				h->err = err;
				h->bad = node;
				h->bucket = b;
				break;
			}
			memcpy(&next, ent + o->hlist, sizeof(ulong));
			memcpy(&ip, ent + o->ip, sizeof(ulong));
			if (o->direct >= 0)
				memcpy(&direct, ent + o->direct,
				       sizeof(ulong));
			if (!thf_hent_add(h, &cap, ip, node - o->hlist,
					  direct)) {
				h->err = "out of memory for ftrace_hash entries";
				h->bad = node;
				h->bucket = b;
				break;
			}
			node = next;
		}
	}
}

struct thf_ip_idx {
	ulong ip;
	long idx;
};

static int thf_ip_idx_cmp(const void *a, const void *b)
{
	const struct thf_ip_idx *x = a, *y = b;

	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

/* h->by_ip: the entries' indexes by ascending ip */
static void thf_hash_index(struct thf_hash *h)
{
	struct thf_ip_idx *pairs;
	long i;

	if (!h->n)
		return;
	pairs = malloc(h->n * sizeof(*pairs));
	h->by_ip = malloc(h->n * sizeof(long));
	if (!pairs || !h->by_ip) {
		free(pairs);
		free(h->by_ip);
		free(h->e);
		h->by_ip = NULL;
		h->e = NULL;
		h->n = 0;
		h->err = "out of memory for ftrace_hash entries";
		return;
	}
	for (i = 0; i < h->n; i++) {
		pairs[i].ip = h->e[i].ip;
		pairs[i].idx = i;
	}
	qsort(pairs, h->n, sizeof(*pairs), thf_ip_idx_cmp);
	for (i = 0; i < h->n; i++)
		h->by_ip[i] = pairs[i].idx;
	free(pairs);
}

/*
 * A filter names functions: every entry's ip is code, and the ip of a
 * dyn_ftrace record (ftrace_match_records() and ftrace_set_filter_ip()
 * add only those); an entry whose function went away (a module unloaded,
 * init text freed) keeps the ip 0 clear_mod_from_hash() gave it.
 */
static void thf_hash_check_ips(const struct thf_hash *h)
{
	long i;

	for (i = 0; i < h->n; i++) {
		ulong ip = h->e[i].ip;

		if (!ip)
			continue;
		if (!th_code_addr(ip)) {
			th_damaged("ftrace_hash", h->addr, "entry %lx: ip %lx "
				   "is not code", h->e[i].ent, ip);
			return;
		}
		if (thf_rec_known(ip) == 0) {
			th_damaged("ftrace_hash", h->addr, "entry %lx: ip %lx "
				   "is no ftrace record's", h->e[i].ent, ip);
			return;
		}
	}
}

/**
 * thf_hash_read - read a struct ftrace_hash whole
 * @addr: the hash; 0 reads as an empty hash (ftrace_hash_empty())
 * @h: filled, bucket order, indexed by ip
 *
 * Return: FALSE when the hash itself cannot be read (h->err says why);
 * TRUE otherwise, h->err set when a damaged chain ended the read early.
 */
int thf_hash_read(ulong addr, struct thf_hash *h)
{
	const struct thf_hash_off *o = thf_hash_off();
	ulong buckets, nb, *heads;

	memset(h, 0, sizeof(*h));
	h->addr = addr;
	if (!addr)
		return TRUE;
	if (!thf_hash_types_known()) {
		h->err = "struct ftrace_hash/ftrace_func_entry not in debuginfo";
		return FALSE;
	}
	if (!th_read_ulong(addr + o->size_bits, &h->size_bits,
			   "ftrace_hash.size_bits") ||
	    !th_read_ulong(addr + o->buckets, &buckets, "ftrace_hash.buckets") ||
	    !th_read_ulong(addr + o->count, &h->count, "ftrace_hash.count")) {
		h->err = "unreadable ftrace_hash";
		th_damaged("ftrace_hash", addr, "unreadable");
		return FALSE;
	}
	if (o->flags >= 0)
		th_read_ulong(addr + o->flags, &h->hflags, "ftrace_hash.flags");
	/* FTRACE_HASH_FL_MOD is the one flag the kernel sets there */
	if (h->hflags & ~THF_HASH_FL_MOD)
		th_damaged("ftrace_hash", addr, "flags %lx: bits no kernel "
			   "sets (FTRACE_HASH_FL_MOD is its only flag)",
			   h->hflags);
	/* alloc_ftrace_hash() bounds size_bits, empty or not */
	if (h->size_bits > THF_MAX_HASH_BITS) {
		h->err = "implausible ftrace_hash";
		th_damaged("ftrace_hash", addr, "size_bits %lu (count %lu)",
			   h->size_bits, h->count);
		return FALSE;
	}
	/* an empty hash's buckets are walked too: entries under a count
	 * of 0 are damage (the count is what the kernel's lookups trust).
	 * alloc_ftrace_hash() never leaves buckets NULL; only a static
	 * empty_hash (EMPTY_HASH) of a kernel that gave it none may have
	 * them NULL: a zeroed hash is damage, not an empty filter that
	 * would mean "every function" */
	if (!h->count && !buckets && addr == th_symbol("empty_hash"))
		return TRUE;
	if (!th_kptr(buckets)) {
		h->err = "implausible ftrace_hash";
		th_damaged("ftrace_hash", addr, "size_bits %lu, buckets %lx "
			   "(count %lu)", h->size_bits, buckets, h->count);
		return FALSE;
	}
	nb = 1UL << h->size_bits;
	heads = malloc(nb * sizeof(ulong));
	if (!heads || !th_read(buckets, heads, nb * sizeof(ulong),
			       "ftrace_hash.buckets")) {
		free(heads);
		h->err = "unreadable ftrace_hash buckets";
		th_damaged("ftrace_hash", addr, "buckets %lx (size_bits %lu) "
			   "unreadable", buckets, h->size_bits);
		return FALSE;
	}
	thf_hash_chains(h, heads, nb);
	free(heads);
	thf_hash_index(h);
	if (h->err)
		th_damaged("ftrace_hash", addr, "%s at %lx (bucket %lu)",
			   h->err, h->bad, h->bucket);
	else if ((ulong)h->n != h->count)
		th_damaged("ftrace_hash", addr, "count %lu, but its buckets "
			   "hold %ld entries", h->count, h->n);
	thf_hash_check_ips(h);
	return TRUE;
}

/**
 * thf_hash_free - free what thf_hash_read() allocated
 * @h: the hash, left zeroed
 */
void thf_hash_free(struct thf_hash *h)
{
	free(h->e);
	free(h->by_ip);
	memset(h, 0, sizeof(*h));
}

/**
 * thf_hash_has - ftrace_lookup_ip()
 * @h: the hash
 * @ip: the address looked up
 * @direct: if not NULL, the entry's direct target (0 when none)
 *
 * Return: TRUE when @ip has an entry in @h.
 */
int thf_hash_has(const struct thf_hash *h, ulong ip, ulong *direct)
{
	long lo = 0, hi = h->n - 1, mid;

	while (lo <= hi) {
		mid = (lo + hi) / 2;
		if (thf_hash_ip_sorted(h, mid) == ip) {
			if (direct)
				*direct = h->e[h->by_ip[mid]].direct;
			return TRUE;
		}
		if (thf_hash_ip_sorted(h, mid) < ip)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return FALSE;
}

/**
 * thf_hash_mod_pending - FTRACE_HASH_FL_MOD: a ":mod:" filter waits for
 * its module
 * @h: the hash
 */
int thf_hash_mod_pending(const struct thf_hash *h)
{
	return (h->hflags & THF_HASH_FL_MOD) != 0;
}

/**
 * thf_hash_empty - ftrace_hash_empty(): NULL, or no entries and no
 * pending module filter
 * @h: the hash
 */
int thf_hash_empty(const struct thf_hash *h)
{
	return !h->addr || !(h->count || thf_hash_mod_pending(h));
}

/**
 * thf_hash_records - the records whose ip is in a hash, in record order
 * @h: the hash
 * @ips: the ips (malloc'ed, or NULL when none)
 *
 * Return: how many, or -1 when the dyn_ftrace records cannot be walked.
 */
long thf_hash_records(const struct thf_hash *h, ulong **ips)
{
	const struct thf_recs *r = thf_records();
	long i, n = 0, cap = 0;

	*ips = NULL;
	if (!r->walked)
		return -1;
	for (i = 0; i < r->nrec; i++) {
		if (!thf_hash_has(h, r->rec[i].ip, NULL))
			continue;
		if (n >= cap) {
			ulong *more;

			cap = cap ? cap * 2 : 64;
			more = realloc(*ips, cap * sizeof(ulong));
			if (!more)
				break;
			*ips = more;
		}
		(*ips)[n++] = r->rec[i].ip;
	}
	return n;
}

/**
 * thf_graph_funcs_read - set_graph_function before its hash: the array
 * ftrace_graph_funcs[] and its ftrace_graph_count, read as a hash whose
 * entries keep the array's order (g_show() prints them in it).  Linux
 * kernel commit b9b0c831bed2 ("ftrace: Convert graph filter to use hash
 * tables", v4.11) replaced it.
 * @h: filled; empty (no entries) when ftrace_graph_filter_enabled is 0
 *
 * Return: FALSE when this kernel has no such array or it is unreadable.
 */
int thf_graph_funcs_read(struct thf_hash *h)
{
	ulong arr = th_symbol("ftrace_graph_funcs"), ip;
	long max = th_array_len("ftrace_graph_funcs"), cap = 0, i;
	int count = 0, enabled = 1;
	ulong en = th_symbol("ftrace_graph_filter_enabled");

	memset(h, 0, sizeof(*h));
	if (!arr || max <= 0 ||
	    !th_read_int(th_symbol("ftrace_graph_count"), &count,
			 "ftrace_graph_count"))
		return FALSE;
	if (en && !th_read_int(en, &enabled, "ftrace_graph_filter_enabled"))
		return FALSE;
	if (count < 0 || count > max) {
		th_damaged("ftrace_graph_count", th_symbol("ftrace_graph_count"),
			   "%d, but ftrace_graph_funcs[] holds %ld", count, max);
		count = count < 0 ? 0 : max;
	}
	h->addr = arr;
	if (!enabled)
		return TRUE;
	for (i = 0; i < count; i++) {
		if (!th_read_ulong(arr + i * sizeof(ulong), &ip,
				   "ftrace_graph_funcs[]"))
			break;
		if (!thf_hent_add(h, &cap, ip, arr + i * sizeof(ulong), 0))
			break;
	}
	h->count = h->n;
	thf_hash_index(h);
	thf_hash_check_ips(h);
	return TRUE;
}

