/*
 * tracehunt: the model's one reader of the saved command lines
 * (cmdlines.c): struct saved_cmdlines_buffer and __trace_find_cmdline().
 */
#ifndef TRACEHUNT_CMDLINES_H
#define TRACEHUNT_CMDLINES_H

#include "model/model.h"

#pragma GCC visibility push(hidden)

/* *savedcmd, read once. */
struct th_savedcmd {
	int state;		/* TH_SAVEDCMD_* */
	ulong addr;		/* struct saved_cmdlines_buffer */
	unsigned int num;	/* cmdline_num */
	ulong to_pid;		/* unsigned map_cmdline_to_pid[num] */
	ulong comms;		/* char saved_cmdlines[num][16] */
	ulong pid_map;		/* unsigned map_pid_to_cmdline[] */
	long pid_max;		/* its entries, PID_MAX_DEFAULT + 1 */
	/* copies of the three arrays, read whole once (NULL: each look-up
	 * reads the dump) */
	unsigned int *to_pid_copy, *pid_map_copy;
	char *comms_copy;
};
enum { TH_SAVEDCMD_OK, TH_SAVEDCMD_NONE, TH_SAVEDCMD_UNREADABLE };

/* The saved cmdlines: check ->state (NONE: no savedcmd in this dump). */
const struct th_savedcmd *th_savedcmd(void);
/* map_cmdline_to_pid[], cmdline_num entries (saved_cmdlines_start()
 * walks it): a malloc'd copy the caller frees; NULL when it cannot be
 * read. */
unsigned int *th_savedcmd_slots(const struct th_savedcmd *c);
/* __trace_find_cmdline(): "<idle>" for 0, "<XXX>", "<...>" when not
 * saved; COMM holds TASK_COMM_LEN bytes. */
void th_savedcmd_find(const struct th_savedcmd *c, int pid, char *comm);
/* The saved cmdlines' warnings again in this command when an earlier one
 * read them: the names of a trace's tasks come from caches that outlive a
 * command (here, and trace_line.c's columns), so a later trace names them
 * without reading the maps again.  Nothing when they were sound. */
void th_savedcmd_rewarn(void);
/* th_savedcmd_find() through a cache of the answers (the same few pids
 * name millions of entries). */
void th_find_cmdline(int pid, char *comm);

#pragma GCC visibility pop

#endif
