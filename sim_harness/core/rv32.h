/* rv32.h - a RISC-V RV32IMAFDC + Zicsr + Zifencei core, machine mode only.
 *
 * Timing model: one instruction per core cycle.  rv32_run() executes up to
 * `budget` instructions and counts them in c->cycle (mcycle) and the retired
 * ones in c->instret (minstret); the embedder owns time between runs (it may
 * set c->cycle, or call rv32_idle() while the core waits).
 *
 * Memory: RAM [ram_base, ram_base + ram_size) is a plain byte array the core
 * reads and writes directly (misaligned accesses complete byte-wise, as on
 * Spike).  Every other address goes to the embedder's mmio() callback, which
 * answers RV32_MMIO_OK, RV32_MMIO_FAULT (the core takes a load/store access
 * fault) or RV32_MMIO_STALL ("not ready, retry this instruction later": the
 * core stops with RV32_STALL, keeps its PC and re-executes the access on the
 * next rv32_run).  Misaligned MMIO accesses fault without calling mmio().
 *
 * Decode cache: each RAM word is decoded once into dc[]; a store into RAM
 * (by the core, or by the embedder through rv32_ram_written()) drops the
 * decoded copy of the words it touches, so self-modifying code and fence.i
 * work.  The embedder MUST call rv32_ram_written() after writing c->ram.
 *
 * Traps: a synchronous exception or interrupt with mtvec == 0 (no handler
 * installed) does not trap: the core stops with RV32_FAULT and records
 * fault_cause/pc/tval/insn (rv32_fault_text() words it).
 *
 * tohost (Spike's convention): a non-zero word stored to c->tohost (if set)
 * stops the core with c->tohost_value = the value.  Odd: rv32_run returns
 * RV32_HALT and c->halted = 1 (1 = pass, (n << 1) | 1 = test n failed, or
 * exit code n).  Even: the address of an HTIF syscall block: rv32_run
 * returns RV32_HTIF and the embedder serves it (htif_serve, htif.h), which
 * acknowledges through c->fromhost, before it runs the core again.
 */
#ifndef XNOC_RV32_H
#define XNOC_RV32_H

#include <stddef.h>
#include <stdint.h>

/* mmio() answers; size is 1, 2 or 4 bytes; for a store *val holds the value
 * (zero-extended), for a load the callback writes it (the core truncates and
 * sign-extends as the instruction asks). */
enum { RV32_MMIO_OK = 0, RV32_MMIO_FAULT = -1, RV32_MMIO_STALL = 1 };
typedef int (*rv32_mmio_fn)(void *ctx, uint32_t addr, int size, int is_store, uint32_t *val);

/* why rv32_run() returned */
enum {
    RV32_BUDGET, /* ran the whole budget */
    RV32_WFI,    /* executed wfi with no enabled interrupt pending (pc is past it) */
    RV32_STALL,  /* an MMIO access answered STALL (pc is at the access) */
    RV32_FAULT,  /* a trap with no handler (c->fault_*) */
    RV32_HALT,   /* tohost written (c->tohost_value) */
    RV32_STOP,   /* the embedder set c->stop (cleared on return) */
    RV32_HTIF,   /* an even value written to tohost: a syscall block (htif.h; pc is past the store) */
};

/* mcause values of exceptions */
enum {
    CAUSE_MISALIGNED_FETCH = 0,
    CAUSE_FETCH_ACCESS = 1,
    CAUSE_ILLEGAL = 2,
    CAUSE_BREAKPOINT = 3,
    CAUSE_MISALIGNED_LOAD = 4, /* lr.w only: other loads complete byte-wise */
    CAUSE_LOAD_ACCESS = 5,
    CAUSE_MISALIGNED_STORE = 6, /* sc.w and AMOs only */
    CAUSE_STORE_ACCESS = 7,
    CAUSE_ECALL_M = 11,
};
#define CAUSE_INTERRUPT 0x80000000u /* | IRQ_* for interrupts */
/* interrupt numbers = bit in mip/mie */
#define IRQ_MSI 3
#define IRQ_MTI 7
#define IRQ_MEI 11

