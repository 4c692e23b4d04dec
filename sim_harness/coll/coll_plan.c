/* coll_plan.c - per-node plans for the firmware collective library. */
#include "coll/coll_plan.h"
#include "util/cli.h"
#include "coll/ncfunc.h"
#include "../../firmware/coll/reduce.h"
#include "../../firmware/lib/ni_regs.h" /* the decode engine's descriptor */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the plan names collectives by the harness's coll_op values */
#define SAME(a, b) ((int)(a) == (int)(b))
_Static_assert(SAME(OP_BARRIER, PLAN_OP_BARRIER) && SAME(OP_BCAST, PLAN_OP_BCAST) &&
                   SAME(OP_SCATTER, PLAN_OP_SCATTER) && SAME(OP_GATHER, PLAN_OP_GATHER) &&
                   SAME(OP_REDUCE, PLAN_OP_REDUCE) && SAME(OP_ALLGATHER, PLAN_OP_ALLGATHER) &&
                   SAME(OP_ALLTOALL, PLAN_OP_ALLTOALL) && SAME(OP_MNB, PLAN_OP_MNB) && SAME(OP_MNS, PLAN_OP_MNS),
               "coll_op and the plan's op codes agree");
_Static_assert(sizeof(plan_send) == 4 * PLAN_SEND_WORDS && sizeof(plan_recv) == 4 * PLAN_RECV_WORDS &&
                   sizeof(plan_slot) == 4 * PLAN_SLOT_WORDS && sizeof(plan_step) == 4 * PLAN_STEP_WORDS,
               "plan entries are whole words");

static int slot_of(const int *slots, int nslots, int msg)
{
    for (int i = 0; i < nslots; i++)
        if (slots[i] == msg) return i;
    return -1;
}

static int parts_of(const coll_sched *s, int m) { return s->msgs[m].parts > 1 ? s->msgs[m].parts : 1; }

/* A transfer the plain send/receive lists carry: a whole one-part message
 * between two terminals.  Everything else is an extended operation. */
static int plain_xfer(const coll_sched *s, const coll_xfer *f)
{
    return !f->len && parts_of(s, f->msg) == 1 && f->src < s->nterms && f->dst < s->nterms;
}

/* a multicast's transfer after its first (coll_xfer.mc): the first one sends the packet */
static int mc_repeat(const coll_sched *s, int x) { return s->xf[x].mc && x > 0 && s->xf[x - 1].mc == s->xf[x].mc; }

static int ext_sched(const coll_sched *s)
{
    if (s->nxors) return 1;
    for (int x = 0; x < s->nxfers; x++)
        if (!plain_xfer(s, &s->xf[x])) return 1;
    return 0;
}

/* the node's slots: every message it originates, sends, receives or XORs;
 * a bundle takes one slot per part.  first[i] is message slots[i]'s first slot. */
static int node_slots(const coll_sched *s, int node, int *slots, int *first, int *units)
{
    int n = 0, u = 0;
    for (int m = 0; m < s->nmsgs; m++) {
        int use = s->msgs[m].origin == node;
        for (int x = 0; x < s->nxfers && !use; x++)
            use = s->xf[x].msg == m && (s->xf[x].src == node || s->xf[x].dst == node);
        for (int x = 0; x < s->nxors && !use; x++) {
            const coll_xor *o = &s->xors[x];
            use = o->node == node && (o->dmsg == m || o->amsg == m || o->bmsg == m);
        }
        if (!use) continue;
        slots[n] = m;
        first[n++] = u;
        u += parts_of(s, m);
    }
    *units = u;
    return n;
}

/* A plain send's entry: the destination, the message, its buffer unit, the
 * channel and the source route (pb bits a hop). */
static void put_send(uint32_t *e, const coll_xfer *f, int unit, int pb)
{
    uint64_t route = 0;
    for (int h = 0; h < f->nports; h++) route |= (uint64_t)f->ports[h] << (pb * h);
    e[0] = (uint32_t)f->dst;
    e[1] = (uint32_t)f->msg;
    e[2] = (uint32_t)unit;
    e[3] = (uint32_t)f->chan;
    e[4] = (uint32_t)f->nports;
    e[5] = (uint32_t)route;
    e[6] = (uint32_t)(route >> 32);
}

