/*
 * tracehunt: the model's one reader of struct dentry, the inode's alias
 * list, struct path and the mounts above one (struct mount, vfsmount):
 * file names as d_path() (fs/d_path.c) builds them, walking d_parent up
 * to a root and crossing each mount to its mountpoint; where a super
 * block is mounted (its s_mounts).
 */
#include "model/path.h"
#include "model/dentry.h"

#define PA_MAX_DEPTH	128	/* components and mount crossings */
#define PA_NAME		256	/* NAME_MAX + 1 */

static struct {
	int filled;
	long d_parent, d_name, qstr_name, d_alias, i_dentry, i_sb, s_id;
	long p_mnt, p_dentry, m_parent, m_mountpoint, m_mnt, mnt_root;
	long s_mounts, m_instance, m_next_for_sb;
	long qstr_len, d_sb, i_size, i_nlink;
} pa_off;

static void pa_off_fill(void)
{
	static const char *const d_name[] = { "d_name", "__d_name", NULL };

	if (pa_off.filled)
		return;
	pa_off.filled = 1;
	pa_off.d_parent = th_member("dentry", "d_parent");
	/* a const d_name over a writable __d_name in newer kernels */
	pa_off.d_name = th_member_any("dentry", d_name, NULL);
	pa_off.qstr_name = th_member("qstr", "name");
	/* (len in an anonymous struct of hash_len's union) */
	pa_off.qstr_len = th_member_path("qstr", "len");
	pa_off.d_sb = th_member("dentry", "d_sb");
	pa_off.i_size = th_member("inode", "i_size");
	/* dentry.d_alias in the union d_u (every member at its start) since
	 * Linux kernel commit 946e51f2bf37 ("move d_rcu from overlapping
	 * d_child to overlapping d_alias") (in v3.19); a member of its own
	 * before */
	pa_off.d_alias = th_member("dentry", "d_alias");
	if (pa_off.d_alias < 0)
		pa_off.d_alias = th_member("dentry", "d_u");
	pa_off.i_dentry = th_member("inode", "i_dentry");
	/* (in a union with __i_nlink) */
	pa_off.i_nlink = th_member_path("inode", "i_nlink");
	pa_off.i_sb = th_member("inode", "i_sb");
	pa_off.s_id = th_member("super_block", "s_id");
	pa_off.p_mnt = th_member("path", "mnt");
	pa_off.p_dentry = th_member("path", "dentry");
	pa_off.m_parent = th_member("mount", "mnt_parent");
	pa_off.m_mountpoint = th_member("mount", "mnt_mountpoint");
	pa_off.m_mnt = th_member("mount", "mnt");
	pa_off.mnt_root = th_member("vfsmount", "mnt_root");
	/* a super block's mounts: a list_head s_mounts of mounts on it by
	 * their mnt_instance, or since Linux kernel commit 09a1b33c080f
	 * ("preparations to taking MNT_WRITE_HOLD out of ->mnt_flags") (in
	 * v6.18) the first mount, each on the next by mnt_next_for_sb */
	pa_off.s_mounts = th_member("super_block", "s_mounts");
	pa_off.m_instance = th_member("mount", "mnt_instance");
	pa_off.m_next_for_sb = th_member("mount", "mnt_next_for_sb");
}

/* The names met on the way up, last first. */
struct pa_names {
	char (*name)[PA_NAME];
	int n;
	int bad;		/* a part could not be read */
};

/*
 * Read DENTRY's name as names[n]; FALSE when it cannot be read ("?").
 * d_alloc() copies a path component into it: never empty, no '/', its
 * length in d_name.len; a name that breaks this is damage.  A name of
 * bytes that do not print is a real (if odd) name: "?" without a warning.
 */
