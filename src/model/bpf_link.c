/*
 * tracehunt: the model's one reader of struct bpf_link and of the link
 * kinds that say where a program is attached: bpf_raw_tp_link (the
 * tracepoint), bpf_tracing_link with its bpf_trampoline and
 * bpf_tramp_image (fentry/fexit/fmod_ret/LSM), bpf_perf_link with the
 * perf_event it holds (a kprobe, kretprobe, uprobe or tracepoint event:
 * what bpftool's "perf show" prints from bpf_get_perf_event_info()),
 * bpf_kprobe_multi_link (its fprobe's addresses) and
 * bpf_uprobe_multi_link with its bpf_uprobes (a file and offsets in it).
 * Programs put on a perf event without a link (ioctl
 * PERF_EVENT_IOC_SET_BPF: the only way before v5.15, still allowed since)
 * are found through the perf event files processes hold
 * (bpf_holders.c) and returned as links without an id.
 */
#include "model/bpf.h"
#include "model/xarray.h"
#include "model/tracepoints.h"
#include "model/events.h"
#include "model/trace_probe.h"
#include "model/trace_kprobe.h"
#include "model/kprobes.h"
#include "model/trace_uprobe.h"
#include "model/path.h"
#include "model/uprobes.h"
#include "model/trace_fprobe.h"
#include "model/perf_event.h"

static struct {
	int filled;
	ulong idr;
	long id, type, prog, link, l_type;
	long rt_btp, btp_tp, btp_func;
	long tl_type, tl_tramp, tl_tgt;
	long tr_key, tr_image, tr_cur, ti_image, tr_func_addr, ti_ksym, tr_ksym;
	long pl_file;
	long km_link, km_fp, km_addrs, km_cnt, km_flags;
	long um_link, um_path, um_cnt, um_flags, um_uprobes;
	long bu_size, bu_link, bu_offset, bu_consumer;
} bl_off;

#define TH_PERF_TYPE_TRACEPOINT	2	/* include/uapi/linux/perf_event.h */