/* A plain receive's entry: combined (reduce, barrier), verified where node
 * needs the message, else only kept. */
static void put_recv(uint32_t *e, const coll_sched *s, const coll_xfer *f, int node, int unit)
{
    const coll_msg *g = &s->msgs[f->msg];
    int need = g->dest >= 0 ? node == g->dest : s->to[node] && node != g->origin;
    e[0] = (uint32_t)f->src;
    e[1] = (uint32_t)f->msg;
    e[2] = (uint32_t)unit;
    e[3] = (s->op == OP_REDUCE || s->op == OP_BARRIER) ? PRF_COMBINE : need ? PRF_VERIFY : 0;
}

/* The buffer units' table: each part of each message node keeps. */
static void put_slots(uint32_t *w, const coll_sched *s, int node, const int *slots, const int *first, int nslots)
{
    for (int i = 0; i < nslots; i++)
        for (int p = 0; p < parts_of(s, slots[i]); p++) {
            uint32_t *e = &w[PLAN_SLOT_WORDS * (first[i] + p)];
            const coll_msg *g = &s->msgs[slots[i]];
            e[0] = (uint32_t)slots[i];
            e[1] = (uint32_t)g->origin;
            e[2] = parts_of(s, slots[i]) > 1 ? PLAN_SLOT_CODED : (uint32_t)g->dest;
            e[3] = g->origin == node && parts_of(s, slots[i]) == 1;
        }
}

