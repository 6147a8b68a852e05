# Scenario "persist" (issue 24): a boot-mapped instance "boot_mapped"
# over the memory reserve_mem= sets aside (MACHINE: the kernel command
# line, and the guest resets allowed), read in the boot after the one
# that wrote it.
#
# First boot: modules th_pa, th_pb and th_pc, the instance's function
# tracer on their functions and on ksys_read, and its process events;
# then a reset (sysrq b: no sync, no shutdown; QEMU keeps the RAM).  A
# boot that finds no previous trace (KASLR may have put the kernel over
# the reserved memory, or the memory elsewhere) does the same again.
# The boot after: the kernel finds the previous boot's buffer valid and keeps
# it (last_boot_info names the previous boot's kernel text and modules);
# th_pb and th_pa load in the other order and th_pc not at all, so the
# module deltas differ from zero and one module has none.  Then the
# capture: nothing may write to the instance before it (that would start
# the instance anew: update_last_data()).
B=$T/instances/boot_mapped
[ -d $B ] || th_fail "no boot-mapped instance (reserve_mem/trace_instance)"
[ -f $B/last_boot_info ] || th_fail "no last_boot_info"
read first rest < $B/last_boot_info
case "$first" in
ffff*)
	echo "@@TH-SCENARIO-NOTE: second boot, last_boot_info: $first" \
		> /dev/console
	th_insmod th_pb
	th_insmod th_pa
	return 0
	;;
esac
echo "@@TH-SCENARIO-NOTE: first boot, last_boot_info: $first" > /dev/console
th_insmod th_pa
th_insmod th_pb
th_insmod th_pc
th_w 'th_pa_* th_pb_* th_pc_* ksys_read' $B/set_ftrace_filter
th_w 1 $B/events/sched/sched_process_exec/enable
th_w 1 $B/events/sched/sched_process_exit/enable
th_w function $B/current_tracer
th_w 1 $B/tracing_on
i=0
while [ $i -lt 3 ]; do
	cat /proc/th_pa /proc/th_pb /proc/th_pc
	i=$((i + 1))
done
th_w 0 $B/tracing_on
echo b >&3
sleep 100000
