/* rv32_csr.c - machine-mode CSRs, trap entry and interrupts.
 *
 * Only M-mode exists, so mstatus keeps just MIE, MPIE and FS (MPP reads as 3),
 * and every trap goes to mtvec.  Counter CSRs are 64-bit values split into
 * two halves; the user-level aliases (cycle, time, instret) are read-only. */
#include "core/rv32_impl.h"

#include <stdio.h>

#define MIP_WRITABLE (1u << IRQ_MSI) /* MTIP and MEIP are wired to devices */
#define MIE_WRITABLE ((1u << IRQ_MSI) | (1u << IRQ_MTI) | (1u << IRQ_MEI))

int rv32_csr_read(rv32 *c, uint32_t n, uint32_t *v)
{
    switch (n) {
    case 0x300: *v = c->mstatus | MSTATUS_MPP | ((c->mstatus & MSTATUS_FS) == MSTATUS_FS ? MSTATUS_SD : 0); return 0;
    /* F/D: fflags, frm, fcsr; illegal while mstatus.FS = 0 (the FPU is off) */
    case 0x001:
    case 0x002:
    case 0x003:
        if (!(c->mstatus & MSTATUS_FS)) return -1;
        *v = n == 1 ? c->fcsr & 31 : n == 2 ? c->fcsr >> 5 & 7 : c->fcsr & 0xff;
        return 0;
    case 0x301: *v = RV32_MISA; return 0;
    case 0x304: *v = c->mie; return 0;
    case 0x305: *v = c->mtvec; return 0;
    case 0x340: *v = c->mscratch; return 0;
    case 0x341: *v = c->mepc; return 0;
    case 0x342: *v = c->mcause; return 0;
    case 0x343: *v = c->mtval; return 0;
    case 0x344: *v = c->mip; return 0;
    /* time reads the cycle counter: the core clock is the only clock a core sees */
    case 0xB00:
    case 0xC00:
    case 0xC01: *v = (uint32_t)c->cycle; return 0;
    case 0xB80:
    case 0xC80:
    case 0xC81: *v = (uint32_t)(c->cycle >> 32); return 0;
    case 0xB02:
    case 0xC02: *v = (uint32_t)c->instret; return 0;
    case 0xB82:
    case 0xC82: *v = (uint32_t)(c->instret >> 32); return 0;
    case 0xF11:
    case 0xF12:
    case 0xF13: *v = 0; return 0; /* mvendorid, marchid, mimpid */
    case 0xF14: *v = c->mhartid; return 0;
    default: return -1;
    }
}

int rv32_csr_write(rv32 *c, uint32_t n, uint32_t v)
{
    if ((n >> 10) == 3) return -1; /* csr[11:10] = 3: the read-only range */
    switch (n) {
    case 0x300: c->mstatus = v & (MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_FS); return 0;
    case 0x001:
    case 0x002:
    case 0x003:
        if (!(c->mstatus & MSTATUS_FS)) return -1;
        c->fcsr = n == 1 ? (c->fcsr & ~31u) | (v & 31) : n == 2 ? (c->fcsr & 31) | (v & 7) << 5 : v & 0xff;
        c->mstatus |= MSTATUS_FS;
        return 0;
    case 0x301: return 0; /* misa is WARL and fixed: writes are ignored */
    case 0x304: c->mie = v & MIE_WRITABLE; return 0;
    case 0x305: c->mtvec = (v & 1) ? v & ~2u : v & ~3u; return 0; /* mode 0 direct, 1 vectored */
    case 0x340: c->mscratch = v; return 0;
    case 0x341: c->mepc = v & ~1u; return 0; /* IALIGN = 16 (C) */
    case 0x342: c->mcause = v; return 0;
    case 0x343: c->mtval = v; return 0;
    case 0x344: c->mip = (c->mip & ~MIP_WRITABLE) | (v & MIP_WRITABLE); return 0;
    case 0xB00: c->cycle = (c->cycle & 0xffffffff00000000ull) | v; return 0;
    case 0xB80: c->cycle = (c->cycle & 0xffffffffull) | (uint64_t)v << 32; return 0;
    case 0xB02: c->instret = (c->instret & 0xffffffff00000000ull) | v; return 0;
    case 0xB82: c->instret = (c->instret & 0xffffffffull) | (uint64_t)v << 32; return 0;
    default: return -1;
    }
}

int rv32_trap(rv32 *c, uint32_t cause, uint32_t tval, uint32_t insn)
{
    if (c->mtvec == 0) {
        c->fault = 1;
        c->fault_cause = cause;
        c->fault_pc = c->pc;
        c->fault_tval = tval;
        c->fault_insn = insn;
        return -1;
    }
    c->resv_valid = 0; /* a trap breaks an lr.w reservation */
    c->mepc = c->pc;
    c->mcause = cause;
    c->mtval = tval;
    uint32_t mie = c->mstatus & MSTATUS_MIE;
    c->mstatus = (c->mstatus & ~(MSTATUS_MIE | MSTATUS_MPIE)) | (mie ? MSTATUS_MPIE : 0);
    uint32_t base = c->mtvec & ~3u;
    if ((c->mtvec & 3) == 1 && (cause & CAUSE_INTERRUPT)) c->pc = base + 4 * (cause & 0x7fffffff);
    else c->pc = base;
    return 0;
}

int rv32_take_interrupt(rv32 *c)
{
    uint32_t p = c->mip & c->mie;
    if (!p || !(c->mstatus & MSTATUS_MIE)) return 0;
    /* priority order of the privileged spec: MEI, MSI, MTI */
    int irq = p & (1u << IRQ_MEI) ? IRQ_MEI : p & (1u << IRQ_MSI) ? IRQ_MSI : IRQ_MTI;
    return rv32_trap(c, CAUSE_INTERRUPT | (uint32_t)irq, 0, 0) ? -1 : 1;
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
    case CAUSE_INTERRUPT | IRQ_MSI: return "software interrupt";
    case CAUSE_INTERRUPT | IRQ_MTI: return "timer interrupt";
    case CAUSE_INTERRUPT | IRQ_MEI: return "external interrupt";
    default: return "trap";
    }
}

void rv32_fault_text(const rv32 *c, char *buf, size_t len)
{
    uint32_t k = c->fault_cause;
    const char *name = rv32_cause_name(k);
    if (k == CAUSE_ILLEGAL) snprintf(buf, len, "%s 0x%08x at PC 0x%08x", name, c->fault_insn, c->fault_pc);
    else if (k == CAUSE_FETCH_ACCESS || k == CAUSE_LOAD_ACCESS || k == CAUSE_STORE_ACCESS ||
             k == CAUSE_MISALIGNED_FETCH)
        snprintf(buf, len, "%s at address 0x%08x (PC 0x%08x, instruction 0x%08x)", name, c->fault_tval, c->fault_pc,
                 c->fault_insn);
    else snprintf(buf, len, "%s (mcause 0x%x) at PC 0x%08x (instruction 0x%08x)", name, k, c->fault_pc, c->fault_insn);
}
