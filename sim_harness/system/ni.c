/* ni.c - DMA send / receive between node RAM and the network (see ni.h). */
#include "system/ni_impl.h"
#include "util/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a flit's VC indexes rx[][] masked, and the queues behind held packets wrap */
_Static_assert((ROUTER_MAX_VCS & (ROUTER_MAX_VCS - 1)) == 0, "ROUTER_MAX_VCS must be a power of two");

void ni_init(ni *n, const topo *t, const router_cfg *rc, int term, rv32 *core)
{
    memset(n, 0, sizeof *n);
    n->t = t;
    n->term = term;
    n->k = t->k;
    n->vcs = rc->vcs;
    n->vpc = rc->vcs / router_classes(t, rc); /* packets start on a class-0 VC */
    n->rc = *rc;
    n->rng = 0x5851F42D4C957F2Dull * (uint64_t)(term + 1);
    n->sendq = rc->sendq > 0 ? rc->sendq : 1;
    n->buf = rc->buf;
    n->port_bits = topo_port_bits(t);
    n->core = core;
    n->units = rc->ncu;
    n->nc_max_bytes = rc->ncmax * 8;
    n->nc_smax_bytes = rc->ncu && rc->stream ? rc->smax * 8 : 0;
    n->mask_flits = (t->nterms + t->nrouters + 63) / 64;
    for (int c = 0; c < n->k; c++) {
        ep_init(&n->ep[c], rc->vcs, rc->buf);
        n->send[c].out_dest = NI_OUT_NONE;
    }
    n->m.src = NI_ANY_SRC;
    test_hooks_init(&n->hooks, term);
}

void ni_free(ni *n)
{
    for (int c = 0; c < n->k; c++) {
        for (int v = 0; v < ROUTER_MAX_VCS; v++) free(n->rx[c][v].buf);
        free(n->send[c].masks);
    }
    free(n->posted);
    free(n->spans);
    ni_dec_free(n);
}

static int is_unit(const ni *n, uint32_t a)
{
    return n->units && a >= (uint32_t)n->t->nterms && a < (uint32_t)naddrs(n);
}

_Static_assert(TOPO_MAX_K == NI_MAX_K, "topo.h and the NI register map disagree on channels per terminal");

/* The head flit of a descriptor (firmware/lib/flit.h); rng (at GO): draw
 * the non-minimal routing bits, NULL: without them. */
static uint64_t head_flit(const ni *n, const ni_send *s, int c, uint64_t *rng)
{
    /* a unit: lane 0, or a streaming contribution's own lane; a terminal: channel c */
    uint32_t ejsel = s->dst < (uint32_t)n->t->nterms ? (uint32_t)c
                     : s->op >= NI_OP_STREAM         ? 1u + (uint32_t)topo_term_port(n->t, n->term, c)
                                                     : 0;
    if (s->nhops) return flit_head_sr(s->dst, (uint64_t)s->route_hi << 32 | s->route_lo);
    return flit_head(s->dst, ejsel, s->mc, s->op, s->count, s->out_dest, s->out_mc, s->out_op, s->out_count) |
           FLIT_FIELD(s->func, FLIT_FUNC_LSB, FLIT_FUNC_W) |
           (rng ? routing_head_bits(n->t, &n->rc, n->term, s->dst, rng) : 0);
}

static int coding_set(const ni_send *s)
{
    return s->mc || s->op || s->count || s->out_dest != NI_OUT_NONE || s->out_mc || s->out_op || s->out_count ||
           s->func;
}

/* A descriptor the NI cannot send is refused at GO (an access fault), with
 * the reason kept for the fault line. */
