/* rv32_fp.c - the F and D extensions: instructions executed on the host's
 * IEEE 754 unit under the instruction's rounding mode, exception flags read
 * back from the host's floating-point environment into fflags.
 *
 * Decoding happens here, at execution (rv32_decode marks every F/D encoding
 * OP_FP with the instruction bits in imm): floating point is off the
 * interpreter's fast path.  What the host cannot be trusted with is done by
 * hand: NaN results are RISC-V's canonical NaN; single-precision operands
 * that are not NaN-boxed read as the canonical NaN; min/max, comparisons,
 * fclass and float-to-integer conversions (saturating, NaN -> the largest
 * integer) follow the specification bit by bit.  Round to nearest, ties to
 * max magnitude (rm = 4, RMM) has no host mode: rmm_d/rmm_s correct the
 * host's nearest-even result where it was a tie, in every rounding
 * operation but the fused multiply-adds (a square root cannot tie). */
#include "core/rv32_impl.h"

#include <fenv.h>
#include <math.h>
#include <string.h>

#define FFLAG_NV 16
#define FFLAG_DZ 8
#define FFLAG_OF 4
#define FFLAG_UF 2
#define FFLAG_NX 1

#define BOX 0xffffffff00000000ull
#define CNAN_S 0x7fc00000u
#define CNAN_D 0x7ff8000000000000ull

static float f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static uint32_t u32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static double f64(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}
static uint64_t u64(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* a single-precision operand: the canonical NaN unless NaN-boxed */
static uint32_t rs_s(const rv32 *c, uint32_t r) { return (c->f[r] & BOX) == BOX ? (uint32_t)c->f[r] : CNAN_S; }
static int snan_s(uint32_t u) { return (u & 0x7fc00000u) == 0x7f800000u && (u & 0x003fffffu); }
static int snan_d(uint64_t u)
{
    return (u & 0x7ff8000000000000ull) == 0x7ff0000000000000ull && (u & 0x0007ffffffffffffull);
}

static void set_s(rv32 *c, uint32_t rd, float v)
{
    uint32_t u = isnan(v) ? CNAN_S : u32(v);
    c->f[rd] = BOX | u;
}
static void set_d(rv32 *c, uint32_t rd, double v) { c->f[rd] = isnan(v) ? CNAN_D : u64(v); }

static const int host_rm[5] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD, FE_TONEAREST};

/* host exception flags -> fflags bits */
static uint32_t host_flags(void)
{
    int e = fetestexcept(FE_ALL_EXCEPT);
    return (e & FE_INVALID ? FFLAG_NV : 0) | (e & FE_DIVBYZERO ? FFLAG_DZ : 0) | (e & FE_OVERFLOW ? FFLAG_OF : 0) |
           (e & FE_UNDERFLOW ? FFLAG_UF : 0) | (e & FE_INEXACT ? FFLAG_NX : 0);
}

static uint32_t fclass(int sign, int is_inf, int is_nan, int is_snan, int is_zero, int is_sub)
{
    if (is_nan) return is_snan ? 1u << 8 : 1u << 9;
    if (is_inf) return sign ? 1u << 0 : 1u << 7;
    if (is_zero) return sign ? 1u << 3 : 1u << 4;
    if (is_sub) return sign ? 1u << 2 : 1u << 5;
    return sign ? 1u << 1 : 1u << 6;
}

/* RMM (rm = 4, round to nearest, ties away from zero) has no host mode:
 * the host rounds to nearest even, giving r, and where the exact result
 * r + t was a tie that went toward zero, the result moves one ulp away.
 * t is known exactly from an error-free transformation (TwoSum, fma); a
 * tie is 2|t| == ulp(|r|) * scale (scale: the divisor's magnitude when t
 * is a remainder, else 1) with t pointing away from zero. */
