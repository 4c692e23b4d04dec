# arith.S - RV32I register/immediate arithmetic and logic: wrap-around,
# sign-extended immediates, set-less-than, lui/auipc, x0 hard-wired.
#include "test.h"
tests:
    li a2, 0x7fffffff; addi a0, a2, 1;        CHECK(1, a0, 0x80000000)   # wraps, no trap
    li a2, 0;  addi a0, a2, -1;               CHECK(2, a0, 0xffffffff)
    li a2, 0x80000000; li a3, 1; sub a0, a2, a3; CHECK(3, a0, 0x7fffffff)
    li a2, 5; li a3, 7; sub a0, a2, a3;       CHECK(4, a0, -2)
    li a2, 0xf0f0f0f0; xori a0, a2, -1;       CHECK(5, a0, 0x0f0f0f0f)  # -1 sign-extends to all ones
    li a2, 0x12345678; andi a0, a2, 0x7ff;    CHECK(6, a0, 0x00000678)
    li a2, 0x12345678; andi a0, a2, -2048;    CHECK(7, a0, 0x12345000)  # imm 0x800 = -2048
    li a2, 0x00ff00ff; ori a0, a2, 0x700;     CHECK(8, a0, 0x00ff07ff)
    li a2, 0xff00ff00; li a3, 0x0ff00ff0; and a0, a2, a3; CHECK(9, a0, 0x0f000f00)
    or  a0, a2, a3;                           CHECK(10, a0, 0xfff0fff0)
    xor a0, a2, a3;                           CHECK(11, a0, 0xf0f0f0f0)
    li a2, -1; li a3, 1; slt a0, a2, a3;      CHECK(12, a0, 1)
    sltu a0, a2, a3;                          CHECK(13, a0, 0)          # 0xffffffff > 1 unsigned
    li a2, 0x80000000; li a3, 0x7fffffff; slt a0, a2, a3; CHECK(14, a0, 1)
    slt a0, a3, a3;                           CHECK(15, a0, 0)
    li a2, -5; slti a0, a2, -4;               CHECK(16, a0, 1)
    li a2, 5;  sltiu a0, a2, -1;              CHECK(17, a0, 1)          # sign-extend, then unsigned
    li a2, 0;  sltiu a0, a2, 1;               CHECK(18, a0, 1)          # seqz
    li a2, 7;  sltu a0, x0, a2;               CHECK(19, a0, 1)          # snez
    lui a0, 0xfffff;                          CHECK(20, a0, 0xfffff000)
    lui a0, 0x80000; addi a0, a0, -1;         CHECK(21, a0, 0x7fffffff)
1:  auipc a0, 0; la a1, 1b;                   CHECKR(22, a0, a1)
2:  auipc a0, 0xfffff; la a1, 2b; li t0, 0xfffff000; add a1, a1, t0; CHECKR(23, a0, a1)
    # x0 is hard-wired: writes by every kind of instruction are dropped
    li a2, 5; add x0, a2, a2;                 CHECK(24, x0, 0)
    addi x0, x0, 1;                           CHECK(25, x0, 0)
    lui x0, 0x12345;                          CHECK(26, x0, 0)
    la a2, word; lw x0, 0(a2);                CHECK(27, x0, 0)
    csrr x0, mscratch;                        CHECK(28, x0, 0)
    mul x0, a2, a2;                           CHECK(29, x0, 0)
3:  jal x0, 4f
4:  auipc x0, 1;                              CHECK(30, x0, 0)
    mv a0, x0;                                CHECK(31, a0, 0)
    add a0, x0, x0;                           CHECK(32, a0, 0)
    j pass
    .data
    .align 2
word: .word 0xdeadbeef
