/*
 * tracehunt: the model's one reader of a hist trigger's definition:
 * struct hist_trigger_data, hist_field, hist_trigger_attrs, action_data,
 * field_var, tracing_map_sort_key and tracing_map.map_bits
 * (kernel/trace/trace_events_hist.c, tracing_map.h).
 */
#include "model/hist_trigger.h"
#include "model/events.h"

/* HIST_FIELDS_MAX and the like are small; beyond these, damage */
#define TH_HIST_MAX_FIELDS	256

static const char *const th_hfl_names[TH_HFL_N] = {
	"HIST_FIELD_FL_HEX", "HIST_FIELD_FL_SYM", "HIST_FIELD_FL_SYM_OFFSET",
	"HIST_FIELD_FL_EXECNAME", "HIST_FIELD_FL_SYSCALL",
	"HIST_FIELD_FL_STACKTRACE", "HIST_FIELD_FL_LOG2",
	"HIST_FIELD_FL_TIMESTAMP", "HIST_FIELD_FL_TIMESTAMP_USECS",
	"HIST_FIELD_FL_VAR", "HIST_FIELD_FL_EXPR", "HIST_FIELD_FL_VAR_REF",
	"HIST_FIELD_FL_CPU", "HIST_FIELD_FL_ALIAS", "HIST_FIELD_FL_BUCKET",
	"HIST_FIELD_FL_CONST", "HIST_FIELD_FL_PERCENT", "HIST_FIELD_FL_GRAPH",
	"HIST_FIELD_FL_STRING", "HIST_FIELD_FL_COMM",
};

static struct th_hist_off {
	int filled, ok;
	/* hist_trigger_data */
	long fields, n_vals, n_fields, n_vars, sort_keys, n_sort_keys, attrs,
	     map, enable_timestamps, actions, n_actions, save_vars,
	     n_save_vars;
	long sk_size, sk_idx, sk_desc;		/* tracing_map_sort_key */
	long map_bits;				/* tracing_map */
	long at_clock, at_no_hitcount;		/* hist_trigger_attrs */
	/* hist_field */
	long hf_field, hf_flags, hf_buckets, hf_operands, hf_system,
	     hf_event_name, hf_name, hf_constant, hf_var_name, hf_offset;
	/* action_data */
	long ad_handler, ad_action, ad_action_name, ad_n_params, ad_params,
	     ad_use_trace_keyword, ad_synth_event_name, ad_match_event,
	     ad_match_system, ad_var_str;
	long fv_var;				/* field_var */
	unsigned long fl[TH_HFL_N];
	unsigned long fl_all;	/* every bit of enum hist_field_flags */
	long handler[4], action[4];		/* HANDLER_*, ACTION_* */
} th_hist_offsets;

static void th_hist_off_enums(struct th_hist_off *o)
{
	struct th_enumv all[64];
	int i, n;

	for (i = 0; i < TH_HFL_N; i++)
		o->fl[i] = (unsigned long)th_enum(th_hfl_names[i], 0);
	/* a flag no enumerator names is damage; 0: not known (an enum
	 * longer than ALL is not taken whole) */
	n = th_enum_list("HIST_FIELD_FL_HITCOUNT", all, 64);
	if (n < 64)
		for (i = 0; i < n; i++)
			o->fl_all |= (unsigned long)all[i].val;
	o->handler[TH_HH_ONMATCH] = th_enum("HANDLER_ONMATCH", -1);
	o->handler[TH_HH_ONMAX] = th_enum("HANDLER_ONMAX", -1);
	o->handler[TH_HH_ONCHANGE] = th_enum("HANDLER_ONCHANGE", -1);
	o->action[TH_HA_SAVE] = th_enum("ACTION_SAVE", -1);
	o->action[TH_HA_TRACE] = th_enum("ACTION_TRACE", -1);
	o->action[TH_HA_SNAPSHOT] = th_enum("ACTION_SNAPSHOT", -1);
}