static int pa_name(struct pa_names *p, ulong dentry)
{
	ulong np = 0;
	unsigned int n;
	char *s = p->name[p->n++];

	if (!th_read_ulong(dentry + pa_off.d_name + pa_off.qstr_name, &np,
			   "dentry.d_name.name") ||
	    !th_read_cstr(np, s, PA_NAME, "dentry.d_name.name"))
		th_damaged("dentry", dentry, "d_name.name %lx cannot be read",
			   np);
	else if (!s[0] || strchr(s, '/'))
		th_damaged("dentry", dentry, "d_name.name \"%s\" is no file "
			   "name", th_printable(s) ? s : "?");
	else if (pa_off.qstr_len >= 0 && strlen(s) < PA_NAME - 1 &&
		 th_read_uint(dentry + pa_off.d_name + pa_off.qstr_len, &n,
			      "dentry.d_name.len") && n != strlen(s))
		th_damaged("dentry", dentry, "d_name.len %u, but its name has "
			   "%zu bytes", n, strlen(s));
	else if (th_printable(s))
		return TRUE;
	strcpy(s, "?");
	p->bad = TRUE;
	return FALSE;
}

/* The super_block of DENTRY; 0 when unknown. */
static ulong pa_sb(ulong dentry)
{
	ulong sb = 0;

	if (pa_off.d_sb >= 0)
		th_read_ulong(dentry + pa_off.d_sb, &sb, "dentry.d_sb");
	return sb;
}

/* DENTRY's d_parent: a dentry of the same file system (__d_alloc() takes
 * it from the parent, d_move() within one super_block); 0 when damaged. */
static ulong pa_parent(ulong dentry)
{
	ulong parent, sb, psb;

	if (!th_read_ulong(dentry + pa_off.d_parent, &parent,
			   "dentry.d_parent")) {
		th_damaged("dentry", dentry, "d_parent cannot be read");
		return 0;
	}
	if (parent == dentry)
		return parent;
	if (!th_check_ptr("dentry", dentry, parent, TH_M(TH_R_DIRECT),
			  "d_parent"))
		return 0;
	sb = pa_sb(dentry);
	psb = pa_sb(parent);
	if (sb && psb != sb) {
		th_damaged("dentry", dentry, "d_parent %lx is a dentry of "
			   "super_block %lx, this one of %lx", parent, psb, sb);
		return 0;
	}
	return parent;
}

/* Whether MNT (a struct vfsmount, 0: no mounts to cross) has DENTRY as
 * its root: then *DENTRY and *MNT become its mountpoint and the mount
 * above, and *STOP is set at the root of the mount tree. */
static int pa_cross(ulong *dentry, ulong *mnt, int *stop)
{
	ulong root, mount, parent;

	if (!*mnt)
		return FALSE;
	if (!th_read_ulong(*mnt + pa_off.mnt_root, &root,
			   "vfsmount.mnt_root")) {
		th_damaged("vfsmount", *mnt, "mnt_root cannot be read");
		*mnt = 0;
		return FALSE;
	}
	if (root != *dentry)
		return FALSE;
	mount = *mnt - pa_off.m_mnt;
	if (!th_read_ulong(mount + pa_off.m_parent, &parent,
			   "mount.mnt_parent") || parent == mount)
		goto top;
	/* a mount's parent and mountpoint: slab objects (alloc_vfsmnt(),
	 * the dentry it is mounted on) */
	if (!th_check_ptr("mount", mount, parent, TH_M(TH_R_DIRECT),
			  "mnt_parent") ||
	    !th_read_ulong(mount + pa_off.m_mountpoint, dentry,
			   "mount.mnt_mountpoint") ||
	    !th_check_ptr("mount", mount, *dentry, TH_M(TH_R_DIRECT),
			  "mnt_mountpoint")) {
		th_damaged("mount", mount, "its mountpoint cannot be followed");
		goto top;
	}
	*mnt = parent + pa_off.m_mnt;
	return TRUE;
top:
	*stop = TRUE;
	return TRUE;
}

/* prepend_path(): from DENTRY up, across the mounts above MNT (0: none),
 * into BUF as "/a/b/c". */
