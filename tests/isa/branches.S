# branches.S - conditional branches (taken / not taken, signed vs unsigned
# at the boundaries), jal/jalr links, and targets 2 mod 4: legal with the C
# extension (IALIGN = 16), so jal, jalr and a branch land on the 16-bit
# instruction there.
#include "test.h"
#define TAKEN(n, op, a, b)     li gp, n; op a, b, 1f; j fail; 1:
#define NOT_TAKEN(n, op, a, b) li gp, n; op a, b, fail
tests:
    li a2, -1; li a3, 1; li a4, 0x80000000; li a5, 0x7fffffff
    TAKEN(1, beq, a2, a2)
    NOT_TAKEN(2, beq, a2, a3)
    TAKEN(3, bne, a2, a3)
    NOT_TAKEN(4, bne, a3, a3)
    TAKEN(5, blt, a2, a3)
    NOT_TAKEN(6, blt, a3, a2)
    NOT_TAKEN(7, blt, a3, a3)
    TAKEN(8, blt, a4, a5)
    TAKEN(9, bge, a3, a2)
    TAKEN(10, bge, a3, a3)
    NOT_TAKEN(11, bge, a4, a5)
    TAKEN(12, bltu, a3, a2)
    NOT_TAKEN(13, bltu, a2, a3)
    TAKEN(14, bltu, a5, a4)
    TAKEN(15, bgeu, a2, a3)
    TAKEN(16, bgeu, a3, a3)
    NOT_TAKEN(17, bgeu, a5, a4)
    TAKEN(18, bge, x0, x0)
    # backward branch: a counted loop
    li a0, 0; li a1, 10
2:  addi a0, a0, 1; bne a0, a1, 2b;           CHECK(19, a0, 10)
    # jal / jalr link the next instruction
    jal ra, 3f
4:  j fail
3:  la t0, 4b;                                CHECKR(20, ra, t0)
    la t0, 5f; jalr a0, 0(t0)
6:  j fail
5:  la t0, 6b;                                CHECKR(21, a0, t0)
    # jalr clears bit 0 of the target; rd = rs1 uses the old rs1
    la a1, 7f; addi a1, a1, 1; jalr a1, 0(a1)
8:  j fail
7:  la t0, 8b;                                CHECKR(22, a1, t0)
    la t0, 9f; addi t0, t0, -8; jalr x0, 8(t0)  # negative base + offset
    j fail
9:
    # with C, IALIGN = 16: a target 2 mod 4 is legal (no trap, rd written)
    li s0, 0x5555; li a0, 0
    la t1, 10f; addi t1, t1, 2
12: jalr s0, 0(t1)
10: .half 0x0001                              # c.nop (jumped over)
    .half 0x4505                              # c.li a0, 1 (the target)
    CHECK(23, a0, 1)
    la t0, 12b; addi t0, t0, 4;               CHECKR(24, s0, t0)
    li a1, 0
14: .word 0x0060006f                          # jal x0, +6
    .half 0x0001                              # c.nop (jumped over)
    .half 0x4589                              # c.li a1, 2 (the target)
    CHECK(25, a1, 2)
    li a2, 0
16: .word 0x00000363                          # beq x0, x0, +6
    .half 0x0001
    .half 0x460d                              # c.li a2, 3
    CHECK(26, a2, 3)
    # a branch not taken never checks its target
    li gp, 32
    .word 0x00001363                          # bne x0, x0, +6: not taken, no trap
    j pass

