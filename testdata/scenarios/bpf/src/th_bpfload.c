/* Scenario "bpf": load /bpf/th_bpf.bpf.o, attach every program, pin the
 * raw tracepoint's link in /sys/fs/bpf, say "ready" on stdout, then hold
 * the other links open until the guest panics.  "th_bpfload -x FILE":
 * attach FILE's programs, pin every link as /sys/fs/bpf/PROGRAM, every
 * kprobe program as /sys/fs/bpf/progs/PROGRAM and every map as
 * /sys/fs/bpf/maps/MAP, and exit (what it made then lives on its pins
 * alone; a tp_btf program, not pinned itself, on its pinned link).  A pin
 * the kernel refuses (a kprobe link before BPF perf links, v5.15) is said
 * on stderr and the others are still made: the exit status says whether
 * any failed. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>

int main(int argc, char **argv)
{
	int detach = argc > 2 && !strcmp(argv[1], "-x");
	const char *path = detach ? argv[2] : argc > 1 ? argv[1] :
		"/bpf/th_bpf.bpf.o";
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct bpf_link *link;
	char pin[256];
	struct bpf_map *map;
	int n = 0, bad = 0;

	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		fprintf(stderr, "th_bpfload: cannot open %s\n", path);
		return 1;
	}
	if (bpf_object__load(obj)) {
		fprintf(stderr, "th_bpfload: load failed\n");
		return 1;
	}
	bpf_object__for_each_program(prog, obj) {
		link = bpf_program__attach(prog);
		if (!link) {
			fprintf(stderr, "th_bpfload: attach %s failed\n",
				bpf_program__name(prog));
			return 1;
		}
		snprintf(pin, sizeof(pin), "/sys/fs/bpf/%s",
			 bpf_program__name(prog));
		if ((detach ||
		     bpf_program__type(prog) == BPF_PROG_TYPE_RAW_TRACEPOINT) &&
		    bpf_link__pin(link, pin)) {
			fprintf(stderr, "th_bpfload: pin %s failed\n", pin);
			if (!detach)
				return 1;
			bad = 1;
		}
		snprintf(pin, sizeof(pin), "/sys/fs/bpf/progs/%s",
			 bpf_program__name(prog));
		if (detach && bpf_program__type(prog) == BPF_PROG_TYPE_KPROBE &&
		    bpf_program__pin(prog, pin)) {
			fprintf(stderr, "th_bpfload: pin %s failed\n", pin);
			bad = 1;
		}
		n++;
	}
	if (detach)
		bpf_object__for_each_map(map, obj) {
			snprintf(pin, sizeof(pin), "/sys/fs/bpf/maps/%s",
				 bpf_map__name(map));
			if (bpf_map__pin(map, pin)) {
				fprintf(stderr, "th_bpfload: pin %s failed\n",
					pin);
				bad = 1;
			}
		}
	printf("ready %d\n", n);
	fflush(stdout);
	if (detach)
		return bad;
	for (;;)
		pause();
	return 0;
}
