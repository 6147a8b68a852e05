/*
 * tracehunt: find_vma() of a process's mm, for the user stack lines of
 * sym-userobj (seq_print_user_ip()): through the maple tree mm->mm_mt
 * (Linux kernel commit d4af56c5c7c6 ("mm: start tracking VMAs with maple
 * tree") (in v6.1)), or the address-ordered list mm->mmap before it.
 * The model's one reader of struct mm_struct, maple_tree, maple_range_64,
 * maple_arange_64, vm_area_struct and task_struct.mm.
 */
#include "model/vma.h"
#include "model/path.h"

/* bounds: the tree's height (MAPLE_HEIGHT_MAX is 31), nodes visited, and
 * the vmas of a list (sysctl_max_map_count is 65530 by default) */
#define TH_MT_DEPTH	32
#define TH_MT_NODES	65536
#define TH_VMA_LIST	(1 << 20)

static struct th_vma_off {
	int filled;
	long task_mm, mm_mt, mm_mmap, mm_map_count, ma_root;
	long r64_pivot, r64_slot, a64_pivot, a64_slot;
	int r64_npiv, a64_npiv;
	long t_leaf, t_range, t_arange;
	long vm_start, vm_end, vm_next, vm_file, f_path;
} vo;

static const struct th_vma_off *th_vma_off(void)
{
	if (vo.filled)
		return &vo;
	vo.filled = TRUE;
	vo.task_mm = th_member("task_struct", "mm");
	vo.mm_mt = th_member("mm_struct", "mm_mt");
	vo.mm_mmap = th_member("mm_struct", "mmap");
	vo.mm_map_count = th_member("mm_struct", "map_count");
	vo.ma_root = th_member("maple_tree", "ma_root");
	vo.r64_pivot = th_member("maple_range_64", "pivot");
	vo.r64_slot = th_member("maple_range_64", "slot");
	vo.a64_pivot = th_member("maple_arange_64", "pivot");
	vo.a64_slot = th_member("maple_arange_64", "slot");
	/* pivot[] runs up to slot[]: MAPLE_RANGE64_SLOTS - 1 and
	 * MAPLE_ARANGE64_SLOTS - 1 of them */
	vo.r64_npiv = vo.r64_pivot >= 0 && vo.r64_slot > vo.r64_pivot ?
		(int)((vo.r64_slot - vo.r64_pivot) / sizeof(ulong)) : 0;
	vo.a64_npiv = vo.a64_pivot >= 0 && vo.a64_slot > vo.a64_pivot ?
		(int)((vo.a64_slot - vo.a64_pivot) / sizeof(ulong)) : 0;
	vo.t_leaf = th_enum("maple_leaf_64", -1);
	vo.t_range = th_enum("maple_range_64", -1);
	vo.t_arange = th_enum("maple_arange_64", -1);
	vo.vm_start = th_member("vm_area_struct", "vm_start");
	vo.vm_end = th_member("vm_area_struct", "vm_end");
	vo.vm_next = th_member("vm_area_struct", "vm_next");
	vo.vm_file = th_member("vm_area_struct", "vm_file");
	vo.f_path = th_member("file", "f_path");
	return &vo;
}

ulong th_task_mm(ulong task)
{
	const struct th_vma_off *o = th_vma_off();
	ulong mm = 0;

	if (o->task_mm < 0 || !task ||
	    !th_read_ulong(task + o->task_mm, &mm, "task_struct.mm"))
		return 0;
	return mm;
}

static int th_vma_fill(ulong vma, struct th_vma *v)
{
	const struct th_vma_off *o = th_vma_off();

	v->vma = vma;
	v->file = 0;
	return th_read_ulong(vma + o->vm_start, &v->start,
			     "vm_area_struct.vm_start") &&
	       th_read_ulong(vma + o->vm_end, &v->end,
			     "vm_area_struct.vm_end") &&
	       th_read_ulong(vma + o->vm_file, &v->file,
			     "vm_area_struct.vm_file");
}

/* mas_find() from ADDR in the subtree of the encoded node ENC spanning
 * MIN..MAX: the first entry at an index >= ADDR; 0 none, -1 unreadable
 * or implausible (*BAD: where). */
