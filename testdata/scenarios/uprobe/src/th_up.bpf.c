/* Scenario "uprobe": a uprobe and a uretprobe th_uload attaches through
 * perf links on busybox's mallopt (no section target: the loader gives
 * the file and offset). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

/* hits of each program */
__u64 th_hits[2];

SEC("uprobe")
int th_buprobe(void *ctx)
{
	__sync_fetch_and_add(&th_hits[0], 1);
	return 0;
}

SEC("uretprobe")
int th_buretprobe(void *ctx)
{
	__sync_fetch_and_add(&th_hits[1], 1);
	return 0;
}
