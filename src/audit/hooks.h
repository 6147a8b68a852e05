/*
 * tracehunt: "hooks" (audit/hooks.c): every mechanism that diverts kernel
 * control flow, with a verdict per finding.
 */
#ifndef TRACEHUNT_AUDIT_HOOKS_H
#define TRACEHUNT_AUDIT_HOOKS_H

#include "model/model.h"

/* The command once its options are read: -v VERBOSE, -j JSON. */
void th_hooks(int verbose, int json);

#endif
