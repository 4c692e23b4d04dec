/* ni_dec.c - the NI's decode engine (docs/ni.md, "Decode engine"): XORs
 * between buffers in node RAM, done by the NI as a DMA engine does, so that
 * network-coded data is decoded without a core loop.  Firmware points LIST
 * at COUNT descriptors {dst, a, b, len} and writes GO; GO checks each
 * descriptor and latches the list; the engine runs the descriptors in order,
 * NI_DEC_DESC_CYCLES + ceil(len / 8) network cycles each, and writes
 * dst = a ^ b when a descriptor's cycles are over. */
#include <stdlib.h>

#include "system/ni_impl.h"
#include "util/cli.h"

static int overlaps(uint32_t a, uint32_t alen, uint32_t b, uint32_t blen)
{
    return alen && blen && (uint64_t)a < (uint64_t)b + blen && (uint64_t)b < (uint64_t)a + alen;
}

static uint32_t desc_cycles(const ni_xor *x) { return NI_DEC_DESC_CYCLES + (x->len + 7) / 8; }

#define REFUSE(...) (snprintf(n->refused, sizeof n->refused, __VA_ARGS__), 0)

/* "the buffer 0x80001000 + 64 bytes of a pending posted receive (source 1, tag 7)" */
static const char *pending(const ni *n, uint32_t addr, uint32_t len, char *buf, size_t blen)
{
    const ni_span *sp = ni_span_overlap(n, addr, len);
    if (!sp) return NULL;
    char src[16] = "any";
    if (sp->src != NI_ANY_SRC) snprintf(src, sizeof src, "%u", sp->src);
    snprintf(buf, blen, "the buffer 0x%08x + %u bytes of a pending posted receive (source %s, tag %u)", sp->addr,
             sp->len, src, sp->tag);
    return buf;
}

/* one descriptor, i of the list at `list` + `bytes` */
static int desc_ok(ni *n, uint32_t i, const ni_xor *x, uint32_t list, uint32_t bytes)
{
    char b[160];
    const char *what[3] = {"dst", "operand a", "operand b"};
    uint32_t addr[3] = {x->dst, x->a, x->b};
    if (x->len == 0 || x->len > NI_MAX_PACKET)
        return REFUSE("NI decode descriptor %u: length %u is out of range 1..%u", i, x->len, NI_MAX_PACKET);
    for (int k = 0; k < 3; k++)
        if (!in_ram(n, addr[k], x->len))
            return REFUSE("NI decode descriptor %u: %s 0x%08x + %u bytes is outside RAM", i, what[k], addr[k], x->len);
    for (int k = 1; k < 3; k++) /* in place (the same buffer) streams word by word; a shifted one would not */
        if (addr[k] != x->dst && overlaps(x->dst, x->len, addr[k], x->len))
            return REFUSE("NI decode descriptor %u: dst 0x%08x + %u bytes partly overlaps %s 0x%08x (use the same "
                          "buffer or a separate one)",
                          i, x->dst, x->len, what[k], addr[k]);
    if (overlaps(x->dst, x->len, list, bytes))
        return REFUSE("NI decode descriptor %u: dst 0x%08x + %u bytes overlaps the descriptor list 0x%08x + %u bytes",
                      i, x->dst, x->len, list, bytes);
    if (n->ring_size && overlaps(x->dst, x->len, n->ring_base, n->ring_size))
        return REFUSE("NI decode descriptor %u: dst 0x%08x + %u bytes overlaps the receive ring at 0x%08x + %u bytes",
                      i, x->dst, x->len, n->ring_base, n->ring_size);
    if (n->guard_hi > n->guard_lo && overlaps(x->dst, x->len, n->guard_lo, n->guard_hi - n->guard_lo))
        return REFUSE("NI decode descriptor %u: dst 0x%08x + %u bytes overlaps the guarded region 0x%08x..0x%08x "
                      "(GUARD_LO..GUARD_HI)",
                      i, x->dst, x->len, n->guard_lo, n->guard_hi);
    for (int k = 0; k < 3; k++) /* the NI is still writing there, or will */
        if (pending(n, addr[k], x->len, b, sizeof b))
            return REFUSE("NI decode descriptor %u: %s 0x%08x + %u bytes overlaps %s: its message has not landed", i,
                          what[k], addr[k], x->len, b);
    return 1;
}

