/*
 * tracehunt: the "ftrace cat" / "ftrace ls" dispatch over the files each
 * part of the tracefs layer knows how to reconstruct.
 */
#include "tracefs/tracefs.h"

/* Every part that reconstructs tracefs files, in the order they are
 * asked.  Each returns TRUE when FILE was its own (whatever the outcome). */
static int (*const th_cat_parts[])(struct th_tr *, const char *) = {
	th_cat_files,
	th_cat_kprobe_events,
	th_cat_ops,
	th_cat_trace,
	NULL,
};

static void (*const th_ls_parts[])(struct th_tr *, th_ls_add_fn, void *) = {
	th_ls_files,
	th_ls_kprobe_events,
	th_ls_ops,
	th_ls_trace,
	NULL,
};

static void th_ls_print(const char *name, void *arg)
{
	const char *prefix = arg;

	fprintf(fp, "%s%s\n", prefix, name);
}

/* "instances/NAME/FILE" -> the instance and FILE; else the global array */
static struct th_tr *th_split_path(const char *path, const char **file)
{
	char name[128];
	const char *p, *slash;
	struct th_tr *tr;

	*file = path;
	if (strncmp(path, "instances/", 10) != 0)
		return th_trace_array_by_name("");
	p = path + 10;
	slash = strchr(p, '/');
	if (!slash || slash - p >= (long)sizeof(name))
		return NULL;
	memcpy(name, p, slash - p);
	name[slash - p] = '\0';
	tr = th_trace_array_by_name(name);
	*file = slash + 1;
	return tr;
}

void th_ftrace_cat(int argc, char **argv)
{
	const char *file;
	struct th_tr *tr;
	int i;

	if (argc < 2) {
		fprintf(fp, "ftrace cat: which file? (\"ftrace ls\" lists them)\n");
		return;
	}
	tr = th_split_path(argv[1], &file);
	if (!tr) {
		fprintf(fp, "ftrace cat: %s: no such instance (\"ftrace ls\" "
			"lists them)\n", argv[1]);
		return;
	}
	for (i = 0; th_cat_parts[i]; i++)
		if (th_cat_parts[i](tr, file))
			return;
	fprintf(fp, "ftrace cat: %s: not a file tracehunt can reconstruct; "
		"available:", argv[1]);
	{
		/* one line: the files of this array */
		struct th_ls_line { char buf[4096]; } *l = (void *)GETBUF(4096);
		l->buf[0] = '\0';
		for (i = 0; th_ls_parts[i]; i++)
			th_ls_parts[i](tr, th_ls_append, l->buf);
		fprintf(fp, "%s\n", l->buf);
		FREEBUF(l);
	}
}

void th_ls_append(const char *name, void *arg)
{
	char *buf = arg;
	size_t len = strlen(buf);

	if (len + strlen(name) + 2 < 4096) {
		buf[len] = ' ';
		strcpy(buf + len + 1, name);
	}
}

void th_ftrace_ls(int argc, char **argv)
{
	struct th_tr *trs;
	const char *inst = NULL;
	char prefix[128];
	int c, n, t, i;

	while ((c = getopt(argc, argv, "i:")) != EOF) {
		switch (c) {
		case 'i':
			inst = optarg;
			break;
		default:
			argerrs++;
			break;
		}
	}
	if (argerrs)
		cmd_usage(pc->curcmd, SYNOPSIS);
	n = th_trace_arrays(&trs);
	for (t = 0; t < n; t++) {
		if (inst && strcmp(inst, trs[t].name) != 0)
			continue;
		if (trs[t].name[0])
			snprintf(prefix, sizeof(prefix), "instances/%s/",
				 trs[t].name);
		else
			prefix[0] = '\0';
		for (i = 0; th_ls_parts[i]; i++)
			th_ls_parts[i](&trs[t], th_ls_print, prefix);
	}
	if (inst && !th_trace_array_by_name(inst))
		fprintf(fp, "ftrace ls: no instance \"%s\"\n", inst);
}
