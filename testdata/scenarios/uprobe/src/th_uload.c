/* Scenario "uprobe": load each BPF object, attach its programs, say
 * "ready N" (N links) on stdout, then hold the links until the guest
 * panics.
 *
 *   th_uload BINARY UOFF MOFF1 MOFF2 OBJECT...
 *
 * th_buprobe and th_buretprobe attach as a uprobe and a uretprobe on
 * BINARY at file offset UOFF through perf (libbpf); th_umulti as one
 * uprobe_multi link on BINARY at MOFF1 and MOFF2 (BPF_LINK_CREATE with
 * BPF_TRACE_UPROBE_MULTI, v6.6, through bpf() itself: bookworm's libbpf
 * 1.1 predates it); any other program by its section.  An object the
 * kernel refuses (to load or to attach one of its programs) is closed, so
 * none of its programs stays loaded, with a line on stderr; the others
 * are kept. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include <bpf/libbpf.h>

/* enum bpf_attach_type's BPF_TRACE_UPROBE_MULTI (v6.6) */
#define TH_TRACE_UPROBE_MULTI	48

/* union bpf_attr's link_create with its uprobe_multi member (v6.6) */
struct th_link_create {
	__u32 prog_fd;
	__u32 target_fd;
	__u32 attach_type;
	__u32 flags;
	__u64 path;
	__u64 offsets;
	__u64 ref_ctr_offsets;
	__u64 cookies;
	__u32 cnt;
	__u32 multi_flags;
	__u32 pid;
	__u32 pad;
};

static const char *binary;
static unsigned long uoff, moff[2];

static int attach_umulti(struct bpf_program *prog)
{
	struct th_link_create a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.prog_fd = bpf_program__fd(prog);
	a.attach_type = TH_TRACE_UPROBE_MULTI;
	a.path = (unsigned long)binary;
	a.offsets = (unsigned long)moff;
	a.cnt = 2;
	fd = syscall(__NR_bpf, BPF_LINK_CREATE, &a, sizeof(a));
	if (fd < 0)
		perror("th_uload: uprobe_multi link");
	return fd;
}

/* One program's link: a libbpf link, or the fd of a raw one. */
struct th_link {
	struct bpf_link *link;
	int fd;
};

static int attach(struct bpf_program *prog, struct th_link *l)
{
	const char *name = bpf_program__name(prog);
	LIBBPF_OPTS(bpf_uprobe_opts, o);

	l->link = NULL;
	l->fd = -1;
	if (!strcmp(name, "th_umulti"))
		return (l->fd = attach_umulti(prog));
	if (!strcmp(name, "th_buprobe") || !strcmp(name, "th_buretprobe")) {
		o.retprobe = !strcmp(name, "th_buretprobe");
		l->link = bpf_program__attach_uprobe_opts(prog, -1, binary,
							  uoff, &o);
	} else {
		l->link = bpf_program__attach(prog);
	}
	return l->link ? 0 : -1;
}

#define TH_MAX_PROGS	8

/* Load and attach one object: the links made, or -1 (then every link of
 * it is destroyed and the object closed). */
static int load(const char *path)
{
	struct th_link links[TH_MAX_PROGS];
	struct bpf_program *prog;
	struct bpf_object *obj;
	int n = 0;

	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		fprintf(stderr, "%s: cannot open\n", path);
		return -1;
	}
	prog = bpf_object__find_program_by_name(obj, "th_umulti");
	if (prog)
		bpf_program__set_expected_attach_type(prog,
			(enum bpf_attach_type)TH_TRACE_UPROBE_MULTI);
	if (bpf_object__load(obj)) {
		fprintf(stderr, "%s: not loaded\n", path);
		bpf_object__close(obj);
		return -1;
	}
	bpf_object__for_each_program(prog, obj) {
		if (n == TH_MAX_PROGS || attach(prog, &links[n]) < 0) {
			fprintf(stderr, "%s: %s not attached\n", path,
				bpf_program__name(prog));
			while (n--)
				if (links[n].link)
					bpf_link__destroy(links[n].link);
				else
					close(links[n].fd);
			bpf_object__close(obj);
			return -1;
		}
		fprintf(stderr, "%s: %s attached\n", path,
			bpf_program__name(prog));
		n++;
	}
	return n;
}

int main(int argc, char **argv)
{
	int i, n = 0, k;

	if (argc < 6) {
		fprintf(stderr, "usage: th_uload BINARY UOFF MOFF1 MOFF2 "
			"OBJECT...\n");
		return 1;
	}
	binary = argv[1];
	uoff = strtoul(argv[2], NULL, 0);
	moff[0] = strtoul(argv[3], NULL, 0);
	moff[1] = strtoul(argv[4], NULL, 0);
	for (i = 5; i < argc; i++)
		if ((k = load(argv[i])) > 0)
			n += k;
	printf("ready %d\n", n);
	fflush(stdout);
	for (;;)
		pause();
	return 0;
}