static void bl_off_fill(void)
{
	long func, model;

	if (bl_off.filled)
		return;
	bl_off.filled = 1;
	bl_off.idr = th_ksymbol("link_idr");
	bl_off.id = th_member("bpf_link", "id");
	bl_off.type = th_member("bpf_link", "type");
	bl_off.prog = th_member("bpf_link", "prog");
	/* every kind embeds its struct bpf_link as member "link" (a
	 * bpf_tracing_link through its bpf_tramp_link, whose own "link"
	 * is first: both offsets 0 in every kernel so far) */
	bl_off.link = th_member("bpf_raw_tp_link", "link");
	bl_off.rt_btp = th_member("bpf_raw_tp_link", "btp");
	bl_off.btp_tp = th_member("bpf_raw_event_map", "tp");
	bl_off.btp_func = th_member("bpf_raw_event_map", "bpf_func");
	/* the attach type moved to every link: bpf_link.attach_type (7.x)
	 * replaced bpf_tracing_link.attach_type */
	bl_off.tl_type = th_member("bpf_tracing_link", "attach_type");
	if (bl_off.tl_type < 0 &&
	    (bl_off.l_type = th_member("bpf_link", "attach_type")) >= 0)
		bl_off.tl_type = bl_off.l_type + (bl_off.link > 0 ?
						  bl_off.link : 0);
	bl_off.tl_tramp = th_member("bpf_tracing_link", "trampoline");
	bl_off.tl_tgt = th_member("bpf_tracing_link", "tgt_prog");
	bl_off.tr_key = th_member("bpf_trampoline", "key");
	/* bpf_trampoline.cur_image (a struct bpf_tramp_image) since Linux
	 * kernel commit e21aa341785c ("bpf: Fix fexit trampoline.") (in
	 * v5.12); the image itself ("image") before */
	bl_off.tr_cur = th_member("bpf_trampoline", "cur_image");
	bl_off.ti_image = th_member("bpf_tramp_image", "image");
	bl_off.tr_image = th_member("bpf_trampoline", "image");
	bl_off.ti_ksym = th_member("bpf_tramp_image", "ksym");
	bl_off.tr_ksym = th_member("bpf_trampoline", "ksym");
	/* func.addr: the anonymous struct "func" holds a struct
	 * btf_func_model, then "void *addr" (aligned as a pointer) */
	func = th_member("bpf_trampoline", "func");
	model = th_size("btf_func_model");
	bl_off.tr_func_addr = func >= 0 && model > 0 ?
		func + ((model + 7) & ~7L) : -1;
	bl_off.pl_file = th_member("bpf_perf_link", "perf_file");
	/* the perf event itself: model/perf_event.c, its one reader */
	bl_off.km_link = th_member("bpf_kprobe_multi_link", "link");
	bl_off.km_fp = th_member("bpf_kprobe_multi_link", "fp");
	bl_off.km_addrs = th_member("bpf_kprobe_multi_link", "addrs");
	bl_off.km_cnt = th_member("bpf_kprobe_multi_link", "cnt");
	bl_off.km_flags = th_member("bpf_kprobe_multi_link", "flags");
	/* the fprobe itself: model/trace_fprobe.c, its one reader */
	/* bpf_uprobe_multi_link: its struct path first, the bpf_link after */
	bl_off.um_link = th_member("bpf_uprobe_multi_link", "link");
	bl_off.um_path = th_member("bpf_uprobe_multi_link", "path");
	bl_off.um_cnt = th_member("bpf_uprobe_multi_link", "cnt");
	bl_off.um_flags = th_member("bpf_uprobe_multi_link", "flags");
	bl_off.um_uprobes = th_member("bpf_uprobe_multi_link", "uprobes");
	bl_off.bu_size = th_size("bpf_uprobe");
	bl_off.bu_link = th_member("bpf_uprobe", "link");
	bl_off.bu_offset = th_member("bpf_uprobe", "offset");
	bl_off.bu_consumer = th_member("bpf_uprobe", "consumer");
}

/* Programs on perf events without a link can be read: the processes'
 * files and perf_event.prog. */
static int bl_unlinked_ok(void)
{
	return th_perf_event_has_prog() && th_bpf_holders_ok();
}

/* link_idr can be walked. */
static int bl_idr_ok(const char **why)
{
	if (!bl_off.idr) {
		*why = "link_idr (a kernel before v5.8 or without "
		       "CONFIG_BPF_SYSCALL)";
		return FALSE;
	}
	if (bl_off.id < 0 || bl_off.type < 0 || bl_off.prog < 0) {
		*why = "struct bpf_link in the debuginfo";
		return FALSE;
	}
	return th_xa_ok(why);
}

int th_bpf_links_ok(const char **why)
{
	bl_off_fill();
	/* a kernel before link_idr (v5.8) attaches programs to perf
	 * events all the same */
	return bl_idr_ok(why) || bl_unlinked_ok();
}

static void bl_raw_tp(struct th_bpf_link *l, ulong base)
{
	ulong btp, np;

	if (bl_off.rt_btp < 0 || bl_off.btp_tp < 0 ||
	    !th_read_ulong(base + bl_off.rt_btp, &btp, "bpf_raw_tp_link.btp") ||
	    !th_read_ulong(btp + bl_off.btp_tp, &l->tp, "bpf_raw_event_map.tp")) {
		l->err = "unreadable bpf_raw_tp_link";
		return;
	}
	if (bl_off.btp_func >= 0)
		th_read_ulong(btp + bl_off.btp_func, &l->tp_probe,
			      "bpf_raw_event_map.bpf_func");
	if (th_tracepoint_name_ptr(l->tp, &np))
		th_read_cstr(np, l->tp_name, sizeof(l->tp_name),
			     "tracepoint.name");
}

