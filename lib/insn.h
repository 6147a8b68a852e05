/*
 * tracehunt: a small, crash-free x86-64 instruction decoder.
 *
 * It finds the length of any instruction (prefixes, REX, VEX/EVEX, ModRM,
 * SIB, displacement, immediate) and names the few that matter at a
 * function's entry: the NOPs ftrace writes, call/jmp rel32, jmp rel8,
 * int3, endbr64 and its sealed form.  It never reads beyond AVAIL bytes.
 */
#ifndef TRACEHUNT_INSN_H
#define TRACEHUNT_INSN_H

#include <stddef.h>
#include <stdint.h>

#define INSN_MAX_LEN	15

enum insn_kind {
	INSN_BAD = 0,		/* truncated, too long, or invalid in 64-bit */
	INSN_NOP,		/* 90, 66 90, 0f 1f /0 with any prefixes */
	INSN_CALL,		/* e8 rel32 */
	INSN_JMP,		/* e9 rel32, eb rel8 */
	INSN_INT3,		/* cc */
	INSN_ENDBR,		/* f3 0f 1e fa / fb */
	INSN_RET,		/* c3, c2 imm16 */
	INSN_OTHER,		/* any other instruction of known length */
};

struct insn {
	enum insn_kind kind;
	int len;		/* 0 when BAD */
	uint64_t target;	/* CALL/JMP: the absolute destination */
	unsigned char opcode;	/* last opcode byte */
	int map;		/* 0: one-byte, 1: 0f, 2: 0f 38, 3: 0f 3a */
	char text[48];		/* "call 0xffffffff81076660", "nop", ... */
};

/* Decode one instruction at P (at most AVAIL bytes) that lives at ADDR.
 * Returns the length, or 0 with kind INSN_BAD. */
int insn_decode(const unsigned char *p, size_t avail, uint64_t addr,
		struct insn *in);

/* Total length of the run of NOP instructions at P (0 when the first
 * instruction is not a NOP); stops at MAX bytes. */
int insn_nop_run(const unsigned char *p, size_t avail, int max);

/* The 4-byte instruction before a function's ftrace site on IBT kernels:
 * endbr64, or the NOP it is sealed into. */
int insn_is_endbr(const unsigned char *p, size_t avail);

/*
 * The data addresses code at ADDR (AVAIL bytes) loads into a register:
 * "lea disp32(%rip), r64" and "mov $simm32, r64" (the kernel's code
 * model sign-extends 32-bit absolute addresses), found by walking the
 * instructions from the start.  Up to MAX addresses go to OUT; returns
 * how many were found (the walk stops at the first undecodable byte).
 */
int insn_data_refs(const unsigned char *p, size_t avail, uint64_t addr,
		   uint64_t *out, int max);

#endif
