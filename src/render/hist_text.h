/*
 * tracehunt: a hist trigger's histogram as hist_show() prints it after
 * the trigger info: print_entries() and the Totals
 * (kernel/trace/trace_events_hist.c), render/hist_text.c.
 */
#ifndef TRACEHUNT_RENDER_HIST_TEXT_H
#define TRACEHUNT_RENDER_HIST_TEXT_H

#include "model/hist_trigger.h"

#pragma GCC visibility push(hidden)

/* The entries and Totals of the hist trigger H (th_hist_read()) through
 * fp; FALSE (nothing printed) when its map cannot be read. */
int th_hist_entries_print(const struct th_hist *h);

#pragma GCC visibility pop

#endif
