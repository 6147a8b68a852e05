/*
 * tracehunt: the one JSON writer of the "-j" outputs (render/json.c).
 *
 * Every "-j" document starts with th_json_begin() (the schema version,
 * the extension's version and the command) and ends with th_json_end()
 * (the "warnings" the model raised while it was written, then "}").  The
 * schema of every document is docs/tracehunt-json.schema.json; its
 * version is TH_JSON_SCHEMA, raised when a field changes meaning or goes
 * away (a new field keeps it).
 */
#ifndef TRACEHUNT_RENDER_JSON_H
#define TRACEHUNT_RENDER_JSON_H

#include "model/model.h"

#pragma GCC visibility push(hidden)

#define TH_JSON_SCHEMA	1

/* {"schema": 1, "tracehunt": VERSION, "command": COMMAND, ... and the
 * model's warnings from now on are kept for th_json_end(). */
void th_json_begin(const char *command);
/* , "warnings": [...]} and a newline; warnings print again. */
void th_json_end(void);

/* Keep the model's warnings (th_warn) instead of printing them, until
 * th_json_warnings_stop(); th_json_warnings() writes them as a JSON
 * array and forgets them. */
void th_json_warnings_start(void);
void th_json_warnings_stop(void);
void th_json_warnings(void);

/* Members and values.  th_json_key() writes the separator a member
 * needs ("," after the first of an object) and "KEY": ; the value
 * functions write a value and count it as an element of the enclosing
 * array or object. */
void th_json_key(const char *key);
void th_json_obj(void);			/* { */
void th_json_obj_end(void);		/* } */
void th_json_arr(void);			/* [ */
void th_json_arr_end(void);		/* ] */
void th_json_str(const char *s);
void th_json_strn(const char *s, size_t n);
void th_json_int(long long v);
void th_json_uint(unsigned long long v);
void th_json_addr(ulong addr);		/* "0xffff..." */
void th_json_bool(int v);
void th_json_null(void);
/* A new top-level value (the next line of JSON lines). */
void th_json_line(void);
/* A newline before the next element (one finding per line). */
void th_json_nl(void);

/* "KEY": value in one call */
void th_json_kstr(const char *key, const char *s);
void th_json_kint(const char *key, long long v);
void th_json_kuint(const char *key, unsigned long long v);
void th_json_kaddr(const char *key, ulong addr);
/* KEY: "0x..", or null when ADDR is 0 */
void th_json_kaddr_or_null(const char *key, ulong addr);
void th_json_kbool(const char *key, int v);

/* The owner of the code or data at ADDR: {"kind": "core"|"module"|
 * "HIDDEN"|"unknown"|"none", "module": name|null, "text": as the text
 * output prints it, "vmap": {...}|null} */
void th_json_owner(ulong addr);
/* The same of an owner already found, its TEXT as the output prints it;
 * KIND (e.g. "heap") names what struct th_owner has no kind for, and
 * then module and vmap are null. */
void th_json_owner_is(const struct th_owner *o, const char *kind,
		      const char *text);
/* {"address": "0x..", "symbol": "%pS" text, "owner": ...}, or null when
 * ADDR is 0 */
void th_json_code(ulong addr);

/* String escaping alone: S as a JSON string into FP. */
void th_json_fputs(const char *s, size_t n, FILE *out);

/* The document is buffered: th_json_eol() ends a line of it and writes
 * what is pending; th_json_flush() writes it (th_json_end() does both). */
void th_json_eol(void);
void th_json_flush(void);

#pragma GCC visibility pop

#endif
