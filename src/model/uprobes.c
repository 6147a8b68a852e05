/*
 * tracehunt: the model's one reader of struct uprobe and struct
 * uprobe_consumer (kernel/events/uprobes.c, include/linux/uprobes.h):
 * uprobes_tree, an rbtree of every uprobe sorted by inode and offset, and
 * the consumers each one calls when a process hits its breakpoint.
 */
#include "model/uprobes.h"
#include "model/trace_uprobe.h"
#include "model/bpf.h"
#include "model/xarray.h"
#include "model/vmlinux_file.h"

static struct {
	int filled;
	ulong tree;			/* &uprobes_tree's struct rb_root */
	ulong dispatcher;		/* uprobe_dispatcher */
	ulong multi, multi_ret;		/* uprobe_multi_link_(ret_)handler */
	long u_node, u_consumers, u_inode, u_offset, u_ref_ctr;
	long c_handler, c_ret_handler, c_filter, c_next, c_node;
	int list;			/* consumers on a list_head */
	long u_insn, i_mapping, as_pages;	/* the instruction copy */
} up_off;

/* uprobes_tree is an rb_root, or an rb_root_cached (its rb_root first):
 * told by the size of the symbol's type. */
static ulong up_tree(void)
{
	ulong sym = th_symbol("uprobes_tree");
	long cached = th_size("rb_root_cached"), length;

	if (!sym)
		return 0;
	/* the vmlinux file's symbol size tells them apart without asking
	 * gdb for the variable's type (7 ms of a first "hooks") */
	length = th_vmlinux_symbol_size("uprobes_tree");
	if (length <= 0 && th_var_type("uprobes_tree", &length) !=
	    TH_VT_STRUCT)
		length = -1;
	if (cached > 0 && length == cached)
		return sym + th_member("rb_root_cached", "rb_root");
	return sym;
}

static void up_off_fill(void)
{
	if (up_off.filled)
		return;
	up_off.filled = 1;
	up_off.tree = up_tree();
	up_off.dispatcher = th_symbol("uprobe_dispatcher");
	up_off.multi = th_symbol("uprobe_multi_link_handler");
	up_off.multi_ret = th_symbol("uprobe_multi_link_ret_handler");
	up_off.u_node = th_member("uprobe", "rb_node");
	up_off.u_consumers = th_member("uprobe", "consumers");
	up_off.u_inode = th_member("uprobe", "inode");
	up_off.u_offset = th_member("uprobe", "offset");
	up_off.u_ref_ctr = th_member("uprobe", "ref_ctr_offset");
	up_off.c_handler = th_member("uprobe_consumer", "handler");
	up_off.c_ret_handler = th_member("uprobe_consumer", "ret_handler");
	up_off.c_filter = th_member("uprobe_consumer", "filter");
	/* uprobe.consumers a list_head of uprobe_consumer.cons_node since
	 * Linux kernel commit cc01bd044e6a ("uprobes: travers uprobe's
	 * consumer list locklessly under SRCU protection") (in v6.12); a
	 * NULL-terminated chain of uprobe_consumer.next before */
	up_off.c_node = th_member("uprobe_consumer", "cons_node");
	up_off.list = up_off.c_node >= 0;
	up_off.c_next = th_member("uprobe_consumer", "next");
	/* arch_uprobe.insn: in an anonymous union with ixol on x86 */
	up_off.u_insn = th_member("uprobe", "arch");
	if (up_off.u_insn >= 0 && th_member_path("arch_uprobe", "insn") >= 0)
		up_off.u_insn += th_member_path("arch_uprobe", "insn");
	else
		up_off.u_insn = -1;
	up_off.i_mapping = th_member("inode", "i_mapping");
	up_off.as_pages = th_member("address_space", "i_pages");
}

/**
 * th_uprobes_ok - whether the dump's uprobes can be read
 * @why: what the dump lacks, when not
 */
int th_uprobes_ok(const char **why)
{
	up_off_fill();
	if (!up_off.tree) {
		*why = "uprobes_tree (a kernel without CONFIG_UPROBES)";
		return FALSE;
	}
	if (up_off.u_node < 0 || up_off.u_consumers < 0 ||
	    up_off.u_inode < 0 || up_off.u_offset < 0 ||
	    up_off.c_handler < 0 || up_off.c_ret_handler < 0 ||
	    (!up_off.list && up_off.c_next < 0)) {
		*why = "struct uprobe or uprobe_consumer in the debuginfo";
		return FALSE;
	}
	return TRUE;
}

int th_uconsumer_handlers(ulong uc, ulong *handler, ulong *ret_handler)
{
	up_off_fill();
	*handler = *ret_handler = 0;
	return up_off.c_handler >= 0 && up_off.c_ret_handler >= 0 &&
		th_read_ulong(uc + up_off.c_handler, handler,
			      "uprobe_consumer.handler") &&
		th_read_ulong(uc + up_off.c_ret_handler, ret_handler,
			      "uprobe_consumer.ret_handler");
}

