/* reduce.c - reduce-scatter and allreduce in software on the cores (reduce.h).
 *
 * Every receive of the whole run is posted before a barrier and before the
 * first send, each into a buffer of its own: a message may arrive as soon as
 * its sender gets there, whatever this terminal is doing.  Receives that
 * carry partials to combine land in the work area; receives that carry
 * finished blocks (the allgathers, the bcast) land straight in buf, in a
 * region this terminal no longer reads: its own part of that block left in
 * an earlier message, which had to arrive whole before the finished block
 * could exist.  One counter per step, so no step relies on the order in
 * which two messages arrive.  Sends go on NI channel 0 straight from buf;
 * a region that was sent is never written again before the allgather
 * replaces it. */
#include "reduce.h"

#include "innet.h"
#include "xnoc.h"

#define TAG_RS 0x1000u /* + step: the reduce-scatter's partials (and the binomial reduce's) */
#define TAG_AG 0x2000u /* + step: the allgather's finished blocks (and the bcast's) */

static uint32_t combine_cycles, combine_words;

uint32_t coll_reduce_combine_cycles(void) { return combine_cycles; }
uint32_t coll_reduce_combine_words(void) { return combine_words; }

/* One loop per operator, unrolled by eight with the loads first and one end
 * pointer: per word a load, a load, the operation and a store, plus three
 * instructions per eight words (two pointer bumps and the branch): about 4.4
 * cycles per word on the one-instruction-per-cycle core (docs/collectives.md
 * "Software reductions" has the measured figures). */
#define C1(i, E)                                                                                                       \
    {                                                                                                                  \
        uint32_t a = a##i, b = b##i;                                                                                   \
        acc[i] = (E);                                                                                                  \
    }
#define LANE8(E)                                                                                                       \
    for (const uint32_t *end8 = in + (n & ~7u); in != end8; acc += 8, in += 8) {                                       \
        uint32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3], a4 = acc[4], a5 = acc[5], a6 = acc[6],            \
                 a7 = acc[7];                                                                                          \
        uint32_t b0 = in[0], b1 = in[1], b2 = in[2], b3 = in[3], b4 = in[4], b5 = in[5], b6 = in[6], b7 = in[7];       \
        C1(0, E) C1(1, E) C1(2, E) C1(3, E) C1(4, E) C1(5, E) C1(6, E) C1(7, E)                                        \
    }                                                                                                                  \
    for (uint32_t r = n & 7u; r; r--, acc++, in++) {                                                                   \
        uint32_t a = acc[0], b = in[0];                                                                                \
        acc[0] = (E);                                                                                                  \
    }                                                                                                                  \
    break
/* 64-bit lanes: little-endian pairs of words, two pairs per turn */
#define PAIR2(EXPR)                                                                                                    \
    for (; n >= 2; n -= 2, acc += 2, in += 2) {                                                                        \
        uint64_t a = (uint64_t)acc[1] << 32 | acc[0], b = (uint64_t)in[1] << 32 | in[0], r = (EXPR);                   \
        acc[0] = (uint32_t)r;                                                                                          \
        acc[1] = (uint32_t)(r >> 32);                                                                                  \
    }                                                                                                                  \
    break

void coll_combine_words(int op, uint32_t *restrict acc, const uint32_t *restrict in, uint32_t n)
{
    uint32_t t0 = (uint32_t)cycles();
    combine_words += n;
    switch (op) {
    case NC_FUNC_XOR: LANE8(a ^ b);
    case NC_FUNC_AND: LANE8(a & b);
    case NC_FUNC_OR: LANE8(a | b);
    case NC_FUNC_ADD32: LANE8(a + b);
    case NC_FUNC_MIN32S: LANE8((int32_t)a < (int32_t)b ? a : b);
    case NC_FUNC_MAX32S: LANE8((int32_t)a > (int32_t)b ? a : b);
    case NC_FUNC_MIN32U: LANE8(a < b ? a : b);
    case NC_FUNC_MAX32U: LANE8(a > b ? a : b);
    case NC_FUNC_MUL32: LANE8(a * b);
    case NC_FUNC_ADD64: PAIR2(a + b);
    default: PAIR2(a * b); /* NC_FUNC_MUL64 */
    }
    combine_cycles += (uint32_t)cycles() - t0;
}

