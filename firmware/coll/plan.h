/* plan.h - the layout of a node's collective plan in its RAM: the one place
 * it is written down.  The harness writes plans (sim_harness/coll/
 * coll_plan.c) and checks the buffers after the run (coll_plan_verify in sim_harness/coll/coll_plan.c); the
 * firmware library (firmware/coll/coll.c) executes them.  Both include this
 * file.  docs/collectives.md describes the layout.
 *
 * A plan is an array of 32-bit words: a header (PH_*), then the steps,
 * sends, receives and slots (the offsets are in the header, in words), the
 * per-step completion counters the NI increments, and the result area the
 * firmware fills.  Slot i's buffer is at PH_BUF_ADDR + i * PH_STRIDE. */
#ifndef XNOC_PLAN_H
#define XNOC_PLAN_H

#include <stdint.h>

#define PLAN_MAGIC 0x4E4C5058u /* "XPLN" */
#define PLAN_VERSION 4

/* header word indexes */
enum {
    PH_MAGIC,
    PH_VERSION,
    PH_NODE,
    PH_NTERMS,
    PH_OP,
    PH_BYTES,
    PH_NSTEPS,
    PH_SYNC,
    PH_SEED,
    PH_REDOP, /* reduce: the operator, a unit operator NC_FUNC_* (firmware/lib/flit.h) */
    PH_NSLOTS,
    PH_PORTBITS,
    PH_STEPS_OFF,
    PH_SENDS_OFF,
    PH_RECVS_OFF,
    PH_SLOTS_OFF,
    PH_NSENDS,
    PH_NRECVS,
    PH_RESULT_OFF,
    PH_WORDS,
    PH_FLAGS,
    PH_BUF_ADDR,        /* address of slot 0's buffer */
    PH_CT_OFF,          /* nsteps counters: receives of step s completed */
    PH_STRIDE,          /* bytes between slot buffers (bytes rounded up to 8) */
    PH_CONTRIB = 24,    /* 32 words: bitmap of the terminals whose data is combined (reduce) */
    PH_XSTEPS_OFF = 56, /* PF_EXT: nsteps plan_xstep entries */
    PH_OPS_OFF,         /* PF_EXT: the plan_op entries */
    PH_NOPS,
    PH_DEC_OFF, /* PF_EXT: 0 = the cores XOR; else the PO_XORs as NI decode descriptors
                         * (NI_DEC_DESC_WORDS words each, in op order) at this word offset */
    PH_HEADER_WORDS = 60
};
/* PH_OP: the collective (the harness's coll_op has the same values) */
enum {
    PLAN_OP_BARRIER,
    PLAN_OP_BCAST,
    PLAN_OP_SCATTER,
    PLAN_OP_GATHER,
    PLAN_OP_REDUCE,
    PLAN_OP_ALLGATHER,
    PLAN_OP_ALLTOALL,
    PLAN_OP_MNB,
    PLAN_OP_MNS
};
enum { SYNC_GLOBAL = 0, SYNC_DATA = 1 };
/* PH_FLAGS */
#define PF_CONTRIBUTES 1u /* this node's data counts (reduce: else it contributes the identity) */
#define PF_EXT 2u         /* the plan has extended operations (plan_op, below) */

typedef struct {
    uint32_t first_send, nsend, first_recv, nrecv;
} plan_step;
typedef struct {
    uint32_t dst, msg, slot, chan, nhops, route_lo, route_hi, reserved;
} plan_send;
typedef struct {
    uint32_t src, msg, slot, flags;
} plan_recv;
typedef struct {
    uint32_t msg, origin, dest, own;
} plan_slot;                        /* dest 0xffffffff: broadcast data */
#define PLAN_SLOT_CODED 0xfffffffeu /* plan_slot.dest of a part of a coded bundle (not pattern data) */
/* Extended operations (PF_EXT), for collectives whose pieces are not whole
 * messages of PH_BYTES: hierarchical network coding (bundles of coded
 * messages, chunks through a router's coding unit, XOR on the core).
 * Offsets are bytes from PH_BUF_ADDR (slot * PH_STRIDE + offset inside).
 *   PO_SEND    table-routed send of len bytes at off to dst, tag, channel
 *   PO_ENCODE  ENCODE contribution to coding unit `dst`: count 2, result to out_dest
 *   PO_MCAST   one multicast packet (REPLICATE) of len bytes at off to coding unit
 *              `peer`, tag, channel; a = the RAM address of its mask
 *              (nc_mask_words() 64-bit words, in the plan): the units fork the
 *              copies, which arrive with the sender's source and tag
 *   PO_RECV    posted receive of len bytes from src with tag, into off
 *   PO_XOR     after the step's receives: [off] = [a] ^ [b], len bytes, on the
 *              core, or by the NI's decode engine when PH_DEC_OFF is set;
 *              POF_VERIFY: the harness checks [off] against the pattern
 *              (the slot's message) after the run
 * Within a step, the PO_XORs come after every other op. */
enum { PO_SEND = 1, PO_ENCODE, PO_RECV, PO_XOR, PO_MCAST };
#define POF_VERIFY 1u
/* SEND/ENCODE/RECV: peer = destination / unit / source; ENCODE: a = count, b = out_dest;
 * XOR: peer = POF_* flags, off = destination, a and b the operands */
typedef struct {
    uint32_t kind, peer, tag, off, len, chan, a, b;
} plan_op;
typedef struct {
    uint32_t first_op, nop, nrecv;
} plan_xstep; /* nrecv: PO_RECVs of the step */
#define PLAN_OP_WORDS 8
#define PLAN_XSTEP_WORDS 3
#define PLAN_STEP_WORDS 4
#define PLAN_SEND_WORDS 8
#define PLAN_RECV_WORDS 4
#define PLAN_SLOT_WORDS 4
/* plan_recv.flags */
#define PRF_VERIFY 1u  /* the harness checks this slot against the pattern after the run */
#define PRF_COMBINE 2u /* combined into this node's own slot (reduce, barrier) */

/* result area written by the firmware: status, details of a failure, the
 * start of the timed region, cycles spent combining, then one cycle stamp
 * per step end (lo, hi) */
enum { PR_STATUS, PR_MSG, PR_OFFSET, PR_GOT, PR_EXPECTED, PR_CYCLES_LO, PR_CYCLES_HI, PR_COMBINE, PR_STEPS };
#define PLAN_RESULT_WORDS(nsteps) (PR_STEPS + 2 * (nsteps))
/* PR_STATUS */
enum { PS_NOT_RUN, PS_DONE, PS_BAD_PLAN, PS_UNEXPECTED, PS_OVERLAP };
/* PS_UNEXPECTED: a message matched no posted receive: PR_GOT = source, PR_EXPECTED = tag;
 * PS_OVERLAP: the image's end (PR_GOT) lies above the plan */

#endif
