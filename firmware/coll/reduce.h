/* reduce.h - reductions in software on the cores (firmware/coll/reduce.c;
 * docs/collectives.md "Software reductions"): reduce-scatter by recursive
 * halving or a ring, and allreduce by Rabenseifner's reduce-scatter +
 * allgather, a ring, or a binomial reduce + bcast; the combining loops they
 * share with the scan.  Operators are the units' (NC_FUNC_*,
 * firmware/lib/flit.h): every algorithm, in the network or on the cores,
 * speaks the one vocabulary.  The header is also the harness's (the block
 * layout, the identities, the work area), so both sides agree. */
#ifndef XNOC_REDUCE_H
#define XNOC_REDUCE_H

#include <stdint.h>

#include "../lib/flit.h"

/* coll_reduce_scatter's algorithms */
enum { COLL_RS_HALVING, COLL_RS_RING, COLL_RS_NUM };
/* coll_allreduce's algorithms (COLL_AR_INNET: the routers' units, innet.h) */
enum { COLL_AR_RABENSEIFNER, COLL_AR_RING, COLL_AR_REDUCE_BCAST, COLL_AR_INNET, COLL_AR_NUM };

/* bytes of one lane of op: 8 for the 64-bit operators, else 4 */
static inline uint32_t coll_lane_bytes(int op) { return op == NC_FUNC_ADD64 || op == NC_FUNC_MUL64 ? 8 : 4; }

/* word k (little-endian) of op's identity element, repeated over a buffer */
static inline uint32_t coll_identity_word(int op, uint32_t k)
{
    switch (op) {
    case NC_FUNC_AND:
    case NC_FUNC_MIN32U: return 0xFFFFFFFFu;
    case NC_FUNC_MIN32S: return 0x7FFFFFFFu;
    case NC_FUNC_MAX32S: return 0x80000000u;
    case NC_FUNC_MUL32: return 1;
    case NC_FUNC_MUL64: return k % 2 ? 0 : 1;
    default: return 0; /* XOR, OR, ADD32, ADD64, MAX32U */
    }
}

/* Block b of P of a len-byte buffer: whole lanes, the first blocks one lane
 * shorter when P does not divide them (a block may be empty).  Terminal i
 * ends a reduce-scatter with block i. */
static inline uint32_t coll_block_off(uint32_t len, uint32_t lane, uint32_t P, uint32_t b)
{
    return b * (len / lane) / P * lane;
}
static inline uint32_t coll_block_len(uint32_t len, uint32_t lane, uint32_t P, uint32_t b)
{
    return coll_block_off(len, lane, P, b + 1) - coll_block_off(len, lane, P, b);
}

/* Bytes of work area (8-aligned) the algorithms need on P terminals for a
 * len-byte buffer: the step counters, then a receive buffer per combining
 * step (posted before the first send, so a message of a later step may land
 * while this terminal still combines an earlier one).
 * kind 0: coll_reduce_scatter, 1: coll_allreduce. */
static inline uint32_t coll_reduce_work(uint32_t len, uint32_t P, int kind, int algo)
{
    uint32_t steps = 0, ct = 4 * 2 * (P + 1);
    while ((1u << steps) < P) steps++;
    if (kind == 1 && algo == COLL_AR_REDUCE_BCAST) return ct + steps * ((len + 7) & ~7u);
    /* halving: len/2 + len/4 + ... ; ring: P - 1 blocks of at most len / P + a lane */
    return ct + 2 * len + 8 * (P + 8);
}

/* buf[0..len) of every terminal combined by op; terminal i gets block i
 * (coll_block_off) in place, the rest of its buf is left as scratch.
 * COLL_RS_HALVING needs P a power of two (log2 P steps, the partner at
 * distance P/2 first); COLL_RS_RING any P (P - 1 steps to the next terminal).
 * work: coll_reduce_work bytes, 8-aligned.  len: a multiple of the lane
 * (coll_lane_bytes).  NI channel 0; every terminal takes part (it contains a
 * barrier).  Returns 0, or -1 for a bad op, algorithm or length, or P not a
 * power of two for halving (nothing sent). */
int coll_reduce_scatter(void *buf, uint32_t len, int op, int algo, void *work);
/* buf[0..len) of every terminal combined by op into every terminal's buf.
 * COLL_AR_RABENSEIFNER: recursive-halving reduce-scatter (nearest partner
 * first) + recursive-doubling allgather, P a power of two; COLL_AR_RING:
 * ring reduce-scatter + ring allgather, 2 (P - 1) steps; COLL_AR_REDUCE_BCAST:
 * a binomial reduce to terminal 0, then a binomial bcast from it;
 * COLL_AR_INNET: coll_innet (innet.h; work unused).  As coll_reduce_scatter
 * otherwise. */
int coll_allreduce(void *buf, uint32_t len, int op, int algo, void *work);

/* acc[0..n) = acc op in over n 32-bit words (n even for 64-bit lanes):
 * unrolled by eight, one loop per operator */
void coll_combine_words(int op, uint32_t *acc, const uint32_t *in, uint32_t n);
/* cycles spent in coll_combine_words by the last reduction, and its words */
uint32_t coll_reduce_combine_cycles(void);
uint32_t coll_reduce_combine_words(void);

#endif
