/*
 * tracehunt: the tgids record-tgid saved (kernel/trace/trace.c tgid_map,
 * trace_find_tgid()); the model's one reader of them (tgid.c).
 */
#ifndef TRACEHUNT_TGID_H
#define TRACEHUNT_TGID_H

#include "model/model.h"

#pragma GCC visibility push(hidden)

/* trace_find_tgid(): the tgid saved for PID, 0 when none (or the map is
 * absent or unreadable). */
int th_find_tgid(int pid);
/* Every pid with a tgid saved, in pid order: FN(pid, tgid, ARG); FALSE
 * when the map cannot be read. */
int th_tgid_each(void (*fn)(int pid, int tgid, void *), void *arg);
/* Whether the kernel has tgid_map. */
int th_tgid_known(void);

#pragma GCC visibility pop

#endif
