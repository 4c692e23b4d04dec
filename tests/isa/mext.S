# mext.S - M extension: products' high halves in every signedness, division
# by zero and signed overflow (no traps: the spec's fixed results),
# truncation toward zero.
#include "test.h"
tests:
    li a2, 7;  li a3, 0;  div  a0, a2, a3;    CHECK(1, a0, -1)
    divu a0, a2, a3;                          CHECK(2, a0, 0xffffffff)
    rem  a0, a2, a3;                          CHECK(3, a0, 7)
    remu a0, a2, a3;                          CHECK(4, a0, 7)
    li a2, -7; div a0, a2, a3;                CHECK(5, a0, -1)
    rem a0, a2, a3;                           CHECK(6, a0, -7)
    li a2, 0x80000000; li a3, -1; div a0, a2, a3; CHECK(7, a0, 0x80000000)
    rem a0, a2, a3;                           CHECK(8, a0, 0)
    divu a0, a2, a3;                          CHECK(9, a0, 0)
    remu a0, a2, a3;                          CHECK(10, a0, 0x80000000)
    li a2, -7; li a3, 2;  div a0, a2, a3;     CHECK(11, a0, -3)         # toward zero
    rem a0, a2, a3;                           CHECK(12, a0, -1)         # sign of dividend
    li a2, 7;  li a3, -2; div a0, a2, a3;     CHECK(13, a0, -3)
    rem a0, a2, a3;                           CHECK(14, a0, 1)
    li a2, -7; divu a0, a2, a3;               CHECK(15, a0, 0)          # 0xfffffff9 / 0xfffffffe
    remu a0, a2, a3;                          CHECK(16, a0, 0xfffffff9)
    li a2, 100; li a3, 7; divu a0, a2, a3;    CHECK(17, a0, 14)
    remu a0, a2, a3;                          CHECK(18, a0, 2)
    li a2, -1; li a3, -1; mul a0, a2, a3;     CHECK(19, a0, 1)
    mulh a0, a2, a3;                          CHECK(20, a0, 0)
    mulhu a0, a2, a3;                         CHECK(21, a0, 0xfffffffe)
    mulhsu a0, a2, a3;                        CHECK(22, a0, 0xffffffff) # -1 * (2^32-1)
    li a2, 0x80000000; li a3, 0x80000000; mulh a0, a2, a3; CHECK(23, a0, 0x40000000)
    mulhu a0, a2, a3;                         CHECK(24, a0, 0x40000000)
    mulhsu a0, a2, a3;                        CHECK(25, a0, 0xc0000000) # -2^31 * 2^31
    mul a0, a2, a3;                           CHECK(26, a0, 0)
    li a2, 0x12345678; li a3, 0x9abcdef0; mul a0, a2, a3; CHECK(27, a0, 0x242d2080)
    mulhu a0, a2, a3;                         CHECK(28, a0, 0x0b00ea4e)
    mulh a0, a2, a3;                          CHECK(29, a0, 0xf8cc93d6) # 0x9abcdef0 negative
    mulhsu a0, a2, a3;                        CHECK(30, a0, 0x0b00ea4e) # rs1 positive: same as mulhu
    li a2, 0x9abcdef0; li a3, 0x12345678; mulhsu a0, a2, a3; CHECK(31, a0, 0xf8cc93d6)
    li a2, 3; mul a2, a2, a2;                 CHECK(32, a2, 9)          # rd = rs1 = rs2
    li a2, 12; div a2, a2, a2;                CHECK(33, a2, 1)
    li a2, 0; div a2, a2, a2;                 CHECK(34, a2, -1)
    j pass
