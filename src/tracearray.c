/*
 * tracehunt: trace arrays (the global one and every instance) and the
 * "ftrace cat" / "ftrace ls" dispatch over the files each part of the
 * extension knows how to reconstruct.
 */
#include "th.h"

static struct th_tr *th_trs;
static int th_ntrs = -1;

int th_trace_arrays(struct th_tr **out)
{
	ulong head = th_symbol("ftrace_trace_arrays");
	ulong global = th_symbol("global_trace");
	long o_list = th_member("trace_array", "list");
	long o_name = th_member("trace_array", "name");
	struct th_walk w;
	long i;
	int cap = 8;

	if (th_ntrs >= 0) {
		*out = th_trs;
		return th_ntrs;
	}
	th_ntrs = 0;
	if (!global) {
		*out = NULL;
		return 0;
	}
	th_trs = calloc(cap, sizeof(*th_trs));
	th_trs[0].addr = global;
	th_trs[0].name[0] = '\0';
	th_ntrs = 1;
	if (head && o_list >= 0 && o_name >= 0) {
		th_list_walk(head, 10000, &w);
		if (w.err)
			th_warn("ftrace_trace_arrays: %s at %lx", w.err, w.bad);
		for (i = 0; i < w.n; i++) {
			ulong tr = w.ent[i] - o_list, np = 0;

			if (tr == global)
				continue;
			if (th_ntrs >= cap) {
				cap *= 2;
				th_trs = realloc(th_trs, cap * sizeof(*th_trs));
			}
			memset(&th_trs[th_ntrs], 0, sizeof(th_trs[0]));
			th_trs[th_ntrs].addr = tr;
			if (!th_read_ulong(tr + o_name, &np, "trace_array.name") ||
			    !th_read_cstr(np, th_trs[th_ntrs].name,
					  sizeof(th_trs[0].name),
					  "trace_array.name") ||
			    !th_trs[th_ntrs].name[0])
				snprintf(th_trs[th_ntrs].name,
					 sizeof(th_trs[0].name), "?%lx", tr);
			th_ntrs++;
		}
		th_walk_free(&w);
	}
	*out = th_trs;
	return th_ntrs;
}

struct th_tr *th_trace_array_by_name(const char *name)
{
	struct th_tr *trs;
	int n = th_trace_arrays(&trs), i;

	for (i = 0; i < n; i++)
		if (strcmp(trs[i].name, name ? name : "") == 0)
			return &trs[i];
	return NULL;
}

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
