/* closmodel.c - the Clos multicast network's nonblocking bounds and the
 * paper's r -> x table (closmodel.h has the statements). */
#include "coll/closmodel.h"

#include <math.h>
#include <stdio.h>

#include "net/clos_ctl.h"

void closm_minx(long mult, long r, long xmax, closm_min *o)
{
    if (xmax < 1) xmax = 1;
    *o = (closm_min){.x = 0, .xmax = (int)(xmax > 1000000 ? 1000000 : xmax)};
    for (long x = 1; x <= xmax; x++) {
        /* x + r^(1/x) > x: no x beyond the best coefficient can win */
        if (o->x && (double)x >= o->coef) break;
        double coef = (double)x + pow((double)r, 1.0 / (double)x);
        /* the least integer m > mult (x + r^(1/x)) = mult x + (the least integer above mult r^(1/x)) */
        long m = mult * x + clos_root_above(mult, r, (int)x);
        /* the exact m decides; on equal m the smaller real value, then the smaller x */
        if (!o->x || m < o->m_min || (m == o->m_min && coef < o->coef - 1e-12)) {
            o->x = (int)x;
            o->coef = coef;
            o->m_min = m;
        }
    }
    o->value = (double)mult * o->coef;
}

/* ln r / ln ln r, or -1 where ln ln r <= 0 (r < 3) */
static double lnratio(long r) { return r >= 3 ? log((double)r) / log(log((double)r)) : -1; }

/* the least integer above v (strict), or at least v (ge) */
static long least_above(double v, int ge)
{
    double f = floor(v);
    return ge && f == v ? (long)f : (long)f + 1;
}

int closm_bounds_eval(int n, long r, long d, long b_num, long b_den, closm_bounds *o, char *err, int errlen)
{
    if (n < 2 || n > CLOSM_MAX_N) return snprintf(err, (size_t)errlen, "n must be 2..%d (got %d)", CLOSM_MAX_N, n), -1;
    if (r < 1 || r > CLOSM_MAX_R)
        return snprintf(err, (size_t)errlen, "r must be 1..%ld (got %ld)", CLOSM_MAX_R, r), -1;
    if (d < 0 || d > r) return snprintf(err, (size_t)errlen, "d must be 1..r = %ld (got %ld)", r, d), -1;
    if (b_num < 0 || (b_num && (b_den < 1 || b_num > b_den)))
        return snprintf(err, (size_t)errlen, "b must be a fraction in (0, 1]"), -1;
    *o = (closm_bounds){.n = n, .r = r, .d = d, .b_num = b_num, .b_den = b_den};
    long n1 = n - 1;
    closm_minx(n1, r, n1 < r ? n1 : r, &o->th3);
    double q = lnratio(r);
    o->th4 = q < 0 ? -1 : 3.0 * (double)n1 * q;
    o->th4_m = q < 0 ? 0 : least_above(o->th4, 1);
    o->clos = 2L * n - 1;
    if (d) {
        closm_minx(n1, d, n1 < d ? n1 : d, &o->cor1);
        double qd = lnratio(d);
        o->cor1_particular = qd < 0 ? -1 : (double)n1 * (2.0 * qd + sqrt(log((double)d)));
        o->cor1_particular_m = qd < 0 ? 0 : least_above(o->cor1_particular, 0);
    }
    if (b_num) {
        long bf = b_den / b_num; /* floor(1/b), exactly */
        long mult = bf * n1;
        o->b_floor = bf;
        closm_minx(mult, r, mult < r ? mult : r, &o->cor3);
        o->cor3_particular = q < 0 ? -1 : 3.0 * (double)mult * q;
        o->cor3_particular_m = q < 0 ? 0 : least_above(o->cor3_particular, 0);
        o->cor4_m = 2 * mult + 1;
    }
    return 0;
}

double closm_crosspoints(long m, long n, long r) { return (double)r * n * m * 2 + (double)m * r * r; }

int closm_table(long rmax, closm_row *rows, int maxrows)
{
    int k = 0;
    for (int c = 2; k < maxrows; c++) {
        long best = 0;
        int bx = 0;
        for (int x = 1; x < c; x++) {
            double p = pow((double)(c - x), (double)x); /* (c-x)^x, exact below 2^53 */
            if (p > 9e15) continue;
            long v = (long)p;
            if (v >= x && v > best) best = v, bx = x; /* x <= r */
        }
        if (best > rmax) break;
        rows[k++] = (closm_row){.r = best, .x = bx, .c = c};
    }
    return k;
}
