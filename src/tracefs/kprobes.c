/*
 * tracehunt: /sys/kernel/debug/kprobes/list, one line per probe as
 * report_probe() in kernel/kprobes.c printed it (the formatting is
 * lib/kplist.c's).
 */
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
		th_ksym_pS(k->addr, ps, sizeof(ps));
	if (kpl_format(&p, th_kprobe_type(k), found ? s.name : NULL, s.offset,
		       s.module, ps, line, sizeof(line)) < 0)
		return;
	fputs(line, fp);
}
