/*
 * tracehunt: the "hooks" command: its options; the findings and their
 * verdicts are audit/hooks.c's.
 */
#include "glue/commands.h"
#include "audit/hooks.h"

/**
 * cmd_hooks - "hooks [-v] [-j]"
 */
void cmd_hooks(void)
{
	int c, verbose = 0, json = 0;

	while ((c = getopt(argcnt, args, "vj")) != EOF) {
		switch (c) {
		case 'v':
			verbose = 1;
			break;
		case 'j':
			json = 1;
			break;
		default:
			argerrs++;
			break;
		}
	}
	if (argerrs || args[optind])
		cmd_usage(pc->curcmd, SYNOPSIS);
	th_hooks(verbose, json);
}
