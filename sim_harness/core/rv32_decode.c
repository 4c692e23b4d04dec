/* rv32_decode.c - one instruction into a compact rv32_decoded: a 32-bit
 * word (rv32_decode) or a 16-bit RVC halfword (rv32_decode16).
 *
 * Everything the execute loop would otherwise recompute per instruction is
 * settled here once: the operation, the immediate in its final sign-extended
 * form, shift amounts, and rd = x0 redirected to a sink register so that the
 * loop never tests for x0.  Encodings the core does not implement (including
 * reserved fields of the ones it does) decode to OP_ILLEGAL. */
#include "core/rv32_impl.h"

static int32_t imm_i(uint32_t i) { return (int32_t)i >> 20; }
static int32_t imm_s(uint32_t i) { return ((int32_t)i >> 25) * 32 | (int32_t)(i >> 7 & 0x1f); }
static int32_t imm_b(uint32_t i)
{
    return -(int32_t)(i >> 31) * 4096 | (int32_t)((i >> 7 & 1) << 11) | (int32_t)((i >> 25 & 0x3f) << 5) |
           (int32_t)((i >> 8 & 0xf) << 1);
}
static int32_t imm_j(uint32_t i)
{
    return -(int32_t)(i >> 31) * (1 << 20) | (int32_t)(i & 0xff000) | (int32_t)((i >> 20 & 1) << 11) |
           (int32_t)((i >> 21 & 0x3ff) << 1);
}

static void decode_system(uint32_t i, uint32_t f3, rv32_decoded *d)
{
    d->imm = (int32_t)(i >> 20); /* CSR number */
    switch (f3) {
    case 0:
        if (i == 0x00000073) d->op = OP_ECALL;
        else if (i == 0x00100073) d->op = OP_EBREAK;
        else if (i == 0x30200073) d->op = OP_MRET;
        else if (i == 0x10500073) d->op = OP_WFI;
        break;
    case 1: d->op = OP_CSRRW; break;
    case 2: d->op = OP_CSRRS; break;
    case 3: d->op = OP_CSRRC; break;
    case 5: d->op = OP_CSRRWI; break;
    case 6: d->op = OP_CSRRSI; break;
    case 7: d->op = OP_CSRRCI; break;
    }
}

