# Scenario "bpf": BPF programs attached through libbpf by th_bpfload (a
# kprobe and a kretprobe on do_sys_openat2, tracepoints on
# sys_enter/sys_exit_getdents64, the exit one holding
# bpf_probe_write_user, a raw tracepoint on sched_switch with its link
# pinned, fentry/fexit on vfs_read); what an eBPF rootkit leaves behind,
# made by a loader that pins it in /sys/fs/bpf and exits: a kprobe on
# getppid() (its program pinned in progs/, its link where the kernel has
# BPF perf links, v5.15), a tp_btf program on sched_process_exec held only
# by its pinned link, their map pinned in maps/, and another kprobe holding
# bpf_override_return where the kernel allows it
# (CONFIG_BPF_KPROBE_OVERRIDE: not Debian's); programs on the network
# path that only the kernel holds (th_bpfload -n: XDP on lo by netlink, a
# tcx ingress program on lo by BPF_PROG_ATTACH where v6.6 allows it, a
# netfilter link on ipv4 LOCAL_OUT pinned where v6.4 allows it; what the
# kernel accepted in bpf/net.out); and what bpftool said about them live:
# bpf/prog.json, link.json, map.json, perf.json, net.json, the [bpf] lines of
# /proc/kallsyms (bpf/kallsyms), each program's translated
# instructions (bpf/xlated.ID), and the pins: bpf/pins (a line per file
# of the bpf file system: its path, prog/link/map and the object's id, as
# bpftool KIND show pinned PATH said), bpf/bpffs.ls (ls -liR) and
# bpf/mounts (its lines of /proc/mounts), beside the tracefs captures.
mkdir -p /sys/fs/bpf
mount -t bpf bpf /sys/fs/bpf || th_fail "mount bpffs"
mkdir /sys/fs/bpf/progs /sys/fs/bpf/maps || th_fail "mkdir in bpffs"
th_bpfload > /tmp/bpfload.out 2> /tmp/bpfload.err &
i=0
while ! grep -q ready /tmp/bpfload.out 2>/dev/null; do
	i=$((i + 1))
	if [ $i -gt 600 ] || ! kill -0 $! 2>/dev/null; then
		th_fail "th_bpfload: $(cat /tmp/bpfload.err)"
	fi
	sleep 0.1
done
echo $! > /tmp/bpfload.pid
th_bpfload -x /bpf/th_pinned.bpf.o > /dev/console 2>&1 ||
	echo "bpf scenario: a pin failed (a kprobe link: BPF perf links, v5.15)" > /dev/console
th_bpfload -x /bpf/th_override.bpf.o > /dev/console 2>&1 ||
	echo "bpf scenario: no bpf_override_return program on this kernel" > /dev/console
th_bpfload -n > /tmp/bpf.net.out 2>&1 || th_fail "th_bpfload -n: $(cat /tmp/bpf.net.out)"
cat /tmp/bpf.net.out > /dev/console
# Activity through every attached program.
i=0
while [ $i -lt 10 ]; do
	cat /proc/version > /dev/null
	ls / > /dev/null
	i=$((i + 1))
done
# as the other scenarios: the ring buffers stop before the capture
th_w 0 $T/tracing_on
for what in prog link map perf net; do
	bpftool -j $what show > /tmp/bpf.$what.json 2> /tmp/bpf.$what.err ||
		th_fail "bpftool $what show: $(cat /tmp/bpf.$what.err)"
done
grep '\[bpf\]' /proc/kallsyms > /tmp/bpf.kallsyms
# every pin: its path, what it pins and that object's id
find /sys/fs/bpf -type f | sort | while read -r f; do
	for k in prog link map; do
		id=$(bpftool -j $k show pinned "$f" 2>/dev/null |
			sed -n 's/^{"id":\([0-9][0-9]*\),.*/\1/p')
		if [ -n "$id" ]; then
			echo "$f $k $id"
			break
		fi
	done
done > /tmp/bpf.pins
ls -liR /sys/fs/bpf > /tmp/bpf.bpffs.ls 2>&1
grep ' bpf ' /proc/mounts > /tmp/bpf.mounts
# each program's translated instructions, helper calls named by bpftool
for id in $(bpftool prog show | sed -n 's/^\([0-9][0-9]*\): .*/\1/p'); do
	bpftool prog dump xlated id $id > /tmp/bpf.xlated.$id 2>&1
	th_cap bpf/xlated.$id /tmp/bpf.xlated.$id
done
th_cap bpf/net.out /tmp/bpf.net.out
for what in prog link map perf net; do
	th_cap bpf/$what.json /tmp/bpf.$what.json
done
th_cap bpf/kallsyms /tmp/bpf.kallsyms
th_cap bpf/pins /tmp/bpf.pins
th_cap bpf/bpffs.ls /tmp/bpf.bpffs.ls
th_cap bpf/mounts /tmp/bpf.mounts
th_cap bpf/loader.pid /tmp/bpfload.pid
