/* select_unit.c - select_kth_u64 (sim_harness/util/select.h) against a full
 * sort: every k of small arrays, and random k of large ones, over random,
 * few-valued, sorted, reversed and constant inputs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../sim_harness/util/select.h"
#include "../../sim_harness/util/rng.h"

static int cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void fill(uint64_t *v, size_t n, int kind, uint64_t *seed)
{
    for (size_t i = 0; i < n; i++) switch (kind) {
        case 0: v[i] = splitmix64(seed); break;
        case 1: v[i] = splitmix64(seed) % 3; break;
        case 2: v[i] = i; break;
        case 3: v[i] = n - i; break;
        default: v[i] = 7; break;
        }
}

int main(void)
{
    uint64_t seed = 1;
    long checks = 0, bad = 0;
    for (size_t n = 1; n <= 2000; n += (n < 40 ? 1 : 97))
        for (int kind = 0; kind < 5; kind++) {
            uint64_t *v = malloc(n * sizeof *v), *s = malloc(n * sizeof *s), *w = malloc(n * sizeof *w);
            fill(v, n, kind, &seed);
            memcpy(s, v, n * sizeof *v);
            qsort(s, n, sizeof *s, cmp);
            size_t step = n <= 40 ? 1 : n / 17;
            for (size_t k = 0; k < n; k += step) {
                memcpy(w, v, n * sizeof *v);
                uint64_t got = select_kth_u64(w, n, k);
                checks++;
                if (got != s[k]) {
                    if (bad++ < 5)
                        fprintf(stderr, "n=%zu kind=%d k=%zu: %llu, sorted has %llu\n", n, kind, k,
                                (unsigned long long)got, (unsigned long long)s[k]);
                }
                qsort(w, n, sizeof *w, cmp); /* reordered, nothing lost or duplicated */
                if (memcmp(w, s, n * sizeof *s)) {
                    if (bad++ < 5) fprintf(stderr, "n=%zu kind=%d k=%zu: the array's values changed\n", n, kind, k);
                }
            }
            free(v);
            free(s);
            free(w);
        }
    printf("%s select-kth (%ld checks, %ld wrong)\n", bad ? "FAIL" : "ok", checks, bad);
    return bad != 0;
}
