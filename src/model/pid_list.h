/*
 * tracehunt: the model's reader of struct trace_pid_list (pid_list.c).
 */
#ifndef TRACEHUNT_PID_LIST_H
#define TRACEHUNT_PID_LIST_H

#include "model/model.h"

/* The pids of LIST in increasing order: FN(pid, ARG); FALSE when the
 * layout is unknown or a read failed. */
int th_pid_list_each(ulong list, void (*fn)(ulong pid, void *), void *arg);
/* Whether the debuginfo has a layout th_pid_list_each() reads. */
int th_pid_list_known(void);
/* 3.10's set_ftrace_pid list (ftrace_pids): FN(pid, ARG), -1 for the
 * swapper tasks; the count, -1 when the kernel has no such list. */
long th_ftrace_pids_old(void (*fn)(long pid, void *), void *arg);

#endif
