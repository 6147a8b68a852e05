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

/* What the prefixes and the opcode said. */
struct insn_dec {
	int opsize16, addr32, rex, rexw, rexb, rep;
	int map, vex, reg;
	int flags;
	unsigned char op;
};

/* VEX (c4: 3 bytes, c5: 2 bytes) and EVEX (62: 4 bytes) after the
 * escape byte at *POS - 1; 0 when bad. */
static int insn_vex(const unsigned char *p, size_t avail, int *pos,
		    struct insn_dec *d)
{
	unsigned char esc = d->op;
	int extra = esc == 0xc5 ? 1 : esc == 0xc4 ? 2 : 3;

	if (d->rex || (size_t)*pos + extra >= avail)
		return 0;
	if (esc == 0xc5)
		d->map = 1;
	else
		d->map = p[*pos] & (esc == 0x62 ? 0x07 : 0x1f);
	if (d->map < 1 || d->map > 3)
		return 0;
	if (esc == 0xc4)
		d->rexw = !!(p[*pos + 1] & 0x80);
	*pos += extra;
	d->vex = 1;
	d->op = p[(*pos)++];
	d->flags = M | (d->map == 3 ? I8 : 0);
	if (d->map == 1)
		d->flags = (map2[d->op] & ~(X | IZ)) | M;
	return 1;
}

/* The prefixes and the opcode (one of the maps) from *POS; 0 when
 * bad. */
static int insn_opcode(const unsigned char *p, size_t avail, int *pos,
		       struct insn_dec *d)
{
	while ((size_t)*pos < avail && is_legacy_prefix(p[*pos])) {
		if (p[*pos] == 0x66)
			d->opsize16 = 1;
		else if (p[*pos] == 0x67)
			d->addr32 = 1;
		else if (p[*pos] == 0xf3)
			d->rep = 1;
		(*pos)++;
	}
	if ((size_t)*pos < avail && (p[*pos] & 0xf0) == 0x40) {
		d->rex = 1;
		d->rexw = !!(p[*pos] & 8);
		d->rexb = !!(p[*pos] & 1);
		(*pos)++;
	}
	if ((size_t)*pos >= avail)
		return 0;
	d->op = p[(*pos)++];
	if (d->op == 0xc4 || d->op == 0xc5 || d->op == 0x62) {
		/* in 64-bit mode these bytes are always the escape */
		return insn_vex(p, avail, pos, d);
	} else if (d->op == 0x0f) {
		if ((size_t)*pos >= avail)
			return 0;
		d->op = p[(*pos)++];
		d->map = 1;
		if (d->op == 0x38 || d->op == 0x3a) {
			d->map = d->op == 0x38 ? 2 : 3;
			if ((size_t)*pos >= avail)
				return 0;
			d->op = p[(*pos)++];
			d->flags = M | (d->map == 3 ? I8 : 0);
		} else {
			d->flags = map2[d->op];
		}
	} else {
		d->flags = map1[d->op];
	}
	return 1;
}

/* The immediate's and moffs' bytes. */
static int insn_imm_len(const struct insn_dec *d)
{
	int imm = 0, flags = d->flags, op = d->op;

	if (flags & GRP3)
		imm = d->reg <= 1 ? (op == 0xf6 ? 1 : (d->opsize16 ? 2 : 4)) :
			0;
	if (flags & I16)
		imm += 2;
	if (flags & I8)
		imm += 1;
	if (flags & IZ)
		imm += (d->opsize16 &&
			!(d->map == 0 && (op == 0xe8 || op == 0xe9)) &&
			!(d->map == 1 && (op & 0xf0) == 0x80)) ? 2 : 4;
	if (flags & IV)
		imm += d->rexw ? 8 : d->opsize16 ? 2 : 4;
	if (flags & MO)
		imm += d->addr32 ? 4 : 8;
	return imm;
}

