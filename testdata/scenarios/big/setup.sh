# Scenario "big" (bench only, see BENCH_ONLY): the function tracer on every
# function with 32 MB per-CPU buffers, filled and overwritten by activity
# pinned to each CPU, then stopped.  The dump holds millions of events and
# the distro kernel's whole dyn_ftrace table enabled.
th_w 32768 $T/buffer_size_kb
th_w function $T/current_tracer
# Rounds of tracefs walks on every CPU until each CPU's buffer overran
# (a few rounds are enough; bounded so a slow guest still finishes).
n=$(nproc)
r=0
while [ $r -lt 20 ]; do
	c=0
	while [ $c -lt $n ]; do
		taskset -c $c ls -R $T/events > /dev/null &
		c=$((c + 1))
	done
	wait
	r=$((r + 1))
	full=1
	for s in $T/per_cpu/cpu*/stats; do
		grep -q '^overrun: [1-9]' $s || full=0
	done
	[ $full = 1 ] && break
done
th_w 0 $T/tracing_on
echo "big: $r rounds" > /dev/console
