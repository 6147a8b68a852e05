# Scenario "options": the trace-file options and event kinds whose lines the
# kernel prints in their own ways, side by side in one boot:
#   top level  record-tgid; uprobe + uretprobe on busybox, an eprobe, a
#              synthetic event, kprobes with symstr and on a raw address,
#              trace_marker_raw records
#   lat        options/latency-format, a few sched events, trace_marker
#   ustack     options/userstacktrace on syscall events
#   ptrs       events printing %p/%pS (kmem:kmalloc, timer:hrtimer_start)
#   combo      latency-format and userstacktrace together
#   snap       a non-empty snapshot buffer (echo 1 > snapshot)
# and hist triggers of every kind (keys, values, sort, modifiers, a
# stacktrace key, a shared name=), paused before the capture.
# A part the kernel lacks (eprobes before 5.15, symstr before 6.3) is
# skipped with a console line: the capture then simply has no such lines.

# th_try VALUE FILE: append, or say on the console that this kernel
# refused it (a feature it does not have).
th_try() {
	echo "$1" >> "$2" 2>/dev/null ||
		echo "@@TH-SCENARIO-NOTE: refused '$1' >> $2" > /dev/console
}

# th_le FILE OFFSET N: the N-byte little-endian number at OFFSET of FILE.
th_le() {
	set -- $(od -An -tu1 -j "$2" -N "$3" "$1")
	v=0
	s=0
	for b; do
		v=$((v + (b << s)))
		s=$((s + 8))
	done
	echo $v
}

# th_vaddr_off FILE VADDR: the file offset of virtual address VADDR of an
# ELF64 executable (from its PT_LOAD program headers).
th_vaddr_off() {
	phoff=$(th_le "$1" 32 8)
	phentsize=$(th_le "$1" 54 2)
	phnum=$(th_le "$1" 56 2)
	n=0
	while [ $n -lt $phnum ]; do
		ph=$((phoff + n * phentsize))
		if [ $(th_le "$1" $ph 4) -eq 1 ]; then
			off=$(th_le "$1" $((ph + 8)) 8)
			va=$(th_le "$1" $((ph + 16)) 8)
			sz=$(th_le "$1" $((ph + 32)) 8)
			if [ $2 -ge $va ] && [ $2 -lt $((va + sz)) ]; then
				echo $(($2 - va + off))
				return 0
			fi
		fi
		n=$((n + 1))
	done
	th_fail "no PT_LOAD holds $2 in $1"
}

# The uprobe targets in the static busybox: _start (the ELF entry), and
# the first function main calls (main's address is the immediate of
# "mov $main,%rdi" in glibc's x86-64 _start; its first call is "e8 rel32"
# at main+12 in busybox 1.35).  Checked by opcode, never guessed.
# The kernel hashes "%p" with a key it fills once its RNG is ready
# (lib/vsprintf.c); a blocking read makes the RNG gather jitter entropy
# at once (try_to_generate_entropy(), 5.4+), and 6.1 polls for it every
# second: the pointers below print hashed, as on a machine up for a while.
timeout 60 head -c 1 /dev/random > /dev/null ||
	echo "@@TH-SCENARIO-NOTE: RNG not ready" > /dev/console
sleep 2

BB=/bin/busybox
entry=$(th_le $BB 24 8)
entry_off=$(th_vaddr_off $BB $entry)
[ "$(od -An -tx1 -j $((entry_off + 20)) -N 3 $BB | tr -d ' ')" = 48c7c7 ] ||
	th_fail "busybox _start: no mov \$main,%rdi at +20"
main=$(th_le $BB $((entry_off + 23)) 4)
main_off=$(th_vaddr_off $BB $main)
[ "$(od -An -tx1 -j $((main_off + 12)) -N 1 $BB | tr -d ' ')" = e8 ] ||
	th_fail "busybox main: no call at +12"
rel=$(th_le $BB $((main_off + 13)) 4)
[ $rel -ge 2147483648 ] && rel=$((rel - 4294967296))
callee_off=$(th_vaddr_off $BB $((main + 17 + rel)))

th_w 1 $T/options/record-tgid
th_a "p:uprobes/bb_start $BB:$(printf 0x%x $entry_off) sp=%sp:x64" \
	$T/uprobe_events
th_a "r:uprobes/bb_ret $BB:$(printf 0x%x $callee_off) rv=%ax:s32" \
	$T/uprobe_events
th_w 1 $T/events/uprobes/bb_start/enable
th_w 1 $T/events/uprobes/bb_ret/enable

# An eprobe on the openat syscall event (5.15+).
th_try 'e:eprobes/openat_e syscalls.sys_enter_openat dfd=$dfd flags=$flags:x32 name=+0($filename):ustring' \
	$T/dynamic_events
[ -d $T/events/eprobes/openat_e ] &&
	th_w 1 $T/events/eprobes/openat_e/enable

