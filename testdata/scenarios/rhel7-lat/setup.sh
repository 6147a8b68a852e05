# Scenario "rhel7-lat" (RHEL 7's 3.10, suite rhel7): the latency output of
# a 3.10 kernel, which no other fixture has: the wakeup tracer (all tasks,
# CONFIG_SCHED_TRACER), whose start sets options/latency-format, with its
# function tracing on a small filter; "trace" shows the max buffer of the
# longest wakeup under 3.10's latency header, print_lat_help_header() and
# lat_print_generic()'s "%5d" pids, and lat_print_timestamp() before
# trace_find_mark() ('!' past 100 us, '+' past 1 us).
th_w 'vfs_read vfs_write' $T/set_ftrace_filter
th_w 1 $T/events/syscalls/sys_enter_read/enable
th_w 1 $T/events/syscalls/sys_exit_read/enable
th_w wakeup $T/current_tracer
# Wakeups from idle and between the shells' children.
i=0
while [ $i -lt 20 ]; do
	cat /proc/version > /dev/null
	ls / > /dev/null
	sleep 0.05
	i=$((i + 1))
done
th_w 0 $T/tracing_on
# With tracing_thresh 0 a wakeup slower than tracing_max_latency swaps the
# max buffer in whether tracing is on or not (3.10's tracing_on stops the
# recording, not update_max_tr()): the capture's own wakeups could change
# "trace" between the capture and the panic.  A maximum of 4 s keeps it
# (the header's latency is the max buffer's saved_latency, not this file).
th_w 4000000 $T/tracing_max_latency