static void bl_tracing(struct th_bpf_link *l, ulong base)
{
	ulong tr, img = 0, tgt = 0, ksym;

	if (bl_off.tl_tramp < 0 || bl_off.tl_type < 0 ||
	    !th_read_int(base + bl_off.tl_type, &l->attach_type,
			 "bpf_tracing_link.attach_type") ||
	    !th_read_ulong(base + bl_off.tl_tramp, &tr,
			   "bpf_tracing_link.trampoline")) {
		l->err = "unreadable bpf_tracing_link";
		return;
	}
	th_bpf_enum_str("BPF_TRACE_FENTRY", "BPF_", l->attach_type,
			l->attach_type_str, sizeof(l->attach_type_str));
	if (bl_off.tl_tgt >= 0 && th_read_ulong(base + bl_off.tl_tgt, &tgt,
						"bpf_tracing_link.tgt_prog"))
		l->tgt_prog_id = th_bpf_prog_id(tgt);
	l->trampoline = tr;
	if (!tr)
		return;
	if (bl_off.tr_key >= 0)
		th_read_u64(tr + bl_off.tr_key, &l->tramp_key,
			    "bpf_trampoline.key");
	if (bl_off.tr_cur >= 0 && bl_off.ti_image >= 0) {
		if (th_read_ulong(tr + bl_off.tr_cur, &img,
				  "bpf_trampoline.cur_image") && img) {
			th_read_ulong(img + bl_off.ti_image, &l->tramp_image,
				      "bpf_tramp_image.image");
			if (bl_off.ti_ksym >= 0)
				th_bpf_ksym(img + bl_off.ti_ksym, &ksym,
					    l->tramp_name,
					    sizeof(l->tramp_name));
		}
	} else if (bl_off.tr_image >= 0) {
		th_read_ulong(tr + bl_off.tr_image, &l->tramp_image,
			      "bpf_trampoline.image");
		if (bl_off.tr_ksym >= 0)
			th_bpf_ksym(tr + bl_off.tr_ksym, &ksym, l->tramp_name,
				    sizeof(l->tramp_name));
	}
	if (bl_off.tr_func_addr >= 0)
		th_read_ulong(tr + bl_off.tr_func_addr, &l->target,
			      "bpf_trampoline.func.addr");
}

static void bl_perf_kprobe(struct th_bpf_link *l, ulong call)
{
	ulong tk = th_tk_of_probe(th_trace_probe_of_call(call)), kp;

	if (!tk)
		return;
	th_tk_symbol(tk, l->perf_func, sizeof(l->perf_func));
	kp = th_tk_kprobe(tk);
	l->perf_addr = th_kprobe_addr(kp);
	l->perf_offset = th_kprobe_offset(kp);
}

/* bpf_get_uprobe_info(): the file as given and the offset, uretprobe
 * when the trace_uprobe's consumer has a ret_handler */
static void bl_perf_uprobe(struct th_bpf_link *l, ulong call)
{
	ulong tu = th_tu_of_probe(th_trace_probe_of_call(call)), ref;

	strcpy(l->perf_type, "uprobe");
	if (!tu)
		return;
	l->perf_tu = tu;
	if (th_tu_is_ret(tu))
		strcpy(l->perf_type, "uretprobe");
	th_tu_filename(tu, l->perf_func, sizeof(l->perf_func));
	th_tu_offsets(tu, &l->perf_offset, &ref);
}

/* The perf event of FILE and where it is: what bpftool's perf show
 * prints for it (bpf_get_perf_event_info()), for a perf link's event and
 * an event that holds its program without a link alike. */
