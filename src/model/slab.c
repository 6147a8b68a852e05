/*
 * tracehunt: the slab cache an object was allocated from.  crash keeps its
 * own lookup (vaddr_to_kmem_cache()) static in memory.c, so the model
 * reads what it reads: the object's struct page (the head of a compound
 * one), the slab's slab_cache, and that cache only when it is one of
 * slab_caches' (a page that is no slab holds anything there).
 */
#include <ctype.h>
#include "model/slab.h"

static struct {
	int done;
	long list, name, object_size;	/* struct kmem_cache */
	long compound_head, slab_cache;	/* struct page, struct slab */
	ulong *caches;			/* on slab_caches, sorted */
	long ncaches;
	ulong *classes;			/* kmalloc-N object sizes, sorted */
	long nclasses;
} sl;

/* A cache of kmalloc(): kmalloc-N and its kinds (kmalloc-cg-N,
 * kmalloc-rcl-N, kmalloc-rnd-NN-N, dma-kmalloc-N). */
static int sl_kmalloc_name(const char *name)
{
	return strncmp(name, "kmalloc-", 8) == 0 ||
	       strncmp(name, "dma-kmalloc-", 12) == 0;
}

static void sl_init(void)
{
	struct th_walk w;
	char name[64];
	unsigned int size;
	ulong head;
	long i;

	if (sl.done)
		return;
	sl.done = TRUE;
	sl.list = th_member("kmem_cache", "list");
	sl.name = th_member("kmem_cache", "name");
	sl.object_size = th_member("kmem_cache", "object_size");
	sl.compound_head = th_member_path("page", "compound_head");
	/* the slab's fields left struct page for struct slab: Linux kernel
	 * commit d122019bf061 ("mm: Split slab into its own type") (in
	 * v5.17) */
	sl.slab_cache = th_member("slab", "slab_cache");
	if (sl.slab_cache < 0)
		sl.slab_cache = th_member_path("page", "slab_cache");
	head = th_symbol("slab_caches");
	if (sl.list < 0 || sl.name < 0 || sl.object_size < 0 ||
	    sl.slab_cache < 0 || !head)
		return;
	th_list_walk(head, 100000, &w);
	sl.caches = calloc(w.n ? w.n : 1, sizeof(ulong));
	sl.classes = calloc(w.n ? w.n : 1, sizeof(ulong));
	if (!sl.caches || !sl.classes) {
		th_walk_free(&w);
		return;
	}
	for (i = 0; i < w.n; i++) {
		ulong c = w.ent[i] - sl.list;

		sl.caches[sl.ncaches++] = c;
		/* kmalloc-N exactly: the classes kmalloc_slab() picks from */
		if (th_read_strp(c + sl.name, name, sizeof(name),
				 "kmem_cache.name", NULL) &&
		    strncmp(name, "kmalloc-", 8) == 0 &&
		    isdigit((unsigned char)name[8]) &&
		    th_read_uint(c + sl.object_size, &size,
				 "kmem_cache.object_size") && size)
			sl.classes[sl.nclasses++] = size;
	}
	th_walk_free(&w);
	qsort(sl.caches, sl.ncaches, sizeof(ulong), th_ulong_cmp);
	qsort(sl.classes, sl.nclasses, sizeof(ulong), th_ulong_cmp);
}

int th_slab_of(ulong addr, struct th_slab_cache *sc)
{
	ulong page, head = 0, cache = 0;
	unsigned int size = 0;

	memset(sc, 0, sizeof(*sc));
	sl_init();
	if (!sl.ncaches || th_region(addr) != TH_R_DIRECT ||
	    !phys_to_page(VTOP(addr), &page))
		return FALSE;
	/* a tail page's compound_head is its head page, bit 0 set */
	if (sl.compound_head >= 0 &&
	    th_read_ulong(page + sl.compound_head, &head,
			  "page.compound_head") && (head & 1))
		page = head - 1;
	if (!th_read_ulong(page + sl.slab_cache, &cache, "slab.slab_cache") ||
	    !bsearch(&cache, sl.caches, sl.ncaches, sizeof(ulong),
		     th_ulong_cmp) ||
	    !th_read_uint(cache + sl.object_size, &size,
			  "kmem_cache.object_size"))
		return FALSE;
	sc->cache = cache;
	sc->object_size = size;
	if (th_read_strp(cache + sl.name, sc->name, sizeof(sc->name),
			 "kmem_cache.name", NULL))
		sc->kmalloc = sl_kmalloc_name(sc->name);
	return TRUE;
}

ulong th_kmalloc_class(ulong size)
{
	long i;

	sl_init();
	for (i = 0; i < sl.nclasses; i++)
		if (sl.classes[i] >= size)
			return sl.classes[i];
	return 0;
}

int th_check_kmalloc_size(const char *object, ulong where, ulong obj,
			  ulong need, const char *field, ulong value)
{
	struct th_slab_cache sc;
	ulong class;

	if (!th_slab_of(obj, &sc) || !sc.kmalloc)
		return TRUE;
	class = th_kmalloc_class(need);
	if (sc.object_size < need)
		th_damaged(object, where, "%s %lu: %lx needs %lu bytes, but "
			   "is in %s of %lu", field, value, obj, need, sc.name,
			   sc.object_size);
	else if (class && class < sc.object_size)
		th_damaged(object, where, "%s %lu: %lx of %lu bytes takes "
			   "kmalloc()'s %lu-byte class, but is in %s", field,
			   value, obj, need, class, sc.name);
	else
		return TRUE;
	return FALSE;
}
