# Scenario "events": kprobe events (fetch args, a kretprobe with maxactive,
# one left disabled) and the function tracer on a small filter.
th_a 'p:myprobe do_sys_openat2 dfd=%di filename=+0(%si):string flags=%dx:x32' $T/kprobe_events
th_a 'r5:myretprobe do_sys_openat2 ret=$retval' $T/kprobe_events
th_a 'p:tracehunt/idle_probe vfs_fsync_range file=%di:x64 datasync=%cx:s32' $T/kprobe_events
th_w 1 $T/events/kprobes/myprobe/enable
th_w 1 $T/events/kprobes/myretprobe/enable
th_w 'vfs_read vfs_write ksys_read ksys_write' $T/set_ftrace_filter
th_w function $T/current_tracer
i=0
while [ $i -lt 5 ]; do
	cat /proc/version > /dev/null
	echo hello > /tmp/x.$i
	i=$((i + 1))
done
th_w 0 $T/tracing_on
