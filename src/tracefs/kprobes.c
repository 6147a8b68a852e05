/*
 * tracehunt: debugfs' kprobes directory: /sys/kernel/debug/kprobes/list,
 * one line per probe as report_probe() in kernel/kprobes.c printed it
 * (the formatting is lib/kplist.c's), kprobes/enabled and
 * kprobes/blacklist.
 */
#include "tracefs/tracefs.h"
#include "tracefs/kprobes.h"
#include "kplist.h"

/**
 * th_kprobes_list_line - one line of kprobes/list
 * @k: a probe from th_kprobes_collect()
 */
void th_kprobes_list_line(struct kp_probe *k)
{
	char ps[512], line[1024];
	struct kpl_probe p;
	struct th_sym s;
	int found;

	p.addr = k->addr;
	p.pre_handler = k->pre;
	p.flags = k->flags;
	p.site_flags = k->pflags;
	found = th_ksym_lookup(k->addr, &s);
	if (!found)
		th_kplist_nosym(k->addr, ps, sizeof(ps));
	if (kpl_format(&p, th_kprobe_type(k), found ? s.name : NULL, s.offset,
		       s.module, ps, line, sizeof(line)) < 0)
		return;
	fputs(line, fp);
}

/**
 * th_missing_kprobes_enabled - kprobes/enabled without kprobes_all_disarmed
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_kprobes_enabled(struct th_tr *tr,
				       const struct th_tref *ref, char *buf,
				       size_t len)
{
	if (th_kprobes_all_disarmed() >= 0)
		return NULL;
	snprintf(buf, len, "ftrace cat: %s: the dump has no readable "
		 "kprobes_all_disarmed (a kernel without kprobes?)", ref->file);
	return buf;
}

/**
 * th_cat_kprobes_enabled - read_enabled_file_bool()
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_kprobes_enabled(struct th_tr *tr, const struct th_tref *ref)
{
	fprintf(fp, "%d\n", th_kprobes_all_disarmed() == 0);
}

/**
 * th_missing_kprobes_blacklist - kprobes/blacklist without kprobe_blacklist
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_kprobes_blacklist(struct th_tr *tr,
					 const struct th_tref *ref, char *buf,
					 size_t len)
{
	if (th_symbol("kprobe_blacklist"))
		return NULL;
	snprintf(buf, len, "ftrace cat: %s: the dump has no kprobe_blacklist "
		 "(a kernel without kprobes?)", ref->file);
	return buf;
}

static void th_blacklist_line(ulong start, ulong end, void *arg)
{
	char ps[512];

	/* "0x%px-0x%px\t%ps\n" (a reader allowed to see addresses) */
	fprintf(fp, "0x%016lx-0x%016lx\t%s\n", start, end,
		th_ksym_ps(start, ps, sizeof(ps)));
}

/**
 * th_cat_kprobes_blacklist - kprobe_blacklist_seq_show() over
 * kprobe_blacklist, as root reads it (the addresses shown)
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_kprobes_blacklist(struct th_tr *tr, const struct th_tref *ref)
{
	if (th_kprobe_blacklist(th_blacklist_line, NULL) < 0)
		fprintf(fp, "ftrace cat: %s: the dump's debuginfo lacks struct "
			"kprobe_blacklist_entry\n", ref->file);
}
