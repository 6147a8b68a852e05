# Scenario "noftrace": for a kernel built without ftrace, tracing and
# kprobes (suite bookworm-noftrace, see SUITES).  Nothing tracing-related
# exists to set up; the guest init's capture then records every tracefs
# and debugfs/kprobes file as missing, which is the live truth the tests
# check the commands' "not in this kernel" lines against.
echo "noftrace: tracefs $( [ -d /sys/kernel/tracing ] && echo present || echo absent)" > /dev/console
i=0
while [ $i -lt 3 ]; do
	cat /proc/version > /dev/null
	i=$((i + 1))
done
