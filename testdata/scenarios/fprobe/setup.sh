# Scenario "fprobe" (issue 23): fprobe events, tracepoint probes, an event
# probe, and ftrace direct calls from modules (trixie and sid: Debian's
# 6.1 lacks CONFIG_FPROBE, neither has CONFIG_USER_EVENTS).
#   fprobes  f: on entry and f%return on exit with fetch arguments
#            ($argN, $retval, a dereference, BTF argument names where
#            the kernel resolves them), one with the kernel's default
#            group and name; enabled ones and disabled ones
#   tprobes  t: on a tracepoint (one enabled, one not)
#   eprobe   e: on the openat syscall event, enabled
#   direct   th_dvis (listed) and th_dhid (unlinks itself from the module
#            list) each call register_ftrace_direct() with a trampoline
#            of their own on a syscall wrapper
# A definition the kernel refuses is said on the console and left out:
# the truth (dynamic_events) then simply has no such line.  The enable
# file of each dynamic event is captured as truth/fprobe/enable/GRP/EVENT.

th_try() {
	echo "$1" >> "$2" 2>/dev/null ||
		echo "@@TH-SCENARIO-NOTE: refused '$1' >> $2" > /dev/console
}

th_a 'f:fprobes/th_fsync vfs_fsync_range a1=$arg1 start=$arg2:x64 dsync=$arg4:s32' \
	$T/dynamic_events
th_a 'f:fprobes/th_fsync_ret vfs_fsync_range%return rv=$retval:s32' \
	$T/dynamic_events
th_a 'f:th_fp/th_open do_sys_openat2 dfd=$arg1:s32 name=+0($arg2):ustring' \
	$T/dynamic_events
th_try 'f:fprobes/th_unlink_off do_unlinkat dfd=$arg1:s32' $T/dynamic_events
th_try 'f:th_btf/th_read vfs_read file count pos' $T/dynamic_events
th_try 'f:th_btf/th_read_ret vfs_read%return count $retval' \
	$T/dynamic_events
th_try 'f:th_btf/th_write vfs_write flags=file->f_flags:x32 count' \
	$T/dynamic_events
th_try 'f vfs_writev' $T/dynamic_events
th_try 't:th_tp/th_wake sched_waking pid=p->pid comm=p->comm' \
	$T/dynamic_events
[ -d $T/events/th_tp/th_wake ] ||
	th_try 't:th_tp/th_wake sched_waking task=$arg1' $T/dynamic_events
th_try 't:th_tp/th_sig_off signal_generate sig=$arg1:s32' $T/dynamic_events
th_try 'e:th_ep/th_ep_open syscalls.sys_enter_openat dfd=$dfd flags=$flags:x32' \
	$T/dynamic_events
for e in fprobes/th_fsync fprobes/th_fsync_ret th_fp/th_open th_btf/th_read \
    th_btf/th_read_ret th_btf/th_write th_tp/th_wake th_ep/th_ep_open; do
	[ -d $T/events/$e ] && th_w 1 $T/events/$e/enable
done
grep -q '^f:' $T/dynamic_events || th_fail "no fprobe event"

th_insmod th_dvis
th_insmod th_dhid

# Activity through the probed paths: a sync (vfs_fsync_range), opens,
# reads and writes, wakeups.
echo x > /tmp/th_sync
i=0
while [ $i -lt 5 ]; do
	sync -d /tmp/th_sync
	cat /proc/version > /dev/null
	/bin/busybox sh -c 'echo $PPID' > /dev/null
	echo y >> /tmp/th_sync
	i=$((i + 1))
done
sleep 1
th_w 0 $T/tracing_on
while read -r def rest; do
	e=${def#*:}
	th_cap fprobe/enable/$e $T/events/$e/enable
done < $T/dynamic_events
