# rvc.S - every RV32C instruction, written as c.* so that each is the
# 16-bit form: immediates at their extremes, the x8-x15 register fields,
# links of c.jal/c.jalr (pc + 2), c.jalr through ra itself, branches both
# ways, c.ebreak, the reserved encodings (illegal, mtval = the 16 bits),
# and a 32-bit instruction at an address 2 mod 4 patched by a word store
# that starts inside it (the decode cache must drop it).
# march: rv32imc
#include "test.h"
#define CAUSE(n, c) li gp, n; li t6, c; bne s9, t6, fail
tests:
    # CI / CIW / CA arithmetic
    c.li a0, -32;                             CHECK(1, a0, -32)
    c.li a0, 31;                              CHECK(2, a0, 31)
    c.lui a1, 1;                              CHECK(3, a1, 0x1000)
    c.lui a1, 0xfffe0;                        CHECK(4, a1, 0xfffe0000)
    c.lui a1, 0x1f;                           CHECK(5, a1, 0x1f000)
    c.addi a0, -32;                           CHECK(6, a0, -1)
    c.addi a0, 31;                            CHECK(7, a0, 30)
    mv s0, sp
    c.addi16sp sp, -512; sub a0, s0, sp;      CHECK(8, a0, 512)
    c.addi16sp sp, 496;  sub a0, s0, sp;      CHECK(9, a0, 16)
    c.addi4spn a2, sp, 1020; sub a0, a2, sp;  CHECK(10, a0, 1020)
    c.addi4spn a2, sp, 4;    sub a0, a2, sp;  CHECK(11, a0, 4)
    mv sp, s0
    li a0, 1; c.slli a0, 31;                  CHECK(12, a0, 0x80000000)
    li a2, 0x80000000; c.srli a2, 31;         CHECK(13, a2, 1)
    li a2, 0x80000000; c.srai a2, 31;         CHECK(14, a2, -1)
    li a2, 0x80000000; c.srai a2, 1;          CHECK(15, a2, 0xc0000000)
    li a2, 0x1234; c.andi a2, -32;            CHECK(16, a2, 0x1220)
    li a2, 0x1234; c.andi a2, 31;             CHECK(17, a2, 0x14)
    li a3, 0x5a; c.mv a4, a3;                 CHECK(18, a4, 0x5a)
    li a4, 7; li a5, 5; c.add a4, a5;         CHECK(19, a4, 12)
    li s0, 7; li s1, 9; c.sub s0, s1;         CHECK(20, s0, -2)
    li s0, 0xff00; li s1, 0x0ff0; c.xor s0, s1; CHECK(21, s0, 0xf0f0)
    li s0, 0xff00; li s1, 0x0ff0; c.or s0, s1;  CHECK(22, s0, 0xfff0)
    li s0, 0xff00; li s1, 0x0ff0; c.and s0, s1; CHECK(23, s0, 0x0f00)
    c.nop
    # loads and stores, largest offsets
    la s1, buf
    li a5, 0x11223344; c.sw a5, 124(s1); c.lw a4, 124(s1); CHECK(24, a4, 0x11223344)
    lw a4, 124(s1);                           CHECK(25, a4, 0x11223344)
    li a5, -7; c.sw a5, 0(s1); c.lw a3, 0(s1); CHECK(26, a3, -7)
    mv s0, sp; mv sp, s1
    li a5, 0x55667788; c.swsp a5, 252(sp); c.lwsp a6, 252(sp); CHECK(27, a6, 0x55667788)
    lw a6, 252(s1);                           CHECK(28, a6, 0x55667788)
    c.swsp a5, 0(sp); c.lwsp t3, 0(sp);       CHECK(29, t3, 0x55667788)
    mv sp, s0
    # jumps: c.j, c.jal (link pc + 2), c.jr, c.jalr
    li a0, 0
    c.j 1f
    li a0, 1
1:  CHECK(30, a0, 0)
2:  c.jal 3f
    j fail
3:  la t0, 2b; addi t0, t0, 2;               CHECKR(31, ra, t0)
    la a5, 4f
    c.jr a5
    j fail
4:  la a5, 6f
5:  c.jalr a5
    j fail
6:  la t0, 5b; addi t0, t0, 2;               CHECKR(32, ra, t0)
    la ra, 8f                                 # c.jalr ra: the target is read before the link is written
7:  c.jalr ra
    j fail
8:  la t0, 7b; addi t0, t0, 2;               CHECKR(33, ra, t0)
    # c.beqz / c.bnez, taken and not taken, backward too
    li s0, 0; li gp, 34; c.bnez s0, fail; c.beqz s0, 9f; j fail
9:  li s0, 3; li gp, 35; c.beqz s0, fail
10: c.addi s0, -1; c.bnez s0, 10b;            CHECK(36, s0, 0)
    # c.ebreak: breakpoint, mepc = it, mtval = pc
    EXPECT_TRAP(12f)
11: c.ebreak
    j fail
12: la t0, 11b;                               CHECKR(37, s10, t0)
    CAUSE(38, 3); CHECKR(39, s11, t0)
    # reserved encodings: illegal instruction, mtval = the 16 bits
#define ILLEGAL16(n, bits) EXPECT_TRAP(1f); .half bits; .half 0x0001; j fail; 1: CHECK_TRAP(n, 2, bits)
    ILLEGAL16(40, 0x0000)                     # all zeros
    ILLEGAL16(41, 0x0004)                     # c.addi4spn with nzuimm = 0
    ILLEGAL16(42, 0x4002)                     # c.lwsp rd = x0
    ILLEGAL16(43, 0x8002)                     # c.jr x0
    ILLEGAL16(44, 0x9c01)                     # c.subw (RV64)
    ILLEGAL16(45, 0x1506)                     # c.slli a0, 33 (shamt[5], RV64)
    ILLEGAL16(46, 0x9501)                     # c.srli a0, 32 (shamt[5])
    ILLEGAL16(47, 0x6101)                     # c.addi16sp with nzimm = 0
    ILLEGAL16(48, 0x6501)                     # c.lui a0, 0 (nzimm = 0)
    ILLEGAL16(49, 0x8000)                     # quadrant 0, funct3 4: reserved
    # a 32-bit instruction at 2 mod 4, run (decoded), then its upper half
    # rewritten by an aligned word store that starts inside it
    li s1, 0
    la a2, p32
    .balign 4
13: c.nop
p32: .half 0x0513, 0x0010                     # addi a0, zero, 1 (at 2 mod 4)
    c.nop
    bnez s1, 14f
    CHECK(51, a0, 1)
    li a3, 0x000102a0; sw a3, 2(a2)           # -> addi a0, zero, 42; keeps the c.nop after it
    li s1, 1
    j 13b
14: CHECK(52, a0, 42)
    j pass

    .data
    .balign 4
buf: .zero 256
