/* rv32.h - a RISC-V RV32IM + Zicsr + Zifencei core, machine mode only.
 *
 * Instructions are decoded once per RAM word into a cache; a store into RAM
 * drops the decoded copy of the words it touches, so self-modifying code
 * and fence.i work.  Timing: one instruction per core cycle.
 *
 * Memory: RAM at ram_base is accessed directly; every other address goes to
 * the embedder's mmio() callback, which may answer RV32_MMIO_STALL ("not
 * ready, retry this instruction later": the core stops and keeps its PC).
 */
#ifndef XNOC_RV32_H
#define XNOC_RV32_H

#include <stdint.h>

enum { RV32_MMIO_OK = 0, RV32_MMIO_FAULT = -1, RV32_MMIO_STALL = 1 };

/* size in bytes (1, 2, 4); for a store *val holds the value */
typedef int (*rv32_mmio_fn)(void *ctx, uint32_t addr, int size, int is_store, uint32_t *val);

/* why rv32_run() returned */
enum { RV32_BUDGET, RV32_WFI, RV32_STALL, RV32_FAULT, RV32_HALT };

/* exception causes */
enum {
    CAUSE_MISALIGNED_FETCH = 0, CAUSE_FETCH_ACCESS = 1, CAUSE_ILLEGAL = 2, CAUSE_BREAKPOINT = 3,
    CAUSE_LOAD_ACCESS = 5, CAUSE_STORE_ACCESS = 7, CAUSE_ECALL_M = 11,
};
#define IRQ_MSI 3
#define IRQ_MTI 7
#define IRQ_MEI 11

typedef struct rv32_decoded rv32_decoded;

typedef struct rv32 {
    uint32_t x[32], pc;
    uint8_t *ram;
    uint32_t ram_base, ram_size;
    rv32_decoded *dc;              /* one entry per RAM word */
    rv32_mmio_fn mmio;
    void *mmio_ctx;
    /* machine-mode CSRs */
    uint32_t mstatus, mie, mip, mtvec, mepc, mcause, mtval, mscratch, mhartid;
    uint64_t cycle, instret;
    /* a trap taken with no handler installed (mtvec == 0) stops the core */
    int fault;
    uint32_t fault_cause, fault_pc, fault_tval, fault_insn;
    /* Spike's tohost convention: a store to this address (if non-zero) halts */
    uint32_t tohost;
    int halted;
    uint32_t tohost_value;
} rv32;

int rv32_init(rv32 *c, uint32_t ram_base, uint32_t ram_size, uint32_t hartid);
void rv32_free(rv32 *c);
void rv32_reset(rv32 *c, uint32_t pc);

/* Runs at most budget instructions (each one core cycle, counted in
 * c->cycle).  Returns RV32_BUDGET, or why it stopped early. */
int rv32_run(rv32 *c, uint32_t budget);

/* The embedder tells the core about time passing while it waits. */
static inline void rv32_idle(rv32 *c, uint64_t cycles) { c->cycle += cycles; }

/* Sets or clears an interrupt-pending bit (IRQ_MEI from the NI). */
static inline void rv32_irq(rv32 *c, int irq, int on)
{
    if (on) c->mip |= 1u << irq;
    else c->mip &= ~(1u << irq);
}
/* Whether an enabled interrupt is pending (ends a wfi). */
static inline int rv32_wakeup(const rv32 *c) { return (c->mip & c->mie) != 0; }

/* Invalidate decoded instructions after the embedder writes RAM directly. */
void rv32_ram_written(rv32 *c, uint32_t addr, uint32_t len);

const char *rv32_cause_name(uint32_t cause);

#endif
