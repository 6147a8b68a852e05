/* Shared by the tracehunt scenario modules.  The TH_* constants are read by
 * the tests (tests/test_kprobes.py) straight from this file. */
#include <linux/version.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include <net/net_namespace.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 11, 0)
#define TH_FTRACE_CB_ARGS unsigned long ip, unsigned long parent_ip, \
	struct ftrace_ops *op, struct ftrace_regs *fregs
#else
#define TH_FTRACE_CB_ARGS unsigned long ip, unsigned long parent_ip, \
	struct ftrace_ops *op, struct pt_regs *regs
#endif

/* Register KP at the first instruction boundary past the ftrace call site
 * of its function: a kprobe that is not on ftrace (int3 or optimized).
 * With IBT the call site is not at +0 but after the endbr64 (+4), so a
 * probe that lands on ftrace is moved on rather than kept. */
static inline int th_register_inside(struct kprobe *kp, const char *sym)
{
	int off, ret = -EINVAL;

	for (off = 1; off < 64; off++) {
		memset(kp, 0, offsetof(struct kprobe, pre_handler));
		kp->symbol_name = sym;
		kp->offset = off;
		kp->addr = NULL;
		kp->flags = 0;
		ret = register_kprobe(kp);
		if (ret)
			continue;
		if (!(kp->flags & KPROBE_FLAG_FTRACE))
			return 0;
		unregister_kprobe(kp);
		ret = -EINVAL;
	}
	return ret;
}

/* A breakpoint of TYPE (HW_BREAKPOINT_W, _X, ...) on ADDR on every CPU,
 * as a debugging module or a rootkit sets one (register_wide_hw_breakpoint:
 * a perf event a CPU, each in a debug register), FN called on each hit.
 * The trace says where (tests/test_hooks.py reads it), or why the kernel
 * refused it; NULL then, and the module goes on without it. */
static inline struct perf_event * __percpu *
th_wide_bp(const char *who, unsigned long addr, int type,
	   perf_overflow_handler_t fn)
{
	struct perf_event_attr attr;
	struct perf_event * __percpu *bp;

	hw_breakpoint_init(&attr);
	attr.bp_addr = addr;
	attr.bp_len = HW_BREAKPOINT_LEN_8;
	attr.bp_type = type;
	bp = register_wide_hw_breakpoint(&attr, fn, NULL);
	if (IS_ERR((void __force *)bp)) {
		trace_printk("%s: hw breakpoint refused: %ld\n", who,
			     PTR_ERR((void __force *)bp));
		return NULL;
	}
	trace_printk("%s: hw breakpoint at %lx\n", who, addr);
	return bp;
}

/* OPS (its hook, hooknum, pf and priority set) registered in init_net
 * with nf_register_net_hook(), as a firewall or a backdoor waiting for
 * its packet does.  The trace says where (tests/test_hooks.py reads it),
 * or why the kernel refused it; the module goes on either way. */
static inline int th_nf_hook(const char *who, struct nf_hook_ops *ops)
{
	int ret = nf_register_net_hook(&init_net, ops);

	if (ret)
		trace_printk("%s: netfilter hook refused: %d\n", who, ret);
	else
		trace_printk("%s: netfilter hook %u/%u priority %d\n", who,
			     ops->pf, ops->hooknum, ops->priority);
	return ret;
}
