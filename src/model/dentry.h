/*
 * tracehunt: the tracefs dentries of kernels whose events directory is a
 * tree of dentries (before eventfs, v6.6): a child by name, and the
 * i_private its inode hands the file's open(); a directory's children
 * and an inode's operations (the bpf file system's pins, model/bpffs.c).
 * The model's one reader of struct dentry and struct inode
 * (model/dentry.c).
 */
#ifndef TRACEHUNT_MODEL_DENTRY_H
#define TRACEHUNT_MODEL_DENTRY_H

#include "model/model.h"

/* FALSE when the dump lacks the dentry tree's members (d_subdirs and
 * d_child: before v6.8) or inode.i_private. */
int th_dentry_ok(void);
/* The child of the dentry PARENT named NAME, 0 when none (or the tree
 * cannot be read). */
ulong th_dentry_child(ulong parent, const char *name);
/* dentry.d_name's text into BUF; FALSE when unreadable. */
int th_dentry_name(ulong dentry, char *buf, size_t len);
/* d_inode->i_private of DENTRY; 0 when none or unreadable. */
ulong th_dentry_private(ulong dentry);
/* dentry.d_inode into *INODE; FALSE when unreadable. */
int th_dentry_inode(ulong dentry, ulong *inode);

/* What th_dentry_inode_info() reads of a dentry's inode. */
struct th_inode_info {
	ulong inode;			/* 0: a negative dentry */
	ulong i_op, i_private, ino;
	unsigned int mode;
};
/* The children of the directory DIR (at most MAX; either layout of the
 * dentry tree) as struct dentry addresses in W (th_walk_free()). */
void th_dentry_children(ulong dir, long max, struct th_walk *w);
/* DENTRY's inode into IN; FALSE when unreadable. */
int th_dentry_inode_info(ulong dentry, struct th_inode_info *in);

#endif