#define DEFINE_RMM(NAME, T, NEXTAFTER, FABS)                                                                           \
    static T NAME(rv32 *c, T r, T two_t, int t_pos, T scale)                                                           \
    {                                                                                                                  \
        if (two_t == 0 || isinf(r) || isnan(r) || (r != 0 && (r > 0) != t_pos)) return r;                              \
        T ar = FABS(r), up = NEXTAFTER(ar, INFINITY) - ar, away = NEXTAFTER(r, t_pos ? INFINITY : -INFINITY);          \
        feclearexcept(FE_ALL_EXCEPT); /* nextafter's own flags */                                                      \
        if (two_t != up * scale) return r;                                                                             \
        if (isinf(away)) c->fcsr |= FFLAG_OF | FFLAG_NX;                                                               \
        return away;                                                                                                   \
    }
DEFINE_RMM(rmm_d, double, nextafter, fabs)
DEFINE_RMM(rmm_s, float, nextafterf, fabsf)

/* fadd, fsub, fmul, fdiv (f5 0-3) in the host's current rounding mode;
 * under RMM (rm 4, the host rounding to nearest even) t = the exact
 * result minus r, from TwoSum or fma, decides a tie */
#define DEFINE_ARITH(NAME, T, FMA, FABS, RMM)                                                                          \
    static T NAME(rv32 *c, uint32_t f5, int rm, T a_, T b_)                                                            \
    {                                                                                                                  \
        volatile T a = a_, b = b_, r;                                                                                  \
        r = f5 == 0 ? a + b : f5 == 1 ? a - b : f5 == 2 ? a * b : a / b;                                               \
        if (rm != 4) return r;                                                                                         \
        c->fcsr |= host_flags();                                                                                       \
        T bb = f5 == 1 ? -b : b, t = 0, sc = 1;                                                                        \
        if (f5 <= 1) {                                                                                                 \
            volatile T v = r - a;                                                                                      \
            t = (a - (r - v)) + (bb - v); /* TwoSum */                                                                 \
        } else if (f5 == 2) t = FMA(a, b, -r);                                                                         \
        else {                                                                                                         \
            t = FMA(-r, b, a); /* the remainder: the exact quotient is r + t / b */                                    \
            sc = FABS(b);                                                                                              \
            if (b < 0) t = -t;                                                                                         \
        }                                                                                                              \
        feclearexcept(FE_ALL_EXCEPT);                                                                                  \
        return RMM(c, r, 2 * FABS(t), t > 0, sc);                                                                      \
    }
DEFINE_ARITH(arith_d, double, fma, fabs, rmm_d)
DEFINE_ARITH(arith_s, float, fmaf, fabsf, rmm_s)

/* float -> int32/uint32 in rounding mode rm: saturating, NaN -> max, NV
 * instead of NX when out of range */
static uint32_t to_int(rv32 *c, double v, int is_nan, int rm, int is_unsigned)
{
    double lo = is_unsigned ? 0.0 : -2147483648.0, hi = is_unsigned ? 4294967295.0 : 2147483647.0;
    uint32_t max = is_unsigned ? 0xffffffffu : 0x7fffffffu, min = is_unsigned ? 0 : 0x80000000u;
    if (is_nan) {
        c->fcsr |= FFLAG_NV;
        return max;
    }
    double r;
    switch (rm) {
    case 1: r = trunc(v); break;
    case 2: r = floor(v); break;
    case 3: r = ceil(v); break;
    case 4: r = round(v); break; /* ties away from zero: RMM is exact here */
    default: {
        r = nearbyint(v); /* the host's default mode: to nearest, ties to even */
        break;
    }
    }
    if (r < lo || r > hi) {
        c->fcsr |= FFLAG_NV;
        return r < lo ? min : max;
    }
    if (r != v) c->fcsr |= FFLAG_NX;
    return is_unsigned ? (uint32_t)r : (uint32_t)(int32_t)r;
}

/* RAM only: FP loads and stores never reach MMIO */
static int fp_mem(rv32 *c, uint32_t a, int bytes, uint32_t *off)
{
    uint32_t o = a - c->ram_base;
    if (o > c->ram_size - (uint32_t)bytes) return -1;
    c->page_seen[o >> RV32_PAGE_SHIFT] = 1; /* the count is the loop's business: a new page counts once */
    *off = o;
    return 0;
}

