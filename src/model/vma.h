/*
 * tracehunt: a process's memory map as the trace printers look it up
 * (model/vma.c): the task of a tgid (model/bpf_holders.c, the reader of
 * init_task.tasks), its mm, and find_vma() through the maple tree
 * (v6.1+) or the vma list before it.
 */
#ifndef TRACEHUNT_MODEL_VMA_H
#define TRACEHUNT_MODEL_VMA_H

#include "model/model.h"

#pragma GCC visibility push(hidden)

/* find_task_by_vpid() of thread group leader PID; 0 when none. */
ulong th_task_leader(int pid);
/* task_struct.pid and .comm of TASK (LEN bytes of COMM); FALSE (-1, "")
 * when unreadable. */
int th_task_ident(ulong task, int *pid, char *comm, size_t len);
/* task_struct.mm of TASK (0: none, or unreadable). */
ulong th_task_mm(ulong task);

/* What find_vma() finds for an address. */
struct th_vma {
	ulong vma, start, end, file;
};
/* find_vma(MM, ADDR): the first vma that ends above ADDR into *V; FALSE
 * when there is none or the map cannot be read (said as damage). */
int th_find_vma(ulong mm, ulong addr, struct th_vma *v);
/* d_path() of file.f_path of FILE into BUF; FALSE when unreadable. */
int th_file_path(ulong file, char *buf, size_t len);

#pragma GCC visibility pop

#endif
