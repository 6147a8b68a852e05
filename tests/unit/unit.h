/*
 * Minimal unit-test support for the crash-free decoders in lib/.
 * Each test binary ends with one "N passed, N failed" line and exits
 * non-zero on any failure.
 */
#ifndef TRACEHUNT_UNIT_H
#define TRACEHUNT_UNIT_H

#include <stdio.h>
#include <string.h>

static int unit_passed, unit_failed;

#define CHECK(cond) do {						\
	if (cond) {							\
		unit_passed++;						\
	} else {							\
		unit_failed++;						\
		fprintf(stderr, "%s:%d: CHECK failed: %s\n",		\
			__FILE__, __LINE__, #cond);			\
	}								\
} while (0)

#define CHECK_STR(a, b) do {						\
	const char *_a = (a), *_b = (b);				\
	if (_a && _b && strcmp(_a, _b) == 0) {				\
		unit_passed++;						\
	} else {							\
		unit_failed++;						\
		fprintf(stderr, "%s:%d: \"%s\" != \"%s\"\n",		\
			__FILE__, __LINE__, _a ? _a : "(null)",		\
			_b ? _b : "(null)");				\
	}								\
} while (0)

static inline int unit_done(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, unit_passed, unit_failed);
	return unit_failed != 0;
}

#endif
