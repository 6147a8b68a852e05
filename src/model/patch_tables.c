/*
 * tracehunt: the model's one reader of the kernel's patch-table entry
 * types (struct alt_instr, paravirt_patch_site, jump_entry,
 * static_call_site) and of static_call_key.  The tables themselves are
 * read from the vmlinux file by the text check (audit/text_tables.c):
 * most live in init memory the kernel frees after boot.
 */
#include "model/patch_tables.h"

/* Offsets and sizes, -1 when absent; filled once. */
static struct {
	int filled;
	long size[TH_PATCH_NTABLES];
	/* struct alt_instr: instr_offset, repl_offset (s32, relative),
	 * instrlen (the whole patched length, padding included) and
	 * replacementlen */
	long alt_instr, alt_instrlen, alt_repl, alt_repllen;
	/* struct paravirt_patch_site: instr (absolute), len (u8) */
	long pv_instr, pv_len;
	/* struct jump_entry: code and target s32 relative to themselves
	 * (CONFIG_HAVE_ARCH_JUMP_LABEL_RELATIVE) or absolute, told by the
	 * member's size */
	long jump_code, jump_target, jump_code_size;
	/* struct static_call_site: addr and key relative s32; the key's
	 * low bits are flags (STATIC_CALL_SITE_TAIL/INIT) */
	long sc_addr, sc_key;
	long key_func;
} pt_off;

static void pt_off_fill(void)
{
	if (pt_off.filled)
		return;
	pt_off.filled = 1;
	pt_off.size[TH_PATCH_ALT] = th_size("alt_instr");
	pt_off.alt_instr = th_member("alt_instr", "instr_offset");
	pt_off.alt_instrlen = th_member("alt_instr", "instrlen");
	pt_off.alt_repl = th_member("alt_instr", "repl_offset");
	pt_off.alt_repllen = th_member("alt_instr", "replacementlen");
	pt_off.size[TH_PATCH_PARAVIRT] = th_size("paravirt_patch_site");
	pt_off.pv_instr = th_member("paravirt_patch_site", "instr");
	pt_off.pv_len = th_member("paravirt_patch_site", "len");
	pt_off.size[TH_PATCH_JUMP] = th_size("jump_entry");
	pt_off.jump_code = th_member("jump_entry", "code");
	pt_off.jump_target = th_member("jump_entry", "target");
	pt_off.jump_code_size = pt_off.jump_code < 0 ? -1 :
		th_member_size("jump_entry", "code");
	pt_off.size[TH_PATCH_STATIC_CALL] = th_size("static_call_site");
	pt_off.sc_addr = th_member("static_call_site", "addr");
	pt_off.sc_key = th_member("static_call_site", "key");
	pt_off.key_func = th_member("static_call_key", "func");
}

/* Whether the members TABLE's entries are decoded with exist. */
static int pt_usable(enum th_patch_table table)
{
	long esz = pt_off.size[table];

	switch (table) {
	case TH_PATCH_ALT:
		return pt_off.alt_instr >= 0 && pt_off.alt_instrlen >= 0 &&
			pt_off.alt_repl >= 0 && pt_off.alt_repllen >= 0 &&
			pt_off.alt_instrlen < esz && pt_off.alt_repllen < esz;
	case TH_PATCH_PARAVIRT:
		return pt_off.pv_instr >= 0 && pt_off.pv_len >= 0 &&
			pt_off.pv_instr + 8 <= esz && pt_off.pv_len < esz;
	case TH_PATCH_JUMP:
		return pt_off.jump_code >= 0 && pt_off.jump_target >= 0;
	case TH_PATCH_STATIC_CALL:
		return pt_off.sc_addr >= 0 && pt_off.sc_key >= 0;
	default:
		return FALSE;
	}
}

/**
 * th_patch_entry_size - the size of one entry of a patch table
 * @table: which
 *
 * Returns -1 when the debuginfo has no usable layout for it.
 */
