/*
 * Unit tests for lib/histsort.c: every heapsort variant sorts; equal
 * keys keep the heapsort's own order (not a stable one), the one the
 * hist files of the fixtures show (tests/test_ftrace_files.py); the
 * secondary key orders each run of equal primary keys.
 */
#include <stdlib.h>
#include "unit.h"
#include "histsort.h"

static int cmp_int(const void *a, const void *b, const void *priv)
{
	int x = *(const int *)a, y = *(const int *)b;

	(void)priv;
	return x > y ? 1 : x < y ? -1 : 0;
}

static void check_sorts(enum hs_algo algo)
{
	static int v[200];
	void *p[200];
	size_t n, i;
	int ok;

	srand(7);
	for (n = 0; n <= 200; n += (n < 12 ? 1 : 17)) {
		for (i = 0; i < n; i++) {
			v[i] = rand() % 10;
			p[i] = &v[i];
		}
		hs_heapsort(p, n, cmp_int, NULL, algo);
		ok = 1;
		for (i = 1; i < n; i++)
			if (*(int *)p[i - 1] > *(int *)p[i])
				ok = 0;
		CHECK(ok);
	}
}

int main(void)
{
	unsigned char keys[6][8] = { { 6 }, { 2 }, { 5 }, { 1 }, { 4 },
				     { 3 } };
	uint64_t sums[6][2] = { { 1 }, { 2 }, { 1 }, { 2 }, { 1 }, { 2 } };
	struct hs_map m = { 8, 2, { HS_CMP_SUM, HS_CMP_U64 }, { 0, 0 },
			    { 0, 1 } };
	struct hs_key k[2] = { { 0, 0 }, { 1, 1 } };
	struct hs_entry e[6];
	size_t i;

	check_sorts(HS_HEAP_CLASSIC);
	check_sorts(HS_HEAP_V6_11);

	/* hitcount ascending, then the key descending within each */
	for (i = 0; i < 6; i++) {
		e[i].key = keys[i];
		e[i].sums = sums[i];
		e[i].priv = NULL;
	}
	hs_sort(&m, e, 6, k, 2, HS_HEAP_CLASSIC);
	CHECK(e[0].key[0] == 6 && e[1].key[0] == 5 && e[2].key[0] == 4);
	CHECK(e[3].key[0] == 3 && e[4].key[0] == 2 && e[5].key[0] == 1);
	return unit_done("histsort");
}