#define RV32_MISA 0x4000112du /* RV32, I, M, A, C, F, D */

typedef struct rv32_decoded rv32_decoded;

typedef struct rv32 {
    uint32_t x[33]; /* x[32] is a write sink: instructions with rd = x0 write there */
    uint32_t pc;
    uint8_t *ram;
    uint32_t ram_base, ram_size;
    rv32_decoded *dc; /* one entry per RAM word, plus a fetch-fault sentinel */
    rv32_mmio_fn mmio;
    void *mmio_ctx;
    /* machine-mode CSRs */
    uint32_t mstatus, mie, mip, mtvec, mepc, mcause, mtval, mscratch, mhartid;
    uint64_t cycle, instret; /* mcycle, minstret */
    /* a trap taken with no handler installed (mtvec == 0) stops the core */
    int fault;
    uint32_t fault_cause, fault_pc, fault_tval, fault_insn;
    /* Spike's tohost convention: a non-zero store to this address (if non-zero) halts */
    uint32_t tohost, fromhost;
    int halted;
    /* A: the lr.w reservation (cleared by sc.w, traps and overlapping
     * rv32_ram_written) */
    uint32_t resv_addr;
    int resv_valid;
    uint32_t tohost_value;
    /* set by the embedder, typically inside mmio() (a device whose next event
     * moved), to end rv32_run after the current instruction: RV32_STOP */
    int stop;
    /* RAM pages (4 KiB) a load or store of the core has touched: page_seen[]
     * one byte per page, pages_touched how many; the system's spin watchdog
     * calls a core that touches no new page (and no device) stuck */
    uint8_t *page_seen;
    uint64_t pages_touched;
    /* F/D: f[] holds doubles; a single is NaN-boxed (upper 32 bits all ones);
     * fcsr = frm << 5 | fflags */
    uint64_t f[32];
    uint32_t fcsr;
} rv32;
#define RV32_PAGE_SHIFT 12

/* Allocates RAM (zeroed) and the decode cache; ram_size must be a multiple
 * of 4.  Returns 0, or -1 (out of memory / bad size). */
int rv32_init(rv32 *c, uint32_t ram_base, uint32_t ram_size, uint32_t hartid);
void rv32_free(rv32 *c);
/* Registers and CSRs to their reset values, pc = entry.  Keeps RAM. */
void rv32_reset(rv32 *c, uint32_t pc);

/* Runs at most budget instructions.  Returns RV32_BUDGET, or why it
 * stopped early.  Calling it again resumes (after wfi: at the next
 * instruction, which is how the embedder "wakes" the core). */
int rv32_run(rv32 *c, uint64_t budget);

/* The embedder tells the core about time passing while it waits. */
static inline void rv32_idle(rv32 *c, uint64_t cycles) { c->cycle += cycles; }

/* Sets or clears an interrupt-pending line in mip (IRQ_MEI from the NI,
 * IRQ_MTI from a timer).  Safe to call from inside an mmio() callback: the
 * core checks for interrupts after every MMIO access. */
static inline void rv32_irq(rv32 *c, int irq, int on)
{
    if (on) c->mip |= 1u << irq;
    else c->mip &= ~(1u << irq);
}
/* Whether an enabled interrupt is pending (ends a wfi, whatever mstatus.MIE). */
static inline int rv32_wakeup(const rv32 *c) { return (c->mip & c->mie) != 0; }

/* Invalidate decoded instructions after the embedder writes RAM directly. */
void rv32_ram_written(rv32 *c, uint32_t addr, uint32_t len);

/* "illegal instruction", "load access fault", ... (interrupts too). */
const char *rv32_cause_name(uint32_t cause);
/* The recorded fault in one line without node or cycle, e.g.
 * "illegal instruction 0xffffffff at PC 0x80000004". */
void rv32_fault_text(const rv32 *c, char *buf, size_t len);

#endif
