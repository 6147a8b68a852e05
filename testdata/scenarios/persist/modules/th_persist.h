/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracehunt scenario "persist": one small module per TH_PERSIST_MOD(x):
 * reading /proc/th_px calls th_px_read() -> th_px_work(), two functions
 * the function tracer of the boot-mapped instance records.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/proc_fs.h>

#define TH_PERSIST_MOD(x)						\
static int th_##x##_count;						\
									\
static noinline int th_##x##_work(int n)				\
{									\
	th_##x##_count += n;						\
	return th_##x##_count;						\
}									\
									\
static noinline ssize_t th_##x##_read(struct file *file,		\
				      char __user *buf, size_t len,	\
				      loff_t *ppos)			\
{									\
	th_##x##_work(1);						\
	return 0;							\
}									\
									\
static const struct proc_ops th_##x##_ops = {				\
	.proc_read = th_##x##_read,					\
};									\
									\
static struct proc_dir_entry *th_##x##_entry;				\
									\
static int __init th_##x##_init(void)					\
{									\
	th_##x##_entry = proc_create("th_" #x, 0444, NULL,		\
				     &th_##x##_ops);			\
	return th_##x##_entry ? 0 : -ENOMEM;				\
}									\
									\
static void __exit th_##x##_exit(void)					\
{									\
	proc_remove(th_##x##_entry);					\
}									\
module_init(th_##x##_init);						\
module_exit(th_##x##_exit);						\
MODULE_LICENSE("GPL");							\
MODULE_DESCRIPTION("tracehunt fixture: a module traced in a persistent buffer")
