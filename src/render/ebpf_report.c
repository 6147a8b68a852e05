/*
 * tracehunt: "ebpf", "ebpf -l", "ebpf -m" (and -j): the programs of
 * prog_idr with where their links attach them, the links, the maps.
 * Attach points in kernel text print as %pS; a program's own name is the
 * one kallsyms gives it (bpf_prog_TAG_NAME), a trampoline's too
 * (bpf_trampoline_KEY).  A program on a perf event without a link
 * (PERF_EVENT_IOC_SET_BPF) is listed with the links, as "no link"; one a
 * network device runs without a link (XDP, tcx) names the device.
 */
#include "render/ebpf_report.h"
#include "render/json.h"
#include "model/netdev.h"

static const char *const ebpf_cmd[] = { "ebpf", "ebpf -l", "ebpf -m" };

/* The open files of every process that are BPF objects or perf events
 * (model/bpf_holders.c) and the pins of the bpf file systems
 * (model/bpffs.c), read once per command; -1: not readable. */
static struct th_bpf_held *ebpf_held;
static long ebpf_nheld = -1;
static struct th_bpf_pin *ebpf_pins;
static long ebpf_npins = -1;
/* the programs network devices run (model/netdev.c), read with them */
static struct th_netdev_prog *ebpf_dev;
static long ebpf_ndev;

/**
 * th_bpf_held_read - read who holds the dump's BPF objects: the
 * processes' files and the bpf file systems' pins (once per command)
 */
void th_bpf_held_read(void)
{
	free(ebpf_held);
	free(ebpf_pins);
	ebpf_held = NULL;
	ebpf_pins = NULL;
	ebpf_nheld = th_bpf_holders(&ebpf_held);
	ebpf_npins = th_bpf_pins(&ebpf_pins);
	free(ebpf_dev);
	ebpf_dev = NULL;
	ebpf_ndev = th_netdev_progs(&ebpf_dev);
	if (ebpf_ndev < 0)
		ebpf_ndev = 0;
}

/* Whether a network device runs the program at PROG without a link; the
 * first such attachment at *WHERE. */
static int ebpf_device_holds(ulong prog, const char **where)
{
	long i;

	for (i = 0; i < ebpf_ndev; i++)
		if (ebpf_dev[i].prog == prog && !ebpf_dev[i].link) {
			if (where)
				*where = ebpf_dev[i].where;
			return TRUE;
		}
	return FALSE;
}

static int ebpf_is_held(const struct th_bpf_held *h, int kind, ulong obj,
			ulong file)
{
	return h->kind == kind && (file ? h->file == file : h->obj == obj);
}

static int ebpf_is_pin(const struct th_bpf_pin *p, int kind, ulong obj,
		       ulong file)
{
	return !file && obj && p->kind == kind && p->obj == obj;
}

/**
 * th_bpf_held_n - how many processes' files and pins hold an object
 * @kind: TH_BH_PROG, _LINK, _MAP (the object @obj) or _PERF (@file)
 * @obj: the struct bpf_prog, bpf_link or bpf_map
 * @file: a perf event's struct file, else 0
 * @npins: the pins holding it (-1: the pins are unknown)
 *
 * Return: the files of processes holding it, -1 when unknown.
 */
long th_bpf_held_n(int kind, ulong obj, ulong file, long *npins)
{
	long i, n = 0;

	*npins = ebpf_npins < 0 ? -1 : 0;
	for (i = 0; i < ebpf_npins; i++)
		*npins += ebpf_is_pin(&ebpf_pins[i], kind, obj, file);
	if (ebpf_nheld < 0)
		return -1;
	for (i = 0; i < ebpf_nheld; i++)
		n += ebpf_is_held(&ebpf_held[i], kind, obj, file);
	return n;
}

/**
 * th_bpf_held_str - who holds an object, as one line of text
 * @kind: as th_bpf_held_n()
 * @obj: as th_bpf_held_n()
 * @file: as th_bpf_held_n()
 * @buf: "[pid P COMM fd N, ..., pin PATH, ...]", "[no process or pin]"
 *       when none (a perf event: "[no process]"), "" when unknown
 * @len: room in @buf
 *
 * Return: @buf.
 */
