/*
 * tracehunt: the output of the trace printers (th_ob: lines assembled in
 * place, one fwrite() a buffer), the one string builder (th_sb: into a
 * fixed buffer or a growing one), and decimal numbers without printf.
 */
#define _GNU_SOURCE		/* fwrite_unlocked */
#include "render/trace_priv.h"
#include "model/handoff.h"

static char th_ob_own[TH_OB_SIZE];
struct th_ob th_ob = { .b = th_ob_own };

char *th_ob_own_buffer(void)
{
	return th_ob_own;
}
FILE *th_ob_sink;

void th_ob_flush(void)
{
	if (th_ho.on) {
		if (th_on_helper()) {
			th_helper_hand_out();
			return;
		}
		/* what the helper printed before goes first */
		th_helper_write_out();
	}
	if (!th_ob.n)
		return;
	if (th_ob_sink) {
		/* past fp's own buffer (whatever it holds goes first):
		 * the lines are copied once less */
		fflush_unlocked(fp);
		fwrite_unlocked(th_ob.b, 1, th_ob.n, th_ob_sink);
	} else
		fwrite_unlocked(th_ob.b, 1, th_ob.n, fp);
	th_ob.n = 0;
}

void th_ob_reset(void)
{
	th_ob.n = 0;
}

void th_ob_put(const char *s, size_t n)
{
	while (n > TH_OB_SIZE && th_on_helper()) {
		/* (no fp on the helper: through th_ob, a buffer at a time) */
		size_t k = TH_OB_SIZE - th_ob.n;

		memcpy(th_ob.b + th_ob.n, s, k);
		th_ob.n += k;
		th_ob_flush();
		s += k;
		n -= k;
	}
	if (n > TH_OB_SIZE - th_ob.n) {
		th_ob_flush();
		if (n > TH_OB_SIZE) {
			fwrite_unlocked(s, 1, n, fp);
			return;
		}
	}
	memcpy(th_ob.b + th_ob.n, s, n);
	th_ob.n += n;
}

/* ---------------------------------------------------- string builder --- */

/* th_sb_printf() of a growing builder: the buffer doubled past the text. */
static void th_sb_vgrow(struct th_sb *b, const char *fmt, va_list ap)
{
	va_list aq;
	int k;

	for (;;) {
		va_copy(aq, ap);
		k = vsnprintf(b->buf ? b->buf + b->pos : NULL,
			      b->buf ? b->len - b->pos : 0, fmt, aq);
		va_end(aq);
		if (k < 0)
			return;
		if (b->buf && b->pos + k < b->len) {
			b->pos += k;
			return;
		}
		b->len = (b->len + k + 1) * 2;
		b->buf = realloc(b->buf, b->len);
		if (!b->buf) {
			b->pos = b->len = 0;
			return;
		}
	}
}

void th_sb_printf(struct th_sb *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	if (b->grow) {
		th_sb_vgrow(b, fmt, ap);
		va_end(ap);
		return;
	}
	if (b->pos >= b->len) {
		va_end(ap);
		return;
	}
	n = vsnprintf(b->buf + b->pos, b->len - b->pos, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->pos += n;
	if (b->pos >= b->len)
		b->pos = b->len - 1;
}

void th_sb_put(struct th_sb *b, const char *s, size_t n)
{
	size_t room;

	if (b->grow) {
		th_sb_printf(b, "%.*s", (int)n, s);
		return;
	}
	if (b->pos >= b->len)
		return;
	room = b->len - 1 - b->pos;
	if (n > room)
		n = room;
	memcpy(b->buf + b->pos, s, n);
	b->pos += n;
	b->buf[b->pos] = '\0';
}

/* ----------------------------------------------------------- numbers --- */

const char th_digits2[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

char *th_put_udec(char *p, unsigned long long v, int width, char pad)
{
	char d[24], *q = d + sizeof(d);
	int n;

	while (v >= 100) {
		q -= 2;
		memcpy(q, th_digits2 + (v % 100) * 2, 2);
		v /= 100;
	}
	if (v >= 10) {
		q -= 2;
		memcpy(q, th_digits2 + v * 2, 2);
	} else
		*--q = '0' + v;
	n = d + sizeof(d) - q;
	for (; width > n; width--)
		*p++ = pad;
	memcpy(p, q, n);
	return p + n;
}
