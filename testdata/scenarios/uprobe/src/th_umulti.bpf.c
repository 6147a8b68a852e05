/* Scenario "uprobe": a program th_uload attaches as one uprobe_multi link
 * (v6.6) on busybox's main and _start.  Bookworm's libbpf 1.1 predates
 * uprobe_multi: a plain kprobe section, the attach type set by the
 * loader. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

__u64 th_umulti_hits;

SEC("kprobe")
int th_umulti(void *ctx)
{
	__sync_fetch_and_add(&th_umulti_hits, 1);
	return 0;
}
