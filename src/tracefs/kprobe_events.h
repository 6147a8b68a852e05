/* tracehunt: trace_kprobe access shared with kprobes.c */
#ifndef TRACEHUNT_KPROBE_EVENTS_H
#define TRACEHUNT_KPROBE_EVENTS_H

/* Every struct trace_kprobe in the kernel's order; -1 when the dump has
 * no kprobe events.  *out is malloc'd. */
long th_trace_kprobes(ulong **out);
/* The struct kprobe embedded in a trace_kprobe. */
ulong th_tk_kprobe(ulong tk);
int th_tk_names(ulong tk, char *group, size_t glen, char *name, size_t nlen);
ulong th_tk_nhit(ulong tk);

#endif
