# Scenario "live": tracing stays ON through the panic.  The function tracer
# follows the sysrq crash path, so the last entries in the dump show it.
th_w '*sysrq* panic vfs_write ksys_write' $T/set_ftrace_filter
th_w 1 $T/events/sched/sched_process_exit/enable
th_w function $T/current_tracer
i=0
while [ $i -lt 5 ]; do
	echo x > /tmp/live.$i
	i=$((i + 1))
done
