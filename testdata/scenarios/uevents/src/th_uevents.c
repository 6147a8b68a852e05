/*
 * th_uevents: the uevents scenario's user-space tracer (built static on
 * the host by rootfs.sh).  It registers user events through
 * /sys/kernel/tracing/user_events_data (DIAG_IOCSREG), one per field
 * type the kernel parses, waits until the scenario has enabled them (the
 * kernel sets each event's enable bit in this process's memory), writes
 * a few entries of each whose bit is set, and stays alive holding its
 * file open, so that its events and enable bits are there at the panic.
 *
 *   th_uevents hold FIFO   register, say "registered" with its pid and
 *                          the addresses of its enable words, read a
 *                          line from FIFO, write, say "written N", sleep
 *   th_uevents persist     register th_persist with
 *                          USER_EVENT_REG_PERSIST and exit: the event
 *                          outlives its process
 *
 * The ABI is include/uapi/linux/user_events.h of Linux 6.4 and later,
 * spelled out here: bookworm's linux-libc-dev (6.1) does not export it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>

struct th_user_reg {
	uint32_t size;
	uint8_t enable_bit;
	uint8_t enable_size;
	uint16_t flags;
	uint64_t enable_addr;
	uint64_t name_args;
	uint32_t write_index;
} __attribute__((packed));

#define TH_DIAG_IOCSREG		_IOWR('*', 0, struct th_user_reg *)
#define TH_REG_PERSIST		(1U << 0)
#define TH_REG_MULTI_FORMAT	(1U << 1)

#define DATA "/sys/kernel/tracing/user_events_data"

/* The enable bits the kernel writes: bit I of th_on for event I, and an
 * 8-byte word of its own for the last. */
static volatile uint32_t th_on;
static volatile uint64_t th_on64;

enum { EV_BASIC, EV_STR, EV_STRUCT, EV_EMPTY, EV_REL, EV_MULTI, EV_SMALL,
       EV_N };

static const struct {
	const char *args;
	uint16_t flags;
} th_ev[EV_N] = {
	[EV_BASIC] = { "th_basic u32 count;u64 stamp;char[16] tag;s32 delta",
		       0 },
	[EV_STR] = { "th_str __data_loc char[] msg;s16 level;u8 flag", 0 },
	[EV_STRUCT] = { "th_struct struct th_pair pair 16;unsigned int code",
			0 },
	[EV_EMPTY] = { "th_empty", 0 },
	[EV_REL] = { "th_rel __rel_loc char[] note;unsigned short n", 0 },
	[EV_MULTI] = { "th_multi u32 a;s64 b", TH_REG_MULTI_FORMAT },
	[EV_SMALL] = { "th_small char c;unsigned char uc;short s;int i", 0 },
};

static uint32_t th_idx[EV_N];

static int th_reg(int fd, const char *args, uint16_t flags, int bit,
		  volatile void *addr, int size, uint32_t *idx)
{
	struct th_user_reg r;

	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	r.enable_bit = bit;
	r.enable_size = size;
	r.flags = flags;
	r.enable_addr = (uint64_t)(uintptr_t)addr;
	r.name_args = (uint64_t)(uintptr_t)args;
	if (ioctl(fd, TH_DIAG_IOCSREG, &r) < 0) {
		fprintf(stderr, "th_uevents: DIAG_IOCSREG '%s': %s\n", args,
			strerror(errno));
		return -1;
	}
	*idx = r.write_index;
	return 0;
}

static int th_enabled(int ev)
{
	if (ev == EV_SMALL)
		return (th_on64 >> 40) & 1;
	return (th_on >> ev) & 1;
}

/* One entry: the write index, then the payload's pieces. */
static int th_write(int fd, int ev, struct iovec *iov, int n)
{
	struct iovec v[8];

	if (!th_enabled(ev))
		return 0;
	v[0].iov_base = &th_idx[ev];
	v[0].iov_len = sizeof(th_idx[ev]);
	memcpy(v + 1, iov, n * sizeof(*iov));
	if (writev(fd, v, n + 1) < 0) {
		fprintf(stderr, "th_uevents: writev %d: %s\n", ev,
			strerror(errno));
		return 0;
	}
	return 1;
}

