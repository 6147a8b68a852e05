/*
 * tracehunt guest capture: every readable regular file under the given
 * roots (tracefs, debugfs' kprobes), as the live kernel prints it, onto
 * standard output (the second serial port), zlib-compressed.  Built
 * static on the host by scripts/fixture.py and run by scripts/guest/init;
 * what it skips, what it takes last and what only a census scenario takes
 * is in one place, CONF (scripts/guest/capture.conf plus the scenario's
 * own capture.conf, /capture.conf in the guest).
 *
 * usage: capture now|last CONF ROOT=PREFIX...
 *
 * Stream (scripts/fixture.py split_truth()):
 *   @@TH-ZBEGIN\n  zlib stream of records  \n@@TH-ZEND\n
 * with, inside the stream, per file:
 *   @@TH-BEGIN NAME\n <the file's bytes> \n@@TH-END NAME\n
 *   @@TH-ERROR NAME ERRNO\n     (open or read failed: errno's name)
 * A file's bytes are what read() returned until it returned 0, read in
 * O_NONBLOCK mode (a file that would block ends there: EAGAIN is recorded
 * as its error).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define MAX_PATS	256
#define MAX_DEPTH	12
#define MAX_FILES	400000
#define CHUNK		65536

enum { P_SKIP, P_LAST, P_CENSUS, P_HEAD, P_NKIND };

static struct pat {
	char *glob;
	long lines;		/* P_HEAD: lines kept */
} pats[P_NKIND][MAX_PATS];
static int npats[P_NKIND];
static int census;		/* "mode census": the P_CENSUS files too */
static int last_phase;
static long nfiles;

static z_stream zs;
static unsigned char zout[CHUNK];

