# Scenario "noftrace": for a kernel built without ftrace, tracing and
# kprobes (suite bookworm-noftrace, see SUITES).  Nothing tracing-related
# exists to set up.  The init's capture walks the tracefs and
# debugfs/kprobes roots and writes nothing when they are absent, so the
# scenario itself records as missing the files the tests check the
# commands' "not in this kernel" lines against (tests/test_noftrace.py).
echo "noftrace: tracefs $( [ -d /sys/kernel/tracing ] && echo present || echo absent)" > /dev/console
i=0
while [ $i -lt 3 ]; do
	cat /proc/version > /dev/null
	i=$((i + 1))
done
for f in trace enabled_functions kprobe_events; do
	th_cap "tracing/$f" "$T/$f"
done
th_cap "debug/kprobes/list" "$D/kprobes/list"
