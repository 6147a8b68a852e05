/* Scenario "bpf": what an eBPF rootkit leaves behind, loaded by
 * "th_bpfload -x", which pins what it made in /sys/fs/bpf and exits: no
 * process holds any of it, only the pins.  A kprobe program on getppid()
 * (its link pinned as /sys/fs/bpf/th_pinned where the kernel has BPF perf
 * links, v5.15, and the program itself as /sys/fs/bpf/progs/th_pinned), a
 * BTF-typed raw tracepoint (tp_btf) on sched_process_exec whose link alone
 * is pinned (/sys/fs/bpf/th_tp_btf: the program is held only by its link),
 * and their map pinned as /sys/fs/bpf/maps/th_pin_counts. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} th_pin_counts SEC(".maps");

static __always_inline void th_count(__u32 n)
{
	__u64 *v = bpf_map_lookup_elem(&th_pin_counts, &n);

	if (v)
		__sync_fetch_and_add(v, 1);
}

SEC("kprobe/__x64_sys_getppid")
int th_pinned(void *ctx)
{
	th_count(0);
	return 0;
}

SEC("tp_btf/sched_process_exec")
int th_tp_btf(void *ctx)
{
	th_count(1);
	return 0;
}