static void bl_perf_event(struct th_bpf_link *l, ulong file)
{
	ulong ev, call;
	unsigned int type;

	if (!(ev = th_file_private(file)) ||
	    !th_perf_event_tp(ev, &call, &type)) {
		l->err = "unreadable perf_event";
		return;
	}
	l->perf_event = ev;
	l->perf_file = file;
	if (!call)
		return;
	/* a tracepoint event names its tracepoint, a probe event its
	 * target */
	switch (th_event_call_kind(call)) {
	case TH_EVK_KPROBE:
		strcpy(l->perf_type, "kprobe");
		bl_perf_kprobe(l, call);
		return;
	case TH_EVK_KRETPROBE:
		strcpy(l->perf_type, "kretprobe");
		bl_perf_kprobe(l, call);
		return;
	case TH_EVK_UPROBE:
		bl_perf_uprobe(l, call);
		return;
	default:
		break;
	}
	if (type == TH_PERF_TYPE_TRACEPOINT) {
		strcpy(l->perf_type, "tracepoint");
		th_event_call_name(call, l->tp_name, sizeof(l->tp_name));
	}
}

static void bl_perf(struct th_bpf_link *l, ulong base)
{
	ulong file;

	if (bl_off.pl_file < 0 ||
	    !th_read_ulong(base + bl_off.pl_file, &file,
			   "bpf_perf_link.perf_file")) {
		l->err = "unreadable bpf_perf_link";
		return;
	}
	bl_perf_event(l, file);
}

/* kprobe_multi: the fprobe's addresses (sorted, as
 * bpf_kprobe_multi_link_attach() leaves them), the first TH_BPF_MULTI
 * kept; a return probe when the link's flags say so (or, before they
 * were kept, the fprobe has an exit handler) */
static void bl_kprobe_multi(struct th_bpf_link *l, ulong base)
{
	ulong addrs = 0;
	unsigned int i, flags = 0;
	int h;

	if (bl_off.km_addrs < 0 || bl_off.km_cnt < 0 ||
	    !th_read_uint(base + bl_off.km_cnt, &l->multi_cnt,
			  "bpf_kprobe_multi_link.cnt") ||
	    !th_read_ulong(base + bl_off.km_addrs, &addrs,
			   "bpf_kprobe_multi_link.addrs")) {
		l->err = "unreadable bpf_kprobe_multi_link";
		return;
	}
	th_check_count("bpf_kprobe_multi_link", base, l->multi_cnt,
		       TH_BPF_MAX * 16UL, "cnt");
	for (i = 0; i < l->multi_cnt && i < TH_BPF_MULTI; i++)
		if (!th_read_ulong(addrs + i * sizeof(ulong), &l->multi[i],
				   "bpf_kprobe_multi_link.addrs[]")) {
			l->err = "unreadable kprobe_multi addresses";
			break;
		}
	if (bl_off.km_flags >= 0 &&
	    th_read_uint(base + bl_off.km_flags, &flags,
			 "bpf_kprobe_multi_link.flags"))
		l->multi_ret = flags & 1;	/* BPF_F_KPROBE_MULTI_RETURN */
	else if (bl_off.km_fp >= 0 &&
		 (h = th_fprobe_has_exit(base + bl_off.km_fp)) >= 0)
		l->multi_ret = h;
	if (bl_off.km_fp >= 0)
		l->fprobe_ops = th_fprobe_ops(base + bl_off.km_fp);
}

/* uprobe_multi: the file (the link's struct path), each bpf_uprobe's
 * offset (the first TH_BPF_MULTI kept), uretprobes when its flags have
 * BPF_F_UPROBE_MULTI_RETURN */
