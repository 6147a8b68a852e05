// SPDX-License-Identifier: GPL-2.0
/* tracehunt scenario "modules": a module that plants probes and an ftrace
 * ops, then unlinks itself from the module list like a rootkit does. */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/list.h>
#include <linux/fs.h>
#include "th_common.h"

#define TH_HID_KRP_SYMBOL	"__x64_sys_getpid"
#define TH_HID_KRP_MAXACTIVE	5
#define TH_HID_KRP_DATA_SIZE	40
#define TH_HID_KP_SYMBOL	"vfs_read"
#define TH_HID_KP_INSIDE	"vfs_fsync_range"
#define TH_HID_OPS_FUNC1	"__x64_sys_umask"
#define TH_HID_OPS_FUNC2	"__x64_sys_getpriority"
/* an instruction breakpoint on a kernel function */
#define TH_HID_BP_SYMBOL	"vfs_fsync"
#define TH_HID_BP_TYPE		"X"
/* a netfilter hook: ipv4 PRE_ROUTING, ahead of every other */
#define TH_HID_NF_POINT		"PRE_ROUTING"
#define TH_HID_NF_PRIORITY	-420

static unsigned long th_hid_hits;

static int th_hid_pre(struct kprobe *p, struct pt_regs *regs)
{
	th_hid_hits++;
	return 0;
}

static int th_hid_inside_pre(struct kprobe *p, struct pt_regs *regs)
{
	th_hid_hits++;
	return 0;
}

static int th_hid_ret_entry(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	return 0;
}

static int th_hid_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	th_hid_hits++;
	return 0;
}

static void th_hid_bp_handler(struct perf_event *bp,
			      struct perf_sample_data *data,
			      struct pt_regs *regs)
{
	th_hid_hits++;
}

static unsigned int th_hid_nf_fn(void *priv, struct sk_buff *skb,
				 const struct nf_hook_state *state)
{
	th_hid_hits++;
	return NF_ACCEPT;
}

static struct nf_hook_ops th_hid_nfho = {
	.hook = th_hid_nf_fn,
	.pf = NFPROTO_IPV4,
	.hooknum = NF_INET_PRE_ROUTING,
	.priority = TH_HID_NF_PRIORITY,
};

static void notrace th_hid_ftrace_cb(TH_FTRACE_CB_ARGS)
{
}

/* Probed by the module itself, before it unlinks itself: the probe's
 * address is the hidden module's own code. */
static noinline unsigned long th_hid_target(unsigned long x)
{
	return x * 3 + th_hid_hits;
}

static struct kprobe th_hid_kp = {
	.symbol_name = TH_HID_KP_SYMBOL,
	.pre_handler = th_hid_pre,
};

static struct kprobe th_hid_kp_inside = {
	.pre_handler = th_hid_inside_pre,
};

static struct kprobe th_hid_kp_self = {
	.pre_handler = th_hid_pre,
};

static struct kretprobe th_hid_krp = {
	.kp.symbol_name = TH_HID_KRP_SYMBOL,
	.handler = th_hid_ret,
	.entry_handler = th_hid_ret_entry,
	.data_size = TH_HID_KRP_DATA_SIZE,
	.maxactive = TH_HID_KRP_MAXACTIVE,
};

static struct ftrace_ops th_hid_ops = {
	.func = th_hid_ftrace_cb,
	.flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY,
};

static int __init th_hid_init(void)
{
	int ret;

	ret = register_kprobe(&th_hid_kp);
	if (ret)
		goto fail;
	ret = th_register_inside(&th_hid_kp_inside, TH_HID_KP_INSIDE);
	if (ret)
		goto fail_kp;
	ret = register_kretprobe(&th_hid_krp);
	if (ret)
		goto fail_inside;
	ret = ftrace_set_filter(&th_hid_ops, TH_HID_OPS_FUNC1,
				strlen(TH_HID_OPS_FUNC1), 0);
	if (!ret)
		ret = ftrace_set_filter(&th_hid_ops, TH_HID_OPS_FUNC2,
					strlen(TH_HID_OPS_FUNC2), 0);
	if (!ret)
		ret = register_ftrace_function(&th_hid_ops);
	if (ret)
		goto fail_krp;
	th_hid_kp_self.addr = (kprobe_opcode_t *)th_hid_target;
	ret = register_kprobe(&th_hid_kp_self);
	if (ret)
		goto fail_ops;
	th_hid_hits += th_hid_target(1);
	th_wide_bp("th_hidden", (unsigned long)vfs_fsync, HW_BREAKPOINT_X,
		   th_hid_bp_handler);
	th_nf_hook("th_hidden", &th_hid_nfho);
	trace_printk("th_hidden: planted %d hooks\n", 5);
	/* Disappear from /proc/modules, lsmod and crash's "mod". */
	list_del(&THIS_MODULE->list);
	return 0;
fail_ops:
	unregister_ftrace_function(&th_hid_ops);
fail_krp:
	unregister_kretprobe(&th_hid_krp);
fail_inside:
	unregister_kprobe(&th_hid_kp_inside);
fail_kp:
	unregister_kprobe(&th_hid_kp);
fail:
	pr_err("th_hid: setup failed: %d\n", ret);
	return ret;
}
module_init(th_hid_init);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tracehunt fixture: self-hiding probes");
