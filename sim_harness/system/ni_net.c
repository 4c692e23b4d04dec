/* ni_net.c - the NI's network side (ni.h): packets sent flit by flit on
 * the injection channels, received into the ring or a posted buffer and
 * committed, the credits owed back, the per-cycle step (ni_cycle) and what
 * is left undelivered when a run ends.  The registers are ni.c's. */
#include "system/ni_impl.h"
#include "util/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void send_cycle(ni *n, int c, xnoc_flit *f)
{
    ni_send *s = &n->send[c];
    f->valid = 0;
    if (!s->busy) return;
    if (s->vc < 0) s->vc = ep_pick_vc(&n->ep[c], n->vpc, 0); /* the lowest class-0 VC with a credit */
    if (s->vc < 0 || !ep_can_send(&n->ep[c], s->vc)) return;
    f->valid = 1;
    f->vc = (uint8_t)s->vc;
    const ni_wire *w = &s->w;
    f->head = s->sent == 0;
    f->tail = s->sent == w->nflits - 1;
    if (s->sent == 0) f->payload = w->head;
    else if (s->sent == 1) f->payload = w->meta;
    else if (s->sent < 2 + w->nmask) {
        f->payload = s->masks[(size_t)w->mslot * (size_t)n->mask_flits + (size_t)(s->sent - 2)];
    } else {
        uint32_t off = (uint32_t)(s->sent - 2 - w->nmask) * 8, take = w->len_go - off > 8 ? 8 : w->len_go - off;
        uint64_t x = 0;
        memcpy(&x, n->core->ram + (w->addr_go - n->core->ram_base) + off, take);
        f->payload = x;
    }
    ep_spend(&n->ep[c], s->vc);
    n->flits_sent++;
    n->inj_flits[c]++;
    if (++s->sent == w->nflits) {
        s->done++;
        n->packets_sent++;
        s->sent = 0;
        s->vc = -1;    /* each packet chooses its VC */
        if (s->qlen) { /* the next queued packet follows at once */
            s->w = s->q[s->qhead];
            s->qhead = (s->qhead + 1) % NI_MAX_SENDQ;
            s->qlen--;
        } else {
            s->busy = 0;
        }
    }
}

/* A message has landed (in the ring or a posted buffer): counters, the
 * LAST_* registers, the event log. */
static void delivered(ni *n, const ni_asm *a)
{
    n->packets_recv++;
    n->last_commit = n->now ? *n->now : 0;
    n->last_head = a->head;
    n->last_mask0 = a->mask0;
    n->last_nmask = a->nmask;
    if (!n->events) return;
    fprintf(n->events, "{\"cycle\":%llu,\"event\":\"deliver\",\"node\":%d,\"src\":%u,\"tag\":%u,\"bytes\":%u,\"into\":",
            (unsigned long long)n->last_commit, n->term, a->src, a->tag, a->len);
    if (a->posted) fprintf(n->events, "\"posted\",\"addr\":%u}\n", a->addr);
    else fprintf(n->events, "\"ring\"}\n");
}

/* Writes a complete packet into the receive ring; 0 if there is no room. */
static int commit(ni *n, ni_asm *a)
{
    if (!n->ring_size) return 0;
    uint32_t need = 8 + ((a->len + 7) & ~7u), size = n->ring_size;
    uint8_t *ring = n->core->ram + (n->ring_base - n->core->ram_base);
    if (need > size - 8) { /* would wait forever: stop the run instead */
        if (!n->error[0])
            snprintf(n->error, sizeof n->error,
                     "a %u-byte message from terminal %u can never fit the %u-byte receive ring", a->len, a->src, size);
        return 0;
    }
    /* An empty ring starts over at offset 0 (firmware re-reads TAIL once
     * PENDING says there is a message): without this, a message larger than
     * half the ring could wait forever at head == tail near the middle. */
    if (n->head == n->tail) n->head = n->tail = 0;
    uint32_t h = n->head, t = n->tail;
    if (h >= t) {
        if (size - h < need || (t == 0 && size - h == need)) {
            /* no room at the end: wrap, if the start has room (keep one gap) */
            if (need >= t) return 0;
            if (size - h >= 8) {
                uint32_t mark[2] = {0, NI_WRAP_MARK};
                memcpy(ring + h, mark, 8);
                rv32_ram_written(n->core, n->ring_base + h, 8);
            }
            h = 0;
        }
    } else if (need >= t - h) {
        return 0;
    }
    uint32_t hdr[2] = {(a->src & 0xffff) | (a->tag & 0xffff) << 16, a->len};
    memcpy(ring + h, hdr, 8);
    memcpy(ring + h + 8, a->buf, a->len);
    rv32_ram_written(n->core, n->ring_base + h, need);
    h += need;
    if (h == size) h = 0;
    n->head = h;
    delivered(n, a);
    return 1;
}

/* A posted message has landed: bump its counter. */
static void complete_posted(ni *n, ni_asm *a)
{
    if (a->ct) {
        uint32_t v = ram_word(n, a->ct) + 1;
        memcpy(n->core->ram + (a->ct - n->core->ram_base), &v, 4);
        rv32_ram_written(n->core, a->ct, 4);
    }
    n->posted_done++;
    ni_span_release(n, a->addr, a->len);
    delivered(n, a);
}