static int log2_of(int P)
{
    int k = 0;
    while ((1 << k) < P) k++;
    return k;
}

/* the pieces of a run: this terminal, the buffer's geometry, the work area */
typedef struct {
    uint8_t *buf, *rbuf; /* the data; the next free receive buffer in the work area */
    volatile uint32_t *ct;
    uint32_t len, lane;
    int op, me, P;
} run;

static uint32_t boff(const run *r, int b) { return coll_block_off(r->len, r->lane, (uint32_t)r->P, (uint32_t)b); }
/* bytes of blocks [lo, hi) */
static uint32_t bspan(const run *r, int lo, int hi) { return boff(r, hi) - boff(r, lo); }

static void send_blocks(const run *r, int dst, int lo, int hi, uint32_t tag)
{
    uint32_t n = bspan(r, lo, hi);
    if (n) noc_send(0, dst, r->buf + boff(r, lo), n, (uint16_t)tag);
}

/* posts a receive of blocks [lo, hi) from src into dst (NULL: a buffer of the work area) with
 * counter c; returns where it lands */
static uint8_t *post_blocks(run *r, int src, int lo, int hi, uint32_t tag, uint8_t *dst, int c)
{
    uint32_t n = bspan(r, lo, hi);
    r->ct[c] = 0;
    if (!dst) {
        dst = r->rbuf;
        r->rbuf += (n + 7) & ~7u;
    }
    if (n) noc_post(src, (uint16_t)tag, dst, n, &r->ct[c]);
    return dst;
}

static void wait_blocks(const run *r, int lo, int hi, int c)
{
    if (bspan(r, lo, hi)) noc_ct_wait(&r->ct[c], 1);
}

static void combine_blocks(const run *r, int lo, int hi, const uint8_t *in)
{
    coll_combine_words(r->op, (uint32_t *)(r->buf + boff(r, lo)), (const uint32_t *)in, bspan(r, lo, hi) / 4);
}

/* ---- recursive halving: log2 P steps, the window of blocks halves each step ----
 * step s: partner me ^ d (d = P/2, P/4, ... when far, 1, 2, ... when not); the terminal whose
 * d bit is 0 keeps the window's lower half and sends the upper, its partner the reverse.
 * far: terminal i ends with block i; near: with the block of i's bits reversed. */
#define MAX_LOG 12
typedef struct {
    int lo[MAX_LOG + 1], cnt[MAX_LOG + 1]; /* the window before step s (and after the last) */
    int k;
} halving;

static int h_dist(const run *r, int s, int far) { return far ? r->P >> (s + 1) : 1 << s; }

static void halving_plan(const run *r, int far, halving *h)
{
    h->k = log2_of(r->P);
    h->lo[0] = 0, h->cnt[0] = r->P;
    for (int s = 0; s < h->k; s++) {
        int half = h->cnt[s] / 2, up = (r->me & h_dist(r, s, far)) != 0;
        h->lo[s + 1] = h->lo[s] + (up ? half : 0);
        h->cnt[s + 1] = half;
    }
}

/* the other half of step s's window: what is sent at step s (and comes back in the allgather) */
static int h_other(const halving *h, int s) { return h->lo[s + 1] == h->lo[s] ? h->lo[s] + h->cnt[s + 1] : h->lo[s]; }

/* Step s combines the kept half; the part of it that step s + 1 sends away is combined
 * first and sent at once, so the rest's combining overlaps that send's transfer. */