char *th_bpf_held_str(int kind, ulong obj, ulong file, char *buf,
		      size_t len)
{
	size_t o = 0;
	long i;
	int n = 0;

	buf[0] = '\0';
	if (ebpf_nheld < 0)
		return buf;
	for (i = 0; i < ebpf_nheld && o + 64 < len; i++) {
		const struct th_bpf_held *h = &ebpf_held[i];

		if (ebpf_is_held(h, kind, obj, file))
			o += snprintf(buf + o, len - o, "%spid %lu %s fd %u",
				      n++ ? ", " : "[", h->pid, h->comm,
				      h->fd);
	}
	for (i = 0; i < ebpf_npins && o + 16 < len; i++)
		if (ebpf_is_pin(&ebpf_pins[i], kind, obj, file))
			o += snprintf(buf + o, len - o, "%spin %s",
				      n++ ? ", " : "[", ebpf_pins[i].path);
	if (n)
		snprintf(buf + o, len - o, "]");
	else
		snprintf(buf, len, "%s", kind == TH_BH_PERF || ebpf_npins < 0 ?
			 "[no process]" : "[no process or pin]");
	return buf;
}

static void ebpf_holders_json(const char *key, int kind, ulong obj,
			      ulong file)
{
	long i;

	if (key)
		th_json_key(key);
	if (ebpf_nheld < 0) {
		th_json_null();
		return;
	}
	th_json_arr();
	for (i = 0; i < ebpf_nheld; i++) {
		const struct th_bpf_held *h = &ebpf_held[i];

		if (!ebpf_is_held(h, kind, obj, file))
			continue;
		th_json_obj();
		th_json_kuint("pid", h->pid);
		th_json_kstr("comm", h->comm);
		th_json_kuint("fd", h->fd);
		th_json_obj_end();
	}
	th_json_arr_end();
}

/**
 * th_bpf_held_fjson - who holds an object, as a JSON object written to fp
 * @kind: as th_bpf_held_n()
 * @obj: as th_bpf_held_n()
 * @file: as th_bpf_held_n()
 *
 * {"processes": [{"pid": P, "comm": C, "fd": N}, ...] or null when
 * unknown, "pins": [PATH, ...] or null when unknown}, for the outputs
 * written without the JSON writer (hooks -j).
 */
void th_bpf_held_fjson(int kind, ulong obj, ulong file)
{
	const struct th_bpf_held *h;
	long i;
	int n = 0;

	fprintf(fp, "{\"processes\": %s", ebpf_nheld < 0 ? "null" : "[");
	for (i = 0; i < ebpf_nheld; i++) {
		h = &ebpf_held[i];
		if (!ebpf_is_held(h, kind, obj, file))
			continue;
		fprintf(fp, "%s{\"pid\": %lu, \"comm\": ", n++ ? ", " : "",
			h->pid);
		th_json_fputs(h->comm, strlen(h->comm), fp);
		fprintf(fp, ", \"fd\": %u}", h->fd);
	}
	fprintf(fp, "%s, \"pins\": %s", ebpf_nheld < 0 ? "" : "]",
		ebpf_npins < 0 ? "null" : "[");
	for (i = n = 0; i < ebpf_npins; i++)
		if (ebpf_is_pin(&ebpf_pins[i], kind, obj, file)) {
			fprintf(fp, "%s", n++ ? ", " : "");
			th_json_fputs(ebpf_pins[i].path,
				      strlen(ebpf_pins[i].path), fp);
		}
	fprintf(fp, "%s}", ebpf_npins < 0 ? "" : "]");
}

/* "pins": the pins holding the object, null when they are unknown */
static void ebpf_pins_json(int kind, ulong obj)
{
	const struct th_bpf_pin *p;
	long i;

	th_json_key("pins");
	if (ebpf_npins < 0) {
		th_json_null();
		return;
	}
	th_json_arr();
	for (i = 0; i < ebpf_npins; i++) {
		p = &ebpf_pins[i];
		if (!ebpf_is_pin(p, kind, obj, 0))
			continue;
		th_json_obj();
		th_json_kstr("path", p->path);
		th_json_kstr("fs_path", p->fs_path);
		th_json_key("mount");
		if (p->have_mount)
			th_json_str(p->mount);
		else
			th_json_null();
		th_json_kuint("ino", p->ino);
		th_json_kaddr("inode", p->inode);
		th_json_obj_end();
	}
	th_json_arr_end();
}

