/* coll.c - executes a collective plan step by step.
 *
 * Global mode: a barrier starts every step (the paper's synchronized
 * steps).  Data mode: a node starts its next step as soon as its own sends
 * of this step have left and its receives have arrived.  Messages that
 * arrive early (a neighbour already in a later step) are taken whenever
 * they come: each is matched to the plan's receive entry by (source, tag).
 */
#include "coll.h"

#include "pattern.h"
#include "plan.h"
#include "xnoc.h"

#define RING_BYTES (48 * 1024)
static uint8_t ring[RING_BYTES] __attribute__((aligned(8)));
extern char __heap_start[];

typedef struct {
    uint32_t *w;
    plan_step *steps;
    plan_send *sends;
    plan_recv *recvs;
    plan_slot *slots;
    uint32_t *result;
    uint8_t *bufs, *done;
    uint32_t bytes, stride, nrecvs, nslots, redop, seed;
    int me, own_slot, bad;
} run;

static uint8_t *slot_buf(run *r, uint32_t slot) { return r->bufs + slot * r->stride; }

static uint32_t identity(uint32_t op)
{
    switch (op) {
    case RED_PROD: return 1;
    case RED_MAX: return 0x80000000u;
    case RED_MIN: return 0x7fffffffu;
    case RED_AND: return 0xffffffffu;
    default: return 0;
    }
}

static uint32_t combine(uint32_t op, uint32_t a, uint32_t b)
{
    switch (op) {
    case RED_SUM: return a + b;
    case RED_PROD: return a * b;
    case RED_MAX: return (int32_t)a > (int32_t)b ? a : b;
    case RED_MIN: return (int32_t)a < (int32_t)b ? a : b;
    case RED_AND: return a & b;
    case RED_OR: return a | b;
    default: return a ^ b;
    }
}

static void mismatch(run *r, uint32_t msg, uint32_t off, uint32_t got, uint32_t want, uint32_t origin)
{
    if (!r->bad)
        printf("node %d: message %u (from %u) byte %u: got 0x%08x, expected 0x%08x\n", r->me, msg, origin, off, got, want);
    if (!r->bad) {
        r->result[PR_MSG] = msg;
        r->result[PR_OFFSET] = off;
        r->result[PR_GOT] = got;
        r->result[PR_EXPECTED] = want;
    }
    r->bad = 1;
}

/* word i of a message, for checking: the pattern, cut to the message length */
static void check(run *r, const plan_slot *sl, const uint8_t *data, uint32_t len)
{
    if (len != r->bytes) {
        mismatch(r, sl->msg, 0, len, r->bytes, sl->origin);
        return;
    }
    for (uint32_t i = 0; i < len; i += 4) {
        uint32_t want = coll_pattern(r->seed, (int)sl->origin, (int)sl->dest, i / 4), got = 0;
        uint32_t n = len - i < 4 ? len - i : 4;
        memcpy(&got, data + i, n);
        if (n < 4) want &= (1u << (8 * n)) - 1;
        if (got != want) {
            mismatch(r, sl->msg, i, got, want, sl->origin);
            return;
        }
    }
}

/* Matches a message to its receive entry, looking from the current step's
 * entries on (the likely place), so the search does not grow with steps. */
static void take(run *r, const noc_msg *m, uint32_t from)
{
    for (uint32_t j = 0; j < r->nrecvs; j++) {
        uint32_t i = (from + j) % r->nrecvs;
        plan_recv *e = &r->recvs[i];
        if (r->done[i] || e->src != m->src || (uint16_t)e->msg != m->tag) continue;
        r->done[i] = 1;
        if (e->flags & 2) {                          /* combine into our partial result */
            uint32_t *acc = (uint32_t *)slot_buf(r, (uint32_t)r->own_slot);
            for (uint32_t w = 0; w < m->len / 4; w++) {
                uint32_t v;
                memcpy(&v, m->data + 4 * w, 4);
                acc[w] = combine(r->redop, acc[w], v);
            }
        } else {
            memcpy(slot_buf(r, e->slot), m->data, m->len < r->bytes ? m->len : r->bytes);
            if (e->flags & 1) check(r, &r->slots[e->slot], m->data, m->len);
        }
        return;
    }
    printf("node %d: unexpected message tag %u from %u\n", r->me, m->tag, m->src);
    r->bad = 1;
}

static int step_pending(run *r, const plan_step *st)
{
    for (uint32_t i = st->first_recv; i < st->first_recv + st->nrecv; i++)
        if (!r->done[i]) return 1;
    return 0;
}

