/*
 * tracehunt: the model's one reader of struct bpf_prog and struct
 * bpf_prog_aux: the programs of prog_idr, with what bpftool's "prog show"
 * prints of them (bpf_prog_get_info_by_fd(), kernel/bpf/syscall.c) and
 * where each is attached when the program says it (attach_func_name,
 * dst_trampoline).
 */
#include "model/bpf.h"
#include "model/xarray.h"
#include "model/btf_vmlinux.h"
#include "bpfinsn.h"

static struct {
	int filled;
	ulong idr;
	long type, eat, len, jited_len, tag, pages, bpf_func, aux;
	long a_id, a_name, a_afn, a_abtf, a_dtramp, a_load, a_user;
	long a_maps, a_nmaps, a_ksym, a_btf;
	long ksym_start, ksym_end, ksym_name, ksym_lnode, user_uid, insnsi;
	ulong call_base;		/* __bpf_call_base */
	ulong kallsyms;			/* LIST_HEAD(bpf_kallsyms) */
} bp_off;

/*
 * bpf_prog_aux.dst_trampoline since Linux kernel commit 3aac1ead5eb6
 * ("bpf: Move prog->aux->linked_prog and trampoline into bpf_link on
 * attach") (in v5.10); "trampoline" before.  aux.ksym (struct bpf_ksym)
 * since Linux kernel commit ecb60d1c6703 ("bpf: Add struct bpf_ksym") (in
 * v5.6); older kernels' kallsyms names are not read.
 */
static void bp_off_fill(void)
{
	if (bp_off.filled)
		return;
	bp_off.filled = 1;
	bp_off.idr = th_ksymbol("prog_idr");
	bp_off.type = th_member("bpf_prog", "type");
	bp_off.eat = th_member("bpf_prog", "expected_attach_type");
	bp_off.len = th_member("bpf_prog", "len");
	bp_off.jited_len = th_member("bpf_prog", "jited_len");
	bp_off.tag = th_member("bpf_prog", "tag");
	bp_off.pages = th_member("bpf_prog", "pages");
	bp_off.bpf_func = th_member("bpf_prog", "bpf_func");
	bp_off.aux = th_member("bpf_prog", "aux");
	/* the instructions follow the struct (a flexible array in an
	 * anonymous union) */
	bp_off.insnsi = th_member("bpf_prog", "insnsi");
	if (bp_off.insnsi < 0)
		bp_off.insnsi = th_size("bpf_prog");
	bp_off.call_base = th_ksymbol("__bpf_call_base");
	bp_off.a_id = th_member("bpf_prog_aux", "id");
	bp_off.a_name = th_member("bpf_prog_aux", "name");
	bp_off.a_afn = th_member("bpf_prog_aux", "attach_func_name");
	bp_off.a_abtf = th_member("bpf_prog_aux", "attach_btf_id");
	bp_off.a_dtramp = th_member("bpf_prog_aux", "dst_trampoline");
	if (bp_off.a_dtramp < 0)
		bp_off.a_dtramp = th_member("bpf_prog_aux", "trampoline");
	bp_off.a_load = th_member("bpf_prog_aux", "load_time");
	bp_off.a_user = th_member("bpf_prog_aux", "user");
	bp_off.a_maps = th_member("bpf_prog_aux", "used_maps");
	bp_off.a_nmaps = th_member("bpf_prog_aux", "used_map_cnt");
	bp_off.a_ksym = th_member("bpf_prog_aux", "ksym");
	bp_off.a_btf = th_member("bpf_prog_aux", "btf");
	bp_off.ksym_start = th_member("bpf_ksym", "start");
	bp_off.ksym_name = th_member("bpf_ksym", "name");
	bp_off.ksym_end = th_member("bpf_ksym", "end");
	bp_off.ksym_lnode = th_member("bpf_ksym", "lnode");
	bp_off.kallsyms = th_ksymbol("bpf_kallsyms");
	bp_off.user_uid = th_member("user_struct", "uid");
}

int th_bpf_progs_ok(const char **why)
{
	bp_off_fill();
	if (!bp_off.idr) {
		*why = "prog_idr (a kernel without CONFIG_BPF_SYSCALL)";
		return FALSE;
	}
	if (bp_off.type < 0 || bp_off.len < 0 || bp_off.tag < 0 ||
	    bp_off.aux < 0 || bp_off.a_id < 0) {
		*why = "struct bpf_prog or bpf_prog_aux in the debuginfo";
		return FALSE;
	}
	return th_xa_ok(why);
}