rv32_decoded rv32_decode(uint32_t i)
{
    uint8_t rd = (uint8_t)(i >> 7 & 31);
    rv32_decoded d = {OP_ILLEGAL, rd ? rd : RD_SINK, (uint8_t)(i >> 15 & 31), (uint8_t)(i >> 20 & 31), 0};
    uint32_t f3 = i >> 12 & 7, f7 = i >> 25;
    switch (i & 0x7f) {
    case 0x37:
        d.op = OP_LUI;
        d.imm = (int32_t)(i & 0xfffff000);
        break;
    case 0x17:
        d.op = OP_AUIPC;
        d.imm = (int32_t)(i & 0xfffff000);
        break;
    case 0x6f:
        d.op = OP_JAL;
        d.imm = imm_j(i);
        break;
    case 0x67:
        if (f3 == 0) {
            d.op = OP_JALR;
            d.imm = imm_i(i);
        }
        break;
    case 0x63: {
        static const uint8_t ops[8] = {OP_BEQ, OP_BNE, OP_ILLEGAL, OP_ILLEGAL, OP_BLT, OP_BGE, OP_BLTU, OP_BGEU};
        d.op = ops[f3];
        d.imm = imm_b(i);
        break;
    }
    case 0x03: {
        static const uint8_t ops[8] = {OP_LB, OP_LH, OP_LW, OP_ILLEGAL, OP_LBU, OP_LHU, OP_ILLEGAL, OP_ILLEGAL};
        d.op = ops[f3];
        d.imm = imm_i(i);
        break;
    }
    case 0x23: {
        static const uint8_t ops[8] = {OP_SB, OP_SH, OP_SW, OP_ILLEGAL, OP_ILLEGAL, OP_ILLEGAL, OP_ILLEGAL, OP_ILLEGAL};
        d.op = ops[f3];
        d.imm = imm_s(i);
        break;
    }
    case 0x13: {
        static const uint8_t ops[8] = {OP_ADDI, OP_ILLEGAL, OP_SLTI, OP_SLTIU, OP_XORI, OP_ILLEGAL, OP_ORI, OP_ANDI};
        d.op = ops[f3];
        d.imm = imm_i(i);
        if (f3 == 1 && f7 == 0) d.op = OP_SLLI;
        else if (f3 == 5 && f7 == 0) d.op = OP_SRLI;
        else if (f3 == 5 && f7 == 0x20) d.op = OP_SRAI;
        if (f3 == 1 || f3 == 5) d.imm = d.rs2; /* shamt; RV32: imm[5] set is illegal (f7 check) */
        break;
    }
    case 0x33:
        if (f7 == 0) {
            static const uint8_t ops[8] = {OP_ADD, OP_SLL, OP_SLT, OP_SLTU, OP_XOR, OP_SRL, OP_OR, OP_AND};
            d.op = ops[f3];
        } else if (f7 == 0x20) {
            if (f3 == 0) d.op = OP_SUB;
            else if (f3 == 5) d.op = OP_SRA;
        } else if (f7 == 1) {
            static const uint8_t ops[8] = {OP_MUL, OP_MULH, OP_MULHSU, OP_MULHU, OP_DIV, OP_DIVU, OP_REM, OP_REMU};
            d.op = ops[f3];
        }
        break;
    case 0x0f:
        /* fence ignores its fm/pred/succ fields (all are hints here) */
        if (f3 == 0) d.op = OP_FENCE;
        else if (f3 == 1) d.op = OP_FENCE_I;
        break;
    case 0x73: decode_system(i, f3, &d); break;
    case 0x07: /* F/D: flw fld fsw fsd, the fused multiply-adds, OP-FP; rv32_fp.c decodes */
    case 0x27:
    case 0x43:
    case 0x47:
    case 0x4b:
    case 0x4f:
    case 0x53:
        d.op = OP_FP;
        d.imm = (int32_t)i;
        break;
    case 0x2f: /* A: funct5 = bits 31:27; aq/rl (26:25) order nothing on one hart */
        if (f3 == 2) {
            static const uint8_t ops[32] = {
                [0] = OP_AMOADD_W,  [1] = OP_AMOSWAP_W,  [2] = OP_LR_W,       [3] = OP_SC_W,
                [4] = OP_AMOXOR_W,  [8] = OP_AMOOR_W,    [12] = OP_AMOAND_W,  [16] = OP_AMOMIN_W,
                [20] = OP_AMOMAX_W, [24] = OP_AMOMINU_W, [28] = OP_AMOMAXU_W,
            };
            uint8_t op = ops[i >> 27];
            if (op && (op != OP_LR_W || d.rs2 == 0)) d.op = op;
        }
        break;
    }
    return d;
}

/* RVC (the C extension, RV32): fields of the 16-bit formats */
#define CB(i, hi, lo) ((i) >> (lo) & ((1u << ((hi) - (lo) + 1)) - 1)) /* bits hi..lo */
#define CREG(i, lo) ((uint8_t)(8 + CB(i, (lo) + 2, lo)))              /* x8-x15 */
static int32_t sext(uint32_t v, int bits) { return (int32_t)(v << (32 - bits)) >> (32 - bits); }
/* CI: imm[5] = 12, imm[4:0] = 6:2 */
static int32_t c_imm6(uint32_t i) { return sext(CB(i, 12, 12) << 5 | CB(i, 6, 2), 6); }
/* CJ: imm[11|4|9:8|10|6|7|3:1|5] = 12|11|10:9|8|7|6|5:3|2 */
static int32_t c_jimm(uint32_t i)
{
    return sext(CB(i, 12, 12) << 11 | CB(i, 11, 11) << 4 | CB(i, 10, 9) << 8 | CB(i, 8, 8) << 10 | CB(i, 7, 7) << 6 |
                    CB(i, 6, 6) << 7 | CB(i, 5, 3) << 1 | CB(i, 2, 2) << 5,
                12);
}
/* CB branches: imm[8|4:3|7:6|2:1|5] = 12|11:10|6:5|4:3|2 */
static int32_t c_bimm(uint32_t i)
{
    return sext(CB(i, 12, 12) << 8 | CB(i, 11, 10) << 3 | CB(i, 6, 5) << 6 | CB(i, 4, 3) << 1 | CB(i, 2, 2) << 5, 9);
}
/* C.LW / C.SW: uimm[5:3] = 12:10, uimm[2] = 6, uimm[6] = 5 */
static int32_t c_lwimm(uint32_t i) { return (int32_t)(CB(i, 12, 10) << 3 | CB(i, 6, 6) << 2 | CB(i, 5, 5) << 6); }

