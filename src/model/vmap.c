/*
 * tracehunt: the model's one reader of struct vmap_area and vm_struct:
 * the busy vmalloc areas (module memory among them), sorted, with the
 * caller that allocated each.
 */
#include "model/model.h"

/* Offsets, -1 when absent; filled once. */
static struct {
	int filled;
	long va_start, va_end, va_vm, va_list, vm_caller;
	/* Linux kernel commit d093602919ad ("mm: vmalloc: remove global
	 * vmap_area_root rb-tree") (in v6.9): busy areas live in per-node
	 * lists. */
	long node_size, node_busy, rb_list_head;
} vmap_off;

static struct th_vmap *th_vmaps;
static long th_nvmaps = -1;

static void vmap_off_fill(void)
{
	if (vmap_off.filled)
		return;
	vmap_off.filled = 1;
	vmap_off.va_start = th_member("vmap_area", "va_start");
	vmap_off.va_end = th_member("vmap_area", "va_end");
	vmap_off.va_vm = th_member("vmap_area", "vm");
	vmap_off.va_list = th_member("vmap_area", "list");
	vmap_off.vm_caller = th_member("vm_struct", "caller");
}

/* v6.9+ only, looked up only where the kernel has vmap_nodes: gdb answers a
 * type the debuginfo lacks with a search of every compile unit. */
static void vmap_off_fill_nodes(void)
{
	vmap_off.node_size = th_size("vmap_node");
	vmap_off.node_busy = th_member("vmap_node", "busy");
	vmap_off.rb_list_head = th_member("rb_list", "head");
}

/**
 * th_vmaps_reset - forget the vmap areas read so far
 */
void th_vmaps_reset(void)
{
	free(th_vmaps);
	th_vmaps = NULL;
	th_nvmaps = -1;
	th_damage_forget("vmap");
}

static int vmap_cmp(const void *a, const void *b)
{
	const struct th_vmap *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* A busy area lies in vmalloc or module space, ends after it starts, and
 * was allocated by code. */
static int vmap_plausible(ulong va, const struct th_vmap *v)
{
	const unsigned mask = TH_M(TH_R_VMALLOC) | TH_M(TH_R_MODULE);

	if (!th_check_ptr("vmap_area", va, v->start, mask, "va_start") ||
	    !th_check_ptr("vmap_area", va, v->end - 1, mask, "va_end - 1"))
		return FALSE;
	if (v->start >= v->end) {
		th_damaged("vmap_area", va, "va_start %lx is not below va_end "
			   "%lx", v->start, v->end);
		return FALSE;
	}
	if (v->caller && !th_check_ptr("vm_struct", v->vm, v->caller,
				       TH_M_CODE, "caller"))
		return FALSE;
	return TRUE;
}

static void vmap_collect_list(ulong head, long *cap)
{
	struct th_walk w;
	long i;

	th_list_walk(head, TH_MAX_LIST, &w);
	if (w.err)
		th_warn("vmap area list: %s at %lx", w.err, w.bad);
	for (i = 0; i < w.n; i++) {
		ulong va = w.ent[i] - vmap_off.va_list;
		struct th_vmap v;

		memset(&v, 0, sizeof(v));
		if (!th_read_ulong(va + vmap_off.va_start, &v.start,
				   "vmap_area.va_start") ||
		    !th_read_ulong(va + vmap_off.va_end, &v.end,
				   "vmap_area.va_end"))
			continue;
		if (vmap_off.va_vm >= 0 &&
		    th_read_ulong(va + vmap_off.va_vm, &v.vm, "vmap_area.vm") &&
		    th_kptr(v.vm) && vmap_off.vm_caller >= 0)
			th_read_ulong(v.vm + vmap_off.vm_caller, &v.caller,
				      "vm_struct.caller");
		if (!vmap_plausible(va, &v))
			continue;
		if (th_nvmaps >= *cap) {
			*cap = *cap ? *cap * 2 : 1024;
			th_vmaps = realloc(th_vmaps, sizeof(*th_vmaps) * *cap);
		}
		th_vmaps[th_nvmaps++] = v;
	}
	th_walk_free(&w);
}

/* v6.9+: the busy list of every vmap_node. */
static void vmap_collect_nodes(long *cap)
{
	ulong nodes;
	unsigned int nr, i;

	vmap_off_fill_nodes();
	if (vmap_off.node_size > 0 && vmap_off.node_busy >= 0 &&
	    vmap_off.rb_list_head >= 0 &&
	    th_read_ulong(th_symbol("vmap_nodes"), &nodes, "vmap_nodes") &&
	    th_read_uint(th_symbol("nr_vmap_nodes"), &nr, "nr_vmap_nodes") &&
	    nr < 4096)
		for (i = 0; i < nr; i++)
			vmap_collect_list(nodes + i * vmap_off.node_size +
					  vmap_off.node_busy +
					  vmap_off.rb_list_head, cap);
}

static void vmap_load(void)
{
	const char *tag = th_damage_tag("vmap");
	long cap = 0, i, j;
	ulong head;

	vmap_off_fill();
	th_nvmaps = 0;
	if ((head = th_symbol("vmap_area_list")) && vmap_off.va_list >= 0)
		vmap_collect_list(head, &cap);
	else if (th_symbol("vmap_nodes") && vmap_off.va_list >= 0)
		vmap_collect_nodes(&cap);
	if (th_nvmaps)
		qsort(th_vmaps, th_nvmaps, sizeof(*th_vmaps), vmap_cmp);
	/* busy areas never overlap: keep the first of two that do */
	for (i = j = 0; i < th_nvmaps; i++) {
		if (j && th_vmaps[i].start < th_vmaps[j - 1].end) {
			th_damaged("vmap_area", th_vmaps[i].start, "overlaps "
				   "the area %lx-%lx", th_vmaps[j - 1].start,
				   th_vmaps[j - 1].end);
			continue;
		}
		th_vmaps[j++] = th_vmaps[i];
	}
	if (th_nvmaps > 0)
		th_nvmaps = j;
	th_damage_tag(tag);
}

/**
 * th_vmap_of - the busy vmalloc area holding an address
 * @addr: a kernel address
 *
 * Returns NULL when no area covers @addr.
 */
/* The areas read (once), their warnings again in every later command */
static void vmap_ready(void)
{
	if (th_nvmaps < 0)
		vmap_load();
	else
		th_damage_replay("vmap");
}

struct th_vmap *th_vmap_of(ulong addr)
{
	long lo = 0, hi, mid;

	vmap_ready();
	hi = th_nvmaps - 1;
	while (lo <= hi) {
		mid = (lo + hi) / 2;
		if (addr < th_vmaps[mid].start)
			hi = mid - 1;
		else if (addr >= th_vmaps[mid].end)
			lo = mid + 1;
		else
			return &th_vmaps[mid];
	}
	return NULL;
}

/**
 * th_vmaps_all - every busy vmalloc area, sorted by address
 * @v: set to the areas (kept here)
 *
 * Returns their count.
 */
long th_vmaps_all(struct th_vmap **v)
{
	vmap_ready();
	*v = th_vmaps;
	return th_nvmaps;
}
