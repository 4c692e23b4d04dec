# ldst.S - loads and stores: widths, sign/zero extension, misaligned
# accesses in RAM (complete byte-wise, as on Spike, also across words),
# access faults (mcause 5 load / 7 store, mtval = address) outside RAM and
# devices, on misaligned device accesses, and across the end of RAM
# (the driver's RAM is 256 KiB: 0x80000000-0x80040000).
#include "test.h"
tests:
    la a2, buf
    li a3, 0x8899aabb; sw a3, 0(a2)
    lb a0, 0(a2);                             CHECK(1, a0, 0xffffffbb)
    lbu a0, 0(a2);                            CHECK(2, a0, 0xbb)
    lh a0, 2(a2);                             CHECK(3, a0, 0xffff8899)
    lhu a0, 2(a2);                            CHECK(4, a0, 0x8899)
    lw a0, 0(a2);                             CHECK(5, a0, 0x8899aabb)
    li a3, 0x7f; sb a3, 3(a2); lb a0, 3(a2);  CHECK(6, a0, 0x7f)
    lw a0, 0(a2);                             CHECK(7, a0, 0x7f99aabb)   # sb touched one byte
    li a3, 0x12345678; sh a3, 0(a2); lw a0, 0(a2); CHECK(8, a0, 0x7f995678)
    addi a4, a2, 8; lw a0, -8(a4);            CHECK(9, a0, 0x7f995678)   # negative offset
    # misaligned: every offset of a word, halfword across a word boundary
    li a3, 0x11223344
    sw a3, 1(a2); lw a0, 1(a2);               CHECK(10, a0, 0x11223344)
    sw a3, 2(a2); lw a0, 2(a2);               CHECK(11, a0, 0x11223344)
    sw a3, 3(a2); lw a0, 3(a2);               CHECK(12, a0, 0x11223344)
    lbu a0, 3(a2);                            CHECK(13, a0, 0x44)
    lbu a0, 6(a2);                            CHECK(14, a0, 0x11)
    lhu a0, 5(a2);                            CHECK(15, a0, 0x1122)      # bytes 5,6
    li a3, 0xbeef; sh a3, 7(a2); lh a0, 7(a2); CHECK(16, a0, 0xffffbeef) # crosses into word 2
    lw a0, 4(a2);                             CHECK(17, a0, 0xef112233)
    # the last word of RAM is usable
    li a4, 0x8003fffc; li a3, 0xcafef00d; sw a3, 0(a4); lw a0, 0(a4); CHECK(18, a0, 0xcafef00d)
    # access faults
    li a4, 0x40000000
    EXPECT_TRAP(1f)
    lw a0, 0(a4)
1:  CHECK_TRAP(19, 5, 0x40000000)
    EXPECT_TRAP(2f)
    sw a0, 4(a4)
2:  CHECK_TRAP(20, 7, 0x40000004)
    EXPECT_TRAP(3f)
    lb a0, -1(x0)
3:  CHECK_TRAP(21, 5, 0xffffffff)
    li a4, 0x8003fffe                         # a word straddling the end of RAM
    EXPECT_TRAP(4f)
    lw a0, 0(a4)
4:  CHECK_TRAP(22, 5, 0x8003fffe)
    EXPECT_TRAP(5f)
    sh a0, 1(a4)
5:  CHECK_TRAP(23, 7, 0x8003ffff)
    li a4, 0x7fffffff                         # one byte below RAM
    EXPECT_TRAP(6f)
    lbu a0, 0(a4)
6:  CHECK_TRAP(24, 5, 0x7fffffff)
    li a4, 0x10000008                         # console device: byte stores only ...
    EXPECT_TRAP(7f)
    lw a0, 0(a4)
7:  CHECK_TRAP(25, 5, 0x10000008)
    li a4, 0x02004002                         # ... and device words must be aligned
    EXPECT_TRAP(8f)
    lw a0, 0(a4)
8:  CHECK_TRAP(26, 5, 0x02004002)
    # a faulting load leaves rd alone
    li a0, 77; li a4, 0x40000000
    EXPECT_TRAP(9f)
    lw a0, 0(a4)
9:  CHECK(27, a0, 77)
    # a device that is not ready stalls the load; it retires once, with the value
    li a4, 0x10000004
    csrr a5, minstret; lw a0, 0(a4); csrr a6, minstret
    sub a6, a6, a5;                           CHECK(28, a6, 2)   # csrr + lw, not the retries
    CHECK(29, a0, 3)
    j pass
    .data
    .align 4
buf: .zero 16