static int go_ok(ni *n, int c, const ni_send *s)
{
    char r[100];
#define REFUSE(...) ni_refuse(n, 0, __VA_ARGS__)
    if (s->dst >= (uint32_t)n->t->nterms && !is_unit(n, s->dst)) {
        if (!n->units)
            return REFUSE("NI send channel %d: destination %u is not a terminal (0..%d)", c, s->dst, n->t->nterms - 1);
        return REFUSE("NI send channel %d: destination %u is not an address (%s)", c, s->dst,
                      addr_range(n, r, sizeof r));
    }
    if (s->len > NI_MAX_PACKET)
        return REFUSE("NI send channel %d: length %u exceeds %u bytes", c, s->len, NI_MAX_PACKET);
    if (!in_ram(n, s->addr, s->len))
        return REFUSE("NI send channel %d: buffer 0x%08x + %u bytes is outside RAM", c, s->addr, s->len);
    if (s->nhops * (uint32_t)n->port_bits > 50)
        return REFUSE("NI send channel %d: a %u-hop source route does not fit the head flit", c, s->nhops);
    if (s->nhops && is_unit(n, s->dst))
        return REFUSE("NI send channel %d: a packet to unit %u (router %u) cannot be source-routed (NHOPS %u)", c,
                      s->dst, s->dst - (uint32_t)n->t->nterms, s->nhops);
    if (s->nhops && coding_set(s))
        return REFUSE("NI send channel %d: a source route (NHOPS %u) and the coding fields share the head flit: "
                      "clear MC, OP, COUNT and OUT_*",
                      c, s->nhops);
    if (is_unit(n, s->dst) && s->op == NI_OP_REPLICATE && !s->mc)
        return REFUSE("NI send channel %d: OP REPLICATE to unit %u needs MC 1 and a mask", c, s->dst);
    if (s->op >= NI_OP_STREAM && !is_unit(n, s->dst))
        return REFUSE("NI send channel %d: OP STREAM needs DST to be a unit, not %u", c, s->dst);
    if (s->op != NI_OP_REPLICATE && s->count == 0)
        return REFUSE(
            "NI send channel %d: COUNT 0 with OP ENCODE (state how many contributions the slot expects, 1..15)", c);
    if (s->out_mc && s->op != NI_OP_SCAN && !is_unit(n, s->out_dest)) /* SCAN: OUT_MC = exclusive */
        return REFUSE("NI send channel %d: OUT_MC 1 needs OUT_DEST to be a unit (%d..%d), not %u", c, n->t->nterms,
                      naddrs(n) - 1, s->out_dest);
    if (s->op >= NI_OP_STREAM && n->nc_smax_bytes && s->len > (uint32_t)n->nc_smax_bytes)
        return REFUSE("NI send channel %d: a %u-byte OP STREAM packet to unit %u exceeds the streaming lanes' %d-byte "
                      "limit (--router smax=%d flits)",
                      c, s->len, s->dst, n->nc_smax_bytes, n->nc_smax_bytes / 8);
    if (is_unit(n, s->dst) && (s->op < NI_OP_STREAM || !n->nc_smax_bytes) && s->len > (uint32_t)n->nc_max_bytes)
        return REFUSE("NI send channel %d: a %u-byte packet to unit %u exceeds the units' %d-byte limit (--router "
                      "ncmax=%d flits)",
                      c, s->len, s->dst, n->nc_max_bytes, n->nc_max_bytes / 8);
    if (s->mc) {
        uint32_t mbytes = 8u * (uint32_t)n->mask_flits;
        if (!in_ram(n, s->mask_addr, mbytes))
            return REFUSE("NI send channel %d: mask 0x%08x + %u bytes is outside RAM", c, s->mask_addr, mbytes);
        const uint8_t *m = n->core->ram + (s->mask_addr - n->core->ram_base);
        int any = 0;
        for (uint32_t i = 0; i < mbytes * 8; i++) {
            if (!(m[i / 8] >> (i % 8) & 1)) continue;
            if (i >= (uint32_t)naddrs(n) || (i >= (uint32_t)n->t->nterms && !n->units))
                return REFUSE("NI send channel %d: mask bit %u is not an address (%s)", c, i,
                              addr_range(n, r, sizeof r));
            any = 1;
        }
        if (!any) return REFUSE("NI send channel %d: MC 1 with an empty mask at 0x%08x", c, s->mask_addr);
    }
    return 1;
#undef REFUSE
}

