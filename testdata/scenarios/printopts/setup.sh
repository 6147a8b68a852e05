# Scenario "printopts" (issue 22): every option of options/ that changes
# how a line of `trace` prints, one per instance (instances have trace
# flags of their own) and in a few combinations, each instance with the
# same small set of events and, where the option concerns the function
# tracer, that tracer with a one-function set_ftrace_filter (TCG stays
# fast); the flags only the top level has (TOP_LEVEL_TRACE_FLAGS:
# irq-info, hash-ptr, printk-msg-only) at the top level; a trace_clock
# per instance; event triggers (stacktrace, enable_event, disable_event,
# snapshot, traceoff) and the function commands snapshot and traceoff;
# function_graph with non-default funcgraph-* options in an instance
# where the kernel takes one there; a latency tracer with a recorded
# maximum where the kernel has one.
#
# Not a census (no capture.conf): the trigger files events/*/*/trigger
# are census files (tens of thousands of files a boot); what the
# triggers did shows in the files every boot captures: the stacks and
# the soft-enabled event in `trace`, the snapshot buffers in `snapshot`,
# tracing_on, and the function commands in set_ftrace_filter.  The
# options scenario's census reads trigger files already.
#
# Every instance is stopped while the others are set up, traces during
# the one workload below, and is stopped before the capture: every
# trace file is exact.  A part this kernel lacks (an option, a clock, a
# tracer) is skipped with a console line.

# th_try VALUE FILE: write, or say on the console that this kernel
# refused it.
th_try() {
	echo "$1" > "$2" 2>/dev/null ||
		echo "@@TH-SCENARIO-NOTE: refused '$1' > $2" > /dev/console
}

# The pointers events print with %p hash as on a machine up a while (the
# options scenario says why).
timeout 60 head -c 1 /dev/random > /dev/null ||
	echo "@@TH-SCENARIO-NOTE: RNG not ready" > /dev/console

INSTS=
# th_inst NAME: an instance with a small buffer and the common events
# (an exec, a syscall, a kmalloc printing %p and %pS, filtered to this
# shell's own allocations), stopped until the workload.
th_inst() {
	I=$T/instances/$1
	mkdir $I || th_fail "mkdir instances/$1"
	th_w 0 $I/tracing_on
	th_w 64 $I/buffer_size_kb
	th_w 1 $I/events/sched/sched_process_exec/enable
	th_w 1 $I/events/syscalls/sys_enter_openat/enable
	th_w "common_pid == $$" $I/events/kmem/kmalloc/filter
	th_w 1 $I/events/kmem/kmalloc/enable
	INSTS="$INSTS $1"
}
# th_opt NAME OPTION VALUE: set an option of instance NAME, or say the
# kernel has no such option.
th_opt() {
	if [ -e $T/instances/$1/options/$2 ]; then
		th_w $3 $T/instances/$1/options/$2
	else
		echo "@@TH-SCENARIO-NOTE: no option $2" > /dev/console
	fi
}
# th_func NAME: the function tracer in instance NAME, on one function.
th_func() {
	th_w ksys_read $T/instances/$1/set_ftrace_filter
	th_w function $T/instances/$1/current_tracer
}

# The top level: nop, the common events; its own flags once every
# instance is made (an instance starts with the top level's flags).
th_w 0 $T/tracing_on
th_w 1 $T/events/sched/sched_process_exec/enable
th_w 1 $T/events/syscalls/sys_enter_openat/enable
th_w "common_pid == $$" $T/events/kmem/kmalloc/filter
th_w 1 $T/events/kmem/kmalloc/enable

# One option each, from its default.
th_inst parent; th_func parent; th_opt parent print-parent 0
th_inst symoff; th_func symoff; th_opt symoff sym-offset 1
th_inst symaddr; th_func symaddr; th_opt symaddr sym-addr 1
th_inst raw; th_func raw; th_opt raw raw 1
th_inst hex; th_func hex; th_opt hex hex 1
th_inst bin; th_func bin; th_opt bin bin 1
th_inst noctx; th_func noctx; th_opt noctx context-info 0
th_inst fields; th_opt fields fields 1
th_inst stack; th_opt stack stacktrace 1
th_inst fstack; th_func fstack; th_opt fstack func_stack_trace 1
th_inst userobj; th_opt userobj userstacktrace 1
th_opt userobj sym-userobj 1
th_inst noannot; th_opt noannot annotate 0
# (a buffer that wraps: "annotate" prints where a CPU's buffer started)
th_w 4 $T/instances/noannot/buffer_size_kb
th_inst annot
th_w 4 $T/instances/annot/buffer_size_kb
# Combinations.
th_inst latverb; th_func latverb; th_opt latverb latency-format 1
th_opt latverb verbose 1
th_inst latsym; th_func latsym; th_opt latsym latency-format 1
th_opt latsym sym-offset 1; th_opt latsym sym-addr 1
th_opt latsym print-parent 0
th_inst rawnoctx; th_func rawnoctx; th_opt rawnoctx raw 1
th_opt rawnoctx context-info 0
th_inst hexnoctx; th_func hexnoctx; th_opt hexnoctx hex 1
th_opt hexnoctx context-info 0
th_inst latnoctx; th_opt latnoctx latency-format 1
th_opt latnoctx context-info 0
th_inst latfields; th_opt latfields latency-format 1
th_opt latfields fields 1
th_inst tgidlat; th_opt tgidlat record-tgid 1
th_opt tgidlat latency-format 1

