/*
 * Replay driver for the fuzz targets without libFuzzer: feeds every file
 * named on the command line (directories: every file in them) to
 * LLVMFuzzerTestOneInput() once.  Built with gcc or clang and ASan+UBSan,
 * it is how "make check" runs the seed and regression corpora.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static long nfiles;
static const char *current;

/* An input that takes more than REPLAY_CPU_SECONDS of CPU is a hang. */
#define REPLAY_CPU_SECONDS 2

static void on_timeout(int sig)
{
	static const char msg[] = ": HANG: more than 2 s of CPU\n";

	(void)sig;
	if (write(2, current, strlen(current)) < 0 ||
	    write(2, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(2);
}

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long len;

	if (!f) {
		perror(path);
		return -1;
	}
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		perror(path);
		fclose(f);
		return -1;
	}
	/* An exact-size heap copy, so ASan sees any read past the input. */
	buf = malloc(len ? len : 1);
	if (!buf || fread(buf, 1, len, f) != (size_t)len) {
		fprintf(stderr, "%s: read failed\n", path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	current = path;
	{
		struct itimerval t = { { 0, 0 }, { REPLAY_CPU_SECONDS, 0 } };
		struct itimerval off = { { 0, 0 }, { 0, 0 } };

		setitimer(ITIMER_VIRTUAL, &t, NULL);
		LLVMFuzzerTestOneInput(buf, len);
		setitimer(ITIMER_VIRTUAL, &off, NULL);
	}
	free(buf);
	nfiles++;
	return 0;
}

static int run_path(const char *path)
{
	struct dirent **ents;
	struct stat st;
	char sub[4096];
	int i, n, rc = 0;

	if (stat(path, &st)) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return run_file(path);
	n = scandir(path, &ents, NULL, alphasort);
	if (n < 0) {
		perror(path);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (ents[i]->d_name[0] != '.') {
			snprintf(sub, sizeof(sub), "%s/%s", path,
				 ents[i]->d_name);
			if (run_path(sub))
				rc = -1;
		}
		free(ents[i]);
	}
	free(ents);
	return rc;
}

int main(int argc, char **argv)
{
	int i, rc = 0;

	signal(SIGVTALRM, on_timeout);
	for (i = 1; i < argc; i++)
		if (run_path(argv[i]))
			rc = 1;
	printf("%s: %ld inputs replayed\n", argv[0], nfiles);
	return rc;
}