/**
 * th_bpf_prog_held_by - what keeps a program loaded
 * @p: the program
 * @l: the links (and programs on perf events without one)
 * @nl: how many
 * @no_process: set when no process holds the program, one of its links
 *              or their perf events (its loader exited: only pins or
 *              links keep it)
 *
 * Return: "process" (a process has it open), "pin" (else a pin of it),
 * "link" (else one of its links), "device" (else a network device that
 * runs it without a link: XDP, tcx), "other" (none of these: a perf event
 * without a link, an attachment that holds it), NULL when unknown.
 */
const char *th_bpf_prog_held_by(const struct th_bpf_prog *p,
				const struct th_bpf_link *l, long nl,
				int *no_process)
{
	long np, pins, lp, k, nlinks = 0;
	int proc;

	np = th_bpf_held_n(TH_BH_PROG, p->addr, 0, &pins);
	*no_process = FALSE;
	if (np < 0)
		return NULL;
	proc = np > 0;
	for (k = 0; k < nl; k++) {
		if (l[k].prog != p->addr)
			continue;
		nlinks += !l[k].no_link;
		if ((!l[k].no_link &&
		     th_bpf_held_n(TH_BH_LINK, l[k].addr, 0, &lp) > 0) ||
		    (l[k].perf_file &&
		     th_bpf_held_n(TH_BH_PERF, 0, l[k].perf_file, &lp) > 0))
			proc = TRUE;
	}
	*no_process = !proc;
	return np ? "process" : pins > 0 ? "pin" : nlinks ? "link" :
		ebpf_device_holds(p->addr, NULL) ? "device" : "other";
}

/* The same of a link: "process", "pin", "none"; NULL when unknown or
 * there is no link. */
static const char *ebpf_link_held_by(const struct th_bpf_link *l)
{
	long np, pins;

	if (l->no_link ||
	    (np = th_bpf_held_n(TH_BH_LINK, l->addr, 0, &pins)) < 0)
		return NULL;
	return np ? "process" : pins > 0 ? "pin" : "none";
}

/* kprobe_multi, uprobe_multi: "kprobe_multi 2 functions: f g",
 * "uprobe_multi /bin/x: 2 offsets: 0x10 0x20", "(return)" after the kind
 * for return probes, "..." when more than TH_BPF_MULTI */
static void ebpf_attach_multi(const struct th_bpf_link *l, char *buf,
			      size_t len)
{
	int up = l->kind == TH_BL_UPROBE_MULTI;
	unsigned int i;
	size_t o;
	char s[256];

	o = snprintf(buf, len, "%s%s %s%s%u %s%s:", l->type_str,
		     l->multi_ret ? " (return)" : "", up ? l->multi_path : "",
		     up ? ": " : "", l->multi_cnt,
		     up ? "offset" : "function", l->multi_cnt == 1 ? "" : "s");
	for (i = 0; i < l->multi_cnt && i < TH_BPF_MULTI && o < len; i++)
		if (up)
			o += snprintf(buf + o, len - o, " %#lx", l->multi[i]);
		else
			o += snprintf(buf + o, len - o, " %s",
				      th_ksym_ps(l->multi[i], s, sizeof(s)));
	if (l->multi_cnt > TH_BPF_MULTI && o < len)
		snprintf(buf + o, len - o, " ...");
}

/**
 * th_bpf_attach_str - where a link attaches its program, as one line
 * @l: the link
 * @buf: the text
 * @len: room in @buf
 *
 * Return: @buf.
 */