static void halving_rs(run *r, const halving *h, int far, uint8_t **in)
{
    int o = h_other(h, 0);
    send_blocks(r, r->me ^ h_dist(r, 0, far), o, o + h->cnt[1], TAG_RS);
    for (int s = 0; s < h->k; s++) {
        int lo = h->lo[s + 1], hi = lo + h->cnt[s + 1];
        const uint8_t *part = in[s] - boff(r, lo); /* block b of the message: part + boff(b) */
        wait_blocks(r, lo, hi, s);
        if (s + 1 == h->k) {
            combine_blocks(r, lo, hi, part + boff(r, lo));
            break;
        }
        int o2 = h_other(h, s + 1), c2 = h->cnt[s + 2], k2 = h->lo[s + 2];
        combine_blocks(r, o2, o2 + c2, part + boff(r, o2));
        send_blocks(r, r->me ^ h_dist(r, s + 1, far), o2, o2 + c2, TAG_RS + (uint32_t)s + 1);
        combine_blocks(r, k2, k2 + c2, part + boff(r, k2));
    }
}

/* ---- the ring: P - 1 steps to terminal me + 1, from me - 1 ----
 * reduce-scatter step s: send block me - s - 1 (at s > 0 the one combined at step s - 1),
 * combine block me - s - 2 from the left; terminal i ends with block i.
 * allgather step s: send block me - s (me's own first), receive block me - s - 1 into buf. */
static int mod(int a, int P) { return ((a % P) + P) % P; }

static void ring_rs(run *r, uint8_t **in)
{
    int P = r->P, right = mod(r->me + 1, P);
    int b = mod(r->me - 1, P);
    send_blocks(r, right, b, b + 1, TAG_RS);
    for (int s = 0; s < P - 1; s++) {
        b = mod(r->me - s - 2, P);
        wait_blocks(r, b, b + 1, s);
        combine_blocks(r, b, b + 1, in[s]);
        if (s < P - 2) send_blocks(r, right, b, b + 1, TAG_RS + (uint32_t)s + 1);
    }
}

static void ring_ag(run *r, int c0)
{
    int P = r->P, right = mod(r->me + 1, P);
    send_blocks(r, right, r->me, r->me + 1, TAG_AG);
    for (int s = 0; s < P - 1; s++) {
        int b = mod(r->me - s - 1, P);
        wait_blocks(r, b, b + 1, c0 + s);
        if (s < P - 2) send_blocks(r, right, b, b + 1, TAG_AG + (uint32_t)s + 1);
    }
}

/* ---- binomial reduce to terminal 0, then bcast from it ----
 * reduce step s (d = 2^s): a terminal with bit s set sends its partial to me - d and is done;
 * one without takes me + d's (if there is one) and combines it.  bcast: the reverse, the
 * farthest child first. */
static int lowbit(int me, int P) { return me ? me & -me : 1 << log2_of(P); }

static void reduce_bcast(run *r, uint8_t **in, int k)
{
    int me = r->me, P = r->P, top = lowbit(me, P);
    for (int s = 0; s < k && (1 << s) < top; s++) {
        int d = 1 << s;
        if (me + d >= P) continue;
        wait_blocks(r, 0, P, s);
        combine_blocks(r, 0, P, in[s]);
    }
    if (me) {
        int s = log2_of(top);
        send_blocks(r, me - top, 0, P, TAG_RS + (uint32_t)s);
        wait_blocks(r, 0, P, k); /* the result from the same parent */
    }
    for (int s = log2_of(top) - 1; s >= 0; s--)
        if (me + (1 << s) < P) send_blocks(r, me + (1 << s), 0, P, TAG_AG + (uint32_t)s);
}

static int setup(run *r, void *buf, uint32_t len, int op, void *work)
{
    r->op = op, r->me = node_id(), r->P = node_count(), r->len = len, r->buf = buf;
    if (op < 0 || op >= NC_FUNC_ALL) return -1;
    r->lane = coll_lane_bytes(op);
    if (!len || len % r->lane || r->P < 1 || r->P > (1 << MAX_LOG)) return -1;
    r->ct = work;
    r->rbuf = (uint8_t *)work + ((4 * 2 * ((uint32_t)r->P + 1) + 7) & ~7u);
    combine_cycles = combine_words = 0;
    return 0;
}