static int pa_walk(ulong dentry, ulong mnt, char *buf, size_t len)
{
	struct pa_names p = { NULL, 0, FALSE };
	ulong parent;
	size_t o = 0;
	int i, stop = FALSE;

	pa_off_fill();
	buf[0] = '\0';
	if (!dentry || pa_off.d_parent < 0 || pa_off.d_name < 0 ||
	    pa_off.qstr_name < 0 || len < 2 ||
	    !(p.name = malloc(PA_MAX_DEPTH * sizeof(*p.name))))
		return FALSE;
	for (i = 0; i < PA_MAX_DEPTH && !stop; i++) {
		if (pa_cross(&dentry, &mnt, &stop))
			continue;
		if (!(parent = pa_parent(dentry))) {
			p.bad = TRUE;
			break;
		}
		if (parent == dentry)
			break;
		pa_name(&p, dentry);
		dentry = parent;
	}
	if (i == PA_MAX_DEPTH) {
		/* PATH_MAX bounds what d_path() gives; a chain this long is
		 * a cycle */
		th_damaged("dentry", dentry, "more than %d levels up to the "
			   "root", PA_MAX_DEPTH);
		p.bad = TRUE;
	}
	for (i = p.n - 1; i >= 0 && o + 1 < len; i--)
		o += snprintf(buf + o, len - o, "/%s", p.name[i]);
	if (!p.n)
		snprintf(buf, len, "/");
	free(p.name);
	return !p.bad && o < len;
}

/**
 * th_dentry_path - a dentry's path from the root of its file system
 * @dentry: struct dentry
 * @buf: the path ("?" for a part that could not be read)
 * @len: room in @buf
 *
 * Return: FALSE when a part of the path could not be read.
 */
int th_dentry_path(ulong dentry, char *buf, size_t len)
{
	return pa_walk(dentry, 0, buf, len);
}

/**
 * th_inode_path - the path of an inode's first dentry
 * @inode: struct inode
 * @buf: the path from the root of its file system
 * @len: room in @buf
 * @sid: its super_block.s_id (the device or file system name), or NULL
 * @slen: room in @sid
 *
 * Return: FALSE when the inode has no dentry or a part of the path could
 * not be read.
 */
int th_inode_path(ulong inode, char *buf, size_t len, char *sid,
		  size_t slen)
{
	ulong first = 0, sb = 0, dentry, back;

	pa_off_fill();
	buf[0] = '\0';
	if (pa_off.i_sb >= 0 && th_read_ulong(inode + pa_off.i_sb, &sb,
					      "inode.i_sb"))
		th_check_ptr("inode", inode, sb, TH_M_DATA, "i_sb");
	if (sid && slen) {
		sid[0] = '\0';
		/* s_id: a device or file system name (sget_fc()) */
		if (sb && pa_off.s_id >= 0 &&
		    (!th_read_cstr(sb + pa_off.s_id, sid, slen,
				   "super_block.s_id") || !sid[0] ||
		     !th_printable(sid))) {
			th_damaged("super_block", sb, "s_id is no name");
			sid[0] = '\0';
		}
	}
	if (pa_off.i_dentry < 0 || pa_off.d_alias < 0)
		return FALSE;
	if (!th_read_ulong(inode + pa_off.i_dentry, &first,
			   "inode.i_dentry")) {
		th_damaged("inode", inode, "i_dentry cannot be read");
		return FALSE;
	}
	/* no alias: an unlinked file's inode may have none */
	if (!first)
		return FALSE;
	if (!th_check_ptr("inode", inode, first, TH_M(TH_R_DIRECT),
			  "i_dentry.first"))
		return FALSE;
	/* d_instantiate() links the alias and sets d_inode together; the
	 * dentry is of the inode's super_block */
	dentry = first - pa_off.d_alias;
	if (th_dentry_inode(dentry, &back) && back != inode) {
		th_damaged("inode", inode, "its alias dentry %lx has d_inode "
			   "%lx", dentry, back);
		return FALSE;
	}
	if (sb && pa_sb(dentry) && pa_sb(dentry) != sb) {
		th_damaged("inode", inode, "its alias dentry %lx is of "
			   "super_block %lx, the inode of %lx", dentry,
			   pa_sb(dentry), sb);
		return FALSE;
	}
	return th_dentry_path(dentry, buf, len);
}