# A synthetic event fired by a hist trigger pair (the example of the
# kernel's histogram documentation), where the kernel has hist triggers.
# A trigger with a variable cannot be paused (":pause" re-parses the
# spec, and create_var_field() refuses the variable as already defined):
# these two count only the wakeups of the processes named "thwork", which
# are gone before the capture, so their histograms are still then too.
if [ -e $T/synthetic_events ]; then
	th_w 'wakeup_latency u64 lat; pid_t pid; int prio' $T/synthetic_events
	th_w 'hist:keys=pid:ts0=common_timestamp.usecs if comm == "thwork"' \
		$T/events/sched/sched_waking/trigger
	th_w 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,next_prio) if next_comm == "thwork"' \
		$T/events/sched/sched_switch/trigger
	th_w 1 $T/events/synthetic/wakeup_latency/enable
else
	echo "@@TH-SCENARIO-NOTE: no synthetic_events" > /dev/console
fi

# kprobes: symstr fetch args (6.3+), and one on a raw address (printed
# "0x%p" in kprobe_events: hashed).
th_try 'p:tracehunt/symstr_probe do_sys_openat2 caller=+0($stack):symstr' \
	$T/kprobe_events
[ -d $T/events/tracehunt/symstr_probe ] &&
	th_w 1 $T/events/tracehunt/symstr_probe/enable
addr=$(grep ' [Tt] vfs_fsync_range$' /proc/kallsyms | cut -d' ' -f1)
case "$addr" in
''|0000000000000000) echo "@@TH-SCENARIO-NOTE: no vfs_fsync_range address" \
	> /dev/console ;;
*) th_a "p:tracehunt/rawaddr 0x$addr" $T/kprobe_events ;;
esac

# Instances: their own options, events and buffers.
mkdir $T/instances/lat $T/instances/ustack $T/instances/ptrs \
	$T/instances/combo ||
	th_fail "mkdir instances"
L=$T/instances/lat
th_w 1 $L/options/latency-format
th_w 1 $L/events/sched/sched_process_fork/enable
th_w 1 $L/events/sched/sched_process_exec/enable
th_w 1 $L/events/sched/sched_process_exit/enable
U=$T/instances/ustack
th_w 1 $U/options/userstacktrace
th_w 1 $U/events/syscalls/sys_enter_openat/enable
th_w 1 $U/events/sched/sched_process_exec/enable
P=$T/instances/ptrs
th_w 1 $P/events/kmem/kmalloc/enable
th_w 1 $P/events/timer/hrtimer_start/enable
C=$T/instances/combo
th_w 1 $C/options/latency-format
th_w 1 $C/options/userstacktrace
th_w 1 $C/events/sched/sched_process_exec/enable
th_w 1 $C/events/syscalls/sys_enter_openat/enable

# The settings files of issue 22's census, away from the instances above
# (their trace files stay as they were): an instance "pids" with pid
# lists, its own cpumask, buffer_percent, max latency and a filter error
# in its error_log; at the top, tracing_thresh and max_graph_depth (no
# effect without function_graph), an error in kprobe_events' log, and the
# stack tracer run once (stack_trace keeps its maximum once it is off).
I=$T/instances/pids
mkdir $I || th_fail "mkdir instances/pids"
th_w $$ $I/set_event_pid
th_w 1 $I/set_event_notrace_pid
th_w "$$ 1" $I/set_ftrace_pid
th_w 2 $I/set_ftrace_notrace_pid
th_w 70 $I/buffer_percent
th_w 1 $I/tracing_cpumask
# (7.2 has no tracing_max_latency here: said on the console, not fatal)
echo 42 2>/dev/null > $I/tracing_max_latency ||
	echo "@@TH-SCENARIO-NOTE: refused 42 > $I/tracing_max_latency" \
	> /dev/console
echo 'no_such_field == 1' > $I/events/sched/sched_switch/filter 2>/dev/null
th_w 100 $T/tracing_thresh
th_w 5 $T/max_graph_depth
echo 'p:tracehunt/bad_type vfs_read arg=%di:no_such_type' >> \
	$T/kprobe_events 2>/dev/null
# The stack tracer patches every call site it traces, twice (on, off):
# with all ~40,000 under TCG that livelocked init for minutes in some
# boots (soft lockups of 400 s and more).  Its filter keeps it to the
# read path the cat below takes.
if [ -w /proc/sys/kernel/stack_tracer_enabled ]; then
	[ -w $T/stack_trace_filter ] && th_w 'vfs_read ksys_read' \
		$T/stack_trace_filter
	th_w 1 /proc/sys/kernel/stack_tracer_enabled
	cat /proc/version > /dev/null
	th_w 0 /proc/sys/kernel/stack_tracer_enabled
fi

