// SPDX-License-Identifier: GPL-2.0
/* tracehunt scenario "modules": a listed module with ordinary probes. */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "th_common.h"

#define TH_VIS_KRP_SYMBOL	"kernel_clone"
#define TH_VIS_KRP_MAXACTIVE	9
#define TH_VIS_KRP_DATA_SIZE	24
#define TH_VIS_KP_SYMBOL	"vfs_read"
#define TH_VIS_KP_INSIDE	"vfs_write"
#define TH_VIS_OPS_FUNC1	"__x64_sys_getpgid"
#define TH_VIS_OPS_FUNC2	"__x64_sys_getsid"
/* a write watchpoint on the module's own variable */
#define TH_VIS_BP_VAR		"th_vis_watched"
#define TH_VIS_BP_TYPE		"W"
/* a netfilter hook: ipv4 LOCAL_IN */
#define TH_VIS_NF_POINT		"LOCAL_IN"
#define TH_VIS_NF_PRIORITY	42

static unsigned long th_vis_hits;
static unsigned long th_vis_watched;

static int th_vis_pre(struct kprobe *p, struct pt_regs *regs)
{
	th_vis_hits++;
	return 0;
}

static void th_vis_post(struct kprobe *p, struct pt_regs *regs,
			unsigned long flags)
{
	th_vis_hits++;
}

static int th_vis_inside_pre(struct kprobe *p, struct pt_regs *regs)
{
	th_vis_hits++;
	return 0;
}

static int th_vis_ret_entry(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	return 0;
}

static int th_vis_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	th_vis_hits++;
	return 0;
}

static void notrace th_vis_ftrace_cb(TH_FTRACE_CB_ARGS)
{
}

static struct kprobe th_vis_kp = {
	.symbol_name = TH_VIS_KP_SYMBOL,
	.pre_handler = th_vis_pre,
	.post_handler = th_vis_post,
};

static struct kprobe th_vis_kp_inside = {
	.pre_handler = th_vis_inside_pre,
};

static struct kretprobe th_vis_krp = {
	.kp.symbol_name = TH_VIS_KRP_SYMBOL,
	.handler = th_vis_ret,
	.entry_handler = th_vis_ret_entry,
	.data_size = TH_VIS_KRP_DATA_SIZE,
	.maxactive = TH_VIS_KRP_MAXACTIVE,
};

static void th_vis_bp_handler(struct perf_event *bp,
			      struct perf_sample_data *data,
			      struct pt_regs *regs)
{
	th_vis_hits++;
}

static unsigned int th_vis_nf_fn(void *priv, struct sk_buff *skb,
				 const struct nf_hook_state *state)
{
	th_vis_hits++;
	return NF_ACCEPT;
}

static struct nf_hook_ops th_vis_nfho = {
	.hook = th_vis_nf_fn,
	.pf = NFPROTO_IPV4,
	.hooknum = NF_INET_LOCAL_IN,
	.priority = TH_VIS_NF_PRIORITY,
};

static struct ftrace_ops th_vis_ops = {
	.func = th_vis_ftrace_cb,
	.flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY,
};

static int __init th_vis_init(void)
{
	int ret;

	ret = register_kprobe(&th_vis_kp);
	if (ret)
		goto fail;
	ret = th_register_inside(&th_vis_kp_inside, TH_VIS_KP_INSIDE);
	if (ret)
		goto fail_kp;
	ret = register_kretprobe(&th_vis_krp);
	if (ret)
		goto fail_inside;
	ret = ftrace_set_filter(&th_vis_ops, TH_VIS_OPS_FUNC1,
				strlen(TH_VIS_OPS_FUNC1), 0);
	if (!ret)
		ret = ftrace_set_filter(&th_vis_ops, TH_VIS_OPS_FUNC2,
					strlen(TH_VIS_OPS_FUNC2), 0);
	if (!ret)
		ret = register_ftrace_function(&th_vis_ops);
	if (ret)
		goto fail_krp;
	th_wide_bp("th_visible", (unsigned long)&th_vis_watched,
		   HW_BREAKPOINT_W, th_vis_bp_handler);
	th_nf_hook("th_visible", &th_vis_nfho);
	return 0;
fail_krp:
	unregister_kretprobe(&th_vis_krp);
fail_inside:
	unregister_kprobe(&th_vis_kp_inside);
fail_kp:
	unregister_kprobe(&th_vis_kp);
fail:
	pr_err("th_vis: setup failed: %d\n", ret);
	return ret;
}
module_init(th_vis_init);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tracehunt fixture: visible probes");
