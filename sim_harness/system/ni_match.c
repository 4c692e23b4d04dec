/* ni_match.c - the NI's posted-receive match unit (docs/ni.md): firmware
 * posts (source or ANY, tag, buffer, length, counter); a message whose meta
 * flit matches streams straight into the buffer (ni.c), and the counter in
 * RAM counts completions (CT_ADDR / CT_WAIT). */
#include <stdlib.h>

#include "system/ni_impl.h"
#include "util/cli.h"

static int overlaps(uint32_t a, uint32_t alen, uint32_t b, uint32_t blen)
{
    return alen && blen && a < b + blen && b < a + alen;
}

/* The pending posted buffers (ni.spans) are sorted by address and never
 * overlap, so their ends are sorted too: the one that starts last before
 * an interval ends is the only one that can reach into it. */
static int span_lower(const ni *n, uint64_t addr) /* the first span starting at or after addr */
{
    int lo = 0, hi = n->nspans;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (n->spans[mid].addr < addr) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

const ni_span *ni_span_overlap(const ni *n, uint32_t addr, uint32_t len)
{
    if (!len) return NULL;
    int i = span_lower(n, (uint64_t)addr + len) - 1;
    return i >= 0 && (uint64_t)n->spans[i].addr + n->spans[i].len > addr ? &n->spans[i] : NULL;
}

static void span_add(ni *n, const ni_post *p)
{
    if (!p->len) return;
    if (n->nspans % 64 == 0) n->spans = xrealloc(n->spans, (size_t)(n->nspans + 64) * sizeof *n->spans);
    int i = span_lower(n, p->addr);
    memmove(n->spans + i + 1, n->spans + i, (size_t)(n->nspans - i) * sizeof *n->spans);
    n->spans[i] = (ni_span){p->addr, p->len, p->src, p->tag};
    n->nspans++;
}

void ni_span_release(ni *n, uint32_t addr, uint32_t len)
{
    int i = span_lower(n, addr);
    if (!len || i == n->nspans || n->spans[i].addr != addr) return;
    memmove(n->spans + i, n->spans + i + 1, (size_t)(n->nspans - i - 1) * sizeof *n->spans);
    n->nspans--;
}

/* "the buffer 0x80001000 + 64 bytes of a pending posted receive (source 1, tag 7)" */
static const char *span_name(const ni_span *sp, char *buf, size_t len)
{
    char src[16] = "any";
    if (sp->src != NI_ANY_SRC) snprintf(src, sizeof src, "%u", sp->src);
    snprintf(buf, len, "the buffer 0x%08x + %u bytes of a pending posted receive (source %s, tag %u)", sp->addr,
             sp->len, src, sp->tag);
    return buf;
}

/* GUARD_LO / GUARD_HI: the region each write makes may not cover a pending
 * posted buffer (whichever is written first, and whatever was posted first) */
static int guard_store(ni *n, uint32_t lo, uint32_t hi)
{
    const ni_span *sp = hi > lo ? ni_span_overlap(n, lo, hi - lo) : NULL;
    if (sp) {
        char b[120];
        snprintf(n->refused, sizeof n->refused, "NI guarded region 0x%08x..0x%08x (GUARD_LO..GUARD_HI) overlaps %s", lo,
                 hi, span_name(sp, b, sizeof b));
        return RV32_MMIO_FAULT;
    }
    n->guard_lo = lo;
    n->guard_hi = hi;
    return RV32_MMIO_OK;
}

int ni_ring_refused(ni *n, uint32_t base, uint32_t size)
{
    const ni_span *sp = ni_span_overlap(n, base, size);
    if (!sp) return 0;
    char b[120];
    snprintf(n->refused, sizeof n->refused, "NI receive ring 0x%08x + %u bytes overlaps %s", base, size,
             span_name(sp, b, sizeof b));
    return 1;
}

/* NI_M_POST: checks the descriptor and appends it to the match table. */
static int post(ni *n)
{
    const ni_post *p = &n->m;
    char r[128];
#define REFUSE(...) ni_refuse(n, RV32_MMIO_FAULT, __VA_ARGS__)
    if (n->nposted >= NI_MAX_POSTED)
        return REFUSE("NI posted receive: the match table is full (%d entries)", NI_MAX_POSTED);
    if (p->src != NI_ANY_SRC && p->src >= (uint32_t)naddrs(n) - (n->units ? 0u : (uint32_t)n->t->nrouters))
        return REFUSE("NI posted receive: source %u is not an address (%s, or 0xffff = any)", p->src,
                      addr_range(n, r, sizeof r));
    if (p->len > NI_MAX_PACKET) return REFUSE("NI posted receive: length %u exceeds %u bytes", p->len, NI_MAX_PACKET);
    if (!in_ram(n, p->addr, p->len))
        return REFUSE("NI posted receive: buffer 0x%08x + %u bytes is outside RAM", p->addr, p->len);
    if (n->guard_hi > n->guard_lo && overlaps(p->addr, p->len, n->guard_lo, n->guard_hi - n->guard_lo))
        return REFUSE("NI posted receive: buffer 0x%08x + %u bytes overlaps the guarded region at 0x%08x + %u bytes "
                      "(GUARD_LO..GUARD_HI)",
                      p->addr, p->len, n->guard_lo, n->guard_hi - n->guard_lo);
    if (overlaps(p->addr, p->len, n->ring_base, n->ring_size))
        return REFUSE("NI posted receive: buffer 0x%08x + %u bytes overlaps the receive ring at 0x%08x + %u bytes",
                      p->addr, p->len, n->ring_base, n->ring_size);
    const ni_span *sp = ni_span_overlap(n, p->addr, p->len);
    if (sp)
        return REFUSE("NI posted receive: buffer 0x%08x + %u bytes overlaps %s", p->addr, p->len,
                      span_name(sp, r, sizeof r));
    if (p->ct && ((p->ct & 3) || !in_ram(n, p->ct, 4)))
        return REFUSE("NI posted receive: counter 0x%08x is not a 4-byte aligned word in RAM", p->ct);
    if (n->nposted % 64 == 0) {
        ni_post *q = xrealloc(n->posted, (size_t)(n->nposted + 64) * sizeof *q);
        n->posted = q;
    }
    n->posted[n->nposted++] = *p;
    span_add(n, p);
    return RV32_MMIO_OK;
#undef REFUSE
}

uint32_t ni_ct_value(const ni *n) { return n->ct_addr ? ram_word(n, n->ct_addr) : 0; }

int ni_match_mmio(ni *n, uint32_t off, int is_store, uint32_t *val)
{
    if (is_store) {
        switch (off) {
        case NI_M_SRC: n->m.src = *val; return RV32_MMIO_OK;
        case NI_M_TAG: n->m.tag = *val & 0xffff; return RV32_MMIO_OK;
        case NI_M_ADDR: n->m.addr = *val; return RV32_MMIO_OK;
        case NI_M_LEN: n->m.len = *val; return RV32_MMIO_OK;
        case NI_M_CT: n->m.ct = *val; return RV32_MMIO_OK;
        case NI_M_POST: return post(n);
        case NI_M_CT_ADDR:
            if ((*val & 3) || !in_ram(n, *val, 4)) {
                snprintf(n->refused, sizeof n->refused, "NI CT_ADDR 0x%08x is not a 4-byte aligned word in RAM", *val);
                return RV32_MMIO_FAULT;
            }
            n->ct_addr = *val;
            return RV32_MMIO_OK;
        case NI_M_CT_WAIT: n->ct_target = *val; return RV32_MMIO_OK;
        case NI_M_GUARD_LO: return guard_store(n, *val, n->guard_hi);
        case NI_M_GUARD_HI: return guard_store(n, n->guard_lo, *val);
        default: return RV32_MMIO_FAULT;
        }
    }
    switch (off) {
    case NI_M_SRC: *val = n->m.src; return RV32_MMIO_OK;
    case NI_M_TAG: *val = n->m.tag; return RV32_MMIO_OK;
    case NI_M_ADDR: *val = n->m.addr; return RV32_MMIO_OK;
    case NI_M_LEN: *val = n->m.len; return RV32_MMIO_OK;
    case NI_M_CT: *val = n->m.ct; return RV32_MMIO_OK;
    case NI_M_POST: *val = (uint32_t)n->nposted; return RV32_MMIO_OK;
    case NI_M_DONE: *val = (uint32_t)n->posted_done; return RV32_MMIO_OK;
    case NI_M_UNEXPECTED: *val = (uint32_t)n->unexpected; return RV32_MMIO_OK;
    case NI_M_CT_ADDR: *val = n->ct_addr; return RV32_MMIO_OK;
    case NI_M_CT_WAIT:
        if (!n->ct_addr) {
            snprintf(n->refused, sizeof n->refused, "NI CT_WAIT read before CT_ADDR names a counter");
            return RV32_MMIO_FAULT;
        }
        *val = ram_word(n, n->ct_addr);
        return *val >= n->ct_target ? RV32_MMIO_OK : RV32_MMIO_STALL;
    case NI_M_CAPACITY: *val = NI_MAX_POSTED; return RV32_MMIO_OK;
    case NI_M_GUARD_LO: *val = n->guard_lo; return RV32_MMIO_OK;
    case NI_M_GUARD_HI: *val = n->guard_hi; return RV32_MMIO_OK;
    default: return RV32_MMIO_FAULT;
    }
}

/* The first posted receive for (src, tag), taken out of the table; -1 if none. */
int ni_match_take(ni *n, uint32_t src, uint32_t tag, ni_post *out)
{
    for (int i = 0; i < n->nposted; i++) {
        ni_post *p = &n->posted[i];
        if ((p->src != src && p->src != NI_ANY_SRC) || p->tag != tag) continue;
        *out = *p;
        memmove(p, p + 1, (size_t)(n->nposted - i - 1) * sizeof *p);
        n->nposted--;
        return i;
    }
    return -1;
}
