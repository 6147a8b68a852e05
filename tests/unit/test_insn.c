/*
 * Unit tests of lib/insn.c: the instructions found at ftrace call sites,
 * common function-entry instructions, and a fuzz pass that must never read
 * out of bounds (the binary is built with ASan/UBSan).
 */
#include <stdlib.h>
#include "unit.h"
#include "insn.h"

#define DEC(bytes, addr, in) \
	insn_decode((const unsigned char *)(bytes), sizeof(bytes) - 1, \
		    (addr), (in))

static void test_ftrace_nops(void)
{
	struct insn in;

	/* P6 NOP5: what x86_64 kernels write since ideal_nops */
	CHECK(DEC("\x0f\x1f\x44\x00\x00", 0, &in) == 5);
	CHECK(in.kind == INSN_NOP);
	CHECK_STR(in.text, "nop5");
	CHECK(insn_nop_run((const unsigned char *)"\x0f\x1f\x44\x00\x00\x55",
			   6, 5) == 5);
	/* K8 NOP5: 66 66 90 + 66 90 is a run of two NOPs */
	CHECK(DEC("\x66\x66\x90\x66\x90", 0, &in) == 3);
	CHECK(in.kind == INSN_NOP);
	CHECK(insn_nop_run((const unsigned char *)"\x66\x66\x90\x66\x90",
			   5, 5) == 5);
	/* K8 NOP5 atomic */
	CHECK(DEC("\x66\x66\x66\x66\x90", 0, &in) == 5);
	CHECK(in.kind == INSN_NOP);
	/* 66 0f 1f 44 00 00: nopw, 6 bytes: not a 5-byte site */
	CHECK(DEC("\x66\x0f\x1f\x44\x00\x00", 0, &in) == 6);
	CHECK(insn_nop_run((const unsigned char *)"\x66\x0f\x1f\x44\x00\x00",
			   6, 5) == 0);
	/* 41 90 is xchg %eax,%r8d, not a NOP */
	CHECK(DEC("\x41\x90", 0, &in) == 2);
	CHECK(in.kind == INSN_OTHER);
	/* f3 90 is pause */
	CHECK(DEC("\xf3\x90", 0, &in) == 2);
	CHECK(in.kind == INSN_OTHER);
	/* 0f 1f /1 is not the NOP form */
	CHECK(DEC("\x0f\x1f\x48\x00", 0, &in) == 4);
	CHECK(in.kind == INSN_OTHER);
}

static void test_branches(void)
{
	struct insn in;

	/* call rel32 backwards: at ffffffff810a0a60 to ffffffff81076660 */
	CHECK(DEC("\xe8\xfb\x5b\xfd\xff", 0xffffffff810a0a60ULL, &in) == 5);
	CHECK(in.kind == INSN_CALL);
	CHECK(in.target == 0xffffffff810a0a65ULL - 0x2a405ULL);
	/* call forwards into module space */
	CHECK(DEC("\xe8\x00\x10\x00\x00", 0xffffffffc0200000ULL, &in) == 5);
	CHECK(in.target == 0xffffffffc0201005ULL);
	CHECK_STR(in.text, "call 0xffffffffc0201005");
	/* jmp rel32 and rel8 */
	CHECK(DEC("\xe9\x10\x00\x00\x00", 0x1000, &in) == 5);
	CHECK(in.kind == INSN_JMP && in.target == 0x1015);
	CHECK(DEC("\xeb\xfe", 0x2000, &in) == 2);
	CHECK(in.kind == INSN_JMP && in.target == 0x2000);
	/* 66 e8 is still rel32 in 64-bit mode (as the kernel decodes it) */
	CHECK(DEC("\x66\xe8\xff\xff\xff\xff", 0x10, &in) == 6);
	CHECK(in.kind == INSN_CALL && in.target == 0x15);
	/* jcc rel32 */
	CHECK(DEC("\x0f\x84\x00\x00\x00\x00", 0, &in) == 6);
	CHECK(in.kind == INSN_OTHER);
	/* int3, ret, ud2 */
	CHECK(DEC("\xcc", 0, &in) == 1 && in.kind == INSN_INT3);
	CHECK_STR(in.text, "int3");
	CHECK(DEC("\xc3", 0, &in) == 1 && in.kind == INSN_RET);
	CHECK(DEC("\x0f\x0b", 0, &in) == 2);
	CHECK_STR(in.text, "ud2");
}