uint32_t *coll_plan_encode(const coll_sched *s, const topo *t, int node, int bytes, int sync, uint32_t seed, int redop,
                           int ni_decode, uint32_t plan_addr, int *nwords, uint32_t *buf_end)
{
    int ext = ext_sched(s), nsend = 0, nrecv = 0, nops = 0, nxors = 0, nmc = 0;
    for (int x = 0; x < s->nxfers; x++) {
        const coll_xfer *f = &s->xf[x];
        int mine = (f->src == node && !mc_repeat(s, x)) + (f->dst == node);
        nmc += f->src == node && f->mc && !mc_repeat(s, x);
        if (plain_xfer(s, f)) {
            nsend += f->src == node;
            nrecv += f->dst == node;
        } else nops += mine;
    }
    for (int x = 0; x < s->nxors; x++) nxors += s->xors[x].node == node;
    nops += nxors;
    if (!ext) ni_decode = 0;
    int *slots = xmalloc(((size_t)s->nmsgs + 1) * sizeof *slots),
        *first = xmalloc(((size_t)s->nmsgs + 1) * sizeof *first);
    int units, nslots = node_slots(s, node, slots, first, &units);
    int steps_off = PH_HEADER_WORDS, sends_off = steps_off + PLAN_STEP_WORDS * s->nsteps;
    int recvs_off = sends_off + PLAN_SEND_WORDS * nsend, slots_off = recvs_off + PLAN_RECV_WORDS * nrecv;
    int xsteps_off = slots_off + PLAN_SLOT_WORDS * units,
        ops_off = xsteps_off + (ext ? PLAN_XSTEP_WORDS * s->nsteps : 0);
    /* the multicasts' masks (2 words per 64 addresses), 8-byte aligned */
    int al = nmc ? 1 : 0, mask_words = 2 * ((s->nterms + t->nrouters + 63) / 64),
        mask_off = (ops_off + PLAN_OP_WORDS * nops + al) & ~al, im = 0;
    int dec_off = mask_off + mask_words * nmc,
        ct_off = dec_off + (ni_decode ? s->nsteps + NI_DEC_DESC_WORDS * nxors : 0);
    int result_off = ct_off + s->nsteps;
    int total = result_off + PLAN_RESULT_WORDS(s->nsteps);
    uint32_t stride = ((uint32_t)bytes + 7) & ~7u, buf = (plan_addr + 4u * (uint32_t)total + 63) & ~63u;
    uint32_t *w = xcalloc((size_t)total, sizeof *w);
    w[PH_MAGIC] = PLAN_MAGIC;
    w[PH_VERSION] = PLAN_VERSION;
    w[PH_NODE] = (uint32_t)node;
    w[PH_NTERMS] = (uint32_t)s->nterms;
    w[PH_OP] = (uint32_t)s->op;
    w[PH_BYTES] = (uint32_t)bytes;
    w[PH_NSTEPS] = (uint32_t)s->nsteps;
    w[PH_SYNC] = (uint32_t)sync;
    w[PH_SEED] = seed;
    w[PH_REDOP] = (uint32_t)redop;
    w[PH_NSLOTS] = (uint32_t)units;
    w[PH_PORTBITS] = (uint32_t)topo_port_bits(t);
    w[PH_STEPS_OFF] = (uint32_t)steps_off;
    w[PH_SENDS_OFF] = (uint32_t)sends_off;
    w[PH_RECVS_OFF] = (uint32_t)recvs_off;
    w[PH_SLOTS_OFF] = (uint32_t)slots_off;
    w[PH_NSENDS] = (uint32_t)nsend;
    w[PH_NRECVS] = (uint32_t)nrecv;
    w[PH_RESULT_OFF] = (uint32_t)result_off;
    w[PH_WORDS] = (uint32_t)total;
    w[PH_FLAGS] = (s->from[node] ? PF_CONTRIBUTES : 0) | (ext ? PF_EXT : 0);
    w[PH_BUF_ADDR] = buf;
    w[PH_CT_OFF] = (uint32_t)ct_off;
    w[PH_STRIDE] = stride;
    w[PH_XSTEPS_OFF] = (uint32_t)xsteps_off;
    w[PH_OPS_OFF] = (uint32_t)ops_off;
    w[PH_NOPS] = (uint32_t)nops;
    w[PH_DEC_OFF] = ni_decode && nxors ? (uint32_t)dec_off : 0;
    for (int i = 0; i < s->nterms && i < 1024; i++)
        if (s->from[i]) w[PH_CONTRIB + i / 32] |= 1u << (i % 32);
            /* byte offset of (message, part) in this node's buffers */
#define OFF(m, part) (stride * (uint32_t)(first[slot_of(slots, nslots, (m))] + (part)))
    int pb = topo_port_bits(t), is = 0, ir = 0, io = 0, id = 0;
    for (int st = 0; st < s->nsteps; st++) {
        uint32_t *sw = &w[steps_off + PLAN_STEP_WORDS * st], *xw = ext ? &w[xsteps_off + PLAN_XSTEP_WORDS * st] : NULL;
        sw[0] = (uint32_t)is;
        sw[2] = (uint32_t)ir;
        if (xw) xw[0] = (uint32_t)io;
        for (int x = 0; x < s->nxfers; x++) {
            const coll_xfer *f = &s->xf[x];
            if (f->step != st || (f->src != node && f->dst != node)) continue;
            if (!plain_xfer(s, f)) {
                uint32_t off = OFF(f->msg, f->part) + (uint32_t)f->off, len = (uint32_t)coll_xfer_bytes(s, f, bytes);
                uint32_t tag = (uint32_t)(f->len ? f->tag : f->msg);
                if (f->src == node && mc_repeat(s, x)) continue; /* the multicast's first transfer sent it */
                plan_op *o = (plan_op *)&w[ops_off + PLAN_OP_WORDS * io++];
                if (f->src == node && f->mc) { /* one packet to src's router's unit, which replicates */
                    uint32_t *mask = &w[mask_off + mask_words * im++];
                    for (int y = x; y < s->nxfers && s->xf[y].mc == f->mc; y++)
                        mask[2 * (s->xf[y].dst / 64) + (s->xf[y].dst % 64 >= 32)] |= 1u << (s->xf[y].dst % 32);
                    *o = (plan_op){.kind = PO_MCAST,
                                   .peer = (uint32_t)(s->nterms + topo_term_router(t, node)),
                                   .tag = tag,
                                   .off = off,
                                   .len = len,
                                   .chan = (uint32_t)f->chan,
                                   .a = plan_addr + 4u * (uint32_t)(mask - w)};
                } else if (f->src == node) {
                    *o = (plan_op){.kind = f->dst >= s->nterms ? PO_ENCODE : PO_SEND,
                                   .peer = (uint32_t)f->dst,
                                   .tag = tag,
                                   .off = off,
                                   .len = len,
                                   .chan = (uint32_t)f->chan,
                                   .a = 2,
                                   .b = (uint32_t)f->out_dest};
                } else {
                    *o = (plan_op){.kind = PO_RECV, .peer = (uint32_t)f->src, .tag = tag, .off = off, .len = len};
                    xw[2]++;
                }
                continue;
            }
            int unit = first[slot_of(slots, nslots, f->msg)];
            if (f->src == node) put_send(&w[sends_off + PLAN_SEND_WORDS * is++], f, unit, pb);
            if (f->dst == node) put_recv(&w[recvs_off + PLAN_RECV_WORDS * ir++], s, f, node, unit);
        }
        for (int x = 0; x < s->nxors; x++) {
            const coll_xor *c = &s->xors[x];
            if (c->step != st || c->node != node) continue;
            plan_op *o = (plan_op *)&w[ops_off + PLAN_OP_WORDS * io++];
            *o = (plan_op){.kind = PO_XOR,
                           .peer = c->verify ? POF_VERIFY : 0,
                           .off = OFF(c->dmsg, c->dpart),
                           .len = (uint32_t)bytes,
                           .a = OFF(c->amsg, c->apart),
                           .b = OFF(c->bmsg, c->bpart)};
            if (w[PH_DEC_OFF]) { /* the same XOR as the NI's decode descriptor: absolute addresses */
                uint32_t *d = &w[dec_off + s->nsteps + NI_DEC_DESC_WORDS * id++];
                w[dec_off + st]++;
                d[0] = buf + o->off;
                d[1] = buf + o->a;
                d[2] = buf + o->b;
                d[3] = o->len;
            }
        }
        sw[1] = (uint32_t)is - sw[0];
        sw[3] = (uint32_t)ir - sw[2];
        if (xw) xw[1] = (uint32_t)io - xw[0];
    }
#undef OFF
    put_slots(&w[slots_off], s, node, slots, first, nslots);
    free(slots);
    free(first);
    *nwords = total;
    *buf_end = buf + stride * (uint32_t)units;
    return w;
}