/* OP-FP (opcode 0x53) in the host's rounding mode, already set: 0, or -1
 * for a reserved encoding.  An integer result goes to *xres (*writes_x). */
static int fp_op(rv32 *c, uint32_t i, int rm, uint32_t *xres_out, int *writes_x)
{
    uint32_t rd = i >> 7 & 31, f3 = i >> 12 & 7, rs1 = i >> 15 & 31, rs2 = i >> 20 & 31, f5 = i >> 27;
    int dbl = (i >> 25 & 3) == 1;
    uint32_t sa = rs_s(c, rs1), sb = rs_s(c, rs2), xres = 0;
    uint64_t da = c->f[rs1], db = c->f[rs2];
    switch (f5) {
    case 0x00: /* fadd fsub fmul fdiv */
    case 0x01:
    case 0x02:
    case 0x03:
        if (dbl) set_d(c, rd, arith_d(c, f5, rm, f64(da), f64(db)));
        else set_s(c, rd, arith_s(c, f5, rm, f32(sa), f32(sb)));
        break;
    case 0x0b: /* fsqrt */
        if (rs2) return -1;
        if (dbl) {
            volatile double a = f64(da), r;
            r = sqrt(a);
            set_d(c, rd, r);
        } else {
            volatile float a = f32(sa), r;
            r = sqrtf(a);
            set_s(c, rd, r);
        }
        break;
    case 0x04: /* fsgnj, fsgnjn, fsgnjx: sign bits only, no NaN rules */
        if (f3 > 2) return -1;
        if (dbl) {
            uint64_t s = f3 == 0 ? db : f3 == 1 ? ~db : da ^ db;
            c->f[rd] = (da & ~(1ull << 63)) | (s & 1ull << 63);
        } else {
            uint32_t s = f3 == 0 ? sb : f3 == 1 ? ~sb : sa ^ sb;
            c->f[rd] = BOX | (sa & 0x7fffffffu) | (s & 0x80000000u);
        }
        break;
    case 0x05: { /* fmin, fmax: a NaN loses to a number; -0 < +0 */
        if (f3 > 1) return -1;
        int max = f3 == 1;
        if (dbl) {
            double a = f64(da), b = f64(db);
            if (snan_d(da) || snan_d(db)) feraiseexcept(FE_INVALID);
            uint64_t r;
            if (isnan(a) && isnan(b)) r = CNAN_D;
            else if (isnan(a)) r = db;
            else if (isnan(b)) r = da;
            else if (a == b) r = max ? da & db : da | db; /* +0/-0: sign bit decides */
            else r = (a < b) != max ? da : db;
            c->f[rd] = r;
        } else {
            float a = f32(sa), b = f32(sb);
            if (snan_s(sa) || snan_s(sb)) feraiseexcept(FE_INVALID);
            uint32_t r;
            if (isnan(a) && isnan(b)) r = CNAN_S;
            else if (isnan(a)) r = sb;
            else if (isnan(b)) r = sa;
            else if (a == b) r = max ? sa & sb : sa | sb;
            else r = (a < b) != max ? sa : sb;
            c->f[rd] = BOX | r;
        }
        break;
    }
    case 0x08: /* fcvt.s.d (fmt S, rs2 1), fcvt.d.s (fmt D, rs2 0) */
        if (dbl && rs2 == 0) {
            volatile float a = f32(sa);
            volatile double r = a;
            set_d(c, rd, r);
        } else if (!dbl && rs2 == 1) {
            volatile double a = f64(da);
            volatile float r = (float)a;
            if (rm == 4) {
                c->fcsr |= host_flags();
                double t = a - (double)r; /* exact: a and r are close */
                feclearexcept(FE_ALL_EXCEPT);
                if (!isinf(r) && !isnan(r) && t != 0) {
                    float ar = fabsf(r), up = nextafterf(ar, INFINITY) - ar;
                    if (2 * fabs(t) == (double)up && (r == 0 || (r > 0) == (t > 0)))
                        r = nextafterf(r, t > 0 ? INFINITY : -INFINITY);
                    feclearexcept(FE_ALL_EXCEPT);
                }
            }
            set_s(c, rd, r);
        } else return -1;
        break;
    case 0x14: { /* fle, flt (signaling: any NaN is invalid), feq (quiet: sNaN only) */
        if (f3 > 2) return -1;
        int nan, snan, r;
        if (dbl) {
            double a = f64(da), b = f64(db);
            nan = isnan(a) || isnan(b);
            snan = snan_d(da) || snan_d(db);
            r = nan ? 0 : f3 == 2 ? a == b : f3 == 1 ? a < b : a <= b;
        } else {
            float a = f32(sa), b = f32(sb);
            nan = isnan(a) || isnan(b);
            snan = snan_s(sa) || snan_s(sb);
            r = nan ? 0 : f3 == 2 ? a == b : f3 == 1 ? a < b : a <= b;
        }
        feclearexcept(FE_ALL_EXCEPT);
        if (snan || (nan && f3 != 2)) feraiseexcept(FE_INVALID);
        xres = (uint32_t)r;
        *writes_x = 1;
        break;
    }
    case 0x18: /* fcvt.w[u].fmt */
        if (rs2 > 1) return -1;
        fesetround(FE_TONEAREST);
        feclearexcept(FE_ALL_EXCEPT);
        xres = dbl ? to_int(c, f64(da), isnan(f64(da)), rm, rs2 == 1)
                   : to_int(c, (double)f32(sa), isnan(f32(sa)), rm, rs2 == 1);
        feclearexcept(FE_ALL_EXCEPT); /* to_int set fcsr itself */
        *writes_x = 1;
        break;
    case 0x1a: /* fcvt.fmt.w[u] */
        if (rs2 > 1) return -1;
        if (dbl) set_d(c, rd, rs2 ? (double)c->x[rs1] : (double)(int32_t)c->x[rs1]);
        else {
            volatile uint32_t x = c->x[rs1];
            volatile float r = rs2 ? (float)x : (float)(int32_t)x;
            if (rm == 4) { /* t = x - r, exact in 64-bit integers */
                c->fcsr |= host_flags();
                int64_t t = (rs2 ? (int64_t)x : (int64_t)(int32_t)x) - (int64_t)r;
                feclearexcept(FE_ALL_EXCEPT);
                r = rmm_s(c, r, 2 * fabsf((float)t), t > 0, 1);
                feclearexcept(FE_ALL_EXCEPT);
            }
            set_s(c, rd, r);
        }
        break;
    case 0x1c: /* fmv.x.w (S, rm 0), fclass (rm 1) */
        if (rs2 || f3 > 1 || (dbl && f3 == 0)) return -1;
        if (f3 == 0) xres = (uint32_t)c->f[rs1];
        else if (dbl) {
            double a = f64(da);
            xres = fclass((int)(da >> 63), isinf(a), isnan(a), snan_d(da), a == 0, fpclassify(a) == FP_SUBNORMAL);
        } else {
            float a = f32(sa);
            xres = fclass((int)(sa >> 31), isinf(a), isnan(a), snan_s(sa), a == 0, fpclassify(a) == FP_SUBNORMAL);
        }
        feclearexcept(FE_ALL_EXCEPT); /* a == 0 on a signaling NaN raised invalid on the host */
        *writes_x = 1;
        break;
    case 0x1e: /* fmv.w.x */
        if (dbl || rs2 || f3) return -1;
        c->f[rd] = BOX | c->x[rs1];
        break;
    default: return -1;
    }
    *xres_out = xres;
    return 0;
}

