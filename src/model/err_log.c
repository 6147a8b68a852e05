/*
 * tracehunt: struct tracing_log_err, the entries of a trace array's
 * error_log (tr->err_log).  Its cmd was a char array of
 * MAX_FILTER_STR_VAL until Linux kernel commit 1581a884b7ca ("tracing:
 * Remove size restriction on tracing_log_err cmd strings") (in v5.18), a
 * char * since (told apart by the member's type); err_info.pos is read at
 * the size the debuginfo gives (a u8 in older kernels, a u16 in 6.1).
 * The only file that reads them.
 */
#include "model/model.h"
#include "model/ftrace_files.h"
#include "model/err_log.h"

static struct {
	int read;
	long list, info, loc, loc_size, cmd, cmd_size;
	long errs, type, pos, pos_size, ts;
	int cmd_ptr;
} elo;

static int th_err_log_off(void)
{
	if (!elo.read) {
		elo.read = TRUE;
		elo.list = th_member("tracing_log_err", "list");
		elo.info = th_member("tracing_log_err", "info");
		elo.loc = th_member("tracing_log_err", "loc");
		elo.loc_size = th_member_size("tracing_log_err", "loc");
		elo.cmd = th_member("tracing_log_err", "cmd");
		elo.cmd_size = th_member_size("tracing_log_err", "cmd");
		elo.cmd_ptr = th_member_ptr("tracing_log_err", "cmd") == 1;
		elo.errs = th_member("err_info", "errs");
		elo.type = th_member("err_info", "type");
		elo.pos = th_member("err_info", "pos");
		elo.pos_size = th_member_size("err_info", "pos");
		elo.ts = th_member("err_info", "ts");
	}
	return elo.list >= 0 && elo.info >= 0 && elo.loc >= 0 &&
		elo.cmd >= 0 && elo.errs >= 0 && elo.type >= 0 &&
		elo.pos >= 0 && elo.ts >= 0 && elo.loc_size > 0;
}

/* One entry at E into OUT; FALSE when unreadable. */
static int th_err_read(ulong e, struct th_err_entry *out)
{
	ulong info = e + elo.info, errs, text, cmd = e + elo.cmd;
	unsigned char type = 0;
	unsigned short pos16 = 0;
	unsigned char pos8 = 0;
	long loc_len = elo.loc_size < (long)sizeof(out->loc) ?
		elo.loc_size + 1 : (long)sizeof(out->loc);

	if (!th_read(info + elo.type, &type, 1, "err_info.type") ||
	    !th_read_ulong(info + elo.errs, &errs, "err_info.errs") ||
	    !th_read_u64(info + elo.ts, &out->ts, "err_info.ts") ||
	    !th_read_ulong(errs + type * sizeof(ulong), &text,
			   "err_info.errs[]") ||
	    !th_read_cstr(text, out->text, sizeof(out->text), "error text") ||
	    !th_read_cstr(e + elo.loc, out->loc, loc_len,
			  "tracing_log_err.loc"))
		return FALSE;
	if (elo.pos_size == 2) {
		if (!th_read(info + elo.pos, &pos16, 2, "err_info.pos"))
			return FALSE;
		out->pos = pos16;
	} else {
		if (!th_read(info + elo.pos, &pos8, 1, "err_info.pos"))
			return FALSE;
		out->pos = pos8;
	}
	if (elo.cmd_ptr && !th_read_ulong(cmd, &cmd, "tracing_log_err.cmd"))
		return FALSE;
	return th_read_cstr(cmd, out->cmd, sizeof(out->cmd),
			    "tracing_log_err.cmd");
}

/**
 * th_err_log_each - the entries of TR's error_log, oldest first
 * @tr: the trace array
 * @fn: called with each
 * @arg: passed to @fn
 *
 * Return: FALSE when the kernel has no error log tracehunt can read, or
 * an entry could not be read (those before it were given).
 */
int th_err_log_each(struct th_tr *tr,
		    void (*fn)(const struct th_err_entry *, void *), void *arg)
{
	ulong head = th_tr_list(tr->addr, TH_TR_ERR_LOG);
	struct th_err_entry *ent;
	struct th_walk w;
	int ok = TRUE;
	long i;

	if (!head || !th_err_log_off())
		return FALSE;
	ent = malloc(sizeof(*ent));
	if (!ent)
		return FALSE;
	th_list_walk(head, 1000, &w);
	for (i = 0; ok && i < w.n; i++) {
		ok = th_err_read(w.ent[i] - elo.list, ent);
		if (ok)
			fn(ent, arg);
	}
	if (w.err) {
		th_warn("%s error_log: %s at %lx", tr->name[0] ? tr->name :
			"global", w.err, w.bad);
		ok = FALSE;
	}
	th_walk_free(&w);
	free(ent);
	return ok;
}

/**
 * th_err_log_known - whether the debuginfo has the error log's layout
 */
int th_err_log_known(void)
{
	return th_err_log_off();
}
