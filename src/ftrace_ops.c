/*
 * tracehunt: ftrace ops, enabled_functions and call sites.
 */
#include "th.h"

int th_cat_ops(struct th_tr *tr, const char *file)
{
	return FALSE;
}

void th_ls_ops(struct th_tr *tr, th_ls_add_fn add, void *arg)
{
}

void th_ftrace_ops(int argc, char **argv)
{
	fprintf(fp, "ftrace ops: not implemented yet\n");
}

void th_ftrace_sites(int argc, char **argv)
{
	fprintf(fp, "ftrace sites: not implemented yet\n");
}