# Hist triggers (where the kernel has them), each paused once the
# workload below filled it: the events they count (syscalls, kmalloc,
# fork, exec) are the capture's own too, and a paused trigger counts no
# more (event_triggers_call()).  Each is tried: a modifier this kernel
# lacks (.buckets 5.18, .percent/.graph 6.3) is said on the console.
TH_HISTS=/tmp/th_hists
: > $TH_HISTS
# th_hist SPEC EVENT_DIR: add the hist trigger SPEC, to pause later.
th_hist() {
	if echo "$1" >> "$2/trigger" 2>/dev/null; then
		echo "$2 $1" >> $TH_HISTS
	else
		echo "@@TH-SCENARIO-NOTE: refused '$1' >> $2/trigger" \
			> /dev/console
		return 1
	fi
}
if [ -e $T/events/kmem/kmalloc/hist ]; then
	E=$T/events
	th_hist 'hist:keys=id.syscall,common_pid.execname:vals=hitcount:sort=id,hitcount.descending' \
		$E/raw_syscalls/sys_enter
	th_hist 'hist:keys=call_site.sym-offset:vals=bytes_req,bytes_alloc:sort=bytes_alloc.descending,call_site' \
		$E/kmem/kmalloc
	th_hist 'hist:keys=call_site.sym,gfp_flags.hex:vals=hitcount,bytes_alloc.hex' \
		$E/kmem/kmalloc
	th_hist 'hist:keys=bytes_req.log2:vals=hitcount:sort=bytes_req' \
		$E/kmem/kmalloc
	# (the modifiers a kernel takes are in its README)
	th_readme() {
		grep -q "$1" $T/README && return 0
		echo "@@TH-SCENARIO-NOTE: no $1 in README" > /dev/console
		return 1
	}
	th_readme '\.buckets' &&
		th_hist 'hist:keys=bytes_alloc.buckets=64:vals=hitcount,bytes_req:sort=bytes_alloc' \
			$E/kmem/kmalloc
	th_readme '\.percent' &&
		th_hist 'hist:keys=gfp_flags:vals=hitcount,bytes_req.percent:sort=bytes_req.descending' \
			$E/kmem/kmalloc
	th_readme '\.graph' &&
		th_hist 'hist:keys=common_pid.execname:vals=hitcount,bytes_alloc.graph' \
			$E/kmem/kmalloc
	# (the stack key is "common_stacktrace" from 6.5 on, which still
	# takes "stacktrace"; its README names the new one)
	st=stacktrace
	grep -q common_stacktrace $T/README && st=common_stacktrace
	th_hist "hist:keys=$st:vals=hitcount" $E/sched/sched_process_fork
	th_hist 'hist:keys=cpu,pid.hex:vals=hitcount:sort=pid' \
		$E/sched/sched_process_exec
	th_hist 'hist:name=thshared:keys=common_pid.execname:vals=hitcount' \
		$E/sched/sched_process_fork
	th_hist 'hist:name=thshared:keys=common_pid.execname:vals=hitcount' \
		$E/sched/sched_process_exit
else
	echo "@@TH-SCENARIO-NOTE: no hist triggers" > /dev/console
fi

# The snapshot buffer of an instance "snap", filled: its events until
# the swap are in its snapshot, the later ones in its trace.
S=$T/instances/snap
mkdir $S || th_fail "mkdir instances/snap"
th_w 128 $S/buffer_size_kb
th_w 1 $S/events/sched/sched_process_exec/enable
th_w 1 $S/events/sched/sched_process_exit/enable
cat /proc/version > /dev/null
echo 1 2>/dev/null > $S/snapshot ||
	echo "@@TH-SCENARIO-NOTE: refused 1 > $S/snapshot" > /dev/console

# The processes the two synthetic-event triggers count.
( echo -n thwork > /proc/self/comm
  j=0
  while [ $j -lt 4 ]; do
	sleep 0
	j=$((j + 1))
  done )

i=0
while [ $i -lt 3 ]; do
	cat /proc/version > /dev/null
	echo hello > /tmp/opt.$i
	printf 'marker %d\n' $i > $L/trace_marker
	i=$((i + 1))
done
printf '\052\000\000\000ce buf' > $T/trace_marker_raw
printf '\007\000\000\000\001\002\003' > $T/trace_marker_raw

# Pause every hist trigger added above, in the order they were added.
while read -r dir spec; do
	echo "$spec:pause" >> $dir/trigger 2>/dev/null ||
		echo "@@TH-SCENARIO-NOTE: refused '$spec:pause' >> $dir/trigger" \
		> /dev/console
done < $TH_HISTS

th_w 0 $S/tracing_on
th_w 0 $I/tracing_on
th_w 0 $C/tracing_on
th_w 0 $P/tracing_on
th_w 0 $U/tracing_on
th_w 0 $L/tracing_on
th_w 0 $T/tracing_on
