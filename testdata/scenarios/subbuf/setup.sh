# Scenario "subbuf": the global buffer and an instance with sub-buffers of
# other sizes (buffer_subbuf_size_kb, kernels since 6.8: SUITES names
# them), each overwritten many times.  Global: 8 KB sub-buffers, 32 KB
# asked for (5 sub-buffers a CPU), sched and read events; instance "big":
# 64 KB sub-buffers, 128 KB asked for (3 a CPU, the kernel rounds up), the
# same events and the function tracer on vfs_* and ksys_*.  The sub-buffer
# size is set first: changing it empties the buffer.
[ -f $T/buffer_subbuf_size_kb ] || th_fail "no buffer_subbuf_size_kb"
th_w 8 $T/buffer_subbuf_size_kb
th_w 32 $T/buffer_size_kb
th_w 1 $T/events/sched/enable
th_w 1 $T/events/syscalls/sys_enter_read/enable
th_w 1 $T/events/syscalls/sys_exit_read/enable
mkdir $T/instances/big || th_fail "mkdir instances/big"
B=$T/instances/big
th_w 64 $B/buffer_subbuf_size_kb
th_w 128 $B/buffer_size_kb
th_w 1 $B/events/sched/enable
th_w 1 $B/events/syscalls/sys_enter_read/enable
th_w 1 $B/events/syscalls/sys_exit_read/enable
th_w 'vfs_* ksys_*' $B/set_ftrace_filter
th_w function $B/current_tracer
i=0
while [ $i -lt 150 ]; do
	cat /proc/version > /dev/null
	ls / > /dev/null
	i=$((i + 1))
done
th_w 0 $B/tracing_on
th_w 0 $T/tracing_on
