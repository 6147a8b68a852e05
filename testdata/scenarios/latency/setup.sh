# Scenario "latency" (issue 22): the latency tracers, on the one Debian
# kernel that has them (sid's PREEMPT_RT flavor: SUITES names sid-rt;
# irqsoff and preemptoff are not built).  One after the other, each
# stopped before the next starts, so every file holds still for the
# capture:
#   instance "hw"  hwlat (20 ms of every 100 ms window, round-robin),
#                  about a second
#   instance "tl"  timerlat (a 20 ms period), about a second
#   top level      wakeup_dl on a SCHED_DEADLINE task, then wakeup_rt
#                  (the tracer at the capture) on a SCHED_FIFO 50 task
#                  sleeping 2 ms twenty times (src/th_rt.c: busybox has
#                  no chrt): its maximum in the max buffer, which "trace"
#                  shows, with tracing_thresh 0 (every new maximum kept);
#                  options/function-trace off (below)
# tracing_thresh is set last, after the tracers stopped (hwlat changed it
# while it ran and gave it back at its reset); tracing_max_latency keeps
# wakeup_rt's maximum.
for t in wakeup wakeup_rt wakeup_dl hwlat timerlat osnoise; do
	grep -qw $t $T/available_tracers || th_fail "no $t tracer"
done
th_w 256 $T/buffer_size_kb

mkdir $T/instances/hw || th_fail "mkdir instances/hw"
# (width first: the window may not be shorter than the width)
th_w 20000 $T/hwlat_detector/width
th_w 100000 $T/hwlat_detector/window
th_w hwlat $T/instances/hw/current_tracer
sleep 1
th_w 0 $T/instances/hw/tracing_on

mkdir $T/instances/tl || th_fail "mkdir instances/tl"
th_w 20000 $T/osnoise/timerlat_period_us
th_w timerlat $T/instances/tl/current_tracer
sleep 1
th_w 0 $T/instances/tl/tracing_on

# The wakeup tracers without their function tracing (function-trace):
# patching every call site at once oopsed this kernel under TCG (an int3
# at sched_clock_idle_wakeup_event+4 the text poke did not claim); the
# max trace keeps the wakeup, the switch and their callers.
th_w 0 $T/options/function-trace
th_w wakeup_dl $T/current_tracer
th_rt dl 2000 20000 10 || th_fail "th_rt dl"
th_w 0 $T/tracing_thresh
th_w wakeup_rt $T/current_tracer
th_rt fifo 50 20 2000 || th_fail "th_rt fifo"
th_w 0 $T/tracing_on
th_w 100 $T/tracing_thresh
