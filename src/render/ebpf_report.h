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

#pragma GCC visibility pop

#endif
