// SPDX-License-Identifier: GPL-2.0
/* tracehunt scenario "uprobe": a listed module with a uprobe consumer of
 * its own (never unloaded: the guest panics). */
#include "th_ucommon.h"

static int __init th_uvis_init(void)
{
	int err = th_uc_register();

	if (err)
		pr_err("th_uvis: uprobe_register %s:%#lx: %d\n", path, offset,
		       err);
	return err;
}
module_init(th_uvis_init);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tracehunt fixture: a module's uprobe consumer");
