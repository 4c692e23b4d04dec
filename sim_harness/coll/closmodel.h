/* closmodel.h - nonblocking conditions of the three-stage Clos multicast
 * network v(m, n, r) (Yang and Masson; /work/shared/papers/collective-
 * communication-notes.txt; docs/clos.md), the paper's r -> x table, and a
 * simulator and an adversary for its routing control (net/clos_ctl.h).
 *
 * The paper's conditions, as printed:
 *   Clos '53: "nonblocking for permutation assignments ... if m >= 2n - 1"
 *   Theorem 3: "nonblocking for multicast assignments if
 *              m > min_{1 <= x <= min{n-1, r}} {(n-1)(x + r^(1/x))}"
 *   Theorem 4: "... if m >= 3(n-1) log r / log log r"
 *   Corollary 1: "nonblocking for restricted multicast assignments, in which
 *              each input port can be connected to at most d (1 <= d < r)
 *              output switches, if
 *              m > min_{1 <= x <= min{n-1, d}} {(n-1)(x + d^(1/x))}"
 *              "In particular ... m > (n-1)(2 log d / log log d + (log d)^(1/2))"
 *   Corollary 3 (multirate, b the bandwidth fraction of a minimum-size
 *              packet): "m > max_{b <= w <= 1} min_{1 <= x <= min{T(n,w,1), r}}
 *              {T(n,w,x) + T(n,w,1) r^(1/x)}", "In particular ...
 *              m > 3 floor(1/b)(n-1) log r / log log r", with Lemma 3:
 *              "max_{b <= w <= 1} T(n1, w, x) = floor(1/b)(n1-1)x".
 *   Corollary 4: "m > 2 floor(1/b)(n-1)" (one-to-one multirate).
 * Choices made here (docs/clos.md says why): log is the natural logarithm
 * (with base 2, Theorem 4's value falls below Theorem 3's for r = 256 to
 * 1,417); Corollary 3 is evaluated with every T at Lemma 3's maximum, so it
 * is floor(1/b) times Theorem 3's expression with x up to
 * min{floor(1/b)(n-1), r}.  Every "m >" bound is reported as the least
 * integer m that satisfies it, computed exactly (net/clos_ctl.h's
 * clos_root_above), and the real value beside it. */
#ifndef XNOC_CLOSMODEL_H
#define XNOC_CLOSMODEL_H

#include <stdint.h>

#define CLOSM_MAX_R 16777216L /* 2^24: r, d for the bounds (the table ends at 10,077,696) */
#define CLOSM_MAX_N 65536

typedef struct {
    int x;        /* the minimizing x (the least, on ties) */
    int xmax;     /* the range 1..xmax */
    double coef;  /* x + r^(1/x) at that x */
    double value; /* mult * coef: the bound, "m >" */
    long m_min;   /* the least integer m > value */
} closm_min;

/* min over 1 <= x <= xmax of mult (x + r^(1/x)) (mult >= 0, r >= 1,
 * xmax >= 1): Theorem 3 with mult = n-1, xmax = min{n-1, r}. */
void closm_minx(long mult, long r, long xmax, closm_min *o);

typedef struct {
    int n;
    long r;
    closm_min th3;          /* Theorem 3 */
    double th4;             /* Theorem 4's 3(n-1) ln r / ln ln r, or -1 (r < 3: undefined) */
    long th4_m;             /* the least m >= th4 */
    long clos;              /* 2n - 1 */
    long d;                 /* Corollary 1's d (0: not asked) */
    closm_min cor1;         /* Corollary 1 (d) */
    double cor1_particular; /* (n-1)(2 ln d / ln ln d + sqrt(ln d)), or -1 (d < 3) */
    long cor1_particular_m;
    long b_num, b_den;      /* Corollary 3's b = b_num / b_den (0: not asked) */
    long b_floor;           /* floor(1/b) */
    closm_min cor3;         /* Corollary 3 with Lemma 3's T */
    double cor3_particular; /* 3 floor(1/b)(n-1) ln r / ln ln r, or -1 */
    long cor3_particular_m;
    long cor4_m; /* 2 floor(1/b)(n-1) + 1 */
} closm_bounds;

/* Every bound for n >= 2, 1 <= r <= CLOSM_MAX_R, 0 <= d <= r (0: none),
 * b = b_num/b_den in (0, 1] or b_num = 0 (none).  0, or -1 with one line
 * in err. */
int closm_bounds_eval(int n, long r, long d, long b_num, long b_den, closm_bounds *o, char *err, int errlen);

/* Crosspoints of v(m, n, r): r n m + m r^2 + r m n. */
double closm_crosspoints(long m, long n, long r);

/* The paper's table "Relationship between r and the coefficient of m":
 * row c (c = 2, 3, ...) is the largest r whose coefficient
 * min_x (x + r^(1/x)) is at most c, i.e. max over x of (c - x)^x (with
 * x <= r), and that x.  Fills rows while r <= rmax; returns how many. */
typedef struct {
    long r;
    int x;
    int c; /* x + r^(1/x), an integer on every row */
} closm_row;
int closm_table(long rmax, closm_row *rows, int maxrows);

#endif
