/* double.c - double and float arithmetic.  Built for rv32im(ac) every
 * operation is a libgcc soft-float call (__adddf3, __muldf3, __divdf3,
 * __floatsidf, __fixdfsi, __extendsfdf2, comparisons, ...); built for
 * rv32imafdc/ilp32d or rv32imafc/ilp32f they are the cores' F/D
 * instructions.  Prints the results as exact bit patterns and through
 * printf's %.17g, so the host's build (IEEE double, round to nearest even)
 * must print the same bytes. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* volatile inputs: nothing is folded at compile time */
static volatile double one = 1.0, three = 3.0, tenth = 0.1, big = 1e300, tiny = 1e-300;
static volatile float f_third = 1.0f / 3.0f;
static volatile int32_t neg = -7;
static volatile int64_t huge = 9007199254740993LL; /* 2^53 + 1: rounds */

int main(void)
{
    double x = one / three;
    printf("1/3     %016llx %.17g\n", (unsigned long long)bits(x), x);
    double s = 0;
    for (int k = 1; k <= 1000; k++) s += one / ((double)k * k); /* sum 1/k^2 */
    printf("zeta2   %016llx %.17g\n", (unsigned long long)bits(s), s);
    double r = 2; /* Newton's square root of 2 */
    for (int i = 0; i < 6; i++) r = (r + 2 / r) / 2;
    printf("sqrt2   %016llx %.17g\n", (unsigned long long)bits(r), r);
    double t = tenth + tenth + tenth;
    printf("0.3     %016llx %d %d\n", (unsigned long long)bits(t), t == 0.3, t > 0.3);
    printf("ovf     %016llx uf %016llx\n", (unsigned long long)bits(big * big), (unsigned long long)bits(tiny * tiny));
    printf("i2d     %.17g %.17g\n", (double)neg, (double)huge);
    printf("d2i     %d %d %lld\n", (int)(x * 100), (int)-2.75, (long long)(big > 0 ? 1e18 : 0));
    float f = f_third * 3.0f, g = f_third;
    uint32_t gb;
    memcpy(&gb, &g, sizeof gb);
    printf("float   %08lx %.9g %.17g\n", (unsigned long)gb, (double)f, (double)g);
    return 0;
}
