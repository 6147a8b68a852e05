# Scenario "cpus" (issue 25: how tracehunt's cost grows with the CPUs): the
# same workload on every CPU of the guest, cpus2, cpus8 and cpus32 differing
# only in their MACHINE (2, 8 and 32 vCPUs).  Each CPU's 512 KB buffer is
# filled and overwritten by a process pinned to it (every syscall's enter
# and exit, the scheduler's switches and wakeups) until every CPU overran:
# the same entries per CPU whatever their number, so the decoding cost per
# entry can be compared from 2 to 32.
th_w 512 $T/buffer_size_kb
th_w 1 $T/events/syscalls/enable
th_w 1 $T/events/sched/sched_switch/enable
th_w 1 $T/events/sched/sched_wakeup/enable
n=$(nproc)
r=0
while [ $r -lt 12 ]; do
	c=0
	while [ $c -lt $n ]; do
		taskset -c $c sh -c 'i=0; while [ $i -lt 60 ]; do
			cat /proc/version > /dev/null; i=$((i + 1)); done' &
		c=$((c + 1))
	done
	wait
	r=$((r + 1))
	full=1
	for s in $T/per_cpu/cpu*/stats; do
		grep -q '^overrun: [1-9]' $s || full=0
	done
	[ $full = 1 ] && break
done
th_w 0 $T/tracing_on
echo "cpus: $n CPUs, $r rounds" > /dev/console