long th_patch_entry_size(enum th_patch_table table)
{
	pt_off_fill();
	if (table < 0 || table >= TH_PATCH_NTABLES || !pt_usable(table) ||
	    pt_off.size[table] <= 0)
		return -1;
	return pt_off.size[table];
}

static long pt_s32(const unsigned char *p)
{
	int32_t v;

	memcpy(&v, p, 4);
	return v;
}

/**
 * th_patch_entry - decode one entry of a patch table
 * @table: which (th_patch_entry_size() is not -1 for it)
 * @e: the entry's bytes, from the vmlinux file
 * @base: the file address of the entry
 * @out: the patched site
 */
void th_patch_entry(enum th_patch_table table, const unsigned char *e,
		    ulong base, struct th_patch_entry *out)
{
	memset(out, 0, sizeof(*out));
	switch (table) {
	case TH_PATCH_ALT:
		out->site = base + pt_off.alt_instr +
			pt_s32(e + pt_off.alt_instr);
		out->len = e[pt_off.alt_instrlen];
		out->aux = base + pt_off.alt_repl + pt_s32(e + pt_off.alt_repl);
		out->rlen = e[pt_off.alt_repllen];
		break;
	case TH_PATCH_PARAVIRT:
		memcpy(&out->site, e + pt_off.pv_instr, 8);
		out->len = e[pt_off.pv_len];
		break;
	case TH_PATCH_JUMP:
		if (pt_off.jump_code_size == 4) {
			out->site = base + pt_off.jump_code +
				pt_s32(e + pt_off.jump_code);
			out->aux = base + pt_off.jump_target +
				pt_s32(e + pt_off.jump_target);
		} else {
			memcpy(&out->site, e + pt_off.jump_code, 8);
			memcpy(&out->aux, e + pt_off.jump_target, 8);
		}
		out->len = -1;	/* 2 or 5 bytes: the file's instruction */
		break;
	case TH_PATCH_STATIC_CALL:
		out->site = base + pt_off.sc_addr + pt_s32(e + pt_off.sc_addr);
		out->len = 5;
		out->aux = (base + pt_off.sc_key + pt_s32(e + pt_off.sc_key)) &
			~3UL;
		break;
	default:
		break;
	}
}

/**
 * th_static_call_func - the function a static call key points to
 * @key: struct static_call_key (dump address)
 * @func: static_call_key.func
 *
 * Returns FALSE when unreadable or the member is absent.
 */
int th_static_call_func(ulong key, ulong *func)
{
	pt_off_fill();
	*func = 0;
	if (!key || pt_off.key_func < 0)
		return FALSE;
	if (!th_read_ulong(key + pt_off.key_func, func,
			   "static_call_key.func"))
		return FALSE;
	/* NULL: the call is a NOP (static_call_update(name, NULL)) */
	if (*func)
		th_check_code("static_call_key", key, *func, "func");
	return TRUE;
}

/**
 * th_static_call_null_went - a key whose func is NULL beside code that goes
 * somewhere: damage to the key (or to the text, which the audit reports)
 * @key: struct static_call_key (dump address)
 * @at: the trampoline or call site
 * @target: where its call or jmp goes
 * @tramp: TRUE for the key's trampoline
 *
 * For a NULL func, __static_call_update() has arch_static_call_transform()
 * write a RET into the trampoline and a NOP at each call site
 * (arch/x86/kernel/static_call.c: __sc_insn(null, tail) gives NOP for a
 * call site and RET for a trampoline); a call or jmp beside a NULL func is
 * a state the kernel never writes.
 */
void th_static_call_null_went(ulong key, ulong at, ulong target, int tramp)
{
	th_damaged("static_call_key", key, "func is NULL, but its %s at %lx "
		   "goes to %lx (for a NULL func the kernel writes a %s there)",
		   tramp ? "trampoline" : "call site", at, target,
		   tramp ? "RET" : "NOP");
}
