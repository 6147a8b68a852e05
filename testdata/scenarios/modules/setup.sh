# Scenario "modules": a listed module and a self-unlinking one, each with a
# kprobe (pre+post), a kprobe inside a function, a kretprobe with
# entry_handler/data_size/maxactive and an IPMODIFY ftrace_ops.
th_insmod th_visible
th_insmod th_hidden
# Activity through every probed path.
i=0
while [ $i -lt 20 ]; do
	cat /proc/version > /dev/null
	echo x > /tmp/f.$i
	umask 022
	id > /dev/null
	sync
	i=$((i + 1))
done
sleep 1
th_w 0 $T/tracing_on
