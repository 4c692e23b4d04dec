# amo.S - the A extension on RAM: lr.w/sc.w (success, failure without or
# with a broken reservation, a reservation for another address, rd = rs2),
# every AMO's old value and stored value at signed/unsigned extremes, and
# the traps: misaligned (lr: 4, sc/AMO: 6) and outside RAM (5 / 7).
# march: rv32ima
#include "test.h"
#define CAUSE(n, c) li gp, n; li t6, c; bne s9, t6, fail
#define MEM(n, exp) lw t5, 0(s0); CHECK(n, t5, exp)
tests:
    la s0, word
    # lr/sc: success writes and answers 0
    li a1, 5; sw a1, 0(s0)
    lr.w a0, (s0);                            CHECK(1, a0, 5)
    li a1, 6; sc.w a2, a1, (s0);              CHECK(2, a2, 0)
    MEM(3, 6)
    # a second sc without a new lr fails (1) and writes nothing
    li a1, 7; sc.w a2, a1, (s0);              CHECK(4, a2, 1)
    MEM(5, 6)
    # a reservation for another address does not cover this one
    la s1, word2
    lr.w a0, (s1)
    sc.w a2, a1, (s0);                        CHECK(6, a2, 1)
    MEM(7, 6)
    # a trap between lr and sc breaks the reservation
    lr.w a0, (s0)
    EXPECT_TRAP(1f)
    ebreak
1:  sc.w a2, a1, (s0);                        CHECK(8, a2, 1)
    MEM(9, 6)
    # rd = rs2: the value is read before the answer is written
    lr.w a0, (s0)
    li a3, 0x77; sc.w a3, a3, (s0);           CHECK(10, a3, 0)
    MEM(11, 0x77)
    # AMOs: rd = old value, memory = op(old, rs2)
#define AMO(n, op, init, src, result) li t0, init; sw t0, 0(s0); li t1, src; op a0, t1, (s0); CHECK(n, a0, init); MEM(n + 100, result)
    AMO(12, amoswap.w, 0x12345678, 0x9abcdef0, 0x9abcdef0)
    AMO(13, amoadd.w, 0xffffffff, 2, 1)
    AMO(14, amoxor.w, 0xff00ff00, 0x0ff00ff0, 0xf0f0f0f0)
    AMO(15, amoand.w, 0xff00ff00, 0x0ff00ff0, 0x0f000f00)
    AMO(16, amoor.w, 0xff00ff00, 0x0ff00ff0, 0xfff0fff0)
    AMO(17, amomin.w, 0x80000000, 1, 0x80000000)
    AMO(18, amomin.w, 5, -3, -3)
    AMO(19, amomax.w, 0x80000000, 1, 1)
    AMO(20, amomax.w, -5, -3, -3)
    AMO(21, amominu.w, 0x80000000, 1, 1)
    AMO(22, amominu.w, 3, 0xffffffff, 3)
    AMO(23, amomaxu.w, 0x80000000, 1, 0x80000000)
    AMO(24, amomaxu.w, 3, 0xffffffff, 0xffffffff)
    # rd = rs2 for an AMO: old value lands in rd, memory gets the old rs2
    li t0, 10; sw t0, 0(s0); li a4, 3; amoadd.w a4, a4, (s0); CHECK(25, a4, 10)
    MEM(26, 13)
    # rd = x0 discards the old value
    amoadd.w x0, a4, (s0);                    MEM(27, 23)
    # misaligned: lr -> load address misaligned (4), AMO/sc -> store (6)
    addi s1, s0, 2
    EXPECT_TRAP(1f)
    lr.w a0, (s1)
1:  CAUSE(28, 4); CHECKR(29, s11, s1)
    EXPECT_TRAP(1f)
    amoadd.w a0, a1, (s1)
1:  CAUSE(30, 6); CHECKR(31, s11, s1)
    EXPECT_TRAP(1f)
    sc.w a0, a1, (s1)
1:  CAUSE(32, 6); CHECKR(33, s11, s1)
    # outside RAM: access faults (5 for lr, 7 for AMOs)
    li s1, 0x40000000
    EXPECT_TRAP(1f)
    lr.w a0, (s1)
1:  CAUSE(34, 5); CHECKR(35, s11, s1)
    EXPECT_TRAP(1f)
    amoswap.w a0, a1, (s1)
1:  CAUSE(36, 7); CHECKR(37, s11, s1)
    MEM(38, 23)
    j pass

    .data
    .balign 4
word: .word 0
word2: .word 0
