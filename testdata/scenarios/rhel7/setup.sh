# Scenario "rhel7" (RHEL 7's 3.10 kernel only, suite rhel7): the seed
# case's hooks and the classic ones on a 3.10 kernel: a listed module and a
# self-unlinking one, each with a kprobe (pre+post), a kprobe inside a
# function, a kretprobe with entry_handler/data_size/maxactive and an
# IPMODIFY ftrace_ops; the seed's jprobe `my_fork [jprobe_test]` on
# do_fork; SystemTap-style kprobes/kretprobes (stap_th_probes); kprobe
# events (args, a kretprobe, one left disabled); and the function tracer
# on a small filter.  3.10 has no tracefs: the tracing directory is
# debugfs's (scripts/fixture.py points $T there for this suite).
th_insmod th_visible
th_insmod th_hidden
th_insmod jprobe_test
th_insmod stap_th_probes
# No x8..x64 fetch types before 17ce3dc7e5a0 (v4.9): 3.10 refuses them.
th_a 'p:myprobe do_sys_open dfd=%di filename=+0(%si):string flags=%dx:u32' $T/kprobe_events
th_a 'r:myretprobe do_sys_open ret=$retval' $T/kprobe_events
th_a 'p:tracehunt/idle_probe vfs_fsync_range file=%di:u64 datasync=%cx:s32' $T/kprobe_events
th_w 1 $T/events/kprobes/myprobe/enable
th_w 1 $T/events/kprobes/myretprobe/enable
th_w 'vfs_read vfs_write' $T/set_ftrace_filter
th_w function $T/current_tracer
# Activity through every probed path (do_fork: the forks of cat, id...).
i=0
while [ $i -lt 10 ]; do
	cat /proc/version > /dev/null
	echo x > /tmp/f.$i
	umask 022
	id > /dev/null
	sync
	i=$((i + 1))
done
sleep 1
th_w 0 $T/tracing_on
