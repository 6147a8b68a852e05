/*
 * tracehunt: the one JSON writer of the "-j" outputs: values escaped as
 * RFC 8259 wants, separators counted per nesting level, the model's
 * warnings kept and written at the end of each document.
 */
#include "render/json.h"

#define TH_JSON_DEPTH	16
#define TH_JSON_NWARN	64

/* Elements written so far at each nesting level; a key pending. */
static int json_count[TH_JSON_DEPTH];
static int json_depth;
static int json_after_key;
static int json_newline;

static char json_warn[TH_JSON_NWARN][256];
static int json_nwarn, json_nwarn_lost;
static ulong json_warn_cmd = (ulong)-1;	/* pc->cmdgencur of those */

/* Forget the warnings a command that died half-way left. */
static void json_warn_newcmd(void)
{
	if (json_warn_cmd == pc->cmdgencur)
		return;
	json_warn_cmd = pc->cmdgencur;
	json_nwarn = json_nwarn_lost = 0;
}

static void json_warn_keep(const char *msg, void *arg)
{
	int i;

	json_warn_newcmd();

	for (i = 0; i < json_nwarn; i++)
		if (strcmp(json_warn[i], msg) == 0)
			return;
	if (json_nwarn < TH_JSON_NWARN)
		th_strlcpy(json_warn[json_nwarn++], msg, sizeof(json_warn[0]));
	else
		json_nwarn_lost++;
}

void th_json_warnings_start(void)
{
	th_warn_to(json_warn_keep, NULL);
}

void th_json_warnings_stop(void)
{
	th_warn_to(NULL, NULL);
}

/*
 * The document is assembled here and written to fp in large pieces: fp is
 * unbuffered when crash redirects a command, so one fputc() per character
 * was one write(2) each (ftrace sites -j of a function_graph dump, 36 MB:
 * 59 s, now well under a second).  Flushed when full, at the end of each
 * document and each line of ftrace trace -j; th_json_begin() drops what a
 * command that died half-way left.
 */
#define TH_JSON_BUF	65536
static char json_buf[TH_JSON_BUF];
static size_t json_len;

void th_json_flush(void)
{
	if (json_len)
		fwrite(json_buf, 1, json_len, fp);
	json_len = 0;
}

static void jput(const char *s, size_t n)
{
	if (n > TH_JSON_BUF - json_len) {
		th_json_flush();
		if (n > TH_JSON_BUF) {
			fwrite(s, 1, n, fp);
			return;
		}
	}
	memcpy(json_buf + json_len, s, n);
	json_len += n;
}

static void jputc(char c)
{
	if (json_len == TH_JSON_BUF)
		th_json_flush();
	json_buf[json_len++] = c;
}

static void jputs(const char *s)
{
	jput(s, strlen(s));
}

static void jnum(const char *fmt, ...)
{
	char b[64];
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	if (k > 0)
		jput(b, (size_t)k < sizeof(b) ? (size_t)k : sizeof(b) - 1);
}

void th_json_eol(void)
{
	jputc('\n');
	th_json_flush();
}

/* S escaped as a JSON string into OUT (at most 6 bytes per input byte);
 * returns the length. */
static size_t json_escape(const char *s, size_t n, char *out)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\') {
			out[k++] = '\\';
			out[k++] = c;
		} else if (c == '\n') {
			out[k++] = '\\';
			out[k++] = 'n';
		} else if (c == '\t') {
			out[k++] = '\\';
			out[k++] = 't';
		} else if (c < 0x20 || c >= 0x7f) {
			/* bytes as code points U+0000..U+00FF: what the
			 * kernel printed, never invalid UTF-8 */
			memcpy(out + k, "\\u00", 4);
			k += 4;
			out[k++] = hex[c >> 4];
			out[k++] = hex[c & 15];
		} else {
			out[k++] = c;
		}
	}
	return k;
}

/* S as a JSON string, in pieces of at most 512 input bytes; to OUT, or
 * into the document when OUT is NULL. */
static void json_string(const char *s, size_t n, FILE *out)
{
	char esc[512 * 6 + 2];
	size_t done = 0, k;

	do {
		size_t part = n - done > 512 ? 512 : n - done;

		k = 0;
		if (!done)
			esc[k++] = '"';
		k += json_escape(s + done, part, esc + k);
		done += part;
		if (done == n)
			esc[k++] = '"';
		if (out)
			fwrite(esc, 1, k, out);
		else
			jput(esc, k);
	} while (done < n);
}

void th_json_fputs(const char *s, size_t n, FILE *out)
{
	json_string(s, n, out);
}

/* The separator before a value or key at the current level. */
static void json_sep(void)
{
	if (json_after_key) {
		json_after_key = FALSE;
		return;
	}
	if (json_count[json_depth]++)
		jputc(',');
	if (json_newline) {
		jputs("\n  ");
		json_newline = FALSE;
	} else if (json_count[json_depth] > 1) {
		jputc(' ');
	}
}

void th_json_nl(void)
{
	json_newline = TRUE;
}

