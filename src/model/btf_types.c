/*
 * tracehunt: debuginfo look-ups answered from the vmlinux file's BTF
 * (btf_types.h), through lib/btf_types.c.
 */
#include "model/btf_types.h"
#include "model/vmlinux_file.h"
#include "btf.h"

/* more types of one name than this: gdb decides */
#define THB_MAX_SAME	8

static struct {
	int state;		/* 0 not tried, 1 ready, -1 none */
	struct bt_btf btf;
	struct bt_names names;
} thb;

static const struct bt_btf *thb_get(void)
{
	const unsigned char *p;
	const char *off;
	size_t len;

	if (thb.state)
		return thb.state > 0 ? &thb.btf : NULL;
	thb.state = -1;
	off = getenv("TRACEHUNT_NOBTF");
	if (off && *off)
		return NULL;
	/* the file crash opened, never the dump: no warning without one,
	 * gdb answers as before */
	p = th_vmlinux_section(".BTF", &len);
	if (!p || bt_open_types(&thb.btf, p, len) < 0)
		return NULL;
	if (bt_names_open(&thb.names, &thb.btf) < 0) {
		bt_close(&thb.btf);
		return NULL;
	}
	thb.state = 1;
	return &thb.btf;
}

/* The type ID stands for: its qualifiers followed, and with TYPEDEFS its
 * typedefs; 0 for a broken chain. */
static uint32_t thb_strip(uint32_t id, int typedefs)
{
	struct bt_type t;
	int n;

	for (n = 0; n < 64; n++) {
		if (!bt_type(&thb.btf, id, &t))
			return 0;
		switch (t.kind) {
		case BT_KIND_TYPEDEF:
			if (!typedefs)
				return id;
			/* fall through */
		case BT_KIND_VOLATILE:
		case BT_KIND_CONST:
		case BT_KIND_RESTRICT:
		case BT_KIND_TYPE_TAG:
			id = t.size_type;
			continue;
		}
		return id;
	}
	return 0;
}

/*
 * The structs and unions SNAME names, as gdb's gdb_get_datatype() finds
 * them: its tags, else what its typedefs stand for.  Their number (ids
 * in IDS); 0 when the BTF has no type of that name at all (the answer:
 * absent); -1 to ask gdb (no BTF, too many of them, a name only of an
 * enum, a declaration, a typedef of another kind of type).
 */
static int thb_types(const char *sname, uint32_t *ids)
{
	struct bt_named nm[THB_MAX_SAME];
	struct bt_type t;
	size_t n, i;

	if (!thb_get())
		return -1;
	n = bt_find_tags(&thb.names, sname, ids, THB_MAX_SAME);
	if (n)
		return n > THB_MAX_SAME ? -1 : (int)n;
	n = bt_find_named(&thb.names, sname, nm, THB_MAX_SAME);
	if (n > THB_MAX_SAME)
		return -1;
	for (i = 0; i < n; i++) {
		if (nm[i].kind != BT_KIND_TYPEDEF ||
		    !(ids[i] = thb_strip(nm[i].id, TRUE)) ||
		    !bt_type(&thb.btf, ids[i], &t) ||
		    (t.kind != BT_KIND_STRUCT && t.kind != BT_KIND_UNION))
			return -1;
	}
	return n;
}

/* gdb's TYPE_CODE_PTR of type ID: a PTR once the qualifiers are skipped
 * (gdb keeps those as flags of the type), a typedef not followed; -1 for
 * a broken chain. */
static long thb_is_ptr(uint32_t id)
{
	struct bt_type t;

	id = thb_strip(id, FALSE);
	if (!id || !bt_type(&thb.btf, id, &t))
		return -1;
	return t.kind == BT_KIND_PTR;
}

/* MEMBER (a path with PATH) of the tag ID: 1 and its offset in *OFF and
 * size in *SIZE (-1: none BTF can give), whether it is a pointer in
 * *PTR; 0 absent; -1 gdb decides (a bitfield, a broken type). */
static int thb_member_of(uint32_t id, const char *member, int path,
			 long *off, long *size, long *ptr)
{
	struct bt_member m;
	int r;

	if (!path && strchr(member, '.'))
		return -1;
	r = bt_member(&thb.btf, id, member, &m);
	if (r <= 0)
		return r;
	if (m.bitfield || m.bit_off % 8 || m.bit_off / 8 > LONG_MAX)
		return -1;
	*off = m.bit_off / 8;
	*size = bt_type_size(&thb.btf, m.type, sizeof(void *));
	*ptr = thb_is_ptr(m.type);
	return 1;
}

enum { THB_OFF, THB_SIZE, THB_PTR };

/* One answer (WANT: THB_*) of every tag SNAME's member, or FALSE (they
 * differ, or one has none). */
