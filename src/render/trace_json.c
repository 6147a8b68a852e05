/*
 * tracehunt: "ftrace trace -j": the entries of a ring buffer as JSON
 * lines (schema: docs/tracehunt-json.schema.json, "ftrace trace"): a
 * first line about the buffer, one line per entry in the order "trace"
 * prints them (the merge of the CPUs by time stamp), each with its
 * context, its event, its fields by name and the text the "trace" file
 * shows after the context columns, and a last line with the count and
 * the warnings.
 */
#include "render/trace_priv.h"
#include "render/trace_cmd.h"
#include "render/json.h"

#define TJ_TEXT	8192

/* An integer field of SIZE bytes at ENT+OFF. */
static void tj_int(const unsigned char *ent, int off, int size, int is_signed)
{
	union { int8_t s8; int16_t s16; int32_t s32; int64_t s64; } v;

	memcpy(&v, ent + off, size);
	if (is_signed) {
		th_json_int(size == 1 ? v.s8 : size == 2 ? v.s16 :
			    size == 4 ? v.s32 : v.s64);
		return;
	}
	th_json_uint(size == 1 ? (uint8_t)v.s8 : size == 2 ? (uint16_t)v.s16 :
		     size == 4 ? (uint32_t)v.s32 : (uint64_t)v.s64);
}

/* A char array or __data_loc string: up to its NUL. */
static void tj_chars(const unsigned char *p, int max)
{
	th_json_strn((const char *)p, strnlen((const char *)p, max));
}

/* One field of E's format in ENT (LEN bytes). */
static void tj_field(const struct th_event_field *f, const unsigned char *ent,
		     uint32_t len)
{
	int is_char = strstr(f->type, "char") != NULL, i, n, esz;

	if (f->offset < 0 || f->size < 0 || (uint32_t)(f->offset + f->size) >
	    len) {
		th_json_null();
		return;
	}
	if (strncmp(f->type, "__data_loc", 10) == 0 ||
	    strncmp(f->type, "__rel_loc", 9) == 0) {
		/* u32: offset in the low half, length in the high half;
		 * __rel_loc's offset counts from the end of the field */
		uint32_t loc, off, l;

		memcpy(&loc, ent + f->offset, 4);
		off = (loc & 0xffff) + (f->type[2] == 'r' ?
					 f->offset + 4 : 0);
		l = loc >> 16;
		if (off + l > len) {
			th_json_null();
			return;
		}
		if (is_char) {
			tj_chars(ent + off, l);
			return;
		}
		th_json_arr();
		for (i = 0; i < (int)l; i++)
			th_json_uint(ent[off + i]);
		th_json_arr_end();
		return;
	}
	if (strchr(f->type, '[')) {
		/* "char buf[]" (size 0): to the end of the entry */
		if (is_char) {
			tj_chars(ent + f->offset, f->size ? f->size :
				 (int)(len - f->offset));
			return;
		}
		n = atoi(strchr(f->type, '[') + 1);
		esz = n > 0 ? f->size / n : 0;
		th_json_arr();
		for (i = 0; esz > 0 && i < n; i++)
			if (esz == 1 || esz == 2 || esz == 4 || esz == 8)
				tj_int(ent, f->offset + i * esz, esz,
				       f->is_signed);
		th_json_arr_end();
		return;
	}
	if (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8)
		tj_int(ent, f->offset, f->size, f->is_signed);
	else
		th_json_null();
}

static void tj_fields(struct th_event *e, const unsigned char *ent,
		      uint32_t len)
{
	int i;

	th_json_key("fields");
	if (!e) {
		th_json_null();
		return;
	}
	th_event_fields(e);
	th_json_obj();
	for (i = e->nfields_common; i < e->nfields; i++) {
		th_json_key(e->fields[i].name);
		tj_field(&e->fields[i], ent, len);
	}
	th_json_obj_end();
}

/* One entry, one line. */
static void tj_entry(struct th_tctx *t, char *text)
{
	unsigned type = th_ent_type(t->ent);
	struct th_event *e = th_event_by_type(type);
	char comm[64], lat[16], sys[64];
	int pid = th_ent_pid(t->ent);
	size_t n;

	th_json_line();
	th_json_obj();
	th_json_kint("cpu", t->cpu);
	th_json_kuint("ts", t->ts);
	th_json_kbool("ts_in_ns", t->in_ns);
	th_json_kint("pid", pid);
	th_find_cmdline(pid, comm);
	th_json_kstr("comm", comm);
	lat[th_lat_str(t->ent, lat)] = '\0';
	th_json_kstr("flags", lat);
	th_json_kuint("type", type);
	th_json_key("event");
	th_json_str(e ? e->name : NULL);
	th_json_key("system");
	th_json_str(e && th_event_call_system(e->call, sys, sizeof(sys)) ?
		    sys : NULL);
	tj_fields(e, t->ent, t->len);
	/* print_trace_line(): printk-msg-only shows the bare message */
	th_trace_types();
	t->msg_only = t->f_printk_msgonly &&
		      (type == th_ttypes.print || type == th_ttypes.bprint ||
		       type == th_ttypes.bputs);
	th_event_text(t, text, TJ_TEXT);
	t->msg_only = FALSE;
	n = strlen(text);
	while (n && text[n - 1] == '\n')
		n--;
	th_json_key("text");
	th_json_strn(text, n);
	th_json_obj_end();
	th_json_eol();
}

