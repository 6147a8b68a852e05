/*
 * tracehunt: a hist trigger's definition (kernel/trace/
 * trace_events_hist.c): struct hist_trigger_data, its hist_field keys,
 * values and variables, sort keys, attributes and actions; the model's
 * one reader of them (model/hist_trigger.c).  What event_hist_trigger_print()
 * prints, not the histogram (its tracing_map).
 */
#ifndef TRACEHUNT_MODEL_HIST_TRIGGER_H
#define TRACEHUNT_MODEL_HIST_TRIGGER_H

#include "model/model.h"

/* The flags hist_field_print() and get_hist_field_flags() test. */
enum th_hist_fl {
	TH_HFL_HEX, TH_HFL_SYM, TH_HFL_SYM_OFFSET, TH_HFL_EXECNAME,
	TH_HFL_SYSCALL, TH_HFL_STACKTRACE, TH_HFL_LOG2, TH_HFL_TIMESTAMP,
	TH_HFL_TIMESTAMP_USECS, TH_HFL_VAR, TH_HFL_EXPR, TH_HFL_VAR_REF,
	TH_HFL_CPU, TH_HFL_ALIAS, TH_HFL_BUCKET, TH_HFL_CONST,
	TH_HFL_PERCENT, TH_HFL_GRAPH, TH_HFL_STRING, TH_HFL_COMM, TH_HFL_N,
};

/* One struct hist_field, as hist_field_print() needs it. */
struct th_hist_field {
	ulong addr;
	ulong flags;			/* hist_field.flags */
	unsigned long fl[TH_HFL_N];	/* each flag's bit, 0: none */
	char name[256];			/* hist_field_name(field, 0) */
	char var_name[64];		/* var.name, "" */
	ulong buckets;			/* 0: none */
	unsigned long long constant;
	unsigned int offset;		/* a key's, in the map's key */
};

/* The definition of one hist trigger. */
struct th_hist {
	unsigned int n_vals, n_fields, n_vars, n_sort_keys;
	unsigned int map_bits;
	int enable_timestamps, no_hitcount;
	char clock[32];
	ulong fields[256];		/* struct hist_field * */
	struct { unsigned int idx; int descending; } sort[16];
	unsigned int n_actions;
	ulong actions[16];		/* struct action_data * */
	unsigned int n_save_vars;
	ulong save_vars[64];		/* struct field_var * */
	ulong map;			/* struct tracing_map * */
	int common_stacktrace;		/* the stack key's name (v6.5) */
};

/* One struct action_data. */
enum th_hist_handler { TH_HH_OTHER, TH_HH_ONMATCH, TH_HH_ONMAX,
		       TH_HH_ONCHANGE };
enum th_hist_act { TH_HA_OTHER, TH_HA_SAVE, TH_HA_TRACE,
		      TH_HA_SNAPSHOT };
struct th_hist_action {
	enum th_hist_handler handler;
	enum th_hist_act action;
	char action_name[64];
	unsigned int n_params;
	char params[64][64];
	int use_trace_keyword;
	char synth_event_name[64];
	char match_system[64], match_event[64];	/* onmatch() */
	char var_str[64];			/* onmax(), onchange() */
};

/* The hist trigger whose event_trigger_data.private_data is PRIV into H;
 * FALSE when the dump lacks the types or it cannot be read. */
int th_hist_read(ulong priv, struct th_hist *h);
/* The hist_field at ADDR into F; FALSE when unreadable. */
int th_hist_field_read(ulong addr, struct th_hist_field *f);
/* The action_data at ADDR into A; FALSE when unreadable. */
int th_hist_action_read(ulong addr, struct th_hist_action *a);
/* field_var.var->var.name of the save variable at FV; FALSE when
 * unreadable. */
int th_hist_save_var_name(ulong fv, char *buf, size_t len);

#endif
