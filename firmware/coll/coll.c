/* coll.c - executes a collective plan step by step, moving data only by DMA.
 *
 * Before the timed region every receive of the plan is posted to the NI
 * (noc_post): the NI matches each arriving message by (source, tag) and
 * writes its payload straight into the slot buffer, so no core copies data
 * on the critical path.  Each receive counts into its step's completion
 * counter; a step waits for its counter in the NI (noc_ct_wait).  Sends go
 * from the slot buffers.  Verification happens after the run, off the
 * clock: the harness reads the buffers (sim_harness/coll/coll_plan.c, coll_plan_verify).
 *
 * Global mode: a barrier starts every step (the paper's synchronized
 * steps).  Data mode: a node starts its next step as soon as its own sends
 * of this step have left and its receives have arrived; messages of later
 * steps land in their posted buffers whenever they come.
 *
 * Reduce combines on the core: after a step's partials have landed they
 * are combined into this node's own slot; those cycles are counted apart
 * (PR_COMBINE).
 *
 * Plans with extended operations (PF_EXT: hierarchical network coding) run
 * in coll_run_ext, a loop of its own so that the plain loop's code, whose
 * cycles the step model and the tests count, stays as it is.
 *
 * Built with COLL_MCAST=1 (build/firmware/coll-mc.elf, xnoc collective
 * --distribute unit), coll_run_ext also sends PO_MCAST, one multicast through
 * the router's coding unit.  coll.elf is built without it: that branch and its
 * channel bookkeeping fold away, so coll.elf's code, and the cycles of every
 * plan it runs, are those of the interpreter without multicasts. */
#include "coll.h"

#include "pattern.h"
#include "plan.h"
#include "reduce.h" /* the operators' identities */
#include "xnoc.h"

#ifndef COLL_MCAST
#define COLL_MCAST 0
#endif

/* messages that match no posted receive land here (none should) */
#define RING_BYTES 4096
static uint8_t ring[RING_BYTES] __attribute__((aligned(8)));
extern char __heap_start[];

static uint8_t *slot_buf(uint32_t *w, uint32_t slot)
{
    return (uint8_t *)(uintptr_t)(w[PH_BUF_ADDR] + slot * w[PH_STRIDE]);
}

__attribute__((always_inline)) static inline void fill_own(uint32_t *w)
{
    const plan_slot *slots = (const plan_slot *)(w + w[PH_SLOTS_OFF]);
    int identity_only = w[PH_OP] == PLAN_OP_REDUCE && !(w[PH_FLAGS] & PF_CONTRIBUTES);
    for (uint32_t i = 0; i < w[PH_NSLOTS]; i++) {
        if (!slots[i].own) continue;
        uint32_t *b = (uint32_t *)slot_buf(w, i);
        for (uint32_t k = 0; k < w[PH_STRIDE] / 4; k++)
            b[k] = identity_only ? coll_identity_word((int)w[PH_REDOP], k)
                                 : coll_pattern(w[PH_SEED], (int)slots[i].origin, (int)slots[i].dest, k);
    }
}

static int own_slot(const uint32_t *w)
{
    const plan_slot *slots = (const plan_slot *)(w + w[PH_SLOTS_OFF]);
    for (uint32_t i = 0; i < w[PH_NSLOTS]; i++)
        if (slots[i].own) return (int)i;
    return -1;
}

/* acc[k] = acc[k] op in[k] (op: NC_FUNC_*): one loop per 32-bit operator, so
 * that the operator is a constant there and the loop body is a load, a load,
 * the operation and a store; the 64-bit lanes (sum64, prod64) in pairs of
 * words */
#define COMBINE_LOOP(E)                                                                                                \
    _Pragma("clang loop unroll_count(4)") for (uint32_t k = 0; k < n; k++)                                             \
    {                                                                                                                  \
        uint32_t a = acc[k], b = in[k];                                                                                \
        acc[k] = (E);                                                                                                  \
    }                                                                                                                  \
    break
#define PAIR_LOOP(E)                                                                                                   \
    for (uint32_t k = 0; k + 1 < n; k += 2) {                                                                          \
        uint64_t a = (uint64_t)acc[k + 1] << 32 | acc[k], b = (uint64_t)in[k + 1] << 32 | in[k], r = (E);              \
        acc[k] = (uint32_t)r;                                                                                          \
        acc[k + 1] = (uint32_t)(r >> 32);                                                                              \
    }                                                                                                                  \
    break