int coll_run(uint32_t *w)
{
    if (!w || w[PH_MAGIC] != PLAN_MAGIC || w[PH_VERSION] != PLAN_VERSION) return 2;
    run R = {0}, *r = &R;
    r->w = w;
    r->me = (int)w[PH_NODE];
    r->bytes = w[PH_BYTES];
    r->stride = (r->bytes + 7) & ~7u;
    r->seed = w[PH_SEED];
    r->redop = w[PH_REDOP];
    r->nrecvs = w[PH_NRECVS];
    r->nslots = w[PH_NSLOTS];
    r->steps = (plan_step *)(w + w[PH_STEPS_OFF]);
    r->sends = (plan_send *)(w + w[PH_SENDS_OFF]);
    r->recvs = (plan_recv *)(w + w[PH_RECVS_OFF]);
    r->slots = (plan_slot *)(w + w[PH_SLOTS_OFF]);
    r->result = w + w[PH_RESULT_OFF];
    r->bufs = (uint8_t *)(((uintptr_t)__heap_start + 7) & ~(uintptr_t)7);
    r->done = r->bufs + r->nslots * r->stride;
    if ((uintptr_t)(r->done + r->nrecvs) >= (uintptr_t)w) return 2;   /* buffers would overwrite the plan */
    memset(r->done, 0, r->nrecvs);
    int reduce = w[PH_OP] == OP_REDUCE;
    r->own_slot = -1;
    for (uint32_t i = 0; i < r->nslots; i++) {
        plan_slot *sl = &r->slots[i];
        if (!sl->own) continue;
        r->own_slot = (int)i;
        uint32_t *b = (uint32_t *)slot_buf(r, i);
        for (uint32_t k = 0; k < r->stride / 4; k++)
            b[k] = reduce && !(w[PH_FLAGS] & 1) ? identity(r->redop) : coll_pattern(r->seed, (int)sl->origin, (int)sl->dest, k);
    }
    noc_init(ring, sizeof ring);
    barrier();
    uint64_t t0 = cycles();
    r->result[PR_CYCLES_LO] = (uint32_t)t0;
    r->result[PR_CYCLES_HI] = (uint32_t)(t0 >> 32);
    uint32_t nsteps = w[PH_NSTEPS], k = (uint32_t)node_ports();
    for (uint32_t s = 0; s < nsteps; s++) {
        plan_step *st = &r->steps[s];
        if (w[PH_SYNC] == SYNC_GLOBAL && s > 0) barrier();
        report_step((int)s);
        for (uint32_t i = st->first_send; i < st->first_send + st->nsend; i++) {
            plan_send *e = &r->sends[i];
            uint64_t route = (uint64_t)e->route_hi << 32 | e->route_lo;
            noc_send_routed((int)e->chan, (int)e->dst, route, (int)e->nhops, slot_buf(r, e->slot), r->bytes,
                            (uint16_t)e->msg);
        }
        while (step_pending(r, st)) {
            noc_msg m;
            noc_recv(&m);
            take(r, &m, st->first_recv);
            noc_release(&m);
        }
        for (uint32_t c = 0; c < k; c++) noc_send_wait((int)c);
        uint64_t t = cycles();
        r->result[PR_STEPS + 2 * s] = (uint32_t)t;
        r->result[PR_STEPS + 2 * s + 1] = (uint32_t)(t >> 32);
    }
    report_step((int)nsteps);
    if (reduce && w[PH_NTERMS] && r->own_slot >= 0) {
        /* the root (the one node that sends nothing) checks the combination
         * of every contribution */
        int root = w[PH_NSENDS] == 0;
        if (root) {
            uint32_t *acc = (uint32_t *)slot_buf(r, (uint32_t)r->own_slot);
            for (uint32_t wd = 0; wd < r->bytes / 4; wd++) {
                uint32_t want = identity(r->redop);
                for (uint32_t o = 0; o < w[PH_NTERMS]; o++)
                    if (w[PH_CONTRIB + o / 32] >> (o % 32) & 1) want = combine(r->redop, want, coll_pattern(r->seed, (int)o, -1, wd));
                if (acc[wd] != want) {
                    mismatch(r, r->slots[r->own_slot].msg, 4 * wd, acc[wd], want, (uint32_t)r->me);
                    break;
                }
            }
        }
    }
    r->result[PR_STATUS] = r->bad ? 2 : 1;
    return r->bad;
}
