// SPDX-License-Identifier: GPL-2.0
/* tracehunt scenario "funcargs": a module's functions traced with their
 * arguments, which the kernel prints from the module's own BTF (a split
 * BTF on top of vmlinux's; out of tree, it is relocated from its
 * distilled base when loaded): its own enum and struct, a vmlinux enum,
 * ints of every width, more arguments than registers.  Writing to
 * /sys/module/th_fa1/parameters/run calls them. */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/pid.h>

/* no clone, no inlining: each keeps its name and its prototype */
#define TH_FA	__attribute__((noipa))

enum th_fa_color { TH_FA_RED = 1, TH_FA_GREEN = 2, TH_FA_BLUE = -3 };

struct th_fa_pair {
	long a;
	long b;
};

static int th_fa_sink;

static TH_FA int th_fa_mixed(int s, unsigned int u, void *p,
			     enum th_fa_color c, struct th_fa_pair pr,
			     enum pid_type t)
{
	return s + u + c + pr.a + pr.b + t + (p != NULL);
}

static TH_FA long th_fa_enums(enum th_fa_color c, enum pid_type t, long l)
{
	return c + t + l;
}

static TH_FA long th_fa_many(long a1, long a2, long a3, long a4, long a5,
			     long a6, long a7, long a8)
{
	return a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8;
}

static TH_FA int th_fa_small(bool b, u8 c, s16 h, u64 q)
{
	return b + c + h + (int)q;
}

static TH_FA void th_fa_void(void)
{
	th_fa_sink++;
}

/* th_fa2 has a th_fa_same of its own with another prototype: the kernel
 * prints this one's for both (the first module's BTF on btf_idr) */
static TH_FA int th_fa_same(int x)
{
	return x + 1;
}

static TH_FA int th_fa_outer(int n)
{
	struct th_fa_pair pr = { .a = n, .b = -n };
	int r;

	r = th_fa_mixed(-n, n, &th_fa_sink, TH_FA_GREEN, pr, PIDTYPE_PGID);
	r += th_fa_enums(TH_FA_BLUE, PIDTYPE_SID, n);
	r += th_fa_enums(n, n, -1);
	r += th_fa_many(1, -2, 3, -4, 5, -6, 7, -8);
	r += th_fa_small(true, 200, -300, 1ULL << 40);
	th_fa_void();
	return r + th_fa_same(n);
}

static int th_fa_run_set(const char *val, const struct kernel_param *kp)
{
	int n;

	if (kstrtoint(val, 0, &n))
		return -EINVAL;
	th_fa_sink += th_fa_outer(n);
	return 0;
}

static const struct kernel_param_ops th_fa_run_ops = {
	.set = th_fa_run_set,
};
module_param_cb(run, &th_fa_run_ops, NULL, 0200);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tracehunt fixture: a module's functions with BTF args");
