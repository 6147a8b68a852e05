/*
 * tracehunt: the pins of the bpf file system (kernel/bpf/inode.c): every
 * super block of bpf_fs_type (its fs_supers, each on it by s_instances),
 * the dentry tree under each one's s_root, and every inode whose i_op is
 * bpf_prog_iops, bpf_map_iops or bpf_link_iops: bpf_obj_do_pin() made it
 * and its i_private is the program, map or link the pin holds.  What
 * "ls -R /sys/fs/bpf" and bpftool's "KIND show pinned PATH" see, read
 * from the dump: a pin is a holder no process shows, the one an eBPF
 * rootkit's loader leaves when it exits.  Links are pinned since Linux
 * kernel commit 70ed506c3bbc ("bpf: Introduce pinnable bpf_link
 * abstraction") (in v5.7): bpf_link_iops is probed by its symbol.
 */
#include "model/bpf.h"
#include "model/dentry.h"
#include "model/path.h"

#define FS_MAX_SB	1000		/* bpf file systems */
#define FS_MAX_DEPTH	64		/* directories down from s_root */
#define FS_MAX_DENTRIES	100000		/* dentries per file system */
#define FS_MAX_PINS	100000

static struct {
	int filled;
	ulong fs_type;			/* bpf_fs_type */
	ulong iops[TH_BH_NKINDS];	/* by TH_BH_PROG, _LINK, _MAP */
	long fs_supers, s_instances, s_root;
} fs_off;

static void fs_off_fill(void)
{
	if (fs_off.filled)
		return;
	fs_off.filled = 1;
	fs_off.fs_type = th_ksymbol("bpf_fs_type");
	fs_off.iops[TH_BH_PROG] = th_ksymbol("bpf_prog_iops");
	fs_off.iops[TH_BH_MAP] = th_ksymbol("bpf_map_iops");
	fs_off.iops[TH_BH_LINK] = th_ksymbol("bpf_link_iops");
	fs_off.fs_supers = th_member("file_system_type", "fs_supers");
	fs_off.s_instances = th_member("super_block", "s_instances");
	fs_off.s_root = th_member("super_block", "s_root");
}

/**
 * th_bpf_pins_ok - whether the dump has what the bpf file system's pins
 * are read through
 * @why: what it lacks, when it does not
 */
int th_bpf_pins_ok(const char **why)
{
	fs_off_fill();
	*why = NULL;
	if (!fs_off.fs_type)
		*why = "bpf_fs_type (a kernel without the bpf file system)";
	else if (!fs_off.iops[TH_BH_PROG] || !fs_off.iops[TH_BH_MAP])
		*why = "bpf_prog_iops/bpf_map_iops";
	else if (fs_off.fs_supers < 0 || fs_off.s_instances < 0 ||
		 fs_off.s_root < 0)
		*why = "file_system_type.fs_supers/super_block.s_instances";
	return *why == NULL;
}

struct fs_state {
	struct th_bpf_pin *v;
	long n, cap;
	long seen;			/* dentries visited in this fs */
	ulong sb;
	char mnt[TH_PATH_MAX];
	int have_mnt;
};

static int fs_kind(ulong i_op)
{
	int k;

	for (k = 0; k < TH_BH_NKINDS; k++)
		if (i_op && fs_off.iops[k] == i_op)
			return k;
	return -1;
}

static int fs_add(struct fs_state *s, ulong dentry, int kind,
		  const struct th_inode_info *in)
{
	struct th_bpf_pin *p;
	char rel[TH_PATH_MAX];

	if (s->n >= FS_MAX_PINS)
		return FALSE;
	if (s->n == s->cap) {
		long cap = s->cap ? s->cap * 2 : 32;
		void *v = realloc(s->v, cap * sizeof(*s->v));

		if (!v)
			return FALSE;
		s->v = v;
		s->cap = cap;
	}
	p = &s->v[s->n++];
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->obj = in->i_private;
	p->inode = in->inode;
	p->ino = in->ino;
	p->dentry = dentry;
	p->sb = s->sb;
	p->bad_path = !th_dentry_path(dentry, rel, sizeof(rel));
	th_strlcpy(p->fs_path, rel, sizeof(p->fs_path));
	p->have_mount = s->have_mnt;
	th_strlcpy(p->mount, s->mnt, sizeof(p->mount));
	/* the mount point and the path under it, as ls would name it */
	snprintf(p->path, sizeof(p->path), "%s%s",
		 s->have_mnt && strcmp(s->mnt, "/") ? s->mnt : "", rel);
	return TRUE;
}

/* The pins under the directory DIR, DEPTH levels below s_root. */
static void fs_dir(struct fs_state *s, ulong dir, int depth)
{
	struct th_inode_info in;
	struct th_walk w;
	long i;
	int k;

	if (depth > FS_MAX_DEPTH) {
		th_damaged("bpf file system", s->sb, "directories deeper than "
			   "%d", FS_MAX_DEPTH);
		return;
	}
	/* what is left of the file system's bound: a damaged tree cannot
	 * make the walks quadratic */
	th_dentry_children(dir, FS_MAX_DENTRIES - s->seen + 1, &w);
	if (w.err)
		th_damaged("dentry", dir, "its children: %s at %lx", w.err,
			   w.bad);
	for (i = 0; i < w.n; i++) {
		if (++s->seen > FS_MAX_DENTRIES) {
			th_damaged("bpf file system", s->sb, "more than %d "
				   "dentries", FS_MAX_DENTRIES);
			break;
		}
		/* a negative dentry, a readdir cursor: no inode */
		if (!th_dentry_inode_info(w.ent[i], &in) || !in.inode)
			continue;
		if ((k = fs_kind(in.i_op)) >= 0) {
			if (!fs_add(s, w.ent[i], k, &in))
				break;
		} else if ((in.mode & 0170000) == 0040000) {
			fs_dir(s, w.ent[i], depth + 1);
		}
	}
	th_walk_free(&w);
}

/**
 * th_bpf_pins - every pin of every bpf file system
 * @out: the pins, in the order of the super blocks and their dentry
 *       trees (malloc'd)
 *
 * Return: how many; -1 when th_bpf_pins_ok() fails.  A damaged list or
 * tree is reported (th_damaged) and what was read before is returned.
 */
long th_bpf_pins(struct th_bpf_pin **out)
{
	struct fs_state s;
	struct th_walk w;
	const char *why;
	ulong first, root;
	long i;

	*out = NULL;
	if (!th_bpf_pins_ok(&why))
		return -1;
	memset(&s, 0, sizeof(s));
	if (!th_read_ulong(fs_off.fs_type + fs_off.fs_supers, &first,
			   "bpf_fs_type.fs_supers"))
		return -1;
	th_hlist_walk(first, FS_MAX_SB, &w);
	if (w.err)
		th_damaged("bpf_fs_type.fs_supers", w.bad ? w.bad :
			   fs_off.fs_type, "%s", w.err);
	for (i = 0; i < w.n; i++) {
		s.sb = w.ent[i] - fs_off.s_instances;
		s.seen = 0;
		s.have_mnt = th_sb_mount_path(s.sb, s.mnt, sizeof(s.mnt));
		if (!s.have_mnt)
			s.mnt[0] = '\0';
		if (!th_read_ulong(s.sb + fs_off.s_root, &root,
				   "super_block.s_root") || !root)
			continue;
		fs_dir(&s, root, 0);
	}
	th_walk_free(&w);
	*out = s.v;
	return s.n;
}
