#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

int check(const char *s)
{
    int v[] = {5, -3, 17, 0, 8, 8, -40};
    qsort(v, 7, sizeof v[0], cmp);
    for (int i = 0; i < 7; i++) printf("%d%c", v[i], i == 6 ? '\n' : ' ');
    printf("[%5s][%-6.2s][%+d][% d][%#o][%#X][%.3d][%c][%%]\n", "ab", "xyz", 7, 7, 8, 255u, 5, 'q');
    printf("%lld %llu %llx %hhd %hu %ld\n", -1234567890123ll, 18446744073709551615ull, 0x123456789abcull, (signed char)200, (unsigned short)70000, -5l);
    printf("%f %.2f %.0f %.0f %.0f %e %.3E %g %g %g %G\n", 3.14159, -2.675, 0.5, 1.5, 2.5, 123456.789, 0.000123456, 100000.0, 1e6, 0.0001, 1e-5);
    printf("%10.3f|%-10.1e|%+08.2f|%g|%g|%.10g|%#g\n", 3.14159, 2.5e-10, -1.5, 1.0 / 3, 2e300 * 1e10, 1e100, 1.0);
    printf("%f %e %g\n", 0.0, 0.0, 0.0);
    printf("%.20f %.17g\n", 0.1, 0.1);
    printf("%s %ld %lu %d\n", s, strtol("-0x1f", NULL, 0), strtoul("777", NULL, 8), atoi("  42abc"));
    char b[8];
    int n = snprintf(b, sizeof b, "%s", "truncated string");
    printf("%d [%s] %p\n", n, b, (void *)0);
    assert(strlen(s) == 8);
    return memcmp(s, "xnoc-sdk", 9);
}