static void test_entry_insns(void)
{
	struct insn in;

	CHECK(DEC("\xf3\x0f\x1e\xfa", 0, &in) == 4 && in.kind == INSN_ENDBR);
	CHECK_STR(in.text, "endbr64");
	CHECK(insn_is_endbr((const unsigned char *)"\xf3\x0f\x1e\xfa", 4));
	CHECK(insn_is_endbr((const unsigned char *)"\x66\x0f\x1f\x00", 4));
	CHECK(!insn_is_endbr((const unsigned char *)"\xcc\xcc\xcc\xcc", 4));
	CHECK(!insn_is_endbr((const unsigned char *)"\xf3\x0f\x1e", 3));
	CHECK(DEC("\x55", 0, &in) == 1);
	CHECK_STR(in.text, "push %rbp");
	CHECK(DEC("\x41\x57", 0, &in) == 2);
	CHECK_STR(in.text, "push %r15");
	CHECK(DEC("\x48\x89\xe5", 0, &in) == 3);		/* mov %rsp,%rbp */
	CHECK(DEC("\x48\x83\xec\x08", 0, &in) == 4);		/* sub $8,%rsp */
	CHECK(DEC("\x48\x81\xec\x00\x01\x00\x00", 0, &in) == 7);
	CHECK(DEC("\x48\x8b\x05\x00\x00\x00\x00", 0, &in) == 7); /* rip-rel */
	CHECK(DEC("\x8b\x44\x24\x08", 0, &in) == 4);		/* SIB+disp8 */
	CHECK(DEC("\x8b\x04\x25\x00\x00\x00\x00", 0, &in) == 7); /* SIB, no base */
	CHECK(DEC("\x8b\x84\x24\x00\x01\x00\x00", 0, &in) == 7); /* SIB+disp32 */
	CHECK(DEC("\x48\xb8\x01\x02\x03\x04\x05\x06\x07\x08", 0, &in) == 10);
	CHECK(DEC("\xb8\x01\x00\x00\x00", 0, &in) == 5);
	CHECK(DEC("\x66\xb8\x01\x00", 0, &in) == 4);
	CHECK(DEC("\xf6\x40\x10\x01", 0, &in) == 4);		/* test imm8 */
	CHECK(DEC("\xf7\xd8", 0, &in) == 2);			/* neg */
	CHECK(DEC("\xf7\xc0\x01\x00\x00\x00", 0, &in) == 6);	/* test imm32 */
	CHECK(DEC("\x65\x48\x8b\x04\x25\x00\x00\x00\x00", 0, &in) == 9);
	CHECK(DEC("\x48\xa1\x01\x02\x03\x04\x05\x06\x07\x08", 0, &in) == 10);
	CHECK(DEC("\x0f\x3a\x0f\xc1\x08", 0, &in) == 5);	/* palignr */
	CHECK(DEC("\x66\x0f\x38\x00\xc1", 0, &in) == 5);	/* pshufb */
	CHECK(DEC("\xc5\xf9\x6f\xc1", 0, &in) == 4);		/* vmovdqa */
	CHECK(DEC("\xc4\xe3\x79\x0f\xc1\x08", 0, &in) == 6);	/* vpalignr */
	CHECK(DEC("\xc8\x10\x00\x00", 0, &in) == 4);		/* enter */
}

static void test_bad(void)
{
	struct insn in;

	CHECK(insn_decode(NULL, 5, 0, &in) == 0 && in.kind == INSN_BAD);
	CHECK(DEC("\xe8\x00\x00", 0, &in) == 0 && in.kind == INSN_BAD);
	CHECK(DEC("\x0f", 0, &in) == 0);
	CHECK(DEC("\x06", 0, &in) == 0);		/* push %es: invalid */
	CHECK(DEC("\x8b\x44", 0, &in) == 0);		/* SIB missing */
	CHECK(DEC("\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66"
		  "\x66\x90", 0, &in) == 0);		/* > 15 bytes */
	CHECK(insn_decode((const unsigned char *)"\x90", 0, 0, &in) == 0);
}

static void test_fuzz(void)
{
	unsigned char buf[INSN_MAX_LEN];
	struct insn in;
	uint64_t refs[4];
	unsigned int seed = 12345;
	int i, j, ok = 1;

	for (i = 0; i < 200000; i++) {
		size_t avail = 1 + (size_t)(rand_r(&seed) % INSN_MAX_LEN);
		unsigned char *p = malloc(avail);
		int n;

		for (j = 0; j < (int)avail; j++)
			p[j] = (unsigned char)rand_r(&seed);
		/* a heap buffer of exactly AVAIL bytes: ASan catches overruns */
		n = insn_decode(p, avail, 0xffffffff81000000ULL, &in);
		if (n < 0 || n > (int)avail || (n == 0) != (in.kind == INSN_BAD))
			ok = 0;
		insn_nop_run(p, avail, 5);
		insn_is_endbr(p, avail);
		insn_data_refs(p, avail, 0, refs, 4);
		free(p);
	}
	memset(buf, 0x66, sizeof(buf));
	CHECK(insn_decode(buf, sizeof(buf), 0, &in) == 0);
	CHECK(ok);
}

/* The string pointers a function loads: RIP-relative lea and sign-extended
 * mov imm32 (mcmodel=kernel), not stack or register operands. */
static void test_data_refs(void)
{
	static const unsigned char code[] =
		"\x55"				  /* push %rbp */
		"\x48\x8d\x35\x10\x00\x00\x00" /* lea 0x10(%rip),%rsi */
		"\x48\x8d\x74\x24\x08"	  /* lea 0x8(%rsp),%rsi */
		"\x48\xc7\xc6\x00\x10\x60\x82" /* mov $-0x7d9ff000,%rsi */
		"\x48\xc7\x44\x24\x08\x01\x00\x00\x00" /* movq $1,8(%rsp) */
		"\x4c\x8d\x05\xf0\xff\xff\xff" /* lea -0x10(%rip),%r8 */
		"\xe8\x00\x00\x00\x00"	  /* call */
		"\xc3";
	uint64_t refs[4];
	int n = insn_data_refs(code, sizeof(code) - 1, 0x1000, refs, 4);

	CHECK(n == 3);
	CHECK(refs[0] == 0x1000 + 1 + 7 + 0x10);
	CHECK(refs[1] == 0xffffffff82601000ULL);
	CHECK(refs[2] == 0x1000 + 1 + 7 + 5 + 7 + 9 + 7 - 0x10);
	/* MAX bounds what is written */
	CHECK(insn_data_refs(code, sizeof(code) - 1, 0x1000, refs, 1) == 1);
	/* a truncated lea is no reference */
	CHECK(insn_data_refs(code + 1, 5, 0, refs, 4) == 0);
}

int main(void)
{
	test_ftrace_nops();
	test_branches();
	test_entry_insns();
	test_bad();
	test_data_refs();
	test_fuzz();
	return unit_done("test_insn");
}