static const struct th_hist_off *th_hist_off(void)
{
	struct th_hist_off *o = &th_hist_offsets;

	if (o->filled)
		return o;
	o->filled = TRUE;
	o->fields = th_member("hist_trigger_data", "fields");
	o->n_vals = th_member("hist_trigger_data", "n_vals");
	o->n_fields = th_member("hist_trigger_data", "n_fields");
	o->n_vars = th_member("hist_trigger_data", "n_vars");
	o->sort_keys = th_member("hist_trigger_data", "sort_keys");
	o->n_sort_keys = th_member("hist_trigger_data", "n_sort_keys");
	o->attrs = th_member("hist_trigger_data", "attrs");
	o->map = th_member("hist_trigger_data", "map");
	o->enable_timestamps = th_member("hist_trigger_data",
					 "enable_timestamps");
	o->actions = th_member("hist_trigger_data", "actions");
	o->n_actions = th_member("hist_trigger_data", "n_actions");
	o->save_vars = th_member("hist_trigger_data", "save_vars");
	o->n_save_vars = th_member("hist_trigger_data", "n_save_vars");
	o->sk_size = th_size("tracing_map_sort_key");
	o->sk_idx = th_member("tracing_map_sort_key", "field_idx");
	o->sk_desc = th_member("tracing_map_sort_key", "descending");
	o->map_bits = th_member("tracing_map", "map_bits");
	o->at_clock = th_member("hist_trigger_attrs", "clock");
	/* ":nohitcount" (v6.3) */
	o->at_no_hitcount = th_member("hist_trigger_attrs", "no_hitcount");
	o->hf_field = th_member("hist_field", "field");
	o->hf_flags = th_member("hist_field", "flags");
	/* ".buckets=N" (v5.18), constants (v5.16) */
	o->hf_buckets = th_member("hist_field", "buckets");
	o->hf_operands = th_member("hist_field", "operands");
	o->hf_system = th_member("hist_field", "system");
	o->hf_event_name = th_member("hist_field", "event_name");
	o->hf_name = th_member("hist_field", "name");
	o->hf_constant = th_member("hist_field", "constant");
	o->hf_var_name = th_member_path("hist_field", "var.name");
	o->hf_offset = th_member("hist_field", "offset");
	o->ad_handler = th_member("action_data", "handler");
	o->ad_action = th_member("action_data", "action");
	o->ad_action_name = th_member("action_data", "action_name");
	o->ad_n_params = th_member("action_data", "n_params");
	o->ad_params = th_member("action_data", "params");
	o->ad_use_trace_keyword = th_member("action_data",
					    "use_trace_keyword");
	o->ad_synth_event_name = th_member("action_data", "synth_event_name");
	o->ad_match_event = th_member_path("action_data", "match_data.event");
	o->ad_match_system = th_member_path("action_data",
					    "match_data.event_system");
	o->ad_var_str = th_member_path("action_data", "track_data.var_str");
	o->fv_var = th_member("field_var", "var");
	th_hist_off_enums(o);
	o->ok = o->fields >= 0 && o->n_vals >= 0 && o->n_fields >= 0 &&
		o->n_vars >= 0 && o->sort_keys >= 0 && o->n_sort_keys >= 0 &&
		o->attrs >= 0 && o->map >= 0 && o->enable_timestamps >= 0 &&
		o->sk_size > 0 && o->sk_idx >= 0 && o->sk_desc >= 0 &&
		o->map_bits >= 0 && o->at_clock >= 0 && o->hf_field >= 0 &&
		o->hf_flags >= 0 && o->hf_operands >= 0 && o->hf_name >= 0 &&
		o->hf_var_name >= 0 && o->n_actions >= 0 && o->actions >= 0;
	return o;
}

/* The text a char * at ADDR points to ("" for NULL); FALSE when
 * unreadable.  Every string of a hist trigger is a copy of a word of the
 * command that set it (a name, a clock, a parameter): a pointer that
 * cannot be read or a string with a control byte is damage, and so is
 * an empty one where the command's word cannot be empty (WORD). */
static int th_hist_str_of(ulong addr, char *buf, size_t len,
			  const char *what, int word)
{
	ulong p = 0;

	buf[0] = '\0';
	if (!th_read_ulong(addr, &p, what))
		return FALSE;
	if (!p)
		return TRUE;
	if (!th_read_cstr(p, buf, len, what)) {
		th_damaged("hist_trigger", addr, "%s at %lx cannot be read",
			   what, p);
		return FALSE;
	}
	if ((word && !buf[0]) || !th_printable(buf))
		th_damaged("hist_trigger", addr, "%s at %lx is %s", what, p,
			   buf[0] ? "not text" : "empty");
	return TRUE;
}

static int th_hist_str(ulong addr, char *buf, size_t len, const char *what)
{
	return th_hist_str_of(addr, buf, len, what, FALSE);
}

/* th_hist_str() of a string that is a whole word of the command */
static int th_hist_word(ulong addr, char *buf, size_t len, const char *what)
{
	return th_hist_str_of(addr, buf, len, what, TRUE);
}

