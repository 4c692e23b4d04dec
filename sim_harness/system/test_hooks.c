/* test_hooks.c - see test_hooks.h. */
#include "system/test_hooks.h"

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
