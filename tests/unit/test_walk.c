/* Unit tests for lib/walk.c on constructed memory. */
#include <stdint.h>
#include <stdlib.h>
#include "unit.h"
#include "walk.h"

/* A fake memory of 64 pointer-sized cells at 0x1000, 8 bytes apart. */
#define BASE 0x1000
static uint64_t mem[64];

static int rd(void *ctx, uint64_t addr, uint64_t *val)
{
	(void)ctx;
	if (addr < BASE || addr >= BASE + sizeof(mem) || addr % 8)
		return 0;
	*val = mem[(addr - BASE) / 8];
	return 1;
}

static int valid(void *ctx, uint64_t addr)
{
	(void)ctx;
	return addr >= 0x100;
}

static int rd_self(void *ctx, uint64_t addr, uint64_t *val)
{
	(void)ctx;
	*val = *(uint64_t *)(uintptr_t)addr;
	return 1;
}

#define A(i) ((uint64_t)BASE + 8 * (i))

int main(void)
{
	struct lw_result r;

	/* hlist 1 -> 2 -> 3 -> NULL */
	mem[1] = A(2); mem[2] = A(3); mem[3] = 0;
	CHECK(lw_walk(A(1), 0, 100, rd, valid, NULL, &r) == 0);
	CHECK(r.n == 3 && r.err == NULL);
	CHECK(r.ent[0] == A(1) && r.ent[2] == A(3));
	lw_free(&r);

	/* circular list: head 0 -> 4 -> 5 -> head */
	mem[0] = A(4); mem[4] = A(5); mem[5] = A(0);
	CHECK(lw_walk(mem[0], A(0), 100, rd, valid, NULL, &r) == 0);
	CHECK(r.n == 2 && r.err == NULL);
	lw_free(&r);

	/* cycle not through the head: 6 -> 7 -> 8 -> 7 */
	mem[6] = A(7); mem[7] = A(8); mem[8] = A(7);
	CHECK(lw_walk(A(6), 0, 100, rd, valid, NULL, &r) == 0);
	CHECK(r.n == 3 && r.err && strcmp(r.err, "cycle") == 0);
	CHECK(r.bad == A(7));
	lw_free(&r);

	/* self cycle */
	mem[9] = A(9);
	CHECK(lw_walk(A(9), 0, 100, rd, valid, NULL, &r) == 0);
	CHECK(r.n == 1 && strcmp(r.err, "cycle") == 0);
	lw_free(&r);

	/* garbage pointer */
	mem[10] = 0x42;
	CHECK(lw_walk(A(10), 0, 100, rd, valid, NULL, &r) == 0);
	CHECK(r.n == 1 && strcmp(r.err, "invalid pointer") == 0 &&
	      r.bad == 0x42);
	lw_free(&r);

	/* unreadable pointer */
	mem[11] = 0x900000;
	CHECK(lw_walk(A(11), 0, 100, rd, valid, NULL, &r) == 0);
	CHECK(r.n == 1 && strcmp(r.err, "unreadable entry") == 0);
	lw_free(&r);

	/* bound */
	mem[12] = A(13); mem[13] = A(14); mem[14] = A(15); mem[15] = 0;
	CHECK(lw_walk(A(12), 0, 2, rd, valid, NULL, &r) == 0);
	CHECK(r.n == 2 && strcmp(r.err, "too many entries") == 0);
	lw_free(&r);

	/* next pointer at an offset: nodes 20, 22, 24 with next at +8 */
	mem[21] = A(22); mem[23] = A(24); mem[25] = 0;
	CHECK(lw_walk_at(A(20), 0, 8, 100, rd, valid, NULL, &r) == 0);
	CHECK(r.n == 3 && r.err == NULL && r.ent[2] == A(24));
	lw_free(&r);

	/* a long list forces the visited set to grow; the cycle closes at
	 * its middle */
	{
		static uint64_t big[5000];
		long i;

		for (i = 0; i < 4999; i++)
			big[i] = (uint64_t)(uintptr_t)&big[i + 1];
		big[4999] = (uint64_t)(uintptr_t)&big[2500];
		CHECK(lw_walk((uint64_t)(uintptr_t)&big[0], 0, 100000, rd_self,
			      valid, NULL, &r) == 0);
		CHECK(r.n == 5000 && strcmp(r.err, "cycle") == 0);
		CHECK(r.bad == (uint64_t)(uintptr_t)&big[2500]);
		lw_free(&r);
	}
	/* rbtree nodes of 3 cells (__rb_parent_color, rb_right, rb_left) at
	 * 30..: the tree 4 <- 2 -> 5 under 1 <- 3 -> ..., in order 1 2 ... */
	{
#define N(i) A(30 + 3 * (i))
#define R(i) mem[30 + 3 * (i) + 1]
#define L(i) mem[30 + 3 * (i) + 2]
		int i;

		for (i = 30; i < 64; i++)
			mem[i] = 0;
		/* in order: n1 n0 n3 n2 n4 (n0 root, n2 its right child) */
		L(0) = N(1); R(0) = N(2);
		L(2) = N(3); R(2) = N(4);
		CHECK(lw_rb_walk(N(0), 16, 8, 100, rd, valid, NULL, &r) == 0);
		CHECK(r.n == 5 && r.err == NULL);
		CHECK(r.ent[0] == N(1) && r.ent[1] == N(0) &&
		      r.ent[2] == N(3) && r.ent[3] == N(2) &&
		      r.ent[4] == N(4));
		lw_free(&r);

		/* empty */
		CHECK(lw_rb_walk(0, 16, 8, 100, rd, valid, NULL, &r) == 0);
		CHECK(r.n == 0 && r.err == NULL);
		lw_free(&r);

		/* the bound: two nodes listed */
		CHECK(lw_rb_walk(N(0), 16, 8, 2, rd, valid, NULL, &r) == 0);
		CHECK(r.n == 2 && strcmp(r.err, "too many entries") == 0 &&
		      r.bad == N(3));
		lw_free(&r);

		/* a right child pointing back at the root */
		R(4) = N(0);
		CHECK(lw_rb_walk(N(0), 16, 8, 100, rd, valid, NULL, &r) == 0);
		CHECK(r.n == 5 && strcmp(r.err, "cycle") == 0 &&
		      r.bad == N(0));
		lw_free(&r);

		/* a left child that is no pointer */
		R(4) = 0;
		L(3) = 0x42;
		CHECK(lw_rb_walk(N(0), 16, 8, 100, rd, valid, NULL, &r) == 0);
		CHECK(r.n == 2 && strcmp(r.err, "invalid pointer") == 0 &&
		      r.bad == 0x42);
		lw_free(&r);

		/* a node that cannot be read */
		L(3) = 0x900000;
		CHECK(lw_rb_walk(N(0), 16, 8, 100, rd, valid, NULL, &r) == 0);
		CHECK(r.n == 2 && strcmp(r.err, "unreadable entry") == 0 &&
		      r.bad == 0x900000);
		lw_free(&r);
#undef N
#undef R
#undef L
	}

	/* a chain of left children deeper than any rbtree */
	{
		static uint64_t deep[3 * (LW_RB_MAX_DEPTH + 10)];
		long i;

		for (i = 0; i < LW_RB_MAX_DEPTH + 9; i++)
			deep[3 * i + 2] = (uint64_t)(uintptr_t)&deep[3 * (i + 1)];
		CHECK(lw_rb_walk((uint64_t)(uintptr_t)deep, 16, 8, 100000,
				 rd_self, valid, NULL, &r) == 0);
		CHECK(r.n == 0 && strcmp(r.err, "too deep") == 0);
		lw_free(&r);
		/* as deep as allowed: every node, deepest first */
		deep[3 * (LW_RB_MAX_DEPTH - 1) + 2] = 0;
		CHECK(lw_rb_walk((uint64_t)(uintptr_t)deep, 16, 8, 100000,
				 rd_self, valid, NULL, &r) == 0);
		CHECK(r.n == LW_RB_MAX_DEPTH && r.err == NULL &&
		      r.ent[0] == (uint64_t)(uintptr_t)
		      &deep[3 * (LW_RB_MAX_DEPTH - 1)]);
		lw_free(&r);
	}
	return unit_done("test_walk");
}