/* in->kind, in->target and in->text of the LEN bytes at P. */
static void insn_describe(const unsigned char *p, int len, uint64_t addr,
			  const struct insn_dec *d, struct insn *in)
{
	static const char *const r[] = { "rax", "rcx", "rdx", "rbx",
					 "rsp", "rbp", "rsi", "rdi" };
	int map = d->map, op = d->op;

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
	} else if ((map == 0 && op == 0x90 && !d->rexb && !d->rep) ||
		   (map == 1 && op == 0x1f && d->reg == 0)) {
		in->kind = INSN_NOP;
		if (len > 1)
			snprintf(in->text, sizeof(in->text), "nop%d", len);
		else
			snprintf(in->text, sizeof(in->text), "nop");
	} else if (map == 1 && op == 0x1e && d->rep &&
		   (p[len - 1] == 0xfa || p[len - 1] == 0xfb)) {
		/* f3 0f 1e fa: the ModRM byte selects endbr64/endbr32 */
		in->kind = INSN_ENDBR;
		snprintf(in->text, sizeof(in->text), "endbr%s",
			 p[len - 1] == 0xfa ? "64" : "32");
	} else if (map == 0 && (op == 0xc3 || op == 0xc2)) {
		in->kind = INSN_RET;
		snprintf(in->text, sizeof(in->text), "ret");
	} else if (map == 0 && op >= 0x50 && op <= 0x57) {
		if (d->rexb)
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
}

int insn_decode(const unsigned char *p, size_t avail, uint64_t addr,
		struct insn *in)
{
	struct insn_dec d;
	int pos = 0, len;

	memset(in, 0, sizeof(*in));
	memset(&d, 0, sizeof(d));
	if (!p)
		return bad(in);
	if (avail > INSN_MAX_LEN)
		avail = INSN_MAX_LEN;
	if (!insn_opcode(p, avail, &pos, &d) || (d.flags & X))
		return bad(in);
	if (d.flags & M) {
		int n = modrm_len(p, avail, pos, &d.reg);

		if (n < 0)
			return bad(in);
		pos += n;
	}
	pos += insn_imm_len(&d);
	len = pos;
	if (len > INSN_MAX_LEN || (size_t)len > avail)
		return bad(in);
	in->len = len;
	in->opcode = d.op;
	in->map = d.map;
	in->kind = INSN_OTHER;
	if (d.vex)
		snprintf(in->text, sizeof(in->text), "(%d-byte vex insn)", len);
	else
		insn_describe(p, len, addr, &d, in);
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

/* One instruction's data reference, if it is "REX.W 8d /r" with a
 * RIP-relative operand or "REX.W c7 /0" to a register; LEN is the
 * instruction's decoded length, so the reference ends the instruction. */
static int insn_data_ref(const unsigned char *p, int len, uint64_t addr,
			 uint64_t *ref)
{
	int i = 0;
	int32_t v;

	while (i < len && (p[i] == 0x66 || p[i] == 0x2e || p[i] == 0x3e))
		i++;
	if (i + 7 != len || (p[i] & 0xf8) != 0x48)
		return 0;
	memcpy(&v, p + i + 3, 4);
	if (p[i + 1] == 0x8d && (p[i + 2] & 0xc7) == 0x05) {
		*ref = addr + (uint64_t)len + (uint64_t)(int64_t)v;
		return 1;
	}
	if (p[i + 1] == 0xc7 && (p[i + 2] & 0xf8) == 0xc0) {
		*ref = (uint64_t)(int64_t)v;
		return 1;
	}
	return 0;
}

int insn_data_refs(const unsigned char *p, size_t avail, uint64_t addr,
		   uint64_t *out, int max)
{
	struct insn in;
	size_t off = 0;
	int n = 0;

	while (off < avail && n < max &&
	       insn_decode(p + off, avail - off, addr + off, &in)) {
		if (insn_data_ref(p + off, in.len, addr + off, &out[n]))
			n++;
		off += in.len;
	}
	return n;
}
