/*
 * tracehunt: the model's one reader of struct bpf_map: the maps of map_idr with what bpftool's "map show" prints
 * of them (bpf_map_get_info_by_fd(), kernel/bpf/syscall.c).
 */
#include "model/bpf.h"
#include "model/xarray.h"
#include "model/btf_vmlinux.h"

static struct {
	int filled;
	ulong idr;
	long type, key, value, max, flags, id, name, btf, frozen;
} bm_off;

static void bm_off_fill(void)
{
	if (bm_off.filled)
		return;
	bm_off.filled = 1;
	bm_off.idr = th_ksymbol("map_idr");
	bm_off.type = th_member("bpf_map", "map_type");
	bm_off.key = th_member("bpf_map", "key_size");
	bm_off.value = th_member("bpf_map", "value_size");
	bm_off.max = th_member("bpf_map", "max_entries");
	bm_off.flags = th_member("bpf_map", "map_flags");
	bm_off.id = th_member("bpf_map", "id");
	bm_off.name = th_member("bpf_map", "name");
	bm_off.btf = th_member("bpf_map", "btf");
	bm_off.frozen = th_member("bpf_map", "frozen");
}

int th_bpf_maps_ok(const char **why)
{
	bm_off_fill();
	if (!bm_off.idr) {
		*why = "map_idr (a kernel without CONFIG_BPF_SYSCALL)";
		return FALSE;
	}
	if (bm_off.type < 0 || bm_off.id < 0 || bm_off.key < 0 ||
	    bm_off.value < 0 || bm_off.max < 0) {
		*why = "struct bpf_map in the debuginfo";
		return FALSE;
	}
	return th_xa_ok(why);
}

unsigned int th_bpf_map_id(ulong map)
{
	unsigned int id;

	bm_off_fill();
	if (bm_off.id < 0 || !th_read_uint(map + bm_off.id, &id, "bpf_map.id"))
		return 0;
	return id;
}

static void bm_read(ulong addr, struct th_bpf_map *m)
{
	unsigned char frozen;
	ulong btf;

	memset(m, 0, sizeof(*m));
	m->addr = addr;
	m->frozen = -1;
	if (!th_read_int(addr + bm_off.type, &m->type, "bpf_map.map_type") ||
	    !th_read_uint(addr + bm_off.id, &m->id, "bpf_map.id") ||
	    !th_read_uint(addr + bm_off.key, &m->key_size, "key_size") ||
	    !th_read_uint(addr + bm_off.value, &m->value_size, "value_size") ||
	    !th_read_uint(addr + bm_off.max, &m->max_entries,
			  "max_entries")) {
		m->err = "unreadable bpf_map";
		return;
	}
	if (bm_off.flags >= 0)
		th_read_uint(addr + bm_off.flags, &m->flags, "map_flags");
	if (bm_off.name >= 0)
		th_read_cstr(addr + bm_off.name, m->name, sizeof(m->name),
			     "bpf_map.name");
	if (bm_off.btf >= 0 && th_read_ulong(addr + bm_off.btf, &btf,
					     "bpf_map.btf") && btf)
		m->btf_id = th_bpf_btf_id(btf);
	if (bm_off.frozen >= 0 && th_read(addr + bm_off.frozen, &frozen, 1,
					  "bpf_map.frozen"))
		m->frozen = frozen;
	th_bpf_enum_str("BPF_MAP_TYPE_HASH", "BPF_MAP_TYPE_", m->type,
			m->type_str, sizeof(m->type_str));
}

long th_bpf_maps(struct th_bpf_map **out)
{
	struct th_xa_walk w;
	const char *why;
	long i, n = 0;

	*out = NULL;
	if (!th_bpf_maps_ok(&why))
		return -1;
	th_idr_walk(bm_off.idr, TH_BPF_MAX, &w);
	if (w.err)
		th_damaged("map_idr", w.bad ? w.bad : bm_off.idr, "%s", w.err);
	*out = calloc(w.n ? w.n : 1, sizeof(**out));
	if (!*out) {
		th_xa_free(&w);
		return -1;
	}
	for (i = 0; i < w.n; i++) {
		if (!th_check_ptr("map_idr", bm_off.idr, w.ent[i].entry,
				  TH_M_DATA, "entry"))
			continue;
		bm_read(w.ent[i].entry, &(*out)[n]);
		/* bpf_map_alloc_id(): ids from 1 (idr_alloc_cyclic()) */
		if (!(*out)[n].err && (!(*out)[n].id ||
				       (*out)[n].id != w.ent[i].index))
			th_damaged("bpf_map", w.ent[i].entry, "id %u in "
				   "map_idr slot %lu", (*out)[n].id,
				   w.ent[i].index);
		n++;
	}
	th_xa_free(&w);
	return n;
}
