/*
 * tracehunt: "kprobes -v" — everything about each kprobe, kretprobe and
 * jprobe: where it sits, what it registered, the bytes at its site, the
 * trace event built on it, and the owner of every handler.
 */
#include "render/kprobes_report.h"
#include "model/trace_kprobe.h"
#include "model/text_bytes.h"
#include "kplist.h"

#define KPROBE_FLAG_GONE	KPL_FLAG_GONE
#define KPROBE_FLAG_DISABLED	KPL_FLAG_DISABLED
#define KPROBE_FLAG_OPTIMIZED	KPL_FLAG_OPTIMIZED
#define KPROBE_FLAG_FTRACE	KPL_FLAG_FTRACE

static void kp_handler_line(const char *label, ulong addr)
{
	char sym[512], own[256];
	struct th_owner o;

	if (!addr)
		return;
	th_owner_of(addr, &o);
	fprintf(fp, "  %-15s %016lx  %s  %s\n", label, addr,
		th_ksym_pS_any(addr, sym, sizeof(sym)),
		th_owner_str(&o, own, sizeof(own)));
}

static void kp_flags_str(unsigned int f, char *buf, size_t len)
{
	buf[0] = '\0';
	if (f & KPROBE_FLAG_GONE)
		strncat(buf, "GONE ", len - strlen(buf) - 1);
	if (f & KPROBE_FLAG_DISABLED)
		strncat(buf, "DISABLED ", len - strlen(buf) - 1);
	if (f & KPROBE_FLAG_OPTIMIZED)
		strncat(buf, "OPTIMIZED ", len - strlen(buf) - 1);
	if (f & KPROBE_FLAG_FTRACE)
		strncat(buf, "FTRACE ", len - strlen(buf) - 1);
	if (!buf[0])
		strncat(buf, "- ", len - 1);
	buf[strlen(buf) - 1] = '\0';
}

static void kp_site_bytes(ulong addr)
{
	unsigned char b[8];
	int i;

	if (!th_text_read(addr, b, sizeof(b), "probed instruction")) {
		fprintf(fp, "  %-15s (unreadable)\n", "site bytes");
		return;
	}
	fprintf(fp, "  %-15s", "site bytes");
	for (i = 0; i < 8; i++)
		fprintf(fp, " %02x", b[i]);
	if (b[0] == 0xcc)
		fprintf(fp, "  (int3)");
	else if (b[0] == 0xe9) {
		int rel;
		char sym[256];
		memcpy(&rel, b + 1, 4);
		fprintf(fp, "  (jmp %s)", th_ksym_pS(addr + 5 + rel, sym,
						     sizeof(sym)));
	} else if (b[0] == 0xe8) {
		int rel;
		char sym[256];
		memcpy(&rel, b + 1, 4);
		fprintf(fp, "  (call %s)", th_ksym_pS(addr + 5 + rel, sym,
						      sizeof(sym)));
	} else if (b[0] == 0x0f && b[1] == 0x1f && b[2] == 0x44)
		fprintf(fp, "  (nop5)");
	fprintf(fp, "\n");
}

/* Trace events built on kprobes (kprobe_events), found once per command. */
static ulong *kp_tks;
static long kp_ntks = -1;

static void kp_trace_event(struct kp_probe *k)
{
	char group[64], name[128];
	long i;

	if (kp_ntks < 0)
		kp_ntks = th_trace_kprobes(&kp_tks);
	for (i = 0; i < kp_ntks; i++) {
		if (th_tk_kprobe(kp_tks[i]) != k->kp)
			continue;
		th_tk_names(kp_tks[i], group, sizeof(group), name,
			    sizeof(name));
		fprintf(fp, "  %-15s %s/%s (hits %lu)\n", "trace event", group,
			name, th_tk_nhit(kp_tks[i]));
	}
}

/* The kretprobe's own fields and its instances. */
static void kp_kretprobe(struct kp_probe *k)
{
	struct th_kretprobe r;
	const char *where;
	long nfree, total;

	if (!th_kretprobe_of(k->kp, &r))
		return;
	fprintf(fp, "  %-15s %016lx\n", "kretprobe", r.addr);
	kp_handler_line("handler", r.handler);
	kp_handler_line("entry_handler", r.entry_handler);
	fprintf(fp, "  %-15s %d\n", "maxactive", r.maxactive);
	fprintf(fp, "  %-15s %d\n", "kretprobe miss", r.nmissed);
	fprintf(fp, "  %-15s %lu\n", "data_size", r.data_size);
	where = th_kretprobe_instances(r.addr, r.maxactive, &nfree, &total);
	if (!where)
		return;
	if (nfree < 0)
		fprintf(fp, "  %-15s (%s unreadable)\n", "instances", where);
	else
		fprintf(fp, "  %-15s %ld free of %ld, %ld in use (%s)\n",
			"instances", nfree, total,
			total >= nfree ? total - nfree : 0, where);
}

/* The first lines: what and where. */
static void kp_head(struct kp_probe *k, char type)
{
	char sym[512], own[256], name[128];
	struct th_owner o;
	const char *tname;
	unsigned int off;

	th_owner_of(k->kp, &o);
	if (type == 'r')
		tname = "kretprobe";
	else if (type == 'j')
		tname = "jprobe";
	else
		tname = "kprobe";
	fprintf(fp, "%s %016lx  %s%s\n", tname, k->kp,
		th_owner_str(&o, own, sizeof(own)),
		k->parent ? "  (aggregate child)" : "");
	fprintf(fp, "  %-15s kprobe_table[%d]\n", "bucket", k->bucket);
	if (k->parent)
		fprintf(fp, "  %-15s %016lx\n", "aggregate", k->parent);
	fprintf(fp, "  %-15s %016lx  %s\n", "address", k->addr,
		th_ksym_pS_any(k->addr, sym, sizeof(sym)));
	if (th_kprobe_symbol_name(k->kp, name, sizeof(name), &off))
		fprintf(fp, "  %-15s %s+0x%x\n", "registered as", name, off);
}

/**
 * th_kprobe_report - "kprobes -v" of one probe
 * @k: a probe from th_kprobes_collect()
 */
void th_kprobe_report(struct kp_probe *k)
{
	char fl[64];
	char type = th_kprobe_type(k);
	unsigned char op;
	ulong e = 0;

	kp_head(k, type);
	kp_flags_str(k->flags, fl, sizeof(fl));
	fprintf(fp, "  %-15s 0x%x %s\n", "flags", k->flags, fl);
	if (k->parent) {
		kp_flags_str(k->pflags, fl, sizeof(fl));
		fprintf(fp, "  %-15s 0x%x %s\n", "site flags", k->pflags, fl);
	}
	fprintf(fp, "  %-15s %lu\n", "nmissed", k->nmissed);
	if (th_kprobe_opcode(k->kp, &op))
		fprintf(fp, "  %-15s %02x\n", "saved opcode", op);
	kp_site_bytes(k->addr);
	kp_trace_event(k);
	kp_handler_line("pre_handler", k->pre);
	kp_handler_line("post_handler", k->post);
	kp_handler_line("fault_handler", k->fault);
	if (type == 'r')
		kp_kretprobe(k);
	if (type == 'j' && th_jprobe_entry(k->kp, &e))
		kp_handler_line("jprobe entry", e);
	fprintf(fp, "\n");
}

/**
 * th_kprobe_report_end - forget the kprobe events the reports found
 */
void th_kprobe_report_end(void)
{
	free(kp_tks);
	kp_tks = NULL;
	kp_ntks = -1;
}
