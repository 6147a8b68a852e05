# Scenario "bigsub" (bench only, see BENCH_ONLY): "big" with 64 KB
# sub-buffers (buffer_subbuf_size_kb, kernels since 6.8: SUITES names
# them): the function tracer on every function, 32 MB a CPU (512
# sub-buffers), overwritten.  The bench's evidence that "ftrace trace -n"
# reads a number of sub-buffers that grows with N, not with the buffer.
# The sub-buffer size is set first: changing it empties the buffer.
[ -f $T/buffer_subbuf_size_kb ] || th_fail "no buffer_subbuf_size_kb"
th_w 64 $T/buffer_subbuf_size_kb
. /scenario/big.sh