/*
 * A boot-mapped array holding the previous boot's trace: that boot's
 * _text and modules (last_boot_info) and the deltas its addresses are
 * mapped by (trace_adjust_address()); or, when which boot wrote the
 * buffer cannot be read, why (its addresses taken as they are).
 */
static void tj_last_boot(const struct th_last_boot *lb)
{
	int i;

	th_json_key("last_boot");
	th_json_obj();
	th_json_kbool("known", lb->state == TH_LB_LAST);
	if (lb->state == TH_LB_LAST) {
		th_json_kaddr_or_null("text_addr", lb->have_scratch ?
				      lb->text_addr : 0);
		th_json_kint("text_delta", lb->text_delta);
		th_json_key("modules");
		th_json_arr();
		for (i = 0; i < lb->nmods; i++) {
			th_json_obj();
			th_json_kstr("name", lb->mods[i].name);
			th_json_kaddr("addr", lb->mods[i].addr);
			th_json_key("delta");
			if (lb->have_deltas)
				th_json_int(lb->mods[i].delta);
			else
				th_json_null();
			th_json_kbool("loaded", th_module_listed(
					      lb->mods[i].name));
			th_json_obj_end();
		}
		th_json_arr_end();
	}
	if (lb->why[0])
		th_json_kstr("why", lb->why);
	th_json_obj_end();
}

/* The first line: the buffer and the selection. */
static void tj_head(struct th_tr *tr, struct th_tctx *t, struct th_rb *rb)
{
	int i;

	th_json_begin("ftrace trace");
	th_json_kstr("instance", tr->name);
	th_json_kstr("tracer", t->tracer ? t->tracer : "");
	th_json_kbool("ts_in_ns", t->in_ns);
	th_json_key("cpus");
	th_json_arr();
	for (i = 0; i < rb->ncpus; i++)
		if (!rb->cpus[i].done)
			th_json_int(rb->cpus[i].cpu);
	th_json_arr_end();
	if (t->lb)
		tj_last_boot(t->lb);
	th_json_obj_end();
	th_json_eol();
}

/*
 * th_trace_json - "ftrace trace -j": TR's entries selected by S, all or
 * the last LAST (>= 0), as JSON lines.
 */
void th_trace_json(struct th_tr *tr, const struct th_sel *s, long last)
{
	struct th_tctx t;
	struct th_rb rb;
	struct th_rbcpu *c;
	char err[256], *text;
	long n = 0, skip = 0;
	int i;

	th_json_warnings_start();
	/* the buffer the trace file shows (th_trace_print()) */
	if (!th_rb_open(tr->addr, th_tr_prints_max(tr->addr), &rb, err,
			sizeof(err))) {
		th_json_begin("ftrace trace");
		th_json_kstr("error", err);
		th_json_end();
		return;
	}
	text = malloc(TJ_TEXT);
	th_tctx_init(&t, tr->addr);
	t.cpu_file = s->cpu;
	th_trace_start(&rb, s, last);
	tj_head(tr, &t, &rb);
	if (last >= 0) {
		while ((c = th_rb_next(&rb)) != NULL) {
			n += th_sel_want(c->ev.payload, (void *)s);
			th_rb_cpu_advance(c);
		}
		skip = n > last ? n - last : 0;
		th_trace_start(&rb, s, last);
	}
	n = 0;
	while (text && (c = th_rb_next(&rb)) != NULL) {
		if (c->ev.len >= 8 && th_sel_want(c->ev.payload, (void *)s) &&
		    skip-- <= 0) {
			t.cpu = c->cpu;
			t.ts = c->ev.ts;
			t.ent = c->ev.payload;
			t.len = c->ev.len;
			tj_entry(&t, text);
			n++;
		}
		th_rb_cpu_advance(c);
	}
	for (i = 0; i < rb.ncpus; i++)
		if (rb.cpus[i].bad || rb.cpus[i].cpu_unreadable)
			th_warn("CPU %d: %ld malformed or unreadable records "
				"or sub-buffers skipped%s", rb.cpus[i].cpu,
				rb.cpus[i].bad, rb.cpus[i].cpu_unreadable ?
				" (its ring_buffer_per_cpu is not in the dump)"
				: "");
	th_json_begin("ftrace trace");
	th_json_kint("entries", n);
	th_json_end();
	free(text);
	th_tctx_done(&t);
	th_rb_close(&rb);
}
