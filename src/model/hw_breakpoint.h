/*
 * tracehunt: the hardware breakpoints the CPUs hold (model/hw_breakpoint.c):
 * the perf event of each debug register a CPU has in use, as x86's
 * arch_install_hw_breakpoint() keeps them in bp_per_reg[], with where it
 * breaks, on what access, the handler each hit calls and the task it is
 * bound to.  A module's register_wide_hw_breakpoint() puts one event on
 * every CPU; a debugger's (ptrace) or perf's breakpoint of a task is on
 * the CPU that task was running on.
 */
#ifndef TRACEHUNT_MODEL_HW_BREAKPOINT_H
#define TRACEHUNT_MODEL_HW_BREAKPOINT_H

#include "model/model.h"

#pragma GCC visibility push(hidden)

#define TH_HWBP_SLOTS	8	/* debug registers read per CPU, at most */

/* perf_event_attr.bp_type (include/uapi/linux/hw_breakpoint.h) */
#define TH_HWBP_R	1
#define TH_HWBP_W	2
#define TH_HWBP_X	4

struct th_hwbp {
	int cpu, slot;			/* the CPU and its debug register */
	ulong event;			/* struct perf_event */
	ulong addr;			/* attr.bp_addr */
	unsigned type;			/* attr.bp_type */
	uint64_t len;			/* attr.bp_len */
	ulong handler;			/* overflow_handler */
	ulong task;			/* hw.target: 0 for every task */
	int pid;			/* the task's, -1 when unreadable */
	char comm[16];
};

/* FALSE when the dump has no bp_per_reg or not the perf event types; *WHY
 * then names what it lacks. */
int th_hwbp_ok(const char **why);
/* Every breakpoint of every possible CPU, CPU by CPU and register by
 * register; -1 when th_hwbp_ok() fails.  *OUT is malloc'd.  An event that
 * cannot be read is said as damage and left out. */
long th_hw_breakpoints(struct th_hwbp **out);
/* "read", "write", "read/write", "execute", or "type N" into BUF. */
const char *th_hwbp_type_str(unsigned type, char *buf, size_t len);

#pragma GCC visibility pop

#endif
