/*
 * tracehunt: debugfs' kprobes/list (tracefs/kprobes.c); the probes
 * themselves come from the model (model/kprobes.h).
 */
#ifndef TRACEHUNT_TRACEFS_KPROBES_H
#define TRACEHUNT_TRACEFS_KPROBES_H

#include "model/kprobes.h"

/* One line of kprobes/list for K, as report_probe() printed it. */
void th_kprobes_list_line(struct kp_probe *k);

#endif