# Clocks (counter, uptime and x86-tsc print raw counts, the others
# nanoseconds), each on an instance above: ~7,000 tracefs files an
# instance on 6.1 keep their number down (a 512 MB guest).
th_clock() {
	if tr -d '[]' < $T/instances/$1/trace_clock | tr ' ' '\n' |
	    grep -qx -- "$2"; then
		th_w $2 $T/instances/$1/trace_clock
	else
		echo "@@TH-SCENARIO-NOTE: no trace_clock $2" > /dev/console
	fi
}
th_clock parent global
th_clock symoff mono
th_clock symaddr mono_raw
th_clock noctx boot
th_clock fields perf
th_clock stack tai
th_clock fstack uptime
th_clock userobj x86-tsc
th_clock raw counter
th_clock noannot counter
th_clock latverb counter
th_clock tgidlat uptime
th_clock latsym x86-tsc

# Event triggers: a kernel stack at each exec, an event soft-enabled by
# an openat and disabled again by a fork, a snapshot at the first openat,
# tracing stopped at the first exec.
th_inst trig
E=$T/instances/trig/events
th_w 1 $T/instances/trig/events/sched/sched_process_fork/enable
th_w stacktrace $E/sched/sched_process_exec/trigger
th_w 'enable_event:sched:sched_process_exit' \
	$E/syscalls/sys_enter_openat/trigger
th_w 'disable_event:sched:sched_process_exit' \
	$E/sched/sched_process_fork/trigger
th_inst trigsnap
th_w 'snapshot:1' $T/instances/trigsnap/events/syscalls/sys_enter_openat/trigger
th_inst trigoff
th_w 'traceoff:1' $T/instances/trigoff/events/sched/sched_process_exec/trigger
# Function commands: a snapshot at the first do_sys_openat2, tracing
# stopped at sync(2) (both listed in set_ftrace_filter).
th_inst fcmd
th_w 'do_sys_openat2:snapshot:1' $T/instances/fcmd/set_ftrace_filter
# (ksys_sync: the syscall wrappers are not traceable everywhere)
echo 'ksys_sync:traceoff' 2>/dev/null >> $T/instances/fcmd/set_ftrace_filter ||
	th_a '__x64_sys_sync:traceoff' $T/instances/fcmd/set_ftrace_filter

# function_graph in an instance (6.12+: several fgraph users), on one
# function (an instance has no set_graph_function: its set_ftrace_filter),
# with funcgraph options off their defaults.
th_inst graph
G=$T/instances/graph
th_w ksys_read $G/set_ftrace_filter
if echo function_graph 2>/dev/null > $G/current_tracer; then
	for o in funcgraph-proc funcgraph-abstime funcgraph-tail \
	    funcgraph-retval funcgraph-overrun; do
		th_opt graph $o 1
	done
	th_opt graph funcgraph-cpu 0
	th_opt graph funcgraph-overhead 0
else
	echo "@@TH-SCENARIO-NOTE: no function_graph in an instance" \
		> /dev/console
fi

# A latency tracer with a recorded maximum: its `trace` is the maximum's
# buffer.  Function tracing off within it (TCG), where the option exists.
lt=
for t in wakeup irqsoff preemptoff preemptirqsoff wakeup_rt; do
	if grep -qw $t $T/available_tracers; then
		lt=$t
		break
	fi
done
if [ -n "$lt" ]; then
	th_inst lat
	th_opt lat function-trace 0
	th_try $lt $T/instances/lat/current_tracer
else
	echo "@@TH-SCENARIO-NOTE: no latency tracer" > /dev/console
fi

# The flags only the top level has (TOP_LEVEL_TRACE_FLAGS), off their
# defaults there.
th_w 0 $T/options/irq-info
th_w 1 $T/options/printk-msg-only
[ -e $T/options/hash-ptr ] && th_w 0 $T/options/hash-ptr

# The workload, with every array tracing.
th_w 1 $T/tracing_on
for n in $INSTS; do
	echo 1 > $T/instances/$n/tracing_on
done
i=0
while [ $i -lt 3 ]; do
	cat /proc/version > /dev/null
	echo hello > /tmp/po.$i
	printf 'marker %d\n' $i > $T/trace_marker
	for n in parent raw hex bin noctx latverb rawnoctx hexnoctx; do
		printf 'marker %s %d\n' $n $i > $T/instances/$n/trace_marker
	done
	i=$((i + 1))
done
sync
for n in $INSTS; do
	echo 0 > $T/instances/$n/tracing_on
done
th_w 0 $T/tracing_on
echo "@@TH-SCENARIO-NOTE: $(grep MemAvailable /proc/meminfo)" > /dev/console