char *th_bpf_attach_str(const struct th_bpf_link *l, char *buf, size_t len)
{
	char s1[512], s2[512];

	switch (l->kind) {
	case TH_BL_RAW_TP:
		snprintf(buf, len, "tracepoint %s probe %s", l->tp_name,
			 th_ksym_pS(l->tp_probe, s1, sizeof(s1)));
		break;
	case TH_BL_TRACING:
		snprintf(buf, len, "%s %s via %s %lx", l->attach_type_str,
			 l->target ? th_ksym_pS(l->target, s1, sizeof(s1)) :
			 "(none)", l->tramp_name[0] ? l->tramp_name :
			 "trampoline", l->tramp_image);
		break;
	case TH_BL_PERF:
		if (l->perf_addr)
			snprintf(buf, len, "%s %s", l->perf_type,
				 th_ksym_pS(l->perf_addr, s2, sizeof(s2)));
		else if (l->perf_tu)
			snprintf(buf, len, "%s %s:%#lx", l->perf_type,
				 l->perf_func, l->perf_offset);
		else if (l->tp_name[0])
			snprintf(buf, len, "%s %s", l->perf_type, l->tp_name);
		else
			snprintf(buf, len, "%s", l->perf_type[0] ?
				 l->perf_type : "perf_event");
		break;
	case TH_BL_KPROBE_MULTI:
	case TH_BL_UPROBE_MULTI:
		ebpf_attach_multi(l, buf, len);
		break;
	default:
		snprintf(buf, len, "-");
	}
	if (l->err)
		snprintf(buf, len, "(%s)", l->err);
	return buf;
}

static void ebpf_progs_text(struct th_bpf_prog *p, long n,
			    struct th_bpf_link *l, long nl)
{
	char maps[128], at[640], hb[512];
	const char *hby;
	long i, k;
	int j, o, orphan;

	fprintf(fp, "%5s  %-16s %-16s %-16s  %-16s  %-16s %6s %6s  %s\n",
		"ID", "TYPE", "NAME", "TAG", "BPF_PROG", "IMAGE", "XLATED",
		"JITED", "MAPS");
	for (i = 0; i < n; i++) {
		if (p[i].err) {
			fprintf(fp, "%5u  %-16s (%s)\n", p[i].id, "?",
				p[i].err);
			continue;
		}
		maps[0] = '\0';
		for (j = o = 0; j < p[i].nmaps && j < TH_BPF_MAPS &&
		     o < (int)sizeof(maps) - 12; j++)
			o += snprintf(maps + o, sizeof(maps) - o, "%s%u",
				      j ? "," : "", p[i].map_ids[j]);
		fprintf(fp, "%5u  %-16s %-16s %-16s  %16lx  %16lx %6u %6u  %s\n",
			p[i].id, p[i].type_str, p[i].name, p[i].tag_hex,
			p[i].addr, p[i].image, p[i].len * 8, p[i].jited_len,
			maps[0] ? maps : "-");
		for (k = 0; k < nl; k++) {
			if (l[k].prog != p[i].addr)
				continue;
			th_bpf_attach_str(&l[k], at, sizeof(at));
			if (l[k].no_link)
				fprintf(fp, "%7s no link %s: %s\n", "",
					l[k].type_str, at);
			else
				fprintf(fp, "%7s link %u %s: %s\n", "",
					l[k].id, l[k].type_str, at);
		}
		for (k = 0; k < ebpf_ndev; k++)
			if (ebpf_dev[k].prog == p[i].addr && !ebpf_dev[k].link)
				fprintf(fp, "%7s no link, device: %s\n", "",
					ebpf_dev[k].where);
		if (ebpf_nheld >= 0) {
			hby = th_bpf_prog_held_by(&p[i], l, nl, &orphan);
			fprintf(fp, "%7s held by %s%s%s\n", "",
				th_bpf_held_str(TH_BH_PROG, p[i].addr, 0, hb,
						sizeof(hb)),
				hby && !strcmp(hby, "link") ?
				", only by its link" : hby && !strcmp(hby,
				"device") ? ", only by the device that runs it" :
				"", orphan ?
				"; no process holds it or its links" : "");
		}
	}
}

