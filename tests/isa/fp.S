# fp.S - F and D beside what the official rv32uf/rv32ud tests check: the
# four host rounding modes on a tie, static and dynamic rm, the exception
# flags (NX, DZ, NV, OF, UF) accumulating in fflags, canonical NaNs,
# NaN-boxing (a double read as a single is the canonical NaN), saturating
# conversions, min/max of signed zeros and NaNs, quiet vs signaling
# compares, fclass, fused multiply-add exactness, RMM ties, the FP CSRs,
# the RVC FP loads and stores, and reserved rounding modes (illegal).
# march: rv32imafdc
#include "test.h"
#define CAUSE(n, c) li gp, n; li t6, c; bne s9, t6, fail
#define FS(reg, bits) li t0, bits; fmv.w.x reg, t0
#define XS(n, reg, bits) fmv.x.w t1, reg; CHECK(n, t1, bits)
#define FLAGS(n, exp) csrrw t1, fflags, x0; CHECK(n, t1, exp)
tests:
    csrw fcsr, x0
    # 1 + 2^-24: exactly halfway between 1 and the next single
    FS(ft0, 0x3f800000); FS(ft1, 0x33800000)
    fadd.s ft2, ft0, ft1, rne; XS(1, ft2, 0x3f800000)
    fadd.s ft2, ft0, ft1, rtz; XS(2, ft2, 0x3f800000)
    fadd.s ft2, ft0, ft1, rdn; XS(3, ft2, 0x3f800000)
    fadd.s ft2, ft0, ft1, rup; XS(4, ft2, 0x3f800001)
    FLAGS(5, 1)                               # NX, from all four
    li t0, 3; csrw frm, t0                    # dynamic: RUP
    fadd.s ft2, ft0, ft1; XS(6, ft2, 0x3f800001)
    csrr t1, fcsr; CHECK(7, t1, 0x61)         # frm 3, NX
    csrw fcsr, x0
    # 1/0 = +inf, DZ; 0/0 = canonical NaN, NV
    FS(ft3, 0)
    fdiv.s ft2, ft0, ft3; XS(8, ft2, 0x7f800000); FLAGS(9, 8)
    fdiv.s ft2, ft3, ft3; XS(10, ft2, 0x7fc00000); FLAGS(11, 16)
    # overflow and underflow (with inexact)
    FS(ft4, 0x7f7fffff); fmul.s ft2, ft4, ft4; XS(12, ft2, 0x7f800000); FLAGS(13, 5)
    FS(ft4, 0x00800000); fmul.s ft2, ft4, ft1; XS(14, ft2, 0x00000000); FLAGS(15, 3)
    # a NaN operand's payload is not propagated: canonical NaN, sNaN -> NV
    FS(ft5, 0x7f800001)
    fadd.s ft2, ft5, ft0; XS(16, ft2, 0x7fc00000); FLAGS(17, 16)
    # NaN-boxing: a double in an f register read as a single is the canonical NaN
    la a0, one_d; fld ft6, 0(a0)
    fadd.s ft2, ft6, ft0; XS(18, ft2, 0x7fc00000); FLAGS(19, 0)
    fsgnj.s ft2, ft6, ft6; XS(20, ft2, 0x7fc00000)
    fmv.x.w t1, ft6; CHECK(21, t1, 0)          # fmv.x.w: the low bits, unchecked
    # conversions to integers: rounding, saturation, NaN
    FS(ft7, 0x40600000)                        # 3.5
    fcvt.w.s t1, ft7, rne; CHECK(22, t1, 4)
    fcvt.w.s t1, ft7, rtz; CHECK(23, t1, 3)
    fcvt.w.s t1, ft7, rmm; CHECK(24, t1, 4)
    FS(ft7, 0xc0600000)                        # -3.5
    fcvt.w.s t1, ft7, rdn; CHECK(25, t1, -4)
    fcvt.w.s t1, ft7, rmm; CHECK(26, t1, -4)
    FLAGS(27, 1)
    fcvt.w.s t1, ft5, rtz; CHECK(28, t1, 0x7fffffff); FLAGS(29, 16)
    FS(ft7, 0x501502f9)                        # 1e10
    fcvt.w.s t1, ft7, rtz; CHECK(30, t1, 0x7fffffff); FLAGS(31, 16)
    FS(ft7, 0xbf800000)                        # -1
    fcvt.wu.s t1, ft7, rtz; CHECK(32, t1, 0); FLAGS(33, 16)
    li t0, -7; fcvt.s.w ft2, t0; XS(34, ft2, 0xc0e00000)
    li t0, -1; fcvt.s.wu ft2, t0; XS(35, ft2, 0x4f800000); FLAGS(36, 1)
    # min/max: -0 < +0, a NaN loses, two NaNs give the canonical one
    FS(ft8, 0x80000000)
    fmin.s ft2, ft3, ft8; XS(37, ft2, 0x80000000)
    fmax.s ft2, ft8, ft3; XS(38, ft2, 0x00000000)
    FS(ft9, 0x7fc00000)
    fmin.s ft2, ft9, ft0; XS(39, ft2, 0x3f800000); FLAGS(40, 0)
    fmax.s ft2, ft5, ft9; XS(41, ft2, 0x7fc00000); FLAGS(42, 16)
    # compares: feq is quiet (qNaN: no flag), flt/fle signal on any NaN
    feq.s t1, ft9, ft0; CHECK(43, t1, 0); FLAGS(44, 0)
    flt.s t1, ft9, ft0; CHECK(45, t1, 0); FLAGS(46, 16)
    fle.s t1, ft8, ft3; CHECK(47, t1, 1)       # -0 <= +0
    feq.s t1, ft8, ft3; CHECK(48, t1, 1)
    # fclass
    FS(ft2, 0xff800000); fclass.s t1, ft2; CHECK(49, t1, 0x001)
    fclass.s t1, ft8; CHECK(50, t1, 0x008)
    FS(ft2, 0x00000001); fclass.s t1, ft2; CHECK(51, t1, 0x020)
    fclass.s t1, ft5; CHECK(52, t1, 0x100)
    fclass.s t1, ft9; CHECK(53, t1, 0x200)
    # fused: (1 + 2^-52)(1 - 2^-52) - 1 = -2^-104 exactly (unfused: 0)
    la a0, fma_in; fld fa0, 0(a0); fld fa1, 8(a0); fld fa2, 16(a0)
    fmsub.d fa3, fa0, fa1, fa2
    fsd fa3, 24(a0); lw t1, 24(a0); CHECK(54, t1, 0); lw t1, 28(a0); CHECK(55, t1, 0xb9700000)
    # double <-> single rounding
    fcvt.s.d ft2, fa0; XS(56, ft2, 0x3f800000); FLAGS(57, 1)
    fcvt.d.s fa4, ft1; fsd fa4, 24(a0); lw t1, 28(a0); CHECK(58, t1, 0x3e700000)
    # RMM: ties away from zero (the host has no such mode)
    fadd.s ft2, ft0, ft1, rmm; XS(70, ft2, 0x3f800001)
    fsgnjn.s ft3, ft0, ft0; fsgnjn.s ft4, ft1, ft1
    fadd.s ft2, ft3, ft4, rmm; XS(71, ft2, 0xbf800001)
    FS(ft4, 0x34400000)                        # 1 + 3 * 2^-24: the tie's even side is already away
    fadd.s ft2, ft0, ft4, rmm; XS(72, ft2, 0x3f800002)
    FS(ft4, 0x3f800800)                        # (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24
    fmul.s ft2, ft4, ft4, rne; XS(73, ft2, 0x3f801000)
    fmul.s ft2, ft4, ft4, rmm; XS(74, ft2, 0x3f801001)
    li t0, 16777217
    fcvt.s.w ft2, t0, rne; XS(75, ft2, 0x4b800000)
    fcvt.s.w ft2, t0, rmm; XS(76, ft2, 0x4b800001)
    la a0, tie_d; fld fa7, 0(a0)               # 1 + 2^-24 as a double
    fcvt.s.d ft2, fa7, rmm; XS(77, ft2, 0x3f800001)
    fcvt.s.d ft2, fa7, rne; XS(78, ft2, 0x3f800000)
    FLAGS(79, 1)
    # RVC FP loads and stores
    la s1, buf
    c.fsd fa0, 8(s1); c.fld fa5, 8(s1); fsd fa5, 16(s1); lw t1, 16(s1); CHECK(59, t1, 1)
    FS(fs0, 0x12345678); c.fsw fs0, 4(s1); lw t1, 4(s1); CHECK(60, t1, 0x12345678)
    c.flw fs1, 4(s1); XS(61, fs1, 0x12345678)
    mv s0, sp; mv sp, s1
    c.fswsp fs0, 32(sp); c.flwsp ft4, 32(sp); XS(62, ft4, 0x12345678)
    c.fsdsp fa0, 40(sp); c.fldsp fa6, 40(sp); feq.d t1, fa6, fa0; CHECK(63, t1, 1)
    mv sp, s0
    # reserved rounding modes: static 5, or dynamic with frm 5: illegal
    EXPECT_TRAP(1f)
    .word 0x001050d3                           # fadd.s ft1, ft0, ft1, rm = 5
1:  CAUSE(64, 2)
    li t0, 5; csrw frm, t0
    EXPECT_TRAP(1f)
    fadd.s ft2, ft0, ft1
1:  CAUSE(65, 2)
    csrw fcsr, x0
    # the CSRs: fcsr = frm << 5 | fflags, only 8 bits
    li t0, -1; csrw fcsr, t0; csrr t1, fcsr; CHECK(66, t1, 0xff)
    csrr t1, frm; CHECK(67, t1, 7)
    csrr t1, fflags; CHECK(68, t1, 31)
    csrwi fflags, 0; csrr t1, fcsr; CHECK(69, t1, 0xe0)
    csrw fcsr, x0
    j pass

    .data
    .balign 8
one_d: .dword 0x3ff0000000000000
tie_d: .dword 0x3ff0000010000000
fma_in: .dword 0x3ff0000000000001, 0x3feffffffffffffe, 0x3ff0000000000000, 0
buf: .zero 64
