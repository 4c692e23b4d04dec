/* test_hooks.c - see test_hooks.h. */
#include "test_hooks.h"

#include <stdlib.h>

/* "T[:N]" for terminal term: N (0 if left out), else -1 */
static int64_t hook(const char *name, int term)
{
    const char *v = getenv(name);
    if (!v || !*v) return -1;
    char *end;
    long t = strtol(v, &end, 10);
    long long n = *end == ':' ? strtoll(end + 1, NULL, 10) : 0;
    return t == term && n >= 0 ? n : -1;
}

void test_hooks_init(test_hooks *h, int term)
{
    h->corrupt_byte = hook("XNOC_TEST_CORRUPT", term);
    h->drop_flit = hook("XNOC_TEST_DROP", term);
    h->dup_flit = hook("XNOC_TEST_DUP", term);
    h->bytes = h->flits = 0;
}

void test_hooks_corrupt(test_hooks *h, uint64_t *payload, unsigned bytes)
{
    if (h->corrupt_byte >= 0 && (uint64_t)h->corrupt_byte - h->bytes < bytes)
        *payload ^= 1ull << (8 * ((uint64_t)h->corrupt_byte - h->bytes));
    h->bytes += bytes;
}

int test_hooks_fate(test_hooks *h)
{
    uint64_t f = h->flits++;
    if (h->drop_flit >= 0 && f == (uint64_t)h->drop_flit) return HOOK_DROP;
    if (h->dup_flit >= 0 && f == (uint64_t)h->dup_flit) return HOOK_DUP;
    return HOOK_DELIVER;
}
