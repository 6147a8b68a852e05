# Scenario "funcargs": the traced function's arguments printed from BTF
# (options/func-args, options/funcgraph-args: kernels with
# CONFIG_FUNCTION_TRACE_ARGS, since 6.16; SUITES names them).  Global:
# the function tracer on a few functions whose arguments are signed and
# unsigned ints, pointers, an enum (task_work_add), a struct passed by
# value (vm_normal_page's pte_t) and more than six of them (do_mmap),
# first without func-args and then with it, so that both forms of the
# entry are in the buffer.  Instance "g": function_graph on nested and
# leaf calls, likewise first without funcgraph-args, then with it (and
# funcgraph-retval where the kernel has it).  Both also trace every
# function of two modules (modules/): the kernel prints their arguments
# from the modules' own BTF (split BTF on top of vmlinux's), looked up by
# name in vmlinux's BTF first, then in the modules' in the order they
# were loaded (th_fa2's th_fa_same prints with th_fa1's prototype, its
# cmdline_proc_show with vmlinux's).  Tracing is stopped before the
# capture.
[ -f $T/options/func-args ] || th_fail "no options/func-args"
th_insmod th_fa1
th_insmod th_fa2
th_w 'vfs_read ksys_read do_sys_openat2 task_work_add do_mmap vm_normal_page security_file_permission alloc_fd' $T/set_ftrace_filter
th_a '*:mod:th_fa1' $T/set_ftrace_filter
th_a '*:mod:th_fa2' $T/set_ftrace_filter
th_w function $T/current_tracer
mkdir $T/instances/g || th_fail "mkdir instances/g"
G=$T/instances/g
th_w 'ksys_read vfs_read security_file_permission do_sys_openat2 getname_flags alloc_fd fd_install path_lookupat vfs_statx task_work_add' $G/set_ftrace_filter
th_a '*:mod:th_fa1' $G/set_ftrace_filter
th_a '*:mod:th_fa2' $G/set_ftrace_filter
th_w function_graph $G/current_tracer
cat /proc/version > /dev/null
th_w 1 /sys/module/th_fa1/parameters/run
th_w 1 /sys/module/th_fa2/parameters/run
th_w 1 $T/options/func-args
th_w 1 $G/options/funcgraph-args
[ -f $G/options/funcgraph-retval ] && th_w 1 $G/options/funcgraph-retval
i=0
while [ $i -lt 8 ]; do
	cat /proc/version > /dev/null
	ls / > /dev/null
	stat / > /dev/null
	[ $i -lt 3 ] && th_w $i /sys/module/th_fa1/parameters/run
	[ $i -lt 3 ] && th_w x$i /sys/module/th_fa2/parameters/run
	i=$((i + 1))
done
th_w 0 $G/tracing_on
th_w 0 $T/tracing_on