static void owe(ni *n, int c, int vc)
{
    if (!ep_owe(&n->ep[c], vc) && !n->error[0])
        snprintf(n->error, sizeof n->error,
                 "channel %d: the router sent a flit on VC %d beyond the %d x %d buffer slots it had credits for", c,
                 vc, n->vcs, n->buf);
}

/* Processes one flit; returns 0 if the packet it completes must wait for
 * ring space (its credit is then owed until the commit). */
static int recv_flit(ni *n, int c, const xnoc_flit *f)
{
    ni_asm *a = &n->rx[c][f->vc & (ROUTER_MAX_VCS - 1)];
    n->flits_recv++;
#define FAIL(...) (n->error[0] ? 0 : snprintf(n->error, sizeof n->error, __VA_ARGS__))
    if (f->head) {
        if (a->active && a->meta)
            FAIL("channel %d VC %d: a head flit arrived inside the message from terminal %u (tag %u, %u of %u bytes "
                 "so far): its tail was lost, or a head duplicated",
                 c, f->vc, a->src, a->tag, a->got, a->len);
        else if (a->active)
            FAIL("channel %d VC %d: a head flit arrived right after another head: a flit was lost or duplicated", c,
                 f->vc);
        a->active = 1;
        a->meta = 0;
        a->got = 0;
        a->head = f->payload;
        a->mask0 = 0;
        a->nmask = 0;
        a->mask_left =
            !FLIT_GET(f->payload, FLIT_SR_BIT, 1) && FLIT_GET(f->payload, FLIT_MC_BIT, 1) ? n->mask_flits : 0;
        return 1;
    }
    if (!a->active) {
        FAIL("channel %d VC %d: a body flit without a head: the head was lost, or a tail duplicated", c, f->vc);
        return 1;
    }
    if (!a->meta) {
        a->meta = 1;
        a->src = FLIT_GET(f->payload, FLIT_META_SRC_LSB, FLIT_META_SRC_W);
        a->tag = FLIT_GET(f->payload, FLIT_META_TAG_LSB, FLIT_META_TAG_W);
        a->len = FLIT_GET(f->payload, FLIT_META_LEN_LSB, FLIT_META_LEN_W);
        if (a->len > NI_MAX_PACKET) a->len = NI_MAX_PACKET;
        ni_post p;
        a->posted = ni_match_take(n, a->src, a->tag, &p) >= 0;
        if (a->posted && p.len != a->len) { /* the run stops at the end of this cycle */
            if (!n->error[0])
                snprintf(
                    n->error, sizeof n->error,
                    "a %u-byte message from terminal %u (tag %u) does not match the %u-byte receive posted at 0x%08x",
                    a->len, a->src, a->tag, p.len, p.addr);
            ni_span_release(n, p.addr, p.len);
            a->posted = 0;
        }
        if (a->posted) {
            a->addr = p.addr;
            a->ct = p.ct;
        } else {
            n->unexpected += !n->error[0];
            if (!a->buf) a->buf = xmalloc(NI_MAX_PACKET);
        }
    } else if (a->mask_left) { /* MC = 1: the mask flits before the data */
        if (!a->nmask) a->mask0 = f->payload;
        a->nmask++;
        a->mask_left--;
    } else if (a->got >= a->len) {
        FAIL("channel %d VC %d: the message from terminal %u (tag %u) has more data flits than its %u bytes: a flit "
             "was duplicated",
             c, f->vc, a->src, a->tag, a->len);
    } else {
        uint32_t take = a->len - a->got > 8 ? 8 : a->len - a->got;
        uint64_t w = f->payload;
        test_hooks_corrupt(&n->hooks, &w, take);
        if (a->posted) { /* zero-copy: straight into the posted buffer */
            memcpy(n->core->ram + (a->addr - n->core->ram_base) + a->got, &w, take);
            rv32_ram_written(n->core, a->addr + a->got, take);
        } else {
            memcpy(a->buf + a->got, &w, take);
        }
        a->got += take;
    }
    if (f->tail) {
        a->active = 0;
        if (!a->meta || a->got < a->len || a->mask_left)
            FAIL("channel %d VC %d: the message from terminal %u (tag %u) ended after %u of its %u bytes: a flit was "
                 "lost",
                 c, f->vc, a->src, a->tag, a->got, a->len);
        if (n->error[0]) return 1; /* the run stops; nothing half-delivered is committed */
        if (a->posted) {
            complete_posted(n, a);
            return 1;
        }
        if (!commit(n, a)) {
            a->held = 1;
            return 0;
        }
    }
    return 1;
#undef FAIL
}

