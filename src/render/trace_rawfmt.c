/*
 * tracehunt: the options bin, hex and raw of the "trace" file
 * (kernel/trace/trace.c print_bin_fmt(), print_hex_fmt(), print_raw_fmt())
 * and each entry's funcs->binary, ->hex and ->raw (trace_output.c): the
 * function tracer's own, print/bprint/bputs/raw_data's raw ones, and
 * trace_nop_print()'s "type: N" for every entry that has none (the trace
 * events, syscalls, probes, stacks: register_trace_event() gives them
 * that one).
 */
#include "render/trace_priv.h"
#include "model/trace_entries.h"

/* a line, and the message of a print entry within it */
enum { TH_RF_LINE = 8320, TH_RF_TEXT = 4096 };

static ulong th_rf_ul(const unsigned char *ent, uint32_t len, unsigned off)
{
	ulong v = 0;

	if (off + sizeof(ulong) <= len)
		memcpy(&v, ent + off, sizeof(ulong));
	return v;
}

/* trace_seq_putmem_hex() of the N (<= 8) bytes at MEM: most significant
 * first (a little-endian host), then a space; the end. */
static char *th_put_hex(char *p, const void *mem, unsigned n)
{
	static const char hx[] = "0123456789abcdef";
	const unsigned char *d = mem;
	int i;

	for (i = (int)n - 1; i >= 0; i--) {
		*p++ = hx[d[i] >> 4];
		*p++ = hx[d[i] & 15];
	}
	*p++ = ' ';
	return p;
}

/* TRACE_RAW_DATA, -1 when the kernel has none */
static long th_rf_raw_data_type(void)
{
	static long type = -2;

	if (type == -2)
		type = th_trace_type("TRACE_RAW_DATA");
	return type;
}

/* funcs->raw of T's entry of TYPE, after the context, into B */
static void th_rf_raw_text(struct th_tctx *t, unsigned type, struct th_sb *b)
{
	const unsigned char *ent = t->ent;

	if (type == th_ttypes.fn) {
		/* trace_fn_raw() */
		th_sb_printf(b, "%lx %lx\n", th_rf_ul(ent, t->len, 8),
			     th_rf_ul(ent, t->len, 8 + sizeof(ulong)));
	} else if (type == th_ttypes.print) {
		/* trace_print_raw(): "# %lx %s" (the buffer ends in its
		 * own newline) */
		unsigned off = 8 + sizeof(ulong);
		int max = t->len > off ? t->len - off : 0;
		const char *s = (const char *)ent + off;

		th_sb_printf(b, "# %lx %.*s", th_rf_ul(ent, t->len, 8),
			     (int)strnlen(s, max), s);
	} else if (type == th_ttypes.bprint || type == th_ttypes.bputs ||
		   (long)type == th_rf_raw_data_type()) {
		/* trace_bprint_raw(), trace_bputs_raw(): ": %lx : " and the
		 * message; trace_raw_data() is its own raw: the same text
		 * the trace prints */
		char *text = malloc(TH_RF_TEXT);

		if (!text)
			return;
		if ((long)type != th_rf_raw_data_type())
			th_sb_printf(b, ": %lx : ", th_rf_ul(ent, t->len, 8));
		t->msg_only = TRUE;
		th_event_text(t, text, TH_RF_TEXT);
		t->msg_only = FALSE;
		th_sb_printf(b, "%s", text);
		free(text);
	} else
		th_sb_printf(b, "type: %u\n", type);
}

/*
 * print_bin_fmt(), print_hex_fmt() or print_raw_fmt() of T's entry (of
 * TYPE), whichever T's flags choose (bin first, as print_trace_line()),
 * into th_ob: bin writes the numbers' own bytes.
 */
void th_print_rawfmt(struct th_tctx *t, unsigned type)
{
	char *p = th_ob_reserve(TH_RF_LINE);
	const unsigned char *ent = t->ent;
	int pid = th_ent_pid(ent), cpu = t->cpu;
	uint64_t ts = t->ts;
	int is_fn = type == th_ttypes.fn &&
		    t->len >= 8 + 2 * sizeof(ulong);

	if (t->f_bin) {
		if (t->f_context) {
			memcpy(p, &pid, 4);
			memcpy(p + 4, &cpu, 4);
			memcpy(p + 8, &ts, 8);
			p += 16;
		}
		if (is_fn) {
			/* trace_fn_bin(): ip and parent_ip */
			memcpy(p, ent + 8, 2 * sizeof(ulong));
			p += 2 * sizeof(ulong);
		} else
			p += sprintf(p, "type: %u\n", type);
	} else if (t->f_hex) {
		if (t->f_context) {
			p = th_put_hex(p, &pid, 4);
			p = th_put_hex(p, &cpu, 4);
			p = th_put_hex(p, &ts, 8);
		}
		if (is_fn) {
			/* trace_fn_hex() */
			p = th_put_hex(p, ent + 8, sizeof(ulong));
			p = th_put_hex(p, ent + 8 + sizeof(ulong),
				       sizeof(ulong));
		} else
			p += sprintf(p, "type: %u\n", type);
		*p++ = '\n';
	} else {
		struct th_sb b = { p, TH_RF_LINE, 0, FALSE };

		if (t->f_context)
			th_sb_printf(&b, "%d %d %llu ", pid, cpu,
				     (unsigned long long)ts);
		th_rf_raw_text(t, type, &b);
		p += b.pos;
	}
	th_ob_commit(p);
}