/* ---------------------------------------------------- enum names --- */

#define BE_MAX	4
#define BE_VALS	256

static struct {
	char probe[48];
	int n;
	struct th_enumv v[BE_VALS];
} be_cache[BE_MAX];

void th_bpf_enum_str(const char *probe, const char *prefix, long val,
		     char *buf, size_t len)
{
	size_t plen = strlen(prefix), i;
	int c, k;

	buf[0] = '\0';
	for (c = 0; c < BE_MAX && be_cache[c].probe[0]; c++)
		if (!strcmp(be_cache[c].probe, probe))
			break;
	if (c == BE_MAX)
		return;
	if (!be_cache[c].probe[0]) {
		th_strlcpy(be_cache[c].probe, probe,
			   sizeof(be_cache[c].probe));
		be_cache[c].n = th_enum_list(probe, be_cache[c].v, BE_VALS);
	}
	for (k = 0; k < be_cache[c].n; k++) {
		const char *n = be_cache[c].v[k].name;

		if (be_cache[c].v[k].val != val || strncmp(n, prefix, plen))
			continue;
		th_strlcpy(buf, n + plen, len);
		for (i = 0; buf[i]; i++)
			if (buf[i] >= 'A' && buf[i] <= 'Z')
				buf[i] += 'a' - 'A';
		return;
	}
}

/* ------------------------------------------------------- programs --- */

static void bp_aux(struct th_bpf_prog *p)
{
	ulong a = p->aux, ptr, maps;
	unsigned int n, i;

	if (!th_read_uint(a + bp_off.a_id, &p->id, "bpf_prog_aux.id"))
		p->err = "unreadable bpf_prog_aux";
	if (bp_off.a_name >= 0)
		th_read_cstr(a + bp_off.a_name, p->name, sizeof(p->name),
			     "bpf_prog_aux.name");
	if (bp_off.a_afn >= 0 &&
	    th_read_ulong(a + bp_off.a_afn, &ptr, "attach_func_name") && ptr)
		th_read_cstr(ptr, p->attach_func_name,
			     sizeof(p->attach_func_name), "attach_func_name");
	if (bp_off.a_abtf >= 0)
		th_read_uint(a + bp_off.a_abtf, &p->attach_btf_id,
			     "bpf_prog_aux.attach_btf_id");
	if (bp_off.a_dtramp >= 0)
		th_read_ulong(a + bp_off.a_dtramp, &p->dst_trampoline,
			      "bpf_prog_aux.dst_trampoline");
	if (bp_off.a_load >= 0)
		p->have_load_time = th_read_u64(a + bp_off.a_load,
						&p->load_time,
						"bpf_prog_aux.load_time");
	if (bp_off.a_user >= 0 && bp_off.user_uid >= 0 &&
	    th_read_ulong(a + bp_off.a_user, &ptr, "bpf_prog_aux.user") &&
	    ptr && th_read_uint(ptr + bp_off.user_uid, &n, "user_struct.uid"))
		p->uid = n;
	if (bp_off.a_btf >= 0 &&
	    th_read_ulong(a + bp_off.a_btf, &ptr, "bpf_prog_aux.btf") && ptr)
		p->btf_id = th_bpf_btf_id(ptr);
	if (bp_off.a_ksym >= 0)
		th_bpf_ksym(a + bp_off.a_ksym, &p->image, p->ksym,
			    sizeof(p->ksym));
	if (bp_off.a_maps < 0 || bp_off.a_nmaps < 0 ||
	    !th_read_uint(a + bp_off.a_nmaps, &n, "used_map_cnt") ||
	    !th_check_count("bpf_prog_aux", a, n, 4096, "used_map_cnt") ||
	    !th_read_ulong(a + bp_off.a_maps, &maps, "used_maps"))
		return;
	p->nmaps = n;
	for (i = 0; i < n && i < TH_BPF_MAPS; i++)
		if (th_read_ulong(maps + i * sizeof(ulong), &ptr, "used_maps[]"))
			p->map_ids[i] = th_bpf_map_id(ptr);
}

