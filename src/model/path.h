/*
 * tracehunt: file names from the dump (model/path.c): a dentry's path up
 * to its file system's root, an inode's through its first alias, and a
 * struct path's across the mounts above it, as d_path() prints it; where
 * a super block is mounted.
 */
#ifndef TRACEHUNT_MODEL_PATH_H
#define TRACEHUNT_MODEL_PATH_H

#include "model/model.h"

#pragma GCC visibility push(hidden)

#define TH_PATH_MAX	512

/* The path of DENTRY from the root of its file system ("/" for the root
 * itself) into BUF; FALSE when a name or parent could not be read (BUF
 * then holds "?" where the unreadable part is). */
int th_dentry_path(ulong dentry, char *buf, size_t len);
/* The path of INODE's first dentry (inode.i_dentry) into BUF, and its
 * file system's super_block.s_id into SID when given ("" when
 * unreadable); FALSE when the inode has no dentry or a part of the path
 * is unreadable. */
int th_inode_path(ulong inode, char *buf, size_t len, char *sid,
		  size_t slen);
/* d_path() of the struct path at PATH (vfsmount and dentry): the dentry's
 * path through the mounts above it, up to the namespace's root. */
int th_path_str(ulong path, char *buf, size_t len);
/* TRUE when INODE's i_dentry is empty while its i_nlink (in *NLINK) is
 * not 0: a linked file none of whose dentries is in the dcache. */
int th_inode_unnamed(ulong inode, unsigned int *nlink);
/* The mount point of the first mount of the super block SB (its
 * s_mounts) into BUF, as d_path() would print its root; FALSE when it has
 * none or it cannot be read. */
int th_sb_mount_path(ulong sb, char *buf, size_t len);
/* The size of the file the struct path at PATH names (d_inode->i_size);
 * FALSE when unreadable. */
int th_path_size(ulong path, uint64_t *size);
/* inode.i_size; FALSE when unreadable. */
int th_inode_size(ulong inode, uint64_t *size);

#pragma GCC visibility pop

#endif