static int go(ni *n)
{
    ni_dec *d = &n->dec;
    if (d->count == 0 || d->count > NI_DEC_MAX_LIST)
        return REFUSE("NI decode: COUNT %u is out of range 1..%d", d->count, NI_DEC_MAX_LIST);
    uint32_t bytes = d->count * 4u * NI_DEC_DESC_WORDS;
    if ((d->list & 3) || !in_ram(n, d->list, bytes))
        return REFUSE("NI decode: descriptor list 0x%08x + %u bytes is not 4-byte aligned in RAM", d->list, bytes);
    ni_xor *l = xmalloc((size_t)d->count * sizeof *l);
    for (uint32_t i = 0; i < d->count; i++) {
        uint32_t at = d->list + i * 4u * NI_DEC_DESC_WORDS;
        l[i] = (ni_xor){ram_word(n, at), ram_word(n, at + 4), ram_word(n, at + 8), ram_word(n, at + 12)};
        if (!desc_ok(n, i, &l[i], d->list, bytes)) {
            free(l);
            return 0;
        }
    }
    int slot = (d->qhead + d->qlen++) % NI_DEC_QUEUE;
    d->q[slot] = l;
    d->qn[slot] = d->count;
    return 1;
}

int ni_dec_mmio(ni *n, uint32_t off, int is_store, uint32_t *val)
{
    ni_dec *d = &n->dec;
    if (is_store) {
        switch (off) {
        case NI_D_LIST: d->list = *val; return RV32_MMIO_OK;
        case NI_D_COUNT: d->count = *val; return RV32_MMIO_OK;
        case NI_D_GO:
            if (d->qlen == NI_DEC_QUEUE) return RV32_MMIO_STALL; /* no room: the core waits */
            return go(n) ? RV32_MMIO_OK : RV32_MMIO_FAULT;
        default: return RV32_MMIO_FAULT;
        }
    }
    switch (off) {
    case NI_D_LIST: *val = d->list; return RV32_MMIO_OK;
    case NI_D_COUNT: *val = d->count; return RV32_MMIO_OK;
    case NI_D_GO: *val = d->qlen > 0; return RV32_MMIO_OK;
    case NI_D_DONE: *val = d->done; return RV32_MMIO_OK;
    case NI_D_WAIT:
        if (d->qlen) return RV32_MMIO_STALL;
        *val = d->done;
        return RV32_MMIO_OK;
    case NI_D_CYCLES: *val = (uint32_t)d->cycles; return RV32_MMIO_OK;
    default: return RV32_MMIO_FAULT;
    }
}

void ni_dec_cycle(ni *n)
{
    ni_dec *d = &n->dec;
    if (!d->qlen) return;
    const ni_xor *x = &d->q[d->qhead][d->idx];
    if (!d->left) d->left = desc_cycles(x);
    d->cycles++;
    if (--d->left) return;
    uint8_t *ram = n->core->ram;
    uint32_t base = n->core->ram_base;
    uint8_t *dst = ram + (x->dst - base);
    const uint8_t *a = ram + (x->a - base), *b = ram + (x->b - base);
    for (uint32_t i = 0; i < x->len; i++) dst[i] = a[i] ^ b[i]; /* in place: each byte read before it is written */
    rv32_ram_written(n->core, x->dst, x->len); /* like every RAM write: drop the decoded instructions there */
    d->done++;
    if (++d->idx < d->qn[d->qhead]) return;
    free(d->q[d->qhead]);
    d->q[d->qhead] = NULL;
    d->qhead = (d->qhead + 1) % NI_DEC_QUEUE;
    d->qlen--;
    d->idx = 0;
}

void ni_dec_free(ni *n)
{
    for (int i = 0; i < NI_DEC_QUEUE; i++) free(n->dec.q[i]);
    memset(&n->dec, 0, sizeof n->dec);
}
