/*
 * tracehunt: where a ring buffer's sub-buffers are read besides each
 * CPU's one buffer: the copies th_rb_cpu_start_last() keeps for the
 * passes after it, and a few copies per CPU in turn while a helper
 * thread reads the copies behind the reading (render/trace_helper.c).
 */
#include "model/trace_rb.h"

/* The copy of BPAGE's sub-buffer th_rb_cpu_start_last() kept, or NULL;
 * the passes after it go forward through what it read backward. */
const unsigned char *th_rb_kept(struct th_rbcpu *c, ulong bpage)
{
	int i, h = c->keep_hint;

	if (h >= 0 && h < c->nkeep && c->keep[h].bpage == bpage)
		i = h;
	else
		for (i = c->nkeep - 1; i >= 0; i--)
			if (c->keep[i].bpage == bpage)
				break;
	if (i < 0)
		return NULL;
	c->keep_hint = i - 1;
	c->dpage = c->keep[i].dpage;
	return c->keep[i].bytes;
}

/* Where to read a sub-buffer of SZ bytes: a new kept copy while C keeps
 * and the budget allows, else C's one buffer. */
unsigned char *th_rb_keep_slot(struct th_rbcpu *c, size_t sz)
{
	unsigned char *b;

	if (!c->keeping || !c->keep_left || *c->keep_left < sz)
		return c->buf;
	if (c->nkeep == c->capkeep) {
		int cap = c->capkeep ? 2 * c->capkeep : 8;
		struct th_rbkeep *k = realloc(c->keep, cap * sizeof(*k));

		if (!k)
			return c->buf;
		c->keep = k;
		c->capkeep = cap;
	}
	b = malloc(sz);
	return b ? b : c->buf;
}

static void (*th_rb_copy_wait)(unsigned long use);

int th_rb_copies(struct th_rb *rb, int n, void (*wait)(unsigned long use))
{
	int i, k, ok = TRUE;

	if (n > TH_RB_COPIES)
		n = TH_RB_COPIES;
	for (i = 0; n > 1 && ok && i < rb->ncpus; i++) {
		struct th_rbcpu *c = &rb->cpus[i];

		for (k = 1; c->buf && k < n; k++)
			if (!c->copy[k] && !(c->copy[k] = malloc(c->bufsz)))
				ok = FALSE;
	}
	for (i = 0; i < rb->ncpus; i++) {
		struct th_rbcpu *c = &rb->cpus[i];

		if (n > 1 && ok && c->buf) {
			c->copy[0] = c->buf;
			c->ncopy = n;
			c->cur = 0;
			c->copy_pg[0] = c->pg;
			memset(c->copy_use, 0, sizeof(c->copy_use));
			continue;
		}
		/* the one buffer again: the copy being read */
		for (k = 0; k < TH_RB_COPIES; k++) {
			if (c->copy[k] != c->buf)
				free(c->copy[k]);
			c->copy[k] = NULL;
		}
		c->ncopy = 0;
		c->cur = 0;
	}
	th_rb_copy_wait = n > 1 && ok ? wait : NULL;
	return ok;
}

/* Where the next sub-buffer of C goes: its one buffer, or the next copy
 * once the helper is done with it. */
unsigned char *th_rb_next_copy(struct th_rbcpu *c)
{
	int i;

	if (c->ncopy <= 1 || !th_rb_copy_wait)
		return c->buf;
	i = (c->cur + 1) % c->ncopy;
	th_rb_copy_wait(c->copy_use[i]);
	c->cur = i;
	c->buf = c->copy[i];
	return c->buf;
}