static void bl_uprobe_multi(struct th_bpf_link *l, ulong base)
{
	ulong ups = 0, h, rh;
	unsigned int i, flags = 0;
	uint64_t off;

	if (bl_off.um_cnt < 0 || bl_off.um_uprobes < 0 ||
	    bl_off.bu_size <= 0 || bl_off.bu_offset < 0 ||
	    !th_read_uint(base + bl_off.um_cnt, &l->multi_cnt,
			  "bpf_uprobe_multi_link.cnt") ||
	    !th_read_ulong(base + bl_off.um_uprobes, &ups,
			   "bpf_uprobe_multi_link.uprobes")) {
		l->err = "unreadable bpf_uprobe_multi_link";
		return;
	}
	th_check_count("bpf_uprobe_multi_link", base, l->multi_cnt,
		       TH_BPF_MAX * 16UL, "cnt");
	if (bl_off.um_path >= 0)
		th_path_str(base + bl_off.um_path, l->multi_path,
			    sizeof(l->multi_path));
	if (bl_off.um_flags >= 0 &&
	    th_read_uint(base + bl_off.um_flags, &flags,
			 "bpf_uprobe_multi_link.flags"))
		l->multi_ret = flags & 1;	/* BPF_F_UPROBE_MULTI_RETURN */
	else if (l->multi_cnt && bl_off.bu_consumer >= 0 &&
		 th_uconsumer_handlers(ups + bl_off.bu_consumer, &h, &rh))
		/* no flags kept: a return probe's consumers have only a
		 * ret_handler (a session's both) */
		l->multi_ret = !h && rh;
	for (i = 0; i < l->multi_cnt && i < TH_BPF_MULTI; i++) {
		if (!th_read_u64(ups + i * bl_off.bu_size + bl_off.bu_offset,
				 &off, "bpf_uprobe.offset")) {
			l->err = "unreadable bpf_uprobe";
			break;
		}
		l->multi[i] = off;
	}
}

/**
 * th_bpf_uprobe_link - the link a uprobe_multi consumer belongs to
 * @uc: the struct uprobe_consumer inside a struct bpf_uprobe
 *
 * Return: the link's struct bpf_link, 0 when unreadable.
 */
ulong th_bpf_uprobe_link(ulong uc)
{
	ulong ul;

	bl_off_fill();
	if (bl_off.bu_consumer < 0 || bl_off.bu_link < 0 ||
	    bl_off.um_link < 0 ||
	    !th_read_ulong(uc - bl_off.bu_consumer + bl_off.bu_link, &ul,
			   "bpf_uprobe.link") || !ul)
		return 0;
	return ul + bl_off.um_link;
}

static void bl_read(ulong addr, struct th_bpf_link *l)
{
	ulong base;

	memset(l, 0, sizeof(*l));
	l->addr = addr;
	if (!th_read_uint(addr + bl_off.id, &l->id, "bpf_link.id") ||
	    !th_read_int(addr + bl_off.type, &l->type, "bpf_link.type") ||
	    !th_read_ulong(addr + bl_off.prog, &l->prog, "bpf_link.prog")) {
		l->err = "unreadable bpf_link";
		return;
	}
	l->prog_id = th_bpf_prog_id(l->prog);
	th_bpf_enum_str("BPF_LINK_TYPE_RAW_TRACEPOINT", "BPF_LINK_TYPE_",
			l->type, l->type_str, sizeof(l->type_str));
	base = addr - (bl_off.link > 0 ? bl_off.link : 0);
	if (!strcmp(l->type_str, "raw_tracepoint")) {
		l->kind = TH_BL_RAW_TP;
		bl_raw_tp(l, base);
	} else if (!strcmp(l->type_str, "tracing")) {
		l->kind = TH_BL_TRACING;
		bl_tracing(l, base);
	} else if (!strcmp(l->type_str, "perf_event")) {
		l->kind = TH_BL_PERF;
		bl_perf(l, base);
	} else if (!strcmp(l->type_str, "kprobe_multi")) {
		l->kind = TH_BL_KPROBE_MULTI;
		bl_kprobe_multi(l, addr - (bl_off.km_link > 0 ?
					   bl_off.km_link : 0));
	} else if (!strcmp(l->type_str, "uprobe_multi")) {
		/* its struct bpf_link is not at the start */
		l->kind = TH_BL_UPROBE_MULTI;
		if (bl_off.um_link >= 0)
			bl_uprobe_multi(l, addr - bl_off.um_link);
		else
			l->err = "no struct bpf_uprobe_multi_link";
	}
}

