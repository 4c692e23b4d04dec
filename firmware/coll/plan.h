/* plan.h - the layout of a node's collective plan in its RAM, written by
 * the harness (sim_harness/coll/coll_plan.[ch], which must agree). */
#ifndef FW_COLL_PLAN_H
#define FW_COLL_PLAN_H

#include <stdint.h>

#define PLAN_MAGIC 0x4E4C5058u
#define PLAN_VERSION 1

enum {
    PH_MAGIC, PH_VERSION, PH_NODE, PH_NTERMS, PH_OP, PH_BYTES, PH_NSTEPS, PH_SYNC,
    PH_SEED, PH_REDOP, PH_NSLOTS, PH_PORTBITS, PH_STEPS_OFF, PH_SENDS_OFF, PH_RECVS_OFF,
    PH_SLOTS_OFF, PH_NSENDS, PH_NRECVS, PH_RESULT_OFF, PH_WORDS, PH_FLAGS, PH_BUF_OFF,
    PH_CONTRIB = 24,            /* 32 words: bitmap of the terminals whose data is combined (reduce) */
    PH_HEADER_WORDS = 56
};
enum { OP_BARRIER, OP_BCAST, OP_SCATTER, OP_GATHER, OP_REDUCE, OP_ALLGATHER, OP_ALLTOALL, OP_MNB, OP_MNS };
enum { SYNC_GLOBAL = 0, SYNC_DATA = 1 };
enum { RED_SUM, RED_PROD, RED_MAX, RED_MIN, RED_AND, RED_OR, RED_XOR };

typedef struct { uint32_t first_send, nsend, first_recv, nrecv; } plan_step;
typedef struct { uint32_t dst, msg, slot, chan, nhops, route_lo, route_hi, reserved; } plan_send;
typedef struct { uint32_t src, msg, slot, flags; } plan_recv;      /* flags: 1 verify, 2 combine */
typedef struct { uint32_t msg, origin, dest, own; } plan_slot;

/* result area: status (1 = done ok, 2 = verification failed), failing msg,
 * byte offset, got/expected word, then per step its end cycle (lo, hi) */
enum { PR_STATUS, PR_MSG, PR_OFFSET, PR_GOT, PR_EXPECTED, PR_CYCLES_LO, PR_CYCLES_HI, PR_RSVD, PR_STEPS };

#endif
