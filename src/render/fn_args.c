/*
 * tracehunt: the arguments of a traced call, as the function and
 * function_graph tracers print them from an entry that recorded them
 * (print_function_args(), kernel/trace/trace_output.c): the registers
 * of the entry, the parameters of the function's prototype in the dump's
 * own BTF (lib/btf.c): vmlinux's, then the modules' (btf_find_func_proto()
 * by the name alone, kernel/trace/trace_btf.c).
 */
#include "render/trace_priv.h"
#include "model/trace_entries.h"
#include "model/btf_vmlinux.h"

#define TH_FA_MAX	32	/* args[] longer than this: not the kernel's */

uint32_t th_fn_args_min(int graph)
{
	const struct th_fnargs_layout *l = th_fnargs_layout();
	long off = graph ? l->graph_off : l->fn_off;

	if (!l->printed || off < 0 || l->max <= 0 || l->max > TH_FA_MAX)
		return UINT32_MAX;
	return off + l->max * sizeof(ulong);
}

/* lookup_symbol_name() of FUNC into NAME (KSYM_NAME_LEN): the last few
 * kept (a trace names the same few functions over and over); FALSE when
 * there is none. */
static int th_fa_name(ulong func, char *name, size_t len)
{
	enum { WAYS = 64 };
	static struct {
		ulong func;
		int ok;
		char name[128];
	} c[WAYS];
	unsigned h = (unsigned)(func >> 4) % WAYS;
	struct th_sym s;

	if (!c[h].func || c[h].func != func) {
		c[h].func = func;
		c[h].ok = th_ksym_lookup(func, &s) && s.name[0] &&
			  strlen(s.name) < sizeof(c[h].name);
		if (c[h].ok)
			strcpy(c[h].name, s.name);
	}
	th_strlcpy(name, c[h].ok ? c[h].name : "", len);
	return c[h].ok;
}

/* The BTF print_function_args() takes NAME's prototype from: vmlinux's
 * when it has NAME, else the first module's on btf_idr that has it
 * (bpf_find_btf_id(); the modules' are read only then); NULL: none. */
static const struct bt_btf *th_fa_btf(const char *name)
{
	const struct bt_btf *const *all;
	const struct bt_btf *b = th_btf_vmlinux();
	int n;

	if (!b || bt_find_func(b, name))
		return b;
	all = th_btf_all(&n);
	return bt_find_func_in(all, n, name);
}

size_t th_fn_args_text(ulong func, const unsigned char *ent, uint32_t len,
		       int graph, char *out, size_t outlen)
{
	const struct th_fnargs_layout *l = th_fnargs_layout();
	uint64_t args[TH_FA_MAX];
	const struct bt_btf *b;
	char name[128];
	int i;
	size_t n;

	if (len < th_fn_args_min(graph) || outlen < 3)
		return 0;
	for (i = 0; i < l->max; i++) {
		ulong v;

		memcpy(&v, ent + (graph ? l->graph_off : l->fn_off) +
		       i * sizeof(ulong), sizeof(v));
		args[i] = v;
	}
	/* no name, no prototype: the kernel prints "()" too */
	if (!th_fa_name(func, name, sizeof(name)) || !(b = th_fa_btf(name)))
		return th_strlcpy(out, "()", outlen);
	n = bt_func_args(b, name, args, l->max, sizeof(ulong), out, outlen);
	return MIN(n, outlen - 1);
}
