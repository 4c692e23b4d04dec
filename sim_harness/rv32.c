/* rv32.c - the RV32IM core: decode cache, execute loop, CSRs and traps. */
#include "rv32.h"

#include <stdlib.h>
#include <string.h>

/* Decoded operations.  0 means "not decoded yet". */
enum {
    OP_UNDECODED = 0, OP_ILLEGAL,
    OP_LUI, OP_AUIPC, OP_JAL, OP_JALR,
    OP_BEQ, OP_BNE, OP_BLT, OP_BGE, OP_BLTU, OP_BGEU,
    OP_LB, OP_LH, OP_LW, OP_LBU, OP_LHU, OP_SB, OP_SH, OP_SW,
    OP_ADDI, OP_SLTI, OP_SLTIU, OP_XORI, OP_ORI, OP_ANDI, OP_SLLI, OP_SRLI, OP_SRAI,
    OP_ADD, OP_SUB, OP_SLL, OP_SLT, OP_SLTU, OP_XOR, OP_SRL, OP_SRA, OP_OR, OP_AND,
    OP_MUL, OP_MULH, OP_MULHSU, OP_MULHU, OP_DIV, OP_DIVU, OP_REM, OP_REMU,
    OP_FENCE, OP_FENCE_I, OP_ECALL, OP_EBREAK, OP_MRET, OP_WFI,
    OP_CSRRW, OP_CSRRS, OP_CSRRC, OP_CSRRWI, OP_CSRRSI, OP_CSRRCI,
};

struct rv32_decoded {
    uint8_t op, rd, rs1, rs2;
    int32_t imm;
};

int rv32_init(rv32 *c, uint32_t ram_base, uint32_t ram_size, uint32_t hartid)
{
    memset(c, 0, sizeof *c);
    c->ram_base = ram_base;
    c->ram_size = ram_size;
    c->ram = calloc(ram_size, 1);
    c->dc = calloc(ram_size / 4 + 1, sizeof *c->dc);
    c->mhartid = hartid;
    return c->ram && c->dc ? 0 : -1;
}

void rv32_free(rv32 *c)
{
    free(c->ram);
    free(c->dc);
    c->ram = NULL;
    c->dc = NULL;
}

void rv32_reset(rv32 *c, uint32_t pc)
{
    memset(c->x, 0, sizeof c->x);
    c->pc = pc;
    c->mstatus = 0;
    c->mie = c->mip = c->mtvec = c->mepc = c->mcause = c->mtval = c->mscratch = 0;
    c->fault = c->halted = 0;
}

void rv32_ram_written(rv32 *c, uint32_t addr, uint32_t len)
{
    uint32_t off = addr - c->ram_base;
    if (off >= c->ram_size) return;
    uint32_t end = off + len > c->ram_size ? c->ram_size : off + len;
    for (uint32_t w = off / 4; w <= (end - 1) / 4; w++) c->dc[w].op = OP_UNDECODED;
}

const char *rv32_cause_name(uint32_t cause)
{
    switch (cause) {
    case CAUSE_MISALIGNED_FETCH: return "instruction address misaligned";
    case CAUSE_FETCH_ACCESS: return "instruction access fault";
    case CAUSE_ILLEGAL: return "illegal instruction";
    case CAUSE_BREAKPOINT: return "breakpoint";
    case 4: return "load address misaligned";
    case CAUSE_LOAD_ACCESS: return "load access fault";
    case 6: return "store address misaligned";
    case CAUSE_STORE_ACCESS: return "store access fault";
    case CAUSE_ECALL_M: return "environment call";
    default: return "trap";
    }
}

/* ------------------------------------------------------------------ decode */

static int32_t imm_i(uint32_t i) { return (int32_t)i >> 20; }
static int32_t imm_s(uint32_t i) { return ((int32_t)i >> 25) << 5 | (int32_t)(i >> 7 & 0x1f); }
static int32_t imm_b(uint32_t i)
{
    return ((int32_t)i >> 31) << 12 | (int32_t)((i >> 7 & 1) << 11) | (int32_t)((i >> 25 & 0x3f) << 5) |
           (int32_t)((i >> 8 & 0xf) << 1);
}
static int32_t imm_j(uint32_t i)
{
    return ((int32_t)i >> 31) << 20 | (int32_t)(i & 0xff000) | (int32_t)((i >> 20 & 1) << 11) |
           (int32_t)((i >> 21 & 0x3ff) << 1);
}

