/* coll_plan.c - per-node plans for the firmware collective library. */
#include "coll/coll_plan.h"

#include <stdlib.h>
#include <string.h>

static const char *redop_names[RED_COUNT] = {"sum", "prod", "max", "min", "and", "or", "xor"};

const char *coll_redop_name(int op) { return op >= 0 && op < RED_COUNT ? redop_names[op] : "?"; }

int coll_redop_parse(const char *s)
{
    for (int i = 0; i < RED_COUNT; i++)
        if (!strcmp(s, redop_names[i])) return i;
    return -1;
}

/* Must match firmware/coll/pattern.h bit for bit. */
uint32_t coll_pattern(uint32_t seed, int origin, int dest, uint32_t word)
{
    uint32_t h = seed ^ ((uint32_t)origin * 0x9E3779B1u) ^ ((uint32_t)(dest + 1) * 0x85EBCA77u) ^
                 (word * 0xC2B2AE3Du);
    h ^= h >> 16;
    h *= 0x7FEB352Du;
    h ^= h >> 15;
    h *= 0x846CA68Bu;
    h ^= h >> 16;
    return h;
}

static int slot_of(const int *slots, int nslots, int msg)
{
    for (int i = 0; i < nslots; i++)
        if (slots[i] == msg) return i;
    return -1;
}

uint32_t *coll_plan_encode(const coll_sched *s, const topo *t, int node, int bytes, int sync, uint32_t seed,
                           int redop, int *nwords)
{
    int nsend = 0, nrecv = 0;
    for (int x = 0; x < s->nxfers; x++) {
        nsend += s->xf[x].src == node;
        nrecv += s->xf[x].dst == node;
    }
    /* slots: every message this node originates, sends or receives */
    int *slots = malloc(((size_t)s->nmsgs + 1) * sizeof *slots), nslots = 0;
    for (int m = 0; m < s->nmsgs; m++) {
        int use = s->msgs[m].origin == node;
        for (int x = 0; x < s->nxfers && !use; x++)
            use = s->xf[x].msg == m && (s->xf[x].src == node || s->xf[x].dst == node);
        if (use) slots[nslots++] = m;
    }
    int steps_off = PH_HEADER_WORDS, sends_off = steps_off + PLAN_STEP_WORDS * s->nsteps;
    int recvs_off = sends_off + PLAN_SEND_WORDS * nsend, slots_off = recvs_off + PLAN_RECV_WORDS * nrecv;
    int result_off = slots_off + PLAN_SLOT_WORDS * nslots, total = result_off + PLAN_RESULT_WORDS(s->nsteps);
    uint32_t *w = calloc((size_t)total, sizeof *w);
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
    w[PH_NSLOTS] = (uint32_t)nslots;
    w[PH_PORTBITS] = (uint32_t)topo_port_bits(t);
    w[PH_STEPS_OFF] = (uint32_t)steps_off;
    w[PH_SENDS_OFF] = (uint32_t)sends_off;
    w[PH_RECVS_OFF] = (uint32_t)recvs_off;
    w[PH_SLOTS_OFF] = (uint32_t)slots_off;
    w[PH_NSENDS] = (uint32_t)nsend;
    w[PH_NRECVS] = (uint32_t)nrecv;
    w[PH_RESULT_OFF] = (uint32_t)result_off;
    w[PH_WORDS] = (uint32_t)total;
    w[PH_FLAGS] = (uint32_t)(s->from[node] != 0);            /* bit 0: this node's data counts */
    for (int i = 0; i < s->nterms && i < 1024; i++)
        if (s->from[i]) w[PH_CONTRIB + i / 32] |= 1u << (i % 32);
    int pb = topo_port_bits(t), is = 0, ir = 0;
    for (int st = 0; st < s->nsteps; st++) {
        uint32_t *sw = &w[steps_off + PLAN_STEP_WORDS * st];
        sw[0] = (uint32_t)is;
        sw[2] = (uint32_t)ir;
        for (int x = 0; x < s->nxfers; x++) {
            const coll_xfer *f = &s->xf[x];
            if (f->step != st) continue;
            if (f->src == node) {
                uint32_t *e = &w[sends_off + PLAN_SEND_WORDS * is++];
                uint64_t route = 0;
                for (int h = 0; h < f->nports; h++) route |= (uint64_t)f->ports[h] << (pb * h);
                e[0] = (uint32_t)f->dst;
                e[1] = (uint32_t)f->msg;
                e[2] = (uint32_t)slot_of(slots, nslots, f->msg);
                e[3] = (uint32_t)f->chan;
                e[4] = (uint32_t)f->nports;
                e[5] = (uint32_t)route;
                e[6] = (uint32_t)(route >> 32);
            }
            if (f->dst == node) {
                uint32_t *e = &w[recvs_off + PLAN_RECV_WORDS * ir++];
                const coll_msg *g = &s->msgs[f->msg];
                int need = g->dest >= 0 ? node == g->dest : s->to[node] && node != g->origin;
                e[0] = (uint32_t)f->src;
                e[1] = (uint32_t)f->msg;
                e[2] = (uint32_t)slot_of(slots, nslots, f->msg);
                e[3] = (uint32_t)((s->op == OP_REDUCE || s->op == OP_BARRIER) ? 2 : need ? 1 : 0);
            }
        }
        sw[1] = (uint32_t)is - sw[0];
        sw[3] = (uint32_t)ir - sw[2];
    }
    for (int i = 0; i < nslots; i++) {
        uint32_t *e = &w[slots_off + PLAN_SLOT_WORDS * i];
        const coll_msg *g = &s->msgs[slots[i]];
        e[0] = (uint32_t)slots[i];
        e[1] = (uint32_t)g->origin;
        e[2] = (uint32_t)g->dest;
        e[3] = g->origin == node;
    }
    free(slots);
    *nwords = total;
    return w;
}
