/*
 * tracehunt: the "module" findings of "hooks": one per module the dump
 * knows that is not on the kernel's module list.  Such a module unlinked
 * itself (list_del(&THIS_MODULE->list)): lsmod, /proc/modules and crash's
 * "mod" do not show it, and what it hooks is HIDDEN in the other findings;
 * this one names it even when it hooks nothing hooks can see (a table it
 * patched, a thread it started).  Always HIDDEN.
 */
#include "audit/hooks_priv.h"

void hk_modules(void)
{
	struct th_module *m;
	int n = th_modules(&m), i;

	for (i = 0; i < n; i++) {
		struct hk_finding *f;

		if (m[i].flags & TH_MOD_LISTED)
			continue;
		f = hk_new("module");
		f->target = m[i].addr;
		snprintf(f->target_str, sizeof(f->target_str), "module %s",
			 m[i].name);
		snprintf(f->handler_str, sizeof(f->handler_str), "-");
		th_owner_of(m[i].addr, &f->owner);
		th_owner_str(&f->owner, f->owner_str, sizeof(f->owner_str));
		f->verdict = HK_HIDDEN;
		snprintf(f->why, sizeof(f->why), "struct module %lx is not on "
			 "the module list: %s", m[i].addr,
			 (m[i].flags & TH_MOD_TREE) ? "the module address tree "
			 "still holds it" : "found in its own memory (no module "
			 "tree before v4.2: nothing else in the kernel knows "
			 "it)");
	}
}
