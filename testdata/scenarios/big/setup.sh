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

# The capture: the whole live trace would be hundreds of MB through the
# emulated serial port.  Only its head (the header with
# entries-in-buffer/entries-written, and the first events) is captured, as
# NAME.head; every other file as usual (th_cap from scripts/guest/init).
th_cap() {
	case $1 in
	tracing/trace|tracing/per_cpu/*/trace)
		{ printf '@@TH-BEGIN %s.head\n' "$1"; head -n 40 "$2"
		  printf '\n@@TH-END %s.head\n' "$1"; } >&4
		return ;;
	esac
	if [ -r "$2" ] && [ -f "$2" ]; then
		{ printf '@@TH-BEGIN %s\n' "$1"; cat "$2"; printf '\n@@TH-END %s\n' "$1"; } >&4
	else
		printf '@@TH-MISSING %s\n' "$1" >&4
	fi
}
