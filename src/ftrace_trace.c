/*
 * tracehunt: ring buffers and the trace files.
 */
#include "th.h"

int th_cat_trace(struct th_tr *tr, const char *file)
{
	return FALSE;
}

void th_ls_trace(struct th_tr *tr, th_ls_add_fn add, void *arg)
{
}

void th_ftrace_trace(int argc, char **argv)
{
	fprintf(fp, "ftrace trace: not implemented yet\n");
}

void th_ftrace_dump(int argc, char **argv)
{
	fprintf(fp, "ftrace dump: not implemented yet\n");
}
