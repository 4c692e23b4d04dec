/* ni_impl.h - what the NI's files (ni.c: the registers; ni_net.c: send,
 * receive, ring; ni_match.c: the posted-receive match unit; ni_dec.c: the
 * decode engine) share; not for other layers. */
#ifndef XNOC_NI_IMPL_H
#define XNOC_NI_IMPL_H

#include <stdio.h>
#include <string.h>

#include "system/ni.h"

static inline int in_ram(const ni *n, uint32_t addr, uint32_t len)
{
    uint32_t off = addr - n->core->ram_base;
    return off <= n->core->ram_size && len <= n->core->ram_size - off;
}

/* the receive ring holds a packet */
static inline int ring_nonempty(const ni *n) { return n->ring_size && n->head != n->tail; }

static inline int naddrs(const ni *n) { return n->t->nterms + n->t->nrouters; }

/* "terminal 0..5, unit 6..11" (or only terminals without units) */
static inline const char *addr_range(const ni *n, char *buf, size_t len)
{
    if (n->units) snprintf(buf, len, "terminal 0..%d or unit %d..%d", n->t->nterms - 1, n->t->nterms, naddrs(n) - 1);
    else snprintf(buf, len, "terminal 0..%d; the routers have no coding units (--router ncu=0)", n->t->nterms - 1);
    return buf;
}

static inline uint32_t ram_word(const ni *n, uint32_t addr)
{
    uint32_t v;
    memcpy(&v, n->core->ram + (addr - n->core->ram_base), 4);
    return v;
}

/* the match unit's registers (NI_MATCH + off) */
int ni_match_mmio(ni *n, uint32_t off, int is_store, uint32_t *val);
/* the first posted receive for (src, tag), taken out of the table; -1 if none */
int ni_match_take(ni *n, uint32_t src, uint32_t tag, ni_post *out);
/* the pending posted buffer [addr, addr + len) overlaps, or NULL */
const ni_span *ni_span_overlap(const ni *n, uint32_t addr, uint32_t len);
/* a posted buffer is free again (its message landed, or the run stops) */
void ni_span_release(ni *n, uint32_t addr, uint32_t len);
/* a receive ring [base, base + size) would cover a pending posted buffer:
 * 1, with the reason in n->refused */
int ni_ring_refused(ni *n, uint32_t base, uint32_t size);

/* the decode engine's registers (NI_DEC + off), its cycle, its lists freed */
int ni_dec_mmio(ni *n, uint32_t off, int is_store, uint32_t *val);
void ni_dec_cycle(ni *n);
void ni_dec_free(ni *n);

#endif
