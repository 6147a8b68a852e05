/*
 * tracehunt: "hooks" — every probe and hook that diverts control flow.
 */
#include "th.h"

void cmd_hooks(void)
{
	int c;

	while ((c = getopt(argcnt, args, "vj")) != EOF) {
		switch (c) {
		case 'v':
		case 'j':
			break;
		default:
			argerrs++;
			break;
		}
	}
	if (argerrs)
		cmd_usage(pc->curcmd, SYNOPSIS);
	fprintf(fp, "hooks: not implemented yet\n");
}
