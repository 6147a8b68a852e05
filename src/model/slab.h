/*
 * tracehunt: the slab cache an object was allocated from (slab.c), for the
 * checks that compare an object's size with what its allocator gave it.
 */
#ifndef TRACEHUNT_SLAB_H
#define TRACEHUNT_SLAB_H

#include "model/model.h"

#pragma GCC visibility push(hidden)

struct th_slab_cache {
	ulong cache;			/* struct kmem_cache */
	char name[64];
	ulong object_size;		/* kmem_cache.object_size */
	int kmalloc;			/* one of kmalloc()'s caches */
};

/* The cache of the slab holding the direct-map address ADDR, one of those
 * on slab_caches: FALSE when ADDR is in no such slab (or the dump cannot
 * say). */
int th_slab_of(ulong addr, struct th_slab_cache *sc);
/* The object size of the kmalloc cache kmalloc(SIZE) takes (the smallest
 * kmalloc-N that holds SIZE), 0 when unknown. */
ulong th_kmalloc_class(ulong size);
/* OBJ, allocated by kmalloc(NEED), NEED from FIELD (of value VALUE) of
 * OBJECT at WHERE: FALSE (and th_damaged()) when its kmalloc cache is
 * smaller than NEED or larger than the class kmalloc(NEED) takes; TRUE
 * when it is right or OBJ is in no kmalloc cache the dump shows. */
int th_check_kmalloc_size(const char *object, ulong where, ulong obj,
			  ulong need, const char *field, ulong value);

#pragma GCC visibility pop

#endif