/* the F/D loads and stores of RVC, as the 32-bit instruction they expand to */
static rv32_decoded c_fp_load(uint32_t rd, uint32_t rs1, uint32_t imm, uint32_t f3)
{
    return (rv32_decoded){OP_C_FP, RD_SINK, 0, 0, (int32_t)(imm << 20 | rs1 << 15 | f3 << 12 | rd << 7 | 0x07)};
}
static rv32_decoded c_fp_store(uint32_t rs2, uint32_t rs1, uint32_t imm, uint32_t f3)
{
    return (rv32_decoded){OP_C_FP, RD_SINK, 0, 0,
                          (int32_t)((imm >> 5) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (imm & 31) << 7 | 0x27)};
}
/* c.fld / c.fsd: uimm[5:3] = 12:10, uimm[7:6] = 6:5 */
static uint32_t c_ldimm(uint32_t i) { return CB(i, 12, 10) << 3 | CB(i, 6, 5) << 6; }

static void c_quadrant0(uint32_t i, rv32_decoded *d)
{
    switch (CB(i, 15, 13)) {
    case 0: { /* c.addi4spn rd', sp, nzuimm[5:4|9:6|2|3] */
        int32_t imm = (int32_t)(CB(i, 12, 11) << 4 | CB(i, 10, 7) << 6 | CB(i, 6, 6) << 2 | CB(i, 5, 5) << 3);
        if (imm) *d = (rv32_decoded){OP_C_ADDI, CREG(i, 2), 2, 0, imm};
        break;
    }
    case 1: *d = c_fp_load(CREG(i, 2), CREG(i, 7), c_ldimm(i), 3); break; /* c.fld */
    case 2: *d = (rv32_decoded){OP_C_LW, CREG(i, 2), CREG(i, 7), 0, c_lwimm(i)}; break;
    case 3: *d = c_fp_load(CREG(i, 2), CREG(i, 7), (uint32_t)c_lwimm(i), 2); break; /* c.flw */
    case 5: *d = c_fp_store(CREG(i, 2), CREG(i, 7), c_ldimm(i), 3); break;          /* c.fsd */
    case 6: *d = (rv32_decoded){OP_C_SW, RD_SINK, CREG(i, 7), CREG(i, 2), c_lwimm(i)}; break;
    case 7: *d = c_fp_store(CREG(i, 2), CREG(i, 7), (uint32_t)c_lwimm(i), 2); break; /* c.fsw */
    }
}

static void c_quadrant1(uint32_t i, rv32_decoded *d)
{
    uint8_t r = (uint8_t)CB(i, 11, 7), rd = r ? r : RD_SINK;
    switch (CB(i, 15, 13)) {
    case 0: *d = (rv32_decoded){OP_C_ADDI, rd, r, 0, c_imm6(i)}; break; /* c.addi; c.nop */
    case 1: *d = (rv32_decoded){OP_C_JAL, 1, 0, 0, c_jimm(i)}; break;
    case 2: *d = (rv32_decoded){OP_C_ADDI, rd, 0, 0, c_imm6(i)}; break; /* c.li */
    case 3:
        if (r == 2) { /* c.addi16sp: nzimm[9|4|6|8:7|5] = 12|6|5|4:3|2 */
            int32_t imm = sext(
                CB(i, 12, 12) << 9 | CB(i, 6, 6) << 4 | CB(i, 5, 5) << 6 | CB(i, 4, 3) << 7 | CB(i, 2, 2) << 5, 10);
            if (imm) *d = (rv32_decoded){OP_C_ADDI, 2, 2, 0, imm};
        } else if (c_imm6(i)) {
            *d = (rv32_decoded){OP_C_LUI, rd, 0, 0, (int32_t)((uint32_t)c_imm6(i) << 12)};
        }
        break;
    case 4: {
        uint8_t r1 = CREG(i, 7), r2 = CREG(i, 2);
        switch (CB(i, 11, 10)) {
        case 0:
        case 1: /* c.srli / c.srai; shamt[5] = 1 is RV64-only */
            if (!CB(i, 12, 12))
                *d = (rv32_decoded){CB(i, 10, 10) ? OP_C_SRAI : OP_C_SRLI, r1, r1, 0, (int32_t)CB(i, 6, 2)};
            break;
        case 2: *d = (rv32_decoded){OP_C_ANDI, r1, r1, 0, c_imm6(i)}; break;
        case 3:
            if (!CB(i, 12, 12)) { /* bit 12 set: RV64's subw/addw */
                static const uint8_t ops[4] = {OP_C_SUB, OP_C_XOR, OP_C_OR, OP_C_AND};
                *d = (rv32_decoded){ops[CB(i, 6, 5)], r1, r1, r2, 0};
            }
            break;
        }
        break;
    }
    case 5: *d = (rv32_decoded){OP_C_JAL, RD_SINK, 0, 0, c_jimm(i)}; break; /* c.j */
    case 6: *d = (rv32_decoded){OP_C_BEQ, RD_SINK, CREG(i, 7), 0, c_bimm(i)}; break;
    case 7: *d = (rv32_decoded){OP_C_BNE, RD_SINK, CREG(i, 7), 0, c_bimm(i)}; break;
    }
}