static void ebpf_links_text(struct th_bpf_link *l, long n)
{
	char at[640], hb[512], pb[512];
	long i;

	fprintf(fp, "%5s  %-16s %5s  %-16s  %s\n", "ID", "TYPE", "PROG",
		"BPF_LINK", "ATTACHED TO");
	for (i = 0; i < n; i++) {
		th_bpf_attach_str(&l[i], at, sizeof(at));
		if (l[i].no_link)
			fprintf(fp, "%5s  %-16s %5u  %-16s  %s\n", "-",
				l[i].type_str, l[i].prog_id, "-", at);
		else
			fprintf(fp, "%5u  %-16s %5u  %16lx  %s\n", l[i].id,
				l[i].type_str, l[i].prog_id, l[i].addr, at);
		if (ebpf_nheld < 0)
			continue;
		th_bpf_held_str(TH_BH_LINK, l[i].addr, 0, hb, sizeof(hb));
		if (l[i].no_link)
			fprintf(fp, "%7s no link; its perf event held by %s\n",
				"", th_bpf_held_str(TH_BH_PERF, 0,
						     l[i].perf_file, pb,
						     sizeof(pb)));
		else if (l[i].perf_file)
			fprintf(fp, "%7s held by %s, its perf event by %s\n",
				"", hb, th_bpf_held_str(TH_BH_PERF, 0,
							 l[i].perf_file, pb,
							 sizeof(pb)));
		else
			fprintf(fp, "%7s held by %s\n", "", hb);
	}
}

static void ebpf_maps_text(struct th_bpf_map *m, long n)
{
	char hb[512];
	long i;

	fprintf(fp, "%5s  %-16s %-16s %5s %6s %11s %8s  %s\n", "ID", "TYPE",
		"NAME", "KEY", "VALUE", "MAX_ENTRIES", "FLAGS", "BPF_MAP");
	for (i = 0; i < n; i++) {
		if (m[i].err) {
			fprintf(fp, "%5s  (%s at %lx)\n", "?", m[i].err,
				m[i].addr);
			continue;
		}
		fprintf(fp, "%5u  %-16s %-16s %5u %6u %11u %8x  %lx\n",
			m[i].id, m[i].type_str, m[i].name, m[i].key_size,
			m[i].value_size, m[i].max_entries, m[i].flags,
			m[i].addr);
		if (ebpf_nheld >= 0)
			fprintf(fp, "%7s held by %s\n", "",
				th_bpf_held_str(TH_BH_MAP, m[i].addr, 0, hb,
						sizeof(hb)));
	}
}

/* ------------------------------------------------------------ JSON --- */

static void ebpf_kstr_or_null(const char *key, const char *s)
{
	th_json_key(key);
	if (s && s[0])
		th_json_str(s);
	else
		th_json_null();
}

/* "multi": the places of a kprobe_multi or uprobe_multi link */
static void ebpf_multi_json(const struct th_bpf_link *l)
{
	int up = l->kind == TH_BL_UPROBE_MULTI;
	unsigned int i;

	th_json_key("multi");
	if (!up && l->kind != TH_BL_KPROBE_MULTI) {
		th_json_null();
		return;
	}
	th_json_obj();
	th_json_kuint("count", l->multi_cnt);
	th_json_kbool("return", l->multi_ret);
	ebpf_kstr_or_null("path", up ? l->multi_path : NULL);
	th_json_key(up ? "offsets" : "addrs");
	th_json_arr();
	for (i = 0; i < l->multi_cnt && i < TH_BPF_MULTI; i++)
		if (up)
			th_json_uint(l->multi[i]);
		else
			th_json_code(l->multi[i]);
	th_json_arr_end();
	th_json_key(up ? "addrs" : "offsets");
	th_json_null();
	th_json_obj_end();
}

