/*
 * tracehunt: kprobe_events and kprobe_profile.
 */
#include "th.h"

int th_cat_kprobe_events(struct th_tr *tr, const char *file)
{
	return FALSE;
}

void th_ls_kprobe_events(struct th_tr *tr, th_ls_add_fn add, void *arg)
{
}
