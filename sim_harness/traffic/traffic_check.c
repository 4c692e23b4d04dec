/* traffic_check.c - the ejection side of `xnoc traffic`: every flit a
 * terminal receives is checked against the packet it claims to belong to
 * (head checksum, route, sequence, body hashes), and corrupted, misrouted,
 * duplicated, reordered and lost flits are told apart. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../firmware/lib/flit.h"
#include "util/cli.h"
#include "traffic/traffic_sim.h"

uint64_t traffic_body_word(int src, uint32_t seq, int i)
{
    return rng_mix64(((uint64_t)src << 48) ^ ((uint64_t)seq << 8) ^ (uint64_t)i ^ 0x5eed5eed00000000ULL);
}

/* Head: DEST and EJSEL where the router reads them (firmware/lib/flit.h:
 * [11:0], [17:14]; SR and MC clear), then [29:18] src, [55:30] seq,
 * [62:56] checksum of the rest, [63] 1 (coding-group packets use the NI
 * framing, whose heads have bit 63 clear).  The length is the record's. */
#define TH_SRC_LSB 18
#define TH_SEQ_LSB 30
#define TH_SEQ_W 26
static uint32_t head_check(uint64_t w) { return (uint32_t)(rng_mix64(w) & 0x7f) | 0x80; }
/* With non-minimal routing (--router routing=valiant|ugal) the top byte is
 * the routers' (flit.h VAL, UGAL, VGROUP; a router may clear VAL), so the
 * packet's identity moves down: [27:18] src (10 bits: 1024 terminals),
 * [50:28] seq (23 bits), [54:51] a 3-bit checksum of [50:0], [55] 1. */
#define TV_SRC_W 10
#define TV_SEQ_LSB 28
#define TV_SEQ_W 23
#define TV_CHECK_LSB 51
static uint32_t head_check_v(uint64_t w) { return (uint32_t)(rng_mix64(w) & 7) | 8; }
uint64_t traffic_head_word(const sim *s, int src, int dst, int chan, uint32_t seq)
{
    uint64_t w = FLIT_FIELD(dst, FLIT_DEST_LSB, FLIT_DEST_W) | FLIT_FIELD(chan, FLIT_EJSEL_LSB, FLIT_EJSEL_W);
    if (s->rc.routing == ROUTING_MIN) {
        w |= FLIT_FIELD(src, TH_SRC_LSB, FLIT_DEST_W) | FLIT_FIELD(seq, TH_SEQ_LSB, TH_SEQ_W);
        return w | (uint64_t)head_check(w) << 56;
    }
    w |= FLIT_FIELD(src, TH_SRC_LSB, TV_SRC_W) | FLIT_FIELD(seq, TV_SEQ_LSB, TV_SEQ_W);
    uint64_t rng = rng_mix64((uint64_t)src << 32 ^ seq); /* the packet's intermediate group, reproducibly */
    return w | (uint64_t)head_check_v(w) << TV_CHECK_LSB | routing_head_bits(s->t, &s->rc, src, (uint32_t)dst, &rng);
}

/* src, seq of a traffic head; 0 if its checksum fails */
static int head_fields(const sim *s, uint64_t w, int *src, uint32_t *seq)
{
    if (s->rc.routing == ROUTING_MIN) {
        *src = (int)FLIT_GET(w, TH_SRC_LSB, FLIT_DEST_W);
        *seq = FLIT_GET(w, TH_SEQ_LSB, TH_SEQ_W);
        return head_check(w & 0x00ffffffffffffffULL) == w >> 56;
    }
    *src = (int)FLIT_GET(w, TH_SRC_LSB, TV_SRC_W);
    *seq = FLIT_GET(w, TV_SEQ_LSB, TV_SEQ_W);
    return head_check_v(w & ((1ull << TV_CHECK_LSB) - 1)) == FLIT_GET(w, TV_CHECK_LSB, 4);
}

