// SPDX-License-Identifier: GPL-2.0
/* tracehunt scenario "fprobe": a listed module's ftrace direct call. */
#define TH_DVIS_FUNC	"__x64_sys_getpgid"
#define TH_DIRECT_FUNC	TH_DVIS_FUNC
#define TH_PFX		th_dvis
#include "th_dcommon.h"

static int __init th_dvis_init(void)
{
	int ret = th_direct_register();

	if (ret)
		pr_err("th_dvis: direct call on %s: %d\n", TH_DIRECT_FUNC, ret);
	return ret;
}
module_init(th_dvis_init);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tracehunt fixture: a module's ftrace direct call");
