/* SPDX-License-Identifier: GPL-2.0 */
/* tracehunt scenario "uprobe": a module's own uprobe consumer on a file
 * and offset given as parameters, registered with uprobe_register() as a
 * SystemTap-style module does: no trace event, no BPF, its handler in the
 * module's text. */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/namei.h>
#include <linux/uprobes.h>
#include <linux/version.h>

static char *path = "/bin/busybox";
module_param(path, charp, 0444);
static unsigned long offset;
module_param(offset, ulong, 0444);

static unsigned long th_uc_hits;
/* the file stays referenced while the consumer is registered */
static struct path th_uc_path;

/* The handler's data argument: Linux kernel commit da09a9e0c3ea
 * ("uprobe: Add data pointer to consumer handlers") (in v6.13). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
static int th_uc_handler(struct uprobe_consumer *self, struct pt_regs *regs,
			 __u64 *data)
#else
static int th_uc_handler(struct uprobe_consumer *self, struct pt_regs *regs)
#endif
{
	th_uc_hits++;
	return 0;
}

static struct uprobe_consumer th_uc = {
	.handler = th_uc_handler,
};

static int th_uc_register(void)
{
	struct inode *inode;
	int err;

	err = kern_path(path, LOOKUP_FOLLOW, &th_uc_path);
	if (err)
		return err;
	inode = d_real_inode(th_uc_path.dentry);
	/* uprobe_register() with a reference counter offset, returning the
	 * uprobe, since v6.12 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	{
		struct uprobe *u = uprobe_register(inode, offset, 0, &th_uc);

		err = IS_ERR(u) ? PTR_ERR(u) : 0;
	}
#else
	err = uprobe_register(inode, offset, &th_uc);
#endif
	if (err)
		path_put(&th_uc_path);
	return err;
}