/* A C bool: 0 or 1, anything else is damage */
static int th_hist_bool(ulong addr, int *val, const char *what)
{
	unsigned char b = 0;

	if (!th_read(addr, &b, 1, what))
		return FALSE;
	if (b > 1)
		th_damaged("hist_trigger", addr, "%s is %u, not a bool", what,
			   b);
	*val = b != 0;
	return TRUE;
}

/* The counts and the sort keys of H */
static int th_hist_counts(const struct th_hist_off *o, ulong hd,
			  struct th_hist *h)
{
	unsigned int i;

	if (!th_read_uint(hd + o->n_vals, &h->n_vals, "hist.n_vals") ||
	    !th_read_uint(hd + o->n_fields, &h->n_fields, "hist.n_fields") ||
	    !th_read_uint(hd + o->n_vars, &h->n_vars, "hist.n_vars") ||
	    !th_read_uint(hd + o->n_sort_keys, &h->n_sort_keys,
			  "hist.n_sort_keys") ||
	    !th_read_uint(hd + o->n_actions, &h->n_actions, "hist.n_actions"))
		return FALSE;
	if (h->n_fields > TH_HIST_MAX_FIELDS || h->n_vals > h->n_fields ||
	    h->n_vars > h->n_vals || h->n_sort_keys > 16 ||
	    h->n_actions > 16) {
		th_damaged("hist_trigger_data", hd, "counts out of range "
			   "(fields %u, vals %u, vars %u, sort keys %u, "
			   "actions %u)", h->n_fields, h->n_vals, h->n_vars,
			   h->n_sort_keys, h->n_actions);
		return FALSE;
	}
	for (i = 0; i < h->n_sort_keys; i++) {
		ulong sk = hd + o->sort_keys + i * o->sk_size;

		if (!th_read_uint(sk + o->sk_idx, &h->sort[i].idx,
				  "sort_key.field_idx") ||
		    !th_hist_bool(sk + o->sk_desc, &h->sort[i].descending,
				  "sort_key.descending"))
			return FALSE;
	}
	return TRUE;
}

/**
 * th_hist_read - the definition of a hist trigger
 * @priv: its event_trigger_data.private_data (struct hist_trigger_data)
 * @h: filled
 */
int th_hist_read(ulong priv, struct th_hist *h)
{
	const struct th_hist_off *o = th_hist_off();
	ulong attrs = 0, map = 0;
	unsigned int i;

	memset(h, 0, sizeof(*h));
	if (!o->ok || !priv || !th_hist_counts(o, priv, h))
		return FALSE;
	for (i = 0; i < h->n_fields; i++)
		if (!th_read_ulong(priv + o->fields + i * sizeof(ulong),
				   &h->fields[i], "hist.fields[]"))
			return FALSE;
	for (i = 0; i < h->n_actions; i++)
		if (!th_read_ulong(priv + o->actions + i * sizeof(ulong),
				   &h->actions[i], "hist.actions[]"))
			return FALSE;
	if (o->n_save_vars >= 0 && o->save_vars >= 0) {
		if (!th_read_uint(priv + o->n_save_vars, &h->n_save_vars,
				  "hist.n_save_vars") || h->n_save_vars > 64)
			return FALSE;
		for (i = 0; i < h->n_save_vars; i++)
			if (!th_read_ulong(priv + o->save_vars +
					   i * sizeof(ulong),
					   &h->save_vars[i],
					   "hist.save_vars[]"))
				return FALSE;
	}
	if (!th_read_ulong(priv + o->attrs, &attrs, "hist.attrs") || !attrs ||
	    !th_read_ulong(priv + o->map, &map, "hist.map") || !map ||
	    !th_read_uint(map + o->map_bits, &h->map_bits,
			  "tracing_map.map_bits") ||
	    !th_hist_bool(priv + o->enable_timestamps, &h->enable_timestamps,
			  "hist.enable_timestamps") ||
	    !th_hist_word(attrs + o->at_clock, h->clock, sizeof(h->clock),
			  "hist_trigger_attrs.clock"))
		return FALSE;
	/* parse_hist_trigger_attrs() names "global" when the command names
	 * no clock: a NULL one is damage */
	if (!h->clock[0])
		th_damaged("hist_trigger_attrs", attrs, "its clock is NULL");
	h->map = map;
	/* "common_stacktrace" since 8b5d46fd7a38 ("tracing: Rename
	 * stacktrace field to common_stacktrace", v6.5), which added
	 * FILTER_STACKTRACE */
	h->common_stacktrace = th_enum_exists("FILTER_STACKTRACE");
	/* tracing_map_create() takes TRACING_MAP_BITS_MIN (7) to
	 * TRACING_MAP_BITS_MAX (17), kernel/trace/tracing_map.h, the same
	 * since the map came in v4.7 */
	if (h->map_bits < 7 || h->map_bits > 17)
		th_damaged("tracing_map", map, "map_bits %u, not 7 to 17",
			   h->map_bits);
	if (o->at_no_hitcount >= 0 &&
	    !th_hist_bool(attrs + o->at_no_hitcount, &h->no_hitcount,
			  "hist_trigger_attrs.no_hitcount"))
		return FALSE;
	return TRUE;
}

