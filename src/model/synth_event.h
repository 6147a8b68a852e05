/*
 * tracehunt: synthetic events (kernel/trace/trace_synth.h): struct
 * synth_event on dyn_event_list and its struct synth_field array; the
 * model's one reader of both (model/synth_event.c).
 */
#ifndef TRACEHUNT_MODEL_SYNTH_EVENT_H
#define TRACEHUNT_MODEL_SYNTH_EVENT_H

#include "model/model.h"

/* FALSE when the dump lacks struct synth_event or synth_field. */
int th_synth_ok(void);
/* The synth_event around the struct dyn_event EV (its devent); 0 when
 * the dump lacks the types. */
ulong th_synth_of_dyn_event(ulong ev);
/* synth_event.name and its event's system (class.system) into BUF:
 * FALSE (BUF "") when unreadable. */
int th_synth_name(ulong se, char *buf, size_t len);
int th_synth_system(ulong se, char *buf, size_t len);
/* synth_event.n_fields; -1 when unreadable or implausible. */
int th_synth_nfields(ulong se);
/* Field I's type and name (synth_field.type, .name); FALSE when
 * unreadable. */
int th_synth_field(ulong se, int i, char *type, size_t tlen, char *name,
		   size_t nlen);

#endif
