/*
 * tracehunt: ftrace state and settings files, tracers, the summary.
 */
#include "th.h"

int th_cat_files(struct th_tr *tr, const char *file)
{
	return FALSE;
}

void th_ls_files(struct th_tr *tr, th_ls_add_fn add, void *arg)
{
}

void th_ftrace_tracers(int argc, char **argv)
{
	fprintf(fp, "ftrace tracers: not implemented yet\n");
}

void th_ftrace_summary(int argc, char **argv)
{
	fprintf(fp, "ftrace: summary not implemented yet; try \"ftrace ls\"\n");
}