static int thb_member_q(const char *sname, const char *mname, int path,
			int want, long *val)
{
	uint32_t ids[THB_MAX_SAME];
	int n = thb_types(sname, ids), i;
	long v = -1;

	if (n < 0)
		return FALSE;
	for (i = 0; i < n; i++) {
		long a[3] = { -1, -1, -1 }, w;
		int r = thb_member_of(ids[i], mname, path, &a[THB_OFF],
				      &a[THB_SIZE], &a[THB_PTR]);

		if (r < 0 || (r && a[want] < 0))
			return FALSE;
		w = r ? a[want] : -1;
		if (i && w != v)
			return FALSE;
		v = w;
	}
	*val = v;
	return TRUE;
}

int th_btf_member(const char *sname, const char *mname, int path,
		  long *val)
{
	return thb_member_q(sname, mname, path, THB_OFF, val);
}

int th_btf_member_size(const char *sname, const char *mname, long *val)
{
	return thb_member_q(sname, mname, FALSE, THB_SIZE, val);
}

int th_btf_member_ptr(const char *sname, const char *mname, long *val)
{
	return thb_member_q(sname, mname, FALSE, THB_PTR, val);
}

/* STRUCT_SIZE() of a typedef of another kind of type (crash gives the
 * size of what it stands for): every type SNAME names a typedef of one
 * size; FALSE otherwise. */
static int thb_typedef_size(const char *sname, long *val)
{
	struct bt_named nm[THB_MAX_SAME];
	uint32_t tag;
	size_t n, i;
	int64_t size = -1, sz;

	if (!thb_get() || bt_find_tags(&thb.names, sname, &tag, 1))
		return FALSE;
	n = bt_find_named(&thb.names, sname, nm, THB_MAX_SAME);
	if (!n || n > THB_MAX_SAME)
		return FALSE;
	for (i = 0; i < n; i++) {
		if (nm[i].kind != BT_KIND_TYPEDEF)
			return FALSE;
		sz = bt_type_size(&thb.btf, nm[i].id, sizeof(void *));
		if (sz <= 0 || (i && sz != size))
			return FALSE;
		size = sz;
	}
	*val = size;
	return TRUE;
}

int th_btf_size(const char *sname, long *val)
{
	uint32_t ids[THB_MAX_SAME];
	int n = thb_types(sname, ids), i;
	long v = -1;

	if (n < 0)
		return thb_typedef_size(sname, val);
	for (i = 0; i < n; i++) {
		struct bt_type t;

		if (!bt_type(&thb.btf, ids[i], &t) ||
		    (i && (long)t.size_type != v))
			return FALSE;
		v = t.size_type;
	}
	*val = v;
	return TRUE;
}

/* Enum ID and enum OTHER have the same enumerators (BTF's dedup may
 * leave two copies of one enum): TRUE; FALSE when they differ or a value
 * cannot be told. */
static int thb_enum_same(uint32_t id, uint32_t other)
{
	struct bt_type a, b;
	uint32_t i;

	if (!bt_type(&thb.btf, id, &a) || !bt_type(&thb.btf, other, &b) ||
	    a.vlen != b.vlen)
		return FALSE;
	for (i = 0; i < a.vlen; i++) {
		const char *na, *nb;
		int64_t va, vb;

		if (bt_enumerator(&thb.btf, id, i, &na, &va) != 1 ||
		    bt_enumerator(&thb.btf, other, i, &nb, &vb) != 1 ||
		    strcmp(na, nb) || va != vb)
			return FALSE;
	}
	return TRUE;
}

int th_btf_enum(const char *name,
		void (*each)(const char *ename, long val, void *arg),
		void *arg)
{
	struct bt_enumerator_ref refs[THB_MAX_SAME];
	struct bt_type t;
	size_t n, i;

	if (!thb_get())
		return 0;
	n = bt_find_enumerators(&thb.names, name, refs, THB_MAX_SAME);
	if (!n)
		return -1;
	if (n > THB_MAX_SAME || !bt_type(&thb.btf, refs[0].id, &t))
		return 0;
	for (i = 1; i < n; i++)
		if (!thb_enum_same(refs[0].id, refs[i].id))
			return 0;
	/* every value known before the first is given */
	for (i = 0; i < t.vlen; i++) {
		const char *en;
		int64_t v;

		if (bt_enumerator(&thb.btf, refs[0].id, i, &en, &v) != 1)
			return 0;
	}
	for (i = 0; i < t.vlen; i++) {
		const char *en;
		int64_t v;

		bt_enumerator(&thb.btf, refs[0].id, i, &en, &v);
		each(en, (long)v, arg);
	}
	return 1;
}
