/*
 * tracehunt: BPF programs (bpf_prog.c), links (bpf_link.c) and maps
 * (bpf_map.c) as the kernel's idrs hold them (prog_idr, link_idr,
 * map_idr): what bpftool's "prog show", "link show", "map show" and
 * "perf show" print, read from the dump.
 */
#ifndef TRACEHUNT_MODEL_BPF_H
#define TRACEHUNT_MODEL_BPF_H

#include "model/model.h"

#pragma GCC visibility push(hidden)

#define TH_BPF_MAX	100000		/* objects per idr */
#define TH_BPF_NAME	16		/* BPF_OBJ_NAME_LEN */
#define TH_BPF_MAPS	64		/* map ids kept per program */
#define TH_BPF_HELPERS	32		/* helpers named per program */
#define TH_BPF_MULTI	16		/* places kept per multi link */
#define TH_BPF_PATH	256		/* a pin's path, its mount point */

/* The name of VAL in the enum whose enumerators start with PREFIX (one
 * of them given as PROBE, e.g. "BPF_PROG_TYPE_KPROBE"), without the
 * prefix and in lower case, as libbpf's *_type_str() name them; "" when
 * the dump's enum has no such value. */
void th_bpf_enum_str(const char *probe, const char *prefix, long val,
		     char *buf, size_t len);

/* ----------------------------------------------------------- bpf_prog.c */

struct th_bpf_prog {
	ulong addr;			/* struct bpf_prog */
	ulong aux;			/* struct bpf_prog_aux */
	unsigned int id;
	int type;			/* enum bpf_prog_type */
	char type_str[40];		/* "kprobe", "tracing", ... */
	int expected_attach_type;	/* enum bpf_attach_type */
	char attach_type_str[40];	/* BTF-attached programs only */
	char name[TH_BPF_NAME + 1];
	unsigned char tag[8];
	char tag_hex[17];
	unsigned int len;		/* instructions */
	unsigned int jited_len;		/* bytes of JIT image, 0: not JITed */
	unsigned int pages;
	ulong bpf_func;			/* what runs the program */
	ulong image;			/* aux->ksym.start, else bpf_func */
	char ksym[160];			/* aux->ksym.name: bpf_prog_TAG_NAME */
	char attach_func_name[128];	/* fentry/fexit/...: the target */
	unsigned int attach_btf_id;
	ulong dst_trampoline;
	int have_load_time;
	uint64_t load_time;		/* ns since boot */
	long uid;			/* -1: unknown */
	unsigned int btf_id;		/* 0: none */
	int nmaps;			/* used_map_cnt (ids kept: up to
					   TH_BPF_MAPS) */
	unsigned int map_ids[TH_BPF_MAPS];
	/* the helpers its instructions call (lib/bpfinsn.c), by the name
	 * kallsyms gives the function (map helpers the verifier turned
	 * into the map's own functions appear as those); -1: the
	 * instructions could not be read */
	int nhelpers;
	char helpers[TH_BPF_HELPERS][64];
	const char *err;		/* what could not be read, or NULL */
};

/* FALSE when the dump has no prog_idr or not the types; *WHY then names
 * what it lacks. */
int th_bpf_progs_ok(const char **why);
/* Every program of prog_idr in id order; -1 when th_bpf_progs_ok() fails.
 * *out is malloc'd.  A damaged idr is reported (th_damaged) and what was
 * read before the damage is returned. */
long th_bpf_progs(struct th_bpf_prog **out);
/* A struct bpf_ksym (a program's, a trampoline image's): its start and
 * the name /proc/kallsyms gives it; FALSE when unreadable. */
int th_bpf_ksym(ulong ksym, ulong *start, char *name, size_t len);
/* bpf_address_lookup(): the BPF symbol (program, trampoline, dispatcher)
 * holding ADDR: its start, size and name; FALSE when none. */
int th_bpf_ksym_lookup(ulong addr, ulong *start, ulong *size, char *name,
		       size_t len);
/* prog->aux->id of the struct bpf_prog at PROG; 0 when unreadable. */
unsigned int th_bpf_prog_id(ulong prog);
/* Read one program (P->addr set); FALSE and P->err when unreadable. */
int th_bpf_prog_read(ulong prog, struct th_bpf_prog *p);
/* Whether the jump to TARGET at SITE is a BPF dispatcher's function
 * jumping to the half of its image in use, as bpf_dispatcher_update()
 * writes it before the dispatchers became static calls
 * (model/bpf_dispatcher.c). */
int th_bpf_dispatcher_jump(ulong site, ulong target);

/* ----------------------------------------------------------- bpf_link.c */

enum th_bpf_link_kind { TH_BL_OTHER, TH_BL_RAW_TP, TH_BL_TRACING,
			TH_BL_PERF, TH_BL_KPROBE_MULTI, TH_BL_UPROBE_MULTI };

