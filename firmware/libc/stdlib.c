/* stdlib.c - the stdlib.h functions and assert() of xnoc's small C library. */
#include <assert.h>
#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "xnoc.h"

int abs(int v) { return v < 0 ? -v : v; }
long labs(long v) { return v < 0 ? -v : v; }
long long llabs(long long v) { return v < 0 ? -v : v; }
div_t div(int a, int b) { return (div_t){a / b, a % b}; }
ldiv_t ldiv(long a, long b) { return (ldiv_t){a / b, a % b}; }

/* the digits of s in base (0: C prefixes); *neg, *end as strtoull; 64-bit
 * multiply only (no 64-bit division: the cores have no libgcc) */
static unsigned long long parse(const char *s, char **end, int base, int *neg, int *over)
{
    const char *p = s;
    *neg = *over = 0;
    while (isspace(*p)) p++;
    if (*p == '+' || *p == '-') *neg = *p++ == '-';
    if ((base == 0 || base == 16) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit(p[2])) {
        p += 2;
        base = 16;
    } else if (base == 0) base = *p == '0' ? 8 : 10;
    unsigned long long v = 0;
    const char *first = p;
    for (;; p++) {
        int d = isdigit(*p) ? *p - '0' : islower(*p) ? *p - 'a' + 10 : isupper(*p) ? *p - 'A' + 10 : 99;
        if (d >= base) break;
        unsigned long long lo = (unsigned long long)(uint32_t)v * (unsigned)base;
        unsigned long long hi = (v >> 32) * (unsigned)base + (lo >> 32);
        unsigned long long nv = (hi << 32 | (uint32_t)lo) + (unsigned)d;
        if (hi >> 32 || nv < (unsigned)d) *over = 1;
        v = nv;
    }
    if (end) *end = (char *)(uintptr_t)(p == first ? s : p);
    return v;
}

unsigned long long strtoull(const char *s, char **end, int base)
{
    int neg, over;
    unsigned long long v = parse(s, end, base, &neg, &over);
    if (over) return ULLONG_MAX;
    return neg ? -v : v;
}

long long strtoll(const char *s, char **end, int base)
{
    int neg, over;
    unsigned long long v = parse(s, end, base, &neg, &over);
    if (over || v > (unsigned long long)LLONG_MAX + neg) return neg ? LLONG_MIN : LLONG_MAX;
    return neg ? (long long)(0 - v) : (long long)v;
}

unsigned long strtoul(const char *s, char **end, int base)
{
    int neg, over;
    unsigned long long v = parse(s, end, base, &neg, &over);
    if (over || v > ULONG_MAX) return ULONG_MAX;
    return neg ? (unsigned long)-v : (unsigned long)v;
}

long strtol(const char *s, char **end, int base)
{
    int neg, over;
    unsigned long long v = parse(s, end, base, &neg, &over);
    if (over || v > (unsigned long long)LONG_MAX + neg) return neg ? LONG_MIN : LONG_MAX;
    return neg ? (long)(0 - v) : (long)v;
}

int atoi(const char *s) { return (int)strtol(s, NULL, 10); }
long atol(const char *s) { return strtol(s, NULL, 10); }

static void swap(char *a, char *b, size_t n)
{
    while (n--) {
        char t = *a;
        *a++ = *b;
        *b++ = t;
    }
}

/* heapsort: no recursion, no extra memory, O(n log n) always */
static void sift(char *b, size_t root, size_t n, size_t sz, int (*cmp)(const void *, const void *))
{
    for (size_t child; (child = 2 * root + 1) < n; root = child) {
        if (child + 1 < n && cmp(b + child * sz, b + (child + 1) * sz) < 0) child++;
        if (cmp(b + root * sz, b + child * sz) >= 0) return;
        swap(b + root * sz, b + child * sz, sz);
    }
}

void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    char *b = base;
    for (size_t i = n / 2; i-- > 0;) sift(b, i, n, size, cmp);
    for (size_t end = n; end-- > 1;) {
        swap(b, b + end * size, size);
        sift(b, 0, end, size, cmp);
    }
}

void *bsearch(const void *key, const void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    const char *b = base;
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = cmp(key, b + mid * size);
        if (!c) return (void *)(uintptr_t)(b + mid * size);
        if (c < 0) hi = mid;
        else lo = mid + 1;
    }
    return NULL;
}

static unsigned long rand_state = 1;
void srand(unsigned seed) { rand_state = seed; }
int rand(void) /* the example of ISO C 7.22.2.2, widened to 31 bits */
{
    rand_state = rand_state * 1103515245u + 12345u;
    return (int)(rand_state >> 1 & RAND_MAX);
}

void exit(int code) { exit_node(code); }
void abort(void) { exit_node(134); }

void __assert_fail(const char *expr, const char *file, unsigned line, const char *func)
{
    printf("%s:%u: %s: Assertion `%s' failed.\n", file, line, func, expr);
    abort();
}