static void combine_words(uint32_t op, uint32_t *acc, const uint32_t *in, uint32_t n)
{
    switch (op) {
    case NC_FUNC_ADD32: COMBINE_LOOP(a + b);
    case NC_FUNC_MUL32: COMBINE_LOOP(a * b);
    case NC_FUNC_MAX32S: COMBINE_LOOP((int32_t)a > (int32_t)b ? a : b);
    case NC_FUNC_MIN32S: COMBINE_LOOP((int32_t)a < (int32_t)b ? a : b);
    case NC_FUNC_MAX32U: COMBINE_LOOP(a > b ? a : b);
    case NC_FUNC_MIN32U: COMBINE_LOOP(a < b ? a : b);
    case NC_FUNC_AND: COMBINE_LOOP(a & b);
    case NC_FUNC_OR: COMBINE_LOOP(a | b);
    case NC_FUNC_ADD64: PAIR_LOOP(a + b);
    case NC_FUNC_MUL64: PAIR_LOOP(a * b);
    default: COMBINE_LOOP(a ^ b); /* NC_FUNC_XOR */
    }
}

/* step st's partials (PRF_COMBINE receives) into the own slot */
static void combine_step(uint32_t *w, const plan_step *st, int own)
{
    const plan_recv *recvs = (const plan_recv *)(w + w[PH_RECVS_OFF]);
    uint32_t words = w[PH_BYTES] / 4, op = w[PH_REDOP];
    if (own < 0 || !words) return;
    uint32_t *acc = (uint32_t *)slot_buf(w, (uint32_t)own);
    for (uint32_t i = st->first_recv; i < st->first_recv + st->nrecv; i++) {
        if (!(recvs[i].flags & PRF_COMBINE)) continue;
        combine_words(op, acc, (const uint32_t *)slot_buf(w, recvs[i].slot), words);
    }
}

static void stamp(uint32_t *res, int word)
{
    uint64_t t = cycles();
    res[word] = (uint32_t)t;
    res[word + 1] = (uint32_t)(t >> 32);
}

int coll_run(uint32_t *w)
{
    if (!w || w[PH_MAGIC] != PLAN_MAGIC || w[PH_VERSION] != PLAN_VERSION) return 2;
    uint32_t *res = w + w[PH_RESULT_OFF];
    if ((uintptr_t)__heap_start > (uintptr_t)w) { /* the image would overlap the plan */
        res[PR_GOT] = (uint32_t)(uintptr_t)__heap_start;
        res[PR_STATUS] = PS_OVERLAP;
        return 2;
    }
    const plan_step *steps = (const plan_step *)(w + w[PH_STEPS_OFF]);
    const plan_send *sends = (const plan_send *)(w + w[PH_SENDS_OFF]);
    const plan_recv *recvs = (const plan_recv *)(w + w[PH_RECVS_OFF]);
    volatile uint32_t *ct = w + w[PH_CT_OFF];
    uint32_t nsteps = w[PH_NSTEPS], bytes = w[PH_BYTES], k = (uint32_t)node_ports();
    int combining = w[PH_OP] == PLAN_OP_REDUCE, own = own_slot(w);

    /* untimed: data, the ring for strays, every receive posted */
    fill_own(w);
    noc_init(ring, sizeof ring);
    noc_guard(w, w + w[PH_WORDS]); /* no receive may land on the plan */
    for (uint32_t s = 0; s < nsteps; s++) {
        ct[s] = 0;
        for (uint32_t i = steps[s].first_recv; i < steps[s].first_recv + steps[s].nrecv; i++)
            noc_post((int)recvs[i].src, (uint16_t)recvs[i].msg, slot_buf(w, recvs[i].slot), bytes, &ct[s]);
    }
    barrier();
    stamp(res, PR_CYCLES_LO);
    uint32_t combine_cycles = 0;
    for (uint32_t s = 0; s < nsteps; s++) {
        const plan_step *st = &steps[s];
        if (w[PH_SYNC] == SYNC_GLOBAL && s > 0) barrier();
        report_step((int)s);
        uint32_t base = w[PH_BUF_ADDR], stride = w[PH_STRIDE];
        for (const plan_send *e = &sends[st->first_send], *end = e + st->nsend; e < end; e++)
            noc_send_inline((int)e->chan, (int)e->dst, e->route_lo, e->route_hi, (int)e->nhops,
                            (const void *)(uintptr_t)(base + e->slot * stride), bytes, (uint16_t)e->msg);
        noc_ct_wait(&ct[s], st->nrecv);
        if (combining) {
            uint32_t c0 = (uint32_t)cycles();
            combine_step(w, st, own);
            combine_cycles += (uint32_t)cycles() - c0;
        }
        for (uint32_t c = 0; c < k; c++) noc_send_wait((int)c);
        stamp(res, PR_STEPS + 2 * (int)s);
    }
    report_step((int)nsteps);
    res[PR_COMBINE] = combine_cycles;
    noc_msg m;
    if (noc_poll(&m)) { /* a message no receive of the plan was posted for */
        res[PR_GOT] = m.src;
        res[PR_EXPECTED] = m.tag;
        res[PR_STATUS] = PS_UNEXPECTED;
        return 1;
    }
    res[PR_STATUS] = PS_DONE;
    return 0;
}

