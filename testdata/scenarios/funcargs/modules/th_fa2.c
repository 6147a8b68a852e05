// SPDX-License-Identifier: GPL-2.0
/* tracehunt scenario "funcargs": a second module, loaded after th_fa1,
 * whose functions the kernel looks up by name alone
 * (btf_find_func_proto()): vmlinux's BTF first (cmdline_proc_show, a
 * static function of fs/proc/cmdline.c, prints with vmlinux's prototype),
 * then the modules' in the order of btf_idr (th_fa_same prints with
 * th_fa1's); its own th_fa2_big takes a struct passed in memory.
 * Writing to /sys/module/th_fa2/parameters/run calls them. */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>

#define TH_FA	__attribute__((noipa))

struct th_fa2_three {
	long x[3];
};

static long th_fa2_sink;

static TH_FA int th_fa_same(void *p, long y)
{
	return (p != NULL) + y;
}

static TH_FA int cmdline_proc_show(int n)
{
	return n * 2;
}

static TH_FA long th_fa2_big(struct th_fa2_three t, const char *s, int n)
{
	return t.x[0] + t.x[1] + t.x[2] + s[0] + n;
}

static int th_fa2_run_set(const char *val, const struct kernel_param *kp)
{
	struct th_fa2_three t = { { 10, 20, 30 } };

	th_fa2_sink += th_fa_same(&th_fa2_sink, -5);
	th_fa2_sink += cmdline_proc_show(7);
	th_fa2_sink += th_fa2_big(t, val, 3);
	return 0;
}

static const struct kernel_param_ops th_fa2_run_ops = {
	.set = th_fa2_run_set,
};
module_param_cb(run, &th_fa2_run_ops, NULL, 0200);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tracehunt fixture: same-named module functions");