static rv32_decoded decode(uint32_t i)
{
    rv32_decoded d = {OP_ILLEGAL, (uint8_t)(i >> 7 & 31), (uint8_t)(i >> 15 & 31), (uint8_t)(i >> 20 & 31), 0};
    uint32_t f3 = i >> 12 & 7, f7 = i >> 25;
    switch (i & 0x7f) {
    case 0x37: d.op = OP_LUI; d.imm = (int32_t)(i & 0xfffff000); break;
    case 0x17: d.op = OP_AUIPC; d.imm = (int32_t)(i & 0xfffff000); break;
    case 0x6f: d.op = OP_JAL; d.imm = imm_j(i); break;
    case 0x67: if (f3 == 0) { d.op = OP_JALR; d.imm = imm_i(i); } break;
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
    case 0x13:
        d.imm = imm_i(i);
        switch (f3) {
        case 0: d.op = OP_ADDI; break;
        case 2: d.op = OP_SLTI; break;
        case 3: d.op = OP_SLTIU; break;
        case 4: d.op = OP_XORI; break;
        case 6: d.op = OP_ORI; break;
        case 7: d.op = OP_ANDI; break;
        case 1: if (f7 == 0) { d.op = OP_SLLI; d.imm = d.rs2; } break;
        case 5:
            if (f7 == 0) { d.op = OP_SRLI; d.imm = d.rs2; }
            else if (f7 == 0x20) { d.op = OP_SRAI; d.imm = d.rs2; }
            break;
        }
        break;
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
        if (f3 == 0) d.op = OP_FENCE;
        else if (f3 == 1) d.op = OP_FENCE_I;
        break;
    case 0x73:
        d.imm = (int32_t)(i >> 20);     /* CSR number */
        switch (f3) {
        case 0:
            if (i == 0x00000073) d.op = OP_ECALL;
            else if (i == 0x00100073) d.op = OP_EBREAK;
            else if (i == 0x30200073) d.op = OP_MRET;
            else if (i == 0x10500073) d.op = OP_WFI;
            break;
        case 1: d.op = OP_CSRRW; break;
        case 2: d.op = OP_CSRRS; break;
        case 3: d.op = OP_CSRRC; break;
        case 5: d.op = OP_CSRRWI; break;
        case 6: d.op = OP_CSRRSI; break;
        case 7: d.op = OP_CSRRCI; break;
        }
        break;
    }
    return d;
}

/* ------------------------------------------------------------------- traps */

/* Takes a trap; returns 0, or -1 if no handler is installed (the core then
 * stops with the fault recorded for the embedder to report). */
static int trap(rv32 *c, uint32_t cause, uint32_t tval, uint32_t insn)
{
    if (c->mtvec == 0 && !(cause & 0x80000000u)) {
        c->fault = 1;
        c->fault_cause = cause;
        c->fault_pc = c->pc;
        c->fault_tval = tval;
        c->fault_insn = insn;
        return -1;
    }
    c->mepc = c->pc;
    c->mcause = cause;
    c->mtval = tval;
    uint32_t mie = c->mstatus >> 3 & 1;
    c->mstatus = (c->mstatus & ~0x88u) | mie << 7;   /* MPIE = MIE, MIE = 0 */
    uint32_t base = c->mtvec & ~3u;
    if ((c->mtvec & 3) == 1 && (cause & 0x80000000u)) c->pc = base + 4 * (cause & 0x7fffffff);
    else c->pc = base;
    return 0;
}

/* Pending and enabled interrupt, highest priority first (MEI, MSI, MTI). */
static int take_interrupt(rv32 *c)
{
    if (!(c->mstatus & 8)) return 0;
    uint32_t p = c->mip & c->mie;
    if (!p) return 0;
    int irq = p & (1u << IRQ_MEI) ? IRQ_MEI : p & (1u << IRQ_MSI) ? IRQ_MSI : IRQ_MTI;
    trap(c, 0x80000000u | (uint32_t)irq, 0, 0);
    return 1;
}

/* -------------------------------------------------------------------- CSRs */

