// SPDX-License-Identifier: GPL-2.0
/* tracehunt scenario "uprobe": a module with a uprobe consumer of its own
 * that then unlinks itself from the module list, as a rootkit does. */
#include <linux/list.h>
#include "th_ucommon.h"

static int __init th_uhid_init(void)
{
	int err = th_uc_register();

	if (err) {
		pr_err("th_uhid: uprobe_register %s:%#lx: %d\n", path, offset,
		       err);
		return err;
	}
	/* Disappear from /proc/modules, lsmod and crash's "mod". */
	list_del(&THIS_MODULE->list);
	return 0;
}
module_init(th_uhid_init);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tracehunt fixture: a hidden module's uprobe consumer");
