/* Scenario "uprobe": a kprobe_multi link on vfs_fsync and vfs_fsync_range
 * (an fprobe: CONFIG_FPROBE, not in Debian's 6.1). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

__u64 th_kmulti_hits;

SEC("kprobe.multi/vfs_fsync*")
int th_kmulti(void *ctx)
{
	__sync_fetch_and_add(&th_kmulti_hits, 1);
	return 0;
}