static void c_quadrant2(uint32_t i, rv32_decoded *d)
{
    uint8_t r = (uint8_t)CB(i, 11, 7), rd = r ? r : RD_SINK, r2 = (uint8_t)CB(i, 6, 2);
    switch (CB(i, 15, 13)) {
    case 0:
        if (!CB(i, 12, 12)) *d = (rv32_decoded){OP_C_SLLI, rd, r, 0, (int32_t)r2};
        break;
    case 1: /* c.fldsp: uimm[5] = 12, uimm[4:3] = 6:5, uimm[8:6] = 4:2 */
        *d = c_fp_load(r, 2, CB(i, 12, 12) << 5 | CB(i, 6, 5) << 3 | CB(i, 4, 2) << 6, 3);
        break;
    case 3: /* c.flwsp: as c.lwsp, f0 allowed */
        *d = c_fp_load(r, 2, CB(i, 12, 12) << 5 | CB(i, 6, 4) << 2 | CB(i, 3, 2) << 6, 2);
        break;
    case 5: /* c.fsdsp: uimm[5:3] = 12:10, uimm[8:6] = 9:7 */
        *d = c_fp_store(r2, 2, CB(i, 12, 10) << 3 | CB(i, 9, 7) << 6, 3);
        break;
    case 7: /* c.fswsp: as c.swsp */ *d = c_fp_store(r2, 2, CB(i, 12, 9) << 2 | CB(i, 8, 7) << 6, 2); break;
    case 2: /* c.lwsp: uimm[5] = 12, uimm[4:2] = 6:4, uimm[7:6] = 3:2; rd = x0 reserved */
        if (r)
            *d = (rv32_decoded){OP_C_LW, rd, 2, 0, (int32_t)(CB(i, 12, 12) << 5 | CB(i, 6, 4) << 2 | CB(i, 3, 2) << 6)};
        break;
    case 4:
        if (!CB(i, 12, 12)) {
            if (!r2) {
                if (r) *d = (rv32_decoded){OP_C_JALR, RD_SINK, r, 0, 0}; /* c.jr; rs1 = x0 reserved */
            } else {
                *d = (rv32_decoded){OP_C_ADD, rd, 0, r2, 0}; /* c.mv */
            }
        } else if (!r2) {
            if (!r) *d = (rv32_decoded){OP_EBREAK, RD_SINK, 0, 0, 0}; /* c.ebreak (traps: no step) */
            else *d = (rv32_decoded){OP_C_JALR, 1, r, 0, 0};          /* c.jalr */
        } else {
            *d = (rv32_decoded){OP_C_ADD, rd, r, r2, 0};
        }
        break;
    case 6: /* c.swsp: uimm[5:2] = 12:9, uimm[7:6] = 8:7 */
        *d = (rv32_decoded){OP_C_SW, RD_SINK, 2, r2, (int32_t)(CB(i, 12, 9) << 2 | CB(i, 8, 7) << 6)};
        break;
    }
}

rv32_decoded rv32_decode16(uint32_t i)
{
    rv32_decoded d = {OP_ILLEGAL, RD_SINK, 0, 0, 0};
    i &= 0xffff;
    if (i == 0) return d; /* the all-zeros halfword is defined illegal */
    switch (i & 3) {
    case 0: c_quadrant0(i, &d); break;
    case 1: c_quadrant1(i, &d); break;
    case 2: c_quadrant2(i, &d); break;
    }
    return d;
}
