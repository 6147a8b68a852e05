/*
 * tracehunt: what only the kernel's own code and strings tell about the
 * ring buffer's files, where no type, member or symbol does: the format
 * strings ring_buffer_print_page_header() and
 * ring_buffer_print_entry_header() load, and whether
 * ring_buffer_iter_empty() looks at the head page.  Each read once and
 * kept; each falls back to the later kernels' form when the code cannot
 * be read.
 */
#include "model/trace_rb.h"
#include "insn.h"

/*
 * The type events/header_page gives the overwrite flag is only in
 * ring_buffer_print_page_header()'s format string: "int overwrite" (signed
 * like long) until a 2025 change made it "char overwrite" (signed like
 * char; seen on 7.2, not on 6.12).  No member or symbol tells the two
 * apart, so the kernel's own string is read: the strings the function
 * loads, one of which starts with the overwrite line.
 */
int th_rb_overwrite_is_char(void)
{
	static int known = -1;
	char str[48][TH_CODE_STR];
	int i, n;

	if (known >= 0)
		return known;
	known = 0;
	n = th_code_strings("ring_buffer_print_page_header", 640, str, 48);
	for (i = 0; i < n; i++)
		if (strncmp(str[i], "\tfield: char overwrite;", 23) == 0)
			known = 1;
	return known;
}

/*
 * events/header_event names the time_stamp type (31) only since Linux
 * kernel commit dc4e2801d400 ("ring-buffer: Redefine the unimplemented
 * RINGBUF_TYPE_TIME_STAMP", v4.17); 3.10 defines the enumerator but
 * printed no line for it.  The kernel's own format string, loaded by
 * ring_buffer_print_entry_header(), says which: TRUE when it has the
 * line (also when the code cannot be read: the kernels since v4.17).
 */
int th_rb_header_has_time_stamp(void)
{
	static int known = -1;
	char str[48][TH_CODE_STR];
	int i, n, extend = 0;

	if (known >= 0)
		return known;
	known = 1;
	n = th_code_strings("ring_buffer_print_entry_header", 640, str, 48);
	/* one format string (3.10) or one per line (5.10): the line is
	 * in one of them, or absent where the time_extend line is seen */
	for (i = 0; i < n; i++) {
		if (strstr(str[i], "time_stamp : type"))
			return known = 1;
		if (strstr(str[i], "time_extend : type"))
			extend = 1;
	}
	return known = !extend;
}

/* The displacement of the ModRM memory operand of the instruction IN at
 * P (mod 01: disp8, 10: disp32), -1 when it has none.  Only the
 * one-byte-map mov (8b) is asked for. */
static long th_modrm_disp(const unsigned char *p, const struct insn *in)
{
	int i = 0, mod, rm;

	while (i < in->len && (p[i] == 0x66 || p[i] == 0x67 || p[i] == 0xf0 ||
			       p[i] == 0xf2 || p[i] == 0xf3 || p[i] == 0x2e ||
			       p[i] == 0x3e || p[i] == 0x26 || p[i] == 0x64 ||
			       p[i] == 0x65 || p[i] == 0x36))
		i++;
	if (i < in->len && (p[i] & 0xf0) == 0x40)
		i++;
	if (i + 1 >= in->len || p[i] != 0x8b)
		return -1;
	mod = p[i + 1] >> 6;
	rm = p[i + 1] & 7;
	i += 2;
	if (rm == 4)
		i++;		/* SIB */
	if (mod == 1 && i < in->len)
		return p[i];
	if (mod == 2 && i + 4 <= in->len)
		return p[i] | p[i + 1] << 8 | p[i + 2] << 16 |
			(long)p[i + 3] << 24;
	return -1;
}

/*
 * Whether ring_buffer_iter_empty() is 3.10's: "empty" only when the
 * iterator, which rb_iter_reset() starts at the reader page, is at the
 * commit page's commit; the later one is also empty when the reader page
 * is read and the head page is the commit page with nothing on it (it
 * loads cpu_buffer->head_page).  trace_empty() of the snapshot files asks
 * it.  Told by whether its code loads head_page's offset of struct
 * ring_buffer_per_cpu; FALSE (the later one) when it cannot be read.
 */
int th_rb_iter_empty_is_old(void)
{
	static int known = -1;
	ulong fn = th_symbol("ring_buffer_iter_empty");
	unsigned char code[256];
	struct insn in;
	long off, head, r_, p_;

	if (known >= 0)
		return known;
	known = 0;
	th_rb_iter_offsets(&head, &r_, &p_);
	if (!fn || head < 0 || !th_read(fn, code, sizeof(code),
					"ring_buffer_iter_empty code"))
		return known;
	known = 1;
	for (off = 0; off < (long)sizeof(code); off += in.len) {
		if (!insn_decode(code + off, sizeof(code) - off, fn + off,
				 &in)) {
			known = 0;	/* not read whole: the later one */
			break;
		}
		if (in.kind == INSN_RET)
			break;
		if (in.map == 0 && th_modrm_disp(code + off, &in) == head) {
			known = 0;
			break;
		}
	}
	return known;
}

/**
 * th_rb_cpu_iter_empty_old - 3.10's ring_buffer_iter_empty() of a fresh
 * iterator on C: the reader page is the commit page, read up to its
 * commit
 * @c: the CPU's buffer (th_rb_open())
 *
 * Return: 1 empty, 0 not, -1 unreadable.
 */
int th_rb_cpu_iter_empty_old(const struct th_rbcpu *c)
{
	ulong dpage = 0, commit = 0;
	unsigned int read = 0;
	long o_head, o_read, o_page, o_commit, o_data;

	th_rb_iter_offsets(&o_head, &o_read, &o_page);
	th_rb_bdp_offsets(&o_commit, &o_data);
	if (o_read < 0 || o_page < 0 || o_commit < 0 || !c->reader ||
	    !c->commit)
		return -1;
	if (c->reader != c->commit)
		return 0;
	if (!th_read_uint(c->reader + o_read, &read, "buffer_page.read") ||
	    !th_read_ulong(c->commit + o_page, &dpage,
			   "buffer_page.page") ||
	    !th_read_ulong(dpage + o_commit, &commit,
			   "buffer_data_page.commit"))
		return -1;
	/* iter->head (the reader page's read) == rb_commit_index() */
	return (ulong)read == commit;
}