void ni_cycle(ni *n, const xnoc_flit *ej, const xnoc_credit *injc, xnoc_flit *inj, xnoc_credit *ejc)
{
    int full = 0;
    for (int c = 0; c < n->k; c++) {
        /* a refused credit ends the run, as every NI error does after this
         * cycle; the cycle itself still fills every channel's outputs */
        if (injc[c].valid && !ep_credit_in(&n->ep[c], &injc[c]) && !n->error[0])
            snprintf(n->error, sizeof n->error,
                     "channel %d: the router returned a credit for VC %d it did not owe (%d VCs of %d flits)", c,
                     injc[c].vc, n->vcs, n->buf);
        /* a held packet retries its commit; then the flits queued behind it */
        for (int v = 0; v < n->vcs; v++) {
            ni_asm *a = &n->rx[c][v];
            if (a->held && commit(n, a)) {
                a->held = 0;
                owe(n, c, v);
            }
            full |= a->held;
            if (!a->held && a->qlen) {
                xnoc_flit f = a->q[a->qhead];
                a->qhead = (a->qhead + 1) % ROUTER_MAX_BUF;
                a->qlen--;
                if (recv_flit(n, c, &f)) owe(n, c, v);
            }
        }
        if (ej[c].valid) {
            ni_asm *a = &n->rx[c][ej[c].vc & (ROUTER_MAX_VCS - 1)];
            int fate = test_hooks_fate(&n->hooks);
            if (fate == HOOK_DROP) {
                owe(n, c, ej[c].vc); /* discarded; its credit goes back as for any flit */
            } else {
                /* a duplicate is taken first and earns no credit of its own */
                if (fate == HOOK_DUP && !a->held && !a->qlen) (void)recv_flit(n, c, &ej[c]);
                if (a->held || a->qlen) {
                    a->q[(a->qhead + a->qlen) % ROUTER_MAX_BUF] = ej[c];
                    a->qlen++;
                } else if (recv_flit(n, c, &ej[c])) {
                    owe(n, c, ej[c].vc);
                }
            }
        }
        ep_credit_out(&n->ep[c], &ejc[c]);
        send_cycle(n, c, &inj[c]);
    }
    n->full_cycles += (uint64_t)full;
    ni_dec_cycle(n);
    rv32_irq(n->core, IRQ_MEI, n->irq_en && ring_nonempty(n));
}

int ni_busy(const ni *n)
{
    if (n->dec.qlen) return 1;
    for (int c = 0; c < n->k; c++) {
        if (n->send[c].busy) return 1;
        for (int v = 0; v < n->vcs; v++)
            if (n->rx[c][v].active || n->rx[c][v].held || n->rx[c][v].qlen) return 1;
        if (ep_owes(&n->ep[c])) return 1;
    }
    return 0;
}

static void left(ni_msg_left *out, int max, int *nleft, uint32_t src, uint32_t tag, uint32_t len, const char *where)
{
    if (*nleft < max) out[*nleft] = (ni_msg_left){src, tag, len, where};
    (*nleft)++;
}

int ni_undelivered(const ni *n, ni_msg_left *out, int max)
{
    int nleft = 0;
    /* the ring from TAIL to HEAD, as firmware would read it; its bytes are
     * firmware's RAM, so the walk stops at anything that is not a message */
    if (n->ring_size && n->ring_size <= n->core->ram_size && n->head != n->tail && n->head < n->ring_size) {
        const uint8_t *ring = n->core->ram + (n->ring_base - n->core->ram_base);
        uint32_t off = n->tail;
        for (uint32_t steps = n->ring_size / 8; off != n->head && steps--;) {
            uint32_t hdr[2];
            if (off + 8 > n->ring_size) break;
            memcpy(hdr, ring + off, 8);
            if (hdr[1] == NI_WRAP_MARK) {
                off = 0;
                continue;
            }
            uint32_t step = 8 + ((hdr[1] + 7) & ~7u);
            if (hdr[1] > NI_MAX_PACKET || step > n->ring_size - off) break;
            left(out, max, &nleft, hdr[0] & 0xffff, hdr[0] >> 16, hdr[1], "in its receive ring, not released");
            off = off + step == n->ring_size ? 0 : off + step;
        }
    }
    for (int c = 0; c < n->k; c++)
        for (int v = 0; v < n->vcs; v++) {
            const ni_asm *a = &n->rx[c][v];
            if (a->held) left(out, max, &nleft, a->src, a->tag, a->len, "held in its NI (no room in the ring)");
            else if (a->active && a->meta) left(out, max, &nleft, a->src, a->tag, a->len, "still arriving");
            /* flits accepted behind a held packet: the messages whose meta flit is among them */
            for (int i = 1; i < a->qlen; i++) {
                const xnoc_flit *h = &a->q[(a->qhead + i - 1) % ROUTER_MAX_BUF],
                                *f = &a->q[(a->qhead + i) % ROUTER_MAX_BUF];
                if (h->head && !f->head)
                    left(out, max, &nleft, (uint32_t)FLIT_GET(f->payload, FLIT_META_SRC_LSB, FLIT_META_SRC_W),
                         (uint32_t)FLIT_GET(f->payload, FLIT_META_TAG_LSB, FLIT_META_TAG_W),
                         (uint32_t)FLIT_GET(f->payload, FLIT_META_LEN_LSB, FLIT_META_LEN_W),
                         "held in its NI (no room in the ring)");
            }
        }
    return nleft;
}
