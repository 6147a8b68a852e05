/* tracehunt: "ftrace dump" (trace_dump.c) */
#ifndef TRACEHUNT_TRACE_DUMP_H
#define TRACEHUNT_TRACE_DUMP_H

void th_ftrace_dump_impl(int argc, char **argv);

#endif