static long th_mt_find(ulong enc, ulong min, ulong max, ulong addr,
		       int depth, long *budget, ulong *found, ulong *bad)
{
	const struct th_vma_off *o = th_vma_off();
	ulong node = enc & ~0xffUL, prev = min, piv, slot;
	long type = (enc >> 3) & 0xf, r;
	long poff, soff;
	int npiv, i;

	if (depth >= TH_MT_DEPTH || --*budget < 0 || (enc & 3) != 2 ||
	    enc <= 4096) {
		*bad = enc;
		return -1;
	}
	if (type == o->t_arange) {
		poff = o->a64_pivot;
		soff = o->a64_slot;
		npiv = o->a64_npiv;
	} else if (type == o->t_range || type == o->t_leaf) {
		poff = o->r64_pivot;
		soff = o->r64_slot;
		npiv = o->r64_npiv;
	} else {
		*bad = enc;
		return -1;
	}
	for (i = 0; i <= npiv; i++) {
		/* mas_safe_pivot(): the last slot ends at the node's max */
		piv = max;
		if (i < npiv && !th_read_ulong(node + poff + i * sizeof(ulong),
					      &piv, "maple node pivot"))
			goto unreadable;
		if (i > 0 && i < npiv && !piv)
			break;		/* past the node's data */
		if (piv > max)
			piv = max;
		if (piv >= addr) {
			if (!th_read_ulong(node + soff + i * sizeof(ulong),
					   &slot, "maple node slot"))
				goto unreadable;
			if (slot && type != o->t_leaf) {
				r = th_mt_find(slot, prev, piv, addr,
					       depth + 1, budget, found, bad);
				if (r)
					return r;
			} else if (slot) {
				*found = slot;
				return 1;
			}
		}
		if (piv >= max)
			break;
		prev = piv + 1;
	}
	return 0;
unreadable:
	*bad = node;
	return -1;
}

int th_find_vma(ulong mm, ulong addr, struct th_vma *v)
{
	const struct th_vma_off *o = th_vma_off();
	ulong root, vma = 0, bad = 0, end;
	long budget = TH_MT_NODES, r, n;
	int count = 0;

	memset(v, 0, sizeof(*v));
	if (!mm || o->vm_start < 0 || o->vm_end < 0 || o->vm_file < 0)
		return FALSE;
	if (o->mm_mt >= 0 && o->ma_root >= 0) {
		if (!th_read_ulong(mm + o->mm_mt + o->ma_root, &root,
				   "mm_struct.mm_mt.ma_root") || !root)
			return FALSE;
		/* a root that is not a node holds index 0 alone */
		if ((root & 3) != 2 || root <= 4096)
			return addr == 0 && th_vma_fill(root, v);
		r = th_mt_find(root, 0, ~0UL, addr, 0, &budget, &vma, &bad);
		if (r < 0) {
			th_damaged("mm_struct.mm_mt", mm, "maple node %lx "
				   "unreadable or of no known type", bad);
			return FALSE;
		}
		return r > 0 && th_vma_fill(vma, v);
	}
	if (o->mm_mmap < 0 || o->vm_next < 0)
		return FALSE;
	/* the list in address order: the first vma ending above ADDR */
	th_read_int(mm + o->mm_map_count, &count, "mm_struct.map_count");
	if (!th_read_ulong(mm + o->mm_mmap, &vma, "mm_struct.mmap"))
		return FALSE;
	for (n = 0; vma && n < TH_VMA_LIST; n++) {
		if (!th_read_ulong(vma + o->vm_end, &end,
				   "vm_area_struct.vm_end"))
			return FALSE;
		if (end > addr)
			return th_vma_fill(vma, v);
		if (!th_read_ulong(vma + o->vm_next, &vma,
				   "vm_area_struct.vm_next"))
			return FALSE;
	}
	if (vma)
		th_damaged("mm_struct.mmap", mm, "more than %d vmas (map_count "
			   "%d)", TH_VMA_LIST, count);
	return FALSE;
}

int th_file_path(ulong file, char *buf, size_t len)
{
	const struct th_vma_off *o = th_vma_off();

	if (!file || o->f_path < 0)
		return FALSE;
	return th_path_str(file + o->f_path, buf, len);
}