static const uint8_t *at(uint32_t addr, uint32_t len, const uint8_t *ram, uint32_t ram_base, uint32_t ram_size)
{
    uint32_t off = addr - ram_base;
    return off <= ram_size && len <= ram_size - off ? ram + off : NULL;
}

/* the first byte of d that differs from slot sl's pattern data, or -1 */
static long first_wrong(const plan_slot *sl, const uint8_t *d, uint32_t bytes, uint32_t seed, uint8_t *want)
{
    for (uint32_t b = 0; b < bytes; b++) {
        *want = (uint8_t)(coll_pattern(seed, (int)sl->origin, (int)sl->dest, b / 4) >> (8 * (b % 4)));
        if (d[b] != *want) return (long)b;
    }
    return -1;
}

int coll_plan_verify(const uint32_t *w, const uint8_t *ram, uint32_t ram_base, uint32_t ram_size, char *err, int errlen)
{
    int me = (int)w[PH_NODE];
    uint32_t bytes = w[PH_BYTES], stride = w[PH_STRIDE], seed = w[PH_SEED], redop = w[PH_REDOP];
    const plan_recv *recvs = (const plan_recv *)(w + w[PH_RECVS_OFF]);
    const plan_slot *slots = (const plan_slot *)(w + w[PH_SLOTS_OFF]);
    for (uint32_t i = 0; i < w[PH_NRECVS]; i++) {
        const plan_recv *e = &recvs[i];
        if (!(e->flags & PRF_VERIFY)) continue;
        const plan_slot *sl = &slots[e->slot];
        const uint8_t *d = at(w[PH_BUF_ADDR] + e->slot * stride, bytes, ram, ram_base, ram_size);
        if (!d) {
            snprintf(err, (size_t)errlen, "node %d: the buffer of message %u lies outside RAM", me, sl->msg);
            return -1;
        }
        uint8_t want;
        long b = first_wrong(sl, d, bytes, seed, &want);
        if (b >= 0) {
            snprintf(err, (size_t)errlen,
                     "node %d: message %u (from terminal %u, received from %u) byte %ld: got 0x%02x, expected 0x%02x",
                     me, sl->msg, sl->origin, e->src, b, d[b], want);
            return -1;
        }
    }
    /* decoded messages (PO_XOR with POF_VERIFY) */
    const plan_op *ops = (const plan_op *)(w + w[PH_OPS_OFF]);
    for (uint32_t i = 0; (w[PH_FLAGS] & PF_EXT) && i < w[PH_NOPS]; i++) {
        if (ops[i].kind != PO_XOR || !(ops[i].peer & POF_VERIFY)) continue;
        const plan_slot *sl = &slots[ops[i].off / stride];
        const uint8_t *d = at(w[PH_BUF_ADDR] + ops[i].off, bytes, ram, ram_base, ram_size);
        if (!d) {
            snprintf(err, (size_t)errlen, "node %d: the buffer of message %u lies outside RAM", me, sl->msg);
            return -1;
        }
        uint8_t want;
        long b = first_wrong(sl, d, bytes, seed, &want);
        if (b >= 0) {
            snprintf(err, (size_t)errlen,
                     "node %d: message %u (from terminal %u, decoded) byte %ld: got 0x%02x, expected 0x%02x", me,
                     sl->msg, sl->origin, b, d[b], want);
            return -1;
        }
    }
    /* reduce: the root (the one node that sends nothing) holds the
     * combination of every contribution */
    if (w[PH_OP] != PLAN_OP_REDUCE || w[PH_NSENDS] != 0) return 0;
    for (uint32_t i = 0; i < w[PH_NSLOTS]; i++) {
        const plan_slot *sl = &slots[i];
        if (!sl->own) continue;
        const uint8_t *d = at(w[PH_BUF_ADDR] + i * stride, bytes, ram, ram_base, ram_size);
        if (!d) {
            snprintf(err, (size_t)errlen, "node %d: the reduce result lies outside RAM", me);
            return -1;
        }
        /* the host's reduction (coll/ncfunc.c) of the contributions, from the identity */
        uint8_t *want = xmalloc(bytes ? bytes : 1), *one = xmalloc(bytes ? bytes : 1);
        for (uint32_t wd = 0; wd < bytes / 4; wd++) {
            uint32_t v = coll_identity_word((int)redop, wd);
            memcpy(want + 4 * wd, &v, 4);
        }
        for (uint32_t o = 0; o < w[PH_NTERMS] && o < 1024; o++) {
            if (!(w[PH_CONTRIB + o / 32] >> (o % 32) & 1)) continue;
            for (uint32_t wd = 0; wd < bytes / 4; wd++) {
                uint32_t v = coll_pattern(seed, (int)o, -1, wd);
                memcpy(one + 4 * wd, &v, 4);
            }
            nc_func_combine((int)redop, want, one, bytes);
        }
        int bad = -1;
        for (uint32_t wd = 0; wd < bytes / 4 && bad < 0; wd++)
            if (memcmp(d + 4 * wd, want + 4 * wd, 4)) bad = (int)wd;
        if (bad >= 0) {
            uint32_t got, exp;
            memcpy(&got, d + 4 * bad, 4);
            memcpy(&exp, want + 4 * bad, 4);
            snprintf(err, (size_t)errlen, "node %d: reduce result (%s) byte %d: got 0x%08x, expected 0x%08x", me,
                     nc_redop_name((int)redop), 4 * bad, got, exp);
        }
        free(want);
        free(one);
        if (bad >= 0) return -1;
    }
    return 0;
}
