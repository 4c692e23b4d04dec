/* coll_innet.h - `xnoc collective --algo innet`: reduce and allreduce
 * combined inside the network by the routers' coding units, along the
 * dimension-ordered tree of a mesh or torus (firmware/coll/innet.h), every
 * word checked against the host's own reduction after the run. */
#ifndef XNOC_COLL_INNET_H
#define XNOC_COLL_INNET_H

#include <stdint.h>

#include "exec/coll_exec.h"
#include "net/router_cfg.h"
#include "net/topo.h"

typedef struct {
    const char *op;    /* "reduce" or "allreduce" */
    const char *redop; /* --reduce-op name (NULL: sum) */
    const char *from;  /* reduce: the root terminal (NULL: the default); --algo multicast: bcast's root, mnb's set */
    const char *to;    /* --algo multicast, mnb: the receivers (NULL: every terminal) */
    int packed;        /* --algo multicast --steps packed: a step takes multicasts until the control blocks */
    int bytes;         /* -1: 64 */
    uint32_t seed;
    uint64_t max_cycles;
    int json;
} innet_args;

/* Runs it and prints the report; returns the exit status. */
int coll_innet_cmd(const topo *t, const router_cfg *rc, const innet_args *a, const coll_exec_opts *xo);

#endif
