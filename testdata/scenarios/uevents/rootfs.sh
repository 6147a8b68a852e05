#!/bin/sh
# Scenario "uevents" (run on the host by scripts/fixture.py with the guest's
# initramfs root as $1): build the user-events tracer static with the
# host's gcc and put it into the guest.
set -e
root=$1
[ -d "$root" ] || { echo "rootfs.sh: no root $root" >&2; exit 1; }
gcc -O2 -Wall -Werror -static src/th_uevents.c -o "$root/bin/th_uevents"