static void die(const char *what)
{
	fprintf(stderr, "capture: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void put_raw(const void *p, size_t n)
{
	const char *c = p;

	while (n > 0) {
		ssize_t w = write(1, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			die("write");
		c += w;
		n -= (size_t)w;
	}
}

static void z_put(const void *p, size_t n, int flush)
{
	zs.next_in = (unsigned char *)p;
	zs.avail_in = (unsigned int)n;
	do {
		zs.next_out = zout;
		zs.avail_out = sizeof(zout);
		if (deflate(&zs, flush) == Z_STREAM_ERROR) {
			fprintf(stderr, "capture: deflate failed\n");
			exit(1);
		}
		put_raw(zout, sizeof(zout) - zs.avail_out);
	} while (zs.avail_out == 0 || zs.avail_in > 0);
}

static void z_printf(const char *fmt, const char *a, const char *b)
{
	char line[4600];
	int n = snprintf(line, sizeof(line), fmt, a, b);

	if (n > 0)
		z_put(line, (size_t)n < sizeof(line) ? (size_t)n :
		      sizeof(line) - 1, Z_NO_FLUSH);
}

static void read_conf(const char *path)
{
	static const char *kinds[P_NKIND] = { "skip", "last", "census",
					      "head" };
	char line[512], kind[16], glob[400];
	FILE *f = fopen(path, "r");
	long lines;
	int k, n;

	if (!f)
		die(path);
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		lines = 0;
		n = sscanf(line, "%15s %399s %ld", kind, glob, &lines);
		if (n >= 2 && !strcmp(kind, "mode")) {
			census = !strcmp(glob, "census");
			continue;
		}
		for (k = 0; k < P_NKIND; k++)
			if (n >= 2 && !strcmp(kind, kinds[k]))
				break;
		if (k == P_NKIND || npats[k] == MAX_PATS ||
		    (k == P_HEAD && (n != 3 || lines <= 0))) {
			fprintf(stderr, "capture: %s: bad line: %s", path,
				line);
			exit(1);
		}
		pats[k][npats[k]].glob = strdup(glob);
		pats[k][npats[k]++].lines = lines;
	}
	fclose(f);
}

/* The instance whose files are being walked ("" at the top level). */
static char inst[256];

/* The first pattern of KIND that REL (relative to its array's directory)
 * matches, or NULL; in an instance, a pattern may also name
 * "instances/NAME/REL" to apply there only. */
static struct pat *match(int kind, const char *rel)
{
	char full[4400];
	int i;

	snprintf(full, sizeof(full), "instances/%s/%s", inst, rel);
	for (i = 0; i < npats[kind]; i++)
		if (fnmatch(pats[kind][i].glob, rel, FNM_PATHNAME) == 0 ||
		    (inst[0] && fnmatch(pats[kind][i].glob, full,
					FNM_PATHNAME) == 0))
			return &pats[kind][i];
	return NULL;
}

/* Copy FD into the stream; HEAD > 0 keeps that many lines.  Returns 0 or
 * the errno of the failing read. */
static int copy_file(int fd, long head)
{
	static char buf[CHUNK];
	ssize_t n;

	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		if (n == 0)
			return 0;
		if (head > 0) {
			ssize_t i;

			for (i = 0; i < n; i++)
				if (buf[i] == '\n' && --head == 0) {
					z_put(buf, (size_t)i + 1, Z_NO_FLUSH);
					return 0;
				}
		}
		z_put(buf, (size_t)n, Z_NO_FLUSH);
	}
}

static void capture_file(const char *path, const char *name,
			 const char *rel)
{
	struct pat *h = match(P_HEAD, rel);
	int fd, err;

	if (match(P_SKIP, rel) || (!census && match(P_CENSUS, rel)) ||
	    !match(P_LAST, rel) != !last_phase)
		return;
	if (++nfiles > MAX_FILES) {
		fprintf(stderr, "capture: more than %d files\n", MAX_FILES);
		exit(1);
	}
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		z_printf("@@TH-ERROR %s %s\n", name, strerrorname_np(errno));
		return;
	}
	/* a head is named NAME.head: it is not the whole file */
	z_printf("@@TH-BEGIN %s%s\n", name, h ? ".head" : "");
	err = copy_file(fd, h ? h->lines : 0);
	close(fd);
	z_printf("\n@@TH-END %s%s\n", name, h ? ".head" : "");
	if (err)
		z_printf("@@TH-ERROR %s %s\n", name, strerrorname_np(err));
	if (nfiles % 512 == 0)
		z_put("", 0, Z_SYNC_FLUSH);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/*
 * Walk DIR (PATH on the guest, NAME in the truth); REL is the path
 * relative to the array directory the patterns apply to: the root, or
 * instances/X/ below it.
 */
static void walk(const char *path, const char *name, const char *rel,
		 int depth)
{
	struct dirent **ents;
	int i, n;

	if (depth > MAX_DEPTH)
		return;
	n = scandir(path, &ents, NULL, by_name);
	if (n < 0)
		return;
	for (i = 0; i < n; i++) {
		const char *d = ents[i]->d_name;
		char p[4096], nm[4096], r[4096];
		struct stat st;

		if (!strcmp(d, ".") || !strcmp(d, "..") ||
		    snprintf(p, sizeof(p), "%s/%s", path, d) >= (int)sizeof(p) ||
		    snprintf(nm, sizeof(nm), "%s/%s", name, d) >=
		    (int)sizeof(nm) || lstat(p, &st) != 0) {
			free(ents[i]);
			continue;
		}
		snprintf(r, sizeof(r), "%s%s%s", rel, *rel ? "/" : "", d);
		if (S_ISDIR(st.st_mode)) {
			/* an instance is an array directory of its own */
			if (!strcmp(rel, "instances") && !inst[0]) {
				snprintf(inst, sizeof(inst), "%s", d);
				walk(p, nm, "", depth + 1);
				inst[0] = '\0';
			} else
				walk(p, nm, r, depth + 1);
		} else if (S_ISREG(st.st_mode) && (st.st_mode & 0444)) {
			capture_file(p, nm, r);
		}
		free(ents[i]);
	}
	free(ents);
}

int main(int argc, char **argv)
{
	int i;

	if (argc < 4 || (strcmp(argv[1], "now") && strcmp(argv[1], "last"))) {
		fprintf(stderr, "usage: capture now|last CONF ROOT=PREFIX...\n");
		return 2;
	}
	last_phase = !strcmp(argv[1], "last");
	read_conf(argv[2]);
	if (deflateInit(&zs, 1) != Z_OK)
		return 1;
	put_raw("@@TH-ZBEGIN\n", 12);
	for (i = 3; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq)
			continue;
		*eq = '\0';
		walk(argv[i], eq + 1, "", 0);
	}
	z_put("", 0, Z_FINISH);
	deflateEnd(&zs);
	put_raw("\n@@TH-ZEND\n", 11);
	return 0;
}