/* Stores to the coding registers: values that do not fit their head field
 * are refused at once. */
static int code_store(ni *n, int c, ni_send *s, uint32_t off, uint32_t v)
{
    char r[100];
    const char *name = NULL;
    uint32_t max = 0, *field = NULL;
    switch (off) {
    case NI_C_MC: name = "MC", max = 1, field = &s->mc; break;
    case NI_C_OP: name = "OP", max = n->rc.stream ? 3 : 1, field = &s->op; break;
    case NI_C_COUNT: name = "COUNT", max = 15, field = &s->count; break;
    case NI_C_OUT_MC: name = "OUT_MC", max = 1, field = &s->out_mc; break;
    case NI_C_OUT_OP: name = "OUT_OP", max = n->rc.stream ? 3 : 1, field = &s->out_op; break;
    case NI_C_OUT_COUNT: name = "OUT_COUNT", max = 15, field = &s->out_count; break;
    case NI_C_MASK_ADDR: s->mask_addr = v; return RV32_MMIO_OK;
    case NI_C_FUNC:
        if (v >= NC_FUNC_NUM) {
            snprintf(n->refused, sizeof n->refused, "NI send channel %d: FUNC %u is not a combining operator (0..%d)",
                     c, v, NC_FUNC_NUM - 1);
            return RV32_MMIO_FAULT;
        }
        if (v && n->rc.ncu_ops == NCU_OPS_XOR) {
            snprintf(n->refused, sizeof n->refused,
                     "NI send channel %d: FUNC %u needs coding units with every operator (--router ncu_ops=all)", c, v);
            return RV32_MMIO_FAULT;
        }
        s->func = v;
        return RV32_MMIO_OK;
    case NI_C_OUT_DEST:
        if (v != NI_OUT_NONE && (v >= (uint32_t)naddrs(n) || (!n->units && v >= (uint32_t)n->t->nterms))) {
            snprintf(n->refused, sizeof n->refused,
                     "NI send channel %d: OUT_DEST %u is not an address (%s, or 0xfff = none)", c, v,
                     addr_range(n, r, sizeof r));
            return RV32_MMIO_FAULT;
        }
        s->out_dest = v;
        return RV32_MMIO_OK;
    default: return RV32_MMIO_FAULT;
    }
    if (v > max) {
        if (off == NI_C_OP || off == NI_C_OUT_OP)
            snprintf(n->refused, sizeof n->refused, "NI send channel %d: %s %u is not REPLICATE (0)%s ENCODE (1)%s", c,
                     name, v, max > 1 ? "," : " or", max > 1 ? ", STREAM (2) or SCAN (3)" : "");
        else
            snprintf(n->refused, sizeof n->refused, "NI send channel %d: %s %u is out of range 0..%u", c, name, v, max);
        return RV32_MMIO_FAULT;
    }
    *field = v;
    return RV32_MMIO_OK;
}

static int code_load(const ni *n, int c, const ni_send *s, uint32_t off, uint32_t *val)
{
    uint64_t h = head_flit(n, s, c, NULL);
    switch (off) {
    case NI_C_MC: *val = s->mc; break;
    case NI_C_OP: *val = s->op; break;
    case NI_C_COUNT: *val = s->count; break;
    case NI_C_OUT_DEST: *val = s->out_dest; break;
    case NI_C_OUT_MC: *val = s->out_mc; break;
    case NI_C_OUT_OP: *val = s->out_op; break;
    case NI_C_OUT_COUNT: *val = s->out_count; break;
    case NI_C_MASK_ADDR: *val = s->mask_addr; break;
    case NI_C_FUNC: *val = s->func; break;
    case NI_C_MASK_FLITS: *val = (uint32_t)n->mask_flits; break;
    case NI_C_HEAD_LO: *val = (uint32_t)h; break;
    case NI_C_HEAD_HI: *val = (uint32_t)(h >> 32); break;
    default: return RV32_MMIO_FAULT;
    }
    return RV32_MMIO_OK;
}

