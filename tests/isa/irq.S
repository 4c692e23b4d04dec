# irq.S - interrupts through tests/iss_driver.c's devices: software (mip.MSIP),
# external (the MEIP line), timer (mtimecmp); mstatus.MIE and mie gate them,
# they are taken right after the instruction that enables them with mepc =
# the next instruction, MEI has priority over MSI, vectored mode jumps to
# base + 4 * cause, wfi resumes on an enabled pending interrupt (whatever
# MIE) or when the harness wakes it.
#include "test.h"
#define IRQ_DEV   0x10000000
#define WAKE_DEV  0x1000000c
#define MTIMECMP  0x02004000
#define MTIME     0x0200bff8
#define MSI 0x80000003
#define MTI 0x80000007
#define MEI 0x8000000b
tests:
    la t0, irq_handler; csrw mtvec, t0
    li s4, 0                                  # interrupts taken
    la s6, log                                # handler appends mcause here
    li s7, IRQ_DEV
    # 1. software interrupt: pending + enabled in mie, but MIE = 0: nothing
    li t0, 8; csrw mie, t0; csrs mip, t0
    nop; nop
    CHECK(1, s4, 0)
    csrsi mstatus, 8                          # MIE = 1: taken right after this
1:  CHECK(2, s4, 1)
    CHECK(3, s9, MSI)
    la t0, 1b;                                CHECKR(4, s10, t0)
    # 2. the external line, raised by a store to the device
    li t0, 0x800; csrw mie, t0
    li t0, 1; sw t0, 0(s7)
1:  CHECK(5, s4, 2)
    CHECK(6, s9, MEI)
    la t0, 1b;                                CHECKR(7, s10, t0)
    # 3. disabled in mie: pending but not taken until mie enables it
    csrw mie, x0
    li t0, 1; sw t0, 0(s7)
    csrr a0, mip; srli a0, a0, 11;            CHECK(8, a0, 1)
    CHECK(9, s4, 2)
    li t0, 0x800; csrw mie, t0
    CHECK(10, s4, 3)
    # 4. priority: MEI before MSI when both are pending
    csrci mstatus, 8
    li t0, 0x808; csrw mie, t0
    li t0, 8; csrs mip, t0; li t0, 1; sw t0, 0(s7)
    la s6, log
    csrsi mstatus, 8
    CHECK(11, s4, 5)
    la t0, log; lw a0, 0(t0);                 CHECK(12, a0, MEI)
    lw a0, 4(t0);                             CHECK(13, a0, MSI)
    # 5. software cannot set MEIP or MTIP through mip
    csrw mie, x0
    li t0, 0x880; csrs mip, t0; csrr a0, mip; CHECK(14, a0, 0)
    # 6. timer: mtimecmp = mtime + 200, spin until it fires
    li t1, MTIMECMP; li t0, -1; sw t0, 4(t1)
    li t2, MTIME; lw t0, 0(t2); addi t0, t0, 200; sw t0, 0(t1); sw x0, 4(t1)
    li t0, 0x80; csrw mie, t0
    li s9, 0
2:  beqz s9, 2b
    CHECK(15, s9, MTI)
    CHECK(16, s4, 6)
    lw a0, 0(t2); lw a1, 0(t1); li gp, 17; bltu a0, a1, fail     # mtime >= mtimecmp
    # 7. vectored mode: interrupts go to base + 4 * cause
    la t0, vectors; ori t0, t0, 1; csrw mtvec, t0
    li s5, 0
    li t0, 0x808; csrw mie, t0
    li t0, 8; csrs mip, t0
    CHECK(18, s5, 3)
    li t0, 1; sw t0, 0(s7)
    CHECK(19, s5, 11)
    la t0, irq_handler; csrw mtvec, t0
    # 8. wfi with MIE = 0: wakes when the timer is pending, takes no trap
    csrci mstatus, 8
    li t1, MTIMECMP; lw t0, 0(t2); addi t0, t0, 100; sw t0, 0(t1); sw x0, 4(t1)
    li t0, 0x80; csrw mie, t0
    wfi
    csrr a0, mip; andi a0, a0, 0x80;          CHECK(20, a0, 0x80)
    CHECK(21, s4, 8)
    li t0, -1; sw t0, 4(t1)                   # timer off
    # 9. wfi with MIE = 1: the interrupt is taken, mepc = after the wfi
    lw t0, 0(t2); addi t0, t0, 100; sw t0, 0(t1); sw x0, 4(t1)
    csrsi mstatus, 8
    wfi
1:  CHECK(22, s4, 9)
    CHECK(23, s9, MTI)
    la t0, 1b;                                CHECKR(24, s10, t0)
    # 10. wfi with nothing enabled: the harness wakes the core (driver: wake device)
    csrw mie, x0
    li t0, WAKE_DEV; li t1, 300
    csrr s1, mcycle
    sw t1, 0(t0)
    wfi
    csrr a0, mcycle; sub a0, a0, s1; li gp, 25; li t0, 300; bltu a0, t0, fail   # time passed in wfi
    CHECK(26, s4, 9)
    sw x0, 0(s7)                              # lower the line the wake raised
    j pass

# interrupt handler: log mcause, silence the source, return to mepc
    .align 2
irq_handler:
    csrr s9, mcause
    csrr s10, mepc
    bgez s9, fail                             # an exception: not expected here
    addi s4, s4, 1
    sw s9, 0(s6); addi s6, s6, 4
    li t3, MSI; bne s9, t3, 1f
    csrci mip, 8
1:  li t3, MEI; bne s9, t3, 1f
    sw x0, 0(s7)
1:  li t3, MTI; bne s9, t3, 1f
    li t3, MTIMECMP; li t4, -1; sw t4, 4(t3)
1:  mret

    .align 6
vectors:                                      # one jump per cause
    j fail; j fail; j fail                    # 0-2 (exceptions use entry 0)
    j vec_msi                                 # 3
    j fail; j fail; j fail; j fail; j fail; j fail; j fail   # 4-10
    j vec_mei                                 # 11
vec_msi: li s5, 3; j irq_handler
vec_mei: li s5, 11; j irq_handler

    .data
    .align 2
log: .zero 64
