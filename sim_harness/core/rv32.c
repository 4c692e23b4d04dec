/* rv32.c - the RV32IMAFDC core's execute loop (decode: rv32_decode.c, CSRs and
 * traps: rv32_csr.c).
 *
 * The loop keeps pc, a pointer d to pc's decode-cache entry, and the number
 * of cycles spent so far in locals; sequential flow is d++, jumps look the
 * entry up again.  A sentinel entry after the last RAM word (and the target
 * of any jump outside RAM) is OP_FETCH_FAULT, so the loop never bounds-checks
 * fetches.  Counters are written back to the rv32 struct only when someone
 * could look at them: CSR instructions, MMIO callbacks, traps, and return. */
#include "core/rv32_impl.h"

#include <stdlib.h>
#include <string.h>

int rv32_init(rv32 *c, uint32_t ram_base, uint32_t ram_size, uint32_t hartid)
{
    memset(c, 0, sizeof *c);
    if (ram_size == 0 || ram_size % 4 || (uint64_t)ram_base + ram_size > 0x100000000ull) return -1;
    c->ram_base = ram_base;
    c->ram_size = ram_size;
    c->ram = calloc(ram_size, 1);
    /* one entry per halfword, a guard before the first (a store's
     * invalidation reaches one entry back) and the sentinel after the last */
    c->dc = calloc(ram_size / 2 + 2, sizeof *c->dc);
    if (c->dc) c->dc++;
    c->page_seen = calloc((ram_size >> RV32_PAGE_SHIFT) + 1, 1);
    c->mhartid = hartid;
    if (!c->ram || !c->dc || !c->page_seen) {
        rv32_free(c);
        return -1;
    }
    c->dc[ram_size / 2].op = OP_FETCH_FAULT;
    return 0;
}

void rv32_free(rv32 *c)
{
    free(c->ram);
    free(c->dc ? c->dc - 1 : NULL);
    free(c->page_seen);
    c->ram = NULL;
    c->dc = NULL;
    c->page_seen = NULL;
}

void rv32_reset(rv32 *c, uint32_t pc)
{
    memset(c->x, 0, sizeof c->x);
    c->pc = pc;
    c->mstatus = c->mie = c->mip = c->mtvec = c->mepc = c->mcause = c->mtval = c->mscratch = 0;
    c->mstatus = MSTATUS_FS_INITIAL; /* the FPU is on: firmware need not enable it */
    memset(c->f, 0, sizeof c->f);
    c->fcsr = 0;
    c->fault = c->halted = c->stop = c->resv_valid = 0;
    c->tohost_value = 0;
}

void rv32_ram_written(rv32 *c, uint32_t addr, uint32_t len)
{
    uint32_t off = addr - c->ram_base;
    if (len == 0 || off >= c->ram_size) return;
    uint32_t end = len > c->ram_size - off ? c->ram_size : off + len;
    /* the entry a halfword before may hold a 32-bit instruction reaching in */
    for (int64_t h = (int64_t)(off / 2) - 1; h <= (int64_t)((end - 1) / 2); h++) c->dc[h].op = OP_UNDECODED;
    if (c->resv_valid && c->resv_addr + 4 > addr && c->resv_addr < addr + len) c->resv_valid = 0;
}

/* Decode-cache entry of an instruction address: the sentinel (fetch access
 * fault) for anything outside RAM or odd. */
static inline rv32_decoded *entry(rv32 *c, uint32_t pc)
{
    uint32_t off = pc - c->ram_base;
    return off < c->ram_size && !(pc & 1) ? &c->dc[off >> 1] : &c->dc[c->ram_size >> 1];
}

/* The instruction bits at pc (16 of them for an RVC instruction), 0 outside RAM */
static uint32_t insn_at(const rv32 *c, uint32_t pc)
{
    uint32_t off = pc - c->ram_base, w = 0;
    uint16_t h = 0;
    if (off < c->ram_size && off <= c->ram_size - 2) memcpy(&h, c->ram + off, 2);
    w = h;
    if ((h & 3) == 3 && off <= c->ram_size - 4) memcpy(&w, c->ram + off, 4);
    return w;
}