int th_bpf_ksym(ulong ksym, ulong *start, char *name, size_t len)
{
	bp_off_fill();
	*start = 0;
	name[0] = '\0';
	if (bp_off.ksym_start < 0 || bp_off.ksym_name < 0)
		return FALSE;
	return th_read_ulong(ksym + bp_off.ksym_start, start,
			     "bpf_ksym.start") &&
		th_read_cstr(ksym + bp_off.ksym_name, name, len,
			     "bpf_ksym.name");
}

/*
 * The kallsyms names of BPF (bpf_address_lookup(): programs, trampolines,
 * dispatchers): the bpf_ksym entries of the bpf_kallsyms list (the same
 * set as the latch tree bpf_ksym_find() searches), read once.
 */
#define BKS_MAX	100000

static struct {
	int loaded;
	long n;
	struct bks { ulong start, end; char *name; } *e;
} bks;

static void bks_load(void)
{
	const char *tag = th_damage_tag("bpf_kallsyms");
	struct th_walk w;
	char name[512];
	long i;

	bks.loaded = 1;
	bp_off_fill();
	if (!bp_off.kallsyms || bp_off.ksym_lnode < 0 || bp_off.ksym_end < 0 ||
	    bp_off.ksym_start < 0 || bp_off.ksym_name < 0)
		goto out;
	th_list_walk(bp_off.kallsyms, BKS_MAX, &w);
	if (w.err)
		th_damaged("bpf_kallsyms", w.bad ? w.bad : bp_off.kallsyms,
			   "%s", w.err);
	bks.e = calloc(w.n ? w.n : 1, sizeof(*bks.e));
	for (i = 0; bks.e && i < w.n; i++) {
		ulong k = w.ent[i] - bp_off.ksym_lnode;
		struct bks *e = &bks.e[bks.n];

		if (!th_bpf_ksym(k, &e->start, name, sizeof(name)) ||
		    !th_read_ulong(k + bp_off.ksym_end, &e->end,
				   "bpf_ksym.end") || e->end <= e->start ||
		    !(e->name = strdup(name)))
			continue;
		bks.n++;
	}
	th_walk_free(&w);
out:
	th_damage_tag(tag);
}

int th_bpf_ksym_lookup(ulong addr, ulong *start, ulong *size, char *name,
		       size_t len)
{
	long i;

	if (!bks.loaded)
		bks_load();
	th_damage_replay("bpf_kallsyms");
	for (i = 0; i < bks.n; i++) {
		if (addr < bks.e[i].start || addr >= bks.e[i].end)
			continue;
		*start = bks.e[i].start;
		*size = bks.e[i].end - bks.e[i].start;
		th_strlcpy(name, bks.e[i].name, len);
		return TRUE;
	}
	return FALSE;
}

unsigned int th_bpf_prog_id(ulong prog)
{
	unsigned int id;
	ulong aux;

	bp_off_fill();
	if (!prog || bp_off.aux < 0 || bp_off.a_id < 0 ||
	    !th_read_ulong(prog + bp_off.aux, &aux, "bpf_prog.aux") ||
	    !th_read_uint(aux + bp_off.a_id, &id, "bpf_prog_aux.id"))
		return 0;
	return id;
}

/* BPF_COMPLEXITY_LIMIT_INSNS: no program has more instructions */
#define BP_MAX_INSNS	1000000

static void bp_helpers(struct th_bpf_prog *p)
{
	int32_t imms[TH_BPF_HELPERS];
	struct th_sym sym;
	uint8_t *buf;
	ulong fn;
	int n, i;

	p->nhelpers = -1;
	if (bp_off.insnsi <= 0 || !bp_off.call_base || !p->len ||
	    p->len > BP_MAX_INSNS)
		return;
	buf = malloc((size_t)p->len * BPFI_SIZE);
	if (!buf)
		return;
	if (!th_read(p->addr + bp_off.insnsi, buf, (long)p->len * BPFI_SIZE,
		     "bpf_prog.insnsi")) {
		free(buf);
		return;
	}
	n = bpfi_helper_calls(buf, p->len, imms, TH_BPF_HELPERS);
	free(buf);
	p->nhelpers = n < TH_BPF_HELPERS ? n : TH_BPF_HELPERS;
	for (i = 0; i < p->nhelpers; i++) {
		fn = bp_off.call_base + (long)imms[i];
		if (th_ksym_lookup(fn, &sym) && !sym.offset)
			th_strlcpy(p->helpers[i], sym.name,
				   sizeof(p->helpers[i]));
		else
			snprintf(p->helpers[i], sizeof(p->helpers[i]),
				 "0x%lx", fn);
	}
}

