/*
 * tracehunt: the "ftrace ops" listing (a report, not a tracefs file).
 */
#ifndef TRACEHUNT_OPS_REPORT_H
#define TRACEHUNT_OPS_REPORT_H

#include "model/ftrace_ops.h"

void thf_report_ops(int verbose);

#endif
