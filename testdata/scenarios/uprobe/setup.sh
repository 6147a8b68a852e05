# Scenario "uprobe" (issue 23): uprobes from every source on the static
# busybox, and the BPF program kinds the bpf scenario lacks.
#   tracefs  uprobes/th_mallopt (fetch arguments: registers, a file
#            offset) and the uretprobe uprobes/th_mallopt_ret on the first
#            function busybox's main calls (glibc's mallopt), th_grp/th_main
#            on main, all enabled; an unnamed probe on _start left disabled
#            (in uprobe_events, but not in the kernel's uprobes tree)
#   modules  th_uvis (listed) with a uprobe consumer of its own on _start,
#            th_uhid, one on main, that unlinks itself from the module list
#   BPF      th_uload: a uprobe and a uretprobe on mallopt through perf
#            links, a uprobe_multi link on main and _start (v6.6), a
#            kprobe_multi link on vfs_fsync* (CONFIG_FPROBE: not Debian's
#            6.1), fmod_ret on security_file_open, LSM on file_open; a kind
#            the kernel refuses is said on the console and left out
# Each runs a few times, tracing stops, and bpftool's JSON (prog, link,
# map, perf), the [bpf] lines of /proc/kallsyms and the loader's
# /proc/PID/fdinfo (a kprobe_multi or uprobe_multi link's places, where
# the kernel shows them) are captured as truth/bpf/*, and each uprobe
# event's enable file (only census scenarios capture those) as
# truth/uprobe/enable/GROUP/EVENT, beside the tracefs files
# (uprobe_events, uprobe_profile, dynamic_events).  After the capture no
# busybox is executed: the profile's hits stay as read.

# th_le FILE OFFSET N: the N-byte little-endian number at OFFSET of FILE.
th_le() {
	set -- $(od -An -tu1 -j "$2" -N "$3" "$1")
	v=0
	s=0
	for b; do
		v=$((v + (b << s)))
		s=$((s + 8))
	done
	echo $v
}

# th_off FILE VADDR: the file offset of VADDR in an ELF64 executable, from
# the PT_LOAD program header that maps it.
th_off() {
	phoff=$(th_le "$1" 32 8)
	phsz=$(th_le "$1" 54 2)
	phn=$(th_le "$1" 56 2)
	n=0
	while [ $n -lt $phn ]; do
		ph=$((phoff + n * phsz))
		if [ $(th_le "$1" $ph 4) -eq 1 ]; then
			o=$(th_le "$1" $((ph + 8)) 8)
			va=$(th_le "$1" $((ph + 16)) 8)
			sz=$(th_le "$1" $((ph + 32)) 8)
			if [ $2 -ge $va ] && [ $2 -lt $((va + sz)) ]; then
				echo $(($2 - va + o))
				return 0
			fi
		fi
		n=$((n + 1))
	done
	th_fail "no PT_LOAD of $1 maps $2"
}

# th_bytes FILE OFFSET N: N bytes at OFFSET as hex digits
th_bytes() {
	od -An -tx1 -j "$2" -N "$3" "$1" | tr -d ' \n'
}

# The targets, read from the binary and checked by their opcodes: _start
# (the ELF entry); main (the immediate of "mov $main,%rdi" at _start+20 in
# glibc's static x86-64 start code); the callee of main's first call
# ("e8 rel32" at main+12 in busybox 1.35: mallopt(M_TRIM_THRESHOLD, ...)).
BB=/bin/busybox
entry=$(th_le $BB 24 8)
start=$(th_off $BB $entry)
[ "$(th_bytes $BB $((start + 20)) 3)" = 48c7c7 ] ||
	th_fail "busybox _start: no mov \$main,%rdi at +20"
mainva=$(th_le $BB $((start + 23)) 4)
main=$(th_off $BB $mainva)
[ "$(th_bytes $BB $((main + 12)) 1)" = e8 ] ||
	th_fail "busybox main: no call at +12"
rel=$(th_le $BB $((main + 13)) 4)
[ $rel -ge 2147483648 ] && rel=$((rel - 4294967296))
callee=$(th_off $BB $((mainva + 17 + rel)))
START=$(printf 0x%x $start)
MAIN=$(printf 0x%x $main)
CALLEE=$(printf 0x%x $callee)
echo "uprobe scenario: _start $START main $MAIN mallopt $CALLEE" > /dev/console

th_a "p:uprobes/th_mallopt $BB:$CALLEE param=%di:s32 value=%si:x32 magic=@+0:x32" \
	$T/uprobe_events
th_a "r:uprobes/th_mallopt_ret $BB:$CALLEE rv=\$retval:s32" $T/uprobe_events
th_a "p:th_grp/th_main $BB:$MAIN argc=%di:u32 argv0=+0(+0(%si)):string" \
	$T/uprobe_events
th_a "p $BB:$START" $T/uprobe_events
th_w 1 $T/events/uprobes/th_mallopt/enable
th_w 1 $T/events/uprobes/th_mallopt_ret/enable
th_w 1 $T/events/th_grp/th_main/enable
th_insmod th_uvis offset=$START
th_insmod th_uhid offset=$MAIN

th_uload $BB $CALLEE $MAIN $START /bpf/th_up.bpf.o /bpf/th_umulti.bpf.o \
	/bpf/th_kmulti.bpf.o /bpf/th_fmod.bpf.o /bpf/th_lsm.bpf.o \
	> /tmp/uload.out 2> /tmp/uload.err &
i=0
while ! grep -q ready /tmp/uload.out 2>/dev/null; do
	i=$((i + 1))
	if [ $i -gt 600 ] || ! kill -0 $! 2>/dev/null; then
		th_fail "th_uload: $(cat /tmp/uload.err)"
	fi
	sleep 0.1
done
echo $! > /tmp/uload.pid
sed 's/^/uprobe scenario: /' /tmp/uload.err > /dev/console

# Activity: a busybox executed (an applet run inside the shell enters
# neither _start nor main), a file synced (vfs_fsync_range), opened.
echo x > /tmp/th_sync
i=0
while [ $i -lt 5 ]; do
	(exec $BB true)
	(exec $BB sync -d /tmp/th_sync)
	cat /proc/version > /dev/null
	i=$((i + 1))
done
th_w 0 $T/tracing_on
for what in prog link map perf; do
	bpftool -j $what show > /tmp/bpf.$what.json 2> /tmp/bpf.$what.err ||
		th_fail "bpftool $what show: $(cat /tmp/bpf.$what.err)"
done
grep '\[bpf\]' /proc/kallsyms > /tmp/bpf.kallsyms
for what in prog link map perf; do
	th_cap bpf/$what.json /tmp/bpf.$what.json
done
th_cap bpf/kallsyms /tmp/bpf.kallsyms
th_cap bpf/loader.pid /tmp/uload.pid
th_cap bpf/loader.out /tmp/uload.out
for f in /proc/$(cat /tmp/uload.pid)/fdinfo/*; do
	th_cap bpf/fdinfo.${f##*/} $f
done
for f in $T/events/uprobes/*/enable $T/events/th_grp/*/enable; do
	e=${f%/enable}
	th_cap uprobe/enable/${e#$T/events/} $f
done
