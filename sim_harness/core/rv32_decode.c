/* rv32_decode.c - one 32-bit instruction word into a compact rv32_decoded.
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
    }
    return d;
}
