# Scenario "big8" (bench only, see BENCH_ONLY; issue 25): the big
# scenario's function tracer on every function, on 8 vCPUs with 64 MB
# per-CPU buffers (512 MB of ring buffer in a 3 GB guest), filled and
# overwritten by activity pinned to each CPU, then stopped.
th_w 65536 $T/buffer_size_kb
th_w function $T/current_tracer
n=$(nproc)
r=0
while [ $r -lt 30 ]; do
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
echo "big8: $r rounds" > /dev/console
# The whole live trace is over a GB of text: too much for the serial
# port, so capture.conf keeps its head, and its MD5 (with its size in
# bytes and lines) goes to the console, which the fixture keeps
# (tests/test_trace.py: test_trace_digest).
# (one read of the file: a tee to two counters through FIFOs)
mkdir -p /tmp
mkfifo /tmp/th-c /tmp/th-l
wc -c < /tmp/th-c > /tmp/th-bytes &
wc -l < /tmp/th-l > /tmp/th-lines &
set -- $(tee /tmp/th-c /tmp/th-l < $T/trace | md5sum)
wait
echo "@@TH-DIGEST trace md5 $1 bytes $(cat /tmp/th-bytes) lines" \
	"$(cat /tmp/th-lines)" > /dev/console
