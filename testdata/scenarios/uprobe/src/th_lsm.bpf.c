/* Scenario "uprobe": an LSM program on file_open that allows everything
 * (its trampoline is attached whether or not the bpf LSM is active). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

__u64 th_lsm_hits;

SEC("lsm/file_open")
int th_lsm(void *ctx)
{
	__sync_fetch_and_add(&th_lsm_hits, 1);
	return 0;
}