/* d = a ^ b, n bytes (a multiple of 4, word-aligned: slot buffers are) */
static void xor_words(uint8_t *d, const uint8_t *a, const uint8_t *b, uint32_t n)
{
    uint32_t *dw = (uint32_t *)d;
    const uint32_t *aw = (const uint32_t *)a, *bw = (const uint32_t *)b;
    _Pragma("clang loop unroll_count(4)") for (uint32_t k = 0; k < n / 4; k++) dw[k] = aw[k] ^ bw[k];
    for (uint32_t k = n & ~3u; k < n; k++) d[k] = a[k] ^ b[k];
}

/* after the last step: nothing may be left in the ring */
static int finish(uint32_t *res, uint32_t nsteps, uint32_t combine_cycles)
{
    report_step((int)nsteps);
    res[PR_COMBINE] = combine_cycles;
    noc_msg m;
    if (noc_poll(&m)) { /* a message no receive of the plan was posted for */
        res[PR_GOT] = m.src;
        res[PR_EXPECTED] = m.tag;
        res[PR_STATUS] = PS_UNEXPECTED;
        return 1;
    }
    res[PR_STATUS] = PS_DONE;
    return 0;
}

/* Plans with extended operations (PF_EXT, plan.h): the same steps, plus
 * sends of any length, contributions to a coding unit, and XORs after the
 * step's receives (counted apart, like combining): on the core, or, when
 * the plan carries them as decode descriptors (PH_DEC_OFF), by the NI's
 * decode engine while the core waits. */