int rv32_fp_exec(rv32 *c, uint32_t i, uint32_t *tval, uint32_t *stored)
{
    uint32_t opc = i & 0x7f, rd = i >> 7 & 31, f3 = i >> 12 & 7, rs1 = i >> 15 & 31, rs2 = i >> 20 & 31;
    uint32_t f7 = i >> 25, fmt = f7 & 3, f5 = f7 >> 2;
    if (!(c->mstatus & MSTATUS_FS)) return CAUSE_ILLEGAL; /* the FPU is off */
    if (opc == 0x07 || opc == 0x27) {                     /* flw / fld / fsw / fsd */
        int bytes = f3 == 2 ? 4 : f3 == 3 ? 8 : 0;
        if (!bytes) return CAUSE_ILLEGAL;
        int32_t imm = opc == 0x07 ? (int32_t)i >> 20 : ((int32_t)i >> 25) * 32 | (int32_t)(i >> 7 & 31);
        uint32_t a = c->x[rs1] + (uint32_t)imm, off;
        if (fp_mem(c, a, bytes, &off)) {
            *tval = a;
            return opc == 0x07 ? CAUSE_LOAD_ACCESS : CAUSE_STORE_ACCESS;
        }
        if (opc == 0x07) {
            uint64_t v = 0;
            memcpy(&v, c->ram + off, (size_t)bytes);
            c->f[rd] = bytes == 4 ? BOX | v : v;
        } else {
            memcpy(c->ram + off, &c->f[rs2], (size_t)bytes);
            *tval = a; /* the caller drops the decodes it overwrote */
            *stored = (uint32_t)bytes;
            return 0;
        }
        c->mstatus |= MSTATUS_FS;
        return 0;
    }
    if (fmt > 1) return CAUSE_ILLEGAL; /* H and Q are not there */
    int dbl = fmt == 1;
    /* the rounding mode, where the instruction has one */
    int rm = f3 == 7 ? (int)(c->fcsr >> 5 & 7) : (int)f3;
    int uses_rm = opc != 0x53 || f5 <= 3 || f5 == 0x0b || f5 == 0x08 || f5 == 0x18 || f5 == 0x1a;
    if (uses_rm && rm > 4) return CAUSE_ILLEGAL;
    uint32_t sa = rs_s(c, rs1), sb = rs_s(c, rs2), sc3 = rs_s(c, i >> 27);
    uint64_t da = c->f[rs1], db = c->f[rs2], dc3 = c->f[i >> 27];
    uint32_t xres = 0;
    int writes_x = 0;
    feclearexcept(FE_ALL_EXCEPT);
    fesetround(host_rm[rm > 4 ? 0 : rm]);
    if (opc == 0x43 || opc == 0x47 || opc == 0x4b || opc == 0x4f) {
        /* fmadd: a*b+c; fmsub: a*b-c; fnmsub: -(a*b)+c; fnmadd: -(a*b)-c */
        int neg_p = opc == 0x4b || opc == 0x4f, neg_c = opc == 0x47 || opc == 0x4f;
        if (dbl) {
            volatile double a = f64(da), b = f64(db), z = f64(dc3), r;
            int inf0 = (isinf(a) && b == 0) || (a == 0 && isinf(b));
            r = fma(neg_p ? -a : a, b, neg_c ? -z : z);
            set_d(c, rd, r);
            if (inf0) feraiseexcept(FE_INVALID);
        } else {
            volatile float a = f32(sa), b = f32(sb), z = f32(sc3), r;
            int inf0 = (isinf(a) && b == 0) || (a == 0 && isinf(b));
            r = fmaf(neg_p ? -a : a, b, neg_c ? -z : z);
            set_s(c, rd, r);
            if (inf0) feraiseexcept(FE_INVALID);
        }
    } else if (opc != 0x53) {
        fesetround(FE_TONEAREST);
        return CAUSE_ILLEGAL;
    } else {
        if (fp_op(c, i, rm, &xres, &writes_x)) goto illegal;
    }
    c->fcsr |= host_flags();
    fesetround(FE_TONEAREST);
    feclearexcept(FE_ALL_EXCEPT);
    if (writes_x) {
        if (rd) c->x[rd] = xres;
    }
    c->mstatus |= MSTATUS_FS; /* f registers or fflags written: dirty */
    return 0;
illegal:
    fesetround(FE_TONEAREST);
    feclearexcept(FE_ALL_EXCEPT);
    return CAUSE_ILLEGAL;
}
