/*
 * tracehunt: the "ftrace" command and its subcommands.
 */
#include "th.h"

struct th_subcmd {
	const char *name;
	void (*func)(int argc, char **argv);
};

int th_ftrace_have(void)
{
	return th_symbol("ftrace_ops_list") || th_symbol("global_trace");
}

static void ft_not_yet(int argc, char **argv)
{
	(void)argc;
	fprintf(fp, "ftrace %s: not implemented yet\n", argv[0]);
}

static void ft_summary(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(fp, "ftrace: summary not implemented yet; try \"ftrace cat "
		"FILE\"\n");
}

static const struct th_subcmd ft_subcmds[] = {
	{ "ops", ft_not_yet },
	{ "sites", ft_not_yet },
	{ "cat", ft_not_yet },
	{ "ls", ft_not_yet },
	{ "tracers", ft_not_yet },
	{ "trace", ft_not_yet },
	{ "dump", ft_not_yet },
	{ NULL, NULL },
};

void cmd_ftrace(void)
{
	const struct th_subcmd *s;

	if (!th_ftrace_have()) {
		fprintf(fp, "ftrace: not available in this dump: no "
			"ftrace_ops_list or global_trace (kernel built without "
			"CONFIG_FTRACE/CONFIG_TRACING?)\n");
		return;
	}
	if (argcnt < 2) {
		ft_summary(0, NULL);
		return;
	}
	for (s = ft_subcmds; s->name; s++) {
		if (strcmp(args[1], s->name) == 0) {
			/* subcommands parse their own options from args[1] */
			optind = 1;
			s->func(argcnt - 1, args + 1);
			return;
		}
	}
	fprintf(fp, "ftrace: unknown subcommand \"%s\" (one of: ops sites "
		"cat ls tracers trace dump)\n", args[1]);
}