static void ebpf_link_json(const struct th_bpf_link *l)
{
	char at[640];

	th_json_obj();
	th_json_kuint("id", l->id);
	th_json_kstr("type", l->type_str);
	th_json_kuint("prog_id", l->prog_id);
	th_json_key("struct");
	if (l->no_link)
		th_json_null();
	else
		th_json_addr(l->addr);
	th_json_kaddr_or_null("perf_event", l->perf_event);
	th_json_kstr("attached_to", th_bpf_attach_str(l, at, sizeof(at)));
	ebpf_kstr_or_null("tp_name", l->kind == TH_BL_RAW_TP ||
			  !strcmp(l->perf_type, "tracepoint") ?
			  l->tp_name : NULL);
	th_json_key("tp_probe");
	th_json_code(l->kind == TH_BL_RAW_TP ? l->tp_probe : 0);
	ebpf_kstr_or_null("attach_type", l->kind == TH_BL_TRACING ?
			  l->attach_type_str : NULL);
	th_json_key("target");
	th_json_code(l->kind == TH_BL_TRACING ? l->target :
		     l->kind == TH_BL_PERF ? l->perf_addr : 0);
	ebpf_kstr_or_null("trampoline", l->tramp_name);
	th_json_kaddr_or_null("trampoline_image", l->tramp_image);
	ebpf_kstr_or_null("perf_type", l->perf_type);
	if (l->no_link) {
		th_json_key("holders");
		th_json_null();
		th_json_key("pins");
		th_json_null();
	} else {
		ebpf_holders_json("holders", TH_BH_LINK, l->addr, 0);
		ebpf_pins_json(TH_BH_LINK, l->addr);
	}
	ebpf_kstr_or_null("held_by", ebpf_link_held_by(l));
	th_json_key("perf_holders");
	if (l->perf_file)
		ebpf_holders_json(NULL, TH_BH_PERF, 0, l->perf_file);
	else
		th_json_null();
	ebpf_kstr_or_null("perf_func", l->perf_func);
	th_json_key("perf_offset");
	if (l->perf_func[0])
		th_json_uint(l->perf_offset);
	else
		th_json_null();
	ebpf_multi_json(l);
	ebpf_kstr_or_null("error", l->err);
	th_json_obj_end();
}

static void ebpf_prog_json(const struct th_bpf_prog *p,
			   struct th_bpf_link *l, long nl)
{
	const char *held_by;
	long k;
	int j, orphan;

	th_json_obj();
	th_json_kuint("id", p->id);
	th_json_kstr("type", p->type_str);
	th_json_kstr("name", p->name);
	th_json_kstr("tag", p->tag_hex);
	th_json_kaddr("struct", p->addr);
	th_json_key("image");
	th_json_addr(p->image);
	ebpf_kstr_or_null("ksym", p->ksym);
	th_json_kuint("bytes_xlated", (unsigned long long)p->len * 8);
	th_json_kbool("jited", p->jited_len > 0);
	th_json_kuint("bytes_jited", p->jited_len);
	th_json_kuint("bytes_memlock", (unsigned long long)p->pages *
		      PAGESIZE());
	th_json_key("uid");
	if (p->uid >= 0)
		th_json_int(p->uid);
	else
		th_json_null();
	th_json_key("load_time_ns");
	if (p->have_load_time)
		th_json_uint(p->load_time);
	else
		th_json_null();
	th_json_key("map_ids");
	th_json_arr();
	for (j = 0; j < p->nmaps && j < TH_BPF_MAPS; j++)
		th_json_uint(p->map_ids[j]);
	th_json_arr_end();
	th_json_key("btf_id");
	if (p->btf_id)
		th_json_uint(p->btf_id);
	else
		th_json_null();
	ebpf_kstr_or_null("attach_type", p->attach_type_str);
	ebpf_kstr_or_null("attach_func_name", p->attach_func_name);
	th_json_key("links");
	th_json_arr();
	for (k = 0; k < nl; k++)
		if (l[k].prog == p->addr && !l[k].no_link)
			th_json_uint(l[k].id);
	th_json_arr_end();
	th_json_key("devices");
	th_json_arr();
	for (k = 0; k < ebpf_ndev; k++)
		if (ebpf_dev[k].prog == p->addr && !ebpf_dev[k].link)
			th_json_str(ebpf_dev[k].where);
	th_json_arr_end();
	ebpf_holders_json("holders", TH_BH_PROG, p->addr, 0);
	ebpf_pins_json(TH_BH_PROG, p->addr);
	held_by = th_bpf_prog_held_by(p, l, nl, &orphan);
	ebpf_kstr_or_null("held_by", held_by);
	th_json_key("no_process");
	if (held_by)
		th_json_bool(orphan);
	else
		th_json_null();
	th_json_key("helpers");
	if (p->nhelpers < 0) {
		th_json_null();
	} else {
		th_json_arr();
		for (j = 0; j < p->nhelpers; j++)
			th_json_str(p->helpers[j]);
		th_json_arr_end();
	}
	ebpf_kstr_or_null("error", p->err);
	th_json_obj_end();
}

