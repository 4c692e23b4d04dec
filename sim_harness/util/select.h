/* select.h - the k-th smallest of an array without sorting it.
 *
 * A report that gives one percentile and the maximum of a million latencies
 * does not need them sorted: Hoare's selection (median-of-three pivot)
 * finds the k-th smallest in expected linear time, reordering the array. */
#ifndef XNOC_SELECT_H
#define XNOC_SELECT_H

#include <stddef.h>
#include <stdint.h>

/* The k-th smallest (0-based, k < n) of v[0..n); v is reordered. */
static inline uint64_t select_kth_u64(uint64_t *v, size_t n, size_t k)
{
    ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;
    while (lo < hi) {
        uint64_t a = v[lo], b = v[lo + (hi - lo) / 2], c = v[hi];
        uint64_t p = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        ptrdiff_t i = lo, j = hi;
        while (i <= j) { /* [lo, i) <= p, (j, hi] >= p; p itself stops both scans */
            while (v[i] < p) i++;
            while (v[j] > p) j--;
            if (i <= j) {
                uint64_t t = v[i];
                v[i++] = v[j];
                v[j--] = t;
            }
        }
        if (kk <= j) hi = j;
        else if (kk >= i) lo = i;
        else break; /* j < k < i: v[k] equals the pivot */
    }
    return v[kk];
}

#endif
