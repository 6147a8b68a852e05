/*
 * Unit tests for lib/nameidx.c: ni_find() gives what a scan of the items
 * in order gives (the first of a pair, -1 for a pair none has) for lists
 * with repeated pairs, names that run into each other ("ab","c" and
 * "a","bc"), empty names, items without names, and none at all; and an
 * index without its slots (no memory for them) scans.
 */
#include <stdio.h>
#include <stdlib.h>
#include "unit.h"
#include "nameidx.h"

struct item {
	const char *a, *b;
};

static void names(const void *arg, int i, const char **a, const char **b)
{
	const struct item *it = arg;

	*a = it[i].a;
	*b = it[i].b;
}

static int scan(const struct item *it, int n, const char *a, const char *b)
{
	int i;

	for (i = 0; i < n; i++)
		if (it[i].a && it[i].b && strcmp(it[i].a, a) == 0 &&
		    strcmp(it[i].b, b) == 0)
			return i;
	return -1;
}

static char pool[4000][8];

/* Whether ni_find() in X gives what scan() gives for Q pairs of names
 * drawn from the pool */
static int agrees(const struct ni_index *x, const struct item *it, int n,
		  int q)
{
	int ok = 1;

	while (q--) {
		const char *a = pool[rand() % 4000];
		const char *b = pool[rand() % 4000];

		if (ni_find(x, a, b, names, it) != scan(it, n, a, b))
			ok = 0;
	}
	return ok;
}

int main(void)
{
	static struct item it[2000];
	static const struct item fixed[] = {
		{ "ab", "c" }, { "a", "bc" }, { "", "" }, { "a", "" },
		{ "", "a" }, { NULL, "x" }, { "ab", "c" }, { "sched",
		"sched_switch" },
	};
	struct ni_index x;
	int n, i;

	/* none */
	CHECK(ni_build(&x, 0, names, it));
	CHECK(ni_find(&x, "a", "b", names, it) == -1);
	ni_free(&x);
	CHECK(ni_find(&x, "a", "b", names, it) == -1);
	/* the fixed ones */
	n = (int)(sizeof(fixed) / sizeof(fixed[0]));
	CHECK(ni_build(&x, n, names, fixed));
	for (i = 0; i < n; i++)
		if (fixed[i].a)
			CHECK(ni_find(&x, fixed[i].a, fixed[i].b, names,
				      fixed) == scan(fixed, n, fixed[i].a,
						     fixed[i].b));
	CHECK(ni_find(&x, "ab", "c", names, fixed) == 0);
	CHECK(ni_find(&x, "a", "bc", names, fixed) == 1);
	CHECK(ni_find(&x, "abc", "", names, fixed) == -1);
	CHECK(ni_find(&x, NULL, "x", names, fixed) == -1);
	ni_free(&x);
	/* random lists: names from a few letters, so pairs repeat */
	srand(11);
	for (i = 0; i < 4000; i++) {
		int j, l = rand() % 4;

		for (j = 0; j < l; j++)
			pool[i][j] = (char)('a' + rand() % 3);
		pool[i][l] = 0;
	}
	for (n = 1; n <= 2000; n = n * 3 + 1) {
		for (i = 0; i < n; i++) {
			it[i].a = pool[rand() % 4000];
			it[i].b = pool[rand() % 4000];
		}
		CHECK(ni_build(&x, n, names, it));
		CHECK(agrees(&x, it, n, 3000));
		ni_free(&x);
		/* without its slots (ni_build() without memory): a scan */
		x.n = n;
		CHECK(agrees(&x, it, n, 300));
	}
	return unit_done("nameidx");
}