static int th_write_all(int fd, int round)
{
	/* th_basic: u32, u64, char[16], s32 (offsets 8, 12, 20, 36) */
	struct {
		uint32_t count;
		uint64_t stamp;
		char tag[16];
		int32_t delta;
	} __attribute__((packed)) basic;
	/* th_str: __data_loc at 8, s16 at 12, u8 at 14, the text at 15 */
	struct {
		uint32_t loc;
		int16_t level;
		uint8_t flag;
	} __attribute__((packed)) str;
	/* th_rel: __rel_loc at 8 (relative to its end, 12), u16 at 12,
	 * the text at 14 */
	struct {
		uint32_t loc;
		uint16_t n;
	} __attribute__((packed)) rel;
	struct {
		uint64_t first, second;
		uint32_t code;
	} __attribute__((packed)) st;
	struct {
		uint32_t a;
		int64_t b;
	} __attribute__((packed)) multi;
	struct {
		char c;
		unsigned char uc;
		int16_t s;
		int32_t i;
	} __attribute__((packed)) small;
	static const char *msgs[] = { "hello from user space",
				      "second message", "x" };
	const char *msg = msgs[round % 3], *note = round ? "n2" : "note one";
	struct iovec iov[2];
	int n = 0;

	memset(&basic, 0, sizeof(basic));
	basic.count = 1000 + round;
	basic.stamp = 0x1122334455667788ULL + round;
	snprintf(basic.tag, sizeof(basic.tag), "round-%d", round);
	basic.delta = -7 * (round + 1);
	iov[0].iov_base = &basic;
	iov[0].iov_len = sizeof(basic);
	n += th_write(fd, EV_BASIC, iov, 1);

	str.loc = (uint32_t)(strlen(msg) + 1) << 16 | 15;
	str.level = round ? -2 : 300;
	str.flag = round ? 'A' : 7;
	iov[0].iov_base = &str;
	iov[0].iov_len = sizeof(str);
	iov[1].iov_base = (void *)msg;
	iov[1].iov_len = strlen(msg) + 1;
	n += th_write(fd, EV_STR, iov, 2);

	st.first = 0xdeadbeefULL + round;
	st.second = 42;
	st.code = 0xc0de0000u + round;
	iov[0].iov_base = &st;
	iov[0].iov_len = sizeof(st);
	n += th_write(fd, EV_STRUCT, iov, 1);

	n += th_write(fd, EV_EMPTY, iov, 0);

	rel.loc = (uint32_t)(strlen(note) + 1) << 16 | 2;
	rel.n = 65535 - round;
	iov[0].iov_base = &rel;
	iov[0].iov_len = sizeof(rel);
	iov[1].iov_base = (void *)note;
	iov[1].iov_len = strlen(note) + 1;
	n += th_write(fd, EV_REL, iov, 2);

	multi.a = 7 + round;
	multi.b = -1234567890123LL * (round + 1);
	iov[0].iov_base = &multi;
	iov[0].iov_len = sizeof(multi);
	n += th_write(fd, EV_MULTI, iov, 1);

	small.c = round ? 'z' : -3;
	small.uc = round ? 0xe9 : 200;
	small.s = round ? -300 : 12345;
	small.i = round ? -1 : 0x7fffffff;
	iov[0].iov_base = &small;
	iov[0].iov_len = sizeof(small);
	n += th_write(fd, EV_SMALL, iov, 1);
	return n;
}

int main(int argc, char **argv)
{
	char line[64];
	FILE *go;
	int fd, ev, n = 0, r;

	fd = open(DATA, O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "th_uevents: %s: %s\n", DATA, strerror(errno));
		return 1;
	}
	if (argc == 2 && strcmp(argv[1], "persist") == 0) {
		uint32_t idx;
		static volatile uint32_t on;

		return th_reg(fd, "th_persist u64 x;u64 y", TH_REG_PERSIST, 3,
			      &on, 4, &idx) ? 1 : 0;
	}
	if (argc != 3 || strcmp(argv[1], "hold") != 0) {
		fprintf(stderr, "usage: th_uevents hold FIFO | persist\n");
		return 2;
	}
	for (ev = 0; ev < EV_N; ev++) {
		if (ev == EV_SMALL)
			r = th_reg(fd, th_ev[ev].args, th_ev[ev].flags, 40,
				   &th_on64, 8, &th_idx[ev]);
		else
			r = th_reg(fd, th_ev[ev].args, th_ev[ev].flags, ev,
				   &th_on, 4, &th_idx[ev]);
		if (r)
			return 1;
	}
	/* what the enablers hold: this process and its enable words */
	printf("registered pid %d th_on %#lx th_on64 %#lx\n", (int)getpid(),
	       (unsigned long)(uintptr_t)&th_on,
	       (unsigned long)(uintptr_t)&th_on64);
	fflush(stdout);
	go = fopen(argv[2], "r");
	if (!go || !fgets(line, sizeof(line), go)) {
		fprintf(stderr, "th_uevents: no go from %s\n", argv[2]);
		return 1;
	}
	fclose(go);
	for (r = 0; r < 2; r++)
		n += th_write_all(fd, r);
	printf("written %d enabled %#x %#llx\n", n, th_on,
	       (unsigned long long)th_on64);
	fflush(stdout);
	for (;;)
		pause();
}