/* Returns 0 and the value, or -1: no such CSR (illegal instruction). */
static int csr_read(rv32 *c, uint32_t n, uint32_t *v)
{
    switch (n) {
    case 0x300: *v = c->mstatus | 3u << 11; return 0;          /* MPP is always M */
    case 0x301: *v = 0x40001100u; return 0;                    /* RV32 I M */
    case 0x304: *v = c->mie; return 0;
    case 0x305: *v = c->mtvec; return 0;
    case 0x340: *v = c->mscratch; return 0;
    case 0x341: *v = c->mepc; return 0;
    case 0x342: *v = c->mcause; return 0;
    case 0x343: *v = c->mtval; return 0;
    case 0x344: *v = c->mip; return 0;
    case 0xB00: case 0xC00: case 0xC01: *v = (uint32_t)c->cycle; return 0;
    case 0xB80: case 0xC80: case 0xC81: *v = (uint32_t)(c->cycle >> 32); return 0;
    case 0xB02: case 0xC02: *v = (uint32_t)c->instret; return 0;
    case 0xB82: case 0xC82: *v = (uint32_t)(c->instret >> 32); return 0;
    case 0xF11: case 0xF12: case 0xF13: *v = 0; return 0;
    case 0xF14: *v = c->mhartid; return 0;
    default: return -1;
    }
}

static int csr_write(rv32 *c, uint32_t n, uint32_t v)
{
    if ((n >> 10) == 3) return -1;                             /* read-only range */
    switch (n) {
    case 0x300: c->mstatus = v & 0x88u; return 0;              /* MIE, MPIE */
    case 0x301: return 0;                                      /* misa: WARL, fixed */
    case 0x304: c->mie = v & 0x888u; return 0;
    case 0x305: c->mtvec = v & ~2u; return 0;                  /* direct or vectored */
    case 0x340: c->mscratch = v; return 0;
    case 0x341: c->mepc = v & ~3u; return 0;
    case 0x342: c->mcause = v; return 0;
    case 0x343: c->mtval = v; return 0;
    case 0x344: c->mip = (c->mip & ~0x8u) | (v & 0x8u); return 0;  /* MSIP only */
    /* the instruction writing mcycle/minstret still counts itself: see caller */
    case 0xB00: c->cycle = (c->cycle & 0xffffffff00000000ull) | v; return 0;
    case 0xB80: c->cycle = (c->cycle & 0xffffffffull) | (uint64_t)v << 32; return 0;
    case 0xB02: c->instret = (c->instret & 0xffffffff00000000ull) | v; return 0;
    case 0xB82: c->instret = (c->instret & 0xffffffffull) | (uint64_t)v << 32; return 0;
    default: return -1;
    }
}

/* ------------------------------------------------------------------ memory */

static inline uint32_t ram_off(const rv32 *c, uint32_t a, int size)
{
    uint32_t off = a - c->ram_base;
    return (off < c->ram_size && off + (uint32_t)size <= c->ram_size) ? off : UINT32_MAX;
}

/* Loads: 0 ok, 1 stall, -1 fault */
static int load(rv32 *c, uint32_t a, int size, uint32_t *v)
{
    uint32_t off = ram_off(c, a, size);
    if (off != UINT32_MAX) {
        uint32_t x = 0;
        memcpy(&x, c->ram + off, (size_t)size);     /* misaligned too, as on Spike */
        *v = x;
        return 0;
    }
    if (!c->mmio || (a & (uint32_t)(size - 1))) return -1;
    int r = c->mmio(c->mmio_ctx, a, size, 0, v);
    return r == RV32_MMIO_OK ? 0 : r == RV32_MMIO_STALL ? 1 : -1;
}

static int store(rv32 *c, uint32_t a, int size, uint32_t v)
{
    uint32_t off = ram_off(c, a, size);
    if (off != UINT32_MAX) {
        memcpy(c->ram + off, &v, (size_t)size);
        c->dc[off / 4].op = OP_UNDECODED;
        c->dc[(off + (uint32_t)size - 1) / 4].op = OP_UNDECODED;
        if (a == c->tohost && c->tohost) {
            c->halted = 1;
            c->tohost_value = v;
        }
        return 0;
    }
    if (!c->mmio || (a & (uint32_t)(size - 1))) return -1;
    int r = c->mmio(c->mmio_ctx, a, size, 1, &v);
    return r == RV32_MMIO_OK ? 0 : r == RV32_MMIO_STALL ? 1 : -1;
}

/* ----------------------------------------------------------------- execute */

