/*
 * tracehunt: a small, crash-free x86-64 instruction decoder (see insn.h).
 *
 * Lengths follow the Intel SDM opcode maps for 64-bit mode.  Unknown or
 * invalid encodings are INSN_BAD; the decoder never reads past AVAIL.
 */
#include <stdio.h>
#include <string.h>
#include "insn.h"

/* operand flags per opcode */
#define M	0x01	/* ModRM follows */
#define I8	0x02	/* imm8 */
#define IZ	0x04	/* imm16/32 (operand size) */
#define I16	0x08	/* imm16 */
#define IV	0x10	/* imm16/32/64 (mov r, imm) */
#define MO	0x20	/* moffs: 8 bytes (4 with 67) */
#define X	0x40	/* invalid in 64-bit mode */
#define GRP3	0x80	/* f6/f7: immediate only for /0 and /1 */

static const unsigned char map1[256] = {
	/* 00 */ M, M, M, M, I8, IZ, X, X, M, M, M, M, I8, IZ, X, 0,
	/* 10 */ M, M, M, M, I8, IZ, X, X, M, M, M, M, I8, IZ, X, X,
	/* 20 */ M, M, M, M, I8, IZ, 0, X, M, M, M, M, I8, IZ, 0, X,
	/* 30 */ M, M, M, M, I8, IZ, 0, X, M, M, M, M, I8, IZ, 0, X,
	/* 40 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	/* 50 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	/* 60 */ X, X, X, M, 0, 0, 0, 0, IZ, M | IZ, I8, M | I8, 0, 0, 0, 0,
	/* 70 */ I8, I8, I8, I8, I8, I8, I8, I8, I8, I8, I8, I8, I8, I8, I8, I8,
	/* 80 */ M | I8, M | IZ, X, M | I8, M, M, M, M, M, M, M, M, M, M, M, M,
	/* 90 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, X, 0, 0, 0, 0, 0,
	/* a0 */ MO, MO, MO, MO, 0, 0, 0, 0, I8, IZ, 0, 0, 0, 0, 0, 0,
	/* b0 */ I8, I8, I8, I8, I8, I8, I8, I8, IV, IV, IV, IV, IV, IV, IV, IV,
	/* c0 */ M | I8, M | I8, I16, 0, X, X, M | I8, M | IZ,
		 I16 | I8, 0, I16, 0, 0, I8, X, 0,
	/* d0 */ M, M, M, M, X, X, X, 0, M, M, M, M, M, M, M, M,
	/* e0 */ I8, I8, I8, I8, I8, I8, I8, I8, IZ, IZ, X, I8, 0, 0, 0, 0,
	/* f0 */ 0, 0, 0, 0, 0, 0, M | GRP3, M | GRP3, 0, 0, 0, 0, 0, 0, M, M,
};

