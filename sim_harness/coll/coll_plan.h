/* coll_plan.h - one node's share of a collective schedule, as the words the
 * firmware collective library executes (layout in docs/collectives.md and
 * firmware/coll/plan.h, which must agree with this file).
 */
#ifndef XNOC_COLL_PLAN_H
#define XNOC_COLL_PLAN_H

#include <stdint.h>
#include "coll/coll.h"
#include "topo.h"

#define PLAN_MAGIC 0x4E4C5058u   /* "XPLN" */
#define PLAN_VERSION 1

enum { SYNC_GLOBAL = 0, SYNC_DATA = 1 };
enum { RED_SUM, RED_PROD, RED_MAX, RED_MIN, RED_AND, RED_OR, RED_XOR, RED_COUNT };

/* header word indexes */
enum {
    PH_MAGIC, PH_VERSION, PH_NODE, PH_NTERMS, PH_OP, PH_BYTES, PH_NSTEPS, PH_SYNC,
    PH_SEED, PH_REDOP, PH_NSLOTS, PH_PORTBITS, PH_STEPS_OFF, PH_SENDS_OFF, PH_RECVS_OFF,
    PH_SLOTS_OFF, PH_NSENDS, PH_NRECVS, PH_RESULT_OFF, PH_WORDS, PH_FLAGS, PH_BUF_OFF,
    PH_CONTRIB = 24,            /* 32 words: bitmap of the terminals whose data is combined (reduce) */
    PH_HEADER_WORDS = 56
};

#define PLAN_SEND_WORDS 8   /* dst, msg, slot, chan, nhops, route_lo, route_hi, reserved */
#define PLAN_RECV_WORDS 4   /* src, msg, slot, flags (bit0: verify, bit1: combine) */
#define PLAN_SLOT_WORDS 4   /* msg, origin, dest (or 0xffffffff), flags (bit0: own data) */
#define PLAN_STEP_WORDS 4   /* first send, sends, first recv, recvs */
/* result area written by the firmware: status, error word 1..3, then one
 * cycle stamp per step end (lo, hi) */
#define PLAN_RESULT_WORDS(nsteps) (8 + 2 * (nsteps))
enum { PR_STATUS, PR_MSG, PR_OFFSET, PR_GOT, PR_EXPECTED, PR_CYCLES_LO, PR_CYCLES_HI, PR_RSVD, PR_STEPS };

const char *coll_redop_name(int op);
int coll_redop_parse(const char *s);

/* Encodes node `node`'s plan.  Returns a malloc'ed word array and its length
 * in *nwords (the result area included, zeroed). */
uint32_t *coll_plan_encode(const coll_sched *s, const topo *t, int node, int bytes, int sync, uint32_t seed,
                           int redop, int *nwords);

/* The test pattern every message carries: word i of the message of origin o
 * for destination d (d = -1 for broadcast data). */
uint32_t coll_pattern(uint32_t seed, int origin, int dest, uint32_t word);

#endif
