#!/bin/sh
# Scenario "latency" (run on the host by scripts/fixture.py with the guest's
# initramfs root as $1): the real-time task, static (busybox has no chrt).
set -e
root=$1
[ -d "$root" ] || { echo "rootfs.sh: no root $root" >&2; exit 1; }
gcc -O2 -Wall -static src/th_rt.c -o "$root/bin/th_rt"
