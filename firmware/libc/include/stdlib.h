/* stdlib.h - xnoc's small C library (firmware/libc): conversions, sorting,
 * searching, integer arithmetic and leaving.  There is no heap (no malloc):
 * use static arrays; RAM is --ram KiB per node (docs/firmware.md). */
#ifndef XNOC_LIBC_STDLIB_H
#define XNOC_LIBC_STDLIB_H

#include <stddef.h>

#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 0x7fffffff

typedef struct {
    int quot, rem;
} div_t;
typedef struct {
    long quot, rem;
} ldiv_t;

int abs(int v);
long labs(long v);
long long llabs(long long v);
div_t div(int a, int b);
ldiv_t ldiv(long a, long b);
int atoi(const char *s);
long atol(const char *s);
long strtol(const char *s, char **end, int base);
unsigned long strtoul(const char *s, char **end, int base);
long long strtoll(const char *s, char **end, int base);
unsigned long long strtoull(const char *s, char **end, int base);
void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
void *bsearch(const void *key, const void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
int rand(void); /* per node, seeded 1 (srand) */
void srand(unsigned seed);
/* this node exits with code (its main() returning does the same) */
void exit(int code) __attribute__((noreturn));
/* exit code 134, as a hosted program killed by SIGABRT reports in a shell */
void abort(void) __attribute__((noreturn));

#endif