static const unsigned char map2[256] = {
	/* 00 */ M, M, M, M, X, 0, 0, 0, 0, 0, X, 0, X, M, 0, M | I8,
	/* 10 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* 20 */ M, M, M, M, X, X, X, X, M, M, M, M, M, M, M, M,
	/* 30 */ 0, 0, 0, 0, 0, 0, X, 0, 0, X, 0, X, X, X, X, X,
	/* 40 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* 50 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* 60 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* 70 */ M | I8, M | I8, M | I8, M | I8, M, M, M, 0,
		 M, M, X, X, M, M, M, M,
	/* 80 */ IZ, IZ, IZ, IZ, IZ, IZ, IZ, IZ, IZ, IZ, IZ, IZ, IZ, IZ, IZ, IZ,
	/* 90 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* a0 */ 0, 0, 0, M, M | I8, M, X, X, 0, 0, 0, M, M | I8, M, M, M,
	/* b0 */ M, M, M, M, M, M, M, M, M, M, M | I8, M, M, M, M, M,
	/* c0 */ M, M, M | I8, M, M | I8, M | I8, M | I8, M,
		 0, 0, 0, 0, 0, 0, 0, 0,
	/* d0 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* e0 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* f0 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
};

static int is_legacy_prefix(unsigned char b)
{
	switch (b) {
	case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64: case 0x65:
	case 0x66: case 0x67: case 0xf0: case 0xf2: case 0xf3:
		return 1;
	}
	return 0;
}

static int bad(struct insn *in)
{
	in->kind = INSN_BAD;
	in->len = 0;
	snprintf(in->text, sizeof(in->text), "(bad)");
	return 0;
}

/* Length of ModRM + SIB + displacement at P, or -1 when truncated. */
static int modrm_len(const unsigned char *p, size_t avail, int pos,
		     int *reg)
{
	unsigned char modrm, mod, rm;
	int n = 1;

	if ((size_t)pos >= avail)
		return -1;
	modrm = p[pos];
	mod = modrm >> 6;
	rm = modrm & 7;
	*reg = (modrm >> 3) & 7;
	if (mod == 3)
		return 1;
	if (rm == 4) {
		unsigned char sib;

		if ((size_t)pos + 1 >= avail)
			return -1;
		sib = p[pos + 1];
		n++;
		if (mod == 0 && (sib & 7) == 5)
			n += 4;
	} else if (mod == 0 && rm == 5) {
		n += 4;		/* RIP-relative disp32 */
	}
	if (mod == 1)
		n += 1;
	else if (mod == 2)
		n += 4;
	return n;
}

static int32_t rd32(const unsigned char *p)
{
	uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 |
		     (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;

	return (int32_t)v;
}

int insn_decode(const unsigned char *p, size_t avail, uint64_t addr,
		struct insn *in)
{
	int pos = 0, opsize16 = 0, addr32 = 0, rex = 0, rexw = 0, rexb = 0;
	int rep = 0, map = 0, flags, len, reg = 0, imm = 0;
	int vex = 0;
	unsigned char op;

	memset(in, 0, sizeof(*in));
	if (!p)
		return bad(in);
	if (avail > INSN_MAX_LEN)
		avail = INSN_MAX_LEN;
	while ((size_t)pos < avail && is_legacy_prefix(p[pos])) {
		if (p[pos] == 0x66)
			opsize16 = 1;
		else if (p[pos] == 0x67)
			addr32 = 1;
		else if (p[pos] == 0xf3)
			rep = 1;
		pos++;
	}
	if ((size_t)pos < avail && (p[pos] & 0xf0) == 0x40) {
		rex = 1;
		rexw = !!(p[pos] & 8);
		rexb = !!(p[pos] & 1);
		pos++;
	}
	if ((size_t)pos >= avail)
		return bad(in);
	op = p[pos++];
	if (op == 0xc4 || op == 0xc5 || op == 0x62) {
		/* VEX (c4: 3 bytes, c5: 2 bytes) and EVEX (62: 4 bytes); in
		 * 64-bit mode these bytes are always the escape. */
		int extra = op == 0xc5 ? 1 : op == 0xc4 ? 2 : 3;

		if (rex || (size_t)pos + extra >= avail)
			return bad(in);
		if (op == 0xc5)
			map = 1;
		else
			map = p[pos] & (op == 0x62 ? 0x07 : 0x1f);
		if (map < 1 || map > 3)
			return bad(in);
		if (op == 0xc4)
			rexw = !!(p[pos + 1] & 0x80);
		pos += extra;
		vex = 1;
		op = p[pos++];
		flags = M | (map == 3 ? I8 : 0);
		if (map == 1)
			flags = (map2[op] & ~(X | IZ)) | M;
	} else if (op == 0x0f) {
		if ((size_t)pos >= avail)
			return bad(in);
		op = p[pos++];
		map = 1;
		if (op == 0x38 || op == 0x3a) {
			map = op == 0x38 ? 2 : 3;
			if ((size_t)pos >= avail)
				return bad(in);
			op = p[pos++];
			flags = M | (map == 3 ? I8 : 0);
		} else {
			flags = map2[op];
		}
	} else {
		flags = map1[op];
	}
	if (flags & X)
		return bad(in);
	if (flags & M) {
		int n = modrm_len(p, avail, pos, &reg);

		if (n < 0)
			return bad(in);
		pos += n;
	}
	if (flags & GRP3)
		imm = reg <= 1 ? (op == 0xf6 ? 1 : (opsize16 ? 2 : 4)) : 0;
	if (flags & I16)
		imm += 2;
	if (flags & I8)
		imm += 1;
	if (flags & IZ)
		imm += (opsize16 && !(map == 0 && (op == 0xe8 || op == 0xe9)) &&
			!(map == 1 && (op & 0xf0) == 0x80)) ? 2 : 4;
	if (flags & IV)
		imm += rexw ? 8 : opsize16 ? 2 : 4;
	if (flags & MO)
		imm += addr32 ? 4 : 8;
	pos += imm;
	len = pos;
	if (len > INSN_MAX_LEN || (size_t)len > avail)
		return bad(in);

	in->len = len;
	in->opcode = op;
	in->map = map;
	in->kind = INSN_OTHER;
	if (vex) {
		snprintf(in->text, sizeof(in->text), "(%d-byte vex insn)", len);
		return len;
	}
	if (map == 0 && op == 0xe8) {
		in->kind = INSN_CALL;
		in->target = addr + len + (int64_t)rd32(p + len - 4);
		snprintf(in->text, sizeof(in->text), "call 0x%llx",
			 (unsigned long long)in->target);
	} else if (map == 0 && (op == 0xe9 || op == 0xeb)) {
		in->kind = INSN_JMP;
		if (op == 0xe9)
			in->target = addr + len + (int64_t)rd32(p + len - 4);
		else
			in->target = addr + len + (int8_t)p[len - 1];
		snprintf(in->text, sizeof(in->text), "jmp 0x%llx",
			 (unsigned long long)in->target);
	} else if (map == 0 && op == 0xcc) {
		in->kind = INSN_INT3;
		snprintf(in->text, sizeof(in->text), "int3");
	} else if ((map == 0 && op == 0x90 && !rexb && !rep) ||
		   (map == 1 && op == 0x1f && reg == 0)) {
		in->kind = INSN_NOP;
		if (len > 1)
			snprintf(in->text, sizeof(in->text), "nop%d", len);
		else
			snprintf(in->text, sizeof(in->text), "nop");
	} else if (map == 1 && op == 0x1e && rep &&
		   (p[len - 1] == 0xfa || p[len - 1] == 0xfb)) {
		/* f3 0f 1e fa: the ModRM byte selects endbr64/endbr32 */
		in->kind = INSN_ENDBR;
		snprintf(in->text, sizeof(in->text), "endbr%s",
			 p[len - 1] == 0xfa ? "64" : "32");
	} else if (map == 0 && (op == 0xc3 || op == 0xc2)) {
		in->kind = INSN_RET;
		snprintf(in->text, sizeof(in->text), "ret");
	} else if (map == 0 && op >= 0x50 && op <= 0x57) {
		static const char *const r[] = { "rax", "rcx", "rdx", "rbx",
						 "rsp", "rbp", "rsi", "rdi" };

		if (rexb)
			snprintf(in->text, sizeof(in->text), "push %%r%d",
				 op - 0x50 + 8);
		else
			snprintf(in->text, sizeof(in->text), "push %%%s",
				 r[op - 0x50]);
	} else if (map == 1 && op == 0x0b) {
		snprintf(in->text, sizeof(in->text), "ud2");
	} else {
		snprintf(in->text, sizeof(in->text), "(%d-byte insn, %s%02x)",
			 len, map == 0 ? "" : map == 1 ? "0f " :
			 map == 2 ? "0f 38 " : "0f 3a ", op);
	}
	return len;
}

int insn_nop_run(const unsigned char *p, size_t avail, int max)
{
	struct insn in;
	int total = 0;

	while (total < max && (size_t)total < avail) {
		if (!insn_decode(p + total, avail - total, 0, &in) ||
		    in.kind != INSN_NOP || total + in.len > max)
			break;
		total += in.len;
	}
	return total;
}

int insn_is_endbr(const unsigned char *p, size_t avail)
{
	static const unsigned char endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };
	/* sealed ENDBR: "osp nopl (%rax)" and "nopl -42(%rax)" */
	static const unsigned char poison1[4] = { 0x66, 0x0f, 0x1f, 0x00 };
	static const unsigned char poison2[4] = { 0x0f, 0x1f, 0x40, 0xd6 };

	if (avail < 4)
		return 0;
	return !memcmp(p, endbr64, 4) || !memcmp(p, poison1, 4) ||
		!memcmp(p, poison2, 4);
}
