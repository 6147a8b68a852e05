/*
 * tracehunt: option parsing the commands share.
 */
#include "glue/commands.h"

/**
 * th_opt_verbose - getopt() of a command whose one option is -v
 * @argc: argument count
 * @argv: the arguments, argv[0] the command or subcommand
 *
 * Counts an unknown option in argerrs (the caller then calls
 * cmd_usage()); optind is left at the first operand.
 *
 * Return: TRUE when -v was given.
 */
int th_opt_verbose(int argc, char **argv)
{
	int c, verbose = FALSE;

	while ((c = getopt(argc, argv, "v")) != EOF) {
		if (c == 'v')
			verbose = TRUE;
		else
			argerrs++;
	}
	return verbose;
}
