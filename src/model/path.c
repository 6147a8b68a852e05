/*
 * tracehunt: the model's one reader of struct dentry, the inode's alias
 * list, struct path and the mounts above one (struct mount, vfsmount):
 * file names as d_path() (fs/d_path.c) builds them, walking d_parent up
 * to a root and crossing each mount to its mountpoint; where a super
 * block is mounted (its s_mounts).
 */
#include "model/path.h"

#define PA_MAX_DEPTH	128	/* components and mount crossings */
#define PA_NAME		256	/* NAME_MAX + 1 */

static struct {
	int filled;
	long d_parent, d_name, qstr_name, d_alias, i_dentry, i_sb, s_id;
	long p_mnt, p_dentry, m_parent, m_mountpoint, m_mnt, mnt_root;
	long s_mounts, m_instance, m_next_for_sb;
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
	/* dentry.d_alias in the union d_u (every member at its start) since
	 * Linux kernel commit 946e51f2bf37 ("move d_rcu from overlapping
	 * d_child to overlapping d_alias") (in v3.19); a member of its own
	 * before */
	pa_off.d_alias = th_member("dentry", "d_alias");
	if (pa_off.d_alias < 0)
		pa_off.d_alias = th_member("dentry", "d_u");
	pa_off.i_dentry = th_member("inode", "i_dentry");
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

/* Read DENTRY's name as names[n]; FALSE when it cannot be read ("?"). */
static int pa_name(struct pa_names *p, ulong dentry)
{
	ulong np;
	char *s = p->name[p->n++];

	if (!th_read_ulong(dentry + pa_off.d_name + pa_off.qstr_name, &np,
			   "dentry.d_name.name") ||
	    !th_read_cstr(np, s, PA_NAME, "dentry.d_name.name") || !s[0] ||
	    !th_printable(s) || strchr(s, '/')) {
		strcpy(s, "?");
		p->bad = TRUE;
		return FALSE;
	}
	return TRUE;
}

/* Whether MNT (a struct vfsmount, 0: no mounts to cross) has DENTRY as
 * its root: then *DENTRY and *MNT become its mountpoint and the mount
 * above, and *STOP is set at the root of the mount tree. */
static int pa_cross(ulong *dentry, ulong *mnt, int *stop)
{
	ulong root, mount, parent;

	if (!*mnt || !th_read_ulong(*mnt + pa_off.mnt_root, &root,
				    "vfsmount.mnt_root") || root != *dentry)
		return FALSE;
	mount = *mnt - pa_off.m_mnt;
	if (!th_read_ulong(mount + pa_off.m_parent, &parent,
			   "mount.mnt_parent") || parent == mount ||
	    !th_read_ulong(mount + pa_off.m_mountpoint, dentry,
			   "mount.mnt_mountpoint")) {
		*stop = TRUE;
		return TRUE;
	}
	*mnt = parent + pa_off.m_mnt;
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
		if (!th_read_ulong(dentry + pa_off.d_parent, &parent,
				   "dentry.d_parent")) {
			p.bad = TRUE;
			break;
		}
		if (parent == dentry)
			break;
		pa_name(&p, dentry);
		dentry = parent;
	}
	if (i == PA_MAX_DEPTH)
		p.bad = TRUE;
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
	ulong first = 0, sb;

	pa_off_fill();
	buf[0] = '\0';
	if (sid && slen) {
		sid[0] = '\0';
		if (pa_off.i_sb >= 0 && pa_off.s_id >= 0 &&
		    th_read_ulong(inode + pa_off.i_sb, &sb, "inode.i_sb"))
			th_read_cstr(sb + pa_off.s_id, sid, slen,
				     "super_block.s_id");
	}
	if (pa_off.i_dentry < 0 || pa_off.d_alias < 0 ||
	    !th_read_ulong(inode + pa_off.i_dentry, &first, "inode.i_dentry")
	    || !first || !th_kptr(first))
		return FALSE;
	return th_dentry_path(first - pa_off.d_alias, buf, len);
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
