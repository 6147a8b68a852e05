/*
 * tracehunt: the core kernel's kallsyms tables (model/kallsyms_core.c),
 * for model/kallsyms.c's look-ups.
 */
#ifndef TRACEHUNT_MODEL_KALLSYMS_H
#define TRACEHUNT_MODEL_KALLSYMS_H

#include "model/model.h"

/* TRUE with the kernel image's symbol of ADDR in S, as the dump's
 * kallsyms tables give it; FALSE when ADDR is not the image's or the
 * tables do not decode (a warning then, in every command that asks). */
int th_ksym_core(ulong addr, struct th_sym *s);

#endif
