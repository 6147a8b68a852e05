/*
 * tracehunt: the model's one reader of struct synth_event and struct
 * synth_field (kernel/trace/trace_synth.h, with the dyn_event inside
 * since synthetic events joined dyn_event_list in v5.x).
 */
#include "model/synth_event.h"
#include "model/events.h"

/* SYNTH_FIELDS_MAX is 64 (32 before v5.12): beyond that, damage */
#define TH_SYNTH_FIELDS_MAX	1024

static struct th_synth_off {
	int filled, ok;
	long devent, name, fields, n_fields, call;
	long f_type, f_name;
} th_synth_offsets;

static const struct th_synth_off *th_synth_off(void)
{
	struct th_synth_off *o = &th_synth_offsets;

	if (o->filled)
		return o;
	o->filled = TRUE;
	o->devent = th_member("synth_event", "devent");
	o->name = th_member("synth_event", "name");
	o->fields = th_member("synth_event", "fields");
	o->n_fields = th_member("synth_event", "n_fields");
	o->call = th_member("synth_event", "call");
	o->f_type = th_member("synth_field", "type");
	o->f_name = th_member("synth_field", "name");
	o->ok = o->devent >= 0 && o->name >= 0 && o->fields >= 0 &&
		o->n_fields >= 0 && o->call >= 0 && o->f_type >= 0 &&
		o->f_name >= 0 && th_event_names_ok();
	return o;
}

/**
 * th_synth_ok - whether the dump has the synthetic events' types
 */
int th_synth_ok(void)
{
	return th_synth_off()->ok;
}

/**
 * th_synth_of_dyn_event - the synth_event around a dyn_event
 * @ev: struct dyn_event of kind TH_DYN_SYNTH
 */
ulong th_synth_of_dyn_event(ulong ev)
{
	const struct th_synth_off *o = th_synth_off();

	return o->ok ? ev - o->devent : 0;
}

/* The text a char * at ADDR points to; warned when it is not text. */
static int th_synth_str(ulong se, ulong addr, char *buf, size_t len,
			const char *what)
{
	ulong p;

	if (!th_read_strp(addr, buf, len, what, &p))
		return FALSE;
	if (!th_printable(buf))
		th_damaged("synth_event", se, "%s at %lx is not text", what, p);
	return TRUE;
}

/**
 * th_synth_name - a synthetic event's name
 * @se: struct synth_event
 * @buf: synth_event.name's text
 * @len: room in @buf
 */
int th_synth_name(ulong se, char *buf, size_t len)
{
	const struct th_synth_off *o = th_synth_off();

	buf[0] = '\0';
	return o->ok && th_synth_str(se, se + o->name, buf, len,
				     "synth_event.name");
}

/**
 * th_synth_system - a synthetic event's system (event->class.system,
 * the class its call points to)
 * @se: struct synth_event
 * @buf: the system
 * @len: room in @buf
 */
int th_synth_system(ulong se, char *buf, size_t len)
{
	const struct th_synth_off *o = th_synth_off();

	buf[0] = '\0';
	return o->ok && th_event_call_system(se + o->call, buf, len);
}

/**
 * th_synth_nfields - a synthetic event's number of fields
 * @se: struct synth_event
 *
 * Return: synth_event.n_fields, -1 when unreadable or implausible.
 */
int th_synth_nfields(ulong se)
{
	const struct th_synth_off *o = th_synth_off();
	unsigned int n = 0;

	if (!o->ok ||
	    !th_read_uint(se + o->n_fields, &n, "synth_event.n_fields"))
		return -1;
	if (!th_check_count("synth_event", se, n, TH_SYNTH_FIELDS_MAX,
			    "n_fields"))
		return -1;
	return (int)n;
}

/**
 * th_synth_field - one field of a synthetic event
 * @se: struct synth_event
 * @i: the field, below th_synth_nfields()
 * @type: synth_field.type's text
 * @tlen: room in @type
 * @name: synth_field.name's text
 * @nlen: room in @name
 */
int th_synth_field(ulong se, int i, char *type, size_t tlen, char *name,
		   size_t nlen)
{
	const struct th_synth_off *o = th_synth_off();
	ulong fields = 0, f = 0;

	type[0] = name[0] = '\0';
	if (!o->ok ||
	    !th_read_ulong(se + o->fields, &fields, "synth_event.fields") ||
	    !fields ||
	    !th_read_ulong(fields + i * sizeof(ulong), &f,
			   "synth_event.fields[]") || !f)
		return FALSE;
	return th_synth_str(se, f + o->f_type, type, tlen,
			    "synth_field.type") &&
		th_synth_str(se, f + o->f_name, name, nlen,
			     "synth_field.name");
}