/* hist_field_name(FIELD, LEVEL) into BUF */
static int th_hist_name(const struct th_hist_off *o, ulong hf,
			unsigned int level, char *buf, size_t len)
{
	char sys[64], ev[64], name[128];
	ulong flags = 0, field = 0, op = 0;

	buf[0] = '\0';
	if (!hf || level > 1)
		return TRUE;
	if (!th_read_ulong(hf + o->hf_flags, &flags, "hist_field.flags") ||
	    !th_read_ulong(hf + o->hf_field, &field, "hist_field.field"))
		return FALSE;
	if (field)
		return th_event_field_name(field, buf, len);
	if (flags & (o->fl[TH_HFL_LOG2] | o->fl[TH_HFL_ALIAS] |
		     o->fl[TH_HFL_BUCKET]))
		return th_read_ulong(hf + o->hf_operands, &op,
				     "hist_field.operands[0]") &&
			th_hist_name(o, op, level + 1, buf, len);
	if (flags & o->fl[TH_HFL_CPU]) {
		/* "cpu" until the rename to "common_cpu", which came
		 * before constants (HIST_FIELD_FL_CONST, v5.16) */
		th_strlcpy(buf, o->fl[TH_HFL_CONST] ? "common_cpu" : "cpu",
			   len);
		return TRUE;
	}
	if (flags & (o->fl[TH_HFL_EXPR] | o->fl[TH_HFL_VAR_REF])) {
		if (!th_hist_str(hf + o->hf_name, name, sizeof(name),
				 "hist_field.name"))
			return FALSE;
		if (o->hf_system < 0 ||
		    !th_hist_str(hf + o->hf_system, sys, sizeof(sys),
				 "hist_field.system") || !sys[0]) {
			th_strlcpy(buf, name, len);
			return TRUE;
		}
		if (!th_hist_str(hf + o->hf_event_name, ev, sizeof(ev),
				 "hist_field.event_name"))
			return FALSE;
		snprintf(buf, len, "%s.%s.%s", sys, ev, name);
		return TRUE;
	}
	if (flags & o->fl[TH_HFL_TIMESTAMP])
		th_strlcpy(buf, "common_timestamp", len);
	return TRUE;
}

/**
 * th_hist_field_read - a hist_field as hist_field_print() prints it
 * @addr: struct hist_field
 * @f: filled
 */
int th_hist_field_read(ulong addr, struct th_hist_field *f)
{
	const struct th_hist_off *o = th_hist_off();
	uint64_t c = 0;

	memset(f, 0, sizeof(*f));
	f->addr = addr;
	memcpy(f->fl, o->fl, sizeof(f->fl));
	if (!o->ok || !addr ||
	    !th_read_ulong(addr + o->hf_flags, &f->flags, "hist_field.flags") ||
	    !th_hist_str(addr + o->hf_var_name, f->var_name,
			 sizeof(f->var_name), "hist_field.var.name") ||
	    !th_hist_name(o, addr, 0, f->name, sizeof(f->name)))
		return FALSE;
	if (o->fl_all && (f->flags & ~o->fl_all))
		th_damaged("hist_field", addr, "flags %#lx: bits %#lx are no "
			   "HIST_FIELD_FL_*", f->flags, f->flags & ~o->fl_all);
	if (o->hf_buckets >= 0 &&
	    !th_read_ulong(addr + o->hf_buckets, &f->buckets,
			   "hist_field.buckets"))
		return FALSE;
	/* parse_atom() sets buckets for a .buckets= key only, and refuses
	 * 0 (the key is divided by it) */
	if (o->fl[TH_HFL_BUCKET] &&
	    !(f->flags & o->fl[TH_HFL_BUCKET]) != !f->buckets)
		th_damaged("hist_field", addr, "buckets %lu with flags %#lx",
			   f->buckets, f->flags);
	if (o->hf_offset >= 0 &&
	    !th_read_uint(addr + o->hf_offset, &f->offset, "hist_field.offset"))
		return FALSE;
	if (o->hf_constant >= 0 && (f->flags & o->fl[TH_HFL_CONST])) {
		if (!th_read_u64(addr + o->hf_constant, &c,
				 "hist_field.constant"))
			return FALSE;
		f->constant = c;
	}
	return TRUE;
}