void th_json_key(const char *key)
{
	json_sep();
	json_string(key, strlen(key), NULL);
	jputs(": ");
	json_after_key = TRUE;
}

static void json_open(char c)
{
	json_sep();
	jputc(c);
	if (json_depth < TH_JSON_DEPTH - 1)
		json_depth++;
	json_count[json_depth] = 0;
}

static void json_close(char c)
{
	if (json_newline && json_count[json_depth])
		jputc('\n');
	json_newline = FALSE;
	jputc(c);
	if (json_depth > 0)
		json_depth--;
}

void th_json_obj(void)
{
	json_open('{');
}

void th_json_obj_end(void)
{
	json_close('}');
}

void th_json_arr(void)
{
	json_open('[');
}

void th_json_arr_end(void)
{
	json_close(']');
}

void th_json_strn(const char *s, size_t n)
{
	json_sep();
	json_string(s, n, NULL);
}

void th_json_str(const char *s)
{
	if (!s) {
		th_json_null();
		return;
	}
	th_json_strn(s, strlen(s));
}

void th_json_int(long long v)
{
	json_sep();
	jnum("%lld", v);
}

void th_json_uint(unsigned long long v)
{
	json_sep();
	jnum("%llu", v);
}

void th_json_addr(ulong addr)
{
	json_sep();
	jnum("\"0x%lx\"", addr);
}

void th_json_bool(int v)
{
	json_sep();
	jputs(v ? "true" : "false");
}

void th_json_null(void)
{
	json_sep();
	jputs("null");
}

void th_json_kstr(const char *key, const char *s)
{
	th_json_key(key);
	th_json_str(s);
}

void th_json_kint(const char *key, long long v)
{
	th_json_key(key);
	th_json_int(v);
}

void th_json_kuint(const char *key, unsigned long long v)
{
	th_json_key(key);
	th_json_uint(v);
}

void th_json_kaddr(const char *key, ulong addr)
{
	th_json_key(key);
	th_json_addr(addr);
}

void th_json_kaddr_or_null(const char *key, ulong addr)
{
	th_json_key(key);
	if (addr)
		th_json_addr(addr);
	else
		th_json_null();
}

void th_json_kbool(const char *key, int v)
{
	th_json_key(key);
	th_json_bool(v);
}

void th_json_owner_is(const struct th_owner *o, const char *kind,
		      const char *text)
{
	static const char *const kinds[] = {
		[TH_OWN_NONE] = "none", [TH_OWN_CORE] = "core",
		[TH_OWN_MODULE] = "module", [TH_OWN_HIDDEN] = "HIDDEN",
		[TH_OWN_UNKNOWN] = "unknown",
	};

	th_json_obj();
	th_json_kstr("kind", kind ? kind : o->kind <= TH_OWN_UNKNOWN ?
		     kinds[o->kind] : "unknown");
	th_json_key("module");
	th_json_str(o->module[0] && !kind ? o->module : NULL);
	th_json_kstr("text", text);
	th_json_key("vmap");
	if (!kind && o->kind == TH_OWN_HIDDEN && o->have_vmap) {
		th_json_obj();
		th_json_kaddr("start", o->vmap.start);
		th_json_kaddr("end", o->vmap.end);
		th_json_kaddr("caller", o->vmap.caller);
		th_json_obj_end();
	} else {
		th_json_null();
	}
	th_json_obj_end();
}

void th_json_owner(ulong addr)
{
	struct th_owner o;
	char text[256];

	th_owner_of(addr, &o);
	th_json_owner_is(&o, NULL, th_owner_str(&o, text, sizeof(text)));
}

void th_json_code(ulong addr)
{
	char sym[512];

	if (!addr) {
		th_json_null();
		return;
	}
	th_json_obj();
	th_json_kaddr("address", addr);
	th_json_kstr("symbol", th_ksym_pS_any(addr, sym, sizeof(sym)));
	th_json_key("owner");
	th_json_owner(addr);
	th_json_obj_end();
}

void th_json_warnings(void)
{
	char lost[64];
	int i;

	th_json_arr();
	for (i = 0; i < json_nwarn; i++)
		th_json_str(json_warn[i]);
	if (json_nwarn_lost) {
		snprintf(lost, sizeof(lost), "%d more warnings not kept",
			 json_nwarn_lost);
		th_json_str(lost);
	}
	th_json_arr_end();
	json_nwarn = json_nwarn_lost = 0;
}

void th_json_line(void)
{
	json_depth = 0;
	json_count[0] = 0;
	json_after_key = json_newline = FALSE;
}

void th_json_begin(const char *command)
{
	json_len = 0;
	th_json_line();
	/* what this command's earlier lines kept stays for its last one
	 * ("ftrace trace -j": the head and the entries' warnings) */
	json_warn_newcmd();
	th_json_warnings_start();
	th_json_obj();
	th_json_kint("schema", TH_JSON_SCHEMA);
	th_json_kstr("tracehunt", TH_VERSION);
	th_json_kstr("command", command);
}

void th_json_end(void)
{
	th_json_warnings_stop();
	th_json_key("warnings");
	th_json_warnings();
	th_json_obj_end();
	th_json_eol();
}