void traffic_error(sim *s, uint64_t *kind, const char *fmt, ...)
{
    (*kind)++;
    s->errors++;
    if (!s->first_error[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(s->first_error, sizeof s->first_error, fmt, ap);
        va_end(ap);
    }
}

void traffic_index_packet(sim *s, size_t idx)
{
    int src = s->pk.v[idx].src;
    if (s->by_src_n[src] == s->by_src_cap[src]) {
        s->by_src_cap[src] = s->by_src_cap[src] ? 2 * s->by_src_cap[src] : 256;
        s->by_src[src] = xrealloc(s->by_src[src], s->by_src_cap[src] * sizeof **s->by_src);
    }
    s->by_src[src][s->by_src_n[src]++] = idx;
}

/* The packet a body flit belongs to, when its head never came: a packet for
 * this terminal, sent, without a head here, whose flit i has this payload. */
static int find_headless(sim *s, int term, uint64_t payload, size_t *idx, int *flit)
{
    for (size_t i = s->pk.n; i-- > 0;) {
        packet *p = &s->pk.v[i];
        if (p->dst != term || p->got || p->flits || p->done || p->lost) continue;
        for (int k = 1; k < p->len; k++)
            if (traffic_body_word(p->src, p->seq, k) == payload) {
                *idx = i;
                *flit = k;
                return 1;
            }
    }
    return 0;
}

/* Marks flits [from, to) of packet p lost: reported, out of the in-flight count. */
void traffic_lose(sim *s, packet *p, int from, int to, uint64_t now, const char *why)
{
    traffic_error(s, &s->err_lost, "cycle %llu: packet %d#%u (%d -> %d): flit%s %d%s%.0d of %d lost (%s)",
                  (unsigned long long)now, p->src, p->seq, p->src, p->dst, to - from > 1 ? "s" : "", from,
                  to - from > 1 ? ".." : "", to - from > 1 ? to - 1 : 0, p->len, why);
    s->in_flight -= (uint64_t)(to - from);
    p->lost = 1;
}

static void accept(sim *s, int ch, const xnoc_flit *f, uint64_t now);

/* A flit the network delivers: its credit goes back, then the test hooks
 * may corrupt, drop or duplicate it (flow control intact), then it is checked. */
void traffic_receive(sim *s, int ch, const xnoc_flit *fin, uint64_t now)
{
    const topo *t = s->t;
    int term = ch / t->k;
    if (fin->vc >= s->rc.vcs) {
        traffic_error(s, &s->err_corrupt, "cycle %llu: flit on VC %d at terminal %d (only %d VCs)",
                      (unsigned long long)now, fin->vc, term, s->rc.vcs);
        return;
    }
    if (!ep_owe(&s->ep[ch], fin->vc)) { /* returned this cycle: no flit waits here */
        traffic_error(s, &s->err_corrupt,
                      "cycle %llu: terminal %d channel %d: the router sent a flit on VC %d beyond the %d x %d buffer "
                      "slots it had credits for",
                      (unsigned long long)now, term, ch % t->k, fin->vc, s->rc.vcs, s->rc.buf);
        return;
    }
    xnoc_flit f = *fin;
    test_hooks *h = &s->hooks[term];
    test_hooks_corrupt(h, &f.payload, 8);
    int fate = test_hooks_fate(h);
    if (fate == HOOK_DROP) return;
    if (fate == HOOK_DUP) accept(s, ch, &f, now);
    accept(s, ch, &f, now);
}

/* Checks one flit against the packet it belongs to. */
static void accept(sim *s, int ch, const xnoc_flit *f, uint64_t now)
{
    const topo *t = s->t;
    int term = ch / t->k, c = ch % t->k;
    ej_state *e = &s->es[ch * s->rc.vcs + f->vc];
    if ((f->head && s->nc && nc_is_head(f->payload)) || (!f->head && e->nc)) {
        char why[300];
        if (f->head && e->active)
            traffic_error(s, &s->err_order, "cycle %llu: head at terminal %d VC %d inside another packet",
                          (unsigned long long)now, term, f->vc);
        e->active = !f->tail;
        e->nc = !f->tail;
        if (nc_gen_flit(s->nc, term, f->vc, f, now, why, sizeof why)) {
            traffic_error(s, &s->err_corrupt, "%s", why);
            e->active = e->nc = 0;
        }
        return;
    }
    if (f->head) {
        uint64_t w = f->payload;
        int src, dst = (int)FLIT_GET(w, FLIT_DEST_LSB, FLIT_DEST_W),
                 chan = (int)FLIT_GET(w, FLIT_EJSEL_LSB, FLIT_EJSEL_W);
        uint32_t seq;
        int check_ok = head_fields(s, w, &src, &seq);
        if (e->active) {
            packet *q = &s->pk.v[e->pkt];
            if (q->src == src && q->seq == seq && q->got == 1) {
                traffic_error(s, &s->err_dup,
                              "cycle %llu: packet %d#%u (%d -> %d): head delivered twice at terminal %d VC %d",
                              (unsigned long long)now, src, seq, src, q->dst, term, f->vc);
                return;
            }
            traffic_lose(s, q, q->got, q->len, now, "the next packet's head arrived first");
        }
        e->active = 0;
        if (!check_ok || src >= t->nterms || seq >= s->by_src_n[src]) {
            traffic_error(s, &s->err_corrupt, "cycle %llu: corrupted head 0x%016llx at terminal %d",
                          (unsigned long long)now, (unsigned long long)w, term);
            return;
        }
        if (dst != term || chan != c) {
            traffic_error(s, &s->err_misroute,
                          "cycle %llu: packet %d#%u for terminal %d channel %d arrived at terminal %d channel %d",
                          (unsigned long long)now, src, seq, dst, chan, term, c);
            return;
        }
        size_t idx = s->by_src[src][seq];
        packet *p = &s->pk.v[idx];
        if (p->got) {
            traffic_error(s, &s->err_dup, "cycle %llu: packet %d#%u (%d -> %d) delivered twice",
                          (unsigned long long)now, src, seq, src, p->dst);
            return;
        }
        e->active = 1;
        e->pkt = idx;
        p->got = 1;
        p->val =
            (uint8_t)FLIT_GET(w, FLIT_VAL_BIT, 1) && s->rc.routing != ROUTING_MIN; /* UGAL's choice, as it arrived */
        p->vgroup = (uint8_t)FLIT_GET(w, FLIT_VGROUP_LSB, FLIT_VGROUP_W);
    } else {
        if (!e->active) {
            size_t idx;
            int k;
            packet *q = e->last_valid ? &s->pk.v[e->last] : NULL;
            if (q && q->len > 1 && f->payload == traffic_body_word(q->src, q->seq, q->len - 1)) {
                traffic_error(s, &s->err_dup,
                              "cycle %llu: packet %d#%u (%d -> %d): tail flit delivered twice at terminal %d VC %d",
                              (unsigned long long)now, q->src, q->seq, q->src, q->dst, term, f->vc);
                return;
            }
            if (find_headless(s, term, f->payload, &idx, &k)) { /* its head (and flits before k) never came */
                packet *p = &s->pk.v[idx];
                traffic_lose(s, p, 0, k, now, "a later flit arrived without them");
                e->active = 1;
                e->pkt = idx;
                p->got = k + 1;
                p->lost = 1;
                goto delivered;
            }
            traffic_error(s, &s->err_order, "cycle %llu: body flit without a head at terminal %d VC %d",
                          (unsigned long long)now, term, f->vc);
            return;
        }
        packet *p = &s->pk.v[e->pkt];
        if (f->payload != traffic_body_word(p->src, p->seq, p->got)) {
            if (p->got > 1 && f->payload == traffic_body_word(p->src, p->seq, p->got - 1)) {
                traffic_error(s, &s->err_dup,
                              "cycle %llu: packet %d#%u (%d -> %d): flit %d delivered twice at terminal %d",
                              (unsigned long long)now, p->src, p->seq, p->src, p->dst, p->got - 1, term);
                return;
            }
            for (int k = p->got + 1; k < p->len; k++)
                if (f->payload == traffic_body_word(p->src, p->seq, k)) { /* flits got..k-1 never came */
                    traffic_lose(s, p, p->got, k, now, "a later flit arrived first");
                    p->got = k;
                    break;
                }
            if (f->payload != traffic_body_word(p->src, p->seq, p->got)) {
                traffic_error(s, &s->err_corrupt,
                              "cycle %llu: packet %d#%u (%d -> %d) flit %d corrupted at terminal %d",
                              (unsigned long long)now, p->src, p->seq, p->src, p->dst, p->got, term);
                /* taken as the flit it should have been: one corruption, one error */
            }
        }
        p->got++;
    }
delivered:;
    packet *p = &s->pk.v[e->pkt];
    if (now >= s->warmup && now < s->warmup + s->window) {
        s->window_flits++;
        s->src_window_flits[p->src]++;
    }
    s->in_flight--;
    if (f->tail != (p->got == p->len)) {
        traffic_error(s, &s->err_order, "cycle %llu: packet %d#%u: tail flag on flit %d of %d", (unsigned long long)now,
                      p->src, p->seq, p->got - 1, p->len);
        e->active = 0;
        return;
    }
    if (f->tail) {
        e->active = 0;
        e->last_valid = 1;
        e->last = e->pkt;
        p->done = !p->lost;
        p->arrived = now;
        if (s->on_arrived && p->done) s->on_arrived(s->coll, e->pkt, now);
        s->measured_done += p->measured; /* arrived, if not whole: the run drains and reports it */
    }
}
