/*
 * tracehunt: the model's one reader of struct dentry and struct inode:
 * a tracefs directory's children (d_subdirs, each child on it by its
 * d_child) and a file's inode->i_private, where tracefs keeps what the
 * file's open() hands its read (the trace array, a system directory).
 * Linux kernel commit da549bdd15c2 ("dentry: switch the lists of
 * children to hlist") (in v6.8) replaced d_subdirs/d_child; that layout
 * is not read by th_dentry_child() (the events directory is eventfs since
 * v6.6), only by th_dentry_children() (a bpf file system's pins), with
 * the inode's operations and number (th_dentry_inode_info()).
 */
#include "model/dentry.h"

/* A directory has few children where tracehunt looks (events/SYSTEM) */
#define TH_DENTRY_MAX_CHILDREN	100000

static struct th_dentry_off {
	int filled, ok;
	long name, inode, subdirs, child, i_private;
	/* th_dentry_children(): the hlist layout of v6.8 where there is no
	 * d_subdirs (children 0: neither layout) */
	long children, sib;
	long i_op, i_ino, i_mode;
} th_dentry_offsets;

static const struct th_dentry_off *th_dentry_off(void)
{
	struct th_dentry_off *o = &th_dentry_offsets;

	if (o->filled)
		return o;
	o->filled = TRUE;
	o->name = th_member_path("dentry", "d_name.name");
	o->inode = th_member("dentry", "d_inode");
	o->subdirs = th_member("dentry", "d_subdirs");
	o->child = th_member("dentry", "d_child");
	o->i_private = th_member("inode", "i_private");
	o->ok = o->name >= 0 && o->inode >= 0 && o->subdirs >= 0 &&
		o->child >= 0 && o->i_private >= 0;
	o->children = th_member("dentry", "d_children");
	o->sib = th_member("dentry", "d_sib");
	o->i_op = th_member("inode", "i_op");
	o->i_ino = th_member("inode", "i_ino");
	o->i_mode = th_member("inode", "i_mode");
	return o;
}

/**
 * th_dentry_ok - whether the dump has the dentry tree's members
 */
int th_dentry_ok(void)
{
	return th_dentry_off()->ok;
}

/**
 * th_dentry_name - a dentry's name
 * @dentry: struct dentry
 * @buf: d_name.name's text
 * @len: room in @buf
 */
int th_dentry_name(ulong dentry, char *buf, size_t len)
{
	const struct th_dentry_off *o = th_dentry_off();
	ulong p = 0;

	buf[0] = '\0';
	return o->ok && dentry &&
		th_read_ulong(dentry + o->name, &p, "dentry.d_name.name") &&
		p && th_read_cstr(p, buf, len, "dentry.d_name.name");
}

/**
 * th_dentry_child - a directory's child by name
 * @parent: the directory's struct dentry
 * @name: the child's name
 *
 * Return: the child's struct dentry, 0 when it has none by that name.
 */
ulong th_dentry_child(ulong parent, const char *name)
{
	const struct th_dentry_off *o = th_dentry_off();
	ulong found = 0;
	struct th_walk w;
	char buf[256];
	long i;

	if (!o->ok || !parent)
		return 0;
	th_list_walk(parent + o->subdirs, TH_DENTRY_MAX_CHILDREN, &w);
	for (i = 0; i < w.n && !found; i++) {
		ulong d = w.ent[i] - o->child;

		if (th_dentry_name(d, buf, sizeof(buf)) &&
		    strcmp(buf, name) == 0)
			found = d;
	}
	if (w.err && !found)
		th_warn("dentry %lx: its children: %s at %lx", parent, w.err,
			w.bad);
	th_walk_free(&w);
	return found;
}

/**
 * th_dentry_private - what the dentry's inode keeps for its file's open()
 * @dentry: struct dentry
 *
 * Return: d_inode->i_private, 0 when none or unreadable.
 */
ulong th_dentry_private(ulong dentry)
{
	const struct th_dentry_off *o = th_dentry_off();
	ulong inode = 0, priv = 0;

	if (!o->ok || !dentry ||
	    !th_read_ulong(dentry + o->inode, &inode, "dentry.d_inode") ||
	    !inode ||
	    !th_read_ulong(inode + o->i_private, &priv, "inode.i_private"))
		return 0;
	return priv;
}

/* whether th_dentry_children() can read a directory's children */
static int th_dentry_kids_ok(const struct th_dentry_off *o)
{
	return o->inode >= 0 && ((o->subdirs >= 0 && o->child >= 0) ||
				 (o->children >= 0 && o->sib >= 0));
}

/**
 * th_dentry_children - a directory's children
 * @dir: the directory's struct dentry
 * @max: at most this many
 * @w: the children's struct dentry addresses (th_walk_free()), or where
 *     the walk broke (w->err); none when the dump has neither layout
 *
 * d_subdirs with each child on it by its d_child, or since Linux kernel
 * commit da549bdd15c2 ("dentry: switch the lists of children to hlist")
 * (in v6.8) the hlist d_children with each child on it by its d_sib.
 */
void th_dentry_children(ulong dir, long max, struct th_walk *w)
{
	const struct th_dentry_off *o = th_dentry_off();
	ulong first = 0;
	long i, off;

	memset(w, 0, sizeof(*w));
	if (!th_dentry_kids_ok(o) || !dir)
		return;
	if (o->subdirs >= 0) {
		th_list_walk(dir + o->subdirs, max, w);
		off = o->child;
	} else {
		if (!th_read_ulong(dir + o->children, &first,
				   "dentry.d_children")) {
			w->err = "unreadable d_children";
			w->bad = dir;
			return;
		}
		th_hlist_walk(first, max, w);
		off = o->sib;
	}
	for (i = 0; i < w->n; i++)
		w->ent[i] -= off;
}

/**
 * th_dentry_inode_info - a dentry's inode: its operations, number, mode and
 * private data
 * @dentry: struct dentry
 * @in: what was read (in->inode 0: a negative dentry)
 *
 * Return: FALSE when the dentry or its inode cannot be read.
 */
int th_dentry_inode_info(ulong dentry, struct th_inode_info *in)
{
	const struct th_dentry_off *o = th_dentry_off();
	unsigned short mode = 0;

	memset(in, 0, sizeof(*in));
	if (o->inode < 0 || o->i_op < 0 || o->i_private < 0 ||
	    !th_read_ulong(dentry + o->inode, &in->inode, "dentry.d_inode"))
		return FALSE;
	if (!in->inode)
		return TRUE;
	if (!th_read_ulong(in->inode + o->i_op, &in->i_op, "inode.i_op") ||
	    !th_read_ulong(in->inode + o->i_private, &in->i_private,
			   "inode.i_private"))
		return FALSE;
	/* i_ino: unsigned long, u64 in newer kernels: 8 bytes here either
	 * way */
	if (o->i_ino >= 0)
		th_read_ulong(in->inode + o->i_ino, &in->ino, "inode.i_ino");
	if (o->i_mode >= 0 &&
	    th_read(in->inode + o->i_mode, &mode, sizeof(mode), "inode.i_mode"))
		in->mode = mode;
	return TRUE;
}

/**
 * th_dentry_inode - dentry.d_inode
 * @dentry: struct dentry
 * @inode: its inode (0: a negative dentry)
 *
 * Return: FALSE when unreadable or the dump lacks the member.
 */
int th_dentry_inode(ulong dentry, ulong *inode)
{
	const struct th_dentry_off *o = th_dentry_off();

	*inode = 0;
	return o->inode >= 0 &&
		th_read_ulong(dentry + o->inode, inode, "dentry.d_inode");
}