/* posts the reduce-scatter's receives: into in[s] (the work area) */
static void post_rs(run *r, int algo, const halving *h, int far, uint8_t **in)
{
    if (algo == COLL_RS_HALVING)
        for (int s = 0; s < h->k; s++)
            in[s] = post_blocks(r, r->me ^ h_dist(r, s, far), h->lo[s + 1], h->lo[s + 1] + h->cnt[s + 1],
                                TAG_RS + (uint32_t)s, 0, s);
    else
        for (int s = 0; s < r->P - 1; s++) {
            int b = mod(r->me - s - 2, r->P);
            in[s] = post_blocks(r, mod(r->me - 1, r->P), b, b + 1, TAG_RS + (uint32_t)s, 0, s);
        }
}

static uint8_t *in_bufs[1 << MAX_LOG];

int coll_reduce_scatter(void *buf, uint32_t len, int op, int algo, void *work)
{
    run r;
    halving h; /* not zeroed: a memset is a byte loop on this core (~500 cycles) */
    h.k = 0;
    if (setup(&r, buf, len, op, work) || algo < 0 || algo >= COLL_RS_NUM) return -1;
    if (algo == COLL_RS_HALVING && (r.P & (r.P - 1))) return -1;
    if (algo == COLL_RS_HALVING) halving_plan(&r, 1, &h);
    post_rs(&r, algo, &h, 1, in_bufs);
    barrier();
    if (algo == COLL_RS_HALVING) halving_rs(&r, &h, 1, in_bufs);
    else ring_rs(&r, in_bufs);
    noc_send_wait(0);
    return 0;
}

int coll_allreduce(void *buf, uint32_t len, int op, int algo, void *work)
{
    if (algo == COLL_AR_INNET) return coll_innet(buf, len, op, -1, 1);
    run r;
    halving h; /* not zeroed: a memset is a byte loop on this core (~500 cycles) */
    h.k = 0;
    if (setup(&r, buf, len, op, work) || algo < 0 || algo >= COLL_AR_NUM) return -1;
    int P = r.P, k = log2_of(P);
    if (algo == COLL_AR_RABENSEIFNER) {
        if (P & (P - 1)) return -1;
        halving_plan(&r, 0, &h);
        post_rs(&r, COLL_RS_HALVING, &h, 0, in_bufs);
        for (int s = 0; s < k; s++) { /* the allgather: step s's other half comes back */
            int o = h_other(&h, s);
            post_blocks(&r, r.me ^ h_dist(&r, s, 0), o, o + h.cnt[s + 1], TAG_AG + (uint32_t)s, r.buf + boff(&r, o),
                        k + s);
        }
        barrier();
        halving_rs(&r, &h, 0, in_bufs);
        for (int s = k - 1; s >= 0; s--) { /* send the window held after step s, get the other half */
            int o = h_other(&h, s), lo = h.lo[s + 1];
            send_blocks(&r, r.me ^ h_dist(&r, s, 0), lo, lo + h.cnt[s + 1], TAG_AG + (uint32_t)s);
            wait_blocks(&r, o, o + h.cnt[s + 1], k + s);
        }
    } else if (algo == COLL_AR_RING) {
        post_rs(&r, COLL_RS_RING, &h, 0, in_bufs);
        for (int s = 0; s < P - 1; s++) {
            int b = mod(r.me - s - 1, P);
            post_blocks(&r, mod(r.me - 1, P), b, b + 1, TAG_AG + (uint32_t)s, r.buf + boff(&r, b), P - 1 + s);
        }
        barrier();
        ring_rs(&r, in_bufs);
        ring_ag(&r, P - 1);
    } else {
        int top = lowbit(r.me, P);
        for (int s = 0; s < k && (1 << s) < top; s++)
            in_bufs[s] = r.me + (1 << s) < P ? post_blocks(&r, r.me + (1 << s), 0, P, TAG_RS + (uint32_t)s, 0, s) : 0;
        if (r.me) post_blocks(&r, r.me - top, 0, P, TAG_AG + (uint32_t)log2_of(top), r.buf, k);
        barrier();
        reduce_bcast(&r, in_bufs, k);
    }
    noc_send_wait(0);
    return 0;
}
