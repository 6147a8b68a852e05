/* Scenario "bpf": load /bpf/th_bpf.bpf.o, attach every program, pin the
 * raw tracepoint's link in /sys/fs/bpf, say "ready" on stdout, then hold
 * the other links open until the guest panics.  "th_bpfload -x FILE":
 * attach FILE's programs, pin every link as /sys/fs/bpf/PROGRAM, every
 * kprobe program as /sys/fs/bpf/progs/PROGRAM and every map as
 * /sys/fs/bpf/maps/MAP, and exit (what it made then lives on its pins
 * alone; a tp_btf program, not pinned itself, on its pinned link).  A pin
 * the kernel refuses (a kprobe link before BPF perf links, v5.15) is said
 * on stderr and the others are still made: the exit status says whether
 * any failed.
 *
 * "th_bpfload -n": programs on the network path that no link of a live
 * process holds, each two instructions made here: an XDP program on lo
 * in generic mode (netlink; the device holds it), a tcx ingress program
 * on lo by BPF_PROG_ATTACH (v6.6; the device holds it) and a netfilter
 * link (v6.4) on ipv4 LOCAL_OUT, priority -128, pinned as
 * /sys/fs/bpf/th_nf.  What the kernel accepted is said on stdout, a line
 * each: "th_net KIND WHERE ID" (ID the program's), "th_net KIND none
 * ERRNO" for what it refused; the loader then exits. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

/* (the host's uapi header may predate them: v6.4 and v6.6's values) */
#define TH_PROG_TYPE_NETFILTER	32
#define TH_ATTACH_NETFILTER	45
#define TH_ATTACH_TCX_INGRESS	46

/* A program that returns RET. */
static int th_tiny(int type, int attach, const char *name, int ret)
{
	struct bpf_insn insn[2] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0,
		  .imm = ret },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = attach);

	return bpf_prog_load(type, name, "GPL", insn, 2, &o);
}

static unsigned th_prog_id(int fd)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	return bpf_obj_get_info_by_fd(fd, &info, &len) ? 0 : info.id;
}

static void th_said(const char *kind, const char *where, int fd, int err)
{
	if (err)
		printf("th_net %s none %d\n", kind, -err);
	else
		printf("th_net %s %s %u\n", kind, where, th_prog_id(fd));
}

static int th_net(void)
{
	/* lo is ifindex 1 */
	int fd, err;
	union {
		unsigned int w[16];
		unsigned char b[128];
	} attr;

	fd = th_tiny(BPF_PROG_TYPE_XDP, 0, "th_xdp", 2 /* XDP_PASS */);
	err = fd < 0 ? fd : bpf_xdp_attach(1, fd, 1U << 1 /* SKB */, NULL);
	th_said("xdp", "lo/generic", fd, err < 0 ? -errno : 0);
	fd = th_tiny(BPF_PROG_TYPE_SCHED_CLS, 0, "th_tcx", -1 /* TCX_NEXT */);
	err = fd < 0 ? fd : bpf_prog_attach(fd, 1, TH_ATTACH_TCX_INGRESS, 0);
	th_said("tcx", "lo/ingress", fd, err < 0 ? -errno : 0);
	fd = th_tiny(TH_PROG_TYPE_NETFILTER, TH_ATTACH_NETFILTER, "th_nf",
		     1 /* NF_ACCEPT */);
	err = fd;
	if (fd >= 0) {
		/* link_create: prog_fd, target_fd, attach_type, flags, then
		 * netfilter's pf, hooknum, priority, flags */
		memset(&attr, 0, sizeof(attr));
		attr.w[0] = fd;
		attr.w[2] = TH_ATTACH_NETFILTER;
		attr.w[4] = 2;		/* NFPROTO_IPV4 */
		attr.w[5] = 3;		/* NF_INET_LOCAL_OUT */
		attr.w[6] = (unsigned int)-128;
		err = syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
		if (err >= 0)
			err = bpf_obj_pin(err, "/sys/fs/bpf/th_nf");
	}
	th_said("netfilter", "ipv4/LOCAL_OUT/-128", fd,
		err < 0 ? -errno : 0);
	return 0;
}

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

	if (argc > 1 && !strcmp(argv[1], "-n"))
		return th_net();
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