/* One consumer: its handlers, and who it is. */
static void up_consumer(struct th_uprobe *u, ulong uc)
{
	struct th_uconsumer *c = &u->uc[u->nuc++];

	memset(c, 0, sizeof(*c));
	c->addr = uc;
	if (!th_uconsumer_handlers(uc, &c->handler, &c->ret_handler)) {
		u->err = "unreadable uprobe_consumer";
		return;
	}
	if (up_off.c_filter >= 0)
		th_read_ulong(uc + up_off.c_filter, &c->filter,
			      "uprobe_consumer.filter");
	/* uprobe_register() refuses a consumer with neither handler */
	if (!c->handler && !c->ret_handler)
		th_damaged("uprobe_consumer", uc, "neither handler nor "
			   "ret_handler");
	if (c->handler)
		th_check_func("uprobe_consumer", uc, c->handler, "handler");
	if (c->ret_handler)
		th_check_func("uprobe_consumer", uc, c->ret_handler,
			      "ret_handler");
	if (c->handler && c->handler == up_off.dispatcher) {
		c->kind = TH_UC_TRACE;
		c->tu = th_tu_of_consumer(uc);
	} else if ((c->handler && c->handler == up_off.multi) ||
		   (c->ret_handler && c->ret_handler == up_off.multi_ret)) {
		c->kind = TH_UC_MULTI;
		c->link = th_bpf_uprobe_link(uc);
	}
}

/* The consumers of U, in the order handler_chain() calls them. */
static void up_consumers(struct th_uprobe *u)
{
	struct th_walk w;
	ulong head = u->addr + up_off.u_consumers, first;
	long i;

	if (up_off.list) {
		th_list_walk(head, TH_UPROBE_CONSUMERS, &w);
	} else {
		if (!th_read_ulong(head, &first, "uprobe.consumers")) {
			u->err = "unreadable uprobe.consumers";
			return;
		}
		th_chain_walk(first, up_off.c_next, TH_UPROBE_CONSUMERS, &w);
	}
	if (w.err)
		th_damaged("uprobe", u->addr, "consumers: %s at %lx", w.err,
			   w.bad);
	/* with the consumers a chain (before the list of v6.12),
	 * __uprobe_unregister() takes a uprobe whose last consumer went off
	 * the tree at once (delete_uprobe()), under register_rwsem */
	else if (!up_off.list && !w.n)
		th_damaged("uprobe", u->addr, "no consumer, yet on "
			   "uprobes_tree");
	for (i = 0; i < w.n; i++)
		up_consumer(u, w.ent[i] - (up_off.list ? up_off.c_node : 0));
	th_walk_free(&w);
}

/*
 * __uprobe_register() refuses an offset past the file's i_size, and a
 * trace_uprobe consumer registered its own offset (trace_uprobe_enable()
 * -> uprobe_register(tu->inode, tu->offset, ...)).
 */
static void up_offset_check(const struct th_uprobe *u)
{
	ulong off, ref;
	uint64_t size;
	int i;

	if (u->err)
		return;
	if (th_inode_size(u->inode, &size)) {
		if (u->offset > size)
			th_damaged("uprobe", u->addr, "offset %#llx is past "
				   "the end of its file (%llu bytes)",
				   (unsigned long long)u->offset,
				   (unsigned long long)size);
		/* the SDT semaphore is a short in the file's data */
		if (u->ref_ctr_offset > size)
			th_damaged("uprobe", u->addr, "ref_ctr_offset %#llx is "
				   "past the end of its file (%llu bytes)",
				   (unsigned long long)u->ref_ctr_offset,
				   (unsigned long long)size);
	}
	/* __uprobe_register() refuses a ref_ctr_offset not aligned to a
	 * short */
	if (u->ref_ctr_offset & 1)
		th_damaged("uprobe", u->addr, "ref_ctr_offset %#llx is not "
			   "aligned to a short",
			   (unsigned long long)u->ref_ctr_offset);
	for (i = 0; i < u->nuc; i++) {
		if (u->uc[i].kind != TH_UC_TRACE || !u->uc[i].tu ||
		    !th_tu_offsets(u->uc[i].tu, &off, &ref))
			continue;
		if (off != u->offset) {
			th_damaged("uprobe", u->addr, "offset %#llx, but its "
				   "consumer trace_uprobe %lx registered "
				   "%#lx", (unsigned long long)u->offset,
				   u->uc[i].tu, off);
			break;
		}
		/* alloc_uprobe() refuses a second ref_ctr_offset for one
		 * uprobe: every consumer registered the uprobe's own */
		if (up_off.u_ref_ctr >= 0 && ref != u->ref_ctr_offset) {
			th_damaged("uprobe", u->addr, "ref_ctr_offset %#llx, but "
				   "its consumer trace_uprobe %lx registered "
				   "%#lx", (unsigned long long)u->ref_ctr_offset,
				   u->uc[i].tu, ref);
			break;
		}
	}
}