/* The receive ring's registers (NI_RECV + off). */
static int recv_mmio(ni *n, uint32_t off, int is_store, uint32_t *val)
{
    if (is_store) {
        switch (off) {
        case NI_R_BASE:
            /* a ring already sized must stay inside RAM where it moves to */
            if ((*val & 7) || (n->ring_size && !in_ram(n, *val, n->ring_size))) {
                snprintf(n->refused, sizeof n->refused,
                         "NI receive ring 0x%08x + %u bytes: not 8-byte aligned or outside RAM", *val, n->ring_size);
                return RV32_MMIO_FAULT;
            }
            /* nor move onto a pending posted buffer (POST checks the other order) */
            if (ni_ring_refused(n, *val, n->ring_size)) return RV32_MMIO_FAULT;
            n->ring_base = *val;
            n->head = n->tail = 0;
            return RV32_MMIO_OK;
        case NI_R_SIZE:
            if ((*val & 7) || *val < 16 || (n->ring_base & 7) || !in_ram(n, n->ring_base, *val)) {
                snprintf(n->refused, sizeof n->refused,
                         "NI receive ring 0x%08x + %u bytes: not 8-byte aligned, under 16 bytes or outside RAM",
                         n->ring_base, *val);
                return RV32_MMIO_FAULT;
            }
            if (ni_ring_refused(n, n->ring_base, *val)) return RV32_MMIO_FAULT;
            n->ring_size = *val;
            n->head = n->tail = 0;
            return RV32_MMIO_OK;
        case NI_R_TAIL:
            if (*val >= n->ring_size || (*val & 7)) {
                snprintf(n->refused, sizeof n->refused,
                         "NI receive TAIL %u: not an 8-byte offset inside the %u-byte ring", *val, n->ring_size);
                return RV32_MMIO_FAULT;
            }
            n->tail = *val;
            return RV32_MMIO_OK;
        case NI_R_IRQ_EN: n->irq_en = *val & 1; return RV32_MMIO_OK;
        default: return RV32_MMIO_FAULT;
        }
    }
    switch (off) {
    case NI_R_BASE: *val = n->ring_base; return RV32_MMIO_OK;
    case NI_R_SIZE: *val = n->ring_size; return RV32_MMIO_OK;
    case NI_R_HEAD: *val = n->head; return RV32_MMIO_OK;
    case NI_R_TAIL: *val = n->tail; return RV32_MMIO_OK;
    case NI_R_COUNT: *val = (uint32_t)n->packets_recv; return RV32_MMIO_OK;
    case NI_R_IRQ_EN: *val = n->irq_en; return RV32_MMIO_OK;
    case NI_R_PENDING: *val = (uint32_t)ring_nonempty(n); return RV32_MMIO_OK;
    case NI_R_WAIT:
        if (!ring_nonempty(n)) return RV32_MMIO_STALL;
        *val = 1;
        return RV32_MMIO_OK;
    case NI_R_LAST_CYCLE_LO: *val = (uint32_t)n->last_commit; return RV32_MMIO_OK;
    case NI_R_LAST_CYCLE_HI: *val = (uint32_t)(n->last_commit >> 32); return RV32_MMIO_OK;
    case NI_R_FULL_CYCLES: *val = (uint32_t)n->full_cycles; return RV32_MMIO_OK;
    case NI_R_LAST_HEAD_LO: *val = (uint32_t)n->last_head; return RV32_MMIO_OK;
    case NI_R_LAST_HEAD_HI: *val = (uint32_t)(n->last_head >> 32); return RV32_MMIO_OK;
    case NI_R_LAST_MASK_LO: *val = (uint32_t)n->last_mask0; return RV32_MMIO_OK;
    case NI_R_LAST_MASK_HI: *val = (uint32_t)(n->last_mask0 >> 32); return RV32_MMIO_OK;
    case NI_R_LAST_MASK_FLITS: *val = (uint32_t)n->last_nmask; return RV32_MMIO_OK;
    default: return RV32_MMIO_FAULT;
    }
}

