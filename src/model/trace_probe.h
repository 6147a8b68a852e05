/*
 * tracehunt: the probe events' common part (model/trace_probe.c): struct
 * trace_probe, trace_probe_event, probe_arg and fetch_type, shared by
 * kprobe events (model/trace_kprobe.c) and the trace printer's kprobe
 * records.
 */
#ifndef TRACEHUNT_MODEL_TRACE_PROBE_H
#define TRACEHUNT_MODEL_TRACE_PROBE_H

#include "model/model.h"

/* FALSE when the dump lacks trace_probe or its arguments' types. */
int th_trace_probe_ok(void);
/* The trace_event_call of the trace_probe TP; 0 when unreadable. */
ulong th_trace_probe_call(ulong tp);
/* The first trace_probe on the trace_probe_event whose call is CALL;
 * 0 when there is none or the dump lacks the types. */
ulong th_trace_probe_of_call(ulong call);
/* trace_probe.nr_args: -1 when unreadable or implausible (over 128). */
int th_trace_probe_nr_args(ulong tp);
/* Argument I's name, fetch command ("comm") or type name into BUF:
 * -1 when the pointer to it is unreadable, 0 when the string is not
 * (BUF may then hold a part of it), 1 when read. */
int th_probe_arg_name(ulong tp, unsigned int i, char *buf, int len);
int th_probe_arg_comm(ulong tp, unsigned int i, char *buf, int len);
int th_probe_arg_type(ulong tp, unsigned int i, char *buf, int len);
/* its fetch_type prints bare hex (3.10's u types) */
int th_probe_arg_hex(ulong tp, unsigned int i);
/* Argument I's offset in the record, count (0 when the member is
 * absent: not an array) and its fetch_type's size (0 without a type). */
void th_probe_arg_layout(ulong tp, unsigned int i, unsigned int *offset,
			 unsigned int *count, unsigned int *size);
struct th_event;
/* TP's arguments, read into E (th_event_probe_args()), against the
 * layout the kernel gave them: each type in probe_fetch_types[], each
 * offset after the one before, each the field the event defined from
 * it; the probe's size.  The number of failed checks (warned). */
int th_trace_probe_check(ulong tp, struct th_event *e);
/* A probe event's hit counter at ADDR: the count, or (PERCPU) the
 * per-CPU pointer read there, summed over the possible CPUs; 0 when
 * unreadable.  WHAT names it in read errors. */
ulong th_probe_nhit(ulong addr, int percpu, const char *what);

#endif