/* Whether a link of V[0..N) holds the perf event EV. */
static int bl_perf_linked(const struct th_bpf_link *v, long n, ulong ev)
{
	long i;

	for (i = 0; i < n; i++)
		if (v[i].kind == TH_BL_PERF && v[i].perf_event == ev)
			return TRUE;
	return FALSE;
}

/* Whether H[I]'s perf event is an earlier file's too (a dup'ed fd, a
 * file table shared or inherited): listed once. */
static int bl_held_before(const struct th_bpf_held *h, long i)
{
	long j;

	for (j = 0; j < i; j++)
		if (h[j].kind == TH_BH_PERF && h[j].obj == h[i].obj)
			return TRUE;
	return FALSE;
}

/* Append to *V (N entries) the programs on perf events that no link of
 * *V holds: attached by PERF_EVENT_IOC_SET_BPF, kept by the perf event
 * file alone.  Returns the new count. */
static long bl_unlinked(struct th_bpf_link **v, long n)
{
	struct th_bpf_held *h;
	struct th_bpf_link *l;
	ulong prog;
	long nh, i;
	void *p;

	if (!bl_unlinked_ok() || (nh = th_bpf_holders(&h)) < 0)
		return n;
	for (i = 0; i < nh; i++) {
		if (h[i].kind != TH_BH_PERF || !h[i].obj ||
		    bl_held_before(h, i) || bl_perf_linked(*v, n, h[i].obj))
			continue;
		if (!th_perf_event_prog(h[i].obj, &prog) || !prog ||
		    !th_check_ptr("perf_event", h[i].obj, prog, TH_M_DATA,
				  "prog"))
			continue;
		if (!(p = realloc(*v, (n + 1) * sizeof(**v))))
			break;
		*v = p;
		l = &(*v)[n++];
		memset(l, 0, sizeof(*l));
		l->no_link = 1;
		l->held_pid = h[i].pid;
		th_strlcpy(l->held_comm, h[i].comm, sizeof(l->held_comm));
		l->held_fd = h[i].fd;
		l->kind = TH_BL_PERF;
		l->type = -1;
		strcpy(l->type_str, "perf_event");
		l->prog = prog;
		l->prog_id = th_bpf_prog_id(prog);
		bl_perf_event(l, h[i].file);
	}
	free(h);
	return n;
}

long th_bpf_links(struct th_bpf_link **out)
{
	struct th_xa_walk w;
	const char *why;
	long i, n = 0;

	*out = NULL;
	if (!th_bpf_links_ok(&why))
		return -1;
	memset(&w, 0, sizeof(w));
	if (bl_idr_ok(&why)) {
		th_idr_walk(bl_off.idr, TH_BPF_MAX, &w);
		if (w.err)
			th_damaged("link_idr", w.bad ? w.bad : bl_off.idr,
				   "%s", w.err);
	}
	*out = calloc(w.n ? w.n : 1, sizeof(**out));
	if (!*out) {
		th_xa_free(&w);
		return -1;
	}
	for (i = 0; i < w.n; i++) {
		if (!th_check_ptr("link_idr", bl_off.idr, w.ent[i].entry,
				  TH_M_DATA, "entry"))
			continue;
		bl_read(w.ent[i].entry, &(*out)[n]);
		/* bpf_link_prime(): idr_alloc_cyclic(&link_idr, link, 1, ...) */
		if (!(*out)[n].err && (!(*out)[n].id ||
				       (*out)[n].id != w.ent[i].index))
			th_damaged("bpf_link", w.ent[i].entry, "id %u in "
				   "link_idr slot %lu", (*out)[n].id,
				   w.ent[i].index);
		n++;
	}
	th_xa_free(&w);
	return bl_unlinked(out, n);
}
