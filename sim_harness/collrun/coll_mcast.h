/* coll_mcast.h - bcast, allgather and mnb on a clos by hardware multicast,
 * each multicast routed through the spines the paper's routing control
 * (net/clos_ctl.c) picks, the units replicating; every byte checked after
 * the run (docs/clos.md "Collectives with hardware multicast").  `xnoc
 * collective --algo multicast` checks the options and renders the report. */
#ifndef XNOC_COLL_MCAST_H
#define XNOC_COLL_MCAST_H

#include <stdint.h>

#include "collrun/coll_image.h"

/* What to run: every sender's message to every receiver. */
typedef struct {
    const char *name;   /* the collective's name in error lines: "bcast", "allgather", "mnb" */
    const uint8_t *src; /* [terminal] 1: it multicasts its message */
    const uint8_t *rcv; /* [terminal] 1: it receives the others' */
    int all;            /* every message to its own place (allgather, mnb); else one root's (bcast) */
    int root;           /* bcast: the root */
    int packed;         /* a step takes multicasts until the control blocks (else the paper's assignment) */
    int bytes;          /* a multiple of 4, at most INNET_MAX_CHUNKS chunks of innet_chunk_bytes */
    uint32_t seed;
    uint64_t max_cycles;
} mcast_opts;

/* How it went: the run, the steps and routes, the flits the links should carry. */
typedef struct {
    coll_image_result run;
    int multicasts, steps, blocked, steps_output_conflict, steps_unroutable, spines_used, chunks, chunk_bytes;
    uint64_t link_flits_expected;
} mcast_result;

/* the most terminals (and addresses, terminals + routers) a multicast plan holds */
int coll_mcast_max_terms(void);
int coll_mcast_max_addrs(void);

/* Runs it on a clos (t), the routers with coding units.  Returns COLLRUN_RAN
 * (r says how it went), COLLRUN_REFUSED (the control cannot route a
 * multicast on an idle network, or the system cannot be built) or
 * COLLRUN_FAILED (the control's state broke its invariant); r->run.error
 * says why, r->run.planning when the routing refused it. */
int collrun_mcast(const topo *t, const router_cfg *rc, const mcast_opts *o, const coll_exec_opts *xo, mcast_result *r);

#endif
