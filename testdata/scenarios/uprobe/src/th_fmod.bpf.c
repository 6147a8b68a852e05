/* Scenario "uprobe": an fmod_ret program on security_file_open that never
 * changes what it returns (0: the function runs as always). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

__u64 th_fmod_hits;

SEC("fmod_ret/security_file_open")
int th_fmod(void *ctx)
{
	__sync_fetch_and_add(&th_fmod_hits, 1);
	return 0;
}
