/*
 * tracehunt: "ebpf": the BPF programs, links and maps of the dump as text
 * and as JSON (render/ebpf_report.c).
 */
#ifndef TRACEHUNT_RENDER_EBPF_REPORT_H
#define TRACEHUNT_RENDER_EBPF_REPORT_H

#include "model/bpf.h"

#pragma GCC visibility push(hidden)

enum th_ebpf_what { TH_EBPF_PROGS, TH_EBPF_LINKS, TH_EBPF_MAPS };

/* The listing of WHAT, as text or (JSON) one document; a dump without
 * BPF says so in one line (or the document's "error"). */
void th_ebpf_report(enum th_ebpf_what what, int json);
/* Where link L attaches its program, as one line of text (ebpf -l's
 * ATTACHED TO) into BUF. */
char *th_bpf_attach_str(const struct th_bpf_link *l, char *buf, size_t len);

/* Who holds the BPF objects: every process's BPF and perf files and every
 * pin of the bpf file systems, read by th_bpf_held_read() for the
 * command (ebpf, hooks). */
void th_bpf_held_read(void);
/* How many processes' files (-1: unknown) and pins (*NPINS, -1: unknown)
 * hold the program, link or map OBJ of KIND (TH_BH_*), or the perf event
 * FILE (KIND TH_BH_PERF). */
long th_bpf_held_n(int kind, ulong obj, ulong file, long *npins);
/* The same as one line: "[pid P COMM fd N, ..., pin PATH, ...]", "[no
 * process or pin]" when none, "" when unknown. */
char *th_bpf_held_str(int kind, ulong obj, ulong file, char *buf,
		      size_t len);
/* The same as {"processes": [...], "pins": [PATH, ...]}, written to fp
 * (null for what is unknown). */
void th_bpf_held_fjson(int kind, ulong obj, ulong file);
/* What keeps program P loaded, L (NL) being the links: "process", "pin",
 * "link" or "other" (NULL: unknown), and *NO_PROCESS when no process
 * holds it, its links or their perf events. */
const char *th_bpf_prog_held_by(const struct th_bpf_prog *p,
				const struct th_bpf_link *l, long nl,
				int *no_process);

#pragma GCC visibility pop

#endif
