/* coll.h - collectives as step schedules of transfers.
 *
 * A collective moves messages between terminals.  A message has an origin
 * and, for personalized collectives, one destination; for broadcast-type
 * collectives (dest == -1) every receiver needs a copy and any holder may
 * forward it.  A schedule is a list of transfers, each in a step, each
 * carrying one message from src to dst over a route (a list of output
 * ports, one per router, the last the ejection port) or over the routers'
 * own table routing (nports == 0).
 *
 * Reduce is the one combining collective: message m of origin o is the
 * partial result of the subtree rooted at o; the receiver combines it into
 * its own partial result, and a node sends its partial only after every
 * partial it expects has arrived.
 */
#ifndef XNOC_COLL_H
#define XNOC_COLL_H

#include <stdint.h>
#include "net/topo.h"

typedef enum {
    OP_BARRIER,
    OP_BCAST,
    OP_SCATTER,
    OP_GATHER,
    OP_REDUCE,
    OP_ALLGATHER,
    OP_ALLTOALL,
    OP_MNB,
    OP_MNS,
    OP_COUNT
} coll_op;

typedef enum {
    ALGO_SCHED,
    ALGO_TREE,
    ALGO_RING,
    ALGO_RD,
    ALGO_ALL_AT_ONCE,
    ALGO_QCDOC,
    ALGO_HNC,
    ALGO_LLF,
    ALGO_GLF,
    ALGO_FOREST,
    ALGO_COMBINE, /* hnc's message-combining variant (coll/hnc.h) */
    ALGO_COUNT
} coll_algo;

#define COLL_MAX_HOPS 48

typedef struct {
    int origin; /* terminal whose data this is */
    int dest;   /* terminal it is for, or -1: everyone in the receiver set */
    int parts;  /* 0 or 1: one message of the collective's size; n > 1: a bundle of n
                   * (hnc's coded messages; not pattern data, never verified itself) */
} coll_msg;

/* A piece of a message: the whole of it (len 0), or len bytes at byte off
 * of part `part`.  Pieces to or from a coding unit (an address >= nterms,
 * hnc --xor unit) are ENCODE contributions with count 2 and the result to
 * out_dest, and that result on its way back. */
typedef struct {
    int step, src, dst, msg;
    int chan;   /* injection channel of src (k-port) */
    int nports; /* 0: table routing */
    int8_t ports[COLL_MAX_HOPS];
    int part, off, len, tag; /* len 0: the whole message, tag = its id */
    int out_dest;            /* to a unit: where the slot's result goes */
    int mc;                  /* nonzero: one multicast through src's router's coding unit (hnc's E with
                              * unit_mcast): the transfers with this id are consecutive, share step, src
                              * and msg, and leave src as ONE packet the units replicate to their dsts */
} coll_xfer;

/* An XOR on a node's core after the receives of a step: (dmsg, dpart) =
 * (amsg, apart) ^ (bmsg, bpart), message-sized; verify: dmsg is pattern
 * data the harness checks afterwards (hnc's decoding). */
typedef struct {
    int step, node, dmsg, dpart, amsg, apart, bmsg, bpart, verify;
} coll_xor;

typedef struct {
    coll_op op;
    int nterms;
    unsigned char *from, *to; /* transmitter / receiver sets */
    int root;                 /* bcast/scatter: from; gather/reduce: to */
    int nmsgs;
    coll_msg *msgs;
    int nxfers, cap;
    coll_xfer *xf;
    int nsteps;
    int detour; /* routes are at most this many links longer than minimal; -1 unknown */
    int nxors, xcap;
    coll_xor *xors;
    int *rank_order; /* NULL, or the members in rank order (--alloc: random) */
    int nranks;
} coll_sched;

const char *coll_op_name(coll_op op);
int coll_op_parse(const char *s); /* -1 if unknown */
const char *coll_algo_name(coll_algo a);
int coll_algo_parse(const char *s);

/* Fills the sets and the message list of a collective.  from/to may be NULL
 * for the op's defaults (root 0, or every terminal).  Returns 0, or -1 with
 * one line in err. */
int coll_init(coll_sched *s, const topo *t, coll_op op, const char *from, const char *to, char *err, int errlen);
void coll_free(coll_sched *s);

/* Appends a transfer; returns it for the caller to fill a route. */
coll_xfer *coll_add(coll_sched *s, int step, int src, int dst, int msg);

/* Appends a message (origin, dest, parts); returns its id. */
int coll_add_msg(coll_sched *s, int origin, int dest, int parts);
/* Appends an XOR (see coll_xor). */
coll_xor *coll_add_xor(coll_sched *s, int step, int node);
/* Bytes transfer x carries when messages have `bytes` bytes. */
int coll_xfer_bytes(const coll_sched *s, const coll_xfer *x, int bytes);

/* Message ids: the message of origin o (broadcast types, reduce partials),
 * and of the pair (o, d) (personalized types); -1 if there is none. */
int coll_msg_of(const coll_sched *s, int origin, int dest);

/* Built-in algorithms (binomial tree, ring, recursive doubling, all at
 * once), all with table routing.  Returns 0, or -1 with one line in err
 * when the algorithm does not apply (e.g. rd needs a power-of-two set). */
int coll_builtin(coll_sched *s, const topo *t, coll_algo a, char *err, int errlen);

/* Binomial tree over u[0..n-1] from u[0] (rank j sends to j + 2^i in step
 * step0 + i); returns its steps, ceil(log2 n). */
int coll_tree_bcast(coll_sched *s, const int *u, int n, int msg, int step0);
int coll_ceil_log2(int n);

/* The dragonfly broadcasts LLF, GLF and FOREST (coll/dfbcast.c). */
int coll_dragonfly(coll_sched *s, const topo *t, coll_algo a, char *err, int errlen);

/* Checks a schedule against the collective's meaning: every required
 * delivery happens, nothing is sent before its sender holds it.  Channel
 * conflicts are not checked (built-in algorithms may contend; the
 * scheduler's verifier checks those).  Returns 0 or -1 with one line. */
int coll_check(const coll_sched *s, char *err, int errlen);

#endif
