/*
 * tracehunt: the kernel's own BTF, read from the dump: vmlinux's
 * (btf_vmlinux.c) and the modules' (btf_modules.c, the reader of struct
 * btf), for the function arguments the function and function_graph
 * tracers print (print_function_args(), kernels with
 * CONFIG_FUNCTION_TRACE_ARGS).
 */
#ifndef TRACEHUNT_BTF_VMLINUX_H
#define TRACEHUNT_BTF_VMLINUX_H

#include "model/model.h"
#include "btf.h"

#pragma GCC visibility push(hidden)

/*
 * The vmlinux BTF as the kernel keeps it (its .BTF section, between
 * __start_BTF and __stop_BTF: btf_parse_vmlinux() uses it in place),
 * read once and indexed by lib/btf; NULL, with one warning per command,
 * when the dump has no such section or it cannot be read or decoded.
 */
const struct bt_btf *th_btf_vmlinux(void);

/*
 * The BTFs bpf_find_btf_id() searches, in its order: the vmlinux one,
 * then each module's (a split BTF on top of it) as btf_idr holds them,
 * ids ascending; *N of them.  Read once; NULL and 0 without the vmlinux
 * BTF.  A module whose BTF cannot be read or decoded is left out, with
 * one warning per command (its functions then print "()" where the
 * kernel printed their arguments).
 */
const struct bt_btf *const *th_btf_all(int *n);

/* The id of the struct btf at BTF (bpftool's btf_id); 0 when unreadable. */
unsigned int th_bpf_btf_id(ulong btf);

#pragma GCC visibility pop

#endif
