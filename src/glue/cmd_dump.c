/*
 * tracehunt: "ftrace dump": its arguments, then the trace.dat writer
 * (render/trace_dump.c, -t FILE) or the trace-cmd directory of the
 * tracefs table (tracefs/dump_dir.c, -d DIR).
 */
#include "glue/commands.h"
#include "tracefs/tracefs.h"
#include "render/trace_dump.h"

#define TH_DUMP_USAGE "usage: ftrace dump -t FILE [-V 6|7] [-i INSTANCE | " \
	"-a] [-f] | -d DIR [-i INSTANCE | -a]\n"

/**
 * th_ftrace_dump - "ftrace dump -t FILE [-V 6|7] [-i INSTANCE | -a] [-f] |
 * -d DIR [-i INSTANCE | -a]"
 * @argc: argument count, argv[0] being "dump"
 * @argv: the arguments
 */
void th_ftrace_dump(int argc, char **argv)
{
	struct th_dump_opts opt;
	int c, all = FALSE, bad = FALSE;
	const char *dir = NULL;

	memset(&opt, 0, sizeof(opt));
	while ((c = getopt(argc, argv, "t:d:i:afV:")) != EOF) {
		switch (c) {
		case 'V':
			if (strcmp(optarg, "6") == 0)
				opt.version = 6;
			else if (strcmp(optarg, "7") == 0)
				opt.version = 7;
			else
				bad = TRUE;
			break;
		case 't': opt.file = optarg; break;
		case 'd': dir = optarg; break;
		case 'i': opt.inst = optarg; break;
		case 'a': all = TRUE; break;
		case 'f': opt.force = TRUE; break;
		default: bad = TRUE; break;
		}
	}
	if (bad || optind < argc || (!opt.file && !dir) ||
	    (opt.file && dir)) {
		fprintf(fp, TH_DUMP_USAGE);
		return;
	}
	if (dir) {
		if (opt.version)
			fprintf(fp, "ftrace dump: -V is the version of a "
				"trace.dat (-t FILE), not of -d\n");
		else if (all && opt.inst)
			fprintf(fp, "ftrace dump: -a and -i exclude each "
				"other\n");
		else
			th_dump_dir(opt.inst, all, dir, opt.force);
		return;
	}
	if (all && opt.inst) {
		fprintf(fp, "ftrace dump: -a and -i exclude each other\n");
		return;
	}
	opt.all = all;
	th_dump_trace_dat(&opt);
}
