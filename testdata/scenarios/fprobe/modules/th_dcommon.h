/* SPDX-License-Identifier: GPL-2.0 */
/* tracehunt scenario "fprobe": a module's own ftrace direct call, as
 * samples/ftrace/ftrace-direct.c makes one: a trampoline in the module's
 * text that the function's ftrace site calls straight, no ftrace_ops
 * callback in between.  Each module defines TH_DIRECT_FUNC (the target,
 * a syscall wrapper of one argument, in %rdi: one of SYSCALL_DEFINE0 is
 * an alias of __do_sys_NAME, whose ftrace record has that name) and TH_PFX (the
 * trampoline's prefix), then includes this file.  The TH_* constants are
 * read by the tests (tests/test_fprobe.py) straight from the sources. */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/string.h>
#include <linux/version.h>
#include <asm/linkage.h>
#include <asm/ibt.h>
#include <asm/nospec-branch.h>

#ifndef ASM_RET
#define ASM_RET "ret\n"
#endif
#ifndef CALL_DEPTH_ACCOUNT
#define CALL_DEPTH_ACCOUNT ""
#endif

#define TH_STR2(x) #x
#define TH_STR(x) TH_STR2(x)
#define TH_CAT2(a, b) a##b
#define TH_CAT(a, b) TH_CAT2(a, b)
#define TH_TRAMP TH_CAT(TH_PFX, _tramp)
#define TH_HIT TH_CAT(TH_PFX, _hit)

unsigned long TH_CAT(TH_PFX, _hits);

void TH_HIT(void);
void TH_HIT(void)
{
	TH_CAT(TH_PFX, _hits)++;
}

void TH_TRAMP(void);

/* The argument registers survive the call to the C handler. */
asm(
"	.pushsection	.text, \"ax\", @progbits\n"
"	.type		" TH_STR(TH_TRAMP) ", @function\n"
"	.globl		" TH_STR(TH_TRAMP) "\n"
TH_STR(TH_TRAMP) ":\n"
	ASM_ENDBR
"	pushq %rbp\n"
"	movq %rsp, %rbp\n"
	CALL_DEPTH_ACCOUNT
"	pushq %rdi\n"
"	pushq %rsi\n"
"	pushq %rdx\n"
"	pushq %rcx\n"
"	pushq %r8\n"
"	pushq %r9\n"
"	pushq %rax\n"
"	call " TH_STR(TH_HIT) "\n"
"	popq %rax\n"
"	popq %r9\n"
"	popq %r8\n"
"	popq %rcx\n"
"	popq %rdx\n"
"	popq %rsi\n"
"	popq %rdi\n"
"	leave\n"
	ASM_RET
"	.size		" TH_STR(TH_TRAMP) ", .-" TH_STR(TH_TRAMP) "\n"
"	.popsection\n"
);

/* register_ftrace_direct() took the site's address until v6.3, when
 * Florent Revest's series renamed the _ftrace_direct_multi API (an
 * ftrace_ops with a filter, samples/ftrace/ftrace-direct.c of v6.3) to
 * _ftrace_direct and dropped the single-site one. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
static struct ftrace_ops th_direct_ops;

static int th_direct_register(void)
{
	int ret = ftrace_set_filter(&th_direct_ops, TH_DIRECT_FUNC,
				    strlen(TH_DIRECT_FUNC), 0);

	if (ret)
		return ret;
	return register_ftrace_direct(&th_direct_ops,
				      (unsigned long)TH_TRAMP);
}
#else
/* The site's address: kallsyms_lookup_name() is not exported, a kprobe
 * resolves the name (and lands on the ftrace site). */
static int th_direct_register(void)
{
	struct kprobe kp = { .symbol_name = TH_DIRECT_FUNC };
	unsigned long ip;
	int ret = register_kprobe(&kp);

	if (ret)
		return ret;
	ip = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	return register_ftrace_direct(ip, (unsigned long)TH_TRAMP);
}
#endif
