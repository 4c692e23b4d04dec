/* rv32_impl.h - internals shared by rv32.c (execute loop), rv32_decode.c
 * and rv32_csr.c (CSRs and traps).  Not for embedders: use rv32.h. */
#ifndef XNOC_RV32_IMPL_H
#define XNOC_RV32_IMPL_H

#include "core/rv32.h"

/* Decoded operations.  OP_UNDECODED must be 0: the decode cache starts
 * zeroed and invalidating an entry is one byte store. */
enum {
    OP_UNDECODED = 0,
    OP_FETCH_FAULT,
    OP_ILLEGAL,
    OP_LUI,
    OP_AUIPC,
    OP_JAL,
    OP_JALR,
    OP_BEQ,
    OP_BNE,
    OP_BLT,
    OP_BGE,
    OP_BLTU,
    OP_BGEU,
    OP_LB,
    OP_LH,
    OP_LW,
    OP_LBU,
    OP_LHU,
    OP_SB,
    OP_SH,
    OP_SW,
    OP_ADDI,
    OP_SLTI,
    OP_SLTIU,
    OP_XORI,
    OP_ORI,
    OP_ANDI,
    OP_SLLI,
    OP_SRLI,
    OP_SRAI,
    OP_ADD,
    OP_SUB,
    OP_SLL,
    OP_SLT,
    OP_SLTU,
    OP_XOR,
    OP_SRL,
    OP_SRA,
    OP_OR,
    OP_AND,
    OP_MUL,
    OP_MULH,
    OP_MULHSU,
    OP_MULHU,
    OP_DIV,
    OP_DIVU,
    OP_REM,
    OP_REMU,
    OP_FENCE,
    OP_FENCE_I,
    OP_ECALL,
    OP_EBREAK,
    OP_MRET,
    OP_WFI,
    OP_CSRRW,
    OP_CSRRS,
    OP_CSRRC,
    OP_CSRRWI,
    OP_CSRRSI,
    OP_CSRRCI,
    /* A: a node's own RAM only (rv32.c) */
    OP_LR_W,
    OP_SC_W,
    OP_AMOSWAP_W,
    OP_AMOADD_W,
    OP_AMOXOR_W,
    OP_AMOAND_W,
    OP_AMOOR_W,
    OP_AMOMIN_W,
    OP_AMOMAX_W,
    OP_AMOMINU_W,
    OP_AMOMAXU_W,
    /* F and D: decoded and run by rv32_fp.c, imm = the instruction bits */
    OP_FP,
    /* C: a 16-bit instruction decodes to the operation of its 32-bit
     * expansion, but with an op of its own from OP_C_FIRST on, so that the
     * loop's sequential step (pc += 2) is a constant in every case */
    OP_C_FIRST,
    OP_C_ADDI = OP_C_FIRST,
    OP_C_LUI,
    OP_C_SLLI,
    OP_C_SRLI,
    OP_C_SRAI,
    OP_C_ANDI,
    OP_C_ADD,
    OP_C_SUB,
    OP_C_XOR,
    OP_C_OR,
    OP_C_AND,
    OP_C_LW,
    OP_C_SW,
    OP_C_JAL,
    OP_C_JALR,
    OP_C_BEQ,
    OP_C_BNE,
    OP_C_FP, /* c.flw, c.fsd, ...: imm = the 32-bit instruction it expands to */
    OP_C_LAST = OP_C_FP,
};

/* bytes of the instruction an entry holds */
#define OP_LEN(op) ((op) >= OP_C_FIRST && (op) <= OP_C_LAST ? 2 : 4)

#define RD_SINK 32 /* decoded rd for x0: writes land in x[32], x[0] stays 0 */

/* 8 bytes: the instruction at a RAM halfword, decoded once. */
struct rv32_decoded {
    uint8_t op, rd, rs1, rs2; /* rs1 of csr*i is the 5-bit immediate */
    int32_t imm;              /* immediate; CSR number for csr ops */
};

rv32_decoded rv32_decode(uint32_t insn);
/* A 16-bit RVC instruction (low two bits != 3); reserved ones, the F/D
 * loads and stores and RV64/128-only encodings decode to OP_ILLEGAL. */
rv32_decoded rv32_decode16(uint32_t insn);

/* mstatus bits we keep */
#define MSTATUS_MIE (1u << 3)
#define MSTATUS_MPIE (1u << 7)
#define MSTATUS_MPP (3u << 11) /* reads as 3 (M): the only mode */
#define MSTATUS_FS (3u << 13)  /* the FPU's state: 0 off (F/D illegal), 1 initial, 3 dirty */
#define MSTATUS_FS_INITIAL (1u << 13)
#define MSTATUS_SD (1u << 31) /* reads 1 when FS is dirty */

/* Enters the trap handler for cause with mepc = c->pc; returns 0, or -1 if
 * no handler is installed (fault recorded, nothing else changed). */
int rv32_trap(rv32 *c, uint32_t cause, uint32_t tval, uint32_t insn);
/* Takes the highest-priority enabled pending interrupt if mstatus.MIE;
 * returns 1 if taken, 0 if none, -1 if one is due but there is no handler. */
int rv32_take_interrupt(rv32 *c);

/* Zicsr: reads CSR n into *v / writes it.  -1 = illegal instruction (no such
 * CSR, or a write to a read-only one).  Counters are read from and written to
 * c->cycle / c->instret, which the caller keeps current. */
int rv32_csr_read(rv32 *c, uint32_t n, uint32_t *v);
int rv32_csr_write(rv32 *c, uint32_t n, uint32_t v);

/* F/D: executes the instruction i (32-bit encoding).  0, or the cause of
 * its exception (illegal instruction, or a load/store access fault with
 * the address in *tval).  A store into RAM sets *stored to its size and
 * *tval to its address: the caller invalidates the decode cache there. */
int rv32_fp_exec(rv32 *c, uint32_t i, uint32_t *tval, uint32_t *stored);

#endif