__attribute__((always_inline)) static inline int run_ext(uint32_t *w, const int ni_decode)
{
    if (!w || w[PH_MAGIC] != PLAN_MAGIC || w[PH_VERSION] != PLAN_VERSION || !(w[PH_FLAGS] & PF_EXT)) return 2;
    uint32_t *res = w + w[PH_RESULT_OFF];
    if ((uintptr_t)__heap_start > (uintptr_t)w) {
        res[PR_GOT] = (uint32_t)(uintptr_t)__heap_start;
        res[PR_STATUS] = PS_OVERLAP;
        return 2;
    }
    const plan_step *steps = (const plan_step *)(w + w[PH_STEPS_OFF]);
    const plan_send *sends = (const plan_send *)(w + w[PH_SENDS_OFF]);
    const plan_xstep *xs = (const plan_xstep *)(w + w[PH_XSTEPS_OFF]);
    const plan_op *ops = (const plan_op *)(w + w[PH_OPS_OFF]);
    volatile uint32_t *ct = w + w[PH_CT_OFF];
    uint32_t nsteps = w[PH_NSTEPS], bytes = w[PH_BYTES], k = (uint32_t)node_ports();
    uint8_t *base = (uint8_t *)(uintptr_t)w[PH_BUF_ADDR];
    const plan_recv *recvs = (const plan_recv *)(w + w[PH_RECVS_OFF]);
    /* --decode ni: the step's XOR count, then the descriptors (plan.h) */
    const uint32_t *dec = w + w[PH_DEC_OFF], *desc = dec + nsteps;
    fill_own(w);
    noc_init(ring, sizeof ring);
    noc_guard(w, w + w[PH_WORDS]);
    for (uint32_t s = 0; s < nsteps; s++) {
        ct[s] = 0;
        for (uint32_t i = steps[s].first_recv; i < steps[s].first_recv + steps[s].nrecv; i++)
            noc_post((int)recvs[i].src, (uint16_t)recvs[i].msg, base + recvs[i].slot * w[PH_STRIDE], bytes, &ct[s]);
    }
    for (uint32_t i = 0; i < w[PH_NOPS]; i++)
        if (ops[i].kind == PO_RECV) {
            uint32_t s = 0; /* the step whose range holds op i */
            while (s + 1 < nsteps && i >= xs[s + 1].first_op) s++;
            noc_post((int)ops[i].peer, (uint16_t)ops[i].tag, base + ops[i].off, ops[i].len, &ct[s]);
        }
    barrier();
    stamp(res, PR_CYCLES_LO);
    uint32_t xor_cycles = 0;
    for (uint32_t s = 0; s < nsteps; s++) {
        const plan_step *st = &steps[s];
        if (w[PH_SYNC] == SYNC_GLOBAL && s > 0) barrier();
        report_step((int)s);
        for (const plan_send *e = &sends[st->first_send], *end = e + st->nsend; e < end; e++)
            noc_send_inline((int)e->chan, (int)e->dst, e->route_lo, e->route_hi, (int)e->nhops,
                            base + e->slot * w[PH_STRIDE], bytes, (uint16_t)e->msg);
        /* channels whose coding fields are set; of them, for a multicast (always none without COLL_MCAST) */
        uint32_t coding = 0, mcast = 0;
        /* decode ni: the step's XORs, its last dec[s] ops (plan.h), are the NI's */
        uint32_t nop = xs[s].nop - (ni_decode ? dec[s] : 0);
        for (const plan_op *o = &ops[xs[s].first_op], *end = o + nop; o < end; o++) {
            if (o->kind == PO_SEND) {
                if (coding >> o->chan & 1) {
                    noc_set_code((int)o->chan, NULL);
                    coding &= ~(1u << o->chan);
                }
                noc_send_inline((int)o->chan, (int)o->peer, 0, 0, 0, base + o->off, o->len, (uint16_t)o->tag);
            } else if (COLL_MCAST && o->kind == PO_MCAST) { /* its own mask: the coding fields are set for it */
                noc_multicast((int)o->chan, (int)o->peer, (const uint64_t *)(uintptr_t)o->a, base + o->off, o->len,
                              (uint16_t)o->tag);
                coding |= 1u << o->chan;
                mcast |= 1u << o->chan;
            } else if (o->kind == PO_ENCODE) {
                if (!(coding >> o->chan & 1) || (mcast >> o->chan & 1)) {
                    mcast &= ~(1u << o->chan);
                    noc_code c = {.op = NC_ENCODE, .count = (int)o->a, .out_dest = (int)o->b};
                    noc_set_code((int)o->chan, &c);
                    coding |= 1u << o->chan;
                }
                noc_send_inline((int)o->chan, (int)o->peer, 0, 0, 0, base + o->off, o->len, (uint16_t)o->tag);
            }
        }
        noc_ct_wait(&ct[s], st->nrecv + xs[s].nrecv);
        uint32_t c0 = (uint32_t)cycles();
        if (ni_decode) { /* the NI's decode engine runs the step's XORs; the core only waits */
            if (dec[s]) {
                noc_decode(desc, dec[s]);
                desc += NI_DEC_DESC_WORDS * dec[s];
                noc_decode_wait();
            }
        } else {
            for (const plan_op *o = &ops[xs[s].first_op], *end = o + xs[s].nop; o < end; o++)
                if (o->kind == PO_XOR) xor_words(base + o->off, base + o->a, base + o->b, o->len);
        }
        xor_cycles += (uint32_t)cycles() - c0;
        for (uint32_t c = 0; c < k; c++) {
            if (coding >> c & 1) noc_set_code((int)c, NULL); /* waits for the channel, too */
            noc_send_wait((int)c);
        }
        stamp(res, PR_STEPS + 2 * (int)s);
    }
    return finish(res, nsteps, xor_cycles);
}

/* one copy of the loop per decode mode, each with only its own code, so
 * that the core decode's cycles stay those of the loop without the NI's */
int coll_run_ext(uint32_t *w)
{
    if (w && w[PH_MAGIC] == PLAN_MAGIC && w[PH_DEC_OFF]) return run_ext(w, 1);
    return run_ext(w, 0);
}
