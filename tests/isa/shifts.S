# shifts.S - shifts by immediates and by registers (low five bits only),
# arithmetic vs logical right shifts; slli/srli/srai with shamt[5] set are
# illegal on RV32.
#include "test.h"
tests:
    li a2, 1;  li a3, 31; sll a0, a2, a3;     CHECK(1, a0, 0x80000000)
    li a3, 32; sll a0, a2, a3;                CHECK(2, a0, 1)           # 32 & 31 = 0
    li a3, 33; sll a0, a2, a3;                CHECK(3, a0, 2)
    li a3, -1; sll a0, a2, a3;                CHECK(4, a0, 0x80000000)  # -1 & 31 = 31
    li a2, 0x80000000; li a3, 31; srl a0, a2, a3; CHECK(5, a0, 1)
    li a3, 63; sra a0, a2, a3;                CHECK(6, a0, -1)
    li a3, 0xffffffe4; sra a0, a2, a3;        CHECK(7, a0, 0xf8000000)  # by 4
    li a3, 0xffffffe4; srl a0, a2, a3;        CHECK(8, a0, 0x08000000)
    li a2, 0x7fffffff; li a3, 31; sra a0, a2, a3; CHECK(9, a0, 0)
    li a2, 0x81234567; slli a0, a2, 0;        CHECK(10, a0, 0x81234567)
    slli a0, a2, 31;                          CHECK(11, a0, 0x80000000)
    srli a0, a2, 31;                          CHECK(12, a0, 1)
    srai a0, a2, 31;                          CHECK(13, a0, -1)
    srai a0, a2, 4;                           CHECK(14, a0, 0xf8123456)
    srli a0, a2, 4;                           CHECK(15, a0, 0x08123456)
    li a2, 3; sll a2, a2, a2;                 CHECK(16, a2, 24)         # rd = rs1 = rs2
    # shamt[5] = 1 is reserved on RV32: illegal instruction, mtval = the bits
    EXPECT_TRAP(1f)
    .word 0x02051513                          # slli a0, a0, 32
1:  CHECK_TRAP(17, 2, 0x02051513)
    EXPECT_TRAP(2f)
    .word 0x42055513                          # srai a0, a0, 32
2:  CHECK_TRAP(18, 2, 0x42055513)
    EXPECT_TRAP(3f)
    .word 0x40051513                          # slli with funct7 0x20
3:  CHECK_TRAP(19, 2, 0x40051513)
    j pass