/**
 * th_inode_unnamed - an inode without an alias dentry that still has links
 * @inode: struct inode
 * @nlink: its i_nlink
 *
 * d_instantiate() puts a dentry on i_dentry as it sets its d_inode, and
 * only dentry_unlink_inode() takes it off: a dentry in use stays (an
 * unlinked file's is only unhashed), an unused one may be pruned.
 *
 * Return: TRUE when i_dentry is empty and i_nlink is not 0.
 */
int th_inode_unnamed(ulong inode, unsigned int *nlink)
{
	ulong first = 1;

	pa_off_fill();
	*nlink = 0;
	return pa_off.i_dentry >= 0 && pa_off.i_nlink >= 0 &&
	       th_read_ulong(inode + pa_off.i_dentry, &first,
			     "inode.i_dentry") && !first &&
	       th_read_uint(inode + pa_off.i_nlink, nlink, "inode.i_nlink") &&
	       *nlink;
}

/**
 * th_path_str - d_path() of a struct path
 * @path: struct path (its vfsmount and dentry)
 * @buf: the path through the mounts above it
 * @len: room in @buf
 *
 * Return: FALSE when a part of the path could not be read.
 */
int th_path_str(ulong path, char *buf, size_t len)
{
	ulong mnt = 0, dentry = 0;

	pa_off_fill();
	buf[0] = '\0';
	if (pa_off.p_mnt < 0 || pa_off.p_dentry < 0 ||
	    !th_read_ulong(path + pa_off.p_dentry, &dentry, "path.dentry"))
		return FALSE;
	if (pa_off.m_parent < 0 || pa_off.m_mountpoint < 0 ||
	    pa_off.m_mnt < 0 || pa_off.mnt_root < 0 ||
	    !th_read_ulong(path + pa_off.p_mnt, &mnt, "path.mnt"))
		mnt = 0;
	return pa_walk(dentry, mnt, buf, len);
}

/**
 * th_sb_mount_path - where a super block is mounted
 * @sb: struct super_block
 * @buf: the mount point of its first mount ("/" for a mount at the root
 *       of its namespace)
 * @len: room in @buf
 *
 * Return: FALSE when the super block has no mount or its mount point
 * cannot be read.
 */
int th_sb_mount_path(ulong sb, char *buf, size_t len)
{
	ulong first = 0, mount, root;

	pa_off_fill();
	buf[0] = '\0';
	if (pa_off.s_mounts < 0 || pa_off.m_mnt < 0 || pa_off.mnt_root < 0 ||
	    pa_off.m_parent < 0 || pa_off.m_mountpoint < 0 ||
	    !th_read_ulong(sb + pa_off.s_mounts, &first, "super_block.s_mounts"))
		return FALSE;
	if (pa_off.m_instance >= 0) {
		/* the list is empty when it points back at the head */
		if (first == sb + pa_off.s_mounts)
			return FALSE;
		mount = first - pa_off.m_instance;
	} else if (pa_off.m_next_for_sb >= 0) {
		mount = first;
	} else {
		return FALSE;
	}
	if (!mount || !th_kptr(mount) ||
	    !th_read_ulong(mount + pa_off.m_mnt + pa_off.mnt_root, &root,
			   "vfsmount.mnt_root"))
		return FALSE;
	return pa_walk(root, mount + pa_off.m_mnt, buf, len);
}

/**
 * th_inode_size - inode.i_size
 * @inode: struct inode
 * @size: its size
 *
 * Return: FALSE when unreadable.
 */
int th_inode_size(ulong inode, uint64_t *size)
{
	pa_off_fill();
	*size = 0;
	return pa_off.i_size >= 0 &&
		th_read_u64(inode + pa_off.i_size, size, "inode.i_size");
}

/**
 * th_path_size - the size of the file a struct path names
 * @path: struct path
 * @size: its dentry's d_inode->i_size
 *
 * Return: FALSE when it cannot be read (or the dentry is negative).
 */
int th_path_size(ulong path, uint64_t *size)
{
	ulong dentry, inode;

	pa_off_fill();
	*size = 0;
	return pa_off.p_dentry >= 0 &&
		th_read_ulong(path + pa_off.p_dentry, &dentry, "path.dentry") &&
		th_kptr(dentry) && th_dentry_inode(dentry, &inode) &&
		th_kptr(inode) && th_inode_size(inode, size);
}
