/* test_hooks.h - faults injected on purpose at a terminal's ejection, to
 * show that the checkers downstream catch them (docs/usage.md):
 *   XNOC_TEST_CORRUPT=T[:B]  flip bit 0 of the B-th payload byte terminal T receives
 *   XNOC_TEST_DROP=T[:F]     terminal T discards the F-th flit it receives
 *   XNOC_TEST_DUP=T[:F]      terminal T takes the F-th flit it receives twice
 * Counted from 0 over the run (B, F default 0).  The flow control stays
 * intact: the credit of a dropped or duplicated flit is returned once, as
 * for any flit.  Compiled in, off unless set; read once per terminal. */
#ifndef XNOC_TEST_HOOKS_H
#define XNOC_TEST_HOOKS_H

#include <stdint.h>

typedef struct {
    int64_t corrupt_byte, drop_flit, dup_flit; /* -1 = off */
    uint64_t bytes, flits;                     /* received so far */
} test_hooks;

enum { HOOK_DELIVER = 0, HOOK_DROP = 1, HOOK_DUP = 2 };

void test_hooks_init(test_hooks *h, int term);

/* Both run for every flit a terminal takes: inline, and nearly free when
 * the hooks are off. */

/* A flit arrives at the terminal: what to do with it, HOOK_DELIVER,
 * HOOK_DROP or HOOK_DUP (XNOC_TEST_DROP, XNOC_TEST_DUP count flits). */
static inline int test_hooks_fate(test_hooks *h)
{
    if (h->drop_flit < 0 && h->dup_flit < 0) return HOOK_DELIVER;
    uint64_t f = h->flits++;
    if (h->drop_flit >= 0 && f == (uint64_t)h->drop_flit) return HOOK_DROP;
    if (h->dup_flit >= 0 && f == (uint64_t)h->dup_flit) return HOOK_DUP;
    return HOOK_DELIVER;
}

/* `bytes` payload bytes of a flit are taken (the NI counts data bytes only,
 * the traffic terminal whole flits): XNOC_TEST_CORRUPT may flip one bit. */
static inline void test_hooks_corrupt(test_hooks *h, uint64_t *payload, unsigned bytes)
{
    if (h->corrupt_byte < 0) return;
    if ((uint64_t)h->corrupt_byte - h->bytes < bytes) *payload ^= 1ull << (8 * ((uint64_t)h->corrupt_byte - h->bytes));
    h->bytes += bytes;
}

#endif
