/*
 * tracehunt: types.c's debuginfo look-ups (a member's offset, size or
 * pointerness, a struct's size, an enum's enumerators) answered from the
 * BTF of the vmlinux file crash opened, when it has one.  gdb finds a
 * struct tag or an enumerator by expanding the compile unit that defines
 * it, and one the kernel lacks by scanning every unit (10-60 ms each on a
 * distro vmlinux: most of a first command's time); the file's .BTF
 * section holds the same types, made from the same DWARF by pahole when
 * the kernel was built, indexed here in some 10 ms.  A name is looked up
 * as gdb_get_datatype() looks it up: a struct or union tag, else a
 * typedef; a name the BTF has no type of is absent.  Each answer is the
 * one gdb gives, or none: a name BTF has several differing types for, a
 * declaration or enum tag alone, a bitfield, an enumerator value BTF
 * cannot tell for certain are left to gdb.  TRACEHUNT_NOBTF=1 leaves them
 * all to gdb (bench); TRACEHUNT_BTFCHECK=FILE asks gdb as well and logs
 * both answers (every test session: tests/test_btftypes.py).  Not the
 * dump's BTF (btf_vmlinux.c): damage there must not move an offset.
 */
#ifndef TRACEHUNT_MODEL_BTF_TYPES_H
#define TRACEHUNT_MODEL_BTF_TYPES_H

#include "model/model.h"

#pragma GCC visibility push(hidden)

/* Each returns TRUE and *VAL when the BTF answers, FALSE to ask gdb. */

/* MEMBER_OFFSET(SNAME, MNAME), or with PATH ANON_MEMBER_OFFSET(SNAME,
 * "a.b.c"): -1 when absent. */
int th_btf_member(const char *sname, const char *mname, int path,
		  long *val);
/* MEMBER_SIZE(SNAME, MNAME): -1 when absent. */
int th_btf_member_size(const char *sname, const char *mname, long *val);
/* MEMBER_TYPE(SNAME, MNAME) == TYPE_CODE_PTR: 1 a pointer (qualifiers
 * skipped, not a typedef: gdb's type code of the member's own type), 0
 * another type, -1 absent. */
int th_btf_member_ptr(const char *sname, const char *mname, long *val);
/* STRUCT_SIZE(SNAME) of a struct or union tag: -1 when absent. */
int th_btf_size(const char *sname, long *val);
/*
 * The enum the enumerator NAME belongs to: EACH called with every
 * enumerator of it in declaration order, then 1; -1 when no enum has an
 * enumerator NAME; 0 to ask gdb.
 */
int th_btf_enum(const char *name,
		void (*each)(const char *ename, long val, void *arg),
		void *arg);

#pragma GCC visibility pop

#endif
