/*
 * tracehunt: the texts of dynamic ftrace objects as the kernel prints
 * them (print_rec(), the %pS of an ops and its trampoline's target),
 * shared by enabled_functions, the filter files and "ftrace sites".
 */
#ifndef TRACEHUNT_FTRACE_TEXT_H
#define TRACEHUNT_FTRACE_TEXT_H

#include "model/ftrace_ops.h"

/*
 * How print_rec() treats an ip that is not at a function's start:
 * THF_REC_ENABLED as enabled_functions prints it (v6.0+: beyond
 * FTRACE_MCOUNT_MAX_OFFSET, or without a symbol, it is
 * "__ftrace_invalid_address___OFFSET"; before, an ip without a symbol is
 * 0x%lx), THF_REC_FILTER as set_ftrace_filter does (the symbol whatever
 * the offset; no symbol: "__ftrace_invalid_address___0").
 */
enum thf_rec_mode { THF_REC_ENABLED, THF_REC_FILTER };

/* print_rec(): "name" or "name [mod]" into BUF; FALSE for an invalid
 * record (BUF then holds the invalid-address text). */
int thf_print_rec(ulong ip, enum thf_rec_mode mode, char *buf, size_t len);

/* %pS texts of an ops, computed once: trampoline, func, the ops itself,
 * and " ->X" (what the trampoline calls) or "" */
struct thf_opstr {
	int done;
	char tramp[320];
	char func[320];
	char self[320];
	char arrow[320];
};
const struct thf_opstr *thf_ops_str(struct thf_state *s, int i);
/* " ->X": what ftrace_caller (or ftrace_regs_caller) calls, or "" */
const char *thf_static_arrow(struct thf_state *s, int regs_en);

#endif
