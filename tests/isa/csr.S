# csr.S - Zicsr: identification CSRs, read/modify/write semantics of all six
# forms, "csrrs/csrrc with x0 (or uimm 0) do not write" (so reading a
# read-only CSR is fine), illegal instruction (mcause 2, mtval = the bits)
# for unimplemented CSRs and writes to read-only ones, WARL fields, counters.
#include "test.h"
tests:
    csrr a0, misa;                            CHECK(1, a0, 0x4000112d)
    csrr a0, mhartid;                         CHECK(2, a0, 0)
    csrr a0, mvendorid;                       CHECK(3, a0, 0)
    csrr a0, marchid;                         CHECK(4, a0, 0)
    csrr a0, mimpid;                          CHECK(5, a0, 0)
    li a2, 0x55; csrw mscratch, a2; csrr a0, mscratch; CHECK(6, a0, 0x55)
    li a2, 0x0f; csrrs a0, mscratch, a2;      CHECK(7, a0, 0x55)   # returns the old value
    csrr a0, mscratch;                        CHECK(8, a0, 0x5f)
    li a2, 0x50; csrrc a0, mscratch, a2;      CHECK(9, a0, 0x5f)
    csrr a0, mscratch;                        CHECK(10, a0, 0x0f)
    li a2, 0x123; csrrw a0, mscratch, a2;     CHECK(11, a0, 0x0f)
    csrr a0, mscratch;                        CHECK(12, a0, 0x123)
    csrrwi a0, mscratch, 9;                   CHECK(13, a0, 0x123)
    csrrsi a0, mscratch, 6;                   CHECK(14, a0, 9)
    csrrci a0, mscratch, 1;                   CHECK(15, a0, 15)
    csrr a0, mscratch;                        CHECK(16, a0, 14)
    li a0, 0x33; csrrw a0, mscratch, a0;      CHECK(17, a0, 14)    # rd = rs1
    csrr a0, mscratch;                        CHECK(18, a0, 0x33)
    # read-only CSRs: reading (csrrs/csrrc x0, csrrsi/csrrci 0) is fine
    csrrs a0, mhartid, x0;                    CHECK(19, a0, 0)
    csrrc a0, misa, x0;                       CHECK(20, a0, 0x4000112d)
    csrrsi a0, mimpid, 0;                     CHECK(21, a0, 0)
    csrr a0, cycle; csrr a0, instret; csrr a0, time; csrr a0, cycleh; csrr a0, instreth; csrr a0, timeh
    # ... writing them is illegal, even with rd = x0 or a zero value
    EXPECT_TRAP(1f)
2:  csrw mhartid, x0
1:  CHECK_TRAP(22, 2, 0xf1401073)
    EXPECT_TRAP(1f)
    csrrsi a0, mhartid, 1
1:  CHECK_TRAP(23, 2, 0xf140e573)
    EXPECT_TRAP(1f)
    csrw cycle, a2
1:  CHECK_TRAP(24, 2, 0xc0061073)
    li a2, 1
    EXPECT_TRAP(1f)
    csrrc a0, instret, a2
1:  CHECK_TRAP(25, 2, 0xc0263573)
    # unimplemented CSRs (supervisor, user-custom, debug, pmp): illegal for every form
    EXPECT_TRAP(1f)
    csrr a0, 0x7c0
1:  CHECK_TRAP(26, 2, 0x7c002573)
    EXPECT_TRAP(1f)
    csrw satp, x0
1:  CHECK_TRAP(27, 2, 0x18001073)
    EXPECT_TRAP(1f)
    csrr a0, sstatus
1:  CHECK_TRAP(28, 2, 0x10002573)
    EXPECT_TRAP(1f)
    csrrwi x0, pmpcfg0, 0
1:  CHECK_TRAP(29, 2, 0x3a005073)
    EXPECT_TRAP(1f)
    csrr a0, 0x7b0                             # dcsr
1:  CHECK_TRAP(30, 2, 0x7b002573)
    # an illegal CSR instruction does not write rd
    li a0, 99
    EXPECT_TRAP(1f)
    csrr a0, 0x7c0
1:  CHECK(31, a0, 99)
    # WARL: mstatus keeps MIE/MPIE/FS, MPP reads 3; misa ignores writes; mepc and mtvec alignment
    li a2, -1; csrw mstatus, a2; csrr a0, mstatus; CHECK(32, a0, 0x80007888) # FS = 3: SD
    csrw mstatus, x0; csrr a0, mstatus;       CHECK(33, a0, 0x1800)
    csrw misa, x0; csrr a0, misa;             CHECK(34, a0, 0x4000112d)
    li a2, 0x80000007; csrw mepc, a2; csrr a0, mepc; CHECK(35, a0, 0x80000006)
    csrr s0, mtvec
    li a2, 0x80000101; csrw mtvec, a2; csrr a0, mtvec; CHECK(36, a0, 0x80000101)   # vectored
    li a2, 0x80000102; csrw mtvec, a2; csrr a0, mtvec; CHECK(37, a0, 0x80000100)   # mode 2 reserved
    csrw mtvec, s0
    li a2, -1; csrw mie, a2; csrr a0, mie;    CHECK(38, a0, 0x888)
    csrw mie, x0
    li a2, 0x888; csrw mip, a2; csrr a0, mip; CHECK(39, a0, 0x8)    # only MSIP is software-writable
    csrw mip, x0; csrr a0, mip;               CHECK(40, a0, 0)
    li a2, 0xabc; csrw mcause, a2; csrr a0, mcause; CHECK(41, a0, 0xabc)
    csrw mtval, a2; csrr a0, mtval;           CHECK(42, a0, 0xabc)
    # counters: minstret counts retired instructions, is writable, and the
    # instruction writing it does not count itself; the user aliases agree
    csrr a2, minstret; nop; nop; csrr a3, minstret; sub a0, a3, a2; CHECK(43, a0, 3)
    li a2, 1000; csrw minstret, a2; csrr a0, minstret; CHECK(44, a0, 1000)
    csrw minstreth, x0; csrr a0, minstreth;   CHECK(45, a0, 0)
    csrr a2, minstret; csrr a3, instret; sub a0, a3, a2; CHECK(46, a0, 1)
    csrr a2, mcycle; nop; csrr a3, mcycle; sub a0, a3, a2; CHECK(47, a0, 2)   # one cycle each
    csrr a2, mcycle; csrr a3, cycle; sub a0, a3, a2; CHECK(48, a0, 1)
    csrr a2, cycle; csrr a3, time; sub a0, a3, a2; CHECK(49, a0, 1)
    li a2, 0x7; csrw mcycleh, a2; csrr a0, mcycleh; CHECK(50, a0, 7)
    csrr a0, cycleh;                          CHECK(51, a0, 7)
    li a2, -1; csrw minstret, a2; nop; csrr a0, minstreth; CHECK(52, a0, 1)   # carries into the high half
    li a2, 500; csrw mcycle, a2; csrr a0, mcycle; CHECK(53, a0, 500)   # the write stands
    j pass