static enum th_hist_handler th_hist_handler(const struct th_hist_off *o,
					    int v)
{
	int i;

	for (i = TH_HH_ONMATCH; i <= TH_HH_ONCHANGE; i++)
		if (o->handler[i] >= 0 && o->handler[i] == v)
			return i;
	return TH_HH_OTHER;
}

static enum th_hist_act th_hist_act_of(const struct th_hist_off *o, int v)
{
	int i;

	for (i = TH_HA_SAVE; i <= TH_HA_SNAPSHOT; i++)
		if (o->action[i] >= 0 && o->action[i] == v)
			return i;
	return TH_HA_OTHER;
}

/**
 * th_hist_action_read - an action of a hist trigger (onmatch, onmax,
 * onchange with save, trace or snapshot)
 * @addr: struct action_data
 * @a: filled
 */
int th_hist_action_read(ulong addr, struct th_hist_action *a)
{
	const struct th_hist_off *o = th_hist_off();
	int handler = 0, action = 0;
	unsigned int i;

	memset(a, 0, sizeof(*a));
	if (!o->ok || !addr || o->ad_handler < 0 || o->ad_action < 0 ||
	    o->ad_action_name < 0 || o->ad_n_params < 0 || o->ad_params < 0 ||
	    !th_read_int(addr + o->ad_handler, &handler, "action.handler") ||
	    !th_read_int(addr + o->ad_action, &action, "action.action") ||
	    !th_hist_str(addr + o->ad_action_name, a->action_name,
			 sizeof(a->action_name), "action.action_name") ||
	    !th_read_uint(addr + o->ad_n_params, &a->n_params,
			  "action.n_params") || a->n_params > 64)
		return FALSE;
	a->handler = th_hist_handler(o, handler);
	a->action = th_hist_act_of(o, action);
	/* action_parse() and the handlers' parsers set one of each */
	if ((a->handler == TH_HH_OTHER && o->handler[TH_HH_ONMATCH] >= 0) ||
	    (a->action == TH_HA_OTHER && o->action[TH_HA_SAVE] >= 0))
		th_damaged("action_data", addr, "handler %d, action %d: not "
			   "the kernel's HANDLER_* and ACTION_*", handler,
			   action);
	for (i = 0; i < a->n_params; i++)
		if (!th_hist_str(addr + o->ad_params + i * sizeof(ulong),
				 a->params[i], sizeof(a->params[i]),
				 "action.params[]"))
			return FALSE;
	if (o->ad_use_trace_keyword >= 0 &&
	    (!th_hist_bool(addr + o->ad_use_trace_keyword,
			   &a->use_trace_keyword, "action.use_trace_keyword") ||
	     !th_hist_word(addr + o->ad_synth_event_name,
			   a->synth_event_name, sizeof(a->synth_event_name),
			   "action.synth_event_name")))
		return FALSE;
	if (a->handler == TH_HH_ONMATCH)
		return o->ad_match_event >= 0 && o->ad_match_system >= 0 &&
			th_hist_word(addr + o->ad_match_event,
				     a->match_event, sizeof(a->match_event),
				     "action.match_data.event") &&
			th_hist_word(addr + o->ad_match_system,
				     a->match_system,
				     sizeof(a->match_system),
				     "action.match_data.event_system");
	if (a->handler == TH_HH_ONMAX || a->handler == TH_HH_ONCHANGE)
		return o->ad_var_str >= 0 &&
			th_hist_str(addr + o->ad_var_str, a->var_str,
				    sizeof(a->var_str),
				    "action.track_data.var_str");
	return TRUE;
}

/**
 * th_hist_save_var_name - the name a save() action saves
 * @fv: struct field_var (hist_data->save_vars[i])
 * @buf: field_var.var->var.name
 * @len: room in @buf
 */
int th_hist_save_var_name(ulong fv, char *buf, size_t len)
{
	const struct th_hist_off *o = th_hist_off();
	ulong var = 0;

	buf[0] = '\0';
	return o->ok && o->fv_var >= 0 && fv &&
		th_read_ulong(fv + o->fv_var, &var, "field_var.var") && var &&
		th_hist_str(var + o->hf_var_name, buf, len,
			    "hist_field.var.name");
}
