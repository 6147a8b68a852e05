# Scenario "uevents" (issue 23): user events (CONFIG_USER_EVENTS, which no
# Debian kernel enables: the suite trixie-uevents boots a kernel built from
# trixie's linux-source-6.12 with testdata/kernels/uevents.config).
#   kprobe   kprobes/th_open on do_sys_openat2, left disabled: a second
#            kind of line in dynamic_events
#   persist  th_uevents persist registers th_persist with
#            USER_EVENT_REG_PERSIST and exits: the event stays, unused
#   hold     th_uevents hold registers one event per kind of field the
#            kernel parses (u32/u64/s32/char[N], __data_loc char[],
#            s16/u8, struct NAME N, none, __rel_loc char[], unsigned
#            short, char/unsigned char/short/int on an 8-byte enable
#            word) and a multi-format event (user_events_multi/th_multi.0);
#            they are enabled here, the kernel sets each enable bit in
#            the tracer's memory, and it writes two entries of each;
#            it then stays alive holding them
# The truth: dynamic_events, user_events_status, each event's format and
# id, and the trace (nothing else is enabled, so it holds these entries
# only); the tracer's own lines (its pid, the addresses of its enable
# words) as uevents/th_out.
th_a 'p:kprobes/th_open do_sys_openat2 dfd=%di:s32' $T/kprobe_events
/bin/th_uevents persist > /dev/console 2>&1 || th_fail "th_uevents persist"
mkdir -p /tmp
mkfifo /tmp/th_go || th_fail "mkfifo"
/bin/th_uevents hold /tmp/th_go > /tmp/th_out 2>&1 &
n=0
until grep -q registered /tmp/th_out; do
	n=$((n + 1))
	[ $n -lt 120 ] || th_fail "th_uevents hold: $(cat /tmp/th_out)"
	sleep 1
done
for e in user_events/th_basic user_events/th_str user_events/th_struct \
	 user_events/th_empty user_events/th_rel user_events/th_small \
	 user_events_multi/th_multi.0; do
	th_w 1 $T/events/$e/enable
done
echo go > /tmp/th_go
n=0
until grep -q written /tmp/th_out; do
	n=$((n + 1))
	[ $n -lt 120 ] || th_fail "th_uevents hold: $(cat /tmp/th_out)"
	sleep 1
done
echo "@@TH-SCENARIO-NOTE: $(cat /tmp/th_out | tr '\n' ' ')" > /dev/console
th_cap "uevents/th_out" /tmp/th_out
