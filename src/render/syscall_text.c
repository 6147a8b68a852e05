/*
 * tracehunt: the lines of system call events (kernel/trace/
 * trace_syscalls.c print_syscall_enter() and print_syscall_exit()), most
 * of a syscall trace: each event's metadata resolved once, and its line
 * written straight after the context columns.
 */
#include "render/trace_priv.h"
#include "printfmt.h"

int th_type_is_core(unsigned type)
{
	const struct th_trace_types *tt = th_trace_types();
	const long core[] = { tt->fn, tt->print, tt->bprint, tt->bputs,
			      tt->stack, tt->user_stack, tt->ctx, tt->wake,
			      tt->hwlat, tt->osnoise, tt->timerlat,
			      th_raw_data_type() };
	unsigned i;

	for (i = 0; i < sizeof(core) / sizeof(core[0]); i++)
		if ((long)type == core[i])
			return TRUE;
	return FALSE;
}

void th_sysc_fill(struct th_sysc *c, struct th_event *e)
{
	const struct th_syscall_meta *m;
	int i;

	if (!(m = th_event_syscall(e)))
		return;
	c->kind = e->kind;
	c->m = m;
	c->pm.name = m->name;
	c->pm.name_len = strlen(m->name);
	c->pm.nb_args = m->nb_args;
	for (i = 0; i < 6 && i < m->nb_args; i++) {
		c->pm.args[i] = m->args[i];
		c->pm.arg_len[i] = strlen(m->args[i]);
		c->pm.types[i] = m->types[i];
	}
	c->pm.user_mask = m->user_mask;
	c->pm.user_arg_size = m->user_arg_size;
	c->pm.user_arg_is_str = m->user_arg_is_str;
	if (m->has_user)
		c->flags |= PF_SYS_USER;
	if (m->openat_by_name)
		c->flags |= PF_SYS_OPENAT;
	if (c->kind == TH_EVK_SYS_EXIT)
		pf_sysline_init_exit(&c->line, m->name, c->pm.name_len,
				     m->ret_off);
	else
		pf_sysline_init(&c->line, &c->pm, m->args_off);
}

/* print_syscall_exit()'s "%s -> 0x%lx\n" of T's entry at P (up to 86
 * bytes), its end: the long way of th_syscall_text_at()'s (an entry too
 * short for its value, a name too long for the compiled line) */
static inline char *th_sysexit_at(const struct th_tctx *t,
				  const struct th_sysc *c, char *p)
{
	ulong v = th_get_ul(t->ent, t->len, c->m->ret_off);
	char d[24];
	int k = sizeof(d);

	d[--k] = '\n';
	do {
		d[--k] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	memcpy(p, c->m->name, c->pm.name_len);
	p += c->pm.name_len;
	memcpy(p, " -> 0x", 6);
	memcpy(p + 6, d + k, sizeof(d) - k);
	return p + 6 + sizeof(d) - k;
}

/*
 * th_syscall_text_at - T's entry of TYPE as th_event_text() prints it,
 * when it is a system call's enter or exit, written at P
 * @t: the entry, with neither the "fields" option nor the previous
 *     boot's addresses (which the caller checks)
 * @type: its type
 * @p: where the text goes, TH_TEXT bytes of room
 *
 * Return: the end of the text (no NUL written), or NULL when the entry
 * is not such an event or its text takes th_print_syscall()'s long way
 * (past 4 KB, an error).
 */
char *th_syscall_text_at(struct th_tctx *t, unsigned type, char *p)
{
	const struct th_sysc *c = th_sysc_of(type);
	char *q;
	int n;

	if (!c->kind)
		return NULL;
	if ((q = th_sysc_line_at(t, c, t->ent, t->len, p)) != NULL) {
		*q = '\n';
		return q + 1;
	}
	if (c->kind == TH_EVK_SYS_EXIT)
		return th_sysexit_at(t, c, p);
	/* as th_print_syscall() does at the start of its buffer */
	n = pf_syscall_enter(&c->pm, t->ent, t->len, c->m->args_off,
			     th_sysc_flags(t, c), &th_pfc, p, 4096);
	if (n < 0)
		return NULL;
	p[n] = '\n';
	return p + n + 1;
}

/*
 * print_syscall_enter() and print_syscall_exit()
 * (kernel/trace/trace_syscalls.c) the long way, into B (the "verbose"
 * option's types, a text past th_syscall_text_at()'s room, an error):
 * the enter line from the event's struct syscall_metadata by
 * lib/printfmt's pf_syscall_enter(), in the form the kernel's metadata
 * says it prints (user data, sys_openat by its own printer).
 */
void th_print_syscall(struct th_tctx *t, struct th_event *e,
		      struct th_sb *b)
{
	const struct th_sysc *c = th_sysc_of(e->type);
	char out[4096];
	int n;

	if (!c->kind) {
		th_sb_printf(b, "%s: (no syscall metadata)\n", e->name);
		return;
	}
	if (c->kind == TH_EVK_SYS_EXIT) {
		char line[128];

		th_sb_put(b, line, th_sysexit_at(t, c, line) - line);
		return;
	}
	if (!b->grow && b->pos < b->len) {
		/* straight into B, as th_sb_put() of the text and a newline
		 * would put them (the text holds no NUL: lib/printfmt.h) */
		size_t room = b->len - b->pos;

		n = pf_syscall_enter(&c->pm, t->ent, t->len, c->m->args_off,
				     th_sysc_flags(t, c), &th_pfc,
				     b->buf + b->pos,
				     room < sizeof(out) ? room : sizeof(out));
		if (n >= 0) {
			b->pos += n;
			th_sb_put(b, "\n", 1);
			return;
		}
		b->buf[b->pos] = '\0';
	}
	n = pf_syscall_enter(&c->pm, t->ent, t->len, c->m->args_off,
			     th_sysc_flags(t, c), &th_pfc, out, sizeof(out));
	if (n < 0) {
		th_sb_printf(b, "%s: (%s)\n", c->m->name, out);
		return;
	}
	out[n] = '\n';
	th_sb_put(b, out, n + 1);
}

