/*
 * tracehunt: the "ftrace trace" and "ftrace dump" subcommands: their
 * options; the work is render/'s (ftrace_trace.c, trace_dump.c).
 */
#include "glue/commands.h"
#include "render/trace_cmd.h"
#include "render/trace_dump.h"

static int th_parse_cpus(const char *arg, unsigned long *mask)
{
	char *dup = strdup(arg), *tok, *save = NULL;
	int ok = TRUE;

	*mask = 0;
	for (tok = strtok_r(dup, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *end;
		long a = strtol(tok, &end, 10), b = a;

		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (*end || a < 0 || b < a || b > 63) {
			ok = FALSE;
			break;
		}
		for (; a <= b; a++)
			*mask |= 1UL << a;
	}
	free(dup);
	return ok && *mask;
}

void th_ftrace_trace(int argc, char **argv)
{
	struct th_sel s;
	struct th_tr *tr;
	const char *inst = "";
	long last = -1;
	int c, raw = FALSE, readall = FALSE;
	char *evs = NULL, *tok, *save = NULL;
	char *names[64];

	memset(&s, 0, sizeof(s));
	s.cpu = -1;
	while ((c = getopt(argc, argv, "n:c:i:e:rR")) != EOF) {
		switch (c) {
		case 'n':
			last = strtol(optarg, &tok, 10);
			if (*tok || last < 0) {
				fprintf(fp, "ftrace trace: -n %s: not a count\n",
					optarg);
				return;
			}
			break;
		case 'c':
			if (!th_parse_cpus(optarg, &s.cpumask)) {
				fprintf(fp, "ftrace trace: -c %s: expected CPU "
					"numbers like 0,2-3\n", optarg);
				return;
			}
			break;
		case 'i':
			inst = optarg;
			break;
		case 'e':
			evs = optarg;
			break;
		case 'r':
			raw = TRUE;
			break;
		case 'R':
			readall = TRUE;
			break;
		default:
			argerrs++;
			break;
		}
	}
	if (argerrs || optind < argc) {
		fprintf(fp, "ftrace trace: usage: ftrace trace [-n N] [-c CPUS] "
			"[-i INSTANCE] [-e EVENT,...] [-r|-R]\n");
		return;
	}
	tr = th_trace_array_by_name(inst);
	if (!tr) {
		fprintf(fp, "ftrace trace: no instance \"%s\"\n", inst);
		return;
	}
	if (evs) {
		for (tok = strtok_r(evs, ",", &save); tok && s.nevents < 63;
		     tok = strtok_r(NULL, ",", &save))
			names[s.nevents++] = tok;
		names[s.nevents] = NULL;
		s.events = names;
	}
	if (readall)
		th_trace_read_all(tr, &s);
	else if (raw)
		th_trace_raw(tr, &s, last);
	else
		th_trace_print(tr, &s, FALSE, last);
}

/* "ftrace dump": its options; the writers are render/trace_dump.c's. */
void th_ftrace_dump(int argc, char **argv)
{
	struct th_dump_opts opt;
	int c, all = FALSE, bad = FALSE;
	const char *dir = NULL;

	memset(&opt, 0, sizeof(opt));
	while ((c = getopt(argc, argv, "t:d:i:af")) != EOF) {
		switch (c) {
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
		fprintf(fp, "usage: ftrace dump -t FILE [-i INSTANCE | -a] [-f] | "
			"-d DIR [-i INSTANCE]\n");
		return;
	}
	if (dir) {
		if (all)
			fprintf(fp, "ftrace dump: -d takes one array "
				"(-i INSTANCE), not -a\n");
		else
			th_dump_dir(&opt, dir);
		return;
	}
	if (all && opt.inst) {
		fprintf(fp, "ftrace dump: -a and -i exclude each other\n");
		return;
	}
	opt.all = all;
	th_dump_trace_dat(&opt);
}