/* A store to channel c's GO: the descriptor checked (go_ok), its head flit
 * and multicast mask latched, the packet started or queued behind the one
 * on the wire (the core waits while the queue is full). */
static int send_go(ni *n, int c, ni_send *s)
{
    if (s->busy && 1 + s->qlen >= n->sendq) return RV32_MMIO_STALL; /* no room: the core waits */
    if (!go_ok(n, c, s)) return RV32_MMIO_FAULT;
    ni_wire w;
    w.head = head_flit(n, s, c, &n->rng);
    w.nmask = s->mc && !s->nhops ? n->mask_flits : 0;
    w.mslot = 0;
    if (w.nmask) { /* the mask go_ok checked, latched: later stores to it change nothing on the wire */
        size_t words = (size_t)n->mask_flits;
        if (!s->masks) s->masks = xmalloc((size_t)n->sendq * words * sizeof *s->masks);
        w.mslot = s->mnext;
        s->mnext = (s->mnext + 1) % n->sendq; /* packets leave in order: the slot sendq MC GOs ago is free */
        memcpy(s->masks + (size_t)w.mslot * words, n->core->ram + (s->mask_addr - n->core->ram_base), words * 8);
    }
    w.addr_go = s->addr;
    w.len_go = s->len;
    w.nflits = 2 + w.nmask + (int)((s->len + 7) / 8);
    w.meta = flit_meta((uint32_t)n->term, s->tag, s->len);
    if (!s->busy) {
        s->w = w;
        s->busy = 1;
        s->sent = 0;
        s->vc = -1;
    } else {
        s->q[(s->qhead + s->qlen++) % NI_MAX_SENDQ] = w;
    }
    if (is_unit(n, s->dst)) n->coded_sent++;
    if (w.nmask) {
        n->mc_sent++;
        n->mask_flits_sent += (uint64_t)w.nmask;
    }
    s->go_cycle = n->now ? *n->now : 0;
    if (n->events)
        fprintf(n->events,
                "{\"cycle\":%llu,\"event\":\"send\",\"node\":%d,\"channel\":%d,\"dst\":%u,\"tag\":%u,"
                "\"bytes\":%u,\"flits\":%d,\"routed\":%s}\n",
                (unsigned long long)s->go_cycle, n->term, c, s->dst, s->tag, s->len, w.nflits,
                s->nhops ? "\"source\"" : "\"table\"");
    return RV32_MMIO_OK;
}

/* The receive ring or guarded region a store would make, [lo, lo + len),
 * on the dst of a queued decode descriptor: refused (the engine would
 * write under the NI, or into the guard).  Checked here, where the ring,
 * the match table and the decode engine meet. */
static int onto_decode(ni *n, uint32_t off, uint32_t v)
{
    char what[80];
    uint32_t lo = 0, len = 0;
    if (off == NI_RECV + NI_R_BASE || off == NI_RECV + NI_R_SIZE) {
        lo = off == NI_RECV + NI_R_BASE ? v : n->ring_base;
        len = off == NI_RECV + NI_R_SIZE ? v : n->ring_size;
        snprintf(what, sizeof what, "NI receive ring 0x%08x + %u bytes", lo, len);
    } else if (off == NI_MATCH + NI_M_GUARD_LO || off == NI_MATCH + NI_M_GUARD_HI) {
        uint32_t glo = off == NI_MATCH + NI_M_GUARD_LO ? v : n->guard_lo;
        uint32_t ghi = off == NI_MATCH + NI_M_GUARD_HI ? v : n->guard_hi;
        lo = glo;
        len = ghi > glo ? ghi - glo : 0;
        snprintf(what, sizeof what, "NI guarded region 0x%08x..0x%08x (GUARD_LO..GUARD_HI)", glo, ghi);
    }
    return len && ni_dec_refused(n, what, lo, len);
}

