#!/bin/sh
# Scenario "uprobe" (run on the host by scripts/fixture.py with the guest's
# initramfs root as $1): compile the BPF objects and their loader with the
# host's clang and libbpf-dev (scripts/install-deps), and copy them, bpftool
# and the libraries bpftool needs into the guest.
set -e
root=$1
[ -d "$root" ] || { echo "rootfs.sh: no root $root" >&2; exit 1; }
mkdir -p "$root/bpf"
for b in th_up th_umulti th_kmulti th_fmod th_lsm; do
	clang -O2 -g -Wall -target bpf -I/usr/include/x86_64-linux-gnu \
		-c src/$b.bpf.c -o "$root/bpf/$b.bpf.o"
done
gcc -O2 -Wall -static src/th_uload.c -o "$root/bin/th_uload" -lbpf -lelf -lz
bpftool=$(command -v bpftool || echo /usr/sbin/bpftool)
[ -x "$bpftool" ] || { echo "rootfs.sh: no bpftool (install-deps)" >&2; exit 1; }
cp "$bpftool" "$root/bin/bpftool"
# bpftool's libraries and loader at the paths it was linked with
ldd "$bpftool" | awk '/=> \// { print $3 } /^\t\/[^ ]*ld-linux/ { print $1 }' |
while read -r lib; do
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done