int th_bpf_prog_read(ulong prog, struct th_bpf_prog *p)
{
	unsigned short pages = 0;
	int i;

	memset(p, 0, sizeof(*p));
	p->addr = prog;
	p->uid = -1;
	p->expected_attach_type = -1;
	bp_off_fill();
	if (!th_read_int(prog + bp_off.type, &p->type, "bpf_prog.type") ||
	    !th_read_uint(prog + bp_off.len, &p->len, "bpf_prog.len") ||
	    !th_read(prog + bp_off.tag, p->tag, sizeof(p->tag),
		     "bpf_prog.tag") ||
	    !th_read_ulong(prog + bp_off.aux, &p->aux, "bpf_prog.aux") ||
	    !th_check_ptr("bpf_prog", prog, p->aux, TH_M_DATA, "aux")) {
		p->err = "unreadable bpf_prog";
		return FALSE;
	}
	if (bp_off.eat >= 0)
		th_read_int(prog + bp_off.eat, &p->expected_attach_type,
			    "bpf_prog.expected_attach_type");
	if (bp_off.jited_len >= 0)
		th_read_uint(prog + bp_off.jited_len, &p->jited_len,
			     "bpf_prog.jited_len");
	if (bp_off.pages >= 0 && th_read(prog + bp_off.pages, &pages,
					 sizeof(pages), "bpf_prog.pages"))
		p->pages = pages;
	if (bp_off.bpf_func >= 0)
		th_read_ulong(prog + bp_off.bpf_func, &p->bpf_func,
			      "bpf_prog.bpf_func");
	for (i = 0; i < 8; i++)
		sprintf(p->tag_hex + 2 * i, "%02x", p->tag[i]);
	th_bpf_enum_str("BPF_PROG_TYPE_KPROBE", "BPF_PROG_TYPE_", p->type,
			p->type_str, sizeof(p->type_str));
	bp_aux(p);
	bp_helpers(p);
	/* expected_attach_type says where a program attaches only for the
	 * BTF-attached kinds (tracing, lsm, ext, struct_ops); elsewhere its
	 * 0 is a default that happens to be BPF_CGROUP_INET_INGRESS */
	if (p->expected_attach_type >= 0 && p->attach_btf_id)
		th_bpf_enum_str("BPF_TRACE_FENTRY", "BPF_",
				p->expected_attach_type, p->attach_type_str,
				sizeof(p->attach_type_str));
	if (!p->image)
		p->image = p->bpf_func;
	return p->err == NULL;
}

long th_bpf_progs(struct th_bpf_prog **out)
{
	struct th_xa_walk w;
	const char *why;
	long i, n = 0;

	*out = NULL;
	if (!th_bpf_progs_ok(&why))
		return -1;
	th_idr_walk(bp_off.idr, TH_BPF_MAX, &w);
	if (w.err)
		th_damaged("prog_idr", w.bad ? w.bad : bp_off.idr, "%s",
			   w.err);
	*out = calloc(w.n ? w.n : 1, sizeof(**out));
	if (!*out) {
		th_xa_free(&w);
		return -1;
	}
	for (i = 0; i < w.n; i++) {
		struct th_bpf_prog *p = &(*out)[n];

		if (!th_check_ptr("prog_idr", bp_off.idr, w.ent[i].entry,
				  TH_M_DATA, "entry"))
			continue;
		th_bpf_prog_read(w.ent[i].entry, p);
		/* bpf_prog_alloc_id(): ids from 1 (idr_alloc_cyclic()) */
		if (!p->err && (!p->id || p->id != w.ent[i].index))
			th_damaged("bpf_prog", p->addr, "id %u in prog_idr "
				   "slot %lu", p->id, w.ent[i].index);
		n++;
	}
	th_xa_free(&w);
	return n;
}
