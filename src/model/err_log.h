/*
 * tracehunt: the model's reader of error_log entries (err_log.c).
 */
#ifndef TRACEHUNT_ERR_LOG_H
#define TRACEHUNT_ERR_LOG_H

#include "model/model.h"

/* struct tracing_log_err with its err_info and error text */
struct th_err_entry {
	uint64_t ts;
	unsigned pos;
	char loc[160];
	char text[256];
	char cmd[4096];
};
int th_err_log_each(struct th_tr *tr,
		    void (*fn)(const struct th_err_entry *, void *), void *arg);
int th_err_log_known(void);

#endif