int ni_mmio(ni *n, uint32_t off, int is_store, uint32_t *val)
{
    if (off >= NI_DEC) return ni_dec_mmio(n, off - NI_DEC, is_store, val);
    if (is_store && onto_decode(n, off, *val)) return RV32_MMIO_FAULT;
    if (off >= NI_MATCH) return ni_match_mmio(n, off - NI_MATCH, is_store, val);
    if (off >= NI_RECV) return recv_mmio(n, off - NI_RECV, is_store, val);
    if (off >= NI_CODE(0)) {
        int c = (int)((off - NI_CODE(0)) / 0x40u);
        if (c >= n->k) return RV32_MMIO_FAULT;
        off = (off - NI_CODE(0)) % 0x40u;
        return is_store ? code_store(n, c, &n->send[c], off, *val) : code_load(n, c, &n->send[c], off, val);
    }
    int c = (int)(off / 0x40u);
    if (c >= n->k) return RV32_MMIO_FAULT;
    ni_send *s = &n->send[c];
    off %= 0x40u;
    if (is_store) {
        switch (off) {
        case NI_S_DST: s->dst = *val; return RV32_MMIO_OK;
        case NI_S_ROUTE_LO: s->route_lo = *val; return RV32_MMIO_OK;
        case NI_S_ROUTE_HI: s->route_hi = *val; return RV32_MMIO_OK;
        case NI_S_NHOPS: s->nhops = *val; return RV32_MMIO_OK;
        case NI_S_ADDR: s->addr = *val; return RV32_MMIO_OK;
        case NI_S_LEN: s->len = *val; return RV32_MMIO_OK;
        case NI_S_TAG: s->tag = *val & 0xffff; return RV32_MMIO_OK;
        case NI_S_GO: return send_go(n, c, s);
        default: return RV32_MMIO_FAULT;
        }
    }
    switch (off) {
    case NI_S_DST: *val = s->dst; return RV32_MMIO_OK;
    case NI_S_ROUTE_LO: *val = s->route_lo; return RV32_MMIO_OK;
    case NI_S_ROUTE_HI: *val = s->route_hi; return RV32_MMIO_OK;
    case NI_S_NHOPS: *val = s->nhops; return RV32_MMIO_OK;
    case NI_S_ADDR: *val = s->addr; return RV32_MMIO_OK;
    case NI_S_LEN: *val = s->len; return RV32_MMIO_OK;
    case NI_S_TAG: *val = s->tag; return RV32_MMIO_OK;
    case NI_S_GO: *val = (uint32_t)s->busy; return RV32_MMIO_OK;
    case NI_S_DONE: *val = s->done; return RV32_MMIO_OK;
    case NI_S_WAIT:
        if (s->busy) return RV32_MMIO_STALL;
        *val = s->done;
        return RV32_MMIO_OK;
    case NI_S_ROOM:
        if (s->busy && 1 + s->qlen >= n->sendq) return RV32_MMIO_STALL;
        *val = s->done;
        return RV32_MMIO_OK;
    case NI_S_GO_CYCLE_LO: *val = (uint32_t)s->go_cycle; return RV32_MMIO_OK;
    case NI_S_GO_CYCLE_HI: *val = (uint32_t)(s->go_cycle >> 32); return RV32_MMIO_OK;
    default: return RV32_MMIO_FAULT;
    }
}