static void ebpf_map_json(const struct th_bpf_map *m)
{
	th_json_obj();
	th_json_kuint("id", m->id);
	th_json_kstr("type", m->type_str);
	th_json_kstr("name", m->name);
	th_json_kaddr("struct", m->addr);
	th_json_kuint("flags", m->flags);
	th_json_kuint("bytes_key", m->key_size);
	th_json_kuint("bytes_value", m->value_size);
	th_json_kuint("max_entries", m->max_entries);
	th_json_key("frozen");
	if (m->frozen >= 0)
		th_json_bool(m->frozen);
	else
		th_json_null();
	th_json_key("btf_id");
	if (m->btf_id)
		th_json_uint(m->btf_id);
	else
		th_json_null();
	ebpf_holders_json("holders", TH_BH_MAP, m->addr, 0);
	ebpf_pins_json(TH_BH_MAP, m->addr);
	ebpf_kstr_or_null("error", m->err);
	th_json_obj_end();
}

/* ------------------------------------------------------- the report --- */

static int ebpf_missing(enum th_ebpf_what what, int json)
{
	const char *why = NULL;
	char msg[256];
	int ok;

	if (what == TH_EBPF_MAPS)
		ok = th_bpf_maps_ok(&why);
	else if (what == TH_EBPF_LINKS)
		ok = th_bpf_links_ok(&why);
	else
		ok = th_bpf_progs_ok(&why);
	if (ok)
		return FALSE;
	snprintf(msg, sizeof(msg), "ebpf: not available in this dump: no %s",
		 why);
	if (json) {
		th_json_kstr("error", msg);
		th_json_end();
	} else {
		fprintf(fp, "%s\n", msg);
	}
	return TRUE;
}

void th_ebpf_report(enum th_ebpf_what what, int json)
{
	struct th_bpf_prog *p = NULL;
	struct th_bpf_link *l = NULL;
	struct th_bpf_map *m = NULL;
	const char *why;
	long np = 0, nl = 0, nm = 0, i;

	if (json)
		th_json_begin(ebpf_cmd[what]);
	if (ebpf_missing(what, json))
		return;
	th_bpf_held_read();
	if (what == TH_EBPF_MAPS)
		nm = th_bpf_maps(&m);
	else if (th_bpf_links_ok(&why))	/* else none to read */
		nl = th_bpf_links(&l);
	if (what == TH_EBPF_PROGS)
		np = th_bpf_progs(&p);
	np = np < 0 ? 0 : np;
	nl = nl < 0 ? 0 : nl;
	nm = nm < 0 ? 0 : nm;
	if (!json) {
		if (what == TH_EBPF_PROGS)
			ebpf_progs_text(p, np, l, nl);
		else if (what == TH_EBPF_LINKS)
			ebpf_links_text(l, nl);
		else
			ebpf_maps_text(m, nm);
	} else {
		th_json_key(what == TH_EBPF_PROGS ? "programs" :
			    what == TH_EBPF_LINKS ? "links" : "maps");
		th_json_arr();
		for (i = 0; i < (what == TH_EBPF_PROGS ? np :
				 what == TH_EBPF_LINKS ? nl : nm); i++) {
			th_json_nl();
			if (what == TH_EBPF_PROGS)
				ebpf_prog_json(&p[i], l, nl);
			else if (what == TH_EBPF_LINKS)
				ebpf_link_json(&l[i]);
			else
				ebpf_map_json(&m[i]);
		}
		th_json_arr_end();
		th_json_end();
	}
	free(p);
	free(l);
	free(m);
}
