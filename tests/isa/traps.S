# traps.S - exception entry and mret: ecall (11), ebreak (3, mtval = pc),
# illegal instructions (2, mtval = the bits), instruction access fault (1,
# mepc = mtval = the unreachable address), mstatus MIE -> MPIE on entry and
# back on mret, and exceptions in vectored mode going to the base.
#include "test.h"
tests:
    EXPECT_TRAP(1f)
2:  ecall
1:  CHECK_TRAP(1, 11, 0)
    la t0, 2b;                                CHECKR(2, s10, t0)   # mepc = the ecall
    EXPECT_TRAP(1f)
2:  ebreak
1:  la t0, 2b; li gp, 3; bne s11, t0, fail    # mtval = pc
    CHECK(4, s9, 3)
    CHECKR(5, s10, t0)
    EXPECT_TRAP(1f)
    .word 0x00000000                          # all zeros: defined illegal
1:  CHECK_TRAP(6, 2, 0)
    EXPECT_TRAP(1f)
    .word 0xffffffff
1:  CHECK_TRAP(7, 2, 0xffffffff)
    li t0, 0x6000; csrc mstatus, t0           # mstatus.FS = 0: the FPU is off
    EXPECT_TRAP(1f)
    .word 0x00002007                          # flw: illegal while FS = 0
1:  CHECK_TRAP(8, 2, 0x00002007)
    EXPECT_TRAP(1f)
    csrr a0, fcsr                             # so are the FP CSRs
1:  li gp, 80; li t6, 2; bne s9, t6, fail
    li t0, 0x2000; csrs mstatus, t0           # FS = 1 (initial): on again
    EXPECT_TRAP(1f)
    .word 0x10200073                          # sret: no S mode
1:  CHECK_TRAP(9, 2, 0x10200073)
    EXPECT_TRAP(1f)
    .word 0x00006003                          # lw with funct3 = 6 (reserved)
1:  CHECK_TRAP(10, 2, 0x00006003)
    EXPECT_TRAP(1f)
    .word 0x02c5c533 | 0x40000000             # div with a reserved funct7 bit
1:  CHECK_TRAP(11, 2, 0x42c5c533)
    # fetch outside RAM: the jump itself completes, the fetch traps
    li t1, 0x40000000
    EXPECT_TRAP(1f)
    jalr ra, 0(t1)
1:  CHECK_TRAP(12, 1, 0x40000000)
    CHECKR(13, s10, t1)
    # MIE is saved in MPIE and cleared on entry; mret restores it, MPIE = 1
    li t0, 8; csrs mstatus, t0                # MIE = 1 (mie = 0: no interrupt can fire)
    EXPECT_TRAP(1f)
    ecall
1:  csrr a0, mstatus;                         CHECK(14, a0, 0x3888) # after mret: MIE = MPIE = 1 (FS = 1)
    la t0, 3f; csrw mtvec, t0                 # own handler: look at mstatus inside
    li s3, 0
    ecall
    CHECK(15, s3, 0x3880)                     # inside: MIE = 0, MPIE = 1 (FS = 1)
    csrw mstatus, x0
    ecall
    CHECK(16, s3, 0x1800)                     # MIE was 0: MPIE = 0
    csrr a0, mstatus;                         CHECK(17, a0, 0x1880) # mret: MIE = MPIE (0), MPIE = 1
    csrw mstatus, x0
    # vectored mode: exceptions still go to the base
    la t0, 4f; ori t0, t0, 1; csrw mtvec, t0
    li s3, 0
    ecall
    CHECK(18, s3, 0x1800)
    la t0, trap_handler; csrw mtvec, t0
    # mret returns to mepc
    la t0, 5f; csrw mepc, t0; mret
    j fail
5:
    j pass

    .align 6
3:
4:  csrr s3, mstatus
    csrr t0, mepc; addi t0, t0, 4; csrw mepc, t0
    mret