int rv32_run(rv32 *c, uint32_t budget)
{
    if (c->fault) return RV32_FAULT;
    if (c->halted) return RV32_HALT;
    take_interrupt(c);
    uint32_t *x = c->x;
    uint32_t n = 0;
    int why = RV32_BUDGET;
    while (n < budget) {
        uint32_t pc = c->pc, off = pc - c->ram_base;
        if (off >= c->ram_size) {
            if (trap(c, CAUSE_FETCH_ACCESS, pc, 0)) { why = RV32_FAULT; break; }
            n++;
            continue;
        }
        rv32_decoded *d = &c->dc[off >> 2];
        if (d->op == OP_UNDECODED) {
            uint32_t w;
            memcpy(&w, c->ram + off, 4);
            *d = decode(w);
        }
        uint32_t a = x[d->rs1], b = x[d->rs2], r = 0, next = pc + 4, insn_bits;
        int wr = 1;
        switch (d->op) {
        case OP_LUI: r = (uint32_t)d->imm; break;
        case OP_AUIPC: r = pc + (uint32_t)d->imm; break;
        case OP_JAL: r = pc + 4; next = pc + (uint32_t)d->imm; break;
        case OP_JALR: r = pc + 4; next = (a + (uint32_t)d->imm) & ~1u; break;
        case OP_BEQ: wr = 0; if (a == b) next = pc + (uint32_t)d->imm; break;
        case OP_BNE: wr = 0; if (a != b) next = pc + (uint32_t)d->imm; break;
        case OP_BLT: wr = 0; if ((int32_t)a < (int32_t)b) next = pc + (uint32_t)d->imm; break;
        case OP_BGE: wr = 0; if ((int32_t)a >= (int32_t)b) next = pc + (uint32_t)d->imm; break;
        case OP_BLTU: wr = 0; if (a < b) next = pc + (uint32_t)d->imm; break;
        case OP_BGEU: wr = 0; if (a >= b) next = pc + (uint32_t)d->imm; break;
        case OP_LB: case OP_LH: case OP_LW: case OP_LBU: case OP_LHU: {
            static const int sizes[] = {1, 2, 4, 1, 2};
            int k = d->op - OP_LB, st = load(c, a + (uint32_t)d->imm, sizes[k], &r);
            if (st > 0) { why = RV32_STALL; goto out; }
            if (st < 0) {
                memcpy(&insn_bits, c->ram + off, 4);
                if (trap(c, CAUSE_LOAD_ACCESS, a + (uint32_t)d->imm, insn_bits)) { why = RV32_FAULT; goto out; }
                n++;
                continue;
            }
            if (d->op == OP_LB) r = (uint32_t)(int32_t)(int8_t)r;
            else if (d->op == OP_LH) r = (uint32_t)(int32_t)(int16_t)r;
            break;
        }
        case OP_SB: case OP_SH: case OP_SW: {
            int size = d->op == OP_SB ? 1 : d->op == OP_SH ? 2 : 4;
            int st = store(c, a + (uint32_t)d->imm, size, b);
            wr = 0;
            if (st > 0) { why = RV32_STALL; goto out; }
            if (st < 0) {
                memcpy(&insn_bits, c->ram + off, 4);
                if (trap(c, CAUSE_STORE_ACCESS, a + (uint32_t)d->imm, insn_bits)) { why = RV32_FAULT; goto out; }
                n++;
                continue;
            }
            if (c->halted) {
                c->pc = next;
                c->instret++;
                c->cycle++;
                n++;
                why = RV32_HALT;
                goto out;
            }
            break;
        }
        case OP_ADDI: r = a + (uint32_t)d->imm; break;
        case OP_SLTI: r = (int32_t)a < d->imm; break;
        case OP_SLTIU: r = a < (uint32_t)d->imm; break;
        case OP_XORI: r = a ^ (uint32_t)d->imm; break;
        case OP_ORI: r = a | (uint32_t)d->imm; break;
        case OP_ANDI: r = a & (uint32_t)d->imm; break;
        case OP_SLLI: r = a << d->imm; break;
        case OP_SRLI: r = a >> d->imm; break;
        case OP_SRAI: r = (uint32_t)((int32_t)a >> d->imm); break;
        case OP_ADD: r = a + b; break;
        case OP_SUB: r = a - b; break;
        case OP_SLL: r = a << (b & 31); break;
        case OP_SLT: r = (int32_t)a < (int32_t)b; break;
        case OP_SLTU: r = a < b; break;
        case OP_XOR: r = a ^ b; break;
        case OP_SRL: r = a >> (b & 31); break;
        case OP_SRA: r = (uint32_t)((int32_t)a >> (b & 31)); break;
        case OP_OR: r = a | b; break;
        case OP_AND: r = a & b; break;
        case OP_MUL: r = a * b; break;
        case OP_MULH: r = (uint32_t)((int64_t)(int32_t)a * (int64_t)(int32_t)b >> 32); break;
        case OP_MULHSU: r = (uint32_t)((int64_t)(int32_t)a * (int64_t)(uint64_t)b >> 32); break;
        case OP_MULHU: r = (uint32_t)((uint64_t)a * (uint64_t)b >> 32); break;
        case OP_DIV:
            r = b == 0 ? 0xffffffffu : (a == 0x80000000u && b == 0xffffffffu) ? a : (uint32_t)((int32_t)a / (int32_t)b);
            break;
        case OP_DIVU: r = b == 0 ? 0xffffffffu : a / b; break;
        case OP_REM:
            r = b == 0 ? a : (a == 0x80000000u && b == 0xffffffffu) ? 0 : (uint32_t)((int32_t)a % (int32_t)b);
            break;
        case OP_REMU: r = b == 0 ? a : a % b; break;
        case OP_FENCE: wr = 0; break;
        case OP_FENCE_I: wr = 0; break;   /* stores already dropped stale decodes */
        case OP_ECALL: case OP_EBREAK: {
            memcpy(&insn_bits, c->ram + off, 4);
            int ecall = d->op == OP_ECALL;
            if (trap(c, ecall ? CAUSE_ECALL_M : CAUSE_BREAKPOINT, ecall ? 0 : pc, insn_bits)) { why = RV32_FAULT; goto out; }
            c->instret++;
            c->cycle++;
            n++;
            continue;
        }
        case OP_MRET: {
            wr = 0;
            uint32_t mpie = c->mstatus >> 7 & 1;
            c->mstatus = (c->mstatus & ~0x8u) | mpie << 3 | 0x80u;
            next = c->mepc;
            break;
        }
        case OP_WFI:
            c->pc = next;
            c->instret++;
            c->cycle++;
            n++;
            if (!rv32_wakeup(c)) { why = RV32_WFI; goto out; }
            continue;
        case OP_CSRRW: case OP_CSRRS: case OP_CSRRC: case OP_CSRRWI: case OP_CSRRSI: case OP_CSRRCI: {
            uint32_t num = (uint32_t)d->imm & 0xfff, old = 0, src = d->op >= OP_CSRRWI ? d->rs1 : a, val;
            int is_w = d->op == OP_CSRRW || d->op == OP_CSRRWI;
            int writes = is_w || d->rs1 != 0;
            int reads = !is_w || d->rd != 0;
            if ((reads || writes) && csr_read(c, num, &old)) goto illegal;
            val = is_w ? src : (d->op == OP_CSRRS || d->op == OP_CSRRSI) ? old | src : old & ~src;
            /* counters count the instruction itself before a write lands */
            c->instret++;
            c->cycle++;
            if (writes && csr_write(c, num, val)) {
                c->instret--;
                c->cycle--;
                goto illegal;
            }
            if (writes && (num == 0xB02 || num == 0xB82)) c->instret--;   /* the written value stands */
            if (writes && (num == 0xB00 || num == 0xB80)) c->cycle--;
            if (d->rd) x[d->rd] = old;
            c->pc = next;
            n++;
            if (take_interrupt(c)) continue;
            continue;
        }
        case OP_UNDECODED: case OP_ILLEGAL: default:
            goto illegal;
        }
        if (next & 3) {
            memcpy(&insn_bits, c->ram + off, 4);
            if (trap(c, CAUSE_MISALIGNED_FETCH, next, insn_bits)) { why = RV32_FAULT; goto out; }
            n++;
            continue;
        }
        if (wr && d->rd) x[d->rd] = r;
        c->pc = next;
        c->instret++;
        c->cycle++;
        n++;
        if (d->op == OP_MRET) take_interrupt(c);
        continue;
    illegal:
        memcpy(&insn_bits, c->ram + off, 4);
        if (trap(c, CAUSE_ILLEGAL, insn_bits, insn_bits)) { why = RV32_FAULT; break; }
        n++;
    }
out:
    return why;
}