/*
 * uprobe.arch.insn is copy_insn()'s copy of the file's bytes at the offset,
 * read through the page cache; a breakpoint goes into each mm's own copy of
 * the page, never into the cache.  Where that page is cached, its byte at
 * the offset is the copy's first: an opcode or a prefix, of which
 * riprel_analyze() may clear REX.B only.
 */
static void up_insn_check(const struct th_uprobe *u)
{
	ulong mapping, idx = u->offset >> PAGESHIFT(), page = 0;
	physaddr_t phys;
	unsigned char mine, file;
	struct th_xa_walk w;
	const char *why;
	long i;

	if (u->err || up_off.u_insn < 0 || up_off.i_mapping < 0 ||
	    up_off.as_pages < 0 || !th_xa_ok(&why) ||
	    !th_read(u->addr + up_off.u_insn, &mine, 1, "uprobe.arch.insn") ||
	    !th_read_ulong(u->inode + up_off.i_mapping, &mapping,
			   "inode.i_mapping") ||
	    !th_ptr_in(mapping, TH_M_DATA))
		return;
	th_xa_walk(mapping + up_off.as_pages, 1L << 16, &w);
	for (i = 0; i < w.n && !page; i++)
		if (w.ent[i].index == idx)
			page = w.ent[i].entry;
	th_xa_free(&w);
	if (!page || !is_page_ptr(page, &phys) ||
	    !th_read(PTOV(phys) + (u->offset & (PAGESIZE() - 1)), &file, 1,
		     "page cache"))
		return;
	if (mine == file || ((mine & 0xf0) == 0x40 &&
			     (mine | 1) == (file | 1)))
		return;
	th_damaged("uprobe", u->addr, "its instruction copy starts with "
		   "%02x, the file's cached page holds %02x at offset %#llx",
		   mine, file, (unsigned long long)u->offset);
}

static void up_read(ulong addr, struct th_uprobe *u, const struct th_uprobe *prev)
{
	unsigned int nlink;

	memset(u, 0, sizeof(*u));
	u->addr = addr;
	if (!th_read_ulong(addr + up_off.u_inode, &u->inode, "uprobe.inode") ||
	    !th_read_u64(addr + up_off.u_offset, &u->offset,
			 "uprobe.offset")) {
		u->err = "unreadable uprobe";
		return;
	}
	if (up_off.u_ref_ctr >= 0)
		th_read_u64(addr + up_off.u_ref_ctr, &u->ref_ctr_offset,
			    "uprobe.ref_ctr_offset");
	if (!th_check_ptr("uprobe", addr, u->inode, TH_M_DATA, "inode"))
		u->err = "implausible uprobe.inode";
	else if (prev && prev->inode == u->inode && prev->path_ok) {
		memcpy(u->path, prev->path, sizeof(u->path));
		memcpy(u->sid, prev->sid, sizeof(u->sid));
		u->path_ok = TRUE;
	} else {
		u->path_ok = th_inode_path(u->inode, u->path, sizeof(u->path),
					   u->sid, sizeof(u->sid));
		/* a registrant keeps the file it probes through a path
		 * (trace_uprobe's tu->path, bpf's uprobe_multi): its dentry
		 * in use stays the inode's alias */
		if (!u->path_ok && th_inode_unnamed(u->inode, &nlink))
			th_damaged("inode", u->inode, "i_dentry is empty, but "
				   "i_nlink is %u and its uprobes keep the file",
				   nlink);
	}
	/* __uprobe_cmp(): the tree is sorted by inode, then offset */
	if (prev && (prev->inode > u->inode ||
		     (prev->inode == u->inode && prev->offset >= u->offset)))
		th_damaged("uprobes_tree", up_off.tree, "uprobe %lx (inode "
			   "%lx offset %#llx) after inode %lx offset %#llx",
			   addr, u->inode, (unsigned long long)u->offset,
			   prev->inode, (unsigned long long)prev->offset);
	up_consumers(u);
	up_offset_check(u);
	up_insn_check(u);
}

/**
 * th_uprobes - every uprobe of uprobes_tree
 * @out: the uprobes in the tree's order (malloc'd)
 *
 * Return: their count, -1 when th_uprobes_ok() fails.
 */
long th_uprobes(struct th_uprobe **out)
{
	struct th_walk w;
	const char *why;
	long i, n = 0;

	*out = NULL;
	if (!th_uprobes_ok(&why))
		return -1;
	th_rb_walk(up_off.tree, TH_M_DATA, TH_UPROBES_MAX, &w);
	if (w.err)
		th_damaged("uprobes_tree", w.bad ? w.bad : up_off.tree, "%s",
			   w.err);
	*out = calloc(w.n ? w.n : 1, sizeof(**out));
	if (!*out) {
		th_walk_free(&w);
		return -1;
	}
	for (i = 0; i < w.n; i++) {
		/* (every node in TH_M_DATA: th_rb_walk() checked) */
		up_read(w.ent[i] - up_off.u_node, &(*out)[n],
			n ? &(*out)[n - 1] : NULL);
		n++;
	}
	th_walk_free(&w);
	return n;
}