/* The instruction at RAM offset off into its entry; a 32-bit one that
 * would run past the end of RAM cannot be fetched. */
static void decode_at(const rv32 *c, uint32_t off, rv32_decoded *d)
{
    uint16_t h;
    memcpy(&h, c->ram + off, 2);
    if ((h & 3) != 3) *d = rv32_decode16(h);
    else if (off <= c->ram_size - 4) {
        uint32_t w;
        memcpy(&w, c->ram + off, 4);
        *d = rv32_decode(w);
    } else d->op = OP_FETCH_FAULT;
}

/* MMIO: misaligned or unmapped accesses fault without asking the embedder. */
static int mmio(rv32 *c, uint32_t a, int size, int is_store, uint32_t *v)
{
    if (!c->mmio || (a & (uint32_t)(size - 1))) return RV32_MMIO_FAULT;
    int r = c->mmio(c->mmio_ctx, a, size, is_store, v);
    return r == RV32_MMIO_OK || r == RV32_MMIO_STALL ? r : RV32_MMIO_FAULT;
}

/* Cache-line aligned: where the loop's jump targets fall moved its speed by
 * up to 25% from one build to the next (docs/core.md, Speed). */
int rv32_run(rv32 *c, uint64_t budget) __attribute__((aligned(64)));
int rv32_run(rv32 *c, uint64_t budget)
{
    if (c->fault) return RV32_FAULT;
    if (c->halted) return RV32_HALT;
    if (c->stop) {
        c->stop = 0;
        return RV32_STOP;
    }
    if (rv32_take_interrupt(c) < 0) return RV32_FAULT;

    uint32_t *const x = c->x;
    uint8_t *const ram = c->ram;
    rv32_decoded *const dc = c->dc;
    uint8_t *const seen = c->page_seen;
    const uint32_t base = c->ram_base, size = c->ram_size, tohost = c->tohost;
    uint32_t pc = c->pc;
    rv32_decoded *d = entry(c, pc);
    /* live mcycle = cyc0 + n, live minstret = ret0 + n - traps */
    uint64_t n = 0, traps = 0, cyc0 = c->cycle, ret0 = c->instret;
    uint32_t cause = 0, tval = 0, a, v;
    int why = RV32_BUDGET, sz;

#define SYNC() (c->pc = pc, c->cycle = cyc0 + n, c->instret = ret0 + n - traps)
/* sequential flow past an instruction of len bytes (a constant in every
 * case: the C extension's operations have ops of their own) */
#define STEP(len)                                                                                                      \
    do {                                                                                                               \
        pc += (len);                                                                                                   \
        d += (len) / 2;                                                                                                \
        n++;                                                                                                           \
        goto next;                                                                                                     \
    } while (0)
#define NEXT() STEP(4)
/* targets are always even (C: IALIGN = 16), so no jump is misaligned */
#define JUMP(target)                                                                                                   \
    do {                                                                                                               \
        pc = (target);                                                                                                 \
        d = entry(c, pc);                                                                                              \
        n++;                                                                                                           \
        goto next;                                                                                                     \
    } while (0)
#define BRANCH(cond, len)                                                                                              \
    do {                                                                                                               \
        if (cond) JUMP(pc + (uint32_t)d->imm);                                                                         \
        STEP(len);                                                                                                     \
    } while (0)
#define NEW_PAGE(off) (seen[(off) >> RV32_PAGE_SHIFT] = 1, c->pages_touched++)
#define RS1 x[d->rs1]
#define RS2 x[d->rs2]
#define RD x[d->rd]
#define IMM ((uint32_t)d->imm)

next:
    while (n < budget) {
        switch (d->op) {
        case OP_UNDECODED: decode_at(c, pc - base, d); continue;
        case OP_FETCH_FAULT:
            cause = CAUSE_FETCH_ACCESS;
            tval = pc;
            goto exception;
        case OP_ILLEGAL:
            cause = CAUSE_ILLEGAL;
            tval = insn_at(c, pc);
            goto exception;

        case OP_LUI: RD = IMM; NEXT();
        case OP_AUIPC: RD = pc + IMM; NEXT();
        case OP_JAL: {
            uint32_t t = pc + IMM;
            RD = pc + 4;
            JUMP(t);
        }
        case OP_JALR: {
            uint32_t t = (RS1 + IMM) & ~1u; /* before rd is written: rd may be rs1 */
            RD = pc + 4;
            JUMP(t);
        }
        case OP_BEQ: BRANCH(RS1 == RS2, 4);
        case OP_BNE: BRANCH(RS1 != RS2, 4);
        case OP_BLT: BRANCH((int32_t)RS1 < (int32_t)RS2, 4);
        case OP_BGE: BRANCH((int32_t)RS1 >= (int32_t)RS2, 4);
        case OP_BLTU: BRANCH(RS1 < RS2, 4);
        case OP_BGEU:
            BRANCH(RS1 >= RS2, 4);

            /* loads and stores: RAM inline (memcpy = byte-wise for misaligned
         * addresses), anything else through mmio_load / mmio_store below */
#define RAM_LOAD(T, ext, bytes, len)                                                                                   \
    do {                                                                                                               \
        a = RS1 + IMM;                                                                                                 \
        uint32_t off_ = a - base;                                                                                      \
        if (off_ <= size - (bytes)) {                                                                                  \
            T t_;                                                                                                      \
            if (!seen[off_ >> RV32_PAGE_SHIFT]) NEW_PAGE(off_);                                                        \
            memcpy(&t_, ram + off_, bytes);                                                                            \
            RD = (uint32_t)(ext)t_;                                                                                    \
            STEP(len);                                                                                                 \
        }                                                                                                              \
        sz = bytes;                                                                                                    \
        goto mmio_load;                                                                                                \
    } while (0)
        case OP_LB: RAM_LOAD(int8_t, int32_t, 1, 4);
        case OP_LH: RAM_LOAD(int16_t, int32_t, 2, 4);
        case OP_LW: RAM_LOAD(uint32_t, uint32_t, 4, 4);
        case OP_LBU: RAM_LOAD(uint8_t, uint32_t, 1, 4);
        case OP_LHU: RAM_LOAD(uint16_t, uint32_t, 2, 4);
        case OP_C_LW:
            RAM_LOAD(uint32_t, uint32_t, 4, 2);
/* a store drops the decodes of the halfwords it writes and of the one
 * before (a 32-bit instruction starting there reaches into them) */
#define INVALIDATE(off, bytes)                                                                                         \
    do {                                                                                                               \
        dc[((off) >> 1) - 1].op = OP_UNDECODED;                                                                        \
        dc[(off) >> 1].op = OP_UNDECODED;                                                                              \
        dc[((off) + (bytes)-1) >> 1].op = OP_UNDECODED;                                                                \
    } while (0)
#define RAM_STORE(T, bytes, len)                                                                                       \
    do {                                                                                                               \
        a = RS1 + IMM;                                                                                                 \
        v = RS2;                                                                                                       \
        uint32_t off_ = a - base;                                                                                      \
        if (off_ <= size - (bytes)) {                                                                                  \
            T t_ = (T)v;                                                                                               \
            if (!seen[off_ >> RV32_PAGE_SHIFT]) NEW_PAGE(off_);                                                        \
            memcpy(ram + off_, &t_, bytes);                                                                            \
            INVALIDATE(off_, bytes);                                                                                   \
            if (a == tohost && v && tohost) goto halt;                                                                 \
            STEP(len);                                                                                                 \
        }                                                                                                              \
        sz = bytes;                                                                                                    \
        goto mmio_store;                                                                                               \
    } while (0)
        case OP_SB: RAM_STORE(uint8_t, 1, 4);
        case OP_SH: RAM_STORE(uint16_t, 2, 4);
        case OP_SW: RAM_STORE(uint32_t, 4, 4);
        case OP_C_SW: RAM_STORE(uint32_t, 4, 2);

        case OP_ADDI: RD = RS1 + IMM; NEXT();
        case OP_SLTI: RD = (int32_t)RS1 < d->imm; NEXT();
        case OP_SLTIU: RD = RS1 < IMM; NEXT();
        case OP_XORI: RD = RS1 ^ IMM; NEXT();
        case OP_ORI: RD = RS1 | IMM; NEXT();
        case OP_ANDI: RD = RS1 & IMM; NEXT();
        case OP_SLLI: RD = RS1 << d->imm; NEXT();
        case OP_SRLI: RD = RS1 >> d->imm; NEXT();
        /* >> of a negative value is arithmetic on every compiler we target */
        case OP_SRAI: RD = (uint32_t)((int32_t)RS1 >> d->imm); NEXT();
        case OP_ADD: RD = RS1 + RS2; NEXT();
        case OP_SUB: RD = RS1 - RS2; NEXT();
        case OP_SLL: RD = RS1 << (RS2 & 31); NEXT();
        case OP_SLT: RD = (int32_t)RS1 < (int32_t)RS2; NEXT();
        case OP_SLTU: RD = RS1 < RS2; NEXT();
        case OP_XOR: RD = RS1 ^ RS2; NEXT();
        case OP_SRL: RD = RS1 >> (RS2 & 31); NEXT();
        case OP_SRA: RD = (uint32_t)((int32_t)RS1 >> (RS2 & 31)); NEXT();
        case OP_OR: RD = RS1 | RS2; NEXT();
        case OP_AND: RD = RS1 & RS2; NEXT();

        case OP_MUL: RD = RS1 * RS2; NEXT();
        case OP_MULH: RD = (uint32_t)((uint64_t)((int64_t)(int32_t)RS1 * (int32_t)RS2) >> 32); NEXT();
        case OP_MULHSU: RD = (uint32_t)((uint64_t)((int64_t)(int32_t)RS1 * (int64_t)RS2) >> 32); NEXT();
        case OP_MULHU: RD = (uint32_t)((uint64_t)RS1 * RS2 >> 32); NEXT();
        /* division by zero and -2^31 / -1 do not trap: the spec's fixed results */
        case OP_DIV: {
            uint32_t p = RS1, q = RS2;
            RD = q == 0                                   ? 0xffffffffu
                 : (p == 0x80000000u && q == 0xffffffffu) ? p
                                                          : (uint32_t)((int32_t)p / (int32_t)q);
            NEXT();
        }
        case OP_DIVU: {
            uint32_t p = RS1, q = RS2;
            RD = q == 0 ? 0xffffffffu : p / q;
            NEXT();
        }
        case OP_REM: {
            uint32_t p = RS1, q = RS2;
            RD = q == 0 ? p : (p == 0x80000000u && q == 0xffffffffu) ? 0 : (uint32_t)((int32_t)p % (int32_t)q);
            NEXT();
        }
        case OP_REMU: {
            uint32_t p = RS1, q = RS2;
            RD = q == 0 ? p : p % q;
            NEXT();
        }

        /* C: the 32-bit operations with a 2-byte step (rv32_decode16) */
        case OP_C_ADDI: RD = RS1 + IMM; STEP(2);
        case OP_C_LUI: RD = IMM; STEP(2);
        case OP_C_SLLI: RD = RS1 << d->imm; STEP(2);
        case OP_C_SRLI: RD = RS1 >> d->imm; STEP(2);
        case OP_C_SRAI: RD = (uint32_t)((int32_t)RS1 >> d->imm); STEP(2);
        case OP_C_ANDI: RD = RS1 & IMM; STEP(2);
        case OP_C_ADD: RD = RS1 + RS2; STEP(2);
        case OP_C_SUB: RD = RS1 - RS2; STEP(2);
        case OP_C_XOR: RD = RS1 ^ RS2; STEP(2);
        case OP_C_OR: RD = RS1 | RS2; STEP(2);
        case OP_C_AND: RD = RS1 & RS2; STEP(2);
        case OP_C_JAL: {
            uint32_t t = pc + IMM;
            RD = pc + 2;
            JUMP(t);
        }
        case OP_C_JALR: {
            uint32_t t = RS1 & ~1u;
            RD = pc + 2;
            JUMP(t);
        }
        case OP_C_BEQ: BRANCH(RS1 == 0, 2);
        case OP_C_BNE: BRANCH(RS1 != 0, 2);

        case OP_LR_W:
        case OP_SC_W:
        case OP_AMOSWAP_W:
        case OP_AMOADD_W:
        case OP_AMOXOR_W:
        case OP_AMOAND_W:
        case OP_AMOOR_W:
        case OP_AMOMIN_W:
        case OP_AMOMAX_W:
        case OP_AMOMINU_W:
        case OP_AMOMAXU_W: goto amo;
        case OP_FP:
        case OP_C_FP: goto fp;

        /* one hart, no caches: fence orders nothing; fence.i has nothing to
         * do because every store already dropped the decodes it overwrote */
        case OP_FENCE:
        case OP_FENCE_I: NEXT();
        case OP_ECALL:
            cause = CAUSE_ECALL_M;
            tval = 0;
            goto exception;
        case OP_EBREAK:
            cause = CAUSE_BREAKPOINT;
            tval = pc;
            goto exception;
        case OP_MRET:
            c->mstatus = (c->mstatus & ~MSTATUS_MIE) | (c->mstatus & MSTATUS_MPIE ? MSTATUS_MIE : 0) | MSTATUS_MPIE;
            pc = c->mepc;
            d = entry(c, pc);
            n++;
            goto check_irq;
        case OP_WFI:
            pc += 4;
            d += 2;
            n++;
            if (!rv32_wakeup(c)) {
                why = RV32_WFI;
                goto out;
            }
            goto check_irq;

        case OP_CSRRW:
        case OP_CSRRS:
        case OP_CSRRC:
        case OP_CSRRWI:
        case OP_CSRRSI:
        case OP_CSRRCI: {
            int op = d->op, imm_form = op >= OP_CSRRWI, is_w = op == OP_CSRRW || op == OP_CSRRWI;
            uint32_t num = IMM & 0xfff, src = imm_form ? d->rs1 : RS1, old;
            int writes = is_w || d->rs1 != 0; /* csrrs/c with x0 or uimm 0 do not write */
            SYNC();                           /* counters read as of before this instruction */
            if (rv32_csr_read(c, num, &old)) {
                cause = CAUSE_ILLEGAL;
                tval = insn_at(c, pc);
                goto exception;
            }
            uint32_t val = is_w ? src : (op == OP_CSRRS || op == OP_CSRRSI) ? old | src : old & ~src;
            if (writes && rv32_csr_write(c, num, val)) {
                cause = CAUSE_ILLEGAL;
                tval = insn_at(c, pc);
                goto exception;
            }
            RD = old;
            /* rebase the live counters on what the CSR file now holds; this
             * instruction counts itself unless it wrote that very counter */
            int wc = writes && (num == 0xB00 || num == 0xB80), wi = writes && (num == 0xB02 || num == 0xB82);
            cyc0 = c->cycle - n - (uint64_t)wc;
            ret0 = c->instret - (n - traps) - (uint64_t)wi;
            pc += 4;
            d += 2;
            n++;
            goto check_irq; /* mstatus / mie / mip may have enabled one */
        }
        default:
            cause = CAUSE_ILLEGAL;
            tval = insn_at(c, pc);
            goto exception;
        }
    }
    goto out;

mmio_load : {
    uint32_t val = 0;
    SYNC();
    int r = mmio(c, a, sz, 0, &val);
    if (r == RV32_MMIO_STALL) {
        why = RV32_STALL;
        goto out;
    }
    if (r != RV32_MMIO_OK) {
        cause = CAUSE_LOAD_ACCESS;
        tval = a;
        goto exception;
    }
    switch (d->op) {
    case OP_LB: val = (uint32_t)(int32_t)(int8_t)val; break;
    case OP_LH: val = (uint32_t)(int32_t)(int16_t)val; break;
    case OP_LBU: val &= 0xff; break;
    case OP_LHU: val &= 0xffff; break;
    }
    RD = val;
    pc += OP_LEN(d->op);
    d += OP_LEN(d->op) / 2;
    n++;
    goto check_irq; /* the device may have raised a line */
}
mmio_store : {
    SYNC();
    int r = mmio(c, a, sz, 1, &v);
    if (r == RV32_MMIO_STALL) {
        why = RV32_STALL;
        goto out;
    }
    if (r != RV32_MMIO_OK) {
        cause = CAUSE_STORE_ACCESS;
        tval = a;
        goto exception;
    }
    pc += OP_LEN(d->op);
    d += OP_LEN(d->op) / 2;
    n++;
    goto check_irq;
}
/* F/D (rv32_fp.c): off the fast path; the step is taken before the call
 * because an fsd may overwrite the instruction's own entry */
fp : {
    uint32_t len = OP_LEN(d->op), ft = 0, stored = 0;
    int r = rv32_fp_exec(c, IMM, &ft, &stored);
    if (stored) rv32_ram_written(c, ft, stored);
    if (r) {
        cause = (uint32_t)r;
        tval = r == CAUSE_ILLEGAL ? insn_at(c, pc) : ft;
        goto exception;
    }
    pc += len;
    d += len / 2;
    n++;
    goto check_irq;
}
/* A: LR/SC and AMOs on the node's own RAM (one hart: atomic by
 * construction; the NI's DMA writes land between instructions and break a
 * reservation they overlap, rv32_ram_written).  A misaligned address
 * raises address misaligned, an address outside RAM an access fault. */
amo : {
    int op = d->op, lr = op == OP_LR_W;
    a = RS1;
    uint32_t off = a - base, old, src = RS2, res;
    if (a & 3) {
        cause = lr ? CAUSE_MISALIGNED_LOAD : CAUSE_MISALIGNED_STORE;
        tval = a;
        goto exception;
    }
    if (off > size - 4) {
        cause = lr ? CAUSE_LOAD_ACCESS : CAUSE_STORE_ACCESS;
        tval = a;
        goto exception;
    }
    if (!seen[off >> RV32_PAGE_SHIFT]) NEW_PAGE(off);
    memcpy(&old, ram + off, 4);
    switch (op) {
    case OP_LR_W:
        c->resv_addr = a;
        c->resv_valid = 1;
        RD = old;
        NEXT();
    case OP_SC_W: {
        int ok = c->resv_valid && c->resv_addr == a;
        c->resv_valid = 0;
        RD = !ok;
        if (!ok) NEXT();
        res = src;
        break;
    }
    case OP_AMOSWAP_W: res = src; break;
    case OP_AMOADD_W: res = old + src; break;
    case OP_AMOXOR_W: res = old ^ src; break;
    case OP_AMOAND_W: res = old & src; break;
    case OP_AMOOR_W: res = old | src; break;
    case OP_AMOMIN_W: res = (int32_t)old < (int32_t)src ? old : src; break;
    case OP_AMOMAX_W: res = (int32_t)old > (int32_t)src ? old : src; break;
    case OP_AMOMINU_W: res = old < src ? old : src; break;
    default: res = old > src ? old : src; break; /* OP_AMOMAXU_W */
    }
    memcpy(ram + off, &res, 4);
    INVALIDATE(off, 4);
    if (op != OP_SC_W) RD = old;
    v = res;
    if (a == tohost && v && tohost) goto halt;
    NEXT();
}
check_irq:
    if ((c->mip & c->mie) && (c->mstatus & MSTATUS_MIE)) {
        SYNC();
        if (rv32_take_interrupt(c) < 0) {
            why = RV32_FAULT;
            goto out;
        }
        pc = c->pc;
        d = entry(c, pc);
    }
    if (c->stop) {
        c->stop = 0;
        why = RV32_STOP;
        goto out;
    }
    goto next;
exception:
    /* the trapping instruction takes a cycle but does not retire */
    n++;
    traps++;
    SYNC();
    if (rv32_trap(c, cause, tval, insn_at(c, pc))) {
        why = RV32_FAULT;
        goto out;
    }
    pc = c->pc;
    d = entry(c, pc);
    goto next;
halt:
    /* odd: an exit code, the run ends; even: an HTIF syscall block the
     * embedder serves (htif.h) before it resumes the core */
    c->halted = v & 1;
    c->tohost_value = v;
    pc += OP_LEN(d->op);
    n++;
    why = v & 1 ? RV32_HALT : RV32_HTIF;
out:
    SYNC();
    return why;
#undef SYNC
#undef NEXT
#undef JUMP
#undef BRANCH
#undef RS1
#undef RS2
#undef RD
#undef IMM
#undef RAM_LOAD
#undef RAM_STORE
#undef INVALIDATE
#undef STEP
#undef NEW_PAGE
}