struct th_bpf_link {
	ulong addr;			/* struct bpf_link */
	unsigned int id;
	/* no struct bpf_link (addr and id 0, type -1, type_str
	 * "perf_event"): a program PERF_EVENT_IOC_SET_BPF put on the perf
	 * event perf_event, kept there by its file perf_file alone, which
	 * the process held_pid (held_comm) has open as fd held_fd (the
	 * first such file: the report lists them all) */
	int no_link;
	ulong held_pid;
	char held_comm[17];
	unsigned int held_fd;
	int type;			/* enum bpf_link_type */
	char type_str[40];
	enum th_bpf_link_kind kind;
	ulong prog;			/* struct bpf_prog */
	unsigned int prog_id;
	/* raw_tracepoint: the tracepoint and the probe BPF put on it */
	ulong tp;
	char tp_name[128];
	ulong tp_probe;			/* bpf_raw_event_map.bpf_func */
	/* tracing: the trampoline, its kallsyms name, the function it is
	 * attached to, the target program (freplace, BPF-to-BPF) */
	int attach_type;
	char attach_type_str[40];
	ulong trampoline;
	uint64_t tramp_key;
	ulong tramp_image;
	char tramp_name[64];		/* its kallsyms name */
	ulong target;			/* the traced function */
	unsigned int tgt_prog_id;
	/* perf_event: kprobe, kretprobe, tracepoint, uprobe, uretprobe */
	ulong perf_event;
	ulong perf_file;		/* the perf event's struct file */
	char perf_type[16];		/* bpftool perf's fd_type */
	/* kprobe: the symbol it was asked; uprobe: the file, as given
	 * (bpftool perf's filename) */
	char perf_func[256];
	ulong perf_offset;		/* into the symbol; into the file */
	ulong perf_addr;		/* kprobe: the probed address */
	ulong perf_tu;			/* uprobe: its struct trace_uprobe */
	/* kprobe_multi and uprobe_multi: how many places, the first
	 * TH_BPF_MULTI (addresses; offsets into the file), whether return
	 * probes; uprobe_multi: its file (d_path()); kprobe_multi: the
	 * ftrace_ops embedded in its fprobe (before v6.14), else 0 */
	unsigned int multi_cnt;
	int multi_ret;
	ulong multi[TH_BPF_MULTI];
	char multi_path[256];
	ulong fprobe_ops;
	const char *err;
};

/* FALSE when neither link_idr nor the perf events processes hold can be
 * read; *WHY then names what the dump lacks. */
int th_bpf_links_ok(const char **why);
/* Every link of link_idr in id order, then every program on a perf event
 * without a link (no_link), once per perf event, in the order of the
 * processes holding them; -1 when th_bpf_links_ok() fails.  *out is
 * malloc'd. */
long th_bpf_links(struct th_bpf_link **out);
/* The struct bpf_link of the uprobe_multi link whose bpf_uprobe holds
 * the uprobe_consumer at UC; 0 when unreadable. */
ulong th_bpf_uprobe_link(ulong uc);

/* ------------------------------------------------------------ bpf_map.c */

struct th_bpf_map {
	ulong addr;			/* struct bpf_map */
	unsigned int id;
	int type;			/* enum bpf_map_type */
	char type_str[40];
	char name[TH_BPF_NAME + 1];
	unsigned int key_size, value_size, max_entries, flags;
	unsigned int btf_id;		/* 0: none */
	int frozen;			/* -1: unknown */
	const char *err;
};

int th_bpf_maps_ok(const char **why);
long th_bpf_maps(struct th_bpf_map **out);
/* The id of the map at MAP; 0 when unreadable. */
unsigned int th_bpf_map_id(ulong map);

/* -------------------------------------------------------- bpf_holders.c */

enum { TH_BH_PROG, TH_BH_LINK, TH_BH_MAP, TH_BH_PERF, TH_BH_NKINDS };

/* One open file of a process that is a BPF program, link or map, or a
 * perf event. */
struct th_bpf_held {
	int kind;			/* TH_BH_* */
	ulong file;			/* struct file */
	ulong obj;			/* its private_data: the object */
	ulong pid;
	char comm[17];
	unsigned int fd;
};

/* FALSE when the dump lacks the types or symbols to read file tables. */
int th_bpf_holders_ok(void);
/* Every such file of every process (one task per file table), in task
 * order; -1 when th_bpf_holders_ok() fails.  *out is malloc'd. */
long th_bpf_holders(struct th_bpf_held **out);
/* file.private_data; 0 when unreadable. */
ulong th_file_private(ulong file);

/* -------------------------------------------------------------- bpffs.c */

/* One pin of a bpf file system: the program, link or map an inode of it
 * holds (what bpftool's "KIND show pinned PATH" finds). */
struct th_bpf_pin {
	int kind;			/* TH_BH_PROG, _LINK or _MAP */
	ulong obj;			/* inode.i_private: the object */
	ulong inode, dentry, sb;
	ulong ino;			/* inode.i_ino (ls -i) */
	char fs_path[TH_BPF_PATH];	/* from the file system's root */
	int have_mount;			/* its mount point was found */
	char mount[TH_BPF_PATH];	/* the first mount's mount point */
	char path[2 * TH_BPF_PATH];	/* mount point and fs_path; fs_path
					   alone without a mount */
	int bad_path;			/* a part of fs_path is unreadable */
};

/* FALSE when the dump has no bpf file system or not the members its
 * pins are found through; *WHY then names what it lacks. */
int th_bpf_pins_ok(const char **why);
/* Every pin of every mounted or unmounted bpf file system; -1 when
 * th_bpf_pins_ok() fails.  *out is malloc'd. */
long th_bpf_pins(struct th_bpf_pin **out);

#pragma GCC visibility pop

#endif
