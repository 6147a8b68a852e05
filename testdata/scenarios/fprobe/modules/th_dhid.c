// SPDX-License-Identifier: GPL-2.0
/* tracehunt scenario "fprobe": an ftrace direct call whose module then
 * unlinks itself from the module list, as a rootkit does. */
#include <linux/list.h>
#define TH_DHID_FUNC	"__x64_sys_getsid"
#define TH_DIRECT_FUNC	TH_DHID_FUNC
#define TH_PFX		th_dhid
#include "th_dcommon.h"

static int __init th_dhid_init(void)
{
	int ret = th_direct_register();

	if (ret) {
		pr_err("th_dhid: direct call on %s: %d\n", TH_DIRECT_FUNC, ret);
		return ret;
	}
	/* Disappear from /proc/modules, lsmod and crash's "mod". */
	list_del(&THIS_MODULE->list);
	return 0;
}
module_init(th_dhid_init);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tracehunt fixture: a hidden module's ftrace direct call");
